/*
 * cluster/cmd_common.c - what `replay --mpi` and `capture --mpi` share:
 * option parsing on every rank with one voice (rank 0's), the test clock
 * shift, the version string, scratch directories, JSON histograms and the
 * per-rank metadata.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/cluster.h"
#include "replay/replay.h"

#ifndef IOREEL_VERSION
#define IOREEL_VERSION "0.1"
#endif

int cl_parse(const struct cluster_world *w, const struct reel_cmd_doc *doc,
	     const struct reel_opt *opts, int argc, char **argv)
{
	int saved[2] = {-1, -1};
	if (w->rank) { /* one voice: only rank 0 prints usage and errors */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		fflush(stdout);
		fflush(stderr);
		saved[0] = dup(1);
		saved[1] = dup(2);
		dup2(null, 1);
		dup2(null, 2);
		close(null);
	}
	int i = reel_opt_parse(doc, opts, argc, argv);
	if (w->rank) {
		fflush(stdout);
		fflush(stderr);
		dup2(saved[0], 1);
		dup2(saved[1], 2);
		close(saved[0]);
		close(saved[1]);
	}
	return i;
}

int cl_parse_offset(const char *arg, void *dest, char *err, size_t errlen)
{
	struct cl_offset *o = dest;
	char *end;
	long long a = strtoll(arg, &end, 10);
	if (end != arg && *end == ':') {
		const char *ns = end + 1;
		long long b = strtoll(ns, &end, 10);
		if (end == ns || *end || a < 0 || a > 65535 || b < -3600000000000LL ||
		    b > 3600000000000LL)
			goto bad;
		o->set = 1;
		o->rank = (int)a;
		o->ns = b;
		return 0;
	}
	if (end == arg || *end || a < -3600000000000LL || a > 3600000000000LL)
		goto bad;
	o->set = 1;
	o->rank = -1; /* this rank (mpirun's MPMD form: -np 1 ... : -np 3 ...) */
	o->ns = a;
	return 0;
bad:
	return reel_errf(err, errlen, REEL_E_ARG,
			 "--clock-offset-test '%s': give RANK:NS or NS, |NS| <= 3600e9", arg);
}

void cl_apply_offset(struct cluster_world *w, const struct cl_offset *o)
{
	if (o->set && (o->rank < 0 || o->rank == w->rank))
		w->shift_ns = o->ns;
}

void cl_version(char *buf, size_t len)
{
	/* the struct sizes catch two builds whose results cannot be merged */
	snprintf(buf, len, "%s (result %zu, hist %zu)", IOREEL_VERSION,
		 sizeof(struct replay_result), sizeof(struct reel_hist));
}

int cl_scratch(char *dir, size_t len, int rank)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, len, "%s/ioreel-mpi-%d-XXXXXX", tmp && *tmp ? tmp : "/tmp", rank);
	return mkdtemp(dir) ? 0 : -errno;
}

void cl_scratch_remove(const char *dir)
{
	size_t n = strlen(dir);
	if (!dir[0] || n > 4000)
		return;
	/* only files made here: rank<N>.reel and from<N>.reel */
	for (int r = 0; r < 4096; r++) {
		char p[4200];
		int gone = 0;
		snprintf(p, sizeof(p), "%s/rank%d.reel", dir, r);
		gone += unlink(p) == 0;
		snprintf(p, sizeof(p), "%s/from%d.reel", dir, r);
		gone += unlink(p) == 0;
		if (!gone && r > 64)
			break;
	}
	rmdir(dir);
}

static const double qs[] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
static const char *const qnames[] = {"p50", "p90", "p99", "p99.9", "p99.99", "max"};

void cl_json_hist(FILE *f, const struct reel_hist *h)
{
	fprintf(f, "{\"count\": %llu, \"mean\": %.0f", (unsigned long long)h->count,
		reel_hist_mean(h));
	for (int i = 0; i < 6; i++)
		fprintf(f, ", \"%s\": %lld", qnames[i], (long long)reel_hist_quantile(h, qs[i]));
	fprintf(f, "}");
}

void cl_meta_rank_int(struct reel_writer *w, int rank, const char *field, int64_t v)
{
	char k[96];
	snprintf(k, sizeof(k), REEL_META_CLUSTER_RANK_FMT, (unsigned)rank, field);
	reel_writer_meta_int(w, k, v);
}

void cl_meta_rank_str(struct reel_writer *w, int rank, const char *field, const char *v)
{
	char k[96];
	snprintf(k, sizeof(k), REEL_META_CLUSTER_RANK_FMT, (unsigned)rank, field);
	reel_writer_meta_str(w, k, v);
}
