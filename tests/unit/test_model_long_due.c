/*
 * test_model_long_due: round 36's shortcuts of long_due and the regions'
 * weights (model/gen_space.c, gen_offsets.c, gen_internal.h):
 * - long_due (gen_long_due, its quiet stretch gen_long_quiet_until): on
 *   400 devices (1-8 runs, their starts in [0, 1), ties, a repeat of
 *   1-5,000 I/O, whole or not), the device's I/O counted one by one over
 *   four repeats, a due run taken at random and lnext moved without one
 *   (a place on the next run's offset: gen_space_place's other move):
 *   long_due's answers, lcycle and lnext each time as round 35's.
 * - gen_offsets_weight (its segment by gen_offsets_seg, gen_weight_in)
 *   as round 35's, on the fuzz corpus' models' states every 97 I/O (at
 *   --rate 4 and a --capacity).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_due, n_w;

/* long_due as round 35 wrote it, on its own copy of the state. */
static int ref_long_due(const struct model_devspace *dv, uint64_t hn, double nper, uint64_t *lcycle,
			uint32_t *lnext)
{
	uint64_t cycle = (uint64_t)((double)hn / nper);
	if (cycle != *lcycle) {
		*lcycle = cycle;
		*lnext = 0;
	}
	double pos = (double)hn - (double)cycle * nper;
	return *lnext < dv->nlong && pos >= (double)dv->longrun[*lnext].at * nper;
}

static void test_long_due(void)
{
	uint64_t rs = 0x2c9d81f4e7a3b605ull;
	static struct model_devspace dv;
	static struct devstate s;
	for (int t = 0; t < 400; t++) {
		memset(&dv, 0, sizeof(dv));
		memset(&s, 0, sizeof(s));
		dv.nlong = 1 + (uint32_t)(unit_urand(&rs) * 8);
		/* by start, as fit keeps them, or not (a model read: lnext moved
		 * to a run due sooner) */
		int sorted = unit_urand(&rs) < 0.6;
		for (uint32_t j = 0; j < dv.nlong; j++) {
			double a =
			    unit_urand(&rs) < 0.2 && j ? dv.longrun[j - 1].at : unit_urand(&rs);
			dv.longrun[j].at =
			    (float)(sorted && j && a < dv.longrun[j - 1].at ? dv.longrun[j - 1].at
									    : a);
		}
		s.nper = 1 + unit_urand(&rs) * unit_urand(&rs) * 5000;
		if (unit_urand(&rs) < 0.3)
			s.nper = floor(s.nper);
		uint64_t lcycle = 0, end = (uint64_t)(s.nper * 4) + 50;
		uint32_t lnext = 0;
		for (uint64_t h = 0; h < end; h++) {
			s.hn = h;
			int want = ref_long_due(&dv, h, s.nper, &lcycle, &lnext);
			CHECK_EQ(gen_long_due(&dv, &s), want);
			CHECK(s.lcycle == lcycle && s.lnext == lnext);
			n_due += (uint64_t)want;
			if ((want && unit_urand(&rs) < 0.7) || unit_urand(&rs) < 0.002)
				if (lnext < dv.nlong) {
					lnext++;
					s.lnext++;
				}
		}
	}
}

/* gen_offsets_weight's answer as round 35 made it. */
static double ref_weight(const struct model_devspace *d, const struct devstate *s, uint32_t r)
{
	if (!d->seg_fitted || !(s->nper >= 1))
		return d->weight[r];
	double c = (double)s->hn / s->nper, y = (c - floor(c)) * MODEL_SEGS;
	int k = y < MODEL_SEGS - 1 ? (int)y : MODEL_SEGS - 1;
	return d->seg_w[k][r];
}

static void check_asks(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	(void)rs;
	for (uint32_t r = 0; r < dv->nregions; r++) {
		double w = gen_offsets_weight(dv, s, r);
		CHECK(memcmp(&w, &(double){ref_weight(dv, s, r)}, sizeof(w)) == 0);
		n_w++;
	}
}

static void test_model(const char *name, uint64_t capacity)
{
	uint64_t n =
	    unit_model_gen_checked(name, capacity, 5, 0x7f4a7c159e3779b9ull, 97, 0, check_asks);
	printf("%s capacity %llu: %llu I/O\n", name, (unsigned long long)capacity,
	       (unsigned long long)n);
}

int main(void)
{
	test_long_due();
	unit_model_gen_each(test_model);
	printf("long_due: %llu due; weights: %llu\n", (unsigned long long)n_due,
	       (unsigned long long)n_w);
	CHECK(n_due > 500 && n_w > 1000);
	printf("ok\n");
	return 0;
}
