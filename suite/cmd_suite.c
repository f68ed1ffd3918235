/*
 * suite/cmd_suite.c - `ioreel suite`: options, the plan, safety, progress
 * on stderr, the verdict summary on stdout.  The work is suite_run(),
 * suite_verdicts_compute(), suite_charts_render() and suite_report_write().
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plots/plots.h"
#include "suite/suite.h"

#ifndef IOREEL_VERSION
#define IOREEL_VERSION "0.1"
#endif

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

struct drives_arg {
	struct suite_drive d[SUITE_MAX_DRIVES];
	size_t n;
};

struct destroy_arg {
	const char *names[SUITE_MAX_DRIVES * 2];
	size_t n;
};

static int opt_drive(const char *arg, void *dest, char *err, size_t errlen)
{
	struct drives_arg *da = dest;
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return reel_errf(err, errlen, REEL_E_ARG,
				 "--drive %s: use NAME=PATH, e.g. --drive samsung=/dev/sdb", arg);
	if (da->n >= SUITE_MAX_DRIVES)
		return reel_errf(err, errlen, REEL_E_ARG, "--drive: at most %d drives",
				 SUITE_MAX_DRIVES);
	size_t nl = (size_t)(eq - arg);
	struct suite_drive *d = &da->d[da->n];
	if (nl >= sizeof(d->name) || strlen(eq + 1) >= sizeof(d->path))
		return reel_errf(err, errlen, REEL_E_ARG, "--drive %s: name or path too long", arg);
	for (size_t i = 0; i < nl; i++)
		if (arg[i] == '"' || arg[i] == '\\' || arg[i] == '<' || arg[i] == '>' ||
		    arg[i] == '&' || (unsigned char)arg[i] < 32)
			return reel_errf(err, errlen, REEL_E_ARG,
					 "--drive %s: the name may not hold quotes, \\, <, > or &",
					 arg);
	memset(d, 0, sizeof(*d));
	memcpy(d->name, arg, nl);
	snprintf(d->path, sizeof(d->path), "%s", eq + 1);
	for (size_t i = 0; i < da->n; i++)
		if (!strcmp(da->d[i].name, d->name))
			return reel_errf(err, errlen, REEL_E_ARG,
					 "--drive: the name '%s' is given twice", d->name);
	da->n++;
	return 0;
}

static int opt_destroy(const char *arg, void *dest, char *err, size_t errlen)
{
	struct destroy_arg *da = dest;
	if (da->n >= sizeof(da->names) / sizeof(da->names[0]))
		return reel_errf(err, errlen, REEL_E_ARG, "--destroy-data: too many");
	da->names[da->n++] = arg;
	return 0;
}

static void fmt_eta(double s, char *buf, size_t len)
{
	if (s < 0)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%d:%02d", (int)(s / 60), (int)fmod(s, 60));
}

struct prog_ctx {
	int tty;
	struct suite_plan *plan;
	struct suite_results *res;
	char last[256];
};

static void progress(const struct suite_progress *p, void *arg)
{
	struct prog_ctx *pc = arg;
	char eta[32], line[512];
	fmt_eta(p->eta_s, eta, sizeof(eta));
	if (!strcmp(p->phase, "run")) {
		char cell[200];
		suite_cell_label(pc->plan, &pc->res->cells[p->cell], cell, sizeof(cell));
		snprintf(
		    line, sizeof(line),
		    "ioreel suite: run %zu/%zu, ETA %s: drive %s, state %s, cell %zu/%zu (%s), "
		    "repeat %u/%u",
		    p->run + 1, p->nruns, eta, p->drive, p->state, p->cell + 1, p->ncells, cell,
		    p->repeat + 1, p->repeats);
	} else {
		snprintf(line, sizeof(line), "ioreel suite: drive %s, state %s: %s", p->drive,
			 p->state, p->phase);
		if (p->frac >= 0 && pc->tty)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), " %.0f%%",
				 100 * p->frac);
	}
	if (pc->tty) {
		fprintf(stderr, "\r%-150.150s", line);
	} else if (strcmp(line, pc->last)) {
		fprintf(stderr, "%s\n", line);
	}
	if (snprintf(pc->last, sizeof(pc->last), "%s", line) >= (int)sizeof(pc->last))
		pc->last[sizeof(pc->last) - 1] = 0; /* a cut line: compared cut */
	fflush(stderr);
}

/* The headline verdicts on stdout: one line per significant difference,
 * then the count, in the words of the report. */
static void print_verdicts(const struct suite_opts *o, const struct suite_results *res,
			   const struct suite_verdicts *v)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct suite_cmp *k = &v->cmp[i];
		int head = 0;
		for (int h = 0; h < SUITE_NHEADLINE; h++)
			head |= suite_headline[h] == k->metric;
		if (!head || !k->significant)
			continue;
		char cell[200];
		suite_cell_label(o->plan, &res->cells[k->cell], cell, sizeof(cell));
		printf("  %-28s %-16s %s vs %s: %+.1f%% [%+.1f, %+.1f] (%s)\n", cell,
		       suite_metric_key(k->metric), o->drives[k->b].name, o->drives[k->a].name,
		       k->w.pct, k->w.pct_lo, k->w.pct_hi, k->better > 0 ? "better" : "worse");
	}
	char counts[512];
	suite_verdicts_sentence(o, v, counts, sizeof(counts));
	printf("%s\n", counts);
}

static int load_plan(struct suite_plan *plan, const char *file, int quick)
{
	char err[1024];
	int rc = file ? suite_plan_parse_file(plan, file, err, sizeof(err))
		      : suite_plan_parse_string(plan, quick ? suite_quick_plan : suite_default_plan,
						quick ? "(quick plan)" : "(default plan)", err,
						sizeof(err));
	if (rc >= 0)
		rc = suite_plan_resolve(plan, err, sizeof(err));
	if (rc >= 0) /* before anything is written to a drive */
		rc = suite_plan_check_traces(plan, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ioreel suite: %s\n", err);
		suite_plan_free(plan);
	}
	return rc;
}

static int finish(struct suite_opts *o, struct suite_results *res)
{
	char err[2048];
	struct suite_verdicts v;
	struct suite_chart charts[SUITE_MAX_CHARTS];
	size_t ncharts = 0;
	if (suite_verdicts_compute(o, res, &v) < 0) {
		fprintf(stderr, "ioreel suite: out of memory\n");
		return 1;
	}
	int rc = suite_charts_render(o, res, charts, &ncharts, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "ioreel suite: charts: %s (the report goes on without them)\n",
			err);
	rc = suite_report_write(o, res, &v, charts, ncharts, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ioreel suite: %s\n", err);
		suite_verdicts_free(&v);
		return 1;
	}
	print_verdicts(o, res, &v);
	printf("report: %s/report.html (also report.md, summary.json)\n", o->outdir);
	suite_verdicts_free(&v);
	return res->interrupted ? 1 : 0;
}

static void fmt_size(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ull << 30))
		snprintf(buf, len, "%.2f GiB", (double)b / (1ull << 30));
	else
		snprintf(buf, len, "%.0f MiB", (double)b / (1ull << 20));
}

/* Say which traces reach beyond which drives, and what fit does about it. */
static void print_fit(const struct suite_opts *o)
{
	const struct suite_plan *p = o->plan;
	for (size_t w = 0; w < p->nw; w++)
		for (size_t d = 0; d < o->ndrives; d++) {
			char how[128], ext[32], cap[32];
			if (!suite_fit_describe(p, w, &o->drives[d], how, sizeof(how)))
				continue;
			fmt_size(p->w[w].extent, ext, sizeof(ext));
			fmt_size(o->drives[d].capacity, cap, sizeof(cap));
			fprintf(stderr,
				"ioreel suite: [%s] the trace reaches %s, drive %s (%s) has %s: "
				"offsets beyond it are %s; the report says so\n",
				p->w[w].name, ext, o->drives[d].name, o->drives[d].kname, cap, how);
		}
}

static int run_suite(struct suite_opts *o)
{
	char err[2048];
	if (suite_check_drives(o, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel suite: %s\n", err);
		return 1;
	}
	print_fit(o);
	o->outfd = plots_outdir_open(o->outdir, o->overwrite, err, sizeof(err));
	if (o->outfd < 0) {
		fprintf(stderr, "ioreel suite: -o %s\n", err);
		return 1;
	}
	struct suite_results *res = calloc(1, sizeof(*res));
	if (!res)
		return 1;
	struct prog_ctx pc = {.tty = isatty(2), .plan = o->plan, .res = res};
	o->progress = progress;
	o->progress_arg = &pc;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	o->stop = &stop_flag;
	int rc = suite_run(o, res, err, sizeof(err));
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (pc.tty)
		fprintf(stderr, "\r%150s\r", "");
	if (rc < 0) {
		fprintf(stderr, "ioreel suite: %s\n", err);
		suite_results_free(res);
		free(res);
		return 1;
	}
	if (res->interrupted)
		fprintf(stderr, "ioreel suite: interrupted: the report covers the runs done\n");
	rc = finish(o, res);
	suite_results_free(res);
	free(res);
	return rc;
}

int cmd_suite(int argc, char **argv)
{
	static struct drives_arg drives;
	static struct destroy_arg destroy;
	const char *outdir = NULL;
	unsigned repeats = 0;
	double min_busy = -1;
	int quick = 0, overwrite = 0;
	memset(&drives, 0, sizeof(drives));
	memset(&destroy, 0, sizeof(destroy));
	const struct reel_opt opts[] = {
	    OPT_CALL(0, "drive", "NAME=PATH", opt_drive, &drives,
		     "a drive to test (a block device), named as the report should\n"
		     "call it; give two or more"),
	    OPT_STR('o', "output", "DIR", &outdir,
		    "write report.html, report.md, summary.json and "
		    "the charts here"),
	    OPT_FLAG(0, "overwrite", &overwrite,
		     "write into -o DIR although it holds files ioreel did not write"),
	    OPT_CALL(0, "destroy-data", "DEV", opt_destroy, &destroy,
		     "allow overwriting DEV (e.g. sdb) although it carries a filesystem\n"
		     "or partition table; repeat for each such drive"),
	    OPT_UINT(0, "repeats", "N", &repeats, 2, 100,
		     "runs of each cell per drive (plan's repeats)"),
	    OPT_DBL(0, "min-busy", "S", &min_busy, 0, 3600,
		    "replay each trace until a run has S s of busy time (plan's min-busy)"),
	    OPT_FLAG(0, "quick", &quick, "a short built-in plan (one trace, QD 1 and 32, empty)"),
	    OPT_END,
	};
	const struct reel_cmd_doc doc = {
	    .name = "suite",
	    .usage = "[PLAN] --drive NAME=PATH --drive NAME=PATH... -o DIR",
	    .about =
		"Compare drives on replayed traces as a reviewer would: set each drive's state\n"
		"(purge, fill, steady), run every cell of the plan's matrix (trace x timing x\n"
		"queue depth x data mode) on every drive, repeats interleaved across drives,\n"
		"and say which differences are real (Welch t, Holm-corrected) and which are\n"
		"within noise.  Without PLAN the embedded default plan runs (traces/*.reel,\n"
		"QD original, 1 and 32, random and ratio:2 data, empty and full, 3 repeats).\n"
		"EVERYTHING ON THE DRIVES IS DESTROYED.",
	    .footer =
		"Example: ioreel suite --drive old=/dev/sdb --drive new=/dev/sdc -o cmp\n"
		"         ioreel suite my.plan --drive a=/dev/zram1 --drive b=/dev/loop3 -o out\n"
		"The plan format: docs/ioreel-suite.md.\n",
	};
	int i = reel_opt_parse(&doc, opts, argc, argv);
	if (i < 0)
		return reel_opt_exit(i);
	if (argc - i > 1 || (argc - i == 1 && quick)) {
		fprintf(stderr, "ioreel suite: give at most one PLAN (and not with --quick)\n");
		return 2;
	}
	if (drives.n < 2 || !outdir) {
		fprintf(stderr, "ioreel suite: give %s\n",
			!outdir ? "-o DIR for the report" : "two or more --drive NAME=PATH");
		return 2;
	}
	struct suite_plan plan;
	if (load_plan(&plan, argc - i == 1 ? argv[i] : NULL, quick) < 0)
		return 2;
	if (repeats)
		plan.repeats = repeats;
	if (min_busy >= 0)
		plan.min_busy_s = min_busy;
	struct suite_opts o = {.plan = &plan,
			       .drives = drives.d,
			       .ndrives = drives.n,
			       .destroy = destroy.names,
			       .ndestroy = destroy.n,
			       .outdir = outdir,
			       .overwrite = overwrite,
			       .outfd = -1,
			       .version = IOREEL_VERSION};
	int rc = run_suite(&o);
	if (o.outfd >= 0)
		close(o.outfd);
	suite_plan_free(&plan);
	return rc;
}
