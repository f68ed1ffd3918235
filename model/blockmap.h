/*
 * model/blockmap.h - a bounded set of 4 KiB blocks, each with the index of
 * its last touch and whether it was read or written; fidelity.c measures
 * re-use with it, fit_device.c fits the re-use of run starts.  Exact up to
 * m->exact distinct blocks; beyond, it keeps the blocks whose address hash
 * falls under a threshold (spatially hashed sampling, SHARDS: Waldspurger
 * et al., FAST'15), halving the rate each time it fills, so memory stays
 * bounded (32 bytes a block of the exact count, half as much more while
 * halving).  A caller may keep a small extent's blocks apart, indexed
 * directly (struct bmap_dir), with the same sample and answers.
 */
#ifndef IOREEL_MODEL_BLOCKMAP_H
#define IOREEL_MODEL_BLOCKMAP_H
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

#define BMAP_BLOCK_SHIFT 12

/* a key and its value side by side: a touch misses the cache once */
struct bmap_ent {
	uint64_t key; /* 0: empty (keys are stored + 1) */
	uint64_t val; /* last index << 2 | written << 1 | read */
};
/* A device's blocks 0..n-1 kept beside the table, indexed directly (a
 * small extent touched over and over: fit_device.c's reuse_dir): one entry
 * a block, last index << 9 | level << 2 | written << 1 | read, where level
 * is the count of the leading zero bits of the block's hash (64 for 0):
 * sampled when level >= shift, as bmap_sampled says.  Its blocks count in
 * the map's n and are halved with the table's; they never enter the table,
 * so the map keeps and answers the same as one without it. */
#define BMAP_DIR_LEVEL(v) ((int)((v) >> 2 & 127))
struct bmap_dir {
	uint64_t *e;
	uint64_t *bits;	 /* block b sampled at the map's shift: bit b % 64 of word b / 64 */
	uint64_t n, key; /* blocks; the keys' high bits (block b's key: key ^ b) */
	struct bmap_dir *next;
};
struct bmap {
	struct bmap_ent *e;
	size_t cap, n, exact;
	int shift;	      /* sampled when the top `shift` bits of the hash are 0 */
	struct bmap_dir *dir; /* extents kept apart (the caller's), or NULL */
};

/* mix64 but its last step: the top 33 bits are mix64's already (the last
 * step xors in x >> 33), so whether a key is sampled at a shift of 33 or
 * less needs only this */
static inline uint64_t mix64_top(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x;
}

static inline uint64_t mix64(uint64_t x)
{
	x = mix64_top(x);
	x ^= x >> 33;
	return x;
}

/* EXACT: a power of two, the distinct blocks kept before sampling. */
static inline int bmap_init(struct bmap *m, size_t exact)
{
	memset(m, 0, sizeof(*m));
	m->exact = exact;
	m->cap = 2 * exact;
	m->e = reel_calloc_big(m->cap, sizeof(*m->e));
	return m->e ? 0 : REEL_E_NOMEM;
}

static inline void bmap_free(struct bmap *m)
{
	reel_free_big(m->e, m->cap * sizeof(*m->e));
	m->e = NULL;
}

static inline int bmap_sampled(const struct bmap *m, uint64_t h)
{
	return m->shift == 0 || (h >> (64 - m->shift)) == 0;
}

/* The slot of key k (hash h): its own, or the empty one where it goes. */
static inline size_t bmap_slot(const struct bmap *m, uint64_t k, uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);
	while (m->e[i].key && m->e[i].key != k + 1)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* Prefetch the slot of a key of hash H (a hint: touches nothing), so that a touch a
 * few keys later finds it in cache; the table is far larger than the
 * caches and the touches random.  Always inlined: a call to a function
 * without effects (as gcc's IPA judges one that only prefetches) is
 * dropped. */
static inline __attribute__((always_inline)) void bmap_prefetch(const struct bmap *m, uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);
	__builtin_prefetch(&m->e[i]);
}

/* The level of a hash H: sampled at the shifts up to it (bmap_sampled). */
static inline uint64_t bmap_level(uint64_t h) { return h ? (uint64_t)__builtin_clzll(h) : 64; }

/* Block B's entry of D before any touch: its level, nothing touched. */
static inline uint64_t bmap_dir_empty(const struct bmap_dir *d, uint64_t b)
{
	return bmap_level(mix64(d->key ^ b)) << 2;
}

/* The direct extents' blocks no longer sampled at shift SH dropped (and
 * their bits cleared): how many are kept. */
static inline size_t bmap_dir_halve(struct bmap_dir *d, int sh)
{
	size_t live = 0;
	for (; d; d = d->next) {
		memset(d->bits, 0, (d->n + 63) / 64 * 8);
		for (uint64_t b = 0; b < d->n; b++) {
			uint64_t v = d->e[b];
			if (BMAP_DIR_LEVEL(v) < sh)
				v &= 127 << 2;
			else
				d->bits[b >> 6] |= 1ull << (b & 63);
			d->e[b] = v;
			live += (v & 3) != 0;
		}
	}
	return live;
}

/* Halve the sampling rate: keep the keys still sampled, re-inserted
 * (through a copy: moving keys in place would break probe chains). */
static inline int bmap_halve(struct bmap *m)
{
	m->shift++;
	size_t kvb = m->n * 2 * sizeof(uint64_t);
	uint64_t *kv = reel_malloc_big(kvb);
	if (!kv)
		return REEL_E_NOMEM;
	size_t live = 0;
	for (size_t i = 0; i < m->cap; i++)
		if (m->e[i].key && bmap_sampled(m, mix64(m->e[i].key - 1))) {
			kv[2 * live] = m->e[i].key - 1;
			kv[2 * live++ + 1] = m->e[i].val;
		}
	memset(m->e, 0, m->cap * sizeof(*m->e));
	for (size_t i = 0; i < live; i++) {
		uint64_t k = kv[2 * i];
		size_t j = bmap_slot(m, k, mix64(k));
		m->e[j].key = k + 1;
		m->e[j].val = kv[2 * i + 1];
	}
	m->n = live + bmap_dir_halve(m->dir, m->shift);
	reel_free_big(kv, kvb);
	return 0;
}

/* Touch key K (H: mix64(K), computed once by a caller that prefetched
 * its slot) at index I (RD: a read): 1 when it was there (*last: its
 * previous index, *was: 2 when written before, | 1 when read before), 0
 * when new, -1 not sampled; REEL_E_NOMEM. */
static inline int bmap_touch_h(struct bmap *m, uint64_t k, uint64_t h, uint64_t i, int rd,
			       uint64_t *last, int *was)
{
	if (!bmap_sampled(m, h))
		return -1;
	size_t s = bmap_slot(m, k, h);
	struct bmap_ent *en = &m->e[s];
	if (en->key) {
		uint64_t v = en->val;
		*last = v >> 2;
		*was = (int)(v & 3);
		en->val = (i << 2) | (v & 3) | (rd ? 1 : 2);
		return 1;
	}
	en->key = k + 1;
	en->val = (i << 2) | (rd ? 1 : 2);
	if (++m->n > m->exact && bmap_halve(m))
		return REEL_E_NOMEM;
	return 0;
}

static inline int bmap_touch(struct bmap *m, uint64_t k, uint64_t i, int rd, uint64_t *last,
			     int *was)
{
	return bmap_touch_h(m, k, mix64(k), i, rd, last, was);
}

#endif
