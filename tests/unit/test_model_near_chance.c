/*
 * test_model_near_chance: fit_dist_cdf_from (a CDF look-up from the knot
 * of the one before) gives model_dist_cdf's *below and *at bit for bit, at
 * rising, repeated and falling x, on knots and between them; and
 * fit_near_chance (near_start's chance share, its look-ups sharing one
 * walk of the knots) gives the old near_chance's sum bit for bit (a
 * bisection a look-up), on random CDFs (point masses, flat stretches) and
 * offsets (distinct, repeated, on the knots, windows merging or not).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

static uint64_t rs = 88172645463325252ull;

/* The old near_chance (fit_device.c before), for reference. */
static double near_chance_old(const struct model_dist *addr, uint64_t local_limit, uint64_t *v,
			      uint64_t n)
{
	double lim = (double)local_limit, m = 0, lo, hi, x;
	fit_sort_u64_small(v, n);
	for (uint64_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && (double)v[j] - lim <= (double)v[j - 1] + lim; j++)
			;
		model_dist_cdf(addr, (double)v[i] - lim, &lo, &x);
		model_dist_cdf(addr, (double)v[j - 1] + lim, &x, &hi);
		m += hi - lo;
	}
	return m;
}

/* A random CDF of offsets: knots rising from V0 by steps of about STEP
 * (some 0: point masses), c rising (some steps 0), ending at 1. */
static void make_dist(struct model_dist *d, double v0, double step)
{
	memset(d, 0, sizeof(*d));
	d->nk = 2 + (uint32_t)(unit_urand(&rs) * (MODEL_DIST_MAXK - 1));
	double c = 0, v = v0;
	for (uint32_t j = 0; j < d->nk; j++) {
		if (j && unit_urand(&rs) > 0.2)
			c += unit_urand(&rs) * 4.0 / d->nk;
		if (j && unit_urand(&rs) > 0.15)
			v += floor(unit_urand(&rs) * 2 * step) + 1;
		d->c[j] = c < 1 ? c : 1;
		d->v[j] = v;
	}
	d->c[d->nk - 1] = 1;
	model_dist_prepare(d);
}

static int same(double a, double b) { return !memcmp(&a, &b, sizeof(a)); }

/* X at N points: rising (with repeats and knots), then anywhere. */
static void check_cdf_from(const struct model_dist *d)
{
	size_t cur = 0;
	double x = d->v[0] - 10, b0, a0, b1, a1;
	for (int i = 0; i < 600; i++) {
		double r = unit_urand(&rs);
		if (i == 400) /* the rest anywhere: falling too */
			cur = 0;
		if (i >= 400)
			x = d->v[0] - 10 + unit_urand(&rs) * (d->v[d->nk - 1] - d->v[0] + 20);
		else if (r < 0.3) { /* the next knot at or above x, or a later one */
			double k = d->v[(size_t)(unit_urand(&rs) * d->nk)];
			x = k > x ? k : x;
		} else if (r < 0.4)
			; /* the same again */
		else
			x += floor(unit_urand(&rs) * (d->v[d->nk - 1] - d->v[0] + 20) / 50);
		if (r < 0.45 && i >= 400) /* a knot, from anywhere */
			x = d->v[(size_t)(unit_urand(&rs) * d->nk)];
		model_dist_cdf(d, x, &b0, &a0);
		fit_dist_cdf_from(d, x, &cur, &b1, &a1);
		CHECK(same(b0, b1) && same(a0, a1));
	}
}

static void check_near(const struct model_dist *d, int kind)
{
	uint64_t v[MODEL_NEAR_BACK], w[MODEL_NEAR_BACK];
	uint64_t n =
	    unit_urand(&rs) < 0.1 ? (uint64_t)(unit_urand(&rs) * MODEL_NEAR_BACK) : MODEL_NEAR_BACK;
	double lo = d->v[0], span = d->v[d->nk - 1] - d->v[0];
	uint64_t lim = kind == 0   ? 0
		       : kind == 1 ? (uint64_t)(span / 1000)
		       : kind == 2 ? (uint64_t)(span / 50)
				   : (uint64_t)(span / 5);
	for (uint64_t i = 0; i < n; i++) {
		double r = unit_urand(&rs);
		if (r < 0.2) /* lim from a knot: a window's end on it */
			v[i] = (uint64_t)d->v[(size_t)(unit_urand(&rs) * d->nk)] +
			       (unit_urand(&rs) < 0.5 ? lim : 0);
		else if (r < 0.3 && i) /* repeated */
			v[i] = v[(size_t)(unit_urand(&rs) * (double)i)];
		else { /* past both ends too (below 0: 0, an offset's least) */
			double x = lo + (unit_urand(&rs) * 1.2 - 0.1) * span;
			v[i] = x > 0 ? (uint64_t)x : 0;
		}
	}
	memcpy(w, v, sizeof(v));
	double a = near_chance_old(d, lim, v, n), b = fit_near_chance(d, lim, w, n);
	CHECK(same(a, b));
	CHECK(!memcmp(v, w, n * sizeof(*v)));
}

int main(void)
{
	static struct model_dist d;
	memset(&d, 0, sizeof(d));
	double b, a;
	size_t cur = 0;
	fit_dist_cdf_from(&d, 5, &cur, &b, &a); /* empty: 0 */
	CHECK(b == 0 && a == 0);
	for (int t = 0; t < 3000; t++) {
		/* offsets of KiB to TiB, steps from 1 to 2^30 */
		double v0 = t % 3 ? floor(unit_urand(&rs) * 1e6) * 4096 : 0;
		make_dist(&d, v0, exp2(floor(unit_urand(&rs) * 31)));
		check_cdf_from(&d);
		for (int k = 0; k < 20; k++)
			check_near(&d, k % 4);
	}
	printf("3000 CDFs: model_dist_cdf's values from the cursor, 60000 near_chance sums the "
	       "same\n");
	return 0;
}
