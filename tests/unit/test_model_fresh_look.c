/*
 * test_model_fresh_look: gen_fresh_own_look (gen_internal.h), whether a
 * fresh start's look at its I/O's own blocks is needed after its run's
 * span was looked at and found untouched (gen_space.c, fresh_span), gives
 * fresh_span the answer it gave when it asked the I/O's look wherever the
 * span is longer than the I/O or the I/O has LOOK blocks or more.  Both
 * looks as touched_any makes them (LOOK blocks evenly spread over a
 * longer stretch), on hashed sets from nearly empty to nearly full,
 * random byte offsets, I/O of 0 to 6 MiB, spans of 0 to 20 MiB.  And
 * gen_touch_goes_on (placed's asks ahead of the cursor): on for a device
 * whose I/O go on at the cursor, off for one of disksim's 2% there.
 */
#include <stdlib.h>

#include "model/gen_internal.h"
#include "tests/unit/unit_model.h"

/* touched_any's look at [OFF, OFF + LEN) on device DEV, block by block */
static int look_at(const uint64_t *t, uint16_t dev, uint64_t off, uint64_t len, uint64_t look)
{
	uint64_t b0 = off >> 12, b1 = (off + (len ? len - 1 : 0)) >> 12, step = 1;
	if (b1 - b0 >= look)
		step = (b1 - b0) / look + 1;
	for (uint64_t b = b0; b <= b1; b += step) {
		uint64_t s =
		    touch_slot(((b ^ ((uint64_t)dev << 48)) * TOUCH_MUL) >> (64 - TOUCH_BITS));
		if ((t[s >> 6] >> (s & 63)) & 1)
			return 1;
	}
	return 0;
}

/* a byte count: 0, whole blocks, or any, up to MAX blocks */
static uint64_t bytes(uint64_t *rs, double max)
{
	uint64_t k = unit_below(rs, 4), b = unit_below(rs, max);
	return k == 0 ? 0 : k == 1 ? b * 4096 : b * 4096 + unit_below(rs, 4096);
}

static void fresh_looks(uint64_t *t, uint64_t *rs, uint64_t *skipped, uint64_t *mattered)
{
	static const uint64_t looks[] = {TOUCH_LOOK, TOUCH_SCAN, 1, 2, 7};
	for (int q = 0; q < 200000; q++) {
		uint16_t dev = (uint16_t)unit_below(rs, 16);
		uint64_t off = unit_below(rs, (double)(1ull << 40)), look = looks[q % 5];
		uint64_t len = bytes(rs, q % 4 ? 16 : 1536), span = bytes(rs, q % 3 ? 64 : 5120);
		if (q % 7 == 0)
			span = len + unit_below(rs, 3) * 4096; /* the I/O's run of one I/O */
		int sp = look_at(t, dev, off, span, look);
		int own = look_at(t, dev, off, len, TOUCH_MAX);
		int before =
		    !sp &&
		    !((span > len || (len ? ((off + len - 1) >> 12) - (off >> 12) : 0) >= look) &&
		      own);
		int need = gen_fresh_own_look(off, len, span, look);
		CHECK_EQ(!sp && !(need && own), before);
		*skipped += (uint64_t)(!sp && !need && span > len);
		*mattered += (uint64_t)(!sp && need && own);
	}
}

static void goes_on(void)
{
	struct devstate *s = calloc(1, sizeof(*s));
	CHECK(s != NULL);
	if (!s)
		return;
	uint64_t rs = 0x90e5, on = 0;
	/* a run: each I/O starts at the cursor the last one left */
	for (int i = 0; i < 1000; i++) {
		uint64_t off = s->cursor;
		s->cursor = off + 8192;
		on += (uint64_t)gen_touch_goes_on(s, off);
	}
	CHECK(on > 980);
	/* disksim's: 2 in 100 at the cursor, the rest anywhere on 200 GiB */
	on = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t off = i % 50 ? unit_below(&rs, 200.0 * (1ull << 30)) : s->cursor;
		s->cursor = off + 4096;
		on += (uint64_t)gen_touch_goes_on(s, off);
	}
	CHECK(on < 10000);
	free(s);
}

int main(void)
{
	uint64_t *t = touch_alloc(), rs = 0xf7e5;
	CHECK(t != NULL);
	if (!t)
		return 1;
	static const double fill[] = {1e-5, 1e-3, 0.05, 0.3};
	uint64_t skipped = 0, mattered = 0;
	for (size_t f = 0; f < sizeof(fill) / sizeof(fill[0]); f++) {
		unit_touch_fill(t, fill[f], &rs);
		fresh_looks(t, &rs, &skipped, &mattered);
	}
	/* both cases asked often: the look skipped, and the look needed and
	 * answering "touched" where the span's said not */
	CHECK(skipped > 1000);
	CHECK(mattered > 100);
	goes_on();
	reel_free_big(t, TOUCH_BYTES);
	return 0;
}
