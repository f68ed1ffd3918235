/*
 * plots/cmd_compare.c - `ioreel compare RESULT.reel... [-o DIR] [--json [-]]
 * [--label NAME]...`: one row per run; repeats (runs of one setting) get
 * mean, spread, CI and verdicts; with -o, report.md and a self-contained
 * report.html with the tables and every plot.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plots/plots.h"

static const struct reel_cmd_doc doc = {
    .name = "compare",
    .usage = "RESULT.reel... [-o DIR [--overwrite]] [--json [-|FILE]] [--label NAME]... "
	     "[--interval MS]",
    .about = "Compare replay results: a table with one row per run (label, MB/s and IOPS\n"
	     "per op, p50/p99/p99.9 latency, % of the best run's MB/s, flags).  Runs of one\n"
	     "setting (trace, timing, speed, qd, data mode and name) are repeats: with two or\n"
	     "more, each setting gets the mean, spread and 95% confidence interval of its\n"
	     "metrics, and two settings of one trace and timing are called different only\n"
	     "when Welch's t test, Holm-corrected over every comparison, says so (\"within\n"
	     "noise\" otherwise).  Single runs that differ only in their data mode get a\n"
	     "table per mode and its % of max; only in queue depth, a QD scaling table.\n"
	     "A merged multi-host result (replay --mpi) gets a row per host after its own.\n"
	     "Runs under 1 s of busy time (TOO SHORT) and timed runs whose p99 issue error\n"
	     "exceeds 1 ms (HOST-BOUND) are flagged.",
    .footer = "Examples:\n"
	      "  ioreel compare a1.reel a2.reel a3.reel b1.reel b2.reel b3.reel \\\n"
	      "      --label old --label old --label old --label new --label new --label new\n"
	      "  ioreel compare --json - r1.reel r2.reel > cmp.json   (the table on stderr)\n",
};

/* 1 when NAME ends in ".json": after --json, the file to write. */
static int is_json_name(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && !strcmp(name + n - 5, ".json");
}

/* "--json -" and "--json=-" mean --json (stdout); "-" is never a run file.
 * "--json=FILE" and "--json FILE.json" write the JSON to FILE (*path). */
static int strip_json_dash(int argc, char **argv, const char **path)
{
	int o = 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				argv[o++] = argv[i++];
			break;
		}
		if (!strncmp(argv[i], "--json=", 7)) {
			if (strcmp(argv[i] + 7, "-"))
				*path = argv[i] + 7;
			argv[o++] = (char *)"--json";
			continue;
		}
		argv[o++] = argv[i];
		if ((!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) && i + 1 < argc &&
		    (!strcmp(argv[i + 1], "-") || is_json_name(argv[i + 1]))) {
			if (strcmp(argv[i + 1], "-"))
				*path = argv[i + 1];
			i++;
		}
	}
	argv[o] = NULL;
	return o;
}

/* A JSON file an earlier compare wrote: replaced without --overwrite. */
static int json_is_ours(const char *path) { return reel_out_starts_with(path, "{\n  \"runs\": ["); }

/* --json FILE: the JSON through the output policy, the table on stdout. */
static int json_file(struct plots_run **runs, size_t n, const char *path, int overwrite,
		     char *const *in, size_t nin)
{
	struct reel_out o;
	char err[1024];
	if (reel_out_open(&o, AT_FDCWD, path, overwrite ? REEL_OUT_OVERWRITE : 0, json_is_ours,
			  (const char *const *)in, nin, err, sizeof(err)) == 0) {
		plots_compare_json(o.f, runs, n);
		if (reel_out_commit(&o, err, sizeof(err)) == 0)
			return 0;
	}
	fprintf(stderr, "ioreel compare: --json %s\n", err);
	return 1;
}

static int report(struct plots_run **runs, size_t n, const char *dir, int fd, int json)
{
	char err[4096] = "";
	if (json) {
		plots_compare_json(stdout, runs, n);
		plots_compare_text(stderr, runs, n); /* stdout holds only JSON */
	} else {
		plots_compare_text(stdout, runs, n);
	}
	if (!dir)
		return 0;
	int rc = plots_report_dir(runs, n, fd, dir, err, sizeof(err));
	close(fd);
	if (rc < 0) {
		fprintf(stderr, "ioreel compare: %s\n", err[0] ? err : reel_strerror(rc));
		return 1;
	}
	char d[8192];
	plots_term_escape(d, sizeof(d), dir);
	fprintf(json ? stderr : stdout, "\nreport: %s/report.html (and report.md, plots in %s)\n",
		d, d);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	const char *dir = NULL;
	int json = 0, overwrite = 0;
	double interval_ms = 0;
	static struct plots_label_args labels;
	const struct reel_opt opts[] = {
	    OPT_STR('o', "output", "DIR", &dir,
		    "also write DIR/report.md and DIR/report.html (SVG plots\n"
		    "inline, no network needed) with the tables and all plots.\n"
		    "An existing DIR must be empty or one ioreel wrote"),
	    OPT_FLAG(0, "overwrite", &overwrite,
		     "write into an existing folder that is not ioreel's,\n"
		     "replacing files of the same names (not needed for a\n"
		     "folder ioreel plot, compare or demo wrote); also an\n"
		     "existing --json FILE (not needed for one compare wrote)"),
	    OPT_FLAG('j', "json", &json,
		     "print the comparison as JSON (--json or --json -): stdout\n"
		     "holds only the JSON, the table goes to stderr.\n"
		     "--json=FILE or --json FILE.json writes it to FILE instead\n"
		     "(an existing FILE: as for --overwrite)"),
	    OPT_CALL('l', "label", "NAME", plots_label_opt, &labels,
		     "name the runs in tables and plots, in the order of the\n"
		     "files (repeatable), or FILE=NAME; runs given one name and\n"
		     "setting are repeats"),
	    OPT_DBL('i', "interval", "MS", &interval_ms, PLOTS_INTERVAL_MIN_MS,
		    PLOTS_INTERVAL_MAX_MS, "time bucket of the plots in milliseconds"),
	    OPT_END,
	};
	const char *json_path = NULL;
	argc = strip_json_dash(argc, argv, &json_path);
	int i = reel_opt_parse(&doc, opts, argc, argv);
	if (i < 0)
		return reel_opt_exit(i);
	reel_out_catch_signals(); /* Ctrl-C leaves no temporary in DIR */
	if (i >= argc) {
		fprintf(stderr, "ioreel compare: give one or more .reel files\n"
				"Try 'ioreel compare --help'.\n");
		return 2;
	}
	size_t n = (size_t)(argc - i), nr = 0;
	const char **lab = calloc(n, sizeof(*lab));
	char err[4096] = "";
	if (!lab || plots_labels_resolve(&labels, argv + i, n, lab, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel compare: %s\n", lab ? err : "out of memory");
		free(lab);
		return lab ? 2 : 1;
	}
	struct plots_run **runs = NULL;
	int rc = plots_cmd_load_labeled("compare", argv + i, lab, n, interval_ms, &runs, &nr);
	free(lab);
	if (rc)
		return 1;
	if (json_path) {
		rc = json_file(runs, nr, json_path, overwrite, argv + i, n);
		json = 0; /* the table goes to stdout */
		if (rc) {
			plots_runs_free(runs, nr);
			return 1;
		}
	}
	char dbuf[4096];
	struct stat st;
	if (dir)
		dir = plots_dir_trim(dir, dbuf, sizeof(dbuf));
	int was_there = dir && lstat(dir, &st) == 0;
	int fd = dir ? plots_outdir_open(dir, overwrite, err, sizeof(err)) : -1;
	if (dir && fd < 0) { /* refused before any output */
		fprintf(stderr, "ioreel compare: %s\n", err[0] ? err : reel_strerror(fd));
		plots_runs_free(runs, nr);
		return 1;
	}
	rc = report(runs, nr, dir, fd, json);
	if (rc && dir && !was_there)
		plots_outdir_undo(dir);
	plots_runs_free(runs, nr);
	return rc;
}
