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
	/* whether any slot holds one: looked at only in the runs of slots
	 * whose write bounds meet the stretch (chromium x6036's reads looked
	 * at all 4,096 slots, 8% of its placing thread), and in the run being
	 * filled (its bounds are those of its new slots alone); in a run, the
	 * slots not reads through the ops' bitmap, a word at a time */
	_Static_assert(64 % GEN_WRUN == 0, "GEN_WRUN: runs within a word");
	uint64_t n = s->hn < GEN_HIST ? s->hn : GEN_HIST, fill = s->hn % GEN_HIST / GEN_WRUN;
	for (uint64_t r = 0; r * GEN_WRUN < n; r++) {
		if (r != fill && (s->whi[r] < off || (s->wlo[r] >= off && s->wlo[r] - off >= len)))
			continue;
		uint64_t i0 = r * GEN_WRUN, e = i0 + GEN_WRUN < n ? GEN_WRUN : n - i0;
		uint64_t v = ~s->ropm[REEL_OP_READ][i0 / 64] >> (i0 % 64);
		if (e < 64)
			v &= (1ull << e) - 1;
		for (; v; v &= v - 1) {
			uint64_t a = s->ring[i0 + (uint64_t)__builtin_ctzll(v)];
			if (a >= off && a - off < len)
				return 1;
		}
	}
	return 0;
}
