/*
 * suite/charts.c - the suite's charts: gnuplot data files in DIR/data and
 * PNGs in DIR, rendered by the scripts suite/suite_*.gp through
 * plots_gnuplot().  One horizontal bar chart per headline metric (a bar per
 * trace, drive and state, error bars = 95% CI), the latency percentiles on
 * a "nines" axis, QD scaling, data modes, and the steady-state rounds.
 * The headline setting of a trace is the first timing, QD and data mode
 * the plan lists.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plots/plots.h"
#include "suite/suite.h"

/* Drive colours: dark enough on white, no yellow; the full and steady
 * states use lighter shades of the drive's colour. */
static const unsigned palette[] = {0x1f5fa8, 0xc0392b, 0x2e8b3a, 0x7b4fa0,
				   0x8c564b, 0xd0508f, 0x138d90, 0x555555};

static unsigned shade(unsigned rgb, int state)
{
	double mix = state == SUITE_STATE_EMPTY ? 0 : state == SUITE_STATE_FULL ? 0.45 : 0.7;
	unsigned out = 0;
	for (int sh = 0; sh <= 16; sh += 8) {
		unsigned c = (rgb >> sh) & 255;
		c = (unsigned)(c + (255 - c) * mix + 0.5);
		out |= c << sh;
	}
	return out;
}

static unsigned drive_colour(size_t d)
{
	return palette[d % (sizeof(palette) / sizeof(palette[0]))];
}

size_t suite_cell_index(const struct suite_plan *p, size_t state_pos, size_t w, size_t t, size_t q,
			size_t dm)
{
	return (((state_pos * p->nw + w) * p->ntiming + t) * p->nqd + q) * p->ndata + dm;
}

struct chart_job {
	const struct suite_opts *o;
	int datafd;	      /* outdir/data */
	struct reel_out data; /* the data file being written */
	const struct suite_results *res;
	struct suite_chart *charts;
	size_t *n;
	char *errmsg;
	size_t errlen;
};

/* A data file in outdir/data, through the output policy: one at a time,
 * committed by data_close(). */
static FILE *data_open(struct chart_job *j, const char *name)
{
	if (reel_out_open(&j->data, j->datafd, name, REEL_OUT_OVERWRITE, NULL, NULL, 0, j->errmsg,
			  j->errlen) < 0)
		return NULL;
	return j->data.f;
}

static int data_close(struct chart_job *j)
{
	return reel_out_commit(&j->data, j->errmsg, j->errlen);
}

/* gnuplot writes the chart to its standard output ("-" in place of the file
 * name among args), copied into outdir/file through the output policy. */
static int render(struct chart_job *j, const char *script, const char *file, const char *title,
		  const char *caption, const char *const *args, size_t nargs)
{
	const char *a[16];
	struct reel_out out;
	for (size_t i = 0; i < nargs && i < 16; i++)
		a[i] = strcmp(args[i], file) ? args[i] : "-";
	int rc = reel_out_open(&out, j->o->outfd, file, REEL_OUT_OVERWRITE, NULL, NULL, 0,
			       j->errmsg, j->errlen);
	if (rc < 0)
		return rc;
	rc = plots_gnuplot(j->o->outfd, out.f, script, a, nargs < 16 ? nargs : 16, j->errmsg,
			   j->errlen);
	if (rc < 0) {
		reel_out_abort(&out);
		return rc;
	}
	if ((rc = reel_out_commit(&out, j->errmsg, j->errlen)) < 0)
		return rc;
	if (*j->n < SUITE_MAX_CHARTS) {
		struct suite_chart *c = &j->charts[(*j->n)++];
		snprintf(c->file, sizeof(c->file), "%s", file);
		snprintf(c->title, sizeof(c->title), "%s", title);
		snprintf(c->caption, sizeof(c->caption), "%s", caption);
	}
	return 0;
}

/* Did workload w's headline cell run (an interrupted suite may stop
 * before)?  Charts leave out the traces that did not. */
static int has_data(const struct chart_job *j, size_t w)
{
	const struct suite_plan *p = j->o->plan;
	size_t c = suite_cell_index(p, 0, w, 0, 0, 0);
	return j->res->runs[c * j->o->ndrives * p->repeats].copies > 0;
}

/* gnuplot word lists must not hold spaces */
static void no_spaces(char *s)
{
	for (; *s; s++)
		if (*s == ' ' || *s == '"' || *s == '\'')
			*s = '_';
}

/* ---- horizontal bars: one per trace, drive and state -------------------- */
static int bars_chart(struct chart_job *j, int m)
{
	const struct suite_opts *o = j->o;
	const struct suite_plan *p = o->plan;
	char name[64], file[80], title[200], xlabel[96], rows[16];
	snprintf(name, sizeof(name), "bars_%s.dat", suite_metric_key(m));
	snprintf(file, sizeof(file), "bars_%s.png", suite_metric_key(m));
	FILE *f = data_open(j, name);
	if (!f)
		return -errno;
	fprintf(f, "# y mean ci_lo ci_hi rgb label\n");
	int y = 0;
	for (size_t w = 0; w < p->nw; w++) {
		for (size_t d = 0; d < o->ndrives; d++)
			for (size_t s = 0; s < p->nstates; s++) {
				size_t c = suite_cell_index(p, s, w, 0, 0, 0);
				struct reel_sample_stats su;
				suite_cell_summary(o, j->res, c, d, m, &su);
				fprintf(f, "%d %g %g %g %u \"%s: %s, %s\"\n", y++,
					su.n ? su.mean : 0, su.n ? su.ci_lo : 0,
					su.n ? su.ci_hi : 0, shade(drive_colour(d), p->states[s]),
					p->w[w].name, o->drives[d].name,
					suite_state_name(p->states[s]));
			}
		y++; /* a gap between traces */
	}
	if (data_close(j) < 0)
		return -1;
	snprintf(title, sizeof(title), "%s (QD %s, %s data, %s timing)", suite_metric_title(m),
		 p->qd[0], p->data[0], p->timing[0].name);
	snprintf(xlabel, sizeof(xlabel), "%s%s", suite_metric_unit(m),
		 suite_metric_higher_better(m) ? " (higher is better)" : " (lower is better)");
	snprintf(rows, sizeof(rows), "%d", y - 1);
	char dat[96];
	snprintf(dat, sizeof(dat), "data/%s", name);
	const char *args[] = {dat, file, title, xlabel, rows};
	char cap[512];
	snprintf(
	    cap, sizeof(cap),
	    "Mean of the repeats per drive and state; error bars: 95%% "
	    "confidence interval of the mean. A drive's colour is darkest for the empty state, "
	    "lighter for full, lightest for steady.");
	return render(j, "../suite/suite_bars", file, title, cap, args, 5);
}

/* Series (drive x state) colours (the bar charts' shades), and dash types
 * (nines) or point types (categories) by state, for line charts. */
static void series_lists(const struct suite_opts *o, char *colours, size_t clen, char *dashes,
			 size_t dlen, int points)
{
	static const int point_of_state[SUITE__NSTATES] = {7, 5, 9};
	const struct suite_plan *p = o->plan;
	colours[0] = dashes[0] = 0;
	for (size_t d = 0; d < o->ndrives; d++)
		for (size_t s = 0; s < p->nstates; s++) {
			int st = p->states[s];
			snprintf(colours + strlen(colours), clen - strlen(colours), "%s#%06x",
				 colours[0] ? " " : "",
				 points ? shade(drive_colour(d), st) : drive_colour(d));
			snprintf(dashes + strlen(dashes), dlen - strlen(dashes), "%s%d",
				 dashes[0] ? " " : "", points ? point_of_state[st] : st + 1);
		}
}

static void series_header(FILE *f, const struct suite_opts *o, int triples)
{
	const struct suite_plan *p = o->plan;
	fprintf(f, "x label");
	for (size_t d = 0; d < o->ndrives; d++)
		for (size_t s = 0; s < p->nstates; s++) {
			fprintf(f, " \"%s, %s\"", o->drives[d].name,
				suite_state_name(p->states[s]));
			if (triples)
				fprintf(f, " lo hi");
		}
	fputc('\n', f);
}

/* The panels' titles (traces with data); returns their count. */
static size_t panel_titles(const struct chart_job *j, char *buf, size_t len)
{
	const struct suite_plan *p = j->o->plan;
	size_t n = 0;
	buf[0] = 0;
	for (size_t w = 0; w < p->nw; w++) {
		if (!has_data(j, w))
			continue;
		char t[80];
		snprintf(t, sizeof(t), "%s", p->w[w].name);
		no_spaces(t);
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", n++ ? " " : "", t);
	}
	return n;
}

/* ---- the nines: latency percentiles on a -log10(1-p) axis ---------------- */
static int nines_chart(struct chart_job *j)
{
	const struct suite_opts *o = j->o;
	const struct suite_plan *p = o->plan;
	struct reel_hist *h = malloc(sizeof(*h));
	if (!h)
		return REEL_E_NOMEM;
	for (size_t w = 0, k = 0; w < p->nw; w++) {
		if (!has_data(j, w))
			continue;
		char name[64];
		snprintf(name, sizeof(name), "nines_%zu.dat", ++k);
		FILE *f = data_open(j, name);
		if (!f) {
			free(h);
			return -errno;
		}
		series_header(f, o, 0);
		for (int k = 0; k < SUITE_NNINES; k++) {
			double q = suite_nines[k];
			fprintf(f, "%g %g", -log10(1 - q), 100 * q);
			for (size_t d = 0; d < o->ndrives; d++)
				for (size_t s = 0; s < p->nstates; s++) {
					size_t c = suite_cell_index(p, s, w, 0, 0, 0);
					memset(h, 0, sizeof(*h));
					for (unsigned r = 0; r < p->repeats; r++)
						reel_hist_merge(
						    h,
						    &j->res
							 ->runs[(c * o->ndrives + d) * p->repeats +
								r]
							 .lat_all);
					if (h->count)
						fprintf(f, " %g",
							(double)reel_hist_quantile(h, q) / 1e3);
					else
						fprintf(f, " NaN");
				}
			fputc('\n', f);
		}
		if (data_close(j) < 0)
			return -1;
	}
	free(h);
	char colours[512], dashes[128], panels[1200], np[24], title[200];
	series_lists(o, colours, sizeof(colours), dashes, sizeof(dashes), 0);
	size_t npanels = panel_titles(j, panels, sizeof(panels));
	if (!npanels)
		return 0;
	snprintf(np, sizeof(np), "%zu", npanels);
	snprintf(title, sizeof(title),
		 "Latency percentiles (QD %s, %s data, %s timing; all "
		 "repeats pooled)",
		 p->qd[0], p->data[0], p->timing[0].name);
	const char *args[] = {"nines.png", title, np, "data/nines_", panels, colours, dashes};
	return render(j, "../suite/suite_nines", "nines.png", title,
		      "Latency (issue to completion) at the 50th to 99.99th percentile, log scale; "
		      "a curve further right and lower is better. Percentiles beyond the number of "
		      "I/Os in a run are the run's maximum.",
		      args, 7);
}

/* ---- categories: QD scaling and data modes ------------------------------- */
static int category_chart(struct chart_job *j, int by_qd)
{
	const struct suite_opts *o = j->o;
	const struct suite_plan *p = o->plan;
	size_t ncat = by_qd ? p->nqd : p->ndata;
	int m = by_qd ? SUITE_M_IOPS : SUITE_M_RATE;
	const char *stem = by_qd ? "qd" : "data";
	char ymax[SUITE_MAX_WORKLOADS * 24] = "";
	for (size_t w = 0, panel = 0; w < p->nw; w++) {
		if (!has_data(j, w))
			continue;
		double top_mean = 0, top_hi = 0;
		char name[64];
		snprintf(name, sizeof(name), "%s_%zu.dat", stem, ++panel);
		FILE *f = data_open(j, name);
		if (!f)
			return -errno;
		series_header(f, o, 1);
		for (size_t k = 0; k < ncat; k++) {
			size_t c0 = suite_cell_index(p, 0, w, 0, by_qd ? k : 0, by_qd ? 0 : k);
			const struct suite_run_metrics *r0 =
			    &j->res->runs[c0 * o->ndrives * p->repeats];
			char label[64];
			if (by_qd)
				snprintf(label, sizeof(label), "QD %s", p->qd[k]);
			else if (r0->ratio > 0)
				snprintf(label, sizeof(label), "%s (LZ4 %.2f)", p->data[k],
					 r0->ratio);
			else
				snprintf(label, sizeof(label), "%s", p->data[k]);
			fprintf(f, "%zu \"%s\"", k, label);
			for (size_t d = 0; d < o->ndrives; d++)
				for (size_t s = 0; s < p->nstates; s++) {
					size_t c = suite_cell_index(p, s, w, 0, by_qd ? k : 0,
								    by_qd ? 0 : k);
					struct reel_sample_stats su;
					suite_cell_summary(o, j->res, c, d, m, &su);
					if (su.n) {
						fprintf(f, " %g %g %g", su.mean, su.ci_lo,
							su.ci_hi);
						top_mean = fmax(top_mean, su.mean);
						top_hi = fmax(top_hi, su.ci_hi);
					} else
						fprintf(f, " NaN NaN NaN");
				}
			fputc('\n', f);
		}
		if (data_close(j) < 0)
			return -1;
		/* the CIs, but not so far that the means flatten out */
		snprintf(ymax + strlen(ymax), sizeof(ymax) - strlen(ymax), "%s%g",
			 panel > 1 ? " " : "",
			 top_mean > 0 ? fmin(top_hi, 2.5 * top_mean) * 1.08 : 1);
	}
	char colours[512], dashes[128], panels[1200], np[24], title[200], out[32], prefix[32];
	series_lists(o, colours, sizeof(colours), dashes, sizeof(dashes), 1);
	size_t npanels = panel_titles(j, panels, sizeof(panels));
	if (!npanels)
		return 0;
	snprintf(np, sizeof(np), "%zu", npanels);
	snprintf(out, sizeof(out), "%s.png", stem);
	snprintf(prefix, sizeof(prefix), "data/%s_", stem);
	if (by_qd)
		snprintf(title, sizeof(title),
			 "Queue-depth scaling: IOPS over busy time (%s data, "
			 "%s timing)",
			 p->data[0], p->timing[0].name);
	else
		snprintf(title, sizeof(title),
			 "Data modes: average data rate, MB/s (QD %s, %s "
			 "timing)",
			 p->qd[0], p->timing[0].name);
	const char *ylabel = by_qd ? "IOPS" : "MB/s";
	const char *args[] = {out, title, np, prefix, panels, colours, dashes, ylabel, ymax};
	return render(
	    j, "../suite/suite_lines", out, title,
	    by_qd ? "Mean IOPS per queue depth with 95% CI; 'original' keeps the trace's "
		    "own in-flight count."
		  : "Mean data rate per data mode with 95% CI; the LZ4 ratio achieved is in "
		    "the label (a compressing drive is faster on compressible data).",
	    args, 9);
}

/* ---- steady state: the metric of each round ----------------------------- */
static int steady_chart(struct chart_job *j)
{
	const struct suite_opts *o = j->o;
	FILE *f = data_open(j, "steady.dat");
	if (!f)
		return -errno;
	fprintf(f, "round");
	for (size_t d = 0; d < o->ndrives; d++)
		fprintf(f, " \"%s%s\"", o->drives[d].name,
			j->res->state[d][SUITE_STATE_STEADY].steady_reached ? " (steady)"
									    : " (NOT steady)");
	fputc('\n', f);
	unsigned maxr = 0;
	for (size_t d = 0; d < o->ndrives; d++)
		if (j->res->state[d][SUITE_STATE_STEADY].rounds > maxr)
			maxr = j->res->state[d][SUITE_STATE_STEADY].rounds;
	for (unsigned r = 0; r < maxr; r++) {
		fprintf(f, "%u", r + 1);
		for (size_t d = 0; d < o->ndrives; d++) {
			const struct suite_state_info *si = &j->res->state[d][SUITE_STATE_STEADY];
			if (r < si->rounds)
				fprintf(f, " %g", si->steady_iops[r]);
			else
				fprintf(f, " NaN");
		}
		fputc('\n', f);
	}
	if (data_close(j) < 0)
		return -1;
	char colours[512] = "", nd[16];
	for (size_t d = 0; d < o->ndrives; d++)
		snprintf(colours + strlen(colours), sizeof(colours) - strlen(colours), "%s#%06x",
			 d ? " " : "", drive_colour(d));
	snprintf(nd, sizeof(nd), "%zu", o->ndrives);
	const char *args[] = {"steady.png", nd, colours};
	return render(j, "../suite/suite_steady", "steady.png",
		      "Steady-state rounds (IOPS per round)",
		      "PTS rule: over the last 5 rounds, max - min within 20% of the average and "
		      "the best-fit line's excursion within 10%.",
		      args, 3);
}

/* ---- over time: one run per drive and state, per trace -------------------- */
static int time_data(struct chart_job *j, size_t w, const char *name, double *xmax)
{
	const struct suite_opts *o = j->o;
	const struct suite_plan *p = o->plan;
	FILE *f = data_open(j, name);
	if (!f)
		return -errno;
	fprintf(f, "# time_s MBps p99_us; a block per drive and state\n");
	*xmax = 0;
	for (size_t d = 0; d < o->ndrives; d++)
		for (size_t s = 0; s < p->nstates; s++) {
			const struct suite_series *se =
			    &j->res->series[(w * p->nstates + s) * o->ndrives + d];
			fprintf(f, "# %s, %s\n", o->drives[d].name, suite_state_name(p->states[s]));
			for (size_t b = 0; b < se->n; b++) {
				fprintf(f, "%g %g ", se->t[b], se->mbps[b]);
				fprintf(f, isnan(se->p99_us[b]) ? "NaN\n" : "%g\n", se->p99_us[b]);
				*xmax = fmax(*xmax, se->t[b] + se->interval_s / 2);
			}
			if (!se->n)
				fprintf(f, "0 NaN NaN\n");
			fprintf(f, "\n\n");
		}
	return data_close(j) < 0 ? -1 : 0;
}

static int time_chart(struct chart_job *j, size_t w)
{
	const struct suite_opts *o = j->o;
	const struct suite_plan *p = o->plan;
	char name[64], file[80], title[300], colours[512], dashes[128], titles[2048], ns[16],
	    xm[32];
	double xmax = 0;
	snprintf(name, sizeof(name), "time_%zu.dat", w + 1);
	snprintf(file, sizeof(file), "time_%zu.png", w + 1);
	int rc = time_data(j, w, name, &xmax);
	if (rc < 0)
		return rc;
	series_lists(o, colours, sizeof(colours), dashes, sizeof(dashes), 0);
	titles[0] = 0;
	for (size_t d = 0; d < o->ndrives; d++)
		for (size_t s = 0; s < p->nstates; s++)
			snprintf(titles + strlen(titles), sizeof(titles) - strlen(titles),
				 "%s\"%s, %s\"", titles[0] ? " " : "", o->drives[d].name,
				 suite_state_name(p->states[s]));
	snprintf(ns, sizeof(ns), "%zu", o->ndrives * p->nstates);
	snprintf(xm, sizeof(xm), "%g", xmax > 0 ? xmax : 1);
	snprintf(title, sizeof(title),
		 "%s over time: data rate and p99 latency (QD %s, %s data, "
		 "%s timing; first repeat)",
		 p->w[w].name, p->qd[0], p->data[0], p->timing[0].name);
	char dpath[96];
	snprintf(dpath, sizeof(dpath), "data/%s", name);
	const char *args[] = {file, title, dpath, ns, colours, dashes, titles, xm};
	return render(j, "../suite/suite_time", file, title,
		      "One run (the first repeat, the trace looped to the run's length) of each "
		      "drive and state over time: data rate per interval (top) and the p99 latency "
		      "of the I/Os completed in it (bottom, log scale), on one time axis. A faster "
		      "drive's run ends sooner.",
		      args, 8);
}

int suite_charts_render(const struct suite_opts *o, const struct suite_results *res,
			struct suite_chart *charts, size_t *ncharts, char *errmsg, size_t errlen)
{
	const struct suite_plan *p = o->plan;
	struct chart_job j = {
	    .o = o, .res = res, .charts = charts, .n = ncharts, .errmsg = errmsg, .errlen = errlen};
	*ncharts = 0;
	j.datafd = reel_outdir_sub(o->outfd, "data", errmsg, errlen);
	if (j.datafd < 0)
		return j.datafd;
	int rc = 0;
	for (int h = 0; h < SUITE_NHEADLINE && rc >= 0; h++)
		rc = bars_chart(&j, suite_headline[h]);
	if (rc >= 0)
		rc = nines_chart(&j);
	for (size_t w = 0; rc >= 0 && res->series && w < p->nw; w++)
		if (has_data(&j, w))
			rc = time_chart(&j, w);
	if (rc >= 0 && p->nqd > 1)
		rc = category_chart(&j, 1);
	if (rc >= 0 && p->ndata > 1)
		rc = category_chart(&j, 0);
	for (size_t s = 0; rc >= 0 && s < p->nstates; s++)
		if (p->states[s] == SUITE_STATE_STEADY)
			rc = steady_chart(&j);
	reel_out_abort(&j.data); /* a data file left open by a failure */
	close(j.datafd);
	return rc < 0 ? rc : 0;
}
