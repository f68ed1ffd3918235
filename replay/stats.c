/*
 * replay/stats.c - log-linear histogram (HdrHistogram's layout): exact
 * below 128, then 128 linear buckets per power of two, so any value is
 * reported within 0.4% (half a bucket) and the histogram has a fixed size.
 */
#include <string.h>

#include "replay/replay.h"

#define SUB (1 << REPLAY_HIST_SUB_BITS)

void replay_hist_init(struct replay_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = INT64_MAX;
}

static unsigned bucket_of(uint64_t v)
{
	if (v < SUB)
		return (unsigned)v;
	int msb = 63 - __builtin_clzll(v);
	int shift = msb - REPLAY_HIST_SUB_BITS;
	if (shift >= REPLAY_HIST_EXP)
		return REPLAY_HIST_BUCKETS - 1;
	return ((unsigned)(shift + 1) << REPLAY_HIST_SUB_BITS) + (unsigned)((v >> shift) - SUB);
}

/* Midpoint of bucket i. */
static int64_t value_of(unsigned i)
{
	if (i < SUB)
		return i;
	int shift = (int)(i >> REPLAY_HIST_SUB_BITS) - 1;
	uint64_t lo = ((uint64_t)(i & (SUB - 1)) + SUB) << shift;
	return (int64_t)(lo + ((1ull << shift) >> 1));
}

void replay_hist_add(struct replay_hist *h, int64_t v)
{
	if (v < 0)
		v = 0;
	h->b[bucket_of((uint64_t)v)]++;
	h->count++;
	h->sum += (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

int64_t replay_hist_quantile(const struct replay_hist *h, double q)
{
	if (!h->count)
		return 0;
	if (q >= 1.0)
		return h->max;
	if (q <= 0.0)
		return h->min;
	uint64_t want = (uint64_t)(q * (double)h->count + 0.999999);
	if (want < 1)
		want = 1;
	uint64_t acc = 0;
	for (unsigned i = 0; i < REPLAY_HIST_BUCKETS; i++) {
		acc += h->b[i];
		if (acc >= want) {
			int64_t v = value_of(i);
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}

double replay_hist_mean(const struct replay_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0.0;
}

void replay_hist_merge(struct replay_hist *into, const struct replay_hist *from)
{
	for (unsigned i = 0; i < REPLAY_HIST_BUCKETS; i++)
		into->b[i] += from->b[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->count) {
		if (from->min < into->min)
			into->min = from->min;
		if (from->max > into->max)
			into->max = from->max;
	}
}
