/*
 * plots/cmd_compare.c - `ioreel compare RESULT.reel... [-o DIR] [--json]`:
 * one row per run on stdout; with -o, report.md and a self-contained
 * report.html with the tables and every plot.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plots/plots.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ioreel compare RESULT.reel... [-o DIR] [--json] [--interval MS]\n\n"
		"Compare replay results: a table with one row per run (label, MB/s and IOPS\n"
		"per op, p50/p99/p99.9 latency, %% of the best run's MB/s).  Runs that differ\n"
		"only in their data mode (replay.data) get a table with a column per mode and\n"
		"its %% of max (compressible vs incompressible); runs that differ only in queue\n"
		"depth (replay.qd) get a QD scaling table.\n\n"
		"  -o, --output DIR     also write DIR/report.md and DIR/report.html (SVG plots\n"
		"                       inline, no network needed) with the tables and all plots\n"
		"  -j, --json           print the comparison as JSON instead of the table\n"
		"  -i, --interval MS    time bucket of the plots in milliseconds\n"
		"  -h, --help           this text\n");
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"json", no_argument, NULL, 'j'},
		{"interval", required_argument, NULL, 'i'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dir = NULL;
	int json = 0;
	double interval_ms = 0;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:ji:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case 'j': json = 1; break;
		case 'i':
			if (plots_cmd_interval("compare", optarg, &interval_ms))
				return 2;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "ioreel compare: give one or more .reel files\n");
		usage(stderr);
		return 2;
	}
	struct plots_run **runs = NULL;
	size_t n = (size_t)(argc - optind);
	if (plots_cmd_load("compare", argv + optind, n, interval_ms, &runs))
		return 1;
	char err[4096] = "";
	int rc;
	if (json)
		plots_compare_json(stdout, runs, n);
	else
		plots_compare_text(stdout, runs, n);
	if (dir) {
		rc = plots_report_write(runs, n, dir, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "ioreel compare: %s\n", err[0] ? err : reel_strerror(rc));
			plots_runs_free(runs, n);
			return 1;
		}
		if (!json)
			printf("\nreport: %s/report.html (and report.md, plots in %s)\n", dir, dir);
	}
	plots_runs_free(runs, n);
	return 0;
}
