/*
 * replay/datagen.c - write data of a chosen, LZ4-measured compressibility.
 *
 * A block is cut into 4 KiB pieces.  Each piece is [stamp][random][zeros]:
 * the random part is copied from a 1 MiB pool XORed with a per-piece 64-bit
 * key (so every piece is unique, as a dedupe engine would see it), the rest
 * is zeros that LZ4 folds into one long match.  For ratio:R the random
 * share is calibrated with LZ4 itself, per length class (512-byte classes
 * up to 64 KiB, one class above since the layout repeats every 4 KiB), by
 * bisection on the generator's real output.  Copy + memset runs at memory
 * speed: no per-byte random number generation.
 */
#include <errno.h>
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

#define POOL_SIZE (1u << 20)
#define NCLASS 130 /* 1..128: len <= 64 KiB in 512-byte steps; 129: larger */
#define DEDUPE_POOL 64
#define STAMP_SIZE ((unsigned)sizeof(struct replay_stamp))

struct replay_datagen {
	struct replay_data_spec spec;
	unsigned char *pool; /* POOL_SIZE + PIECE random bytes */
	unsigned char pattern[REPLAY_STAMP_PIECE + 64];
	int rfull[NCLASS];	/* random bytes per full piece, -1 unknown */
	unsigned char *scratch; /* calibration buffer */
};

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

int replay_data_parse(const char *s, struct replay_data_spec *out, char *errmsg, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->seed = 0x10ee1;
	if (!strcmp(s, "zero")) {
		out->mode = REPLAY_DATA_ZERO;
		return 0;
	}
	if (!strcmp(s, "random")) {
		out->mode = REPLAY_DATA_RANDOM;
		return 0;
	}
	if (!strncmp(s, "ratio:", 6)) {
		char *end;
		double r = strtod(s + 6, &end);
		if (end == s + 6 || *end || !(r >= 1.0 && r <= 100.0)) {
			return reel_errf(
			    errmsg, errlen, REEL_E_ARG,
			    "--data %s: ratio must be a number from 1 to 100 (e.g. ratio:2)", s);
		}
		out->mode = REPLAY_DATA_RATIO;
		out->ratio = r;
		return 0;
	}
	if (!strncmp(s, "pattern:", 8)) {
		const char *h = s + 8;
		if (!strncmp(h, "0x", 2) || !strncmp(h, "0X", 2))
			h += 2;
		size_t n = strlen(h);
		if (n == 0 || n % 2 || n / 2 > sizeof(out->pattern)) {
			return reel_errf(
			    errmsg, errlen, REEL_E_ARG,
			    "--data %s: pattern needs an even number of hex digits, 2 to %zu", s,
			    2 * sizeof(out->pattern));
		}
		for (size_t i = 0; i < n / 2; i++) {
			unsigned v;
			if (sscanf(h + 2 * i, "%2x", &v) != 1 ||
			    !strchr("0123456789abcdefABCDEF", h[2 * i]) ||
			    !strchr("0123456789abcdefABCDEF", h[2 * i + 1])) {
				return reel_errf(errmsg, errlen, REEL_E_ARG,
						 "--data %s: '%.2s' is not hex", s, h + 2 * i);
			}
			out->pattern[i] = (unsigned char)v;
		}
		out->pattern_len = n / 2;
		out->mode = REPLAY_DATA_PATTERN;
		return 0;
	}
	return reel_errf(errmsg, errlen, REEL_E_ARG,
			 "--data %s: use zero, random, ratio:R or pattern:HEX", s);
}

double replay_lz4_ratio(const void *buf, size_t len)
{
	if (!len || len > LZ4_MAX_INPUT_SIZE)
		return 0;
	int bound = LZ4_compressBound((int)len);
	char *out = malloc((size_t)bound);
	if (!out)
		return 0;
	int n = LZ4_compress_default(buf, out, (int)len, bound);
	free(out);
	return n > 0 ? (double)len / n : 0;
}

/*
 * On disk a stamp is 4 words: check, then (length<<32|target<<16|piece),
 * offset and (seq<<8|kind), each XORed with a hash of check, where check
 * hashes the three plain words.  It looks random to a compressor (so its
 * cost is the same 32 bytes in every block) yet is self-verifying.
 */
#define STAMP_KEY 0x696f7265656c3031ull
static void stamp_encode(unsigned char *p, const struct replay_stamp *s)
{
	uint64_t kind = s->magic == REPLAY_STAMP_DEDUPE ? 2 : 1;
	uint64_t w[4];
	uint64_t a = (uint64_t)s->length << 32 | (uint64_t)s->target << 16 | s->piece;
	uint64_t b = s->offset, c = s->seq << 8 | kind;
	w[0] = mix64(a ^ mix64(b ^ mix64(c ^ STAMP_KEY)));
	w[1] = a ^ mix64(w[0]);
	w[2] = b ^ mix64(w[0] + 1);
	w[3] = c ^ mix64(w[0] + 2);
	memcpy(p, w, sizeof(w));
}

int replay_stamp_read(const void *p, struct replay_stamp *s)
{
	uint64_t w[4];
	memcpy(w, p, sizeof(w));
	uint64_t a = w[1] ^ mix64(w[0]), b = w[2] ^ mix64(w[0] + 1), c = w[3] ^ mix64(w[0] + 2);
	memset(s, 0, sizeof(*s));
	if (mix64(a ^ mix64(b ^ mix64(c ^ STAMP_KEY))) != w[0] || !(c & 0xff) || (c & 0xff) > 2)
		return 0;
	s->magic = (c & 0xff) == 2 ? REPLAY_STAMP_DEDUPE : REPLAY_STAMP_MAGIC;
	s->length = (uint32_t)(a >> 32);
	s->target = (uint16_t)(a >> 16);
	s->piece = (uint16_t)a;
	s->offset = b;
	s->seq = c >> 8;
	return (int)(c & 0xff);
}

/* dst[0..n) = pool[off..off+n) ^ key, 8 bytes at a time. */
typedef uint64_t v2u64 __attribute__((vector_size(16)));
static void xor_copy(unsigned char *dst, const unsigned char *src, size_t n, uint64_t key)
{
	size_t i = 0;
	const v2u64 k = {key, key};
	for (; i + 64 <= n; i += 64) {
		v2u64 a, b, c, d;
		memcpy(&a, src + i, 16);
		memcpy(&b, src + i + 16, 16);
		memcpy(&c, src + i + 32, 16);
		memcpy(&d, src + i + 48, 16);
		a ^= k, b ^= k, c ^= k, d ^= k;
		memcpy(dst + i, &a, 16);
		memcpy(dst + i + 16, &b, 16);
		memcpy(dst + i + 32, &c, 16);
		memcpy(dst + i + 48, &d, 16);
	}
	for (; i + 8 <= n; i += 8) {
		uint64_t v;
		memcpy(&v, src + i, 8);
		v ^= key;
		memcpy(dst + i, &v, 8);
	}
	for (; i < n; i++)
		dst[i] = src[i] ^ (unsigned char)(key >> (8 * (i & 7)));
}

/* One piece of plen bytes with r random bytes (after the stamp). */
static void fill_piece(struct replay_datagen *g, unsigned char *p, size_t plen, size_t r,
		       const struct replay_stamp *st, uint64_t key)
{
	size_t hdr = plen >= STAMP_SIZE ? STAMP_SIZE : 0;
	if (hdr)
		stamp_encode(p, st);
	if (r > plen - hdr)
		r = plen - hdr;
	size_t off = (size_t)(key >> 24) % (POOL_SIZE - 8) & ~(size_t)7;
	xor_copy(p + hdr, g->pool + off, r, key);
	memset(p + hdr + r, 0, plen - hdr - r);
}

static unsigned class_of(size_t len)
{
	if (len > 65536)
		return NCLASS - 1;
	return (unsigned)((len + 511) / 512);
}

static void fill_blocks(struct replay_datagen *g, unsigned char *buf, size_t len, uint64_t offset,
			uint16_t target, uint64_t seq, int rfull)
{
	for (size_t pos = 0, piece = 0; pos < len; pos += REPLAY_STAMP_PIECE, piece++) {
		size_t plen = len - pos < REPLAY_STAMP_PIECE ? len - pos : REPLAY_STAMP_PIECE;
		size_t r = plen == REPLAY_STAMP_PIECE ? (size_t)rfull
						      : (size_t)rfull * plen / REPLAY_STAMP_PIECE;
		struct replay_stamp st = {REPLAY_STAMP_MAGIC, offset + pos, (uint32_t)len, target,
					  (uint16_t)piece,    seq};
		uint64_t h = mix64(g->spec.seed ^ mix64(seq * 0x100000001b3ull + piece) ^
				   ((uint64_t)target << 48));
		if (g->spec.dedupe_pct && h % 100 < g->spec.dedupe_pct) {
			uint64_t idx = (h >> 32) % DEDUPE_POOL;
			struct replay_stamp ds = {
			    REPLAY_STAMP_DEDUPE, idx, (uint32_t)plen, 0, 0, 0};
			fill_piece(g, buf + pos, plen, r, &ds, mix64(g->spec.seed + 7 + idx));
		} else {
			fill_piece(g, buf + pos, plen, r, &st, h | 1);
		}
	}
}

/* Random bytes per full piece giving ratio R for blocks of this class. */
static int calibrate(struct replay_datagen *g, unsigned cls)
{
	size_t len = cls == NCLASS - 1 ? 131072 : (size_t)cls * 512;
	int lo = 0, hi = (int)(REPLAY_STAMP_PIECE - STAMP_SIZE);
	double want = g->spec.ratio;
	/* ratio falls as r grows: find the r whose ratio is closest to want */
	int best = hi;
	double besterr = 1e9;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		/* several samples: stamps and keys differ per block */
		double in = 0, out = 0;
		for (int s = 0; s < 3; s++) {
			fill_blocks(g, g->scratch, len, 0x1000000ull * (s + 1), 0,
				    1000003ull * (s + 1), mid);
			double r = replay_lz4_ratio(g->scratch, len);
			if (r > 0) {
				in += (double)len;
				out += (double)len / r;
			}
		}
		double ratio = out > 0 ? in / out : 0;
		double err = ratio > want ? ratio / want - 1 : want / ratio - 1;
		if (err < besterr) {
			besterr = err;
			best = mid;
		}
		if (ratio > want)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return best;
}

int replay_datagen_create(struct replay_datagen **out, const struct replay_data_spec *spec)
{
	struct replay_datagen *g = calloc(1, sizeof(*g));
	if (!g)
		return REEL_E_NOMEM;
	g->spec = *spec;
	if (g->spec.dedupe_pct > 100)
		g->spec.dedupe_pct = 100;
	g->pool = malloc(POOL_SIZE + REPLAY_STAMP_PIECE);
	g->scratch = malloc(131072);
	if (!g->pool || !g->scratch) {
		replay_datagen_destroy(g);
		return REEL_E_NOMEM;
	}
	uint64_t x = spec->seed ^ 0x5eed5eed5eedull;
	for (size_t i = 0; i < POOL_SIZE + REPLAY_STAMP_PIECE; i += 8) {
		uint64_t v = mix64(x + i);
		memcpy(g->pool + i, &v, 8);
	}
	if (spec->mode == REPLAY_DATA_PATTERN && spec->pattern_len) {
		for (size_t i = 0; i < sizeof(g->pattern); i++)
			g->pattern[i] = spec->pattern[i % spec->pattern_len];
	}
	for (int i = 0; i < NCLASS; i++)
		g->rfull[i] = -1;
	*out = g;
	return 0;
}

void replay_datagen_destroy(struct replay_datagen *g)
{
	if (!g)
		return;
	free(g->pool);
	free(g->scratch);
	free(g);
}

void replay_datagen_fill(struct replay_datagen *g, void *vbuf, size_t len, uint64_t offset,
			 uint16_t target, uint64_t seq)
{
	unsigned char *buf = vbuf;
	switch (g->spec.mode) {
	case REPLAY_DATA_ZERO:
		memset(buf, 0, len);
		return;
	case REPLAY_DATA_PATTERN: {
		/* the pattern restarts at each block, so period divides 4096+64 */
		size_t period = g->spec.pattern_len * (REPLAY_STAMP_PIECE / g->spec.pattern_len);
		if (!period)
			period = g->spec.pattern_len;
		for (size_t pos = 0; pos < len; pos += period) {
			size_t n = len - pos < period ? len - pos : period;
			memcpy(buf + pos, g->pattern, n);
		}
		return;
	}
	case REPLAY_DATA_RANDOM:
		fill_blocks(g, buf, len, offset, target, seq,
			    (int)(REPLAY_STAMP_PIECE - STAMP_SIZE));
		return;
	case REPLAY_DATA_RATIO: {
		unsigned cls = class_of(len);
		if (g->rfull[cls] < 0)
			g->rfull[cls] = calibrate(g, cls);
		fill_blocks(g, buf, len, offset, target, seq, g->rfull[cls]);
		return;
	}
	}
}
