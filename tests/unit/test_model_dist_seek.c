/*
 * test_model_dist_seek: remote's inverse CDF (model/gen_internal.h
 * gen_dist_seek, gen_dist_inv_at: the walk's first two steps tested at
 * once) against model.h's model_dist_seek and model_dist_inv_at: the same
 * knot from every start LO (0 .. nk - 2; on more than 17 knots the last
 * three, the guide's and 12 at random) and the same double, bit for bit,
 * with the same knot kept, on 20,000 distributions of 2 to
 * MODEL_DIST_MAXK knots (cumulatives going up, with flats and steps of 0;
 * every 4th at random, falling too: the walk's answer whatever they
 * hold), U at random, at each cumulative and a double either side, 0, -0,
 * 1, below 0, above 1, NaN.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* D's knots: NK of them, cumulatives from 0 to 1 going up (flats, ties),
 * or at random where WILD. */
static void dist_make(struct model_dist *d, uint32_t nk, int wild, uint64_t *rs)
{
	memset(d, 0, sizeof(*d));
	d->nk = nk;
	double v = unit_urand(rs) * 1e6, c = 0;
	for (uint32_t i = 0; i < nk; i++) {
		double r = unit_urand(rs);
		v += r < 0.2 ? 0 : unit_urand(rs) * 4096;
		c += r < 0.3 ? 0 : unit_urand(rs);
		d->v[i] = v;
		d->c[i] = wild ? unit_urand(rs) : c;
	}
	if (!wild && c > 0)
		for (uint32_t i = 0; i < nk; i++)
			d->c[i] = i + 1 < nk ? d->c[i] / c : 1;
	d->c[0] = 0;
	model_dist_prepare(d);
}

/* gen_dist_seek from every start (16 at most: the last 3 knots', the
 * guide's and some at random) and gen_dist_inv_at at U, against the walk;
 * 1 where the inverses were asked */
static int check_at(const struct model_dist *d, double u, uint64_t *rs)
{
	for (size_t j = 0; j + 2 <= d->nk && j < 16; j++) {
		size_t lo = d->nk <= 17 ? j
			    : j < 3	? d->nk - 2 - j
			    : j == 3	? model_dist_guided(d, u > 0 && u < 1 ? u : 0.5)
					: (size_t)unit_below(rs, d->nk - 1);
		CHECK_EQ(gen_dist_seek(d, u, lo), model_dist_seek(d, u, lo));
	}
	size_t k0 = 7, k1 = 7;
	double x0 = model_dist_inv_at(d, u, &k0), x1 = gen_dist_inv_at(d, u, &k1);
	CHECK(memcmp(&x0, &x1, sizeof(x0)) == 0);
	CHECK_EQ(k0, k1);
	return 1;
}

int main(void)
{
	static struct model_dist d;
	uint64_t rs = 0x5eeca11ull, asked = 0;
	/* no NaN: the guide's index of a NaN draw is undefined (ubsan), and
	 * gen's draws are unit()'s, in [0, 1) */
	const double edge[] = {0, -0.0, 1, -1e-300, nextafter(1, 2), 1e300, nextafter(0, 1)};
	for (int set = 0; set < 20000; set++) {
		uint32_t nk = set % 3 ? 2 + (uint32_t)(unit_urand(&rs) * 6)
				      : 2 + (uint32_t)(unit_urand(&rs) * (MODEL_DIST_MAXK - 1));
		dist_make(&d, nk, set % 4 == 3, &rs);
		for (int q = 0; q < 20; q++)
			asked += check_at(&d, unit_urand(&rs), &rs);
		for (uint32_t i = 0; i < nk; i++) /* each cumulative, a double either side */
			for (int e = -1; e <= 1; e++)
				asked += check_at(&d, e ? nextafter(d.c[i], e) : d.c[i], &rs);
		for (size_t e = 0; e < sizeof(edge) / sizeof(edge[0]); e++)
			asked += check_at(&d, edge[e], &rs);
	}
	printf("%llu draws on 20000 distributions: the same knots and values\n",
	       (unsigned long long)asked);
	return 0;
}
