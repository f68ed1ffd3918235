/*
 * suite/report.c - the suite's report: report.md, report.html (self-
 * contained: the PNG charts inlined as base64) and summary.json.  The
 * tables are built once as rows of text (struct tbl) and written as
 * markdown or HTML, so the two reports say the same thing.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plots/plots.h"
#include "suite/suite.h"

/* ---- a table of text cells ------------------------------------------------ */
struct tbl {
	size_t ncol, nrow;
	char **cell;	  /* nrow * ncol strings (row 0: the header) */
	char **row_class; /* per row, or NULL */
};

static void tbl_init(struct tbl *t, size_t ncol)
{
	memset(t, 0, sizeof(*t));
	t->ncol = ncol;
}

/* Append a row of ncol strings (copied); cls is the HTML class or NULL. */
static void tbl_row(struct tbl *t, const char *cls, const char *const *v)
{
	char **nc = realloc(t->cell, (t->nrow + 1) * t->ncol * sizeof(*nc));
	char **nr = realloc(t->row_class, (t->nrow + 1) * sizeof(*nr));
	if (nc)
		t->cell = nc;
	if (nr)
		t->row_class = nr;
	if (!nc || !nr)
		return;
	for (size_t i = 0; i < t->ncol; i++)
		t->cell[t->nrow * t->ncol + i] = strdup(v[i] ? v[i] : "");
	t->row_class[t->nrow] = cls ? strdup(cls) : NULL;
	t->nrow++;
}

static void tbl_free(struct tbl *t)
{
	for (size_t i = 0; i < t->nrow * t->ncol; i++)
		free(t->cell[i]);
	for (size_t i = 0; i < t->nrow; i++)
		free(t->row_class[i]);
	free(t->cell);
	free(t->row_class);
}

static void tbl_write(FILE *f, const struct tbl *t, int html, const char *id)
{
	if (!t->nrow)
		return;
	if (html) {
		fprintf(f, "<table%s%s%s>\n", id ? " id=\"" : "", id ? id : "", id ? "\"" : "");
		for (size_t r = 0; r < t->nrow; r++) {
			const char *td = r ? "td" : "th";
			if (r && t->row_class[r])
				fprintf(f, "<tr class=\"%s\">", t->row_class[r]);
			else
				fputs("<tr>", f);
			for (size_t c = 0; c < t->ncol; c++) {
				fprintf(f, "<%s>", td);
				plots_escape_text(f, 0, t->cell[r * t->ncol + c]);
				fprintf(f, "</%s>", td);
			}
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
		return;
	}
	for (size_t r = 0; r < t->nrow; r++) {
		fputc('|', f);
		for (size_t c = 0; c < t->ncol; c++) {
			fputc(' ', f);
			plots_escape_text(f, 1, t->cell[r * t->ncol + c]);
			fputs(" |", f);
		}
		fputc('\n', f);
		if (r == 0) {
			fputc('|', f);
			for (size_t c = 0; c < t->ncol; c++)
				fputs(c ? "---:|" : "---|", f);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
}

/* ---- what the tables say ------------------------------------------------- */
struct cd_info { /* one drive in one cell */
	double busy, ratio, issue_p99;
	unsigned runs, copies;
	int is_short, noisy, host_bound;
};

static void cd_info(const struct suite_opts *o, const struct suite_results *res, size_t c, size_t d,
		    struct cd_info *ci)
{
	const struct suite_plan *p = o->plan;
	memset(ci, 0, sizeof(*ci));
	ci->issue_p99 = -1;
	for (unsigned r = 0; r < p->repeats; r++) {
		const struct suite_run_metrics *m =
		    &res->runs[(c * o->ndrives + d) * p->repeats + r];
		if (!m->copies)
			continue;
		ci->runs++;
		ci->copies = m->copies;
		ci->busy += m->busy_s;
		ci->ratio += m->ratio;
		ci->issue_p99 = fmax(ci->issue_p99, m->issue_p99_us);
		ci->host_bound |= m->host_bound;
	}
	if (ci->runs) {
		ci->busy /= ci->runs;
		ci->ratio /= ci->runs;
	}
	struct reel_sample_stats s;
	suite_cell_summary(o, res, c, d, SUITE_M_RATE, &s);
	ci->is_short = ci->runs && ci->busy < 1.0;
	ci->noisy = s.n >= 2 && s.cv > p->max_cv;
}

static void cd_flags(const struct cd_info *ci, const struct suite_plan *p, char *buf, size_t len)
{
	buf[0] = 0;
	if (!ci->runs)
		snprintf(buf, len, "not run");
	if (ci->is_short)
		snprintf(buf + strlen(buf), len - strlen(buf), "%sTOO SHORT (%.2f s busy < 1 s)",
			 buf[0] ? "; " : "", ci->busy);
	if (ci->noisy)
		snprintf(buf + strlen(buf), len - strlen(buf), "%sNOISY (CV of data rate > %g%%)",
			 buf[0] ? "; " : "", 100 * p->max_cv);
	if (ci->host_bound)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "%sHOST-BOUND (p99 issue error %.0f us > %g us: this run measured the "
			 "host, not the drive)",
			 buf[0] ? "; " : "", ci->issue_p99, p->issue_error_limit_us);
}

static void fmt_val(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static void fmt_summary(const struct reel_sample_stats *s, char *buf, size_t len)
{
	char m[32], lo[32], hi[32];
	if (!s->n) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_val(s->mean, m, sizeof(m));
	fmt_val(s->ci_lo, lo, sizeof(lo));
	fmt_val(s->ci_hi, hi, sizeof(hi));
	snprintf(buf, len, "%.24s [%.24s, %.24s]", m, lo, hi);
}

static const struct suite_cmp *find_cmp(const struct suite_verdicts *v, size_t c, size_t a,
					size_t b, int m)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->cmp[i].cell == c && v->cmp[i].a == a && v->cmp[i].b == b &&
		    v->cmp[i].metric == m)
			return &v->cmp[i];
	return NULL;
}

static void fmt_cmp(const struct suite_cmp *k, char *buf, size_t len)
{
	if (!k)
		snprintf(buf, len, "n/a");
	else if (!k->significant)
		snprintf(buf, len, "within noise");
	else
		snprintf(buf, len, "%+.1f%% [%+.1f, %+.1f] %s", k->w.pct, k->w.pct_lo, k->w.pct_hi,
			 k->better > 0 ? "better" : "worse");
}

/* Verdicts: a row per cell and drive pair, a column per headline metric. */
static void verdict_table(const struct suite_opts *o, const struct suite_results *res,
			  const struct suite_verdicts *v, struct tbl *t)
{
	tbl_init(t, 2 + SUITE_NHEADLINE);
	const char *hdr[2 + SUITE_NHEADLINE] = {"cell", "drives"};
	for (int h = 0; h < SUITE_NHEADLINE; h++)
		hdr[2 + h] = suite_metric_title(suite_headline[h]);
	tbl_row(t, NULL, hdr);
	for (size_t c = 0; c < res->ncells; c++)
		for (size_t b = 0; b < o->ndrives; b++) /* b vs a: b given first */
			for (size_t a = b + 1; a < o->ndrives; a++) {
				char cell[200], pair[160], val[SUITE_NHEADLINE][96];
				const char *row[2 + SUITE_NHEADLINE] = {cell, pair};
				suite_cell_label(o->plan, &res->cells[c], cell, sizeof(cell));
				snprintf(pair, sizeof(pair), "%s vs %s", o->drives[b].name,
					 o->drives[a].name);
				for (int h = 0; h < SUITE_NHEADLINE; h++) {
					fmt_cmp(find_cmp(v, c, a, b, suite_headline[h]), val[h],
						sizeof(val[h]));
					row[2 + h] = val[h];
				}
				tbl_row(t, "verdict", row);
			}
}

/* Results: a row per cell and drive, means with 95% CI, and the flags. */
static void results_table(const struct suite_opts *o, const struct suite_results *res,
			  const int *metrics, int nm, struct tbl *t)
{
	tbl_init(t, 5 + (size_t)nm);
	const char *hdr[5 + SUITE__NMETRICS] = {"cell", "drive", "runs x trace copies",
						"LZ4 ratio"};
	for (int h = 0; h < nm; h++)
		hdr[4 + h] = suite_metric_title(metrics[h]);
	hdr[4 + nm] = "flags";
	tbl_row(t, NULL, hdr);
	for (size_t c = 0; c < res->ncells; c++)
		for (size_t d = 0; d < o->ndrives; d++) {
			char cell[200], rp[32], ratio[32], flags[400], val[SUITE__NMETRICS][96];
			const char *row[5 + SUITE__NMETRICS] = {cell, o->drives[d].name, rp, ratio};
			struct cd_info ci;
			cd_info(o, res, c, d, &ci);
			suite_cell_label(o->plan, &res->cells[c], cell, sizeof(cell));
			snprintf(rp, sizeof(rp), "%u x %u", ci.runs, ci.copies);
			if (ci.ratio > 0)
				snprintf(ratio, sizeof(ratio), "%.2f", ci.ratio);
			else
				snprintf(ratio, sizeof(ratio), "-");
			for (int h = 0; h < nm; h++) {
				struct reel_sample_stats s;
				suite_cell_summary(o, res, c, d, metrics[h], &s);
				fmt_summary(&s, val[h], sizeof(val[h]));
				row[4 + h] = val[h];
			}
			cd_flags(&ci, o->plan, flags, sizeof(flags));
			row[4 + nm] = flags;
			tbl_row(t, ci.is_short || ci.noisy || ci.host_bound ? "flagged" : NULL,
				row);
		}
}

static void fmt_cap(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ull << 30))
		snprintf(buf, len, "%.2f GiB", (double)b / (1ull << 30));
	else
		snprintf(buf, len, "%.0f MiB", (double)b / (1ull << 20));
}

static void drives_table(const struct suite_opts *o, struct tbl *t)
{
	tbl_init(t, 10);
	const char *hdr[] = {"drive",
			     "device",
			     "model",
			     "serial",
			     "firmware",
			     "capacity",
			     "block size (logical/physical)",
			     "rotational",
			     "scheduler",
			     "nr_requests"};
	tbl_row(t, NULL, hdr);
	for (size_t d = 0; d < o->ndrives; d++) {
		const struct suite_drive *x = &o->drives[d];
		char dev[256], cap[32], bs[32], rot[8], nr[16];
		snprintf(dev, sizeof(dev), "%.180s (%.60s)", x->path, x->kname);
		fmt_cap(x->capacity, cap, sizeof(cap));
		snprintf(bs, sizeof(bs), "%u/%u", x->lbs, x->pbs);
		snprintf(rot, sizeof(rot), "%u", x->rotational);
		snprintf(nr, sizeof(nr), "%u", x->nr_requests);
		const char *row[] = {x->name,
				     dev,
				     x->model[0] ? x->model : "-",
				     x->serial[0] ? x->serial : "-",
				     x->firmware[0] ? x->firmware : "-",
				     cap,
				     bs,
				     rot,
				     x->scheduler[0] ? x->scheduler : "-",
				     nr};
		tbl_row(t, NULL, row);
	}
}

/* Trace fit: each trace's extent against each drive's size; returns how
 * many pairs had their offsets moved (wrapped or scaled). */
static size_t fit_table(const struct suite_opts *o, struct tbl *t)
{
	const struct suite_plan *p = o->plan;
	size_t moved = 0;
	tbl_init(t, 5);
	const char *hdr[] = {"trace", "extent (furthest I/O end)", "drive", "drive size",
			     "offsets"};
	tbl_row(t, NULL, hdr);
	for (size_t w = 0; w < p->nw; w++)
		for (size_t d = 0; d < o->ndrives; d++) {
			char ext[32], cap[32], how[128];
			int fitted = suite_fit_describe(p, w, &o->drives[d], how, sizeof(how));
			if (!fitted)
				snprintf(how, sizeof(how), "within the drive: replayed as traced");
			moved += (size_t)fitted;
			fmt_cap(p->w[w].extent, ext, sizeof(ext));
			fmt_cap(o->drives[d].capacity, cap, sizeof(cap));
			const char *row[] = {p->w[w].name, ext, o->drives[d].name, cap, how};
			tbl_row(t, fitted ? "flagged" : NULL, row);
		}
	return moved;
}

static void states_table(const struct suite_opts *o, const struct suite_results *res, struct tbl *t)
{
	const struct suite_plan *p = o->plan;
	tbl_init(t, 6);
	const char *hdr[] = {"drive",		"state",	"purge method",
			     "preconditioning", "steady state", "time to set"};
	tbl_row(t, NULL, hdr);
	for (size_t d = 0; d < o->ndrives; d++)
		for (size_t s = 0; s < p->nstates; s++) {
			int st = p->states[s];
			const struct suite_state_info *si = &res->state[d][st];
			char pre[128] = "none (purged only)", steady[128] = "-", secs[32];
			if (!si->done)
				continue;
			if (st != SUITE_STATE_EMPTY)
				snprintf(pre, sizeof(pre),
					 "sequential 128 KiB random-data writes, "
					 "%.2f GiB (%gx capacity)",
					 si->fill_gib, p->fill_factor);
			if (st == SUITE_STATE_STEADY)
				snprintf(steady, sizeof(steady), "%s after %u rounds (cap %u)",
					 si->steady_reached ? "reached" : "NOT reached", si->rounds,
					 p->steady_rounds);
			snprintf(secs, sizeof(secs), "%.1f s", si->seconds);
			const char *row[] = {
			    o->drives[d].name, suite_state_name(st), si->method, pre, steady, secs};
			tbl_row(t, NULL, row);
		}
}

/* ---- the documents -------------------------------------------------------- */
static void fmt_time(int64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

static const char method_text[] =
    "Each cell ran %u times per drive, repeat r on every drive before repeat r+1 (drive "
    "order alternating), every run of a cell on every drive replaying the same trace "
    "copies: the most that any drive needed to reach the plan's min-busy, found by sizing "
    "runs that are not kept. Values are means with their 95%% confidence interval (Student t, "
    "n-1 df). Two drives differ on a metric only when Welch's t test (on the logarithms of "
    "the repeat values: rates and latencies differ by factors) is significant after "
    "Holm's correction over all %zu comparisons in this report (family-wise alpha %g); "
    "otherwise the verdict is \"within noise\" and the drives are not ranked. A difference "
    "in a row \"X vs Y\" is X's, as %% of Y's mean with its 95%% CI. Data rate = bytes read and "
    "written / busy time (time with at least one I/O in flight); IOPS = I/Os / busy time; "
    "latency = issue to completion; score = sqrt(MB/s x 1000 / mean latency in us) "
    "(PCMark 10 style). Runs are flagged TOO SHORT under 1 s of busy time, NOISY when the "
    "data rate's coefficient of variation across repeats exceeds %g%%, and HOST-BOUND when "
    "the replay's p99 issue error exceeds %g us (timed replays only).";

static const int detail_metrics[] = {SUITE_M_RATE,	SUITE_M_IOPS,	  SUITE_M_LAT_MEAN,
				     SUITE_M_LAT_P50,	SUITE_M_LAT_P99,  SUITE_M_LAT_P999,
				     SUITE_M_READ_MEAN, SUITE_M_READ_P99, SUITE_M_WRITE_MEAN,
				     SUITE_M_WRITE_P99, SUITE_M_OVER10MS, SUITE_M_SCORE};

struct doc {
	struct tbl verdict, results, drives, states, fit;
	size_t fit_moved; /* trace and drive pairs whose offsets were moved */
	char title[512], when[200], method[4096], counts[512], fitnote[256];
};

static void doc_build(const struct suite_opts *o, const struct suite_results *res,
		      const struct suite_verdicts *v, struct doc *d)
{
	const struct suite_plan *p = o->plan;
	verdict_table(o, res, v, &d->verdict);
	results_table(o, res, detail_metrics, (int)(sizeof(detail_metrics) / sizeof(int)),
		      &d->results);
	drives_table(o, &d->drives);
	states_table(o, res, &d->states);
	d->fit_moved = fit_table(o, &d->fit);
	suite_verdicts_sentence(o, v, d->counts, sizeof(d->counts));
	if (d->fit_moved)
		snprintf(d->fitnote, sizeof(d->fitnote),
			 "on %zu of %zu trace and drive pairs the trace reaches beyond the "
			 "drive's end, so its offsets were %s to fit (see Trace fit): those "
			 "replays do not keep the trace's locality.",
			 d->fit_moved, o->plan->nw * o->ndrives,
			 !strcmp(o->plan->fit, "scale") ? "scaled" : "wrapped");
	size_t n = 0;
	n += (size_t)snprintf(d->title + n, sizeof(d->title) - n, "ioreel suite: ");
	for (size_t i = 0; i < o->ndrives && n < sizeof(d->title); i++)
		n += (size_t)snprintf(d->title + n, sizeof(d->title) - n, "%s%s", i ? " vs " : "",
				      o->drives[i].name);
	char a[64], b[64];
	fmt_time(res->start_unix_ns, a, sizeof(a));
	fmt_time(res->end_unix_ns, b, sizeof(b));
	snprintf(d->when, sizeof(d->when), "%s to %s%s", a, b,
		 res->interrupted ? " (INTERRUPTED: partial results)" : "");
	n = (size_t)snprintf(d->method, sizeof(d->method), method_text, p->repeats, v->n, p->alpha,
			     100 * p->max_cv, p->issue_error_limit_us);
	for (size_t w = 0; w < p->nw && n < sizeof(d->method); w++)
		if (p->w[w].dropped)
			n += (size_t)snprintf(
			    d->method + n, sizeof(d->method) - n,
			    " %s: %llu I/Os that never completed in the capture "
			    "were left out (the trace's own queue depth needs every "
			    "I/O's completion time).",
			    p->w[w].name, (unsigned long long)p->w[w].dropped);
	if (n < sizeof(d->method))
		snprintf(d->method + n, sizeof(d->method) - n,
			 " I/Os are rounded to each drive's logical block (replay --align).");
}

static void doc_free(struct doc *d)
{
	tbl_free(&d->verdict);
	tbl_free(&d->results);
	tbl_free(&d->drives);
	tbl_free(&d->states);
	tbl_free(&d->fit);
}

static int write_md(const struct suite_opts *o, const struct suite_results *res,
		    const struct suite_verdicts *v, const struct doc *d,
		    const struct suite_chart *charts, size_t ncharts, FILE *f)
{
	fprintf(f, "# %s\n\n", d->title);
	fprintf(f, "- When: %s\n- Host: %s, kernel %s\n- ioreel %s\n- Plan: %s\n\n", d->when,
		res->host, res->kernel, o->version, o->plan->path);
	fprintf(f, "## Verdicts\n\n%s\n\n", d->counts);
	if (d->fitnote[0])
		fprintf(f, "**Offsets moved:** %s\n\n", d->fitnote);
	tbl_write(f, &d->verdict, 0, NULL);
	fprintf(f, "## Drives\n\n");
	tbl_write(f, &d->drives, 0, NULL);
	fprintf(f, "## Drive states\n\n");
	tbl_write(f, &d->states, 0, NULL);
	fprintf(f, "## Trace fit\n\n");
	tbl_write(f, &d->fit, 0, NULL);
	fprintf(f, "## Charts\n\n");
	for (size_t i = 0; i < ncharts; i++)
		fprintf(f, "### %s\n\n![%s](%s)\n\n%s\n\n", charts[i].title, charts[i].title,
			charts[i].file, charts[i].caption);
	fprintf(f, "## Results (mean [95%% CI])\n\n");
	tbl_write(f, &d->results, 0, NULL);
	fprintf(f, "## Method\n\n%s\n\n## Plan\n\n```ini\n%s```\n", d->method, o->plan->text);
	return ferror(f) ? -EIO : 0;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Write FILE (in dir) base64-encoded; returns 0 or -errno. */
static int base64_file(FILE *f, int dirfd, const char *file)
{
	int fd = openat(dirfd, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *in = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (!in) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return -e;
	}
	unsigned char b[3];
	size_t n;
	while ((n = fread(b, 1, 3, in)) > 0) {
		unsigned v =
		    (unsigned)b[0] << 16 | (n > 1 ? (unsigned)b[1] << 8 : 0) | (n > 2 ? b[2] : 0);
		fputc(b64[v >> 18], f);
		fputc(b64[(v >> 12) & 63], f);
		fputc(n > 1 ? b64[(v >> 6) & 63] : '=', f);
		fputc(n > 2 ? b64[v & 63] : '=', f);
	}
	fclose(in);
	return 0;
}

static const char html_style[] =
    "body{font-family:sans-serif;max-width:1150px;margin:1em auto;color:#222}"
    "table{border-collapse:collapse;margin:0.5em 0 1.5em;font-size:13px}"
    "td,th{border:1px solid #bbb;padding:3px 6px;text-align:left;vertical-align:top}"
    "th{background:#eef}tr.flagged td{background:#fff0e0}"
    "img.chart{max-width:100%;border:1px solid #ddd;margin:0.3em 0}"
    "pre{background:#f6f6f6;padding:0.5em}p.caption{font-size:13px;color:#444}";

static int write_html(const struct suite_opts *o, const struct suite_results *res,
		      const struct suite_verdicts *v, const struct doc *d,
		      const struct suite_chart *charts, size_t ncharts, FILE *f)
{
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
	plots_escape_text(f, 0, d->title);
	fprintf(f, "</title><style>%s</style></head><body>\n<h1>", html_style);
	plots_escape_text(f, 0, d->title);
	fprintf(f, "</h1>\n<ul><li>When: %s</li><li>Host: ", d->when);
	plots_escape_text(f, 0, res->host);
	fprintf(f, ", kernel %s</li><li>ioreel %s</li><li>Plan: ", res->kernel, o->version);
	plots_escape_text(f, 0, o->plan->path);
	fputs("</li></ul>\n<h2>Verdicts</h2>\n<p id=\"counts\">", f);
	plots_escape_text(f, 0, d->counts);
	fputs("</p>\n", f);
	if (d->fitnote[0]) {
		fputs("<p id=\"fitnote\"><b>Offsets moved:</b> ", f);
		plots_escape_text(f, 0, d->fitnote);
		fputs("</p>\n", f);
	}
	tbl_write(f, &d->verdict, 1, "verdicts");
	fputs("<h2>Drives</h2>\n", f);
	tbl_write(f, &d->drives, 1, "drives");
	fputs("<h2>Drive states</h2>\n", f);
	tbl_write(f, &d->states, 1, "states");
	fputs("<h2>Trace fit</h2>\n", f);
	tbl_write(f, &d->fit, 1, "fit");
	fputs("<h2>Charts</h2>\n", f);
	for (size_t i = 0; i < ncharts; i++) {
		fputs("<h3>", f);
		plots_escape_text(f, 0, charts[i].title);
		fprintf(f, "</h3>\n<img class=\"chart\" id=\"chart-%zu\" alt=\"", i);
		plots_escape_text(f, 0, charts[i].title);
		fputs("\" src=\"data:image/png;base64,", f);
		int rc = base64_file(f, o->outfd, charts[i].file);
		if (rc < 0)
			return rc;
		fputs("\">\n<p class=\"caption\">", f);
		plots_escape_text(f, 0, charts[i].caption);
		fputs("</p>\n", f);
	}
	fputs("<h2>Results (mean [95% CI])</h2>\n", f);
	tbl_write(f, &d->results, 1, "results");
	fputs("<h2>Method</h2>\n<p>", f);
	plots_escape_text(f, 0, d->method);
	fputs("</p>\n<h2>Plan</h2>\n<pre>", f);
	plots_escape_text(f, 0, o->plan->text);
	fputs("</pre>\n</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}

static int write_file(const struct suite_opts *o, const char *name,
		      int (*fn)(const struct suite_opts *, const struct suite_results *,
				const struct suite_verdicts *, const struct doc *,
				const struct suite_chart *, size_t, FILE *),
		      const struct suite_results *res, const struct suite_verdicts *v,
		      const struct doc *d, const struct suite_chart *charts, size_t ncharts,
		      char *errmsg, size_t errlen)
{
	struct reel_out out;
	int rc =
	    reel_out_open(&out, o->outfd, name, REEL_OUT_OVERWRITE, NULL, NULL, 0, errmsg, errlen);
	if (rc < 0)
		return rc;
	rc = fn ? fn(o, res, v, d, charts, ncharts, out.f) : suite_report_json(o, res, v, out.f);
	if (rc < 0) {
		reel_out_abort(&out);
		return reel_errf(errmsg, errlen, rc, "%s/%s: %s", o->outdir, name,
				 reel_strerror(rc));
	}
	return reel_out_commit(&out, errmsg, errlen);
}

int suite_report_write(const struct suite_opts *o, const struct suite_results *res,
		       const struct suite_verdicts *v, const struct suite_chart *charts,
		       size_t ncharts, char *errmsg, size_t errlen)
{
	struct doc *d = calloc(1, sizeof(*d));
	if (!d)
		return reel_errf(errmsg, errlen, REEL_E_NOMEM, "out of memory");
	doc_build(o, res, v, d);
	int rc = write_file(o, "report.md", write_md, res, v, d, charts, ncharts, errmsg, errlen);
	if (!rc)
		rc = write_file(o, "report.html", write_html, res, v, d, charts, ncharts, errmsg,
				errlen);
	if (!rc)
		rc =
		    write_file(o, "summary.json", NULL, res, v, d, charts, ncharts, errmsg, errlen);
	doc_free(d);
	free(d);
	return rc;
}
