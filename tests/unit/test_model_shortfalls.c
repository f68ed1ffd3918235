/*
 * test_model_shortfalls: the regions' shortfalls, cumulated, where the
 * wants are the weights times N (model/gen_offsets.c shortfalls_by_weight:
 * four regions at a time with AVX2, two with SSE2 on x86-64 without it or
 * with reel_codec_plain, both asked) are the floats and the sum
 * the loop over shortfall gave (round 27's, copied below): on the fuzz
 * corpus' models of 1 to 16 devices, at scale 1 and at a --capacity's,
 * every device's state as placing left it every 97 I/O, its shortfalls
 * made again (gen_offsets_region on a copy, short_at 0), and again after
 * a region's count was moved by -3 to +3 (regions short and not, either
 * side of the root's edge) or set past 2^31 (the count's conversion).
 * (Round 28's test of branch gplace, kept.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel_internal.h"
#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_made, n_short;

/* round 27's shortfalls, where the model has no shares by segment */
static void ref_shortfalls(const struct model_devspace *d, const struct devstate *s, float *sc,
			   double *tot)
{
	double pend[MODEL_MAX_LONG], c = 0, f = 0;
	uint32_t at[MODEL_MAX_LONG], nl = 0;
	if (s->nper >= 1)
		f = fmin(1, ((double)s->hn - (double)s->lcycle * s->nper) / s->nper);
	for (uint32_t i = s->lnext; i < d->nlong && f > 0; i++, nl++) {
		at[nl] = s->lr_reg[i];
		pend[nl] = (double)d->longrun[i].len * f;
	}
	double p[MODEL_MAX_REGIONS] = {0};
	for (uint32_t i = 0; i < nl; i++)
		p[at[i]] += pend[i];
	double n = (double)s->hn;
	for (uint32_t r = 0; r < d->nregions; r++) {
		double want = d->weight[r] * n - p[r], a = want - (double)s->rn[r], x = 0;
		if (a - 1 > 0) {
			x = a - 2 * sqrt(want > 0 ? want : 0) - 1;
			x = x > 0 ? x : 0;
		}
		if (x > 0)
			c += x;
		sc[r] = (float)c;
	}
	*tot = c;
}

static void check_made(struct model_gen *g, const struct model_devspace *dv, struct devstate *t)
{
	if (dv->nregions < 2 || t->hn < GEN_SHORT_MIN || (dv->seg_fitted && t->nper >= 1))
		return;
	t->short_at = 0;
	t->short_due = 0; /* due at once */
	t->short_pick = 0;
	t->reusing = 0;
	gen_offsets_region(g, dv, t);
	float sc[MODEL_MAX_REGIONS];
	double tot;
	ref_shortfalls(dv, t, sc, &tot);
	CHECK(memcmp(sc, t->short_c, dv->nregions * sizeof(float)) == 0);
	CHECK(memcmp(&tot, &t->short_tot, sizeof(tot)) == 0);
	/* due again every nregions / 4 I/O, at least GEN_SHORT_EVERY */
	uint64_t every = dv->nregions / 4 > GEN_SHORT_EVERY ? dv->nregions / 4 : GEN_SHORT_EVERY;
	CHECK(t->short_at == (t->hn ? t->hn : 1) && t->short_due == t->short_at + every);
	for (uint32_t j = 0; j < (dv->nregions - 1) / 16; j++) /* the 16ths kept */
		CHECK(memcmp(&t->short_16[j], &sc[16 * j + 15], sizeof(float)) == 0);
	n_made++;
	n_short += tot > 0;
}

static void test_model(const char *name, uint64_t capacity)
{
	struct model m;
	unit_model_load_corpus(&m, name);
	struct model_gen *g;
	struct model_gen_opts o = {.seed = 11, .rate = 4, .capacity = capacity};
	CHECK(model_gen_create(&g, &m, &o) == 0);
	struct devstate *t = malloc(sizeof(*t));
	CHECK(t != NULL);
	struct reel_rec rec;
	uint64_t n = 0;
	for (int k = 1; model_gen_next(g, &rec) == 1 && ++n < 20000; k++) {
		if (k % 97)
			continue;
		for (size_t d = 0; d < m.ndevs; d++) {
			const struct model_devspace *dv = &m.devs[d];
			memcpy(t, &g->ds[d], sizeof(*t));
			check_made(g, dv, t);
			for (int dr = -3; dr <= 3 && dv->nregions >= 2; dr++) {
				memcpy(t, &g->ds[d], sizeof(*t));
				uint32_t r = (uint32_t)(k / 97) % dv->nregions;
				t->rn[r] =
				    (uint32_t)((int64_t)t->rn[r] + dr >= 0 ? (int64_t)t->rn[r] + dr
									   : 0);
				check_made(g, dv, t);
			}
			static const uint32_t big[] = {0x7fffffffu, 0x80000000u, 0xffffffffu};
			for (int b = 0; b < 3 && dv->nregions >= 2; b++) {
				memcpy(t, &g->ds[d], sizeof(*t));
				t->rn[(uint32_t)(k / 97 + b) % dv->nregions] = big[b];
				check_made(g, dv, t);
			}
		}
	}
	free(t);
	model_gen_destroy(g);
	model_free(&m);
	printf("%s capacity %llu: %llu I/O, %llu shortfalls made, %llu with a region short\n", name,
	       (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)n_made,
	       (unsigned long long)n_short);
}

/* round 29's search of gen_offsets_region (the bisection, copied) */
static uint32_t ref_search(const float *c, uint32_t n, double u)
{
	uint32_t lo = 0, hi = n - 1;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (c[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* gen_short_search (by gen_short_16ths' copy of the 16ths) against the
 * bisection: cumulated floats (ties, runs of
 * 0, steps of one float, past FLT_MAX to infinity) of 2 to
 * MODEL_MAX_REGIONS entries, U at random, at each entry as a double and a
 * double either side, between two floats, at 0, -0, below 0, NaN, past
 * FLT_MAX and infinite. */
static void test_search(void)
{
	static float c[MODEL_MAX_REGIONS];
	uint64_t rs = 0x5ea7c4ull, n_asked = 0;
	for (int set = 0; set < 20000; set++) {
		uint32_t n =
		    2 + (uint32_t)(unit_urand(&rs) * (set % 3 ? 40 : MODEL_MAX_REGIONS - 1));
		double sum = 0, big = set % 7 == 0 ? 1e38 : set % 7 == 1 ? 1e-40 : 100;
		for (uint32_t i = 0; i < MODEL_MAX_REGIONS; i++) {
			double x = unit_urand(&rs);
			sum += x < 0.3 ? 0 : x * big;
			c[i] = (float)sum;
			if (set % 5 == 2 && i && x < 0.5) /* one float up */
				c[i] = nextafterf(c[i - 1], INFINITY);
			if (i >= n) /* past N: anything */
				c[i] = x < 0.5 ? 0 : NAN;
		}
		float c16[MODEL_MAX_REGIONS / 16];
		for (uint32_t j = 0; j < MODEL_MAX_REGIONS / 16; j++) /* past the 16ths: anything */
			c16[j] = unit_urand(&rs) < 0.5 ? 0 : unit_urand(&rs) < 0.5 ? NAN : INFINITY;
		gen_short_16ths(c, n, c16);
		for (int q = 0; q < 64; q++, n_asked++) {
			double u = unit_urand(&rs) * sum * 1.1;
			uint32_t i = (uint32_t)(unit_urand(&rs) * n);
			if (q % 4 == 1)
				u = (double)c[i];
			else if (q % 4 == 2)
				u = nextafter((double)c[i], q % 8 < 4 ? -INFINITY : INFINITY);
			else if (q % 4 == 3 && i + 1 < n) /* between two floats */
				u = ((double)c[i] + (double)nextafterf(c[i], INFINITY)) / 2;
			if (q == 0)
				u = (double[]){0.0, -0.0, -1, NAN, 1e39, INFINITY, 3.5e38}[set % 7];
			CHECK_EQ(gen_short_search(c, c16, n, u), ref_search(c, n, u));
		}
	}
	printf("%llu searches: the same\n", (unsigned long long)n_asked);
}

int main(void)
{
	test_search();
	unit_model_gen_each(test_model); /* AVX2's where the processor has it */
	CHECK(n_made > 100 && n_short > 10);
	uint64_t made = n_made;
	reel_codec_plain(1); /* SSE2's (x86-64's base) */
	unit_model_gen_each(test_model);
	reel_codec_plain(0);
	CHECK(n_made > 2 * made - 100);
	printf("ok\n");
	return 0;
}
