/*
 * model/fit_internal.h - what the parts of model_fit() share; not a public
 * header (model.h is the manual of model/).  fit.c drives the fit (windows,
 * phases by k-means, devices, in-flight, the whole trace's b-model and
 * PQRS); fit_phase.c fits one phase (op chain, sizes, inter-arrival
 * times); fit_device.c fits one device's address space (runs, jumps,
 * regions).  The helpers below are inline: they sit in the hot loops.
 */
#ifndef IOREEL_MODEL_FIT_INTERNAL_H
#define IOREEL_MODEL_FIT_INTERNAL_H
#include <stdlib.h>
#include <string.h>

#include "model/blockmap.h"
#include "model/model.h"

/* a fixed-stride sample of a stream of values (every st-th, from the first)
 * and the sum of all of them, as model_dist_fit_sample wants it */
struct samp {
	int64_t *v;
	/* types that an int64_t store cannot alias (long on LP64, where
	 * size_t and uint64_t are unsigned long): the counters stay in
	 * registers across the stores to v */
	uint32_t k, cd, st;
	unsigned long long n;
	double sum;
	size_t bytes; /* v's size for reel_free_big (0: malloc's) */
};
static inline int samp_init_(struct samp *s, uint64_t n, size_t st, int whole)
{
	memset(s, 0, sizeof(*s));
	if (st > UINT32_MAX)
		return REEL_E_RANGE;
	s->st = (uint32_t)st;
	size_t sz = (size_t)(n / st + 2) * sizeof(*s->v); /* + 1: samp_add's spare */
	s->bytes = whole ? sz : 0;
	s->v = whole ? reel_malloc_big_populated(sz) : malloc(sz);
	return s->v ? 0 : REEL_E_NOMEM;
}
/* N values to come: the array is written whole (a mapping of its own when
 * large, its pages made with it, not a fault each as the pass writes it:
 * reel_malloc_big_populated) */
static inline int samp_init(struct samp *s, uint64_t n, size_t st)
{
	return samp_init_(s, n, st, 1);
}
/* at most N values, maybe far fewer: on small pages, resident only as far
 * as it is written */
static inline int samp_init_upto(struct samp *s, uint64_t n, size_t st)
{
	return samp_init_(s, n, st, 0);
}
static inline void samp_free(struct samp *s)
{
	reel_free_big(s->v, s->bytes);
	s->v = NULL;
}
static inline void samp_add(struct samp *s, int64_t x)
{
	/* without a branch: x always goes in the spare slot, kept every st-th */
	s->sum += (double)x;
	s->n++;
	s->v[s->k] = x;
	uint32_t take = s->cd == 0;
	s->k += take;
	s->cd = (take ? s->st : s->cd) - 1;
}
/* One value X taken out of a sample that kept every value: 1, else 0 (not
 * there, or the sample kept every st-th: left as it is). */
static inline int samp_drop(struct samp *s, int64_t x)
{
	if (s->st != 1 || s->n != s->k)
		return 0;
	for (uint32_t i = 0; i < s->k; i++)
		if (s->v[i] == x) {
			s->v[i] = s->v[--s->k];
			s->n--;
			s->sum -= (double)x;
			return 1;
		}
	return 0;
}
static inline void samp_fit(struct samp *s, struct model_dist *d)
{
	model_dist_fit_sample(d, s->v, s->k, s->n, s->sum);
}

/* b-model of all I/O (bm[0]) and per op (bm[1 + op]) over one span: the
 * bins are powers of two and x * 2^L is exact, so an op's bin (it has
 * fewer) is the all-I/O bin shifted right by sh[op]: one range check */
static inline void bm_op_shifts(const struct model_bm *bm, int *sh)
{
	for (int op = 0; op < REEL_OP__COUNT; op++)
		sh[op] = bm[1 + op].c ? bm[0].L - bm[1 + op].L : 0;
}
/* One record (the phases' scan, which counts records one at a time at
 * times of its own making; bm_add_ops below counts a chunk's run and is
 * the same as N of these: two ways kept, each in its hot loop, and
 * tests/unit/test_model_bins.c holds them equal) */
static inline void bm_add_op(struct model_bm *bm, const int *sh, uint8_t op, int64_t t)
{
	struct model_bm *b0 = &bm[0], *bo = &bm[1 + op];
	if (t >= b0->lo && t < b0->hi) {
		b0->c[b0->k]++;
	} else {
		model_bm_add_slow(b0, t);
		if (!(t >= b0->lo && t < b0->hi))
			return; /* outside [t0, t1) or too few events */
	}
	if (bo->c)
		bo->c[b0->k >> sh[op]]++;
}
/* bm_add_op of N records (ops OP, times T): the counts of a bin's run of
 * records in locals (a struct by value: no address taken, so registers),
 * added when a time leaves the bin (a counter a record, each += waiting on
 * the one before's store, was half of pass 2's windows' part) */
struct bm_run {
	uint64_t n, op[REEL_OP__COUNT];
};
static inline void bm_run_put(struct model_bm *bm, const int *sh, struct bm_run r)
{
	if (r.n)
		bm[0].c[bm[0].k] += r.n;
	for (int o = 0; o < REEL_OP__COUNT; o++)
		if (r.op[o] && bm[1 + o].c)
			bm[1 + o].c[bm[0].k >> sh[o]] += r.op[o];
}
static inline void bm_add_ops(struct model_bm *bm, const int *sh, const uint8_t *op,
			      const int64_t *t, size_t n)
{
	struct model_bm *b0 = &bm[0];
	struct bm_run r = {0};
	for (size_t i = 0; i < n; i++) {
		if (t[i] >= b0->lo && t[i] < b0->hi) {
			r.n++;
		} else { /* a new bin: the last one's counts added */
			bm_run_put(bm, sh, r);
			r = (struct bm_run){0};
			model_bm_add_slow(b0, t[i]); /* t[i] counted in its bin */
			if (!(t[i] >= b0->lo && t[i] < b0->hi))
				continue; /* outside [t0, t1) or too few events */
		}
#pragma GCC unroll 8
		for (int o = 0; o < REEL_OP__COUNT; o++)
			r.op[o] += op[i] == o;
	}
	bm_run_put(bm, sh, r);
}

/* V[0, N) sorted ascending, for the few (MODEL_NEAR_BACK) that
 * fit_near_chance sorts at each sampled run start: each value put in place by bisection
 * and one memmove, no call per compare (qsort with u64cmp was 21,000
 * instructions a sort of 100).  Integers sort to one order: qsort's.
 * Here for tests/unit/test_model_sort_small.c. */
static inline void fit_sort_u64_small(uint64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t lo = 0, hi = i; /* the first of v[0, i) above x */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (v[mid] > x)
				hi = mid;
			else
				lo = mid + 1;
		}
		memmove(&v[lo + 1], &v[lo], (i - lo) * sizeof(*v));
		v[lo] = x;
	}
}

/* model_dist_cdf(D, X, BELOW, AT), the same *below and *at bit for bit
 * (X not NaN: fit_near_chance's never is), its knot (the last i with
 * v[i] <= X: one answer, v being non-decreasing) searched from *CUR on,
 * galloping, where v[*CUR] <= X (else from 0), and left in *CUR: a caller
 * asking at rising X (fit_near_chance's windows, ~196 a call in order)
 * walks the knots once, not a bisection a look-up. */
static inline void fit_dist_cdf_from(const struct model_dist *d, double x, size_t *cur,
				     double *below, double *at)
{
	size_t n = d->nk, lo = *cur, hi, step = 1;
	*below = *at = 0;
	if (!n || x < d->v[0])
		return;
	if (x > d->v[n - 1]) {
		*below = *at = 1;
		return;
	}
	if (lo >= n || !(d->v[lo] <= x))
		lo = 0;
	for (hi = lo + 1; hi < n && d->v[hi] <= x; step *= 2) { /* v[lo] <= x */
		lo = hi;
		hi = lo + step;
	}
	lo = model_dist_knot_in(d, x, lo, hi < n ? hi : n);
	*cur = lo;
	model_dist_cdf_at(d, x, lo, below, at);
}

/* The share of ADDR (a device's offsets CDF) within LIM of one of the N
 * offsets V (sorted in place): where a start drawn from the CDF alone
 * would land near one of them (fit_device.c near_start's).  The windows'
 * ends rise (a merged window's start lies past the end before it), so
 * their CDF look-ups share one walk of the knots (fit_dist_cdf_from).
 * Here for tests/unit/test_model_near_chance.c. */
static inline double fit_near_chance(const struct model_dist *addr, uint64_t local_limit,
				     uint64_t *v, uint64_t n)
{
	double lim = (double)local_limit, m = 0, lo, hi, x;
	size_t cur = 0;
	fit_sort_u64_small(v, n);
	for (uint64_t i = 0, j; i < n; i = j) { /* the windows overlapping, merged */
		for (j = i + 1; j < n && (double)v[j] - lim <= (double)v[j - 1] + lim; j++)
			;
		fit_dist_cdf_from(addr, (double)v[i] - lim, &cur, &lo, &x);
		fit_dist_cdf_from(addr, (double)v[j - 1] + lim, &cur, &x, &hi);
		m += hi - lo;
	}
	return m;
}

/* The count of T[1, N) at or below G, for every G of [LO, HI], as BASE
 * (those at or below LO) plus those of MASK (bit k: T[k] in (LO, HI], the
 * ones the count depends on) at or below G: fit_phase.c gap_class's class
 * of a gap in a bin a bound falls in, a compare or two, not N - 1 (the
 * same count for any T, sorted or not).  N is at most 8 (MASK's bits:
 * MODEL_CLASSES bounds).  Here for tests/unit/test_model_bound_count.c. */
_Static_assert(MODEL_CLASSES <= 8, "fit_bound_split's mask holds 8 bounds");
static inline void fit_bound_split(const int64_t *t, int n, int64_t lo, int64_t hi, uint8_t *base,
				   uint8_t *mask)
{
	*base = *mask = 0;
	for (int k = 1; k < n; k++)
		if (t[k] <= lo)
			(*base)++;
		else if (t[k] <= hi)
			*mask |= (uint8_t)(1u << k);
}
static inline int fit_bound_count(const int64_t *t, unsigned base, unsigned mask, int64_t g)
{
	int c = (int)base;
	for (; mask; mask &= mask - 1)
		c += g >= t[__builtin_ctz(mask)];
	return c;
}

/* ---- the slices of a device's extent (fit_device.c; here for
 * tests/unit/test_model_bins.c: slice_near against slice_of) ------------ */
/* the slice of the 1024 equal ones of [0, ext) where off falls */
static inline uint64_t slice_of(uint64_t off, uint64_t ext)
{
	uint64_t s = (uint64_t)((double)off / (double)ext * 1024);
	return s < 1024 ? s : 1023;
}
/* model_first_u64's test: OFF in slice k or a later one */
struct slice_k {
	uint64_t k, ext;
};
static inline int slice_from(uint64_t off, const void *ctx)
{
	const struct slice_k *s = ctx;
	return slice_of(off, s->ext) >= s->k;
}
/* The first offset of slice k, from LO on: slice_of is monotone on
 * [0, ext] and slice_of(ext) is the last slice, so a binary search between
 * bounds around the estimate (a double is off by ext / 2^52 at most) */
static inline uint64_t slice_start(uint64_t k, uint64_t ext, uint64_t lo)
{
	double est = (double)k * (double)ext / 1024;
	uint64_t h = est < 1.8e19 ? (uint64_t)est : ext, m = (ext >> 50) + 2;
	h = h > ext ? ext : h < lo ? lo : h;
	uint64_t a = h - lo > m ? h - m : lo, b = ext - h > m ? h + m : ext;
	if (a > lo && slice_of(a - 1, ext) >= k)
		a = lo;
	if (slice_of(b, ext) < k)
		b = ext;
	/* the first of [a, b] in slice k or later: b is */
	return model_first_u64(a, b, slice_from, &(struct slice_k){k, ext});
}
/* Where each slice starts, then UINT64_MAX: slice k holds the offsets
 * [sb[k], sb[k + 1]), so that a new slice costs one division. */
static inline void slice_bounds(uint64_t ext, uint64_t *sb)
{
	sb[0] = 0;
	for (uint64_t k = 1; k < 1024; k++)
		sb[k] = slice_start(k, ext, sb[k - 1]);
	sb[1024] = UINT64_MAX;
}

/* slice_of(off, ext) from the bounds SB and SINV = 1024 / ext, without a
 * division (a random offset is in another slice than the one before:
 * slice_of at every I/O, 15% of model_devs_offsets' samples at 10M I/O):
 * the product is off by one slice at most, which the bounds correct */
static inline uint64_t slice_near(const uint64_t *sb, uint64_t off, double sinv)
{
	double est = (double)off * sinv;
	uint64_t s = est >= 0 && est < 1023 ? (uint64_t)est : 1023;
	while (s > 0 && off < sb[s])
		s--;
	while (s < 1023 && off >= sb[s + 1])
		s++;
	return s;
}

/* ---- the re-use pass's blocks (fit_device.c; here for
 * tests/unit/test_model_reuse_dir.c: a direct extent's way against the
 * table's) ---- */
#define FIT_REUSE_SPAN 4096
/* The blocks of an I/O that the walk looks at: at most its first
 * FIT_REUSE_SPAN (16 MiB). */
static inline void reuse_blocks(uint64_t off, uint32_t len, uint64_t *b0, uint64_t *b1)
{
	*b0 = off >> BMAP_BLOCK_SHIFT;
	*b1 = (off + (len ? len - 1 : 0)) >> BMAP_BLOCK_SHIFT;
	if (*b1 - *b0 >= FIT_REUSE_SPAN)
		*b1 = *b0 + FIT_REUSE_SPAN - 1;
}

/* The blocks B0..B1 of device DEV sampled at LIM (their hash at most LIM),
 * in order, their keys and hashes into K and H from M on: the new count.
 * K and H need room for B1 - B0 + 1 entries from M (every block is
 * written there before the kept ones are packed down). */
static inline uint32_t reuse_hashed(uint64_t dev, uint64_t b0, uint64_t b1, uint64_t lim,
				    uint64_t *k, uint64_t *h, uint32_t m)
{
	/* the hashes first, independent of each other (pipelined); then the
	 * sampled ones kept, in place: one store a block whose address waits
	 * on a hash would chain them */
	uint32_t nb = (uint32_t)(b1 - b0 + 1);
	uint64_t *kb = k + m, *hb = h + m;
	for (uint32_t x = 0; x < nb; x++) {
		kb[x] = (dev << 52) ^ (b0 + x);
		hb[x] = mix64(kb[x]);
	}
	for (uint32_t x = 0; x < nb; x++) {
		uint64_t kx = kb[x], hx = hb[x];
		k[m] = kx;
		h[m] = hx;
		m += hx <= lim;
	}
	return m;
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FIT_HASH_AVX2 1
#include <immintrin.h>
/* A * C mod 2^64 in each lane, C's low and high halves in CLO and CHI
 * (AVX2 has no 64-bit multiply): lo(A) lo(C) + (hi(A) lo(C) + lo(A)
 * hi(C)) 2^32, the scalar product's bits. */
__attribute__((target("avx2"))) static inline __m256i fit_mul64x4(__m256i a, __m256i clo,
								  __m256i chi)
{
	__m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), clo),
					 _mm256_mul_epu32(a, chi));
	return _mm256_add_epi64(_mm256_mul_epu32(a, clo), _mm256_slli_epi64(cross, 32));
}
/* reuse_hashed four blocks at a time (the same keys and hashes kept, in
 * order): mix64 in vector lanes, the sample's test as a signed compare
 * of the hashes and LIM with their top bits flipped (AVX2 compares only
 * signed), the kept lanes stored one by one (most blocks are not kept
 * once the map samples); K and H get only the kept ones.  The scalar
 * loop was ~21 instructions a block, a fifth of the re-use pass's on
 * disksim's 16 disks, whose every block is hashed (no sample map). */
__attribute__((target("avx2"))) static inline uint32_t reuse_hashed_avx2(uint64_t dev, uint64_t b0,
									 uint64_t b1, uint64_t lim,
									 uint64_t *k, uint64_t *h,
									 uint32_t m)
{
	const __m256i c1lo = _mm256_set1_epi64x(0xed558ccdll),
		      c1hi = _mm256_set1_epi64x(0xff51afd7ll),
		      c2lo = _mm256_set1_epi64x(0x1a85ec53ll),
		      c2hi = _mm256_set1_epi64x(0xc4ceb9fell), four = _mm256_set1_epi64x(4),
		      key = _mm256_set1_epi64x((long long)(dev << 52)),
		      sgn = _mm256_set1_epi64x((long long)(1ull << 63)),
		      vlim = _mm256_set1_epi64x((long long)(lim ^ (1ull << 63)));
	__m256i b =
	    _mm256_add_epi64(_mm256_set1_epi64x((long long)b0), _mm256_setr_epi64x(0, 1, 2, 3));
	uint64_t nb = b1 - b0 + 1;
	for (uint64_t x = 0; x < nb; x += 4, b = _mm256_add_epi64(b, four)) {
		__m256i kx = _mm256_xor_si256(key, b), hx = kx;
		hx = _mm256_xor_si256(hx, _mm256_srli_epi64(hx, 33));
		hx = fit_mul64x4(hx, c1lo, c1hi);
		hx = _mm256_xor_si256(hx, _mm256_srli_epi64(hx, 33));
		hx = fit_mul64x4(hx, c2lo, c2hi);
		hx = _mm256_xor_si256(hx, _mm256_srli_epi64(hx, 33));
		__m256i over = _mm256_cmpgt_epi64(_mm256_xor_si256(hx, sgn), vlim);
		unsigned keep = ~(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(over)) & 15u;
		if (nb - x < 4) /* the lanes past B1 */
			keep &= (1u << (nb - x)) - 1;
		if (!keep)
			continue;
		if (keep == 15u) { /* all four (a map not sampling yet: msr's at 10M) */
			_mm256_storeu_si256((__m256i *)(k + m), kx);
			_mm256_storeu_si256((__m256i *)(h + m), hx);
			m += 4;
			continue;
		}
		uint64_t tk[4], th[4];
		_mm256_storeu_si256((__m256i *)tk, kx);
		_mm256_storeu_si256((__m256i *)th, hx);
		for (; keep; keep &= keep - 1, m++) {
			int z = __builtin_ctz(keep);
			k[m] = tk[z];
			h[m] = th[z];
		}
	}
	return m;
}
#else
#define FIT_HASH_AVX2 0
static inline uint32_t reuse_hashed_avx2(uint64_t dev, uint64_t b0, uint64_t b1, uint64_t lim,
					 uint64_t *k, uint64_t *h, uint32_t m)
{
	return reuse_hashed(dev, b0, b1, lim, k, h, m);
}
#endif
/* The touches of one I/O's blocks, at index I (RD: a read): the re-use
 * pass's answer for the I/O.  1 when one of them was touched before
 * (*dist: I - the most recent of their last touches), 0 not, -1 none of
 * them sampled; *unread: one touched before was written and never read.
 * REEL_E_NOMEM.  reuse_touch_keys: the blocks' keys and hashes in KB and
 * HB (N of them; a block gathered as sampled may not be any more, the map
 * having halved its rate since: bmap_touch_h looks again). */
static inline int reuse_touch_keys(struct bmap *bm, const uint64_t *kb, const uint64_t *hb,
				   size_t nb, uint64_t i, int rd, uint64_t *dist, int *unread)
{
	uint64_t last = 0;
	int any = 0, reused = 0;
	*unread = 0;
	for (size_t x = 0; x < nb; x++) {
		uint64_t li = 0;
		int w = 0, t = bmap_touch_h(bm, kb[x], hb[x], i, rd, &li, &w);
		if (t == REEL_E_NOMEM)
			return t;
		any |= t >= 0;
		*unread |= t == 1 && w == 2;
		if (t == 1 && (!reused || li > last)) {
			last = li;
			reused = 1;
		}
	}
	*dist = i - last;
	return reused ? 1 : any ? 0 : -1;
}

/* The touched blocks of a direct extent (reuse_touch_dir's): the
 * greatest last index of them, whether one was, whether one was written
 * and never read (bit set in unr). */
struct dir_seen {
	uint64_t last, unr;
	int reused;
};

/* Word W's blocks S (sampled, in order) touched at index I (RD: a read)
 * one at a time, where the map may halve among them (its new blocks
 * would pass its exact count): those no longer sampled after it left
 * untouched, as the table leaves them.  0 or REEL_E_NOMEM. */
static inline int reuse_dir_each(struct bmap *bm, struct bmap_dir *d, uint64_t w, uint64_t s,
				 uint64_t i, int rd, struct dir_seen *seen)
{
	struct bmap_dir_word *dw = &d->w[w];
	uint64_t *ew = d->e + (w << 6);
	while (s) {
		uint64_t z = (uint64_t)__builtin_ctzll(s), bit = 1ull << z;
		s &= s - 1;
		int was = ((dw->rd | dw->wr) & bit) != 0;
		if (was) {
			uint64_t l = ew[z] >> 9 > dw->full ? ew[z] >> 9 : dw->full;
			seen->last = l > seen->last ? l : seen->last;
			seen->reused = 1;
			seen->unr |= dw->wr & ~dw->rd & bit;
		}
		ew[z] = i << 9 | (ew[z] & 127 << 2);
		dw->rd |= rd ? bit : 0;
		dw->wr |= rd ? 0 : bit;
		dw->last = i;
		if (!was && ++bm->n > bm->exact) {
			if (bmap_halve(bm))
				return REEL_E_NOMEM;
			s &= d->bits[w]; /* those still sampled */
		}
	}
	return 0;
}

/* reuse_touch_keys of blocks B0..B1 of direct extent D (those past its end
 * in the table), in order, a word of 64 blocks at a time: its sampled
 * blocks from its bits, its touched ones from its ops' bits, and where the
 * I/O covers every sampled block of the word (a large I/O's middle words)
 * their last index from the word's LAST and set in its FULL, no entry
 * read or written; else each sampled block's entry a load and a store in
 * its neighbours' lines.  Block by block (reuse_dir_each) where the map
 * may halve inside the word. */
static inline int reuse_touch_dir(struct bmap *bm, struct bmap_dir *d, uint64_t b0, uint64_t b1,
				  uint64_t i, int rd, uint64_t *dist, int *unread)
{
	struct dir_seen seen = {0, 0, 0};
	uint64_t be = b1 < d->n ? b1 : d->n - 1; /* the last in the extent */
	int any = 0;
	for (uint64_t w = b0 >> 6; b0 < d->n && w <= be >> 6; w++) {
		uint64_t m = ~0ull;
		if (w == b0 >> 6)
			m &= ~0ull << (b0 & 63);
		if (w == be >> 6)
			m &= ~0ull >> (63 - (be & 63));
		uint64_t all = d->bits[w], s = all & m;
		if (!s)
			continue;
		any = 1;
		struct bmap_dir_word *dw = &d->w[w];
		uint64_t t = (dw->rd | dw->wr) & s, u = s & ~t, nu = 0;
		if (u) { /* new blocks: the map may halve among them */
			nu = (uint64_t)__builtin_popcountll(u);
			if (bm->n + nu > bm->exact) {
				if (reuse_dir_each(bm, d, w, s, i, rd, &seen))
					return REEL_E_NOMEM;
				continue;
			}
			bm->n += nu;
		}
		if (t) {
			/* the word's LAST where every touched block's last index
			 * is it (all of them here, or FULL the last touch) */
			uint64_t l =
			    s == all || dw->last == dw->full ? dw->last : bmap_dir_top(d, w, t);
			seen.last = l > seen.last ? l : seen.last;
			seen.reused = 1;
			seen.unr |= dw->wr & ~dw->rd & t;
		}
		if (s == all) {
			dw->full = i;
		} else {
			uint64_t *ew = d->e + (w << 6);
			for (uint64_t x = s; x; x &= x - 1) {
				uint64_t *en = ew + __builtin_ctzll(x);
				*en = i << 9 | (*en & 127 << 2);
			}
		}
		dw->rd |= rd ? s : 0;
		dw->wr |= rd ? 0 : s;
		dw->last = i;
	}
	uint64_t last = seen.last;
	int reused = seen.reused, un = seen.unr != 0;
	for (uint64_t b = b0 > be + 1 ? b0 : be + 1; b <= b1; b++) { /* past the extent */
		uint64_t li = 0;
		int w = 0, t = bmap_touch(bm, d->key ^ b, i, rd, &li, &w);
		if (t == REEL_E_NOMEM)
			return t;
		any |= t >= 0;
		un |= t == 1 && w == 2;
		if (t == 1 && (!reused || li > last)) {
			last = li;
			reused = 1;
		}
	}
	*unread = un;
	*dist = i - last;
	return reused ? 1 : any ? 0 : -1;
}

/* ---- the trace as the passes read it (fit_source.c) -------------------- */
/* One chunk of records, column by column; issue and complete NULL when the
 * chunk lacks them (as -1 in a trace that has them). */
#define FIT_CHUNK 65536
struct fit_cols {
	size_t n;
	uint64_t base; /* the trace index of the chunk's first record */
	const int64_t *t, *issue, *complete;
	const uint64_t *off;
	const uint32_t *len;
	const uint8_t *op;
	const uint16_t *dev;
	const uint16_t *win; /* each record's window (the driver fills it) */
	void *slot;	     /* the read-ahead's slot holding the arrays, or NULL */
	/* the records by device (model_devs_stretches; the driver fills it for
	 * several devices), or NULL (one device) */
	const struct dev_stretches *stretches;
	/* pass 4's blocks of its first I/O, gathered on the main thread
	 * (model_devs_pregather), or NULL */
	const struct reuse_pre *gathered;
};
/* A chunk's blocks for pass 4's re-use pass, gathered on the main thread
 * (disksim's 16 disks, no sample map: every block of every I/O hashed, a
 * third of the second thread's pass, which ended 0.5 s after the main
 * thread's at 10M I/O; HISTORY.md, branch fit10): its first N I/O's (the
 * rest, past PRE_CAP blocks, the pass's own gather), I/O i's sampled
 * blocks' keys and hashes [at[i], at[i + 1]) in order, its device's
 * index, or -1 (a flush, a device done). */
#define PRE_CAP (1u << 14) /* blocks a chunk: 256 KiB of keys and hashes */
struct reuse_pre {
	size_t n;
	uint16_t at[FIT_CHUNK + 1];
	int8_t dev[FIT_CHUNK];
	uint64_t k[PRE_CAP], h[PRE_CAP];
};
_Static_assert(PRE_CAP >= FIT_REUSE_SPAN && PRE_CAP <= UINT16_MAX,
	       "an I/O's blocks fit in a chunk's; their ends in at[]");

/* The body of model_devs_pregather (here for test_model_pregather): C's
 * I/O from the first on, device index SLOT[dev] whose blocks are gathered
 * where LIVE[index] (not done) and the I/O is no flush, their blocks
 * sampled at LIM (reuse_hashed, AVX2: reuse_hashed_avx2) into P, while
 * they fit in PRE_CAP; P->n returned. */
static inline __attribute__((always_inline)) size_t
reuse_pregather_w(const struct fit_cols *c, const int8_t *slot, const uint8_t *live, uint64_t lim,
		  int avx2, struct reuse_pre *p)
{
	uint32_t m = 0;
	size_t i = 0;
	const uint64_t *off = c->off;
	const uint32_t *len = c->len;
	const uint8_t *op = c->op;
	const uint16_t *dv = c->dev;
	p->at[0] = 0;
	for (; i < c->n; i++) {
		int8_t k = slot[dv[i]];
		p->dev[i] = op[i] != REEL_OP_FLUSH && live[k] ? k : -1;
		if (p->dev[i] >= 0) {
			uint64_t b0, b1;
			reuse_blocks(off[i], len[i], &b0, &b1);
			if (m + (b1 - b0 + 1) > PRE_CAP) /* reuse_hashed's room */
				break;
			m = avx2 ? reuse_hashed_avx2(dv[i], b0, b1, lim, p->k, p->h, m)
				 : reuse_hashed(dv[i], b0, b1, lim, p->k, p->h, m);
		}
		p->at[i + 1] = (uint16_t)m;
	}
	return p->n = i;
}

/* A trace in memory, or a .reel read chunk by chunk, pass after pass. */
struct fit_src {
	const struct model_trace *tr; /* in memory (then r is NULL) */
	struct reel_reader *r;
	struct fit_ra *ra; /* the thread reading r ahead (fit_source.c) */
	uint64_t pos;
	/* the records pass 1 counted (0 before it): a later pass that reads
	 * more or fewer (a file written while fit reads it) ends in
	 * REEL_E_CORRUPT, for its arrays are sized by pass 1 */
	uint64_t n;
	int ic; /* the pass reads issue and completion times */
};
/* The next chunk: its record count, 0 at the end, or a REEL_E_* code.
 * The chunk before it is given back (its arrays no longer valid) unless
 * fit_src_keep kept it. */
long fit_src_next(struct fit_src *s, struct fit_cols *c);
/* Chunk C's arrays kept valid past the next fit_src_next, until
 * fit_src_drop(S, C) (from any thread): 1; 0 when they stay valid anyway (a
 * trace in memory; no drop needed); -1 when they cannot be kept (the file
 * read on this thread: use C before the next fit_src_next). */
int fit_src_keep(struct fit_src *s, const struct fit_cols *c);
void fit_src_drop(struct fit_src *s, const struct fit_cols *c);
/* From the first record again; IC: the pass reads the issue and
 * completion times (else its chunks have none: not copied for it) */
int fit_src_rewind(struct fit_src *s, int ic);
void fit_src_close(struct fit_src *s);

/* Two CPUs the process may run on (its affinity), or as
 * IOREEL_FIT_READAHEAD says (1 or 0): then the fit reads ahead, runs the
 * independent parts of a pass on two threads, and deflates a large
 * MODEL.json's two halves at once (model_json_gz.c). */
int fit_spare_core(void);
/* A part of a pass on a second thread: jobs run there in the order
 * posted, up to FIT_SIDE_JOBS waiting or running (fit_side_post waits for
 * room), while the rest of the pass goes on; fit_side_wait waits for all
 * of them.  A job's chunk (C, copied; NULL: none) must stay valid until it
 * has run: with SRC, fit_side_post keeps it (fit_src_keep) and the job
 * drops it, and when it cannot be kept fit_side_post waits for the job.
 * Without fit_spare_core fit_side_start gives NULL, and fit_side_post runs
 * FN here (its result, else 0; fit_side_wait gives the first error of the
 * jobs since the last wait, else 0; after an error the jobs still queued
 * are not run). */
#define FIT_SIDE_JOBS 4
typedef int (*fit_side_fn)(void *arg, const struct fit_cols *c);
struct fit_side;
struct fit_side *fit_side_start(void);
int fit_side_post(struct fit_side *s, fit_side_fn fn, void *arg, const struct fit_cols *c,
		  struct fit_src *src);
int fit_side_wait(struct fit_side *s);
void fit_side_stop(struct fit_side *s); /* NULL: nothing */
/* FN(ARG, i) for i in [0, N), on two threads when fit_spare_core: the
 * calls must be independent (each writes its own result). */
void fit_par_for(size_t n, void (*fn)(void *arg, size_t i), void *arg);

/* the device's non-flush I/O: their count, highest end and, for the
 * alignment, per K the I/O whose offset and length are multiples of 2^K
 * but not 2^(K + 1) (K < 12; [12]: of 4 KiB), from the first pass */
#define FIT_ALIGN_BITS 12
struct dev_pre {
	size_t nd;
	uint64_t maxend;
	uint64_t blocks; /* 4 KiB blocks its I/O touch, summed (at most 4096 an I/O) */
	uint64_t grid[FIT_ALIGN_BITS + 1];
};

/* What the first pass over the trace finds (fit_source.c). */
struct fit_scan {
	uint64_t n, nop[REEL_OP__COUNT], nic; /* I/O; per op; with issue <= complete */
	double bytes[REEL_OP__COUNT];
	int64_t tfirst, tmin, tmax;
	int sorted;    /* arrival times never decrease */
	uint64_t q;    /* gcd of the arrival times' distances to the first */
	uint64_t amax; /* highest end offset (at least 1) */
	size_t nd;     /* devices, in order of first use */
	uint16_t ids[MODEL_MAX_DEVS];
	uint64_t per[MODEL_MAX_DEVS];
	struct dev_pre pre[MODEL_MAX_DEVS];
	int8_t *slot; /* device id -> index, -1 unused (65536 of them) */
};
int fit_scan(struct fit_src *s, struct fit_scan *sc, char *err, size_t errlen);

/* ---- bounded samples -------------------------------------------------------- */
/* The largest sample L <= MODEL_DIST_SAMPLE such that distributions of N[0..K)
 * observations each sampled to at most L hold at most BUDGET values together
 * (water filling: the small ones whole); at least FIT_SAMPLE_MIN, which is
 * low enough that the most distributions a pass samples (FIT_PASS_DISTS:
 * pass 3's of MODEL_MAX_PHASES phases and MODEL_MAX_DEVS devices) stay
 * within FIT_SAMPLE_BUDGET: the budget holds on any trace (at 2^16, 16
 * devices' 5 distributions and 8 phases' 4 took 7.5 Mi values). */
#define FIT_SAMPLE_BUDGET (4u << 20)
#define FIT_SAMPLE_MIN (1u << 13)
#define FIT_PASS_DISTS ((REEL_OP__COUNT + 1) * MODEL_MAX_PHASES + 5 * MODEL_MAX_DEVS + 2)
_Static_assert((uint64_t)FIT_SAMPLE_MIN *FIT_PASS_DISTS <= FIT_SAMPLE_BUDGET, "FIT_SAMPLE_MIN");
/* the b-models' bins of a fit: at most 2^FIT_BM_LEVELS (a trace of 2 Mi
 * I/O reaches it), so that their memory stays flat */
#define FIT_BM_LEVELS 17
uint64_t fit_sample_cap(const uint64_t *n, size_t k, uint64_t budget);
/* The stride that samples N observations to at most CAP (as model_dist_stride
 * when CAP is MODEL_DIST_SAMPLE). */
static inline size_t fit_stride(uint64_t n, uint64_t cap)
{
	return n > cap ? (size_t)((n + cap - 1) / cap) : 1;
}

/* ---- phases (fit_phase.c): every phase at once, pass by pass ---------------- */
struct phases_fit;
/* WPHASE, WCNT (I/O per window) and the model's windows and phases are set;
 * CAP bounds each sample.  0 or REEL_E_NOMEM. */
int model_phases_init(struct phases_fit **pf, struct model *m, const int *wphase,
		      const uint32_t *wcnt, int64_t t0, uint64_t cap);
/* The counts the samples are sized by: sizes per op and gaps of each phase
 * (at most (REEL_OP__COUNT + 1) * MODEL_MAX_PHASES), for fit_sample_cap. */
size_t model_phases_counts(const struct model *m, const int *wphase, const uint32_t *wcnt,
			   uint64_t *n);
void model_phases_scan(struct phases_fit *pf, const struct fit_cols *c);
/* After the scan: the phases' rate, op mix and sizes (what the devices'
 * part of pass 4 reads), then the rest (the gap CDF, classes, families,
 * b-models, kept windows, devices' gaps: what the gap-class chain's pass
 * reads); then that pass. */
void model_phases_fill_sizes(struct phases_fit *pf);
void model_phases_fill(struct phases_fit *pf);
void model_phases_chain(struct phases_fit *pf, const struct fit_cols *c);
void model_phases_finish(struct phases_fit *pf);
void model_phases_free(struct phases_fit *pf);
/* The naive model's one phase: Poisson arrivals, mean sizes. */
void model_fit_naive_phase(struct model *m, const struct fit_scan *sc);

/* ---- devices (fit_device.c): every device at once ----------------------------- */
struct devs_fit;
/* m->devs[k] has id, capacity and share; SC what the first pass found.
 * CAP bounds the offsets' samples. */
int model_devs_init(struct devs_fit **df, struct model *m, const struct fit_scan *sc, uint64_t cap);
/* Pass 2: offsets, blocks read and written, hot slices; runs counted. */
void model_devs_offsets(struct devs_fit *df, const struct fit_cols *c, uint64_t mine);
/* A chunk's records put in order of device, a stretch of DEV_STRETCH at a
 * time (a counting sort; each device's records in their order): of each
 * device not done, its records but flushes.  On a trace of several devices
 * interleaved (disksim's 16: 94% of its I/O on another device than the one
 * before) passes 2 and 3 walk a device's state at a time, in registers and
 * in cache, not loaded and stored at every record; each device's state is
 * its own, so the same state after each stretch.  Made once a chunk, for
 * both threads' devices.  In stretch s: the devices with records in
 * devs[0 .. nd) (ascending), their records' indexes (from the stretch's
 * first) in ix from at[j] to at[j + 1]. */
#define DEV_STRETCH 4096
struct dev_stretch {
	uint32_t nd;
	uint8_t devs[MODEL_MAX_DEVS];
	uint16_t at[MODEL_MAX_DEVS + 1];
	uint16_t ix[DEV_STRETCH];
};
struct dev_stretches { /* a chunk's: in_chunk[s] its records from s * DEV_STRETCH */
	struct dev_stretch in_chunk[FIT_CHUNK / DEV_STRETCH];
};
_Static_assert(FIT_CHUNK % DEV_STRETCH == 0, "a chunk is whole stretches");
_Static_assert(DEV_STRETCH < 65536, "dev_stretch's at[] and ix[] are 16-bit");
void model_devs_stretches(const struct devs_fit *df, const struct fit_cols *c,
			  struct dev_stretches *out);
/* model_devs_stretches's stretch [A, E) (E - A <= DEV_STRETCH) of a chunk's
 * devices DEV and ops OP into ST: of the ND devices, those whose bit is set
 * in LIVE (SLOT: a device id's index) */
static inline void fit_dev_stretch(const int8_t *slot, uint64_t live, size_t nd,
				   const uint16_t *dev, const uint8_t *op, size_t a, size_t e,
				   struct dev_stretch *st)
{
	uint32_t cnt[MODEL_MAX_DEVS + 1] = {0};
	uint8_t kk[DEV_STRETCH];
	for (size_t i = a; i < e; i++) {
		int k = slot[dev[i]];
		/* MODEL_MAX_DEVS: left out (a done device's, a flush; an id pass
		 * 1 never saw, -1: the file changed under the fit) */
		k = (unsigned)k < nd && live >> k & 1 && op[i] != REEL_OP_FLUSH ? k
										: MODEL_MAX_DEVS;
		kk[i - a] = (uint8_t)k;
		cnt[k]++;
	}
	uint32_t pos[MODEL_MAX_DEVS + 1], sum = 0;
	st->nd = 0;
	for (size_t k = 0; k < nd; k++) {
		pos[k] = sum;
		if (cnt[k]) {
			st->at[st->nd] = (uint16_t)sum;
			st->devs[st->nd++] = (uint8_t)k;
		}
		sum += cnt[k];
	}
	st->at[st->nd] = (uint16_t)sum;
	pos[MODEL_MAX_DEVS] = sum; /* the rest after them, not read */
	for (size_t i = a; i < e; i++)
		st->ix[pos[kk[i - a]]++] = (uint16_t)(i - a);
}
/* Between the passes: regions from the offsets, of the devices whose index
 * is in MINE (bit k: index k; each device's state its own, two threads may
 * take a part each). */
void model_devs_regions(struct devs_fit *df, uint64_t mine);
/* Then, all devices' regions done: the counts of the second pass's samples
 * (jumps, runs, local jumps, reuse distances: 4 a device) into N, in device
 * order; their number returned. */
size_t model_devs_region_counts(const struct devs_fit *df, uint64_t *n);
/* The main thread's half (MINE) of model_devs_regions (FINISH 0) or of
 * model_devs_finish (1), by the samples each device sorts there. */
uint64_t model_devs_half(const struct devs_fit *df, int finish);
/* Pass 3 (CAP bounds the samples): jumps, runs, remote jumps, overlap. */
int model_devs_walk_init(struct devs_fit *df, uint64_t cap);
int model_devs_walk(struct devs_fit *df, const struct fit_cols *c, uint64_t mine);
/* Pass 3's samples fitted, of the devices whose index is in MINE (as
 * model_devs_regions': two threads may take a part each). */
int model_devs_finish(struct devs_fit *df, uint64_t mine);
/* Pass 4, after the phases' sizes: the share of each size segment that
 * continues a run (WPHASE: each window's phase), per phase and op; the
 * re-use of run starts (the block map: here, not in pass 3, whose devices'
 * part is the longer on the second thread; the sample sizes of pass 3). */
int model_devs_seq_init(struct devs_fit *df, const struct model *m, const int *wphase);
int model_devs_seq(struct devs_fit *df, const struct fit_cols *c);
/* Pass 4's blocks gathered on the main thread: whether the devices' re-use
 * pass takes them (several devices, none with a sample map or a direct
 * extent, ever: their gather has no state); then each chunk's, before its
 * job is posted, into P (the chunk's c->gathered) at the map's shift as
 * the pass last published it (or less: a block gathered but no longer
 * sampled is looked at again by bmap_touch_h, the same sample). */
int model_devs_pregathers(const struct devs_fit *df);
void model_devs_pregather(const struct devs_fit *df, const struct fit_cols *c, struct reuse_pre *p);
void model_devs_sizes(struct devs_fit *df, const struct fit_cols *c);
int model_devs_seq_finish(struct devs_fit *df, struct model *m);
void model_devs_free(struct devs_fit *df);

/* ---- the hot blocks' order (fit_cycle.c) ---- */
#define FIT_CYCLE_DMAX 4096 /* the distances (run starts) counted up to */
#define FIT_CYCLE_PMIN 4    /* the order's least length */
struct fit_cycle_in {
	const uint8_t *s;    /* each run start's kept block + 1 (at most MODEL_MAX_CYCLE), or 0 */
	const uint8_t *len;  /* its size in align units */
	const uint64_t *off; /* kept block k's offset (of s[i] = k + 1) */
	uint64_t align;
	uint32_t n; /* the starts */
};
/* The window of IN's starts whose replay in turn re-uses its blocks at
 * distances nearest the trace's, and jumps so (least KS of both; the
 * shorter, then the earlier of equal ones), among those that wrap from
 * their last start to their first as the trace goes somewhere: *P starts
 * from *I; *P 0: none (fewer than 2 * MODEL_MAX_ORDER starts, no block
 * re-used, no memory). */
void fit_cycle_order(const struct fit_cycle_in *in, uint32_t *p, uint32_t *i);
/* The search's two parts that only read the trace, kept for its test's
 * reference search: the jump from start A's block to start B's, and the
 * trace's side (PAIR: a start after another; TCDF: its distances' CDF;
 * TJ: its jumps between kept blocks, sorted; their number, or -1 where
 * nothing is to match or on failure). */
int64_t fit_cycle_jump(const struct fit_cycle_in *in, uint32_t a, uint32_t b);
long fit_cycle_trace(const struct fit_cycle_in *in, uint8_t (*pair)[MODEL_MAX_CYCLE + 1],
		     double *tcdf, int64_t *tj);

/* Bins of 64-bit values exact under FIT_BIN_EXACT, then 8 an octave (a
 * relative width of 1/8): fit_bin(v) the bin of V, fit_bin_lo(k) the least
 * value of bin K; FIT_BIN_EXACT + 8 * 58 bins hold every uint64_t. */
#define FIT_BIN_EXACT 64
static inline uint32_t fit_bin(uint64_t v)
{
	if (v < FIT_BIN_EXACT)
		return (uint32_t)v;
	int b = 63 - __builtin_clzll(v);
	return (uint32_t)(FIT_BIN_EXACT + 8 * (b - 6) + ((v >> (b - 3)) & 7));
}

static inline uint64_t fit_bin_lo(uint32_t k)
{
	if (k < FIT_BIN_EXACT)
		return k;
	int b = (int)(k - FIT_BIN_EXACT) / 8 + 6;
	return (uint64_t)(8 + (k - FIT_BIN_EXACT) % 8) << (b - 3);
}

#endif
