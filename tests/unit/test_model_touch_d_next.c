/*
 * test_model_touch_d_next: touch_d_next (gen_internal.h), gen's look for
 * the first touched (or untouched) block of a stretch in the direct
 * touched set, gives the plain look's answer, block by block, on sets of
 * full, empty and mixed words: the blocks at or past the set's NB blocks
 * (never marked while it is direct) untouched, so a stretch may run past
 * it, as gen's looks near the device's end do (git's model x2986 asked
 * for a 40 MiB span 6.6 MiB below its 2 GiB device's end).  Every other
 * round's words come in runs of full or empty ones, which touch_d_next
 * passes four at a time.
 */
#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#define WORDS 24

static int bit(const uint64_t *t, uint64_t nb, uint64_t b)
{
	return b < nb && (t[b >> 6] >> (b & 63)) & 1;
}

/* The first block in [B0, B1] touched (WANT 1) or not (0), else B1 + 1. */
static uint64_t plain(const uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1, int want)
{
	for (uint64_t b = b0; b <= b1; b++)
		if (bit(t, nb, b) == want)
			return b;
	return b1 + 1;
}

int main(void)
{
	uint64_t t[WORDS], rs = 0x5eed;
	for (int round = 0; round < 2000; round++) {
		uint64_t nb = 64 * (1 + (uint64_t)(unit_urand(&rs) * WORDS));
		for (int w = 0; w < WORDS; w++) {
			double u = unit_urand(&rs);
			uint64_t r = (uint64_t)(unit_urand(&rs) * 18446744073709551616.0);
			t[w] = u < 0.4 ? ~0ull : u < 0.6 ? 0 : u < 0.8 ? r : r | r >> 1 | r << 1;
			/* every other round in runs of full or empty words, as a
			 * band touched whole (touch_d_next passes four at once) */
			if (round % 2 && w && unit_urand(&rs) < 0.85)
				t[w] = t[w - 1] == ~0ull || !t[w - 1] ? t[w - 1] : t[w];
		}
		for (int q = 0; q < 200; q++) {
			uint64_t b0 = (uint64_t)(unit_urand(&rs) * (double)(nb + 200));
			uint64_t b1 = b0 + (uint64_t)(unit_urand(&rs) * (q % 4 ? 70 : 1600));
			CHECK_EQ(touch_d_next(t, nb, b0, b1, 0), plain(t, nb, b0, b1, 1));
			CHECK_EQ(touch_d_next(t, nb, b0, b1, ~0ull), plain(t, nb, b0, b1, 0));
		}
	}
	return 0;
}
