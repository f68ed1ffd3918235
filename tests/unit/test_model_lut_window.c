/*
 * test_model_lut_window: the region's and the offsets knot's searches in
 * a window of the same steps at every ask (model/gen_internal.h
 * gen_region_lut with rlut_w, gen_addr_knot with klut_w; the windows
 * made in gen_space.c region_lut_init and gen_offsets.c
 * gen_offsets_init) answer as the searches they replace (the same
 * devstate with rlut_w, klut_w 0) and as the plain searches over all
 * the bounds and knots (gen_space_region without a state,
 * model_dist_knot):
 * - on the fuzz corpus' models of 1 to 16 devices, at scale 1 and at a
 *   --capacity's, their state as placing left it every 500 I/O, at
 *   offsets anywhere, at every region bound and knot and a byte (a
 *   double) either side;
 * - on bounds and knots of this test's own, packed into a few entries of
 *   the tables (windows of 2 to 256, and the window pushed down from the
 *   top: rlut_top, klut_top), their tables made as gen_space_init makes
 *   them (region_lut_init, gen_offsets_init copied below only where they
 *   are static).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_regions, n_knots, n_wide;

/* S with its windows off (rlut_w, klut_w 0): the searches before them */
static struct devstate *plain;

static void plain_of(const struct devstate *s)
{
	if (!plain)
		CHECK((plain = malloc(sizeof(*plain))) != NULL);
	memcpy(plain, s, sizeof(*plain));
	plain->rlut_w = 0;
	plain->klut_w = 0;
}

static void check_region(const struct model_devspace *dv, const struct devstate *s, uint64_t a)
{
	uint32_t r = gen_region_of(dv, s, a);
	CHECK_EQ(r, gen_region_of(dv, plain, a));
	if (s->scale == 1)
		CHECK_EQ(r, gen_space_region(dv, NULL, a));
	n_regions++;
}

static void check_knot(const struct model_devspace *dv, const struct devstate *s, double x)
{
	const struct model_dist *d = &dv->addr;
	if (d->nk < 2)
		return;
	size_t k = gen_addr_knot(dv, s, x);
	CHECK_EQ(k, gen_addr_knot(dv, plain, x));
	CHECK_EQ(k, model_dist_knot(d, x, d->nk - 1));
	n_knots++;
}

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	n_wide += s->rlut_w > 2 || s->klut_w > 2;
	plain_of(s);
	double top = (double)dv->bound[dv->nregions] * s->scale;
	for (int i = 0; i < 300; i++)
		check_region(dv, s, (uint64_t)(unit_urand(rs) * top * 1.05));
	for (uint32_t r = 0; r <= dv->nregions; r++) {
		uint64_t b = (uint64_t)((double)dv->bound[r] * s->scale);
		for (uint64_t a = b ? b - 1 : 0; a <= b + 1; a++)
			check_region(dv, s, a);
	}
	const struct model_dist *d = &dv->addr;
	if (d->nk < 2)
		return;
	for (int i = 0; i < 300; i++)
		check_knot(dv, s, d->v[0] + unit_urand(rs) * (d->v[d->nk - 1] - d->v[0]));
	for (uint32_t k = 0; k < d->nk; k++) {
		check_knot(dv, s, d->v[k]);
		check_knot(dv, s, nextafter(d->v[k], -INFINITY));
		check_knot(dv, s, nextafter(d->v[k], INFINITY));
	}
}

static void test_model(const char *name, uint64_t capacity)
{
	uint64_t n =
	    unit_model_gen_checked(name, capacity, 5, 0xa4093822299f31d0ull, 500, 1, check_dev);
	printf("%s capacity %llu: %llu I/O, %llu regions and %llu knots asked\n", name,
	       (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)n_regions,
	       (unsigned long long)n_knots);
}

/* gen_space.c's region_search at scale 1 (static there): the last bound
 * at or below A, one loop */
static uint32_t ref_region(const struct model_devspace *d, uint64_t a)
{
	if (a >= d->bound[d->nregions])
		return d->nregions - 1;
	uint32_t lo = 0;
	for (uint32_t r = 1; r < d->nregions; r++)
		if (d->bound[r] <= a)
			lo = r;
	return lo;
}

/* region_lut_init (gen_space.c, static) on S: the table, then the window */
static void lut_make(const struct model_devspace *d, struct devstate *s)
{
	uint64_t e = d->bound[d->nregions];
	int sh = 0;
	while ((e >> sh) >= GEN_RLUT)
		sh++;
	s->rlut_sh = (uint8_t)sh;
	for (uint64_t j = 0; j <= GEN_RLUT; j++)
		s->rlut[j] = (uint8_t)ref_region(d, j << sh);
	s->rtop = e;
	s->scale = 1;
	uint32_t w = 1;
	for (uint64_t j = 0; j < GEN_RLUT; j++)
		while (w < (uint32_t)s->rlut[j + 1] - s->rlut[j] + 1u)
			w *= 2;
	s->rlut_w = w <= d->nregions + 1 ? w : 0;
	s->rlut_top = s->rlut_w ? d->nregions + 1 - w : 0;
}

/* N regions of a 1 GiB extent, PACK of them in its first 1/GEN_RLUT (or
 * its last, AT_TOP) and the rest spread; the offsets CDF's knots alike */
static void test_packed(uint32_t n, uint32_t pack, int at_top, uint64_t *rs)
{
	struct model_devspace *d = calloc(1, sizeof(*d));
	struct devstate *s = calloc(1, sizeof(*s));
	CHECK(d && s);
	uint64_t e = 1ull << 30, cell = e / GEN_RLUT, step = (e - cell) / (n - pack + 1);
	d->nregions = n;
	for (uint32_t r = 0; r < n; r++)
		if (!at_top)
			d->bound[r] = r < pack ? r * (cell / pack) : cell + (r - pack) * step;
		else
			d->bound[r] = r < n - pack
					  ? r * step
					  : e - cell + (r - (n - pack)) * (cell / (pack + 1));
	d->bound[n] = e;
	for (uint32_t r = 0; r < n; r++)
		CHECK(d->bound[r] < d->bound[r + 1]);
	lut_make(d, s);
	n_wide += s->rlut_w > 2;
	plain_of(s);
	for (uint32_t r = 0; r <= n; r++)
		for (uint64_t a = d->bound[r] ? d->bound[r] - 1 : 0; a <= d->bound[r] + 1 && a < e;
		     a++) {
			CHECK_EQ(gen_region_lut(d, s, a), ref_region(d, a));
			n_regions++;
		}
	for (int i = 0; i < 20000; i++) {
		uint64_t a = (uint64_t)(unit_urand(rs) * (double)e);
		if (i % 2)
			a = (uint64_t)(unit_urand(rs) * (double)(2 * cell)) +
			    (at_top ? e - 2 * cell : 0);
		a = a < e ? a : e - 1;
		CHECK_EQ(gen_region_lut(d, s, a), ref_region(d, a));
		n_regions++;
	}
	printf("packed %u regions, %u in a cell%s: window %u from at most %u\n", n, pack,
	       at_top ? " at the top" : "", s->rlut_w, s->rlut_top);

	/* the knots: N of them over [0, 1000], PACK in the first (last)
	 * 1/GEN_KLUT of the range, point masses (two knots at one value) */
	struct model_dist *k = &d->addr;
	k->nk = n;
	for (uint32_t i = 0; i < n; i++) {
		int in_pack = at_top ? i >= n - pack : i < pack;
		double x = in_pack ? (at_top ? 1000 - 1000.0 / GEN_KLUT : 0) +
					 (1000.0 / GEN_KLUT) * (i % pack) / pack
				   : 1000.0 * i / n;
		k->v[i] = i && x < k->v[i - 1] ? k->v[i - 1] : x;
		if (i % 7 == 3 && i)
			k->v[i] = k->v[i - 1];
		k->c[i] = (double)i / (n - 1);
	}
	k->v[n - 1] = fmax(k->v[n - 1], 1000);
	gen_offsets_init(d, s);
	n_wide += s->klut_w > 2;
	plain_of(s);
	for (uint32_t i = 0; i < n; i++) {
		check_knot(d, s, k->v[i]);
		check_knot(d, s, nextafter(k->v[i], -INFINITY));
		check_knot(d, s, nextafter(k->v[i], INFINITY));
	}
	for (int i = 0; i < 20000; i++)
		check_knot(d, s, unit_urand(rs) * 1000);
	printf("packed %u knots, %u in a cell%s: window %u from at most %u\n", n, pack,
	       at_top ? " at the top" : "", s->klut_w, s->klut_top);
	free(d);
	free(s);
}

int main(void)
{
	uint64_t rs = 0x082efa98ec4e6c89ull;
	uint32_t packs[][2] = {{8, 2},	   {20, 5},    {118, 17}, {128, 50},
			       {256, 200}, {256, 255}, {3, 2}};
	for (size_t i = 0; i < sizeof(packs) / sizeof(packs[0]); i++)
		for (int top = 0; top < 2; top++)
			test_packed(packs[i][0], packs[i][1], top, &rs);
	unit_model_gen_each(test_model);
	CHECK(n_wide > 0);
	free(plain);
	printf("ok\n");
	return 0;
}
