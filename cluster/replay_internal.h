/*
 * cluster/replay_internal.h - what `replay --mpi`'s command (cmd_replay.c)
 * and rank 0's report (replay_report.c) share; not used outside cluster/.
 */
#ifndef IOREEL_CLUSTER_REPLAY_INTERNAL_H
#define IOREEL_CLUSTER_REPLAY_INTERNAL_H

#include "cluster/cluster.h"
#include "replay/replay.h"

#define MAX_MAPS 256
#define MAX_LIST 64

struct list {
	char *v[MAX_LIST];
	size_t n;
};

struct rmap {
	int rank, dev;
	const char *path;
};

struct maps {
	struct rmap v[MAX_MAPS];
	size_t n;
};

struct qd {
	int set;
	enum replay_qd_mode mode;
	unsigned depth;
	double scale;
	const char *str;
};

struct crep {
	struct list targets, per_rank;
	struct maps maps;
	const char *out, *json, *engine, *data, *destroy;
	int timing, order, point, fit, align, buffered, read_only, overwrite, no_rt, mpi, quiet;
	double speed, delay;
	unsigned dedupe, window, rounds;
	struct qd qd;
	struct cl_offset shift;
};

/* One rank's account, gathered to rank 0 (fixed layout: same binary). */
struct rank_info {
	int rc, interrupted, sent_abort, ran, ntargets;
	char host[CLUSTER_HOST_MAX];
	char err[512];
	char trace[256];
	char checksum[17];
	char targets[512];
	int trace_dev[REPLAY_MAX_TARGETS];
	int64_t offset_ns, rtt_ns, residual_ns, start_ns;
};

/* ---- rank 0: the merged result, the JSON and the table ----------------- */
struct summary {
	const struct crep *c;
	const char *trace;
	const char *version;
	struct rank_info *ri;
	struct replay_result *res; /* size entries */
	int size;
	struct replay_result agg;
	int64_t span_ns, skew_ns, residual_ns;
	int failed; /* first failed rank or -1 */
	int interrupted;
	uint64_t records;
};

/* Merge the ranks' results into s->c->out, write the JSON and print the
 * table; returns the command's exit status. */
int crep_report(struct summary *s, char *const *paths, const int *got, int64_t start_unix);

#endif
