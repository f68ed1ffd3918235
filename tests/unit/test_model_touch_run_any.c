/*
 * test_model_touch_run_any: touch_run_any (gen_internal.h), gen's look at
 * a stretch of blocks in the hashed touched set a word at a time (asked
 * inline by gen_space.c's touched, and by touched_any), gives the plain
 * look's answer: any of the stretch's blocks whose bit (touch_bit's: the
 * block XOR the device at bit 48, times TOUCH_MUL, its top TOUCH_BITS
 * placed by touch_slot) is set.  On sets from nearly empty to nearly
 * full, marked block by block and by touch_run, stretches of 1 to 1,100
 * blocks of random devices, some placed just past a marked run or inside
 * it.
 */
#include "model/gen_internal.h"
#include "tests/unit/unit_model.h"

static uint64_t slot_of(uint16_t dev, uint64_t b)
{
	return touch_slot(((b ^ ((uint64_t)dev << 48)) * TOUCH_MUL) >> (64 - TOUCH_BITS));
}

static int plain(const uint64_t *t, uint16_t dev, uint64_t b0, uint64_t n)
{
	for (uint64_t k = 0; k < n; k++) {
		uint64_t s = slot_of(dev, b0 + k);
		if ((t[s >> 6] >> (s & 63)) & 1)
			return 1;
	}
	return 0;
}

int main(void)
{
	uint64_t *t = touch_alloc(), rs = 0x70c4;
	CHECK(t != NULL);
	if (!t)
		return 1;
	static const double fill[] = {1e-4, 0.01, 0.1, 0.4, 0.9};
	uint64_t yes = 0, all = 0;
	for (size_t f = 0; f < sizeof(fill) / sizeof(fill[0]); f++) {
		/* random bits to the fill, then runs of marked blocks */
		unit_touch_fill(t, fill[f], &rs);
		uint16_t devs[64];
		uint64_t at[64];
		for (int r = 0; r < 64; r++) {
			devs[r] = (uint16_t)unit_below(&rs, 65536);
			at[r] = unit_below(&rs, (double)(1ull << 40));
			touch_run(t, (at[r] ^ ((uint64_t)devs[r] << 48)) * TOUCH_MUL,
				  1 + unit_below(&rs, 300));
		}
		for (int q = 0; q < 200000; q++) {
			uint16_t dev;
			uint64_t b0, n = 1 + unit_below(&rs, q % 8 ? 40 : 1100);
			if (q % 3 == 0) { /* at, inside or past a marked run */
				int r = (int)unit_below(&rs, 64);
				dev = devs[r];
				b0 = at[r] + unit_below(&rs, 400);
			} else {
				dev = (uint16_t)unit_below(&rs, 65536);
				b0 = unit_below(&rs, (double)((1ull << 48) - 2048));
			}
			uint64_t x = (b0 ^ ((uint64_t)dev << 48)) * TOUCH_MUL;
			int want = plain(t, dev, b0, n);
			CHECK_EQ(touch_run_any(t, x, n), want);
			yes += (uint64_t)want;
			all++;
		}
	}
	/* both answers asked often */
	CHECK(yes > all / 10 && yes < all - all / 10);
	reel_free_big(t, TOUCH_BYTES);
	return 0;
}
