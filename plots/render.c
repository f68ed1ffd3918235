/*
 * plots/render.c - gnuplot data files and renders.  Each plot is a script
 * plots/NAME.gp run as "gnuplot -c NAME.gp TERMINAL OUTPUT FILES TITLES
 * PLOTTITLE EXTRA" in the output directory; the data files are whitespace
 * separated with a '#' header naming the columns.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plots/plots.h"

static int has_scripts(const char *dir)
{
	char p[PATH_MAX];
	plots_strf(p, sizeof(p), "%s/throughput.gp", dir);
	return access(p, R_OK) == 0;
}

int plots_script_dir(char *buf, size_t len)
{
	const char *env = getenv("IOREEL_PLOTS");
	if (env && *env) {
		if (!has_scripts(env))
			return -ENOENT;
		plots_strf(buf, len, "%s", env);
		return 0;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char cand[4][PATH_MAX];
	size_t nc = 0;
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			plots_strf(cand[nc++], PATH_MAX, "%s/../plots", exe);
			plots_strf(cand[nc++], PATH_MAX, "%s/../share/ioreel/plots", exe);
		}
	}
	plots_strf(cand[nc++], PATH_MAX, "/usr/local/share/ioreel/plots");
	plots_strf(cand[nc++], PATH_MAX, "/usr/share/ioreel/plots");
	for (size_t i = 0; i < nc; i++) {
		char real[PATH_MAX];
		if (has_scripts(cand[i])) {
			plots_strf(buf, len, "%s", realpath(cand[i], real) ? real : cand[i]);
			return 0;
		}
	}
	return -ENOENT;
}

const char *const plots_format_names[] = {"png", "svg", "dumb", "txt", NULL};

enum plots_format plots_format_of(int choice)
{
	return choice == PLOTS_PNG ? PLOTS_PNG : choice == PLOTS_SVG ? PLOTS_SVG : PLOTS_DUMB;
}

const char *plots_format_ext(enum plots_format f)
{
	return f == PLOTS_PNG ? "png" : f == PLOTS_SVG ? "svg" : "txt";
}

static const char *format_term(enum plots_format f)
{
	return f == PLOTS_PNG ? "png" : f == PLOTS_SVG ? "svg" : "dumb";
}

/* What gnuplot wrote on its standard output, checked as it is copied: the
 * first and last bytes tell a complete PNG or SVG from a cut-short one. */
struct gp_sink {
	FILE *out;
	uint64_t bytes;
	unsigned char head[8], tail[16];
};

static void sink_add(struct gp_sink *s, const unsigned char *b, size_t n)
{
	if (s->out && n && fwrite(b, 1, n, s->out) != n)
		s->out = NULL; /* the write error stays in the FILE: the commit reports it */
	for (size_t i = 0; i < n && s->bytes + i < sizeof(s->head); i++)
		s->head[s->bytes + i] = b[i];
	size_t t = sizeof(s->tail);
	if (n >= t) {
		memcpy(s->tail, b + n - t, t);
	} else {
		memmove(s->tail, s->tail + n, t - n);
		memcpy(s->tail + t - n, b, n);
	}
	s->bytes += n;
}

/* Copy gnuplot's stdout (outp) into the sink and keep the start of its
 * stderr (errp) in msg, until both close. */
static void gp_collect(int outp, int errp, struct gp_sink *sink, char *msg, size_t cap)
{
	struct pollfd pf[2] = {{.fd = outp, .events = POLLIN}, {.fd = errp, .events = POLLIN}};
	size_t got = 0;
	static unsigned char buf[65536];
	while (pf[0].fd >= 0 || pf[1].fd >= 0) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t r = read(pf[i].fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(pf[i].fd);
				pf[i].fd = -1;
			} else if (i == 0) {
				sink_add(sink, buf, (size_t)r);
			} else if (got + 1 < cap) {
				size_t k = (size_t)r < cap - 1 - got ? (size_t)r : cap - 1 - got;
				memcpy(msg + got, buf, k);
				got += k;
			}
		}
	}
	msg[got] = 0;
}

/* The child: in the output folder, stdout to the pipe, stderr to the other. */
static void gp_child(int dirfd, int outw, int errw, const char *gp, const char **argv)
{
	dup2(errw, 2);
	dup2(outw, 1);
	int nul = open("/dev/null", O_RDONLY);
	if (nul >= 0)
		dup2(nul, 0);
	if (fchdir(dirfd) < 0)
		_exit(126);
	execvp(gp, (char *const *)argv);
	dprintf(2, "cannot run %s: %s (install gnuplot, e.g. apt-get install gnuplot-nox)", gp,
		strerror(errno));
	_exit(127);
}

/* Does what gnuplot wrote look whole?  "" when it does, else what is wrong. */
static const char *gp_check(const struct gp_sink *s, const char *term)
{
	static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	static const unsigned char png_end[8] = {'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
	if (!s->bytes)
		return "gnuplot wrote nothing";
	if (!strcmp(term, "png") &&
	    (s->bytes < 16 || memcmp(s->head, png_sig, 8) || memcmp(s->tail + 8, png_end, 8)))
		return "gnuplot's PNG is not complete (no PNG signature or no IEND chunk)";
	if (!strcmp(term, "svg") && !memmem(s->tail, sizeof(s->tail), "</svg>", 6))
		return "gnuplot's SVG is not complete (no closing </svg>)";
	return "";
}

int plots_gnuplot(int dirfd, FILE *out, const char *script, const char *const *args, size_t nargs,
		  char *errbuf, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	if (plots_script_dir(dir, sizeof(dir)) < 0)
		return reel_errf(errbuf, errlen, -ENOENT,
				 "gnuplot scripts (plots/*.gp) not found: set IOREEL_PLOTS to the "
				 "directory holding them, or run 'make install'");
	plots_strf(path, sizeof(path), "%s/%s.gp", dir, script);
	const char *gp = getenv("IOREEL_GNUPLOT");
	if (!gp || !*gp)
		gp = "gnuplot";
	const char **argv = calloc(nargs + 4, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	argv[0] = gp;
	argv[1] = "-c";
	argv[2] = path;
	for (size_t i = 0; i < nargs; i++)
		argv[3 + i] = args[i];
	int op[2], ep[2];
	if (pipe2(op, O_CLOEXEC) < 0) {
		free(argv);
		return -errno;
	}
	if (pipe2(ep, O_CLOEXEC) < 0) {
		int e = errno;
		close(op[0]);
		close(op[1]);
		free(argv);
		return -e;
	}
	pid_t pid = fork();
	if (pid == 0)
		gp_child(dirfd, op[1], ep[1], gp, argv);
	int fork_errno = errno;
	close(op[1]);
	close(ep[1]);
	free(argv);
	if (pid < 0) {
		close(op[0]);
		close(ep[0]);
		return -fork_errno;
	}
	char msg[2048];
	struct gp_sink sink = {.out = out};
	gp_collect(op[0], ep[0], &sink, msg, sizeof(msg));
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	size_t got = strlen(msg);
	while (got && (msg[got - 1] == '\n' || msg[got - 1] == ' '))
		msg[--got] = 0;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return reel_errf(errbuf, errlen, -EIO, "gnuplot %s failed (exit %d): %s", path,
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1, got ? msg : "no message");
	const char *bad = out ? gp_check(&sink, args[0]) : "";
	if (*bad)
		return reel_errf(errbuf, errlen, -EIO, "gnuplot %s: %s%s%s", path, bad,
				 got ? ": " : "", msg);
	return 0;
}

/* ---- data files -------------------------------------------------------- */
/* One plots_render_all(): where the plots go, and the gnuplot argument
 * lists (' "a" "b"') of data files and titles, cap bytes each. */
struct job {
	struct plots_output *outs;
	size_t maxouts, *nouts;
	const char *dir;	   /* for messages */
	int dirfd, datafd;	   /* the output folder and its data/ */
	const char *const *inputs; /* the runs' files: never written */
	size_t ninputs;
	enum plots_format fmt;
	char *eb;
	size_t el;
	char *files, *titles;	/* throughput data (then reused by other plots) */
	char *lfiles, *ltitles; /* latency over time data */
	size_t cap;
};

/* A message from the output policy, prefixed with the folder it is in. */
static int out_err(struct job *j, const char *sub, int rc, const char *msg)
{
	char m[1024];
	plots_strf(m, sizeof(m), "%s", msg);
	return reel_errf(j->eb, j->el, rc, "%s%s/%s", j->dir, sub, m);
}

/* DIR/data/NAME through the output policy (a temporary, renamed by
 * close_data): o must stay put until then. */
static FILE *open_data(struct job *j, struct reel_out *o, const char *name)
{
	char m[1024];
	int rc = reel_out_open(o, j->datafd, name, REEL_OUT_OVERWRITE, NULL, j->inputs, j->ninputs,
			       m, sizeof(m));
	if (rc < 0) {
		out_err(j, "/data", rc, m);
		errno = -rc;
		return NULL;
	}
	return o->f;
}

static int close_data(struct job *j, struct reel_out *o)
{
	char m[1024];
	int rc = reel_out_commit(o, m, sizeof(m));
	return rc < 0 ? out_err(j, "/data", rc, m) : 0;
}

static int write_tput(struct job *j, const struct plots_run *r, const char *name)
{
	struct reel_out o;
	FILE *f = open_data(j, &o, name);
	if (!f)
		return -errno;
	double iv = (double)r->interval_ns / 1e9;
	fprintf(f, "# %s: %s\n# interval %.6f s; throughput by %s time\n", r->label, r->path, iv,
		r->time_by_completion ? "completion" : "arrival");
	fprintf(f, "# time_s read_MBps write_MBps read_IOPS write_IOPS inflight share_pct\n");
	/* the last bucket is cut short by the end of the run: its rates are
	 * over what it covers, and a sliver (under half an interval) joins the
	 * bucket before it rather than make a spike of a few I/Os */
	double span = (double)(r->t1 - r->t0) / 1e9;
	size_t nb = r->nbuckets;
	double last_w = span - (double)(nb - 1) * iv;
	int merge = nb > 1 && last_w < iv / 2;
	for (size_t b = 0; b + (size_t)merge < nb; b++) {
		struct plots_bucket k = r->buckets[b];
		double w = iv;
		if (b == nb - 1)
			w = last_w > 0 ? last_w : iv;
		if (merge && b == nb - 2) {
			const struct plots_bucket *z = &r->buckets[nb - 1];
			for (int d = 0; d < 2; d++) {
				k.ios[d] += z->ios[d];
				k.bytes[d] += z->bytes[d];
			}
			k.busy_ns += z->busy_ns;
			w = iv + (last_w > 0 ? last_w : 0);
		}
		double t = (double)b * iv + w / 2;
		fprintf(f, "%.6f %.4f %.4f %.2f %.2f %.3f %.4f\n", t, (double)k.bytes[0] / 1e6 / w,
			(double)k.bytes[1] / 1e6 / w, (double)k.ios[0] / w, (double)k.ios[1] / w,
			k.busy_ns / (w * 1e9), span > 0 ? 100 * t / span : 0);
	}
	return close_data(j, &o);
}

static int write_cdf(struct job *j, const struct plots_run *r, const char *name)
{
	struct reel_out o;
	FILE *f = open_data(j, &o, name);
	if (!f)
		return -errno;
	const struct reel_hist *h = &r->all.lat;
	fprintf(f, "# %s: %s\n# latency_us fraction_at_or_below (%llu I/Os)\n", r->label, r->path,
		(unsigned long long)h->count);
	/* the inverse of the quantile function: 500 steps, then the tail */
	static const double tail[] = {0.995, 0.998, 0.999, 0.9995, 0.9999, 0.99999, 1.0};
	if (h->count)
		fprintf(f, "%.4f 0\n", (double)h->min / 1e3);
	for (size_t i = 1; h->count && i < 497 + sizeof(tail) / sizeof(tail[0]); i++) {
		double q = i < 497 ? (double)i / 500.0 : tail[i - 497];
		double v = q >= 1.0 ? (double)h->max : (double)reel_hist_quantile(h, q);
		fprintf(f, "%.4f %.6f\n", v / 1e3, q);
	}
	return close_data(j, &o);
}

static int write_lattime(struct job *j, const struct plots_run *r, const char *name)
{
	struct reel_out o;
	FILE *f = open_data(j, &o, name);
	if (!f)
		return -errno;
	double iv = (double)r->lat_interval_ns / 1e9;
	fprintf(f, "# %s: %s\n# interval %.6f s, by completion time\n", r->label, r->path, iv);
	fprintf(f, "# time_s p50_us p99_us p999_us count share_pct\n");
	double span = (double)(r->t1 - r->t0) / 1e9;
	int gap = 1;
	for (size_t b = 0; b < r->nlatb && r->lat_time; b++) {
		const struct reel_hist *h = &r->lat_time[b];
		uint64_t n = h->count;
		if (!n) { /* a gap: a blank line breaks the lines and bands */
			if (!gap)
				fputc('\n', f);
			gap = 1;
			continue;
		}
		gap = 0;
		/* the middle of what the bucket covers: the last one is cut short
		 * by the end of the run (not past it, nor past 100% of it) */
		double w = span - (double)b * iv;
		w = w > iv ? iv : w < 0 ? 0 : w;
		double t = (double)b * iv + w / 2;
		fprintf(f, "%.6f %.3f %.3f %.3f %llu %.4f\n", t,
			(double)reel_hist_quantile(h, 0.5) / 1e3,
			(double)reel_hist_quantile(h, 0.99) / 1e3,
			(double)reel_hist_quantile(h, 0.999) / 1e3, (unsigned long long)n,
			span > 0 ? 100 * t / span : 0);
	}
	return close_data(j, &o);
}

static int write_map(struct job *j, const struct plots_run *r, const char *name)
{
	struct reel_out o;
	FILE *f = open_data(j, &o, name);
	if (!f)
		return -errno;
	fprintf(f, "# %s: %s\n# %zu of %llu I/Os (every %lluth)\n", r->label, r->path, r->npoints,
		(unsigned long long)r->count,
		(unsigned long long)(r->count / PLOTS_MAP_POINTS + 1));
	fprintf(f, "# time_s offset_MiB dir(0=read,1=write,2=other) dev\n");
	for (size_t i = 0; i < r->npoints; i++)
		fprintf(f, "%.6f %.4f %u %u\n", r->points[i].t_s, r->points[i].off_mib,
			r->points[i].dir, r->points[i].dev);
	return close_data(j, &o);
}

static void size_class(size_t i, char *buf, size_t len)
{
	uint64_t v = 512ull << i;
	if (i == PLOTS_SIZE_BUCKETS - 1)
		plots_strf(buf, len, ">%lluM", (unsigned long long)((512ull << (i - 1)) >> 20));
	else if (v >= 1048576)
		plots_strf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else if (v >= 1024)
		plots_strf(buf, len, "%lluk", (unsigned long long)(v >> 10));
	else
		plots_strf(buf, len, "%llu", (unsigned long long)v);
}

/* Issue error classes, in ns (upper bounds); the last is open. */
static const int64_t ie_bounds[] = {1000,   2000,   5000,    10000,   20000,   50000,	 100000,
				    200000, 500000, 1000000, 2000000, 5000000, 10000000, INT64_MAX};
static const char *const ie_names[] = {"<1us",	  "1-2us",    "2-5us",	   "5-10us",	"10-20us",
				       "20-50us", "50-100us", "0.1-0.2ms", "0.2-0.5ms", "0.5-1ms",
				       "1-2ms",	  "2-5ms",    "5-10ms",	   ">10ms"};
#define IE_N (sizeof(ie_bounds) / sizeof(ie_bounds[0]))

/* % of the I/Os in each issue error class, by the histogram's buckets. */
static void ie_classes(const struct reel_hist *h, double pct[IE_N])
{
	for (size_t c = 0; c < IE_N; c++)
		pct[c] = 0;
	for (size_t i = 0; i < REEL_HIST_BUCKETS && h->count; i++) {
		if (!h->b[i])
			continue;
		uint64_t lo, hi;
		reel_hist_bucket_range(i, &lo, &hi);
		size_t c = 0;
		while (c < IE_N - 1 && lo >= (uint64_t)ie_bounds[c])
			c++;
		pct[c] += 100.0 * (double)h->b[i] / (double)h->count;
	}
}

/* "500 us", "20 ms", "1.5 s" */
static void fmt_interval(char *buf, size_t len, int64_t ns)
{
	if (ns < 1000000)
		plots_strf(buf, len, "%g us", (double)ns / 1e3);
	else if (ns < 1000000000)
		plots_strf(buf, len, "%g ms", (double)ns / 1e6);
	else
		plots_strf(buf, len, "%g s", (double)ns / 1e9);
}

/* Append ' "word"' to a list argument (labels are free of quotes). */
static void list_add(char *buf, size_t len, const char *w)
{
	size_t l = strlen(buf);
	plots_strf(buf + l, len - l, "%s\"%s\"", l ? " " : "", w);
}

static int render(struct job *j, const char *script, const char *outname, const char *files,
		  const char *titles, const char *title, const char *extra)
{
	char out[64];
	plots_strf(out, sizeof(out), "%s.%s", outname, plots_format_ext(j->fmt));
	/* gnuplot writes its standard output ("-"), copied into the file
	 * through the output policy: it never opens a name in the folder */
	const char *args[] = {format_term(j->fmt), "-", files, titles, title, extra ? extra : ""};
	struct reel_out o;
	char m[1024];
	int err = reel_out_open(&o, j->dirfd, out, REEL_OUT_OVERWRITE, NULL, j->inputs, j->ninputs,
				m, sizeof(m));
	if (err < 0)
		return out_err(j, "", err, m);
	err = plots_gnuplot(j->dirfd, o.f, script, args, 6, j->eb, j->el);
	if (err < 0) {
		reel_out_abort(&o);
		return err;
	}
	if ((err = reel_out_commit(&o, m, sizeof(m))) < 0)
		return out_err(j, "", err, m);
	if (j->outs && *j->nouts < j->maxouts) {
		struct plots_output *o = &j->outs[*j->nouts];
		plots_strf(o->name, sizeof(o->name), "%s", outname);
		plots_strf(o->title, sizeof(o->title), "%s", title);
		plots_strf(o->file, sizeof(o->file), "%s", out);
	}
	(*j->nouts)++;
	return 0;
}

/* The trace a run replayed (or the run itself): runs sharing it share maps. */
static void run_trace(const struct plots_run *r, char *buf, size_t len)
{
	const char *p = strstr(r->config, "replay.trace=");
	if (p) {
		p += 13;
		size_t l = strcspn(p, "\n");
		plots_strf(buf, len, "%.*s", (int)l, p);
	} else {
		plots_strf(buf, len, "%s", r->path);
	}
}

/* Each run's data files (throughput; latency CDF and over time when it
 * has latency), listed in j's argument lists. */
static int write_run_data(struct job *j, struct plots_run *const *runs, size_t n)
{
	char name[64], p[PATH_MAX];
	int err;
	for (size_t i = 0; i < n; i++) {
		const struct plots_run *r = runs[i];
		plots_strf(name, sizeof(name), "tput_%zu.dat", i + 1);
		if ((err = write_tput(j, r, name)) < 0)
			return err;
		plots_strf(p, sizeof(p), "data/%s", name);
		list_add(j->files, j->cap, p);
		list_add(j->titles, j->cap, r->label);
		if (!r->has_latency)
			continue;
		plots_strf(name, sizeof(name), "latcdf_%zu.dat", i + 1);
		if ((err = write_cdf(j, r, name)) < 0)
			return err;
		plots_strf(name, sizeof(name), "lattime_%zu.dat", i + 1);
		if ((err = write_lattime(j, r, name)) < 0)
			return err;
		plots_strf(p, sizeof(p), "data/lattime_%zu.dat", i + 1);
		list_add(j->lfiles, j->cap, p);
		list_add(j->ltitles, j->cap, r->label);
	}
	return 0;
}

/* Runs whose lengths differ more than this are drawn over their own
 * length (% of the run) rather than in seconds: a 1-s run beside a 60-s one
 * would be a sliver at the left. */
#define SHARE_RATIO 5.0

static int lengths_differ(struct plots_run *const *runs, size_t n)
{
	double lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		double s = runs[i]->span_s;
		if (s <= 0)
			continue;
		lo = lo == 0 || s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	return lo > 0 && hi / lo > SHARE_RATIO;
}

/* Throughput (or arrival rate), and with latency: in-flight, latency
 * percentiles and latency over time. */
static int render_time_plots(struct job *j, struct plots_run *const *runs, size_t n)
{
	int any_lat = 0, all_completion = 1, err, share = lengths_differ(runs, n);
	for (size_t i = 0; i < n; i++) {
		any_lat |= runs[i]->has_latency;
		all_completion &= runs[i]->time_by_completion;
	}
	char title[256], iv[32], p[PATH_MAX], extra[64];
	fmt_interval(iv, sizeof(iv), runs[0]->interval_ns);
	plots_strf(title, sizeof(title), "%s over time (interval %s)",
		   all_completion ? "Throughput" : "Arrival rate", iv);
	plots_strf(extra, sizeof(extra), "%s%s", all_completion ? "completion" : "arrival",
		   share ? ",share" : "");
	if ((err = render(j, "throughput", "throughput", j->files, j->titles, title, extra)) < 0)
		return err;
	if (!any_lat)
		return 0;
	if ((err = render(j, "inflight", "inflight", j->files, j->titles,
			  "I/Os in flight (issued, not yet completed)", share ? "share" : NULL)) <
	    0)
		return err;
	j->files[0] = j->titles[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (!runs[i]->has_latency)
			continue;
		plots_strf(p, sizeof(p), "data/latcdf_%zu.dat", i + 1);
		list_add(j->files, j->cap, p);
		list_add(j->titles, j->cap, runs[i]->label);
	}
	if ((err = render(j, "latency_cdf", "latency_cdf", j->files, j->titles,
			  "Latency percentiles (issue to completion)", NULL)) < 0)
		return err;
	fmt_interval(iv, sizeof(iv), runs[0]->lat_interval_ns);
	plots_strf(title, sizeof(title), "Latency over time (interval %s)", iv);
	plots_strf(extra, sizeof(extra), "%s%s", share ? "share," : "", n <= 3 ? "p50" : "");
	return render(j, "latency_time", "latency_time", j->lfiles, j->ltitles, title, extra);
}

/* Access maps: one per distinct trace (replays of one trace look alike),
 * at most 4. */
static int render_maps(struct job *j, struct plots_run *const *runs, size_t n)
{
	size_t nmaps = 0;
	int err;
	for (size_t i = 0; i < n && nmaps < 4; i++) {
		char ti[1024], tj[1024];
		run_trace(runs[i], ti, sizeof(ti));
		int seen = 0;
		for (size_t k = 0; k < i; k++) {
			run_trace(runs[k], tj, sizeof(tj));
			seen |= !strcmp(ti, tj);
		}
		if (seen)
			continue;
		char name[64], out[64], p[PATH_MAX], title[256], t1[200];
		plots_strf(name, sizeof(name), "map_%zu.dat", i + 1);
		if ((err = write_map(j, runs[i], name)) < 0)
			return err;
		plots_strf(p, sizeof(p), "\"data/%s\"", name);
		if (nmaps)
			plots_strf(out, sizeof(out), "access_map_%zu", i + 1);
		else
			plots_strf(out, sizeof(out), "access_map");
		plots_strf(title, sizeof(title), "Access map: %.200s", runs[i]->label);
		plots_strf(t1, sizeof(t1), "\"%.190s\"", runs[i]->label);
		if ((err = render(j, "access_map", out, p, t1, title,
				  runs[i]->op[PLOTS_OTHER].ios ? "other" : "")) < 0)
			return err;
		nmaps++;
	}
	return 0;
}

/* Request sizes: one pair of columns (read, write) per run, or one pair
 * for all runs when they are the same (replays of one trace). */
static int render_sizes(struct job *j, struct plots_run *const *runs, size_t n)
{
	int same = 1, err;
	for (size_t i = 1; i < n; i++)
		same &= !memcmp(runs[i]->size_hist, runs[0]->size_hist, sizeof(runs[0]->size_hist));
	size_t ncols = same ? 1 : n;
	struct reel_out o;
	FILE *f = open_data(j, &o, "sizes.dat");
	if (!f)
		return -errno;
	j->titles[0] = 0;
	fprintf(f, "# request size histogram, %% of each run's I/Os\n# size_class");
	for (size_t c = 0; c < ncols; c++) {
		char t[200];
		plots_strf(t, sizeof(t), "%.150s read",
			   same && n > 1 ? "all runs" : runs[c]->label);
		list_add(j->titles, j->cap, t);
		plots_strf(t, sizeof(t), "%.150s write",
			   same && n > 1 ? "all runs" : runs[c]->label);
		list_add(j->titles, j->cap, t);
		fprintf(f, " read_%zu write_%zu", c + 1, c + 1);
	}
	fprintf(f, "\n");
	size_t lo = PLOTS_SIZE_BUCKETS, hi = 0; /* print the used range only */
	for (size_t b = 0; b < PLOTS_SIZE_BUCKETS; b++)
		for (size_t c = 0; c < ncols; c++)
			if (runs[c]->size_hist[0][b] || runs[c]->size_hist[1][b]) {
				lo = b < lo ? b : lo;
				hi = b > hi ? b : hi;
			}
	for (size_t b = lo; b <= hi && lo < PLOTS_SIZE_BUCKETS; b++) {
		char cls[16];
		size_class(b, cls, sizeof(cls));
		fprintf(f, "%s", cls);
		for (size_t c = 0; c < ncols; c++) {
			uint64_t all = runs[c]->op[0].ios + runs[c]->op[1].ios;
			for (int d = 0; d < 2; d++)
				fprintf(f, " %.4f",
					all ? 100.0 * (double)runs[c]->size_hist[d][b] / (double)all
					    : 0.0);
		}
		fprintf(f, "\n");
	}
	if ((err = close_data(j, &o)) < 0)
		return err;
	if (lo >= PLOTS_SIZE_BUCKETS)
		return 0;
	return render(j, "sizes", "sizes", "\"data/sizes.dat\"", j->titles,
		      "Request size histogram", NULL);
}

/* Replay issue error: % of I/Os per class, a column per replayed run with
 * original timing (as fast as possible, there is no schedule to keep). */
static int render_issue_error(struct job *j, struct plots_run *const *runs, size_t n)
{
	int any_replay = 0, err;
	for (size_t i = 0; i < n; i++)
		any_replay |= plots_issue_error_meaningful(runs[i]);
	if (!any_replay)
		return 0;
	double(*pct)[IE_N] = calloc(n, sizeof(*pct));
	if (!pct)
		return -ENOMEM;
	struct reel_out o;
	FILE *f = open_data(j, &o, "issue_error.dat");
	if (!f) {
		free(pct);
		return -errno;
	}
	j->titles[0] = 0;
	fprintf(f, "# replay issue error (actual - scheduled submission), %% of I/Os\n");
	fprintf(f, "# class");
	for (size_t i = 0; i < n; i++)
		if (plots_issue_error_meaningful(runs[i])) {
			ie_classes(&runs[i]->issue_err, pct[i]);
			list_add(j->titles, j->cap, runs[i]->label);
			fprintf(f, " run_%zu", i + 1);
		}
	fprintf(f, "\n");
	for (size_t c = 0; c < IE_N; c++) {
		fprintf(f, "%s", ie_names[c]);
		for (size_t i = 0; i < n; i++)
			if (plots_issue_error_meaningful(runs[i]))
				fprintf(f, " %.4f", pct[i][c]);
		fprintf(f, "\n");
	}
	free(pct);
	if ((err = close_data(j, &o)) < 0)
		return err;
	return render(j, "issue_error", "issue_error", "\"data/issue_error.dat\"", j->titles,
		      "Replay issue error: actual minus scheduled submission time", NULL);
}

/* Every plot of runs[] (each with a timed I/O), in the order people read
 * them; the first failure stops the lot. */
static int render_runs(struct job *j, struct plots_run *const *runs, size_t n)
{
	j->cap = 64 * (n + 1) + 256 * n;
	j->files = calloc(1, j->cap);
	j->titles = calloc(1, j->cap);
	j->lfiles = calloc(1, j->cap);
	j->ltitles = calloc(1, j->cap);
	int err = -ENOMEM;
	if (j->files && j->titles && j->lfiles && j->ltitles &&
	    (err = write_run_data(j, runs, n)) == 0 && (err = render_time_plots(j, runs, n)) == 0 &&
	    (err = render_maps(j, runs, n)) == 0 && (err = render_sizes(j, runs, n)) == 0)
		err = render_issue_error(j, runs, n);
	free(j->files);
	free(j->titles);
	free(j->lfiles);
	free(j->ltitles);
	return err;
}

int plots_render_dir(struct plots_run *const *runs, size_t n, int dirfd, const char *dir,
		     enum plots_format fmt, struct plots_output *outs, size_t maxouts,
		     size_t *nouts, char *eb, size_t el)
{
	size_t dummy = 0;
	struct job j = {.outs = outs,
			.maxouts = maxouts,
			.nouts = nouts ? nouts : &dummy,
			.dir = dir,
			.dirfd = dirfd,
			.fmt = fmt,
			.eb = eb,
			.el = el};
	*j.nouts = 0;
	/* runs without a single timed I/O have nothing to draw */
	struct plots_run **use = calloc(n ? n : 1, sizeof(*use));
	const char **inputs = calloc(n ? n : 1, sizeof(*inputs));
	int err = -ENOMEM;
	if (!use || !inputs)
		goto out;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		inputs[i] = runs[i]->path;
		if (runs[i]->all.ios)
			use[k++] = runs[i];
	}
	j.inputs = inputs;
	j.ninputs = n;
	if (!k) {
		err = reel_errf(eb, el, -EINVAL, "%s: no I/O with a time to plot%s",
				n ? runs[0]->path : "no run",
				n > 1 ? " (nor in the other runs)" : "");
		goto out;
	}
	j.datafd = reel_outdir_sub(dirfd, "data", eb, el);
	if (j.datafd < 0) {
		char m[1024];
		plots_strf(m, sizeof(m), "%s", eb);
		err = reel_errf(eb, el, j.datafd, "%s/%s", dir, m);
		goto out;
	}
	err = render_runs(&j, use, k);
	close(j.datafd);
out:
	free(use);
	free(inputs);
	return err;
}

int plots_render_all(struct plots_run *const *runs, size_t n, const char *dir,
		     enum plots_format fmt, struct plots_output *outs, size_t maxouts,
		     size_t *nouts, char *eb, size_t el)
{
	int fd = plots_outdir_open(dir, 0, eb, el);
	if (fd < 0)
		return fd;
	int err = plots_render_dir(runs, n, fd, dir, fmt, outs, maxouts, nouts, eb, el);
	close(fd);
	return err;
}
