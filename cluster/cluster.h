/*
 * cluster/cluster.h - the cluster module's one header: `ioreel replay --mpi`
 * and `ioreel capture --mpi` under mpirun (Open MPI), as IOR and mdtest do:
 * no protocol of our own.  Built only into build/ioreel-mpi (-DIOREEL_MPI,
 * mpicc); the plain build does not compile this module.
 *
 * Every rank runs the ordinary replay or capture library (replay_run(),
 * capture_open() ...) on its own devices; MPI carries the clock
 * measurement, the agreed start, the stop and abort messages, the per-rank
 * results (histograms as raw struct reel_hist, merged exactly) and the
 * per-rank .reel files to rank 0, which merges them into one .reel whose
 * devices are named "host:device" and whose times are on the common clock
 * (rank 0's CLOCK_MONOTONIC, ranks' offsets measured NTP style).
 *
 * Library functions (clock.c, comm.c, merge.c) never print and never exit;
 * they return 0 or a negative code and fill err.  Only cmd_*.c talk to people.
 */
#ifndef IOREEL_CLUSTER_H
#define IOREEL_CLUSTER_H
#include <stddef.h>
#include <stdint.h>

#include "formats/reel.h"

/* `ioreel replay --mpi ...` and `ioreel capture --mpi ...` (ioreel.c sends
 * them here when argv holds --mpi).  They call MPI_Init and MPI_Finalize. */
int cmd_cluster_replay(int argc, char **argv);
int cmd_cluster_capture(int argc, char **argv);

/*
 * Metadata keys written by the cluster module, in the shape of
 * REEL_META_KEYS (formats/reel.h) so they can move there and into
 * FORMAT.md section 5.  Per-rank and per-device keys are formats.
 */
/* cluster.* keys: REEL_META_CLUSTER_* in formats/reel.h (REEL_META_KEYS). */
/* cluster.rank.<r>.* and cluster.dev.<i>.*: REEL_META_CLUSTER_RANK_FMT and
 * REEL_META_CLUSTER_DEV_FMT in formats/reel.h. */

/* ---- the world (comm.c) ------------------------------------------------ */
#define CLUSTER_HOST_MAX 64
struct cluster_world {
	int rank, size;
	char host[CLUSTER_HOST_MAX];
	int64_t shift_ns; /* --clock-offset-test: added to this rank's clock */
};

/* MPI_Init_thread (FUNNELED: only the main thread calls MPI) and fill w. */
int cluster_init(struct cluster_world *w, int *argc, char ***argv, char *err, size_t errlen);
void cluster_finalize(void);
/* Abort the whole job (after an error no rank can recover from). */
void cluster_abort(int code);

/* This rank's clock: CLOCK_MONOTONIC plus the test shift, ns. */
int64_t cluster_now(const struct cluster_world *w);

/*
 * Wait for a request without spinning a core (Open MPI's blocking calls
 * busy-poll, which starves the other ranks on an oversubscribed host):
 * MPI_Test, then sleep 200 us.  Returns 0 or a negative code.
 */
int cluster_wait(void *mpi_request);
/* A barrier that sleeps while it waits (MPI_Ibarrier + cluster_wait). */
int cluster_barrier(void);

/*
 * Every rank: compare s (the version, a checksum ...) with every other
 * rank's.  Returns 0 when all equal, else REEL_E_VERSION with err naming
 * the first rank (and its host) that differs from rank 0, and what.
 */
int cluster_check_same(const struct cluster_world *w, const char *what, const char *s, char *err,
		       size_t errlen);

/* Gather n bytes from every rank into all (size * n bytes) on rank 0 only
 * (all may be NULL elsewhere). */
int cluster_gather(const struct cluster_world *w, const void *mine, size_t n, void *all);

/* Send the file PATH (NULL or missing: an empty file) to rank 0, which
 * writes it to dest[rank] (a path per rank; NULL on other ranks).  Every
 * rank calls it; *got[r] (rank 0) is set to 1 when rank r had a file. */
int cluster_collect_files(const struct cluster_world *w, const char *path, char *const *dest,
			  int *got, char *err, size_t errlen);

/* FNV-1a 64 of a file's bytes, as 16 hex digits. */
int cluster_file_checksum(const char *path, char out[17], char *err, size_t errlen);

/* ---- clocks (clock.c) --------------------------------------------------- */
struct cluster_clock {
	int64_t offset_ns;   /* this rank's clock minus rank 0's */
	int64_t rtt_ns;	     /* the smallest round trip seen */
	int64_t residual_ns; /* offset measured again after correction */
};

/*
 * Measure every rank's offset to rank 0: `rounds` ping-pongs per rank, the
 * one with the smallest round trip kept (NTP's filter).  Then measures again
 * with the offsets applied: residual_ns is what is left.  Collective.
 */
int cluster_clock_sync(const struct cluster_world *w, int rounds, struct cluster_clock *c);
/* This rank's clock on the common clock (rank 0's). */
static inline int64_t cluster_common_now(const struct cluster_world *w,
					 const struct cluster_clock *c)
{
	return cluster_now(w) - c->offset_ns;
}
/* Rank 0 chooses the start, `delay_ns` ahead, on the common clock; every
 * rank receives it.  Collective. */
int64_t cluster_agree_start(const struct cluster_world *w, const struct cluster_clock *c,
			    int64_t delay_ns);
/* Sleep, then spin the last 200 us, until the common clock reaches t. */
void cluster_sleep_until(const struct cluster_world *w, const struct cluster_clock *c, int64_t t);

/* ---- merging per-rank .reel files (merge.c) ----------------------------- */
struct cluster_part {
	const char *path; /* a rank's .reel, or NULL when the rank wrote none */
	int rank;
	const char *host;
	/* added to the record's times to put them on the merged file's clock */
	int64_t shift_ns;
	/* replay results: the scheduled time (queue_ns) stays unshifted, so
	 * the issue error shows each rank's late start */
	int keep_queue;
	/* trace device behind each of this file's devices (-1 unknown) */
	const int *trace_dev;
	size_t ntrace_dev;
};

struct cluster_merge_opts {
	const char *out;
	const char *source; /* "replay" or "captured" */
	const char *source_detail;
	int64_t start_unix_ns;
	int by_issue; /* order by issue time (replay), else queue */
	/* metadata copied from the first readable part unless the key is here */
	const char *const *skip_keys;
	size_t nskip;
	/* prefixes copied (e.g. "replay.", "capture."); NULL-terminated */
	const char *const *copy_prefixes;
};

struct cluster_merge_stats {
	uint64_t records;
	uint64_t per_part[64];
	unsigned ndevices;
	int incomplete; /* a part ended without its trailer */
};

/*
 * Merge parts (time-ordered each) into o->out: devices "host:name" (made
 * unique with "#rank" if two ranks on one host name the same device),
 * records k-way merged by time with shifted times, per-device metadata
 * cluster.dev.<i>.rank / trace_dev and target.<i>.* carried over.  The
 * writer is returned open (*wout) so the caller adds its metadata and
 * closes it.  Returns 0 or a negative code with err set.
 */
int cluster_merge(const struct cluster_part *parts, size_t nparts,
		  const struct cluster_merge_opts *o, struct reel_writer **wout,
		  struct cluster_merge_stats *st, char *err, size_t errlen);

/* ---- shared by the two commands (cmd_common.c; they print) ------------- */
#include <stdio.h>
/* reel_opt_parse() on every rank; only rank 0 prints help and errors. */
int cl_parse(const struct cluster_world *w, const struct reel_cmd_doc *doc,
	     const struct reel_opt *opts, int argc, char **argv);
/* --clock-offset-test RANK:NS (or NS for this rank, mpirun's MPMD form) */
struct cl_offset {
	int set, rank;
	int64_t ns;
};
int cl_parse_offset(const char *arg, void *dest, char *err, size_t errlen);
void cl_apply_offset(struct cluster_world *w, const struct cl_offset *o);
/* The version every rank must share (with the result layout's size). */
void cl_version(char *buf, size_t len);
/* A scratch directory $TMPDIR/ioreel-mpi-RANK-XXXXXX; removal takes only
 * the rank<N>.reel and from<N>.reel files made in it. */
int cl_scratch(char *dir, size_t len, int rank);
void cl_scratch_remove(const char *dir);
void cl_json_hist(FILE *f, const struct reel_hist *h);
void cl_meta_rank_int(struct reel_writer *w, int rank, const char *field, int64_t v);
void cl_meta_rank_str(struct reel_writer *w, int rank, const char *field, const char *v);

#endif
