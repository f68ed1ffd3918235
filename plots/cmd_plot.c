/*
 * plots/cmd_plot.c - `ioreel plot RESULT.reel... -o DIR`: gnuplot plots of
 * replay results (several runs overlaid) or of any trace.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots/plots.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ioreel plot RESULT.reel... -o DIR [--format png|svg|dumb] [--interval MS]\n\n"
		"Draw with gnuplot, several runs overlaid: throughput over time (MB/s and IOPS,\n"
		"read and write), in-flight I/Os, latency CDF, latency p50..p99 over time,\n"
		"access map, request size histogram and replay issue error.  Any trace works:\n"
		"it gets what it has (access map, sizes, arrival rate, latency when known).\n\n"
		"  -o, --output DIR     directory for the plots (created); data in DIR/data/\n"
		"  -f, --format FMT     png (default), svg, or dumb (text)\n"
		"  -i, --interval MS    time bucket in milliseconds (default: about 150 buckets)\n"
		"  -h, --help           this text\n\n"
		"The gnuplot scripts (*.gp) are looked up in $IOREEL_PLOTS, then next to the\n"
		"binary (../plots, ../share/ioreel/plots), /usr/local/share/ioreel/plots and\n"
		"/usr/share/ioreel/plots.\n");
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"format", required_argument, NULL, 'f'},
		{"interval", required_argument, NULL, 'i'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dir = NULL;
	int fmt = PLOTS_PNG;
	double interval_ms = 0;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:f:i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case 'f':
			fmt = plots_format_parse(optarg);
			if (fmt < 0) {
				fprintf(stderr, "ioreel plot: --format %s: use png, svg or dumb\n",
					optarg);
				return 2;
			}
			break;
		case 'i':
			if (plots_cmd_interval("plot", optarg, &interval_ms))
				return 2;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc || !dir) {
		fprintf(stderr, "ioreel plot: %s\n",
			!dir ? "name the output directory with -o DIR" : "give one or more .reel files");
		usage(stderr);
		return 2;
	}
	struct plots_run **runs = NULL;
	size_t n = (size_t)(argc - optind);
	if (plots_cmd_load("plot", argv + optind, n, interval_ms, &runs))
		return 1;
	char err[4096] = "";
	int rc;
	struct plots_output outs[16];
	size_t nouts = 0;
	rc = plots_render_all(runs, n, dir, (enum plots_format)fmt, outs, 16, &nouts, err,
			      sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ioreel plot: %s\n", err[0] ? err : reel_strerror(rc));
		plots_runs_free(runs, n);
		return 1;
	}
	for (size_t i = 0; i < nouts && i < 16; i++)
		printf("%s/%s\t%s\n", dir, outs[i].file, outs[i].title);
	plots_runs_free(runs, n);
	return 0;
}
