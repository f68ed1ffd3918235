/*
 * test_model_touch_steps: scan_steps' spans on touched blocks passed a
 * word of starts at a time (model/gen_internal.h gen_touch_d_steps, by
 * gen_touch_d_fit; gen_space.c's steps_touched, gen_steps_touched for the
 * test) against round 36's steps_touched, copied below (the spans one by
 * one, each by gen_touch_d_any): the same steps passed and the same
 * place, on sets touched sparsely, densely, in bands and in runs; spans
 * of 1-64 blocks, a block's multiple or not, from a block's edge or not;
 * LEFT 0-64; near the extent's end, past the blocks the set holds, and
 * up to the direct set's last block (TOUCH_D0).
 */
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* round 36's steps_touched (gen_space.c), not the code under test */
static uint64_t ref_steps(const struct model_gen *g, const struct devstate *s, uint64_t *off,
			  uint64_t len, uint64_t span, uint64_t step, uint64_t left)
{
	uint64_t a = *off, k = 0, sb = step >> 12, b0 = a >> 12,
		 b1 = (a + (span ? span - 1 : 0)) >> 12;
	if (!g->touch_d)
		return 0;
	for (; k < left; k++, a += step) {
		if (a + step < a || a + step + len > s->extent)
			break;
		b0 += sb;
		b1 += sb;
		if (b1 >= TOUCH_D0 || !gen_touch_d_any(g->touch_d, g->touch_nb, b0, b1))
			break;
	}
	*off = a;
	return k;
}

/* the spans of W blocks at B0 + J SB, J = 1 .. N, one by one, block by
 * block: the first untouched whole, less one; N if none */
static uint64_t plain_steps(const uint64_t *t, uint64_t nb, uint64_t b0, uint64_t w, uint64_t sb,
			    uint64_t n)
{
	for (uint64_t j = 1; j <= n; j++) {
		int any = 0;
		for (uint64_t x = b0 + j * sb; x < b0 + j * sb + w && !any; x++)
			any = x < nb && (t[x / 64] >> (x % 64) & 1);
		if (!any)
			return j - 1;
	}
	return n;
}

static void fill(uint64_t *t, uint64_t from, uint64_t nb, int kind, uint64_t *rs)
{
	double dens = unit_urand(rs);
	for (uint64_t i = from; i < nb; i++) {
		int x = unit_urand(rs) < dens;
		if (kind == 1) /* bands of 200 blocks, touched at DENS */
			x = (i / 200) % 2 ? x : 0;
		else if (kind == 2) /* runs: touched where the last was, mostly */
			x = i > from && unit_urand(rs) < 0.9
				? (int)(t[(i - 1) / 64] >> ((i - 1) % 64) & 1)
				: x;
		else if (kind == 3) /* nearly full: a hole now and then */
			x = unit_urand(rs) < 0.97;
		else if (kind == 4) /* full but for a stretch of W-ish holes */
			x = (i / 97) % 7 ? 1 : unit_urand(rs) < 0.3;
		if (x)
			t[i / 64] |= 1ull << (i % 64);
		else
			t[i / 64] &= ~(1ull << (i % 64));
	}
}

int main(void)
{
	enum { NB = 4096 };		     /* blocks of the small sets: 64 words */
	const uint64_t nbig = TOUCH_D0 + 63; /* the direct set's whole reach, */
	uint64_t nbw = (nbig / 64 + 1) * 64; /* a multiple of 64 blocks */
	uint64_t *big = calloc(nbw / 64, sizeof(uint64_t));
	static uint64_t t[NB / 64];
	static struct model_gen g;
	static struct devstate s;
	uint64_t rs = 0x5be7a0c13d2f9e41ull, asked = 0, passed = 0, whole = 0;
	CHECK(big != NULL);
	for (int set = 0; set < 2000; set++) {
		int kind = set % 5;
		fill(t, 0, NB, kind, &rs);
		for (int q = 0; q < 300; q++) {
			/* gen_touch_d_steps itself */
			uint64_t w = 1 + (uint64_t)(unit_urand(&rs) * (q % 3 ? 8 : 64));
			uint64_t sb = w - (w > 1 && q % 4 == 1) + (q % 7 == 3);
			sb = sb ? sb : 1;
			uint64_t b0 = (uint64_t)(unit_urand(&rs) * (NB + 200));
			if (q % 5 == 1)
				b0 = b0 / 64 * 64 + (q % 2 ? 63 : 0);
			uint64_t n = (uint64_t)(unit_urand(&rs) * 65);
			uint64_t want = plain_steps(t, NB, b0, w, sb, n);
			CHECK_EQ(gen_touch_d_steps(t, NB, b0, w, sb, n), want);
			passed += want;
			whole += want == n;
			asked++;

			/* steps_touched as scan_steps asks it: its span's blocks at most
			 * TOUCH_SCAN (its WHOLE), the extent anywhere past the start */
			g.touch_d = t;
			g.touch_nb = NB;
			uint64_t span = 1 + (uint64_t)(unit_urand(&rs) * (q % 3 ? 8 : 63) * 4096);
			uint64_t step = (span + 4095) & ~(uint64_t)4095;
			uint64_t off = (uint64_t)(unit_urand(&rs) * (NB + 100)) * 4096;
			if (q % 2)
				off += (uint64_t)(unit_urand(&rs) * 4096);
			uint64_t len = q % 3 ? span : 512 + (uint64_t)(unit_urand(&rs) * span);
			s.extent =
			    off + len + (uint64_t)(unit_urand(&rs) * (q % 4 ? 70 : 4) * step);
			uint64_t left = (uint64_t)(unit_urand(&rs) * (GEN_SCAN + 1));
			if (((off + span - 1) >> 12) - (off >> 12) >= TOUCH_SCAN)
				continue;
			uint64_t a = off, b = off;
			uint64_t kr = ref_steps(&g, &s, &a, len, span, step, left);
			CHECK_EQ(gen_steps_touched(&g, &s, &b, len, span, step, left), kr);
			CHECK_EQ(b, a);
			asked++;
		}
	}
	/* at the direct set's end: spans near TOUCH_D0, the set touched there */
	g.touch_d = big;
	g.touch_nb = nbw;
	for (int set = 0; set < 200; set++) {
		uint64_t from = TOUCH_D0 - 6000;
		fill(big, from, nbw, set % 5, &rs);
		s.extent = (nbw + 200) * 4096;
		for (int q = 0; q < 300; q++) {
			uint64_t span = 1 + (uint64_t)(unit_urand(&rs) * (q % 3 ? 8 : 63) * 4096);
			uint64_t step = (span + 4095) & ~(uint64_t)4095;
			uint64_t off = (from + (uint64_t)(unit_urand(&rs) * 6100)) * 4096 +
				       (q % 2 ? (uint64_t)(unit_urand(&rs) * 4096) : 0);
			uint64_t len = span, left = (uint64_t)(unit_urand(&rs) * (GEN_SCAN + 1));
			if (((off + span - 1) >> 12) - (off >> 12) >= TOUCH_SCAN)
				continue;
			uint64_t a = off, b = off;
			uint64_t kr = ref_steps(&g, &s, &a, len, span, step, left);
			CHECK_EQ(gen_steps_touched(&g, &s, &b, len, span, step, left), kr);
			CHECK_EQ(b, a);
			passed += kr;
			asked++;
		}
	}
	free(big);
	printf("touch_steps: %llu asks, %llu steps passed, %llu passed all\n",
	       (unsigned long long)asked, (unsigned long long)passed, (unsigned long long)whole);
	return 0;
}
