/*
 * test_model_local_at: the look-ups a local jump's landing takes, each
 * made once (model/gen_internal.h gen_region_of, gen_lround;
 * model/gen_offsets.c gen_offsets_local_at), answer as the plain forms
 * they stand for:
 * - gen_region_of as the search over the region bounds (region_search,
 *   copied below) at scale 1 and at a --capacity's, and as
 *   gen_space_region;
 * - gen_offsets_local_at as gen_offsets_in_extents, then
 *   gen_offsets_local_over and gen_space_region, reusing or not, and
 *   gen_offsets_local_full_rk of its region and knot as
 *   gen_offsets_local_full;
 * - gen_lround as llround over random doubles, halves and their
 *   neighbours, and past 2^52, 2^62 and the int64 range's ends.
 * On the fuzz corpus' models of 1 to 16 devices, their state as placing
 * left it after every 500 I/O (the regions' and segments' counts move),
 * at offsets anywhere, at the region bounds and the offsets CDF's knots
 * and a byte either side.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

/* the region of A at SCALE: the last bound at or below A / SCALE (round
 * 22's region_search, one loop over the doubles) */
static uint32_t ref_region(const struct model_devspace *d, double scale, uint64_t a)
{
	double x = (double)a / scale;
	if (x >= (double)d->bound[d->nregions])
		return d->nregions - 1;
	uint32_t lo = 0;
	for (uint32_t r = 1; r < d->nregions; r++)
		if ((double)d->bound[r] <= x)
			lo = r;
	return lo;
}

static uint64_t n_asked;

static void check_at(const struct model_devspace *dv, const struct devstate *s, uint64_t a)
{
	CHECK_EQ(gen_region_of(dv, s, a), ref_region(dv, s->scale, a));
	CHECK_EQ(gen_region_of(dv, s, a), gen_space_region(dv, s, a));
	struct devstate t = *s;
	for (int reusing = 0; reusing < 2; reusing++) {
		t.reusing = reusing;
		int over = -1;
		uint32_t r = gen_region_of(dv, s, a), k = UINT32_MAX;
		int in = gen_offsets_local_at(dv, &t, a, r, &over, &k);
		CHECK_EQ(in, gen_offsets_in_extents(dv, &t, a));
		if (in) {
			CHECK_EQ(over, gen_offsets_local_over(dv, &t, a));
			/* the region's half: over whatever the segment */
			CHECK(!gen_local_region_over(dv, &t, r) || over);
			CHECK_EQ(r, gen_space_region(dv, &t, a));
			CHECK_EQ(gen_offsets_local_full_rk(dv, &t, r, k),
				 gen_offsets_local_full(dv, &t, a));
		}
	}
	n_asked++;
}

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	double top = (double)dv->bound[dv->nregions] * s->scale;
	for (int i = 0; i < 300; i++)
		check_at(dv, s, (uint64_t)(unit_urand(rs) * top * 1.05));
	for (uint32_t r = 0; r <= dv->nregions; r++) {
		uint64_t b = (uint64_t)((double)dv->bound[r] * s->scale);
		for (uint64_t a = b ? b - 1 : 0; a <= b + 1; a++)
			check_at(dv, s, a);
	}
	for (uint32_t k = 0; k < dv->addr.nk; k++) {
		uint64_t b = (uint64_t)(dv->addr.v[k] * s->scale);
		for (uint64_t a = b ? b - 1 : 0; a <= b + 1; a++)
			check_at(dv, s, a);
	}
}

static void test_model(const char *name, uint64_t capacity)
{
	uint64_t n =
	    unit_model_gen_checked(name, capacity, 3, 0x243f6a8885a308d3ull, 500, 1, check_dev);
	printf("%s capacity %llu: %llu I/O, %llu offsets asked\n", name,
	       (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)n_asked);
}

static void check_lround(double x)
{
	CHECK_EQ(gen_lround(x), llround(x));
	CHECK_EQ(gen_lround(-x), llround(-x));
}

static void test_lround(void)
{
	uint64_t rs = 0x13198a2e03707344ull;
	for (int i = 0; i < 2000000; i++) {
		double u = unit_urand(&rs), e = ldexp(1, (int)(unit_urand(&rs) * 70) - 5);
		check_lround(u * e);
		double h = floor(u * e) + 0.5; /* a half, and the doubles either side */
		check_lround(h);
		check_lround(nextafter(h, 0));
		check_lround(nextafter(h, INFINITY));
	}
	double edge[] = {0,
			 0.5,
			 0.49999999999999994,
			 1.5,
			 0x1p52,
			 0x1p52 + 1,
			 0x1p53 - 1,
			 0x1p62,
			 nextafter(0x1p62, 0),
			 0x1p63 - 1024,
			 4503599627370495.5,
			 2251799813685247.5};
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		check_lround(edge[i]);
}

int main(void)
{
	test_lround();
	unit_model_gen_each(test_model);
	printf("ok\n");
	return 0;
}
