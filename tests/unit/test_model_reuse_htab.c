/*
 * test_model_reuse_htab: the re-use pass's gather with every block's hash
 * looked up in a table (reuse_looked_up, on a small extent read over and
 * over: fit_device.c's reuse_htab) keeps the same blocks, keys and hashes
 * in the same order as hashing each block as it comes (reuse_hashed), on
 * random I/O of 1 to 4096 blocks anywhere in the extent, at every sample
 * rate the block map takes (shift 0: all, to 63), for devices 0 to 65535;
 * and the kept ones are those bmap_sampled keeps.
 */
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

#define EXT 8192 /* blocks of the extent */
#define MAXB 4096

static uint64_t rs = 0x9e3779b97f4a7c15ull;

int main(void)
{
	uint64_t *t = malloc(EXT * sizeof(*t)), *k0 = malloc(MAXB * 8), *h0 = malloc(MAXB * 8);
	uint64_t *k1 = malloc(MAXB * 8), *h1 = malloc(MAXB * 8);
	CHECK(t && k0 && h0 && k1 && h1);
	uint64_t kept = 0;
	for (int d = 0; d < 40; d++) {
		uint64_t dev = d < 2 ? (uint64_t)d * 65535 : (uint64_t)(unit_urand(&rs) * 65536);
		reuse_htab_fill(t, EXT, dev);
		for (int it = 0; it < 2000; it++) {
			uint64_t nb = 1 + (uint64_t)(unit_urand(&rs) * (it % 4 ? 64 : MAXB));
			uint64_t b0 = (uint64_t)(unit_urand(&rs) * (double)(EXT - nb + 1)),
				 b1 = b0 + nb - 1;
			int sh = it % 5 == 0 ? 0 : (int)(unit_urand(&rs) * 64);
			struct bmap bm = {.shift = sh};
			uint64_t lim = sh < 64 ? UINT64_MAX >> sh : 0;
			uint32_t m0 = reuse_hashed(dev, b0, b1, lim, k0, h0, 0);
			uint32_t m1 = reuse_looked_up(t, dev, b0, b1, lim, k1, h1, 0);
			CHECK_EQ(m0, m1);
			CHECK(!memcmp(k0, k1, m0 * 8) && !memcmp(h0, h1, m0 * 8));
			uint32_t n = 0;
			for (uint64_t b = b0; b <= b1; b++) /* the map's own test */
				if (bmap_sampled(&bm, mix64(dev << 52 ^ b))) {
					CHECK_EQ(k0[n], dev << 52 ^ b);
					CHECK_EQ(h0[n++], mix64(dev << 52 ^ b));
				}
			CHECK_EQ(n, m0);
			kept += m0;
		}
	}
	CHECK(kept > 0);
	free(t);
	free(k0);
	free(h0);
	free(k1);
	free(h1);
	return 0;
}
