/*
 * replay/cmd_replay.c - `ioreel replay`: options, signals, progress line,
 * the summary on stdout and the --json document.  The work is replay_run().
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/replay.h"

/* The JSON summary's first line: how an existing one is recognised. */
#define JSON_MARK "{\n  \"ioreel\": \"replay\","

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	if (stop_flag) /* second signal: give up waiting */
		signal(sig, SIG_DFL);
	stop_flag = 1;
}

/* ---- options ------------------------------------------------------------ */
/* What the command line gives, beyond struct replay_opts. */
struct cli {
	struct replay_opts o;
	const char *targets[REPLAY_MAX_TARGETS];
	struct replay_map *maps;
	size_t mapcap;
	char **bufs; /* copies cut up for the targets' names */
	size_t nbufs;
	const char *json;
	const char *destroy[REPLAY_MAX_TARGETS]; /* --destroy-data names */
	size_t ndestroy;
	int quiet; /* -q: no progress */
	unsigned dedupe;
	int cpu;			       /* --cpu, -1: not given */
	double max_idle;		       /* seconds, 0: none */
	int timing, order, point, fit, engine; /* indexes into the names */
};

/* A repeatable NAME[,NAME...] option: ARG kept (freed with the others)
 * and split into out[] after its *n names, at most REPLAY_MAX_TARGETS. */
static int opt_list(struct cli *c, const char *arg, const char **out, size_t *n, const char *what,
		    char *err, size_t errlen)
{
	char *s = strdup(arg), *save = NULL;
	char **nb = s ? realloc(c->bufs, (c->nbufs + 1) * sizeof(*nb)) : NULL;
	if (!nb) {
		free(s);
		return reel_errf(err, errlen, REEL_E_NOMEM, "out of memory");
	}
	c->bufs = nb;
	c->bufs[c->nbufs++] = s;
	for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (*n >= REPLAY_MAX_TARGETS)
			return reel_errf(err, errlen, REEL_E_ARG, "%s: at most %d", what,
					 REPLAY_MAX_TARGETS);
		out[(*n)++] = t;
	}
	return 0;
}

/* --target PATH[,PATH...] (repeatable) */
static int opt_target(const char *arg, void *dest, char *err, size_t errlen)
{
	struct cli *c = dest;
	return opt_list(c, arg, c->targets, &c->o.ntargets, "--target", err, errlen);
}

/* --destroy-data NAME[,NAME...] (repeatable) */
static int opt_destroy(const char *arg, void *dest, char *err, size_t errlen)
{
	struct cli *c = dest;
	return opt_list(c, arg, c->destroy, &c->ndestroy, "--destroy-data", err, errlen);
}

/* --map ID=PATH (repeatable) */
static int opt_map(const char *arg, void *dest, char *err, size_t errlen)
{
	struct cli *c = dest;
	char *end;
	long id = strtol(arg, &end, 10);
	if (end == arg || *end != '=' || !end[1] || id < 0 || id > 65535)
		return reel_errf(err, errlen, REEL_E_ARG,
				 "--map %s: use ID=PATH, e.g. --map 1=/dev/sdc", arg);
	if (c->o.nmaps == c->mapcap) {
		size_t nc = c->mapcap ? 2 * c->mapcap : 8;
		struct replay_map *nm = realloc(c->maps, nc * sizeof(*nm));
		if (!nm)
			return reel_errf(err, errlen, REEL_E_NOMEM, "out of memory");
		c->maps = nm;
		c->mapcap = nc;
	}
	c->maps[c->o.nmaps].trace_dev = (int)id;
	c->maps[c->o.nmaps++].path = end + 1;
	return 0;
}

/* --qd N|original|xK */
static int opt_qd(const char *arg, void *dest, char *err, size_t errlen)
{
	struct replay_opts *o = dest;
	char *end;
	if (!strcmp(arg, "original")) {
		o->qd_mode = REPLAY_QD_ORIGINAL;
	} else if (arg[0] == 'x') {
		double k = strtod(arg + 1, &end);
		if (end == arg + 1 || *end || !(k > 0) || k > 1000)
			return reel_errf(err, errlen, REEL_E_ARG,
					 "--qd %s: xK needs K > 0 (at most 1000), e.g. x2 or x0.5",
					 arg);
		o->qd_mode = REPLAY_QD_SCALED;
		o->qd_scale = k;
	} else {
		long q = strtol(arg, &end, 10);
		if (end == arg || *end || q < 1 || q > REPLAY_MAX_QD)
			return reel_errf(err, errlen, REEL_E_ARG,
					 "--qd %s: use a depth from 1 to %d, original, or xK", arg,
					 REPLAY_MAX_QD);
		o->qd_mode = REPLAY_QD_FIXED;
		o->qd = (unsigned)q;
	}
	o->qd_default = 0;
	o->qd_str = arg;
	return 0;
}

/* --dedupe PCT (a trailing % is allowed) */
static int opt_dedupe(const char *arg, void *dest, char *err, size_t errlen)
{
	char *end;
	long d = strtol(arg, &end, 10);
	if (end == arg || (*end && strcmp(end, "%")) || d < 0 || d > 100)
		return reel_errf(err, errlen, REEL_E_ARG,
				 "--dedupe %s: give a percentage from 0 to 100", arg);
	*(unsigned *)dest = (unsigned)d;
	return 0;
}

/* --data zero|random|ratio:R|pattern:HEX */
static int opt_data(const char *arg, void *dest, char *err, size_t errlen)
{
	struct replay_opts *o = dest;
	struct replay_data_spec spec;
	int rc = replay_data_parse(arg, &spec, err, errlen);
	if (rc < 0)
		return rc;
	o->data = spec;
	o->data_str = arg;
	return 0;
}

static const struct reel_cmd_doc doc = {
    .name = "replay",
    .usage = "TRACE.reel --target PATH[,PATH...] [-o RESULT.reel] [options]",
    .about = "Replay a block I/O trace against block devices or files, recording each I/O's\n"
	     "scheduled, actual issue and completion times in RESULT.reel.",
    .footer = "Ctrl-C stops issuing, waits for what is in flight and writes a valid result.\n"
	      "Example: ioreel replay boot.reel --target /dev/sdb --destroy-data=sdb --qd x2 \\\n"
	      "           --data ratio:2 -o sdb-boot.reel\n",
};

/*
 * Parse the command line into c.  Returns the index of the trace operand,
 * or REEL_OPT_EXIT_OK / REEL_OPT_EXIT_USAGE when that has been said.
 */
static int parse_cli(struct cli *c, int argc, char **argv)
{
	struct replay_opts *o = &c->o;
	const char *engines[8] = {NULL};
	char engine_arg[64] = "";
	for (unsigned i = 0; i < 7 && (engines[i] = replay_engine_name(i)); i++)
		snprintf(engine_arg + strlen(engine_arg), sizeof(engine_arg) - strlen(engine_arg),
			 "%s%s", i ? "|" : "", engines[i]);
	const struct reel_opt opts[] = {
	    OPT_GROUP("Targets"),
	    OPT_CALL(0, "target", "PATH[,PATH...]", opt_target, c,
		     "block devices or files; trace devices map to them in\n"
		     "order of device id (repeatable)"),
	    OPT_CALL(0, "map", "ID=PATH", opt_map, c,
		     "trace device ID goes to PATH (repeatable; unmapped\n"
		     "devices are skipped)"),
	    OPT_CHOICE(0, "fit", "fail|wrap|scale", &c->fit, replay_fit_names,
		       "offsets past a target's end: refuse (default, saying\n"
		       "the size needed), wrap around, or scale down"),
	    OPT_FLAG(0, "align", &o->align, "round misaligned I/Os to the target's logical blocks"),
	    OPT_FLAG(0, "buffered", &o->buffered, "use the page cache (default: O_DIRECT)"),
	    OPT_FLAG(0, "read-only", &o->read_only,
		     "replay writes as reads; skip discards and write-zeroes;\n"
		     "create nothing"),
	    OPT_CALL(0, "destroy-data", "NAME[,NAME...]", opt_destroy, c,
		     "allow writing over devices carrying a filesystem or\n"
		     "partition table: NAME is one's kernel name (e.g. sdb;\n"
		     "repeatable; each must name a target)"),
	    OPT_FLAG(0, "overwrite", &o->overwrite,
		     "allow writing into an existing file not made by ioreel\n"
		     "(a target, -o or --json)"),
	    OPT_FLAG(0, "precondition", &o->precondition,
		     "fill each target sequentially before the replay"),
	    OPT_FLAG(0, "no-rt", &o->no_rt,
		     "with original timing, do not ask for real-time\n"
		     "scheduling (SCHED_FIFO, used when permitted)"),
	    OPT_GROUP("Timing and queueing"),
	    OPT_CHOICE(0, "timing", "original|afap", &c->timing, replay_timing_names,
		       "keep the trace's times (default) or go as fast as possible"),
	    OPT_DBL(0, "speed", "F", &o->speed, REPLAY_SPEED_MIN, REPLAY_SPEED_MAX,
		    "original timing F times faster (default 1)"),
	    OPT_DBL(0, "max-idle", "S", &c->max_idle, 1e-6, 1e6,
		    "original timing: cut every stretch with nothing arriving\n"
		    "to S seconds (as the Storage Bench does)"),
	    OPT_CALLNUM(0, "qd", "N|original|xK", opt_qd, o,
			"queue depth cap N (1 to 4096); original: the most the\n"
			"trace had in flight within 1 ms of each I/O; or K times\n"
			"that (default: original where the trace has completion\n"
			"times, else 32; the choice is said on stderr)"),
	    OPT_CHOICE(0, "order", "none|strict|dependency", &c->order, replay_order_names,
		       "none: by time; strict: trace order; dependency: an I/O\n"
		       "waits for those that completed before it was queued"),
	    OPT_CHOICE(0, "point", "queue|issue", &c->point, replay_point_names,
		       "replay from the trace's queue (Q) or issue (D) times"),
	    OPT_UINT(0, "window", "N", &o->window, 1, 1 << 20,
		     "read-ahead window in records (default 4096)"),
	    OPT_CHOICE(0, "engine", engine_arg, &c->engine, engines,
		       "how I/O is done (default libaio; null does none)"),
	    OPT_FLAG(0, "hipri", &o->hipri,
		     "io_uring: poll for completions (IOPOLL; devices with\n"
		     "poll queues only)"),
	    OPT_FLAG(0, "sqpoll", &o->sqpoll, "io_uring: a kernel thread submits (SQPOLL)"),
	    OPT_INT(0, "cpu", "N", &c->cpu, 0, CPU_SETSIZE - 1,
		    "run the issuing thread on CPU N only (default: where\n"
		    "the kernel puts it)"),
	    OPT_GROUP("Data written"),
	    OPT_CALL(0, "data", "zero|random|ratio:R|pattern:HEX", opt_data, o,
		     "what writes carry (default random)"),
	    OPT_CALLNUM(0, "dedupe", "PCT", opt_dedupe, &c->dedupe,
			"share of 4 KiB pieces that repeat earlier ones (0 to 100)"),
	    OPT_GROUP("Output"),
	    OPT_FLAG('q', "quiet", &c->quiet, "no progress on stderr"),
	    OPT_STR('o', "output", "RESULT.reel", &o->result,
		    "result trace (a regular file, never the trace; replaced\n"
		    "only if it is a replay result, or with --overwrite)"),
	    OPT_STR(0, "json", "FILE", &c->json,
		    "the summary as JSON ('-': stdout, the summary then on\n"
		    "stderr; replaced only if ours, or with --overwrite)"),
	    OPT_END,
	};
	int i = reel_opt_parse(&doc, opts, argc, argv);
	if (i < 0)
		return i;
	if (i != argc - 1) {
		fprintf(stderr, "ioreel replay: %s\n",
			i >= argc ? "which trace? give TRACE.reel" : "give exactly one TRACE.reel");
		reel_opt_usage(stderr, &doc, opts);
		return REEL_OPT_EXIT_USAGE;
	}
	return i;
}

/* The progress line: live on a terminal (every call, about 4 a second),
 * else a line every PROGRESS_FILE_NS at most. */
#define PROGRESS_FILE_NS 5000000000ll
struct prog {
	int tty, shown;
	int64_t next_ns; /* not a terminal: no line before this elapsed time */
};

static void fmt_hms(char *buf, size_t len, int64_t ns)
{
	long e = (long)((ns + 999999999) / 1000000000); /* rounded up */
	snprintf(buf, len, "%ld:%02ld:%02ld", e / 3600, e / 60 % 60, e % 60);
}

static void progress(const struct replay_progress *p, void *arg)
{
	struct prog *pg = arg;
	if (!pg->tty && p->elapsed_ns < pg->next_ns)
		return;
	pg->next_ns = p->elapsed_ns + PROGRESS_FILE_NS;
	double s = p->elapsed_ns / 1e9;
	char eta[32] = "?", line[256], sched[96];
	if (p->eta_ns >= 0)
		fmt_hms(eta, sizeof(eta), p->eta_ns);
	if (p->expected_ns < 0)
		snprintf(sched, sizeof(sched), "%.1f s, afap", s);
	else if (p->behind_ns > REPLAY_SLIP_LIMIT_NS)
		snprintf(sched, sizeof(sched), "%.1f of %.1f s expected, %.3f s behind schedule", s,
			 p->expected_ns / 1e9, p->behind_ns / 1e9);
	else
		snprintf(sched, sizeof(sched), "%.1f of %.1f s expected, on schedule", s,
			 p->expected_ns / 1e9);
	snprintf(line, sizeof(line), "%5.1f%%  %llu of %llu I/Os  %s  %.0f IOPS  %.1f MB/s  ETA %s",
		 p->total ? 100.0 * (double)p->done / (double)p->total : 0.0,
		 (unsigned long long)p->done, (unsigned long long)p->total, sched,
		 s > 0 ? (double)p->done / s : 0.0, s > 0 ? (double)p->bytes / s / 1e6 : 0.0, eta);
	if (pg->tty)
		fprintf(stderr, "\r  %-118.118s", line);
	else
		fprintf(stderr, "ioreel replay: %s\n", line);
	pg->shown = 1;
}

static const double qs[] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
static const char *const qnames[] = {"p50", "p90", "p99", "p99.9", "p99.99", "max"};

static void json_hist(FILE *f, const struct reel_hist *h)
{
	fprintf(f, "{\"count\": %llu, \"mean\": %.0f", (unsigned long long)h->count,
		reel_hist_mean(h));
	for (int i = 0; i < 6; i++)
		fprintf(f, ", \"%s\": %lld", qnames[i],
			(long long)(int64_t)reel_hist_quantile(h, qs[i]));
	fprintf(f, "}");
}

static void write_json(FILE *f, const struct replay_result *r, const struct replay_opts *o)
{
	double secs = r->duration_ns / 1e9;
	char expected[32] = "null";
	if (o->timing == REPLAY_TIMING_ORIGINAL)
		snprintf(expected, sizeof(expected), "%.0f",
			 (double)(r->trace_duration_ns - r->idle_cut_ns) / o->speed);
	fprintf(f, "%s\n  \"trace\": ", JSON_MARK);
	reel_json_str(f, o->trace);
	fprintf(f, ",\n  \"result\": ");
	if (o->result)
		reel_json_str(f, o->result);
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"label\": ");
	reel_json_str(f, r->label);
	fprintf(f, ",\n  \"targets\": [");
	for (size_t i = 0; i < o->ntargets; i++) {
		fprintf(f, "%s", i ? ", " : "");
		reel_json_str(f, o->targets[i]);
	}
	for (size_t i = 0; i < o->nmaps; i++) {
		fprintf(f, "%s", i || o->ntargets ? ", " : "");
		reel_json_str(f, o->maps[i].path);
	}
	fprintf(f, "],\n  \"engine\": ");
	reel_json_str(f, r->engine);
	fprintf(f,
		",\n  \"timing\": \"%s\", \"speed\": %g, \"qd\": ", replay_timing_names[o->timing],
		o->speed);
	reel_json_str(f, r->qd_desc);
	fprintf(f, ", \"order\": \"%s\", \"point\": \"%s\",\n  \"data\": ",
		replay_order_names[o->order], replay_point_names[o->point]);
	reel_json_str(f, o->data_str);
	fprintf(f, ", \"dedupe\": %u, \"ratio_achieved\": ", o->data.dedupe_pct);
	if (r->ratio_achieved > 0)
		fprintf(f, "%.4f", r->ratio_achieved);
	else
		fprintf(f, "null");
	fprintf(f,
		",\n  \"duration_ns\": %lld, \"trace_duration_ns\": %lld, \"idle_cut_ns\": %lld,\n"
		"  \"expected_ns\": %s, \"interrupted\": %d,\n"
		"  \"t0_mono_ns\": %lld, \"schedule_slipped\": %d, \"slip_limit_ns\": %d,\n"
		"  \"ios\": %llu, \"errors\": %llu, \"skipped\": %llu,\n  \"ops\": {",
		(long long)r->duration_ns, (long long)r->trace_duration_ns,
		(long long)r->idle_cut_ns, expected, r->interrupted, (long long)r->t0_mono_ns,
		r->slipped, REPLAY_SLIP_LIMIT_NS, (unsigned long long)r->ios,
		(unsigned long long)r->errors, (unsigned long long)r->skipped);
	int first = 1;
	for (int op = 0; op < REEL_OP__COUNT; op++) {
		const struct replay_op_stats *s = &r->op[op];
		if (!s->count)
			continue;
		fprintf(f,
			"%s\n    \"%s\": {\"count\": %llu, \"bytes\": %llu, \"errors\": %llu, "
			"\"iops\": %.1f, \"mb_per_s\": %.3f,\n      \"latency_ns\": ",
			first ? "" : ",", reel_op_name(op), (unsigned long long)s->count,
			(unsigned long long)s->bytes, (unsigned long long)s->errors,
			secs > 0 ? s->count / secs : 0.0, secs > 0 ? s->bytes / secs / 1e6 : 0.0);
		json_hist(f, &s->lat);
		fprintf(f, "}");
		first = 0;
	}
	fprintf(f, "\n  },\n  \"issue_error_ns\": ");
	if (o->timing == REPLAY_TIMING_ORIGINAL)
		json_hist(f, &r->issue_err);
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"inflight\": {\"mean\": %.3f, \"max\": %u}\n}\n", r->inflight_mean,
		r->inflight_max);
}

static void print_us(FILE *f, int64_t ns)
{
	if (ns < 10000)
		fprintf(f, " %9.1f", ns / 1e3);
	else
		fprintf(f, " %9.0f", ns / 1e3);
}

static void summary(FILE *f, const struct replay_result *r, const struct replay_opts *o)
{
	double secs = r->duration_ns / 1e9;
	fprintf(f, "replay    %s -> %s%s\n", o->trace, r->label,
		r->interrupted ? "  (INTERRUPTED: partial)" : "");
	fprintf(f, "          timing %s", replay_timing_names[o->timing]);
	if (o->timing == REPLAY_TIMING_ORIGINAL)
		fprintf(f, " x%g", o->speed);
	fprintf(f, ", qd %s, order %s, point %s\n", r->qd_desc, replay_order_names[o->order],
		replay_point_names[o->point]);
	fprintf(f, "duration  %.3f s", secs);
	if (o->timing == REPLAY_TIMING_ORIGINAL && o->max_idle_ns > 0)
		fprintf(f,
			" (trace %.3f s, %.3f s of idle cut by --max-idle; expected %.3f s at "
			"speed %g)",
			r->trace_duration_ns / 1e9, r->idle_cut_ns / 1e9,
			(double)(r->trace_duration_ns - r->idle_cut_ns) / 1e9 / o->speed, o->speed);
	else if (o->timing == REPLAY_TIMING_ORIGINAL)
		fprintf(f, " (trace %.3f s; expected %.3f s at speed %g)",
			r->trace_duration_ns / 1e9, r->trace_duration_ns / 1e9 / o->speed,
			o->speed);
	else
		fprintf(f, " (trace %.3f s)", r->trace_duration_ns / 1e9);
	fprintf(f, "\nI/Os      %llu done, %llu errors, %llu skipped\n", (unsigned long long)r->ios,
		(unsigned long long)r->errors, (unsigned long long)r->skipped);
	fprintf(f, "%-13s %9s %9s %9s", "op", "count", "IOPS", "MB/s");
	for (int i = 0; i < 6; i++)
		fprintf(f, " %9s", qnames[i]);
	fprintf(f, "   (latency, us)\n");
	for (int op = 0; op < REEL_OP__COUNT; op++) {
		const struct replay_op_stats *s = &r->op[op];
		if (!s->count)
			continue;
		fprintf(f, "%-13s %9llu %9.0f %9.1f", reel_op_name(op),
			(unsigned long long)s->count, secs > 0 ? s->count / secs : 0.0,
			secs > 0 ? s->bytes / secs / 1e6 : 0.0);
		for (int i = 0; i < 6; i++)
			print_us(f, (int64_t)reel_hist_quantile(&s->lat, qs[i]));
		fprintf(f, "\n");
	}
	if (o->timing == REPLAY_TIMING_ORIGINAL && r->issue_err.count) {
		fprintf(f, "%-13s %9s %9s %9s", "issue error", "", "", "");
		for (int i = 0; i < 6; i++)
			print_us(f, (int64_t)reel_hist_quantile(&r->issue_err, qs[i]));
		fprintf(f, "   (actual - scheduled, us)\n");
	}
	fprintf(f, "in-flight mean %.2f, max %u\n", r->inflight_mean, r->inflight_max);
	fprintf(f, "data      %s, dedupe %u%%", o->data_str, o->data.dedupe_pct);
	if (r->ratio_achieved > 0)
		fprintf(f, ", achieved LZ4 ratio %.3f (sampled %.1f MB written)", r->ratio_achieved,
			r->ratio_sampled_bytes / 1e6);
	else if (!strcmp(r->engine, "null"))
		fprintf(f, " (null engine: no data generated)");
	fprintf(f, "\n");
	if (o->result)
		fprintf(f, "result    %s\n", o->result);
	if (r->first_error)
		fprintf(f, "first error: %s\n", strerror(-r->first_error));
}

/* What parse_cli() cannot check alone: targets, the result's name.
 * Returns 0, or 2 after saying what is wrong. */
static int check_cli(struct cli *c)
{
	struct replay_opts *o = &c->o;
	if (!o->ntargets && !o->nmaps) {
		fprintf(
		    stderr,
		    "ioreel replay: give --target PATH (a block device or file to replay on)\n");
		return 2;
	}
	for (size_t k = 0; k < c->ndestroy; k++) {
		int hit = 0;
		for (size_t t = 0; t < o->ntargets && !hit; t++)
			hit = replay_safety_names_it(c->destroy[k], o->targets[t]);
		for (size_t m = 0; m < o->nmaps && !hit; m++)
			hit = replay_safety_names_it(c->destroy[k], o->maps[m].path);
		if (!hit) {
			fprintf(stderr,
				"ioreel replay: --destroy-data=%s names no target: give the kernel "
				"name (e.g. sdb) or the path of a --target\n",
				c->destroy[k]);
			return 2;
		}
	}
	if (o->result && c->json &&
	    (!strcmp(o->result, c->json) || reel_same_file(o->result, c->json))) {
		fprintf(stderr, "ioreel replay: -o and --json name the same file %s: name two\n",
			c->json);
		return 2;
	}
	return 0;
}

/* The replay, with Ctrl-C and SIGTERM stopping it cleanly and progress on
 * stderr (unless -q).  Returns replay_run()'s code. */
static int run(struct cli *c, struct replay_result *res, char *err, size_t errlen)
{
	struct replay_opts *o = &c->o;
	struct sigaction sa;
	struct prog pg = {isatty(2), 0, PROGRESS_FILE_NS};
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: waits return early */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	o->stop = &stop_flag;
	if (!c->quiet) {
		o->progress = progress;
		o->progress_arg = &pg;
	}
	int r = replay_run(o, res, err, errlen);
	if (pg.shown && pg.tty)
		fprintf(stderr, "\r%120s\r", "");
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return r;
}

/* An existing --json FILE may be replaced when it is a summary of ours. */
static int json_is_ours(const char *path) { return reel_out_starts_with(path, JSON_MARK); }

/* Claim --json FILE (or '-') before the replay: a refused name costs
 * nothing.  Returns 0, or 2 after saying why. */
static int json_open(struct cli *c, struct reel_out *jo)
{
	const struct replay_opts *o = &c->o;
	const char *in[2 + 2 * REPLAY_MAX_TARGETS];
	size_t n = 0;
	char err[1024];
	in[n++] = o->trace;
	if (o->result)
		in[n++] = o->result;
	for (size_t i = 0; i < o->ntargets; i++)
		in[n++] = o->targets[i];
	for (size_t i = 0; i < o->nmaps && n < sizeof(in) / sizeof(in[0]); i++)
		in[n++] = o->maps[i].path;
	unsigned fl = REEL_OUT_STDOUT | (o->overwrite ? REEL_OUT_OVERWRITE : 0);
	if (reel_out_open(jo, AT_FDCWD, c->json, fl, json_is_ours, in, n, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "ioreel replay: --json %s\n", err);
	return 2;
}

static void notice(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "ioreel replay: %s\n", msg);
}

/* After the replay: the summary (on stderr when the JSON takes stdout),
 * the JSON, and the exit status. */
static int report(struct cli *c, const struct replay_result *res, struct reel_out *jo)
{
	char err[1024];
	summary(jo->is_stdout ? stderr : stdout, res, &c->o);
	if (res->slipped)
		fprintf(stderr,
			"ioreel replay: warning: the schedule slipped (issue error p99 over "
			"%d us): the host, not the target, set the pace\n",
			REPLAY_SLIP_LIMIT_NS / 1000);
	if (res->behind_ios && res->behind_actual_ns > 0 && res->behind_sched_ns > 0)
		fprintf(stderr,
			"ioreel replay: %llu of %llu I/Os went over %d us late: the trace asked "
			"%.0f IOPS there, the replay reached %.0f\n",
			(unsigned long long)res->behind_ios, (unsigned long long)res->ios,
			REPLAY_SLIP_LIMIT_NS / 1000,
			1e9 * (double)res->behind_ios / (double)res->behind_sched_ns,
			1e9 * (double)res->behind_ios / (double)res->behind_actual_ns);
	if (c->json) {
		write_json(jo->f, res, &c->o);
		if (reel_out_commit(jo, err, sizeof(err)) < 0) {
			fprintf(stderr, "ioreel replay: --json %s\n", err);
			return 1;
		}
	}
	if (res->interrupted)
		return 130;
	return res->errors ? 1 : 0;
}

int cmd_replay(int argc, char **argv)
{
	struct cli c;
	struct reel_out jo;
	char err[1024] = "";
	struct replay_result *res = NULL;
	int rc = 2;
	memset(&c, 0, sizeof(c));
	memset(&jo, 0, sizeof(jo));
	jo.fd = -1;
	c.o.speed = 1.0;
	c.cpu = -1;
	c.o.qd_default = 1;
	c.o.data_str = "random";
	c.o.notice = notice;
	replay_data_parse(c.o.data_str, &c.o.data, err, sizeof(err));
	int i = parse_cli(&c, argc, argv);
	if (i < 0) {
		rc = reel_opt_exit(i);
		goto out;
	}
	c.o.trace = argv[i];
	c.o.targets = c.targets;
	c.o.maps = c.maps;
	c.o.destroy_names = c.destroy;
	c.o.ndestroy = c.ndestroy;
	c.o.timing = (enum replay_timing)c.timing;
	c.o.order = (enum replay_order)c.order;
	c.o.max_idle_ns = (int64_t)(c.max_idle * 1e9);
	c.o.point = (enum replay_point)c.point;
	c.o.fit = (enum replay_fit)c.fit;
	c.o.engine = replay_engine_name((unsigned)c.engine);
	c.o.data.dedupe_pct = c.dedupe;
	c.o.pin_cpu = c.cpu >= 0;
	c.o.cpu = c.cpu;
	if (!c.o.qd_str)
		c.o.qd_str = "default";
	if ((rc = check_cli(&c)) != 0 || (c.json && (rc = json_open(&c, &jo)) != 0))
		goto out;
	res = malloc(sizeof(*res));
	if (!res) {
		fprintf(stderr, "ioreel replay: out of memory\n");
		rc = 1;
		goto out;
	}
	int r = run(&c, res, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ioreel replay: %s\n", err[0] ? err : reel_strerror(r));
		rc = 1;
		goto out;
	}
	rc = report(&c, res, &jo);
out:
	reel_out_abort(&jo);
	for (size_t k = 0; k < c.nbufs; k++)
		free(c.bufs[k]);
	free(c.bufs);
	free(c.maps);
	free(res);
	return rc;
}
