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
	uint64_t n = s->hn < GEN_HIST ? s->hn : GEN_HIST;
	for (uint64_t j = 1; j <= n; j++) {
		uint64_t i = (s->hn - j) % GEN_HIST;
		if (s->rop[i] != REEL_OP_READ && s->ring[i] >= off && s->ring[i] - off < len)
			return 1;
	}
	return 0;
}
