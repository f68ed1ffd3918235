/*
 * cluster/cmd_replay.c - `mpirun -np N ioreel-mpi replay TRACE --mpi ...`:
 * every rank replays its devices with replay_run() (in a worker thread)
 * while its main thread listens for abort messages; rank 0 gathers the
 * results (histograms merged exactly), merges the ranks' result files and
 * writes the JSON summary.
 *
 * The start: each replay gets ready (trace read, targets open, buffers
 * made, first window loaded) and then calls its ready_cb, which waits.
 * When every rank is ready the main threads agree a start time on the
 * common clock (--start-delay after the last rank was ready; a rank whose
 * set-up failed cancels it for all), and each replay takes that instant,
 * on its own clock, as its time zero (replay_result.t0_mono_ns): the
 * ranks' set-up times do not enter the start skew.
 */
#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster/replay_internal.h"

#define TAG_ABORT 91

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

struct abort_msg {
	int rank;
	char host[CLUSTER_HOST_MAX];
	char err[512];
};

/* ---- options ----------------------------------------------------------- */
static int parse_list(const char *arg, void *dest, char *err, size_t errlen)
{
	struct list *l = dest;
	char *s = strdup(arg), *save = NULL;
	if (!s)
		return reel_errf(err, errlen, REEL_E_NOMEM, "out of memory");
	for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (l->n >= MAX_LIST) {
			free(s);
			return reel_errf(err, errlen, REEL_E_RANGE, "at most %d entries", MAX_LIST);
		}
		l->v[l->n++] = strdup(t);
	}
	free(s);
	return 0;
}

static int parse_map(const char *arg, void *dest, char *err, size_t errlen)
{
	struct maps *m = dest;
	char *end;
	long r = strtol(arg, &end, 10), d;
	if (end == arg || *end != ':' || r < 0 || r > 65535)
		goto bad;
	const char *ds = end + 1;
	d = strtol(ds, &end, 10);
	if (end == ds || *end != '=' || !end[1] || d < 0 || d > 65535)
		goto bad;
	if (m->n >= MAX_MAPS)
		return reel_errf(err, errlen, REEL_E_RANGE, "--map: at most %d", MAX_MAPS);
	m->v[m->n++] = (struct rmap){(int)r, (int)d, end + 1};
	return 0;
bad:
	return reel_errf(err, errlen, REEL_E_ARG,
			 "--map '%s': use RANK:DEV=PATH, e.g. --map 1:0=/dev/sdb", arg);
}

static int parse_qd(const char *arg, void *dest, char *err, size_t errlen)
{
	struct qd *q = dest;
	char *end;
	q->set = 1;
	q->str = arg;
	if (!strcmp(arg, "original")) {
		q->mode = REPLAY_QD_ORIGINAL;
		return 0;
	}
	if (arg[0] == 'x') {
		q->mode = REPLAY_QD_SCALED;
		q->scale = strtod(arg + 1, &end);
		if (end != arg + 1 && !*end && q->scale > 0 && q->scale <= 1000)
			return 0;
		return reel_errf(err, errlen, REEL_E_ARG, "--qd '%s': xK needs 0 < K <= 1000", arg);
	}
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || v < 1 || v > REPLAY_MAX_QD)
		return reel_errf(err, errlen, REEL_E_ARG,
				 "--qd '%s': use a depth from 1 to %d, original, or xK", arg,
				 REPLAY_MAX_QD);
	q->mode = REPLAY_QD_FIXED;
	q->depth = (unsigned)v;
	return 0;
}

/* --order dependency does not reach across ranks: the rest as replay's */
static const char *const orders[] = {"none", "strict", NULL};

static int parse_opts(const struct cluster_world *w, struct crep *c, int argc, char **argv)
{
	const struct reel_opt opts[] = {
	    OPT_GROUP("Ranks and targets"),
	    OPT_FLAG(0, "mpi", &c->mpi, "run under mpirun, one rank per host or device group"),
	    OPT_CALL(0, "target", "PATH[,PATH...]", parse_list, &c->targets,
		     "targets; trace device index i goes to PATH number i mod the count\n"
		     "(one PATH: every rank uses it, e.g. the same disk on each host)"),
	    OPT_CALL(0, "map", "RANK:DEV=PATH", parse_map, &c->maps,
		     "rank RANK replays trace device DEV on PATH (repeatable; then\n"
		     "unmapped devices are not replayed)"),
	    OPT_CALL(0, "trace-per-rank", "LIST", parse_list, &c->per_rank,
		     "one trace per rank (comma-separated, N entries): rank r replays\n"
		     "entry r on its targets; TRACE is then omitted"),
	    OPT_GROUP("Timing and queueing (as ioreel replay, within each rank)"),
	    OPT_CHOICE(0, "timing", "original|afap", &c->timing, replay_timing_names,
		       "(default original)"),
	    OPT_DBL(0, "speed", "F", &c->speed, 1e-6, 1e6, "original timing F times faster"),
	    OPT_CALL(0, "qd", "N|original|xK", parse_qd, &c->qd, "queue depth per rank"),
	    OPT_CHOICE(0, "order", "none|strict", &c->order, orders,
		       "within each rank (dependency across ranks is not offered)"),
	    OPT_CHOICE(0, "point", "queue|issue", &c->point, replay_point_names,
		       "trace time replayed"),
	    OPT_UINT(0, "window", "N", &c->window, 1, 1 << 20, "read-ahead window in records"),
	    OPT_STR(0, "engine", "NAME", &c->engine, "libaio, io_uring, psync or null"),
	    OPT_STR(0, "data", "MODE", &c->data, "zero, random, ratio:R or pattern:HEX"),
	    OPT_UINT(0, "dedupe", "PCT", &c->dedupe, 0, 100, "share of repeated 4 KiB pieces"),
	    OPT_CHOICE(0, "fit", "fail|wrap|scale", &c->fit, replay_fit_names,
		       "offsets past a target's end"),
	    OPT_FLAG(0, "align", &c->align, "round I/Os to the target's logical blocks"),
	    OPT_FLAG(0, "buffered", &c->buffered, "use the page cache"),
	    OPT_FLAG(0, "read-only", &c->read_only, "replay writes as reads"),
	    OPT_STR(0, "destroy-data", "NAME", &c->destroy, "allow writing over NAME's signature"),
	    OPT_FLAG(0, "overwrite", &c->overwrite, "allow writing into files not made by ioreel"),
	    OPT_FLAG(0, "no-rt", &c->no_rt, "do not ask for SCHED_FIFO"),
	    OPT_GROUP("Clocks"),
	    OPT_DBL(0, "start-delay", "S", &c->delay, 0.01, 3600,
		    "start this long after every rank is ready (default 0.3)"),
	    OPT_UINT(0, "clock-rounds", "N", &c->rounds, 1, 10000,
		     "ping-pong rounds per rank; the smallest round trip wins (default 32)"),
	    OPT_CALLNUM(0, "clock-offset-test", "RANK:NS", cl_parse_offset, &c->shift,
			"tests only: shift RANK's clock by NS (NS alone: this rank)"),
	    OPT_GROUP("Output (written by rank 0)"),
	    OPT_STR('o', "output", "RESULT.reel", &c->out, "the merged result"),
	    OPT_STR(0, "json", "FILE", &c->json, "per-rank and aggregate summary ('-': stdout)"),
	    OPT_FLAG('q', "quiet", &c->quiet, "no table on stdout"),
	    OPT_END,
	};
	static const struct reel_cmd_doc doc = {
	    .name = "replay --mpi",
	    .usage = "TRACE.reel --target PATH[,PATH...] [-o RESULT.reel] [options]",
	    .about = "Under mpirun: each rank replays its share of the trace's devices, all\n"
		     "starting at one time agreed on a clock measured against rank 0's; rank 0\n"
		     "writes one result whose devices are named host:device.",
	    .footer = "Example:\n"
		      "  mpirun -np 4 -H a,b,c,d ioreel-mpi replay t.reel --mpi --target "
		      "/dev/nvme0n1 \\\n"
		      "      -o all.reel --json all.json\n"
		      "See docs/mpi.md (device mapping, clocks, failures).\n",
	};
	return cl_parse(w, &doc, opts, argc, argv);
}

/* ---- which devices this rank replays ----------------------------------- */
static int trace_devices(const char *trace, int *ids, int max, char *err, size_t errlen)
{
	struct reel_reader *rd;
	int rc = reel_reader_open(&rd, trace, 0);
	if (rc < 0) {
		rc = reel_errf(err, errlen, rc, "%s: %s", trace,
			       rd ? reel_reader_errmsg(rd) : reel_strerror(rc));
		reel_reader_close(rd);
		return rc;
	}
	const struct reel_header *h = reel_reader_header(rd);
	int n = 0;
	for (size_t i = 0; i < h->ndevices && n < max; i++)
		ids[n++] = h->devices[i].id;
	reel_reader_close(rd);
	return n;
}

/* Fill this rank's replay maps (trace device -> path) and info->targets. */
static int assign(const struct cluster_world *w, const struct crep *c, const char *trace,
		  struct replay_map *maps, size_t *nmaps, struct rank_info *ri, char *err,
		  size_t errlen)
{
	int ids[256], n = trace_devices(trace, ids, 256, err, errlen);
	*nmaps = 0;
	if (n < 0)
		return n;
	if (c->maps.n) {
		for (size_t i = 0; i < c->maps.n && *nmaps < REPLAY_MAX_TARGETS; i++)
			if (c->maps.v[i].rank == w->rank)
				maps[(*nmaps)++] =
				    (struct replay_map){c->maps.v[i].dev, c->maps.v[i].path};
	} else if (c->targets.n) {
		for (int i = 0; i < n && *nmaps < REPLAY_MAX_TARGETS; i++) {
			size_t t;
			if (c->per_rank.n)
				t = ((size_t)w->rank * (size_t)n + (size_t)i) % c->targets.n;
			else if (i % w->size == w->rank)
				t = (size_t)i % c->targets.n;
			else
				continue;
			maps[(*nmaps)++] = (struct replay_map){ids[i], c->targets.v[t]};
		}
	}
	/* replay_run numbers targets by first appearance among the maps */
	size_t off = 0;
	ri->ntargets = 0;
	for (size_t i = 0; i < *nmaps; i++) {
		int seen = 0;
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(maps[k].path, maps[i].path);
		if (seen)
			continue;
		ri->trace_dev[ri->ntargets++] = maps[i].trace_dev;
		off += (size_t)snprintf(ri->targets + off, sizeof(ri->targets) - off, "%s%s",
					off ? "," : "", maps[i].path);
		if (off >= sizeof(ri->targets))
			off = sizeof(ri->targets) - 1;
	}
	return 0;
}

/* ---- the run: worker thread replays, main thread listens --------------- */
struct worker {
	const struct replay_opts *o;
	struct replay_result *res;
	char err[512];
	int rc;
	int ready;  /* the replay is ready and waits for go */
	int64_t go; /* 0 wait; > 0 time zero (this host's CLOCK_MONOTONIC); < 0 cancelled */
	int done;
};

/* replay_opts.ready_cb: say so, and wait for the agreed start. */
static int on_ready(void *arg, int64_t *start_at)
{
	struct worker *k = arg;
	int64_t go;
	__atomic_store_n(&k->ready, 1, __ATOMIC_RELEASE);
	while (!(go = __atomic_load_n(&k->go, __ATOMIC_ACQUIRE))) {
		struct timespec ts = {0, 100000};
		nanosleep(&ts, NULL);
	}
	/* cancelled: the stop flag is up, so the replay ends before its first I/O */
	*start_at = go > 0 ? go : 0;
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *k = arg;
	k->rc = replay_run(k->o, k->res, k->err, sizeof(k->err));
	__atomic_store_n(&k->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The start, agreed once every rank is ready or has failed: the latest
 * (ready time + delay) on the common clock; INT64_MAX when a rank failed. */
struct agree {
	MPI_Request rq;
	int64_t mine, start;
	int posted, over;
};

static void agree_post(const struct cluster_world *w, const struct cluster_clock *clk,
		       struct agree *a, int ready, int64_t delay_ns)
{
	a->mine = ready ? cluster_common_now(w, clk) + delay_ns : INT64_MAX;
	MPI_Iallreduce(&a->mine, &a->start, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD, &a->rq);
	a->posted = 1;
}

/* Post this rank's part when its worker is ready or done; 1 once agreed. */
static int agree_poll(const struct cluster_world *w, const struct cluster_clock *clk,
		      struct agree *a, struct worker *k, int64_t delay_ns)
{
	int flag = 0;
	if (a->over)
		return 1;
	if (!a->posted) {
		int ready = __atomic_load_n(&k->ready, __ATOMIC_ACQUIRE);
		if (!ready && !__atomic_load_n(&k->done, __ATOMIC_ACQUIRE))
			return 0;
		agree_post(w, clk, a, ready, delay_ns);
	}
	if (MPI_Test(&a->rq, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || !flag)
		return 0;
	a->over = 1;
	return 1;
}

struct listen {
	MPI_Request rq;
	struct abort_msg in, first;
	int received, have_first, posted;
};

static void listen_post(struct listen *l)
{
	MPI_Irecv(&l->in, sizeof(l->in), MPI_BYTE, MPI_ANY_SOURCE, TAG_ABORT, MPI_COMM_WORLD,
		  &l->rq);
	l->posted = 1;
}

/* Take an arrived abort message, if any; 1 when one came. */
static int listen_poll(struct listen *l)
{
	int flag = 0;
	if (!l->posted || MPI_Test(&l->rq, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || !flag)
		return 0;
	l->received++;
	if (!l->have_first) {
		l->first = l->in;
		l->have_first = 1;
	}
	listen_post(l);
	return 1;
}

static void send_abort(const struct cluster_world *w, const char *msg)
{
	struct abort_msg m;
	memset(&m, 0, sizeof(m));
	m.rank = w->rank;
	snprintf(m.host, sizeof(m.host), "%s", w->host);
	snprintf(m.err, sizeof(m.err), "%s", msg);
	MPI_Request rq[256];
	int n = 0;
	for (int r = 0; r < w->size && n < 256; r++)
		if (r != w->rank)
			MPI_Isend(&m, sizeof(m), MPI_BYTE, r, TAG_ABORT, MPI_COMM_WORLD, &rq[n++]);
	for (int i = 0; i < n; i++)
		cluster_wait(&rq[i]);
}

/* After the barrier: take exactly the aborts that were sent, then stop listening. */
static void listen_drain(const struct cluster_world *w, struct listen *l, int sent)
{
	int *all = calloc((size_t)w->size, sizeof(int)), expect = 0;
	MPI_Request rq;
	MPI_Iallgather(&sent, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &rq);
	cluster_wait(&rq);
	for (int r = 0; r < w->size; r++)
		expect += r != w->rank && all[r];
	free(all);
	while (l->received < expect) {
		cluster_wait(&l->rq);
		l->posted = 0;
		l->received++;
		if (!l->have_first) {
			l->first = l->in;
			l->have_first = 1;
		}
		if (l->received < expect)
			listen_post(l);
	}
	if (l->posted) {
		MPI_Cancel(&l->rq);
		MPI_Wait(&l->rq, MPI_STATUS_IGNORE);
	}
}

/* The agreed start reached: let the worker go (or cancel it). */
static void release(const struct cluster_world *w, const struct cluster_clock *clk,
		    const struct agree *a, struct worker *k, int *stopped_by_abort)
{
	if (a->start == INT64_MAX) {
		if (!stop_flag)
			*stopped_by_abort = 1;
		stop_flag = 1;
		__atomic_store_n(&k->go, -1, __ATOMIC_RELEASE);
		return;
	}
	int64_t go = a->start + clk->offset_ns - w->shift_ns; /* on this host's clock */
	__atomic_store_n(&k->go, go > 0 ? go : 1, __ATOMIC_RELEASE);
}

/* Run this rank's replay; fills ri and res, and *start (the agreed start
 * on the common clock, INT64_MAX when cancelled).  Collective (ends with
 * a barrier). */
static void run_rank(const struct cluster_world *w, const struct cluster_clock *clk,
		     int64_t delay_ns, const struct replay_opts *o, struct replay_result *res,
		     struct rank_info *ri, int64_t *start)
{
	struct worker k = {.res = res};
	struct replay_opts oo = *o;
	struct listen l = {0};
	struct agree a = {0};
	pthread_t th;
	int stopped_by_abort = 0;
	oo.ready_cb = on_ready;
	oo.ready_arg = &k;
	k.o = &oo;
	listen_post(&l);
	ri->ran = o->nmaps > 0;
	if (ri->ran && pthread_create(&th, NULL, worker_main, &k) != 0) {
		k.rc = -errno;
		snprintf(k.err, sizeof(k.err), "cannot start the replay thread");
		ri->ran = 0;
	}
	if (!ri->ran) { /* nothing to replay here: ready at once */
		k.ready = 1;
		agree_poll(w, clk, &a, &k, delay_ns);
	}
	while (ri->ran && !__atomic_load_n(&k.done, __ATOMIC_ACQUIRE)) {
		if (!a.over && agree_poll(w, clk, &a, &k, delay_ns))
			release(w, clk, &a, &k, &stopped_by_abort);
		if (listen_poll(&l) && !stop_flag) {
			stop_flag = 1;
			stopped_by_abort = 1;
		}
		struct timespec ts = {0, 200000};
		nanosleep(&ts, NULL);
	}
	if (ri->ran)
		pthread_join(th, NULL);
	if (!a.over) { /* failed before it was ready: take part, to say so */
		agree_poll(w, clk, &a, &k, delay_ns);
		cluster_wait(&a.rq);
	}
	*start = a.start;
	ri->rc = ri->ran ? k.rc : (o->nmaps ? k.rc : 0);
	ri->interrupted = ri->ran && k.rc == 0 && res->interrupted;
	if (ri->rc < 0)
		snprintf(ri->err, sizeof(ri->err), "%s", k.err[0] ? k.err : reel_strerror(ri->rc));
	else if (ri->interrupted && !stopped_by_abort)
		snprintf(ri->err, sizeof(ri->err), "interrupted by a signal");
	ri->start_ns = INT64_MIN;
	if (ri->ran && k.rc == 0 && res->t0_mono_ns && a.start != INT64_MAX)
		ri->start_ns = res->t0_mono_ns + w->shift_ns - clk->offset_ns - a.start;
	/* a failure or a local signal stops every other rank */
	ri->sent_abort = ri->rc < 0 || (ri->interrupted && !stopped_by_abort);
	if (ri->sent_abort)
		send_abort(w, ri->err);
	cluster_barrier();
	listen_drain(w, &l, ri->sent_abort);
}

/* ---- the command ------------------------------------------------------- */
static void fill_replay_opts(const struct crep *c, struct replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->timing = (enum replay_timing)c->timing;
	o->speed = c->speed;
	o->qd_default = !c->qd.set;
	o->qd_mode = c->qd.mode;
	o->qd = c->qd.depth;
	o->qd_scale = c->qd.scale;
	o->qd_str = c->qd.set ? c->qd.str : "default";
	o->order = (enum replay_order)c->order;
	o->point = (enum replay_point)c->point;
	o->engine = c->engine;
	o->data_str = c->data;
	o->data.dedupe_pct = c->dedupe;
	o->fit = (enum replay_fit)c->fit;
	o->align = c->align;
	o->buffered = c->buffered;
	o->read_only = c->read_only;
	o->destroy_name = c->destroy;
	o->overwrite = c->overwrite;
	o->no_rt = c->no_rt;
	o->window = c->window;
	o->overwrite_result = 1;
	o->stop = &stop_flag;
}

/* Checks every rank must pass before anything starts; 0 or an error in err
 * (the same on every rank, so all of them refuse together). */
static int preflight(const struct cluster_world *w, const struct crep *c, const char *trace,
		     const char *version, struct rank_info *ri, char *err, size_t errlen)
{
	int rc = cluster_check_same(w, "version", version, err, errlen);
	if (rc < 0)
		return rc;
	char e2[512];
	if (cluster_file_checksum(trace, ri->checksum, e2, sizeof(e2)) < 0)
		snprintf(ri->checksum, sizeof(ri->checksum), "unreadable");
	if (!c->per_rank.n)
		return cluster_check_same(w, "trace checksum", ri->checksum, err, errlen);
	/* one trace each: the list itself must be the same everywhere */
	char list[1024] = "";
	for (size_t i = 0, off = 0; i < c->per_rank.n && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s,", c->per_rank.v[i]);
	rc = cluster_check_same(w, "--trace-per-rank list", list, err, errlen);
	if (rc < 0)
		return rc;
	int bad = !strcmp(ri->checksum, "unreadable"), any = 0;
	MPI_Request rq;
	MPI_Iallreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &rq);
	cluster_wait(&rq);
	if (any)
		return reel_errf(err, errlen, REEL_E_IO, "a rank cannot read its trace%s%s",
				 bad ? ": this one, " : "", bad ? trace : "");
	return 0;
}

static int validate(const struct cluster_world *w, const struct crep *c, int argc, int i, char *err,
		    size_t errlen)
{
	if (!c->mpi)
		return reel_errf(err, errlen, REEL_E_ARG, "this is the MPI replay: pass --mpi");
	if (c->per_rank.n) {
		if (i != argc)
			return reel_errf(err, errlen, REEL_E_ARG,
					 "give either TRACE.reel or --trace-per-rank, not both");
		if (c->per_rank.n != (size_t)w->size)
			return reel_errf(
			    err, errlen, REEL_E_ARG,
			    "--trace-per-rank lists %zu traces for %d ranks: give one per rank",
			    c->per_rank.n, w->size);
	} else if (i != argc - 1) {
		return reel_errf(err, errlen, REEL_E_ARG, "give exactly one TRACE.reel");
	}
	if (!c->targets.n && !c->maps.n)
		return reel_errf(err, errlen, REEL_E_ARG,
				 "give --target PATH[,PATH...] or --map RANK:DEV=PATH");
	if (w->size > 64)
		return reel_errf(err, errlen, REEL_E_RANGE, "at most 64 ranks (%d given)", w->size);
	return 0;
}

struct job {
	struct crep c;
	struct replay_opts o;
	struct replay_map maps[REPLAY_MAX_TARGETS];
	struct rank_info ri;
	struct replay_result res;
	struct cluster_clock clk;
	char version[128], scratch[4096], mine[4200];
	char *paths[64];
	int got[64];
};

/* Gather, collect the files, and (rank 0) report; returns the exit status. */
static int finish(const struct cluster_world *w, struct job *j, const char *trace,
		  int64_t start_unix)
{
	struct rank_info *all_ri = w->rank ? NULL : calloc((size_t)w->size, sizeof(*all_ri));
	struct replay_result *all_res = w->rank ? NULL : calloc((size_t)w->size, sizeof(*all_res));
	int status = 1;
	char err[1024];
	if (!w->rank && (!all_ri || !all_res))
		cluster_abort(1);
	cluster_gather(w, &j->ri, sizeof(j->ri), all_ri);
	cluster_gather(w, &j->res, sizeof(j->res), all_res);
	for (int r = 0; r < w->size && !w->rank; r++) {
		j->paths[r] = malloc(4300);
		if (r == 0)
			snprintf(j->paths[r], 4300, "%s", j->mine);
		else
			snprintf(j->paths[r], 4300, "%s/from%d.reel", j->scratch, r);
	}
	if (cluster_collect_files(w, j->ri.ran ? j->mine : NULL, j->paths, j->got, err,
				  sizeof(err)) < 0)
		fprintf(stderr, "ioreel replay --mpi: rank %d on %s: %s\n", w->rank, w->host, err);
	if (!w->rank) {
		struct summary *s = calloc(1, sizeof(*s));
		if (!s)
			cluster_abort(1);
		*s = (struct summary){.c = &j->c,
				      .trace = trace,
				      .version = j->version,
				      .ri = all_ri,
				      .res = all_res,
				      .size = w->size};
		status = crep_report(s, j->paths, j->got, start_unix);
		free(s);
		for (int r = 0; r < w->size; r++)
			free(j->paths[r]);
	}
	MPI_Request rq;
	MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
	cluster_wait(&rq);
	free(all_ri);
	free(all_res);
	return status;
}

/* mpirun binds a rank to one core by default when it starts 2 ranks or
 * fewer: a rank alone on its host then leaves the other cores idle, and
 * its kernel-side work (completions, the loop device's worker) shares its
 * core.  Said on stderr, once per rank, so the user can choose. */
static void note_binding(const struct cluster_world *w)
{
	cpu_set_t set;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int here = 1; /* ranks on this host */
	MPI_Comm local;
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) ==
	    MPI_SUCCESS) {
		MPI_Comm_size(local, &here);
		MPI_Comm_free(&local);
	}
	if (sched_getaffinity(0, sizeof(set), &set) < 0 || CPU_COUNT(&set) != 1 || here >= online)
		return;
	int cpu = 0;
	while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set))
		cpu++;
	fprintf(stderr,
		"ioreel replay --mpi: note: rank %d on %s is bound to CPU %d alone (of %ld): "
		"mpirun binds ranks to cores by default; `mpirun --bind-to none` lets the "
		"replay use the host's other CPUs (docs/mpi.md, CPU binding)\n",
		w->rank, w->host, cpu, online);
}

static int run(const struct cluster_world *w, struct job *j, const char *trace)
{
	char err[1024];
	int rc = preflight(w, &j->c, trace, j->version, &j->ri, err, sizeof(err));
	if (rc < 0) {
		if (!w->rank)
			fprintf(stderr, "ioreel replay --mpi: %s\n", err);
		return 1;
	}
	note_binding(w);
	snprintf(j->ri.host, sizeof(j->ri.host), "%s", w->host);
	snprintf(j->ri.trace, sizeof(j->ri.trace), "%s", trace);
	rc = assign(w, &j->c, trace, j->maps, &j->o.nmaps, &j->ri, err, sizeof(err));
	if (rc < 0) /* cannot happen after the checksum, but say so */
		j->o.nmaps = 0;
	j->o.maps = j->maps;
	j->o.trace = trace;
	if (replay_data_parse(j->c.data, &j->o.data, err, sizeof(err)) < 0) {
		if (!w->rank)
			fprintf(stderr, "ioreel replay --mpi: --data: %s\n", err);
		return 2;
	}
	j->o.data.dedupe_pct = j->c.dedupe;
	snprintf(j->mine, sizeof(j->mine), "%s/rank%d.reel", j->scratch, w->rank);
	j->o.result = j->mine;
	cluster_clock_sync(w, (int)j->c.rounds, &j->clk);
	j->ri.offset_ns = j->clk.offset_ns;
	j->ri.rtt_ns = j->clk.rtt_ns;
	j->ri.residual_ns = j->clk.residual_ns;
	int64_t start;
	run_rank(w, &j->clk, (int64_t)(j->c.delay * 1e9), &j->o, &j->res, &j->ri, &start);
	/* wall clock of the common start, from rank 0's clocks */
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	int64_t now = cluster_common_now(w, &j->clk);
	int64_t start_unix = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec -
			     (now - (start == INT64_MAX ? now : start));
	return finish(w, j, trace, start_unix);
}

int cmd_cluster_replay(int argc, char **argv)
{
	struct cluster_world w;
	char err[1024];
	static struct job j; /* large: the result holds the histograms */
	if (cluster_init(&w, &argc, &argv, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel replay --mpi: %s\n", err);
		return 1;
	}
	memset(&j, 0, sizeof(j));
	j.c = (struct crep){
	    .speed = 1.0, .engine = "libaio", .data = "random", .delay = 0.3, .rounds = 32};
	int i = parse_opts(&w, &j.c, argc, argv), status = 2;
	if (i < 0) {
		status = reel_opt_exit(i);
		goto out;
	}
	if (validate(&w, &j.c, argc, i, err, sizeof(err)) < 0) {
		if (!w.rank)
			fprintf(stderr, "ioreel replay --mpi: %s\n", err);
		goto out;
	}
	cl_apply_offset(&w, &j.c.shift);
	cl_version(j.version, sizeof(j.version));
	if (cl_scratch(j.scratch, sizeof(j.scratch), w.rank) < 0) {
		fprintf(stderr,
			"ioreel replay --mpi: rank %d on %s: cannot make a scratch directory "
			"in $TMPDIR: %s\n",
			w.rank, w.host, strerror(errno));
		cluster_abort(1);
	}
	fill_replay_opts(&j.c, &j.o);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	const char *trace = j.c.per_rank.n ? j.c.per_rank.v[w.rank] : argv[i];
	status = run(&w, &j, trace);
	cl_scratch_remove(j.scratch);
out:
	for (size_t k = 0; k < j.c.targets.n; k++)
		free(j.c.targets.v[k]);
	for (size_t k = 0; k < j.c.per_rank.n; k++)
		free(j.c.per_rank.v[k]);
	cluster_finalize();
	return status;
}
