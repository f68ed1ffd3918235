/*
 * model/distribution.c - empirical distributions (piecewise-linear CDFs
 * with point masses: fit, sample, invert) and the radix sort they are
 * fitted with.  measures.c holds the statistics that compare traces.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

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
	uint64_t *b = malloc(n * sizeof(*b));
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
	free(b);
	return 0;
}

/* ---- empirical distributions ----------------------------------------- */
struct knot {
	double v, c;
};

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
	struct knot k[MODEL_DIST_MAXK];
	size_t nk = 0;
	for (size_t q = 0; q <= MODEL_DIST_Q; q++) {
		size_t r = (size_t)(((double)q * (double)(n - 1)) / MODEL_DIST_Q + 0.5);
		k[nk].v = (double)x[r];
		k[nk++].c = (double)q / MODEL_DIST_Q;
	}
	for (size_t p = 0; p < npts; p++) {
		k[nk].v = (double)pts[p].v;
		k[nk++].c = (double)pts[p].a / (double)n;
		k[nk].v = (double)pts[p].v;
		k[nk++].c = (double)pts[p].b / (double)n;
	}
	qsort(k, nk, sizeof(k[0]), knot_cmp);
	size_t m = 0;
	for (size_t i = 0; i < nk; i++) {
		if (m && k[i].v < d->v[m - 1])
			k[i].v = d->v[m - 1];
		if (m && k[i].v == d->v[m - 1] && k[i].c == d->c[m - 1])
			continue;
		/* drop a knot in the middle of a run of equal values */
		if (m >= 2 && k[i].v == d->v[m - 1] && d->v[m - 1] == d->v[m - 2]) {
			d->c[m - 1] = k[i].c;
			continue;
		}
		d->v[m] = k[i].v;
		d->c[m++] = k[i].c;
	}
	d->c[0] = 0;
	d->c[m - 1] = 1;
	if (m == 1) { /* a single value: a point mass of 1 */
		d->v[1] = d->v[0];
		d->c[1] = 1;
		m = 2;
	}
	d->nk = (uint32_t)m;
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

double model_dist_inv(const struct model_dist *d, double u)
{
	if (!d->nk)
		return 0;
	if (u <= 0)
		return d->v[0];
	if (u >= 1)
		return d->v[d->nk - 1];
	/* largest lo <= nk - 2 with c[lo] <= u: from the guide, then forward */
	size_t lo = d->guide[(size_t)(u * MODEL_DIST_GUIDE)];
	if (lo > d->nk - 2)
		lo = 0;
	while (lo + 2 < d->nk && d->c[lo + 1] <= u)
		lo++;
	double c0 = d->c[lo], c1 = d->c[lo + 1];
	if (c1 <= c0)
		return d->v[lo + 1];
	return d->v[lo] + (d->v[lo + 1] - d->v[lo]) * (u - c0) / (c1 - c0);
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
	/* at: largest i with v[i] <= x */
	size_t lo = 0, hi = n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (d->v[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	if (lo == n - 1 || d->v[lo + 1] <= d->v[lo])
		*at = d->c[lo];
	else
		*at = d->c[lo] + (d->c[lo + 1] - d->c[lo]) * (x - d->v[lo]) / (d->v[lo + 1] - d->v[lo]);
	/* below: smallest j with v[j] >= x */
	lo = 0;
	hi = n - 1;
	if (d->v[0] >= x) {
		*below = d->v[0] == x ? d->c[0] : 0;
		return;
	}
	while (hi - lo > 1) { /* v[lo] < x <= v[hi] */
		size_t mid = (lo + hi) / 2;
		if (d->v[mid] < x)
			lo = mid;
		else
			hi = mid;
	}
	if (d->v[hi] == x)
		*below = d->c[hi];
	else
		*below = d->c[lo] + (d->c[hi] - d->c[lo]) * (x - d->v[lo]) / (d->v[hi] - d->v[lo]);
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
