/*
 * test_model_written: gen_written (model/gen_reuse.c: whether a write of
 * the ring starts in a stretch, looked for only in the runs of slots its
 * write bounds say may hold one) answers as the plain walk over every
 * slot: the ring filled as placed fills it (gen_ring_op, then the
 * slot), asked after each of 20,000 I/O (the ring part full, full, and
 * wrapped several times) about 8 stretches: around a write of the ring,
 * a read's, anywhere, of 1 to 2 MiB.
 */
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* the walk over every slot (round 21's gen_written) */
static int ref_written(const struct devstate *s, uint64_t off, uint64_t len)
{
	uint64_t n = s->hn < GEN_HIST ? s->hn : GEN_HIST;
	for (uint64_t j = 1; j <= n; j++) {
		uint64_t i = (s->hn - j) % GEN_HIST;
		if (s->rop[i] != REEL_OP_READ && s->ring[i] >= off && s->ring[i] - off < len)
			return 1;
	}
	return 0;
}

int main(void)
{
	static struct devstate s; /* zero, as gen_space_init's calloc */
	uint64_t rs = 0x9e3779b97f4a7c15ull, yes = 0, asked = 0;
	for (int t = 0; t < 20000; t++) {
		for (int q = 0; q < 8; q++) {
			uint64_t n = s.hn < GEN_HIST ? s.hn : GEN_HIST, off;
			double u = unit_urand(&rs);
			if (q < 6 && n) /* near a slot's start, either side */
				off = s.ring[(uint64_t)(unit_urand(&rs) * (double)n)] -
				      (uint64_t)(unit_urand(&rs) * 8192);
			else
				off = (uint64_t)(u * (double)(1ull << 30));
			uint64_t len = 1 + (uint64_t)(unit_urand(&rs) * (2 << 20));
			int got = gen_written(&s, off, len), want = ref_written(&s, off, len);
			if (got != want) {
				fprintf(stderr, "hn %llu off %llu len %llu: %d, not %d\n",
					(unsigned long long)s.hn, (unsigned long long)off,
					(unsigned long long)len, got, want);
				CHECK(got == want);
			}
			yes += (uint64_t)want;
			asked++;
		}
		/* the next I/O: a read 60% of the time, in a band of 1 GiB */
		int op = unit_urand(&rs) < 0.6 ? REEL_OP_READ : REEL_OP_WRITE;
		uint64_t off = (uint64_t)(unit_urand(&rs) * (double)(1ull << 30)) & ~4095ull;
		gen_ring_op(&s, op, off);
		s.ring[s.hn % GEN_HIST] = off;
		s.hn++;
	}
	/* both answers met often */
	CHECK(yes > asked / 10 && yes < asked - asked / 10);
	return 0;
}
