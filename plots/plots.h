/*
 * plots/plots.h - the plots module's one header: per-run statistics of a
 * replay result (or of any trace), gnuplot data files and renders, and the
 * comparison tables of `ioreel compare`.
 *
 * Conventions as in formats/reel.h: functions return 0 or a negative code
 * (REEL_E_* or -errno) and leave a message in the caller's errbuf; nothing
 * here prints or exits.  The caller owns what it passes in; objects made
 * here are freed by their *_free() function, which accepts NULL.
 *
 * Memory: a run is read twice as a stream (once for its time span, once for
 * the statistics).  What is kept is bounded by the number of time buckets
 * (span / interval), fixed-size log histograms (formats' struct reel_hist,
 * the one histogram: `ioreel replay`, `info` and these agree on every
 * percentile of the same records) and a sample of at most
 * PLOTS_MAP_POINTS access-map points, not by the number of I/Os.
 */
#ifndef IOREEL_PLOTS_H
#define IOREEL_PLOTS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/reel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- one run: a replay result or a trace ------------------------------- */
enum plots_dir { PLOTS_READ = 0, PLOTS_WRITE = 1, PLOTS_OTHER = 2, PLOTS__NDIR };
#define PLOTS_MAP_POINTS 60000
#define PLOTS_SIZE_BUCKETS 16 /* <=512, 1k, 2k, ..., 8M, >8M */

struct plots_op_stats {
	uint64_t ios, bytes, errors;
	double mbps, iops;    /* over the run's I/O span */
	struct reel_hist lat; /* start -> completion, ns (as `ioreel info`) */
};

struct plots_bucket {		   /* one time interval */
	uint64_t ios[2], bytes[2]; /* PLOTS_READ, PLOTS_WRITE */
	double busy_ns;		   /* sum of in-flight time inside the bucket */
};
/* Latency over time: one struct reel_hist per bucket of lat_interval_ns (at
 * most PLOTS_LAT_BUCKETS of them, about 33 KB each, pages touched only where
 * latencies fall). */
#define PLOTS_LAT_BUCKETS 300

struct plots_point {
	float t_s;     /* start time, s from the run's start */
	float off_mib; /* offset, MiB */
	uint8_t dir;   /* enum plots_dir */
	uint16_t dev;
};

struct plots_run {
	char path[4096];
	char label[160];	/* legend name: replay.label or built */
	char source[64];	/* header source: "replay", "captured", ... */
	int is_replay;		/* source "replay" */
	int has_latency;	/* records with both start and completion */
	int time_by_completion; /* throughput buckets by completion time */
	char data[64], qd[32], engine[32], timing[32]; /* replay.* or "" */
	double ratio_achieved;			       /* replay.ratio_achieved (LZ4), or -1 */
	char config[2048]; /* "replay.KEY=VALUE\n" lines, sorted: the configuration */
	int complete;	   /* file ended with its trailer */

	uint64_t count, untimed; /* I/Os; of them without any time */
	int64_t t0, t1;		 /* first start, last end (ns) */
	double span_s;		 /* (t1 - t0) in s */
	struct plots_op_stats op[PLOTS__NDIR];
	struct plots_op_stats all;
	double mbps, iops;	    /* all ops */
	struct reel_hist issue_err; /* replay: issue - scheduled, ns (0 when early) */
	int has_issue_err;
	uint64_t size_hist[2][PLOTS_SIZE_BUCKETS];
	uint64_t max_offset; /* end of the furthest I/O (bytes) */

	int64_t interval_ns; /* time bucket width */
	size_t nbuckets;
	struct plots_bucket *buckets;
	int64_t lat_interval_ns;
	size_t nlatb;
	struct reel_hist *lat_time; /* nlatb histograms, by completion time (or NULL) */
	size_t npoints;
	struct plots_point *points;
	uint32_t ndevices;

	/* what makes runs repeats of one another (compare groups them) */
	char trace[256];	     /* replay.trace, base name ("" for a trace) */
	char target[256];	     /* replay.targets, base names */
	double speed;		     /* replay.speed (original timing), else 0 */
	char name[160];		     /* --label, else replay.label, else the target */
	int user_label;		     /* name came from --label */
	double busy_s;		     /* time with at least one I/O in flight (union of
				      * [start, completion]) */
	double busy_mbps, busy_iops; /* over busy_s, as `ioreel suite` */

	/* a merged multi-host result (replay --mpi: cluster.ranks, device i of
	 * rank cluster.dev.i.rank): nhosts ranks (one per host as a rule); a
	 * per-rank run made by plots_runs_load_labeled has host = the rank and
	 * part_of = the aggregate's index */
	unsigned nhosts;
	int host;     /* -1: every device (the run itself) */
	long part_of; /* -1: not a per-host part */
	char host_name[64];
	uint16_t dev_host[64]; /* host index of device id (ids < 64) */
};

/* Runs shorter than this much busy time measure the machine's hiccups. */
#define PLOTS_MIN_BUSY_S 1.0
/* A timed replay whose p99 issue error is above this did not keep the
 * schedule: it measured the host, not the drive (as `ioreel suite`). */
#define PLOTS_ISSUE_ERROR_LIMIT_US 1000.0
/* Flags of a run: too short, host-bound (0 when neither). */
enum { PLOTS_FLAG_SHORT = 1, PLOTS_FLAG_HOST = 2 };
unsigned plots_run_flags(const struct plots_run *r);
/* Does the issue error mean anything (a replay with original timing)? */
int plots_issue_error_meaningful(const struct plots_run *r);

/* Read PATH's header, metadata and time span (one streaming pass).  On
 * failure *out is NULL and errbuf says which file and where. */
int plots_run_open(struct plots_run **out, const char *path, char *errbuf, size_t errlen);
/* Second pass: statistics, time buckets of interval_ns and map samples. */
int plots_run_analyze(struct plots_run *run, int64_t interval_ns, char *errbuf, size_t errlen);
void plots_run_free(struct plots_run *run);
/* A bucket width giving about 150 buckets over span_ns (fewer when count
 * I/Os would leave under ~30 per bucket), rounded to 1/2/5. */
int64_t plots_auto_interval(int64_t span_ns, uint64_t count);
/*
 * Open and analyze every path with one common interval (interval_ns, or
 * chosen from the longest span when <= 0), labels made unique.  labels
 * (may be NULL; entries NULL or "") name the runs in tables and plots, in
 * the order of paths.  A merged multi-host result is followed by one run
 * per rank (part_of its index, label "LABEL @host", "LABEL @host#R" when
 * ranks share a host), so runs[] no longer matches paths[] one to one.  *out gets a calloc'd
 * array of *nout >= n runs (free with plots_runs_free(runs, *nout)).
 */
int plots_runs_load_labeled(struct plots_run ***out, size_t *nout, const char *const *paths,
			    const char *const *labels, size_t n, int64_t interval_ns, char *errbuf,
			    size_t errlen);
/* The same without labels and without per-host runs: *out holds n runs. */
int plots_runs_load(struct plots_run ***out, const char *const *paths, size_t n,
		    int64_t interval_ns, char *errbuf, size_t errlen);
void plots_runs_free(struct plots_run **runs, size_t n);

/* The range of --interval MS of plot and compare: 1 us to 30 days. */
#define PLOTS_INTERVAL_MIN_MS 0.001
#define PLOTS_INTERVAL_MAX_MS (30 * 86400e3)
/* Command-line helper of plot and compare (plots/cmd_common.c, which
 * prints): load the runs, reporting errors and cut-short files under
 * "ioreel CMD". */
int plots_cmd_load(const char *cmd, char *const *paths, size_t n, double interval_ms,
		   struct plots_run ***runs);
/* The same with labels (as plots_runs_load_labeled); *nout gets the count. */
int plots_cmd_load_labeled(const char *cmd, char *const *paths, const char *const *labels, size_t n,
			   double interval_ms, struct plots_run ***runs, size_t *nout);
/* --label NAME or --label FILE=NAME (repeatable; an OPT_CALL destination):
 * the names given, in order. */
#define PLOTS_MAX_LABELS 1024
struct plots_label_args {
	const char *arg[PLOTS_MAX_LABELS];
	size_t n;
};
int plots_label_opt(const char *arg, void *dest, char *err, size_t errlen);
/* Each path's label (out[n], NULL where none): FILE=NAME where FILE is one
 * of paths, else the next path in order.  -1 with err set when there are
 * more labels than files. */
int plots_labels_resolve(const struct plots_label_args *la, char *const *paths, size_t n,
			 const char **out, char *err, size_t errlen);
/* Make labels unique (" (2)" suffixes) and free of quotes. */
void plots_labels_fix(struct plots_run **runs, size_t n);

/* snprintf that may truncate silently (module-internal helper). */
int plots_strf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- gnuplot ----------------------------------------------------------- */
/*
 * The directory holding the gnuplot scripts (NAME.gp), searched in this order: $IOREEL_PLOTS,
 * <dir of the running binary>/../plots (the source tree: build/ioreel),
 * <dir of the binary>/../share/ioreel/plots (an install under any PREFIX),
 * /usr/local/share/ioreel/plots, /usr/share/ioreel/plots.  The scripts are
 * not embedded in the binary.  Returns 0 and fills buf, or -ENOENT.
 */
int plots_script_dir(char *buf, size_t len);

enum plots_format { PLOTS_PNG, PLOTS_SVG, PLOTS_DUMB };
/* The format names for an option table (OPT_CHOICE), NULL-terminated; "txt"
 * is another name of dumb: plots_format_of() maps a choice to its format. */
extern const char *const plots_format_names[];
enum plots_format plots_format_of(int choice);
const char *plots_format_ext(enum plots_format f);

/* One rendered plot. */
struct plots_output {
	char name[32]; /* "throughput", ... */
	char title[128];
	char file[64]; /* "throughput.svg", relative to the output dir */
};

/*
 * Write the data files (DIR/data/NAME.dat) of every plot for runs[] (analyzed)
 * and render each with gnuplot into DIR in format fmt.  outs (may be NULL)
 * receives up to maxouts rendered plots, *nouts their count.  Plots that do
 * not apply (no latency in any run, no replay result for the issue error)
 * are skipped.  gnuplot's own error text lands in errbuf on failure.  DIR
 * is opened with plots_outdir_open(dir, 0); every file in it is written
 * through the output policy (a temporary renamed into place), never over
 * one of the runs' files.
 */
int plots_render_all(struct plots_run *const *runs, size_t n, const char *dir,
		     enum plots_format fmt, struct plots_output *outs, size_t maxouts,
		     size_t *nouts, char *errbuf, size_t errlen);
/* The same into the folder dirfd from plots_outdir_open(); dir names it in
 * messages. */
int plots_render_dir(struct plots_run *const *runs, size_t n, int dirfd, const char *dir,
		     enum plots_format fmt, struct plots_output *outs, size_t maxouts,
		     size_t *nouts, char *errbuf, size_t errlen);
/*
 * Run "gnuplot -c SCRIPTDIR/script.gp args..." in the folder dirfd, its
 * standard output copied into out (may be NULL).  Fails (-EIO, gnuplot's
 * message in errbuf) when gnuplot exits non-zero, writes nothing, or, for
 * args[0] "png" or "svg", writes a file that is not a whole PNG or SVG.
 */
int plots_gnuplot(int dirfd, FILE *out, const char *script, const char *const *args, size_t nargs,
		  char *errbuf, size_t errlen);

/* ---- output folders (plots/output_dir.c) -------------------------------- */
/* The file that marks a folder as ioreel's own output folder. */
#define PLOTS_MARKER ".ioreel-output"
/*
 * Open (creating when absent) the output folder of plot, compare or demo,
 * through reel_outdir_open() (no symbolic link; as root, no folder of
 * another user).  Accepted: a new or empty folder (then marked with
 * PLOTS_MARKER), a marked one, or any folder when overwrite.  Returns the
 * folder's fd (the caller closes it) or a negative error.
 */
int plots_outdir_open(const char *dir, int overwrite, char *errbuf, size_t errlen);
/* DIR without trailing slashes ("plots/" -> "plots"; "/" stays), in buf. */
const char *plots_dir_trim(const char *dir, char *buf, size_t len);
/* After a failure, for a DIR that did not exist before the command: remove
 * its marker and data/ files, then DIR when nothing else is in it. */
void plots_outdir_undo(const char *dir);
/* Copy src into dst (len bytes) with control characters written as \xNN,
 * for a terminal.  Returns the length written. */
size_t plots_term_escape(char *dst, size_t len, const char *src);
/* Text from a trace or the user (labels, paths, metadata, drive names) into
 * HTML (markdown 0: entities) or Markdown (markdown 1: entities for what
 * would be HTML, a backslash before what would be Markdown, no line
 * breaks): the one escaper of every report. */
void plots_escape_text(FILE *f, int markdown, const char *s);

/* ---- comparison -------------------------------------------------------- */
/* Metrics compared between runs. */
enum plots_metric {
	PLOTS_M_READ_MBPS,
	PLOTS_M_READ_IOPS,
	PLOTS_M_WRITE_MBPS,
	PLOTS_M_WRITE_IOPS,
	PLOTS_M_MBPS,
	PLOTS_M_IOPS,
	PLOTS_M_P50_US,
	PLOTS_M_P99_US,
	PLOTS_M_P999_US,
	PLOTS_M__COUNT
};
const char *plots_metric_name(int m);  /* "write_mbps" */
const char *plots_metric_title(int m); /* "write MB/s" */
double plots_metric(const struct plots_run *r, int m);

/* Write the comparison as text (the table on stdout), markdown, or JSON.
 * The markdown/HTML versions include the plots in outs[]. */
void plots_compare_text(FILE *f, struct plots_run *const *runs, size_t n);
void plots_compare_json(FILE *f, struct plots_run *const *runs, size_t n);
void plots_compare_markdown(FILE *f, struct plots_run *const *runs, size_t n,
			    const struct plots_output *outs, size_t nouts);
/* DIR/report.md and DIR/report.html with every plot (rendered as SVG into
 * DIR, data in DIR/data); DIR is opened with plots_outdir_open(dir, 0). */
int plots_report_write(struct plots_run *const *runs, size_t n, const char *dir, char *errbuf,
		       size_t errlen);
/* The same into the folder dirfd (from plots_outdir_open()), named dir. */
int plots_report_dir(struct plots_run *const *runs, size_t n, int dirfd, const char *dir,
		     char *errbuf, size_t errlen);
/* HTML, self-contained: the SVG files of outs[] (in the folder dirfd) are
 * inlined. */
int plots_compare_html(FILE *f, struct plots_run *const *runs, size_t n, int dirfd,
		       const struct plots_output *outs, size_t nouts);

/* ---- repeats (plots/repeats.c) ----------------------------------------- */
/* Metrics of a group of repeated runs (rates over busy time, as the suite). */
enum plots_gmetric {
	PLOTS_G_MBPS,
	PLOTS_G_IOPS,
	PLOTS_G_LAT_MEAN,
	PLOTS_G_P50,
	PLOTS_G_P99,
	PLOTS_G_P999,
	PLOTS_G__COUNT
};
const char *plots_gmetric_key(int m);	/* "rate_mbps" */
const char *plots_gmetric_title(int m); /* "average data rate" */
const char *plots_gmetric_unit(int m);	/* "MB/s" */
int plots_gmetric_higher_better(int m);
double plots_gmetric(const struct plots_run *r, int m);
/* The metrics a verdict is given on: data rate, IOPS, mean and p99 latency. */
#define PLOTS_NVERDICT 4
extern const int plots_verdict_metrics[PLOTS_NVERDICT];

/* Runs of one setting: trace, timing, speed, qd, data and name. */
struct plots_group {
	size_t *idx, n; /* run indexes */
	const struct plots_run *first;
	char label[256]; /* "name: trace, qd Q, data, timing" */
	unsigned flags;	 /* PLOTS_FLAG_* of any of its runs */
	struct reel_sample_stats s[PLOTS_G__COUNT];
};
/* Group b against group a on one metric (same trace and timing). */
struct plots_cmp {
	size_t a, b;
	int metric;
	struct reel_welch w;
	int significant; /* after Holm over every comparison */
	int better;	 /* +1 b better, -1 worse, 0 within noise */
};
struct plots_stats {
	struct plots_group *g;
	size_t ng, nrepeated; /* groups; of them with >= 2 runs */
	struct plots_cmp *c;  /* PLOTS_NVERDICT per compared pair, in order */
	size_t nc, nsig;
	double alpha;
	int mixed_traces, mixed_timing; /* the runs ranked differ in these */
};
/* Family-wise alpha of compare's verdicts. */
#define PLOTS_ALPHA 0.05
/* Group runs[] and compare every two repeated groups of one trace and
 * timing (Welch on logs, Holm at family-wise alpha).  Free with
 * plots_stats_free (accepts a zeroed struct). */
int plots_stats_compute(struct plots_run *const *runs, size_t n, double alpha,
			struct plots_stats *st);
void plots_stats_free(struct plots_stats *st);
/* Is runs[run] in a group of two or more? */
int plots_run_in_repeats(const struct plots_stats *st, size_t run);
/* "within noise" or "+12.3% [+5.0, +19.9] better". */
void plots_cmp_text(const struct plots_cmp *c, char *buf, size_t len);
/* "812.3 +-10.2 [790.1, 834.5]" (the mean alone for one run). */
void plots_summary_text(const struct reel_sample_stats *s, char *buf, size_t len);
/* "TOO SHORT (0.09 s busy < 1 s); HOST-BOUND (...)" or "" (r may be NULL). */
void plots_flags_text(unsigned flags, const struct plots_run *r, char *buf, size_t len);
/* The repeats and verdicts as text, and as JSON members (",\n  \"groups\"..."). */
void plots_repeats_text(FILE *f, const struct plots_stats *st);
void plots_repeats_json(FILE *f, struct plots_run *const *runs, const struct plots_stats *st);

/* ---- commands (plots/cmd_*.c: the only files here that print) ---------- */
int cmd_plot(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_demo(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
