/*
 * plots/cmd_compare.c - `ioreel compare RESULT.reel... [-o DIR] [--json]`:
 * one row per run on stdout; with -o, report.md and a self-contained
 * report.html with the tables and every plot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "plots/plots.h"

static const struct reel_cmd_doc doc = {
	.name = "compare",
	.usage = "RESULT.reel... [-o DIR [--overwrite]] [--json] [--interval MS]",
	.about = "Compare replay results: a table with one row per run (label, MB/s and IOPS\n"
		 "per op, p50/p99/p99.9 latency, % of the best run's MB/s).  Runs that differ\n"
		 "only in their data mode (replay.data) get a table with a column per mode and\n"
		 "its % of max (compressible vs incompressible); runs that differ only in queue\n"
		 "depth (replay.qd) get a QD scaling table.",
};

int cmd_compare(int argc, char **argv)
{
	const char *dir = NULL;
	int json = 0, overwrite = 0;
	double interval_ms = 0;
	const struct reel_opt opts[] = {
		OPT_STR('o', "output", "DIR", &dir,
			"also write DIR/report.md and DIR/report.html (SVG plots\n"
			"inline, no network needed) with the tables and all plots.\n"
			"An existing DIR must be empty or one ioreel wrote"),
		OPT_FLAG(0, "overwrite", &overwrite,
			 "write into an existing folder that is not ioreel's,\n"
			 "replacing files of the same names"),
		OPT_FLAG('j', "json", &json, "print the comparison as JSON instead of the table"),
		OPT_DBL('i', "interval", "MS", &interval_ms, PLOTS_INTERVAL_MIN_MS,
			PLOTS_INTERVAL_MAX_MS, "time bucket of the plots in milliseconds"),
		OPT_END,
	};
	int i = reel_opt_parse(&doc, opts, argc, argv);
	if (i < 0)
		return reel_opt_exit(i);
	if (i >= argc) {
		fprintf(stderr, "ioreel compare: give one or more .reel files\n"
				"Try 'ioreel compare --help'.\n");
		return 2;
	}
	struct plots_run **runs = NULL;
	size_t n = (size_t)(argc - i);
	if (plots_cmd_load("compare", argv + i, n, interval_ms, &runs))
		return 1;
	char err[4096] = "";
	int fd = dir ? plots_outdir_open(dir, overwrite, err, sizeof(err)) : -1;
	if (dir && fd < 0) { /* refused before any output */
		fprintf(stderr, "ioreel compare: %s\n", err[0] ? err : reel_strerror(fd));
		plots_runs_free(runs, n);
		return 1;
	}
	if (json)
		plots_compare_json(stdout, runs, n);
	else
		plots_compare_text(stdout, runs, n);
	if (dir) {
		int rc = plots_report_dir(runs, n, fd, dir, err, sizeof(err));
		close(fd);
		if (rc < 0) {
			fprintf(stderr, "ioreel compare: %s\n", err[0] ? err : reel_strerror(rc));
			plots_runs_free(runs, n);
			return 1;
		}
		if (!json) {
			char d[8192];
			plots_term_escape(d, sizeof(d), dir);
			printf("\nreport: %s/report.html (and report.md, plots in %s)\n", d, d);
		}
	}
	plots_runs_free(runs, n);
	return 0;
}
