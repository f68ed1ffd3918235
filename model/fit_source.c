/*
 * model/fit_source.c - the trace as model_fit's passes read it: a trace in
 * memory, or a .reel file read chunk by chunk and rewound between passes
 * (so the fit holds one chunk, not the trace); the first pass (counts,
 * time span, clock quantum, devices); the sample budget shared by the
 * distributions fitted in one pass.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/fit_internal.h"

static long src_next_mem(struct fit_src *s, struct fit_cols *c)
{
	const struct model_trace *tr = s->tr;
	if (s->pos >= tr->n)
		return 0;
	size_t a = (size_t)s->pos, k = tr->n - a < FIT_CHUNK ? tr->n - a : FIT_CHUNK;
	c->n = k;
	c->base = a;
	c->t = tr->t + a;
	c->issue = tr->issue && s->ic ? tr->issue + a : NULL;
	c->complete = tr->complete && s->ic ? tr->complete + a : NULL;
	c->off = tr->off + a;
	c->len = tr->len + a;
	c->op = tr->op + a;
	c->dev = tr->dev + a;
	s->pos += k;
	return (long)k;
}

/* ---- a .reel file, read ahead by a second thread ---------------------------- */
/* The decoding (about a third of the fit's time) overlaps the passes: a
 * thread reads batches of columns into a ring of RA_SLOTS slots while the
 * pass works on the one before.  One thread a pass; a rewind stops it.
 * Only when the process may run on two CPUs (fit_spare_core), or
 * IOREEL_FIT_READAHEAD=1 (=0: never); one thread reads one batch at a
 * time, as it needs it. */
/* Slots of a whole chunk (FIT_CHUNK records, 2.5 MiB: the reader's
 * batches of REEL_BLOCK gathered): a pass hands the ring's slots to the
 * reader, a futex wake and a switch each (15-30 us of system time on this
 * VM), so fewer and larger chunks cost less (4 slots of 16 Ki records
 * before: 7k voluntary switches a 10M-I/O fit, 1k; HISTORY.md "Fit, eighth
 * pass").  Four of them: the pass holds one, the second thread's jobs (a
 * chunk or two behind, fit_side_post) the ones before it, the reader
 * fills the rest ("Fit, tenth pass"). */
#define RA_SLOTS 4
#define RA_CAP FIT_CHUNK /* records a slot gathers, from the reader's batches */
/* A thread that waits (the reader for free slots, the pass for filled
 * ones) is woken when RA_WAKE are there, not at the first one. */
#define RA_WAKE 2
struct ra_slot {
	long k;	  /* records; 0 the end; < 0 an error */
	int refs; /* filled and not given back: by the pass, by fit_src_keep */
	size_t cap;
	int carved; /* its columns in fit_ra's big block (not freed one by one) */
	int ic;	    /* issue and complete set */
	int64_t *t, *issue, *complete;
	uint64_t *off;
	uint32_t *len;
	uint8_t *op;
	uint16_t *dev;
};
struct fit_ra {
	struct reel_reader *r;
	pthread_t th;
	int threaded, live; /* read ahead; the pass not at its end (one thread) */
	int want_ic;	    /* the pass reads issue and completion times */
	size_t cap;	    /* records a slot gathers */
	int running, stop, held;
	unsigned passes; /* started (rewinds) */
	pthread_mutex_t mu;
	pthread_cond_t cv;	 /* the reader waits for free slots */
	pthread_cond_t cv_fill;	 /* the pass waits for filled slots */
	int rwait, cwait, ended; /* who waits; the last slot filled (k <= 0) */
	/* slots filled, taken by the pass, given back by all that held them
	 * (ever): tail <= taken <= head; a slot is given back once its refs
	 * are 0 and those before it are given back */
	unsigned head, taken, tail;
	struct ra_slot slot[RA_SLOTS];
	void *big;	       /* the slots' columns in one block (ra_carve) */
	struct reel_cols left; /* a batch that did not fit in the last slot */
	long nleft;	       /* its count, or an error that came after records */
};

static int slot_room(struct ra_slot *s, size_t k)
{
	if (s->cap >= k)
		return 0;
	if (s->carved) /* never (batches are smaller): then arrays of its own */
		memset(s, 0, sizeof(*s));
	if (REEL_RESIZE(s->t, k) || REEL_RESIZE(s->issue, k) || REEL_RESIZE(s->complete, k) ||
	    REEL_RESIZE(s->off, k) || REEL_RESIZE(s->len, k) || REEL_RESIZE(s->op, k) ||
	    REEL_RESIZE(s->dev, k))
		return REEL_E_NOMEM;
	s->cap = k;
	return 0;
}

/* Whether batch RC is as fit_cols holds it: every record with its arrival
 * (queue time) and device, a known op, issue and completion times in all
 * or none (*ic: in all).  Then one thread uses it where it lies. */
static int cols_plain(const struct reel_cols *rc, int *ic)
{
	/* eight bytes at a time (four has words, eight ops): a loop a value
	 * was 1% of the fit's time; an op byte of REEL_OP__COUNT or more sets
	 * its high bit in big (REEL_OP__COUNT < 128) */
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full, hi = ~lo7,
		       up = 0x0101010101010101ull * (128 - REEL_OP__COUNT);
	uint64_t all8 = ~0ull, any8 = 0, big = 0, w;
	size_t n = rc->n, i = 0;
	for (; i + 4 <= n; i += 4) {
		memcpy(&w, rc->has + i, 8);
		all8 &= w;
		any8 |= w;
	}
	for (; i < n; i++) {
		all8 &= ~0xffffull | rc->has[i];
		any8 |= rc->has[i];
	}
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, rc->op + i, 8);
		big |= (((w & lo7) + up) | w) & hi;
	}
	for (; i < n; i++)
		big |= rc->op[i] >= REEL_OP__COUNT;
	unsigned all = (unsigned)(all8 & all8 >> 16 & all8 >> 32 & all8 >> 48) & 0xffff,
		 any = (unsigned)(any8 | any8 >> 16 | any8 >> 32 | any8 >> 48) & 0xffff;
	const unsigned need = REEL_HAS_QUEUE | REEL_HAS_DEV,
		       ic2 = REEL_HAS_ISSUE | REEL_HAS_COMPLETE;
	*ic = (all & ic2) == ic2;
	return (all & need) == need && ((any & ic2) == 0 || *ic) && !big;
}

/* Batch RC after the slot's first A records, as model_trace_push would hold
 * them: the arrival (queue, else issue, else completion), issue (else
 * queue) and completion or -1, unknown ops as reads, dev 0 where absent;
 * without IC, no issue and completion times (the pass does not read
 * them: two fifths of the bytes not copied). */
static void slot_add(struct ra_slot *s, const struct reel_cols *rc, int ic_wanted)
{
	size_t a = (size_t)s->k, k = rc->n;
	int plain_ic;
	if (cols_plain(rc, &plain_ic) && (plain_ic &= ic_wanted, a == 0 || plain_ic == s->ic)) {
		/* as the loops below would hold it: copied column by column */
		memcpy(s->t + a, rc->queue_ns, k * sizeof(*s->t));
		memcpy(s->op + a, rc->op, k * sizeof(*s->op));
		memcpy(s->dev + a, rc->dev, k * sizeof(*s->dev));
		memcpy(s->off + a, rc->offset, k * sizeof(*s->off));
		memcpy(s->len + a, rc->length, k * sizeof(*s->len));
		if (plain_ic) {
			memcpy(s->issue + a, rc->issue_ns, k * sizeof(*s->issue));
			memcpy(s->complete + a, rc->complete_ns, k * sizeof(*s->complete));
		}
		s->ic = plain_ic;
		s->k += (long)k;
		return;
	}
	unsigned ic = 0;
	for (size_t i = 0; i < k; i++) {
		unsigned h = rc->has[i];
		s->t[a + i] = h & REEL_HAS_QUEUE   ? rc->queue_ns[i]
			      : h & REEL_HAS_ISSUE ? rc->issue_ns[i]
						   : rc->complete_ns[i];
		s->op[a + i] = rc->op[i] < REEL_OP__COUNT ? rc->op[i] : REEL_OP_READ;
		s->dev[a + i] = h & REEL_HAS_DEV ? rc->dev[i] : 0;
		ic |= h;
	}
	memcpy(s->off + a, rc->offset, k * sizeof(*s->off));
	memcpy(s->len + a, rc->length, k * sizeof(*s->len));
	if ((ic & (REEL_HAS_ISSUE | REEL_HAS_COMPLETE)) && !s->ic && ic_wanted) {
		for (size_t i = 0; i < a; i++)
			s->issue[i] = s->complete[i] = -1;
		s->ic = 1;
	}
	if (s->ic)
		for (size_t i = 0; i < k; i++) {
			unsigned h = rc->has[i];
			s->issue[a + i] = h & REEL_HAS_ISSUE   ? rc->issue_ns[i]
					  : h & REEL_HAS_QUEUE ? rc->queue_ns[i]
							       : -1;
			s->complete[a + i] = h & REEL_HAS_COMPLETE ? rc->complete_ns[i] : -1;
		}
	s->k += (long)k;
}

/* Fill slot S with batches up to ra->cap records; its k < 0 on an error
 * (the reader's message says what), 0 at the end. */
static void slot_fill(struct fit_ra *ra, struct ra_slot *s)
{
	s->k = 0;
	s->ic = 0;
	for (;;) {
		long k = ra->nleft;
		if (k)
			ra->nleft = 0;
		else
			k = reel_read_cols(ra->r, &ra->left);
		if (k <= 0) { /* after records, the end or the error in the next slot */
			if (!s->k)
				s->k = k;
			else if (k < 0)
				ra->nleft = k;
			return;
		}
		if (s->k && (size_t)(s->k + k) > ra->cap) {
			ra->nleft = k; /* the next slot's */
			return;
		}
		if (slot_room(s, (size_t)(s->k + k) > ra->cap ? (size_t)(s->k + k) : ra->cap)) {
			s->k = REEL_E_NOMEM;
			return;
		}
		slot_add(s, &ra->left, ra->want_ic);
	}
}

static void *ra_main(void *arg)
{
	struct fit_ra *ra = arg;
	for (;;) {
		pthread_mutex_lock(&ra->mu);
		if (ra->head - ra->tail == RA_SLOTS && !ra->stop) {
			ra->rwait = 1;
			while (ra->head - ra->tail > RA_SLOTS - RA_WAKE && !ra->stop)
				pthread_cond_wait(&ra->cv, &ra->mu);
			ra->rwait = 0;
		}
		int stop = ra->stop;
		pthread_mutex_unlock(&ra->mu);
		if (stop)
			return NULL;
		struct ra_slot *s = &ra->slot[ra->head % RA_SLOTS];
		if (ra->nleft < 0) { /* an error after the records before it */
			s->k = ra->nleft;
			ra->nleft = 0;
		} else {
			slot_fill(ra, s);
		}
		pthread_mutex_lock(&ra->mu);
		s->refs = 1;
		ra->head++;
		ra->ended = s->k <= 0;
		if (ra->cwait && (ra->head - ra->taken >= RA_WAKE || ra->ended))
			pthread_cond_signal(&ra->cv_fill);
		pthread_mutex_unlock(&ra->mu);
		if (s->k <= 0)
			return NULL;
	}
}

/* The slots' columns at RA_CAP records each in one block (7.3 MiB, a
 * mapping of its own: reel_malloc_big); slot_room's arrays if not. */
#define RA_REC 39 /* bytes a record: t, issue, complete, off, len, dev, op */
static void ra_carve(struct fit_ra *ra)
{
	const size_t n = RA_SLOTS * (size_t)RA_CAP;
	char *p = ra->big = reel_malloc_big(n * RA_REC);
	if (!p)
		return;
	for (int i = 0; i < RA_SLOTS; i++) {
		struct ra_slot *s = &ra->slot[i];
		size_t a = (size_t)i * RA_CAP;
		s->t = (int64_t *)p + a;
		s->issue = (int64_t *)(p + 8 * n) + a;
		s->complete = (int64_t *)(p + 16 * n) + a;
		s->off = (uint64_t *)(p + 24 * n) + a;
		s->len = (uint32_t *)(p + 32 * n) + a;
		s->dev = (uint16_t *)(p + 36 * n) + a;
		s->op = (uint8_t *)(p + 38 * n) + a;
		s->cap = RA_CAP;
		s->carved = 1;
	}
}

/* Stop the pass's thread (it may be waiting for a slot). */
static void ra_stop(struct fit_ra *ra)
{
	if (!ra->running)
		return;
	pthread_mutex_lock(&ra->mu);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->cv);
	pthread_mutex_unlock(&ra->mu);
	pthread_join(ra->th, NULL);
	ra->running = 0;
}

/* Whether to read ahead (and to run a pass's parts on a second thread):
 * two CPUs it may run on, or IOREEL_FIT_READAHEAD.  Not the load: on a
 * busy machine the scheduler shares the cores by thread, so the second
 * thread still shortens the fit (10M I/O at load 8.6-10.6 on 2 cores:
 * 10.8 s wall on two threads against 11.3 on one, for 9% more CPU). */
int fit_spare_core(void)
{
	const char *v = getenv("IOREEL_FIT_READAHEAD");
	if (v && *v)
		return strcmp(v, "0") != 0;
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		return CPU_COUNT(&set) >= 2;
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

/* The read-ahead of S, made at its first use. */
static struct fit_ra *ra_get(struct fit_src *s)
{
	struct fit_ra *ra = s->ra;
	if (ra || !(ra = s->ra = calloc(1, sizeof(*ra))))
		return ra;
	ra->r = s->r;
	ra->threaded = fit_spare_core();
	ra->cap = RA_CAP; /* one thread: a batch at a time (src_next_here) */
	pthread_mutex_init(&ra->mu, NULL);
	pthread_cond_init(&ra->cv, NULL);
	pthread_cond_init(&ra->cv_fill, NULL);
	if (ra->threaded)
		ra_carve(ra);
	return ra;
}

/* From the start of the file: the reader rewound, a thread for the pass. */
static int ra_start(struct fit_src *s)
{
	struct fit_ra *ra = ra_get(s);
	if (!ra)
		return REEL_E_NOMEM;
	ra_stop(ra);
	int e = reel_reader_rewind(s->r);
	if (e)
		return e;
	/* a pass without them: the reader steps over them (pass 1 checked them) */
	reel_reader_cols_ic(s->r, s->ic);
	/* after the first pass: its checksums not computed again */
	reel_reader_reread(s->r, ra->passes++ > 0);
	ra->head = ra->taken = ra->tail = 0;
	ra->stop = ra->held = 0;
	ra->rwait = ra->cwait = ra->ended = 0;
	ra->nleft = 0;
	ra->live = 1;
	ra->want_ic = s->ic;
	if (!ra->threaded)
		return 0;
	if (pthread_create(&ra->th, NULL, ra_main, ra))
		return REEL_E_NOMEM;
	ra->running = 1;
	return 0;
}

/* c's arrays: those of slot sl (its times when it has them) */
static void slot_cols(struct fit_cols *c, const struct ra_slot *sl)
{
	c->t = sl->t;
	c->issue = sl->ic ? sl->issue : NULL;
	c->complete = sl->ic ? sl->complete : NULL;
	c->off = sl->off;
	c->len = sl->len;
	c->op = sl->op;
	c->dev = sl->dev;
}

/* One thread: the next batch, read here (as the reading thread would read
 * it into a slot: a plain batch used in the reader's buffers, another
 * through slot 0); its record count, 0 at the end, or an error. */
static long src_next_here(struct fit_ra *ra, struct fit_cols *c)
{
	if (!ra->live)
		return 0;
	const struct reel_cols *rc = &ra->left;
	long k = reel_read_cols(ra->r, &ra->left);
	int ic = 0;
	ra->live = k > 0;
	if (k <= 0)
		return k;
	if (cols_plain(rc, &ic)) {
		ic &= ra->want_ic;
		c->t = rc->queue_ns;
		c->issue = ic ? rc->issue_ns : NULL;
		c->complete = ic ? rc->complete_ns : NULL;
		c->off = rc->offset;
		c->len = rc->length;
		c->op = rc->op;
		c->dev = rc->dev;
		return k;
	}
	struct ra_slot *sl = &ra->slot[0];
	sl->k = 0;
	sl->ic = 0;
	if (slot_room(sl, (size_t)k))
		return REEL_E_NOMEM;
	slot_add(sl, rc, ra->want_ic);
	slot_cols(c, sl);
	return k;
}

/* One holder of slot SL fewer (ra->mu held): the slots no one holds given
 * back to the reader, in order. */
static void slot_unref(struct fit_ra *ra, struct ra_slot *sl)
{
	sl->refs--;
	while (ra->tail != ra->taken && ra->slot[ra->tail % RA_SLOTS].refs == 0)
		ra->tail++;
	if (ra->rwait && ra->head - ra->tail <= RA_SLOTS - RA_WAKE)
		pthread_cond_signal(&ra->cv);
}

/* The next slot of the reading thread; the previous one given back. */
static struct ra_slot *src_wait(struct fit_ra *ra)
{
	if (!ra->running && !ra->held) { /* after the end (or an error) of the pass */
		ra->slot[0].k = 0;
		return &ra->slot[0];
	}
	pthread_mutex_lock(&ra->mu);
	if (ra->held) { /* the slot of the previous call, given back */
		slot_unref(ra, &ra->slot[(ra->taken - 1) % RA_SLOTS]);
		ra->held = 0;
	}
	if (ra->head == ra->taken) {
		ra->cwait = 1;
		while (ra->head - ra->taken < RA_WAKE && !ra->ended)
			pthread_cond_wait(&ra->cv_fill, &ra->mu);
		ra->cwait = 0;
	}
	struct ra_slot *sl = &ra->slot[ra->taken % RA_SLOTS];
	int end = sl->k <= 0;
	ra->taken += !end; /* under the lock: slot_unref reads it */
	pthread_mutex_unlock(&ra->mu);
	if (end) { /* the thread has ended: the reader is this thread's again */
		pthread_join(ra->th, NULL);
		ra->running = 0;
		return sl;
	}
	ra->held = 1;
	return sl;
}

static long src_next_file(struct fit_src *s, struct fit_cols *c)
{
	struct fit_ra *ra = s->ra;
	if (!ra)
		return 0;
	if (!ra->threaded) {
		long k = src_next_here(ra, c);
		c->n = k > 0 ? (size_t)k : 0;
		c->base = s->pos;
		s->pos += k > 0 ? (uint64_t)k : 0;
		return k;
	}
	struct ra_slot *sl = src_wait(ra);
	long k = sl->k;
	if (k <= 0)
		return k;
	c->n = (size_t)k;
	c->base = s->pos;
	slot_cols(c, sl);
	c->slot = sl;
	s->pos += (uint64_t)k;
	return k;
}

long fit_src_next(struct fit_src *s, struct fit_cols *c)
{
	c->slot = NULL;
	long k = s->tr ? src_next_mem(s, c) : src_next_file(s, c);
	if (s->n && k >= 0 && (k ? s->pos > s->n : s->pos != s->n))
		return REEL_E_CORRUPT;
	return k;
}

int fit_src_keep(struct fit_src *s, const struct fit_cols *c)
{
	if (s->tr)
		return 0;
	if (!c->slot)
		return -1;
	struct fit_ra *ra = s->ra;
	pthread_mutex_lock(&ra->mu);
	((struct ra_slot *)c->slot)->refs++;
	pthread_mutex_unlock(&ra->mu);
	return 1;
}

void fit_src_drop(struct fit_src *s, const struct fit_cols *c)
{
	struct fit_ra *ra = s->ra;
	pthread_mutex_lock(&ra->mu);
	slot_unref(ra, c->slot);
	pthread_mutex_unlock(&ra->mu);
}

int fit_src_rewind(struct fit_src *s, int ic)
{
	s->pos = 0;
	s->ic = ic;
	return s->tr ? 0 : ra_start(s);
}

/* The columns of RA_SLOTS slots. */
static void slots_free(struct ra_slot *slot)
{
	for (int i = 0; i < RA_SLOTS; i++) {
		if (slot[i].carved)
			continue;
		free(slot[i].t);
		free(slot[i].issue);
		free(slot[i].complete);
		free(slot[i].off);
		free(slot[i].len);
		free(slot[i].op);
		free(slot[i].dev);
	}
}

void fit_src_close(struct fit_src *s)
{
	struct fit_ra *ra = s->ra;
	if (!ra)
		return;
	ra_stop(ra);
	slots_free(ra->slot);
	reel_free_big(ra->big, RA_SLOTS * (size_t)RA_CAP * RA_REC);
	pthread_mutex_destroy(&ra->mu);
	pthread_cond_destroy(&ra->cv);
	pthread_cond_destroy(&ra->cv_fill);
	free(ra);
	s->ra = NULL;
}

/* ---- a second thread for a part of a pass ------------------------------------ */
/* Jobs in a queue, run in order: the pass posts a chunk's job and goes on
 * to the next chunk, the two threads each at their own pace (the read-ahead
 * keeps the chunk's slot until the job drops it), so neither waits for the
 * other at every chunk (HISTORY.md "Fit, tenth pass").  A job's state is
 * its own (no other part of the pass touches it), so the model is the same
 * on one thread or two. */
struct side_job {
	fit_side_fn fn;
	void *arg;
	struct fit_cols c;
	int has_c;
	struct fit_src *src; /* to drop c (fit_src_keep kept it) */
};
struct fit_side {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* the thread waits for a job */
	pthread_cond_t cv_done; /* the poster waits for room, or for all done */
	struct side_job q[FIT_SIDE_JOBS];
	unsigned posted, done; /* jobs (ever) */
	int stop, err, idle, pwait;
};

static void *side_main(void *arg)
{
	struct fit_side *s = arg;
	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (s->done == s->posted && !s->stop) {
			s->idle = 1;
			pthread_cond_wait(&s->cv, &s->mu);
			s->idle = 0;
		}
		if (s->done == s->posted)
			break;
		struct side_job *j = &s->q[s->done % FIT_SIDE_JOBS];
		int skip = s->err != 0; /* after an error: dropped, not run */
		pthread_mutex_unlock(&s->mu);
		int e = skip ? 0 : j->fn(j->arg, j->has_c ? &j->c : NULL);
		if (j->src)
			fit_src_drop(j->src, &j->c);
		pthread_mutex_lock(&s->mu);
		s->err = s->err ? s->err : e;
		s->done++;
		if (s->pwait)
			pthread_cond_broadcast(&s->cv_done);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

struct fit_side *fit_side_start(void)
{
	if (!fit_spare_core())
		return NULL;
	struct fit_side *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	pthread_cond_init(&s->cv_done, NULL);
	if (pthread_create(&s->th, NULL, side_main, s)) {
		pthread_mutex_destroy(&s->mu);
		pthread_cond_destroy(&s->cv);
		pthread_cond_destroy(&s->cv_done);
		free(s);
		return NULL;
	}
	return s;
}

/* Wait (s->mu held) until at most N jobs are left. */
static void side_wait_upto(struct fit_side *s, unsigned n)
{
	while (s->posted - s->done > n) {
		s->pwait = 1;
		pthread_cond_wait(&s->cv_done, &s->mu);
		s->pwait = 0;
	}
}

int fit_side_post(struct fit_side *s, fit_side_fn fn, void *arg, const struct fit_cols *c,
		  struct fit_src *src)
{
	if (!s)
		return fn(arg, c);
	int keep = c && src ? fit_src_keep(src, c) : 0;
	pthread_mutex_lock(&s->mu);
	side_wait_upto(s, FIT_SIDE_JOBS - 1);
	struct side_job *j = &s->q[s->posted % FIT_SIDE_JOBS];
	*j = (struct side_job){.fn = fn, .arg = arg, .has_c = c != NULL};
	if (c)
		j->c = *c;
	j->src = keep > 0 ? src : NULL;
	s->posted++;
	if (s->idle)
		pthread_cond_signal(&s->cv);
	if (keep < 0) /* C is valid only until the next chunk is read */
		side_wait_upto(s, 0);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

int fit_side_wait(struct fit_side *s)
{
	if (!s)
		return 0;
	pthread_mutex_lock(&s->mu);
	side_wait_upto(s, 0);
	int e = s->err;
	s->err = 0;
	pthread_mutex_unlock(&s->mu);
	return e;
}

void fit_side_stop(struct fit_side *s)
{
	if (!s)
		return;
	fit_side_wait(s);
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->th, NULL);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	pthread_cond_destroy(&s->cv_done);
	free(s);
}

/* ---- independent jobs on two threads ----------------------------------------- */
struct par_run {
	void (*fn)(void *arg, size_t i);
	void *arg;
	size_t n, next;
	pthread_mutex_t mu;
};

static void *par_main(void *arg)
{
	struct par_run *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		size_t i = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->n)
			return NULL;
		p->fn(p->arg, i);
	}
}

void fit_par_for(size_t n, void (*fn)(void *arg, size_t i), void *arg)
{
	struct par_run p = {.fn = fn, .arg = arg, .n = n};
	pthread_t th;
	pthread_mutex_init(&p.mu, NULL);
	int two = n > 1 && fit_spare_core() && !pthread_create(&th, NULL, par_main, &p);
	par_main(&p);
	if (two)
		pthread_join(th, NULL);
	pthread_mutex_destroy(&p.mu);
}

/* ---- the first pass ------------------------------------------------------- */
/* A device seen for the first time: its index, or -1 past MODEL_MAX_DEVS. */
static int scan_newdev(struct fit_scan *sc, uint16_t d)
{
	if (sc->nd == MODEL_MAX_DEVS)
		return -1;
	sc->slot[d] = (int8_t)sc->nd;
	sc->ids[sc->nd] = d;
	sc->pre[sc->nd] = (struct dev_pre){0};
	return (int)sc->nd++;
}

static int scan_chunk(struct fit_scan *sc, const struct fit_cols *c)
{
	for (size_t i = 0; i < c->n; i++) {
		int64_t t = c->t[i];
		if (sc->n == 0)
			sc->tfirst = sc->tmin = sc->tmax = t;
		sc->sorted &= t >= sc->tmax;
		sc->tmin = t < sc->tmin ? t : sc->tmin;
		sc->tmax = t > sc->tmax ? t : sc->tmax;
		if (sc->q != 1 && t != sc->tfirst) {
			uint64_t d = t > sc->tfirst ? (uint64_t)(t - sc->tfirst)
						    : (uint64_t)(sc->tfirst - t);
			sc->q = reel_gcd64(sc->q, d);
		}
		sc->n++;
		uint8_t op = c->op[i];
		sc->nop[op]++;
		sc->bytes[op] += c->len[i];
		if (c->issue && c->issue[i] >= 0 && c->complete[i] >= c->issue[i])
			sc->nic++;
		uint64_t end = c->off[i] + c->len[i];
		sc->amax = end > sc->amax ? end : sc->amax;
		int sd = sc->slot[c->dev[i]];
		if (sd < 0 && (sd = scan_newdev(sc, c->dev[i])) < 0)
			return REEL_E_RANGE;
		sc->per[sd]++;
		if (op != REEL_OP_FLUSH) {
			struct dev_pre *p = &sc->pre[sd];
			p->nd++;
			p->maxend = end > p->maxend ? end : p->maxend;
			uint64_t nb = ((c->off[i] + (c->len[i] ? c->len[i] - 1 : 0)) >> 12) -
				      (c->off[i] >> 12) + 1;
			p->blocks += nb < 4096 ? nb : 4096;
			uint64_t x = c->off[i] | (c->len[i] ? c->len[i] : 4096) | 4096;
			p->grid[__builtin_ctzll(x)]++;
		}
	}
	return 0;
}

static int scan_init(struct fit_scan *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->sorted = 1;
	sc->amax = 1;
	if (!(sc->slot = malloc(65536 * sizeof(*sc->slot))))
		return REEL_E_NOMEM;
	memset(sc->slot, 0xff, 65536 * sizeof(*sc->slot));
	return 0;
}

/* B, the scan of the records that follow A's, joined to A: what one scan
 * of them all finds (B's distances to its first time are to A's first
 * less the distance between the two firsts, so the gcd takes that too;
 * B's devices new to A after A's); 1 past MODEL_MAX_DEVS or where a sum
 * of lengths reaches 2^53 (one scan's running sum would be inexact). */
static int scan_join(struct fit_scan *a, const struct fit_scan *b)
{
	if (!b->n)
		return 0;
	if (a->n) {
		uint64_t d = b->tfirst > a->tfirst ? (uint64_t)(b->tfirst - a->tfirst)
						   : (uint64_t)(a->tfirst - b->tfirst);
		a->sorted &= b->sorted && b->tfirst >= a->tmax;
		a->q = reel_gcd64(reel_gcd64(a->q, b->q), d);
		a->tmin = b->tmin < a->tmin ? b->tmin : a->tmin;
		a->tmax = b->tmax > a->tmax ? b->tmax : a->tmax;
	} else {
		a->sorted = b->sorted;
		a->q = b->q;
		a->tfirst = b->tfirst;
		a->tmin = b->tmin;
		a->tmax = b->tmax;
	}
	a->n += b->n;
	a->nic += b->nic;
	for (int op = 0; op < REEL_OP__COUNT; op++) {
		a->nop[op] += b->nop[op];
		if ((a->bytes[op] += b->bytes[op]) >= 0x1p53)
			return 1;
	}
	a->amax = b->amax > a->amax ? b->amax : a->amax;
	for (size_t k = 0; k < b->nd; k++) {
		int sd = a->slot[b->ids[k]];
		if (sd < 0 && (sd = scan_newdev(a, b->ids[k])) < 0)
			return 1;
		const struct dev_pre *q = &b->pre[k];
		struct dev_pre *p = &a->pre[sd];
		a->per[sd] += b->per[k];
		p->nd += q->nd;
		p->maxend = q->maxend > p->maxend ? q->maxend : p->maxend;
		p->blocks += q->blocks;
		for (int g = 0; g <= FIT_ALIGN_BITS; g++)
			p->grid[g] += q->grid[g];
	}
	return 0;
}

/* One half of pass 1: its reader, its scan, whether it failed. */
struct scan_half {
	struct reel_reader *r;
	struct fit_scan sc;
	int e;
};
static void scan_half(void *arg, size_t i)
{
	struct scan_half *h = (struct scan_half *)arg + i;
	struct fit_ra ra = {.r = h->r, .live = 1, .want_ic = 1}; /* issue <= completion counted */
	struct fit_cols c = {0};
	long k = 0;
	int e = 0;
	while (!e && (k = src_next_here(&ra, &c)) > 0) {
		c.n = (size_t)k;
		e = scan_chunk(&h->sc, &c);
	}
	slots_free(ra.slot);
	h->e = e || k < 0;
}
/* Pass 1 on two threads: the file's chunks in two halves, a reader each
 * (reel_reader_halve), each half read a batch at a time and scanned on a
 * thread of its own, the scans joined.  The one-thread pass was bound by
 * its reading thread, the pass's thread idle two thirds of it (HISTORY.md
 * "Fit, twelfth pass").  0, or 1: the file to be read whole, as when it
 * cannot be split (one CPU, stdin, no index) and on anything else: an
 * error in either half (the whole read says which and where), halves the
 * reader does not prove the whole file's (the index is a hint: "Fit,
 * fifteenth pass"), a join past what one scan holds. */
static int scan_halves(struct fit_src *s, struct fit_scan *sc)
{
	struct scan_half h[2] = {{.r = s->r}};
	struct fit_ra *ra;
	if (!s->r || !fit_spare_core() || !(ra = ra_get(s)) || reel_reader_halve(s->r, &h[1].r))
		return 1;
	int e = scan_init(&h[0].sc) || scan_init(&h[1].sc);
	if (!e) {
		fit_par_for(2, scan_half, h);
		e = h[0].e || h[1].e || reel_reader_halves_join(s->r, h[1].r) ||
		    scan_join(&h[0].sc, &h[1].sc);
	}
	reel_reader_close(h[1].r);
	free(h[1].sc.slot);
	if (e) {
		free(h[0].sc.slot);
		return 1;
	}
	*sc = h[0].sc;
	ra->passes++; /* every chunk's checksum checked: not again in the passes after */
	return 0;
}

int fit_scan(struct fit_src *s, struct fit_scan *sc, char *err, size_t errlen)
{
	s->n = 0;
	if (!scan_halves(s, sc)) {
		s->n = sc->n;
		return 0;
	}
	struct fit_cols c;
	long k = 0;
	int e = scan_init(sc);
	if (e)
		return e;
	e = fit_src_rewind(s, 1); /* issue <= completion counted */
	while (!e && (k = fit_src_next(s, &c)) > 0)
		e = scan_chunk(sc, &c);
	if (!e && k < 0)
		e = (int)k;
	s->n = sc->n;
	if (e == REEL_E_RANGE)
		return reel_errf(err, errlen, e, "the trace uses more than %d devices",
				 MODEL_MAX_DEVS);
	if (e)
		return reel_errf(err, errlen, e, "%s",
				 s->r ? reel_reader_errmsg(s->r) : reel_strerror(e));
	return 0;
}

/* ---- the sample budget ---------------------------------------------------- */
static uint64_t sum_capped(const uint64_t *n, size_t k, uint64_t cap)
{
	uint64_t s = 0;
	for (size_t i = 0; i < k; i++)
		s += n[i] < cap ? n[i] : cap;
	return s;
}

uint64_t fit_sample_cap(const uint64_t *n, size_t k, uint64_t budget)
{
	uint64_t hi = MODEL_DIST_SAMPLE, lo = FIT_SAMPLE_MIN;
	if (sum_capped(n, k, hi) <= budget)
		return hi;
	while (hi - lo > 1) { /* sum_capped(lo) fits or lo is the floor */
		uint64_t mid = lo + (hi - lo) / 2;
		if (sum_capped(n, k, mid) <= budget)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
