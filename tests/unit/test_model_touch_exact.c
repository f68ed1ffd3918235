/*
 * test_model_touch_exact: the exact touched set a device (model/gen_space.c
 * direct_mark, direct_any, through gen_touch_x_mark and gen_touch_x_any),
 * kept where the hashed set was (many devices, or one past TOUCH_D0),
 * against a set kept a byte a block: spans marked anywhere (inside one
 * word, across words and lines, at the set's end and past it), then spans
 * looked at every block or STEP apart (as touched_any's LOOK makes them)
 * answered as the bytes say; marks past the set's NB blocks left out and
 * never written past its words (a guard after them).
 */
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#define NB 2048	 /* blocks the set keeps (whole lines, as touch_exact_init makes) */
#define PAST 300 /* blocks past NB that marks and looks reach */
#define GUARD 8	 /* words after the set, never to be written */

static uint8_t ref[NB + PAST];

static int ref_any(uint64_t b0, uint64_t b1, uint64_t step)
{
	for (uint64_t b = b0; b <= b1; b += step)
		if (b < NB && ref[b])
			return 1;
	return 0;
}

/* a span of 1 to LEN blocks from anywhere below NB + PAST */
static void draw_span(uint64_t *rs, uint64_t len, uint64_t *b0, uint64_t *b1)
{
	*b0 = unit_below(rs, NB + PAST - len);
	*b1 = *b0 + unit_below(rs, (double)len);
}

static void run(uint64_t seed, int marks, uint64_t mlen)
{
	uint64_t set[NB / 64 + GUARD], rs = seed;
	memset(set, 0, sizeof(set));
	memset(ref, 0, sizeof(ref));
	for (int i = 0; i < marks; i++) {
		uint64_t b0, b1;
		draw_span(&rs, mlen, &b0, &b1);
		gen_touch_x_mark(set, NB, b0, b1);
		for (uint64_t b = b0; b <= b1 && b < NB; b++)
			ref[b] = 1;
		for (uint64_t b = 0; b < NB; b++)
			if (b >= b0 && b <= b1) /* each marked block now set */
				CHECK(set[b / 64] >> (b % 64) & 1);
	}
	for (uint64_t b = 0; b < NB; b++) /* nothing else set */
		CHECK_EQ(set[b / 64] >> (b % 64) & 1, ref[b]);
	for (int w = 0; w < GUARD; w++)
		CHECK_EQ(set[NB / 64 + w], 0);
	for (int i = 0; i < 20000; i++) {
		uint64_t b0, b1, step = 1 + (i % 3 ? 0 : unit_below(&rs, 9));
		draw_span(&rs, 1 + (uint64_t)(i % 4 ? 70 : 400), &b0, &b1);
		CHECK_EQ(gen_touch_x_any(set, NB, b0, b1, step), ref_any(b0, b1, step));
	}
}

int main(void)
{
	/* sparse one-block marks, a few-block runs, spans over lines */
	run(1, 40, 1);
	run(2, 60, 5);
	run(3, 20, 200);
	run(4, 300, 3);
	/* a mark ending exactly at the last word's end, one starting at NB */
	uint64_t set[NB / 64 + GUARD];
	memset(set, 0, sizeof(set));
	gen_touch_x_mark(set, NB, NB - 64, NB + 10);
	gen_touch_x_mark(set, NB, NB, NB + 100);
	CHECK_EQ(set[NB / 64 - 1], ~0ull);
	for (int w = 0; w < GUARD; w++)
		CHECK_EQ(set[NB / 64 + w], 0);
	CHECK(gen_touch_x_any(set, NB, NB - 1, NB + 5, 1));
	CHECK(!gen_touch_x_any(set, NB, NB, NB + 5, 1));
	CHECK(!gen_touch_x_any(set, NB, 0, NB - 65, 1));
	return 0;
}
