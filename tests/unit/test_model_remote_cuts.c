/*
 * test_model_remote_cuts: round 31's byte-identical cuts on the placing
 * thread, each against what it replaced (gen_strat_fill's identity
 * copied from a table: test_model_strat_fill holds it to round 24's fill).
 * - model_reuse_size (model.h: 63 - clz(B | 1)) against round 30's (B > 1
 *   ? 63 - clz(B) : 0): every length 0 .. 2^20, every power of two from
 *   4 KiB to 2^63 and three either side, 2^64 - 4096 .. 2^64 - 1 (where
 *   LEN + 4095 wraps), 2 M at random.
 * - The devices' states on the corpus' models (unit_model_gen_each, every
 *   500 I/O): rb[r] is (double)bound[r], and where the chain's sums given
 *   the op go up, tr_cw_guide's rows are gen_chain_op_guide's tables of
 *   them (chain_op's searches then test_model_chain_op_at's).
 */
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

/* round 30's model_reuse_size */
static int ref_size(uint64_t len)
{
	uint64_t b = (len + 4095) >> 12;
	int c = b > 1 ? 63 - __builtin_clzll(b) : 0;
	return c < MODEL_REUSE_SIZES - 1 ? c : MODEL_REUSE_SIZES - 1;
}

static uint64_t sizes_same(uint64_t *rs)
{
	uint64_t n = 0;
	for (uint64_t len = 0; len <= 1u << 20; len++, n++)
		CHECK_EQ(model_reuse_size(len), ref_size(len));
	for (int e = 12; e < 64; e++)
		for (int k = -3; k <= 3; k++, n++)
			CHECK_EQ(model_reuse_size((1ull << e) + (uint64_t)k),
				 ref_size((1ull << e) + (uint64_t)k));
	for (uint64_t len = UINT64_MAX - 4095;; len++, n++) {
		CHECK_EQ(model_reuse_size(len), ref_size(len));
		if (len == UINT64_MAX)
			break;
	}
	for (int i = 0; i < 2000000; i++, n++) {
		uint64_t len = xo_next(rs) >> (xo_next(rs) % 64);
		CHECK_EQ(model_reuse_size(len), ref_size(len));
	}
	return n;
}

static uint64_t ngen, nguide;

static void check_dev(const struct model_devspace *d, const struct devstate *s, uint64_t *rs)
{
	(void)rs;
	static uint32_t t[2 * MODEL_MAX_REGIONS * GEN_TRC];
	for (uint32_t r = 0; r <= d->nregions; r++)
		CHECK(s->rb[r] == (double)d->bound[r]);
	if (!s->tr_cw || !s->tr_cw_up) {
		CHECK(!s->tr_cw_guide);
		return;
	}
	CHECK(s->tr_cw_guide != NULL);
	uint32_t n = d->row[d->nregions];
	memset(t, 0, 2 * (size_t)d->nregions * GEN_TRC * sizeof(*t));
	for (int k = 0; k < 2; k++)
		gen_chain_op_guide(d, s->tr_cw + (size_t)k * n,
				   t + (size_t)k * d->nregions * GEN_TRC);
	CHECK(memcmp(t, s->tr_cw_guide, 2 * (size_t)d->nregions * GEN_TRC * sizeof(*t)) == 0);
	nguide++;
}

static void each_model(const char *name, uint64_t capacity)
{
	ngen += unit_model_gen_checked(name, capacity, 1, 0x5eed, 500, 1, check_dev);
}

int main(void)
{
	uint64_t rs[4] = {0x9e3779b97f4a7c15ull, 1, 2, 3};
	printf("%llu sizes' classes: the same\n", (unsigned long long)sizes_same(rs));
	unit_model_gen_each(each_model);
	CHECK(nguide > 0);
	printf("%llu I/O on the corpus' models, their states' bounds and tables (%llu): the same\n",
	       (unsigned long long)ngen, (unsigned long long)nguide);
	return 0;
}
