/*
 * suite/suite.h - the suite module's one header: `ioreel suite` as a
 * library.  A plan (fio job-file INI syntax) names traces, queue depths,
 * data modes, timings, drive states and a repeat count; the suite sets each
 * drive's state (purge, fill, steady-state rounds), runs every cell of the
 * matrix on every drive with repeats interleaved across drives, computes
 * per-run metrics from the result records, compares drives with Welch's t
 * test under Holm's correction, and writes report.html, report.md,
 * summary.json and the charts.
 *
 * Conventions as in formats/reel.h: functions return 0 or a negative code
 * (REEL_E_* or -errno) and fill errmsg with a sentence naming the plan file
 * and line, the device or the file; nothing here prints or exits except
 * suite/cmd_suite.c.  The caller owns what it passes in.
 */
#ifndef IOREEL_SUITE_H
#define IOREEL_SUITE_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/reel.h"

#ifdef __cplusplus
extern "C" {
#endif

int cmd_suite(int argc, char **argv);

/* ---- the plan (suite/plan.c) -------------------------------------------- */
#define SUITE_MAX_LIST 8       /* values of one list key (qd, data, timing) */
#define SUITE_MAX_WORKLOADS 16 /* trace sections */
#define SUITE_MAX_DRIVES 8

enum suite_state { SUITE_STATE_EMPTY, SUITE_STATE_FULL, SUITE_STATE_STEADY, SUITE__NSTATES };
const char *suite_state_name(int s); /* "empty", "full", "steady" */

struct suite_timing {
	char name[32]; /* "afap", "original", "speed:2" as written */
	int afap;
	double speed; /* original timing: speed factor (1) */
};

struct suite_workload {
	char name[64];	  /* the section name: the label in tables and charts */
	char trace[4096]; /* as written in the plan, then resolved to a path */
	int line;	  /* plan line of trace= (for later errors) */
	uint64_t dropped; /* I/Os left out: never completed in the capture (set by
			   * suite_run when a queue depth is original or xK) */
	uint64_t ios;	  /* data I/Os replayed (set by suite_plan_check_traces) */
	uint64_t extent;  /* bytes: the end of the furthest data I/O replayed */
};

struct suite_plan {
	char path[4096]; /* plan file, or "(default plan)" */
	char *text;	 /* the plan as read (owned; for the report) */
	struct suite_workload w[SUITE_MAX_WORKLOADS];
	size_t nw;
	char qd[SUITE_MAX_LIST][16]; /* "original", "32", "x2" */
	size_t nqd;
	char data[SUITE_MAX_LIST][32]; /* "random", "ratio:2", "zero" */
	size_t ndata;
	struct suite_timing timing[SUITE_MAX_LIST];
	size_t ntiming;
	double max_idle_s;	    /* idle gaps longer than this are cut (0: keep) */
	int states[SUITE__NSTATES]; /* enum suite_state, in run order */
	size_t nstates;
	unsigned repeats;	     /* runs of each cell on each drive (>= 2) */
	double min_busy_s;	     /* a run replays the trace until this busy time */
	double max_cv;		     /* cells whose CV across repeats is above: noisy */
	double issue_error_limit_us; /* p99 issue error above: the host was measured */
	double alpha;		     /* family-wise alpha (Holm) */
	double fill_factor;	     /* full: sequential writes of this x capacity */
	unsigned steady_rounds;	     /* round cap of the steady state */
	char steady_stimulus[64];    /* workload name (default: the first) */
	char engine[16];	     /* replay engine */
	char fit[8];		     /* replay --fit: wrap, scale */
};

/* The default plan, embedded in the binary (suite/plan.c). */
extern const char suite_default_plan[];
/* The --quick plan: one trace, QD 1 and 32, random data, empty state. */
extern const char suite_quick_plan[];

/* Parse plan text (name says where it came from, for messages).  Every
 * error names the file and line and the key; an unknown key or section
 * value is an error.  Fills *p (zeroed first; free with suite_plan_free,
 * also after an error). */
int suite_plan_parse_string(struct suite_plan *p, const char *text, const char *name, char *errmsg,
			    size_t errlen);
int suite_plan_parse_file(struct suite_plan *p, const char *path, char *errmsg, size_t errlen);
/* Resolve each workload's trace to an existing file: relative to the plan
 * file's directory, then the traces/ directory next to the binary's source
 * tree (<exe>/../traces), <exe>/../share/ioreel/traces,
 * /usr/local/share/ioreel/traces, /usr/share/ioreel/traces. */
int suite_plan_resolve(struct suite_plan *p, char *errmsg, size_t errlen);
/* Open and read every resolved trace before anything is written: it must
 * be a readable .reel file whose data I/Os (read, write, discard,
 * write-zeroes) are on one device, at least one of them.  Fills each
 * workload's ios and extent (over the I/Os that completed when the plan
 * replays a trace's own queue depth, as the suite then does).  Errors name
 * the plan file and the trace= line. */
int suite_plan_check_traces(struct suite_plan *p, char *errmsg, size_t errlen);
/* Does the plan replay a trace's own queue depth (qd original or xK)? */
int suite_plan_uses_original_qd(const struct suite_plan *p);
void suite_plan_free(struct suite_plan *p);

/* ---- the steady-state rule (suite/stats.c; the t test, CIs and Holm are
 * formats/statistics.c's: reel_welch_test() etc. in formats/reel.h) ---- */
/* SNIA PTS steady state over the last `window` values of y[0..n): the
 * range (max - min) within range_frac of the window's average and the
 * best-fit line's excursion (|slope| * (window - 1)) within slope_frac. */
struct suite_steady {
	int reached;
	size_t round; /* 1-based round where reached (else n) */
	double avg, range, excursion;
};
int suite_steady_check(const double *y, size_t n, unsigned window, double range_frac,
		       double slope_frac, struct suite_steady *out);

/* ---- drives (suite/drive.c) ---------------------------------------------- */
struct suite_drive {
	char name[64]; /* as given: --drive NAME=PATH */
	char path[4096];
	char kname[64]; /* kernel name: "zram1", "loop3" */
	/* identity from sysfs ("" / 0 when absent) */
	char model[128], serial[128], firmware[64], scheduler[64], vendor[64];
	uint64_t capacity;
	unsigned lbs, pbs, rotational, nr_requests;
	unsigned max_sectors_kb;
};
/* Fill *d's identity from sysfs (path must be a block device). */
int suite_drive_identify(struct suite_drive *d, char *errmsg, size_t errlen);
/* Purge: BLKDISCARD of the whole device, else BLKZEROOUT; *method names
 * what was used ("BLKDISCARD"). */
int suite_drive_purge(const struct suite_drive *d, char *method, size_t mlen, char *errmsg,
		      size_t errlen);
/* Sequential 128 KiB O_DIRECT writes of random data over factor x the
 * capacity.  progress (may be NULL) gets the fraction done. */
int suite_drive_fill(const struct suite_drive *d, double factor,
		     void (*progress)(double frac, void *arg), void *arg, char *errmsg,
		     size_t errlen);

/* ---- one run's metrics (suite/metrics.c) --------------------------------- */
enum suite_metric {
	SUITE_M_RATE,	  /* MB/s: bytes / busy time */
	SUITE_M_IOPS,	  /* I/Os / busy time */
	SUITE_M_LAT_MEAN, /* all ops, us */
	SUITE_M_LAT_P50,
	SUITE_M_LAT_P99,
	SUITE_M_LAT_P999,
	SUITE_M_READ_MEAN,
	SUITE_M_READ_P99,
	SUITE_M_WRITE_MEAN,
	SUITE_M_WRITE_P99,
	SUITE_M_OVER10MS, /* % of I/Os over 10 ms */
	SUITE_M_SCORE,	  /* PCMark-style: sqrt(MB/s * 1e3 / mean us) */
	SUITE__NMETRICS
};
#define SUITE_NHEADLINE 5 /* RATE, IOPS, LAT_MEAN, LAT_P99, SCORE: see suite_headline[] */
extern const int suite_headline[SUITE_NHEADLINE];
const char *suite_metric_key(int m);   /* "rate_mbps" */
const char *suite_metric_title(int m); /* "average data rate" */
const char *suite_metric_unit(int m);  /* "MB/s" */
int suite_metric_higher_better(int m);

/* Nines of the latency curve (p50, p90, p99, p99.9, p99.99). */
#define SUITE_NNINES 5
extern const double suite_nines[SUITE_NNINES];

struct suite_run_metrics {
	double m[SUITE__NMETRICS];
	double busy_s, wall_s;
	uint64_t ios, bytes, errors;
	unsigned copies;	  /* trace copies replayed (0: the run did not happen) */
	double ratio;		  /* LZ4 ratio achieved (0: nothing written) */
	double issue_p99_us;	  /* -1 when not meaningful (afap) */
	int host_bound;		  /* issue_p99_us above the plan's limit */
	struct reel_hist lat_all; /* for the nines curve */
};
/* Accumulator of a run's result files. */
struct suite_acc;
struct suite_acc *suite_acc_new(void);
void suite_acc_free(struct suite_acc *a);
/* Add the records of result file PATH (busy time, bytes, latencies). */
int suite_acc_add_file(struct suite_acc *a, const char *path, char *errmsg, size_t errlen);
double suite_acc_busy_s(const struct suite_acc *a);
/* Finish: fill *m (ratio and issue_p99_us are set by the caller). */
void suite_acc_metrics(const struct suite_acc *a, struct suite_run_metrics *m);

/* ---- the run (suite/run.c) ----------------------------------------------- */
struct suite_cell {
	size_t w, qd, data, timing; /* indices into the plan's lists */
	int state;
};

struct suite_state_info { /* per drive, per state */
	int done;
	char method[64]; /* purge method */
	double fill_gib; /* written by the fill */
	double seconds;
	unsigned rounds; /* steady: rounds run */
	int steady_reached;
	double steady_iops[64]; /* steady: the metric of each round */
};

struct suite_progress {
	const char *drive, *state, *phase; /* phase: "purge", "fill", "steady", "run" */
	size_t cell, ncells;
	unsigned repeat, repeats;
	size_t run, nruns;
	double frac;  /* fill / steady progress 0..1, else -1 */
	double eta_s; /* -1 unknown */
};

struct suite_opts {
	struct suite_plan *plan;
	struct suite_drive *drives;
	size_t ndrives;
	const char *const *destroy; /* --destroy-data names */
	size_t ndestroy;
	const char *outdir;
	int overwrite;	     /* -o DIR may hold files not ioreel's */
	int outfd;	     /* outdir from plots_outdir_open(): every file in it
			      * is written through the output policy */
	const char *version; /* ioreel version, for the report */
	void (*progress)(const struct suite_progress *p, void *arg);
	void *progress_arg;
	volatile sig_atomic_t *stop;
};

/* One run over time (the headline setting's first repeat, per trace, state
 * and drive): data rate and p99 latency per interval. */
struct suite_series {
	size_t n;
	double interval_s;
	float *t, *mbps, *p99_us; /* interval middles (s from the run's start) */
};

struct suite_results {
	size_t ncells;
	struct suite_cell *cells;
	/* runs[(cell * ndrives + drive) * repeats + r] */
	struct suite_run_metrics *runs;
	struct suite_state_info state[SUITE_MAX_DRIVES][SUITE__NSTATES];
	/* series[(w * nstates + state_pos) * ndrives + drive] (NULL until set) */
	struct suite_series *series;
	size_t nseries;
	char host[128], kernel[128];
	int64_t start_unix_ns, end_unix_ns;
	int interrupted;
};

/* Check that every drive may be written (replay_safety_check: mounted,
 * held, swap or signed devices need --destroy-data naming them), and, with
 * fit=fail, that every trace fits every drive. */
int suite_check_drives(const struct suite_opts *o, char *errmsg, size_t errlen);
/* How workload w's trace fits drive d (after suite_plan_check_traces and
 * suite_drive_identify): 0 when its extent (rounded to the drive's logical
 * block) is within the drive; 1 when the plan's fit moves offsets, with
 * what it does in buf ("wrapped modulo the drive's size (fit=wrap)",
 * "scaled by 0.250 (fit=scale)", "refused (fit=fail)"). */
int suite_fit_describe(const struct suite_plan *p, size_t w, const struct suite_drive *d, char *buf,
		       size_t len);
/* Run the plan; fills *res (free with suite_results_free). */
int suite_run(const struct suite_opts *o, struct suite_results *res, char *errmsg, size_t errlen);
void suite_results_free(struct suite_results *res);
/* ---- the report (suite/report.c, suite/charts.c) ------------------------- */
/* One comparison: drive b vs drive a on metric m in cell c (b's difference
 * from a).  b is the drive given first (b < a in --drive order), so "b vs a"
 * reads in the order of the report's title. */
struct suite_cmp {
	size_t cell, a, b;
	int metric;
	struct reel_welch w;
	int significant; /* after Holm */
	int better;	 /* +1 b better, -1 b worse, 0 within noise */
};
struct suite_verdicts {
	struct suite_cmp *cmp;
	size_t n;
	size_t nsig;
	size_t nhead, nhead_sig; /* of them, on headline metrics (the verdict table) */
};
/* The sentence that counts them, the same on the terminal and in the
 * reports: "2 of 120 headline comparisons differ significantly (...); over
 * all 12 metrics, 6 of 288 (...)". */
void suite_verdicts_sentence(const struct suite_opts *o, const struct suite_verdicts *v, char *buf,
			     size_t len);
/* All comparisons (every metric, cell and drive pair), Holm-corrected. */
int suite_verdicts_compute(const struct suite_opts *o, const struct suite_results *res,
			   struct suite_verdicts *v);
void suite_verdicts_free(struct suite_verdicts *v);
/* Summary of one metric over the repeats of (cell, drive); the CI's lower
 * bound is clipped at 0 (no metric is negative). */
void suite_cell_summary(const struct suite_opts *o, const struct suite_results *res, size_t cell,
			size_t drive, int metric, struct reel_sample_stats *s);
/* The cell's label: "git, QD 32, random, afap, full". */
void suite_cell_label(const struct suite_plan *p, const struct suite_cell *c, char *buf,
		      size_t len);

#define SUITE_MAX_CHARTS 32
struct suite_chart {
	char file[64]; /* "rate_mbps.png" in the output dir */
	char title[160];
	char caption[512];
};
/* Render every chart into o->outdir (data in outdir/data). */
int suite_charts_render(const struct suite_opts *o, const struct suite_results *res,
			struct suite_chart *charts, size_t *ncharts, char *errmsg, size_t errlen);
/* report.md, report.html (PNG charts inlined as base64) and summary.json. */
int suite_report_write(const struct suite_opts *o, const struct suite_results *res,
		       const struct suite_verdicts *v, const struct suite_chart *charts,
		       size_t ncharts, char *errmsg, size_t errlen);
/* summary.json alone, to f (suite/json.c; module-internal). */
int suite_report_json(const struct suite_opts *o, const struct suite_results *res,
		      const struct suite_verdicts *v, FILE *f);
/* Index of the cell (state position in the plan's list, trace, timing, qd,
 * data) in suite_results.cells (the order suite_run builds them in). */
size_t suite_cell_index(const struct suite_plan *p, size_t state_pos, size_t w, size_t t, size_t q,
			size_t dm);

#ifdef __cplusplus
}
#endif
#endif
