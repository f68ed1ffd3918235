/*
 * test_model_cascade_arrange: a window's cascade of gaps (model/gen.c
 * gen_cascade_arrange, by 8 gaps a loop with AVX2 and BMI2's build where
 * the processor has them, and plain) as round 28's cascade_arrange made
 * it (copied below: a pointer to each side's next place, 2 gaps a loop):
 * the same arrangement and the stream's state the same after, on windows
 * of 0 to 70,000 gaps (every remainder of 8, 2,000 windows under 300),
 * splits b of 0, 1 (under 300), 0.5, 0.975, 0.025 and at random, ranks
 * at random; and 400 windows of up to 3,000 gaps at b of 0.99, 0.995,
 * 0.999 and 0.01, where most splits send every gap to one side (their
 * draws' steps alone, the gaps left in place: round 34).  Each window also
 * with its draws from the four AVX2 lanes of the stream (round 36's
 * casc_stream: gen_cascade_arrange's PLAIN 2 asks for it at any N; at
 * 1024 gaps and more the fast build takes it): its chunks' jumps, their
 * ends inside a split's loop, a one-sided split or a split's two draws,
 * and the state stepped on from a lane's start at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel_internal.h"
#include "model/gen_internal.h"
#include "tests/unit/unit.h"

static size_t ref_left(uint64_t *s, size_t n, double b)
{
	double f = xo_next(s) >> 63 ? 1 - b : b;
	int64_t x = (int64_t)(f * (double)(int64_t)(n + 1) + unit(xo_next(s)));
	return (size_t)(x < 1 ? 1 : x > (int64_t)n ? (int64_t)n : x) - 1;
}

static void ref_small(uint64_t *s, const uint32_t *gp, uint32_t *out, size_t n, double b)
{
	if (n == 1) {
		xo_next(s);
		xo_next(s);
		out[0] = gp[0];
	} else if (n == 2) {
		size_t L = ref_left(s, 2, b);
		out[L] = gp[0];
		xo_next(s);
		xo_next(s);
		xo_next(s);
		out[1 - L] = gp[1];
	}
}

/* round 28's cascade_arrange, its stream S */
static void ref_arrange(uint64_t *s, uint32_t *gp, uint32_t *tmp, uint32_t *out, size_t n, double b)
{
	while (n > 0) {
		if (n <= 2) {
			ref_small(s, gp, out, n, b);
			break;
		}
		size_t L = ref_left(s, n, b), R = n - 1 - L;
		out[L] = gp[0];
		uint32_t *lp = tmp, *rp = tmp + L;
		double places = (double)(int64_t)(n - 1) * 0x1p-53;
		int64_t lr = (int64_t)L;
		for (size_t i = 1; i < n; i++) {
			int64_t at = (int64_t)((double)(xo_next(s) >> 11) * places);
			uint64_t lft = (uint64_t)(at - lr) >> 63;
			uint32_t v = gp[i];
			*lp = v;
			rp[i] = v;
			lp += lft;
			rp -= lft;
			lr -= (int64_t)lft;
			places -= 0x1p-53;
		}
		uint32_t *sw = gp;
		gp = tmp;
		tmp = sw;
		size_t sm = L <= R ? L : R;
		uint32_t *sg = L <= R ? gp : gp + L + 1, *so = L <= R ? out : out + L + 1;
		if (sm <= 2)
			ref_small(s, sg, so, sm, b);
		else
			ref_arrange(s, sg, L <= R ? tmp : tmp + L + 1, so, sm, b);
		if (L <= R) {
			gp += L + 1;
			tmp += L + 1;
			out += L + 1;
			n = R;
		} else {
			n = L;
		}
	}
}

/* one window of N gaps: the reference against the three ways (the fast
 * build, the plain one, the lanes'); 1 when all agree */
static int same_window(uint64_t *rs, size_t n, double b, uint32_t *buf, uint32_t *ref,
		       uint32_t *got)
{
	uint64_t s0[4];
	for (int w = 0; w < 4; w++)
		s0[w] = xo_next(rs) | 1;
	uint32_t *gp = buf, *tmp = buf + n + 1;
	for (size_t i = 0; i < n; i++)
		gp[i] = (uint32_t)xo_next(rs);
	uint32_t *keep = got + n + 1;
	memcpy(keep, gp, n * sizeof(*gp));
	uint64_t sr[4];
	memcpy(sr, s0, sizeof(sr));
	ref_arrange(sr, gp, tmp, ref, n, b);
	int ok = 1;
	for (int plain = 0; plain < 3; plain++) {
		uint64_t sg[4];
		memcpy(sg, s0, sizeof(sg));
		memcpy(gp, keep, n * sizeof(*gp));
		memset(got, 0xa5, n * sizeof(*got));
		gen_cascade_arrange(sg, gp, tmp, got, n, b, plain);
		ok &= memcmp(sg, sr, sizeof(sg)) == 0 && memcmp(got, ref, n * sizeof(*got)) == 0;
	}
	return ok;
}

int main(void)
{
	enum { MAXN = 70000 };
	uint32_t *buf = malloc((2 * MAXN + 2) * sizeof(*buf));
	uint32_t *ref = malloc(MAXN * sizeof(*ref)), *got = malloc((2 * MAXN + 1) * sizeof(*got));
	CHECK(buf && ref && got);
	static const double bs[] = {0, 1, 0.5, 0.975, 0.025, 0.7, 0.3};
	uint64_t rs[4] = {0x9e3779b97f4a7c15ull, 0x2545f4914f6cdd1dull, 0xc4a1d5ull, 7};
	int bad = 0, windows = 0;
	for (int k = 0; k < 2000; k++, windows++) {
		size_t n = k < 40 ? (size_t)k : 1 + xo_next(rs) % 300;
		double b = k % 9 < 7 ? bs[k % 9] : unit(xo_next(rs));
		bad += !same_window(rs, n, b, buf, ref, got);
	}
	/* larger ones with b from 0.3 to 0.975 (b of 0 or 1 takes one gap a
	 * split: n^2 / 2 draws) */
	static const size_t big[] = {1000, 4097, 65536, MAXN};
	for (size_t j = 0; j < sizeof(big) / sizeof(big[0]); j++)
		for (size_t k = 2; k < sizeof(bs) / sizeof(bs[0]); k++, windows++)
			bad += !same_window(rs, big[j] - k % 3, bs[k], buf, ref, got);
	/* splits of one side, long chains of them: b near 1 or 0, under 1 /
	 * (1 - b) gaps every split (at 0.999 all of them) */
	static const double ones[] = {0.99, 0.995, 0.999, 0.01};
	for (int k = 0; k < 400; k++, windows++)
		bad += !same_window(rs, 1 + xo_next(rs) % 3000, ones[k % 4], buf, ref, got);
	/* around the lanes' threshold (1024 gaps) and over many chunks of
	 * 2048 draws, splits at random */
	for (int k = 0; k < 200; k++, windows++)
		bad += !same_window(rs, 1000 + xo_next(rs) % (k < 150 ? 60 : 20000),
				    k % 2 ? unit(xo_next(rs)) : bs[k % 7], buf, ref, got);
	CHECK_EQ(bad, 0);
	/* reel_codec_plain's switch reaches the plain build (the same
	 * answer either way: this holds the switch's path, not which ran) */
	reel_codec_plain(1);
	bad += !same_window(rs, 5000, 0.975, buf, ref, got);
	reel_codec_plain(0);
	CHECK_EQ(bad, 0);
	/* the fast build ran only where the processor has AVX2 and BMI2:
	 * say which ran (the reviewer's: a machine without them passes on
	 * the plain build alone) */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	int vex = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
#else
	int vex = 0;
#endif
	printf("test_model_cascade_arrange: %d windows the same three ways, %s\n", windows,
	       vex ? "the AVX2+BMI2 build and the plain one"
		   : "the plain build only (no AVX2+BMI2 here)");
	free(buf);
	free(ref);
	free(got);
	return 0;
}
