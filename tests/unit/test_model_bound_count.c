/*
 * test_model_bound_count: fit_bound_split and fit_bound_count (fit's gap
 * class in a bin a class bound falls in: the bounds inside the bin
 * compared, the rest counted once) give the count of the bounds at or
 * below a gap that gap_class counted before, a compare a bound, for every
 * gap of the bin: bounds rising (gap_classes_init's), repeated, unsorted,
 * negative, at the bin's ends; bins of one value to 2^40.
 */
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

#define N MODEL_CLASSES

static int count_old(const int64_t *t, int64_t g)
{
	int c = 0;
	for (int k = 1; k < N; k++)
		c += g >= t[k];
	return c;
}

static void check_bin(const int64_t *t, int64_t lo, int64_t hi, uint64_t *rs)
{
	uint8_t base, mask;
	fit_bound_split(t, N, lo, hi, &base, &mask);
	CHECK(!(mask & 1)); /* t[0] is not a bound */
	for (int i = 0; i < 64; i++) {
		int64_t g = i == 0   ? lo
			    : i == 1 ? hi
				     : lo + (int64_t)(unit_urand(rs) * (double)(hi - lo));
		if (i >= 2 && i < 2 + N) { /* on a bound, and beside it */
			int64_t b = t[1 + (i - 2) % (N - 1)] + (i % 3) - 1;
			g = b < lo ? lo : b > hi ? hi : b;
		}
		CHECK_EQ(fit_bound_count(t, base, mask, g), count_old(t, g));
	}
}

int main(void)
{
	uint64_t rs = 88172645463325252ull;
	int64_t t[N];
	for (int round = 0; round < 20000; round++) {
		int kind = round % 4;
		double scale = (double)(1ull << (int)(unit_urand(&rs) * 41));
		t[0] = (int64_t)(unit_urand(&rs) * scale); /* never counted */
		for (int k = 1; k < N; k++) {
			double u = unit_urand(&rs) * scale;
			t[k] = kind == 0   ? (int64_t)u
			       : kind == 1 ? (k > 1 ? t[k - 1] : 0) + (int64_t)(u / 4) /* rising */
			       : kind == 2
				   ? (k > 1 && u < scale / 2 ? t[k - 1] : (int64_t)u) /* repeats */
				   : (int64_t)u - (int64_t)(scale / 2); /* negative too */
		}
		int64_t lo =
		    (int64_t)(unit_urand(&rs) * scale) - (kind == 3 ? (int64_t)(scale / 2) : 0);
		int64_t w = round % 5 == 0 ? 0 : (int64_t)(unit_urand(&rs) * scale / 4);
		if (round % 7 == 0) /* a bin starting or ending on a bound */
			lo = t[1 + round % (N - 1)] - (round % 2 ? w : 0);
		check_bin(t, lo, lo + w, &rs);
	}
	printf("20000 bins: the counts of every bound's compare\n");
	return 0;
}
