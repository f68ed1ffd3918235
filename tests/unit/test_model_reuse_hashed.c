/*
 * test_model_reuse_hashed: reuse_hashed_avx2 (the re-use pass's blocks
 * hashed four at a time) keeps the same blocks, keys and hashes, in the
 * same order and count, as reuse_hashed and as a reference written from
 * mix64 block by block: spans of 1 to 4096 blocks (most of 1 to 9, as
 * the I/O are; every length mod 4 for the last lanes), devices 0 to 4095
 * (their key's top 12 bits), blocks near 0 and near 2^52, the samples'
 * limits UINT64_MAX >> shift for every shift 0-63 and 0 (the gather's
 * after 64 halvings), limits at random and at a hash exactly (kept: at
 * most the limit), and a count already in the arrays.
 */
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

#define SPAN_MAX 4096
#define AT_MAX 64

/* the blocks B0..B1 of DEV whose hash is at most LIM, one by one */
static uint32_t hashed_ref(uint64_t dev, uint64_t b0, uint64_t b1, uint64_t lim, uint64_t *k,
			   uint64_t *h, uint32_t m)
{
	for (uint64_t b = b0; b <= b1; b++) {
		uint64_t key = (dev << 52) ^ b, hash = mix64(key);
		if (hash <= lim) {
			k[m] = key;
			h[m++] = hash;
		}
	}
	return m;
}

static uint64_t k0[AT_MAX + SPAN_MAX], h0[AT_MAX + SPAN_MAX], k1[AT_MAX + SPAN_MAX],
    h1[AT_MAX + SPAN_MAX], k2[AT_MAX + SPAN_MAX], h2[AT_MAX + SPAN_MAX];

/* all three ways on one I/O's blocks; the kept count */
static uint32_t check(uint64_t dev, uint64_t b0, uint64_t b1, uint64_t lim, uint32_t at)
{
	for (uint32_t x = 0; x < at; x++) /* what the batch holds already */
		k0[x] = k1[x] = k2[x] = h0[x] = h1[x] = h2[x] = x * 7919u;
	uint32_t m0 = hashed_ref(dev, b0, b1, lim, k0, h0, at);
	uint32_t m1 = reuse_hashed(dev, b0, b1, lim, k1, h1, at);
	uint32_t m2 = reuse_hashed_avx2(dev, b0, b1, lim, k2, h2, at);
	CHECK_EQ(m1, m0);
	CHECK_EQ(m2, m0);
	CHECK(!memcmp(k1, k0, m0 * sizeof(*k0)) && !memcmp(h1, h0, m0 * sizeof(*h0)));
	CHECK(!memcmp(k2, k0, m0 * sizeof(*k0)) && !memcmp(h2, h0, m0 * sizeof(*h0)));
	return m0 - at;
}

int main(void)
{
	uint64_t rs = 0x2545f4914f6cdd1dull, kept = 0, spans = 0, at_limit = 0;
	if (!FIT_HASH_AVX2 || !reel_has_avx2())
		SKIP("no AVX2 here: reuse_hashed_avx2 is reuse_hashed");
	for (int round = 0; round < 60000; round++) {
		uint64_t dev = unit_below(&rs, 4096), nb;
		if (round % 10 == 0)
			nb = 1 + unit_below(&rs, SPAN_MAX);
		else
			nb = 1 + (uint64_t)round % 9;
		uint64_t top = (1ull << 52) - nb, b0;
		switch (round % 3) {
		case 0:
			b0 = unit_below(&rs, top);
			break;
		case 1:
			b0 = unit_below(&rs, 64);
			break;
		default:
			b0 = top - unit_below(&rs, 64);
		}
		uint64_t lim;
		int kind = round % 4;
		if (kind == 0) /* the gather's: a shift */
			lim = round % 65 == 64 ? 0 : UINT64_MAX >> (round % 65);
		else if (kind == 1) /* one of the span's hashes: kept */
			lim = mix64((dev << 52) ^ (b0 + unit_below(&rs, nb)));
		else
			lim = (uint64_t)(unit_urand(&rs) * 18446744073709549568.0);
		uint32_t at = (uint32_t)unit_below(&rs, AT_MAX);
		kept += check(dev, b0, b0 + nb - 1, lim, at);
		at_limit += kind == 1;
		spans += nb;
	}
	CHECK(kept > 0 && kept < spans);
	printf("60000 spans (%llu blocks, %llu kept, %llu at a hash's limit): the same keys and "
	       "hashes\n",
	       (unsigned long long)spans, (unsigned long long)kept, (unsigned long long)at_limit);
	return 0;
}
