/*
 * formats/column_codec.c - the column codec of .reel data chunks: each
 * field of a chunk's records is one column, stored as a delta from the
 * field before it (see col_values), scaled down by the column's common
 * divisor, zigzagged, then bitpacked in mini-blocks of 128 values or
 * written as LEB128 varints, whichever is smaller.  The encoder
 * (reel_col_pack) serves the writer, the decoder (reel_col_open,
 * reel_col_decode, reel_col_skip) and the inverse of the transforms
 * (reel_block_recs, reel_block_cols) the reader.  formats/FORMAT.md
 * 3.1-3.2 is normative.
 */
#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/reel_internal.h"

static inline uint64_t zz(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

static inline int64_t unzz(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* ---- column layout ----------------------------------------------------- */
const char *const reel_col_names[C__COUNT] = {"has",	"queue", "issue", "complete", "offset",
					      "length", "op",	 "flags", "dev",      "pid",
					      "comm",	"cpu",	 "error"};

/* Set by reel_codec_plain (tests): the plain C paths only, so that they are
 * exercised on a processor that has AVX2 and BMI2 too. */
static int plain_only;
void reel_codec_plain(int on) { plain_only = on; }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CODEC_X86 1
#include <immintrin.h>
static int has_avx2(void) { return !plain_only && __builtin_cpu_supports("avx2"); }
#else
#define CODEC_X86 0
static int has_avx2(void) { return 0; }
#endif
int reel_has_avx2(void) { return has_avx2(); }

/* gcd(g, a), quick when a power of two g divides a (offsets, lengths) */
static inline uint64_t gcd_step(uint64_t g, uint64_t a)
{
	if (g == 1 || (g && !(g & (g - 1)) && !(a & (g - 1))))
		return g;
	return reel_gcd64(g, a);
}

/* A column's values' range and the gcd of their magnitudes (0 while all
 * are 0; once 1 it stays 1), kept value by value.  MASK: the bits
 * a value must not have for gcd_step to leave G as it is: G - 1 for a
 * power of two G (-x has x's low zero bits), all of them for G 0 or not a
 * power of two (gcd_step then goes to reel_gcd64 each time, as it did);
 * so a value costs a test where G stays (offsets, lengths: 10 instructions
 * a value of the writer's hot loop, and as many where G is 1). */
struct col_stat {
	int64_t mn, mx;
	uint64_t g, mask;
};

static inline __attribute__((always_inline)) void col_stat_add(struct col_stat *st, int64_t x)
{
	st->mn = x < st->mn ? x : st->mn;
	st->mx = x > st->mx ? x : st->mx;
	if ((uint64_t)x & st->mask) {
		uint64_t g = gcd_step(st->g, x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x);
		st->g = g;
		st->mask = g && !(g & (g - 1)) ? g - 1 : ~0ull;
	}
}

#if CODEC_X86
/* col_stat's values four at a time: the range in vectors, the gcd's test
 * (x & MASK) of four at once, the four added one by one (col_stat_add,
 * in order) where one of them has a bit of MASK (offsets, lengths: only
 * the first few); the range and gcd col_stat_add finds.  How many. */
__attribute__((target("avx2"))) static size_t col_stat_avx2(const int64_t *v, size_t n,
							    struct col_stat *st)
{
	__m256i mn = _mm256_set1_epi64x(st->mn), mx = _mm256_set1_epi64x(st->mx),
		mask = _mm256_set1_epi64x((long long)st->mask);
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(v + i));
		mn = _mm256_blendv_epi8(mn, x, _mm256_cmpgt_epi64(mn, x));
		mx = _mm256_blendv_epi8(mx, x, _mm256_cmpgt_epi64(x, mx));
		if (!_mm256_testz_si256(x, mask)) {
			for (size_t j = i; j < i + 4; j++)
				col_stat_add(st, v[j]);
			mask = _mm256_set1_epi64x((long long)st->mask);
		}
	}
	int64_t a[4], b[4];
	_mm256_storeu_si256((__m256i *)a, mn);
	_mm256_storeu_si256((__m256i *)b, mx);
	for (int j = 0; j < 4; j++) {
		st->mn = a[j] < st->mn ? a[j] : st->mn;
		st->mx = b[j] > st->mx ? b[j] : st->mx;
	}
	return i;
}
#else
static size_t col_stat_avx2(const int64_t *v, size_t n, struct col_stat *st) { return 0; }
#endif

/* The range and gcd of a column's N values V (col_stat_add's, with AVX2
 * where the processor has it: 11 instructions a value one by one, the
 * writer's hot loop) */
static void col_stat(const int64_t *v, size_t n, struct col_stat *st, int avx2)
{
	st->mn = INT64_MAX;
	st->mx = INT64_MIN;
	st->g = 0;
	st->mask = ~0ull;
	for (size_t i = avx2 ? col_stat_avx2(v, n, st) : 0; i < n; i++)
		col_stat_add(st, v[i]);
}

/*
 * The per-record values stored in column c (before scaling and zigzag), of
 * n records into v.  Each is relative to the previous record of the same
 * chunk (all zero for the first); queue times to the queue time of the
 * last record of the chunk that had one.  Absent times store 0.  One loop
 * per column, the column's one pass over the records.
 */
static void col_values(int c, const struct reel_rec *r, size_t n, int64_t *v)
{
	int64_t prevq = 0;
	uint64_t pend = 0;
	size_t i;
#define PUT(expr) (v[i] = (int64_t)(expr))
#define EACH(expr)                                                                                 \
	for (i = 0; i < n; i++)                                                                    \
		PUT(expr);                                                                         \
	break
	switch (c) {
	case C_HAS:
		EACH(r[i].has);
	case C_QUEUE:
		for (i = 0; i < n; i++) {
			int q = r[i].has & REEL_HAS_QUEUE;
			PUT(q ? (int64_t)((uint64_t)r[i].queue_ns - (uint64_t)prevq) : 0);
			prevq = q ? r[i].queue_ns : prevq;
		}
		break;
	case C_ISSUE:
		EACH(r[i].has & REEL_HAS_ISSUE
			 ? (uint64_t)r[i].issue_ns -
			       (uint64_t)(r[i].has & REEL_HAS_QUEUE ? r[i].queue_ns : 0)
			 : 0);
	case C_COMPLETE:
		EACH(r[i].has & REEL_HAS_COMPLETE
			 ? (uint64_t)r[i].complete_ns -
			       (uint64_t)(r[i].has & REEL_HAS_ISSUE   ? r[i].issue_ns
					  : r[i].has & REEL_HAS_QUEUE ? r[i].queue_ns
								      : 0)
			 : 0);
	case C_OFFSET:
		for (i = 0; i < n; i++) {
			PUT(r[i].offset - pend);
			pend = r[i].offset + r[i].length;
		}
		break;
	case C_LENGTH:
		EACH(r[i].length);
	case C_OP:
		EACH(r[i].op);
	case C_FLAGS:
		EACH(r[i].flags);
	case C_DEV:
		EACH(r[i].dev);
	case C_PID:
		EACH(r[i].pid);
	case C_COMM:
		EACH(r[i].comm);
	case C_CPU:
		EACH(r[i].cpu);
	case C_ERROR:
		EACH(r[i].error);
	default:
		EACH(0);
	}
#undef EACH
#undef PUT
}

/* ---- encoder ------------------------------------------------------------ */
/* The fields reel_col_zero looks at: a record's last three words, ORed and
 * ANDed word by word (the same bits as field by field, whatever the byte
 * order: 6 instructions a record, not 18), then read back as fields. */
#define ZERO_FROM offsetof(struct reel_rec, length)
#define ZERO_WORDS 3
_Static_assert(ZERO_FROM + 8 * ZERO_WORDS == sizeof(struct reel_rec) &&
		   offsetof(struct reel_rec, queue_ns) < ZERO_FROM &&
		   offsetof(struct reel_rec, issue_ns) < ZERO_FROM &&
		   offsetof(struct reel_rec, complete_ns) < ZERO_FROM &&
		   offsetof(struct reel_rec, offset) < ZERO_FROM,
	       "reel_col_zero's fields are the record's last three words");

unsigned reel_col_zero(const struct reel_rec *r, size_t n, unsigned *same)
{
	uint64_t o0 = 0, o1 = 0, o2 = 0, a0 = ~0ull, a1 = ~0ull, a2 = ~0ull;
	for (size_t i = 0; i < n; i++) {
		uint64_t w[ZERO_WORDS];
		memcpy(w, (const char *)&r[i] + ZERO_FROM, sizeof(w));
		o0 |= w[0], o1 |= w[1], o2 |= w[2];
		a0 &= w[0], a1 &= w[1], a2 &= w[2];
	}
	uint64_t ow[ZERO_WORDS] = {o0, o1, o2}, aw[ZERO_WORDS] = {a0, a1, a2};
	struct reel_rec o, a; /* every field's bits set in some record, in every one */
	memcpy((char *)&o + ZERO_FROM, ow, sizeof(ow));
	memcpy((char *)&a + ZERO_FROM, aw, sizeof(aw));
	uint64_t has = o.has, len = o.length, op = o.op, fl = o.flags, dev = o.dev, pid = o.pid,
		 comm = o.comm, cpu = o.cpu, err = (uint32_t)o.error;
	uint64_t ahas = a.has, alen = a.length, aop = a.op, afl = a.flags, adev = a.dev,
		 apid = a.pid, acomm = a.comm, acpu = a.cpu, aerr = (uint32_t)a.error;
	/* a field whose bits are set in every record or none: one value */
	*same =
	    n ? (unsigned)((has == ahas) << C_HAS | (len == alen) << C_LENGTH |
			   (op == aop) << C_OP | (fl == afl) << C_FLAGS | (dev == adev) << C_DEV |
			   (pid == apid) << C_PID | (comm == acomm) << C_COMM |
			   (cpu == acpu) << C_CPU | (err == aerr) << C_ERROR)
	      : 0;
	return (unsigned)(!has << C_HAS | !(has & REEL_HAS_QUEUE) << C_QUEUE |
			  !(has & REEL_HAS_ISSUE) << C_ISSUE |
			  !(has & REEL_HAS_COMPLETE) << C_COMPLETE | !len << C_LENGTH |
			  !op << C_OP | !fl << C_FLAGS | !dev << C_DEV | !pid << C_PID |
			  !comm << C_COMM | !cpu << C_CPU | !err << C_ERROR);
}

void reel_col_pack_same(msgpack_packer *pk, int c, const struct reel_rec *r)
{
	int64_t v;
	col_values(c, r, 1, &v); /* a field's own value: its first record's */
	reel_mp_pack_str(pk, reel_col_names[c]);
	msgpack_pack_int64(pk, v);
}

static unsigned char *put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

/* The bytes of v as a varint: floor(log2 v) / 7 + 1, from a table by log2 v
 * (a bsr and a load) */
static inline size_t vlen(uint64_t v)
{
	static const unsigned char bytes[64] = {1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3,
						3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5,
						5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7,
						7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 10};
	return bytes[63 - __builtin_clzll(v | 1)];
}

#if CODEC_X86
/* zz(x >> SH) of the N values V in place (each a multiple of 2^SH: the
 * shift is exact), four at a time, their range into *UMIN, *UMAX: zz(y)
 * is y << 1 for y >= 0 and ~y << 1 | 1 below, and ~(x >> SH) is ~x >> SH,
 * so zz(x >> SH) = ((x ^ s) >>> SH) << 1 | (s & 1), s x's sign (AVX2 has
 * no arithmetic shift of 64-bit lanes); unsigned order as signed order of
 * the values less 2^63.  How many. */
__attribute__((target("avx2"))) static size_t zz_avx2(int64_t *v, size_t n, unsigned sh,
						      uint64_t *umin, uint64_t *umax)
{
	const __m256i bias = _mm256_set1_epi64x(INT64_MIN), one = _mm256_set1_epi64x(1),
		      zero = _mm256_setzero_si256();
	const __m128i s = _mm_cvtsi32_si128((int)sh);
	__m256i lo = _mm256_set1_epi64x(INT64_MAX), hi = bias; /* UINT64_MAX, 0 */
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(v + i)),
			sg = _mm256_cmpgt_epi64(zero, x);
		__m256i z = _mm256_or_si256(
		    _mm256_slli_epi64(_mm256_srl_epi64(_mm256_xor_si256(x, sg), s), 1),
		    _mm256_and_si256(sg, one));
		_mm256_storeu_si256((__m256i *)(v + i), z);
		__m256i b = _mm256_xor_si256(z, bias);
		lo = _mm256_blendv_epi8(lo, b, _mm256_cmpgt_epi64(lo, b));
		hi = _mm256_blendv_epi8(hi, b, _mm256_cmpgt_epi64(b, hi));
	}
	uint64_t a[4], b[4];
	_mm256_storeu_si256((__m256i *)a, _mm256_xor_si256(lo, bias));
	_mm256_storeu_si256((__m256i *)b, _mm256_xor_si256(hi, bias));
	for (int j = 0; j < 4; j++) {
		*umin = a[j] < *umin ? a[j] : *umin;
		*umax = b[j] > *umax ? b[j] : *umax;
	}
	return i;
}
#else
static size_t zz_avx2(int64_t *v, size_t n, unsigned sh, uint64_t *umin, uint64_t *umax)
{
	return 0;
}
#endif

#if CODEC_X86
/* vlen's sum over the N values U, four at a time, into *SUM; how many it
 * summed.  vlen(u) is 1 and 1 more for each of 2^7, 2^14, ..., 2^63 that
 * u reaches: u >= 2^7j as (u - 2^63) > (2^7j - 1 - 2^63) signed (AVX2
 * has no unsigned compare of 64-bit lanes; for j = 9 the bound is -1,
 * u's top bit), each compare's -1 counted off in four 64-bit sums. */
__attribute__((target("avx2"))) static size_t vlen_sum_avx2(const uint64_t *u, size_t n,
							    size_t *sum)
{
	const __m256i bias = _mm256_set1_epi64x(INT64_MIN);
	__m256i bound[9], acc = _mm256_setzero_si256();
	for (int j = 0; j < 9; j++)
		bound[j] = _mm256_set1_epi64x(
		    (int64_t)(((UINT64_C(1) << (7 * (j + 1))) - 1) ^ (UINT64_C(1) << 63)));
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(u + i)), bias);
#pragma GCC unroll 9
		for (int j = 0; j < 9; j++)
			acc = _mm256_sub_epi64(acc, _mm256_cmpgt_epi64(x, bound[j]));
	}
	uint64_t a[4];
	_mm256_storeu_si256((__m256i *)a, acc);
	*sum += i + (size_t)(a[0] + a[1] + a[2] + a[3]);
	return i;
}
#else
static size_t vlen_sum_avx2(const uint64_t *u, size_t n, size_t *sum) { return 0; }
#endif

/* The bytes of the N values U as varints (vlen's sum): four at a time with
 * AVX2 where the processor has it (AVX2), else one by one (12
 * instructions a value: 36 M of a 1M-I/O gen's packer, where the
 * mini-blocks' bounds left it the queue and offset columns) */
static size_t vlen_sum(const uint64_t *u, size_t n, int avx2)
{
	size_t sum = 0, i = avx2 ? vlen_sum_avx2(u, n, &sum) : 0;
	for (; i < n; i++)
		sum += vlen(u[i]);
	return sum;
}

size_t reel_col_varint_bytes(const uint64_t *u, size_t n) { return vlen_sum(u, n, has_avx2()); }

void reel_col_pack(msgpack_packer *pk, int c, const struct reel_rec *r, size_t n, int64_t *v,
		   unsigned char *vbuf, int *packed)
{
	struct col_stat st;
	const int avx2 = has_avx2();
	col_values(c, r, n, v);
	col_stat(v, n, &st, avx2);
	int64_t mn = st.mn, mx = st.mx;
	uint64_t g = st.g;
	*packed = 0;
	if (mn == mx && mn == 0)
		return;
	reel_mp_pack_str(pk, reel_col_names[c]);
	*packed = 1;
	if (mn == mx) { /* const: a bare integer */
		msgpack_pack_int64(pk, mn);
		return;
	}
	if (g == 0 || g > INT64_MAX)
		g = 1;
	/*
	 * "bitpack": u = zigzag(x / mul); per mini-block of 128 values a
	 * varint minimum and a width byte, then (u - min) in that many bits.
	 * Each mini-block's values scaled, zigzagged and measured (their
	 * range, their size as varints, as bitpack: ceil(128 width / 8) bytes
	 * of bits), then packed only where bitpack is the smaller (arrival
	 * gaps as varints were packed twice: 12 M instructions a 1M-I/O gen).
	 */
	assert(n <= REEL_CHUNK_MAX); /* one chunk (reel_internal.h): the two arrays below */
	uint64_t bmin[REEL_CHUNK_MAX / 128];
	unsigned char bwidth[REEL_CHUNK_MAX / 128];
	/* the values' size as varints, as bounds: each mini-block's values
	 * at least its minimum's bytes, at most its maximum's (vlen rises
	 * with v); summed value by value only where the bounds do not
	 * decide (lengths, ops: never; 8 instructions a value) */
	size_t vi_lo = 0, vi_hi = 0, bp_size = 0;
	/* x / g: exact, so a shift when g is a power of two */
	int gsh = !(g & (g - 1)) ? __builtin_ctzll(g) : -1;
	for (size_t b0 = 0; b0 < n; b0 += 128) {
		size_t m = n - b0 < 128 ? n - b0 : 128;
		uint64_t umin = UINT64_MAX, umax = 0, *u = (uint64_t *)v + b0;
		size_t i = gsh >= 0 && avx2 ? zz_avx2(v + b0, m, (unsigned)gsh, &umin, &umax) : 0;
		for (; i < m; i++) {
			int64_t x = gsh >= 0 ? v[b0 + i] >> gsh : v[b0 + i] / (int64_t)g;
			uint64_t z = zz(x);
			u[i] = z;
			umin = z < umin ? z : umin;
			umax = z > umax ? z : umax;
		}
		vi_lo += m * vlen(umin);
		vi_hi += m * vlen(umax);
		unsigned width = umax == umin ? 0 : 64 - (unsigned)__builtin_clzll(umax - umin);
		bmin[b0 / 128] = umin;
		bwidth[b0 / 128] = (unsigned char)width;
		bp_size += vlen(umin) + 1 + (m * width + 7) / 8;
	}
	/* heavy-tailed deltas (arrival gaps) can be smaller as varints */
	size_t vi_size = vi_lo;
	if (vi_lo * 10 < bp_size * 9 && !(vi_hi * 10 < bp_size * 9))
		vi_size = vlen_sum((const uint64_t *)v, n, avx2);
	else if (vi_lo * 10 < bp_size * 9)
		vi_size = vi_hi;
	const char *enc = "bitpack";
	unsigned char *p = vbuf;
	if (vi_size * 10 < bp_size * 9) {
		enc = "varint";
		for (size_t i = 0; i < n; i++)
			p = put_varint(p, (uint64_t)v[i]);
	}
	for (size_t b0 = 0; b0 < n && enc[0] == 'b'; b0 += 128) {
		size_t m = n - b0 < 128 ? n - b0 : 128;
		const uint64_t *u = (const uint64_t *)v + b0, umin = bmin[b0 / 128];
		unsigned width = bwidth[b0 / 128];
		p = put_varint(p, umin);
		*p++ = (unsigned char)width;
		uint64_t acc = 0;
		unsigned nbits = 0;
		for (size_t i = 0; i < m && width; i++) {
			uint64_t d = u[i] - umin;
			acc |= d << nbits;
			if (nbits + width >= 64) {
				memcpy(p, &acc, 8);
				p += 8;
				unsigned used = 64 - nbits;
				acc = used < 64 ? d >> used : 0;
				nbits = nbits + width - 64;
			} else {
				nbits += width;
			}
		}
		while (nbits > 0) {
			*p++ = (unsigned char)acc;
			acc >>= 8;
			nbits = nbits > 8 ? nbits - 8 : 0;
		}
	}
	/* bitpack with mul 1: a bare bin; otherwise [mul, bin] or [mul, bin, "varint"] */
	int varint = enc[0] == 'v';
	if (g != 1 || varint) {
		msgpack_pack_array(pk, 2 + (size_t)varint);
		msgpack_pack_uint64(pk, g);
	}
	msgpack_pack_bin(pk, (size_t)(p - vbuf));
	msgpack_pack_bin_body(pk, vbuf, (size_t)(p - vbuf));
	if (varint)
		reel_mp_pack_str(pk, "varint");
	return;
}

/* ---- decoder ------------------------------------------------------------ */

/* ---- a decoded block back into records ---------------------------------- */
/*
 * Value i of column C of the block at tmp: one base register and constant
 * displacements, so the loops below keep their state in registers.
 */
#define COL(c) tmp[(size_t)(c)*REEL_TSTRIDE + i]

/* Counted in the summary S: the ops and bytes of the block's BM records */
static void seen_ops(struct reel_summary *s, const int64_t *tmp, size_t bm)
{
	/* four tallies, so that a run of one op is not one chain of
	 * read-modify-writes */
	uint64_t ops[4][REEL_OP__COUNT] = {{0}}, bytes[4][REEL_OP__COUNT] = {{0}};
	for (size_t i = 0; i < bm; i++) {
		unsigned op = (uint8_t)COL(C_OP);
		op = op < REEL_OP__COUNT ? op : REEL_OP_READ;
		ops[i & 3][op]++;
		bytes[i & 3][op] += (uint32_t)COL(C_LENGTH);
	}
	for (int k = 0; k < 4; k++)
		for (int o = 0; o < REEL_OP__COUNT; o++) {
			s->ops[o] += ops[k][o];
			s->bytes[o] += bytes[k][o];
		}
}

/*
 * The times of record i from its has bits and stored columns, the running
 * queue time q: absent times are 0; a time is stored relative to the one
 * before it (see col_values).  FULL: the block's every record has all
 * three, so no has bit need be looked at.
 */
#define REC_TIMES(has, q, qq, is, cm)                                                              \
	do {                                                                                       \
		if (full) {                                                                        \
			qq = q += (uint64_t)COL(C_QUEUE);                                          \
			is = qq + (uint64_t)COL(C_ISSUE);                                          \
			cm = is + (uint64_t)COL(C_COMPLETE);                                       \
			break;                                                                     \
		}                                                                                  \
		uint64_t dq = (has)&REEL_HAS_QUEUE ? ~0ull : 0;                                    \
		uint64_t di = (has)&REEL_HAS_ISSUE ? ~0ull : 0;                                    \
		uint64_t dc = (has)&REEL_HAS_COMPLETE ? ~0ull : 0;                                 \
		q += (uint64_t)COL(C_QUEUE) & dq;                                                  \
		qq = q & dq;                                                                       \
		is = (qq + (uint64_t)COL(C_ISSUE)) & di;                                           \
		cm = (((has)&REEL_HAS_ISSUE ? is : qq) + (uint64_t)COL(C_COMPLETE)) & dc;          \
	} while (0)

/* 1 when every record of the block has all three times */
static int block_full(const int64_t *tmp, size_t bm)
{
	uint64_t all = ~0ull;
	for (size_t i = 0; i < bm; i++)
		all &= (uint64_t)COL(C_HAS);
	const uint64_t qic = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE;
	return (all & qic) == qic;
}

/*
 * The bounds of FORMAT.md 3.2, kept for the block: the high bit of
 * t + REEL_TIME_LIMIT is set for a time t out of bounds (see
 * reel_time_out), so the sums of all the times are or-ed together and
 * their high bit looked at once, at the end.
 */
#define REC_BOUNDS(tb, ob, qq, is, cm, off, len)                                                   \
	do {                                                                                       \
		const uint64_t lim = (uint64_t)REEL_TIME_LIMIT;                                    \
		tb |= (qq + lim) | (is + lim) | (cm + lim);                                        \
		ob |= off > REEL_END_LIMIT - len;                                                  \
	} while (0)

static inline __attribute__((always_inline)) uint64_t block_recs(const int64_t *tmp, size_t bm,
								 struct reel_rec *x, uint64_t *qp,
								 uint64_t *endp,
								 struct reel_summary *s, int full)
{
	uint64_t q = *qp, end = *endp, tb = 0, ob = 0;
	int64_t first = s->first_ns, last = s->last_ns;
	for (size_t i = 0; i < bm; i++) {
		struct reel_rec *y = &x[i];
		unsigned has = (unsigned)COL(C_HAS);
		uint64_t qq, is, cm;
		REC_TIMES(has, q, qq, is, cm);
		uint64_t off = end + (uint64_t)COL(C_OFFSET);
		uint32_t len = (uint32_t)COL(C_LENGTH);
		end = off + len;
		y->queue_ns = (int64_t)qq;
		y->issue_ns = (int64_t)is;
		y->complete_ns = (int64_t)cm;
		y->offset = off;
		y->length = len;
		y->pid = (uint32_t)COL(C_PID);
		y->comm = (uint32_t)COL(C_COMM);
		y->error = (int32_t)COL(C_ERROR);
		y->dev = (uint16_t)COL(C_DEV);
		y->cpu = (uint16_t)COL(C_CPU);
		y->has = (uint16_t)has;
		y->op = (uint8_t)COL(C_OP);
		y->flags = (uint8_t)COL(C_FLAGS);
		REC_BOUNDS(tb, ob, qq, is, cm, off, len);
		int64_t t = (int64_t)(full || has & REEL_HAS_QUEUE ? qq : is);
		first = t < first ? t : first;
		last = t > last ? t : last;
	}
	seen_ops(s, tmp, bm);
	s->first_ns = first;
	s->last_ns = last;
	*qp = q;
	*endp = end;
	return tb >> 63 | ob;
}

uint64_t reel_block_recs(const int64_t *tmp, size_t bm, struct reel_rec *x, uint64_t *qp,
			 uint64_t *endp, struct reel_summary *s)
{
	return block_full(tmp, bm) ? block_recs(tmp, bm, x, qp, endp, s, 1)
				   : block_recs(tmp, bm, x, qp, endp, s, 0);
}

static inline __attribute__((always_inline)) uint64_t
block_cols(const int64_t *tmp, size_t bm, unsigned char *cb, struct reel_cols *c, uint64_t *qp,
	   uint64_t *endp, struct reel_summary *s, int full, int ic, int ops)
{
	/* one base, constant displacements (see REEL_COLS_*) */
	uint16_t *ch = (uint16_t *)(cb + REEL_COLS_HAS), *cd = (uint16_t *)(cb + REEL_COLS_DEV);
	int64_t *cq = (int64_t *)(cb + REEL_COLS_QUEUE), *ci = (int64_t *)(cb + REEL_COLS_ISSUE),
		*cc = (int64_t *)(cb + REEL_COLS_COMPLETE);
	uint64_t *co = (uint64_t *)(cb + REEL_COLS_OFFSET);
	uint32_t *cl = (uint32_t *)(cb + REEL_COLS_LENGTH);
	uint8_t *cop = cb + REEL_COLS_OP;
	uint64_t q = *qp, end = *endp, tb = 0, ob = 0;
	int64_t first = s->first_ns, last = s->last_ns;
	for (size_t i = 0; i < bm; i++) {
		unsigned has = (unsigned)COL(C_HAS);
		uint64_t qq, is = 0, cm = 0;
		if (ic) {
			REC_TIMES(has, q, qq, is, cm);
		} else { /* every record has its queue time; the others not decoded */
			qq = q += (uint64_t)COL(C_QUEUE);
		}
		uint64_t off = end + (uint64_t)COL(C_OFFSET);
		uint32_t len = (uint32_t)COL(C_LENGTH);
		end = off + len;
		cq[i] = (int64_t)qq;
		if (ic) {
			ci[i] = (int64_t)is;
			cc[i] = (int64_t)cm;
		}
		co[i] = off;
		cl[i] = len;
		ch[i] = (uint16_t)has;
		cop[i] = (uint8_t)COL(C_OP);
		cd[i] = (uint16_t)COL(C_DEV);
		if (ops)
			REC_BOUNDS(tb, ob, qq, is, cm, off, len);
		int64_t t = (int64_t)(full || has & REEL_HAS_QUEUE ? qq : is);
		first = t < first ? t : first;
		last = t > last ? t : last;
	}
	if (ops)
		seen_ops(s, tmp, bm);
	s->first_ns = first;
	s->last_ns = last;
	*qp = q;
	*endp = end;
	c->n = bm;
	return tb >> 63 | ob;
}

uint64_t reel_block_cols(const int64_t *tmp, size_t bm, void *colbuf, struct reel_cols *c,
			 uint64_t *qp, uint64_t *endp, struct reel_summary *s, int ic, int ops)
{
	/* each case its own loop (no test of a flag in it) */
#define BLOCK_COLS(full, ic)                                                                       \
	(ops ? block_cols(tmp, bm, colbuf, c, qp, endp, s, full, ic, 1)                            \
	     : block_cols(tmp, bm, colbuf, c, qp, endp, s, full, ic, 0))
	if (!ic)
		return BLOCK_COLS(1, 0);
	return block_full(tmp, bm) ? BLOCK_COLS(1, 1) : BLOCK_COLS(0, 1);
#undef BLOCK_COLS
}

int reel_block_queued(const int64_t *tmp, size_t bm)
{
	uint64_t all = ~0ull;
	for (size_t i = 0; i < bm; i++)
		all &= (uint64_t)COL(C_HAS);
	return (all & REEL_HAS_QUEUE) != 0;
}
#undef REC_BOUNDS
#undef REC_TIMES
#undef COL

/* ---- the columns' streams ---------------------------------------------- */

/*
 * A column is absent (all zero), a bare integer (constant), a bin (bitpack,
 * multiplier 1), [mul, bin] or [mul, bin, "varint"]; early builds wrote a
 * map {enc, v | mul, data}.
 */
int reel_col_open(struct colstate *cs, const msgpack_object *col, int *unknown_enc)
{
	const msgpack_object *d = col;
	int64_t mul = 1;
	int varint = 0;
	memset(cs, 0, sizeof(*cs));
	cs->kind = K_ZERO;
	*unknown_enc = 0;
	if (!col)
		return 0;
	if (!reel_mp_int(col, &cs->base)) {
		cs->kind = K_CONST;
		return 0;
	}
	if (col->type == MSGPACK_OBJECT_MAP) { /* the map form of early builds */
		const msgpack_object *e = reel_mp_get(col, "enc");
		if (!e || e->type != MSGPACK_OBJECT_STR)
			return REEL_E_CORRUPT;
		if (e->via.str.size == 5 && !memcmp(e->via.str.ptr, "const", 5)) {
			if (reel_mp_int(reel_mp_get(col, "v"), &cs->base))
				return REEL_E_CORRUPT;
			cs->kind = K_CONST;
			return 0;
		}
		varint = e->via.str.size == 6 && !memcmp(e->via.str.ptr, "varint", 6);
		if (!varint && (e->via.str.size != 7 || memcmp(e->via.str.ptr, "bitpack", 7))) {
			*unknown_enc = 1;
			return REEL_E_CORRUPT;
		}
		mul = reel_mp_int_or(reel_mp_get(col, "mul"), 1);
		d = reel_mp_get(col, "data");
		if (mul < 1 || !d)
			return REEL_E_CORRUPT;
	} else if (col->type == MSGPACK_OBJECT_ARRAY) {
		uint32_t na = col->via.array.size;
		if (na < 2 || na > 3 || reel_mp_int(&col->via.array.ptr[0], &mul) || mul < 1)
			return REEL_E_CORRUPT;
		d = &col->via.array.ptr[1];
		if (na == 3) {
			const msgpack_object *e = &col->via.array.ptr[2];
			if (e->type != MSGPACK_OBJECT_STR || e->via.str.size != 6 ||
			    memcmp(e->via.str.ptr, "varint", 6)) {
				*unknown_enc = 1;
				return REEL_E_CORRUPT;
			}
			varint = 1;
		}
	}
	if (d->type != MSGPACK_OBJECT_BIN)
		return REEL_E_CORRUPT;
	cs->kind = varint ? K_VARINT : K_BP;
	cs->mul = mul;
	cs->p = (const unsigned char *)d->via.bin.ptr;
	cs->end = cs->p + d->via.bin.size;
	return 0;
}

static int varint_slow(const unsigned char **pp, const unsigned char *end, uint64_t *out)
{
	const unsigned char *p = *pp;
	uint64_t u = 0;
	unsigned shift = 0;
	for (;;) {
		if (p >= end || shift > 63)
			return 0;
		unsigned char b = *p++;
		u |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*pp = p;
	*out = u;
	return 1;
}

/*
 * The k values of width w (1..56) at src into o as they are, or with LUT
 * (widths up to LUT_BITS) as lut[value], reading up to 8 bytes past the
 * last value's byte.  Inlined with a constant w (see unpack): eight values
 * fill w whole bytes, so every load offset and shift of a group of eight
 * is a constant.
 */
/* 4: a table of 2^w values made for each mini-block of 128 costs more
 * than the AVX2 unzigzag it saves past that (widths 5 and 6, a trace's
 * lengths of 4-128 KiB: 177 -> 173 instructions a record, one read of the
 * 1M-I/O bench trace, callgrind; HISTORY.md "The .reel decode, faster") */
#define LUT_BITS 4
_Static_assert(LUT_BITS == 4, "unpack's switch lists widths 1-4 as table look-ups");
#define VAL(x) (lut ? lut[x] : (int64_t)(x))
static inline __attribute__((always_inline)) void unpack_w(const unsigned char *src, int64_t *o,
							   size_t k, unsigned w, const int64_t *lut)
{
	const uint64_t mask = (1ull << w) - 1;
	size_t i = 0;
	for (; i + 8 <= k; i += 8, src += w) {
#pragma GCC unroll 8
		for (unsigned j = 0; j < 8; j++) {
			uint64_t wd;
			memcpy(&wd, src + (j * w >> 3), 8);
			o[i + j] = VAL((wd >> (j * w & 7)) & mask);
		}
	}
	for (uint64_t bit = 0; i < k; i++, bit += w) {
		uint64_t wd;
		memcpy(&wd, src + (bit >> 3), 8);
		o[i] = VAL((wd >> (bit & 7)) & mask);
	}
}
#undef VAL

/* o[0, k) = unzz(umin + o[i]) * mul, four at a time with AVX2 where the
 * processor has it and mul is a power of two (a shift) */
#if CODEC_X86
__attribute__((target("avx2"))) static size_t unzz_avx2(int64_t *o, size_t k, uint64_t umin,
							unsigned sh)
{
	const __m256i mn = _mm256_set1_epi64x((long long)umin), one = _mm256_set1_epi64x(1),
		      zero = _mm256_setzero_si256();
	const __m128i s = _mm_cvtsi32_si128((int)sh);
	size_t i = 0;
	for (; i + 4 <= k; i += 4) {
		__m256i u = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(o + i)), mn);
		__m256i v = _mm256_xor_si256(_mm256_srli_epi64(u, 1),
					     _mm256_sub_epi64(zero, _mm256_and_si256(u, one)));
		_mm256_storeu_si256((__m256i *)(o + i), _mm256_sll_epi64(v, s));
	}
	return i;
}
#else
static size_t unzz_avx2(int64_t *o, size_t k, uint64_t umin, unsigned sh) { return 0; }
#endif

static void unzz_all(int64_t *o, size_t k, uint64_t umin, uint64_t mul, int avx2)
{
	size_t i =
	    avx2 && !(mul & (mul - 1)) ? unzz_avx2(o, k, umin, (unsigned)__builtin_ctzll(mul)) : 0;
	for (; i < k; i++)
		o[i] = (int64_t)((uint64_t)unzz(umin + (uint64_t)o[i]) * mul);
}

/* unpack_w for widths 1..56: one copy per width; the narrow ones look
 * their 2^w values up in a table made for the mini-block, the others are
 * unzigzagged after */
static void unpack(const unsigned char *src, int64_t *o, size_t k, unsigned w, uint64_t umin,
		   uint64_t mul, int avx2)
{
	int64_t lut[1 << LUT_BITS];
	if (w <= LUT_BITS)
		for (uint64_t x = 0; x < (1u << w); x++)
			lut[x] = (int64_t)((uint64_t)unzz(umin + x) * mul);
	switch (w) {
#define L1(n)                                                                                      \
	case n:                                                                                    \
		unpack_w(src, o, k, n, lut);                                                       \
		return;
#define W1(n)                                                                                      \
	case n:                                                                                    \
		unpack_w(src, o, k, n, NULL);                                                      \
		break;
#define W8(n) W1(n) W1(n + 1) W1(n + 2) W1(n + 3) W1(n + 4) W1(n + 5) W1(n + 6) W1(n + 7)
		L1(1) /* the widths up to LUT_BITS */
		L1(2) L1(3) L1(4) W1(5) W1(6) W1(7) W1(8) W8(9) W8(17) W8(25) W8(33) W8(41) W8(49)
#undef W8
#undef W1
#undef L1
	}
	unzz_all(o, k, umin, mul, avx2);
}

/*
 * Bitpack: mini-blocks of 128 values (the last may be short), each a varint
 * minimum, a width byte, then the values minus the minimum in width bits,
 * little-endian.  Decode blocks are multiples of 128 values, so a call
 * starts at a mini-block boundary.
 */
static int decode_bitpack(struct colstate *cs, int64_t *out, size_t m)
{
	const unsigned char *p = cs->p, *end = cs->end;
	const uint64_t mul = (uint64_t)cs->mul;
	const int avx2 = has_avx2();
	unsigned char pad[128 * 8 + 16];
	for (size_t b0 = 0; b0 < m; b0 += 128) {
		size_t k = m - b0 < 128 ? m - b0 : 128;
		uint64_t umin;
		if (!varint_slow(&p, end, &umin) || p >= end)
			return -1;
		unsigned width = *p++;
		if (width > 64)
			return -1;
		size_t nb = (k * width + 7) / 8;
		if ((size_t)(end - p) < nb)
			return -1;
		int64_t *o = out + b0;
		if (width == 0) {
			for (size_t i = 0; i < k; i++)
				o[i] = (int64_t)((uint64_t)unzz(umin) * mul);
			continue;
		}
		const unsigned char *src = p;
		if ((size_t)(end - p) < nb + 8 || width > 56) { /* no room to over-read */
			memset(pad, 0, sizeof(pad));
			memcpy(pad, p, nb);
			src = pad;
		}
		if (width <= 56) {
			unpack(src, o, k, width, umin, mul, avx2);
		} else {
			const uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
			uint64_t bit = 0;
			for (size_t i = 0; i < k; i++, bit += width) {
				uint64_t lo, hi = 0;
				memcpy(&lo, src + (bit >> 3), 8);
				unsigned sh = bit & 7;
				if (sh)
					hi = (uint64_t)src[(bit >> 3) + 8] << (64 - sh);
				uint64_t u = umin + (((lo >> sh) | hi) & mask);
				o[i] = (int64_t)((uint64_t)unzz(u) * mul);
			}
		}
		p += nb;
	}
	cs->p = p;
	return 0;
}

/* The value of the bytes v of a varint (little-endian, continuation bits
 * set or not, the bytes past its end clear): its 7-bit groups side by side */
static inline uint64_t compact7(uint64_t v)
{
	v = (v & 0x007f007f007f007full) | ((v & 0x7f007f007f007f00ull) >> 1);
	v = (v & 0x00003fff00003fffull) | ((v & 0x3fff00003fff0000ull) >> 2);
	return (v & 0x000000000fffffffull) | ((v & 0x0fffffff00000000ull) >> 4);
}

/* One bit per byte of w whose high bit is clear (the last byte of a varint) */
static inline unsigned stop_bits(uint64_t w)
{
	return (unsigned)(((~w & 0x8080808080808080ull) * 0x0002040810204081ull) >> 56);
}

/*
 * Varints, 16 bytes at a time: the bytes that end a varint, found at once
 * for the 16, give each value's place, so the values of a window decode
 * independently of each other rather than one after the other.  Varints of
 * more than 8 bytes, and the last 24 bytes of the stream, take the slow path.
 */
/* compact7 in one instruction where the processor has a fast one: BMI2's
 * pext (not the AMD processors before Zen 3, where it takes hundreds of
 * cycles).  An asm statement, so no part of the build needs -mbmi2; only
 * called after has_pext(). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
static inline uint64_t pext7(uint64_t v)
{
	uint64_t r;
	__asm__("pextq %2, %1, %0" : "=r"(r) : "r"(v), "r"(0x7f7f7f7f7f7f7f7full));
	return r;
}
static int has_pext(void)
{
	return !plain_only && __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") &&
	       !__builtin_cpu_is("znver2");
}
#else
static inline uint64_t pext7(uint64_t v) { return compact7(v); }
static int has_pext(void) { return 0; }
#endif

/* The value of the varint of bytes [a, e) of p (e - a in 1..8) */
static inline __attribute__((always_inline)) int64_t varint_at(const unsigned char *p, unsigned a,
							       unsigned e, uint64_t mul, int pext)
{
	uint64_t w;
	memcpy(&w, p + a, 8);
	w &= ~0ull >> (64 - 8 * (e - a));
	return (int64_t)((uint64_t)unzz(pext ? pext7(w) : compact7(w)) * mul);
}
#define VARINT_AT(a, e) varint_at(p, a, e, mul, pext)

static inline __attribute__((always_inline)) int decode_varint(struct colstate *cs, int64_t *out,
							       size_t m, int pext)
{
	const unsigned char *p = cs->p, *end = cs->end;
	const uint64_t mul = (uint64_t)cs->mul;
	size_t i = 0;
	while (i < m) {
		/* four values of up to 8 bytes each in the window: the common
		 * case, taken without a branch per value */
		while (m - i >= 4 && end - p >= 24) {
			uint64_t lo, hi;
			memcpy(&lo, p, 8);
			memcpy(&hi, p + 8, 8);
			unsigned s1 = stop_bits(lo) | stop_bits(hi) << 8, s2 = s1 & (s1 - 1),
				 s3 = s2 & (s2 - 1), s4 = s3 & (s3 - 1);
			if (!s4)
				break;
			unsigned e1 = (unsigned)__builtin_ctz(s1) + 1,
				 e2 = (unsigned)__builtin_ctz(s2) + 1,
				 e3 = (unsigned)__builtin_ctz(s3) + 1,
				 e4 = (unsigned)__builtin_ctz(s4) + 1;
			if (e1 > 8 || e2 - e1 > 8 || e3 - e2 > 8 || e4 - e3 > 8)
				break;
			out[i] = VARINT_AT(0, e1);
			out[i + 1] = VARINT_AT(e1, e2);
			out[i + 2] = VARINT_AT(e2, e3);
			out[i + 3] = VARINT_AT(e3, e4);
			i += 4;
			p += e4;
		}
		if (i == m)
			break;
		if (end - p >= 24) {
			uint64_t lo, hi;
			memcpy(&lo, p, 8);
			memcpy(&hi, p + 8, 8);
			unsigned stops = stop_bits(lo) | stop_bits(hi) << 8, start = 0;
			while (stops && i < m) {
				unsigned e = (unsigned)__builtin_ctz(stops) + 1, len = e - start;
				if (len > 8)
					break;
				stops &= stops - 1;
				out[i++] = VARINT_AT(start, e);
				start = e;
			}
			if (start) {
				p += start;
				continue;
			}
		}
		uint64_t u;
		if (!varint_slow(&p, end, &u))
			return -1;
		out[i++] = (int64_t)((uint64_t)unzz(u) * mul);
	}
	cs->p = p;
	return 0;
}
#undef VARINT_AT

static int decode_varint_pext(struct colstate *cs, int64_t *out, size_t m)
{
	return decode_varint(cs, out, m, 1);
}

static int decode_varint_plain(struct colstate *cs, int64_t *out, size_t m)
{
	return decode_varint(cs, out, m, 0);
}

int reel_col_decode(struct colstate *cs, int64_t *out, size_t m)
{
	size_t i = 0;
	switch (cs->kind) {
	case K_ZERO:
		memset(out, 0, m * sizeof(*out));
		return 0;
	case K_CONST:
		for (; i < m; i++)
			out[i] = cs->base;
		return 0;
	}
	if (cs->kind == K_VARINT)
		return has_pext() ? decode_varint_pext(cs, out, m)
				  : decode_varint_plain(cs, out, m);
	return decode_bitpack(cs, out, m);
}

int reel_col_skip(struct colstate *cs, size_t m)
{
	const unsigned char *p = cs->p, *end = cs->end;
	if (cs->kind == K_BP) {
		for (size_t b0 = 0; b0 < m; b0 += 128) {
			size_t k = m - b0 < 128 ? m - b0 : 128;
			uint64_t umin;
			if (!varint_slow(&p, end, &umin) || p >= end)
				return -1;
			unsigned width = *p++;
			size_t nb = (k * width + 7) / 8;
			if (width > 64 || (size_t)(end - p) < nb)
				return -1;
			p += nb;
		}
	} else if (cs->kind == K_VARINT) {
		/* m varints end in m bytes with the high bit clear */
		while (m >= 8 && end - p >= 8) {
			uint64_t w8;
			memcpy(&w8, p, 8);
			unsigned stops =
			    (unsigned)__builtin_popcountll(~w8 & 0x8080808080808080ull);
			if (stops > m)
				break;
			m -= stops;
			p += 8;
		}
		for (; m && p < end; p++)
			m -= !(*p & 0x80);
		if (m)
			return -1;
	}
	cs->p = p;
	return 0;
}
