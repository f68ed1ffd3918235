/*
 * replay/schedule.c - replay_run() and the scheduler: the issuing loop.
 *
 * One thread.  setup.c has measured the trace in a first pass and made the
 * targets, the engine and the buffers; here the trace is read a second
 * time, streaming, through a bounded window.  Each I/O has an absolute
 * scheduled time from the replay start (never a delay since the previous
 * I/O, which drifts); the loop waits for completions or sleeps until
 * shortly before that time, then spins (for twice the recent wake-up
 * lateness, 5 to 50 us: it adapts).  A write's buffer is filled before the
 * wait, so data generation does not delay the issue.  Results are written
 * in issue order through a ring that holds I/Os until they complete:
 * memory is bounded by the window, the ring and the queue depth, never by
 * the trace length.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>

#include "replay/run_internal.h"

/* histograms take ns >= 0: an early issue counts as 0 */
static inline uint64_t ns_nonneg(int64_t v) { return v < 0 ? 0 : (uint64_t)v; }

/* ---- the second pass: reading into the window ------------------------- */
static struct pend *win_at(struct run *r, unsigned i) { return &r->win[(r->whead + i) % r->wcap]; }

static uint64_t align_down(uint64_t v, uint64_t a) { return v / a * a; }

/* Map a record onto its target (fit, align, read-only).  0 skip, 1 keep. */
static int transform(struct run *r, const struct reel_rec *x, struct pend *p)
{
	const struct replay_opts *o = r->o;
	int t = r->devmap[x->dev];
	if (t < 0)
		return 0;
	struct target *tg = &r->tg[t];
	p->tgt = (uint16_t)t;
	p->op = x->op;
	p->flags = x->flags;
	p->off = x->offset;
	p->len = x->length;
	if (o->read_only) {
		if (p->op == REEL_OP_WRITE)
			p->op = REEL_OP_READ;
		else if (p->op == REEL_OP_DISCARD || p->op == REEL_OP_WRITE_ZEROES)
			return 0;
	}
	if (p->op == REEL_OP_FLUSH) {
		p->off = 0;
		p->len = 0;
		return 1;
	}
	if (!is_data_op(p->op) || !p->len)
		return 0;
	uint64_t a = o->buffered ? 1 : tg->lbs;
	if (o->align && a > 1) {
		uint64_t end = (p->off + p->len + a - 1) / a * a;
		p->off = align_down(p->off, a);
		p->len = (uint32_t)(end - p->off);
	}
	if (p->off + p->len > tg->size) {
		if (p->len > tg->size)
			return 0;
		if (o->fit == REPLAY_FIT_SCALE && tg->need)
			p->off = align_down(
			    (uint64_t)((double)p->off * ((double)tg->size / (double)tg->need)), a);
		else
			p->off = align_down(p->off % tg->size, a);
		if (p->off + p->len > tg->size)
			p->off = align_down(tg->size - p->len, a);
	} else if (o->fit == REPLAY_FIT_SCALE && tg->need > tg->size) {
		p->off = align_down(
		    (uint64_t)((double)p->off * ((double)tg->size / (double)tg->need)), a);
		if (p->off + p->len > tg->size)
			p->off = align_down(tg->size - p->len, a);
	}
	return 1;
}

/* --max-idle: the trace time cut before x, as the Storage Bench does: a
 * stretch longer than max_idle_ns with nothing arriving is shortened to
 * max_idle_ns (records come in trace order; issue times nearly so). */
static int64_t idle_cut(struct run *r, const struct reel_rec *x)
{
	int64_t t = point_of(r, x);
	if (r->o->max_idle_ns <= 0)
		return 0;
	if (!r->idle_prev)
		r->idle_prev = r->first_t;
	if (t - r->idle_prev > r->o->max_idle_ns)
		r->idle_cut += t - r->idle_prev - r->o->max_idle_ns;
	if (t > r->idle_prev)
		r->idle_prev = t;
	return r->idle_cut;
}

static int fill_window(struct run *r)
{
	while (!r->eof && r->wn < r->wcap) {
		if (r->chunk_i >= r->chunk_n) {
			long n = reel_read_chunk(r->rd, &r->chunk);
			if (n < 0)
				return reel_errf(r->err, r->errlen, (int)n, "%s",
						 reel_reader_errmsg(r->rd));
			if (n == 0) {
				r->eof = 1;
				break;
			}
			r->chunk_n = n;
			r->chunk_i = 0;
		}
		const struct reel_rec *x = &r->chunk[r->chunk_i++];
		struct pend p;
		unsigned inf = 1;
		if (r->o->qd_mode != REPLAY_QD_FIXED && orig_inflight(r, x, &inf) < 0)
			return reel_errf(r->err, r->errlen, REEL_E_NOMEM, "out of memory");
		if (!transform(r, x, &p)) {
			r->res->skipped++;
			continue;
		}
		p.limit = inf;
		p.sched =
		    (int64_t)((double)(point_of(r, x) - r->first_t - idle_cut(r, x)) / r->o->speed);
		p.orig_q = queue_of(x);
		p.orig_d = (x->has & REEL_HAS_QUEUE) && (x->has & REEL_HAS_ISSUE) ? x->issue_ns
										  : INT64_MIN;
		int64_t oc = (x->has & REEL_HAS_COMPLETE) ? x->complete_ns : INT64_MAX;
		unsigned pos = r->wn;
		/* order none + issue point: keep the window sorted by time
		 * (the trace is in queue order; issue times are nearly so) */
		if (r->o->order == REPLAY_ORDER_NONE && r->o->timing == REPLAY_TIMING_ORIGINAL)
			while (pos > (r->prepared >= 0 ? 1u : 0u) &&
			       win_at(r, pos - 1)->sched > p.sched) {
				*win_at(r, pos) = *win_at(r, pos - 1);
				r->dep_c[(r->whead + pos) % r->wcap] =
				    r->dep_c[(r->whead + pos - 1) % r->wcap];
				pos--;
			}
		*win_at(r, pos) = p;
		r->dep_c[(r->whead + pos) % r->wcap] = oc;
		r->wn++;
	}
	return 0;
}

/* ---- completions ------------------------------------------------------- */
static void inflight_change(struct run *r, int64_t now, int d)
{
	r->inflight_area += (double)r->inflight * (double)(now - r->inflight_t);
	r->inflight_t = now;
	r->inflight = (unsigned)((int)r->inflight + d);
	if (r->inflight > r->res->inflight_max)
		r->res->inflight_max = r->inflight;
}

static int flush_ring(struct run *r)
{
	while (r->rhead < r->rnext && r->ring[r->rhead % RING].done) {
		struct rent *e = &r->ring[r->rhead % RING];
		int rc = reel_write(r->w, &e->rec);
		if (rc < 0)
			return reel_errf(r->err, r->errlen, rc, "%s: %s",
					 r->o->result ? r->o->result : "result",
					 reel_writer_errmsg(r->w));
		r->rhead++;
	}
	return result_tick(r);
}

static void complete_one(struct run *r, struct replay_io *io, int64_t now_abs)
{
	struct slot *s = &r->slots[io->slot];
	int64_t done = io->done_ns ? io->done_ns : now_abs;
	struct rent *e = &r->ring[s->rseq % RING];
	e->rec.complete_ns = done - r->t0;
	e->rec.error = io->res < 0 ? (int32_t)io->res : 0;
	e->done = 1;
	struct replay_op_stats *os = &r->res->op[e->rec.op < REEL_OP__COUNT ? e->rec.op : 0];
	os->count++;
	reel_hist_add(&os->lat, ns_nonneg(done - s->issue_abs));
	r->res->ios++;
	if (io->res < 0) {
		os->errors++;
		r->res->errors++;
		if (!r->res->first_error)
			r->res->first_error = (int)io->res;
	} else {
		os->bytes += io->length;
		r->done_bytes += io->length;
	}
	r->done_ios++;
	if (done - r->t0 > r->last_complete)
		r->last_complete = done - r->t0;
	/* the achieved ratio, sampled on what was written: 1 write in 16 */
	if (io->op == REEL_OP_WRITE && io->buf && io->res >= 0 && (r->writes++ % 16) == 0) {
		double rt = replay_lz4_ratio(io->buf, io->length);
		if (rt > 0) {
			r->sample_in += io->length;
			r->sample_out += io->length / rt;
		}
	}
	inflight_change(r, done - r->t0, -1);
	r->freel[r->nfree++] = io->slot;
}

static int commit(struct run *r)
{
	r->batch = 0;
	if (!r->ops->commit)
		return 0;
	int rc = r->ops->commit(r->eng);
	if (rc < 0)
		return reel_errf(r->err, r->errlen, rc, "%s: submitting I/O: %s", r->ops->name,
				 strerror(-rc));
	return 0;
}

static int reap(struct run *r, int64_t timeout)
{
	struct replay_io *done[256];
	if (timeout != 0 && r->batch) {
		int rc = commit(r);
		if (rc < 0)
			return rc;
	}
	int n = r->ops->reap(r->eng, done, 256, timeout);
	if (n == -EINTR || n == -ETIME || n == -EAGAIN)
		return 0;
	if (n < 0)
		return reel_errf(r->err, r->errlen, n, "%s: waiting for completions: %s",
				 r->ops->name, strerror(-n));
	if (n > 0) {
		int64_t now = reel_now_ns();
		for (int i = 0; i < n; i++)
			complete_one(r, done[i], now);
		int rc = flush_ring(r);
		return rc < 0 ? rc : n;
	}
	return 0;
}

/* ---- issuing ----------------------------------------------------------- */
static int prepare(struct run *r)
{
	struct pend *p = win_at(r, 0);
	uint32_t si = r->freel[--r->nfree];
	struct slot *s = &r->slots[si];
	struct target *t = &r->tg[p->tgt];
	s->io.fd = t->fd;
	s->io.is_blk = t->is_blk;
	s->io.op = p->op;
	s->io.offset = p->off;
	s->io.length = p->len;
	s->io.slot = si;
	s->io.target = p->tgt;
	s->io.res = 0;
	s->io.done_ns = 0;
	int no_io = (r->ops->flags & REPLAY_ENG_NO_IO) != 0;
	int needbuf = (p->op == REEL_OP_READ || p->op == REEL_OP_WRITE) && !no_io;
	if (needbuf && s->cap < p->len) {
		/* longer than the arena's slices (ARENA_MAX): a buffer of its own */
		size_t cap;
		void *nb = iobuf_alloc(p->len, &cap);
		if (!nb)
			return reel_errf(r->err, r->errlen, REEL_E_NOMEM,
					 "out of memory for a %u-byte I/O buffer", p->len);
		if (s->fixed < 0)
			iobuf_free(s->io.buf, s->cap);
		s->io.buf = nb;
		s->cap = cap;
		s->fixed = -1;
	}
	s->io.fixed = (int16_t)(r->registered && s->fixed >= 0 ? s->fixed : -1);
	if (!needbuf && no_io)
		s->io.buf = NULL;
	if (needbuf && p->op == REEL_OP_WRITE)
		replay_datagen_fill(r->gen, s->io.buf, p->len, p->off, p->tgt, r->rnext);
	r->prepared = (int)si;
	return 0;
}

static unsigned limit_of(struct run *r, const struct pend *p);

#define HOLD_MAX 16 /* I/Os held back for one submission, at most */

/* End the stretch behind schedule at (s, a): scheduled and actual time. */
static void behind_close(struct run *r, int64_t s, int64_t a)
{
	if (!r->behind_n)
		return;
	r->res->behind_ios += r->behind_n;
	r->res->behind_sched_ns += s - r->behind_s0;
	r->res->behind_actual_ns += a - r->behind_a0;
	r->behind_n = 0;
}

/* Original timing: an I/O issued at a (relative) for s.  Stretches of
 * I/Os more than the slip limit late are summed: the rate the trace asked
 * there against the rate the replay reached. */
static void behind_track(struct run *r, int64_t s, int64_t a)
{
	if (a - s <= REPLAY_SLIP_LIMIT_NS) {
		behind_close(r, s, a);
		return;
	}
	if (!r->behind_n) {
		r->behind_s0 = s;
		r->behind_a0 = a;
	}
	r->behind_n++;
	r->behind_s1 = s;
	r->behind_a1 = a;
}

/* hold: how many I/Os the engine may hold back for one submission with
 * this one, when the next follows at once (afap, its group: group_next, or
 * due already: next_overdue); 0: submit now */
static int issue(struct run *r, int64_t sched_rel, unsigned hold)
{
	struct pend *p = win_at(r, 0);
	struct slot *s = &r->slots[r->prepared];
	uint64_t rseq = r->rnext++;
	struct rent *e = &r->ring[rseq % RING];
	memset(e, 0, sizeof(*e));
	e->rec.op = p->op;
	e->rec.flags = p->flags;
	e->rec.offset = p->off;
	e->rec.length = p->len;
	e->rec.dev = p->tgt;
	e->rec.has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE | REEL_HAS_DEV |
		     REEL_HAS_ERROR | (p->flags ? REEL_HAS_FLAGS : 0);
	s->rseq = rseq;
	s->orig_c = r->dep_c[r->whead];
	int64_t now = reel_now_ns();
	s->issue_abs = now;
	e->rec.queue_ns = sched_rel;
	e->rec.issue_ns = now - r->t0;
	if (r->o->timing == REPLAY_TIMING_ORIGINAL) {
		reel_hist_add(&r->res->issue_err, ns_nonneg(now - r->t0 - sched_rel));
		behind_track(r, sched_rel, now - r->t0);
	}
	inflight_change(r, now - r->t0, +1);
	if (r->o->order == REPLAY_ORDER_DEPENDENCY && s->orig_c != INT64_MAX &&
	    time_heap_push(&r->dep, (struct time_ent){s->orig_c, rseq}) < 0)
		return reel_errf(r->err, r->errlen, REEL_E_NOMEM, "out of memory");
	r->whead = (r->whead + 1) % r->wcap;
	r->wn--;
	r->prepared = -1;
	int more = r->batch < hold && r->wn > 0 && r->nfree > 0 &&
		   r->inflight < limit_of(r, win_at(r, 0)) &&
		   r->o->order != REPLAY_ORDER_DEPENDENCY && !(r->o->stop && *r->o->stop);
	r->batch = more ? r->batch + 1 : 0;
	int rc = r->ops->submit(r->eng, &s->io, more);
	if (rc < 0) {
		s->io.res = rc;
		s->io.done_ns = reel_now_ns();
		complete_one(r, &s->io, s->io.done_ns);
		return flush_ring(r);
	}
	return 0;
}

/* Does the window head wait for an I/O that completed, in the trace,
 * before it was queued and has not completed here yet? */
static int dep_blocked(struct run *r)
{
	while (r->dep.n) {
		uint64_t rs = time_heap_top(&r->dep)->v;
		if (rs < r->rhead || r->ring[rs % RING].done)
			time_heap_pop(&r->dep);
		else
			break;
	}
	return r->dep.n && time_heap_top(&r->dep)->k < win_at(r, 0)->orig_q;
}

static unsigned limit_of(struct run *r, const struct pend *p)
{
	unsigned l;
	switch (r->o->qd_mode) {
	case REPLAY_QD_ORIGINAL:
		l = p->limit;
		break;
	case REPLAY_QD_SCALED:
		l = (unsigned)ceil(r->o->qd_scale * p->limit);
		break;
	default:
		l = r->o->qd;
	}
	if (l < 1)
		l = 1;
	return l > r->depth ? r->depth : l;
}

static void sleep_until(int64_t abs_ns)
{
	int64_t now = reel_now_ns();
	if (abs_ns <= now)
		return;
	/* reel_now_ns is CLOCK_MONOTONIC: sleep on the same clock */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int64_t t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + (abs_ns - now);
	ts.tv_sec = t / 1000000000;
	ts.tv_nsec = t % 1000000000;
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

#define PROGRESS_NS 250000000

/* Progress for o->progress, every 250 ms at most: done, the schedule's
 * length (original timing) and how late its next I/O is. */
static void progress(struct run *r, int64_t now, int64_t *next)
{
	if (!r->o->progress || now < *next)
		return;
	*next = now + PROGRESS_NS;
	int64_t el = now - r->t0;
	struct replay_progress pr = {r->done_ios, r->total, r->done_bytes, el, -1, -1, 0};
	if (r->o->timing == REPLAY_TIMING_ORIGINAL) {
		pr.expected_ns =
		    (int64_t)((double)(r->res->trace_duration_ns - r->res->idle_cut_ns) /
			      r->o->speed);
		if (r->wn && el > win_at(r, 0)->sched)
			pr.behind_ns = el - win_at(r, 0)->sched;
		pr.eta_ns = pr.expected_ns - el + pr.behind_ns;
		if (pr.eta_ns < 0)
			pr.eta_ns = 0;
	} else if (r->done_ios) {
		pr.eta_ns =
		    (int64_t)((double)el * (double)(r->total - r->done_ios) / (double)r->done_ios);
	}
	r->o->progress(&pr, r->o->progress_arg);
}

static int stopped(const struct run *r) { return r->o->stop && *r->o->stop; }

/* Woken by the timer `late` ns after the target: spin twice the recent
 * lateness (5 us to 50 us) before the next issue. */
static void learn_lateness(struct run *r, int64_t late)
{
	if (late > 0 && late < 100000000) {
		r->late = late > r->late ? late : r->late - (r->late >> 5);
		r->spin = 2 * r->late + 5000;
		if (r->spin > SPIN_MAX_NS)
			r->spin = SPIN_MAX_NS;
	}
}

/* Original timing: reap or sleep until shortly before p is due (or until
 * wake_by, when not 0: the next progress report), then spin to its time.
 * Returns 1 when p is due now, 0 to look again, or < 0. */
static int wait_due(struct run *r, const struct pend *p, int64_t wake_by)
{
	int64_t due = r->t0 + p->sched;
	int64_t now = reel_now_ns();
	int rc;
	if (due - now > r->spin) {
		int64_t target = due - r->spin;
		if (wake_by && wake_by < target)
			target = wake_by > now ? wake_by : now;
		if (r->inflight) {
			if ((rc = reap(r, target - now)) < 0)
				return rc;
		} else {
			if ((rc = commit(r)) < 0)
				return rc;
			sleep_until(target);
			rc = 0;
		}
		if (rc == 0 && !stopped(r)) /* woken by the timer, not a completion */
			learn_lateness(r, reel_now_ns() - target);
		return 0;
	}
	while (reel_now_ns() < due) {
		if (r->ops->ready && r->ops->ready(r->eng) && (rc = reap(r, 0)) < 0)
			return rc;
		if (stopped(r))
			break;
	}
	return stopped(r) ? 0 : 1;
}

/* May the window head go now: queue depth, result ring, dependency?
 * Returns 1 if so, 0 after waiting for a completion, or < 0. */
static int head_may_go(struct run *r, const struct pend *p)
{
	if (r->inflight < limit_of(r, p) && r->rnext - r->rhead < RING && r->nfree &&
	    !(r->o->order == REPLAY_ORDER_DEPENDENCY && dep_blocked(r)))
		return 1;
	if (!r->inflight)
		return reel_errf(r->err, r->errlen, REEL_E_RANGE,
				 "internal: stalled with nothing in flight");
	int rc = reap(r, 200000000);
	return rc < 0 ? rc : 0;
}

/* Original timing: is the I/O after the window head due already?  Then
 * the two go in one submission (HOLD_OVERDUE; issue() ends it at the cap
 * or at an I/O not yet due): a replay behind schedule catches up with
 * half the system calls.  Not more than two: the kernel plugs a
 * submission of three or more (io_submit's AIO_PLUG_THRESHOLD, io_uring's
 * likewise), so each I/O in it reaches the device only once the last is
 * queued: 3.0-6.6 us from queue to issue at iodepth 8, 5.6-13.2 at 32,
 * on a loop device where the original (fio, one io_submit per I/O) took
 * 0.4-0.9, time counted in flight (tests/cli/replay_qd_original.sh; two
 * to a submission: 0.4-1.0).  A burst
 * the original plugged goes as one (group_next).  No I/O goes earlier
 * than its time. */
#define HOLD_OVERDUE 1
static int next_overdue(struct run *r)
{
	return r->wn > 1 && r->t0 + win_at(r, 1)->sched <= reel_now_ns();
}

/* A run of I/Os each queued within GROUP_NS of the one before in the trace
 * (one plug, one submit_bio loop: the original's gaps under 2 us, 1.0-1.8 us
 * in traces/chromium.reel, in runs of 2 to 19) goes to the engine as one
 * io_submit / io_uring_submit of up to 16, at the first one's time.  One
 * submission each would spread them a system call apart (2-3 us here);
 * within one call the kernel queues them about 1 us apart, close to the
 * original's spacing, so the later ones reach the device only slightly
 * early (issue() records when each was handed to the engine).
 * Where the trace has queue and issue times, only a run the original held
 * back together is one: an I/O still not issued to the device when the
 * next one was queued (a plug).  Queued within 2 us but each issued at
 * once (fio at iodepth 8: one io_submit per I/O, 1-2 us apart, each at
 * the device 0.6 us after its queue time), they go one by one: one
 * submission would hold the first back in the kernel's plug until the
 * last is queued, time the original did not spend. */
#define GROUP_NS 2000

/* Original timing, p at the head and due: does the next I/O join its run? */
static int group_next(struct run *r, const struct pend *p)
{
	if (r->wn < 2 || win_at(r, 1)->sched - p->sched > GROUP_NS)
		return 0;
	return p->orig_d == INT64_MIN || win_at(r, 1)->orig_d == INT64_MIN ||
	       p->orig_d >= win_at(r, 1)->orig_q;
}

/* Original timing, p at the head and due: how many I/Os may go with it in
 * one submission (issue()'s hold). */
static unsigned hold_next(struct run *r, const struct pend *p)
{
	if (group_next(r, p))
		return HOLD_MAX;
	return next_overdue(r) ? HOLD_OVERDUE : 0;
}

static int replay_loop(struct run *r)
{
	const struct replay_opts *o = r->o;
	int stopping = 0;
	int64_t next_progress = r->t0 + PROGRESS_NS;
	uint64_t iter = 0;
	for (;;) {
		int rc = fill_window(r);
		if (rc < 0)
			return rc;
		if (r->ops->ready == NULL || r->ops->ready(r->eng)) {
			if ((rc = reap(r, 0)) < 0)
				return rc;
		}
		if ((++iter & 63) == 0 || r->wn == 0)
			progress(r, reel_now_ns(), &next_progress);
		if (stopped(r) && !stopping) {
			stopping = 1;
			r->res->interrupted = 1;
		}
		if (stopping || (r->wn == 0 && r->eof)) {
			if (!r->inflight)
				break;
			if ((rc = reap(r, stopping ? 100000000 : -1)) < 0)
				return rc;
			continue;
		}
		struct pend *p = win_at(r, 0);
		if (r->prepared < 0) {
			if ((rc = head_may_go(r, p)) <= 0) {
				if (rc < 0)
					return rc;
				/* a slow target: a wait (at most 200 ms) each time */
				if ((iter & 7) == 0)
					progress(r, reel_now_ns(), &next_progress);
				continue;
			}
			if ((rc = prepare(r)) < 0)
				return rc;
		}
		if (o->timing == REPLAY_TIMING_AFAP) {
			if ((rc = issue(r, reel_now_ns() - r->t0, HOLD_MAX)) < 0)
				return rc;
			continue;
		}
		/* held back with the one before: its group goes now */
		if (!r->batch && (rc = wait_due(r, p, o->progress ? next_progress : 0)) < 0)
			return rc;
		if (!r->batch && !rc) /* waited: time to report? */
			progress(r, reel_now_ns(), &next_progress);
		if ((r->batch || rc) && (rc = issue(r, p->sched, hold_next(r, p))) < 0)
			return rc;
	}
	return flush_ring(r);
}

/* ---- around the loop --------------------------------------------------- */
/*
 * Original timing is the point of the replay: ask for a real-time priority
 * when allowed (root), so a busy machine does not delay the wake-ups.  The
 * loop sleeps between I/Os and spins at most SPIN_MAX_NS before each, and
 * the kernel's RT throttling still applies.  Returns 1 when granted (the
 * old policy is saved in *old_policy, *old_sp).
 */
static int realtime_enter(struct run *r, int *old_policy, struct sched_param *old_sp)
{
	*old_policy = sched_getscheduler(0);
	sched_getparam(0, old_sp);
	/* above ~16k IOPS on average the loop never sleeps: a SCHED_FIFO task
	 * that never sleeps gets throttled by the kernel (50 ms per second) */
	double gap = (double)r->res->trace_duration_ns / r->o->speed / (double)r->total;
	if (r->o->timing == REPLAY_TIMING_ORIGINAL && !r->o->no_rt && gap >= 60000) {
		struct sched_param sp = {.sched_priority = 10};
		return sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
	}
	return 0;
}

/* --cpu: run on that CPU only, from before time zero (the caller's mask
 * is saved in *old and put back by pin_leave).  0, or < 0 said in r->err. */
static int pin_enter(struct run *r, cpu_set_t *old)
{
	if (!r->o->pin_cpu)
		return 0;
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(*old), old) < 0 || r->o->cpu < 0 ||
	    r->o->cpu >= CPU_SETSIZE)
		return reel_errf(r->err, r->errlen, REEL_E_ARG, "--cpu %d: cannot pin", r->o->cpu);
	CPU_ZERO(&set);
	CPU_SET(r->o->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return reel_errf(r->err, r->errlen, -errno, "--cpu %d: %s", r->o->cpu,
				 strerror(errno));
	return 1;
}

/* Whatever happened, wait for what is in flight so buffers are not freed
 * under the kernel. */
static void drain(struct run *r)
{
	if (r->ops->commit)
		r->ops->commit(r->eng);
	while (r->inflight) {
		struct replay_io *done[256];
		int n = r->ops->reap(r->eng, done, 256, 1000000000);
		if (n < 0 && n != -EINTR && n != -ETIME)
			break;
		for (int i = 0; i < n; i++)
			complete_one(r, done[i], reel_now_ns());
	}
}

/* Duration, mean depth and achieved ratio into the result. */
static void finish_stats(struct run *r)
{
	struct replay_result *res = r->res;
	behind_close(r, r->behind_s1, r->behind_a1);
	res->duration_ns = r->last_complete;
	int64_t end = reel_now_ns() - r->t0;
	if (end > 0) {
		inflight_change(r, end, 0);
		res->inflight_mean = r->inflight_area / (double)end;
	}
	if (r->sample_out > 0) {
		res->ratio_achieved = r->sample_in / r->sample_out;
		res->ratio_sampled_bytes = (uint64_t)r->sample_in;
	}
}

/* ---- time zero ----------------------------------------------------------
 * Everything the first I/Os need is done before time zero: the targets are
 * open and the buffers made (setup.c), the engine has registered them, the
 * first window is read and the first I/O prepared, memory is locked and
 * touched, the thread is real-time.  Only then does the replay wait for
 * its start (o->start_at_mono_ns, or what o->ready_cb chose) and take it
 * as time zero: the first I/O leaves on time, with no catch-up burst. */

/* Hand the engine the targets and the buffer arena to register. */
static void engine_attach(struct run *r)
{
	if (!r->ops->attach)
		return;
	int fds[REPLAY_MAX_TARGETS];
	for (unsigned t = 0; t < r->ntg; t++)
		fds[t] = r->tg[t].fd;
	struct iovec *iov = r->arena ? calloc(r->depth, sizeof(*iov)) : NULL;
	for (unsigned i = 0; iov && i < r->depth; i++)
		iov[i] = (struct iovec){r->slots[i].io.buf, r->slots[i].cap};
	r->registered = r->ops->attach(r->eng, fds, r->ntg, iov, iov ? r->depth : 0) == 0 && iov;
	free(iov);
}

/* No page fault inside the replay: lock what is mapped and what will be
 * (MCL_FUTURE), and touch the stack the loop will use.  Best effort. */
static int lock_memory(void)
{
	volatile char stack[64 << 10];
	for (size_t i = 0; i < sizeof(stack); i += 4096)
		stack[i] = 0;
	return mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
}

/* Wait for the start, asleep then spinning, as for an I/O. */
static void wait_start(struct run *r, int64_t start)
{
	if (start - reel_now_ns() > SPIN_MAX_NS)
		sleep_until(start - SPIN_MAX_NS);
	while (reel_now_ns() < start && !stopped(r))
		;
}

/* One read of each target, 4 KiB at offset 0, through the engine and a
 * slot's buffer, waited for, before time zero: the first I/O of a process
 * takes the kernel's cold paths (its first direct I/O, the engine's first
 * submission and completion), which left the trace's first I/O 69-158 us
 * later than the rest (3 runs, load 12, 2 cores, libaio, a loop device
 * over /dev/shm; 14-25 us with it).  The safety probe reads the same
 * block; a capture of the target sees this read just before the first
 * I/O, as it sees the probe's.  Not with --buffered (the page cache would
 * keep the block).  Best effort: an error is ignored. */
static void warm_up(struct run *r)
{
	if ((r->ops->flags & REPLAY_ENG_NO_IO) || r->o->buffered || !r->nfree)
		return;
	uint32_t si = r->freel[r->nfree - 1];
	struct slot *s = &r->slots[si];
	if (!s->io.buf || s->cap < 4096)
		return;
	void *buf = s->io.buf;
	for (unsigned t = 0; t < r->ntg; t++) {
		if (r->tg[t].lbs > 4096)
			continue;
		s->io = (struct replay_io){
		    .fd = r->tg[t].fd,
		    .is_blk = r->tg[t].is_blk,
		    .op = REEL_OP_READ,
		    .length = 4096,
		    .buf = buf,
		    .slot = si,
		    .target = (uint16_t)t,
		    .fixed = (int16_t)(r->registered && s->fixed >= 0 ? s->fixed : -1)};
		if (r->ops->submit(r->eng, &s->io, 0) < 0 ||
		    (r->ops->commit && r->ops->commit(r->eng) < 0))
			continue;
		struct replay_io *done[1];
		int n;
		do
			n = r->ops->reap(r->eng, done, 1, -1);
		while (n == 0 || n == -EINTR || n == -ETIME || n == -EAGAIN);
	}
}

/* Everything before time zero; sets r->t0.  0 or < 0. */
static int get_ready(struct run *r)
{
	int rc;
	engine_attach(r);
	if ((rc = fill_window(r)) < 0)
		return rc;
	warm_up(r);
	if (r->wn && r->nfree && (rc = prepare(r)) < 0)
		return rc;
	int64_t start = r->o->start_at_mono_ns;
	if (r->o->ready_cb && (rc = r->o->ready_cb(r->o->ready_arg, &start)) < 0)
		return rc;
	int64_t now = reel_now_ns();
	if (start > now)
		wait_start(r, start);
	r->t0 = start > 0 ? start : now;
	r->res->t0_mono_ns = r->t0;
	reel_writer_meta_int(r->w, REEL_META_REPLAY_T0_MONO_NS, r->t0);
	return 0;
}

/* Timed runs whose issue error p99 passed REPLAY_SLIP_LIMIT_NS: the host
 * (wake-ups, other load), not the target, set the pace. */
static void mark_slip(struct run *r)
{
	if (r->o->timing != REPLAY_TIMING_ORIGINAL || !r->res->issue_err.count)
		return;
	uint64_t p99 = reel_hist_quantile(&r->res->issue_err, 0.99);
	r->res->slipped = p99 > REPLAY_SLIP_LIMIT_NS;
	reel_writer_meta_int(r->w, REEL_META_REPLAY_SCHEDULE_SLIPPED, r->res->slipped);
}

int schedule_run(struct run *r)
{
	struct sched_param old_sp;
	int old_policy;
	cpu_set_t old_cpus;
	int pinned = pin_enter(r, &old_cpus);
	if (pinned < 0)
		return pinned;
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	int is_rt = realtime_enter(r, &old_policy, &old_sp);
	r->res->realtime = is_rt;
	reel_writer_meta_int(r->w, REEL_META_REPLAY_REALTIME, is_rt);
	int locked = lock_memory();
	int rc = get_ready(r);
	r->inflight_t = 0;
	if (rc == 0)
		rc = replay_loop(r);
	drain(r);
	if (locked)
		munlockall();
	if (is_rt)
		sched_setscheduler(0, old_policy, &old_sp);
	if (pinned)
		sched_setaffinity(0, sizeof(old_cpus), &old_cpus);
	if (rc == 0)
		rc = flush_ring(r);
	if (r->t0)
		finish_stats(r);
	mark_slip(r);
	return rc;
}

int replay_run(const struct replay_opts *o, struct replay_result *res, char *errmsg, size_t errlen)
{
	struct run *r;
	int rc = run_create(&r, o, res, errmsg, errlen);
	if (rc == 0)
		rc = run_setup(r);
	if (rc == 0)
		rc = result_open(r);
	if (rc == 0)
		rc = result_close(r, schedule_run(r));
	run_destroy(r);
	return rc;
}
