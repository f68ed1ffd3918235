/*
 * test_model_al_inv: a local jump's grid step (model/gen_internal.h
 * gen_al_inv) as the division it stands for: for every power of two AL
 * up to 2^63, gen_al_inv(AL) is 1.0 / AL and X * gen_al_inv(AL) is
 * X / AL bit for bit, over random doubles of every size and sign, whole
 * numbers, halves and their neighbours, and the ends (0, -0, subnormals,
 * the largest finite, infinities).
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

static int same(double a, double b) { return memcmp(&a, &b, sizeof(a)) == 0; }

int main(void)
{
	uint64_t rs = 0xa1a1a1a1ull, asked = 0;
	static const double ends[] = {0.0,
				      -0.0,
				      0x1p-1074,
				      -0x1p-1074,
				      0x1p-1022,
				      0x1.fffffffffffffp1023,
				      -0x1.fffffffffffffp1023,
				      INFINITY,
				      -INFINITY,
				      0.5,
				      -0.5,
				      1.5};
	for (int k = 0; k < 64; k++) {
		uint64_t al = 1ull << k;
		double ial = gen_al_inv(al);
		CHECK(same(ial, 1.0 / (double)al));
		for (size_t e = 0; e < sizeof(ends) / sizeof(*ends); e++, asked++)
			CHECK(same(ends[e] * ial, ends[e] / (double)al));
		/* the same real rounded once either way: these confirm it */
		for (int q = 0; q < 4000; q++, asked++) {
			double u = unit_urand(&rs), x;
			int sh = (int)(unit_urand(&rs) * 140) - 70; /* 2^-70 .. 2^70 */
			x = ldexp(u, sh) * (unit_urand(&rs) < 0.5 ? -1 : 1);
			if (q % 4 == 1) /* a whole number of steps, or a half, +-1 ulp */
				x = ldexp(floor(ldexp(u, 30)) + (q % 8 == 1 ? 0.5 : 0), k);
			if (q % 16 == 3)
				x = nextafter(x, INFINITY);
			else if (q % 16 == 5)
				x = nextafter(x, -INFINITY);
			CHECK(same(x * ial, x / (double)al));
		}
	}
	printf("%llu quotients: the same\n", (unsigned long long)asked);
	return 0;
}
