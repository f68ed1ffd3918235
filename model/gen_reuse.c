/*
 * gen_reuse: the generator's re-use helpers that look back over a
 * device's history (the ring of its last GEN_HIST offsets and ops).
 */
#include "model/gen_internal.h"

/*
 * Whether a write among the device's last GEN_HIST I/O (the ring) starts
 * inside [OFF, OFF + LEN).  A read that falls back to a re-use (no fresh
 * room for it: its band full) goes back to an earlier read's offset; at
 * its own length the stretch there holds, now and then, blocks written
 * before or since, and it reads after a write, which the trace's reads
 * (on a device whose reads never re-use: chromium's) never do.
 */
int gen_written(const struct devstate *s, uint64_t off, uint64_t len)
{
	/* the ring's I/O are its slots 0 .. N - 1 (all once it wrapped); those
	 * not reads through their bitmap, a word at a time, not the 4096 slots
	 * one by one (11.8% of chromium x6036's instructions, 32 K a call) */
	uint64_t n = s->hn < GEN_HIST ? s->hn : GEN_HIST;
	for (uint64_t w = 0; w * 64 < n; w++) {
		uint64_t v = ~s->ropm[REEL_OP_READ][w];
		if (n - w * 64 < 64)
			v &= (1ull << (n - w * 64)) - 1;
		for (; v; v &= v - 1) {
			uint64_t a = s->ring[w * 64 + (uint64_t)__builtin_ctzll(v)];
			if (a >= off && a - off < len)
				return 1;
		}
	}
	return 0;
}
