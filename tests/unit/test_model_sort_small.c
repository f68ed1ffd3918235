/*
 * test_model_sort_small: fit_sort_u64_small (near_chance's sort of the
 * last MODEL_NEAR_BACK offsets) gives qsort's order on arrays of 0 to 200
 * values: distinct, with many repeats, already sorted, reversed, and
 * values at both ends of the range (0, UINT64_MAX).
 */
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void check(const uint64_t *v, size_t n)
{
	uint64_t a[256], b[256];
	memcpy(a, v, n * sizeof(*v));
	memcpy(b, v, n * sizeof(*v));
	qsort(a, n, sizeof(*a), cmp);
	fit_sort_u64_small(b, n);
	CHECK(!memcmp(a, b, n * sizeof(*a)));
}

int main(void)
{
	uint64_t rs = 88172645463325252ull, v[256];
	for (int round = 0; round < 4000; round++) {
		size_t n = (size_t)(unit_urand(&rs) * 201);
		int kind = round % 5;
		for (size_t i = 0; i < n; i++) {
			double u = unit_urand(&rs);
			v[i] = kind == 0   ? (uint64_t)(u * 18446744073709551615.0)
			       : kind == 1 ? (uint64_t)(u * 8) << 12  /* many repeats */
			       : kind == 2 ? (uint64_t)i * 4096	      /* sorted */
			       : kind == 3 ? (uint64_t)(n - i) * 4096 /* reversed */
					   : (u < 0.5 ? 0 : UINT64_MAX);
		}
		check(v, n);
	}
	printf("4000 arrays: qsort's order\n");
	return 0;
}
