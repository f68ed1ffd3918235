/* reel_col_varint_bytes, the encoder's count of a column's bytes as
 * varints (its choice of varint or bitpack rests on it), both ways (AVX2's
 * four values at a time where the processor has it, and the plain one)
 * against the bytes a LEB128 writer puts out, value by value: every bit
 * width 0..64, each varint length's bounds (2^7j - 1, 2^7j, 2^7j + 1),
 * 0 and 2^64 - 1, runs of every length 0..40 (the four-at-a-time loop's
 * tail) and 100,000 values of random widths. */
#include <stdint.h>
#include <stdlib.h>

#include "formats/reel.h"
#include "formats/reel_internal.h"
#include "tests/unit/unit.h"

#define NMAX 100000

/* The bytes put_varint writes for V: 7 bits a byte, at least one. */
static size_t leb_bytes(uint64_t v)
{
	size_t b = 1;
	while (v >= 0x80) {
		v >>= 7;
		b++;
	}
	return b;
}

static void check_sum(const uint64_t *u, size_t n)
{
	size_t want = 0;
	for (size_t i = 0; i < n; i++)
		want += leb_bytes(u[i]);
	for (int plain = 0; plain < 2; plain++) {
		reel_codec_plain(plain);
		CHECK_EQ(reel_col_varint_bytes(u, n), want);
	}
	reel_codec_plain(0);
}

int main(void)
{
	uint64_t *u = malloc(NMAX * sizeof(*u)), rs = 0x9e3779b97f4a7c15ull;
	CHECK(u);
	size_t n = 0;
	/* each varint length's bounds, 0 and the top */
	u[n++] = 0;
	u[n++] = UINT64_MAX;
	for (int j = 1; j <= 9; j++) {
		uint64_t b = UINT64_C(1) << (7 * j);
		u[n++] = b - 1;
		u[n++] = b;
		u[n++] = b + 1;
	}
	for (int w = 0; w <= 64; w++) /* every width: its top value */
		u[n++] = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - (w > 0);
	check_sum(u, n);
	/* each of them alone and at each place of a run of four and more */
	for (size_t i = 0; i < n; i++) {
		uint64_t v[9] = {0};
		for (size_t at = 0; at < 9; at++) {
			v[at] = u[i];
			check_sum(v, 9);
			check_sum(v, at + 1);
			v[at] = 0;
		}
	}
	/* random values of random widths: runs of every length to 40, then all */
	for (size_t i = 0; i < NMAX; i++) {
		unsigned w = (unsigned)unit_below(&rs, 65);
		unit_urand(&rs);
		uint64_t x = rs ^ (rs << 29);
		u[i] = w == 0 ? 0 : w == 64 ? x : x & ((UINT64_C(1) << w) - 1);
	}
	for (size_t len = 0; len <= 40; len++)
		for (size_t at = 0; at + len <= 200; at += 7)
			check_sum(u + at, len);
	check_sum(u, NMAX);
	free(u);
	printf("reel_col_varint_bytes: the LEB128 bytes, both ways\n");
	return 0;
}
