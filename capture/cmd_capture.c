/*
 * capture/cmd_capture.c - `ioreel capture`: record the block I/O of devices,
 * or of a command, into a .reel file.  The only file of capture/ that prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"

#define MAX_DEVS 64
#define FLUSH_NS 1000000000LL /* write a chunk at least this often */
/* --duration: from 1 ms to 30 days */
#define CAPTURE_DURATION_MIN_S 0.001
#define CAPTURE_DURATION_MAX_S (30 * 86400.0)

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

static void on_signal(int sig) { got_signal = sig; }

/* -d DEV, repeatable: dest is the struct capture_cli. */
static int add_device(const char *arg, void *dest, char *err, size_t errlen)
{
	struct capture_cli *o = dest;
	if (o->ndevs == MAX_DEVS)
		return reel_errf(err, errlen, REEL_E_ARG, "--device '%s': at most %d devices", arg,
				 MAX_DEVS);
	o->devs[o->ndevs++] = arg;
	return 0;
}

static const struct reel_cmd_doc doc = {
    .name = "capture",
    .usage = "[-d DEV]... -o OUT.reel [--duration S] [options]\n"
	     "       ioreel capture [--drop-caches] [--pid-tree] -o OUT.reel -- CMD [ARGS...]",
    .about = "Record block I/O through tracefs (a private instance\n"
	     "/sys/kernel/tracing/instances/ioreel-<pid>) into a .reel trace: one record\n"
	     "per I/O with queue, issue and completion times.  Without CMD it records\n"
	     "until Ctrl-C, SIGTERM or --duration; with CMD it runs CMD, records until\n"
	     "CMD exits and returns CMD's exit status.",
    .footer = "Lost events (ring-buffer overruns) are counted per CPU, stored in the\n"
	      "trace (capture.lost_events) and make the exit status 3 unless\n"
	      "--allow-loss; so does another program changing the capture's instance\n"
	      "(tracing turned off, events disabled: capture.disturbed).  Exit status:\n"
	      "0 ok, 1 error, 2 usage, 3 events lost, or CMD's status.\n"
	      "\n"
	      "OUT.reel is written as .OUT.reel.ioreel-PID-N beside it and renamed when\n"
	      "the capture ends; after a kill -9 the recording stays there, readable up\n"
	      "to its last second, and the next capture names it.\n"
	      "\n"
	      "example: ioreel capture --drop-caches -o app.reel -- /usr/bin/python3 -c pass\n",
    .in_order = 1, /* options end at CMD: its own options are its own */
};

/* Returns 0, or the exit status when parsing ends the command. */
static int parse_args(struct capture_cli *o, int argc, char **argv)
{
	const struct reel_opt opts[] = {
	    OPT_CALL('d', "device", "DEV", add_device, o,
		     "record DEV (repeatable; default: every disk).\n"
		     "I/O to its partitions and to dm devices on it is\n"
		     "recorded in DEV's sector space"),
	    OPT_STR('o', "output", "FILE", &o->out, "the .reel file to write (required)"),
	    OPT_FLAG(0, "overwrite", &o->overwrite,
		     "replace FILE if it exists (a regular file only; it stays\n"
		     "as it was until the capture ends).  Always needed: a\n"
		     "capture cannot be re-made, so none is replaced without it"),
	    OPT_DBL('t', "duration", "S", &o->duration, CAPTURE_DURATION_MIN_S,
		    CAPTURE_DURATION_MAX_S,
		    "stop after S seconds (decimals allowed; up to 30 days)"),
	    OPT_FLAG(0, "drop-caches", &o->drop_caches,
		     "sync and drop the page cache first (a cold start)"),
	    OPT_FLAG(0, "pid-tree", &o->pid_tree,
		     "keep only I/O queued by CMD and its descendants\n"
		     "(misses writeback and other I/O that kernel threads\n"
		     "issue on its behalf, e.g. dirty pages flushed later)"),
	    OPT_UINT(0, "buffer-kb", "N", &o->buffer_kb, 64, 4u * 1024 * 1024,
		     "per-CPU ring buffer size in KiB (default 8192)"),
	    OPT_FLAG(0, "allow-loss", &o->allow_loss, "exit 0 even when the kernel lost events"),
	    OPT_INT(0, "level", "N", &o->level, 0, 12,
		    "LZ4 level of the file: 0-2 fast (default 1), 3-12\n"
		    "smaller and slower (the .reel writer's default is 9)"),
	    OPT_FLAG('q', "quiet", &o->quiet, "no progress on stderr"),
	    OPT_END,
	};
	int i = reel_opt_parse(&doc, opts, argc, argv);
	if (i < 0)
		return i == REEL_OPT_EXIT_OK ? -1 : 2;
	if (i < argc)
		o->cmd = argv + i;
	if (!o->out) {
		fprintf(stderr,
			"ioreel capture: -o OUT.reel is required ('ioreel capture --help')\n");
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

/* The writer's message without its "(fd): " (it writes to an fd). */
static const char *writer_msg(const struct reel_writer *w)
{
	const char *m = reel_writer_errmsg(w);
	return m && !strncmp(m, "(fd): ", 6) ? m + 6 : m ? m : "write failed";
}

/* The joiner reads events; the session calls this for each. */
static int push_event(void *ctx, const struct reel_event *e) { return reel_join_push(ctx, e); }

pid_t capture_spawn(char **cmd, char *const *env, const char *who, int *gate)
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
		for (; env && *env; env++)
			putenv(*env);
		if (read(p[0], &c, 1) != 1)
			_exit(127); /* the capture failed to start */
		execvp(cmd[0], cmd);
		fprintf(stderr, "%s: cannot run %s: %s\n", who, cmd[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*gate = p[1];
	return pid;
}

/* 0 when execvp() would find CMD, else the errno it would fail with:
 * checked before the output is opened, so a mistyped command exits 127
 * (as a shell does) leaving no trace file behind. */
static int cmd_findable(const char *cmd)
{
	struct stat st;
	if (strchr(cmd, '/')) {
		if (stat(cmd, &st) < 0)
			return errno;
		return S_ISDIR(st.st_mode) ? EISDIR : access(cmd, X_OK) < 0 ? errno : 0;
	}
	const char *path = getenv("PATH");
	char dir[4096];
	int e = ENOENT;
	for (const char *p = path && *path ? path : "/bin:/usr/bin"; p;) {
		const char *c = strchr(p, ':');
		int n = c ? (int)(c - p) : (int)strlen(p);
		snprintf(dir, sizeof(dir), "%.*s%s%s", n, p, n ? "/" : "", cmd);
		if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			if (access(dir, X_OK) == 0)
				return 0;
			e = EACCES;
		}
		p = c ? c + 1 : NULL;
	}
	return e;
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

/* One capture, from the devices to the exit status. */
struct session {
	struct capture_cli o;
	struct capture_device *devs;
	long ndevs;
	struct reel_device rdev[MAX_DEVS];
	uint32_t devts[MAX_DEVS], filt[4 * MAX_DEVS]; /* filt: what the kernel keeps */
	size_t nfilt, nparts;
	struct capture_partmap parts[MAX_DEVS];
	char detail[2048];   /* the command, or "devices: ..." */
	struct reel_out out; /* the file, under a temporary name until the end */
	char out_tmp[8192];  /* that name, absolute, for messages and the note */
	int out_open;
	struct reel_writer *w;
	struct reel_join *j;
	struct capture *cap;
	int gate;    /* the pipe that lets CMD run, or -1 */
	pid_t child; /* CMD, or 0 */
	int child_status, child_done;
	int64_t t0, t_end;
	int stop_reason; /* 1 signal, 2 duration, 3 command exited */
	struct reel_join_stats js;
	struct capture_stats cs;
};

/* The output through the policy (formats/output.c), before anything else
 * starts: a regular file only, an existing one replaced only with
 * --overwrite.  The recording goes to a temporary name beside it and is
 * renamed into place when the capture ends (command exit, --duration, a
 * signal); a kill -9 leaves it under the temporary name, readable up to
 * its last flushed second. */
static int open_file(struct session *s)
{
	char err[1024];
	unsigned fl = REEL_OUT_FD_ONLY | (s->o.overwrite ? REEL_OUT_OVERWRITE : 0);
	int rc = reel_out_open(&s->out, AT_FDCWD, s->o.out, fl, NULL, NULL, 0, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ioreel capture: %s\n", err);
		return -1;
	}
	s->out_open = 1;
	char cwd[4096] = "";
	if (s->out.tmp[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		cwd[0] = 0;
	if (snprintf(s->out_tmp, sizeof(s->out_tmp), "%s%s%s", cwd, cwd[0] ? "/" : "",
		     s->out.tmp) >= (int)sizeof(s->out_tmp))
		snprintf(s->out_tmp, sizeof(s->out_tmp), "%s", s->out.tmp); /* named relative */
	return 0;
}

/* The devices asked for (or every disk), their kernel filter, and the
 * partitions recorded in their own sector space.  Prints what is wrong. */
static int pick_devices(struct session *s)
{
	char err[1024];
	if (s->o.ndevs) {
		s->devs = calloc((size_t)s->o.ndevs, sizeof(*s->devs));
		if (!s->devs)
			return -1;
		for (int i = 0; i < s->o.ndevs; i++)
			if (capture_device_lookup(s->o.devs[i], &s->devs[i], err, sizeof(err))) {
				fprintf(stderr, "ioreel capture: %s\n", err);
				return -1;
			}
		s->ndevs = s->o.ndevs;
	} else {
		s->ndevs = capture_device_all(&s->devs);
		if (s->ndevs <= 0) {
			fprintf(stderr, "ioreel capture: no disks found in /sys/block "
					"(give one with -d /dev/X)\n");
			return -1;
		}
		if (s->ndevs > MAX_DEVS)
			s->ndevs = MAX_DEVS;
	}
	for (long i = 0; i < s->ndevs; i++) {
		s->rdev[i] = s->devs[i].info;
		s->rdev[i].id = (uint16_t)i;
		s->devts[i] = s->devs[i].devt;
		if (s->o.ndevs)
			s->nfilt =
			    capture_device_related(&s->devs[i], s->filt, s->nfilt, 4 * MAX_DEVS);
	}
	/* a partition asked for without its disk: recorded in its own space */
	for (long i = 0; i < s->ndevs; i++) {
		int disk_too = 0;
		for (long k = 0; k < s->ndevs; k++)
			disk_too |= s->devs[k].devt == s->devs[i].disk_devt && k != i;
		if (s->devs[i].partition && !disk_too)
			s->parts[s->nparts++] = (struct capture_partmap){
			    .disk = s->devs[i].disk_devt,
			    .part = s->devs[i].devt,
			    .start = s->devs[i].start_sector,
			    .nsect = s->devs[i].info.capacity / 512,
			};
	}
	if (s->o.cmd) {
		int n = 0;
		while (s->o.cmd[n])
			n++;
		join_cmd(s->detail, sizeof(s->detail), n, s->o.cmd);
	} else {
		size_t off = (size_t)snprintf(s->detail, sizeof(s->detail), "devices:");
		for (long i = 0; i < s->ndevs && off < sizeof(s->detail); i++)
			off += (size_t)snprintf(s->detail + off, sizeof(s->detail) - off, " %s",
						s->rdev[i].name);
	}
	return 0;
}

/* Drop the caches if asked, fork CMD (held at its gate), open the tracing
 * instance and turn tracing on. */
static int start_tracing(struct session *s)
{
	char err[1024];
	int rc;
	if (s->o.drop_caches && (rc = drop_caches())) {
		fprintf(stderr,
			"ioreel capture: cannot drop the page cache "
			"(/proc/sys/vm/drop_caches): %s (needs root)\n",
			strerror(-rc));
		return -1;
	}
	struct capture_opts co = {
	    .devts = s->nfilt ? s->filt : NULL,
	    .ndevts = s->nfilt,
	    .buffer_kb = s->o.buffer_kb,
	    .parts = s->parts,
	    .nparts = s->nparts,
	};
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	if (s->o.cmd) {
		s->child = capture_spawn(s->o.cmd, NULL, "ioreel capture", &s->gate);
		if (s->child < 0) {
			s->child = 0;
			fprintf(stderr, "ioreel capture: cannot fork: %s\n", strerror(errno));
			return -1;
		}
		if (s->o.pid_tree)
			co.pid_tree = (uint32_t)s->child;
	}
	if (capture_open(&s->cap, &co, err, sizeof(err))) {
		fprintf(stderr, "ioreel capture: %s\n", err);
		return -1;
	}
	char note[8400];
	snprintf(note, sizeof(note), "its recording, readable up to its last second: %s",
		 s->out_tmp);
	capture_set_note(s->cap, note);
	if ((rc = capture_start(s->cap))) {
		fprintf(stderr, "ioreel capture: cannot turn tracing on in instance %s: %s\n",
			capture_instance_name(s->cap), strerror(-rc));
		return -1;
	}
	return 0;
}

/* The .reel writer with the header and the capture's metadata, and the
 * event joiner that feeds it; then CMD may run. */
static int open_output(struct session *s)
{
	struct utsname un;
	uname(&un);
	struct reel_header h = {
	    .start_unix_ns = capture_start_unix_ns(s->cap),
	    .source = "captured",
	    .source_detail = s->detail,
	    .devices = s->rdev,
	    .ndevices = (size_t)s->ndevs,
	};
	int rc = reel_writer_open(&s->w, NULL, s->out.fd, &h, 0);
	if (rc) {
		fprintf(stderr, "ioreel capture: %s: %s\n", s->o.out,
			s->w ? writer_msg(s->w) : reel_strerror(rc));
		return -1;
	}
	reel_writer_set_level(s->w, s->o.level);
	reel_writer_meta_str(s->w, REEL_META_CAPTURE_KERNEL, un.release);
	reel_writer_meta_str(s->w, REEL_META_CAPTURE_HOST, un.nodename);
	reel_writer_meta_str(s->w, REEL_META_CAPTURE_CLOCK, "mono");
	reel_writer_meta_str(s->w, REEL_META_CAPTURE_INSTANCE, capture_instance_name(s->cap));
	reel_writer_meta_int(s->w, REEL_META_CAPTURE_BUFFER_KB, s->o.buffer_kb);
	reel_writer_meta_int(s->w, REEL_META_CAPTURE_DROP_CACHES, s->o.drop_caches);
	reel_writer_meta_int(s->w, REEL_META_CAPTURE_PID_TREE, s->o.pid_tree);
	if (s->o.cmd)
		reel_writer_meta_str(s->w, REEL_META_CAPTURE_COMMAND, s->detail);
	rc = reel_join_create(&s->j, s->w, s->devts, (size_t)s->ndevs);
	if (rc) {
		fprintf(stderr, "ioreel capture: cannot create the event joiner: %s\n",
			reel_strerror(rc));
		return -1;
	}
	if (s->gate >= 0) {
		if (write(s->gate, "g", 1) != 1) {
			fprintf(stderr, "ioreel capture: cannot start %s\n", s->o.cmd[0]);
			return -1;
		}
		close(s->gate);
		s->gate = -1;
	}
	if (!s->o.quiet)
		fprintf(stderr,
			"ioreel capture: recording %s into %s (instance %s)%s\n"
			"ioreel capture: written as %s until the capture ends\n",
			s->detail, s->o.out, capture_instance_name(s->cap),
			s->o.cmd	    ? ""
			: s->o.duration > 0 ? ""
					    : "; Ctrl-C stops",
			s->out_tmp);
	return 0;
}

/* A signal: CMD decides when the capture ends, so the first is passed on
 * to it and a second stops at once.  Returns 1 to stop. */
static int signal_stops(struct session *s, int *forwarded)
{
	if (s->child && !s->child_done && (*forwarded)++ == 0) {
		kill(s->child, got_signal == SIGHUP ? SIGTERM : got_signal);
		got_signal = 0;
		return 0;
	}
	return 1;
}

/* Poll the buffers into the joiner until a signal, --duration or CMD's
 * exit; flush a chunk every FLUSH_NS, show progress every second. */
static int record_loop(struct session *s)
{
	int64_t last_flush = s->t0, last_prog = s->t0;
	int64_t stop_at = s->o.duration > 0 ? s->t0 + (int64_t)(s->o.duration * 1e9) : INT64_MAX;
	int forwarded = 0;
	for (;;) {
		long n = capture_poll(s->cap, 0, push_event, s->j);
		if (n < 0) {
			fprintf(stderr, "ioreel capture: %s: %s\n", s->o.out,
				n == -ENOMEM ? "out of memory" : writer_msg(s->w));
			return -1;
		}
		int64_t now = reel_now_ns();
		if (now - last_flush >= FLUSH_NS) {
			if (reel_writer_flush(s->w)) {
				fprintf(stderr, "ioreel capture: %s: %s\n", s->o.out,
					writer_msg(s->w));
				return -1;
			}
			last_flush = now;
		}
		if (now - last_prog >= 1000000000LL) {
			reel_join_stats(s->j, &s->js);
			capture_stats(s->cap, &s->cs);
			progress(&s->o, (double)(now - s->t0) / 1e9, &s->js, s->cs.events, 0);
			last_prog = now;
		}
		if (s->child && !s->child_done &&
		    waitpid(s->child, &s->child_status, WNOHANG) == s->child) {
			s->child_done = 1;
			s->stop_reason = 3;
			return 0;
		}
		if (got_signal && signal_stops(s, &forwarded)) {
			s->stop_reason = 1;
			return 0;
		}
		if (now >= stop_at) {
			s->stop_reason = 2;
			return 0;
		}
		/* the reader thread queues pages every 10 ms: wait for them (at
		 * once when some are there) */
		capture_wait(s->cap, 20 * 1000000LL);
	}
}

/* Stop tracing, hand out the rest, write the trailer's counts and close
 * the file. */
static int finish_output(struct session *s)
{
	struct reel_writer *w = s->w;
	capture_stop(s->cap);
	if (capture_poll(s->cap, 1, push_event, s->j) < 0 || reel_join_finish(s->j) < 0) {
		fprintf(stderr, "ioreel capture: %s: %s\n", s->o.out, writer_msg(w));
		return -1;
	}
	capture_stats(s->cap, &s->cs);
	reel_join_stats(s->j, &s->js);
	const struct capture_stats *cs = &s->cs;
	const struct reel_join_stats *js = &s->js;
	reel_writer_meta_int(w, REEL_META_CAPTURE_DURATION_NS, s->t_end - s->t0);
	reel_writer_meta_int(w, REEL_META_CAPTURE_EVENTS, (int64_t)cs->events);
	reel_writer_meta_int(w, REEL_META_CAPTURE_LOST_EVENTS, (int64_t)cs->lost);
	reel_writer_meta_int(w, REEL_META_CAPTURE_OVERRUN, (int64_t)cs->overrun);
	reel_writer_meta_int(w, REEL_META_CAPTURE_DROPPED, (int64_t)cs->dropped);
	reel_writer_meta_int(w, REEL_META_CAPTURE_MISSED, (int64_t)cs->missed);
	reel_writer_meta_int(w, REEL_META_CAPTURE_PID_FILTERED, (int64_t)cs->filtered);
	reel_writer_meta_int(w, REEL_META_CAPTURE_INTERRUPTED, s->stop_reason == 1);
	if (cs->disturbed)
		reel_writer_meta_str(w, REEL_META_CAPTURE_DISTURBED, capture_disturbance(s->cap));
	reel_join_write_meta(w, js, 1);
	if (s->child_done) {
		if (WIFEXITED(s->child_status))
			reel_writer_meta_int(w, REEL_META_CAPTURE_EXIT_STATUS,
					     WEXITSTATUS(s->child_status));
		else if (WIFSIGNALED(s->child_status))
			reel_writer_meta_int(w, REEL_META_CAPTURE_EXIT_SIGNAL,
					     WTERMSIG(s->child_status));
	}
	reel_join_destroy(s->j);
	s->j = NULL;
	/* close frees the writer: its message cannot be read afterwards */
	int rc = reel_writer_close(w);
	s->w = NULL;
	if (rc) {
		fprintf(stderr, "ioreel capture: %s: cannot complete the file: %s\n", s->o.out,
			reel_strerror(rc));
		return -1;
	}
	char err[1024];
	s->out_open = 0;
	if (reel_out_commit(&s->out, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel capture: %s\n", err);
		return -1;
	}
	return 0;
}

/* What was recorded and lost; returns the exit status. */
static int report(const struct session *s)
{
	const struct capture_stats *cs = &s->cs;
	const struct reel_join_stats *js = &s->js;
	progress(&s->o, (double)(s->t_end - s->t0) / 1e9, js, cs->events, 1);
	if (!s->o.quiet)
		fprintf(stderr,
			"ioreel capture: %s: %llu I/Os (%llu merged, %llu split, %llu remapped; "
			"%llu without issue, %llu without completion), %llu events, %s\n",
			s->o.out, (unsigned long long)js->records, (unsigned long long)js->merged,
			(unsigned long long)js->split, (unsigned long long)js->remapped,
			(unsigned long long)js->no_issue, (unsigned long long)js->no_complete,
			(unsigned long long)cs->events,
			s->stop_reason == 1   ? "stopped by a signal"
			: s->stop_reason == 2 ? "duration reached"
					      : "command exited");
	if (cs->lost)
		fprintf(
		    stderr,
		    "ioreel capture: LOST EVENTS: %llu (overrun %llu, dropped %llu, missed %llu "
		    "over %d CPUs); the trace is incomplete: raise --buffer-kb%s%s\n",
		    (unsigned long long)cs->lost, (unsigned long long)cs->overrun,
		    (unsigned long long)cs->dropped, (unsigned long long)cs->missed, cs->ncpus,
		    s->o.allow_loss ? "" : " (or pass --allow-loss)",
		    cs->queue_full ? "; the machine was too busy for the capture to parse "
				     "what it read (its queue in memory was full)"
				   : "");
	if (cs->disturbed)
		fprintf(stderr,
			"ioreel capture: INSTANCE DISTURBED: another program changed tracing "
			"instance %s while it recorded (%s; %llu change%s, each put back): "
			"events were lost meanwhile and the trace is incomplete%s\n",
			capture_instance_name(s->cap), capture_disturbance(s->cap),
			(unsigned long long)cs->disturbed, cs->disturbed > 1 ? "s" : "",
			s->o.allow_loss ? "" : " (exit 3; --allow-loss exits 0)");
	if (!cs->lost && !cs->disturbed && !s->o.quiet)
		fprintf(stderr, "ioreel capture: no events lost\n");
	if ((cs->lost || cs->disturbed) && !s->o.allow_loss)
		return 3;
	if (s->child_done)
		return WIFEXITED(s->child_status) ? WEXITSTATUS(s->child_status)
						  : 128 + WTERMSIG(s->child_status);
	return 0;
}

/* Release everything; a CMD still running is stopped when the capture
 * failed (status 1), else waited for. */
static void session_end(struct session *s, int status)
{
	if (s->gate >= 0)
		close(s->gate); /* the child exits 127 without running */
	reel_join_destroy(s->j);
	if (s->w)
		reel_writer_destroy(s->w);
	if (s->out_open) /* failed: the temporary goes, what was there stays */
		reel_out_abort(&s->out);
	capture_close(s->cap);
	if (s->child > 0 && !s->child_done) {
		if (status == 1)
			kill(s->child, SIGTERM);
		waitpid(s->child, &s->child_status, 0);
	}
	free(s->devs);
}

int cmd_capture(int argc, char **argv)
{
	static struct session s; /* large: device tables */
	memset(&s, 0, sizeof(s));
	/* a fast LZ4 level: compression runs beside the capture, on the CPUs
	 * whose I/O is being recorded */
	s.o = (struct capture_cli){.buffer_kb = 8192, .level = 1};
	s.gate = -1;
	int rc = parse_args(&s.o, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	int e = s.o.cmd && s.o.cmd[0] ? cmd_findable(s.o.cmd[0]) : 0;
	if (e) {
		fprintf(stderr,
			"ioreel capture: cannot run %s: %s; nothing captured, no %s written\n",
			s.o.cmd[0], strerror(e), s.o.out);
		return 127;
	}

	if (open_file(&s) < 0)
		return 1;
	char notes[4096];
	int stale = capture_remove_stale(notes, sizeof(notes));
	if (stale > 0 && !s.o.quiet)
		fprintf(stderr,
			"ioreel capture: removed %d stale tracing instance%s left by a "
			"killed capture: %s\n",
			stale, stale > 1 ? "s" : "", notes);
	int status = 1;
	if (pick_devices(&s) == 0 && start_tracing(&s) == 0 && open_output(&s) == 0) {
		s.t0 = reel_now_ns();
		if (record_loop(&s) == 0) {
			s.t_end = reel_now_ns();
			if (finish_output(&s) == 0)
				status = report(&s);
		}
	}
	session_end(&s, status);
	return status;
}
