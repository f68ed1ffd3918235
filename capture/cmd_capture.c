/*
 * capture/cmd_capture.c - `ioreel capture`: record the block I/O of devices,
 * or of a command, into a .reel file.  The only file of capture/ that prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"

#define MAX_DEVS 64
#define FLUSH_NS 1000000000LL /* write a chunk at least this often */

struct capture_cli {
	const char *devs[MAX_DEVS];
	int ndevs;
	const char *out;
	double duration;
	int drop_caches;
	int pid_tree;
	unsigned buffer_kb;
	int allow_loss;
	int overwrite;
	int quiet;
	int level;
	char **cmd;
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ioreel capture [-d DEV]... -o OUT.reel [--duration S] [options]\n"
		"       ioreel capture [--drop-caches] [--pid-tree] -o OUT.reel -- CMD [ARGS...]\n"
		"\n"
		"Record block I/O through tracefs (a private instance\n"
		"/sys/kernel/tracing/instances/ioreel-<pid>) into a .reel trace: one record\n"
		"per I/O with queue, issue and completion times.  Without CMD it records\n"
		"until Ctrl-C, SIGTERM or --duration; with CMD it runs CMD, records until\n"
		"CMD exits and returns CMD's exit status.\n"
		"\n"
		"  -d, --device DEV     record DEV (repeatable; default: every disk).\n"
		"                       I/O to its partitions and to dm devices on it is\n"
		"                       recorded in DEV's sector space\n"
		"  -o, --output FILE    the .reel file to write (required)\n"
		"      --overwrite      replace FILE if it exists\n"
		"  -t, --duration S     stop after S seconds (decimals allowed)\n"
		"      --drop-caches    sync and drop the page cache first (a cold start)\n"
		"      --pid-tree       keep only I/O queued by CMD and its descendants\n"
		"                       (misses writeback and other I/O that kernel threads\n"
		"                       issue on its behalf, e.g. dirty pages flushed later)\n"
		"      --buffer-kb N    per-CPU ring buffer size in KiB (default 8192)\n"
		"      --allow-loss     exit 0 even when the kernel lost events\n"
		"      --level N        LZ4 level of the file: 0-2 fast (default 1), 3-12\n"
		"                       smaller and slower (the .reel writer's default is 9)\n"
		"  -q, --quiet          no progress on stderr\n"
		"  -h, --help           this text\n"
		"\n"
		"Lost events (ring-buffer overruns) are counted per CPU, stored in the\n"
		"trace (capture.lost_events) and make the exit status 3 unless\n"
		"--allow-loss.  Exit status: 0 ok, 1 error, 2 usage, 3 events lost,\n"
		"or CMD's status.\n"
		"\n"
		"example: ioreel capture --drop-caches -o app.reel -- /usr/bin/python3 -c pass\n");
}

static int parse_args(struct capture_cli *o, int argc, char **argv)
{
	enum { OPT_DROP = 256, OPT_PIDTREE, OPT_BUFKB, OPT_ALLOW, OPT_OVERWRITE, OPT_LEVEL };
	static const struct option lopts[] = {
		{"device", required_argument, NULL, 'd'},
		{"output", required_argument, NULL, 'o'},
		{"duration", required_argument, NULL, 't'},
		{"drop-caches", no_argument, NULL, OPT_DROP},
		{"pid-tree", no_argument, NULL, OPT_PIDTREE},
		{"buffer-kb", required_argument, NULL, OPT_BUFKB},
		{"allow-loss", no_argument, NULL, OPT_ALLOW},
		{"overwrite", no_argument, NULL, OPT_OVERWRITE},
		{"level", required_argument, NULL, OPT_LEVEL},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	char *end;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+d:o:t:qh", lopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (o->ndevs == MAX_DEVS) {
				fprintf(stderr, "ioreel capture: at most %d devices\n", MAX_DEVS);
				return 2;
			}
			o->devs[o->ndevs++] = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 't':
			o->duration = strtod(optarg, &end);
			if (*end || o->duration <= 0) {
				fprintf(stderr, "ioreel capture: --duration '%s': give seconds > 0\n",
					optarg);
				return 2;
			}
			break;
		case OPT_DROP:
			o->drop_caches = 1;
			break;
		case OPT_PIDTREE:
			o->pid_tree = 1;
			break;
		case OPT_BUFKB: {
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end || v < 64 || v > 4u * 1024 * 1024) {
				fprintf(stderr, "ioreel capture: --buffer-kb '%s': give 64..4194304\n",
					optarg);
				return 2;
			}
			o->buffer_kb = (unsigned)v;
			break;
		}
		case OPT_ALLOW:
			o->allow_loss = 1;
			break;
		case OPT_OVERWRITE:
			o->overwrite = 1;
			break;
		case OPT_LEVEL: {
			long v = strtol(optarg, &end, 10);
			if (*end || v < 0 || v > 12) {
				fprintf(stderr, "ioreel capture: --level '%s': give 0..12\n", optarg);
				return 2;
			}
			o->level = (int)v;
			break;
		}
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		o->cmd = argv + optind;
	if (!o->out) {
		fprintf(stderr, "ioreel capture: -o OUT.reel is required ('ioreel capture --help')\n");
		return 2;
	}
	if (o->pid_tree && !o->cmd) {
		fprintf(stderr, "ioreel capture: --pid-tree needs a command: -- CMD ARGS\n");
		return 2;
	}
	return 0;
}

static int drop_caches(void)
{
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = write(fd, "3\n", 2) == 2 ? 0 : -errno;
	close(fd);
	return rc;
}

/* The joiner reads events; the session calls this for each. */
static int push_event(void *ctx, const struct reel_event *e)
{
	return reel_join_push(ctx, e);
}

/* Fork CMD stopped on a pipe until tracing runs; returns its pid. */
static pid_t spawn(char **cmd, int *gate)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char c;
		close(p[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(p[0], &c, 1) != 1)
			_exit(127); /* the capture failed to start */
		execvp(cmd[0], cmd);
		fprintf(stderr, "ioreel capture: cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*gate = p[1];
	return pid;
}

static void join_cmd(char *buf, size_t len, int argc, char **argv)
{
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0; i < argc && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", argv[i]);
}

static void progress(const struct capture_cli *o, double secs, const struct reel_join_stats *js,
		     uint64_t events, int final)
{
	if (o->quiet)
		return;
	static int tty = -1;
	if (tty < 0)
		tty = isatty(2);
	if (!tty && !final)
		return;
	fprintf(stderr, "%s  %7.1f s  %10llu I/Os  %11llu events%s", tty ? "\r" : "", secs,
		(unsigned long long)js->records, (unsigned long long)events, final ? "\n" : "");
}

int cmd_capture(int argc, char **argv)
{
	/* a fast LZ4 level: compression runs beside the capture, on the CPUs
	 * whose I/O is being recorded */
	struct capture_cli o = {.buffer_kb = 8192, .level = 1};
	struct capture_device *devs = NULL;
	long ndevs = 0;
	uint32_t devts[MAX_DEVS], filt[4 * MAX_DEVS];
	size_t nfilt = 0, nparts = 0;
	struct capture_partmap parts[MAX_DEVS];
	char err[1024], detail[2048];
	struct reel_writer *w = NULL;
	struct reel_join *j = NULL;
	struct capture *cap = NULL;
	int rc, status = 1, gate = -1;
	pid_t child = 0;
	int child_status = 0, child_done = 0;

	rc = parse_args(&o, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;

	int stale = capture_remove_stale();
	if (stale > 0 && !o.quiet)
		fprintf(stderr, "ioreel capture: removed %d stale tracing instance%s left by a "
				"killed capture\n", stale, stale > 1 ? "s" : "");

	/* devices */
	if (o.ndevs) {
		devs = calloc((size_t)o.ndevs, sizeof(*devs));
		if (!devs)
			return 1;
		for (int i = 0; i < o.ndevs; i++) {
			if (capture_device_lookup(o.devs[i], &devs[i], err, sizeof(err))) {
				fprintf(stderr, "ioreel capture: %s\n", err);
				free(devs);
				return 1;
			}
		}
		ndevs = o.ndevs;
	} else {
		ndevs = capture_device_all(&devs);
		if (ndevs <= 0) {
			fprintf(stderr, "ioreel capture: no disks found in /sys/block "
					"(give one with -d /dev/X)\n");
			free(devs);
			return 1;
		}
		if (ndevs > MAX_DEVS)
			ndevs = MAX_DEVS;
	}
	struct reel_device rdev[MAX_DEVS];
	for (long i = 0; i < ndevs; i++) {
		rdev[i] = devs[i].info;
		rdev[i].id = (uint16_t)i;
		devts[i] = devs[i].devt;
		if (o.ndevs)
			nfilt = capture_device_related(&devs[i], filt, nfilt, 4 * MAX_DEVS);
	}
	/* a partition asked for without its disk: recorded in its own space */
	for (long i = 0; i < ndevs; i++) {
		int disk_too = 0;
		for (long k = 0; k < ndevs; k++)
			disk_too |= devs[k].devt == devs[i].disk_devt && k != i;
		if (devs[i].partition && !disk_too)
			parts[nparts++] = (struct capture_partmap){
				.disk = devs[i].disk_devt,
				.part = devs[i].devt,
				.start = devs[i].start_sector,
				.nsect = devs[i].info.capacity / 512,
			};
	}

	/* the output */
	struct utsname un;
	uname(&un);
	if (o.cmd) {
		int n = 0;
		while (o.cmd[n])
			n++;
		join_cmd(detail, sizeof(detail), n, o.cmd);
	} else {
		size_t off = (size_t)snprintf(detail, sizeof(detail), "devices:");
		for (long i = 0; i < ndevs && off < sizeof(detail); i++)
			off += (size_t)snprintf(detail + off, sizeof(detail) - off, " %s",
						rdev[i].name);
	}

	if (o.drop_caches) {
		if ((rc = drop_caches())) {
			fprintf(stderr, "ioreel capture: cannot drop the page cache "
					"(/proc/sys/vm/drop_caches): %s (needs root)\n",
				strerror(-rc));
			goto out;
		}
	}

	struct capture_opts co = {
		.devts = nfilt ? filt : NULL,
		.ndevts = nfilt,
		.buffer_kb = o.buffer_kb,
		.parts = parts,
		.nparts = nparts,
	};
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	if (o.cmd) {
		child = spawn(o.cmd, &gate);
		if (child < 0) {
			fprintf(stderr, "ioreel capture: cannot fork: %s\n", strerror(errno));
			goto out;
		}
		if (o.pid_tree)
			co.pid_tree = (uint32_t)child;
	}
	rc = capture_open(&cap, &co, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ioreel capture: %s\n", err);
		goto out;
	}
	rc = capture_start(cap);
	if (rc) {
		fprintf(stderr, "ioreel capture: cannot turn tracing on in instance %s: %s\n",
			capture_instance_name(cap), strerror(-rc));
		goto out;
	}
	struct reel_header h = {
		.start_unix_ns = capture_start_unix_ns(cap),
		.source = "captured",
		.source_detail = detail,
		.devices = rdev,
		.ndevices = (size_t)ndevs,
	};
	rc = reel_writer_open(&w, o.out, -1, &h, o.overwrite ? REEL_W_OVERWRITE : 0);
	if (rc) {
		if (w) /* the writer's message names the file */
			fprintf(stderr, "ioreel capture: %s\n", reel_writer_errmsg(w));
		else
			fprintf(stderr, "ioreel capture: %s: %s\n", o.out, reel_strerror(rc));
		goto out;
	}
	reel_writer_set_level(w, o.level);
	reel_writer_meta_str(w, REEL_META_CAPTURE_KERNEL, un.release);
	reel_writer_meta_str(w, REEL_META_CAPTURE_HOST, un.nodename);
	reel_writer_meta_str(w, REEL_META_CAPTURE_CLOCK, "mono");
	reel_writer_meta_str(w, REEL_META_CAPTURE_INSTANCE, capture_instance_name(cap));
	reel_writer_meta_int(w, REEL_META_CAPTURE_BUFFER_KB, o.buffer_kb);
	reel_writer_meta_int(w, REEL_META_CAPTURE_DROP_CACHES, o.drop_caches);
	reel_writer_meta_int(w, REEL_META_CAPTURE_PID_TREE, o.pid_tree);
	if (o.cmd)
		reel_writer_meta_str(w, REEL_META_CAPTURE_COMMAND, detail);
	rc = reel_join_create(&j, w, devts, (size_t)ndevs);
	if (rc) {
		fprintf(stderr, "ioreel capture: cannot create the event joiner: %s\n",
			reel_strerror(rc));
		goto out;
	}
	if (gate >= 0) {
		if (write(gate, "g", 1) != 1) {
			fprintf(stderr, "ioreel capture: cannot start %s\n", o.cmd[0]);
			goto out;
		}
		close(gate);
		gate = -1;
	}
	if (!o.quiet)
		fprintf(stderr, "ioreel capture: recording %s into %s (instance %s)%s\n", detail,
			o.out, capture_instance_name(cap),
			o.cmd ? "" : o.duration > 0 ? "" : "; Ctrl-C stops");

	/* the loop */
	int64_t t0 = reel_now_ns(), last_flush = t0, last_prog = t0;
	int64_t stop_at = o.duration > 0 ? t0 + (int64_t)(o.duration * 1e9) : INT64_MAX;
	int stop_reason = 0; /* 1 signal, 2 duration, 3 command exited */
	int forwarded = 0;
	struct reel_join_stats js = {0};
	for (;;) {
		long n = capture_poll(cap, 0, push_event, j);
		if (n < 0) {
			fprintf(stderr, "ioreel capture: %s\n",
				n == -ENOMEM ? "out of memory" : w ? reel_writer_errmsg(w) : "error");
			goto out;
		}
		int64_t now = reel_now_ns();
		if (now - last_flush >= FLUSH_NS) {
			if ((rc = reel_writer_flush(w))) {
				fprintf(stderr, "ioreel capture: %s\n", reel_writer_errmsg(w));
				goto out;
			}
			last_flush = now;
		}
		if (now - last_prog >= 1000000000LL) {
			reel_join_stats(j, &js);
			struct capture_stats cs;
			capture_stats(cap, &cs);
			progress(&o, (double)(now - t0) / 1e9, &js, cs.events, 0);
			last_prog = now;
		}
		if (child && !child_done) {
			pid_t r = waitpid(child, &child_status, WNOHANG);
			if (r == child) {
				child_done = 1;
				stop_reason = 3;
				break;
			}
		}
		if (got_signal) {
			if (child && !child_done) {
				/* the command decides when the capture ends: pass the
				 * signal on; a second one stops at once */
				if (forwarded++ == 0) {
					kill(child, got_signal == SIGHUP ? SIGTERM : got_signal);
					got_signal = 0;
				} else {
					stop_reason = 1;
					break;
				}
			} else {
				stop_reason = 1;
				break;
			}
		}
		if (now >= stop_at) {
			stop_reason = 2;
			break;
		}
		/* sleep while the buffers fill: a few ms keeps latency low and the
		 * reads large */
		if (n < 4096) {
			struct timespec ts = {0, 20 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	int64_t t_end = reel_now_ns();
	capture_stop(cap);
	if (capture_poll(cap, 1, push_event, j) < 0 || reel_join_finish(j) < 0) {
		fprintf(stderr, "ioreel capture: %s\n", reel_writer_errmsg(w));
		goto out;
	}
	struct capture_stats cs;
	capture_stats(cap, &cs);
	reel_join_stats(j, &js);
	reel_writer_meta_int(w, REEL_META_CAPTURE_DURATION_NS, t_end - t0);
	reel_writer_meta_int(w, REEL_META_CAPTURE_EVENTS, (int64_t)cs.events);
	reel_writer_meta_int(w, REEL_META_CAPTURE_LOST_EVENTS, (int64_t)cs.lost);
	reel_writer_meta_int(w, REEL_META_CAPTURE_OVERRUN, (int64_t)cs.overrun);
	reel_writer_meta_int(w, REEL_META_CAPTURE_DROPPED, (int64_t)cs.dropped);
	reel_writer_meta_int(w, REEL_META_CAPTURE_MISSED, (int64_t)cs.missed);
	reel_writer_meta_int(w, REEL_META_CAPTURE_PID_FILTERED, (int64_t)cs.filtered);
	reel_writer_meta_int(w, REEL_META_CAPTURE_INTERRUPTED, stop_reason == 1);
	reel_writer_meta_int(w, REEL_META_CAPTURE_JOIN_RECORDS, (int64_t)js.records);
	reel_writer_meta_int(w, REEL_META_CAPTURE_JOIN_NO_ISSUE, (int64_t)js.no_issue);
	reel_writer_meta_int(w, REEL_META_CAPTURE_JOIN_NO_COMPLETE, (int64_t)js.no_complete);
	reel_writer_meta_int(w, REEL_META_CAPTURE_JOIN_MERGED, (int64_t)js.merged);
	reel_writer_meta_int(w, REEL_META_CAPTURE_JOIN_SPLIT, (int64_t)js.split);
	reel_writer_meta_int(w, REEL_META_CAPTURE_JOIN_REMAPPED, (int64_t)js.remapped);
	reel_writer_meta_int(w, REEL_META_CAPTURE_JOIN_ORPHAN_EVENTS, (int64_t)js.orphan_events);
	if (child_done) {
		if (WIFEXITED(child_status))
			reel_writer_meta_int(w, REEL_META_CAPTURE_EXIT_STATUS, WEXITSTATUS(child_status));
		else if (WIFSIGNALED(child_status))
			reel_writer_meta_int(w, REEL_META_CAPTURE_EXIT_SIGNAL, WTERMSIG(child_status));
	}
	reel_join_destroy(j);
	j = NULL;
	/* close frees the writer: its message cannot be read afterwards */
	rc = reel_writer_close(w);
	if (rc) {
		fprintf(stderr, "ioreel capture: %s: cannot complete the file: %s\n", o.out,
			reel_strerror(rc));
		w = NULL;
		goto out;
	}
	w = NULL;
	progress(&o, (double)(t_end - t0) / 1e9, &js, cs.events, 1);
	if (!o.quiet)
		fprintf(stderr,
			"ioreel capture: %s: %llu I/Os (%llu merged, %llu split, %llu remapped; "
			"%llu without issue, %llu without completion), %llu events, %s\n",
			o.out, (unsigned long long)js.records, (unsigned long long)js.merged,
			(unsigned long long)js.split, (unsigned long long)js.remapped,
			(unsigned long long)js.no_issue, (unsigned long long)js.no_complete,
			(unsigned long long)cs.events,
			stop_reason == 1   ? "stopped by a signal"
			: stop_reason == 2 ? "duration reached"
					   : "command exited");
	if (cs.lost)
		fprintf(stderr,
			"ioreel capture: LOST EVENTS: %llu (overrun %llu, dropped %llu, missed %llu "
			"over %d CPUs); the trace is incomplete: raise --buffer-kb%s\n",
			(unsigned long long)cs.lost, (unsigned long long)cs.overrun,
			(unsigned long long)cs.dropped, (unsigned long long)cs.missed, cs.ncpus,
			o.allow_loss ? "" : " (or pass --allow-loss)");
	else if (!o.quiet)
		fprintf(stderr, "ioreel capture: no events lost\n");

	if (cs.lost && !o.allow_loss)
		status = 3;
	else if (child_done)
		status = WIFEXITED(child_status) ? WEXITSTATUS(child_status)
						 : 128 + WTERMSIG(child_status);
	else
		status = 0;
out:
	if (gate >= 0)
		close(gate); /* the child exits 127 without running */
	reel_join_destroy(j);
	if (w)
		reel_writer_destroy(w);
	capture_close(cap);
	if (child > 0 && !child_done) {
		if (status == 1)
			kill(child, SIGTERM);
		waitpid(child, &child_status, 0);
	}
	free(devs);
	return status;
}
