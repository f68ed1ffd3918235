/*
 * plots/cmd_plot.c - `ioreel plot RESULT.reel... -o DIR`: gnuplot plots of
 * replay results (several runs overlaid) or of any trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plots/plots.h"

static const struct reel_cmd_doc doc = {
    .name = "plot",
    .usage = "RESULT.reel... -o DIR [--format png|svg|dumb] [--interval MS] [--label NAME]...\n"
	     "       [--overwrite]",
    .about = "Draw with gnuplot, several runs overlaid: throughput over time (MB/s and IOPS,\n"
	     "read and write), in-flight I/Os, latency CDF, latency p50..p99 over time,\n"
	     "access map, request size histogram and replay issue error.  Any trace works:\n"
	     "it gets what it has (access map, sizes, arrival rate, latency when known).\n"
	     "A merged multi-host result (replay --mpi) is drawn whole and per host.",
    .footer = "The gnuplot scripts (*.gp) are looked up in $IOREEL_PLOTS, then next to the\n"
	      "binary (../plots, ../share/ioreel/plots), /usr/local/share/ioreel/plots and\n"
	      "/usr/share/ioreel/plots.\n"
	      "\n"
	      "Every file is written under a temporary name and renamed into place when\n"
	      "complete; a file of the same name that is a symbolic link, a device or a\n"
	      "FIFO is refused, never followed.  A new or empty DIR is marked as ioreel's\n"
	      "(DIR/" PLOTS_MARKER "), so that the next plot may replace its files.\n",
};

int cmd_plot(int argc, char **argv)
{
	const char *dir = NULL;
	int fmt = PLOTS_PNG, overwrite = 0;
	double interval_ms = 0;
	static struct plots_label_args labels;
	const struct reel_opt opts[] = {
	    OPT_STR('o', "output", "DIR", &dir,
		    "folder for the plots (created); data in DIR/data/.\n"
		    "An existing folder must be empty or one ioreel wrote"),
	    OPT_FLAG(0, "overwrite", &overwrite,
		     "write into an existing folder that is not ioreel's,\n"
		     "replacing files of the same names (not needed for a\n"
		     "folder ioreel plot, compare or demo wrote)"),
	    OPT_CHOICE('f', "format", "FMT", &fmt, plots_format_names,
		       "png (default), svg, or dumb (text; txt is another\n"
		       "name of dumb)"),
	    OPT_DBL('i', "interval", "MS", &interval_ms, PLOTS_INTERVAL_MIN_MS,
		    PLOTS_INTERVAL_MAX_MS,
		    "time bucket in milliseconds (default: about 150 buckets)"),
	    OPT_CALL('l', "label", "NAME", plots_label_opt, &labels,
		     "name the runs in the legends, in the order of the files\n"
		     "(repeatable), or FILE=NAME"),
	    OPT_END,
	};
	int i = reel_opt_parse(&doc, opts, argc, argv);
	if (i < 0)
		return reel_opt_exit(i);
	reel_out_catch_signals(); /* Ctrl-C leaves no temporary in DIR */
	if (i >= argc || !dir) {
		fprintf(stderr, "ioreel plot: %s\nTry 'ioreel plot --help'.\n",
			!dir ? "name the output directory with -o DIR"
			     : "give one or more .reel files");
		return 2;
	}
	struct plots_run **runs = NULL;
	size_t n = (size_t)(argc - i), nin = n;
	char err[4096] = "";
	const char **lab = calloc(nin, sizeof(*lab));
	if (!lab || plots_labels_resolve(&labels, argv + i, nin, lab, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel plot: %s\n", lab ? err : "out of memory");
		free(lab);
		return lab ? 2 : 1;
	}
	int lrc = plots_cmd_load_labeled("plot", argv + i, lab, nin, interval_ms, &runs, &n);
	free(lab);
	if (lrc)
		return 1;
	struct plots_output outs[16];
	size_t nouts = 0;
	char dbuf[4096];
	struct stat st;
	dir = plots_dir_trim(dir, dbuf, sizeof(dbuf));
	int was_there = lstat(dir, &st) == 0;
	int fd = plots_outdir_open(dir, overwrite, err, sizeof(err));
	int rc = fd;
	if (fd >= 0) {
		rc = plots_render_dir(runs, n, fd, dir, plots_format_of(fmt), outs, 16, &nouts, err,
				      sizeof(err));
		close(fd);
	}
	if (rc < 0) {
		fprintf(stderr, "ioreel plot: %s\n", err[0] ? err : reel_strerror(rc));
		if (!was_there)
			plots_outdir_undo(dir);
		plots_runs_free(runs, n);
		return 1;
	}
	for (size_t k = 0; k < nouts && k < 16; k++) {
		char d[8192], t[512];
		plots_term_escape(d, sizeof(d), dir);
		plots_term_escape(t, sizeof(t), outs[k].title);
		printf("%s/%s\t%s\n", d, outs[k].file, t);
	}
	plots_runs_free(runs, n);
	return 0;
}
