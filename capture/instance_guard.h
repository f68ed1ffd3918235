/*
 * capture/instance_guard.h - internal to capture/: who owns a tracing
 * instance, and whether someone else changed it.
 *
 * Ownership is a lock, not a process name: a capture holds an flock on
 * CAPTURE_LOCK_DIR/<instance>.lock for its whole life, taken before the
 * instance is created and dropped after it is removed.  An instance is
 * stale only when its lock can be taken (its owner is gone, however the
 * binary was named); an instance without a lock file (an older ioreel) is
 * stale only when its process no longer exists.  For older ioreel, which
 * judged by the process name, the owner names itself "ioreel-NAME" when
 * its own name does not start with "ioreel" (a symbolic link, a copy).
 *
 * The watch: what the capture set in its instance (tracing on, each event
 * enabled with its filter, the clock, the buffer size) is read back while it
 * runs; anything changed by another program is counted, described and put
 * back, and the capture reports it as loss.
 */
#ifndef IOREEL_CAPTURE_INSTANCE_GUARD_H
#define IOREEL_CAPTURE_INSTANCE_GUARD_H
#include <stddef.h>

#include <tracefs/tracefs.h>

#define CAPTURE_LOCK_DIR "/run/ioreel"
#define GUARD_MAX_EVENTS 16

struct capture_guard {
	struct tracefs_instance *inst; /* not owned */
	int lock_fd;		       /* -1 when no lock is held */
	char lock_path[128];
	int nev;
	struct {
		const char *system, *name; /* static strings */
		char filter[256];	   /* as read back after setting ("none": none) */
	} ev[GUARD_MAX_EVENTS];
	char buffer_kb[32]; /* as read back after setting */
	unsigned disturbed; /* changes found (each put back) */
	char what[512];	    /* what was found, first ones first */
};

/* Take the lock of instance name (blocking up to a few seconds while a
 * cleaner holds it).  Returns 0 or a negative error with a message. */
int guard_lock(struct capture_guard *g, const char *name, char *err, size_t errlen);
/* Write note (where the recording goes) into the lock file, for the
 * cleaner of a killed capture to report. */
void guard_note(struct capture_guard *g, const char *note);
/* Remember event system:name (enabled in g->inst) and its filter. */
void guard_watch_event(struct capture_guard *g, const char *system, const char *name);
/* Remember the buffer size now set. */
void guard_watch_buffer(struct capture_guard *g);
/* Compare the instance with what was set: tracing_on only (full == 0), or
 * everything.  Returns the number of changes found now (each put back). */
int guard_check(struct capture_guard *g, int tracing_should_be_on, int full);
/* Remove the lock file and drop the lock.  Accepts a guard never locked. */
void guard_release(struct capture_guard *g);

#endif
