/*
 * test_model_place_memo: the answers the placing thread keeps from one
 * ask to the next (model/gen_internal.h gen_region_keep, gen_region_memo,
 * gen_addr_knot_at), held to the look-ups they stand for:
 * - the state's kept pair (rm_a, rm_r) is gen_region_of's, as placing
 *   left it; gen_region_keep and gen_region_memo on a copy of the state
 *   answer as gen_region_of at random offsets, the one kept and another,
 *   and at the region bounds and a byte either side;
 * - gen_addr_knot_at with every knot as the hint (and one past, and
 *   UINT32_MAX) answers as gen_addr_knot at the knots' values, the
 *   doubles either side, random offsets and the state's own hint (kh);
 * - remote's draw (model_dist_seek from the guide, model_dist_lerp) is
 *   model_dist_inv, and its knot gen_addr_knot's where the offset stays
 *   in its stretch;
 * - gen_region_near with a region as the hint answers as gen_region_of,
 *   and gen_region_keep_near (the hint the kept region) so and keeps the
 *   pair: every bound and a byte either side with the hints of the
 *   regions two below to one above it, random offsets with random hints
 *   and the state's own (rm_r, the cursor); the hint taken (its own
 *   region or the next) on some asks;
 * - gen_seg_weight is round 34's (the point mass's test a branch) for
 *   every knot of the offsets CDF, and of a CDF of point masses.
 * On the fuzz corpus' models of 1 to 16 devices, their state as placing
 * left it after every 500 I/O.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_asked, n_hit, n_near, n_near_hit;

/* gen_seg_weight as round 34 wrote it */
static double seg_weight_ref(const struct model_dist *d, uint32_t lo)
{
	double w = d->c[lo + 1] - d->c[lo];
	if (lo && d->v[lo - 1] == d->v[lo])
		w += d->c[lo] - d->c[lo - 1];
	return w;
}

static void check_seg_weights(const struct model_dist *d)
{
	for (uint32_t lo = 0; lo + 1 < d->nk; lo++)
		CHECK(gen_seg_weight(d, lo) == seg_weight_ref(d, lo));
}

/* gen_region_near(DV, S, A, H) and gen_region_keep_near against
 * gen_region_of; a hint taken (no search) counted in n_near_hit, by H
 * or the region after it holding A */
static void check_near(const struct model_devspace *dv, const struct devstate *s,
		       struct devstate *t, uint64_t a, uint32_t h)
{
	if (h >= dv->nregions)
		return;
	uint32_t want = gen_region_of(dv, s, a);
	CHECK_EQ(gen_region_near(dv, s, a, h), want);
	t->rm_r = h;
	CHECK_EQ(gen_region_keep_near(dv, t, a), want);
	CHECK(t->rm_a == a && t->rm_r == want);
	n_near++;
	n_near_hit += a < s->rtop && (want == h || want == h + 1);
}

static void check_knot(const struct model_devspace *dv, const struct devstate *s, double x)
{
	size_t want = gen_addr_knot(dv, s, x), nk = dv->addr.nk;
	for (size_t k = 0; k <= nk; k++)
		CHECK_EQ(gen_addr_knot_at(dv, s, x, k), want);
	CHECK_EQ(gen_addr_knot_at(dv, s, x, UINT32_MAX), want);
	CHECK_EQ(gen_addr_knot_at(dv, s, x, s->kh), want);
	n_asked++;
}

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	static struct devstate t;
	CHECK_EQ(s->rm_r, gen_region_of(dv, s, s->rm_a));
	t = *s;
	double top = (double)dv->bound[dv->nregions] * s->scale;
	for (int i = 0; i < 200; i++) {
		uint64_t a = (uint64_t)(unit_urand(rs) * top * 1.05);
		uint64_t b = (uint64_t)(unit_urand(rs) * top * 1.05);
		CHECK_EQ(gen_region_memo(dv, &t, a), gen_region_of(dv, s, a));
		CHECK_EQ(gen_region_keep(dv, &t, a), gen_region_of(dv, s, a));
		CHECK_EQ(gen_region_memo(dv, &t, a), gen_region_of(dv, s, a));
		CHECK_EQ(gen_region_memo(dv, &t, b), gen_region_of(dv, s, b));
		CHECK_EQ(t.rm_r, gen_region_of(dv, s, t.rm_a));
	}
	for (uint32_t r = 0; r <= dv->nregions; r++) {
		uint64_t b = (uint64_t)((double)dv->bound[r] * s->scale);
		for (uint64_t a = b ? b - 1 : 0; a <= b + 1; a++) {
			CHECK_EQ(gen_region_keep(dv, &t, a), gen_region_of(dv, s, a));
			CHECK_EQ(gen_region_memo(dv, &t, a), gen_region_of(dv, s, a));
			CHECK_EQ(gen_region_memo(dv, &t, a + 2), gen_region_of(dv, s, a + 2));
		}
	}
	for (uint32_t r = 0; r <= dv->nregions; r++) {
		uint64_t b = (uint64_t)((double)dv->bound[r] * s->scale);
		for (uint64_t a = b ? b - 1 : 0; a <= b + 1; a++)
			for (uint32_t h = r >= 2 ? r - 2 : 0; h <= r + 1; h++)
				check_near(dv, s, &t, a, h);
	}
	for (int i = 0; i < 200; i++) {
		uint64_t a = (uint64_t)(unit_urand(rs) * top * 1.05);
		check_near(dv, s, &t, a, (uint32_t)(unit_urand(rs) * dv->nregions));
		check_near(dv, s, &t, a, s->rm_r);
		check_near(dv, s, &t, s->cursor, s->rm_r);
	}
	const struct model_dist *d = &dv->addr;
	if (d->nk < 2)
		return;
	check_seg_weights(d);
	for (size_t k = 0; k < d->nk; k++) {
		check_knot(dv, s, d->v[k]);
		check_knot(dv, s, nextafter(d->v[k], -INFINITY));
		check_knot(dv, s, nextafter(d->v[k], INFINITY));
	}
	for (int i = 0; i < 100; i++) {
		double v = unit_urand(rs);
		size_t k = model_dist_seek(d, v, model_dist_guided(d, v));
		double x = model_dist_lerp(d, v, k);
		CHECK(memcmp(&x, &(double){model_dist_inv(d, v)}, sizeof(x)) == 0);
		double xo = gen_unscale(s, (uint64_t)(x * s->scale));
		CHECK_EQ(gen_addr_knot_at(dv, s, xo, k), gen_addr_knot(dv, s, xo));
		n_hit += gen_addr_knot_at(dv, s, xo, k) == k;
		check_knot(dv, s, xo);
		check_knot(dv, s, (d->v[d->nk - 1] - d->v[0]) * unit_urand(rs) * 1.1 + d->v[0]);
	}
}

static void test_model(const char *name, uint64_t capacity)
{
	uint64_t n =
	    unit_model_gen_checked(name, capacity, 5, 0x452821e638d01377ull, 500, 1, check_dev);
	printf("%s capacity %llu: %llu I/O, %llu knots asked, %llu draws' knots kept\n", name,
	       (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)n_asked,
	       (unsigned long long)n_hit);
	CHECK(n_asked == 0 || n_hit > 0); /* a draw's knot is the knot: kept */
}

/* gen_seg_weight on a CDF of point masses (knots of one value), a step
 * at its first knot and a last stretch of no share */
static void test_seg_weight_points(void)
{
	static struct model_dist d;
	const double v[] = {0, 0, 1, 1, 1, 2, 3, 3, 4};
	const double c[] = {0, 0.2, 0.3, 0.5, 0.6, 0.7, 0.7, 0.9, 1};
	d.nk = sizeof(v) / sizeof(v[0]);
	memcpy(d.v, v, sizeof(v));
	memcpy(d.c, c, sizeof(c));
	check_seg_weights(&d);
	CHECK(gen_seg_weight(&d, 1) == (0.3 - 0.2) + (0.2 - 0.0)); /* its point mass */
	CHECK(gen_seg_weight(&d, 4) == (0.7 - 0.6) + (0.6 - 0.5));
	CHECK(gen_seg_weight(&d, 5) == 0.7 - 0.7);
}

int main(void)
{
	test_seg_weight_points();
	unit_model_gen_each(test_model);
	printf("near: %llu asked, %llu by the hint\n", (unsigned long long)n_near,
	       (unsigned long long)n_near_hit);
	CHECK(n_near_hit > 0);
	printf("ok\n");
	return 0;
}
