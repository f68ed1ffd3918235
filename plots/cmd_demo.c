/*
 * plots/cmd_demo.c - `ioreel demo`: the main job with nothing to prepare.
 * Replays a real trace bundled in traces/ onto scratch files in $TMPDIR
 * (files only, never a device) at QD1 and at the trace's own queue depth,
 * each with compressible (ratio:2) and incompressible (random) data, three
 * times each, by running this binary's own `replay` subcommand, then
 * compares the twelve results (table on stdout, report.md/report.html kept):
 * the four settings are called different only beyond the noise.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plots/plots.h"

static volatile sig_atomic_t interrupted;
static volatile pid_t child; /* the replay running now, told to stop too */
static void on_signal(int sig)
{
	interrupted = 1;
	if (child > 0)
		kill(child, sig == SIGTERM ? SIGTERM : SIGINT);
}

/* The bundled traces, in order of preference for the demo. */
static int rank(const char *name)
{
	/* the boot is the mission's headline workload */
	static const char *const preferred[] = {"demo.reel", "boot.reel", "git.reel"};
	for (int i = 0; i < 3; i++)
		if (!strcmp(name, preferred[i]))
			return i;
	return 3;
}

static int has_reel(const char *dir, char *out, size_t len)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	char best[256] = "";
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".reel") || l >= sizeof(best))
			continue;
		/* demo.reel, boot.reel, git.reel, else the first name in order */
		if (!best[0] || rank(e->d_name) < rank(best) ||
		    (rank(e->d_name) == rank(best) && strcmp(e->d_name, best) < 0))
			memcpy(best, e->d_name, l + 1);
	}
	closedir(d);
	if (!best[0])
		return 0;
	char real[PATH_MAX];
	plots_strf(out, len, "%s/%s", realpath(dir, real) ? real : dir, best);
	return 1;
}

static int find_trace(char *out, size_t len)
{
	const char *env = getenv("IOREEL_TRACES");
	if (env && *env)
		return has_reel(env, out, len);
	char exe[PATH_MAX], cand[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			plots_strf(cand, sizeof(cand), "%s/../traces", exe);
			if (has_reel(cand, out, len))
				return 1;
			plots_strf(cand, sizeof(cand), "%s/../share/ioreel/traces", exe);
			if (has_reel(cand, out, len))
				return 1;
		}
	}
	return has_reel("/usr/local/share/ioreel/traces", out, len) ||
	       has_reel("/usr/share/ioreel/traces", out, len);
}

/* A scratch target: a new file of size bytes filled with incompressible
 * data, so that reads are real reads (not holes) whatever was written. */
static int make_target(const char *path, uint64_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	static uint64_t buf[131072]; /* 1 MiB */
	uint64_t x = 0x2545f4914f6cdd1dull ^ (uint64_t)getpid();
	for (uint64_t off = 0; off < size; off += sizeof(buf)) {
		for (size_t i = 0; i < sizeof(buf) / 8; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		size_t want = size - off < sizeof(buf) ? (size_t)(size - off) : sizeof(buf);
		size_t done = 0;
		while (done < want) {
			ssize_t w = write(fd, (char *)buf + done, want - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				int e = w < 0 ? errno : EIO;
				close(fd);
				return -e;
			}
			done += (size_t)w;
		}
	}
	if (fsync(fd) < 0 || close(fd) < 0)
		return -errno;
	return 0;
}

/* Run this binary with args, output to log; returns its exit status. */
static int run_self(char *const *args, const char *log)
{
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execv("/proc/self/exe", args);
		fprintf(stderr, "cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(127);
	}
	child = pid;
	if (interrupted) /* a signal between fork and here */
		kill(pid, SIGINT);
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			child = 0;
			return -errno;
		}
	child = 0;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static void print_log(const char *log)
{
	FILE *f = fopen(log, "r");
	if (!f)
		return;
	char line[1024];
	int n = 0;
	while (fgets(line, sizeof(line), f) && n++ < 40)
		fprintf(stderr, "    | %s", line);
	fclose(f);
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char p[PATH_MAX];
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			plots_strf(p, sizeof(p), "%s/%s", dir, e->d_name);
			unlink(p);
		}
	closedir(d);
	rmdir(dir);
}

/* The four compared settings: queue depth 1 and the trace's own, each with
 * compressible and incompressible data. */
static const struct {
	const char *qd, *data, *file;
} runs_cfg[] = {
    {"1", "ratio:2", "qd1-ratio2.reel"},
    {"1", "random", "qd1-random.reel"},
    {"original", "ratio:2", "qdorig-ratio2.reel"},
    {"original", "random", "qdorig-random.reel"},
};
enum { NCFG = sizeof(runs_cfg) / sizeof(runs_cfg[0]) };
/* each setting runs 3 times (interleaved), so that compare tells a
 * difference from noise rather than rank single runs */
enum { REPEATS = 3, NRUNS = NCFG * REPEATS };

struct demo {
	char trace[PATH_MAX], outdir[PATH_MAX], scratch[PATH_MAX];
	int outfd, overwrite;	    /* the report folder (plots_outdir_open) */
	char targets[PATH_MAX * 2]; /* "PATH,PATH..." for --target */
	char results[NRUNS][PATH_MAX];
	const char *tmp, *timing;
	uint64_t ntargets, extent, count, size; /* size: of each scratch file */
	double span, min_busy; /* min_busy: each run's busy time, at least (afap) */
};

/* The trace's own queue depth needs every I/O's completion time: a
 * capture's I/Os that never completed (a boot's probe reads) are left out
 * of a copy in the scratch folder, which the replays then read. */
static int demo_completed(struct demo *d)
{
	char copy[PATH_MAX], err[1024];
	const char *base = strrchr(d->trace, '/');
	struct reel_rewrite how = {.completed_only = 1,
				   .max_idle_ns = -1,
				   .detail = "the I/Os that completed (for --qd original)"};
	struct reel_rewrite_stats st;
	plots_strf(copy, sizeof(copy), "%s/%s", d->scratch, base ? base + 1 : d->trace);
	if (reel_trace_rewrite(d->trace, copy, &how, &st, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel demo: %s\n", err);
		return -1;
	}
	if (!st.dropped) {
		unlink(copy);
		return 0;
	}
	printf("ioreel demo: %llu I/O%s of %s never completed in the capture: left out (the "
	       "trace's own queue depth needs completion times)\n",
	       (unsigned long long)st.dropped, st.dropped > 1 ? "s" : "", d->trace);
	plots_strf(d->trace, sizeof(d->trace), "%s", copy);
	return 0;
}

/* A run shorter than PLOTS_MIN_BUSY_S of busy time is too short to compare
 * (a drive's caches and the host's noise dominate it): with afap timing,
 * when the warm-up pass (one copy of the trace) was busy for less than
 * min_busy, the replays read the trace looped enough times to pass it
 * with a margin, as `ioreel suite` does. */
static int demo_loop(struct demo *d, const char *warm)
{
	char err[4096] = "", looped[PATH_MAX];
	struct plots_run *w = NULL;
	if (d->min_busy <= 0 || strcmp(d->timing, "afap"))
		return 0;
	if (plots_run_open(&w, warm, err, sizeof(err)) < 0 ||
	    plots_run_analyze(w, 0, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel demo: %s\n", err);
		plots_run_free(w);
		return -1;
	}
	double busy = w->busy_s;
	plots_run_free(w);
	if (busy >= d->min_busy)
		return 0;
	double want = d->min_busy * 2.5 / (busy > 1e-6 ? busy : 1e-6);
	unsigned copies = want > 1000 ? 1000 : (unsigned)want + 1;
	struct reel_rewrite how = {
	    .max_idle_ns = -1, .copies = copies, .detail = "looped by ioreel demo"};
	struct reel_rewrite_stats st;
	plots_strf(looped, sizeof(looped), "%s/looped.reel", d->scratch);
	if (reel_trace_rewrite(d->trace, looped, &how, &st, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel demo: %s\n", err);
		return -1;
	}
	printf(
	    "one pass of the trace kept the target busy %.2f s, under the %g s a run needs: each "
	    "run replays it %u times (%llu I/Os)\n",
	    busy, d->min_busy, copies, (unsigned long long)st.written);
	plots_strf(d->trace, sizeof(d->trace), "%s", looped);
	return 0;
}

/* The trace's shape (devices, extent, I/Os, span) and the scratch size:
 * the extent rounded up to 1 MiB, at least 4 MiB, at most size_mb. */
static int demo_measure(struct demo *d, uint64_t size_mb)
{
	char err[4096] = "";
	struct plots_run *tr = NULL;
	if (plots_run_open(&tr, d->trace, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel demo: %s\n", err);
		return -1;
	}
	d->ntargets = tr->ndevices ? tr->ndevices : 1;
	d->extent = tr->max_offset;
	d->count = tr->count;
	d->span = tr->span_s;
	plots_run_free(tr);
	if (d->ntargets > 8) {
		fprintf(stderr, "ioreel demo: %s has %llu devices; the demo handles up to 8\n",
			d->trace, (unsigned long long)d->ntargets);
		return -1;
	}
	d->size = (d->extent + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
	if (d->size < (4u << 20))
		d->size = 4u << 20;
	if (d->size > size_mb << 20)
		d->size = size_mb << 20;
	return 0;
}

/* The scratch directory in $TMPDIR and the report directory (made unless
 * given; a given one must be new, empty or ioreel's, or --overwrite); on
 * failure nothing is left behind. */
static int demo_dirs(struct demo *d)
{
	char err[4096] = "";
	d->tmp = getenv("TMPDIR");
	if (!d->tmp || !*d->tmp)
		d->tmp = "/tmp";
	plots_strf(d->scratch, sizeof(d->scratch), "%s/ioreel-demo-scratch.XXXXXX", d->tmp);
	if (!mkdtemp(d->scratch)) {
		fprintf(stderr,
			"ioreel demo: cannot create a scratch directory in %s: %s "
			"(set TMPDIR to a writable directory)\n",
			d->tmp, strerror(errno));
		return -1;
	}
	if (!d->outdir[0]) {
		plots_strf(d->outdir, sizeof(d->outdir), "%s/ioreel-demo.XXXXXX", d->tmp);
		if (!mkdtemp(d->outdir)) {
			fprintf(stderr, "ioreel demo: cannot create %s: %s\n", d->outdir,
				strerror(errno));
			rmdir(d->scratch);
			return -1;
		}
	}
	d->outfd = plots_outdir_open(d->outdir, d->overwrite, err, sizeof(err));
	if (d->outfd < 0) {
		fprintf(stderr, "ioreel demo: %s\n", err);
		rmdir(d->scratch);
		return -1;
	}
	return 0;
}

/* One scratch file per device of the trace, listed in d->targets. */
static int demo_targets(struct demo *d)
{
	for (uint64_t i = 0; i < d->ntargets; i++) {
		char p[PATH_MAX];
		plots_strf(p, sizeof(p), "%s/target%llu.img", d->scratch, (unsigned long long)i);
		int rc = make_target(p, d->size);
		if (rc < 0) {
			fprintf(stderr, "ioreel demo: cannot create scratch file %s: %s\n", p,
				strerror(-rc));
			return -1;
		}
		size_t l = strlen(d->targets);
		plots_strf(d->targets + l, sizeof(d->targets) - l, "%s%s", i ? "," : "", p);
	}
	printf("scratch targets: %llu file%s of %llu MiB in %s%s\n",
	       (unsigned long long)d->ntargets, d->ntargets > 1 ? "s" : "",
	       (unsigned long long)(d->size >> 20), d->scratch,
	       d->extent > d->size ? " (trace offsets scaled to fit)" : "");
	return 0;
}

/* `ioreel replay` of the trace onto the targets into out, logged to log. */
static int demo_replay(const struct demo *d, const char *out, const char *log, const char *qd,
		       const char *data, const char *timing)
{
	char *args[] = {
	    "ioreel",	   "replay",	(char *)d->trace, "--target", (char *)d->targets,
	    "-o",	   (char *)out, "--qd",		  (char *)qd, "--data",
	    (char *)data,  "--timing",	(char *)timing,	  "--fit",    "scale",
	    "--overwrite", NULL};
	return run_self(args, log);
}

static void replay_failed(int st, const char *log)
{
	printf("failed\n");
	fprintf(stderr, "ioreel demo: 'ioreel replay' exited %d; its output:\n", st);
	print_log(log);
}

/* A first replay onto fresh files runs slower (allocation, caches): one
 * warm-up pass, not compared, keeps that out of the first run. */
static int demo_warm_up(struct demo *d)
{
	if (interrupted)
		return 0;
	char warm[PATH_MAX], log[PATH_MAX];
	plots_strf(warm, sizeof(warm), "%s/warmup.reel", d->scratch);
	plots_strf(log, sizeof(log), "%s/warmup.log", d->scratch);
	printf("warm-up replay (not compared) ... ");
	fflush(stdout);
	int64_t t = reel_now_ns();
	int st = demo_replay(d, warm, log, "original", "random", "afap");
	if (st != 0 && !interrupted) {
		replay_failed(st, log);
		return -1;
	}
	printf("%.1f s\n", (double)(reel_now_ns() - t) / 1e9);
	return interrupted ? 0 : demo_loop(d, warm);
}

/* Copy the result at path into the report folder as name, through the
 * output policy: the report folder only ever holds complete results (a
 * replay writes into the private scratch folder, and a full disk under the
 * report folder fails the copy, not a half result). */
static int publish(const struct demo *d, const char *path, const char *name)
{
	char err[1024];
	struct reel_out o;
	const char *inputs[] = {d->trace};
	int rc = reel_out_open(&o, d->outfd, name, REEL_OUT_OVERWRITE, NULL, inputs, 1, err,
			       sizeof(err));
	FILE *in = rc == 0 ? fopen(path, "r") : NULL;
	if (rc == 0 && in) {
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, o.f);
		if (ferror(in)) {
			reel_out_abort(&o);
			rc = reel_errf(err, sizeof(err), -EIO, "%s: read failed", path);
		} else {
			rc = reel_out_commit(&o, err, sizeof(err));
		}
	} else if (rc == 0) {
		rc = reel_errf(err, sizeof(err), -errno, "%s: %s", path, strerror(errno));
		reel_out_abort(&o);
	}
	if (in)
		fclose(in);
	if (rc < 0)
		fprintf(stderr, "ioreel demo: %s/%s\n", d->outdir, err);
	return rc;
}

/* The compared replays (each setting REPEATS times), into the scratch folder, then each copied
 * into d->outdir. */
static int demo_runs(struct demo *d)
{
	int rc = 0;
	for (size_t i = 0; i < NRUNS && !interrupted; i++) {
		char log[PATH_MAX], res[PATH_MAX], file[128];
		size_t c = i % NCFG;
		plots_strf(file, sizeof(file), "%.*s-%zu.reel", (int)strlen(runs_cfg[c].file) - 5,
			   runs_cfg[c].file, i / NCFG + 1);
		plots_strf(res, sizeof(res), "%s/%s", d->scratch, file);
		plots_strf(d->results[i], sizeof(d->results[i]), "%s/%s", d->outdir, file);
		plots_strf(log, sizeof(log), "%s/replay-%zu.log", d->scratch, i + 1);
		printf("replay %zu/%d: qd %s, data %s, timing %s ... ", i + 1, NRUNS,
		       runs_cfg[c].qd, runs_cfg[c].data, d->timing);
		fflush(stdout);
		int64_t t = reel_now_ns();
		int st = demo_replay(d, res, log, runs_cfg[c].qd, runs_cfg[c].data, d->timing);
		if (interrupted) {
			printf("interrupted\n");
			rc = -1;
			break;
		}
		if (st != 0) {
			replay_failed(st, log);
			rc = -1;
			break;
		}
		printf("%.1f s\n", (double)(reel_now_ns() - t) / 1e9);
		if (publish(d, res, file) < 0) {
			rc = -1;
			break;
		}
	}
	if (interrupted) {
		fflush(stdout);
		fprintf(stderr, "ioreel demo: interrupted\n");
		rc = -1;
	}
	return rc;
}

/* The comparison table on stdout and the report in d->outdir. */
static int demo_report(const struct demo *d)
{
	char err[4096] = "";
	const char *paths[NRUNS], *labels[NRUNS];
	char names[NCFG][64];
	for (size_t c = 0; c < NCFG; c++) /* short legend names: the setting */
		plots_strf(names[c], sizeof(names[c]), "QD %s, %s", runs_cfg[c].qd,
			   runs_cfg[c].data);
	for (size_t i = 0; i < NRUNS; i++) {
		paths[i] = d->results[i];
		labels[i] = names[i % NCFG];
	}
	struct plots_run **runs = NULL;
	size_t nr = NRUNS;
	int rc = plots_runs_load_labeled(&runs, &nr, paths, labels, NRUNS, 0, err, sizeof(err));
	if (rc == 0) {
		printf("\n");
		plots_compare_text(stdout, runs, NRUNS);
		fflush(stdout);
		rc = plots_report_dir(runs, NRUNS, d->outfd, d->outdir, err, sizeof(err));
	}
	plots_runs_free(runs, NRUNS);
	if (rc < 0) {
		fprintf(stderr, "ioreel demo: %s\n", err);
		return rc;
	}
	printf("\nNote: the targets are files on the file system of %s,\nso differences "
	       "between data modes show the file system and caches, not a\ncompressing "
	       "drive; replay onto a drive (ioreel replay --target /dev/...)\nto see "
	       "its own.\n",
	       d->tmp);
	printf("\nreport: %s/report.html (report.md, plots and the %d results in %s)\n", d->outdir,
	       NRUNS, d->outdir);
	return 0;
}

static const char *const timings[] = {"afap", "original", NULL};

static const struct reel_cmd_doc doc = {
    .name = "demo",
    .usage = "[--trace FILE.reel] [-o DIR [--overwrite]] [--size MB] [--timing afap|original]\n"
	     "       [--min-busy S]",
    .about = "Replay a real trace bundled with ioreel (traces/) onto scratch files in $TMPDIR\n"
	     "(never a device) at queue depth 1 and at the trace's own queue depth, each with\n"
	     "compressible (ratio:2) and incompressible (random) data, three times each, then\n"
	     "compare the runs: mean and 95% CI per setting, and a difference only where\n"
	     "Welch's test (Holm-corrected) finds one; the table is printed and a report\n"
	     "(report.html, report.md, plots and the results) is kept.  The scratch files are\n"
	     "removed.",
    .footer = "The bundled trace (demo.reel, else boot.reel: a cold boot captured under\n"
	      "QEMU, else git.reel, else the first .reel) is looked up in $IOREEL_TRACES,\n"
	      "next to the binary (../traces, ../share/ioreel/traces),\n"
	      "/usr/local/share/ioreel/traces and /usr/share/ioreel/traces.\n",
};

int cmd_demo(int argc, char **argv)
{
	static struct demo d; /* large: PATH_MAX names */
	const char *trace = NULL, *outdir = NULL;
	uint64_t size_mb = 128;
	double min_busy = PLOTS_MIN_BUSY_S;
	int timing = 0, keep = 0, overwrite = 0;
	const struct reel_opt opts[] = {
	    OPT_STR('t', "trace", "FILE", &trace, "replay FILE instead of the bundled trace"),
	    OPT_STR('o', "output", "DIR", &outdir,
		    "report directory (default: a new $TMPDIR/ioreel-demo.XXXXXX);\n"
		    "an existing one must be empty or one ioreel wrote"),
	    OPT_FLAG(0, "overwrite", &overwrite,
		     "write into an existing folder that is not ioreel's,\n"
		     "replacing files of the same names"),
	    OPT_U64('s', "size", "MB", &size_mb, 1, 65536,
		    "scratch file size (default 128; offsets are scaled to fit)"),
	    OPT_CHOICE(0, "timing", "MODE", &timing, timings,
		       "afap (default: the drive sets the pace, so queue depth and\n"
		       "data mode show) or original (the trace's own timing)"),
	    OPT_DBL(0, "min-busy", "S", &min_busy, 0, 3600,
		    "with afap timing, loop the trace so that each run keeps the\n"
		    "target busy about 2.5 S seconds (default 1; 0: one pass)"),
	    OPT_FLAG('k', "keep", &keep, "keep the scratch files too"),
	    OPT_END,
	};
	int i = reel_opt_parse(&doc, opts, argc, argv);
	if (i < 0)
		return reel_opt_exit(i);
	if (i < argc) {
		fprintf(stderr, "ioreel demo: unexpected argument '%s'\n", argv[i]);
		return 2;
	}
	memset(&d, 0, sizeof(d));
	d.outfd = -1;
	d.overwrite = overwrite;
	d.timing = timings[timing];
	d.min_busy = min_busy;
	plots_strf(d.trace, sizeof(d.trace), "%s", trace ? trace : "");
	plots_strf(d.outdir, sizeof(d.outdir), "%s", outdir ? outdir : "");
	if (!d.trace[0] && !find_trace(d.trace, sizeof(d.trace))) {
		fprintf(stderr,
			"ioreel demo: no bundled trace (traces/*.reel) found next to the "
			"binary nor in /usr/local/share/ioreel/traces; set IOREEL_TRACES to a "
			"directory holding one, or pass --trace FILE.reel\n");
		return 1;
	}
	if (demo_measure(&d, size_mb) < 0 || demo_dirs(&d) < 0 || demo_completed(&d) < 0)
		return 1;
	struct sigaction sa = {.sa_handler = on_signal};
	struct sigaction old_int, old_term;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	printf("ioreel demo: trace %s (%llu I/Os over %.2f s, %llu device%s)\n", d.trace,
	       (unsigned long long)d.count, d.span, (unsigned long long)d.ntargets,
	       d.ntargets > 1 ? "s" : "");
	int rc = demo_targets(&d);
	if (rc == 0)
		rc = demo_warm_up(&d);
	if (rc == 0)
		rc = demo_runs(&d);
	if (rc == 0)
		rc = demo_report(&d);
	if (keep)
		printf("scratch files kept in %s\n", d.scratch);
	else
		remove_tree(d.scratch);
	close(d.outfd);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc < 0 ? 1 : 0;
}
