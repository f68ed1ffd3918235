/*
 * test_model_tilt_memo: gen_tilt_for (gen_space.c, run_tilt's exponent of
 * a region's mean run length) with a device's memo of its bisection's
 * first levels gives the float it gives without one, and the bisection as
 * it was before the memo (round 29's tilt_for, kept here as the
 * reference), for many means asked in turn of one memo: every region's
 * of a device.  Over random run CDFs (whole and fractional lengths, point
 * masses, one knot), caps below 1 and at 1, means from below 1 to past
 * the CDF's top, repeated means, and means at the answers of others.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

static double ref_mean(const struct model_devspace *dv, double cap, double a)
{
	double s = 0;
	for (int i = 0; i < 128; i++) {
		double L = model_dist_inv(&dv->run, pow((i + 0.5) / 128, a) * cap);
		s += floor(L + 0.5) > 1 ? floor(L + 0.5) : 1;
	}
	return s / 128;
}

static float ref_tilt(const struct model_devspace *dv, double cap, double mean)
{
	double lo = -20, hi = 20;
	for (int it = 0; it < 24; it++) {
		double mid = (lo + hi) / 2;
		if (ref_mean(dv, cap, exp2(mid)) > mean)
			lo = mid;
		else
			hi = mid;
	}
	return (float)exp2((lo + hi) / 2);
}

static void random_run(struct model_dist *d, uint64_t *rs)
{
	memset(d, 0, sizeof(*d));
	uint32_t nk = 1 + (uint32_t)(unit_urand(rs) * (MODEL_DIST_MAXK - 1));
	double v = 1, c = 0;
	for (uint32_t k = 0; k < nk; k++) {
		v += unit_urand(rs) < 0.3
			 ? 0
			 : floor(unit_urand(rs) * 40) + (unit_urand(rs) < 0.5 ? 0.5 : 0);
		c = k + 1 == nk ? 1 : c + (1 - c) * unit_urand(rs) * 0.5;
		d->v[k] = v;
		d->c[k] = c;
	}
	d->nk = nk;
	d->n = 1000;
	d->mean = v / 2;
	model_dist_prepare(d);
}

static void check_device(struct model_devspace *dv, struct devstate *s, uint64_t *rs)
{
	struct gen_tilt_memo *m = calloc(1, sizeof(*m));
	CHECK(m);
	float seen[64];
	for (int q = 0; q < 64; q++) {
		double mean =
		    q && unit_urand(rs) < 0.2 ? seen[(int)(unit_urand(rs) * q)] /* repeated */
		    : unit_urand(rs) < 0.1    ? 1
					   : 0.5 + unit_urand(rs) * dv->run.v[dv->run.nk - 1] * 1.2;
		float a = gen_tilt_for(dv, s, mean, m);
		float b = gen_tilt_for(dv, s, mean, NULL);
		float r = ref_tilt(dv, s->run_cap, mean);
		CHECK(memcmp(&a, &b, sizeof(a)) == 0);
		CHECK(memcmp(&a, &r, sizeof(a)) == 0);
		seen[q] = (float)mean;
	}
	free(m);
}

int main(void)
{
	uint64_t rs = 0x7117ull;
	struct model_devspace *dv = calloc(1, sizeof(*dv));
	struct devstate *s = calloc(1, sizeof(*s));
	CHECK(dv && s);
	for (int dev = 0; dev < 24; dev++) {
		random_run(&dv->run, &rs);
		s->run_cap = dev % 3 ? 1 : 0.5 + unit_urand(&rs) / 2;
		check_device(dv, s, &rs);
	}
	free(dv);
	free(s);
	printf("24 devices, 64 means each: the same exponents\n");
	return 0;
}
