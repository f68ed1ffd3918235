/*
 * The order a device's kept hot blocks are touched in (hot_order; HISTORY.md
 * "Fit's hot blocks' order searched by windows slid along"): of the trace's
 * own windows of FIT_CYCLE_PMIN to MODEL_MAX_ORDER run starts, the one
 * whose replay in turn is nearest the trace (least KS, the distances' and
 * the jumps'; the shorter, then the earlier, of equal ones).
 *
 * Each window was scored from scratch (its distances by a scan of the
 * window, its values sorted by insertion, two bisections of the trace's
 * jumps a value): 3.9 G instructions, the same at 1M I/O as at 10M (the
 * first FIT_CYCLE_SEQ starts), all after pass 4 on one thread.  Here a
 * start's distance is its next like start's, found once; a window's
 * distances are counted, not sorted; its jumps between neighbours are a
 * sorted list slid along with the window, each with its ranks in the
 * trace's jumps found once; and a window stops being scored once its
 * partial KS cannot beat the best.  The KS values are computed by the same
 * expressions on the same values, so the window chosen is the same.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"

/* a jump between two kept blocks' starts, with the number of the trace's
 * jumps below it and up to it */
struct cycle_jmp {
	int64_t x;
	uint32_t below, upto;
};

/* The jump from start A's block (of its size) to start B's: the trace's
 * blocks are one align wide and start where their cycle entry does. */
int64_t fit_cycle_jump(const struct fit_cycle_in *in, uint32_t a, uint32_t b)
{
	return (int64_t)in->off[in->s[b] - 1] -
	       (int64_t)(in->off[in->s[a] - 1] + (uint64_t)in->len[a] * in->align);
}

/* X with its ranks among the trace's NT sorted jumps T. */
static struct cycle_jmp cycle_jmp_of(int64_t x, const int64_t *t, size_t nt)
{
	size_t lo = 0, hi = nt; /* the trace's jumps below x */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t below = lo;
	for (hi = nt; lo < hi;) { /* and up to it */
		size_t mid = (lo + hi) / 2;
		if (t[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (struct cycle_jmp){.x = x, .below = (uint32_t)below, .upto = (uint32_t)lo};
}

/* The trace's side: PAIR (a start after another), TCDF (its distances'
 * CDF, 0 .. FIT_CYCLE_DMAX), TJ (its jumps between kept blocks, sorted;
 * their number).  -1 where it has no distance (nothing to match) or on
 * failure. */
long fit_cycle_trace(const struct fit_cycle_in *in, uint8_t (*pair)[MODEL_MAX_CYCLE + 1],
		     double *tcdf, int64_t *tj)
{
	const uint8_t *s = in->s;
	uint32_t n = in->n, last[MODEL_MAX_CYCLE] = {0};
	double tot = 0;
	for (uint32_t i = 1; i < n; i++)
		pair[s[i - 1]][s[i]] = 1;
	for (uint32_t i = 0; i < n; i++) /* the trace's distances */
		if (s[i]) {
			if (last[s[i] - 1]) {
				uint32_t dd = i + 1 - last[s[i] - 1];
				tcdf[dd < FIT_CYCLE_DMAX ? dd : FIT_CYCLE_DMAX]++;
				tot++;
			}
			last[s[i] - 1] = i + 1;
		}
	if (!(tot > 0))
		return -1;
	size_t ntj = 0;
	for (uint32_t i = 1; i < n; i++)
		if (s[i - 1] && s[i])
			tj[ntj++] = fit_cycle_jump(in, i - 1, i);
	if (model_sort_i64(tj, ntj))
		return -1;
	for (uint32_t v = 0, c = 0; v <= FIT_CYCLE_DMAX; v++)
		tcdf[v] = (c += (uint32_t)tcdf[v]) / tot;
	return (long)ntj;
}

/* The KS distance between the window's (starts I .. I + P - 1, replayed
 * in turn) distances, each start's to its block's next start (cyclic; P
 * where it is its block's only one), and TCDF, or a part of it once that
 * is BEST or more; NXT: each start's like start after it (UINT32_MAX:
 * none).  -1: no kept block in the window. */
static double cycle_dist_ks(const uint8_t *s, const uint32_t *nxt, uint32_t i, uint32_t p,
			    const double *tcdf, double best)
{
	uint32_t h[MODEL_MAX_ORDER + 1] = {0}, first[MODEL_MAX_CYCLE + 1], nv = 0;
	uint64_t seen = 0; /* bit x: block x - 1 has a start in the window */
	for (uint32_t k = 0; k < p; k++) {
		uint8_t x = s[i + k];
		if (!x)
			continue;
		if (!(seen >> x & 1)) {
			seen |= 1ull << x;
			first[x] = k;
		}
		h[nxt[i + k] < i + p ? nxt[i + k] - (i + k) : p - k + first[x]]++;
		nv++;
	}
	if (!nv)
		return -1;
	/* the step CDF's value at and just below each distance (the largest
	 * differences between two step CDFs lie there) */
	double m = 0;
	for (uint32_t d = 1, c = 0; d <= p; d++)
		if (h[d]) {
			uint32_t lo = c;
			c += h[d];
			double a = fabs((double)c / nv - tcdf[d]),
			       b = fabs((double)lo / nv - tcdf[d - 1]);
			if ((m = fmax(m, fmax(a, b))) >= best)
				break;
		}
	return m;
}

/* KS + the KS distance of the window's N sorted jumps V from the trace's
 * (NT of them), at each of V's steps, or a partial sum once it is BEST or
 * more (a larger KS only: the window is not the best). */
static double cycle_jump_ks(const struct cycle_jmp *v, uint32_t n, size_t nt, double ks,
			    double best)
{
	if (!n || !nt)
		return ks + (n || nt ? 1 : 0);
	double m = 0;
	for (uint32_t i = 0, b = 0; i < n; i++) {
		if (i && v[i - 1].x != v[i].x)
			b = i; /* the window's below v[i] */
		if (i + 1 < n && v[i + 1].x == v[i].x)
			continue;
		m = fmax(m, fmax(fabs((double)(i + 1) / n - (double)v[i].upto / (double)nt),
				 fabs((double)b / n - (double)v[i].below / (double)nt)));
		if (ks + m >= best)
			break;
	}
	return ks + m;
}

/* J into the sorted V[*N]; or out of it (one of its value). */
static void cycle_jmp_put(struct cycle_jmp *v, uint32_t *n, struct cycle_jmp j)
{
	uint32_t k = *n;
	for (; k > 0 && v[k - 1].x > j.x; k--)
		v[k] = v[k - 1];
	v[k] = j;
	++*n;
}
static void cycle_jmp_take(struct cycle_jmp *v, uint32_t *n, int64_t x)
{
	uint32_t k = 0;
	while (v[k].x != x)
		k++;
	memmove(v + k, v + k + 1, (*n - k - 1) * sizeof(*v));
	--*n;
}

/* The windows of P starts, in turn: the best so far in *BEST, *BP, *BI.
 * JN[a]: start A's jump to start A + 1 (where both are kept). */
static void cycle_windows(const struct fit_cycle_in *in, uint32_t p, const struct cycle_jmp *jn,
			  const uint32_t *nxt, const uint8_t (*pair)[MODEL_MAX_CYCLE + 1],
			  const double *tcdf, const int64_t *tj, size_t ntj, double *best,
			  uint32_t *bp, uint32_t *bi)
{
	const uint8_t *s = in->s;
	struct cycle_jmp w[MODEL_MAX_ORDER], v[MODEL_MAX_ORDER];
	uint32_t nw = 0; /* the window's jumps but its wrap, sorted */
	for (uint32_t a = 0; a + 1 < p; a++)
		if (s[a] && s[a + 1])
			cycle_jmp_put(w, &nw, jn[a]);
	for (uint32_t i = 0; i + p <= in->n; i++) {
		/* its replay wraps from its last start to its first: only
		 * where the trace goes so (msr's window ending on block 6 and
		 * starting on 7 made a sequential pair every turn, which the
		 * trace never writes) */
		double ks =
		    pair[s[i + p - 1]][s[i]] ? cycle_dist_ks(s, nxt, i, p, tcdf, *best) : -1;
		if (ks >= 0 && ks < *best) {
			memcpy(v, w, nw * sizeof(*v));
			uint32_t nv = nw;
			if (s[i + p - 1] && s[i])
				cycle_jmp_put(
				    v, &nv,
				    cycle_jmp_of(fit_cycle_jump(in, i + p - 1, i), tj, ntj));
			if ((ks = cycle_jump_ks(v, nv, ntj, ks, *best)) < *best) {
				*best = ks;
				*bp = p;
				*bi = i;
			}
		}
		if (s[i] && s[i + 1]) /* the window slides on */
			cycle_jmp_take(w, &nw, jn[i].x);
		if (i + p < in->n && s[i + p - 1] && s[i + p])
			cycle_jmp_put(w, &nw, jn[i + p - 1]);
	}
}

void fit_cycle_order(const struct fit_cycle_in *in, uint32_t *bp, uint32_t *bi)
{
	uint32_t n = in->n;
	const uint8_t *s = in->s;
	uint8_t pair[MODEL_MAX_CYCLE + 1][MODEL_MAX_CYCLE + 1] = {{0}};
	double *tcdf = calloc(FIT_CYCLE_DMAX + 1, sizeof(*tcdf)), best = 4;
	int64_t *tj = malloc(n * sizeof(*tj));
	uint32_t *nxt = malloc(n * sizeof(*nxt)), at[MODEL_MAX_CYCLE + 1];
	struct cycle_jmp *jn = malloc(n * sizeof(*jn));
	long ntj = -1;
	*bp = *bi = 0;
	if (tcdf && tj && nxt && jn && n >= 2 * MODEL_MAX_ORDER)
		ntj = fit_cycle_trace(in, pair, tcdf, tj);
	if (ntj >= 0) {
		for (uint32_t x = 0; x <= MODEL_MAX_CYCLE; x++)
			at[x] = UINT32_MAX;
		for (uint32_t i = n; i-- > 0;) { /* each start's like one after it */
			nxt[i] = at[s[i]];
			at[s[i]] = i;
			if (i + 1 < n && s[i] && s[i + 1])
				jn[i] = cycle_jmp_of(fit_cycle_jump(in, i, i + 1), tj, (size_t)ntj);
		}
		for (uint32_t p = FIT_CYCLE_PMIN; p <= MODEL_MAX_ORDER; p++)
			cycle_windows(in, p, jn, nxt, (const uint8_t(*)[MODEL_MAX_CYCLE + 1]) pair,
				      tcdf, tj, (size_t)ntj, &best, bp, bi);
	}
	free(jn);
	free(nxt);
	free(tj);
	free(tcdf);
}
