/*
 * model/distribution.c - empirical distributions (piecewise-linear CDFs
 * with point masses: fit, sample, invert) and the radix sort they are
 * fitted with.  measures.c holds the statistics that compare traces.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

uint64_t model_first_u64(uint64_t lo, uint64_t hi, int (*at_least)(uint64_t x, const void *ctx),
			 const void *ctx)
{
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (at_least(mid, ctx))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* ---- radix sort ------------------------------------------------------- */
int model_sort_i64(int64_t *v, size_t n)
{
	if (n < 2)
		return 0;
	if (n < 64) { /* insertion sort */
		for (size_t i = 1; i < n; i++) {
			int64_t x = v[i];
			size_t j = i;
			while (j > 0 && v[j - 1] > x) {
				v[j] = v[j - 1];
				j--;
			}
			v[j] = x;
		}
		return 0;
	}
	size_t k = 1;
	while (k < n && v[k - 1] <= v[k])
		k++;
	if (k == n) /* already sorted */
		return 0;
	uint64_t *a = (uint64_t *)v;
	uint64_t *b = reel_malloc_big_populated(n * sizeof(*b)); /* written whole below */
	if (!b)
		return REEL_E_NOMEM;
	uint64_t or_all = 0, and_all = ~0ull;
	for (size_t i = 0; i < n; i++) {
		a[i] ^= 1ull << 63; /* signed order as unsigned */
		or_all |= a[i];
		and_all &= a[i];
	}
	uint64_t *src = a, *dst = b;
	/* 11-bit digits: 2048 buckets stay in cache while scattering */
	static __thread size_t cnt[2048];
	for (int shift = 0; shift < 64; shift += 11) {
		if ((((or_all ^ and_all) >> shift) & 0x7ff) == 0)
			continue; /* every key has the same digit here */
		memset(cnt, 0, sizeof(cnt));
		for (size_t i = 0; i < n; i++)
			cnt[(src[i] >> shift) & 0x7ff]++;
		size_t sum = 0;
		for (size_t d = 0; d < 2048; d++) {
			size_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[(src[i] >> shift) & 0x7ff]++] = src[i];
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	for (size_t i = 0; i < n; i++)
		a[i] ^= 1ull << 63;
	reel_free_big(b, n * sizeof(*b));
	return 0;
}

/* ---- empirical distributions ----------------------------------------- */
struct knot {
	double v, c;
	int keep; /* a side of a point mass: a knot of the result */
};

/* the quantiles of the reference CDF that the knots are chosen from */
#define REF_Q 1000

/*
 * The fewest knots, in one greedy pass, such that the piecewise-linear CDF
 * through them is within EPS (vertically) of every reference knot: from
 * an anchor, extend the segment while some slope passes within EPS of
 * every knot in between (the slope window narrows knot by knot); both
 * sides of a point mass are always kept.  Writes d->v, d->c, d->nk if the
 * count fits in MODEL_DIST_MAXK; returns the count.
 */
static size_t simplify(struct model_dist *d, const struct knot *r, size_t m, double eps)
{
	size_t out = 0, a = 0;
	for (;;) {
		if (out < MODEL_DIST_MAXK) {
			d->v[out] = r[a].v;
			d->c[out] = r[a].c;
		}
		out++;
		if (a + 1 >= m)
			break;
		double lo = -INFINITY, hi = INFINITY;
		int flat_bad = 0, vert = 1; /* a knot at v[a] off by more than eps */
		size_t b = a + 1;
		for (size_t j = a + 1; j < m; j++) {
			double dv = r[j].v - r[a].v, dc = r[j].c - r[a].c;
			/* j as the end: a vertical step only over knots at v[a] */
			int ok = dv == 0 ? vert : !flat_bad && dc / dv >= lo && dc / dv <= hi;
			if (!ok)
				break;
			b = j;
			if (r[j].keep)
				break;
			/* j as a knot in between */
			if (dv == 0) {
				flat_bad |= fabs(dc) > eps;
			} else {
				vert = 0;
				double l = (dc - eps) / dv, h = (dc + eps) / dv;
				lo = l > lo ? l : lo;
				hi = h < hi ? h : hi;
				if (lo > hi)
					break;
			}
		}
		a = b;
	}
	if (out <= MODEL_DIST_MAXK)
		d->nk = (uint32_t)out;
	return out;
}

static int knot_cmp(const void *x, const void *y)
{
	const struct knot *a = x, *b = y;
	if (a->c != b->c)
		return a->c < b->c ? -1 : 1;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return 0;
}

size_t model_dist_stride(uint64_t n)
{
	return n > MODEL_DIST_SAMPLE ? (size_t)((n + MODEL_DIST_SAMPLE - 1) / MODEL_DIST_SAMPLE)
				     : 1;
}

void model_dist_fit(struct model_dist *d, int64_t *x, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += (double)x[i];
	size_t st = model_dist_stride(n), k = 0;
	if (st > 1) { /* knots from a fixed-stride sample */
		for (size_t i = 0; i < n; i += st)
			x[k++] = x[i];
	} else {
		k = n;
	}
	model_dist_fit_sample(d, x, k, n, sum);
}

void model_dist_fit_sample(struct model_dist *d, int64_t *x, size_t n, uint64_t nall, double sum)
{
	memset(d, 0, sizeof(*d));
	d->n = nall;
	if (!nall || !n)
		return;
	d->mean = sum / (double)nall;
	model_sort_i64(x, n);
	/* the most frequent exact values become point masses */
	struct {
		int64_t v;
		size_t a, b;
	} pts[MODEL_DIST_POINTS];
	size_t npts = 0, minc = n / MODEL_DIST_Q;
	if (minc < 2)
		minc = 2;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && x[j] == x[i])
			j++;
		if (j - i >= minc) {
			size_t slot = npts;
			if (npts == MODEL_DIST_POINTS) {
				slot = 0;
				for (size_t k = 1; k < npts; k++)
					if (pts[k].b - pts[k].a < pts[slot].b - pts[slot].a)
						slot = k;
				if (pts[slot].b - pts[slot].a >= j - i)
					slot = MODEL_DIST_POINTS + 1;
			} else {
				npts++;
			}
			if (slot < MODEL_DIST_POINTS) {
				pts[slot].v = x[i];
				pts[slot].a = i;
				pts[slot].b = j;
			}
		}
		i = j;
	}
	/* the reference: REF_Q quantiles and both sides of each point mass,
	 * a run of equal values kept as its two ends (a step) */
	struct knot k[REF_Q + 1 + 2 * MODEL_DIST_POINTS];
	struct knot ref[REF_Q + 1 + 2 * MODEL_DIST_POINTS];
	size_t nk = 0;
	for (size_t q = 0; q <= REF_Q; q++) {
		size_t r = (size_t)(((double)q * (double)(n - 1)) / REF_Q + 0.5);
		k[nk].v = (double)x[r];
		k[nk].keep = 0;
		k[nk++].c = (double)q / REF_Q;
	}
	for (size_t p = 0; p < npts; p++) {
		k[nk].v = (double)pts[p].v;
		k[nk].keep = 1;
		k[nk++].c = (double)pts[p].a / (double)n;
		k[nk].v = (double)pts[p].v;
		k[nk].keep = 1;
		k[nk++].c = (double)pts[p].b / (double)n;
	}
	qsort(k, nk, sizeof(k[0]), knot_cmp);
	size_t m = 0;
	for (size_t i = 0; i < nk; i++) {
		if (m && k[i].v < ref[m - 1].v)
			k[i].v = ref[m - 1].v;
		if (m && k[i].v == ref[m - 1].v && k[i].c == ref[m - 1].c) {
			ref[m - 1].keep |= k[i].keep;
			continue;
		}
		/* drop a knot in the middle of a run of equal values */
		if (m >= 2 && k[i].v == ref[m - 1].v && ref[m - 1].v == ref[m - 2].v) {
			ref[m - 1].c = k[i].c;
			ref[m - 1].keep |= k[i].keep;
			continue;
		}
		ref[m++] = k[i];
	}
	ref[0].c = 0;
	ref[m - 1].c = 1;
	if (m == 1) { /* a single value: a point mass of 1 */
		ref[1] = ref[0];
		ref[1].c = 1;
		m = 2;
	}
	/* as few knots as keep the CDF within eps of the reference: a small
	 * share of the sampling noise of n values (0.25 / sqrt(n)) */
	double eps = 0.25 / sqrt((double)nall);
	eps = eps < 0.002 ? 0.002 : eps > 0.05 ? 0.05 : eps;
	while (simplify(d, ref, m, eps) > MODEL_DIST_MAXK)
		eps *= 1.5;
	model_dist_prepare(d);
}

void model_dist_coarsen(struct model_dist *d, double eps)
{
	struct knot r[MODEL_DIST_MAXK];
	size_t m = d->nk;
	if (m < 3)
		return;
	for (size_t i = 0; i < m; i++) { /* both sides of a step stay */
		r[i].v = d->v[i];
		r[i].c = d->c[i];
		r[i].keep =
		    (i + 1 < m && d->v[i + 1] == d->v[i] && d->c[i + 1] - d->c[i] > 2 * eps) ||
		    (i > 0 && d->v[i - 1] == d->v[i] && d->c[i] - d->c[i - 1] > 2 * eps);
	}
	simplify(d, r, m, eps); /* never more knots than it had */
	model_dist_prepare(d);
}

void model_dist_prepare(struct model_dist *d)
{
	size_t i = 0;
	for (size_t k = 0; k <= MODEL_DIST_GUIDE; k++) {
		double u = (double)k / MODEL_DIST_GUIDE;
		while (d->nk >= 2 && i + 2 < d->nk && d->c[i + 1] <= u)
			i++;
		d->guide[k] = (uint16_t)i;
	}
}

double model_dist_inv_pow(const struct model_dist *d, double u, double a)
{
	if (a == 1 || !d->nk || u <= 0 || u >= 1) /* the ends: as U^1 */
		return model_dist_inv(d, u);
	return model_dist_inv_from(d, u, a, model_dist_guided(d, u));
}

double model_dist_inv_from(const struct model_dist *d, double u, double a, size_t lo)
{
	lo = model_dist_seek(d, u, lo);
	if (a == 1)
		return model_dist_lerp(d, u, lo);
	double c0 = d->c[lo], c1 = d->c[lo + 1];
	if (c1 <= c0)
		return d->v[lo + 1];
	return d->v[lo] + (d->v[lo + 1] - d->v[lo]) * pow((u - c0) / (c1 - c0), a);
}

size_t model_dist_knot(const struct model_dist *d, double x, size_t hi)
{
	return model_dist_knot_in(d, x, 0, hi);
}

void model_dist_cdf(const struct model_dist *d, double x, double *below, double *at)
{
	*below = *at = 0;
	if (!d->nk)
		return;
	size_t n = d->nk;
	if (x < d->v[0])
		return;
	if (x > d->v[n - 1]) {
		*below = *at = 1;
		return;
	}
	model_dist_cdf_at(d, x, model_dist_knot(d, x, n), below, at);
}

int model_dist_valid(const struct model_dist *d)
{
	if (!d->nk)
		return 0;
	if (d->nk < 2 || d->nk > MODEL_DIST_MAXK)
		return REEL_E_PARSE;
	if (d->c[0] != 0 || d->c[d->nk - 1] != 1)
		return REEL_E_PARSE;
	for (size_t i = 0; i < d->nk; i++) {
		if (!isfinite(d->v[i]) || !(d->c[i] >= 0 && d->c[i] <= 1))
			return REEL_E_PARSE;
		if (fabs(d->v[i]) > 9.2e18)
			return REEL_E_RANGE;
		if (i && (d->v[i] < d->v[i - 1] || d->c[i] < d->c[i - 1]))
			return REEL_E_PARSE;
	}
	return 0;
}
