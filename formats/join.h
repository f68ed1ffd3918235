/*
 * formats/join.h - extras of the block-event joiner (reel_join_* in reel.h)
 * shared by the blktrace / blkparse importers and `ioreel capture`.
 * (Candidates for reel.h; kept here so reel.h stays owned by its author.)
 */
#ifndef IOREEL_JOIN_H
#define IOREEL_JOIN_H

#include "formats/reel.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * With ndevts == 0 the joiner declares every device it writes records for,
 * named "MAJ,MIN"; this gives devt a better name ("sda") instead.  Call it
 * before the first record of that device is written.  name is copied.
 */
int reel_join_name_device(struct reel_join *j, uint32_t devt, const char *name);

/*
 * Tuning: an I/O still incomplete `window_ns` of trace time after it was
 * queued, or the oldest one when more than `cap` I/Os are pending, is
 * written without its missing fields (and counted in no_issue /
 * no_complete).  Defaults: 30 s and 1Mi I/Os.  0 keeps a value unchanged.
 */
void reel_join_limits(struct reel_join *j, int64_t window_ns, size_t cap);

/*
 * Parse a blkparse / tracefs "rwbs" string ("WS", "FWFS", "R", "D", "FN",
 * "FF", "RA", "WM", "WZ") into enum reel_op and REEL_FL_* flags.  bytes is
 * the event's length: an empty write or "N" carrying a preflush is a
 * flush.  Returns 0, or REEL_E_PARSE for a string that is not rwbs.
 */
int reel_rwbs_parse(const char *rwbs, size_t len, uint32_t bytes, uint8_t *op, uint8_t *flags);

/* reel_event.sector of an event whose source does not give it (blkparse
 * prints no sector for data-less Q, G and D): matched as its own key, and
 * recorded as offset 0. */
#define REEL_SECTOR_UNKNOWN UINT64_MAX

/* devt helpers: (major << 20) | minor, the kernel's internal dev_t. */
static inline uint32_t reel_devt(uint32_t major, uint32_t minor)
{
	return (major << 20) | (minor & 0xfffff);
}
static inline uint32_t reel_devt_major(uint32_t devt) { return devt >> 20; }
static inline uint32_t reel_devt_minor(uint32_t devt) { return devt & 0xfffff; }

#ifdef __cplusplus
}
#endif
#endif
