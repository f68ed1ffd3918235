/*
 * test_model_search_skip: gen_search_skipped (gen_internal.h), the skip
 * of start_wanted's search for room on a full device generated above its
 * rate.  Fresh starts are played as start_wanted and run_start keep their
 * counts: a start not skipped draws a region at random and finds room
 * there at the region's odds; where the region is full of late (missed
 * past GEN_ROOM_FULL) it is a one-draw turn (nfresh, the full search
 * every GEN_FULL-th); its miss goes into the region's share; a skipped
 * one re-uses.  A full device (no room anywhere) skips 31 of every 32
 * one-draw turns once 32 starts in a row re-used, the 32nd searched in
 * full; room found again by those full searches makes fewer skips; a
 * device whose one draw finds room half the time never skips, nor one
 * whose starts never re-use in the trace, nor one at the model's rate.
 */
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#define NREG 8

struct play {
	uint64_t skipped, searched, found;
};

/* N fresh starts on S; region r finds room at odds ROOM[r]. */
static void play(const struct model_devspace *dv, struct devstate *s, const double *room, int n,
		 uint64_t *rs, struct play *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < n; i++) {
		if (gen_search_skipped(dv, s)) {
			CHECK(s->miss == -1);
			p->skipped++;
			s->reuse_run++; /* run_start: it re-used */
			continue;
		}
		uint32_t r = (uint32_t)(unit_urand(rs) * NREG);
		int one = s->widen && s->missed[r] > GEN_ROOM_FULL && s->nfresh++ % GEN_FULL;
		s->miss = unit_urand(rs) < room[r] ? 0 : 1;
		p->searched += !one;
		p->found += !s->miss;
		if (s->widen)
			s->missed[r] += ((float)s->miss - s->missed[r]) / GEN_FULL;
		s->reuse_run = s->miss ? s->reuse_run + 1 : 0;
	}
}

int main(void)
{
	static struct model_devspace dv;
	static struct devstate s;
	struct play p;
	uint64_t rs = 0x9e3779b97f4a7c15ull;
	double none[NREG] = {0}, one[NREG] = {0}, half[NREG];
	one[3] = 0.5;
	for (int r = 0; r < NREG; r++)
		half[r] = 0.5;
	dv.nregions = NREG;
	dv.p_reuse = 0.1f; /* the trace's starts re-use */

	/* a full device: 31 of every 32 one-draw turns skipped */
	memset(&s, 0, sizeof(s));
	s.widen = 1;
	play(&dv, &s, none, 4000, &rs, &p);
	play(&dv, &s, none, 32000, &rs, &p);
	printf("full device: 32000 starts, %llu skipped, %llu searched in full\n",
	       (unsigned long long)p.skipped, (unsigned long long)p.searched);
	CHECK_EQ(p.skipped + p.searched, 32000);
	CHECK(p.searched >= 1000 && p.searched <= 1001);

	/* room found again in one region (1 start in 16 there) by the full
	 * searches: each find makes the next 32 starts search.  The skips
	 * fall (78% of the starts here), the room found with them too: 916
	 * against about 4,000 without the skip, why a device whose starts
	 * never re-use in the trace (git's model) keeps the full search */
	play(&dv, &s, one, 64000, &rs, &p);
	printf("room back in a region: %llu skipped, %llu searched in full, %llu found\n",
	       (unsigned long long)p.skipped, (unsigned long long)p.searched,
	       (unsigned long long)p.found);
	CHECK(p.found > 0);
	CHECK(p.skipped < 0.9 * 64000 * 31 / 32);

	/* a device whose one draw finds room half the time: never a skip */
	memset(&s, 0, sizeof(s));
	s.widen = 1;
	play(&dv, &s, half, 64000, &rs, &p);
	printf("room half the time: %llu skipped\n", (unsigned long long)p.skipped);
	CHECK_EQ(p.skipped, 0);

	/* a device whose starts never re-use in the trace, and one at its rate */
	memset(&s, 0, sizeof(s));
	s.widen = 1;
	dv.p_reuse = 0;
	play(&dv, &s, none, 32000, &rs, &p);
	CHECK_EQ(p.skipped, 0);
	dv.p_reuse = 0.1f;
	memset(&s, 0, sizeof(s));
	s.reuse_run = 1000;
	play(&dv, &s, none, 32000, &rs, &p);
	CHECK_EQ(p.skipped, 0);
	return 0;
}
