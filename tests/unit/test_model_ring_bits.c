/*
 * test_model_ring_bits: gen's searches over the ring's bitmaps a word at a
 * time answer as the loops they replaced.  ring_nearest (gen_internal.h),
 * back_slot's: as the loop over K, K + 1, K - 1, .. (GEN_NEAR either
 * side), each slot's op (rop), whether a re-use went back to it (gone) and
 * whether it is on a hot block looked at one by one, where FEW first a hot
 * one within GEN_HOT_NEAR (gen_written, over the same bitmaps, has its own
 * test: test_model_written, the ring filled by gen_ring_op).  Random rings
 * (sparse to dense bits, the ring part full or wrapped many times), every
 * K from 1 to the ring's I/O, every op, MINOR and FEW.  resume_at's walk
 * by ring_resume_bits: the slots the loop looked at one by one (not known
 * touched, of the op's kind), in order, up to the ring's I/O or
 * MODEL_RESUME_BACK, every op, rtouch at odds from none to all and marked
 * on the way as resume_at marks it.
 */
#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rs = 0x2545f4914f6cdd1dull;
static uint8_t hot[GEN_HIST];

static int ok(const struct devstate *s, uint64_t k, int op, int minor, int few)
{
	uint64_t i = (s->hn - k) % GEN_HIST;
	return !(few && (s->gone[i / 64] >> (i % 64) & 1)) && (!minor || s->rop[i] == op);
}

/* The loop back_slot ran before (K in the ring: 1 <= K <= N). */
static uint64_t plain(const struct devstate *s, uint64_t k, uint64_t n, int op, int minor, int few)
{
	for (uint64_t d = 0; few && d <= GEN_HOT_NEAR; d++) {
		if (k + d <= n && ok(s, k + d, op, minor, few) && hot[(s->hn - k - d) % GEN_HIST])
			return k + d;
		if (d && d < k && ok(s, k - d, op, minor, few) && hot[(s->hn - k + d) % GEN_HIST])
			return k - d;
	}
	for (uint64_t d = 0; d <= GEN_NEAR; d++) {
		if (k + d <= n && ok(s, k + d, op, minor, few))
			return k + d;
		if (d && d < k && ok(s, k - d, op, minor, few))
			return k - d;
	}
	return k;
}

/* A ring of HN I/O: each slot's op, gone and hot bits at the odds given,
 * in the arrays the loop reads and in the bitmaps. */
static void fill(struct devstate *s, uint64_t hn, double p_op, double p_gone, double p_hot)
{
	memset(s->gone, 0, sizeof(s->gone));
	memset(s->ropm, 0, sizeof(s->ropm));
	memset(s->rhot, 0, sizeof(s->rhot));
	s->hn = hn;
	for (uint64_t i = 0; i < GEN_HIST; i++) {
		double u = unit_urand(&rs);
		s->ring[i] = (uint64_t)(unit_urand(&rs) * 100000) * 512;
		s->rop[i] =
		    (uint8_t)(u < p_op		   ? REEL_OP_WRITE
			      : u < (1 + p_op) / 2 ? REEL_OP_READ
						   : (uint8_t)(2 + (int)(unit_urand(&rs) * 3)));
		s->ropm[s->rop[i]][i / 64] |= 1ull << (i % 64);
		if (unit_urand(&rs) < p_gone)
			s->gone[i / 64] |= 1ull << (i % 64);
		hot[i] = unit_urand(&rs) < p_hot;
		if (hot[i])
			s->rhot[i / 64] |= 1ull << (i % 64);
	}
}

static void test_random_rings(struct devstate *s)
{
	const double odds[] = {0, 0.002, 0.02, 0.2, 0.5, 0.9, 0.99, 1};
	const size_t no = sizeof(odds) / sizeof(odds[0]);
	uint64_t checked = 0, moved = 0;
	for (int t = 0; t < 600; t++) {
		uint64_t hn = t % 3 == 0   ? 1 + (uint64_t)(unit_urand(&rs) * 200)
			      : t % 3 == 1 ? GEN_HIST + (uint64_t)(unit_urand(&rs) * 3 * GEN_HIST)
					   : 1 + (uint64_t)(unit_urand(&rs) * GEN_HIST);
		fill(s, hn, odds[t % no], odds[(t / no) % no], odds[(t / no / no) % no]);
		uint64_t n = hn < GEN_HIST ? hn : GEN_HIST;
		for (int op = 0; op < REEL_OP__COUNT; op++)
			for (int m = 0; m < 4; m++)
				for (uint64_t k = 1; k <= n; k += 1 + (n > 600) * (t % 7)) {
					uint64_t want = plain(s, k, n, op, m & 1, m >> 1);
					CHECK_EQ(ring_nearest(s, k, n, op, m & 1, m >> 1), want);
					checked++;
					moved += want != k;
				}
	}
	CHECK(checked > 1000000 && moved > checked / 10);
}

/* The slots resume_at looked at one by one (before ring_resume_bits), as
 * I/O back, from 1 up to N, into OUT (how many): those not known touched
 * and of OP's kind, each marked known touched at the odds PM as it is
 * looked at (as resume_at marks those whose end's block is). */
static size_t plain_resume(struct devstate *s, uint64_t n, int op, double pm, uint64_t *out)
{
	size_t c = 0;
	for (uint64_t j = 1; j <= n; j++) {
		uint64_t i = (s->hn - j) % GEN_HIST;
		if ((s->rtouch[i / 64] >> (i % 64) & 1) ||
		    (s->rop[i] != REEL_OP_READ) != (op != REEL_OP_READ))
			continue;
		out[c++] = j;
		if (unit_urand(&rs) < pm)
			s->rtouch[i / 64] |= 1ull << (i % 64);
	}
	return c;
}

/* resume_at's walk by ring_resume_bits, the same. */
static size_t bits_resume(struct devstate *s, uint64_t n, int op, double pm, uint64_t *out)
{
	size_t c = 0;
	for (uint64_t j = 1, i; j <= n; j += i % 64 + 1)
		for (uint64_t v = ring_resume_bits(s, i = (s->hn - j) % GEN_HIST, op); v;) {
			uint64_t p = 63 - (uint64_t)__builtin_clzll(v), k = i - i % 64 + p;
			v ^= 1ull << p;
			if (j + i % 64 - p > n)
				return c;
			CHECK_EQ(k, (s->hn - (j + i % 64 - p)) % GEN_HIST);
			out[c++] = j + i % 64 - p;
			if (unit_urand(&rs) < pm)
				s->rtouch[k / 64] |= 1ull << (k % 64);
		}
	return c;
}

static void test_resume_walk(struct devstate *s)
{
	const double odds[] = {0, 0.002, 0.02, 0.2, 0.5, 0.9, 0.99, 1};
	const size_t no = sizeof(odds) / sizeof(odds[0]);
	static uint64_t rt[GEN_HIST / 64], want[GEN_HIST], got[GEN_HIST];
	uint64_t walks = 0, seen = 0;
	for (int t = 0; t < 3000; t++) {
		uint64_t hn = t % 3 == 0   ? 1 + (uint64_t)(unit_urand(&rs) * 200)
			      : t % 3 == 1 ? GEN_HIST + (uint64_t)(unit_urand(&rs) * 3 * GEN_HIST)
					   : 1 + (uint64_t)(unit_urand(&rs) * GEN_HIST);
		fill(s, hn, odds[t % no], 0, 0);
		double pt = odds[(t / no) % no], pm = odds[(t / no / no) % no];
		for (uint64_t i = 0; i < GEN_HIST / 64; i++) {
			rt[i] = 0;
			for (uint64_t b = 0; b < 64; b++)
				rt[i] |= (uint64_t)(unit_urand(&rs) < pt) << b;
		}
		uint64_t n = hn < GEN_HIST ? hn : GEN_HIST;
		n = t % 5 ? n : n < MODEL_RESUME_BACK ? n : MODEL_RESUME_BACK;
		for (int op = 0; op < REEL_OP__COUNT; op++) {
			uint64_t r0 = rs;
			memcpy(s->rtouch, rt, sizeof(rt));
			size_t nw = plain_resume(s, n, op, pm, want);
			rs = r0; /* the same marks drawn */
			memcpy(s->rtouch, rt, sizeof(rt));
			size_t ng = bits_resume(s, n, op, pm, got);
			CHECK_EQ(ng, nw);
			CHECK(!memcmp(got, want, nw * sizeof(want[0])));
			walks++;
			seen += nw;
		}
	}
	printf("resume_at's walk: %llu walks, %llu slots looked at: as one by one\n",
	       (unsigned long long)walks, (unsigned long long)seen);
	CHECK(walks >= 15000 && seen > walks * 100);
}

int main(void)
{
	struct devstate *s = calloc(1, sizeof(*s));
	CHECK(s != NULL);
	test_random_rings(s);
	test_resume_walk(s);
	free(s);
	return 0;
}
