/*
 * cluster/cmd_capture.c - `mpirun -np N ioreel-mpi capture --mpi -d DEV -o
 * OUT.reel [--duration S] [-- CMD ...]`: every rank records its devices
 * with the capture library (capture/capture.h) from one agreed start on the
 * common clock; all stop together (at the duration, when every rank's CMD
 * has exited, or on a signal); rank 0 merges the ranks' files into OUT.reel
 * with host-qualified devices and the lost events of each host.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "cluster/cluster.h"

#define MAX_DEVS 64

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }

struct devlist {
	const char *v[MAX_DEVS];
	int rank[MAX_DEVS]; /* -1: every rank */
	int n;
};

struct ccap {
	struct devlist devs;
	const char *out;
	double duration, delay;
	unsigned buffer_kb, rounds;
	int level, allow_loss, overwrite, quiet, mpi;
	struct cl_offset shift;
	char **cmd;
};

struct cap_info {
	int rc, ndevs, child_status, child_ran, interrupted;
	char host[CLUSTER_HOST_MAX];
	char err[512];
	char devices[512];
	int64_t offset_ns, rtt_ns, residual_ns, start_ns;
	uint64_t records, events, lost;
};

static int parse_dev(const char *arg, void *dest, char *err, size_t errlen)
{
	struct devlist *d = dest;
	char *end;
	long r = strtol(arg, &end, 10);
	if (d->n >= MAX_DEVS)
		return reel_errf(err, errlen, REEL_E_RANGE, "at most %d devices", MAX_DEVS);
	if (end != arg && *end == ':' && end[1] && r >= 0 && r <= 65535) {
		d->rank[d->n] = (int)r;
		d->v[d->n++] = end + 1;
	} else {
		d->rank[d->n] = -1;
		d->v[d->n++] = arg;
	}
	return 0;
}

static int parse_opts(const struct cluster_world *w, struct ccap *c, int argc, char **argv)
{
	const struct reel_opt opts[] = {
	    OPT_FLAG(0, "mpi", &c->mpi, "run under mpirun: every rank captures its devices"),
	    OPT_CALL('d', "device", "[RANK:]DEV", parse_dev, &c->devs,
		     "record DEV (repeatable); RANK: only on that rank, else on every rank"),
	    OPT_STR('o', "output", "OUT.reel", &c->out, "the merged trace (written by rank 0)"),
	    OPT_DBL('t', "duration", "S", &c->duration, 0.001, 31536000,
		    "stop every rank S seconds after the common start"),
	    OPT_UINT(0, "buffer-kb", "N", &c->buffer_kb, 64, 4u * 1024 * 1024,
		     "per-CPU ring buffer, KiB (default 8192)"),
	    OPT_INT(0, "level", "N", &c->level, 0, 12, "LZ4 level of the rank files (default 1)"),
	    OPT_FLAG(0, "allow-loss", &c->allow_loss, "exit 0 even when events were lost"),
	    OPT_FLAG(0, "overwrite", &c->overwrite, "replace OUT.reel if it exists"),
	    OPT_FLAG('q', "quiet", &c->quiet, "no summary on stderr"),
	    OPT_DBL(0, "start-delay", "S", &c->delay, 0.01, 3600,
		    "start this long after the clocks are measured (default 0.3)"),
	    OPT_UINT(0, "clock-rounds", "N", &c->rounds, 1, 10000, "ping-pong rounds per rank"),
	    OPT_CALLNUM(0, "clock-offset-test", "RANK:NS", cl_parse_offset, &c->shift,
			"tests only: shift RANK's clock by NS"),
	    OPT_END,
	};
	static const struct reel_cmd_doc doc = {
	    .name = "capture --mpi",
	    .usage = "-d [RANK:]DEV... -o OUT.reel [--duration S] [-- CMD ...]",
	    .about = "Under mpirun: every rank records its devices from one start agreed on the\n"
		     "common clock; they stop together (duration, every CMD exited, or a\n"
		     "signal).  CMD runs on every rank with IOREEL_MPI_RANK, IOREEL_MPI_SIZE and\n"
		     "IOREEL_MPI_DEVICES (its devices, space-separated) in its environment.",
	    .footer =
		"Example:\n"
		"  mpirun -np 2 -H a,b ioreel-mpi capture --mpi -d /dev/sdb -o both.reel -- ./job\n"
		"See docs/mpi.md.\n",
	    .in_order = 1,
	};
	return cl_parse(w, &doc, opts, argc, argv);
}

/* ---- one rank's capture ------------------------------------------------- */
struct rankcap {
	const struct cluster_world *w;
	const struct ccap *c;
	struct cluster_clock clk;
	int64_t start;
	struct capture_device devs[MAX_DEVS];
	int ndevs;
	uint32_t devts[MAX_DEVS], filt[4 * MAX_DEVS];
	size_t nfilt;
	struct capture *cap;
	struct reel_writer *w_out;
	struct reel_join *j;
	pid_t child;
	int gate, child_done;
	const char *path;
	struct cap_info *ci;
};

static int find_devices(struct rankcap *k, char *err, size_t errlen)
{
	size_t off = 0;
	for (int i = 0; i < k->c->devs.n; i++) {
		if (k->c->devs.rank[i] >= 0 && k->c->devs.rank[i] != k->w->rank)
			continue;
		struct capture_device *d = &k->devs[k->ndevs];
		int rc = capture_device_lookup(k->c->devs.v[i], d, err, errlen);
		if (rc < 0)
			return rc;
		d->info.id = (uint16_t)k->ndevs;
		k->devts[k->ndevs++] = d->devt;
		k->nfilt = capture_device_related(d, k->filt, k->nfilt, 4 * MAX_DEVS);
		off += (size_t)snprintf(k->ci->devices + off,
					off < sizeof(k->ci->devices) ? sizeof(k->ci->devices) - off
								     : 0,
					"%s/dev/%s", off ? " " : "", d->info.name);
		if (off >= sizeof(k->ci->devices))
			off = sizeof(k->ci->devices) - 1;
	}
	return 0;
}

/* CMD held until tracing runs (capture_spawn), told its rank and devices. */
static pid_t spawn(struct rankcap *k)
{
	static char rank[48], size[48], devs[PATH_MAX];
	snprintf(rank, sizeof(rank), "IOREEL_MPI_RANK=%d", k->w->rank);
	snprintf(size, sizeof(size), "IOREEL_MPI_SIZE=%d", k->w->size);
	snprintf(devs, sizeof(devs), "IOREEL_MPI_DEVICES=%s", k->ci->devices);
	char *env[] = {rank, size, devs, NULL};
	char who[64];
	snprintf(who, sizeof(who), "ioreel capture --mpi: rank %d", k->w->rank);
	return capture_spawn(k->c->cmd, env, who, &k->gate);
}

static int push_event(void *ctx, const struct reel_event *e) { return reel_join_push(ctx, e); }

/* Set up everything before the start: the session (tracing off), the file. */
static int prepare(struct rankcap *k, char *err, size_t errlen)
{
	struct reel_device rdev[MAX_DEVS];
	struct capture_opts co = {
	    .devts = k->nfilt ? k->filt : NULL, .ndevts = k->nfilt, .buffer_kb = k->c->buffer_kb};
	int rc = capture_open(&k->cap, &co, err, errlen);
	if (rc < 0)
		return rc;
	for (int i = 0; i < k->ndevs; i++)
		rdev[i] = k->devs[i].info;
	struct reel_header h = {.source = "captured",
				.source_detail = k->ci->devices,
				.devices = rdev,
				.ndevices = (size_t)k->ndevs};
	rc = reel_writer_open(&k->w_out, k->path, -1, &h, REEL_W_OVERWRITE);
	if (rc < 0)
		return reel_errf(err, errlen, rc, "%s: %s", k->path,
				 k->w_out ? reel_writer_errmsg(k->w_out) : reel_strerror(rc));
	reel_writer_set_level(k->w_out, k->c->level);
	rc = reel_join_create(&k->j, k->w_out, k->devts, (size_t)k->ndevs);
	if (rc < 0)
		return reel_errf(err, errlen, rc, "cannot create the event joiner: %s",
				 reel_strerror(rc));
	if (k->c->cmd && (k->child = spawn(k)) < 0)
		return reel_errf(err, errlen, -errno, "cannot fork: %s", strerror(errno));
	return 0;
}

/* Poll until the stop: duration, every CMD done (a barrier each rank
 * enters when its CMD exits), or a signal.  Returns 0 or < 0. */
static int record(struct rankcap *k, char *err, size_t errlen)
{
	int64_t stop_at =
	    k->c->duration > 0 ? k->start + (int64_t)(k->c->duration * 1e9) : INT64_MAX;
	int64_t last_flush = reel_now_ns();
	MPI_Request bar;
	int in_bar = 0, status = 0;
	for (;;) {
		long n = capture_poll(k->cap, 0, push_event, k->j);
		if (n < 0)
			return reel_errf(err, errlen, (int)n, "reading the trace buffers: %s",
					 reel_writer_errmsg(k->w_out));
		if (reel_now_ns() - last_flush > 1000000000LL) {
			reel_writer_flush(k->w_out);
			last_flush = reel_now_ns();
		}
		if (k->child > 0 && !k->child_done &&
		    waitpid(k->child, &status, WNOHANG) == k->child) {
			k->child_done = 1;
			k->ci->child_status = status;
		}
		if (got_signal)
			k->ci->interrupted = 1;
		int local_done = (k->c->cmd && k->child_done) || got_signal;
		if (local_done && !in_bar) {
			MPI_Ibarrier(MPI_COMM_WORLD, &bar);
			in_bar = 1;
		}
		int flag = 0;
		if (in_bar && MPI_Test(&bar, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag)
			break;
		if (cluster_common_now(k->w, &k->clk) >= stop_at)
			break;
		if (n < 4096) {
			struct timespec ts = {0, 10 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	if (!in_bar) /* the duration ended it: meet the others */
		cluster_barrier();
	return 0;
}

static int finish_file(struct rankcap *k, char *err, size_t errlen)
{
	struct capture_stats cs;
	struct reel_join_stats js;
	capture_stop(k->cap);
	if (capture_poll(k->cap, 1, push_event, k->j) < 0 || reel_join_finish(k->j) < 0)
		return reel_errf(err, errlen, REEL_E_IO, "%s", reel_writer_errmsg(k->w_out));
	capture_stats(k->cap, &cs);
	reel_join_stats(k->j, &js);
	k->ci->records = js.records;
	k->ci->events = cs.events;
	k->ci->lost = cs.lost;
	reel_writer_meta_int(k->w_out, REEL_META_CAPTURE_LOST_EVENTS, (int64_t)cs.lost);
	reel_join_destroy(k->j);
	k->j = NULL;
	int rc = reel_writer_close(k->w_out);
	k->w_out = NULL;
	return rc < 0 ? reel_errf(err, errlen, rc, "%s: %s", k->path, reel_strerror(rc)) : 0;
}

/* The rank's whole capture; collective.  ci->rc < 0 with ci->err on failure. */
static void capture_rank(struct rankcap *k)
{
	char err[512] = "";
	int rc = find_devices(k, err, sizeof(err)), any = 0;
	if (rc >= 0 && k->ndevs)
		rc = prepare(k, err, sizeof(err));
	/* everyone ready, or nobody starts */
	int bad = rc < 0;
	MPI_Request rq;
	MPI_Iallreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq);
	cluster_wait(&rq);
	k->ci->rc = rc < 0 ? rc : any ? REEL_E_INTERRUPTED : 0;
	if (rc < 0)
		snprintf(k->ci->err, sizeof(k->ci->err), "%s", err);
	if (any)
		return;
	cluster_clock_sync(k->w, (int)k->c->rounds, &k->clk);
	k->ci->offset_ns = k->clk.offset_ns;
	k->ci->rtt_ns = k->clk.rtt_ns;
	k->ci->residual_ns = k->clk.residual_ns;
	k->start = cluster_agree_start(k->w, &k->clk, (int64_t)(k->c->delay * 1e9));
	cluster_sleep_until(k->w, &k->clk, k->start);
	if (k->ndevs && (rc = capture_start(k->cap)) < 0) {
		snprintf(k->ci->err, sizeof(k->ci->err), "cannot turn tracing on: %s",
			 strerror(-rc));
		k->ci->rc = rc;
	} else if (k->ndevs) {
		k->ci->start_ns =
		    capture_start_mono_ns(k->cap) + k->w->shift_ns - k->clk.offset_ns - k->start;
	}
	if (k->gate >= 0) {
		if (write(k->gate, "g", 1) == 1)
			k->ci->child_ran = 1;
		close(k->gate);
		k->gate = -1;
	}
	if (record(k, err, sizeof(err)) < 0 || (k->ndevs && finish_file(k, err, sizeof(err)) < 0)) {
		k->ci->rc = REEL_E_IO;
		snprintf(k->ci->err, sizeof(k->ci->err), "%s", err);
	}
}

/* ---- rank 0: the merged file ------------------------------------------- */
static int merge_all(const struct ccap *c, struct cap_info *ci, int size, char *const *paths,
		     const int *got, int64_t start_unix, char *err, size_t errlen)
{
	struct cluster_part parts[64];
	uint64_t lost = 0, records = 0;
	int64_t lo = INT64_MAX, hi = INT64_MIN, interrupted = 0;
	for (int r = 0; r < size && r < 64; r++) {
		parts[r] = (struct cluster_part){.path = got[r] && ci[r].ndevs ? paths[r] : NULL,
						 .rank = r,
						 .host = ci[r].host,
						 .shift_ns = ci[r].start_ns};
		lost += ci[r].lost;
		records += ci[r].records;
		interrupted |= ci[r].interrupted;
		if (ci[r].ndevs) {
			lo = ci[r].start_ns < lo ? ci[r].start_ns : lo;
			hi = ci[r].start_ns > hi ? ci[r].start_ns : hi;
		}
	}
	static const char *const prefixes[] = {"capture.", NULL};
	static const char *const skip[] = {REEL_META_CAPTURE_LOST_EVENTS};
	struct cluster_merge_opts mo = {.out = c->out,
					.source = "captured",
					.source_detail = "ioreel capture --mpi",
					.start_unix_ns = start_unix,
					.copy_prefixes = prefixes,
					.skip_keys = skip,
					.nskip = 1};
	struct cluster_merge_stats st;
	struct reel_writer *w;
	int rc = cluster_merge(parts, (size_t)size, &mo, &w, &st, err, errlen);
	if (rc < 0)
		return rc;
	reel_writer_meta_int(w, REEL_META_CAPTURE_LOST_EVENTS, (int64_t)lost);
	reel_writer_meta_int(w, REEL_META_CAPTURE_INTERRUPTED, interrupted);
	reel_writer_meta_int(w, REEL_META_CLUSTER_RANKS, size);
	reel_writer_meta_int(w, REEL_META_CLUSTER_START_SKEW_NS, hi >= lo ? hi - lo : 0);
	int64_t resid = 0;
	for (int r = 0; r < size; r++) {
		int64_t a = ci[r].residual_ns < 0 ? -ci[r].residual_ns : ci[r].residual_ns;
		resid = a > resid ? a : resid;
		cl_meta_rank_str(w, r, "host", ci[r].host);
		cl_meta_rank_int(w, r, "offset_ns", ci[r].offset_ns);
		cl_meta_rank_int(w, r, "rtt_ns", ci[r].rtt_ns);
		cl_meta_rank_int(w, r, "residual_ns", ci[r].residual_ns);
		cl_meta_rank_int(w, r, "start_ns", ci[r].start_ns);
		cl_meta_rank_int(w, r, "ios", (int64_t)ci[r].records);
		cl_meta_rank_int(w, r, "lost_events", (int64_t)ci[r].lost);
		cl_meta_rank_int(w, r, "interrupted", ci[r].interrupted);
	}
	reel_writer_meta_int(w, REEL_META_CLUSTER_CLOCK_RESIDUAL_NS, resid);
	rc = reel_writer_close(w);
	if (rc < 0)
		return reel_errf(err, errlen, rc, "%s: %s", c->out, reel_strerror(rc));
	if (!c->quiet)
		fprintf(stderr,
			"ioreel capture --mpi: %s: %llu I/Os from %d ranks, %llu events lost, "
			"start skew %.1f us\n",
			c->out, (unsigned long long)st.records, size, (unsigned long long)lost,
			hi >= lo ? (hi - lo) / 1e3 : 0.0);
	(void)records;
	return 0;
}

/* Rank 0: say what happened and choose the exit status. */
static int report(const struct ccap *c, struct cap_info *ci, int size, char *const *paths,
		  const int *got, int64_t start_unix)
{
	char err[1024];
	int status = 0;
	uint64_t lost = 0;
	for (int r = 0; r < size; r++) {
		lost += ci[r].lost;
		if (ci[r].rc < 0 && ci[r].err[0] && !status) {
			fprintf(stderr,
				"ioreel capture --mpi: rank %d on %s: %s; no rank captured\n", r,
				ci[r].host, ci[r].err);
			status = 1;
		}
	}
	if (status)
		return status;
	if (merge_all(c, ci, size, paths, got, start_unix, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel capture --mpi: %s\n", err);
		return 1;
	}
	for (int r = 0; r < size; r++) {
		if (ci[r].lost)
			fprintf(stderr,
				"ioreel capture --mpi: LOST EVENTS on rank %d (%s): %llu; raise "
				"--buffer-kb\n",
				r, ci[r].host, (unsigned long long)ci[r].lost);
		int st = ci[r].child_status;
		if (c->cmd && ci[r].child_ran && !status && (!WIFEXITED(st) || WEXITSTATUS(st)))
			status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	if (lost && !c->allow_loss)
		return 3;
	return status;
}

/* ---- the command -------------------------------------------------------- */
static int gather_and_report(const struct cluster_world *w, const struct ccap *c,
			     struct cap_info *mine, const char *path, const char *scratch,
			     int64_t start_unix)
{
	struct cap_info *all = w->rank ? NULL : calloc((size_t)w->size, sizeof(*all));
	char *paths[64] = {0};
	int got[64] = {0}, status = 1;
	char err[1024];
	if (!w->rank && !all)
		cluster_abort(1);
	cluster_gather(w, mine, sizeof(*mine), all);
	for (int r = 0; r < w->size && !w->rank; r++) {
		paths[r] = malloc(4300);
		snprintf(paths[r], 4300, r ? "%s/from%d.reel" : "%s", r ? scratch : path, r);
	}
	if (cluster_collect_files(w, mine->ndevs && mine->rc == 0 ? path : NULL, paths, got, err,
				  sizeof(err)) < 0)
		fprintf(stderr, "ioreel capture --mpi: rank %d on %s: %s\n", w->rank, w->host, err);
	if (!w->rank)
		status = report(c, all, w->size, paths, got, start_unix);
	MPI_Request rq;
	MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
	cluster_wait(&rq);
	for (int r = 0; r < 64; r++)
		free(paths[r]);
	free(all);
	return status;
}

static int run(const struct cluster_world *w, struct ccap *c, const char *scratch)
{
	static struct rankcap k;
	struct cap_info ci;
	char version[128], err[1024], path[4200];
	cl_version(version, sizeof(version));
	if (cluster_check_same(w, "version", version, err, sizeof(err)) < 0) {
		if (!w->rank)
			fprintf(stderr, "ioreel capture --mpi: %s\n", err);
		return 1;
	}
	memset(&ci, 0, sizeof(ci));
	snprintf(ci.host, sizeof(ci.host), "%s", w->host);
	snprintf(path, sizeof(path), "%s/rank%d.reel", scratch, w->rank);
	memset(&k, 0, sizeof(k));
	k = (struct rankcap){.w = w, .c = c, .gate = -1, .path = path, .ci = &ci};
	char notes[4096];
	int stale = capture_remove_stale(notes, sizeof(notes));
	if (stale > 0)
		fprintf(stderr,
			"ioreel capture --mpi: rank %d on %s removed %d stale tracing "
			"instance%s: %s\n",
			w->rank, w->host, stale, stale > 1 ? "s" : "", notes);
	capture_rank(&k);
	ci.ndevs = k.ndevs;
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	int64_t start_unix = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec -
			     (cluster_common_now(w, &k.clk) - k.start);
	if (k.gate >= 0)
		close(k.gate);
	if (k.child > 0 && !k.child_done) {
		kill(k.child, SIGTERM);
		waitpid(k.child, &ci.child_status, 0);
	}
	reel_join_destroy(k.j);
	if (k.w_out)
		reel_writer_destroy(k.w_out);
	capture_close(k.cap);
	return gather_and_report(w, c, &ci, path, scratch, start_unix);
}

int cmd_cluster_capture(int argc, char **argv)
{
	struct cluster_world w;
	char err[1024], scratch[4096];
	static struct ccap c;
	if (cluster_init(&w, &argc, &argv, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel capture --mpi: %s\n", err);
		return 1;
	}
	memset(&c, 0, sizeof(c));
	c.buffer_kb = 8192;
	c.level = 1;
	c.delay = 0.3;
	c.rounds = 32;
	int i = parse_opts(&w, &c, argc, argv), status = 2;
	if (i < 0) {
		status = reel_opt_exit(i);
		goto out;
	}
	if (i < argc)
		c.cmd = argv + i;
	if (!c.mpi || !c.out || !c.devs.n || w.size > 64) {
		if (!w.rank)
			fprintf(stderr, "ioreel capture --mpi: %s\n",
				!c.mpi	    ? "this is the MPI capture: pass --mpi"
				: !c.out    ? "-o OUT.reel is required"
				: !c.devs.n ? "give the devices: -d [RANK:]DEV"
					    : "at most 64 ranks");
		goto out;
	}
	if (!w.rank && !c.overwrite && access(c.out, F_OK) == 0) {
		fprintf(stderr, "ioreel capture --mpi: %s exists (--overwrite replaces it)\n",
			c.out);
		cluster_abort(2);
	}
	cl_apply_offset(&w, &c.shift);
	if (cl_scratch(scratch, sizeof(scratch), w.rank) < 0) {
		fprintf(stderr, "ioreel capture --mpi: rank %d on %s: no scratch directory: %s\n",
			w.rank, w.host, strerror(errno));
		cluster_abort(1);
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	status = run(&w, &c, scratch);
	cl_scratch_remove(scratch);
out:
	cluster_finalize();
	return status;
}
