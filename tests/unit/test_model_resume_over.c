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
 *   by one with the answers just kept (a key without either fails).
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

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	static struct devstate t;
	if (!gen_shares_kept(dv, s))
		return;
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
	struct model m;
	unit_model_load_corpus(&m, name);
	struct model_gen *g;
	struct model_gen_opts o = {.seed = 5, .rate = 4, .capacity = capacity};
	CHECK(model_gen_create(&g, &m, &o) == 0);
	uint64_t rs = 0x452821e638d01377ull, n = 0;
	struct reel_rec rec;
	for (int k = 1;; k++) {
		if (k % 97 == 0)
			for (size_t d = 0; d < m.ndevs; d++)
				check_dev(&m.devs[d], &g->ds[d], &rs);
		if (model_gen_next(g, &rec) != 1 || ++n >= 20000)
			break;
	}
	printf("%s capacity %llu: %llu I/O, %llu ends asked\n", name, (unsigned long long)capacity,
	       (unsigned long long)n, (unsigned long long)n_asked);
	model_gen_destroy(g);
	model_free(&m);
}

int main(void)
{
	const char *names[] = {"boot_nspawn_local_odds",
			       "compile_read_share",
			       "disksim_16dev",
			       "disksim_seg_weights",
			       "fiu_2phases",
			       "blktrace_one_phase",
			       "msr_1phase"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		test_model(names[i], 0);
		test_model(names[i], 3ull << 30);
	}
	printf("ok\n");
	return 0;
}
