/*
 * test_model_search_skip: gen_search_skipped and gen_missed_count
 * (gen_internal.h), the skip of start_wanted's search for room on a full
 * device generated above its rate.  Fresh starts are played as
 * start_wanted and run_start keep their counts: a start not skipped draws
 * a region at random, finds room there at the region's odds, counts a
 * one-draw turn (nfresh) where the region is full of late and its miss in
 * the region's share (gen_missed_count); a skipped one re-uses.  A full
 * device (no room anywhere) skips 31 of every 32 one-draw turns once its
 * regions are all full of late and 32 starts in a row re-used, the 32nd
 * searched in full; a device whose one draw finds room in one region
 * (odds 1/2 there) never skips, nor an op that never re-uses in the trace,
 * nor a device at the model's rate (no widen); and room that comes back
 * in a region (found by the full searches) stops the skips.
 */
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#define NREG 8

struct play {
	uint64_t starts, skipped, searched, found;
};

/* N fresh starts of OP on S; region r finds room at odds ROOM[r]. */
static void play(const struct model_devspace *dv, struct devstate *s, int op, const double *room,
		 int n, uint64_t *rs, struct play *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < n; i++) {
		p->starts++;
		if (gen_search_skipped(dv, s, op)) {
			CHECK(s->miss == -1);
			p->skipped++;
			s->reuse_run++; /* run_start: it re-used */
			continue;
		}
		uint32_t r = (uint32_t)(unit_urand(rs) * NREG);
		int one = s->widen && s->missed[r] > GEN_ROOM_FULL && s->nfresh++ % GEN_FULL;
		/* a one-draw start finds room as the full search would here */
		s->miss = unit_urand(rs) < room[r] ? 0 : 1;
		s->miss_at = r;
		p->searched += !one;
		p->found += !s->miss;
		if (s->widen)
			gen_missed_count(s);
		s->reuse_run = s->miss ? s->reuse_run + 1 : 0;
	}
}

static void fresh_state(struct devstate *s, int widen)
{
	memset(s, 0, sizeof(*s));
	s->widen = widen;
	s->roomy = NREG;
}

/* roomy as counted from missed */
static uint32_t roomy_of(const struct devstate *s)
{
	uint32_t k = 0;
	for (int r = 0; r < NREG; r++)
		k += s->missed[r] <= GEN_ROOM_FULL;
	return k;
}

int main(void)
{
	static struct model_devspace dv;
	static struct devstate s;
	struct play p;
	uint64_t rs = 0x9e3779b97f4a7c15ull;
	double none[NREG] = {0}, one[NREG] = {0};
	one[3] = 0.5;
	dv.nregions = NREG;
	dv.p_reuse_op[0] = 0.1f; /* reads re-use in the trace, writes never */
	dv.p_reuse_op[1] = 0;

	/* a full device: the skip once every region is full of late */
	fresh_state(&s, 1);
	play(&dv, &s, REEL_OP_READ, none, 4000, &rs, &p);
	CHECK_EQ(s.roomy, 0);
	CHECK_EQ(roomy_of(&s), 0);
	play(&dv, &s, REEL_OP_READ, none, 32000, &rs, &p);
	printf("full device: %llu starts, %llu skipped, %llu searched in full\n",
	       (unsigned long long)p.starts, (unsigned long long)p.skipped,
	       (unsigned long long)p.searched);
	/* every 32nd one-draw turn the full search, the rest skipped */
	CHECK_EQ(p.skipped + p.searched, 32000);
	CHECK(p.searched >= 1000 && p.searched <= 1001);

	/* room found again in one region by the full searches: the skips stop */
	play(&dv, &s, REEL_OP_READ, one, 64000, &rs, &p);
	printf("room back in region 3: %llu skipped, %llu searched in full, %llu found\n",
	       (unsigned long long)p.skipped, (unsigned long long)p.searched,
	       (unsigned long long)p.found);
	CHECK(s.roomy >= 1);
	CHECK_EQ(s.roomy, roomy_of(&s));
	CHECK(p.found > 2000);
	uint64_t before = p.skipped;
	play(&dv, &s, REEL_OP_READ, one, 32000, &rs, &p);
	CHECK_EQ(p.skipped, 0);
	CHECK(before < 64000 / 4);

	/* a device whose one draw finds room in one region: never a skip */
	fresh_state(&s, 1);
	play(&dv, &s, REEL_OP_READ, one, 64000, &rs, &p);
	printf("room in one region: %llu skipped, roomy %u\n", (unsigned long long)p.skipped,
	       s.roomy);
	CHECK_EQ(p.skipped, 0);
	CHECK_EQ(s.roomy, roomy_of(&s));

	/* an op that never re-uses in the trace, and a device at its rate */
	fresh_state(&s, 1);
	play(&dv, &s, REEL_OP_WRITE, none, 32000, &rs, &p);
	CHECK_EQ(p.skipped, 0);
	CHECK_EQ(s.roomy, 0);
	fresh_state(&s, 0);
	s.roomy = 0;
	s.reuse_run = 1000;
	play(&dv, &s, REEL_OP_READ, none, 32000, &rs, &p);
	CHECK_EQ(p.skipped, 0);
	return 0;
}
