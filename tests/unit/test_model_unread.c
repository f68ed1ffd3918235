/*
 * test_model_unread: a p_unread device's map of unread granules and its
 * ring of writes (model/gen_space.c) answer as their plain forms, copied
 * here from before round 22 (unread_near looking at each word out from
 * the start's, unread_back collecting its whole window again after each
 * slot found read since, unread_mark taking a live slot overwritten out
 * of the Fenwick tree and back in): on random writes and reads, a dense map and a
 * sparse one, the ring past its wrap, every call's granule, write count
 * and the ring's slots dropped the same.
 */
#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#include <stdlib.h>
#include <string.h>

static int bit(const struct unread *u, uint64_t g)
{
	return g >> 6 < u->nw && (u->bits[g >> 6] >> (g & 63) & 1);
}

static void fw_add(uint32_t *fw, uint32_t i, uint32_t v)
{
	for (i++; i <= GEN_UNREAD_RING; i += i & -i)
		fw[i - 1] += v;
}

static uint32_t fw_below(const uint32_t *fw, uint32_t i)
{
	uint32_t c = 0;
	for (; i; i -= i & -i)
		c += fw[i - 1];
	return c;
}

static uint32_t fw_kth(const uint32_t *fw, uint32_t k)
{
	uint32_t at = 0;
	for (uint32_t step = GEN_UNREAD_RING; step; step >>= 1)
		if (fw[at + step - 1] <= k) {
			at += step;
			k -= fw[at - 1];
			if (at == GEN_UNREAD_RING)
				break;
		}
	return at;
}

static uint32_t fw_count(const uint32_t *fw, uint64_t a, uint64_t b)
{
	uint32_t pa = (uint32_t)(a % GEN_UNREAD_RING), pb = (uint32_t)(b % GEN_UNREAD_RING);
	if (a >= b)
		return 0;
	return pa < pb ? fw_below(fw, pb) - fw_below(fw, pa)
		       : fw_below(fw, GEN_UNREAD_RING) - fw_below(fw, pa) + fw_below(fw, pb);
}

/* unread_mark before round 22 */
static void ref_mark(struct unread *u, uint64_t off, uint64_t len, int set, uint64_t now)
{
	uint64_t g1 = (off + (len ? len - 1 : 0)) >> u->shift;
	for (uint64_t g = off >> u->shift; g <= g1 && g >> 6 < u->nw; g++) {
		uint64_t *w = &u->bits[g >> 6], b = 1ull << (g & 63);
		u->n += set && !(*w & b);
		u->n -= !set && (*w & b);
		*w = set ? *w | b : *w & ~b;
		if (set) {
			uint32_t i = (uint32_t)(u->head++ % GEN_UNREAD_RING);
			if (u->rg[i] != UINT32_MAX)
				fw_add(u->fw, i, UINT32_MAX);
			u->live[i >> 6] |= 1ull << (i & 63);
			u->rg[i] = (uint32_t)g;
			u->rt[i] = (uint32_t)now;
			fw_add(u->fw, i, 1);
		}
	}
}

/* unread_near before round 22 */
static int64_t ref_near(const struct unread *u, uint64_t g)
{
	uint64_t w = g >> 6;
	for (uint64_t k = 0; k <= GEN_UNREAD_SCAN && u->n; k++) {
		int64_t best = -1;
		uint64_t bd = UINT64_MAX;
		if (w + k < u->nw) {
			uint64_t b = u->bits[w + k] & (k ? ~0ull : ~0ull << (g & 63));
			if (b) {
				best = (int64_t)((w + k) * 64 + (uint64_t)__builtin_ctzll(b));
				bd = (uint64_t)best - g;
			}
		}
		if (k <= w && w - k < u->nw) {
			uint64_t b = u->bits[w - k] & (k ? ~0ull : ~0ull >> (63 - (g & 63)));
			uint64_t at = b ? (w - k) * 64 + 63 - (uint64_t)__builtin_clzll(b) : 0;
			if (b && g - at < bd)
				best = (int64_t)at;
		}
		if (best >= 0)
			return best;
	}
	return -1;
}

/* unread_back before round 22 */
static int64_t ref_back(struct unread *u, uint64_t now, double d, uint64_t want, uint32_t before,
			uint32_t after, uint32_t *t)
{
	uint64_t lo = u->head > GEN_UNREAD_RING ? u->head - GEN_UNREAD_RING : 0, a = lo,
		 b = u->head;
	uint32_t n32 = (uint32_t)now, kn = before + after, slot[GEN_UNREAD_FAR + GEN_UNREAD_NEAR];
	while (a < b) {
		uint64_t mid = a + (b - a) / 2;
		if ((double)(uint32_t)(n32 - u->rt[mid % GEN_UNREAD_RING]) > d)
			a = mid + 1;
		else
			b = mid;
	}
	for (;;) {
		uint32_t all = fw_below(u->fw, GEN_UNREAD_RING), dead = 0;
		if (!all)
			return -1;
		uint32_t base = fw_below(u->fw, (uint32_t)(lo % GEN_UNREAD_RING));
		uint32_t r0 = fw_count(u->fw, lo, a), r1;
		r0 = r0 > before ? r0 - before : 0;
		r1 = r0 + kn < all ? r0 + kn : all;
		r0 = r1 > kn ? r1 - kn : 0;
		int64_t best = -1;
		uint64_t bd = UINT64_MAX;
		slot[0] = fw_kth(u->fw, (base + r0) % all);
		for (uint32_t r = r0 + 1, i = slot[0]; r < r1; r++) {
			uint32_t j = (i + 1) % GEN_UNREAD_RING;
			uint64_t w = u->live[j >> 6] & (~0ull << (j & 63));
			while (!w) {
				j = (j | 63) + 1 == GEN_UNREAD_RING ? 0 : (j | 63) + 1;
				w = u->live[j >> 6];
			}
			i = (j & ~63u) + (uint32_t)__builtin_ctzll(w);
			slot[r - r0] = i;
		}
		for (uint32_t r = r0; r < r1; r++) {
			uint32_t i = slot[r - r0], gr = u->rg[i];
			if (!bit(u, gr)) {
				u->rg[i] = UINT32_MAX;
				u->live[i >> 6] &= ~(1ull << (i & 63));
				fw_add(u->fw, i, UINT32_MAX);
				dead++;
				continue;
			}
			uint64_t x = gr > want ? gr - want : want - gr;
			if (x < bd) {
				bd = x;
				best = gr;
				*t = u->rt[i];
			}
		}
		if (!dead)
			return best;
	}
}

/* A map of NG granules (4 KiB) and its ring, as gen_space_init makes them. */
static struct unread *ur_new(uint64_t ng)
{
	struct unread *u = calloc(1, sizeof(*u));
	CHECK(u != NULL);
	u->shift = 12;
	u->nw = (ng + 64) / 64;
	u->bits = calloc(u->nw + (u->nw + 63) / 64, sizeof(*u->bits));
	u->nz = u->bits + u->nw;
	u->rg = malloc(GEN_UNREAD_RING * sizeof(*u->rg));
	u->rt = malloc(GEN_UNREAD_RING * sizeof(*u->rt));
	u->fw = calloc(GEN_UNREAD_RING + GEN_UNREAD_RING / 32, sizeof(*u->fw));
	CHECK(u->bits && u->rg && u->rt && u->fw);
	u->live = (uint64_t *)(u->fw + GEN_UNREAD_RING);
	memset(u->rg, 0xff, GEN_UNREAD_RING * sizeof(*u->rg));
	return u;
}

static void ur_free(struct unread *u)
{
	free(u->bits);
	free(u->rg);
	free(u->rt);
	free(u->fw);
	free(u);
}

/* A's map, ring and tree as B's (the live map after the tree's words). */
static void same_ring(const struct unread *a, const struct unread *b)
{
	CHECK(a->n == b->n && !memcmp(a->bits, b->bits, a->nw * sizeof(*a->bits)));
	CHECK(!memcmp(a->rg, b->rg, GEN_UNREAD_RING * sizeof(*a->rg)));
	for (uint64_t w = 0; w < a->nw; w++) /* the map of its words set */
		CHECK(!(a->nz[w >> 6] >> (w & 63) & 1) == !a->bits[w]);
	CHECK(!memcmp(a->fw, b->fw, (GEN_UNREAD_RING + GEN_UNREAD_RING / 32) * sizeof(*a->fw)));
}

/*
 * NOPS writes and reads of 1-16 granules, within SPAN granules of a
 * moving centre (of NG), calls of each between: A the routines, B (the
 * same I/O) the plain copies.
 */
static void run(uint64_t ng, uint64_t span, uint32_t nops, uint64_t seed)
{
	struct unread *a = ur_new(ng), *b = ur_new(ng);
	uint64_t rs = seed, centre = ng / 2, nback = 0, nfound = 0;
	for (uint32_t now = 1; now <= nops; now++) {
		double p = unit_urand(&rs);
		if (unit_urand(&rs) < 0.001) /* the I/O moves elsewhere */
			centre = (uint64_t)(unit_urand(&rs) * (double)ng);
		uint64_t g = centre + (uint64_t)(unit_urand(&rs) * (double)span);
		g = g >= span / 2 ? g - span / 2 : g;
		g = g < ng ? g : ng - 1;
		uint64_t len = (1 + (uint64_t)(unit_urand(&rs) * 16)) << 12;
		if (p < 0.6) {
			gen_unread_mark(a, g << 12, len, p < 0.35, now);
			ref_mark(b, g << 12, len, p < 0.35, now);
			continue;
		}
		CHECK_EQ(gen_unread_near(a, g), ref_near(b, g));
		/* far from all too: the map's words out to the scan's ends */
		uint64_t f = (uint64_t)(unit_urand(&rs) * (double)(ng + 4096));
		CHECK_EQ(gen_unread_near(a, f), ref_near(b, f));
		int near = unit_urand(&rs) < 0.5;
		double d = unit_urand(&rs) * (double)now * 1.1 - 2;
		uint32_t ta = 7, tb = 7, be = near ? GEN_UNREAD_NEAR / 2 : GEN_UNREAD_FAR;
		uint32_t af = near ? GEN_UNREAD_NEAR / 2 : 0;
		int64_t ga = gen_unread_back(a, now, d, g, be, af, &ta);
		int64_t gb = ref_back(b, now, d, g, be, af, &tb);
		CHECK_EQ(ga, gb);
		CHECK_EQ(ta, tb);
		nback++;
		nfound += ga >= 0;
		if (now % 4096 == 0)
			same_ring(a, b);
	}
	same_ring(a, b);
	CHECK(a->head > GEN_UNREAD_RING); /* past the ring's wrap */
	CHECK(nfound > nback / 2);
	ur_free(a);
	ur_free(b);
}

/* The ring's live slots counted one by one (gen_unread_live's answer). */
static uint32_t live_count(const struct unread *u)
{
	uint32_t c = 0;
	for (uint32_t i = 0; i < GEN_UNREAD_RING; i++)
		c += u->rg[i] != UINT32_MAX;
	return c;
}

/*
 * Marks a word at a time (gen_unread_mark) as the plain copy's one by one
 * where they span many words (up to 300 granules) and run past the map's
 * end (NG granules, a map of NG / 64 + 1 words), and gen_unread_live as
 * the live slots counted, as writes fill the ring and reads drop slots.
 */
static void run_spans(uint64_t ng, uint32_t nops, uint64_t seed)
{
	struct unread *a = ur_new(ng), *b = ur_new(ng);
	uint64_t rs = seed, end = a->nw * 64;
	for (uint32_t now = 1; now <= nops; now++) {
		uint64_t g = (uint64_t)(unit_urand(&rs) * (double)(end + 400));
		uint64_t len = (1 + (uint64_t)(unit_urand(&rs) * 300)) << 12;
		int set = unit_urand(&rs) < 0.6;
		gen_unread_mark(a, g << 12, len, set, now);
		ref_mark(b, g << 12, len, set, now);
		if (now % 64 == 0) {
			uint32_t ta = 0, tb = 0;
			double d = unit_urand(&rs) * (double)now;
			CHECK_EQ(gen_unread_back(a, now, d, g, GEN_UNREAD_FAR, 0, &ta),
				 ref_back(b, now, d, g, GEN_UNREAD_FAR, 0, &tb));
			CHECK_EQ(ta, tb);
			CHECK_EQ(gen_unread_live(a), live_count(b));
		}
		if (now % 1024 == 0)
			same_ring(a, b);
	}
	same_ring(a, b);
	ur_free(a);
	ur_free(b);
}

int main(void)
{
	run_spans(5000, 6000, 0x452821e638d01377ull);
	run(1u << 14, 1u << 14, 400000, 0x9e3779b97f4a7c15ull); /* dense: all in reach */
	run(1u << 23, 1u << 16, 400000, 0x243f6a8885a308d3ull); /* sparse: 1 MiB of map */
	return 0;
}
