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
 * a block, last index << 9 | level << 2, where level is the count of the
 * leading zero bits of the block's hash (64 for 0): sampled when level >=
 * shift, as bmap_sampled says; and for each word of 64 blocks a struct
 * bmap_dir_word.  Its blocks count in the map's n and are halved with the
 * table's; they never enter the table, so the map keeps and answers the
 * same as one without it (bmap_dir_value: a block's last index and ops as
 * the table would hold them). */
#define BMAP_DIR_LEVEL(v) ((int)((v) >> 2 & 127))
/* A word's 64 blocks: which of the sampled ones were read, written (either:
 * touched); FULL, the index of the last I/O that covered every sampled
 * block of the word, kept here instead of in their entries (gen's chromium
 * at 10M I/O: 79% of the blocks touched are in words an I/O covers whole),
 * so that a touched block's last index is the greater of its entry's and
 * FULL; LAST, the greatest last index of the word's touched blocks (0:
 * none touched). */
struct bmap_dir_word {
	uint64_t rd, wr, full, last;
};
struct bmap_dir {
	uint64_t *e;
	uint64_t *bits; /* block b sampled at the map's shift: bit b % 64 of word b / 64 */
	struct bmap_dir_word *w;
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

/* D: N blocks (N >= 1) of the device whose keys' high bits are KEY, every
 * one sampled (shift 0), none touched; 0 or REEL_E_NOMEM (D's memory
 * freed).  Freed by bmap_dir_free. */
static inline int bmap_dir_init(struct bmap_dir *d, uint64_t n, uint64_t key)
{
	uint64_t nw = (n + 63) / 64;
	*d = (struct bmap_dir){.n = n, .key = key};
	d->e = reel_malloc_big(n * 8);
	d->bits = malloc(nw * 8);
	d->w = calloc(nw, sizeof(*d->w));
	if (!d->e || !d->bits || !d->w) {
		reel_free_big(d->e, n * 8);
		free(d->bits);
		free(d->w);
		*d = (struct bmap_dir){0};
		return REEL_E_NOMEM;
	}
	for (uint64_t b = 0; b < n; b++)
		d->e[b] = bmap_dir_empty(d, b);
	memset(d->bits, 0xff, nw * 8);
	if (n & 63) /* past the extent: none */
		d->bits[nw - 1] = ~0ull >> (64 - (n & 63));
	return 0;
}

static inline void bmap_dir_free(struct bmap_dir *d)
{
	reel_free_big(d->e, d->n * 8);
	free(d->bits);
	free(d->w);
	d->e = d->bits = NULL;
	d->w = NULL;
}

/* Block B's last touch of D and how: last index << 2 | written << 1 |
 * read, as the table holds it (bmap_ent's val); 0 when not touched (or no
 * longer sampled). */
static inline uint64_t bmap_dir_value(const struct bmap_dir *d, uint64_t b)
{
	const struct bmap_dir_word *dw = &d->w[b >> 6];
	uint64_t bit = 1ull << (b & 63), l = d->e[b] >> 9;
	if (!((dw->rd | dw->wr) & bit))
		return 0;
	l = l > dw->full ? l : dw->full;
	return l << 2 | ((dw->wr & bit) ? 2 : 0) | ((dw->rd & bit) ? 1 : 0);
}

/* The greatest last index of the touched blocks T of word W of D. */
static inline uint64_t bmap_dir_top(const struct bmap_dir *d, uint64_t w, uint64_t t)
{
	const uint64_t *ew = d->e + (w << 6);
	uint64_t top = d->w[w].full;
	for (; t; t &= t - 1) {
		uint64_t l = ew[__builtin_ctzll(t)] >> 9;
		top = l > top ? l : top;
	}
	return top;
}

/* The direct extents' blocks no longer sampled at shift SH dropped (their
 * bits, ops and last index cleared; a word's last index found again): how
 * many touched blocks are kept. */
static inline size_t bmap_dir_halve(struct bmap_dir *d, int sh)
{
	size_t live = 0;
	for (; d; d = d->next)
		for (uint64_t w = 0; w < (d->n + 63) / 64; w++) {
			uint64_t *ew = d->e + (w << 6), bits = 0;
			uint64_t nb = d->n - (w << 6) < 64 ? d->n - (w << 6) : 64;
			for (uint64_t z = 0; z < nb; z++) {
				if (BMAP_DIR_LEVEL(ew[z]) < sh)
					ew[z] &= 127 << 2;
				else
					bits |= 1ull << z;
			}
			struct bmap_dir_word *dw = &d->w[w];
			d->bits[w] = bits;
			dw->rd &= bits;
			dw->wr &= bits;
			uint64_t t = dw->rd | dw->wr;
			live += (size_t)__builtin_popcountll(t);
			dw->last = t ? bmap_dir_top(d, w, t) : 0;
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
