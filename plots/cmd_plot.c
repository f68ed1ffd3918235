/*
 * plots/cmd_plot.c - `ioreel plot RESULT.reel... -o DIR`: gnuplot plots of
 * replay results (several runs overlaid) or of any trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots/plots.h"

static const struct reel_cmd_doc doc = {
	.name = "plot",
	.usage = "RESULT.reel... -o DIR [--format png|svg|dumb] [--interval MS]",
	.about = "Draw with gnuplot, several runs overlaid: throughput over time (MB/s and IOPS,\n"
		 "read and write), in-flight I/Os, latency CDF, latency p50..p99 over time,\n"
		 "access map, request size histogram and replay issue error.  Any trace works:\n"
		 "it gets what it has (access map, sizes, arrival rate, latency when known).",
	.footer = "The gnuplot scripts (*.gp) are looked up in $IOREEL_PLOTS, then next to the\n"
		  "binary (../plots, ../share/ioreel/plots), /usr/local/share/ioreel/plots and\n"
		  "/usr/share/ioreel/plots.\n",
};

int cmd_plot(int argc, char **argv)
{
	const char *dir = NULL;
	int fmt = PLOTS_PNG;
	double interval_ms = 0;
	const struct reel_opt opts[] = {
		OPT_STR('o', "output", "DIR", &dir, "directory for the plots (created); data in DIR/data/"),
		OPT_CHOICE('f', "format", "FMT", &fmt, plots_format_names,
			   "png (default), svg, or dumb (text)"),
		OPT_DBL('i', "interval", "MS", &interval_ms, PLOTS_INTERVAL_MIN_MS,
			PLOTS_INTERVAL_MAX_MS,
			"time bucket in milliseconds (default: about 150 buckets)"),
		OPT_END,
	};
	int i = reel_opt_parse(&doc, opts, argc, argv);
	if (i < 0)
		return reel_opt_exit(i);
	if (i >= argc || !dir) {
		fprintf(stderr, "ioreel plot: %s\nTry 'ioreel plot --help'.\n",
			!dir ? "name the output directory with -o DIR" : "give one or more .reel files");
		return 2;
	}
	struct plots_run **runs = NULL;
	size_t n = (size_t)(argc - i);
	if (plots_cmd_load("plot", argv + i, n, interval_ms, &runs))
		return 1;
	char err[4096] = "";
	struct plots_output outs[16];
	size_t nouts = 0;
	int rc = plots_render_all(runs, n, dir, plots_format_of(fmt), outs, 16, &nouts, err,
				  sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ioreel plot: %s\n", err[0] ? err : reel_strerror(rc));
		plots_runs_free(runs, n);
		return 1;
	}
	for (size_t k = 0; k < nouts && k < 16; k++)
		printf("%s/%s\t%s\n", dir, outs[k].file, outs[k].title);
	plots_runs_free(runs, n);
	return 0;
}
