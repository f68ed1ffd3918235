/*
 * test_model_cascade_vec: cascade_arrange (model/gen.c, through
 * gen_cascade_arrange) with AVX2, a large split's draws first and its
 * sides eight gaps at a time, against one gap at a time (AT NULL): the
 * same order of the ranks, the stream left in the same state, and no
 * write past GP's, TMP's, OUT's or AT's places, on windows of 1 to 2^16
 * gaps (all sizes to 300, the eights around the threshold of 64, random
 * ones up), splits of 0.5 to 1 (the fit's tries; 0, 0.999 and 1, a gap
 * a split, up to 2000 gaps), many seeds.
 */
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#define GUARD 16
#define CANARY 0xa5a5a5a5u

struct bufs {
	uint32_t *gp, *tmp, *out;
	int32_t *at;
};

static void bufs_make(struct bufs *b, size_t n)
{
	b->gp = malloc((n + 1 + GUARD) * sizeof(uint32_t));
	b->tmp = malloc((n + 1 + GUARD) * sizeof(uint32_t));
	b->out = malloc((n + GUARD) * sizeof(uint32_t));
	b->at = malloc((n + GUARD) * sizeof(int32_t));
	CHECK(b->gp && b->tmp && b->out && b->at);
	for (size_t i = 0; i < n + 1 + GUARD; i++)
		b->gp[i] = b->tmp[i] = CANARY;
	for (size_t i = 0; i < n + GUARD; i++)
		b->out[i] = CANARY, b->at[i] = (int32_t)CANARY;
	for (size_t i = 0; i < n; i++)
		b->gp[i] = (uint32_t)i;
}

static void bufs_check(const struct bufs *b, size_t n)
{
	for (size_t i = n + 1; i < n + 1 + GUARD; i++)
		CHECK(b->gp[i] == CANARY && b->tmp[i] == CANARY);
	for (size_t i = n; i < n + GUARD; i++)
		CHECK(b->out[i] == CANARY && b->at[i] == (int32_t)CANARY);
}

static void bufs_free(struct bufs *b)
{
	free(b->gp);
	free(b->tmp);
	free(b->out);
	free(b->at);
}

/* one window of N gaps, split B, from stream state S: both ways */
static void one(size_t n, double b, const uint64_t *s)
{
	static struct model_gen ga, gb;
	struct bufs x, y;
	bufs_make(&x, n);
	bufs_make(&y, n);
	memcpy(ga.s, s, sizeof(ga.s));
	memcpy(gb.s, s, sizeof(gb.s));
	gen_cascade_arrange(&ga, x.gp, x.tmp, x.out, n, b, NULL);
	gen_cascade_arrange(&gb, y.gp, y.tmp, y.out, n, b, y.at);
	CHECK(memcmp(x.out, y.out, n * sizeof(uint32_t)) == 0);
	CHECK(memcmp(ga.s, gb.s, sizeof(ga.s)) == 0);
	bufs_check(&x, n);
	bufs_check(&y, n);
	/* a permutation of the ranks */
	uint8_t *seen = calloc(n + 1, 1);
	CHECK(seen != NULL);
	for (size_t i = 0; i < n; i++) {
		CHECK(y.out[i] < n && !seen[y.out[i]]);
		seen[y.out[i]] = 1;
	}
	free(seen);
	bufs_free(&x);
	bufs_free(&y);
}

int main(void)
{
	if (!reel_has_avx2())
		SKIP("no AVX2: the one-gap-at-a-time way only");
	static const double bs[] = {0,	 0.5,  0.55, 0.6,  0.65,  0.7,	 0.75,
				    0.8, 0.85, 0.9,  0.95, 0.975, 0.999, 1};
	const size_t nb = sizeof(bs) / sizeof(bs[0]);
	uint64_t rs = 0xca5cadeull, s[4];
	size_t windows = 0;
	for (size_t n = 1; n <= 300; n++)
		for (size_t k = 0; k < nb; k++, windows++) {
			for (int i = 0; i < 4; i++)
				s[i] =
				    (uint64_t)(unit_urand(&rs) * 0x1p53) * 2048 + (uint64_t)i + 1;
			one(n, bs[k], s);
		}
	for (int r = 0; r < 400; r++, windows++) {
		for (int i = 0; i < 4; i++)
			s[i] = (uint64_t)(unit_urand(&rs) * 0x1p53) * 2048 + (uint64_t)i + 1;
		size_t n = r < 40   ? 56 + (size_t)r % 20
			   : r < 60 ? (1u << 16) - (size_t)r % 3
				    : 2 + (size_t)(unit_urand(&rs) * unit_urand(&rs) * 65534);
		double b = bs[(size_t)r % nb];
		if (n > 2000 && (b < 0.5 || b > 0.98)) /* a gap a split: n^2 / 2 draws */
			b = 0.975;
		one(n, b, s);
	}
	printf("%zu windows: the same order and stream both ways\n", windows);
	return 0;
}
