/*
 * replay/cmd_replay.c - `ioreel replay`: options, signals, progress line,
 * the summary on stdout and the --json document.  The work is replay_run().
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/replay.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	if (stop_flag) /* second signal: give up waiting */
		signal(sig, SIG_DFL);
	stop_flag = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ioreel replay TRACE.reel --target PATH[,PATH...] [-o RESULT.reel] [options]\n"
		"\n"
		"Replay a block I/O trace against block devices or files, recording each I/O's\n"
		"scheduled, actual issue and completion times in RESULT.reel.\n"
		"\n"
		"Targets\n"
		"  --target PATH[,PATH...]  block devices or files; trace devices map to them in\n"
		"                           order of device id (repeatable)\n"
		"  --map ID=PATH            trace device ID goes to PATH (repeatable; unmapped\n"
		"                           devices are skipped)\n"
		"  --fit fail|wrap|scale    offsets past a target's end: refuse (default, saying\n"
		"                           the size needed), wrap around, or scale down\n"
		"  --align                  round misaligned I/Os to the target's logical blocks\n"
		"  --buffered               use the page cache (default: O_DIRECT)\n"
		"  --read-only              replay writes as reads; skip discards and write-zeroes\n"
		"  --destroy-data=NAME      allow writing over a device carrying a filesystem or\n"
		"                           partition table: NAME is its kernel name (e.g. sdb)\n"
		"  --overwrite              allow writing into an existing file not made by ioreel\n"
		"  --precondition           fill each target sequentially before the replay\n"
		"  --no-rt                  with original timing, do not ask for real-time\n"
		"                           scheduling (SCHED_FIFO, used when permitted)\n"
		"Timing and queueing\n"
		"  --timing original|afap   keep the trace's times (default) or go as fast as possible\n"
		"  --speed F                original timing F times faster (default 1)\n"
		"  --qd N|original|xK       queue depth cap N, the trace's own in-flight count, or\n"
		"                           K times it (default: original when the trace has issue\n"
		"                           and completion times, else 32)\n"
		"  --order none|strict|dependency\n"
		"                           none: by time; strict: trace order; dependency: an I/O\n"
		"                           waits for those that completed before it was queued\n"
		"  --point queue|issue      replay from the trace's queue (Q) or issue (D) times\n"
		"  --window N               read-ahead window in records (default 4096)\n"
		"  --engine libaio|io_uring|psync|null   (default libaio)\n"
		"Data written\n"
		"  --data zero|random|ratio:R|pattern:HEX   (default random)\n"
		"  --dedupe PCT             share of 4 KiB pieces that repeat earlier ones\n"
		"Output\n"
		"  -o RESULT.reel           result trace (replaced only if it is an ioreel result)\n"
		"  --json FILE              the summary as JSON ('-' for stdout)\n"
		"  -h, --help\n"
		"\n"
		"Ctrl-C stops issuing, waits for what is in flight and writes a valid result.\n"
		"Example: ioreel replay boot.reel --target /dev/sdb --destroy-data=sdb --qd x2 \\\n"
		"           --data ratio:2 -o sdb-boot.reel\n");
}

static int parse_enum(const char *opt, const char *v, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v, names[i]))
			return i;
	fprintf(stderr, "ioreel replay: %s %s: use", opt, v);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? (i == n - 1 ? " or" : ",") : "", names[i]);
	fprintf(stderr, "\n");
	return -1;
}

static void progress(const struct replay_progress *p, void *arg)
{
	double s = p->elapsed_ns / 1e9;
	char eta[32] = "?";
	if (p->eta_ns >= 0) {
		long e = (long)(p->eta_ns / 1000000000);
		snprintf(eta, sizeof(eta), "%ld:%02ld:%02ld", e / 3600, e / 60 % 60, e % 60);
	}
	fprintf(stderr, "\r  %5.1f%%  %9.0f IOPS  %8.1f MB/s  ETA %s   ",
		p->total ? 100.0 * (double)p->done / (double)p->total : 0.0,
		s > 0 ? (double)p->done / s : 0.0, s > 0 ? (double)p->bytes / s / 1e6 : 0.0, eta);
	*(int *)arg = 1;
}

static const double qs[] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
static const char *const qnames[] = {"p50", "p90", "p99", "p99.9", "p99.99", "max"};

static void json_hist(FILE *f, const struct reel_hist *h)
{
	fprintf(f, "{\"count\": %llu, \"mean\": %.0f", (unsigned long long)h->count,
		reel_hist_mean(h));
	for (int i = 0; i < 6; i++)
		fprintf(f, ", \"%s\": %lld", qnames[i], (long long)(int64_t)reel_hist_quantile(h, qs[i]));
	fprintf(f, "}");
}

static void write_json(FILE *f, const struct replay_result *r, const struct replay_opts *o,
		       const char *const *orders)
{
	double secs = r->duration_ns / 1e9;
	fprintf(f, "{\n  \"trace\": ");
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
	fprintf(f, ",\n  \"timing\": \"%s\", \"speed\": %g, \"qd\": ",
		o->timing == REPLAY_TIMING_AFAP ? "afap" : "original", o->speed);
	reel_json_str(f, r->qd_desc);
	fprintf(f, ", \"order\": \"%s\", \"point\": \"%s\",\n  \"data\": ", orders[o->order],
		o->point == REPLAY_POINT_ISSUE ? "issue" : "queue");
	reel_json_str(f, o->data_str);
	fprintf(f, ", \"dedupe\": %u, \"ratio_achieved\": ", o->data.dedupe_pct);
	if (r->ratio_achieved > 0)
		fprintf(f, "%.4f", r->ratio_achieved);
	else
		fprintf(f, "null");
	fprintf(f,
		",\n  \"duration_ns\": %lld, \"trace_duration_ns\": %lld, \"interrupted\": %d,\n"
		"  \"ios\": %llu, \"errors\": %llu, \"skipped\": %llu,\n  \"ops\": {",
		(long long)r->duration_ns, (long long)r->trace_duration_ns, r->interrupted,
		(unsigned long long)r->ios, (unsigned long long)r->errors,
		(unsigned long long)r->skipped);
	int first = 1;
	for (int op = 0; op < REEL_OP__COUNT; op++) {
		const struct replay_op_stats *s = &r->op[op];
		if (!s->count)
			continue;
		fprintf(f, "%s\n    \"%s\": {\"count\": %llu, \"bytes\": %llu, \"errors\": %llu, "
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

static void print_us(int64_t ns)
{
	if (ns < 10000)
		printf(" %9.1f", ns / 1e3);
	else
		printf(" %9.0f", ns / 1e3);
}

static void summary(const struct replay_result *r, const struct replay_opts *o,
		    const char *const *orders)
{
	double secs = r->duration_ns / 1e9;
	printf("replay    %s -> %s%s\n", o->trace, r->label,
	       r->interrupted ? "  (INTERRUPTED: partial)" : "");
	printf("          timing %s", o->timing == REPLAY_TIMING_AFAP ? "afap" : "original");
	if (o->timing == REPLAY_TIMING_ORIGINAL)
		printf(" x%g", o->speed);
	printf(", qd %s, order %s, point %s\n", r->qd_desc, orders[o->order],
	       o->point == REPLAY_POINT_ISSUE ? "issue" : "queue");
	printf("duration  %.3f s", secs);
	if (o->timing == REPLAY_TIMING_ORIGINAL)
		printf(" (trace %.3f s; expected %.3f s at speed %g)", r->trace_duration_ns / 1e9,
		       r->trace_duration_ns / 1e9 / o->speed, o->speed);
	else
		printf(" (trace %.3f s)", r->trace_duration_ns / 1e9);
	printf("\nI/Os      %llu done, %llu errors, %llu skipped\n", (unsigned long long)r->ios,
	       (unsigned long long)r->errors, (unsigned long long)r->skipped);
	printf("%-13s %9s %9s %9s", "op", "count", "IOPS", "MB/s");
	for (int i = 0; i < 6; i++)
		printf(" %9s", qnames[i]);
	printf("   (latency, us)\n");
	for (int op = 0; op < REEL_OP__COUNT; op++) {
		const struct replay_op_stats *s = &r->op[op];
		if (!s->count)
			continue;
		printf("%-13s %9llu %9.0f %9.1f", reel_op_name(op), (unsigned long long)s->count,
		       secs > 0 ? s->count / secs : 0.0, secs > 0 ? s->bytes / secs / 1e6 : 0.0);
		for (int i = 0; i < 6; i++)
			print_us((int64_t)reel_hist_quantile(&s->lat, qs[i]));
		printf("\n");
	}
	if (o->timing == REPLAY_TIMING_ORIGINAL && r->issue_err.count) {
		printf("%-13s %9s %9s %9s", "issue error", "", "", "");
		for (int i = 0; i < 6; i++)
			print_us((int64_t)reel_hist_quantile(&r->issue_err, qs[i]));
		printf("   (actual - scheduled, us)\n");
	}
	printf("in-flight mean %.2f, max %u\n", r->inflight_mean, r->inflight_max);
	printf("data      %s, dedupe %u%%", o->data_str, o->data.dedupe_pct);
	if (r->ratio_achieved > 0)
		printf(", achieved LZ4 ratio %.3f (sampled %.1f MB written)", r->ratio_achieved,
		       r->ratio_sampled_bytes / 1e6);
	else if (!strcmp(r->engine, "null"))
		printf(" (null engine: no data generated)");
	printf("\n");
	if (o->result)
		printf("result    %s\n", o->result);
	if (r->first_error)
		printf("first error: %s\n", strerror(-r->first_error));
}

/* -o may replace an existing file only when it is an ioreel replay result. */
static int result_replaceable(const char *path)
{
	if (access(path, F_OK) != 0)
		return 1;
	struct reel_reader *rd;
	if (reel_reader_open(&rd, path, 0) < 0) {
		reel_reader_close(rd);
		return 0;
	}
	const struct reel_header *h = reel_reader_header(rd);
	int ok = h && h->source && !strcmp(h->source, "replay");
	reel_reader_close(rd);
	return ok;
}

int cmd_replay(int argc, char **argv)
{
	enum { O_TARGET = 256, O_MAP, O_JSON, O_TIMING, O_SPEED, O_QD, O_ORDER, O_POINT, O_ENGINE,
	       O_DATA, O_DEDUPE, O_FIT, O_ALIGN, O_BUFFERED, O_RO, O_DESTROY, O_OVERWRITE, O_PRECOND,
	       O_WINDOW, O_NORT };
	static const struct option lopts[] = {
		{"target", required_argument, NULL, O_TARGET},
		{"map", required_argument, NULL, O_MAP},
		{"output", required_argument, NULL, 'o'},
		{"json", required_argument, NULL, O_JSON},
		{"timing", required_argument, NULL, O_TIMING},
		{"speed", required_argument, NULL, O_SPEED},
		{"qd", required_argument, NULL, O_QD},
		{"order", required_argument, NULL, O_ORDER},
		{"point", required_argument, NULL, O_POINT},
		{"engine", required_argument, NULL, O_ENGINE},
		{"data", required_argument, NULL, O_DATA},
		{"dedupe", required_argument, NULL, O_DEDUPE},
		{"fit", required_argument, NULL, O_FIT},
		{"align", no_argument, NULL, O_ALIGN},
		{"buffered", no_argument, NULL, O_BUFFERED},
		{"read-only", no_argument, NULL, O_RO},
		{"destroy-data", required_argument, NULL, O_DESTROY},
		{"overwrite", no_argument, NULL, O_OVERWRITE},
		{"precondition", no_argument, NULL, O_PRECOND},
		{"window", required_argument, NULL, O_WINDOW},
		{"no-rt", no_argument, NULL, O_NORT},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char *const timings[] = {"original", "afap"};
	static const char *const orders[] = {"none", "strict", "dependency"};
	static const char *const points[] = {"queue", "issue"};
	static const char *const fits[] = {"fail", "wrap", "scale"};
	struct replay_opts o;
	memset(&o, 0, sizeof(o));
	o.speed = 1.0;
	o.qd_default = 1;
	o.engine = "libaio";
	o.data_str = "random";
	const char *json = NULL;
	const char **targets = calloc((size_t)argc + 1, sizeof(char *) * REPLAY_MAX_TARGETS);
	struct replay_map *maps = calloc((size_t)argc + 1, sizeof(*maps));
	char **tofree = calloc((size_t)argc + 1, sizeof(char *));
	size_t ntofree = 0;
	unsigned dedupe = 0;
	int rc = 2, c;
	char err[1024] = "";
	struct replay_result *res = NULL;
	if (!targets || !maps || !tofree) {
		fprintf(stderr, "ioreel replay: out of memory\n");
		goto out;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", lopts, NULL)) != -1) {
		char *end;
		int v;
		switch (c) {
		case O_TARGET: {
			char *s = strdup(optarg), *save = NULL;
			tofree[ntofree++] = s;
			for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				if (o.ntargets >= REPLAY_MAX_TARGETS) {
					fprintf(stderr, "ioreel replay: at most %d targets\n",
						REPLAY_MAX_TARGETS);
					goto out;
				}
				targets[o.ntargets++] = t;
			}
			break;
		}
		case O_MAP: {
			long id = strtol(optarg, &end, 10);
			if (end == optarg || *end != '=' || !end[1] || id < 0 || id > 65535) {
				fprintf(stderr, "ioreel replay: --map %s: use ID=PATH, e.g. --map 1=/dev/sdc\n",
					optarg);
				goto out;
			}
			maps[o.nmaps].trace_dev = (int)id;
			maps[o.nmaps++].path = end + 1;
			break;
		}
		case 'o':
			o.result = optarg;
			break;
		case O_JSON:
			json = optarg;
			break;
		case O_TIMING:
			if ((v = parse_enum("--timing", optarg, timings, 2)) < 0)
				goto out;
			o.timing = (enum replay_timing)v;
			break;
		case O_SPEED:
			o.speed = strtod(optarg, &end);
			if (end == optarg || *end || !(o.speed > 0) || !isfinite(o.speed)) {
				fprintf(stderr, "ioreel replay: --speed %s: give a positive number, e.g. 2 or 0.5\n",
					optarg);
				goto out;
			}
			break;
		case O_QD:
			o.qd_default = 0;
			o.qd_str = optarg;
			if (!strcmp(optarg, "original")) {
				o.qd_mode = REPLAY_QD_ORIGINAL;
			} else if (optarg[0] == 'x') {
				o.qd_mode = REPLAY_QD_SCALED;
				o.qd_scale = strtod(optarg + 1, &end);
				if (end == optarg + 1 || *end || !(o.qd_scale > 0) || o.qd_scale > 1000) {
					fprintf(stderr, "ioreel replay: --qd %s: xK needs K > 0, e.g. x2 or x0.5\n",
						optarg);
					goto out;
				}
			} else {
				long q = strtol(optarg, &end, 10);
				if (end == optarg || *end || q < 1 || q > REPLAY_MAX_QD) {
					fprintf(stderr,
						"ioreel replay: --qd %s: use a depth from 1 to %d, original, or xK\n",
						optarg, REPLAY_MAX_QD);
					goto out;
				}
				o.qd_mode = REPLAY_QD_FIXED;
				o.qd = (unsigned)q;
			}
			break;
		case O_ORDER:
			if ((v = parse_enum("--order", optarg, orders, 3)) < 0)
				goto out;
			o.order = (enum replay_order)v;
			break;
		case O_POINT:
			if ((v = parse_enum("--point", optarg, points, 2)) < 0)
				goto out;
			o.point = (enum replay_point)v;
			break;
		case O_ENGINE:
			o.engine = optarg;
			break;
		case O_DATA:
			o.data_str = optarg;
			break;
		case O_DEDUPE: {
			long d = strtol(optarg, &end, 10);
			if (end == optarg || (*end && strcmp(end, "%")) || d < 0 || d > 100) {
				fprintf(stderr, "ioreel replay: --dedupe %s: give a percentage from 0 to 100\n",
					optarg);
				goto out;
			}
			dedupe = (unsigned)d;
			break;
		}
		case O_FIT:
			if ((v = parse_enum("--fit", optarg, fits, 3)) < 0)
				goto out;
			o.fit = (enum replay_fit)v;
			break;
		case O_ALIGN:
			o.align = 1;
			break;
		case O_BUFFERED:
			o.buffered = 1;
			break;
		case O_RO:
			o.read_only = 1;
			break;
		case O_DESTROY:
			o.destroy_name = optarg;
			break;
		case O_OVERWRITE:
			o.overwrite = 1;
			break;
		case O_PRECOND:
			o.precondition = 1;
			break;
		case O_NORT:
			o.no_rt = 1;
			break;
		case O_WINDOW:
			o.window = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			fprintf(stderr, "ioreel replay: see 'ioreel replay --help'\n");
			goto out;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "ioreel replay: %s\n", optind >= argc ? "which trace? give TRACE.reel"
								     : "give exactly one TRACE.reel");
		usage(stderr);
		goto out;
	}
	o.trace = argv[optind];
	if (!o.ntargets && !o.nmaps) {
		fprintf(stderr, "ioreel replay: give --target PATH (a block device or file to replay on)\n");
		goto out;
	}
	if (replay_data_parse(o.data_str, &o.data, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel replay: %s\n", err);
		goto out;
	}
	o.data.dedupe_pct = dedupe;
	o.targets = targets;
	o.maps = maps;
	if (o.result) {
		if (!result_replaceable(o.result)) {
			fprintf(stderr,
				"ioreel replay: -o %s: the file exists and is not an ioreel replay result; "
				"choose another name or remove it\n",
				o.result);
			goto out;
		}
		o.overwrite_result = 1;
		for (size_t i = 0; i < o.ntargets; i++)
			if (!strcmp(o.targets[i], o.result)) {
				fprintf(stderr, "ioreel replay: -o %s is also a target\n", o.result);
				goto out;
			}
	}
	if (!o.qd_str)
		o.qd_str = "default";
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: waits return early */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	o.stop = &stop_flag;
	int shown = 0;
	if (isatty(2)) {
		o.progress = progress;
		o.progress_arg = &shown;
	}
	res = malloc(sizeof(*res));
	if (!res) {
		fprintf(stderr, "ioreel replay: out of memory\n");
		goto out;
	}
	int r = replay_run(&o, res, err, sizeof(err));
	if (shown)
		fprintf(stderr, "\r%70s\r", "");
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (r < 0) {
		fprintf(stderr, "ioreel replay: %s\n", err[0] ? err : reel_strerror(r));
		rc = 1;
		goto out;
	}
	/* the default queue depth as resolved */
	struct replay_opts shown_o = o;
	summary(res, &shown_o, orders);
	if (json) {
		FILE *f = strcmp(json, "-") ? fopen(json, "w") : stdout;
		if (!f) {
			fprintf(stderr, "ioreel replay: --json %s: %s\n", json, strerror(errno));
			rc = 1;
			goto out;
		}
		write_json(f, res, &o, orders);
		if (f != stdout && fclose(f) != 0) {
			fprintf(stderr, "ioreel replay: --json %s: %s\n", json, strerror(errno));
			rc = 1;
			goto out;
		}
	}
	rc = res->errors ? 1 : 0;
	if (res->interrupted)
		rc = 130;
out:
	for (size_t i = 0; i < ntofree; i++)
		free(tofree[i]);
	free(tofree);
	free(targets);
	free(maps);
	free(res);
	return rc;
}
