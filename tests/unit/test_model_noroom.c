/*
 * test_model_noroom: scan_untouched's memo of the chunks of places
 * without room (model/gen_internal.h gen_noroom_*, gen_space.c):
 * - the memo alone: on devices of 1 to 9,000 blocks (an extent not a
 *   whole number of blocks too), scans' ranges marked at random LENs
 *   (some to the extent's end): a chunk is passed for a LEN exactly where
 *   some mark with a LEN at most it held the chunk whole, and by the
 *   places from the block asked to the end of the chunks so known in a
 *   row from its on; a change of lnext
 *   forgets every mark.  A mark of the chunks a range touches (not only
 *   those it holds whole) fails it.
 * - the scan: on the state placing left every 97 I/O of the fuzz corpus'
 *   models (at --rate 4 and a --capacity) where the touched set is the
 *   direct one, gen_scan_untouched from random places, of random LENs
 *   and reaches, twice each (the second with the first's marks), finds
 *   the place a scan place by place finds: its blocks untouched, off the
 *   kept runs still to come (the runs one by one) and not dense.  Its
 *   marks then hold: every place of a chunk passed for LEN has no room
 *   for LEN.
 */
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_scans, n_found, n_marked, n_places;

/* Whether the place P has room for LEN: its blocks untouched (the direct
 * set), off the kept runs still to come, not dense. */
static int ref_room(const struct model_gen *g, const struct model_devspace *dv,
		    const struct devstate *s, uint64_t p, uint64_t len)
{
	return !gen_touch_d_any(g->touch_d, g->touch_nb, p >> 12, (p + len - 1) >> 12) &&
	       !unit_model_ref_reserved(dv, s, p, len) && !gen_offsets_dense_cdf(dv, s, p, len);
}

/* scan_untouched's answer place by place, not the code under test. */
static int ref_scan(const struct model_gen *g, const struct model_devspace *dv,
		    const struct devstate *s, uint64_t from, uint64_t len, uint64_t far,
		    uint64_t *at)
{
	uint64_t p = from >> 12 << 12, left = far;
	for (int wrap = 0; left && wrap < 2; wrap++, p = 0)
		for (; left && p + len <= s->extent; p += 4096, left--)
			if (ref_room(g, dv, s, p, len)) {
				*at = p;
				return 1;
			}
	return 0;
}

/* The marks where they hold: of each chunk marked, its first and last
 * places and 30 at random have no room for its LEN. */
static void check_marks(const struct model_gen *g, const struct model_devspace *dv,
			const struct devstate *s, uint64_t *rs)
{
	for (uint64_t c = 0; c < s->nr_nc; c++) {
		uint64_t len = s->nr[c], b0 = c << s->nr_sh, nb = 1ull << s->nr_sh;
		if (len == UINT64_MAX)
			continue;
		n_marked++;
		for (int q = 0; q < 32; q++) {
			uint64_t b = b0 + (q == 0   ? 0
					   : q == 1 ? nb - 1
						    : (uint64_t)(unit_urand(rs) * (double)nb) % nb);
			if ((b << 12) + len > s->extent)
				continue;
			CHECK(!ref_room(g, dv, s, b << 12, len));
			n_places++;
		}
	}
}

static void check_dev(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		      uint64_t *rs)
{
	if (!g->touch_d || !s->nr || (s->extent >> 12) + 64 >= TOUCH_D0)
		return;
	/* a band touched but for a few blocks (a full band's state; touched
	 * blocks are never untouched), its scans from inside it */
	uint64_t nb = s->extent >> 12, w = 1 + (uint64_t)(unit_urand(rs) * 20000);
	uint64_t b0 = (uint64_t)(unit_urand(rs) * (double)nb);
	for (uint64_t b = b0; b < b0 + w && b < g->touch_nb && b < nb; b++)
		if (unit_urand(rs) < 0.995)
			g->touch_d[b >> 6] |= 1ull << (b & 63);
	for (int q = 0; q < 16; q++) {
		uint64_t from = q & 1 ? (uint64_t)(unit_urand(rs) * (double)s->extent)
				      : (b0 + (uint64_t)(unit_urand(rs) * (double)w)) << 12;
		uint64_t len = 512 * (1 + (uint64_t)(unit_urand(rs) * 128));
		uint64_t far =
		    1 + (uint64_t)(unit_urand(rs) * (unit_urand(rs) < 0.5 ? 3000 : 30000));
		uint64_t al = unit_urand(rs) < 0.5 ? 4096 : 512;
		if (len > s->extent || from >= s->extent)
			continue;
		uint64_t want = 0, got = 0, again = 0;
		int found = ref_scan(g, dv, s, from, len, far, &want);
		CHECK_EQ(gen_scan_untouched(g, dv, s, from, len, al, far, &got), found);
		CHECK_EQ(gen_scan_untouched(g, dv, s, from, len, al, far, &again), found);
		if (found)
			CHECK(got == want && again == want);
		n_scans++;
		n_found += (uint64_t)found;
	}
	check_marks(g, dv, s, rs);
}

static void test_model(const char *name, uint64_t capacity)
{
	struct model m;
	unit_model_load_corpus(&m, name);
	struct model_gen *g;
	struct model_gen_opts o = {.seed = 3, .rate = 4, .capacity = capacity};
	CHECK(model_gen_create(&g, &m, &o) == 0);
	uint64_t n = 0, rs = 0x9e3779b97f4a7c15ull;
	struct reel_rec rec;
	for (int k = 1;; k++) {
		if (k % 97 == 0)
			for (size_t d = 0; d < m.ndevs; d++)
				check_dev(g, &m.devs[d], &g->ds[d], &rs);
		if (model_gen_next(g, &rec) != 1 || ++n >= 20000)
			break;
	}
	model_gen_destroy(g);
	model_free(&m);
	printf("%s capacity %llu: %llu I/O\n", name, (unsigned long long)capacity,
	       (unsigned long long)n);
}

/* One mark: blocks [LO, HI) (HI UINT64_MAX: to the end) at LEN. */
struct mark {
	uint64_t lo, hi, len;
};

/* Whether chunk C is held whole by a mark of LEN at most LEN. */
static int ref_known(const struct devstate *s, const struct mark *mk, int n, uint64_t c,
		     uint64_t len)
{
	uint64_t c0 = c << s->nr_sh, c1 = (c + 1) << s->nr_sh;
	for (int i = 0; i < n; i++)
		if (mk[i].len <= len && mk[i].lo <= c0 &&
		    (mk[i].hi == UINT64_MAX || c1 <= mk[i].hi))
			return 1;
	return 0;
}

static void test_memo(void)
{
	uint64_t rs = 0x5851f42d4c957f2dull;
	for (int dev = 0; dev < 200; dev++) {
		struct devstate s;
		memset(&s, 0, sizeof(s));
		uint64_t nb = 1 + (uint64_t)(unit_urand(&rs) * 9000);
		s.extent = nb * 4096 - (dev % 3 ? 0 : (uint64_t)(unit_urand(&rs) * 4095));
		CHECK(gen_noroom_init(&s) == 0 && s.nr);
		CHECK(s.nr_sh >= GEN_NR_SH && s.nr_nc <= GEN_NR_CHUNKS);
		CHECK((uint64_t)s.nr_nc << s.nr_sh >= nb &&
		      ((uint64_t)s.nr_nc - 1) << s.nr_sh < nb);
		struct mark mk[16];
		int n = 1 + (int)(unit_urand(&rs) * 16);
		for (int i = 0; i < n; i++) {
			uint64_t lo = (uint64_t)(unit_urand(&rs) * (double)nb);
			uint64_t hi = lo + (uint64_t)(unit_urand(&rs) * 5000);
			hi = unit_urand(&rs) < 0.2 ? UINT64_MAX : hi;
			mk[i] = (struct mark){lo, hi, 512 * (1 + (uint64_t)(unit_urand(&rs) * 32))};
			gen_noroom_mark(&s, lo, hi, mk[i].len);
		}
		for (int q = 0; q < 400; q++) {
			uint64_t b = (uint64_t)(unit_urand(&rs) * (double)nb), c = b >> s.nr_sh;
			uint64_t len = 512 * (1 + (uint64_t)(unit_urand(&rs) * 32));
			uint64_t pass = gen_noroom_pass(&s, b, len), e = c;
			while (e < s.nr_nc && ref_known(&s, mk, n, e, len))
				e++; /* the chunks known in a row */
			CHECK_EQ(pass != 0, ref_known(&s, mk, n, c, len));
			CHECK(!pass || pass == (e << s.nr_sh) - b);
			uint64_t end = (c + 1) << s.nr_sh;
			CHECK_EQ(gen_noroom_chunk(&s, b), end - b);
		}
		s.lnext = 1; /* lnext moved: nothing known */
		gen_noroom_keyed(&s);
		for (uint64_t b = 0; b < nb; b += 97)
			CHECK_EQ(gen_noroom_pass(&s, b, UINT64_MAX - 1), 0);
		free(s.nr);
	}
}

int main(void)
{
	test_memo();
	unit_model_gen_each(test_model);
	printf("%llu scans (%llu found), %llu chunks marked, %llu places of them looked at\n",
	       (unsigned long long)n_scans, (unsigned long long)n_found,
	       (unsigned long long)n_marked, (unsigned long long)n_places);
	CHECK(n_scans > 1000 && n_found > 100 && n_scans - n_found > 10 && n_marked > 100);
	printf("ok\n");
	return 0;
}
