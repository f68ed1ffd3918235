/*
 * test_model_region_full: gen_region_full (model/gen_internal.h), whether
 * every block of a region's stretch is touched in the direct set, held to
 * a look at each of the stretch's blocks:
 * - on direct sets filled at random a few blocks at a time, from empty to
 *   full, regions of 1 to 3,000 blocks side by side and overlapping at
 *   their ends' blocks, asked after every fill in a random order (the
 *   kept first block not known touched, full_b, only moves up);
 * - gen_region_full_init's stretches: a region's blocks from its low
 *   bound's to its high bound's at the device's scale, and the block
 *   past the set's last one kept (never touched: never full) where the
 *   high bound's block is not in the set or the align is over a block;
 * - on the fuzz corpus' one-device models generated at small capacities
 *   (their devices' blocks filled) at rate 8, every 100 I/O, each region's answer
 *   is the look's, and some regions are found full.
 */
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

/* Whether blocks B0 to B1 of T are all touched, one by one. */
static int all_touched(const uint64_t *t, uint64_t b0, uint64_t b1)
{
	for (uint64_t b = b0; b <= b1; b++)
		if (!(t[b >> 6] >> (b & 63) & 1))
			return 0;
	return 1;
}

static uint64_t rnd_below(uint64_t *rs, double n) { return (uint64_t)(unit_urand(rs) * n); }

static void random_sets(uint64_t *rs, uint64_t *nfull)
{
	static struct devstate s;
	for (int set = 0; set < 40; set++) {
		uint64_t nb = 512 * (1 + rnd_below(rs, 40)), *t = calloc(nb / 64, 8);
		uint64_t b0[MODEL_MAX_REGIONS];
		CHECK(t != NULL);
		if (!t)
			return;
		memset(&s, 0, sizeof(s));
		uint32_t n = 1 + (uint32_t)rnd_below(rs, set % 4 ? 24 : MODEL_MAX_REGIONS);
		for (uint32_t r = 0; r < n; r++) { /* side by side, or sharing an end's block */
			uint64_t a = r ? s.full_e[r - 1] + (rnd_below(rs, 2) ? 0 : 1) : 0;
			uint64_t e = a + rnd_below(rs, set % 3 ? 40 : 3000);
			a = a < nb - 1 ? a : nb - 1;
			e = e < nb - 1 ? e : nb - 1;
			s.full_b[r] = (uint32_t)(b0[r] = a);
			s.full_e[r] = (uint32_t)e;
		}
		CHECK(gen_region_full(NULL, nb, &s, 0) == 0); /* no direct set: not known */
		for (uint64_t filled = 0; filled < nb;) {
			uint64_t k = 1 + rnd_below(rs, set % 2 ? 4 : (double)nb / 8);
			for (uint64_t i = 0; i < k; i++) {
				uint64_t b = rnd_below(rs, (double)(nb - 1)); /* NB - 1 never */
				filled += !(t[b >> 6] >> (b & 63) & 1);
				t[b >> 6] |= 1ull << (b & 63);
			}
			if (rnd_below(rs, 8) == 0) /* a stretch touched whole */
				for (uint64_t b = rnd_below(rs, (double)nb), i = 0;
				     i < 200 && b < nb - 1; i++, b++) {
					filled += !(t[b >> 6] >> (b & 63) & 1);
					t[b >> 6] |= 1ull << (b & 63);
				}
			if (filled >= nb - 1) /* all but the one kept untouched */
				break;
			for (uint32_t i = 0; i < n; i++) {
				uint32_t r = (uint32_t)rnd_below(rs, n);
				int want = all_touched(t, b0[r], s.full_e[r]);
				CHECK_EQ(gen_region_full(t, nb, &s, r), want);
				CHECK(s.full_b[r] >= b0[r] && s.full_b[r] <= s.full_e[r] + 1);
				CHECK(all_touched(t, b0[r], s.full_b[r] - (s.full_b[r] > b0[r])) ||
				      s.full_b[r] == b0[r]);
				*nfull += (uint64_t)want;
			}
		}
		free(t);
	}
}

/* gen_region_full_init against the bounds at the scale, and the state's
 * answers against the direct set, every 100 I/O of a corpus model. */
static void gen_model(const char *name, uint64_t capacity, uint64_t *nfull, uint64_t *nasked)
{
	struct model m;
	unit_model_load_corpus(&m, name);
	struct model_gen *g;
	struct model_gen_opts o = {.seed = 3, .rate = 8, .capacity = capacity};
	CHECK(model_gen_create(&g, &m, &o) == 0);
	const struct model_devspace *dv = &m.devs[0];
	struct devstate *s = &g->ds[0];
	uint64_t al = dv->align ? dv->align : 1, nb = g->touch_nb;
	struct reel_rec rec;
	for (int k = 1; m.ndevs == 1 && g->touch_d && k <= 30000; k++) {
		if (k == 1)
			for (uint32_t r = 0; r < dv->nregions; r++) {
				double hi = (double)dv->bound[r + 1] * s->scale;
				uint64_t e = (uint64_t)hi >> 12;
				int ok = al <= 4096 && e < nb;
				CHECK_EQ(s->full_b[r],
					 ok ? (uint64_t)((double)dv->bound[r] * s->scale) >> 12
					    : nb - 1);
				CHECK_EQ(s->full_e[r], ok ? e : nb - 1);
			}
		if (k % 100 == 0) {
			static struct devstate
			    c; /* the state's answers, the kept blocks moved on a copy */
			c = *s;
			for (uint32_t r = 0; r < dv->nregions; r++) {
				double lo = (double)dv->bound[r] * s->scale,
				       hi = (double)dv->bound[r + 1] * s->scale;
				int want =
				    al <= 4096 && ((uint64_t)hi >> 12) < nb &&
				    all_touched(g->touch_d, (uint64_t)lo >> 12, (uint64_t)hi >> 12);
				CHECK_EQ(gen_region_full(g->touch_d, nb, &c, r), want);
				CHECK_EQ(gen_region_full(g->touch_d, nb, s, r), want);
				*nfull += (uint64_t)want;
				(*nasked)++;
			}
		}
		if (model_gen_next(g, &rec) != 1)
			break;
	}
	printf("%s capacity %llu: %d device(s), direct set %s, %llu regions\n", name,
	       (unsigned long long)capacity, (int)m.ndevs, g->touch_d ? "yes" : "no",
	       (unsigned long long)dv->nregions);
	model_gen_destroy(g);
	model_free(&m);
}

int main(void)
{
	uint64_t rs = 0x3b1f, nfull = 0, nasked = 0;
	random_sets(&rs, &nfull);
	printf("random sets: %llu full\n", (unsigned long long)nfull);
	CHECK(nfull > 1000);
	nfull = 0;
	const char *names[] = {"boot_nspawn_local_odds", "compile_read_share", "fiu_2phases",
			       "blktrace_one_phase", "msr_1phase"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		gen_model(names[i], 0, &nfull, &nasked);
		gen_model(names[i], 16ull << 20, &nfull, &nasked);
		gen_model(names[i], 40ull << 20, &nfull, &nasked);
	}
	printf("corpus models: %llu regions asked, %llu full\n", (unsigned long long)nasked,
	       (unsigned long long)nfull);
	CHECK(nasked > 1000);
	CHECK(nfull > 10);
	printf("ok\n");
	return 0;
}
