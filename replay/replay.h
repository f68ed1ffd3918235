/*
 * replay/replay.h - the replay module's one header: `ioreel replay` as a
 * library (scheduler, engines, data generator, statistics, safety checks).
 *
 * Conventions: functions return 0 (or a count) on success and a negative
 * code (REEL_E_* or -errno) on failure; when they take errmsg/errlen they
 * fill it with a sentence that names the file, device or record and says
 * what to do.  Library code never prints and never exits.
 */
#ifndef IOREEL_REPLAY_H
#define IOREEL_REPLAY_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/reel.h"

#ifdef __cplusplus
extern "C" {
#endif

int cmd_replay(int argc, char **argv);

/* Latency and issue-error histograms are struct reel_hist (formats/reel.h):
 * log-linear, within 1%, zeroed to initialise. */

/* ---- data of chosen compressibility ------------------------------------ */
enum replay_data_mode {
	REPLAY_DATA_ZERO,
	REPLAY_DATA_RANDOM,
	REPLAY_DATA_RATIO,
	REPLAY_DATA_PATTERN,
};

struct replay_data_spec {
	enum replay_data_mode mode;
	double ratio;		   /* REPLAY_DATA_RATIO: target LZ4 ratio, >= 1 */
	unsigned char pattern[64]; /* REPLAY_DATA_PATTERN */
	size_t pattern_len;
	unsigned dedupe_pct; /* 0..100: share of 4 KiB pieces that repeat */
	uint64_t seed;
};

/* Parse "zero", "random", "ratio:R" (1 <= R <= 100) or "pattern:HEX". */
int replay_data_parse(const char *s, struct replay_data_spec *out, char *errmsg, size_t errlen);

/*
 * Every 4 KiB piece of a block (measured from the block's start; the last
 * piece may be shorter) starts with a 32-byte stamp in modes random and
 * ratio:R, so a reader can prove that each write landed at its offset with
 * its length.  On disk the stamp is self-checking and looks random to a
 * compressor (a hash of the fields, then the fields XORed with hashes of
 * it), so it costs the same in every block; replay_stamp_read() decodes it
 * into this struct.  magic is REPLAY_STAMP_MAGIC for a write's own piece
 * and REPLAY_STAMP_DEDUPE for a piece --dedupe made a copy of one of 64
 * shared pieces (offset then holds the shared piece's index).  Modes zero
 * and pattern write exactly what was asked (no stamp).
 */
#define REPLAY_STAMP_MAGIC 0x31504d5453455249ull  /* "IRESTMP1" */
#define REPLAY_STAMP_DEDUPE 0x31505544444c5249ull /* "IRLDDUP1" */
#define REPLAY_STAMP_PIECE 4096u
struct replay_stamp {
	uint64_t magic;
	uint64_t offset; /* byte offset of this piece on the target */
	uint32_t length; /* length of the whole write */
	uint16_t target; /* target index */
	uint16_t piece;	 /* piece index within the write */
	uint64_t seq;	 /* the write's sequence number (result record index) */
};

struct replay_datagen;
/* Create a generator (pools of random and compressible material). */
int replay_datagen_create(struct replay_datagen **out, const struct replay_data_spec *spec);
void replay_datagen_destroy(struct replay_datagen *g);
/*
 * Fill buf[0..len) for a write of len bytes at offset on target, sequence
 * number seq.  ratio:R calibrates itself with LZ4 the first time it meets a
 * length class (a few ms, then cached).  Not thread-safe.
 */
void replay_datagen_fill(struct replay_datagen *g, void *buf, size_t len, uint64_t offset,
			 uint16_t target, uint64_t seq);
/* LZ4 ratio (in/out) of buf, compressed as one block. */
double replay_lz4_ratio(const void *buf, size_t len);
/* Parse a stamp at p; returns 1 (stamp), 2 (dedupe stamp) or 0 (none). */
int replay_stamp_read(const void *p, struct replay_stamp *s);

/* ---- safety ------------------------------------------------------------ */
struct replay_safety_opts {
	int will_write;		  /* the replay writes, discards or zeroes */
	const char *destroy_name; /* --destroy-data=NAME, or NULL */
	int overwrite;		  /* --overwrite */
	/* more --destroy-data names (any of them may name PATH), or NULL */
	const char *const *destroy_names;
	size_t ndestroy;
};
/*
 * May PATH be used as a target?  Returns 0 if so; otherwise a negative
 * code and errmsg says what was found and how to proceed.  *created is set
 * when PATH does not exist (the caller creates it as a regular file).
 * Block devices: refused for writes when mounted (also any partition),
 * held by another device (dm, md), used as swap, or carrying a partition
 * table or filesystem signature (libblkid) -- the last unless destroy_name
 * equals the device's kernel name (e.g. "loop3") or the path as given.
 * Regular files: must have been created by ioreel (xattr user.ioreel) or
 * need overwrite.
 */
int replay_safety_check(const char *path, const struct replay_safety_opts *o, int *created,
			char *errmsg, size_t errlen);
/* Does NAME (a --destroy-data name) name PATH: its path as given, its
 * kernel name ("loop3") or /dev/ and that name?  1 or 0. */
int replay_safety_names_it(const char *name, const char *path);
/* Mark a file as created by ioreel (best effort; ignores filesystems
 * without user xattrs). */
void replay_safety_mark_created(int fd);

/* ---- the replay -------------------------------------------------------- */
/* Name of engine i ("libaio", "io_uring", "psync", "null"; the first is the
 * default), or NULL past the last: for the command's choices. */
const char *replay_engine_name(unsigned i);

enum replay_timing { REPLAY_TIMING_ORIGINAL, REPLAY_TIMING_AFAP };
enum replay_qd_mode { REPLAY_QD_FIXED, REPLAY_QD_ORIGINAL, REPLAY_QD_SCALED };
enum replay_order { REPLAY_ORDER_NONE, REPLAY_ORDER_STRICT, REPLAY_ORDER_DEPENDENCY };
enum replay_point { REPLAY_POINT_QUEUE, REPLAY_POINT_ISSUE };
enum replay_fit { REPLAY_FIT_FAIL, REPLAY_FIT_WRAP, REPLAY_FIT_SCALE };
/* Their names, indexed by the enums and NULL-terminated: what the command
 * takes (--timing afap) and what the result's metadata records. */
extern const char *const replay_timing_names[];
extern const char *const replay_order_names[];
extern const char *const replay_point_names[];
extern const char *const replay_fit_names[];

#define REPLAY_MAX_TARGETS 64
#define REPLAY_MAX_QD 4096
#define REPLAY_SPEED_MIN 1e-6 /* --speed range */
#define REPLAY_SPEED_MAX 1e6
/* Issue error p99 above which a timed replay counts as slipped. */
#define REPLAY_SLIP_LIMIT_NS 1000000

struct replay_map {
	int trace_dev;	  /* trace device id */
	const char *path; /* target path */
};

struct replay_progress {
	uint64_t done, total; /* I/Os completed, I/Os in the trace */
	uint64_t bytes;
	int64_t elapsed_ns;
	int64_t eta_ns;	     /* -1 unknown */
	int64_t expected_ns; /* original timing: the schedule's length
				(after --max-idle and --speed); -1 afap */
	int64_t behind_ns;   /* original timing: how late the next I/O due is */
};

struct replay_opts {
	const char *trace;	    /* input .reel */
	const char *const *targets; /* target paths, in order */
	size_t ntargets;
	const struct replay_map *maps; /* --map ID=PATH (PATH also a target) */
	size_t nmaps;
	const char *result;   /* output .reel or NULL */
	int overwrite_result; /* -o may replace any regular file */
	enum replay_timing timing;
	double speed;	     /* > 0 */
	int64_t max_idle_ns; /* > 0: gaps with nothing arriving cut to this (--max-idle) */
	enum replay_qd_mode qd_mode;
	unsigned qd;	    /* FIXED: depth */
	double qd_scale;    /* SCALED: K */
	const char *qd_str; /* as given, for the metadata */
	int qd_default;	    /* qd not given: original when the trace
			       has issue+completion times, else 32 */
	enum replay_order order;
	enum replay_point point;
	const char *engine; /* "libaio", "io_uring", "psync", "null" */
	struct replay_data_spec data;
	const char *data_str;
	enum replay_fit fit;
	int align;
	int buffered;
	int read_only;
	const char *destroy_name;	  /* --destroy-data (one name; or NULL) */
	const char *const *destroy_names; /* more names (each must name a target) */
	size_t ndestroy;
	int overwrite;
	int precondition;
	int no_rt;	 /* do not ask for SCHED_FIFO (see README) */
	unsigned window; /* read-ahead window in records (0: 4096) */
	int hipri;	 /* io_uring: polled completions (IOPOLL),
			    where every target supports polling */
	int sqpoll;	 /* io_uring: a kernel thread submits (SQPOLL) */
	int pin_cpu;	 /* nonzero: run the replaying thread on CPU `cpu` only
			    (from before time zero to the end of the replay) */
	int cpu;
	/* Time zero.  The replay first gets ready (targets open, buffers made
	 * and touched, the first window read, memory locked), then waits until
	 * this CLOCK_MONOTONIC time (reel_now_ns()) and takes it as time zero;
	 * 0: at once, when ready. */
	int64_t start_at_mono_ns;
	/* Called once when ready, from the replaying thread, just before the
	 * wait for time zero: may set *start_at_mono_ns (the multi-host
	 * replay agrees one start there).  A negative return cancels the
	 * replay with that code (errmsg is then the callback's to explain). */
	int (*ready_cb)(void *arg, int64_t *start_at_mono_ns);
	void *ready_arg;
	/* Set to nonzero (e.g. from a signal handler) to stop issuing, drain
	 * and finish the result (replay.interrupted=1). */
	volatile sig_atomic_t *stop;
	/* Called about every 250 ms from the replay loop when not NULL. */
	void (*progress)(const struct replay_progress *p, void *arg);
	void *progress_arg;
	/* When not NULL: told, as one sentence each, what the replay chose or
	 * found that the user should know (the queue depth and why, a trace cut
	 * short, preconditioning progress every 2 s).  From the calling thread. */
	void (*notice)(const char *msg, void *arg);
	void *notice_arg;
};

/* Per-op totals and latency. */
struct replay_op_stats {
	uint64_t count, bytes, errors;
	struct reel_hist lat;
};

struct replay_result {
	struct replay_op_stats op[REEL_OP__COUNT];
	struct reel_hist issue_err;    /* actual - scheduled issue, ns */
	uint64_t ios, errors, skipped; /* skipped: not replayable (read-only
					  discards, unmapped devices) */
	int64_t duration_ns, trace_duration_ns;
	int64_t idle_cut_ns; /* --max-idle: trace time cut from idle stretches
				(the schedule lasts trace_duration_ns minus it,
				divided by the speed) */
	double inflight_mean;
	unsigned inflight_max;
	double ratio_achieved; /* LZ4, sampled from written buffers; 0 none */
	uint64_t ratio_sampled_bytes;
	int interrupted;
	int realtime;	    /* ran with SCHED_FIFO */
	int first_error;    /* first I/O error seen (-errno) */
	int64_t t0_mono_ns; /* time zero, CLOCK_MONOTONIC (reel_now_ns) */
	int slipped;	    /* timing original: issue error p99 above
			       REPLAY_SLIP_LIMIT_NS -- the host, not
			       the target, set the pace */
	/* timing original: the I/Os issued later than REPLAY_SLIP_LIMIT_NS
	 * behind schedule, and the time the trace gave them and the replay
	 * took (summed over such stretches): the rate the host could not
	 * keep up with, and the rate it reached */
	uint64_t behind_ios;
	int64_t behind_sched_ns, behind_actual_ns;
	char label[128];
	char engine[16];
	char qd_desc[32];    /* "32", "original", "x2" as used */
	char qd_why[256];    /* why that depth (the default's reason) */
	int trace_cut_short; /* the trace had no trailer (a crash) */
	unsigned ntargets;
};

/*
 * Replay o->trace against the targets.  Fills *res (caller-owned; large:
 * allocate it, do not put it on a small stack).  Returns 0, or a negative
 * code with errmsg saying what went wrong and what to do.  An interrupted
 * replay returns 0 with res->interrupted set and a complete result file.
 */
int replay_run(const struct replay_opts *o, struct replay_result *res, char *errmsg, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
