/*
 * formats/stats.c - histograms and the statistics `ioreel info` prints
 * (and other modules reuse): one streaming pass, memory bounded by the
 * number of distinct request sizes tracked (capped) and the in-flight count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"

static unsigned bucket_of(uint64_t v)
{
	if (v < 2 * REEL_HIST_SUB)
		return (unsigned)v;
	unsigned p = 63 - (unsigned)__builtin_clzll(v); /* >= 8 */
	unsigned sub = (unsigned)(v >> (p - 7)) & (REEL_HIST_SUB - 1);
	return (p - 7) * REEL_HIST_SUB + REEL_HIST_SUB + sub;
}

static void bucket_range(unsigned b, uint64_t *lo, uint64_t *hi)
{
	if (b < 2 * REEL_HIST_SUB) {
		*lo = *hi = b;
		return;
	}
	unsigned p = (b - REEL_HIST_SUB) / REEL_HIST_SUB + 7;
	uint64_t sub = (b - REEL_HIST_SUB) % REEL_HIST_SUB;
	*lo = (1ull << p) + (sub << (p - 7));
	*hi = *lo + (1ull << (p - 7)) - 1;
}

void reel_hist_add(struct reel_hist *h, uint64_t v)
{
	unsigned b = bucket_of(v);
	if (b >= REEL_HIST_BUCKETS)
		b = REEL_HIST_BUCKETS - 1;
	h->b[b]++;
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += (double)v;
}

void reel_hist_merge(struct reel_hist *into, const struct reel_hist *from)
{
	if (!from->count)
		return;
	for (unsigned i = 0; i < REEL_HIST_BUCKETS; i++)
		into->b[i] += from->b[i];
	if (!into->count || from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
	into->count += from->count;
	into->sum += from->sum;
}

uint64_t reel_hist_quantile(const struct reel_hist *h, double q)
{
	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	uint64_t rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < REEL_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			uint64_t lo, hi;
			bucket_range(i, &lo, &hi);
			uint64_t v = lo + (hi - lo) / 2;
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}

double reel_hist_mean(const struct reel_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}

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
struct heap {
	int64_t *v;
	size_t n, cap;
};

static int heap_push(struct heap *h, int64_t x)
{
	if (h->n == h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 1024;
		int64_t *nv = realloc(h->v, nc * sizeof(*nv));
		if (!nv)
			return -1;
		h->v = nv;
		h->cap = nc;
	}
	size_t i = h->n++;
	while (i && h->v[(i - 1) / 2] > x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
	return 0;
}

static int64_t heap_pop(struct heap *h)
{
	int64_t top = h->v[0], x = h->v[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (h->v[c] >= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = x;
	return top;
}

int reel_stats_compute(struct reel_reader *r, struct reel_stats *s)
{
	memset(s, 0, sizeof(*s));
	struct size_tab *st = calloc(1, sizeof(*st));
	struct heap hp = {0};
	if (!st)
		return REEL_E_NOMEM;
	int64_t win = INT64_MIN;
	uint64_t win_n = 0, win_bytes = 0;
	int64_t busy_t = 0;       /* time of the last in-flight change */
	double area = 0;          /* integral of in-flight over time */
	int64_t busy_start = INT64_MIN, busy_end = 0;
	const struct reel_rec *recs;
	long n;
	s->first_ns = INT64_MAX;
	s->last_ns = INT64_MIN;
	s->end_ns = INT64_MIN;
	while ((n = reel_read_chunk(r, &recs)) > 0) {
		for (long i = 0; i < n; i++) {
			const struct reel_rec *x = &recs[i];
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
				size_add(st, x->length);
			}
			if ((x->has & REEL_HAS_ERROR) && x->error)
				s->errors++;
			/* 1-second windows by arrival */
			int64_t w = t / 1000000000;
			if (w != win) {
				if (win != INT64_MIN && (double)win_n > s->peak_iops)
					s->peak_iops = (double)win_n;
				if (win != INT64_MIN && (double)win_bytes / 1e6 > s->peak_mbps)
					s->peak_mbps = (double)win_bytes / 1e6;
				win = w;
				win_n = win_bytes = 0;
			}
			win_n++;
			win_bytes += x->length;
			if (x->has & REEL_HAS_ISSUE) {
				s->with_issue++;
				if (x->has & REEL_HAS_QUEUE && x->issue_ns >= x->queue_ns)
					reel_hist_add(&s->qdelay, (uint64_t)(x->issue_ns - x->queue_ns));
			}
			if (!(x->has & REEL_HAS_COMPLETE))
				continue;
			s->with_complete++;
			if (x->complete_ns > s->end_ns)
				s->end_ns = x->complete_ns;
			if (x->has & REEL_HAS_QUEUE && x->complete_ns >= x->queue_ns)
				reel_hist_add(&s->qlat, (uint64_t)(x->complete_ns - x->queue_ns));
			if (!(x->has & REEL_HAS_ISSUE) || x->complete_ns < x->issue_ns)
				continue;
			uint64_t l = (uint64_t)(x->complete_ns - x->issue_ns);
			reel_hist_add(&s->lat[REEL_OP__COUNT], l);
			if (x->op < REEL_OP__COUNT)
				reel_hist_add(&s->lat[x->op], l);
			/* in flight: completions before this issue leave first */
			while (hp.n && hp.v[0] <= x->issue_ns) {
				int64_t c = heap_pop(&hp);
				area += (double)(hp.n + 1) * (double)(c - busy_t);
				busy_t = c;
			}
			if (busy_start == INT64_MIN)
				busy_start = x->issue_ns;
			if (x->issue_ns > busy_t) {
				area += (double)hp.n * (double)(x->issue_ns - busy_t);
				busy_t = x->issue_ns;
			}
			if (heap_push(&hp, x->complete_ns)) {
				free(st);
				free(hp.v);
				return REEL_E_NOMEM;
			}
			if (hp.n > s->inflight_max)
				s->inflight_max = hp.n;
		}
	}
	while (hp.n) {
		int64_t c = heap_pop(&hp);
		area += (double)(hp.n + 1) * (double)(c - busy_t);
		busy_t = c;
	}
	busy_end = busy_t;
	if (busy_start != INT64_MIN && busy_end > busy_start)
		s->inflight_mean = area / (double)(busy_end - busy_start);
	if (win != INT64_MIN) {
		if ((double)win_n > s->peak_iops)
			s->peak_iops = (double)win_n;
		if ((double)win_bytes / 1e6 > s->peak_mbps)
			s->peak_mbps = (double)win_bytes / 1e6;
	}
	/* top sizes */
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
	free(st);
	free(hp.v);
	if (!s->sum.count)
		s->first_ns = s->last_ns = s->end_ns = 0;
	s->sum.first_ns = s->first_ns;
	s->sum.last_ns = s->last_ns;
	return n < 0 ? (int)n : 0;
}
