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
static int written_in(const struct devstate *s, uint64_t lo, uint64_t hi, uint64_t off,
		      uint64_t len)
{
	while (hi > lo) { /* newest first, 32 slots at a time */
		uint64_t a = hi - lo > 32 ? hi - 32 : lo;
		int any = 0;
		for (uint64_t i = a; i < hi; i++)
			any |= (s->rop[i] != REEL_OP_READ) & (s->ring[i] >= off) &
			       (s->ring[i] - off < len);
		if (any)
			return 1;
		hi = a;
	}
	return 0;
}

int gen_written(const struct devstate *s, uint64_t off, uint64_t len)
{
	/* whether any slot holds one, looked at newest first as before, but
	 * in runs of slots without a branch each (the slot by slot walk's
	 * branches were 6.5% of chromium x6036's placing thread): the slots
	 * below the next one, then (the ring full) those from it up */
	uint64_t h = s->hn % GEN_HIST;
	return written_in(s, 0, h, off, len) ||
	       (s->hn >= GEN_HIST && written_in(s, h, GEN_HIST, off, len));
}
