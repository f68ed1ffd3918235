/*
 * test_model_touch_fit: a scan's first stretch of M untouched blocks on
 * the direct set (model/gen_internal.h gen_touch_d_fit, a word of starts
 * at a time) as round 24's touch_scan found it (copied below: two
 * look-ups a hole, here block by block): the same start, or none, for M of 1 to 64, on
 * sets touched sparsely, densely, in bands and in runs, starts anywhere
 * (at a word's edges, past the blocks the set holds), K from 0 up to
 * past the set's end.  And whether a stretch holds a touched block
 * (gen_touch_d_any, one word's bits at once) as a look block by block says.
 */
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* touch_d_next's answer block by block (FLIP 0: the first touched, ~0:
 * the first untouched; past NB untouched), not the code under test */
static uint64_t plain_next(const uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1, uint64_t flip)
{
	for (uint64_t x = b0; x <= b1; x++) {
		int on = x < nb && (t[x / 64] >> (x % 64) & 1);
		if (on != (flip != 0))
			return x;
	}
	return b1 + 1;
}

/* round 24's touch_scan on the direct set, its look-ups block by block */
static uint64_t ref_fit(const uint64_t *t, uint64_t nb, uint64_t b, uint64_t k, uint64_t m)
{
	for (uint64_t cs = 0; cs < k;) {
		uint64_t s = plain_next(t, nb, b + cs, b + k - 1, ~0ull);
		if (s >= b + k)
			return k;
		uint64_t p = plain_next(t, nb, s, s + m - 1, 0);
		if (p == s + m)
			return s - b;
		cs = p - b + 1;
	}
	return k;
}

int main(void)
{
	enum { NB = 4096 }; /* blocks the set holds: 64 words */
	static uint64_t t[NB / 64];
	uint64_t rs = 0x70c4f17ull, asked = 0, found = 0;
	for (int set = 0; set < 3000; set++) {
		double dens = unit_urand(&rs);
		int kind = set % 4;
		for (uint64_t i = 0; i < NB; i++) {
			int x = unit_urand(&rs) < dens; /* 0: sparse to full, at random */
			if (kind == 1)			/* bands of 200 blocks, touched at DENS */
				x = (i / 200) % 2 ? x : 0;
			else if (kind == 2) /* runs: touched where the last was, mostly */
				x = i && unit_urand(&rs) < 0.9
					? (int)(t[(i - 1) / 64] >> ((i - 1) % 64) & 1)
					: x;
			else if (kind == 3) /* nearly full: a hole now and then */
				x = unit_urand(&rs) < 0.97;
			/* every other such set, 12 words in 13 full (a band
			 * touched whole: passed four words at a time) */
			if (kind == 3 && set % 8 == 7 && (i / 64) % 13 != 12)
				x = 1;
			if (x)
				t[i / 64] |= 1ull << (i % 64);
			else
				t[i / 64] &= ~(1ull << (i % 64));
		}
		for (int q = 0; q < 400; q++, asked++) {
			uint64_t m = 1 + (uint64_t)(unit_urand(&rs) * (q % 3 ? 8 : 64));
			uint64_t b = (uint64_t)(unit_urand(&rs) * (NB + 300));
			if (q % 5 == 1)
				b = b / 64 * 64 + (q % 2 ? 63 : 0);
			uint64_t k = (uint64_t)(unit_urand(&rs) * (q % 2 ? 100 : NB + 500));
			uint64_t want = ref_fit(t, NB, b, k, m);
			CHECK_EQ(gen_touch_d_fit(t, NB, b, k, m), want);
			found += want < k;
			uint64_t b1 = b + (uint64_t)(unit_urand(&rs) * (q % 2 ? 70 : 4));
			CHECK_EQ(gen_touch_d_any(t, NB, b, b1), plain_next(t, NB, b, b1, 0) <= b1);
		}
	}
	printf("%llu scans, %llu found a stretch: the same\n", (unsigned long long)asked,
	       (unsigned long long)found);
	return 0;
}
