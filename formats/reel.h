/*
 * formats/reel.h - the ioreel trace record, the .reel file format, importers,
 * exporters and the event joiner.  This header is the manual of formats/.
 *
 * Conventions (liburing style): functions return 0 (or a positive count) on
 * success and a negative REEL_E_* code on failure.  Library code never prints
 * and never exits; objects that can fail keep a detailed message (file, chunk
 * or line, byte offset, what to do) retrievable with *_errmsg().
 * Create/destroy pairs; destroy functions accept NULL.
 */
#ifndef IOREEL_REEL_H
#define IOREEL_REEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors: one list makes both the enum and reel_strerror() --------- */
#define REEL_LIST_ERRORS(X)                                                                        \
	X(NOMEM, "out of memory")                                                                  \
	X(IO, "input/output error")                                                                \
	X(NOTREEL, "not an ioreel file")                                                           \
	X(VERSION, "unsupported .reel version")                                                    \
	X(CHECKSUM, "checksum mismatch")                                                           \
	X(CORRUPT, "corrupt data")                                                                 \
	X(TRUNCATED, "file cut short")                                                             \
	X(PARSE, "malformed input")                                                                \
	X(FORMAT, "unknown or undetectable input format")                                          \
	X(UNSUPPORTED, "unsupported feature")                                                      \
	X(ARG, "invalid argument")                                                                 \
	X(RANGE, "value out of range")                                                             \
	X(EXISTS, "file exists")                                                                   \
	X(INTERRUPTED, "interrupted")

enum reel_err {
	REEL_OK = 0,
	REEL_E__BASE = -1000,
#define REEL_X_ENUM(name, msg) REEL_E_##name,
	REEL_LIST_ERRORS(REEL_X_ENUM)
#undef REEL_X_ENUM
	    REEL_E__END
};

/* Message for a REEL_E_* code, or strerror(-err) for a -errno value. */
const char *reel_strerror(int err);

/*
 * The one error-formatting helper: format a message into buf (len bytes,
 * always terminated; buf may be NULL) and return code, so a failure path is
 * `return reel_errf(err, errlen, REEL_E_PARSE, "%s:%lu: ...", file, line)`.
 * Messages name the file and line (or chunk, or byte offset) and say what
 * to do.
 */
int reel_errf(char *buf, size_t len, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void reel_verrf(char *buf, size_t len, const char *fmt, va_list ap);

/* ---- the record: one per I/O ------------------------------------------ */
enum reel_op {
	REEL_OP_READ = 0,
	REEL_OP_WRITE = 1,
	REEL_OP_DISCARD = 2,
	REEL_OP_FLUSH = 3,
	REEL_OP_WRITE_ZEROES = 4,
	REEL_OP__COUNT
};

enum reel_flag {
	REEL_FL_SYNC = 1u << 0,
	REEL_FL_FUA = 1u << 1,
	REEL_FL_META = 1u << 2,
	REEL_FL_PREFLUSH = 1u << 3,
	REEL_FL_READAHEAD = 1u << 4,
};

/* Which fields a record carries.  A field a source lacks is absent (its bit
 * clear, its value 0), never invented. */
enum reel_has {
	REEL_HAS_QUEUE = 1u << 0,    /* queue_ns: arrival (Q) */
	REEL_HAS_ISSUE = 1u << 1,    /* issue_ns: dispatch (D) */
	REEL_HAS_COMPLETE = 1u << 2, /* complete_ns: completion (C) */
	REEL_HAS_DEV = 1u << 3,
	REEL_HAS_PID = 1u << 4,
	REEL_HAS_COMM = 1u << 5,
	REEL_HAS_CPU = 1u << 6,
	REEL_HAS_ERROR = 1u << 7,
	REEL_HAS_FLAGS = 1u << 8,
};

/*
 * One I/O.  Times are ns relative to the trace's time zero (the header's
 * start_unix_ns when known).  In a replay result queue_ns is the scheduled
 * issue time, issue_ns the actual submission, complete_ns the completion and
 * error the status (0 or -errno); see formats/FORMAT.md.
 */
struct reel_rec {
	int64_t queue_ns;
	int64_t issue_ns;
	int64_t complete_ns;
	uint64_t offset; /* bytes from the start of the device */
	uint32_t length; /* bytes */
	uint32_t pid;
	uint32_t comm; /* interned process name: see reel_writer_intern() */
	int32_t error; /* 0 or -errno */
	uint16_t dev;  /* device id, see struct reel_device */
	uint16_t cpu;
	uint16_t has;  /* REEL_HAS_* */
	uint8_t op;    /* enum reel_op */
	uint8_t flags; /* REEL_FL_* */
};

const char *reel_op_name(int op);    /* "read", "write", ... or "?" */
int reel_op_parse(const char *name); /* enum reel_op, or -1 */
/* "sync,fua" style; returns chars written (snprintf semantics) */
int reel_flags_format(unsigned flags, char *buf, size_t len);

/* ---- header ------------------------------------------------------------ */
struct reel_device {
	uint16_t id;
	char name[64];	       /* "loop0", "sda", "259,0", "asu3", ... */
	uint32_t major, minor; /* 0 when unknown */
	uint32_t lbs, pbs;     /* logical / physical block size, 0 unknown */
	uint64_t capacity;     /* bytes, 0 unknown */
};

/* Free-form metadata: flat dotted keys ("replay.engine", "capture.lost"). */
enum reel_meta_type { REEL_META_STR, REEL_META_INT, REEL_META_DBL };
struct reel_meta {
	const char *key;
	enum reel_meta_type type;
	const char *s;
	int64_t i;
	double d;
};

/*
 * Metadata keys that one module writes and another reads: each spelled once,
 * here, and listed in FORMAT.md section 5 (a unit test checks the table).
 * X(IDENT, "key", type, writer, meaning) makes REEL_META_<IDENT>.
 */
#define REEL_META_KEYS(X)                                                                          \
	X(REPLAY_TARGETS, "replay.targets", str, "replay",                                         \
	  "targets, comma-separated, in trace-device order")                                       \
	X(REPLAY_TRACE, "replay.trace", str, "replay", "path of the replayed trace")               \
	X(REPLAY_TRACE_DURATION_NS, "replay.trace_duration_ns", int, "replay",                     \
	  "span of the replayed trace, ns")                                                        \
	X(REPLAY_ENGINE, "replay.engine", str, "replay",                                           \
	  "engine: libaio, io_uring, psync or null")                                               \
	X(REPLAY_TIMING, "replay.timing", str, "replay", "original or afap")                       \
	X(REPLAY_SPEED, "replay.speed", dbl, "replay", "speed factor of original timing")          \
	X(REPLAY_MAX_IDLE_NS, "replay.max_idle_ns", int, "replay",                                 \
	  "--max-idle: idle stretches cut to this, ns (absent: none)")                             \
	X(REPLAY_QD, "replay.qd", str, "replay",                                                   \
	  "queue depth as chosen (\"32\", \"original\", \"x2\", with the reason when defaulted)")  \
	X(REPLAY_ORDER, "replay.order", str, "replay", "none, strict or dependency")               \
	X(REPLAY_POINT, "replay.point", str, "replay",                                             \
	  "queue or issue: which trace time was replayed")                                         \
	X(REPLAY_DATA, "replay.data", str, "replay",                                               \
	  "data mode as given (random, zero, ratio:R, pattern:HEX)")                               \
	X(REPLAY_DEDUPE, "replay.dedupe", int, "replay",                                           \
	  "share of repeated 4 KiB pieces, percent")                                               \
	X(REPLAY_READ_ONLY, "replay.read_only", int, "replay",                                     \
	  "1 when writes were replayed as reads")                                                  \
	X(REPLAY_BUFFERED, "replay.buffered", int, "replay", "1 when the page cache was used")     \
	X(REPLAY_PRECONDITION, "replay.precondition", int, "replay",                               \
	  "1 when targets were filled first")                                                      \
	X(REPLAY_LABEL, "replay.label", str, "replay",                                             \
	  "short name of the run for tables and plots")                                            \
	X(REPLAY_REALTIME, "replay.realtime", int, "replay",                                       \
	  "1 when the issuing thread ran SCHED_FIFO")                                              \
	X(REPLAY_T0_MONO_NS, "replay.t0_mono_ns", int, "replay",                                   \
	  "time zero on the replaying host's CLOCK_MONOTONIC, ns")                                 \
	X(REPLAY_SCHEDULE_SLIPPED, "replay.schedule_slipped", int, "replay",                       \
	  "1 when issue error p99 exceeded 1 ms (timing original): the host set the pace")         \
	X(REPLAY_DURATION_NS, "replay.duration_ns", int, "replay", "wall time of the replay, ns")  \
	X(REPLAY_INTERRUPTED, "replay.interrupted", int, "replay",                                 \
	  "1 when stopped by a signal before the end")                                             \
	X(REPLAY_RATIO_ACHIEVED, "replay.ratio_achieved", dbl, "replay",                           \
	  "LZ4 compression ratio of the data written, measured")                                   \
	X(REPLAY_IOS, "replay.ios", int, "replay", "I/Os replayed")                                \
	X(REPLAY_ERRORS, "replay.errors", int, "replay", "I/Os that completed with an error")      \
	X(REPLAY_SKIPPED, "replay.skipped", int, "replay",                                         \
	  "trace I/Os not replayed (unmapped device, read-only)")                                  \
	X(CAPTURE_KERNEL, "capture.kernel", str, "capture", "uname release of the capturing host") \
	X(CAPTURE_HOST, "capture.host", str, "capture", "host name")                               \
	X(CAPTURE_CLOCK, "capture.clock", str, "capture", "trace clock (mono)")                    \
	X(CAPTURE_INSTANCE, "capture.instance", str, "capture", "tracefs instance used")           \
	X(CAPTURE_BUFFER_KB, "capture.buffer_kb", int, "capture", "per-CPU ring buffer size, KiB") \
	X(CAPTURE_COMMAND, "capture.command", str, "capture", "the command run under capture")     \
	X(CAPTURE_DROP_CACHES, "capture.drop_caches", int, "capture",                              \
	  "1 when caches were dropped first")                                                      \
	X(CAPTURE_DISTURBED, "capture.disturbed", str, "capture",                                  \
	  "what another program changed in the capture's tracing instance (events lost)")          \
	X(CAPTURE_DROPPED, "capture.dropped", int, "capture", "events dropped by the ring buffer") \
	X(CAPTURE_DURATION_NS, "capture.duration_ns", int, "capture", "length of the capture, ns") \
	X(CAPTURE_EVENTS, "capture.events", int, "capture", "events read")                         \
	X(CAPTURE_EXIT_SIGNAL, "capture.exit_signal", int, "capture",                              \
	  "signal that ended the command")                                                         \
	X(CAPTURE_EXIT_STATUS, "capture.exit_status", int, "capture",                              \
	  "exit status of the command")                                                            \
	X(CAPTURE_INTERRUPTED, "capture.interrupted", int, "capture",                              \
	  "1 when stopped by a signal")                                                            \
	X(CAPTURE_LOST_EVENTS, "capture.lost_events", int, "capture",                              \
	  "events lost in all (dropped + overrun + missed)")                                       \
	X(CAPTURE_MISSED, "capture.missed", int, "capture", "events the kernel reports as missed") \
	X(CAPTURE_OVERRUN, "capture.overrun", int, "capture",                                      \
	  "events overwritten in the ring buffer")                                                 \
	X(CAPTURE_PID_FILTERED, "capture.pid_filtered", int, "capture",                            \
	  "events of other processes left out")                                                    \
	X(CAPTURE_PID_TREE, "capture.pid_tree", int, "capture",                                    \
	  "1 when only the command's process tree was kept")                                       \
	X(CAPTURE_JOIN_RECORDS, "capture.join.records", int, "capture",                            \
	  "I/Os written by the joiner")                                                            \
	X(CAPTURE_JOIN_NO_ISSUE, "capture.join.no_issue", int, "capture",                          \
	  "I/Os without an issue event")                                                           \
	X(CAPTURE_JOIN_NO_COMPLETE, "capture.join.no_complete", int, "capture",                    \
	  "I/Os without a completion")                                                             \
	X(CAPTURE_JOIN_MERGED, "capture.join.merged", int, "capture",                              \
	  "bios merged into another's request")                                                    \
	X(CAPTURE_JOIN_SPLIT, "capture.join.split", int, "capture",                                \
	  "bios split by the block layer")                                                         \
	X(CAPTURE_JOIN_REMAPPED, "capture.join.remapped", int, "capture",                          \
	  "bios remapped from another device")                                                     \
	X(CAPTURE_JOIN_ORPHAN_EVENTS, "capture.join.orphan_events", int, "capture",                \
	  "issue/complete events matching no queued I/O")                                          \
	X(JOIN_NO_ISSUE, "join.no_issue", int, "import (blktrace, blkparse)",                      \
	  "I/Os without an issue event")                                                           \
	X(JOIN_NO_COMPLETE, "join.no_complete", int, "import (blktrace, blkparse)",                \
	  "I/Os without a completion")                                                             \
	X(JOIN_MERGED, "join.merged", int, "import (blktrace, blkparse)",                          \
	  "bios merged into another's request")                                                    \
	X(JOIN_SPLIT, "join.split", int, "import (blktrace, blkparse)",                            \
	  "bios split by the block layer")                                                         \
	X(JOIN_REMAPPED, "join.remapped", int, "import (blktrace, blkparse)",                      \
	  "bios remapped from another device")                                                     \
	X(JOIN_ORPHAN_EVENTS, "join.orphan_events", int, "import (blktrace, blkparse)",            \
	  "events matching no queued I/O")                                                         \
	X(BLKTRACE_VERSION, "blktrace.version", int, "import (blktrace)",                          \
	  "blktrace record version (7 or 8)")                                                      \
	X(BLKTRACE_MESSAGES, "blktrace.messages", int, "import (blktrace)",                        \
	  "message records skipped")                                                               \
	X(BLKTRACE_START_UNIX_NS, "blktrace.start_unix_ns", int, "import (blktrace)",              \
	  "wall clock of the trace start, from its notify records")                                \
	X(IMPORT_OUT_OF_ORDER, "import.out_of_order", int, "import (text formats)",                \
	  "records that arrived out of time order (sorted)")                                       \
	X(IMPORT_START_UNIX_NS, "import.start_unix_ns", int, "import (text formats)",              \
	  "wall clock of time zero, when the source gives it")                                     \
	X(MODEL_PATH, "model.path", str, "model gen", "the MODEL.json generated from")             \
	X(MODEL_SEED, "model.seed", int, "model gen", "random seed")                               \
	X(MODEL_RATE, "model.rate", dbl, "model gen", "rate factor")                               \
	X(MODEL_DURATION_NS, "model.duration_ns", int, "model gen", "duration generated, ns")      \
	X(CLUSTER_RANKS, "cluster.ranks", int, "replay/capture --mpi", "number of MPI ranks")      \
	X(CLUSTER_VERSION, "cluster.version", str, "replay/capture --mpi",                         \
	  "ioreel version every rank ran")                                                         \
	X(CLUSTER_TRACE_CHECKSUM, "cluster.trace_checksum", str, "replay --mpi",                   \
	  "FNV-1a 64 of the trace file, checked equal on every rank")                              \
	X(CLUSTER_START_SKEW_NS, "cluster.start_skew_ns", int, "replay/capture --mpi",             \
	  "spread of the ranks' measured start times on the common clock, ns")                     \
	X(CLUSTER_CLOCK_RESIDUAL_NS, "cluster.clock_residual_ns", int, "replay/capture --mpi",     \
	  "largest offset left after correction (a second measurement), ns")                       \
	X(CLUSTER_FAILED_RANK, "cluster.failed_rank", int, "replay/capture --mpi",                 \
	  "first rank that failed (absent when none did)")                                         \
	X(CLUSTER_ERROR, "cluster.error", str, "replay/capture --mpi",                             \
	  "that rank's error, naming rank and host")

#define REEL_X_META(id, key, type, writer, meaning) static const char REEL_META_##id[] = key;
REEL_META_KEYS(REEL_X_META)
#undef REEL_X_META
/* every replay.* key starts with this */
#define REEL_META_REPLAY_PREFIX "replay."
/* target.<i>.path / size / model / created: per replay target (replay) */
#define REEL_META_TARGET_FMT "target.%u.%s"
/* cluster.rank.<r>.<field> (host, start_ns, ios, ...) and cluster.dev.<i>.<field>
 * (rank, trace_dev: the merged result's device i): written by replay --mpi
 * (cluster/, whose CLUSTER_META_*_FMT spell the same), read by plot and compare */
#define REEL_META_CLUSTER_RANK_FMT "cluster.rank.%u.%s"
#define REEL_META_CLUSTER_DEV_FMT "cluster.dev.%u.%s"

#define REEL_FORMAT_VERSION 1
#define REEL_CHUNK_MAX 65536
/* Bounds of every record (FORMAT.md 3.2), checked as a chunk is decoded:
 * times in [-REEL_TIME_LIMIT, REEL_TIME_LIMIT) ns, offset + length at most
 * REEL_END_LIMIT bytes.  Differences of two times cannot overflow. */
#define REEL_TIME_LIMIT (INT64_C(1) << 62)
#define REEL_END_LIMIT (UINT64_C(1) << 63)

struct reel_header {
	uint32_t version;	   /* file's version (reader fills it) */
	int64_t start_unix_ns;	   /* wall clock of time zero; 0 when unknown */
	const char *source;	   /* "captured", "imported:msr", "replay" ... */
	const char *source_detail; /* free text: command, file names, ... */
	const struct reel_device *devices;
	size_t ndevices;
};

/* ---- writer: streaming, constant memory -------------------------------- */
struct reel_writer;

/*
 * Create PATH (or use fd when path is NULL; the writer does not close an fd
 * it did not open) and write the header frame.  flags: REEL_W_OVERWRITE to
 * replace an existing file (otherwise REEL_E_EXISTS).
 */
#define REEL_W_OVERWRITE 1u
/* REEL_W_THREAD: pack and compress each chunk on a second thread while the
 * caller adds the next one's records (one chunk in flight; the file is the
 * same): for producers that cost about as much as the writer (model gen) */
#define REEL_W_THREAD 2u
/* REEL_W_WRITEBACK: start the kernel's writeback of each REEL_WRITEBACK_BYTES
 * written (sync_file_range, not waited for), so that an fsync at the end
 * (reel_out_commit) waits for the last of them only, not for the whole
 * file: for a file written as fast as it can be (model gen), not for one
 * written beside I/O being timed (replay's results) */
#define REEL_W_WRITEBACK 4u
#define REEL_WRITEBACK_BYTES (8u << 20)
int reel_writer_open(struct reel_writer **out, const char *path, int fd,
		     const struct reel_header *h, unsigned flags);
/* Set the header's start_unix_ns: allowed until the first chunk is
 * written (the header goes out with it); REEL_E_ARG after that. */
int reel_writer_set_start(struct reel_writer *w, int64_t start_unix_ns);
/* LZ4 level for the chunks: 0 fast (capture), 9 default (compact), 12 max. */
void reel_writer_set_level(struct reel_writer *w, int level);
/* Append one record (copied).  Chunks are written as they fill. */
int reel_write(struct reel_writer *w, const struct reel_rec *r);
/* Append N records, as N reel_write calls would (the same file, errors
 * and sums; the records before a failing one are in), in fewer
 * instructions. */
int reel_write_n(struct reel_writer *w, const struct reel_rec *r, size_t n);
/* A record of a queue time, op, offset, length and device alone (has:
 * REEL_HAS_QUEUE | REEL_HAS_DEV, every other field 0) in 24 bytes, not
 * 56: `model gen`'s, whose placing thread stores them. */
struct reel_rec_q {
	int64_t queue_ns;
	uint64_t offset;
	uint32_t length;
	uint16_t dev;
	uint8_t op;
};
_Static_assert(sizeof(struct reel_rec_q) == 24, "reel_rec_q: 24 bytes");
/* The reel_rec of Q. */
static inline void reel_rec_of_q(const struct reel_rec_q *q, struct reel_rec *r)
{
	*r = (struct reel_rec){.queue_ns = q->queue_ns,
			       .offset = q->offset,
			       .length = q->length,
			       .dev = q->dev,
			       .op = q->op,
			       .has = REEL_HAS_QUEUE | REEL_HAS_DEV};
}
/* reel_write_n of the N records of Q made reel_recs (the same file,
 * errors and sums), with no copy between. */
int reel_write_q(struct reel_writer *w, const struct reel_rec_q *q, size_t n);
/* Intern a process name; returns its id (>= 0) or a negative error. */
int64_t reel_writer_intern(struct reel_writer *w, const char *name);
/* Declare a device after open (it is written with the next chunk). */
int reel_writer_add_device(struct reel_writer *w, const struct reel_device *d);
/* Metadata; set after open it lands in the trailer (the reader merges). */
int reel_writer_meta_str(struct reel_writer *w, const char *key, const char *v);
int reel_writer_meta_int(struct reel_writer *w, const char *key, int64_t v);
int reel_writer_meta_dbl(struct reel_writer *w, const char *key, double v);
/* Write the pending records as a (short) chunk now: bounds what a crash loses. */
int reel_writer_flush(struct reel_writer *w);
/* Flush, write the index/summary trailer, close and free.  Returns error. */
int reel_writer_close(struct reel_writer *w);
/* Free without a trailer (the file stays readable sequentially). */
void reel_writer_destroy(struct reel_writer *w);
const char *reel_writer_errmsg(const struct reel_writer *w);
/* The error that stopped the writer (every later call returns it), or 0. */
int reel_writer_failed(const struct reel_writer *w);

/* ---- summary (the trailer, or computed while reading) ------------------ */
struct reel_summary {
	uint64_t count;
	uint64_t ops[REEL_OP__COUNT];
	uint64_t bytes[REEL_OP__COUNT];
	int64_t first_ns, last_ns; /* min / max queue time (or issue) */
	uint64_t chunks;
};

/* ---- reader: streaming, constant memory -------------------------------- */
struct reel_reader;

#define REEL_R_SALVAGE 1u /* skip corrupt chunks, resuming at the next good one */
int reel_reader_open(struct reel_reader **out, const char *path, unsigned flags);
void reel_reader_close(struct reel_reader *r);
/* Header (valid for the reader's life).  Devices include those declared
 * later in the file once they have been read (or from the trailer). */
const struct reel_header *reel_reader_header(const struct reel_reader *r);
/*
 * Next record: returns 1 and fills *rec, 0 at the end, or a negative error
 * (reel_reader_errmsg() names the file, chunk and byte offset).
 */
int reel_read(struct reel_reader *r, struct reel_rec *rec);
/*
 * Next batch of records (at most REEL_CHUNK_MAX; in practice a block of up
 * to 1024, decoded while it stays in cache): *recs points into the reader's
 * buffer, valid until the next read call.  Returns the count (> 0), 0 at
 * the end, or a negative error.  May be mixed with reel_read().
 */
long reel_read_chunk(struct reel_reader *r, const struct reel_rec **recs);
/* A batch of records column by column (reel_read_cols): arrays of n values
 * in the reader's buffers, valid until the next read call; the fields as in
 * struct reel_rec (times 0 where absent). */
struct reel_cols {
	size_t n;
	const uint16_t *has;
	const int64_t *queue_ns, *issue_ns, *complete_ns;
	const uint64_t *offset;
	const uint32_t *length;
	const uint8_t *op;
	const uint16_t *dev;
};
/*
 * Next batch of records as columns, only the fields above: the others
 * (flags, pid, comm, cpu, error) are stepped over, not decoded, which is
 * what makes it faster than reel_read_chunk for a reader that needs only
 * the I/O's place, size and times (model fit).  Returns the count (> 0,
 * at most REEL_CHUNK_MAX), 0 at the end, or a negative error; may be mixed
 * with the other reads.
 */
long reel_read_cols(struct reel_reader *r, struct reel_cols *c);
/*
 * Whether reel_read_cols decodes the issue and completion times (IC 1, the
 * default) or, in a block whose every record has its queue time, steps
 * over them (IC 0: issue_ns and complete_ns then hold no values of the
 * batch, though the has bits say the times are there, and those times'
 * bounds are not checked), for a reader that reads a file again for its
 * other columns (model fit's later passes).
 */
void reel_reader_cols_ic(struct reel_reader *r, int ic);
/*
 * REREAD 1: the file is read again after a whole read of it (every chunk's
 * content checksum and bounds checked then), so the checksums are not
 * computed again, nor the bounds of reel_read_cols's batches, and
 * reel_reader_seen counts no ops and bytes (its records,
 * chunks and first and last times are kept); 0 (the default): both.  Set
 * after reel_reader_rewind, for a reader that reads a file again (model
 * fit's later passes).
 */
void reel_reader_reread(struct reel_reader *r, int reread);
/* Name of an interned process id, or NULL if unknown. */
const char *reel_reader_comm(const struct reel_reader *r, uint32_t id);
size_t reel_reader_ncomms(const struct reel_reader *r);
/* Metadata by key (header and trailer merged; trailer wins); NULL if none. */
const struct reel_meta *reel_reader_meta(const struct reel_reader *r, const char *key);
/* All metadata: *n set to the count. */
const struct reel_meta *reel_reader_meta_all(const struct reel_reader *r, size_t *n);
/* Trailer summary if the file has one (1), else 0 (read to the end first
 * for a computed summary with reel_reader_seen()). */
int reel_reader_summary(const struct reel_reader *r, struct reel_summary *s);
/* What has been read so far (records, chunks, ops, bytes). */
void reel_reader_seen(const struct reel_reader *r, struct reel_summary *s);
/* After the end: 1 when the file ended cleanly with its trailer, 0 when it
 * was cut short (a crash); reel_reader_errmsg() then says where it stopped. */
int reel_reader_complete(const struct reel_reader *r);
/* Number of chunks skipped by REEL_R_SALVAGE. */
uint64_t reel_reader_skipped(const struct reel_reader *r);
const char *reel_reader_errmsg(const struct reel_reader *r);
/* Rewind to the first record. */
int reel_reader_rewind(struct reel_reader *r);
/*
 * A file read in two halves, a reader each (model fit's first pass on two
 * threads): R, rewound, reads the first half of the chunks its trailer's
 * index counts, and *LATER, a second reader of the same file (by its
 * path, the same inode, size and time), the rest, from the index's offset
 * of the first of them.  R as just opened (LATER reads with the default
 * columns and checks every chunk: a first read).  An error (R as if
 * rewound, *LATER NULL) when R is not a regular file's by name, has no
 * index of 2 chunks or more, reads with REEL_R_SALVAGE, when the file
 * changed or was replaced since R opened it (R then keeps the rewind's
 * message), or the second open fails.
 * Once both have read all they read, reel_reader_halves_join proves them
 * the whole read's: R stopped after exactly its chunks at LATER's first
 * byte (R begins just after the header: the index's other entries
 * are not used), LATER after exactly its chunks at the trailer's first
 * byte, and their I/O add up to the summary's count; then 0 and R holds
 * the whole read's device table and reel_reader_seen (not the process
 * names or metadata the second half's chunks set).  Else 1: the index
 * lied, read the file whole (rewind).  Neither reads from an error on.
 */
int reel_reader_halve(struct reel_reader *r, struct reel_reader **later);
int reel_reader_halves_join(struct reel_reader *r, const struct reel_reader *later);

/* ---- the joiner: block-layer events -> one record per I/O ------------- */
/*
 * Shared by the blktrace and blkparse importers and by `ioreel capture`.
 * Events are pushed in time order; records come out (through the writer)
 * in queue-time order once complete or once they can no longer complete.
 * Merged bios stay separate records sharing their request's issue and
 * completion; a split bio stays one record completing with its last part;
 * remapped bios are recorded in the sector space of the traced device.
 */
enum reel_action {
	REEL_ACT_QUEUE = 'Q',
	REEL_ACT_BACKMERGE = 'M',
	REEL_ACT_FRONTMERGE = 'F',
	REEL_ACT_SPLIT = 'X',
	REEL_ACT_REMAP = 'A',
	REEL_ACT_GETRQ = 'G',
	REEL_ACT_INSERT = 'I',
	REEL_ACT_ISSUE = 'D',
	REEL_ACT_COMPLETE = 'C',
	REEL_ACT_REQUEUE = 'R',
};

struct reel_event {
	int action; /* enum reel_action */
	int64_t t_ns;
	uint32_t devt;	 /* (major << 20) | minor of the event's device */
	uint64_t sector; /* 512-byte sectors */
	uint32_t bytes;
	uint8_t op, flags;
	uint32_t pid;
	const char *comm; /* may be NULL */
	uint16_t cpu;
	int32_t error;
	/* REEL_ACT_REMAP: where it came from */
	uint32_t from_devt;
	uint64_t from_sector;
	/* REEL_ACT_SPLIT: sector where the second part starts */
	uint64_t split_sector;
};

struct reel_join_stats {
	uint64_t records;     /* I/Os written */
	uint64_t no_issue;    /* I/Os without an issue event */
	uint64_t no_complete; /* I/Os without a completion */
	uint64_t merged;      /* bios merged into another's request */
	uint64_t split;	      /* bios split by the block layer */
	uint64_t remapped;
	uint64_t orphan_events; /* D/C events matching no queued I/O */
};

struct reel_join;
/*
 * devts/ndevts: the traced devices (their devt) mapped to device ids
 * 0..n-1 in order; events of other devices are ignored unless remapped onto
 * one of them.  ndevts == 0: every device seen gets an id (declared on the
 * writer as "MAJ,MIN").  The writer is borrowed, not owned.
 */
int reel_join_create(struct reel_join **out, struct reel_writer *w, const uint32_t *devts,
		     size_t ndevts);
int reel_join_push(struct reel_join *j, const struct reel_event *e);
/* Emit everything still pending (I/Os lacking D or C keep those absent). */
int reel_join_finish(struct reel_join *j);
void reel_join_stats(const struct reel_join *j, struct reel_join_stats *s);
/* The joiner's counts as trace metadata: join.* for an import, capture.join.*
 * (with the record count) for a capture. */
void reel_join_write_meta(struct reel_writer *w, const struct reel_join_stats *s, int capture);
void reel_join_destroy(struct reel_join *j);

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

/* ---- importers --------------------------------------------------------- */
struct reel_import_opts {
	unsigned skip_bad;    /* count and skip malformed input */
	uint32_t lba_size;    /* SPC/UMass block size, default 512 */
	int64_t time_unit_ns; /* DiskSim time unit, default 1000000 (ms) */
};

struct reel_import_stats {
	uint64_t records;
	uint64_t bad;	/* skipped with skip_bad */
	uint64_t lines; /* lines or records read */
	uint64_t bytes_in;
	struct reel_join_stats join; /* for blktrace / blkparse */
};

/* An importer: one file formats/import_<name>.c behind this table. */
struct reel_importer {
	const char *name;     /* "blktrace", "blkparse", "msr", ... */
	const char *describe; /* one line for --help */
	/* Score how likely buf (the first len bytes of the first input) is
	 * this format: 0 no, 100 certain. */
	int (*detect)(const unsigned char *buf, size_t len, const char *path);
	/* Read all inputs into w; errmsg gets file, line and reason. */
	int (*run)(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		   struct reel_writer *w, struct reel_import_stats *st, char *errmsg,
		   size_t errlen);
};

const struct reel_importer *reel_importer_find(const char *name);
/* NULL-terminated table of all importers. */
const struct reel_importer *const *reel_importers(void);
/* Detect the format of PATH; NULL if none fits. */
const struct reel_importer *reel_importer_detect(const char *path);

/* ---- exporters --------------------------------------------------------- */
struct reel_exporter {
	const char *name; /* "fio", "csv", "blkparse" */
	const char *describe;
	int (*run)(struct reel_reader *r, FILE *out, char *errmsg, size_t errlen);
};
const struct reel_exporter *reel_exporter_find(const char *name);
const struct reel_exporter *const *reel_exporters(void);

/* ---- a trace rewritten for a replay (formats/trace_rewrite.c) ---------- */
struct reel_rewrite {
	int completed_only;  /* leave out the I/Os with no completion time */
	int64_t max_idle_ns; /* cut idle gaps (nothing in flight) to this; < 0: keep */
	unsigned copies;     /* the trace this many times, 1 ms apart (0 = 1) */
	const char *detail;  /* the new header's source_detail */
};
struct reel_rewrite_stats {
	uint64_t written; /* records written, over all copies */
	uint64_t dropped; /* I/Os of the trace left out (no completion time) */
	int64_t cut_ns;	  /* idle time cut, over all copies */
};
/* Write trace IN to a new .reel OUT (replaced: a scratch file the caller
 * owns) as HOW says.  0, or < 0 with errmsg naming the file. */
int reel_trace_rewrite(const char *in, const char *out, const struct reel_rewrite *how,
		       struct reel_rewrite_stats *st, char *errmsg, size_t errlen);
/* Re-intern rec's process name (an id of reader r) in writer w. */
int reel_rec_copy_comm(struct reel_reader *r, struct reel_writer *w, struct reel_rec *rec);

/* ---- statistics over a trace (formats/hist.c, formats/trace_stats.c) ---- */
/*
 * Log-linear histogram of non-negative integers (ns, bytes): values below
 * 256 are exact, larger ones fall in buckets 1/128 of their power of two
 * wide, so a quantile is within 1% of the true value.  Plain struct, no
 * allocation: zero it to initialise.
 */
#define REEL_HIST_SUB 128
#define REEL_HIST_BUCKETS (64 * REEL_HIST_SUB)
struct reel_hist {
	uint64_t count;
	uint64_t min, max;
	double sum;
	uint32_t b[REEL_HIST_BUCKETS];
};
void reel_hist_add(struct reel_hist *h, uint64_t v);
void reel_hist_merge(struct reel_hist *into, const struct reel_hist *from);
/* q in [0,1]; 0 when empty.  Returns the bucket's midpoint (exact below 256). */
uint64_t reel_hist_quantile(const struct reel_hist *h, double q);
double reel_hist_mean(const struct reel_hist *h);
/* The values bucket b (0 <= b < REEL_HIST_BUCKETS) holds: [*lo, *hi]. */
void reel_hist_bucket_range(size_t b, uint64_t *lo, uint64_t *hi);

#define REEL_TOP_SIZES 8
struct reel_stats {
	struct reel_summary sum;   /* counts and bytes per op */
	int64_t first_ns, last_ns; /* first and last time seen (queue, else issue) */
	int64_t end_ns;		   /* last completion (or last time) */
	uint64_t with_issue, with_complete, errors;
	struct reel_hist size; /* request sizes, bytes */
	uint32_t top_size[REEL_TOP_SIZES];
	uint64_t top_count[REEL_TOP_SIZES];
	size_t ntop;
	struct reel_hist lat[REEL_OP__COUNT + 1]; /* issue->complete ns, per op; [COUNT]=all */
	struct reel_hist qlat;			  /* queue->complete ns (all ops) */
	struct reel_hist qdelay;     /* queue->issue ns: in a replay result, the issue error */
	double peak_iops, peak_mbps; /* best 1-second window (by queue time) */
	uint64_t inflight_max;	     /* where issue and completion are known */
	double
	    inflight_mean; /* time-weighted over the whole span (first issue to last completion) */
	double inflight_busy_mean; /* time-weighted over the time with >= 1 in flight */
};
/* Read r to its end (from where it is) and fill *s (allocate it: it is
 * large).  Returns 0 or the reader's error. */
int reel_stats_compute(struct reel_reader *r, struct reel_stats *s);

/* ---- statistics of repeated runs (formats/statistics.c) ---------------- */
/* What `ioreel compare` and `ioreel suite` share to tell a difference from
 * noise.  Pure functions: no allocation except reel_holm's scratch. */
/* Regularized incomplete beta I_x(a, b) (continued fraction, 1e-12). */
double reel_betai(double a, double b, double x);
/* Student's t: CDF P(T <= t) with df > 0 degrees of freedom, and its
 * inverse (p in (0,1)); NAN outside the domain. */
double reel_t_cdf(double t, double df);
double reel_t_quantile(double p, double df);

struct reel_sample_stats {
	unsigned n;
	double mean, sd, cv; /* cv = sd / |mean| (0 when mean is 0) */
	double ci_lo, ci_hi; /* 95% CI of the mean (t, n-1 df); = mean when n < 2 */
	double min, max;
};
/* Mean, sample standard deviation and 95% CI of x[0..n). */
void reel_summarize(const double *x, unsigned n, struct reel_sample_stats *s);

/*
 * Welch's unequal-variance t test of b against a.  With log_scale (and
 * every value > 0, at most 128 of each) the test runs on the logarithms:
 * rates and latencies differ by factors, and their spread grows with their
 * size, so the logs have nearly equal variances and the difference is a
 * ratio; diff is then log(b/a) and pct = 100 (exp(diff) - 1) with its CI.
 * Otherwise diff is mean(b) - mean(a) and pct is it as % of mean(a).
 * rel_res: measurement resolution as a fraction of the value (0.01 for 1%
 * histogram buckets); each sample variance is floored at that
 * quantisation's (a bucket either way: variance w^2/3), so identical
 * quantised values do not make a zero-variance "certain" difference.
 * With fewer than 2 values on a side: p = 1 (nothing can be said).
 */
struct reel_welch {
	double t, df, p;	       /* two-sided p (1 when undefined) */
	double diff, diff_lo, diff_hi; /* and its 95% CI */
	double pct, pct_lo, pct_hi;    /* the difference as % of a */
	int log_scale;		       /* the test ran on logarithms */
};
void reel_welch_test(const double *a, unsigned na, const double *b, unsigned nb, double rel_res,
		     int log_scale, struct reel_welch *w);
/* Holm's step-down method: reject[i] = 1 for the p-values significant at
 * family-wise level alpha (all 0 when out of memory: conservative). */
void reel_holm(const double *p, size_t n, double alpha, int *reject);
/*
 * The JSON members (no braces, no leading or trailing comma) that `ioreel
 * compare --json` and suite's summary.json write for a sample and a test:
 * numbers as reel_json_num with `digits`; compact: "k":v,"k":v, else
 * "k": v, "k": v.  reel_json_summary: "n", "mean", "sd", "ci95": [lo, hi];
 * reel_json_interval: "key": [lo, hi]; reel_json_welch: "t", "df", "p".
 */
void reel_json_summary(FILE *f, const struct reel_sample_stats *s, int digits, int compact);
void reel_json_interval(FILE *f, const char *key, double lo, double hi, int digits, int compact);
void reel_json_welch(FILE *f, const struct reel_welch *w, int digits, int compact);

/* ---- small helpers shared by modules ----------------------------------- */
/* Monotonic clock in ns. */
int64_t reel_now_ns(void);
/* Write s to f as a JSON string (quoted, escaped; NULL as ""): for --json. */
void reel_json_str(FILE *f, const char *s);
/* Write v to f as a JSON number with `digits` significant digits (%.*g),
 * or null when it is not finite (JSON has no NaN or infinity). */
void reel_json_num(FILE *f, double v, int digits);
/* Write text from a file (a trace's source, device names, comm, metadata)
 * to a terminal: control bytes (0x00-0x1f, 0x7f) come out as \xNN, so a
 * crafted trace cannot send escape sequences.  NULL writes nothing. */
void reel_fputs_safe(FILE *f, const char *s);
/* Parse "4k", "1M", "512" into bytes; returns 0 or REEL_E_ARG. */
int reel_parse_size(const char *s, uint64_t *out);

/* Greatest common divisor (gcd(0, b) == b). */
static inline uint64_t reel_gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* ---- the one growable array --------------------------------------------- */
/*
 * REEL_VEC_RESERVE(v, n, cap, first): make room in the array v (n elements
 * used, cap allocated) for one more, doubling it (first elements the first
 * time).  Returns 0, or REEL_E_NOMEM with v, n and cap unchanged.  Any
 * `T *v; size_t n, cap;` is such an array; the caller frees v.
 */
#define REEL_VEC_RESERVE(v, n, cap, first)                                                         \
	reel_vec_reserve_(&(v), &(cap), (n), sizeof(*(v)), (first))
static inline int reel_vec_reserve_(void *vp, size_t *cap, size_t n, size_t size, size_t first)
{
	void *v, *nv;
	if (n < *cap)
		return 0;
	size_t nc = *cap ? 2 * *cap : first;
	memcpy(&v, vp, sizeof(v));
	nv = realloc(v, nc * size);
	if (!nv)
		return REEL_E_NOMEM;
	memcpy(vp, &nv, sizeof(nv));
	*cap = nc;
	return 0;
}

/*
 * reel_malloc_big(n): a large array that will be written through, freed
 * with reel_free_big(p, n) (the same n).  Below 2 MiB it is malloc(n)
 * (and free(p)); from 2 MiB up a mapping of its own, so that freed it goes
 * back to the kernel at once (fit's passes free arrays another pass's
 * would sit on in a heap).  Small pages, not transparent huge ones: on
 * the VMs this is measured on a huge page first written costs 25 ms (the
 * host backs the 2 MiB block anew: a 2 MiB block freed is given back to
 * it), a small one 2.5 us, 4 times less a byte; the 10M fit's sys time
 * 0.38 -> 0.21 s (model/HISTORY.md "Fit's arrays on small pages").
 * reel_calloc_big: the same, zeroed.  NULL when out of memory.
 * reel_free_big(NULL, n) does nothing.
 */
void *reel_malloc_big(size_t n);
/*
 * reel_malloc_big_populated(n): reel_malloc_big's array, for one written
 * whole at once (a sort's buffer): from 2 MiB up its pages are made with
 * the mapping (MAP_POPULATE), not a page fault each as it is first
 * written (a fault traps to the hypervisor on the VMs measured).  Freed
 * with reel_free_big(p, n).
 */
void *reel_malloc_big_populated(size_t n);
void *reel_calloc_big(size_t n, size_t size);
void reel_free_big(void *p, size_t n);
/*
 * reel_map_huge(len, &advised): the mapping under reel_malloc_big, for a
 * caller that keeps it itself (munmap(p, len)): LEN bytes (a multiple of
 * the page size) from a 2 MiB bound, zeroed, advised MADV_HUGEPAGE before
 * it is made writable.  The order matters under mlockall(MCL_FUTURE),
 * which populates a writable mapping at mmap(), in 4 KiB pages since it
 * is not advised yet (the replay's buffers, replay/setup.c): mapped
 * PROT_NONE it is not populated, and mprotect() populates it once
 * advised.  *advised (may be NULL): 1 when the advice was taken.  NULL
 * when out of memory.
 */
void *reel_map_huge(size_t len, int *advised);
/*
 * reel_thread_lower(by): the calling thread's nice value raised by BY (at
 * most to 19): a helper thread that feeds or drains one doing the work
 * that bounds the wall (gen's arrivals and writer threads, which share two
 * cores with its placing thread) gives that one the core when both are
 * runnable, and runs when it waits or on the other core.  Only this
 * thread; nice is relative to the others of its autogroup.  0 or -errno.
 */
int reel_thread_lower(int by);

/*
 * REEL_RESIZE(v, k): v reallocated to k elements (for arrays side by side
 * that share one capacity, which the caller keeps).  Returns 0, or
 * REEL_E_NOMEM with v unchanged.
 */
#define REEL_RESIZE(v, k) reel_resize_(&(v), (k), sizeof(*(v)))
static inline int reel_resize_(void *vp, size_t k, size_t size)
{
	void *v, *nv;
	memcpy(&v, vp, sizeof(v));
	nv = realloc(v, k * size);
	if (!nv)
		return REEL_E_NOMEM;
	memcpy(vp, &nv, sizeof(nv));
	return 0;
}

/* ---- the one heap: a binary min-heap without callbacks ------------------ */
/*
 * REEL_HEAP(name, type, before) defines `struct name` (v, n, cap) and
 * static inline name_push(h, x) (0 or REEL_E_NOMEM), name_pop(h) (the
 * least element; the heap must not be empty), name_top(h) and
 * name_free(h).  before(a, b) is an expression (a macro or inline function
 * over two `const type *`) true when *a comes out first.  Zero the struct
 * to initialise it; the caller owns it, name_free releases the array.
 * Inline, so the comparison is compiled into the hot loops that use it.
 */
#define REEL_HEAP(name, type, before)                                                              \
	struct name {                                                                              \
		type *v;                                                                           \
		size_t n, cap;                                                                     \
	};                                                                                         \
	static inline __attribute__((unused)) int name##_push(struct name *h, type x)              \
	{                                                                                          \
		if (h->n == h->cap) {                                                              \
			size_t nc = h->cap ? 2 * h->cap : 64;                                      \
			type *nv = (type *)realloc(h->v, nc * sizeof(type));                       \
			if (!nv)                                                                   \
				return REEL_E_NOMEM;                                               \
			h->v = nv;                                                                 \
			h->cap = nc;                                                               \
		}                                                                                  \
		size_t i = h->n++;                                                                 \
		while (i > 0) {                                                                    \
			size_t p = (i - 1) / 2;                                                    \
			if (!(before(&x, &h->v[p])))                                               \
				break;                                                             \
			h->v[i] = h->v[p];                                                         \
			i = p;                                                                     \
		}                                                                                  \
		h->v[i] = x;                                                                       \
		return 0;                                                                          \
	}                                                                                          \
	static inline __attribute__((unused)) type name##_pop(struct name *h)                      \
	{                                                                                          \
		type top = h->v[0], x = h->v[--h->n];                                              \
		size_t i = 0, n = h->n;                                                            \
		for (;;) {                                                                         \
			size_t c = 2 * i + 1;                                                      \
			if (c >= n)                                                                \
				break;                                                             \
			if (c + 1 < n && (before(&h->v[c + 1], &h->v[c])))                         \
				c++;                                                               \
			if (!(before(&h->v[c], &x)))                                               \
				break;                                                             \
			h->v[i] = h->v[c];                                                         \
			i = c;                                                                     \
		}                                                                                  \
		if (n)                                                                             \
			h->v[i] = x;                                                               \
		return top;                                                                        \
	}                                                                                          \
	static inline __attribute__((unused)) type *name##_top(struct name *h)                     \
	{                                                                                          \
		return h->n ? &h->v[0] : NULL;                                                     \
	}                                                                                          \
	static inline __attribute__((unused)) void name##_free(struct name *h)                     \
	{                                                                                          \
		free(h->v);                                                                        \
		h->v = NULL;                                                                       \
		h->n = h->cap = 0;                                                                 \
	}

/* ---- option tables: one per command (formats/cmd_opt.c) ---------------- */
/*
 * Each option is declared once: its name, argument, help and destination
 * (git's parse-options).  reel_opt_parse() builds getopt_long's arrays from
 * the table, range-checks every number, and prints --help from it.
 */
enum reel_opt_kind {
	REEL_OPT_END = 0,
	REEL_OPT_GROUP,	 /* a heading line in the usage: help is the text */
	REEL_OPT_FLAG,	 /* int *dest = value (1 when value is 0) */
	REEL_OPT_STR,	 /* const char **dest = the argument (last one wins) */
	REEL_OPT_INT,	 /* int *dest, within [min, max] */
	REEL_OPT_UINT,	 /* unsigned *dest, within [min, max] */
	REEL_OPT_U64,	 /* uint64_t *dest, within [min, max] */
	REEL_OPT_SIZE,	 /* uint64_t *dest: "4k", "1M"..., within [min, max] */
	REEL_OPT_DBL,	 /* double *dest: finite, within [min, max] */
	REEL_OPT_CHOICE, /* int *dest = index of the argument in choices[] */
	REEL_OPT_CALL,	 /* fn(arg, dest, err, errlen): 0, or < 0 with err set */
};

struct reel_opt {
	enum reel_opt_kind kind;
	int short_name;	  /* 'o', or 0 */
	const char *name; /* long name without "--", or NULL */
	const char *arg;  /* argument's name in the usage ("N", "FILE") */
	const char *help; /* may hold '\n' for more lines */
	void *dest;
	double min, max;	    /* numeric kinds */
	int value;		    /* FLAG: the value stored */
	int numeric;		    /* CALL: the argument is number-like (tests feed junk) */
	const char *const *choices; /* CHOICE: NULL-terminated */
	int (*fn)(const char *arg, void *dest, char *err, size_t errlen);
};

#define OPT_GROUP(text)                                                                            \
	{                                                                                          \
		.kind = REEL_OPT_GROUP, .help = (text)                                             \
	}
#define OPT_FLAG(s, l, d, h)                                                                       \
	{                                                                                          \
		.kind = REEL_OPT_FLAG, .short_name = (s), .name = (l), .dest = (d), .help = (h)    \
	}
#define OPT_SET(s, l, d, v, h)                                                                     \
	{                                                                                          \
		.kind = REEL_OPT_FLAG, .short_name = (s), .name = (l), .dest = (d), .value = (v),  \
		.help = (h)                                                                        \
	}
#define OPT_STR(s, l, a, d, h)                                                                     \
	{                                                                                          \
		.kind = REEL_OPT_STR, .short_name = (s), .name = (l), .arg = (a), .dest = (d),     \
		.help = (h)                                                                        \
	}
#define OPT_NUM_(k, s, l, a, d, lo, hi, h)                                                         \
	{                                                                                          \
		.kind = (k), .short_name = (s), .name = (l), .arg = (a), .dest = (d), .min = (lo), \
		.max = (hi), .help = (h)                                                           \
	}
#define OPT_INT(s, l, a, d, lo, hi, h) OPT_NUM_(REEL_OPT_INT, s, l, a, d, lo, hi, h)
#define OPT_UINT(s, l, a, d, lo, hi, h) OPT_NUM_(REEL_OPT_UINT, s, l, a, d, lo, hi, h)
#define OPT_U64(s, l, a, d, lo, hi, h) OPT_NUM_(REEL_OPT_U64, s, l, a, d, lo, hi, h)
#define OPT_SIZE(s, l, a, d, lo, hi, h) OPT_NUM_(REEL_OPT_SIZE, s, l, a, d, lo, hi, h)
#define OPT_DBL(s, l, a, d, lo, hi, h) OPT_NUM_(REEL_OPT_DBL, s, l, a, d, lo, hi, h)
#define OPT_CHOICE(s, l, a, d, c, h)                                                               \
	{                                                                                          \
		.kind = REEL_OPT_CHOICE, .short_name = (s), .name = (l), .arg = (a), .dest = (d),  \
		.choices = (c), .help = (h)                                                        \
	}
#define OPT_CALL(s, l, a, f, d, h)                                                                 \
	{                                                                                          \
		.kind = REEL_OPT_CALL, .short_name = (s), .name = (l), .arg = (a), .fn = (f),      \
		.dest = (d), .help = (h)                                                           \
	}
#define OPT_CALLNUM(s, l, a, f, d, h)                                                              \
	{                                                                                          \
		.kind = REEL_OPT_CALL, .short_name = (s), .name = (l), .arg = (a), .fn = (f),      \
		.dest = (d), .numeric = 1, .help = (h)                                             \
	}
#define OPT_END                                                                                    \
	{                                                                                          \
		.kind = REEL_OPT_END                                                               \
	}

/* What the usage says besides the options. */
struct reel_cmd_doc {
	const char *name;   /* "replay", "model fit" */
	const char *usage;  /* after "usage: ioreel NAME " */
	const char *about;  /* a paragraph, or NULL */
	const char *footer; /* examples, notes (ends with '\n'), or NULL */
	int in_order;	    /* stop at the first operand (for `-- CMD ...`) */
};

#define REEL_OPT_EXIT_OK (-1)	 /* --help was printed: exit 0 */
#define REEL_OPT_EXIT_USAGE (-2) /* an error was printed: exit 2 */
/*
 * Parse argv (argv[0] is the command) against opts.  Returns the index of
 * the first operand, or REEL_OPT_EXIT_OK / REEL_OPT_EXIT_USAGE after
 * printing the help or the error (naming the option, what was wrong and
 * the accepted range).  --options-table (not in the help) prints one line
 * per option, "--name kind min max", for the tests.
 */
int reel_opt_parse(const struct reel_cmd_doc *doc, const struct reel_opt *opts, int argc,
		   char **argv);
/* Apply one option to its destination (for callers that parse by hand). */
int reel_opt_apply(const struct reel_opt *o, const char *arg, char *err, size_t errlen);
void reel_opt_usage(FILE *f, const struct reel_cmd_doc *doc, const struct reel_opt *opts);
/* Exit status for a reel_opt_parse() result that is not an index. */
static inline int reel_opt_exit(int rc) { return rc == REEL_OPT_EXIT_OK ? 0 : 2; }

/* ---- the output policy: every file a command writes (formats/output.c) - */
/*
 * Regular files only (or "-" for stdout where allowed): never a device,
 * FIFO, socket or symbolic link, never the same file as an input.  An
 * existing file is replaced only with REEL_OUT_OVERWRITE or when ours()
 * says it is ioreel's own output of the same kind.  Data goes to a
 * temporary name in the same folder (O_EXCL | O_NOFOLLOW) and
 * reel_out_commit() renames it into place: a failure or a signal never
 * leaves a half file under the final name nor deletes what was there.
 * The caller owns the struct; it must stay put (not be copied) while open.
 */
struct reel_out {
	FILE *f;   /* write here (NULL with REEL_OUT_FD_ONLY) */
	int fd;	   /* or here */
	int dirfd; /* AT_FDCWD, or the folder from reel_outdir_open() */
	int is_stdout;
	char path[4096]; /* the final name, relative to dirfd */
	char tmp[4200];	 /* the temporary name ("" once committed or aborted) */
};
#define REEL_OUT_OVERWRITE 1u /* an existing regular file may be replaced */
#define REEL_OUT_STDOUT 2u    /* "-" means standard output */
#define REEL_OUT_FD_ONLY 4u   /* no FILE: write o->fd (e.g. to a reel_writer) */
/* Returns 1 when the existing file at path is ours to replace. */
typedef int (*reel_out_ours_fn)(const char *path);
/* 1 when the file at path begins with mark (a text output's own opening,
 * for an ours() of a JSON file): 0 otherwise or when it cannot be read. */
int reel_out_starts_with(const char *path, const char *mark);
/* 1 when the file at path is a .reel whose header's source is kind or
 * kind:DETAIL ("replay", "imported", "synthetic"): an ours() of a .reel. */
int reel_out_reel_source(const char *path, const char *kind);
int reel_out_open(struct reel_out *o, int dirfd, const char *path, unsigned flags,
		  reel_out_ours_fn ours, const char *const *inputs, size_t ninputs, char *err,
		  size_t errlen);
/* Flush, check for write errors (a full disk), close and rename into place.
 * On failure the temporary is removed and the old file left as it was. */
int reel_out_commit(struct reel_out *o, char *err, size_t errlen);
/* Close and remove the temporary; the final name is untouched.  NULL ok. */
void reel_out_abort(struct reel_out *o);
/* From a signal handler: remove every temporary still open. */
void reel_out_signal_cleanup(void);
/* SIGINT, SIGTERM, SIGHUP (unless ignored: nohup): remove every temporary
 * still open, then die of the signal.  For commands that write with reel_out. */
void reel_out_catch_signals(void);
/* Open (creating when absent) an output folder: refuses a symbolic link,
 * a non-folder, and, as root, a folder owned by another user.  Returns a
 * directory fd (the caller closes it) or a negative error. */
int reel_outdir_open(const char *dir, char *err, size_t errlen);
/* The same for a sub-folder inside an output folder. */
int reel_outdir_sub(int dirfd, const char *name, char *err, size_t errlen);
/* 1 when a and b name the same existing file (after symlinks). */
int reel_same_file(const char *a, const char *b);

/* ---- commands (formats/cmd_*.c: the only files here that print) -------- */
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);

#ifdef __cplusplus
}
#endif
/* AVX2 paths may run: the processor has AVX2 and reel_codec_plain (tests,
 * reel_internal.h) is off; the codec's and gen's SIMD paths ask it. */
int reel_has_avx2(void);

#endif
