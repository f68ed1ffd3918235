/*
 * plots/report.c - comparison tables of several runs: text, markdown, HTML
 * (self-contained, SVG inline) and JSON.  Runs that differ only in their
 * data mode get a "% of max" table per mode (as storage reviews print
 * compressible against incompressible); runs that differ only in queue
 * depth get a QD scaling table.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plots/plots.h"

static const struct {
	const char *name, *title;
} metrics[PLOTS_M__COUNT] = {
    [PLOTS_M_READ_MBPS] = {"read_mbps", "read MB/s"},
    [PLOTS_M_READ_IOPS] = {"read_iops", "read IOPS"},
    [PLOTS_M_WRITE_MBPS] = {"write_mbps", "write MB/s"},
    [PLOTS_M_WRITE_IOPS] = {"write_iops", "write IOPS"},
    [PLOTS_M_MBPS] = {"mbps", "MB/s"},
    [PLOTS_M_IOPS] = {"iops", "IOPS"},
    [PLOTS_M_P50_US] = {"p50_us", "p50 us"},
    [PLOTS_M_P99_US] = {"p99_us", "p99 us"},
    [PLOTS_M_P999_US] = {"p999_us", "p99.9 us"},
};

const char *plots_metric_name(int m)
{
	return m >= 0 && m < PLOTS_M__COUNT ? metrics[m].name : "?";
}

const char *plots_metric_title(int m)
{
	return m >= 0 && m < PLOTS_M__COUNT ? metrics[m].title : "?";
}

double plots_metric(const struct plots_run *r, int m)
{
	switch (m) {
	case PLOTS_M_READ_MBPS:
		return r->op[PLOTS_READ].mbps;
	case PLOTS_M_READ_IOPS:
		return r->op[PLOTS_READ].iops;
	case PLOTS_M_WRITE_MBPS:
		return r->op[PLOTS_WRITE].mbps;
	case PLOTS_M_WRITE_IOPS:
		return r->op[PLOTS_WRITE].iops;
	case PLOTS_M_MBPS:
		return r->mbps;
	case PLOTS_M_IOPS:
		return r->iops;
	case PLOTS_M_P50_US:
		return (double)reel_hist_quantile(&r->all.lat, 0.50) / 1e3;
	case PLOTS_M_P99_US:
		return (double)reel_hist_quantile(&r->all.lat, 0.99) / 1e3;
	case PLOTS_M_P999_US:
		return (double)reel_hist_quantile(&r->all.lat, 0.999) / 1e3;
	}
	return 0;
}

/* Latency is unknown for a trace without completion times. */
static int metric_known(const struct plots_run *r, int m)
{
	return !(m == PLOTS_M_P50_US || m == PLOTS_M_P99_US || m == PLOTS_M_P999_US) ||
	       r->all.lat.count > 0;
}

/* ---- grouping ---------------------------------------------------------- */
#define MAXG 64
struct group {
	size_t idx[MAXG]; /* run indexes, sorted by the varying value */
	size_t n;
	char what[256]; /* the shared configuration, briefly */
};

/* config without the line of key */
static void config_without(const struct plots_run *r, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key), o = 0;
	buf[0] = 0;
	for (const char *p = r->config; *p;) {
		size_t l = strcspn(p, "\n");
		if (!(l > kl && !strncmp(p, key, kl) && p[kl] == '=') && o + l + 2 < len) {
			memcpy(buf + o, p, l);
			o += l;
			buf[o++] = '\n';
			buf[o] = 0;
		}
		p += l + (p[l] == '\n');
	}
}

static void config_value(const struct plots_run *r, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	buf[0] = 0;
	for (const char *p = r->config; *p;) {
		size_t l = strcspn(p, "\n");
		if (l > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			plots_strf(buf, len, "%.*s", (int)(l - kl - 1), p + kl + 1);
			return;
		}
		p += l + (p[l] == '\n');
	}
}

static const char *var_value(const struct plots_run *r, const char *key)
{
	return !strcmp(key, REEL_META_REPLAY_DATA) ? r->data : r->qd;
}

/* numeric order for queue depths ("1" < "32" < "original" < "x2") */
static int value_cmp(const char *a, const char *b)
{
	char *ea, *eb;
	double x = strtod(a, &ea), y = strtod(b, &eb);
	int na = ea != a && !*ea, nb = eb != b && !*eb;
	if (na && nb)
		return x < y ? -1 : x > y;
	if (na != nb)
		return na ? -1 : 1;
	return strcmp(a, b);
}

/* most compressible first: zero, pattern, ratio:R (R descending), random */
static double data_rank(const char *d)
{
	if (!strcmp(d, "zero"))
		return 0;
	if (!strncmp(d, "pattern", 7))
		return 1;
	if (!strncmp(d, "ratio:", 6)) {
		double r = strtod(d + 6, NULL);
		return 2 + (r > 0 ? 1.0 / r : 1);
	}
	if (!strcmp(d, "random"))
		return 4;
	return 5;
}

static int var_cmp(const char *key, const char *a, const char *b)
{
	if (!strcmp(key, REEL_META_REPLAY_DATA)) {
		double x = data_rank(a), y = data_rank(b);
		if (x != y)
			return x < y ? -1 : 1;
		return strcmp(a, b);
	}
	return value_cmp(a, b);
}

/* A replay run that is neither repeated (the verdicts compare those) nor
 * a per-host part of a multi-host run. */
static int single(struct plots_run *const *runs, size_t i, const struct plots_stats *st)
{
	return runs[i]->is_replay && runs[i]->part_of < 0 && !plots_run_in_repeats(st, i);
}

/*
 * Groups of runs identical in every replay.* setting but key, holding at
 * least two distinct values of key.  Returns the number of groups.
 */
static size_t find_groups(struct plots_run *const *runs, size_t n, const char *key, struct group *g,
			  size_t maxg, const struct plots_stats *st)
{
	size_t ng = 0;
	char *used = calloc(n ? n : 1, 1);
	char *ci = malloc(4096), *cj = malloc(4096);
	if (!used || !ci || !cj)
		goto out;
	for (size_t i = 0; i < n && ng < maxg; i++) {
		if (used[i] || !single(runs, i, st) || !runs[i]->config[0])
			continue;
		struct group cur = {.n = 0};
		config_without(runs[i], key, ci, 4096);
		for (size_t j = i; j < n && cur.n < MAXG; j++) {
			if (used[j] || !single(runs, j, st))
				continue;
			config_without(runs[j], key, cj, 4096);
			if (strcmp(ci, cj))
				continue;
			int dup = 0; /* one run per value */
			for (size_t k = 0; k < cur.n; k++)
				dup |= !strcmp(var_value(runs[cur.idx[k]], key),
					       var_value(runs[j], key));
			if (dup)
				continue;
			cur.idx[cur.n++] = j;
		}
		if (cur.n < 2)
			continue;
		for (size_t k = 0; k < cur.n; k++)
			used[cur.idx[k]] = 1;
		/* sort by the varying value (insertion sort: tiny) */
		for (size_t a = 1; a < cur.n; a++)
			for (size_t b = a;
			     b > 0 && var_cmp(key, var_value(runs[cur.idx[b - 1]], key),
					      var_value(runs[cur.idx[b]], key)) > 0;
			     b--) {
				size_t t = cur.idx[b];
				cur.idx[b] = cur.idx[b - 1];
				cur.idx[b - 1] = t;
			}
		/* what they share, briefly */
		char v1[128], v2[128], tg[256];
		const struct plots_run *r = runs[cur.idx[0]];
		config_value(r, REEL_META_REPLAY_TARGETS, tg, sizeof(tg));
		if (!strcmp(key, REEL_META_REPLAY_DATA))
			plots_strf(v1, sizeof(v1), "qd %s", r->qd[0] ? r->qd : "?");
		else
			plots_strf(v1, sizeof(v1), "data %s", r->data[0] ? r->data : "?");
		config_value(r, REEL_META_REPLAY_ENGINE, v2, sizeof(v2));
		const char *tb = strrchr(tg, '/');
		plots_strf(cur.what, sizeof(cur.what), "%s, %s%s%s", v1, v2[0] ? v2 : "engine ?",
			   tg[0] ? ", " : "", tb ? tb + 1 : tg);
		g[ng++] = cur;
	}
out:
	free(used);
	free(ci);
	free(cj);
	return ng;
}

static const int mode_metrics[] = {PLOTS_M_READ_MBPS, PLOTS_M_WRITE_MBPS, PLOTS_M_MBPS,
				   PLOTS_M_IOPS};
#define NMODE_METRICS (sizeof(mode_metrics) / sizeof(mode_metrics[0]))

/* Metric m is shown for a group when any run has it. */
static int metric_used(struct plots_run *const *runs, const struct group *g, int m)
{
	for (size_t k = 0; k < g->n; k++)
		if (plots_metric(runs[g->idx[k]], m) > 0)
			return 1;
	return 0;
}

static double group_max(struct plots_run *const *runs, const struct group *g, int m)
{
	double mx = 0;
	for (size_t k = 0; k < g->n; k++) {
		double v = plots_metric(runs[g->idx[k]], m);
		mx = v > mx ? v : mx;
	}
	return mx;
}

static int ranked(struct plots_run *const *runs, size_t i, const struct plots_stats *st)
{
	return runs[i]->part_of < 0 && !plots_run_in_repeats(st, i);
}

/* The best MB/s of the runs ranked one by one (not repeated, not parts). */
static double best_mbps(struct plots_run *const *runs, size_t n, const struct plots_stats *st)
{
	double b = 0;
	for (size_t i = 0; i < n; i++)
		if (ranked(runs, i, st))
			b = runs[i]->mbps > b ? runs[i]->mbps : b;
	return b;
}

/* Why the ranking compares unlike runs, or "". */
static const char *mixed_warning(const struct plots_stats *st)
{
	if (st->mixed_traces && st->mixed_timing)
		return "these runs replay different traces with different timings: "
		       "ranking them compares unlike workloads";
	if (st->mixed_traces)
		return "these runs replay different traces: ranking them compares unlike workloads";
	if (st->mixed_timing)
		return "these runs differ in timing (afap vs original or speed): ranking them "
		       "compares unlike workloads";
	return "";
}

static double pct(double v, double max) { return max > 0 ? 100.0 * v / max : 0; }

/* ---- text -------------------------------------------------------------- */
static const int row_metrics[] = {PLOTS_M_READ_MBPS,  PLOTS_M_READ_IOPS, PLOTS_M_WRITE_MBPS,
				  PLOTS_M_WRITE_IOPS, PLOTS_M_P50_US,	 PLOTS_M_P99_US,
				  PLOTS_M_P999_US};
#define NROW_METRICS (sizeof(row_metrics) / sizeof(row_metrics[0]))

static int label_width(struct plots_run *const *runs, size_t n)
{
	int w = 3;
	for (size_t i = 0; i < n; i++) {
		int l = (int)strlen(runs[i]->label);
		w = l > w ? l : w;
	}
	return w;
}

/* The runs table: a row per run (per-host parts indented), % of best for
 * the runs ranked one by one, flags. */
static void text_runs(FILE *f, struct plots_run *const *runs, size_t n,
		      const struct plots_stats *st)
{
	int w = label_width(runs, n) + 2;
	double best = best_mbps(runs, n, st);
	fprintf(f, "%-*s", w, "run");
	for (size_t m = 0; m < NROW_METRICS; m++)
		fprintf(f, "  %11s", plots_metric_title(row_metrics[m]));
	fprintf(f, "  %9s  %s\n", "% of best", "flags");
	for (size_t i = 0; i < n; i++) {
		char fl[160];
		fprintf(f, "%s%-*s", runs[i]->part_of >= 0 ? "  " : "",
			runs[i]->part_of >= 0 ? w - 2 : w, runs[i]->label);
		for (size_t m = 0; m < NROW_METRICS; m++) {
			if (metric_known(runs[i], row_metrics[m]))
				fprintf(f, "  %11.1f", plots_metric(runs[i], row_metrics[m]));
			else
				fprintf(f, "  %11s", "-");
		}
		if (ranked(runs, i, st))
			fprintf(f, "  %8.1f%%", pct(runs[i]->mbps, best));
		else
			fprintf(f, "  %9s", runs[i]->part_of >= 0 ? "(host)" : "(repeat)");
		plots_flags_text(plots_run_flags(runs[i]), runs[i], fl, sizeof(fl));
		fprintf(f, "%s%s\n", fl[0] ? "  " : "", fl);
	}
	fprintf(f,
		"(MB/s = 10^6 bytes/s and IOPS over each run's I/O span, first issue to last "
		"completion; latency issue to completion; %% of best by total MB/s%s)\n",
		st->nrepeated ? "; repeated runs are compared by the verdicts below, not ranked "
				"one by one"
			      : "");
	if (mixed_warning(st)[0])
		fprintf(f, "warning: %s\n", mixed_warning(st));
}

static void text_modes(FILE *f, struct plots_run *const *runs, size_t n,
		       const struct plots_stats *st)
{
	struct group g[16];
	size_t ng = find_groups(runs, n, REEL_META_REPLAY_DATA, g, 16, st);
	for (size_t k = 0; k < ng; k++) {
		fprintf(f, "\nData mode (runs identical but for replay.data): %s\n", g[k].what);
		fprintf(f, "%-12s", "metric");
		for (size_t j = 0; j < g[k].n; j++)
			fprintf(f, "  %12s", runs[g[k].idx[j]]->data);
		for (size_t j = 0; j < g[k].n; j++) {
			char h[160];
			plots_strf(h, sizeof(h), "%s %% of max", runs[g[k].idx[j]]->data);
			fprintf(f, "  %16s", h);
		}
		fprintf(f, "\n");
		for (size_t mi = 0; mi < NMODE_METRICS; mi++) {
			int m = mode_metrics[mi];
			if (!metric_used(runs, &g[k], m))
				continue;
			double mx = group_max(runs, &g[k], m);
			fprintf(f, "%-12s", plots_metric_title(m));
			for (size_t j = 0; j < g[k].n; j++)
				fprintf(f, "  %12.1f", plots_metric(runs[g[k].idx[j]], m));
			for (size_t j = 0; j < g[k].n; j++)
				fprintf(f, "  %15.1f%%",
					pct(plots_metric(runs[g[k].idx[j]], m), mx));
			fprintf(f, "\n");
		}
	}
}

static void text_qd(FILE *f, struct plots_run *const *runs, size_t n, const struct plots_stats *st)
{
	struct group g[16];
	size_t ng = find_groups(runs, n, REEL_META_REPLAY_QD, g, 16, st);
	for (size_t k = 0; k < ng; k++) {
		fprintf(f, "\nQueue depth scaling (runs identical but for replay.qd): %s\n",
			g[k].what);
		fprintf(f, "%-10s  %10s  %10s  %10s  %10s  %14s\n", "qd", "MB/s", "IOPS", "p50 us",
			"p99 us", "x first qd");
		const struct plots_run *r0 = runs[g[k].idx[0]];
		for (size_t j = 0; j < g[k].n; j++) {
			const struct plots_run *r = runs[g[k].idx[j]];
			fprintf(f, "%-10s  %10.1f  %10.1f  %10.1f  %10.1f  %13.2fx\n", r->qd,
				r->mbps, r->iops, plots_metric(r, PLOTS_M_P50_US),
				plots_metric(r, PLOTS_M_P99_US),
				r0->mbps > 0 ? r->mbps / r0->mbps : 0);
		}
	}
}

void plots_compare_text(FILE *f, struct plots_run *const *runs, size_t n)
{
	struct plots_stats st;
	if (plots_stats_compute(runs, n, PLOTS_ALPHA, &st) < 0)
		memset(&st, 0, sizeof(st)); /* out of memory: no repeats */
	text_runs(f, runs, n, &st);
	text_modes(f, runs, n, &st);
	text_qd(f, runs, n, &st);
	plots_repeats_text(f, &st);
	plots_stats_free(&st);
}

/* ---- JSON -------------------------------------------------------------- */

/* One run's JSON object (runs[i]; "," before all but the first). */
static void json_run(FILE *f, struct plots_run *const *runs, size_t i, const struct plots_stats *st,
		     double best)
{
	const struct plots_run *r = runs[i];
	fprintf(f, "%s\n    {\"label\": ", i ? "," : "");
	reel_json_str(f, r->label);
	fprintf(f, ", \"path\": ");
	reel_json_str(f, r->path);
	fprintf(f, ", \"source\": ");
	reel_json_str(f, r->source);
	fprintf(f, ", \"data\": ");
	reel_json_str(f, r->data);
	fprintf(f, ", \"qd\": ");
	reel_json_str(f, r->qd);
	fprintf(f, ", \"engine\": ");
	reel_json_str(f, r->engine);
	fprintf(f, ",\n     \"ios\": %llu, \"bytes\": %llu, \"errors\": %llu, \"span_s\": ",
		(unsigned long long)r->all.ios, (unsigned long long)r->all.bytes,
		(unsigned long long)r->all.errors);
	reel_json_num(f, r->span_s, 10);
	fprintf(f,
		", \"read_ios\": %llu, \"read_bytes\": %llu, \"write_ios\": %llu, "
		"\"write_bytes\": %llu",
		(unsigned long long)r->op[PLOTS_READ].ios,
		(unsigned long long)r->op[PLOTS_READ].bytes,
		(unsigned long long)r->op[PLOTS_WRITE].ios,
		(unsigned long long)r->op[PLOTS_WRITE].bytes);
	for (int m = 0; m < PLOTS_M__COUNT; m++) {
		fprintf(f, ",%s\"%s\": ", m % 3 == 0 ? "\n     " : " ", plots_metric_name(m));
		if (metric_known(r, m))
			reel_json_num(f, plots_metric(r, m), 10);
		else
			fputs("null", f);
	}
	fprintf(f, ", \"pct_of_best\": ");
	if (ranked(runs, i, st))
		reel_json_num(f, pct(r->mbps, best), 10);
	else
		fputs("null", f);
	fprintf(f, ",\n     \"name\": ");
	reel_json_str(f, r->name);
	fprintf(f, ", \"trace\": ");
	reel_json_str(f, r->trace);
	fprintf(f, ", \"timing\": ");
	reel_json_str(f, r->timing);
	fprintf(f, ", \"busy_s\": ");
	reel_json_num(f, r->busy_s, 10);
	fprintf(f, ", \"busy_mbps\": ");
	reel_json_num(f, r->busy_mbps, 10);
	fprintf(f, ", \"busy_iops\": ");
	reel_json_num(f, r->busy_iops, 10);
	fprintf(f, ", \"lat_mean_us\": ");
	reel_json_num(f, r->has_latency ? reel_hist_mean(&r->all.lat) / 1e3 : 0, 10);
	unsigned fl = plots_run_flags(r);
	fprintf(f, ", \"too_short\": %s, \"host_bound\": %s",
		fl & PLOTS_FLAG_SHORT ? "true" : "false", fl & PLOTS_FLAG_HOST ? "true" : "false");
	if (r->part_of >= 0) {
		fprintf(f, ", \"host_of\": %ld, \"host\": ", r->part_of);
		reel_json_str(f, r->host_name);
	} else if (r->nhosts > 1) {
		fprintf(f, ", \"hosts\": %u", r->nhosts);
	}
	if (r->ratio_achieved > 0) {
		fprintf(f, ", \"ratio_achieved\": ");
		reel_json_num(f, r->ratio_achieved, 10);
	}
	if (plots_issue_error_meaningful(r)) {
		fprintf(f, ",\n     \"issue_error_us\": {\"p50\": ");
		reel_json_num(f, (double)reel_hist_quantile(&r->issue_err, 0.5) / 1e3, 10);
		fprintf(f, ", \"p99\": ");
		reel_json_num(f, (double)reel_hist_quantile(&r->issue_err, 0.99) / 1e3, 10);
		fprintf(f, ", \"max\": ");
		reel_json_num(f, (double)r->issue_err.max / 1e3, 10);
		fprintf(f, "}");
	}
	fprintf(f, "}");
}

void plots_compare_json(FILE *f, struct plots_run *const *runs, size_t n)
{
	struct plots_stats stats, *st = &stats;
	if (plots_stats_compute(runs, n, PLOTS_ALPHA, st) < 0)
		memset(st, 0, sizeof(*st));
	double best = best_mbps(runs, n, st);
	fprintf(f, "{\n  \"runs\": [");
	for (size_t i = 0; i < n; i++)
		json_run(f, runs, i, st, best);
	fprintf(f, "\n  ],\n  \"data_mode\": [");
	struct group g[16];
	size_t ng = find_groups(runs, n, REEL_META_REPLAY_DATA, g, 16, st);
	for (size_t k = 0; k < ng; k++) {
		fprintf(f, "%s\n    {\"group\": ", k ? "," : "");
		reel_json_str(f, g[k].what);
		fprintf(f, ", \"metrics\": [");
		int firstm = 1;
		for (size_t mi = 0; mi < NMODE_METRICS; mi++) {
			int m = mode_metrics[mi];
			if (!metric_used(runs, &g[k], m))
				continue;
			double mx = group_max(runs, &g[k], m);
			fprintf(f, "%s\n      {\"metric\": \"%s\", \"modes\": [", firstm ? "" : ",",
				plots_metric_name(m));
			firstm = 0;
			for (size_t j = 0; j < g[k].n; j++) {
				const struct plots_run *r = runs[g[k].idx[j]];
				fprintf(f, "%s{\"mode\": ", j ? ", " : "");
				reel_json_str(f, r->data);
				fprintf(f, ", \"run\": %zu, \"value\": ", g[k].idx[j]);
				reel_json_num(f, plots_metric(r, m), 10);
				fprintf(f, ", \"pct_of_max\": ");
				reel_json_num(f, pct(plots_metric(r, m), mx), 10);
				fprintf(f, "}");
			}
			fprintf(f, "]}");
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ],\n  \"qd_scaling\": [");
	ng = find_groups(runs, n, REEL_META_REPLAY_QD, g, 16, st);
	for (size_t k = 0; k < ng; k++) {
		fprintf(f, "%s\n    {\"group\": ", k ? "," : "");
		reel_json_str(f, g[k].what);
		fprintf(f, ", \"rows\": [");
		const struct plots_run *r0 = runs[g[k].idx[0]];
		for (size_t j = 0; j < g[k].n; j++) {
			const struct plots_run *r = runs[g[k].idx[j]];
			fprintf(f, "%s\n      {\"qd\": ", j ? "," : "");
			reel_json_str(f, r->qd);
			fprintf(f, ", \"run\": %zu, \"mbps\": ", g[k].idx[j]);
			reel_json_num(f, r->mbps, 10);
			fprintf(f, ", \"iops\": ");
			reel_json_num(f, r->iops, 10);
			fprintf(f, ", \"p99_us\": ");
			reel_json_num(f, plots_metric(r, PLOTS_M_P99_US), 10);
			fprintf(f, ", \"x_first\": ");
			reel_json_num(f, r0->mbps > 0 ? r->mbps / r0->mbps : 0, 10);
			fprintf(f, "}");
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ]");
	if (mixed_warning(st)[0]) {
		fprintf(f, ",\n  \"warning\": ");
		reel_json_str(f, mixed_warning(st));
	}
	plots_repeats_json(f, runs, st);
	fprintf(f, "\n}\n");
	plots_stats_free(st);
}

/* ---- markdown and HTML: one table writer, two dialects ----------------- */
enum dialect { MD, HTML };

static void row_begin(FILE *f, enum dialect d) { fputs(d == MD ? "|" : "<tr>", f); }
static void row_end(FILE *f, enum dialect d) { fputs(d == MD ? "\n" : "</tr>\n", f); }
static void cell(FILE *f, enum dialect d, int head, const char *s)
{
	if (d == MD) {
		fputc(' ', f);
		plots_escape_text(f, d == MD, s);
		fputs(" |", f);
	} else {
		fputs(head ? "<th>" : "<td>", f);
		plots_escape_text(f, d == MD, s);
		fputs(head ? "</th>" : "</td>", f);
	}
}
static void cellf(FILE *f, enum dialect d, const char *fmt, double v)
{
	char b[64];
	plots_strf(b, sizeof(b), fmt, v);
	cell(f, d, 0, b);
}
static void head_end(FILE *f, enum dialect d, size_t ncols)
{
	if (d != MD)
		return;
	fputc('|', f);
	for (size_t i = 0; i < ncols; i++)
		fputs(i ? "---:|" : "---|", f);
	fputc('\n', f);
}
static void table_begin(FILE *f, enum dialect d, const char *cls)
{
	if (d == HTML)
		fprintf(f, "<table class=\"%s\">\n", cls);
}
static void table_end(FILE *f, enum dialect d) { fputs(d == HTML ? "</table>\n" : "\n", f); }
static void heading(FILE *f, enum dialect d, const char *s)
{
	if (d == MD) {
		fputs("### ", f);
		plots_escape_text(f, d == MD, s);
		fputs("\n\n", f);
	} else {
		fputs("<h3>", f);
		plots_escape_text(f, d == MD, s);
		fputs("</h3>\n", f);
	}
}

static void runs_table(FILE *f, enum dialect d, struct plots_run *const *runs, size_t n,
		       const struct plots_stats *st)
{
	double best = best_mbps(runs, n, st);
	heading(f, d, "Runs");
	table_begin(f, d, "runs");
	row_begin(f, d);
	cell(f, d, 1, "run");
	for (size_t m = 0; m < NROW_METRICS; m++)
		cell(f, d, 1, plots_metric_title(row_metrics[m]));
	cell(f, d, 1, "% of best");
	cell(f, d, 1, "flags");
	row_end(f, d);
	head_end(f, d, NROW_METRICS + 3);
	for (size_t i = 0; i < n; i++) {
		char fl[160], lb[200];
		row_begin(f, d);
		plots_strf(lb, sizeof(lb), "%s%s", runs[i]->part_of >= 0 ? "\u2003" : "",
			   runs[i]->label);
		cell(f, d, 0, lb);
		for (size_t m = 0; m < NROW_METRICS; m++) {
			if (metric_known(runs[i], row_metrics[m]))
				cellf(f, d, "%.1f", plots_metric(runs[i], row_metrics[m]));
			else
				cell(f, d, 0, "-");
		}
		if (ranked(runs, i, st))
			cellf(f, d, "%.1f%%", pct(runs[i]->mbps, best));
		else
			cell(f, d, 0, runs[i]->part_of >= 0 ? "(host)" : "(repeat)");
		plots_flags_text(plots_run_flags(runs[i]), runs[i], fl, sizeof(fl));
		cell(f, d, 0, fl);
		row_end(f, d);
	}
	table_end(f, d);
	if (d == HTML)
		fputs("<p class=\"note\">", f);
	fputs("MB/s (10<sup>6</sup> bytes/s) and IOPS over each run's I/O span, first issue to "
	      "last completion; latency from issue to completion; % of best by total MB/s",
	      f);
	if (st->nrepeated)
		fputs("; repeated runs are compared by the verdicts below, not ranked one by one",
		      f);
	fputs(". TOO SHORT: under 1 s of busy time (time with an I/O in flight), too short to "
	      "measure; HOST-BOUND: a timed replay whose p99 issue error exceeds 1 ms, which "
	      "measured the host, not the drive.",
	      f);
	fputs(d == HTML ? "</p>\n" : "\n\n", f);
	if (mixed_warning(st)[0]) {
		fputs(d == HTML ? "<p class=\"warn\"><b>Warning:</b> " : "**Warning:** ", f);
		plots_escape_text(f, d == MD, mixed_warning(st));
		fputs(d == HTML ? ".</p>\n" : ".\n\n", f);
	}
}

/* Repeated runs: a row per group (mean +-sd [95% CI] per metric), then
 * the verdicts: a row per compared pair, a column per verdict metric. */
static void repeats_tables(FILE *f, enum dialect d, const struct plots_stats *st)
{
	if (!st->nrepeated)
		return;
	heading(f, d, "Repeats: mean +-sd [95% CI]");
	table_begin(f, d, "repeats");
	row_begin(f, d);
	cell(f, d, 1, "setting");
	cell(f, d, 1, "runs");
	for (int m = 0; m < PLOTS_G__COUNT; m++) {
		char h[96];
		plots_strf(h, sizeof(h), "%s (%s)", plots_gmetric_title(m), plots_gmetric_unit(m));
		cell(f, d, 1, h);
	}
	cell(f, d, 1, "flags");
	row_end(f, d);
	head_end(f, d, PLOTS_G__COUNT + 3);
	for (size_t i = 0; i < st->ng; i++) {
		char b[160];
		row_begin(f, d);
		cell(f, d, 0, st->g[i].label);
		cellf(f, d, "%.0f", (double)st->g[i].n);
		for (int m = 0; m < PLOTS_G__COUNT; m++) {
			plots_summary_text(&st->g[i].s[m], b, sizeof(b));
			cell(f, d, 0, b);
		}
		plots_flags_text(st->g[i].flags, NULL, b, sizeof(b));
		cell(f, d, 0, b);
		row_end(f, d);
	}
	table_end(f, d);
	if (!st->nc)
		return;
	char h[256];
	plots_strf(h, sizeof(h), "Verdicts: %zu of %zu comparisons significant", st->nsig, st->nc);
	heading(f, d, h);
	table_begin(f, d, "verdicts");
	row_begin(f, d);
	cell(f, d, 1, "first");
	cell(f, d, 1, "second");
	for (int k = 0; k < PLOTS_NVERDICT; k++)
		cell(f, d, 1, plots_gmetric_title(plots_verdict_metrics[k]));
	row_end(f, d);
	head_end(f, d, PLOTS_NVERDICT + 2);
	for (size_t i = 0; i < st->nc; i += PLOTS_NVERDICT) {
		row_begin(f, d);
		cell(f, d, 0, st->g[st->c[i].a].label);
		cell(f, d, 0, st->g[st->c[i].b].label);
		for (size_t k = 0; k < PLOTS_NVERDICT && i + k < st->nc; k++) {
			char b[128];
			plots_cmp_text(&st->c[i + k], b, sizeof(b));
			cell(f, d, 0, b);
		}
		row_end(f, d);
	}
	table_end(f, d);
	if (d == HTML)
		fputs("<p class=\"note\">", f);
	plots_strf(h, sizeof(h), "%g", st->alpha);
	fputs("The second setting's difference from the first, in % with its 95% confidence "
	      "interval, where Welch's t test on the logarithms of the repeats is significant "
	      "after Holm's correction over every comparison of this report (family-wise alpha ",
	      f);
	fputs(h, f);
	fputs("); otherwise \"within noise\", and the two are not ranked. Rates over busy time.",
	      f);
	fputs(d == HTML ? "</p>\n" : "\n\n", f);
}

static void tables(FILE *f, enum dialect d, struct plots_run *const *runs, size_t n)
{
	struct plots_stats stats, *st = &stats;
	if (plots_stats_compute(runs, n, PLOTS_ALPHA, st) < 0)
		memset(st, 0, sizeof(*st));
	runs_table(f, d, runs, n, st);
	repeats_tables(f, d, st);
	struct group g[16];
	size_t ng = find_groups(runs, n, REEL_META_REPLAY_DATA, g, 16, st);
	for (size_t k = 0; k < ng; k++) {
		char h[400];
		plots_strf(h, sizeof(h), "Data mode, compressible vs incompressible: %s",
			   g[k].what);
		heading(f, d, h);
		table_begin(f, d, "datamode");
		row_begin(f, d);
		cell(f, d, 1, "metric");
		for (size_t j = 0; j < g[k].n; j++)
			cell(f, d, 1, runs[g[k].idx[j]]->data);
		for (size_t j = 0; j < g[k].n; j++) {
			plots_strf(h, sizeof(h), "%s %% of max", runs[g[k].idx[j]]->data);
			cell(f, d, 1, h);
		}
		row_end(f, d);
		head_end(f, d, 1 + 2 * g[k].n);
		for (size_t mi = 0; mi < NMODE_METRICS; mi++) {
			int m = mode_metrics[mi];
			if (!metric_used(runs, &g[k], m))
				continue;
			double mx = group_max(runs, &g[k], m);
			row_begin(f, d);
			cell(f, d, 0, plots_metric_title(m));
			for (size_t j = 0; j < g[k].n; j++)
				cellf(f, d, "%.1f", plots_metric(runs[g[k].idx[j]], m));
			for (size_t j = 0; j < g[k].n; j++)
				cellf(f, d, "%.1f%%", pct(plots_metric(runs[g[k].idx[j]], m), mx));
			row_end(f, d);
		}
		table_end(f, d);
	}
	ng = find_groups(runs, n, REEL_META_REPLAY_QD, g, 16, st);
	for (size_t k = 0; k < ng; k++) {
		char h[400];
		plots_strf(h, sizeof(h), "Queue depth scaling: %s", g[k].what);
		heading(f, d, h);
		table_begin(f, d, "qdscaling");
		row_begin(f, d);
		static const char *const cols[] = {"qd",     "MB/s",   "IOPS",
						   "p50 us", "p99 us", "x first qd"};
		for (size_t c = 0; c < 6; c++)
			cell(f, d, 1, cols[c]);
		row_end(f, d);
		head_end(f, d, 6);
		const struct plots_run *r0 = runs[g[k].idx[0]];
		for (size_t j = 0; j < g[k].n; j++) {
			const struct plots_run *r = runs[g[k].idx[j]];
			row_begin(f, d);
			cell(f, d, 0, r->qd);
			cellf(f, d, "%.1f", r->mbps);
			cellf(f, d, "%.1f", r->iops);
			cellf(f, d, "%.1f", plots_metric(r, PLOTS_M_P50_US));
			cellf(f, d, "%.1f", plots_metric(r, PLOTS_M_P99_US));
			cellf(f, d, "%.2fx", r0->mbps > 0 ? r->mbps / r0->mbps : 0);
			row_end(f, d);
		}
		table_end(f, d);
	}
	plots_stats_free(st);
}

static void run_list(FILE *f, enum dialect d, struct plots_run *const *runs, size_t n)
{
	heading(f, d, "Files");
	if (d == HTML)
		fputs("<ul class=\"files\">\n", f);
	for (size_t i = 0; i < n; i++) {
		char b[64];
		fputs(d == MD ? "- " : "<li>", f);
		plots_escape_text(f, d == MD, runs[i]->label);
		fputs(": ", f);
		plots_escape_text(f, d == MD, runs[i]->path);
		plots_strf(b, sizeof(b), " (%s, %llu I/Os%s)", runs[i]->source,
			   (unsigned long long)runs[i]->count,
			   runs[i]->complete ? "" : ", cut short");
		plots_escape_text(f, d == MD, b);
		if (runs[i]->is_replay) {
			char tr[512], tg[512], line[1400];
			config_value(runs[i], REEL_META_REPLAY_TRACE, tr, sizeof(tr));
			config_value(runs[i], REEL_META_REPLAY_TARGETS, tg, sizeof(tg));
			plots_strf(line, sizeof(line),
				   ": replay of %s onto %s, timing %s, qd %s, data %s, engine %s",
				   tr[0] ? tr : "?", tg[0] ? tg : "?",
				   runs[i]->timing[0] ? runs[i]->timing : "?",
				   runs[i]->qd[0] ? runs[i]->qd : "?",
				   runs[i]->data[0] ? runs[i]->data : "?",
				   runs[i]->engine[0] ? runs[i]->engine : "?");
			if (runs[i]->ratio_achieved > 0) {
				size_t l = strlen(line);
				plots_strf(line + l, sizeof(line) - l,
					   " (written data's LZ4 ratio %.3f)",
					   runs[i]->ratio_achieved);
			}
			plots_escape_text(f, d == MD, line);
		}
		fputs(d == MD ? "\n" : "</li>\n", f);
	}
	fputs(d == MD ? "\n" : "</ul>\n", f);
}

void plots_compare_markdown(FILE *f, struct plots_run *const *runs, size_t n,
			    const struct plots_output *outs, size_t nouts)
{
	fprintf(f, "# ioreel comparison\n\n");
	tables(f, MD, runs, n);
	if (nouts)
		fprintf(f, "### Plots\n\n");
	for (size_t i = 0; i < nouts; i++) {
		fputs("![", f);
		plots_escape_text(f, 1, outs[i].title);
		fprintf(f, "](%s)\n\n", outs[i].file); /* our own file names */
	}
	run_list(f, MD, runs, n);
}

/* Copy an SVG file into f, without its XML prolog and doctype. */
static int inline_svg(FILE *f, int dirfd, const char *file)
{
	int fd = openat(dirfd, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!in) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return -e;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t l;
	int in_doctype = 0;
	while ((l = getline(&line, &cap, in)) > 0) {
		if (!strncmp(line, "<?xml", 5))
			continue;
		if (!strncmp(line, "<!DOCTYPE", 9))
			in_doctype = 1;
		if (in_doctype) {
			if (strchr(line, '>'))
				in_doctype = 0;
			continue;
		}
		fwrite(line, 1, (size_t)l, f);
	}
	free(line);
	fclose(in);
	return 0;
}

int plots_compare_html(FILE *f, struct plots_run *const *runs, size_t n, int dirfd,
		       const struct plots_output *outs, size_t nouts)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>ioreel comparison</title>\n<style>\n"
	      "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:1.5em;"
	      "color:#222;background:#fff}\n"
	      "table{border-collapse:collapse;margin:.5em 0 1em}\n"
	      "th,td{border:1px solid #bbb;padding:.25em .6em;text-align:right}\n"
	      "th{background:#e8eef6}td:first-child,th:first-child{text-align:left}\n"
	      "tr:nth-child(even) td{background:#f6f8fa}\n"
	      "figure{margin:1em 0}figure svg{max-width:100%;height:auto;border:1px solid #ddd}\n"
	      "figcaption{font-weight:bold;margin-bottom:.3em}.note{color:#555;font-size:90%}\n"
	      ".warn{color:#a40000}\n"
	      "</style></head><body>\n<h1>ioreel comparison</h1>\n",
	      f);
	tables(f, HTML, runs, n);
	if (nouts)
		fputs("<h3>Plots</h3>\n", f);
	int err = 0;
	for (size_t i = 0; i < nouts; i++) {
		fprintf(f, "<figure id=\"%s\"><figcaption>", outs[i].name);
		plots_escape_text(f, 0, outs[i].title);
		fputs("</figcaption>\n", f);
		int e = inline_svg(f, dirfd, outs[i].file);
		if (e < 0)
			err = e;
		fputs("</figure>\n", f);
	}
	run_list(f, HTML, runs, n);
	fputs("</body></html>\n", f);
	return err;
}

/* One report file (report.md or report.html) through the output policy. */
static int report_file(struct plots_run *const *runs, size_t n, int dirfd, const char *dir,
		       const char *name, const struct plots_output *outs, size_t nouts, char *err,
		       size_t errlen)
{
	const char **inputs = calloc(n ? n : 1, sizeof(*inputs));
	if (!inputs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		inputs[i] = runs[i]->path;
	struct reel_out o;
	char m[1024];
	int rc = reel_out_open(&o, dirfd, name, REEL_OUT_OVERWRITE, NULL, inputs, n, m, sizeof(m));
	free(inputs);
	if (rc < 0)
		return reel_errf(err, errlen, rc, "%s/%s", dir, m);
	if (!strcmp(name, "report.md")) {
		plots_compare_markdown(o.f, runs, n, outs, nouts);
	} else if ((rc = plots_compare_html(o.f, runs, n, dirfd, outs, nouts)) < 0) {
		reel_out_abort(&o);
		return reel_errf(err, errlen, rc, "%s/%s: cannot inline a plot: %s", dir, name,
				 strerror(-rc));
	}
	rc = reel_out_commit(&o, m, sizeof(m));
	return rc < 0 ? reel_errf(err, errlen, rc, "%s/%s", dir, m) : 0;
}

int plots_report_dir(struct plots_run *const *runs, size_t n, int dirfd, const char *dir, char *err,
		     size_t errlen)
{
	struct plots_output outs[16];
	size_t nouts = 0;
	int rc = plots_render_dir(runs, n, dirfd, dir, PLOTS_SVG, outs, 16, &nouts, err, errlen);
	if (rc < 0)
		return rc;
	if (nouts > 16)
		nouts = 16;
	if ((rc = report_file(runs, n, dirfd, dir, "report.md", outs, nouts, err, errlen)) < 0)
		return rc;
	return report_file(runs, n, dirfd, dir, "report.html", outs, nouts, err, errlen);
}

int plots_report_write(struct plots_run *const *runs, size_t n, const char *dir, char *err,
		       size_t errlen)
{
	int fd = plots_outdir_open(dir, 0, err, errlen);
	if (fd < 0)
		return fd;
	int rc = plots_report_dir(runs, n, fd, dir, err, errlen);
	close(fd);
	return rc;
}
