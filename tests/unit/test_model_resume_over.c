/*
 * test_model_resume_over: resume_at's over test with its look-ups kept
 * (model/gen_internal.h gen_resume_over: the region of a slot's end and
 * each region's answer kept) answers as gen_offsets_over asked anew (the
 * walk's over_kept before it), the regions' shares kept:
 * - at the end of each of the ring's last GEN_RESUME slots, and at random
 *   offsets given to random slots (a slot holding another end), on the
 *   state placing left after every 97 I/O (the answers kept from the
 *   walks before);
 * - asked again after the device's I/O count, then one region's, moved
 *   by one with the answers just kept (a key without either fails);
 * - gen_offsets_over_until (the walk's slots passed over for the next
 *   GEN_OVER_AHEAD I/O): where it says over up to a count, over at each
 *   count up to it and at the region's counts above.
 * On the fuzz corpus' models of 1 to 16 devices, at --rate 4 and at a
 * --capacity's scale.
 */
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_asked;

static void check_at(const struct model_devspace *dv, struct devstate *t, uint64_t k, uint64_t e)
{
	CHECK_EQ(gen_resume_over(dv, t, k, e), gen_offsets_over(dv, t, e));
	n_asked++;
}

/* the ring's last GEN_RESUME slots' ends, and random offsets at random
 * slots, on T */
static void check_slots(const struct model_devspace *dv, struct devstate *t, uint64_t *rs)
{
	double top = (double)dv->bound[dv->nregions] * t->scale;
	for (uint64_t j = 1; j <= GEN_RESUME && j <= t->hn; j++) {
		uint64_t k = (t->hn - j) % GEN_HIST;
		check_at(dv, t, k, t->rend[k]);
	}
	for (int i = 0; i < 64; i++)
		check_at(dv, t, (uint64_t)(unit_urand(rs) * GEN_HIST) % GEN_HIST,
			 (uint64_t)(unit_urand(rs) * top * 1.05));
}

static uint64_t n_until, n_until_yes;

/* gen_offsets_over_until of each region up to N = hn + 0, 1, 7, 64, 1000:
 * where 1, gen_offsets_over_r at counts of the device from hn to N (each
 * up to 64 on, then 64 spread) and of the region from its own up by 0,
 * 1 and 5; at N = hn, where the model keeps no shares by segment,
 * gen_offsets_over_r's answer */
static void check_until(const struct model_devspace *dv, const struct devstate *s)
{
	static struct devstate t;
	static const uint64_t ahead[] = {0, 1, 7, 64, 1000};
	t = *s;
	for (uint32_t r = 0; r < dv->nregions; r++)
		for (size_t a = 0; a < sizeof(ahead) / sizeof(ahead[0]); a++) {
			uint64_t n = s->hn + ahead[a];
			int u = gen_offsets_over_until(dv, s, r, n);
			n_until++;
			if (!a && !dv->seg_fitted)
				CHECK_EQ(u, gen_offsets_over_r(dv, s, r));
			if (!u)
				continue;
			n_until_yes++;
			uint64_t step = ahead[a] > 64 ? ahead[a] / 64 : 1;
			for (uint64_t h = s->hn; h <= n; h = h + step > n && h < n ? n : h + step)
				for (uint32_t up = 0; up <= 5; up += up ? 4 : 1) {
					t.hn = h;
					t.rn[r] = s->rn[r] + up;
					CHECK(gen_offsets_over_r(dv, &t, r));
				}
			t.hn = s->hn;
			t.rn[r] = s->rn[r];
		}
}

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	static struct devstate t;
	if (!gen_shares_kept(dv, s))
		return;
	check_until(dv, s);
	t = *s;
	check_slots(dv, &t, rs);
	t.hn++; /* the device's count moved, the regions' not */
	if (gen_shares_kept(dv, &t))
		check_slots(dv, &t, rs);
	uint32_t r = (uint32_t)(unit_urand(rs) * dv->nregions) % dv->nregions;
	for (int i = 0; i < 2; i++) {
		/* a region's count moved, the device's not: the region of a
		 * slot's end (answers kept), then any */
		if (t.hn)
			r = gen_region_of(dv, &t, t.rend[(t.hn - 1) % GEN_HIST]);
		check_slots(dv, &t, rs);
		t.rn[r]++;
		check_slots(dv, &t, rs);
		r = (uint32_t)(unit_urand(rs) * dv->nregions) % dv->nregions;
	}
}

static void test_model(const char *name, uint64_t capacity)
{
	uint64_t n =
	    unit_model_gen_checked(name, capacity, 5, 0x452821e638d01377ull, 97, 0, check_dev);
	printf("%s capacity %llu: %llu I/O, %llu ends asked, %llu / %llu over until\n", name,
	       (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)n_asked,
	       (unsigned long long)n_until_yes, (unsigned long long)n_until);
}

int main(void)
{
	unit_model_gen_each(test_model);
	printf("ok\n");
	return 0;
}
