/*
 * model/measures.c - what fit and compare measure on a trace: the
 * Kolmogorov-Smirnov distance, the b-model bias (entropy plot), PQRS
 * quadrant shares and the demerit figure.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* ---- Kolmogorov-Smirnov ----------------------------------------------- */
double model_ks(const int64_t *a, size_t na, const int64_t *b, size_t nb)
{
	if (!na || !nb)
		return (na || nb) ? 1.0 : 0.0;
	size_t i = 0, j = 0;
	double dmax = 0;
	while (i < na && j < nb) {
		int64_t x = a[i] < b[j] ? a[i] : b[j];
		while (i < na && a[i] == x)
			i++;
		while (j < nb && b[j] == x)
			j++;
		double dd = fabs((double)i / (double)na - (double)j / (double)nb);
		if (dd > dmax)
			dmax = dd;
	}
	return dmax;
}

/* ---- b-model bias ------------------------------------------------------ */
static double entropy2(double b)
{
	if (b <= 0 || b >= 1)
		return 0;
	return -b * log2(b) - (1 - b) * log2(1 - b);
}

/*
 * The entropy plot: for 2^j bins of [t0, t1) the entropy of the count
 * shares grows by H(b) per level for a b-model (Wang et al., 2002).  The
 * slope is fitted over the levels whose bins hold >= 16 events on average,
 * and inverted to b in [0.5, 1].
 */
int model_bm_init(struct model_bm *bm, size_t n, int64_t t0, int64_t t1)
{
	return model_bm_init_max(bm, n, t0, t1, 20);
}

int model_bm_init_max(struct model_bm *bm, size_t n, int64_t t0, int64_t t1, int maxl)
{
	memset(bm, 0, sizeof(*bm));
	if (t1 <= t0 || n < 64)
		return 0;
	int L = 0;
	while (L < maxl && ((size_t)16 << (L + 1)) <= n)
		L++;
	if (L < 2)
		return 0;
	bm->L = L;
	bm->nb = (size_t)1 << L;
	bm->c = calloc(bm->nb, sizeof(*bm->c));
	if (!bm->c)
		return REEL_E_NOMEM;
	bm->t0 = t0;
	bm->t1 = t1;
	bm->span = (double)(t1 - t0);
	bm->lo = bm->hi = t0; /* empty: every add takes the slow path once */
	return 0;
}

static size_t bm_bin(const struct model_bm *bm, int64_t t)
{
	size_t k = (size_t)((double)(t - bm->t0) / bm->span * (double)bm->nb);
	return k >= bm->nb ? bm->nb - 1 : k;
}

void model_bm_add_slow(struct model_bm *bm, int64_t t)
{
	if (!bm->c || t < bm->t0 || t >= bm->t1)
		return;
	size_t k = bm_bin(bm, t);
	bm->c[k]++;
	/* hi: the first time after t in a later bin (or t1), from an estimate
	 * corrected by the exact binning */
	int64_t hi = bm->t1;
	if (k + 1 < bm->nb) {
		double est = (double)(k + 1) * bm->span / (double)bm->nb;
		hi = bm->t0 + (int64_t)est;
		if (hi <= t)
			hi = t + 1;
		if (hi > bm->t1)
			hi = bm->t1;
		while (hi > t + 1 && bm_bin(bm, hi - 1) > k)
			hi--;
		while (hi < bm->t1 && bm_bin(bm, hi) <= k)
			hi++;
	}
	bm->lo = t;
	bm->hi = hi;
	bm->k = k;
}

double model_bmodel(const int64_t *t, size_t n, int64_t t0, int64_t t1)
{
	struct model_bm bm;
	if (model_bm_init(&bm, n, t0, t1))
		return -1;
	model_bm_add_all(&bm, t, n);
	return model_bm_finish(&bm);
}

void model_bm_add_all(struct model_bm *bm, const int64_t *t, size_t n)
{
	if (!bm->c)
		return;
	for (size_t i = 0; i < n;) {
		if (t[i] >= bm->lo && t[i] < bm->hi) {
			size_t j = i + 1;
			while (j < n && t[j] >= bm->lo && t[j] < bm->hi)
				j++;
			bm->c[bm->k] += j - i;
			i = j;
		} else {
			model_bm_add_slow(bm, t[i++]);
		}
	}
}

#define BM_MEMO 1024
double model_bm_finish(struct model_bm *bm)
{
	uint64_t *c = bm->c;
	int L = bm->L;
	bm->c = NULL;
	if (!c)
		return -1;
	size_t used = 0; /* the events inside [t0, t1) */
	for (size_t k = 0; k < bm->nb; k++)
		used += c[k];
	if (used < 64) {
		free(c);
		return -1;
	}
	/* p log2 p of each small count, computed once: most bins hold few */
	double memo[BM_MEMO];
	memo[0] = 0;
	for (size_t x = 1; x < BM_MEMO; x++) {
		double p = (double)x / (double)used;
		memo[x] = p * log2(p);
	}
	double E[21], sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (int j = L; j >= 1; j--) {
		size_t m = (size_t)1 << j;
		double e = 0;
		for (size_t k = 0; k < m; k++) {
			if (c[k] < BM_MEMO) { /* memo[0] is 0: e - 0 is e */
				e -= memo[c[k]];
			} else {
				double p = (double)c[k] / (double)used;
				e -= p * log2(p);
			}
		}
		E[j] = e;
		for (size_t k = 0; k < m / 2; k++) /* aggregate to level j-1 */
			c[k] = c[2 * k] + c[2 * k + 1];
	}
	free(c);
	for (int j = 1; j <= L; j++) {
		sx += j;
		sy += E[j];
		sxx += (double)j * j;
		sxy += j * E[j];
	}
	double slope = (L * sxy - sx * sy) / (L * sxx - sx * sx);
	if (slope >= 1)
		return 0.5;
	if (slope <= 0)
		return 1.0;
	double lo = 0.5, hi = 1.0;
	for (int it = 0; it < 60; it++) {
		double mid = (lo + hi) / 2;
		if (entropy2(mid) > slope)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* ---- PQRS quadrant shares --------------------------------------------- */
static int dcmp_desc(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? 1 : a > b ? -1 : 0;
}

static size_t pqrs_x(int64_t t, int64_t t0, int64_t t1, size_t side)
{
	double ft = (double)(t - t0) / (double)(t1 - t0);
	/* past the end: the last column, before the conversion (a time far
	 * past t1 would overflow size_t) */
	size_t x = ft < 0 ? 0 : !(ft < 1) ? side - 1 : (size_t)(ft * (double)side);
	return x >= side ? side - 1 : x;
}
static size_t pqrs_y(uint64_t a, uint64_t a0, uint64_t a1, size_t side)
{
	double fa = a < a0 ? 0 : (double)(a - a0) / (double)(a1 - a0);
	size_t y = !(fa < 1) ? side - 1 : (size_t)(fa * (double)side); /* as pqrs_x */
	return y >= side ? side - 1 : y;
}

/* The row of an address through a table of the row at each PQRS_RLUT-th
 * of [a0, a1) (after ab, side <= 64 rows: a byte each), then the rows' least
 * addresses ab from there: a cell of the table spans two rows at most, so
 * one or two compares, not pqrs_y's division (a random address: disksim's
 * 16 disks).  The row is the last y with ab[y] <= a, as pqrs_y's. */
#define PQRS_RLUT 4096
static int pqrs_rlut_shift(uint64_t span)
{
	int sh = 0;
	while ((span >> sh) >= PQRS_RLUT)
		sh++;
	return sh;
}
static inline size_t pqrs_row(const uint64_t *ab, size_t side, uint64_t a0, int sh, uint64_t a)
{
	const uint8_t *rl = (const uint8_t *)(ab + side + 1);
	uint64_t j = a < a0 ? 0 : (a - a0) >> sh;
	size_t y = rl[j < PQRS_RLUT ? j : PQRS_RLUT - 1];
	while (y + 1 < side && ab[y + 1] <= a)
		y++;
	return y;
}

/* model_first_u64's test: address A in row Y or a later one */
struct pqrs_row {
	const struct model_pqrs *p;
	size_t y;
};
static int pqrs_row_from(uint64_t a, const void *ctx)
{
	const struct pqrs_row *r = ctx;
	return pqrs_y(a, r->p->a0, r->p->a1, r->p->side) >= r->y;
}

int model_pqrs_init(struct model_pqrs *p, size_t n, int64_t t0, int64_t t1, uint64_t a0,
		    uint64_t a1)
{
	memset(p, 0, sizeof(*p));
	if (n < 64 || t1 <= t0 || a1 <= a0)
		return 0;
	int L = 1;
	while (L < 6 && ((size_t)16 << (2 * (L + 1))) <= n)
		L++;
	size_t side = p->side = (size_t)1 << L;
	if (!(p->c = calloc(side * side + side + 1 + PQRS_RLUT / 8, sizeof(*p->c))))
		return REEL_E_NOMEM;
	p->t0 = t0;
	p->t1 = t1;
	p->a0 = a0;
	p->a1 = a1;
	/* each row's addresses [ab[y], ab[y + 1]) (pqrs_y does not decrease
	 * in a): a random address finds its row's range from a table of the
	 * row at each 4096th of the span (model_pqrs_add_n) and a compare or two; the last row's up
	 * to UINT64_MAX, as before */
	uint64_t *ab = p->ab = p->c + side * side;
	for (size_t y = 1; y < side; y++) /* pqrs_y(a1) = side - 1 >= y */
		ab[y] = model_first_u64(a0, a1, pqrs_row_from, &(struct pqrs_row){p, y});
	ab[side] = UINT64_MAX;
	/* the row at each PQRS_RLUT-th of [a0, a1), after ab */
	uint8_t *rl = (uint8_t *)(ab + side + 1);
	int sh = p->rsh = pqrs_rlut_shift(a1 - a0);
	for (size_t j = 0, y = 0; j < PQRS_RLUT; j++) {
		uint64_t d = (uint64_t)j << sh;
		uint64_t a = d < a1 - a0 ? a0 + d : a1;
		while (y + 1 < side && ab[y + 1] <= a)
			y++;
		rl[j] = (uint8_t)y;
	}
	/* empty ranges: the first add computes its cell */
	p->tlo = 1;
	p->alo = 1;
	return 0;
}

/* The column of time T and its range [tlo, thi) (a time outside the last
 * one's). */
static void pqrs_col(struct model_pqrs *p, int64_t t)
{
	int64_t t0 = p->t0, t1 = p->t1;
	size_t side = p->side;
	p->x = pqrs_x(t, t0, t1, side);
	p->tlo = t;
	p->thi = t + 1;
	/* monotone: grow hi up to the next column, from an estimate */
	if (p->x + 1 < side) {
		double est = (double)t0 + (double)(p->x + 1) * (double)(t1 - t0) / (double)side;
		int64_t h = est < 9.2e18 ? (int64_t)est : INT64_MAX - 1;
		if (h > p->thi)
			p->thi = h;
		while (p->thi > t + 1 && pqrs_x(p->thi - 1, t0, t1, side) > p->x)
			p->thi--;
		while (p->thi < INT64_MAX && pqrs_x(p->thi, t0, t1, side) <= p->x)
			p->thi++;
	} else {
		p->thi = INT64_MAX;
	}
}

/* Times in order and sequential addresses mostly stay in the cell of the
 * event before: the ranges [lo, hi) of the current column and row, in
 * locals over the N events (the cells' stores could alias p's fields). */
void model_pqrs_add_n(struct model_pqrs *p, const int64_t *t, const uint64_t *a, size_t n)
{
	if (!p->c)
		return;
	uint64_t *c = p->c;
	const uint64_t *ab = p->ab;
	uint64_t a0 = p->a0, alo = p->alo, ahi = p->ahi;
	int64_t tlo = p->tlo, thi = p->thi;
	size_t side = p->side, x = p->x, y = p->y;
	int sh = p->rsh;
	for (size_t i = 0; i < n; i++) {
		if (!(t[i] >= tlo && t[i] < thi)) {
			pqrs_col(p, t[i]);
			tlo = p->tlo;
			thi = p->thi;
			x = p->x;
		}
		if (!(a[i] >= alo && a[i] < ahi)) {
			y = pqrs_row(ab, side, a0, sh, a[i]);
			alo = ab[y];
			ahi = ab[y + 1];
		}
		c[y * side + x]++;
	}
	p->alo = alo;
	p->ahi = ahi;
	p->y = y;
}

void model_pqrs_finish(struct model_pqrs *p, double out[4])
{
	out[0] = out[1] = out[2] = out[3] = -1;
	uint64_t *c = p->c;
	size_t side = p->side;
	p->c = NULL;
	if (!c)
		return;
	double acc[4] = {0, 0, 0, 0}, wsum = 0;
	for (size_t s = side; s >= 2; s /= 2) { /* parents of size s/2 */
		size_t ps = s / 2;
		for (size_t py = 0; py < ps; py++)
			for (size_t px = 0; px < ps; px++) {
				double q[4] = {(double)c[(2 * py) * side + 2 * px],
					       (double)c[(2 * py) * side + 2 * px + 1],
					       (double)c[(2 * py + 1) * side + 2 * px],
					       (double)c[(2 * py + 1) * side + 2 * px + 1]};
				double tot = q[0] + q[1] + q[2] + q[3];
				if (tot >= 4) {
					qsort(q, 4, sizeof(q[0]), dcmp_desc);
					for (int k = 0; k < 4; k++)
						acc[k] += q[k];
					wsum += tot;
				}
			}
		/* aggregate in place into the top-left ps x ps block */
		for (size_t py = 0; py < ps; py++)
			for (size_t px = 0; px < ps; px++)
				c[py * side + px] = c[(2 * py) * side + 2 * px] +
						    c[(2 * py) * side + 2 * px + 1] +
						    c[(2 * py + 1) * side + 2 * px] +
						    c[(2 * py + 1) * side + 2 * px + 1];
	}
	free(c);
	if (wsum > 0)
		for (int k = 0; k < 4; k++)
			out[k] = acc[k] / wsum;
}

void model_pqrs(const int64_t *t, const uint64_t *addr, size_t n, int64_t t0, int64_t t1,
		uint64_t a0, uint64_t a1, double out[4])
{
	struct model_pqrs p;
	out[0] = out[1] = out[2] = out[3] = -1;
	if (model_pqrs_init(&p, n, t0, t1, a0, a1))
		return;
	model_pqrs_add_n(&p, t, addr, n);
	model_pqrs_finish(&p, out);
}

/* ---- the demerit figure ------------------------------------------------ */
static double quantile_sorted(const int64_t *v, size_t n, double p)
{
	double pos = p * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i >= n - 1)
		return (double)v[n - 1];
	double f = pos - (double)i;
	return (double)v[i] + f * (double)(v[i + 1] - v[i]);
}

double model_demerit(const int64_t *a, size_t na, const int64_t *b, size_t nb)
{
	if (!na || !nb)
		return -1;
	double s = 0;
	for (int i = 0; i < 10000; i++) {
		double p = (i + 0.5) / 10000.0;
		double d = quantile_sorted(a, na, p) - quantile_sorted(b, nb, p);
		s += d * d;
	}
	return sqrt(s / 10000.0);
}
