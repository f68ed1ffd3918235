/*
 * test_model_gaps_loops: the squeezes' and fits' loops two gaps at a time
 * (model/gen.c gen_gaps_in, gen_gaps_top, gen_gaps_grow4) against the
 * scalar loops they stand for, bit for bit: on arrays of every length 0
 * to 40 and of 10,001, values of random size (0, -0, ties, whole ns,
 * subnormals, 1e300), running sums rising or not; TOP and ADD as the fits
 * make them and at random.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

static double value(uint64_t *rs)
{
	double r = unit_urand(rs);
	if (r < 0.1)
		return 0;
	if (r < 0.15)
		return -0.0;
	if (r < 0.2)
		return DBL_MIN * unit_urand(rs);
	if (r < 0.5)
		return floor(unit_urand(rs) * 8);
	if (r < 0.52)
		return 1e300 * unit_urand(rs);
	return unit_urand(rs) * 1e6;
}

static int same(const double *a, const double *b, size_t n)
{
	return n == 0 || memcmp(a, b, n * sizeof(*a)) == 0;
}

int main(void)
{
	static double bt[10002], x[10002], y[10002];
	uint64_t rs = 0x6a95ull, asked = 0;
	for (int set = 0; set < 20000; set++) {
		size_t n = set % 50 == 49 ? 10001 : (size_t)(set % 41);
		double sum = 0;
		bt[0] = 0;
		for (size_t i = 0; i < n; i++) /* running sums, falling now and then */
			bt[i + 1] = sum += set % 3 ? value(&rs) : value(&rs) - 4;
		for (size_t i = 0; i < n; i++)
			y[i] = bt[i + 1] - bt[i];
		memcpy(x, bt, (n + 1) * sizeof(*x)); /* in place: bt[0], then the gaps */
		gen_gaps_in(x, n);
		CHECK(x[0] == bt[0] && same(x + 1, y, n));
		for (size_t i = 0; i < n; i++)
			x[i] = y[i] = value(&rs);
		double top = 0;
		for (size_t i = 0; i < n; i++)
			top = y[i] > top ? y[i] : top;
		double t = gen_gaps_top(x, n);
		CHECK(memcmp(&t, &top, sizeof(t)) == 0);
		if (!(top > 0) || !isfinite(top))
			top = 1 + unit_urand(&rs);
		double add = set % 2 ? unit_urand(&rs) * 1e4 : (unit_urand(&rs) - 0.5) * 1e-3;
		gen_gaps_grow4(x, n, top, add);
		for (size_t i = 0; i < n; i++) {
			double z = y[i] / top;
			y[i] += add * z * z * z * z;
		}
		CHECK(same(x, y, n));
		asked += n;
	}
	printf("%llu gaps: the same doubles as the loops one by one\n", (unsigned long long)asked);
	return 0;
}
