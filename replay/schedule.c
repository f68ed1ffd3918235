/*
 * replay/schedule.c - replay_run(): the scheduler.
 *
 * One thread.  The trace is read twice, both times streaming: a first pass
 * measures it (extent and alignment per device, times present, the
 * original queue depth), the second replays it through a bounded window.
 * Each I/O has an absolute scheduled time from the replay start (never a
 * delay since the previous I/O, which drifts); the loop waits for
 * completions or sleeps until shortly before that time, then spins (for
 * twice the recent wake-up lateness, 5 to 50 us: it adapts).  A
 * write's buffer is filled before the wait, so data generation does not
 * delay the issue.  Results are written in issue order through a ring that
 * holds I/Os until they complete: memory is bounded by the window, the ring
 * and the queue depth, never by the trace length.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "replay/engine_internal.h"
#include "replay/replay.h"

/* histograms take ns >= 0: an early issue counts as 0 */
static inline uint64_t ns_nonneg(int64_t v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

#define RING 65536u          /* result ring: I/Os issued but not yet written */
#define SPIN_NS 40000        /* spin before an issue: start value, then adapts */
#define SPIN_MAX_NS 50000 /* more would hit RT throttling at high rates */
#define DEFAULT_WINDOW 4096u
#define MAX_DEVS 65536

struct target {
	const char *path;
	int fd;
	int is_blk;
	int created;
	uint64_t size;
	uint32_t lbs, pbs;
	char name[64];
	char model[128];
	uint64_t need; /* bytes the trace needs (highest end offset) */
};

/* A trace record waiting to be issued. */
struct pend {
	int64_t sched;    /* ns from replay start (timing original) */
	int64_t orig_q;   /* original queue time (dependency) */
	uint64_t off;
	uint32_t len;
	uint32_t limit;   /* original in-flight count (qd original/xK) */
	uint16_t tgt;
	uint8_t op, flags;
};

/* An I/O in flight. */
struct slot {
	struct replay_io io;
	uint64_t rseq;    /* index in the result ring */
	int64_t issue_abs;
	int64_t orig_c;   /* original completion time, INT64_MAX if none */
	size_t cap;       /* buffer capacity */
};

struct rent {
	struct reel_rec rec;
	int done;
};

/* Min-heap of int64 keys with a payload. */
struct heap {
	struct hent {
		int64_t k;
		uint64_t v;
	} *a;
	size_t n, cap;
};

static int heap_push(struct heap *h, int64_t k, uint64_t v)
{
	if (h->n == h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 1024;
		void *na = realloc(h->a, nc * sizeof(*h->a));
		if (!na)
			return -ENOMEM;
		h->a = na;
		h->cap = nc;
	}
	size_t i = h->n++;
	while (i && h->a[(i - 1) / 2].k > k) {
		h->a[i] = h->a[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->a[i].k = k;
	h->a[i].v = v;
	return 0;
}

static void heap_pop(struct heap *h)
{
	struct hent last = h->a[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->a[c + 1].k < h->a[c].k)
			c++;
		if (h->a[c].k >= last.k)
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n)
		h->a[i] = last;
}

struct run {
	const struct replay_opts *o;
	struct replay_result *res;
	char *err;
	size_t errlen;
	struct reel_reader *rd;
	struct reel_writer *w;
	struct target tg[REPLAY_MAX_TARGETS];
	unsigned ntg;
	int32_t devmap[MAX_DEVS]; /* trace dev id -> target, -1 unmapped */
	const struct replay_engine_ops *ops;
	struct replay_engine *eng;
	struct replay_datagen *gen;
	unsigned depth;

	/* first pass */
	uint64_t total;
	int64_t first_t, last_t;
	unsigned orig_max_inflight;
	int all_issue, all_complete, all_queue;

	/* reading */
	const struct reel_rec *chunk;
	long chunk_n, chunk_i;
	int eof;
	struct heap qd_heap; /* original completions, for the original qd */

	/* window */
	struct pend *win;
	unsigned wcap, whead, wn;
	struct heap dep;     /* (original completion, rseq) of I/Os not done */
	int64_t *dep_c;      /* original completion per window entry */

	struct slot *slots;
	uint32_t *freel;
	unsigned nfree;
	int prepared;        /* slot prepared for the window head, or -1 */

	struct rent *ring;
	uint64_t rhead, rnext; /* [rhead, rnext) issued, not yet written */

	int64_t t0;
	unsigned batch;      /* I/Os the engine holds back (afap batches) */
	int64_t spin, late;  /* spin time before an issue; recent wake-up lateness */
	unsigned inflight;
	double inflight_area;
	int64_t inflight_t;
	uint64_t writes;
	double sample_in, sample_out;
	uint64_t done_ios, done_bytes;
	int64_t last_complete;
};

static int fail(struct run *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct run *r, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, r->errlen, fmt, ap);
	va_end(ap);
	return code;
}

static int64_t point_of(const struct run *r, const struct reel_rec *x)
{
	if (r->o->point == REPLAY_POINT_ISSUE)
		return (x->has & REEL_HAS_ISSUE) ? x->issue_ns : x->queue_ns;
	return (x->has & REEL_HAS_QUEUE) ? x->queue_ns : x->issue_ns;
}

static int64_t queue_of(const struct reel_rec *x)
{
	return (x->has & REEL_HAS_QUEUE) ? x->queue_ns : x->issue_ns;
}

/* Original in-flight count at x's point (earlier records still open). */
static int orig_inflight(struct run *r, const struct reel_rec *x, unsigned *out)
{
	int64_t p = point_of(r, x);
	while (r->qd_heap.n && r->qd_heap.a[0].k <= p)
		heap_pop(&r->qd_heap);
	*out = (unsigned)r->qd_heap.n + 1;
	if (x->has & REEL_HAS_COMPLETE && x->complete_ns > p && r->qd_heap.n < (1u << 22))
		return heap_push(&r->qd_heap, x->complete_ns, 0);
	return 0;
}

static int is_data_op(int op)
{
	return op == REEL_OP_READ || op == REEL_OP_WRITE || op == REEL_OP_DISCARD ||
	       op == REEL_OP_WRITE_ZEROES;
}

/* ---- first pass -------------------------------------------------------- */
struct devscan {
	uint64_t max_end;
	uint64_t count;
	uint64_t orbits;  /* OR of offsets and lengths: their common alignment */
	uint64_t first_mis512, first_mis4k; /* record index + 1 */
	uint64_t writes;
};

static int first_pass(struct run *r, struct devscan *ds)
{
	const struct reel_rec *v;
	long n;
	uint64_t idx = 0;
	r->first_t = INT64_MAX;
	r->last_t = INT64_MIN;
	r->all_issue = r->all_complete = r->all_queue = 1;
	while ((n = reel_read_chunk(r->rd, &v)) > 0) {
		for (long i = 0; i < n; i++, idx++) {
			const struct reel_rec *x = &v[i];
			struct devscan *d = &ds[x->dev];
			d->count++;
			if (!(x->has & REEL_HAS_ISSUE))
				r->all_issue = 0;
			if (!(x->has & REEL_HAS_COMPLETE))
				r->all_complete = 0;
			if (!(x->has & REEL_HAS_QUEUE))
				r->all_queue = 0;
			int64_t p = point_of(r, x);
			if (p < r->first_t)
				r->first_t = p;
			if (p > r->last_t)
				r->last_t = p;
			unsigned inf;
			if (orig_inflight(r, x, &inf) < 0)
				return fail(r, REEL_E_NOMEM, "out of memory measuring the trace's queue depth");
			if (inf > r->orig_max_inflight)
				r->orig_max_inflight = inf;
			if (!is_data_op(x->op) || !x->length)
				continue;
			if (x->op != REEL_OP_READ)
				d->writes++;
			uint64_t end = x->offset + x->length;
			if (end > d->max_end)
				d->max_end = end;
			uint64_t b = x->offset | x->length;
			d->orbits |= b;
			if ((b & 511) && !d->first_mis512)
				d->first_mis512 = idx + 1;
			if ((b & 4095) && !d->first_mis4k)
				d->first_mis4k = idx + 1;
		}
	}
	if (n < 0)
		return fail(r, n, "%s", reel_reader_errmsg(r->rd));
	r->total = idx;
	r->qd_heap.n = 0;
	if (!idx)
		return fail(r, REEL_E_ARG, "%s: the trace has no I/O to replay", r->o->trace);
	int rc = reel_reader_rewind(r->rd);
	if (rc < 0)
		return fail(r, rc, "%s", reel_reader_errmsg(r->rd));
	return 0;
}

/* ---- targets ----------------------------------------------------------- */
static void sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, (int)len, f)) {
		size_t n = strlen(buf);
		while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
			buf[--n] = 0;
	}
	fclose(f);
}

static int open_target(struct run *r, struct target *t, int will_write)
{
	const struct replay_opts *o = r->o;
	struct replay_safety_opts so = {will_write, o->destroy_name, o->overwrite};
	int rc = replay_safety_check(t->path, &so, &t->created, r->err, r->errlen);
	if (rc < 0)
		return rc;
	int flags = (will_write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	if (!o->buffered)
		flags |= O_DIRECT;
	if (t->created)
		flags |= O_CREAT | O_EXCL | O_RDWR;
	struct stat st;
	if (!t->created && stat(t->path, &st) == 0 && S_ISBLK(st.st_mode) && will_write)
		flags |= O_EXCL; /* the kernel refuses if mounted or claimed meanwhile */
	t->fd = open(t->path, flags, 0644);
	if (t->fd < 0 && errno == EINVAL && !o->buffered)
		return fail(r, -EINVAL,
			    "%s: O_DIRECT is not supported here (tmpfs or similar): replay with "
			    "--buffered or use another target",
			    t->path);
	if (t->fd < 0)
		return fail(r, -errno, "%s: cannot open: %s%s", t->path, strerror(errno),
			    errno == EBUSY ? " (in use: mounted or claimed by another device)" : "");
	if (t->created)
		replay_safety_mark_created(t->fd);
	if (fstat(t->fd, &st) < 0)
		return fail(r, -errno, "%s: %s", t->path, strerror(errno));
	const char *b = strrchr(t->path, '/');
	snprintf(t->name, sizeof(t->name), "%.63s", b ? b + 1 : t->path);
	if (S_ISBLK(st.st_mode)) {
		t->is_blk = 1;
		int lbs = 512;
		unsigned pbs = 512;
		if (ioctl(t->fd, BLKGETSIZE64, &t->size) < 0)
			return fail(r, -errno, "%s: BLKGETSIZE64: %s", t->path, strerror(errno));
		if (ioctl(t->fd, BLKSSZGET, &lbs) == 0)
			t->lbs = (uint32_t)lbs;
		if (ioctl(t->fd, BLKPBSZGET, &pbs) == 0)
			t->pbs = pbs;
		char p[256], link[256];
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
		ssize_t n = readlink(p, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = 0;
			const char *kn = strrchr(link, '/');
			snprintf(t->name, sizeof(t->name), "%.63s", kn ? kn + 1 : link);
		}
		snprintf(p, sizeof(p), "/sys/class/block/%s/device/model", t->name);
		sysfs_read(p, t->model, sizeof(t->model));
		if (!t->model[0]) {
			snprintf(p, sizeof(p), "/sys/class/block/%s/loop/backing_file", t->name);
			char bf[100];
			sysfs_read(p, bf, sizeof(bf));
			if (bf[0])
				snprintf(t->model, sizeof(t->model), "loop over %s", bf);
		}
	} else {
		t->size = (uint64_t)st.st_size;
		t->lbs = 512;
		t->pbs = (uint32_t)st.st_blksize;
#ifdef STATX_DIOALIGN
		struct statx sx;
		if (!o->buffered && statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
		    (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align)
			t->lbs = sx.stx_dio_offset_align;
#endif
		snprintf(t->model, sizeof(t->model), "file");
	}
	if (!t->lbs)
		t->lbs = 512;
	return 0;
}

/* ---- the second pass: reading into the window ------------------------- */
static struct pend *win_at(struct run *r, unsigned i)
{
	return &r->win[(r->whead + i) % r->wcap];
}

static uint64_t align_down(uint64_t v, uint64_t a)
{
	return v / a * a;
}

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
			p->off = align_down((uint64_t)((double)p->off * ((double)tg->size / (double)tg->need)), a);
		else
			p->off = align_down(p->off % tg->size, a);
		if (p->off + p->len > tg->size)
			p->off = align_down(tg->size - p->len, a);
	} else if (o->fit == REPLAY_FIT_SCALE && tg->need > tg->size) {
		p->off = align_down((uint64_t)((double)p->off * ((double)tg->size / (double)tg->need)), a);
		if (p->off + p->len > tg->size)
			p->off = align_down(tg->size - p->len, a);
	}
	return 1;
}

static int fill_window(struct run *r)
{
	while (!r->eof && r->wn < r->wcap) {
		if (r->chunk_i >= r->chunk_n) {
			long n = reel_read_chunk(r->rd, &r->chunk);
			if (n < 0)
				return fail(r, (int)n, "%s", reel_reader_errmsg(r->rd));
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
			return fail(r, REEL_E_NOMEM, "out of memory");
		if (!transform(r, x, &p)) {
			r->res->skipped++;
			continue;
		}
		p.limit = inf;
		p.sched = (int64_t)((double)(point_of(r, x) - r->first_t) / r->o->speed);
		p.orig_q = queue_of(x);
		int64_t oc = (x->has & REEL_HAS_COMPLETE) ? x->complete_ns : INT64_MAX;
		unsigned pos = r->wn;
		/* order none + issue point: keep the window sorted by time
		 * (the trace is in queue order; issue times are nearly so) */
		if (r->o->order == REPLAY_ORDER_NONE && r->o->timing == REPLAY_TIMING_ORIGINAL)
			while (pos > (r->prepared >= 0 ? 1u : 0u) && win_at(r, pos - 1)->sched > p.sched) {
				*win_at(r, pos) = *win_at(r, pos - 1);
				r->dep_c[(r->whead + pos) % r->wcap] = r->dep_c[(r->whead + pos - 1) % r->wcap];
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
			return fail(r, rc, "%s: %s", r->o->result ? r->o->result : "result",
				    reel_writer_errmsg(r->w));
		r->rhead++;
	}
	return 0;
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
	return rc < 0 ? fail(r, rc, "%s: submitting I/O: %s", r->ops->name, strerror(-rc)) : 0;
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
		return fail(r, n, "%s: waiting for completions: %s", r->ops->name, strerror(-n));
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
	s->io.res = 0;
	s->io.done_ns = 0;
	int needbuf = (p->op == REEL_OP_READ || p->op == REEL_OP_WRITE) && r->ops != &replay_engine_null;
	if (needbuf && s->cap < p->len) {
		void *nb;
		size_t cap = (p->len + 65535) & ~(size_t)65535;
		if (posix_memalign(&nb, 4096, cap))
			return fail(r, REEL_E_NOMEM, "out of memory for a %u-byte I/O buffer", p->len);
		free(s->io.buf);
		s->io.buf = nb;
		s->cap = cap;
	}
	if (!needbuf && r->ops == &replay_engine_null)
		s->io.buf = NULL;
	if (needbuf && p->op == REEL_OP_WRITE)
		replay_datagen_fill(r->gen, s->io.buf, p->len, p->off, p->tgt, r->rnext);
	r->prepared = (int)si;
	return 0;
}

static unsigned limit_of(struct run *r, const struct pend *p);

/* more: afap and the next I/O can follow at once -- let the engine batch */
static int issue(struct run *r, int64_t sched_rel, int more)
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
	if (r->o->timing == REPLAY_TIMING_ORIGINAL)
		reel_hist_add(&r->res->issue_err, ns_nonneg(now - r->t0 - sched_rel));
	inflight_change(r, now - r->t0, +1);
	if (r->o->order == REPLAY_ORDER_DEPENDENCY && s->orig_c != INT64_MAX &&
	    heap_push(&r->dep, s->orig_c, rseq) < 0)
		return fail(r, REEL_E_NOMEM, "out of memory");
	r->whead = (r->whead + 1) % r->wcap;
	r->wn--;
	r->prepared = -1;
	more = more && r->batch < 16 && r->wn > 0 && r->nfree > 0 &&
	       r->inflight < limit_of(r, win_at(r, 0)) && r->o->order != REPLAY_ORDER_DEPENDENCY &&
	       !(r->o->stop && *r->o->stop);
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
		uint64_t rs = r->dep.a[0].v;
		if (rs < r->rhead || r->ring[rs % RING].done)
			heap_pop(&r->dep);
		else
			break;
	}
	return r->dep.n && r->dep.a[0].k < win_at(r, 0)->orig_q;
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

static void progress(struct run *r, int64_t now, int64_t *next)
{
	if (!r->o->progress || now < *next)
		return;
	*next = now + 250000000;
	struct replay_progress pr = {r->done_ios, r->total, r->done_bytes, now - r->t0, -1};
	if (r->done_ios)
		pr.eta_ns = (int64_t)((double)pr.elapsed_ns * (double)(r->total - r->done_ios) /
				      (double)r->done_ios);
	r->o->progress(&pr, r->o->progress_arg);
}

static int replay_loop(struct run *r)
{
	const struct replay_opts *o = r->o;
	int stopping = 0;
	int64_t next_progress = 0;
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
		if (o->stop && *o->stop && !stopping) {
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
		/* queue depth, result ring and dependency */
		if (r->prepared < 0) {
			if (r->inflight >= limit_of(r, p) || r->rnext - r->rhead >= RING || !r->nfree ||
			    (o->order == REPLAY_ORDER_DEPENDENCY && dep_blocked(r))) {
				if (!r->inflight)
					return fail(r, REEL_E_RANGE, "internal: stalled with nothing in flight");
				if ((rc = reap(r, 200000000)) < 0)
					return rc;
				continue;
			}
			if ((rc = prepare(r)) < 0)
				return rc;
		}
		if (o->timing == REPLAY_TIMING_AFAP) {
			if ((rc = issue(r, reel_now_ns() - r->t0, 1)) < 0)
				return rc;
			continue;
		}
		int64_t due = r->t0 + p->sched;
		int64_t now = reel_now_ns();
		if (due - now > r->spin) {
			int64_t target = due - r->spin;
			if (r->inflight) {
				if ((rc = reap(r, target - now)) < 0)
					return rc;
			} else {
				if ((rc = commit(r)) < 0)
					return rc;
				sleep_until(target);
				rc = 0;
			}
			/* woke by the timer: learn how late wake-ups are, and spin
			 * twice that (5 us to 50 us) before the next issue */
			if (rc == 0 && !(o->stop && *o->stop)) {
				int64_t late = reel_now_ns() - target;
				if (late > 0 && late < 100000000) {
					r->late = late > r->late ? late : r->late - (r->late >> 5);
					r->spin = 2 * r->late + 5000;
					if (r->spin > SPIN_MAX_NS)
						r->spin = SPIN_MAX_NS;
				}
			}
			continue;
		}
		while ((now = reel_now_ns()) < due) {
			if (r->ops->ready && r->ops->ready(r->eng) && (rc = reap(r, 0)) < 0)
				return rc;
			if (o->stop && *o->stop)
				break;
		}
		if (o->stop && *o->stop)
			continue;
		if ((rc = issue(r, p->sched, 0)) < 0)
			return rc;
	}
	return flush_ring(r);
}

/* ---- setup ------------------------------------------------------------- */
static const struct replay_engine_ops *engine_find(const char *name)
{
	static const struct replay_engine_ops *const all[] = {
		&replay_engine_libaio, &replay_engine_uring, &replay_engine_psync, &replay_engine_null,
	};
	if (!name)
		return all[0];
	if (!strcmp(name, "uring"))
		name = "io_uring";
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

static int map_devices(struct run *r, const struct devscan *ds)
{
	const struct replay_opts *o = r->o;
	for (unsigned i = 0; i < MAX_DEVS; i++)
		r->devmap[i] = -1;
	/* targets: --target list, then --map paths not already listed */
	for (size_t i = 0; i < o->ntargets; i++) {
		if (r->ntg >= REPLAY_MAX_TARGETS)
			return fail(r, REEL_E_RANGE, "too many targets (at most %d)", REPLAY_MAX_TARGETS);
		for (unsigned k = 0; k < r->ntg; k++)
			if (!strcmp(r->tg[k].path, o->targets[i]))
				return fail(r, REEL_E_ARG,
					    "--target %s is given twice: name each target once (use --map "
					    "to send several trace devices to one place)",
					    o->targets[i]);
		r->tg[r->ntg++].path = o->targets[i];
	}
	for (size_t m = 0; m < o->nmaps; m++) {
		unsigned k;
		for (k = 0; k < r->ntg; k++)
			if (!strcmp(r->tg[k].path, o->maps[m].path))
				break;
		if (k == r->ntg) {
			if (r->ntg >= REPLAY_MAX_TARGETS)
				return fail(r, REEL_E_RANGE, "too many targets (at most %d)",
					    REPLAY_MAX_TARGETS);
			r->tg[r->ntg++].path = o->maps[m].path;
		}
		if (o->maps[m].trace_dev < 0 || o->maps[m].trace_dev >= MAX_DEVS)
			return fail(r, REEL_E_ARG, "--map %d=%s: device id out of range",
				    o->maps[m].trace_dev, o->maps[m].path);
		r->devmap[o->maps[m].trace_dev] = (int32_t)k;
	}
	if (!r->ntg)
		return fail(r, REEL_E_ARG, "no target: give --target PATH[,PATH...]");
	if (o->nmaps)
		return 0; /* explicit: unmapped devices are skipped */
	unsigned used = 0;
	char list[256] = "";
	for (unsigned d = 0; d < MAX_DEVS; d++) {
		if (!ds[d].count)
			continue;
		if (used < r->ntg)
			r->devmap[d] = (int32_t)used;
		size_t l = strlen(list);
		if (l < sizeof(list) - 16)
			snprintf(list + l, sizeof(list) - l, "%s%u", l ? ", " : "", d);
		used++;
	}
	if (used > r->ntg)
		return fail(r, REEL_E_ARG,
			    "%s: the trace uses %u devices (ids %s) but %u target%s given: give "
			    "one target per device (--target A,B,...) or choose with --map ID=PATH",
			    o->trace, used, list, r->ntg, r->ntg == 1 ? " was" : "s were");
	return 0;
}

static int check_targets(struct run *r, const struct devscan *ds)
{
	const struct replay_opts *o = r->o;
	for (unsigned t = 0; t < r->ntg; t++) {
		struct target *tg = &r->tg[t];
		int will_write = 0;
		uint64_t orbits = 0, mis512 = 0, mis4k = 0;
		for (unsigned d = 0; d < MAX_DEVS; d++) {
			if (r->devmap[d] != (int32_t)t || !ds[d].count)
				continue;
			if (ds[d].max_end > tg->need)
				tg->need = ds[d].max_end;
			if (ds[d].writes && !o->read_only)
				will_write = 1;
			orbits |= ds[d].orbits;
			if (ds[d].first_mis512 && (!mis512 || ds[d].first_mis512 < mis512))
				mis512 = ds[d].first_mis512;
			if (ds[d].first_mis4k && (!mis4k || ds[d].first_mis4k < mis4k))
				mis4k = ds[d].first_mis4k;
		}
		if (o->precondition && !o->read_only)
			will_write = 1;
		int rc = open_target(r, tg, will_write);
		if (rc < 0)
			return rc;
		if (tg->created || (!tg->is_blk && will_write && tg->size < tg->need)) {
			uint64_t sz = (tg->need + 1048575) & ~1048575ull;
			if (ftruncate(tg->fd, (off_t)sz) < 0)
				return fail(r, -errno, "%s: cannot size the file to %llu bytes: %s",
					    tg->path, (unsigned long long)sz, strerror(errno));
			tg->size = sz;
		}
		if (tg->need > tg->size && o->fit == REPLAY_FIT_FAIL)
			return fail(r, REEL_E_RANGE,
				    "%s: the trace needs %llu bytes (%.1f GiB) on this target, which has "
				    "%llu: use a target of at least that size, or --fit wrap or --fit scale",
				    tg->path, (unsigned long long)tg->need, tg->need / 1073741824.0,
				    (unsigned long long)tg->size);
		if (!o->buffered && !o->align && (orbits & (tg->lbs - 1))) {
			uint64_t first = tg->lbs > 512 ? mis4k : mis512;
			return fail(r, REEL_E_ARG,
				    "%s: the trace has I/Os not aligned to this target's %u-byte logical "
				    "blocks (first: record #%llu), which O_DIRECT needs: pass --align to "
				    "round them to whole blocks, or --buffered",
				    tg->path, tg->lbs, (unsigned long long)(first ? first - 1 : 0));
		}
	}
	return 0;
}

static int precondition(struct run *r)
{
	void *buf;
	const size_t bs = 1 << 20;
	if (posix_memalign(&buf, 4096, bs))
		return fail(r, REEL_E_NOMEM, "out of memory");
	for (unsigned t = 0; t < r->ntg; t++) {
		struct target *tg = &r->tg[t];
		for (uint64_t off = 0; off < tg->size; off += bs) {
			size_t n = tg->size - off < bs ? (size_t)(tg->size - off) : bs;
			n = n / tg->lbs * tg->lbs;
			if (!n)
				break;
			replay_datagen_fill(r->gen, buf, n, off, (uint16_t)t, UINT64_MAX >> 8);
			if (pwrite(tg->fd, buf, n, (off_t)off) != (ssize_t)n) {
				free(buf);
				return fail(r, -EIO, "%s: preconditioning write at %llu failed: %s",
					    tg->path, (unsigned long long)off, strerror(errno));
			}
			if (r->o->stop && *r->o->stop)
				break;
		}
		fdatasync(tg->fd);
	}
	free(buf);
	return 0;
}

static int write_start_meta(struct run *r)
{
	const struct replay_opts *o = r->o;
	struct reel_writer *w = r->w;
	char buf[4096];
	buf[0] = 0;
	for (unsigned t = 0; t < r->ntg; t++) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, "%s%s", t ? "," : "", r->tg[t].path);
	}
	reel_writer_meta_str(w, REEL_META_REPLAY_TARGETS, buf);
	reel_writer_meta_str(w, REEL_META_REPLAY_TRACE, o->trace);
	reel_writer_meta_int(w, REEL_META_REPLAY_TRACE_DURATION_NS, r->res->trace_duration_ns);
	reel_writer_meta_str(w, REEL_META_REPLAY_ENGINE, r->ops->name);
	reel_writer_meta_str(w, REEL_META_REPLAY_TIMING, o->timing == REPLAY_TIMING_AFAP ? "afap" : "original");
	reel_writer_meta_dbl(w, REEL_META_REPLAY_SPEED, o->speed);
	reel_writer_meta_str(w, REEL_META_REPLAY_QD, r->res->qd_desc);
	static const char *const orders[] = {"none", "strict", "dependency"};
	reel_writer_meta_str(w, REEL_META_REPLAY_ORDER, orders[o->order]);
	reel_writer_meta_str(w, REEL_META_REPLAY_POINT, o->point == REPLAY_POINT_ISSUE ? "issue" : "queue");
	reel_writer_meta_str(w, REEL_META_REPLAY_DATA, o->data_str ? o->data_str : "random");
	reel_writer_meta_int(w, REEL_META_REPLAY_DEDUPE, o->data.dedupe_pct);
	reel_writer_meta_int(w, REEL_META_REPLAY_READ_ONLY, o->read_only);
	reel_writer_meta_int(w, REEL_META_REPLAY_BUFFERED, o->buffered);
	reel_writer_meta_int(w, REEL_META_REPLAY_PRECONDITION, o->precondition);
	reel_writer_meta_str(w, REEL_META_REPLAY_LABEL, r->res->label);
	for (unsigned t = 0; t < r->ntg; t++) {
		char k[64];
		snprintf(k, sizeof(k), REEL_META_TARGET_FMT, t, "path");
		reel_writer_meta_str(w, k, r->tg[t].path);
		snprintf(k, sizeof(k), REEL_META_TARGET_FMT, t, "size");
		reel_writer_meta_int(w, k, (int64_t)r->tg[t].size);
		if (r->tg[t].model[0]) {
			snprintf(k, sizeof(k), REEL_META_TARGET_FMT, t, "model");
			reel_writer_meta_str(w, k, r->tg[t].model);
		}
		snprintf(k, sizeof(k), REEL_META_TARGET_FMT, t, "created");
		reel_writer_meta_int(w, k, r->tg[t].created);
	}
	int rc = reel_writer_flush(w);
	return rc < 0 ? fail(r, rc, "%s: %s", o->result, reel_writer_errmsg(w)) : 0;
}

static void make_label(struct run *r)
{
	char names[96] = "";
	for (unsigned t = 0; t < r->ntg; t++) {
		size_t l = strlen(names);
		if (l < sizeof(names) - 2)
			snprintf(names + l, sizeof(names) - l, "%s%s", t ? "+" : "", r->tg[t].name);
	}
	snprintf(r->res->label, sizeof(r->res->label), "%.60s qd%s%.20s %.24s %.12s", names,
		 r->o->qd_mode == REPLAY_QD_FIXED ? "" : "-", r->res->qd_desc,
		 r->o->data_str ? r->o->data_str : "random", r->ops->name);
}

static void cleanup(struct run *r)
{
	if (r->slots)
		for (unsigned i = 0; i < r->depth; i++)
			free(r->slots[i].io.buf);
	free(r->slots);
	free(r->freel);
	free(r->ring);
	free(r->win);
	free(r->dep_c);
	free(r->dep.a);
	free(r->qd_heap.a);
	if (r->ops && r->eng)
		r->ops->destroy(r->eng);
	replay_datagen_destroy(r->gen);
	for (unsigned t = 0; t < r->ntg; t++)
		if (r->tg[t].fd > 0)
			close(r->tg[t].fd);
	reel_reader_close(r->rd);
}

int replay_run(const struct replay_opts *o, struct replay_result *res, char *errmsg, size_t errlen)
{
	struct run *r = calloc(1, sizeof(*r));
	struct devscan *ds = calloc(MAX_DEVS, sizeof(*ds));
	int rc = 0;
	memset(res, 0, sizeof(*res));
	for (int i = 0; i < REEL_OP__COUNT; i++)
		memset(&res->op[i].lat, 0, sizeof(*(&res->op[i].lat)));
	memset(&res->issue_err, 0, sizeof(*(&res->issue_err)));
	if (!r || !ds) {
		free(r);
		free(ds);
		snprintf(errmsg, errlen, "out of memory");
		return REEL_E_NOMEM;
	}
	r->o = o;
	r->res = res;
	r->err = errmsg;
	r->errlen = errlen;
	r->prepared = -1;
	r->spin = SPIN_NS;
	for (unsigned t = 0; t < REPLAY_MAX_TARGETS; t++)
		r->tg[t].fd = -1;

	if (!(o->speed > 0)) {
		rc = fail(r, REEL_E_ARG, "--speed must be a positive number");
		goto out;
	}
	r->ops = engine_find(o->engine);
	if (!r->ops) {
		rc = fail(r, REEL_E_ARG, "--engine %s: use libaio, io_uring, psync or null", o->engine);
		goto out;
	}
	snprintf(res->engine, sizeof(res->engine), "%s", r->ops->name);
	rc = reel_reader_open(&r->rd, o->trace, 0);
	if (rc < 0) {
		if (r->rd && reel_reader_errmsg(r->rd)[0])
			fail(r, rc, "%s", reel_reader_errmsg(r->rd));
		else
			fail(r, rc, "%s: %s", o->trace, reel_strerror(rc));
		goto out;
	}
	if ((rc = first_pass(r, ds)) < 0)
		goto out;
	res->trace_duration_ns = r->last_t - r->first_t;
	if (o->point == REPLAY_POINT_ISSUE && !r->all_issue) {
		rc = fail(r, REEL_E_ARG,
			  "%s: not every I/O has an issue (D) time, which --point issue needs: use "
			  "--point queue",
			  o->trace);
		goto out;
	}
	struct replay_opts oo = *o; /* resolve the default queue depth */
	if (o->qd_default) {
		if (r->all_complete && r->all_issue) {
			oo.qd_mode = REPLAY_QD_ORIGINAL;
		} else {
			oo.qd_mode = REPLAY_QD_FIXED;
			oo.qd = 32;
		}
	}
	r->o = o = &oo;
	if (o->qd_mode != REPLAY_QD_FIXED && !r->all_complete) {
		rc = fail(r, REEL_E_ARG,
			  "%s: --qd original needs completion times for every I/O, which this trace "
			  "lacks: give a fixed depth, e.g. --qd 32",
			  o->trace);
		goto out;
	}
	if (o->qd_mode == REPLAY_QD_FIXED)
		snprintf(res->qd_desc, sizeof(res->qd_desc), "%u", o->qd);
	else if (o->qd_mode == REPLAY_QD_ORIGINAL)
		snprintf(res->qd_desc, sizeof(res->qd_desc), "original");
	else
		snprintf(res->qd_desc, sizeof(res->qd_desc), "x%g", o->qd_scale);
	if (o->qd_mode == REPLAY_QD_FIXED)
		r->depth = o->qd;
	else if (o->qd_mode == REPLAY_QD_ORIGINAL)
		r->depth = r->orig_max_inflight;
	else
		r->depth = (unsigned)ceil(o->qd_scale * r->orig_max_inflight);
	if (r->depth < 1)
		r->depth = 1;
	if (r->depth > REPLAY_MAX_QD)
		r->depth = REPLAY_MAX_QD;
	if (r->ops == &replay_engine_psync)
		r->depth = 1; /* one thread, synchronous */

	if ((rc = map_devices(r, ds)) < 0 || (rc = check_targets(r, ds)) < 0)
		goto out;
	res->ntargets = r->ntg;
	struct replay_data_spec spec = o->data;
	if ((rc = replay_datagen_create(&r->gen, &spec)) < 0) {
		fail(r, rc, "out of memory");
		goto out;
	}
	if ((rc = r->ops->create(&r->eng, r->depth, errmsg, errlen)) < 0) {
		if (!errmsg[0])
			fail(r, rc, "%s: cannot start the engine: %s", r->ops->name, strerror(-rc));
		r->eng = NULL;
		goto out;
	}
	r->wcap = o->window ? (o->window > (1u << 20) ? 1u << 20 : o->window) : DEFAULT_WINDOW;
	r->win = calloc(r->wcap, sizeof(*r->win));
	r->dep_c = calloc(r->wcap, sizeof(*r->dep_c));
	r->slots = calloc(r->depth, sizeof(*r->slots));
	r->freel = calloc(r->depth, sizeof(*r->freel));
	r->ring = calloc(RING, sizeof(*r->ring));
	if (!r->win || !r->dep_c || !r->slots || !r->freel || !r->ring) {
		rc = fail(r, REEL_E_NOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < r->depth; i++)
		r->freel[r->nfree++] = r->depth - 1 - i;
	/* fault the pages in now, not during the replay */
	memset(r->ring, 0, RING * sizeof(*r->ring));
	memset(r->win, 0, r->wcap * sizeof(*r->win));
	make_label(r);

	if (o->precondition && !o->read_only && (rc = precondition(r)) < 0)
		goto out;

	/* the result file */
	struct reel_device devs[REPLAY_MAX_TARGETS];
	memset(devs, 0, sizeof(devs));
	for (unsigned t = 0; t < r->ntg; t++) {
		devs[t].id = (uint16_t)t;
		snprintf(devs[t].name, sizeof(devs[t].name), "%.63s", r->tg[t].name);
		devs[t].lbs = r->tg[t].lbs;
		devs[t].pbs = r->tg[t].pbs;
		devs[t].capacity = r->tg[t].size;
	}
	char detail[512];
	snprintf(detail, sizeof(detail), "ioreel replay %s", o->trace);
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	struct reel_header h = {.start_unix_ns = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec,
				.source = "replay",
				.source_detail = detail,
				.devices = devs,
				.ndevices = r->ntg};
	int fd = -1;
	if (!o->result) {
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			rc = fail(r, -errno, "/dev/null: %s", strerror(errno));
			goto out;
		}
	}
	rc = reel_writer_open(&r->w, o->result, fd, &h, o->overwrite_result ? REEL_W_OVERWRITE : 0);
	if (rc < 0) {
		fail(r, rc, "%s: %s%s", o->result ? o->result : "/dev/null",
		     r->w ? reel_writer_errmsg(r->w) : reel_strerror(rc),
		     rc == REEL_E_EXISTS ? " (choose another -o name, or remove it)" : "");
		reel_writer_destroy(r->w);
		r->w = NULL;
		if (fd >= 0)
			close(fd);
		goto out;
	}
	/* fast LZ4: the result is written while replaying */
	reel_writer_set_level(r->w, 0);
	if ((rc = write_start_meta(r)) < 0)
		goto wout;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	/* Original timing is the point of the replay: ask for a real-time
	 * priority when allowed (root), so a busy machine does not delay the
	 * wake-ups.  The loop sleeps between I/Os and spins at most SPIN_NS
	 * before each, and the kernel's RT throttling still applies. */
	struct sched_param old_sp;
	int old_policy = sched_getscheduler(0), is_rt = 0;
	sched_getparam(0, &old_sp);
	/* above ~16k IOPS on average the loop never sleeps: a SCHED_FIFO task
	 * that never sleeps gets throttled by the kernel (50 ms per second) */
	double gap = (double)res->trace_duration_ns / o->speed / (double)r->total;
	if (o->timing == REPLAY_TIMING_ORIGINAL && !o->no_rt && gap >= 60000) {
		struct sched_param sp = {.sched_priority = 10};
		is_rt = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
	}
	res->realtime = is_rt;
	reel_writer_meta_int(r->w, REEL_META_REPLAY_REALTIME, is_rt);
	r->t0 = reel_now_ns();
	r->inflight_t = 0;
	rc = replay_loop(r);
	/* whatever happened, drain what is in flight so buffers are not freed
	 * under the kernel */
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
	if (is_rt)
		sched_setscheduler(0, old_policy, &old_sp);
	if (rc == 0)
		rc = flush_ring(r);
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
	reel_writer_meta_int(r->w, REEL_META_REPLAY_DURATION_NS, res->duration_ns);
	reel_writer_meta_int(r->w, REEL_META_REPLAY_INTERRUPTED, res->interrupted);
	reel_writer_meta_dbl(r->w, REEL_META_REPLAY_RATIO_ACHIEVED, res->ratio_achieved);
	reel_writer_meta_int(r->w, REEL_META_REPLAY_IOS, (int64_t)res->ios);
	reel_writer_meta_int(r->w, REEL_META_REPLAY_ERRORS, (int64_t)res->errors);
	reel_writer_meta_int(r->w, REEL_META_REPLAY_SKIPPED, (int64_t)res->skipped);
wout:;
	int crc = reel_writer_close(r->w);
	r->w = NULL;
	if (fd >= 0)
		close(fd);
	if (rc == 0 && crc < 0)
		rc = fail(r, crc, "%s: writing the result failed: %s", o->result, reel_strerror(crc));
out:
	cleanup(r);
	free(r);
	free(ds);
	return rc;
}
