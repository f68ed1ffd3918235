/*
 * test_model_quota_any: quota_at's draw anywhere in a size CDF from the
 * weights made once (quota_any_make, quota_any_walk: gen_internal.h)
 * gives the same doubles, bit for bit, as its two passes over every
 * stretch (the code before, kept here as the reference): the weights'
 * sum and the point drawn, over 3000 random CDFs of 2 to MODEL_DIST_MAXK
 * knots (point masses, stretches of width 0, a last knot below 1) with
 * shares of run continuations of 0, 1 and between, for either kind, at
 * 200 random draws each and at the ends (0, the last double below 1).
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* quota_at's two passes over the stretches from knot K0 in [0, 1] for kind
 * SEQ at the draw U (round 21's code); -1 where the weights sum to none
 * (quota_at then draws uniformly).  Their sum in *TOT. */
static double ref_at(const struct model_dist *d, const float *share, int seq, uint32_t k0, double u,
		     double *tot_out)
{
	double a = 0, b = 1, tot = 0;
	for (int pass = 0; pass < 2; pass++) {
		double x = pass ? u * tot : 0;
		*tot_out = tot;
		if (pass && !(tot > 0))
			break;
		for (uint32_t j = k0; j + 1 < d->nk && d->c[j] < b; j++) {
			double lo = d->c[j] > a ? d->c[j] : a,
			       hi = d->c[j + 1] < b ? d->c[j + 1] : b;
			double w = seq ? share[j] : 1 - share[j];
			double pw = hi > lo && w > 0 ? (hi - lo) * w : 0;
			if (!pass)
				tot += pw;
			else if (x < pw)
				return lo + (hi - lo) * x / pw;
			else
				x -= pw;
		}
		if (pass)
			return b;
	}
	return -1;
}

static uint64_t rs = 0x9e3779b97f4a7c15ull;

/* A random CDF: knots rising from 0 with runs of equal c (point masses)
 * and of equal v, to 1 or short of it; shares of 0, 1 or between. */
static void make_dist(struct model_dist *d, float *share)
{
	memset(d, 0, sizeof(*d));
	d->nk = 2 + (uint32_t)(unit_urand(&rs) * (MODEL_DIST_MAXK - 1));
	double c = 0, v = 1;
	int top = unit_urand(&rs) < 0.9;
	for (uint32_t j = 0; j < d->nk; j++) {
		double r = unit_urand(&rs);
		if (j && r > 0.2)
			c += unit_urand(&rs) * (r > 0.9 ? 0.5 : 4.0 / d->nk);
		if (j && unit_urand(&rs) > 0.3)
			v += 1 + floor(unit_urand(&rs) * 64);
		d->c[j] = c < 1 ? c : 1;
		d->v[j] = v;
		double s = unit_urand(&rs);
		share[j] = s < 0.2 ? 0 : s < 0.4 ? 1 : (float)unit_urand(&rs);
	}
	if (top)
		d->c[d->nk - 1] = 1;
}

static void check_one(const struct model_dist *d, const float *share, int seq, uint32_t k0,
		      double u)
{
	double w[MODEL_DIST_MAXK], ref_tot, tot;
	uint16_t k[MODEL_DIST_MAXK];
	uint32_t n = quota_any_make(d, share, seq, k0, w, k, &tot);
	double want = ref_at(d, share, seq, k0, u, &ref_tot);
	double got = tot > 0 ? quota_any_walk(d, w, k, n, u * tot) : -1;
	if (memcmp(&tot, &ref_tot, sizeof(tot)) || memcmp(&got, &want, sizeof(got))) {
		fprintf(stderr,
			"nk %u seq %d k0 %u u %.17g: sum %.17g point %.17g, not %.17g %.17g\n",
			d->nk, seq, k0, u, tot, got, ref_tot, want);
		CHECK(0);
	}
}

int main(void)
{
	static struct model_dist d;
	float share[MODEL_DIST_MAXK];
	for (int t = 0; t < 3000; t++) {
		make_dist(&d, share);
		uint32_t k0 = 0; /* the last knot with c <= 0, as quota_knots */
		while (k0 + 2 < d.nk && d.c[k0 + 1] <= 0)
			k0++;
		for (int seq = 0; seq < 2; seq++) {
			check_one(&d, share, seq, k0, 0);
			check_one(&d, share, seq, k0, nextafter(1, 0));
			for (int i = 0; i < 200; i++)
				check_one(&d, share, seq, k0, unit_urand(&rs));
		}
	}
	return 0;
}
