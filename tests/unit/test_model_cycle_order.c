/*
 * test_model_cycle_order: fit_cycle_order (the hot blocks' order: windows
 * slid along, distances counted, jumps' ranks found once, a window left
 * once it cannot win) picks the same window as the old cycle_order (each
 * window scored from scratch), on run-start sequences like msr's (blocks
 * in a fixed order, noise between) and random ones (few and many blocks,
 * fresh starts, blocks at equal offsets, sizes from 1 to 255 units).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

static uint64_t rs = 88172645463325252ull;

/* ---- the old cycle_order's window search (fit_device.c before), for
 * reference; the trace's side, which it shares, is fit_cycle_trace ---- */
static double old_ks(const uint32_t *v, uint32_t n, const double *tcdf)
{
	double m = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i + 1 < n && v[i + 1] == v[i])
			continue;
		double fw = (double)(i + 1) / n, lo = (double)i / n;
		for (uint32_t b = i; b > 0 && v[b - 1] == v[i]; b--)
			lo = (double)(b - 1) / n;
		double a = fabs(fw - tcdf[v[i]]), b = fabs(lo - tcdf[v[i] - 1]);
		m = fmax(m, fmax(a, b));
	}
	return m;
}

static double old_jump_ks(const int64_t *v, uint32_t n, const int64_t *t, size_t nt)
{
	if (!n || !nt)
		return n || nt ? 1 : 0;
	double m = 0;
	for (uint32_t i = 0; i < n; i++) {
		size_t lo = 0, hi = nt;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (t[mid] < v[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t below = lo;
		for (hi = nt; lo < hi;) {
			size_t mid = (lo + hi) / 2;
			if (t[mid] <= v[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		uint32_t b = i;
		while (b > 0 && v[b - 1] == v[i])
			b--;
		if (i + 1 < n && v[i + 1] == v[i])
			continue;
		m = fmax(m, fmax(fabs((double)(i + 1) / n - (double)lo / (double)nt),
				 fabs((double)b / n - (double)below / (double)nt)));
	}
	return m;
}

static void old_order(const struct fit_cycle_in *in, uint32_t *bp, uint32_t *bi)
{
	const uint8_t *s = in->s;
	uint8_t pair[MODEL_MAX_CYCLE + 1][MODEL_MAX_CYCLE + 1] = {{0}};
	double *tcdf = calloc(FIT_CYCLE_DMAX + 1, sizeof(*tcdf)), best = 4;
	int64_t *tj = malloc(in->n * sizeof(*tj));
	long ntj =
	    tcdf && tj && in->n >= 2 * MODEL_MAX_ORDER ? fit_cycle_trace(in, pair, tcdf, tj) : -1;
	*bp = *bi = 0;
	for (uint32_t p = FIT_CYCLE_PMIN; ntj >= 0 && p <= MODEL_MAX_ORDER; p++)
		for (uint32_t i = 0; i + p <= in->n; i++) {
			uint32_t v[MODEL_MAX_ORDER], nv = 0, nj = 0;
			int64_t jv[MODEL_MAX_ORDER];
			if (!pair[s[i + p - 1]][s[i]])
				continue;
			for (uint32_t k = 0; k < p; k++) {
				uint8_t x = s[i + k];
				uint32_t dd = 1;
				if (!x)
					continue;
				while (dd < p && s[i + (k + dd) % p] != x)
					dd++;
				uint32_t b = nv++;
				for (; b > 0 && v[b - 1] > dd; b--)
					v[b] = v[b - 1];
				v[b] = dd;
			}
			for (uint32_t k = 0; k < p; k++) {
				uint32_t a = i + k, b = i + (k + 1) % p;
				if (!s[a] || !s[b])
					continue;
				int64_t x = fit_cycle_jump(in, a, b);
				uint32_t c = nj++;
				for (; c > 0 && jv[c - 1] > x; c--)
					jv[c] = jv[c - 1];
				jv[c] = x;
			}
			double ks =
			    nv ? old_ks(v, nv, tcdf) + old_jump_ks(jv, nj, tj, (size_t)ntj) : 4;
			if (ks < best) {
				best = ks;
				*bp = p;
				*bi = i;
			}
		}
	free(tj);
	free(tcdf);
}

/* ---- sequences ---- */
/* N starts: an order of PERIOD starts over NB blocks (some fresh) replayed
 * with noise NOISE (a start replaced by another block or a fresh one);
 * PERIOD 0: each start drawn at random. */
static void make_seq(uint8_t *s, uint8_t *len, uint32_t n, uint32_t nb, uint32_t period,
		     double noise, double fresh)
{
	uint8_t order[2 * MODEL_MAX_ORDER];
	for (uint32_t k = 0; k < period; k++)
		order[k] = unit_urand(&rs) < fresh ? 0 : (uint8_t)(1 + unit_below(&rs, nb));
	for (uint32_t i = 0; i < n; i++) {
		if (period && unit_urand(&rs) >= noise)
			s[i] = order[i % period];
		else
			s[i] = unit_urand(&rs) < fresh ? 0 : (uint8_t)(1 + unit_below(&rs, nb));
		double r = unit_urand(&rs);
		len[i] = r < 0.6    ? 1
			 : r < 0.9  ? (uint8_t)(1 + unit_below(&rs, 4))
			 : r < 0.97 ? 8
				    : 255;
	}
}

static int check_seq(uint32_t n, uint32_t nb, uint32_t period, double noise, double fresh)
{
	uint8_t *s = malloc(n), *len = malloc(n);
	uint64_t off[MODEL_MAX_CYCLE];
	for (uint32_t k = 0; k < MODEL_MAX_CYCLE; k++) /* some blocks at equal places */
		off[k] = k && unit_urand(&rs) < 0.1 ? off[k - 1] : unit_below(&rs, 1 << 20) * 4096;
	CHECK(s && len);
	make_seq(s, len, n, nb, period, noise, fresh);
	struct fit_cycle_in in = {.s = s, .len = len, .off = off, .align = 4096, .n = n};
	uint32_t p0, i0, p1, i1;
	old_order(&in, &p0, &i0);
	fit_cycle_order(&in, &p1, &i1);
	if (p0 != p1 || i0 != i1)
		printf("n %u, %u blocks, period %u, noise %g, fresh %g: old %u from %u, new %u "
		       "from %u\n",
		       n, nb, period, noise, fresh, p0, i0, p1, i1);
	CHECK(p0 == p1 && i0 == i1);
	free(s);
	free(len);
	return p0 > 0;
}

int main(void)
{
	int found = 0;
	for (int t = 0; t < 80; t++) {
		uint32_t n = 2 * MODEL_MAX_ORDER - (t == 0) + (uint32_t)unit_below(&rs, 300);
		uint32_t nb = 1 + (uint32_t)unit_below(&rs, t % 3 ? MODEL_MAX_CYCLE : 3);
		uint32_t period =
		    t % 4 ? 2 + (uint32_t)unit_below(&rs, 2 * MODEL_MAX_ORDER - 2) : 0;
		double noise = t % 5 == 0 ? 0 : unit_urand(&rs) * 0.5;
		found += check_seq(n, nb, period, noise, t % 7 ? unit_urand(&rs) * 0.3 : 0);
	}
	CHECK(found > 60);
	CHECK(check_seq(8192, 12, 26, 0.1, 0.2)); /* msr's: 26 starts, 12 blocks */
	printf("80 run-start sequences (%d with an order) and one like msr's: the same window as "
	       "the old search\n",
	       found);
	return 0;
}
