/*
 * model/fit.c - fit a workload model from a trace: the driver.  The trace
 * is read in passes (fit_source.c: from memory, or from the .reel file
 * chunk by chunk, so that memory does not grow with the trace): 1. counts,
 * time span, devices; 2. windows, their features, the devices' offsets,
 * the whole trace's b-model and PQRS; 3. phases, devices' jumps and runs,
 * in-flight; 4. the gap-class chains.  Every distribution is fitted on a
 * bounded sample (a fixed stride; fit_sample_cap shares a budget between
 * the distributions of one pass), so that its error stays below the knots'
 * tolerance; a trace within the bounds is fitted on every value.
 *
 *
 * The trace is cut into windows; windows are grouped into phases by their
 * features (rate, read share, request size, sequentiality) with k-means.
 * Per phase (fit_phase.c): op mix and op-to-op chain, request sizes per op,
 * inter-arrival times (empirical CDF, a Markov chain over gap classes,
 * fitted families), b-model bias.  Per device (fit_device.c): sequential
 * runs, jumps (local ones as an empirical CDF, remote ones as a Markov
 * chain over equal-mass regions), hot regions, read/write overlap.  Whole
 * trace (here): PQRS shares, in-flight, b-model.
 */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"

void model_free(struct model *m)
{
	if (!m)
		return;
	if (m->devs)
		for (size_t i = 0; i < m->ndevs; i++) {
			free(m->devs[i].tr_to);
			free(m->devs[i].tr_p);
			free(m->devs[i].pass);
		}
	free(m->devs);
	free(m->phases);
	free(m->win_phase);
	free(m->win_ops);
	memset(m, 0, sizeof(*m));
}

/* ---- k-means over window features -------------------------------------- */
#define NFEAT 4
static double kmeans(const double (*x)[NFEAT], size_t n, size_t k, int *assign,
		     double (*cent)[NFEAT])
{
	/* farthest-point initialisation: deterministic */
	memcpy(cent[0], x[0], sizeof(cent[0]));
	for (size_t c = 1; c < k; c++) {
		double best = -1;
		size_t bi = 0;
		for (size_t i = 0; i < n; i++) {
			double dmin = 1e300;
			for (size_t cc = 0; cc < c; cc++) {
				double d = 0;
				for (int f = 0; f < NFEAT; f++)
					d += (x[i][f] - cent[cc][f]) * (x[i][f] - cent[cc][f]);
				if (d < dmin)
					dmin = d;
			}
			if (dmin > best) {
				best = dmin;
				bi = i;
			}
		}
		memcpy(cent[c], x[bi], sizeof(cent[c]));
	}
	double sse = 0;
	for (int it = 0; it < 30; it++) {
		int changed = 0;
		sse = 0;
		for (size_t i = 0; i < n; i++) {
			double dmin = 1e300;
			int bc = 0;
			for (size_t c = 0; c < k; c++) {
				double d = 0;
				for (int f = 0; f < NFEAT; f++)
					d += (x[i][f] - cent[c][f]) * (x[i][f] - cent[c][f]);
				if (d < dmin) {
					dmin = d;
					bc = (int)c;
				}
			}
			if (it == 0 || assign[i] != bc)
				changed = 1;
			assign[i] = bc;
			sse += dmin;
		}
		if (!changed && it)
			break;
		double sum[MODEL_MAX_PHASES][NFEAT] = {{0}};
		size_t cnt[MODEL_MAX_PHASES] = {0};
		for (size_t i = 0; i < n; i++) {
			cnt[assign[i]]++;
			for (int f = 0; f < NFEAT; f++)
				sum[assign[i]][f] += x[i][f];
		}
		for (size_t c = 0; c < k; c++)
			if (cnt[c])
				for (int f = 0; f < NFEAT; f++)
					cent[c][f] = sum[c][f] / (double)cnt[c];
	}
	return sse;
}

/* ---- in-flight: a sweep over issues in time order -------------------------- */
/* A record's issue and completion; pending issues come out by issue time
 * (then by trace order, as a stable sort would give them). */
struct ic_ev {
	int64_t issue, complete;
	uint64_t seq;
};
#define IC_BEFORE(a, b)                                                                            \
	((a)->issue < (b)->issue || ((a)->issue == (b)->issue && (a)->seq < (b)->seq))
REEL_HEAP(ic_heap, struct ic_ev, IC_BEFORE)
#define I64_BEFORE(a, b) (*(a) < *(b))
REEL_HEAP(i64_heap, int64_t, I64_BEFORE)

/* The completions of the issues counted, of which those up to an issue
 * time come out (only their count matters): a sorted array while few are
 * in flight (an insertion near its end, the earliest at its start: no
 * branch to mispredict at every level of a heap), a heap beyond. */
#define DONE_SORTED 128
#define DONE_PAD 4 /* v[hi..hi + 4): INT64_MAX, so done_upto looks at 4 at once */
struct done_set {
	int64_t *v; /* sorted: v[lo..hi), then DONE_PAD of INT64_MAX */
	size_t lo, hi, cap;
	int heaped; /* too many in flight once: the heap from then on */
	struct i64_heap h;
};

static int done_add(struct done_set *s, int64_t c)
{
	if (s->heaped)
		return i64_heap_push(&s->h, c);
	if (s->hi - s->lo >= DONE_SORTED) {
		for (size_t i = s->lo; i < s->hi; i++)
			if (i64_heap_push(&s->h, s->v[i]))
				return REEL_E_NOMEM;
		s->heaped = 1;
		return i64_heap_push(&s->h, c);
	}
	if (s->hi == s->cap) { /* to the front (or a larger array) */
		if (s->lo) {
			memmove(s->v, s->v + s->lo, (s->hi - s->lo) * sizeof(*s->v));
			s->hi -= s->lo;
			s->lo = 0;
		} else {
			int64_t *nv = realloc(s->v, (2 * DONE_SORTED + DONE_PAD) * sizeof(*nv));
			if (!nv)
				return REEL_E_NOMEM;
			s->v = nv;
			s->cap = 2 * DONE_SORTED;
		}
		for (int k = 0; k < DONE_PAD; k++)
			s->v[s->hi + (size_t)k] = INT64_MAX;
	}
	/* locals: a store to v could alias the fields, reloaded at each step */
	int64_t *v = s->v;
	size_t hi = s->hi, j = hi, lo = s->lo;
	s->hi = hi + 1;
	for (; j > lo && v[j - 1] > c; j--) /* an insertion sort's step */
		v[j] = v[j - 1];
	v[j] = c;
	v[hi + DONE_PAD] = INT64_MAX; /* v[hi + 1 .. hi + DONE_PAD) were already */
	return 0;
}

/* Those up to X out: their count. */
static uint64_t done_upto(struct done_set *s, int64_t x)
{
	uint64_t k = 0;
	if (s->heaped) {
		while (s->h.n && s->h.v[0] <= x) {
			i64_heap_pop(&s->h);
			k++;
		}
		return k;
	}
	if (s->lo == s->hi)
		return 0;
	if (x == INT64_MAX) { /* all of them (the padding would count too) */
		k = s->hi - s->lo;
		s->lo = s->hi;
		return k;
	}
	/* sorted and padded: the count of the leading four up to x, without a
	 * branch per completion (mostly one or none comes out) */
	const int64_t *v = s->v;
	size_t lo = s->lo;
	do {
		k = (uint64_t)(v[lo] <= x) + (v[lo + 1] <= x) + (v[lo + 2] <= x) + (v[lo + 3] <= x);
		lo += k;
	} while (k == 4);
	k = lo - s->lo;
	s->lo = lo;
	return k;
}

struct inflight_fit {
	struct ic_heap pend;  /* issued after the arrivals so far, or not yet counted */
	struct done_set done; /* completions of the issues counted */
	struct samp lat, dep;
	uint64_t issued, completed, seq;
	double sum, mx;
};

static int inflight_init(struct inflight_fit *f, uint64_t nic, uint64_t cap)
{
	memset(f, 0, sizeof(*f));
	if (samp_init(&f->lat, nic, fit_stride(nic, cap)) ||
	    samp_init(&f->dep, nic, fit_stride(nic, cap)))
		return REEL_E_NOMEM;
	return 0;
}

/* G issues at X, their completions added: the depth each sees. */
static void inflight_count(struct inflight_fit *f, int64_t x, uint64_t g)
{
	f->completed += done_upto(&f->done, x);
	for (uint64_t k = 0; k < g; k++) {
		int64_t d = (int64_t)(++f->issued) - (int64_t)f->completed;
		samp_add(&f->dep, d);
		f->sum += (double)d;
		f->mx = (double)d > f->mx ? (double)d : f->mx;
	}
}

/* Count the pending issues earlier than LIMIT, in issue order: each sees
 * the I/O issued so far (itself included) less those completed by then
 * (completion <= its issue), as sorting every issue and every completion
 * would count them. */
static int inflight_drain(struct inflight_fit *f, int64_t limit)
{
	while (f->pend.n && f->pend.v[0].issue < limit) {
		int64_t x = f->pend.v[0].issue;
		uint64_t g = 0;
		while (f->pend.n && f->pend.v[0].issue == x) { /* ties together */
			struct ic_ev ev = ic_heap_pop(&f->pend);
			if (done_add(&f->done, ev.complete))
				return REEL_E_NOMEM;
			g++;
		}
		inflight_count(f, x, g);
	}
	return 0;
}

/* The records in arrival order: an issue is never earlier than its
 * arrival, so the issues before an arrival are final (the heaps hold the
 * I/O queued and not issued, and those in flight: a few). */
static int inflight_chunk(struct inflight_fit *f, const struct fit_cols *c)
{
	if (!c->issue)
		return 0;
	for (size_t i = 0; i < c->n; i++) {
		int64_t is = c->issue[i], cs = c->complete[i];
		if (is < 0 || cs < is)
			continue;
		if (f->pend.n && f->pend.v[0].issue < c->t[i] && inflight_drain(f, c->t[i]))
			return REEL_E_NOMEM;
		samp_add(&f->lat, cs - is);
		/* none pending and the next record (counted) arriving after this
		 * issue: the next drain would take this one alone, so it is
		 * counted now, past the heap (most I/O are issued before the
		 * next arrives: the 10M trace's in-flight 9.2% -> 8.7% of the
		 * fit's samples) */
		size_t j = i + 1;
		if (!f->pend.n && j < c->n && c->t[j] > is && c->issue[j] >= 0 &&
		    c->complete[j] >= c->issue[j]) {
			f->seq++;
			if (done_add(&f->done, cs))
				return REEL_E_NOMEM;
			inflight_count(f, is, 1);
			continue;
		}
		if (ic_heap_push(&f->pend, (struct ic_ev){is, cs, f->seq++}))
			return REEL_E_NOMEM;
	}
	return 0;
}

static int inflight_finish(struct inflight_fit *f, struct model *m)
{
	int e = inflight_drain(f, INT64_MAX);
	if (!e && f->issued >= 2) {
		struct model_inflight *fl = &m->inflight;
		fl->known = 1;
		fl->mean = f->sum / (double)f->issued;
		fl->max = f->mx;
		samp_fit(&f->dep, &fl->depth);
		samp_fit(&f->lat, &fl->latency);
	}
	free(f->pend.v);
	free(f->done.v);
	free(f->done.h.v);
	samp_free(&f->lat);
	samp_free(&f->dep);
	return e;
}

/* ---- windows ------------------------------------------------------------------ */
static size_t window_of(int64_t t, int64_t t0, int64_t dur, size_t nwin)
{
	size_t wi = (size_t)((double)(t - t0) / (double)dur * (double)nwin);
	return wi >= nwin ? nwin - 1 : wi;
}

/* The window of each arrival: times in order mostly stay in the window of
 * the one before; the exact division only near a bound. */
struct win_cut {
	int64_t t0, dur;
	size_t nwin, wi;
	int64_t wlo, wend; /* every time in [wlo, wend) falls in window wi */
};
static size_t win_of(struct win_cut *c, int64_t t)
{
	if (t >= c->wlo && t < c->wend)
		return c->wi;
	size_t wi = window_of(t, c->t0, c->dur, c->nwin);
	c->wi = wi;
	c->wlo = t;
	/* wend: the first time in a later window */
	if (wi + 1 >= c->nwin) {
		c->wend = INT64_MAX;
		return wi;
	}
	double est = (double)(wi + 1) * (double)c->dur / (double)c->nwin;
	int64_t wend = c->t0 + (int64_t)est;
	if (wend <= t)
		wend = t + 1;
	while (wend > t + 1 && window_of(wend - 1, c->t0, c->dur, c->nwin) > wi)
		wend--;
	while (window_of(wend, c->t0, c->dur, c->nwin) <= wi)
		wend++;
	c->wend = wend;
	return wi;
}

/* ---- the steps of the fit ------------------------------------------------ */
/* The k-means features of each window: log I/O count, read share, mean
 * log2 size, sequential share (scaled to comparable spreads); the sums
 * gathered by the windows' pass. */
struct win_sums {
	uint32_t *cnt, *rd, *sq;
	double *ls;
	int has_prev;
	uint64_t pend; /* the previous record's end offset */
};

/* A window's sums so far in a chunk (window_sums). */
struct win_acc {
	uint32_t n, sq, op[REEL_OP__COUNT];
	uint64_t ls;
};
/* by value: the sums stay in registers (none of their addresses taken) */
static inline void win_acc_put(struct win_sums *ws, struct model *m, size_t w, struct win_acc a)
{
	ws->cnt[w] += a.n;
	for (int o = 0; o < REEL_OP__COUNT; o++)
		m->win_ops[w * REEL_OP__COUNT + (size_t)o] += a.op[o];
	ws->rd[w] += a.op[REEL_OP_READ];
	ws->ls[w] += (double)a.ls; /* integers: the same sum in any order */
	ws->sq[w] += a.sq;
}

/* Each window's sums gathered in locals while the records stay in it
 * (times in order: a window's run of records), not in its five counters
 * a record: each += on the one before's store waited on its forwarding,
 * and the log sizes' on a double add too. */
static void window_sums(struct win_sums *ws, struct model *m, const struct fit_cols *c)
{
	if (!c->n)
		return;
	struct win_acc a = {0};
	size_t w = c->win[0];
	int has_prev = ws->has_prev;
	uint64_t pend = ws->pend;
	for (size_t i = 0; i < c->n; i++) {
		if (c->win[i] != w) {
			win_acc_put(ws, m, w, a);
			a = (struct win_acc){0};
			w = c->win[i];
		}
		uint8_t op = c->op[i];
		a.n++;
#pragma GCC unroll 8 /* the counts in registers: compares, no store a record */
		for (int o = 0; o < REEL_OP__COUNT; o++)
			a.op[o] += op == o;
		a.ls += (uint64_t)(63 - __builtin_clzll((uint64_t)c->len[i] + 1));
		a.sq += has_prev && c->off[i] == pend;
		has_prev = 1;
		pend = c->off[i] + c->len[i];
	}
	win_acc_put(ws, m, w, a);
	ws->has_prev = has_prev;
	ws->pend = pend;
}

static void window_features(const struct win_sums *ws, size_t nwin, double (*feat)[NFEAT])
{
	for (size_t w = 0; w < nwin; w++) {
		uint32_t cnt = ws->cnt[w];
		feat[w][0] = log2((double)cnt + 1);
		feat[w][1] = cnt ? (double)ws->rd[w] / (double)cnt / 0.25 : 2;
		feat[w][2] = cnt ? ws->ls[w] / (double)cnt : 0;
		feat[w][3] = cnt ? (double)ws->sq[w] / (double)cnt / 0.25 : 0;
	}
}

/* Phases: k-means over the window features with k = 1, 2, ... until the
 * mean squared distance is small; renumbered by first appearance.  The
 * number of phases, or REEL_E_NOMEM. */
static long group_phases(const struct win_sums *ws, uint64_t n, size_t nwin, unsigned maxp,
			 int *wphase)
{
	double(*feat)[NFEAT] = calloc(nwin, sizeof(*feat));
	double(*cent)[NFEAT] = calloc(MODEL_MAX_PHASES, sizeof(*cent));
	int *as = calloc(nwin, sizeof(*as));
	if (!feat || !cent || !as) {
		free(feat);
		free(cent);
		free(as);
		return REEL_E_NOMEM;
	}
	window_features(ws, nwin, feat);
	/* at most one phase per 128 I/O: a phase fitted on fewer says little
	 * and costs the model's size */
	size_t kmax = nwin / 4 < maxp ? nwin / 4 : maxp;
	if (kmax > n / 128)
		kmax = n / 128 ? n / 128 : 1;
	for (size_t k = 1; k <= kmax; k++) {
		double sse = kmeans((const double(*)[NFEAT])feat, nwin, k, as, cent);
		memcpy(wphase, as, nwin * sizeof(*as));
		if (sse / (double)nwin <= 0.25)
			break;
	}
	free(feat);
	free(cent);
	free(as);
	/* renumber phases by first appearance; drop empty ones */
	int map[MODEL_MAX_PHASES];
	for (int i = 0; i < MODEL_MAX_PHASES; i++)
		map[i] = -1;
	long next = 0;
	for (size_t w = 0; w < nwin; w++) {
		if (map[wphase[w]] < 0)
			map[wphase[w]] = (int)next++;
		wphase[w] = map[wphase[w]];
	}
	return next;
}

/* Devices in order of first use, each with its share and header name and
 * capacity. */
static int fit_devices_table(struct model *m, const struct fit_scan *sc,
			     const struct reel_device *hdev, size_t nhdev)
{
	m->devs = calloc(sc->nd, sizeof(*m->devs));
	if (!m->devs)
		return REEL_E_NOMEM;
	m->ndevs = sc->nd;
	for (size_t k = 0; k < sc->nd; k++) {
		struct model_devspace *d = &m->devs[k];
		d->id = sc->ids[k];
		d->share = (double)sc->per[k] / (double)sc->n;
		snprintf(d->name, sizeof(d->name), "dev%u", sc->ids[k]);
		for (size_t h = 0; h < nhdev; h++)
			if (hdev[h].id == sc->ids[k]) {
				snprintf(d->name, sizeof(d->name), "%s", hdev[h].name);
				d->capacity = hdev[h].capacity;
			}
	}
	return 0;
}
/* ---- the passes ------------------------------------------------------------- */
/* What the fit holds between passes. */
struct fit_run {
	struct model *m;
	struct fit_src *src;
	struct fit_scan sc;
	struct win_cut cut;
	struct win_sums ws;
	uint16_t *win; /* the windows of the last FIT_WIN_BUFS chunks */
	/* their records by device, a chunk's stretches each (passes 2 and 3,
	 * several devices), or NULL */
	struct dev_stretches *stretches;
	/* pass 4's blocks of the last FIT_WIN_BUFS chunks, gathered here for
	 * the second thread's re-use pass (model_devs_pregathers), or NULL */
	struct reuse_pre *gathers;
	int *wphase;
	struct phases_fit *pf;
	struct devs_fit *df;
	struct inflight_fit inf;
	struct model_bm bm[REEL_OP__COUNT + 1]; /* the whole trace's */
	int sh[REEL_OP__COUNT];
	struct model_pqrs pq;
	struct fit_side *side; /* the second thread of passes 2-4, or NULL */
	int scan_main;	       /* pass 3's phases' scan on the main thread (side_walk) */
	uint64_t devs_main;    /* the devices (bit k: index k) whose part of the pass is here */
	uint64_t devs_half;    /* those whose regions, or fit after pass 3, are here */
};

/* One pass: each chunk with its records' windows to SIDE (the devices'
 * part, their state their own: on the second thread, a few chunks behind
 * at most) and to FN (the rest, here); 0 or an error.  IC: they read the
 * issue and completion times. */
typedef int (*pass_fn)(struct fit_run *fr, const struct fit_cols *c);
#define FIT_WIN_BUFS (FIT_SIDE_JOBS + 1) /* a chunk's windows kept until its job ran */
/* PRE: work of the main thread's before its part of the pass, done once
 * the second thread has the first FIT_PRE_CHUNKS chunks' jobs (their
 * slots and windows held until then: fewer than the read-ahead's slots,
 * RA_SLOTS in fit_source.c, so that the reader can fill the last one
 * held, and than FIT_WIN_BUFS) */
typedef int (*pre_fn)(struct fit_run *fr);
#define FIT_PRE_CHUNKS (FIT_SIDE_JOBS - 1)

/* PRE (unless E), then FN on the NH chunks held for it, each given back. */
static int pass_pre(struct fit_run *fr, pre_fn pre, pass_fn fn, const struct fit_cols *held,
		    size_t nh, int e)
{
	e = e ? e : pre(fr);
	for (size_t i = 0; i < nh; i++) {
		e = e ? e : fn(fr, &held[i]);
		if (held[i].slot) /* kept (a trace in memory needs no keeping) */
			fit_src_drop(fr->src, &held[i]);
	}
	return e;
}

/* POST: the main thread's work after its part of the pass, done beside
 * the second thread's rest (before the wait for it). */
static int fit_pass(struct fit_run *fr, fit_side_fn side, pass_fn fn, int ic, pre_fn pre,
		    pre_fn post)
{
	struct fit_cols c, held[FIT_PRE_CHUNKS];
	size_t nh = 0;
	long k = 0;
	int e = fit_src_rewind(fr->src, ic);
	if (pre && !fr->side) { /* one thread: nothing to do beside it */
		e = e ? e : pre(fr);
		pre = NULL;
	}
	fr->cut.wlo = INT64_MAX;
	fr->cut.wend = INT64_MIN;
	for (size_t j = 0; !e && (k = fit_src_next(fr->src, &c)) > 0; j++) {
		uint16_t *win = fr->win + j % FIT_WIN_BUFS * FIT_CHUNK;
		struct win_cut cut = fr->cut; /* a local: its range in registers */
		for (size_t i = 0; i < c.n; i++)
			win[i] = (uint16_t)win_of(&cut, c.t[i]);
		fr->cut = cut;
		c.win = win;
		c.stretches = NULL;
		if (fr->stretches) { /* made once for both threads' devices */
			struct dev_stretches *sts = fr->stretches + j % FIT_WIN_BUFS;
			model_devs_stretches(fr->df, &c, sts);
			c.stretches = sts;
		}
		c.gathered = NULL;
		if (fr->gathers) { /* before the job is posted: the side reads them */
			struct reuse_pre *pg = fr->gathers + j % FIT_WIN_BUFS;
			model_devs_pregather(fr->df, &c, pg);
			c.gathered = pg;
		}
		e = fit_side_post(fr->side, side, fr, &c, fr->src);
		if (pre && !e && fit_src_keep(fr->src, &c) >= 0) { /* held for PRE */
			held[nh++] = c;
			if (nh == FIT_PRE_CHUNKS) {
				e = pass_pre(fr, pre, fn, held, nh, e);
				pre = NULL;
			}
			continue;
		}
		if (pre) { /* not held: PRE first */
			e = pass_pre(fr, pre, fn, held, nh, e);
			pre = NULL;
		}
		int ef = e ? 0 : fn(fr, &c);
		e = e ? e : ef;
	}
	if (pre) /* fewer chunks than FIT_PRE_CHUNKS, or an error */
		e = pass_pre(fr, pre, fn, held, nh, e);
	if (post && !e && k >= 0)
		e = post(fr);
	int es = fit_side_wait(fr->side);
	return e ? e : es ? es : k < 0 ? (int)k : 0;
}

/* The second thread's parts of the passes (their state their own): the
 * devices', and in pass 3 the phases' scan where the main thread has
 * in-flight, as long (HISTORY.md "Fit, tenth pass"); a trace without issue
 * and completion times (gen's) has no in-flight: the scan is the main
 * thread's then (pass_main), beside the walk, not after it (scan_main). */
static int side_offsets(void *arg, const struct fit_cols *c)
{
	struct fit_run *fr = arg;
	model_devs_offsets(fr->df, c, ~fr->devs_main);
	return 0;
}
static int side_walk(void *arg, const struct fit_cols *c)
{
	struct fit_run *fr = arg;
	int e = model_devs_walk(fr->df, c, ~fr->devs_main);
	if (!fr->m->naive && !fr->scan_main)
		model_phases_scan(fr->pf, c);
	return e;
}
static int side_seq(void *arg, const struct fit_cols *c)
{
	return model_devs_seq(((struct fit_run *)arg)->df, c);
}

/* Pass 2: the windows' sums, and the whole trace's b-model and PQRS
 * (they need only the first pass: here, where the main thread has the
 * least to do, not in pass 3) */
static int pass_windows(struct fit_run *fr, const struct fit_cols *c)
{
	if (fr->devs_main)
		model_devs_offsets(fr->df, c, fr->devs_main);
	window_sums(&fr->ws, fr->m, c);
	bm_add_ops(fr->bm, fr->sh, c->op, c->t, c->n);
	model_pqrs_add_n(&fr->pq, c->t, c->off, c->n);
	return 0;
}

static int pass_main(struct fit_run *fr, const struct fit_cols *c)
{
	if (fr->scan_main && !fr->m->naive)
		model_phases_scan(fr->pf, c);
	if (fr->devs_main && model_devs_walk(fr->df, c, fr->devs_main))
		return REEL_E_NOMEM;
	return inflight_chunk(&fr->inf, c);
}

/* Of several devices, those whose part of passes 2 and 3 (offsets, walk)
 * the main thread takes beside its own (devs_main): the last ones, a
 * fifth of the I/O or less, the rest the second thread's.  Each device's
 * state is its own: the same model.  With the devices' records by device
 * (model_devs_stretches, made on the main thread) a third left the main
 * thread the longer part of both passes on disksim's 16 disks (10M I/O,
 * G instructions: pass 2 1.85 here against 0.65 on the second thread and
 * the read-ahead's ~0.8; pass 3 2.86 against 1.63); a fifth evens them
 * (1.72 / 0.78, 2.56 / 1.92). */
static uint64_t devs_split(const struct fit_scan *sc)
{
	uint64_t mine = 0, n = 0;
	for (size_t k = sc->nd; k-- > 1 && 5 * (n + sc->per[k]) <= sc->n;) {
		n += sc->per[k];
		mine |= 1ull << k;
	}
	return mine;
}

static int pass_chain(struct fit_run *fr, const struct fit_cols *c)
{
	model_phases_chain(fr->pf, c);
	model_devs_sizes(fr->df, c); /* here: the second thread has the longer part */
	return 0;
}

/* After pass 3: the devices' fit (fit_rest), of the devices not in
 * fr->devs_half (the main thread's half). */
static int side_finish(void *arg, const struct fit_cols *c)
{
	struct fit_run *fr = arg;
	(void)c;
	return model_devs_finish(fr->df, ~fr->devs_half);
}

/* In-flight's fit, from pass 3. */
static int inflight_fit(struct fit_run *fr)
{
	int e = inflight_finish(&fr->inf, fr->m); /* its memory freed, whatever e */
	memset(&fr->inf, 0, sizeof(fr->inf));
	return e;
}

/* Pass 4's start on the main thread (fit_pass's PRE): in-flight's fit and
 * the phases' gaps, which only the main thread's part of the pass needs,
 * while the second thread begins its part: the re-use pass, whose first
 * chunks are its slowest (every block kept until the map halves; the main
 * thread waited for it 0.1-0.15 s at 10M I/O), so that they are not
 * between the passes on one thread (0.045-0.06 s at 10M I/O). */
static int pass_pre4(struct fit_run *fr)
{
	int e = inflight_fit(fr);
	model_phases_fill(fr->pf);
	return e;
}

/* Pass 4's end on the main thread (fit_pass's POST): the phases' fit
 * (their gap chains' and the arrivals' check on two threads, fit_par_for),
 * beside the second thread's rest of the re-use pass (the longer part:
 * the main thread waited for it), which reads none of the phases. */
static int pass_post4(struct fit_run *fr)
{
	model_phases_finish(fr->pf);
	return 0;
}

static void fit_run_free(struct fit_run *fr)
{
	fit_side_stop(fr->side);
	free(fr->sc.slot);
	free(fr->ws.cnt);
	free(fr->ws.rd);
	free(fr->ws.sq);
	free(fr->ws.ls);
	free(fr->win);
	free(fr->stretches);
	free(fr->gathers);
	free(fr->wphase);
	model_phases_free(fr->pf);
	model_devs_free(fr->df);
	free(fr->inf.pend.v);
	free(fr->inf.done.v);
	free(fr->inf.done.h.v);
	samp_free(&fr->inf.lat);
	samp_free(&fr->inf.dep);
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		free(fr->bm[k].c);
	free(fr->pq.c);
}

/* The model's frame from the first pass: count, duration, quantum,
 * windows, devices. */
static int fit_frame(struct fit_run *fr, const struct reel_device *hdev, size_t nhdev)
{
	struct model *m = fr->m;
	const struct fit_scan *sc = &fr->sc;
	m->count = sc->n;
	m->duration_ns = sc->tmax - sc->tmin + 1;
	/* the clock's granularity (DiskSim's us, Windows' 100 ns ticks): the
	 * gcd of the arrival times */
	m->quantum_ns = sc->q ? (int64_t)sc->q : 1;
	if (m->quantum_ns > m->duration_ns)
		m->quantum_ns = 1;
	/* windows: a power of two, so that b-model levels fall on window bounds */
	size_t nwin = 256;
	while (nwin < MODEL_MAX_WINDOWS && nwin * 8 < sc->n)
		nwin *= 2;
	if (m->naive)
		nwin = 1;
	m->nwin = nwin;
	fr->cut = (struct win_cut){.t0 = sc->tmin, .dur = m->duration_ns, .nwin = nwin};
	fr->ws.cnt = calloc(nwin, sizeof(*fr->ws.cnt));
	fr->ws.rd = calloc(nwin, sizeof(*fr->ws.rd));
	fr->ws.sq = calloc(nwin, sizeof(*fr->ws.sq));
	fr->ws.ls = calloc(nwin, sizeof(*fr->ws.ls));
	fr->win = malloc(FIT_WIN_BUFS * FIT_CHUNK * sizeof(*fr->win));
	fr->wphase = calloc(nwin, sizeof(*fr->wphase));
	m->win_phase = malloc(nwin * sizeof(*m->win_phase));
	m->win_ops = calloc(nwin * REEL_OP__COUNT, sizeof(*m->win_ops));
	if (!fr->ws.cnt || !fr->ws.rd || !fr->ws.sq || !fr->ws.ls || !fr->win || !fr->wphase ||
	    !m->win_phase || !m->win_ops)
		return REEL_E_NOMEM;
	return fit_devices_table(m, sc, hdev, nhdev);
}

/* After pass 2: the devices' regions, of the devices not in fr->devs_half
 * (the main thread's half). */
static int side_regions(void *arg, const struct fit_cols *c)
{
	struct fit_run *fr = arg;
	(void)c;
	model_devs_regions(fr->df, ~fr->devs_half);
	return 0;
}

/* Pass 2 and what follows it: the window table, the phases, the regions;
 * the samples of pass 3 sized. */
static int fit_windows(struct fit_run *fr, unsigned maxp, uint64_t *cap3)
{
	struct model *m = fr->m;
	uint64_t n2[MODEL_MAX_DEVS], n3[FIT_PASS_DISTS];
	for (size_t k = 0; k < fr->sc.nd; k++)
		n2[k] = fr->sc.pre[k].nd;
	const struct fit_scan *sc = &fr->sc;
	int64_t t0 = sc->tmin, t1 = sc->tmin + m->duration_ns;
	int e =
	    model_devs_init(&fr->df, m, &fr->sc, fit_sample_cap(n2, fr->sc.nd, FIT_SAMPLE_BUDGET));
	for (int k = 0; !e && k <= REEL_OP__COUNT; k++)
		e = model_bm_init_max(&fr->bm[k], k ? sc->nop[k - 1] : sc->n, t0, t1,
				      FIT_BM_LEVELS);
	bm_op_shifts(fr->bm, fr->sh);
	if (!e && model_pqrs_init(&fr->pq, sc->n, t0, t1, 0, sc->amax))
		e = REEL_E_NOMEM;
	fr->devs_main = fr->side ? devs_split(sc) : 0;
	if (!e && m->ndevs > 1 && !(fr->stretches = malloc(FIT_WIN_BUFS * sizeof(*fr->stretches))))
		e = REEL_E_NOMEM;
	if (e || (e = fit_pass(fr, side_offsets, pass_windows, 0, NULL, NULL)))
		return e;
	/* the devices' regions, half on the second thread beside the rest and
	 * half here (their sample counts after the phases' in n3) */
	fr->devs_half = fr->side ? model_devs_half(fr->df, 0) : 0;
	fit_side_post(fr->side, side_regions, fr, NULL, NULL);
	for (int k = 0; k <= REEL_OP__COUNT; k++) /* their memory goes */
		m->bmodel[k] = model_bm_finish(&fr->bm[k]);
	model_pqrs_finish(&fr->pq, m->pqrs);
	long nph = 1;
	if (!m->naive && m->nwin >= 8)
		nph = group_phases(&fr->ws, fr->sc.n, m->nwin, maxp, fr->wphase);
	model_devs_regions(fr->df, fr->devs_half);
	fit_side_wait(fr->side);
	if (nph < 0)
		return REEL_E_NOMEM;
	m->nphases = (size_t)nph;
	if (!(m->phases = calloc((size_t)nph, sizeof(*m->phases))))
		return REEL_E_NOMEM;
	for (size_t w = 0; w < m->nwin; w++)
		m->win_phase[w] = (uint16_t)fr->wphase[w];
	size_t k = m->naive ? 0 : model_phases_counts(m, fr->wphase, fr->ws.cnt, n3);
	k += model_devs_region_counts(fr->df, n3 + k);
	n3[k++] = fr->sc.nic;
	n3[k++] = fr->sc.nic;
	*cap3 = fit_sample_cap(n3, k, FIT_SAMPLE_BUDGET);
	return 0;
}

/* The heap's free pages given back to the system.  glibc keeps a block
 * freed below its mmap threshold (which it raises to the largest block
 * freed, up to 32 MiB) in its heap, resident: pass 3's samples, fitted
 * and freed, stayed resident under pass 4's block map (16 devices at 10M
 * I/O: 30 MB of the heap's 47 free as pass 4 began). */
static void heap_trim(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

/* Pass 3 (and 4 for the gap chains): the rest. */
static int fit_rest(struct fit_run *fr, uint64_t cap)
{
	struct model *m = fr->m;
	const struct fit_scan *sc = &fr->sc;
	int64_t t0 = sc->tmin;
	int e;
	/* pass 2's freed blocks given back too: the first pass's second
	 * reader, freed (its 4 MiB block mapped on its own), raised glibc's
	 * threshold to keep the heap's free top to 8 MiB, which stayed
	 * resident under pass 3 (HISTORY.md "Fit, fifteenth pass") */
	heap_trim();
	if (m->naive)
		model_fit_naive_phase(m, sc);
	else if ((e = model_phases_init(&fr->pf, m, fr->wphase, fr->ws.cnt, t0, cap)))
		return e;
	fr->scan_main = !sc->nic;
	if (!fr->scan_main) /* in-flight: the main thread's part is as long */
		fr->devs_main = 0;
	if ((e = model_devs_walk_init(fr->df, cap)) ||
	    (e = inflight_init(&fr->inf, sc->nic, cap)) ||
	    (e = fit_pass(fr, side_walk, pass_main, 1, NULL, NULL)))
		return e;
	/* what pass 3 gathered, fitted: half the devices (model_devs_half) on
	 * the second thread beside the phases' sizes, which the devices' part
	 * of pass 4 reads (their state apart, as in the pass), the other half
	 * on this thread after the sizes; the rest at pass 4's start */
	fr->devs_half = fr->side ? model_devs_half(fr->df, 1) : 0;
	int ep = fit_side_post(fr->side, side_finish, fr, NULL, NULL), ei = 0;
	if (m->naive)
		ei = inflight_fit(fr);
	else
		model_phases_fill_sizes(fr->pf);
	int eh = model_devs_finish(fr->df, fr->devs_half); /* the main thread's half */
	if ((e = fit_side_wait(fr->side)) || (e = ep) || (e = ei) || (e = eh) || m->naive)
		return e;
	free(fr->stretches); /* pass 4 reads the devices' records in order */
	fr->stretches = NULL;
	heap_trim();
	if ((e = model_devs_seq_init(fr->df, m, fr->wphase)))
		return e;
	/* several devices without sample maps (disksim's 16 disks): their
	 * blocks hashed here, not on the second thread, whose re-use pass was
	 * pass 4's longer part (no room: hashed there, the same model) */
	if (fr->side && model_devs_pregathers(fr->df))
		fr->gathers = malloc(FIT_WIN_BUFS * sizeof(*fr->gathers));
	if ((e = fit_pass(fr, side_seq, pass_chain, 0, pass_pre4, pass_post4)))
		return e;
	free(fr->gathers);
	fr->gathers = NULL;
	return model_devs_seq_finish(fr->df, m);
}

/* ---- the whole fit ------------------------------------------------------- */
/* Fit from SRC; HDEV: the header's devices (NULL: the reader's, once the
 * first pass has read them all).  1 when the trace is not sorted by
 * arrival time (nothing fitted), else 0 or an error. */
static int fit_source(struct model *m, struct fit_src *src, const struct reel_device *hdev,
		      size_t nhdev, const struct model_fit_opts *o, char *err, size_t errlen)
{
	struct fit_run fr = {.m = m, .src = src};
	unsigned maxp = o && o->max_phases ? o->max_phases : 8;
	if (maxp > MODEL_MAX_PHASES)
		maxp = MODEL_MAX_PHASES;
	m->naive = o && o->naive;
	uint64_t cap = 0;
	int e = fit_scan(src, &fr.sc, err, errlen);
	if (!e && fr.sc.n < 2)
		e = reel_errf(err, errlen, REEL_E_ARG,
			      "the trace has %llu I/O; a model needs at least 2",
			      (unsigned long long)fr.sc.n);
	if (e || !fr.sc.sorted) {
		fit_run_free(&fr);
		return e ? e : 1;
	}
	if (!hdev) {
		const struct reel_header *h = reel_reader_header(src->r);
		hdev = h->devices;
		nhdev = h->ndevices < 64 ? h->ndevices : 64;
	}
	fr.side = fit_side_start();
	if (!(e = fit_frame(&fr, hdev, nhdev)) && !(e = fit_windows(&fr, maxp, &cap)))
		e = fit_rest(&fr, cap);
	if (e == REEL_E_NOMEM)
		reel_errf(err, errlen, e, "out of memory fitting %llu I/O",
			  (unsigned long long)fr.sc.n);
	else if (e == REEL_E_CORRUPT && src->n && src->pos != src->n)
		reel_errf(err, errlen, e,
			  "the file changed while fit read it (%llu I/O in its first "
			  "read, %llu in a later one); fit it again once nothing writes it",
			  (unsigned long long)src->n, (unsigned long long)src->pos);
	else if (e)
		reel_errf(err, errlen, e, "%s",
			  src->r ? reel_reader_errmsg(src->r) : reel_strerror(e));
	fit_run_free(&fr);
	if (e)
		model_free(m);
	return e;
}

int model_fit(struct model *m, const struct model_trace *tr, const struct model_fit_opts *o,
	      char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	struct fit_src src = {.tr = tr};
	int e = fit_source(m, &src, tr->devs, tr->ndev, o, err, errlen);
	if (e == 1)
		return reel_errf(err, errlen, REEL_E_ARG,
				 "the trace is not sorted by arrival time (model_trace_sort)");
	if (!e)
		snprintf(m->source, sizeof(m->source), "%s", tr->source);
	return e;
}

int model_fit_file(struct model *m, const char *path, const struct model_fit_opts *o, char *err,
		   size_t errlen)
{
	memset(m, 0, sizeof(*m));
	struct fit_src src = {0};
	if (reel_reader_open(&src.r, path, 0)) /* model_trace_load says why */
		return model_trace_load(&(struct model_trace){0}, path, err, errlen);
	char source[64];
	const struct reel_header *h = reel_reader_header(src.r);
	snprintf(source, sizeof(source), "%s", h->source ? h->source : "");
	int e = fit_source(m, &src, NULL, 0, o, err, errlen);
	fit_src_close(&src);
	reel_reader_close(src.r);
	if (e == 1) { /* not in time order: sorted in memory */
		struct model_trace tr;
		if ((e = model_trace_load(&tr, path, err, errlen)))
			return e;
		e = model_fit(m, &tr, o, err, errlen);
		model_trace_free(&tr);
		return e;
	}
	if (e && !strncmp(err, path, strlen(path))) /* the reader's message names it */
		return e;
	if (e) { /* name the file */
		char msg[512];
		snprintf(msg, sizeof(msg), "%s", err);
		return reel_errf(err, errlen, e, "%s: %s", path, msg);
	}
	snprintf(m->source, sizeof(m->source), "%s", source);
	return 0;
}
