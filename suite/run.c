/*
 * suite/run.c - running a plan: safety checks, the drive state of each
 * state phase (purge, fill, steady-state rounds), and the matrix of cells,
 * each run `repeats` times with repeat r done on every drive before repeat
 * r+1 (the drive order alternating between repeats), so a slow minute of
 * the machine does not land on one drive.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "plots/plots.h"
#include "replay/replay.h"
#include "suite/suite.h"

#define MAX_COPIES 10000

struct runner {
	const struct suite_opts *o;
	struct suite_results *res;
	char work[PATH_MAX];				  /* outdir/work: results, cut traces */
	char traces[SUITE_MAX_WORKLOADS][PATH_MAX + 128]; /* traces as replayed */
	size_t run_no, nruns;
	int64_t t_start, run_ns; /* time spent in runs (for the ETA) */
	size_t runs_timed;
	char *errmsg;
	size_t errlen;
};

static const char *destroy_for(const struct suite_opts *o, const struct suite_drive *d)
{
	for (size_t i = 0; i < o->ndestroy; i++) {
		const char *n = o->destroy[i];
		if (!strcmp(n, d->kname) || !strcmp(n, d->path) ||
		    (!strncmp(n, "/dev/", 5) && !strcmp(n + 5, d->kname)))
			return n;
	}
	return NULL;
}

int suite_fit_describe(const struct suite_plan *p, size_t w, const struct suite_drive *d, char *buf,
		       size_t len)
{
	uint64_t a = d->lbs ? d->lbs : 512, need = (p->w[w].extent + a - 1) / a * a;
	buf[0] = 0;
	if (!d->capacity || need <= d->capacity)
		return 0;
	if (!strcmp(p->fit, "scale"))
		snprintf(buf, len, "scaled by %.3f (fit=scale)",
			 (double)d->capacity / (double)need);
	else if (!strcmp(p->fit, "fail"))
		snprintf(buf, len, "refused (fit=fail)");
	else
		snprintf(buf, len, "wrapped modulo the drive's size (fit=wrap)");
	return 1;
}

/* fit=fail: every trace must fit every drive, checked before any write. */
static int check_fit(const struct suite_opts *o, const struct suite_drive *d, char *errmsg,
		     size_t errlen)
{
	const struct suite_plan *p = o->plan;
	char how[128];
	for (size_t w = 0; w < p->nw; w++)
		if (!strcmp(p->fit, "fail") && suite_fit_describe(p, w, d, how, sizeof(how)))
			return reel_errf(errmsg, errlen, REEL_E_RANGE,
					 "[%s] %s reaches %.2f GiB; --drive %s=%s has %.2f GiB "
					 "(plan fit=fail): use a larger drive, or fit=wrap or "
					 "fit=scale in the plan",
					 p->w[w].name, p->w[w].trace,
					 (double)p->w[w].extent / (1 << 30), d->name, d->path,
					 (double)d->capacity / (1 << 30));
	return 0;
}

int suite_check_drives(const struct suite_opts *o, char *errmsg, size_t errlen)
{
	for (size_t i = 0; i < o->ndrives; i++) {
		struct suite_drive *d = &o->drives[i];
		int rc = suite_drive_identify(d, errmsg, errlen);
		if (rc < 0)
			return rc;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(o->drives[j].kname, d->kname))
				return reel_errf(
				    errmsg, errlen, REEL_E_ARG,
				    "--drive %s and --drive %s are the same device (%s)",
				    o->drives[j].name, d->name, d->kname);
		struct replay_safety_opts so = {.will_write = 1, .destroy_name = destroy_for(o, d)};
		int created = 0;
		char e[1024];
		rc = replay_safety_check(d->path, &so, &created, e, sizeof(e));
		static const char ro_hint[] = " (or replay with --read-only)"; /* not for suite */
		char *ro = strstr(e, ro_hint);
		if (ro)
			memmove(ro, ro + sizeof(ro_hint) - 1, strlen(ro + sizeof(ro_hint) - 1) + 1);
		if (rc < 0)
			return reel_errf(errmsg, errlen, rc,
					 "--drive %s=%s: %s (the suite purges and overwrites the "
					 "whole device)",
					 d->name, d->path, e);
		if ((rc = check_fit(o, d, errmsg, errlen)) < 0)
			return rc;
	}
	return 0;
}

static void say(struct runner *rn, const char *drive, int state, const char *phase, double frac,
		size_t cell, unsigned rep)
{
	const struct suite_opts *o = rn->o;
	if (!o->progress)
		return;
	struct suite_progress p = {
	    .drive = drive,
	    .state = suite_state_name(state),
	    .phase = phase,
	    .cell = cell,
	    .ncells = rn->res->ncells,
	    .repeat = rep,
	    .repeats = o->plan->repeats,
	    .run = rn->run_no,
	    .nruns = rn->nruns,
	    .frac = frac,
	    .eta_s = -1,
	};
	if (rn->runs_timed)
		p.eta_s = (double)rn->run_ns / (double)rn->runs_timed *
			  (double)(rn->nruns - rn->run_no) / 1e9;
	o->progress(&p, o->progress_arg);
}

/* ---- one replay pass ------------------------------------------------------ */
static int qd_setup(struct replay_opts *ro, const char *qd)
{
	ro->qd_str = qd;
	if (!strcmp(qd, "original")) {
		ro->qd_mode = REPLAY_QD_ORIGINAL;
	} else if (qd[0] == 'x') {
		ro->qd_mode = REPLAY_QD_SCALED;
		ro->qd_scale = strtod(qd + 1, NULL);
	} else {
		ro->qd_mode = REPLAY_QD_FIXED;
		ro->qd = (unsigned)strtoul(qd, NULL, 10);
	}
	return 0;
}

struct pass_cfg {
	size_t w; /* workload */
	const char *qd, *data;
	const struct suite_timing *timing;
};

/* One replay of TRACE on d; its records go into acc. */
static int one_replay(struct runner *rn, const struct suite_drive *d, const struct pass_cfg *pc,
		      const char *trace, struct suite_acc *acc, struct replay_result *res)
{
	const struct suite_plan *p = rn->o->plan;
	struct replay_opts ro;
	memset(&ro, 0, sizeof(ro));
	const char *targets[1] = {d->path};
	char result[PATH_MAX + 32];
	snprintf(result, sizeof(result), "%s/run.reel", rn->work);
	ro.trace = trace;
	ro.targets = targets;
	ro.ntargets = 1;
	ro.result = result;
	ro.overwrite_result = 1;
	ro.timing = pc->timing->afap ? REPLAY_TIMING_AFAP : REPLAY_TIMING_ORIGINAL;
	ro.speed = pc->timing->speed;
	qd_setup(&ro, pc->qd);
	ro.engine = p->engine;
	ro.data_str = pc->data;
	ro.fit = !strcmp(p->fit, "scale")  ? REPLAY_FIT_SCALE
		 : !strcmp(p->fit, "fail") ? REPLAY_FIT_FAIL
					   : REPLAY_FIT_WRAP;
	ro.align = 1; /* a trace of 512-byte sectors onto a 4 KiB drive (zram) */
	ro.destroy_name = destroy_for(rn->o, d);
	ro.stop = rn->o->stop;
	int rc = replay_data_parse(pc->data, &ro.data, rn->errmsg, rn->errlen);
	if (rc < 0)
		return rc;
	rc = replay_run(&ro, res, rn->errmsg, rn->errlen);
	if (rc < 0)
		return rc;
	if (res->interrupted)
		return REEL_E_INTERRUPTED;
	return suite_acc_add_file(acc, result, rn->errmsg, rn->errlen);
}

/* The trace of workload w looped `copies` times (made on first use). */
static int looped_trace(struct runner *rn, size_t w, unsigned copies, char *out, size_t len)
{
	if (copies <= 1) {
		snprintf(out, len, "%s", rn->traces[w]);
		return 0;
	}
	snprintf(out, len, "%s/%s.x%u.reel", rn->work, rn->o->plan->w[w].name, copies);
	if (access(out, R_OK) == 0)
		return 0;
	struct reel_rewrite how = {
	    .max_idle_ns = -1, .copies = copies, .detail = "looped by ioreel suite"};
	struct reel_rewrite_stats st;
	return reel_trace_rewrite(rn->traces[w], out, &how, &st, rn->errmsg, rn->errlen);
}

static int measure(struct runner *rn, const struct suite_drive *d, const struct pass_cfg *pc,
		   unsigned copies, struct suite_run_metrics *m, struct suite_acc **acc,
		   struct replay_result *res)
{
	char trace[PATH_MAX + 160];
	int rc = looped_trace(rn, pc->w, copies, trace, sizeof(trace));
	if (rc < 0)
		return rc;
	suite_acc_free(*acc);
	if (!(*acc = suite_acc_new()))
		return reel_errf(rn->errmsg, rn->errlen, REEL_E_NOMEM, "out of memory");
	int64_t t0 = reel_now_ns();
	if ((rc = one_replay(rn, d, pc, trace, *acc, res)) < 0)
		return rc;
	m->wall_s = (double)(reel_now_ns() - t0) / 1e9;
	return 0;
}

/*
 * One run: one replay of the trace looped `copies` times, or (copies == 0)
 * a replay of the trace once to measure its busy time, then, if that is
 * under the plan's min-busy (with a 25% margin, so the drive's later runs
 * of the cell stay above it), of the trace looped as many times as it
 * takes.  Returns the copies used.
 */
static int run_copies(struct runner *rn, const struct suite_drive *d, const struct pass_cfg *pc,
		      unsigned copies, struct suite_run_metrics *m)
{
	const struct suite_plan *p = rn->o->plan;
	struct suite_acc *acc = NULL;
	struct replay_result *res = malloc(sizeof(*res));
	if (!res)
		return reel_errf(rn->errmsg, rn->errlen, REEL_E_NOMEM, "out of memory");
	memset(m, 0, sizeof(*m));
	int rc = measure(rn, d, pc, copies ? copies : 1, m, &acc, res);
	/* a single short copy misjudges the rate (cold start, a hiccup): size
	 * again from the looped run while it falls short (at most twice) */
	for (unsigned k = 1, again = !copies; rc >= 0 && again && k <= 3; k++) {
		double busy = suite_acc_busy_s(acc), want = 1.25 * p->min_busy_s;
		unsigned now = k == 1 ? 1 : copies;
		again = busy > 0 && busy < (k == 1 ? want : 0.9 * want) && now < MAX_COPIES;
		if (again) {
			copies = (unsigned)fmin(ceil(now * want / busy), MAX_COPIES);
			rc = measure(rn, d, pc, copies, m, &acc, res);
		} else if (k == 1) {
			copies = 1;
		}
	}
	if (rc >= 0) {
		double wall = m->wall_s;
		suite_acc_metrics(acc, m);
		m->wall_s = wall;
		m->copies = copies;
		m->ratio = res->ratio_achieved;
		m->issue_p99_us =
		    pc->timing->afap ? -1 : (double)reel_hist_quantile(&res->issue_err, 0.99) / 1e3;
		m->host_bound = m->issue_p99_us > p->issue_error_limit_us;
		rc = (int)copies;
	}
	suite_acc_free(acc);
	free(res);
	return rc;
}

/* ---- drive states ------------------------------------------------------- */
struct fill_arg {
	struct runner *rn;
	const struct suite_drive *d;
	int state;
};

static void fill_progress(double frac, void *arg)
{
	struct fill_arg *fa = arg;
	say(fa->rn, fa->d->name, fa->state, "fill", frac, 0, 0);
}

/* PTS steady state: rounds of the stimulus (the plan's steady-stimulus
 * trace, afap, QD 32, random data) until the rule holds over 5 rounds. */
static int steady_rounds(struct runner *rn, size_t di, struct suite_state_info *si)
{
	const struct suite_plan *p = rn->o->plan;
	const struct suite_drive *d = &rn->o->drives[di];
	size_t w = 0;
	while (p->steady_stimulus[0] && strcmp(p->w[w].name, p->steady_stimulus))
		w++;
	struct suite_timing afap = {.name = "afap", .afap = 1, .speed = 1};
	struct pass_cfg pc = {w, "32", "random", &afap};
	unsigned copies = 0;
	struct suite_run_metrics *m = malloc(sizeof(*m));
	if (!m)
		return reel_errf(rn->errmsg, rn->errlen, REEL_E_NOMEM, "out of memory");
	int rc = 0;
	for (unsigned r = 0; r < p->steady_rounds && r < 64; r++) {
		say(rn, d->name, SUITE_STATE_STEADY, "steady", (double)r / p->steady_rounds, 0, 0);
		rc = run_copies(rn, d, &pc, copies, m);
		if (rc < 0)
			break;
		copies = (unsigned)rc;
		si->steady_iops[r] = m->m[SUITE_M_IOPS];
		si->rounds = r + 1;
		struct suite_steady st;
		suite_steady_check(si->steady_iops, si->rounds, 5, 0.20, 0.10, &st);
		if (st.reached) {
			si->steady_reached = 1;
			break;
		}
	}
	free(m);
	return rc < 0 ? rc : 0;
}

static int set_state(struct runner *rn, size_t di, int state)
{
	const struct suite_plan *p = rn->o->plan;
	const struct suite_drive *d = &rn->o->drives[di];
	struct suite_state_info *si = &rn->res->state[di][state];
	int64_t t0 = reel_now_ns();
	say(rn, d->name, state, "purge", -1, 0, 0);
	int rc = suite_drive_purge(d, si->method, sizeof(si->method), rn->errmsg, rn->errlen);
	if (rc < 0)
		return rc;
	if (state != SUITE_STATE_EMPTY) {
		struct fill_arg fa = {rn, d, state};
		rc =
		    suite_drive_fill(d, p->fill_factor, fill_progress, &fa, rn->errmsg, rn->errlen);
		if (rc < 0)
			return rc;
		si->fill_gib = p->fill_factor * (double)d->capacity / (1 << 30);
	}
	if (state == SUITE_STATE_STEADY && (rc = steady_rounds(rn, di, si)) < 0)
		return rc;
	si->done = 1;
	si->seconds = (double)(reel_now_ns() - t0) / 1e9;
	return 0;
}

/* ---- the matrix --------------------------------------------------------- */
static int build_cells(const struct suite_plan *p, struct suite_results *res)
{
	size_t n = p->nstates * p->nw * p->ntiming * p->nqd * p->ndata;
	res->cells = calloc(n, sizeof(*res->cells));
	if (!res->cells)
		return REEL_E_NOMEM;
	size_t k = 0;
	for (size_t s = 0; s < p->nstates; s++)
		for (size_t w = 0; w < p->nw; w++)
			for (size_t t = 0; t < p->ntiming; t++)
				for (size_t q = 0; q < p->nqd; q++)
					for (size_t dm = 0; dm < p->ndata; dm++)
						res->cells[k++] =
						    (struct suite_cell){w, q, dm, t, p->states[s]};
	res->ncells = n;
	return 0;
}

/* The run just made (work/run.reel) over time, for the time charts: data
 * rate and p99 latency per interval (plots' analysis of a result). */
static int capture_series(struct runner *rn, const struct suite_cell *cell, size_t di)
{
	const struct suite_plan *p = rn->o->plan;
	size_t sp = 0;
	while (sp < p->nstates && p->states[sp] != cell->state)
		sp++;
	struct suite_series *se =
	    &rn->res->series[(cell->w * p->nstates + sp) * rn->o->ndrives + di];
	char path[PATH_MAX + 32], eb[512];
	snprintf(path, sizeof(path), "%s/run.reel", rn->work);
	struct plots_run *pr = NULL;
	/* one interval for every drive's run of the cell (about 60 over the
	 * runs' intended length), unless a run is far longer */
	int64_t want = plots_auto_interval((int64_t)(2.5 * 1.25e9 * p->min_busy_s), 0);
	if (plots_run_open(&pr, path, eb, sizeof(eb)) == 0 && (pr->t1 - pr->t0) / want > 2000)
		want = 0;
	if (!pr || plots_run_analyze(pr, want, eb, sizeof(eb)) < 0) {
		plots_run_free(pr);
		return 0; /* no chart for this run, not a failed suite */
	}
	size_t n = pr->nbuckets,
	       per = pr->lat_time ? (size_t)(pr->lat_interval_ns / pr->interval_ns) : 0;
	se->t = calloc(n, sizeof(float));
	se->mbps = calloc(n, sizeof(float));
	se->p99_us = calloc(n, sizeof(float));
	if (!se->t || !se->mbps || !se->p99_us) {
		plots_run_free(pr);
		return REEL_E_NOMEM;
	}
	double iv = (double)pr->interval_ns / 1e9;
	for (size_t b = 0; b < n; b++) {
		const struct plots_bucket *k = &pr->buckets[b];
		se->t[b] = (float)(((double)b + 0.5) * iv);
		se->mbps[b] = (float)((double)(k->bytes[0] + k->bytes[1]) / 1e6 / iv);
		const struct reel_hist *h = per ? &pr->lat_time[b / per] : NULL;
		se->p99_us[b] = h && h->count ? (float)reel_hist_quantile(h, 0.99) / 1e3f : NAN;
	}
	se->n = n > 1 ? n - 1 : n; /* the last bucket is cut short by the end */
	se->interval_s = iv;
	plots_run_free(pr);
	return 0;
}

/*
 * The trace copies of a cell, the same for every drive so that every drive
 * replays the same work: each drive's run is sized (run_copies with no
 * copies given: one copy, then looped to min-busy), and the largest count
 * is kept, so that every drive's runs reach min-busy.  These sizing runs
 * are not kept: they also warm every drive up for the cell the same way
 * before its first kept run.  Copies sized per drive made a fast drive's
 * runs longer in copies than a slow one's, and two identical drives could
 * replay different amounts of work (5 copies against 6: a different share
 * of the run's start), the same in all their repeats: a difference the
 * repeats cannot see as noise.
 */
static int size_cell(struct runner *rn, size_t c, const struct pass_cfg *pc, unsigned *copies)
{
	const struct suite_opts *o = rn->o;
	*copies = 1;
	if (o->plan->min_busy_s <= 0)
		return 0;
	struct suite_run_metrics *m = malloc(sizeof(*m));
	if (!m)
		return reel_errf(rn->errmsg, rn->errlen, REEL_E_NOMEM, "out of memory");
	int rc = 0;
	for (size_t k = 0; k < o->ndrives && rc >= 0; k++) {
		size_t di = c % 2 ? o->ndrives - 1 - k : k;
		say(rn, o->drives[di].name, rn->res->cells[c].state, "sizing runs", -1, c, 0);
		if ((rc = run_copies(rn, &o->drives[di], pc, 0, m)) > (int)*copies)
			*copies = (unsigned)rc;
	}
	free(m);
	return rc < 0 ? rc : 0;
}

static int run_cell(struct runner *rn, size_t c)
{
	const struct suite_opts *o = rn->o;
	const struct suite_plan *p = o->plan;
	const struct suite_cell *cell = &rn->res->cells[c];
	struct pass_cfg pc = {cell->w, p->qd[cell->qd], p->data[cell->data],
			      &p->timing[cell->timing]};
	unsigned copies;
	int64_t t0 = reel_now_ns();
	int rc = size_cell(rn, c, &pc, &copies);
	if (rc < 0)
		return rc;
	rn->run_ns += reel_now_ns() - t0; /* the ETA counts the sizing in the runs' time */
	/* the drive order alternates between repeats, and the first repeat's
	 * order alternates between cells: with an odd count of repeats, no
	 * drive runs first more often over the report */
	for (unsigned r = 0; r < p->repeats; r++)
		for (size_t k = 0; k < o->ndrives; k++) {
			size_t di = (r + c) % 2 ? o->ndrives - 1 - k : k;
			const struct suite_drive *d = &o->drives[di];
			say(rn, d->name, cell->state, "run", -1, c, r);
			struct suite_run_metrics *m =
			    &rn->res->runs[(c * o->ndrives + di) * p->repeats + r];
			t0 = reel_now_ns();
			if ((rc = run_copies(rn, d, &pc, copies, m)) < 0)
				return rc;
			if (r == 0 && !cell->timing && !cell->qd && !cell->data &&
			    (rc = capture_series(rn, cell, di)) < 0)
				return rc;
			rn->run_ns += reel_now_ns() - t0;
			rn->runs_timed++;
			rn->run_no++;
		}
	return 0;
}

/* The traces as replayed: for the trace's own queue depth, the I/Os that
 * never completed left out (counted in the plan's workload for the
 * report), and idle gaps cut (max-idle). */
static int prepare_traces(struct runner *rn)
{
	struct suite_plan *p = rn->o->plan;
	int drop = suite_plan_uses_original_qd(p), rc = 0;
	for (size_t w = 0; w < p->nw && rc >= 0; w++) {
		const char *in = p->w[w].trace;
		char *out = rn->traces[w];
		size_t len = sizeof(rn->traces[w]);
		snprintf(out, len, "%s", in);
		if (drop || p->max_idle_s > 0) {
			struct reel_rewrite how = {
			    .completed_only = drop,
			    .max_idle_ns = p->max_idle_s > 0 ? (int64_t)(p->max_idle_s * 1e9) : -1,
			    .copies = 1,
			    .detail = "rewritten by ioreel suite (completed I/Os, max-idle cut)"};
			struct reel_rewrite_stats st;
			snprintf(out, len, "%s/%s.prepared.reel", rn->work, p->w[w].name);
			rc = reel_trace_rewrite(in, out, &how, &st, rn->errmsg, rn->errlen);
			p->w[w].dropped = st.dropped;
		}
	}
	return rc;
}

/* Remove the work directory and what the suite put in it. */
static void remove_work(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 5 && !strcmp(e->d_name + n - 5, ".reel")) {
			char path[PATH_MAX + 300];
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static void host_info(struct suite_results *res)
{
	struct utsname u;
	if (uname(&u) == 0) {
		snprintf(res->host, sizeof(res->host), "%s", u.nodename);
		snprintf(res->kernel, sizeof(res->kernel), "%.60s %.60s", u.release, u.machine);
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	res->start_unix_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int run_states(struct runner *rn)
{
	const struct suite_opts *o = rn->o;
	const struct suite_plan *p = o->plan;
	size_t c = 0;
	for (size_t s = 0; s < p->nstates; s++) {
		int state = p->states[s];
		for (size_t di = 0; di < o->ndrives; di++) {
			int rc = set_state(rn, di, state);
			if (rc < 0)
				return rc;
		}
		for (; c < rn->res->ncells && rn->res->cells[c].state == state; c++) {
			int rc = run_cell(rn, c);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

int suite_run(const struct suite_opts *o, struct suite_results *res, char *errmsg, size_t errlen)
{
	const struct suite_plan *p = o->plan;
	memset(res, 0, sizeof(*res));
	if (o->ndrives > SUITE_MAX_DRIVES)
		return reel_errf(errmsg, errlen, REEL_E_ARG, "at most %d drives", SUITE_MAX_DRIVES);
	struct runner *rn = calloc(1, sizeof(*rn));
	if (!rn || build_cells(p, res) < 0) {
		free(rn);
		return reel_errf(errmsg, errlen, REEL_E_NOMEM, "out of memory");
	}
	rn->o = o;
	rn->res = res;
	rn->errmsg = errmsg;
	rn->errlen = errlen;
	rn->nruns = res->ncells * o->ndrives * p->repeats;
	host_info(res);
	res->runs = calloc(rn->nruns, sizeof(*res->runs));
	res->nseries = p->nw * p->nstates * o->ndrives;
	res->series = calloc(res->nseries ? res->nseries : 1, sizeof(*res->series));
	snprintf(rn->work, sizeof(rn->work), "%s/work", o->outdir);
	int rc = 0;
	if (!res->runs || !res->series)
		rc = reel_errf(errmsg, errlen, REEL_E_NOMEM, "out of memory");
	else if (mkdir(rn->work, 0755) < 0 && errno != EEXIST)
		rc = reel_errf(errmsg, errlen, -errno, "%s: %s", rn->work, strerror(errno));
	if (!rc)
		rc = prepare_traces(rn);
	if (!rc)
		rc = run_states(rn);
	if (rc == REEL_E_INTERRUPTED) {
		res->interrupted = 1;
		rc = 0;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	res->end_unix_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	remove_work(rn->work);
	free(rn);
	return rc;
}

void suite_results_free(struct suite_results *res)
{
	if (!res)
		return;
	for (size_t i = 0; res->series && i < res->nseries; i++) {
		free(res->series[i].t);
		free(res->series[i].mbps);
		free(res->series[i].p99_us);
	}
	free(res->series);
	free(res->cells);
	free(res->runs);
	res->cells = NULL;
	res->runs = NULL;
	res->series = NULL;
}
