/*
 * formats/trace_stats.c - the statistics of a trace that `ioreel info`
 * prints (and other modules reuse), struct reel_stats: counts, sizes,
 * latencies, peak rates and in-flight I/Os, in one streaming pass whose
 * memory is bounded by the distinct request sizes tracked (capped) and the
 * in-flight count.  The histograms are formats/hist.c.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"

/* ---- distinct sizes: small open hash, capped ---------------------------- */
#define SIZE_SLOTS 4096
struct size_tab {
	uint32_t size[SIZE_SLOTS];
	uint64_t count[SIZE_SLOTS];
	size_t used;
};

static void size_add(struct size_tab *t, uint32_t s)
{
	size_t h = (s * 2654435761u) & (SIZE_SLOTS - 1);
	for (size_t k = 0; k < SIZE_SLOTS; k++, h = (h + 1) & (SIZE_SLOTS - 1)) {
		if (t->count[h] && t->size[h] == s) {
			t->count[h]++;
			return;
		}
		if (!t->count[h]) {
			if (t->used >= SIZE_SLOTS * 3 / 4)
				return; /* too many distinct sizes: the top list ignores the rest */
			t->size[h] = s;
			t->count[h] = 1;
			t->used++;
			return;
		}
	}
}

/* ---- in-flight: min-heap of completion times ---------------------------- */
#define NS_BEFORE(a, b) (*(a) < *(b))
REEL_HEAP(ns_heap, int64_t, NS_BEFORE)

/* What one pass keeps besides *s. */
struct stats_pass {
	struct size_tab *st;
	struct ns_heap hp;
	int64_t win; /* current 1-second window, by arrival */
	uint64_t win_n, win_bytes;
	int64_t busy_t; /* time of the last in-flight change */
	double area;	/* integral of in-flight over time */
	int64_t busy_start;
	int64_t busy_ns; /* time with at least one I/O in flight */
};

/* Close the current 1-second window: the peaks keep the best one. */
static void window_close(struct reel_stats *s, const struct stats_pass *p)
{
	if (p->win == INT64_MIN)
		return;
	if ((double)p->win_n > s->peak_iops)
		s->peak_iops = (double)p->win_n;
	if ((double)p->win_bytes / 1e6 > s->peak_mbps)
		s->peak_mbps = (double)p->win_bytes / 1e6;
}

/* Completions up to `until` leave the in-flight set (all when INT64_MAX). */
static void inflight_drain(struct stats_pass *p, int64_t until)
{
	while (p->hp.n && p->hp.v[0] <= until) {
		int64_t c = ns_heap_pop(&p->hp);
		p->area += (double)(p->hp.n + 1) * (double)(c - p->busy_t);
		p->busy_ns += c - p->busy_t;
		p->busy_t = c;
	}
}

/* An I/O with issue and completion times enters the in-flight set. */
static int inflight_add(struct reel_stats *s, struct stats_pass *p, const struct reel_rec *x)
{
	/* in flight: completions before this issue leave first */
	inflight_drain(p, x->issue_ns);
	if (p->busy_start == INT64_MIN)
		p->busy_start = x->issue_ns;
	if (x->issue_ns > p->busy_t) {
		p->area += (double)p->hp.n * (double)(x->issue_ns - p->busy_t);
		if (p->hp.n)
			p->busy_ns += x->issue_ns - p->busy_t;
		p->busy_t = x->issue_ns;
	}
	if (ns_heap_push(&p->hp, x->complete_ns))
		return REEL_E_NOMEM;
	if (p->hp.n > s->inflight_max)
		s->inflight_max = p->hp.n;
	return 0;
}

/* Times, completions and latencies of one record. */
static int stats_times(struct reel_stats *s, struct stats_pass *p, const struct reel_rec *x)
{
	if (x->has & REEL_HAS_ISSUE) {
		s->with_issue++;
		if (x->has & REEL_HAS_QUEUE && x->issue_ns >= x->queue_ns)
			reel_hist_add(&s->qdelay, (uint64_t)(x->issue_ns - x->queue_ns));
	}
	if (!(x->has & REEL_HAS_COMPLETE))
		return 0;
	s->with_complete++;
	if (x->complete_ns > s->end_ns)
		s->end_ns = x->complete_ns;
	if (x->has & REEL_HAS_QUEUE && x->complete_ns >= x->queue_ns)
		reel_hist_add(&s->qlat, (uint64_t)(x->complete_ns - x->queue_ns));
	if (!(x->has & REEL_HAS_ISSUE) || x->complete_ns < x->issue_ns)
		return 0;
	uint64_t l = (uint64_t)(x->complete_ns - x->issue_ns);
	reel_hist_add(&s->lat[REEL_OP__COUNT], l);
	if (x->op < REEL_OP__COUNT)
		reel_hist_add(&s->lat[x->op], l);
	return inflight_add(s, p, x);
}

static int stats_add(struct reel_stats *s, struct stats_pass *p, const struct reel_rec *x)
{
	int64_t t = x->has & REEL_HAS_QUEUE ? x->queue_ns : x->issue_ns;
	if (t < s->first_ns)
		s->first_ns = t;
	if (t > s->last_ns)
		s->last_ns = t;
	if (t > s->end_ns)
		s->end_ns = t;
	if (x->op < REEL_OP__COUNT) {
		s->sum.ops[x->op]++;
		s->sum.bytes[x->op] += x->length;
	}
	s->sum.count++;
	if (x->op != REEL_OP_FLUSH || x->length) {
		reel_hist_add(&s->size, x->length);
		size_add(p->st, x->length);
	}
	if ((x->has & REEL_HAS_ERROR) && x->error)
		s->errors++;
	/* 1-second windows by arrival */
	int64_t w = t / 1000000000;
	if (w != p->win) {
		window_close(s, p);
		p->win = w;
		p->win_n = p->win_bytes = 0;
	}
	p->win_n++;
	p->win_bytes += x->length;
	return stats_times(s, p, x);
}

/* The most frequent sizes, most frequent first. */
static void top_sizes(struct reel_stats *s, const struct size_tab *st)
{
	for (size_t k = 0; k < SIZE_SLOTS; k++) {
		if (!st->count[k])
			continue;
		size_t j = s->ntop < REEL_TOP_SIZES ? s->ntop++ : REEL_TOP_SIZES;
		if (j == REEL_TOP_SIZES) {
			if (st->count[k] <= s->top_count[REEL_TOP_SIZES - 1])
				continue;
			j = REEL_TOP_SIZES - 1;
		}
		while (j > 0 && s->top_count[j - 1] < st->count[k]) {
			s->top_count[j] = s->top_count[j - 1];
			s->top_size[j] = s->top_size[j - 1];
			j--;
		}
		s->top_count[j] = st->count[k];
		s->top_size[j] = st->size[k];
	}
}

int reel_stats_compute(struct reel_reader *r, struct reel_stats *s)
{
	memset(s, 0, sizeof(*s));
	struct stats_pass p = {.win = INT64_MIN, .busy_start = INT64_MIN};
	p.st = calloc(1, sizeof(*p.st));
	if (!p.st)
		return REEL_E_NOMEM;
	const struct reel_rec *recs;
	long n;
	s->first_ns = INT64_MAX;
	s->last_ns = INT64_MIN;
	s->end_ns = INT64_MIN;
	while ((n = reel_read_chunk(r, &recs)) > 0) {
		for (long i = 0; i < n; i++) {
			if (stats_add(s, &p, &recs[i])) {
				free(p.st);
				ns_heap_free(&p.hp);
				return REEL_E_NOMEM;
			}
		}
	}
	inflight_drain(&p, INT64_MAX);
	if (p.busy_start != INT64_MIN && p.busy_t > p.busy_start)
		s->inflight_mean = p.area / (double)(p.busy_t - p.busy_start);
	if (p.busy_ns > 0)
		s->inflight_busy_mean = p.area / (double)p.busy_ns;
	window_close(s, &p);
	top_sizes(s, p.st);
	free(p.st);
	ns_heap_free(&p.hp);
	if (!s->sum.count)
		s->first_ns = s->last_ns = s->end_ns = 0;
	s->sum.first_ns = s->first_ns;
	s->sum.last_ns = s->last_ns;
	return n < 0 ? (int)n : 0;
}
