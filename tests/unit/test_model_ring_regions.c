/*
 * test_model_ring_regions: what history_back's tries read of a ring slot
 * instead of looking it up (model/gen_internal.h rreg, rkn, filled by
 * gen_offsets_count for the slot remember fills next) is the slot's
 * offset's: its region (gen_region_of) and its offsets CDF knot
 * (gen_addr_knot's, and gen_addr_knot_at keeps it as it is), for every
 * slot of the ring's last GEN_HIST I/O; and gen_over_kept_r (each
 * region's gen_offsets_over_r kept with the device's count and the
 * region's) answers as gen_offsets_over_r asked anew, asked twice, then
 * after the device's count and a region's were moved by one.  On the
 * state placing left after every 97 I/O of the fuzz corpus' models (1 to
 * 16 devices), at --rate 4 and at a --capacity's scale.
 */
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_slots, n_knots, n_over, n_over_yes;

static void check_slots(const struct model_devspace *dv, const struct devstate *s)
{
	for (uint64_t j = 1; j <= s->hn && j <= GEN_HIST; j++) {
		uint64_t i = (s->hn - j) % GEN_HIST;
		CHECK_EQ(s->rreg[i], gen_region_of(dv, s, s->ring[i]));
		n_slots++;
		if (dv->addr.nk < 2)
			continue;
		double x = gen_unscale(s, s->ring[i]);
		CHECK_EQ(s->rkn[i], gen_addr_knot(dv, s, x));
		CHECK_EQ(gen_addr_knot_at(dv, s, x, s->rkn[i]), s->rkn[i]);
		n_knots++;
	}
}

static void check_over(const struct model_devspace *dv, struct devstate *t)
{
	for (uint32_t r = 0; r < dv->nregions; r++)
		for (int twice = 0; twice < 2; twice++) {
			int want = gen_offsets_over_r(dv, t, r);
			CHECK_EQ(gen_over_kept_r(dv, t, r), want);
			n_over++;
			n_over_yes += want;
		}
}

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	(void)rs;
	static struct devstate t;
	check_slots(dv, s);
	t = *s;
	check_over(dv, &t);
	t.hn++; /* the device's count moved, the regions' not */
	check_over(dv, &t);
	for (uint32_t r = 0; r < dv->nregions; r += 1 + dv->nregions / 5) {
		t.rn[r]++; /* a region's count moved, the device's not */
		check_over(dv, &t);
	}
}

static void test_model(const char *name, uint64_t capacity)
{
	/* the ring is filled with the touched set: checked where it is kept */
	uint64_t n = unit_model_gen_checked_if(name, capacity, 5, 0, 97, 0, 1, check_dev);
	printf("%s capacity %llu: %llu I/O, %llu slots, %llu knots, %llu / %llu over\n", name,
	       (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)n_slots,
	       (unsigned long long)n_knots, (unsigned long long)n_over_yes,
	       (unsigned long long)n_over);
}

int main(void)
{
	unit_model_gen_each(test_model);
	CHECK(n_slots > 100000 && n_knots > 100000 && n_over_yes > 100 && n_over_yes < n_over);
	printf("ok\n");
	return 0;
}
