/*
 * test_model_reuse_dir: the re-use pass's touches of a small extent kept
 * apart from the block map's table, indexed directly (reuse_touch_dir on a
 * bmap_dir: fit_device.c's reuse_dir) answer as the table alone does
 * (reuse_touch_keys of every block's key and hash, as the gather hands them
 * over): on random I/O of 1 to 2048 blocks of that device, some reaching
 * past its extent (those kept in the table), between I/O of another device
 * (in the table in both maps), reads and writes, the map's exact count
 * small so that its shift rises many times (halving in the middle of an
 * I/O), I/O touching the same blocks together (ties of their last index),
 * for devices 0 to 65535; words of 64 blocks covered whole (their last
 * index kept in the word: bmap_dir_word's full) and in part, the map
 * halving between the two.  After each I/O: the same answer, distance,
 * unread, and the same count and shift; at the end the same blocks kept,
 * each with the same last index and ops (bmap_dir_value).  Then several extents in one
 * map (run_multi): three direct ones of different sizes (one of a single
 * word, one not a multiple of 64 blocks) on the map's list, beside two
 * devices in the table, I/O of all five interleaved (each device its own
 * I/O index), large ones halving the map in the middle of an I/O of a
 * direct extent: the same answers, and at the end the same blocks of all.
 */
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

#define EXT 3000 /* blocks of the direct extent */
#define MAXB 2048

/* the table's answer (TA, DA, UA; map A) and the direct entries' (TM, DM,
 * UM; map M) to one touch: the same, and the maps' totals and rates */
static void same_touch(int ta, int tm, uint64_t da, uint64_t dm, int ua, int um,
		       const struct bmap *a, const struct bmap *m)
{
	CHECK_EQ(ta, tm);
	CHECK_EQ(da, dm);
	CHECK_EQ(ua, um);
	CHECK_EQ(a->n, m->n);
	CHECK_EQ(a->shift, m->shift);
}

static uint64_t rs = 0x9e3779b97f4a7c15ull;

/* Every block of B0..B1 of DEV with its hash, into K and H: the count. */
static size_t keys(uint64_t dev, uint64_t b0, uint64_t b1, uint64_t *k, uint64_t *h)
{
	size_t n = 0;
	for (uint64_t b = b0; b <= b1; b++, n++) {
		k[n] = dev << 52 ^ b;
		h[n] = mix64(k[n]);
	}
	return n;
}

/* The block map A (the table alone) holds block B of D's extent as D does
 * in map M (d->e, or the table past the extent). */
static int same_block(struct bmap *a, struct bmap *m, struct bmap_dir *d, uint64_t b)
{
	uint64_t k = d->key ^ b, h = mix64(k);
	size_t sa = bmap_slot(a, k, h);
	uint64_t va = a->e[sa].key ? a->e[sa].val : 0;
	if (b < d->n) {
		if ((uint64_t)BMAP_DIR_LEVEL(d->e[b]) != bmap_level(h))
			return 0;
		if (((d->bits[b >> 6] >> (b & 63)) & 1) != (uint64_t)bmap_sampled(m, h))
			return 0;
		return bmap_dir_value(d, b) == va;
	}
	size_t sm = bmap_slot(m, k, h);
	return (m->e[sm].key ? m->e[sm].val : 0) == va;
}

static void run(uint64_t dev, uint64_t other, size_t exact, int nio)
{
	struct bmap a, m;
	CHECK(!bmap_init(&a, exact) && !bmap_init(&m, exact));
	struct bmap_dir d;
	uint64_t *k = malloc(MAXB * 8), *h = malloc(MAXB * 8);
	CHECK(!bmap_dir_init(&d, EXT, dev << 52) && k && h);
	m.dir = &d;
	uint64_t di = 0, oi = 0, hot = 0;
	int reused = 0;
	for (int it = 0; it < nio; it++) {
		int rd = unit_urand(&rs) < 0.6;
		uint64_t nb = 1 + (uint64_t)(unit_urand(&rs) * (it % 16 ? 64 : MAXB));
		if (unit_urand(&rs) < 0.25) { /* another device's I/O: the table in both */
			uint64_t b0 = (uint64_t)(unit_urand(&rs) * 4 * EXT), i = oi++;
			size_t n = keys(other, b0, b0 + nb - 1, k, h);
			uint64_t da = 0, dm = 0;
			int ua = 0, um = 0;
			CHECK_EQ(reuse_touch_keys(&a, k, h, n, i, rd, &da, &ua),
				 reuse_touch_keys(&m, k, h, n, i, rd, &dm, &um));
			CHECK_EQ(da, dm);
			CHECK_EQ(ua, um);
			continue;
		}
		/* often the same blocks as a while ago (ties); some past the end */
		uint64_t b0 = it % 3 ? (uint64_t)(unit_urand(&rs) * (EXT + 200)) : hot;
		if (it % 50 == 0)
			hot = (uint64_t)(unit_urand(&rs) * EXT);
		uint64_t b1 = b0 + nb - 1, i = di++, da = 0, dm = 0;
		size_t n = keys(dev, b0, b1, k, h);
		int ua = 0, um = 0;
		int ta = reuse_touch_keys(&a, k, h, n, i, rd, &da, &ua);
		int tm = reuse_touch_dir(&m, &d, b0, b1, i, rd, &dm, &um);
		same_touch(ta, tm, da, dm, ua, um, &a, &m);
		reused += ta == 1;
	}
	CHECK(reused > 0);
	CHECK(m.shift >= 2); /* the rate halved, more than once */
	int whole = 0;	     /* words whose last touch covered them whole */
	for (uint64_t w = 0; w < (EXT + 63) / 64; w++)
		whole += d.w[w].full > 0 && d.w[w].full == d.w[w].last;
	CHECK(whole > 0);
	for (uint64_t b = 0; b < EXT + 2 * MAXB; b++)
		CHECK(same_block(&a, &m, &d, b));
	bmap_free(&a);
	bmap_free(&m);
	bmap_dir_free(&d);
	free(k);
	free(h);
}

#define NDIR 3
#define NDEV 5 /* the first NDIR direct */

static void run_multi(size_t exact, int nio)
{
	static const uint64_t ext[NDIR] = {64, 1000, 4096};
	uint64_t dev[NDEV], di[NDEV] = {0};
	struct bmap a, m;
	struct bmap_dir d[NDIR];
	CHECK(!bmap_init(&a, exact) && !bmap_init(&m, exact));
	for (int x = 0; x < NDEV; x++) /* distinct devices */
		dev[x] = x ? (dev[x - 1] + 1 + (uint64_t)(unit_urand(&rs) * 13000)) % 65536
			   : (uint64_t)(unit_urand(&rs) * 65536);
	for (int x = 0; x < NDIR; x++) {
		CHECK(!bmap_dir_init(&d[x], ext[x], dev[x] << 52));
		d[x].next = m.dir;
		m.dir = &d[x];
	}
	uint64_t *k = malloc(MAXB * 8), *h = malloc(MAXB * 8);
	CHECK(k && h);
	int reused = 0, halved_dir = 0;
	for (int it = 0; it < nio; it++) {
		int x = (int)(unit_urand(&rs) * NDEV), rd = unit_urand(&rs) < 0.6;
		uint64_t e = x < NDIR ? ext[x] : 3000;
		uint64_t nb = 1 + (uint64_t)(unit_urand(&rs) * (it % 16 ? 48 : MAXB));
		uint64_t b0 = (uint64_t)(unit_urand(&rs) * (double)(e + 100)), b1 = b0 + nb - 1;
		uint64_t i = di[x]++, da = 0, dm = 0;
		size_t n = keys(dev[x], b0, b1, k, h);
		int ua = 0, um = 0, sh = m.shift;
		int ta = reuse_touch_keys(&a, k, h, n, i, rd, &da, &ua);
		int tm = x < NDIR ? reuse_touch_dir(&m, &d[x], b0, b1, i, rd, &dm, &um)
				  : reuse_touch_keys(&m, k, h, n, i, rd, &dm, &um);
		same_touch(ta, tm, da, dm, ua, um, &a, &m);
		reused += ta == 1;
		halved_dir += x < NDIR && m.shift > sh;
	}
	CHECK(reused > 0);
	CHECK(halved_dir > 0); /* halved inside a direct extent's I/O */
	for (int x = 0; x < NDEV; x++) {
		struct bmap_dir t = {.n = x < NDIR ? ext[x] : 0, .key = dev[x] << 52};
		for (uint64_t b = 0; b < 3000 + 2 * MAXB; b++)
			CHECK(same_block(&a, &m, x < NDIR ? &d[x] : &t, b));
	}
	bmap_free(&a);
	bmap_free(&m);
	for (int x = 0; x < NDIR; x++)
		bmap_dir_free(&d[x]);
	free(k);
	free(h);
}

int main(void)
{
	for (int t = 0; t < 24; t++) {
		uint64_t dev = t < 2 ? (uint64_t)t * 65535 : (uint64_t)(unit_urand(&rs) * 65536);
		uint64_t other = (dev + 1 + (uint64_t)(unit_urand(&rs) * 65534)) % 65536;
		run(dev, other, t % 2 ? 64 : 256, 6000);
	}
	for (int t = 0; t < 12; t++)
		run_multi(t % 2 ? 64 : 256, 8000);
	return 0;
}
