/*
 * cluster/replay_report.c - rank 0's part of `replay --mpi`: the ranks'
 * results aggregated (histograms merged exactly), their result files merged
 * into one .reel on the common clock, the JSON summary and the table.
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/replay_internal.h"

static void aggregate(struct summary *s)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, slo = INT64_MAX, shi = INT64_MIN;
	memset(&s->agg, 0, sizeof(s->agg));
	s->failed = -1;
	s->interrupted = 0;
	s->residual_ns = 0;
	for (int r = 0; r < s->size; r++) {
		const struct rank_info *ri = &s->ri[r];
		const struct replay_result *x = &s->res[r];
		int64_t res_abs = ri->residual_ns < 0 ? -ri->residual_ns : ri->residual_ns;
		if (res_abs > s->residual_ns)
			s->residual_ns = res_abs;
		if ((ri->rc < 0 || ri->sent_abort) && s->failed < 0)
			s->failed = r;
		s->interrupted |= ri->interrupted || ri->rc < 0;
		if (!ri->ran || ri->rc < 0 || ri->start_ns == INT64_MIN)
			continue;
		for (int op = 0; op < REEL_OP__COUNT; op++) {
			s->agg.op[op].count += x->op[op].count;
			s->agg.op[op].bytes += x->op[op].bytes;
			s->agg.op[op].errors += x->op[op].errors;
			reel_hist_merge(&s->agg.op[op].lat, &x->op[op].lat);
		}
		reel_hist_merge(&s->agg.issue_err, &x->issue_err);
		s->agg.ios += x->ios;
		s->agg.errors += x->errors;
		lo = ri->start_ns < lo ? ri->start_ns : lo;
		hi = ri->start_ns + x->duration_ns > hi ? ri->start_ns + x->duration_ns : hi;
		slo = ri->start_ns < slo ? ri->start_ns : slo;
		shi = ri->start_ns > shi ? ri->start_ns : shi;
	}
	s->span_ns = hi > lo ? hi - lo : 0;
	s->skew_ns = shi >= slo ? shi - slo : 0;
}

static void json_ops(FILE *f, const struct replay_result *r, double secs, const char *ind)
{
	int first = 1;
	fprintf(f, "{");
	for (int op = 0; op < REEL_OP__COUNT; op++) {
		const struct replay_op_stats *x = &r->op[op];
		if (!x->count)
			continue;
		fprintf(f,
			"%s\n%s  \"%s\": {\"count\": %llu, \"bytes\": %llu, \"errors\": %llu, "
			"\"iops\": %.1f, \"mb_per_s\": %.3f, \"latency_ns\": ",
			first ? "" : ",", ind, reel_op_name(op), (unsigned long long)x->count,
			(unsigned long long)x->bytes, (unsigned long long)x->errors,
			secs > 0 ? x->count / secs : 0.0, secs > 0 ? x->bytes / secs / 1e6 : 0.0);
		cl_json_hist(f, &x->lat);
		fprintf(f, "}");
		first = 0;
	}
	fprintf(f, "\n%s}", ind);
}

static void json_rank(FILE *f, const struct summary *s, int r)
{
	const struct rank_info *ri = &s->ri[r];
	const struct replay_result *x = &s->res[r];
	int ok = ri->ran && ri->rc == 0;
	fprintf(f, "%s\n    {\"rank\": %d, \"host\": ", r ? "," : "", r);
	reel_json_str(f, ri->host);
	fprintf(f, ", \"trace\": ");
	reel_json_str(f, ri->trace);
	fprintf(f, ", \"trace_checksum\": \"%s\", \"targets\": ", ri->checksum);
	reel_json_str(f, ri->targets);
	fprintf(f, ",\n     \"trace_devices\": [");
	for (int t = 0; t < ri->ntargets; t++)
		fprintf(f, "%s%d", t ? ", " : "", ri->trace_dev[t]);
	fprintf(f,
		"], \"clock_offset_ns\": %lld, \"rtt_ns\": %lld, \"residual_ns\": %lld, "
		"\"start_ns\": ",
		(long long)ri->offset_ns, (long long)ri->rtt_ns, (long long)ri->residual_ns);
	if (ri->start_ns == INT64_MIN)
		fprintf(f, "null");
	else
		fprintf(f, "%lld", (long long)ri->start_ns);
	fprintf(f,
		",\n     \"ios\": %llu, \"errors\": %llu, \"duration_ns\": %lld, "
		"\"interrupted\": %d, \"error\": ",
		(unsigned long long)(ok ? x->ios : 0), (unsigned long long)(ok ? x->errors : 0),
		(long long)(ok ? x->duration_ns : 0), ri->interrupted);
	if (ri->err[0])
		reel_json_str(f, ri->err);
	else
		fprintf(f, "null");
	if (ok) {
		fprintf(f, ",\n     \"ops\": ");
		json_ops(f, x, x->duration_ns / 1e9, "     ");
		fprintf(f, ",\n     \"issue_error_ns\": ");
		cl_json_hist(f, &x->issue_err);
	}
	fprintf(f, "}");
}

static int write_json(const struct summary *s, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f)
		return -errno;
	double secs = s->span_ns / 1e9;
	fprintf(f, "{\n  \"trace\": ");
	reel_json_str(f, s->trace);
	fprintf(f, ",\n  \"result\": ");
	if (s->c->out)
		reel_json_str(f, s->c->out);
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"version\": ");
	reel_json_str(f, s->version);
	fprintf(f,
		",\n  \"ranks\": %d, \"timing\": \"%s\", \"order\": \"%s\",\n"
		"  \"start_skew_ns\": %lld, \"clock_residual_max_ns\": %lld, \"interrupted\": %d,"
		" \"failed_rank\": ",
		s->size, replay_timing_names[s->c->timing], replay_order_names[s->c->order],
		(long long)s->skew_ns, (long long)s->residual_ns, s->interrupted);
	if (s->failed >= 0)
		fprintf(f, "%d", s->failed);
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"per_rank\": [");
	for (int r = 0; r < s->size; r++)
		json_rank(f, s, r);
	fprintf(f,
		"\n  ],\n  \"aggregate\": {\"ios\": %llu, \"errors\": %llu, \"records\": %llu, "
		"\"duration_ns\": %lld, \"iops\": %.1f,\n    \"ops\": ",
		(unsigned long long)s->agg.ios, (unsigned long long)s->agg.errors,
		(unsigned long long)s->records, (long long)s->span_ns,
		secs > 0 ? s->agg.ios / secs : 0.0);
	json_ops(f, &s->agg, secs, "    ");
	fprintf(f, ",\n    \"issue_error_ns\": ");
	cl_json_hist(f, &s->agg.issue_err);
	fprintf(f, "}\n}\n");
	if (f != stdout)
		return fclose(f) ? -errno : 0;
	fflush(f);
	return 0;
}

static void print_table(const struct summary *s)
{
	printf("replay --mpi  %s on %d ranks%s%s%s\n", s->trace, s->size, s->c->out ? " -> " : "",
	       s->c->out ? s->c->out : "", s->interrupted ? "  (INTERRUPTED: partial)" : "");
	printf("%4s %-16s %10s %8s %9s %9s %9s %10s %9s %9s\n", "rank", "host", "offset_us",
	       "rtt_us", "resid_us", "start_us", "I/Os", "IOPS", "p50_us", "p99_us");
	for (int r = 0; r < s->size; r++) {
		const struct rank_info *ri = &s->ri[r];
		const struct replay_result *x = &s->res[r];
		int ok = ri->ran && ri->rc == 0;
		struct reel_hist all = {0};
		for (int op = 0; ok && op < REEL_OP__COUNT; op++)
			reel_hist_merge(&all, &x->op[op].lat);
		double secs = ok ? x->duration_ns / 1e9 : 0;
		printf("%4d %-16.16s %10.1f %8.1f %9.1f %9.1f %9llu %10.0f %9.1f %9.1f%s%s\n", r,
		       ri->host, ri->offset_ns / 1e3, ri->rtt_ns / 1e3, ri->residual_ns / 1e3,
		       ri->start_ns == INT64_MIN ? 0.0 : ri->start_ns / 1e3,
		       (unsigned long long)(ok ? x->ios : 0), secs > 0 ? x->ios / secs : 0.0,
		       reel_hist_quantile(&all, 0.5) / 1e3, reel_hist_quantile(&all, 0.99) / 1e3,
		       ri->err[0] ? "  " : "", ri->err);
	}
	struct reel_hist all = {0};
	for (int op = 0; op < REEL_OP__COUNT; op++)
		reel_hist_merge(&all, &s->agg.op[op].lat);
	double secs = s->span_ns / 1e9;
	printf("all  %-16s %10s %8s %9s %9s %9llu %10.0f %9.1f %9.1f\n", "", "", "", "", "",
	       (unsigned long long)s->agg.ios, secs > 0 ? s->agg.ios / secs : 0.0,
	       reel_hist_quantile(&all, 0.5) / 1e3, reel_hist_quantile(&all, 0.99) / 1e3);
	printf("clocks    start skew %.1f us across ranks, largest residual offset %.1f us\n",
	       s->skew_ns / 1e3, s->residual_ns / 1e3);
}

/* Merge the ranks' files into c->out with the cluster metadata. */
static int write_merged(struct summary *s, char *const *paths, const int *got, int64_t start_unix,
			char *err, size_t errlen)
{
	struct cluster_part parts[64];
	size_t np = 0;
	for (int r = 0; r < s->size && np < 64; r++) {
		const struct rank_info *ri = &s->ri[r];
		parts[np++] = (struct cluster_part){
		    .path = got[r] && ri->start_ns != INT64_MIN ? paths[r] : NULL,
		    .rank = r,
		    .host = ri->host,
		    .shift_ns = ri->start_ns == INT64_MIN ? 0 : ri->start_ns,
		    .keep_queue = s->c->timing == REPLAY_TIMING_ORIGINAL,
		    .trace_dev = ri->trace_dev,
		    .ntrace_dev = (size_t)ri->ntargets,
		};
	}
	static const char *const prefixes[] = {REEL_META_REPLAY_PREFIX, NULL};
	char detail[512];
	snprintf(detail, sizeof(detail), "ioreel replay --mpi %s (%d ranks)", s->trace, s->size);
	struct cluster_merge_opts mo = {.out = s->c->out,
					.source = "replay",
					.source_detail = detail,
					.start_unix_ns = start_unix,
					.by_issue = 1,
					.copy_prefixes = prefixes};
	struct cluster_merge_stats st;
	struct reel_writer *wr;
	int rc = cluster_merge(parts, np, &mo, &wr, &st, err, errlen);
	if (rc < 0)
		return rc;
	s->records = st.records;
	reel_writer_meta_str(wr, REEL_META_REPLAY_TRACE, s->trace);
	reel_writer_meta_int(wr, REEL_META_REPLAY_IOS, (int64_t)s->agg.ios);
	reel_writer_meta_int(wr, REEL_META_REPLAY_ERRORS, (int64_t)s->agg.errors);
	reel_writer_meta_int(wr, REEL_META_REPLAY_DURATION_NS, s->span_ns);
	reel_writer_meta_int(wr, REEL_META_REPLAY_INTERRUPTED, s->interrupted);
	reel_writer_meta_int(wr, REEL_META_CLUSTER_RANKS, s->size);
	reel_writer_meta_str(wr, REEL_META_CLUSTER_VERSION, s->version);
	if (!s->c->per_rank.n)
		reel_writer_meta_str(wr, REEL_META_CLUSTER_TRACE_CHECKSUM, s->ri[0].checksum);
	reel_writer_meta_int(wr, REEL_META_CLUSTER_START_SKEW_NS, s->skew_ns);
	reel_writer_meta_int(wr, REEL_META_CLUSTER_CLOCK_RESIDUAL_NS, s->residual_ns);
	if (s->failed >= 0) {
		reel_writer_meta_int(wr, REEL_META_CLUSTER_FAILED_RANK, s->failed);
		reel_writer_meta_str(wr, REEL_META_CLUSTER_ERROR, s->ri[s->failed].err);
	}
	for (int r = 0; r < s->size; r++) {
		const struct rank_info *ri = &s->ri[r];
		cl_meta_rank_str(wr, r, "host", ri->host);
		cl_meta_rank_int(wr, r, "offset_ns", ri->offset_ns);
		cl_meta_rank_int(wr, r, "rtt_ns", ri->rtt_ns);
		cl_meta_rank_int(wr, r, "residual_ns", ri->residual_ns);
		if (ri->start_ns != INT64_MIN)
			cl_meta_rank_int(wr, r, "start_ns", ri->start_ns);
		cl_meta_rank_int(wr, r, "ios", (int64_t)(ri->rc == 0 ? s->res[r].ios : 0));
		cl_meta_rank_int(wr, r, "interrupted", ri->interrupted);
		if (ri->err[0])
			cl_meta_rank_str(wr, r, "error", ri->err);
	}
	rc = reel_writer_close(wr);
	return rc < 0 ? reel_errf(err, errlen, rc, "%s: %s", s->c->out, reel_strerror(rc)) : 0;
}

int crep_report(struct summary *s, char *const *paths, const int *got, int64_t start_unix)
{
	char err[1024];
	int status = 0;
	aggregate(s);
	if (s->c->out && write_merged(s, paths, got, start_unix, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel replay --mpi: %s\n", err);
		status = 1;
	}
	if (s->c->json) {
		int rc = write_json(s, s->c->json);
		if (rc < 0) {
			fprintf(stderr, "ioreel replay --mpi: --json %s: %s\n", s->c->json,
				strerror(-rc));
			status = 1;
		}
	}
	if (!s->c->quiet)
		print_table(s);
	if (s->failed >= 0) {
		fprintf(stderr,
			"ioreel replay --mpi: rank %d on %s failed: %s; every rank stopped%s\n",
			s->failed, s->ri[s->failed].host, s->ri[s->failed].err,
			s->c->out ? "; completed I/Os are in the result, marked interrupted" : "");
		return 1;
	}
	if (s->interrupted)
		return 130;
	return status ? status : s->agg.errors ? 1 : 0;
}
