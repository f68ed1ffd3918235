/*
 * test_model_chain_guide: the chain's row searched by its table at each
 * 1/GEN_TRG of [0, 1) (model/gen_internal.h gen_chain_guide, gen_chain_at:
 * gen_space.c's chain_find) against the row's whole search (gen_upper over
 * the row less its last entry) and round 27's chain_find (copied below: a
 * table at each 1/32, each entry found by the whole search): the same
 * entry on 3,000 random rows (one entry to 256; shares of 0 and ties; the
 * last cumulated share 1 and below 1), draws at random, at the cumulated
 * shares themselves, at the tables' steps, a double either side of each,
 * 0 and the largest double below 1.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#define OLD_TRG 32

/* round 27's chain_guide_init, one row */
static void old_guide(const double *p, uint32_t a, uint32_t b, uint8_t *g)
{
	for (uint32_t q = 0; q <= OLD_TRG; q++)
		g[q] = (uint8_t)(gen_upper(p, a, b - 1, (double)q / OLD_TRG) - a);
}

/* round 27's chain_find */
static uint32_t old_find(const double *p, uint32_t a, const uint8_t *g, double u)
{
	uint32_t q = u * OLD_TRG < OLD_TRG - 1 ? (uint32_t)(u * OLD_TRG) : OLD_TRG - 1;
	return gen_upper(p, a + g[q], a + g[q + 1], u);
}

static uint64_t asked;

static void check(const double *p, uint32_t a, uint32_t b, const uint32_t *g, const uint8_t *og,
		  double u)
{
	if (!(u >= 0 && u < 1))
		return;
	uint32_t want = gen_upper(p, a, b - 1, u);
	CHECK_EQ(old_find(p, a, og, u), want);
	CHECK_EQ(gen_chain_at(p, a, g, u), want);
	asked++;
}

int main(void)
{
	static double p[1 + 256];
	static uint32_t g[GEN_TRC];
	static uint8_t og[OLD_TRG + 1];
	uint64_t rs = 0x9e3779b9ull;
	for (int set = 0; set < 3000; set++) {
		double v = unit_urand(&rs);
		uint32_t n = v < 0.1   ? 1
			     : v < 0.2 ? 2 + (uint32_t)(unit_urand(&rs) * 6)
				       : 1 + (uint32_t)(unit_urand(&rs) * 256);
		uint32_t a = 1; /* the row's first not the array's */
		double c = 0;
		for (uint32_t x = 0; x < n; x++) {
			double q = unit_urand(&rs);
			c += set % 5 == 1 ? 1 : q < 0.15 ? 0 : set % 7 == 3 ? q * 1e-9 : q;
			p[a + x] = c;
		}
		c = c > 0 ? c : 1;
		for (uint32_t x = 0; x < n; x++)
			p[a + x] =
			    x + 1 == n && set % 3 ? 1 : p[a + x] / (set % 3 ? c : c * (1 + 1e-5));
		gen_chain_guide(p, a, a + n, 1, g);
		old_guide(p, a, a + n, og);
		for (int k = 0; k < 200; k++)
			check(p, a, a + n, g, og, unit_urand(&rs));
		for (uint32_t x = 0; x < n; x++) {
			check(p, a, a + n, g, og, p[a + x]);
			check(p, a, a + n, g, og, nextafter(p[a + x], 0));
			check(p, a, a + n, g, og, nextafter(p[a + x], 2));
		}
		for (uint32_t q = 0; q <= GEN_TRG; q += set % 4 ? 1 : 7) {
			double s = (double)q / GEN_TRG;
			check(p, a, a + n, g, og, s);
			check(p, a, a + n, g, og, nextafter(s, 0));
			check(p, a, a + n, g, og, nextafter(s, 2));
		}
		check(p, a, a + n, g, og, 0);
		check(p, a, a + n, g, og, nextafter(1.0, 0));
	}
	printf("%llu draws: the same entry\n", (unsigned long long)asked);
	return 0;
}
