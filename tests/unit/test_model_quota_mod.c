/*
 * test_model_quota_mod: quota_mod (gen_internal.h, the quota shuffle's
 * remainder by multiplies) gives V % R for every R the shuffle takes (2 to
 * QUOTA_MAX), at the ends of V's range, at multiples of R and next to
 * them, and at 2000 random V per R.
 */
#include "model/gen_internal.h"
#include "tests/unit/unit.h"

static void check_one(uint64_t v, uint32_t r, uint64_t m)
{
	uint32_t got = quota_mod(v, r, m), want = (uint32_t)(v % r);
	if (got != want) {
		fprintf(stderr, "quota_mod(%llu, %u) = %u, not %u\n", (unsigned long long)v, r, got,
			want);
		CHECK(got == want);
	}
}

int main(void)
{
	uint64_t rs[4] = {0x9e3779b97f4a7c15ull, 1, 2, 3};
	for (uint32_t r = 2; r <= QUOTA_MAX; r++) {
		uint64_t m = UINT64_MAX / r + 1, top = UINT64_MAX - UINT64_MAX % r;
		uint64_t edge[] = {0,
				   1,
				   r - 1,
				   r,
				   r + 1,
				   UINT64_MAX,
				   UINT64_MAX - 1,
				   top,
				   top - 1,
				   top - r,
				   (uint64_t)r << 32,
				   ((uint64_t)r << 32) - 1,
				   0xffffffffull,
				   0x100000000ull};
		for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
			check_one(edge[i], r, m);
		for (int i = 0; i < 2000; i++) {
			uint64_t v = xo_next(rs);
			check_one(v, r, m);
			check_one(v - v % r, r, m);
			check_one(v - v % r - 1, r, m);
		}
	}
	return 0;
}
