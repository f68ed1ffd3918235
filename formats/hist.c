/*
 * formats/hist.c - the one histogram (struct reel_hist): log-linear buckets,
 * exact below 256 and within 1% above, so quantiles of latencies and sizes
 * come out of a fixed-size struct without keeping the values.
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

void reel_hist_bucket_range(size_t b, uint64_t *lo, uint64_t *hi)
{
	if (b < 2 * REEL_HIST_SUB) {
		*lo = *hi = b;
		return;
	}
	unsigned p = (unsigned)((b - REEL_HIST_SUB) / REEL_HIST_SUB) + 7;
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
			reel_hist_bucket_range(i, &lo, &hi);
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
