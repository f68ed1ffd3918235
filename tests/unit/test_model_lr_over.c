/*
 * test_model_lr_over: whether a stretch is over a kept run still to come,
 * by the runs sorted by start (model/gen_internal.h gen_lr_rows,
 * gen_lr_over; gen_space.c's reserved), answers as the runs' compares one
 * by one (round 23's reserved, below): 3,000 random sets of 1 to 32 runs
 * (apart, overlapping, nested, equal, of zero length, starts tied), every
 * run still to come, 200 stretches each (anywhere, ending or starting on
 * a run's end, of zero length), the rows' padding included (the search
 * reads past a row's runs into its padding, written over -inf here).
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

static int ref_over(const double *lo, const double *hi, uint32_t n, uint32_t i, double x, double e)
{
	int hit = 0;
	for (; i < n; i++)
		hit |= (x < hi[i]) & (e > lo[i]);
	return hit;
}

int main(void)
{
	uint64_t rs = 0xa4093822299f31d0ull, asked = 0, yes = 0;
	static double rows[3 * MODEL_MAX_LONG * MODEL_MAX_LONG];
	for (int t = 0; t < 3000; t++) {
		uint32_t n = 1 + (uint32_t)(unit_urand(&rs) * MODEL_MAX_LONG);
		double lo[MODEL_MAX_LONG], hi[MODEL_MAX_LONG], top = 1 + unit_urand(&rs) * 1e6;
		for (uint32_t j = 0; j < n; j++) {
			double u = unit_urand(&rs);
			lo[j] =
			    j && u < 0.1 ? lo[j - 1] : (double)(uint64_t)(unit_urand(&rs) * top);
			hi[j] = u < 0.05 ? lo[j]
					 : lo[j] + (double)(uint64_t)(unit_urand(&rs) * top / 8);
		}
		/* the rows written over -inf, which a search reading past a row's
		 * starts not padded (+inf) would take for a start before E */
		CHECK(gen_lr_size(n) <= sizeof(rows) / sizeof(rows[0]));
		for (size_t k = 0; k < gen_lr_size(n); k++)
			rows[k] = -INFINITY;
		gen_lr_rows(lo, hi, n, rows);
		for (uint32_t i = 0; i < n; i++)
			for (int q = 0; q < 200; q++) {
				uint32_t j = (uint32_t)(unit_urand(&rs) * n);
				double x = (double)(uint64_t)(unit_urand(&rs) * top * 1.2),
				       u = unit_urand(&rs);
				if (u < 0.2)
					x = hi[j];
				else if (u < 0.3)
					x = lo[j];
				double e =
				    x +
				    (u > 0.9 ? 0 : (double)(uint64_t)(unit_urand(&rs) * top / 4));
				if (u >= 0.3 && u < 0.4)
					e = lo[j];
				int want = ref_over(lo, hi, n, i, x, e);
				CHECK_EQ(gen_lr_over(rows, n, i, x, e), want);
				asked++;
				yes += want;
			}
	}
	printf("%llu stretches asked, %llu over a run: the same\n", (unsigned long long)asked,
	       (unsigned long long)yes);
	return 0;
}
