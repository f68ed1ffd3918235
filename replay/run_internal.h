/*
 * replay/run_internal.h - the state of one replay_run() (internal to
 * replay/), shared by the three files that make a replay:
 *
 *   setup.c     the first pass over the trace, the targets, the engine and
 *               the buffers (everything before the first I/O)
 *   result.c    the result file: its header, its metadata, its closing
 *   schedule.c  the window, the issuing loop and the completions, and
 *               replay_run() itself, which calls the other two in turn
 *
 * replay_run() owns the struct run and everything it points to; run_destroy()
 * releases it all.
 */
#ifndef IOREEL_REPLAY_RUN_INTERNAL_H
#define IOREEL_REPLAY_RUN_INTERNAL_H
#include <stdint.h>
#include <stdlib.h>

#include "formats/reel.h"
#include "replay/engine_internal.h"
#include "replay/replay.h"

#define RING 65536u	  /* result ring: I/Os issued but not yet written */
#define SPIN_NS 40000	  /* spin before an issue: start value, then adapts */
#define SPIN_MAX_NS 50000 /* more would hit RT throttling at high rates */
#define DEFAULT_WINDOW 4096u
#define MAX_WINDOW (1u << 20)
#define MAX_DEVS 65536
#define ARENA_MAX (256u << 20) /* slot buffers made ahead, at most (bytes) */
#define HUGE_SZ (2u << 20)     /* a huge page: buffers are aligned to it */

struct target {
	const char *path;
	int fd;
	int is_blk;
	int created;
	uint64_t size;
	uint32_t lbs, pbs;
	char name[64];
	char model[128];
	uint64_t need; /* bytes the trace needs (highest end offset) */
};

/* A trace record waiting to be issued. */
struct pend {
	int64_t sched;	/* ns from replay start (timing original) */
	int64_t orig_q; /* original queue time (dependency) */
	int64_t orig_d; /* original issue time where the record has both, else INT64_MIN */
	uint64_t off;
	uint32_t len;
	uint32_t limit; /* original in-flight count (qd original/xK) */
	uint16_t tgt;
	uint8_t op, flags;
};

/* An I/O in flight. */
struct slot {
	struct replay_io io;
	uint64_t rseq; /* index in the result ring */
	int64_t issue_abs;
	int64_t orig_c; /* original completion time, INT64_MAX if none */
	size_t cap;	/* buffer capacity */
	int fixed;	/* buffer is the arena's slice `fixed`; -1: its own */
};

/* A result record waiting in the ring for its completion. */
struct rent {
	struct reel_rec rec;
	int done;
};

/* Times with a payload, least time first: original completions (the
 * original queue depth) and (original completion, rseq) for dependencies. */
struct time_ent {
	int64_t k;
	uint64_t v;
};
#define TIME_ENT_BEFORE(a, b) ((a)->k < (b)->k)
REEL_HEAP(time_heap, struct time_ent, TIME_ENT_BEFORE)

struct run {
	struct replay_opts opts;     /* the caller's, default queue depth resolved */
	const struct replay_opts *o; /* &opts */
	struct replay_result *res;
	char *err;
	size_t errlen;
	struct reel_reader *rd;
	struct reel_writer *w;
	int null_fd;	     /* /dev/null under the writer when no -o, else -1 */
	struct reel_out out; /* -o through the output policy (tmp[0]: open) */
	int64_t flushed_at;  /* when the result last went to disk */
	struct target tg[REPLAY_MAX_TARGETS];
	unsigned ntg;
	int32_t devmap[MAX_DEVS]; /* trace dev id -> target, -1 unmapped */
	const struct replay_engine_ops *ops;
	struct replay_engine *eng;
	struct replay_datagen *gen;
	unsigned depth;

	/* first pass */
	uint64_t total;
	uint32_t max_len; /* longest I/O */
	int64_t first_t, last_t;
	int64_t idle_prev, idle_cut; /* --max-idle: last arrival seen, time cut so far */
	unsigned orig_max_inflight;
	int all_issue, all_complete, all_queue;
	uint64_t n_complete; /* records with a completion time */
	/* --qd original: the original's in-flight maximum per time bucket */
	uint16_t *qd_prof;
	size_t qd_nb;
	int64_t qd_bucket; /* bucket width, ns */

	/* reading */
	const struct reel_rec *chunk;
	long chunk_n, chunk_i;
	int eof;
	struct time_heap qd_heap; /* original completions, for the original qd */

	/* window */
	struct pend *win;
	unsigned wcap, whead, wn;
	struct time_heap dep; /* (original completion, rseq) of I/Os not done */
	int64_t *dep_c;	      /* original completion per window entry */

	struct slot *slots;
	void *arena;	  /* the slots' buffers, huge pages where possible */
	size_t arena_len; /* its mapping's length */
	int arena_huge;	  /* 2: MAP_HUGETLB, 1: transparent huge pages, 0: none */
	int registered;	  /* the engine took the arena's slices (io.fixed) */
	uint32_t *freel;
	unsigned nfree;
	int prepared; /* slot prepared for the window head, or -1 */

	struct rent *ring;
	uint64_t rhead, rnext; /* [rhead, rnext) issued, not yet written */

	int64_t t0;
	unsigned batch;	    /* I/Os the engine holds back (afap batches) */
	int64_t spin, late; /* spin time before an issue; recent wake-up lateness */
	unsigned inflight;
	double inflight_area;
	int64_t inflight_t;
	uint64_t writes;
	double sample_in, sample_out;
	uint64_t done_ios, done_bytes;
	int64_t last_complete;
	/* the stretch now behind schedule (issue error over the slip limit):
	 * its first and last scheduled and actual issue times, its I/Os */
	int64_t behind_s0, behind_a0, behind_s1, behind_a1;
	uint64_t behind_n;
};

/* The replay point of a record: its queue (Q) or issue (D) time. */
static inline int64_t point_of(const struct run *r, const struct reel_rec *x)
{
	if (r->o->point == REPLAY_POINT_ISSUE)
		return (x->has & REEL_HAS_ISSUE) ? x->issue_ns : x->queue_ns;
	return (x->has & REEL_HAS_QUEUE) ? x->queue_ns : x->issue_ns;
}

static inline int64_t queue_of(const struct reel_rec *x)
{
	return (x->has & REEL_HAS_QUEUE) ? x->queue_ns : x->issue_ns;
}

static inline int is_data_op(int op)
{
	return op == REEL_OP_READ || op == REEL_OP_WRITE || op == REEL_OP_DISCARD ||
	       op == REEL_OP_WRITE_ZEROES;
}

/* ---- setup.c ----------------------------------------------------------- */
/* Allocate and initialise the state for a replay of o (copied). */
int run_create(struct run **out, const struct replay_opts *o, struct replay_result *res,
	       char *errmsg, size_t errlen);
/* Everything before the first I/O: the engine, the first pass, the queue
 * depth, the targets (opened, sized, checked), the data generator, the
 * buffers and the label; preconditioning when asked. */
int run_setup(struct run *r);
/* Release everything r holds, and r.  Accepts NULL. */
void run_destroy(struct run *r);
/* An I/O buffer of at least len bytes (its size in *cap), 2 MiB-aligned
 * transparent huge pages when len is large; iobuf_free() releases it. */
void *iobuf_alloc(size_t len, size_t *cap);
void iobuf_free(void *p, size_t cap);
/* Original in-flight count at x's point (earlier records still open). */
int orig_inflight(struct run *r, const struct reel_rec *x, unsigned *out);

/* ---- result.c ---------------------------------------------------------- */
/* Before anything else: claim -o through the output policy (a temporary
 * beside it), so a refused name costs nothing. */
int result_reserve(struct run *r);
/* After results were written: to disk at least once a second. */
int result_tick(struct run *r);
/* Open the result (-o, or /dev/null) and write its opening metadata; on
 * failure nothing is left open. */
int result_open(struct run *r);
/* After schedule_run() returned rc: write the closing metadata and close
 * the result.  Returns rc, or the close error when rc is 0. */
int result_close(struct run *r, int rc);

/* ---- schedule.c -------------------------------------------------------- */
/* The replay itself: issue, wait, complete; fills r->res. */
int schedule_run(struct run *r);

#endif
