/*
 * capture/capture.h - the capture module's one header: record block I/O
 * through tracefs (libtracefs + libtraceevent) in a private tracing instance
 * "instances/ioreel-<pid>", never the global tracer, owned through a lock
 * held for the capture's life (/run/ioreel/ioreel-<pid>.lock).
 *
 * The library reads the per-CPU raw ring buffers (trace_pipe_raw) in a thread
 * of its own into a queue in memory (capture/page_reader.h), parses the
 * block tracepoints with libtraceevent from the kernel's own event formats,
 * merges the CPUs into one time-ordered stream of struct reel_event and hands
 * each event to a callback (normally reel_join_push()).  It never prints and
 * never exits; only capture/cmd_capture.c talks to people.
 */
#ifndef IOREEL_CAPTURE_H
#define IOREEL_CAPTURE_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "formats/reel.h"

/* ---- devices (sysfs) ---------------------------------------------------- */
struct capture_device {
	struct reel_device info; /* name, major/minor, lbs, pbs, capacity */
	uint32_t devt;		 /* kernel form: (major << 20) | minor */
	int partition;		 /* 1 when a partition of disk_devt */
	uint32_t disk_devt;	 /* the whole disk (== devt for a disk) */
	uint64_t start_sector;	 /* partition start, 512-byte sectors */
};

/*
 * Describe the block device at PATH ("/dev/loop0", "loop0", "/dev/vda1") from
 * /sys/class/block.  Returns 0, or a negative error with a message in err.
 */
int capture_device_lookup(const char *path, struct capture_device *d, char *err, size_t errlen);
/*
 * Every whole disk with a non-zero size (/sys/block), in name order.  *out is
 * malloc'ed (caller frees).  Returns the count or a negative error.
 */
long capture_device_all(struct capture_device **out);
/*
 * Devices whose events must reach user space to follow I/O on d: d, its
 * whole disk and the devices below it (sysfs "slaves", recursively, for dm).
 * Appends to devts (at most max), returns the new count.
 */
size_t capture_device_related(const struct capture_device *d, uint32_t *devts, size_t n,
			      size_t max);

/* ---- the tracing session ------------------------------------------------ */
/*
 * A partition recorded in its own sector space.  The kernel reports a
 * partition's bios on the whole disk (after a block_bio_remap from the
 * partition); events on `disk` inside [start, start + nsect) are rewritten to
 * `part` with partition-relative sectors, and that remap is dropped.
 */
struct capture_partmap {
	uint32_t disk, part;
	uint64_t start, nsect; /* 512-byte sectors */
};

struct capture_opts {
	/* Kernel devts whose events are kept (a filter in the kernel); 0 = all. */
	const uint32_t *devts;
	size_t ndevts;
	unsigned buffer_kb; /* per-CPU ring buffer, KiB; 0 = 8192 */
	/* ring-buffer sub-buffer ("page") size in KiB where the kernel lets
	 * it be set (6.8+); 0 = 64, 1 = leave the kernel's (one page) */
	unsigned subbuf_kb;
	/* Keep only bios queued by this process and its descendants (followed
	 * through sched_process_fork); 0 = everyone.  Completion-side events
	 * are kept: the joiner drops those matching no kept bio. */
	uint32_t pid_tree;
	const char *instance;		     /* instance name; NULL = "ioreel-<pid>" */
	const struct capture_partmap *parts; /* copied */
	size_t nparts;
};

struct capture_stats {
	uint64_t events;     /* events handed to the callback */
	uint64_t filtered;   /* bios dropped by pid_tree */
	uint64_t pages;	     /* ring-buffer pages read */
	uint64_t overrun;    /* per_cpu/cpuN/stats: overrun + commit overrun */
	uint64_t dropped;    /* per_cpu/cpuN/stats: dropped events */
	uint64_t missed;     /* events the page headers say were missed */
	uint64_t lost;	     /* overrun + dropped + missed */
	uint64_t bad;	     /* malformed pages or events skipped */
	uint64_t queue_full; /* reads put off because the page queue was full
			      * (the parser behind): the kernel's buffers then
			      * fill, and what they drop is counted above */
	uint64_t queue_peak; /* the page queue's largest size, bytes */
	uint64_t disturbed;  /* changes another program made to the instance
			      * (tracing turned off, events disabled...):
			      * events were lost, how many is unknown */
	int ncpus;
};

typedef int (*capture_event_fn)(void *ctx, const struct reel_event *e);

struct capture;

/*
 * Create the private instance, size its buffers, select the mono clock,
 * enable the block events present on this kernel (with the device filter)
 * and open the per-CPU raw buffers.  Tracing is still off.  On failure the
 * instance is removed and err says what to do.
 */
int capture_open(struct capture **out, const struct capture_opts *o, char *err, size_t errlen);
/* Turn tracing on; time zero of the trace is now.  Returns 0 or -errno. */
int capture_start(struct capture *c);
/* CLOCK_REALTIME (ns) of time zero, for the header. */
int64_t capture_start_unix_ns(const struct capture *c);
/* CLOCK_MONOTONIC (ns) of time zero: event times are relative to it. */
int64_t capture_start_mono_ns(const struct capture *c);
/*
 * Parse what the reader thread has queued (up to a few MiB of pages per
 * call) and hand fn the events old enough that no CPU can still produce an
 * earlier one, in time order.  final != 0 (after capture_stop): everything
 * read, to the end.  Returns the number of events handed, or a negative
 * error (fn's own negative return is passed up).
 */
long capture_poll(struct capture *c, int final, capture_event_fn fn, void *ctx);
/* Wait up to timeout_ns for pages to parse (at once when some are queued). */
void capture_wait(struct capture *c, int64_t timeout_ns);
/* Turn tracing off and read the buffers to the end (for a final poll). */
int capture_stop(struct capture *c);
/*
 * While tracing runs, capture_poll() checks the instance (tracing_on every
 * 50 ms; each event, its filter, the clock and the buffer size each second,
 * and capture_stop() once more): a change made by another program is put
 * back, counted in capture_stats.disturbed and described here ("" when
 * none; "tracing was turned off; event block_rq_issue was disabled").
 */
const char *capture_disturbance(const struct capture *c);
/* Leave a note (where the recording goes) beside the instance's lock, for
 * whoever removes the instance after a kill -9. */
void capture_set_note(struct capture *c, const char *note);
/* Counts so far; the lost-event counters are read from the instance. */
void capture_stats(struct capture *c, struct capture_stats *s);
/* Close the buffers and remove the instance.  Accepts NULL. */
void capture_close(struct capture *c);
const char *capture_instance_name(const struct capture *c);

/*
 * An offline session (tests, fuzzing): no tracefs.  The event formats are
 * the texts of events/SYSTEM/NAME/format (formats[i] of systems[i]); raw
 * pages are handed in with capture_feed(), events come out of
 * capture_poll() as from a live session (time zero 0).  o may be NULL.
 */
int capture_open_offline(struct capture **out, const char *const *systems,
			 const char *const *formats, size_t n, int ncpus,
			 const struct capture_opts *o, char *err, size_t errlen);
/*
 * Parse one raw ring-buffer page of CPU cpu, as trace_pipe_raw gives it (the
 * page is copied).  Malformed pages and events are skipped and counted in
 * capture_stats.bad.  Returns 0, or a negative error (-ENOMEM, -EINVAL).
 */
int capture_feed(struct capture *c, int cpu, const void *page, size_t len);

/*
 * Fork cmd (execvp) held on a pipe until tracing runs: the child waits for
 * one byte on the pipe, whose write end is returned in *gate (write a byte,
 * then close it, to let the command go; close it alone to cancel).  env:
 * NULL or a NULL-terminated list of "NAME=VALUE" set in the child.  who
 * prefixes the child's message when exec fails (exit 127).  Returns the
 * pid or -1 (errno set).
 */
pid_t capture_spawn(char **cmd, char *const *env, const char *who, int *gate);

/*
 * Remove instances "ioreel-<pid>" whose owner is gone (a killed capture):
 * judged by the lock its capture held for its life (capture/
 * instance_guard.h), never by a process name; an instance whose owner is
 * alive is never touched.  notes (may be NULL) gets "NAME (NOTE)" for each,
 * NOTE being what its capture left (where its recording is).  Returns how
 * many were removed.
 */
int capture_remove_stale(char *notes, size_t len);

/*
 * The op and REEL_FL_* flags of a tracefs "rwbs" field (len bytes, not
 * necessarily NUL-terminated) of an event of `bytes` bytes: reel_rwbs_parse()
 * plus the tracefs spelling of write-zeroes, "N" with data (blk_fill_rwbs()
 * writes 'N' for every op it has no letter for).  Returns 0 or < 0.
 */
int capture_rwbs(const char *rwbs, size_t len, uint32_t bytes, uint8_t *op, uint8_t *flags);

int cmd_capture(int argc, char **argv);

#endif
