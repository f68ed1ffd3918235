/*
 * plots/repeats.c - `ioreel compare` on repeats: runs of one setting
 * (trace, timing, speed, queue depth, data mode, and the run's name: its
 * --label, replay.label or target) form a group; a group of two or more
 * runs gets the mean, spread and 95% confidence interval of each metric,
 * and two groups of one trace and timing are declared different on a
 * metric only when Welch's t test, Holm-corrected over every comparison of
 * the report, says so (formats/statistics.c, as `ioreel suite`).
 * Otherwise they are "within noise" and not ranked.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plots/plots.h"

static const struct {
	const char *key, *title, *unit;
	int higher_better;
	double res; /* resolution: 1% histogram buckets for percentiles */
} gm[PLOTS_G__COUNT] = {
    [PLOTS_G_MBPS] = {"rate_mbps", "average data rate", "MB/s", 1, 0},
    [PLOTS_G_IOPS] = {"iops", "IOPS", "IOPS", 1, 0},
    [PLOTS_G_LAT_MEAN] = {"lat_mean_us", "average latency", "us", 0, 0},
    [PLOTS_G_P50] = {"lat_p50_us", "p50 latency", "us", 0, 0.01},
    [PLOTS_G_P99] = {"lat_p99_us", "p99 latency", "us", 0, 0.01},
    [PLOTS_G_P999] = {"lat_p999_us", "p99.9 latency", "us", 0, 0.01},
};

const char *plots_gmetric_key(int m) { return gm[m].key; }
const char *plots_gmetric_title(int m) { return gm[m].title; }
const char *plots_gmetric_unit(int m) { return gm[m].unit; }
int plots_gmetric_higher_better(int m) { return gm[m].higher_better; }

double plots_gmetric(const struct plots_run *r, int m)
{
	switch (m) {
	case PLOTS_G_MBPS:
		return r->busy_mbps;
	case PLOTS_G_IOPS:
		return r->busy_iops;
	case PLOTS_G_LAT_MEAN:
		return reel_hist_mean(&r->all.lat) / 1e3;
	case PLOTS_G_P50:
		return (double)reel_hist_quantile(&r->all.lat, 0.50) / 1e3;
	case PLOTS_G_P99:
		return (double)reel_hist_quantile(&r->all.lat, 0.99) / 1e3;
	case PLOTS_G_P999:
		return (double)reel_hist_quantile(&r->all.lat, 0.999) / 1e3;
	}
	return 0;
}

/* Runs that take part: replays with latencies, not per-host parts. */
static int groupable(const struct plots_run *r)
{
	return r->is_replay && r->has_latency && r->part_of < 0;
}

static int same_setting(const struct plots_run *a, const struct plots_run *b)
{
	return !strcmp(a->trace, b->trace) && !strcmp(a->timing, b->timing) &&
	       a->speed == b->speed && !strcmp(a->qd, b->qd) && !strcmp(a->data, b->data) &&
	       !strcmp(a->name, b->name);
}

/* Group i's label: "name, trace, qd Q, data D, timing T". */
static void group_label(struct plots_group *g, const struct plots_run *r)
{
	char sp[32] = "";
	if (r->speed > 0 && r->speed != 1)
		plots_strf(sp, sizeof(sp), " x%g", r->speed);
	plots_strf(g->label, sizeof(g->label), "%.60s: %.60s, qd %s, %s, %s%s", r->name,
		   r->trace[0] ? r->trace : "?", r->qd[0] ? r->qd : "?", r->data[0] ? r->data : "?",
		   r->timing[0] ? r->timing : "?", sp);
}

static int make_groups(struct plots_run *const *runs, size_t n, struct plots_stats *st)
{
	st->g = calloc(n ? n : 1, sizeof(*st->g));
	char *used = calloc(n ? n : 1, 1);
	if (!st->g || !used) {
		free(used);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (used[i] || !groupable(runs[i]))
			continue;
		struct plots_group *g = &st->g[st->ng++];
		g->idx = calloc(n, sizeof(*g->idx));
		if (!g->idx) {
			free(used);
			return -ENOMEM;
		}
		for (size_t j = i; j < n; j++)
			if (!used[j] && groupable(runs[j]) && same_setting(runs[i], runs[j])) {
				used[j] = 1;
				g->idx[g->n++] = j;
			}
		group_label(g, runs[i]);
		g->first = runs[i];
		for (size_t k = 0; k < g->n; k++)
			g->flags |= plots_run_flags(runs[g->idx[k]]);
		if (g->n >= 2)
			st->nrepeated++;
	}
	free(used);
	return 0;
}

static void group_values(struct plots_run *const *runs, const struct plots_group *g, int m,
			 double *x)
{
	for (size_t k = 0; k < g->n; k++)
		x[k] = plots_gmetric(runs[g->idx[k]], m);
}

static void summarize(struct plots_run *const *runs, struct plots_stats *st, double *x)
{
	for (size_t i = 0; i < st->ng; i++)
		for (int m = 0; m < PLOTS_G__COUNT; m++) {
			struct plots_group *g = &st->g[i];
			group_values(runs, g, m, x);
			reel_summarize(x, (unsigned)g->n, &g->s[m]);
			if (g->s[m].ci_lo < 0)
				g->s[m].ci_lo = 0;
		}
}

/* Comparable: both repeated, one trace, one timing and speed. */
static int comparable(const struct plots_group *a, const struct plots_group *b)
{
	return a->n >= 2 && b->n >= 2 && !strcmp(a->first->trace, b->first->trace) &&
	       !strcmp(a->first->timing, b->first->timing) && a->first->speed == b->first->speed;
}

const int plots_verdict_metrics[PLOTS_NVERDICT] = {PLOTS_G_MBPS, PLOTS_G_IOPS, PLOTS_G_LAT_MEAN,
						   PLOTS_G_P99};

static int compare_groups(struct plots_run *const *runs, struct plots_stats *st, double *xa,
			  double *xb, double alpha)
{
	size_t max = st->ng * st->ng * PLOTS_NVERDICT;
	st->c = calloc(max ? max : 1, sizeof(*st->c));
	double *p = calloc(max ? max : 1, sizeof(*p));
	int *rej = calloc(max ? max : 1, sizeof(*rej));
	if (!st->c || !p || !rej) {
		free(p);
		free(rej);
		return -ENOMEM;
	}
	for (size_t a = 0; a < st->ng; a++)
		for (size_t b = a + 1; b < st->ng; b++) {
			if (!comparable(&st->g[a], &st->g[b]))
				continue;
			for (int k = 0; k < PLOTS_NVERDICT; k++) {
				int m = plots_verdict_metrics[k];
				group_values(runs, &st->g[a], m, xa);
				group_values(runs, &st->g[b], m, xb);
				struct plots_cmp *c = &st->c[st->nc];
				*c = (struct plots_cmp){.a = a, .b = b, .metric = m};
				reel_welch_test(xa, (unsigned)st->g[a].n, xb, (unsigned)st->g[b].n,
						gm[m].res, 1, &c->w);
				p[st->nc++] = c->w.p;
			}
		}
	reel_holm(p, st->nc, alpha, rej);
	for (size_t i = 0; i < st->nc; i++) {
		struct plots_cmp *c = &st->c[i];
		c->significant = rej[i];
		if (rej[i])
			st->nsig++;
		int up = c->w.diff > 0;
		c->better = !rej[i] ? 0 : (up == gm[c->metric].higher_better ? 1 : -1);
	}
	free(p);
	free(rej);
	return 0;
}

/* Do the runs that would be ranked differ in trace or timing? */
static void mixed(struct plots_run *const *runs, size_t n, struct plots_stats *st)
{
	const struct plots_run *f = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct plots_run *r = runs[i];
		if (!r->is_replay || r->part_of >= 0)
			continue;
		if (!f) {
			f = r;
			continue;
		}
		st->mixed_traces |= strcmp(f->trace, r->trace) != 0;
		st->mixed_timing |= strcmp(f->timing, r->timing) != 0 || f->speed != r->speed;
	}
}

int plots_stats_compute(struct plots_run *const *runs, size_t n, double alpha,
			struct plots_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->alpha = alpha;
	mixed(runs, n, st);
	double *xa = calloc(n ? n : 1, sizeof(*xa)), *xb = calloc(n ? n : 1, sizeof(*xb));
	int rc = xa && xb ? make_groups(runs, n, st) : -ENOMEM;
	if (rc == 0) {
		summarize(runs, st, xa);
		rc = compare_groups(runs, st, xa, xb, alpha);
	}
	free(xa);
	free(xb);
	if (rc < 0)
		plots_stats_free(st);
	return rc;
}

void plots_stats_free(struct plots_stats *st)
{
	if (!st)
		return;
	for (size_t i = 0; st->g && i < st->ng; i++)
		free(st->g[i].idx);
	free(st->g);
	free(st->c);
	memset(st, 0, sizeof(*st));
}

int plots_run_in_repeats(const struct plots_stats *st, size_t run)
{
	for (size_t i = 0; i < st->ng; i++)
		if (st->g[i].n >= 2)
			for (size_t k = 0; k < st->g[i].n; k++)
				if (st->g[i].idx[k] == run)
					return 1;
	return 0;
}

void plots_flags_text(unsigned flags, const struct plots_run *r, char *buf, size_t len)
{
	buf[0] = 0;
	if ((flags & PLOTS_FLAG_SHORT) && r)
		plots_strf(buf, len, "TOO SHORT (%.2f s busy < %g s)", r->busy_s, PLOTS_MIN_BUSY_S);
	else if (flags & PLOTS_FLAG_SHORT)
		plots_strf(buf, len, "TOO SHORT (runs under %g s busy)", PLOTS_MIN_BUSY_S);
	if (flags & PLOTS_FLAG_HOST) {
		size_t l = strlen(buf);
		plots_strf(buf + l, len - l, "%sHOST-BOUND (p99 issue error > %g us)",
			   l ? "; " : "", PLOTS_ISSUE_ERROR_LIMIT_US);
	}
}

void plots_cmp_text(const struct plots_cmp *c, char *buf, size_t len)
{
	if (!c->significant) {
		plots_strf(buf, len, "within noise");
		return;
	}
	plots_strf(buf, len, "%+.1f%% [%+.1f, %+.1f] %s", c->w.pct, c->w.pct_lo, c->w.pct_hi,
		   c->better > 0 ? "better" : "worse");
}

void plots_summary_text(const struct reel_sample_stats *s, char *buf, size_t len)
{
	if (s->n < 2)
		plots_strf(buf, len, "%.1f", s->mean);
	else
		plots_strf(buf, len, "%.1f +-%.1f [%.1f, %.1f]", s->mean, s->sd, s->ci_lo,
			   s->ci_hi);
}

/* ---- text and JSON ----------------------------------------------------- */
void plots_repeats_text(FILE *f, const struct plots_stats *st)
{
	if (!st->nrepeated)
		return;
	fprintf(f, "\nRepeats (runs of one trace, timing, qd, data and name): mean +-sd "
		   "[95%% CI], rates over busy time\n");
	for (size_t i = 0; i < st->ng; i++) {
		const struct plots_group *g = &st->g[i];
		char fl[160];
		plots_flags_text(g->flags, NULL, fl, sizeof(fl));
		fprintf(f, "  %s (%zu runs)%s%s\n", g->label, g->n, fl[0] ? "  " : "", fl);
		for (int m = 0; m < PLOTS_G__COUNT; m++) {
			char b[128];
			plots_summary_text(&g->s[m], b, sizeof(b));
			fprintf(f, "    %-18s %s %s\n", gm[m].title, b, gm[m].unit);
		}
	}
	if (!st->nc)
		return;
	fprintf(f,
		"\nVerdicts (second vs first; Welch's t on logs, Holm over all %zu "
		"comparisons, family-wise alpha %g): %zu significant\n",
		st->nc, st->alpha, st->nsig);
	for (size_t i = 0; i < st->nc; i += PLOTS_NVERDICT) {
		fprintf(f, "  %s\n    vs %s\n", st->g[st->c[i].a].label, st->g[st->c[i].b].label);
		for (size_t k = 0; k < PLOTS_NVERDICT && i + k < st->nc; k++) {
			char b[128];
			plots_cmp_text(&st->c[i + k], b, sizeof(b));
			fprintf(f, "    %-18s %s (p = %.3g)\n", gm[st->c[i + k].metric].title, b,
				st->c[i + k].w.p);
		}
	}
}

static void json_group(FILE *f, struct plots_run *const *runs, const struct plots_group *g)
{
	fputs("{\"label\": ", f);
	reel_json_str(f, g->label);
	fputs(", \"name\": ", f);
	reel_json_str(f, g->first->name);
	fprintf(f, ", \"trace\": ");
	reel_json_str(f, g->first->trace);
	fprintf(f, ", \"timing\": ");
	reel_json_str(f, g->first->timing);
	fprintf(f, ", \"qd\": ");
	reel_json_str(f, g->first->qd);
	fprintf(f, ", \"data\": ");
	reel_json_str(f, g->first->data);
	fprintf(f, ", \"runs\": [");
	for (size_t k = 0; k < g->n; k++)
		fprintf(f, "%s%zu", k ? ", " : "", g->idx[k]);
	fprintf(f, "], \"too_short\": %s, \"host_bound\": %s",
		g->flags & PLOTS_FLAG_SHORT ? "true" : "false",
		g->flags & PLOTS_FLAG_HOST ? "true" : "false");
	for (int m = 0; m < PLOTS_G__COUNT; m++) {
		const struct reel_sample_stats *s = &g->s[m];
		fprintf(f, ",\n      \"%s\": {", gm[m].key);
		reel_json_summary(f, s, 10, 0);
		fputs(", \"values\": [", f);
		for (size_t k = 0; k < g->n; k++) {
			fputs(k ? ", " : "", f);
			reel_json_num(f, plots_gmetric(runs[g->idx[k]], m), 10);
		}
		fputs("]}", f);
	}
	fputs("}", f);
}

static void json_cmp(FILE *f, const struct plots_cmp *c)
{
	fprintf(f, "{\"a\": %zu, \"b\": %zu, \"metric\": \"%s\", ", c->a, c->b, gm[c->metric].key);
	reel_json_welch(f, &c->w, 10, 0);
	fputs(", \"pct\": ", f);
	reel_json_num(f, c->w.pct, 10);
	fputs(", ", f);
	reel_json_interval(f, "pct_ci95", c->w.pct_lo, c->w.pct_hi, 10, 0);
	fprintf(f, ", \"significant\": %s, \"verdict\": \"%s\"}", c->significant ? "true" : "false",
		!c->significant ? "within noise"
		: c->better > 0 ? "better"
				: "worse");
}

void plots_repeats_json(FILE *f, struct plots_run *const *runs, const struct plots_stats *st)
{
	fprintf(f, ",\n  \"mixed_traces\": %s, \"mixed_timing\": %s",
		st->mixed_traces ? "true" : "false", st->mixed_timing ? "true" : "false");
	fputs(",\n  \"groups\": [", f);
	for (size_t i = 0; i < st->ng; i++) {
		fputs(i ? ",\n    " : "\n    ", f);
		json_group(f, runs, &st->g[i]);
	}
	fputs("\n  ],\n  \"verdicts\": {\"test\": \"Welch t on logs, Holm\", \"alpha\": ", f);
	reel_json_num(f, st->alpha, 10);
	fprintf(f, ", \"comparisons\": %zu, \"significant\": %zu, \"list\": [", st->nc, st->nsig);
	for (size_t i = 0; i < st->nc; i++) {
		fputs(i ? ",\n    " : "\n    ", f);
		json_cmp(f, &st->c[i]);
	}
	fputs("\n  ]}", f);
}
