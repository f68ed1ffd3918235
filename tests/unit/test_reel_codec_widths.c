/* The column codec's decoders over every shape of stream they take apart:
 * bitpack mini-blocks of every width 0..64 (each 128-record block of the
 * file has its own), varints of every length 1..10 (heavy-tailed queue
 * times, mostly one-byte deltas with jumps of every magnitude), multipliers
 * 1, 512 (a shift) and 3, chunks and blocks cut short (a count that is not
 * a multiple of 128), read back by reel_read, reel_read_chunk and
 * reel_read_cols, field by field; the encoder's SIMD paths write the plain
 * ones' bytes, also on one column's edge values (edge_cols). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"
#include "formats/reel_internal.h"
#include "tests/unit/unit.h"

#define N 70001 /* one whole chunk and one of 4465 records */

static uint64_t rs;
static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

/* a value of up to w bits (w 0..64) */
static uint64_t bits(unsigned w)
{
	return w == 0 ? 0 : w >= 64 ? rnd() : rnd() & ((1ull << w) - 1);
}

static void make_rec(uint64_t i, struct reel_rec *r, int64_t *q)
{
	unsigned w = (unsigned)(i / 128 % 65); /* the width of this mini-block */
	memset(r, 0, sizeof(*r));
	r->has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE | REEL_HAS_PID |
		 REEL_HAS_COMM | REEL_HAS_CPU | REEL_HAS_ERROR | REEL_HAS_FLAGS;
	/* mostly +1, one in 16 a jump to a time of up to 62 bits, negative or
	 * positive (at most 2^61, room for issue and completion): deltas of up
	 * to 1.5 * 2^62, so varints of up to 10 bytes */
	if (rnd() % 16) {
		*q += 1;
	} else {
		int64_t v = (int64_t)bits((unsigned)(rnd() % 63));
		*q = rnd() & 1 ? -v : v < (1ll << 61) ? v : 1ll << 61;
	}
	r->queue_ns = *q;
	r->issue_ns = r->queue_ns + (int64_t)bits(w < 60 ? w : 60);
	r->complete_ns = r->issue_ns + (int64_t)bits(w < 40 ? w : 40);
	r->length = (uint32_t)bits(w < 32 ? w : 32);
	r->offset = bits(w < 63 ? w : 63) % ((1ull << 63) - (1ull << 32)); /* deltas of 64 bits */
	r->pid = (uint32_t)bits(w < 32 ? w : 32);
	r->comm = 0;
	r->error = -(int32_t)bits(w < 31 ? w : 31);
	r->cpu = (uint16_t)bits(w < 16 ? w : 16);
	r->op = (uint8_t)(bits(w < 8 ? w : 8) % REEL_OP__COUNT);
	r->flags = (uint8_t)bits(w < 5 ? w : 5);
	if (i >= 65536) { /* the second chunk: multipliers 512 (a shift) and 3 */
		r->offset &= ~511ull;
		r->length &= ~511u;
		r->pid = (uint32_t)bits(w < 30 ? w : 30) * 3;
	}
	if (i % 1000 == 999)
		r->has &= (uint16_t)~REEL_HAS_ISSUE; /* a record without one */
	if (!(r->has & REEL_HAS_ISSUE))
		r->issue_ns = 0;
}

static void write_file(const char *path)
{
	struct reel_device d = {.id = 0, .name = "t", .lbs = 512, .pbs = 512};
	struct reel_header h = {
	    .source = "test", .source_detail = "unit", .devices = &d, .ndevices = 1};
	struct reel_writer *w;
	CHECK_EQ(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE), 0);
	CHECK_EQ(reel_writer_intern(w, "p"), 0);
	rs = 0x2545F4914F6CDD1Dull;
	int64_t q = 0;
	for (uint64_t i = 0; i < N; i++) {
		struct reel_rec r;
		make_rec(i, &r, &q);
		if (reel_write(w, &r)) {
			fprintf(stderr, "record %llu: %s\n", (unsigned long long)i,
				reel_writer_errmsg(w));
			exit(1);
		}
	}
	CHECK_EQ(reel_writer_close(w), 0);
}

static void same(const struct reel_rec *a, const struct reel_rec *b, uint64_t i)
{
	if (memcmp(a, b, sizeof(*a))) {
		fprintf(stderr, "record %llu differs: queue %lld/%lld offset %llu/%llu pid %u/%u\n",
			(unsigned long long)i, (long long)a->queue_ns, (long long)b->queue_ns,
			(unsigned long long)a->offset, (unsigned long long)b->offset, a->pid,
			b->pid);
		exit(1);
	}
}

/* mode 0: reel_read, 1: reel_read_chunk, 2: reel_read_cols */
static void read_back(const char *path, int mode)
{
	struct reel_reader *r;
	CHECK_EQ(reel_reader_open(&r, path, 0), 0);
	rs = 0x2545F4914F6CDD1Dull;
	int64_t q = 0;
	uint64_t i = 0;
	struct reel_rec want, got;
	const struct reel_rec *recs;
	struct reel_cols c;
	long k = 1;
	while (k > 0) {
		if (mode == 0) {
			k = reel_read(r, &got);
			if (k > 0) {
				make_rec(i, &want, &q);
				same(&got, &want, i++);
			}
		} else if (mode == 1) {
			k = reel_read_chunk(r, &recs);
			for (long j = 0; j < k; j++) {
				make_rec(i, &want, &q);
				same(&recs[j], &want, i++);
			}
		} else {
			k = reel_read_cols(r, &c);
			for (long j = 0; j < k; j++, i++) {
				make_rec(i, &want, &q);
				CHECK_EQ(c.has[j], want.has);
				CHECK_EQ(c.queue_ns[j], want.queue_ns);
				CHECK_EQ(c.issue_ns[j], want.issue_ns);
				CHECK_EQ(c.complete_ns[j], want.complete_ns);
				CHECK_EQ(c.offset[j], want.offset);
				CHECK_EQ(c.length[j], want.length);
				CHECK_EQ(c.op[j], want.op);
				CHECK_EQ(c.dev[j], want.dev);
			}
		}
	}
	CHECK_EQ(k, 0);
	CHECK_EQ(i, N);
	CHECK(reel_reader_complete(r));
	reel_reader_close(r);
}

/* One column (queue times from deltas X[0..n)) packed by the SIMD paths
 * and by the plain ones: the same bytes.  The values the SIMD range, gcd
 * and zigzag could get wrong (round 21's reviewer): INT64_MIN/MAX, a gcd
 * of 2^63 (clamped to 1), every power-of-two gcd, mostly zeros, one odd
 * value among multiples, lengths around the 4-lane and 128-value blocks. */
#define EN 1100
static struct reel_rec erec[EN];
static int64_t evals[EN], ex[EN];
static unsigned char evbuf[REEL_COL_VBUF(EN)];

static size_t pack_col(size_t n, int plain, unsigned char **out)
{
	int64_t q = 0;
	for (size_t i = 0; i < n; i++) {
		memset(&erec[i], 0, sizeof erec[i]);
		erec[i].has = REEL_HAS_QUEUE;
		q = (int64_t)((uint64_t)q + (uint64_t)ex[i]);
		erec[i].queue_ns = q;
	}
	msgpack_sbuffer sb;
	msgpack_sbuffer_init(&sb);
	msgpack_packer pk;
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	int packed;
	reel_codec_plain(plain);
	reel_col_pack(&pk, C_QUEUE, erec, n, evals, evbuf, &packed);
	size_t len = packed ? sb.size : 0;
	*out = malloc(len + 1);
	CHECK(*out != NULL);
	if (len)
		memcpy(*out, sb.data, len);
	msgpack_sbuffer_destroy(&sb);
	return len;
}

static void edge_cols(void)
{
	static const int64_t special[] = {0,
					  1,
					  -1,
					  2,
					  -2,
					  INT64_MIN,
					  INT64_MAX,
					  INT64_MIN + 1,
					  INT64_MAX - 1,
					  (int64_t)1 << 62,
					  -((int64_t)1 << 62),
					  4096,
					  -4096,
					  3,
					  -3,
					  (int64_t)1 << 32,
					  6};
	static const size_t lens[] = {0,   1,	2,   3,	  4,   5,   7,	 8,   9,    127,
				      128, 129, 131, 255, 256, 257, 511, 513, 1000, 1027};
	const size_t nl = sizeof lens / sizeof lens[0], ns = sizeof special / sizeof special[0];
	for (int trial = 0; trial < 1200; trial++) {
		size_t n = lens[(size_t)trial % nl];
		int mode = trial / (int)nl % 6;
		int64_t mul = (int64_t)(1ull << (rnd() % 63));
		for (size_t i = 0; i < n; i++) {
			switch (mode) {
			case 0:
				ex[i] = special[rnd() % ns];
				break;
			case 1:
				ex[i] = (int64_t)(rnd() % 5) * mul - 2 * mul;
				break; /* gcd 2^k */
			case 2:
				ex[i] = rnd() % 3 ? 0 : (int64_t)rnd();
				break; /* mostly zeros */
			case 3:
				ex[i] = rnd() % 2 ? INT64_MIN : 0;
				break; /* gcd 2^63 */
			case 4:
				ex[i] = (int64_t)(rnd() % 1000) * 4096 - 2048 * 4096;
				break;
			default:
				ex[i] = (int64_t)(rnd() % 7) * mul - (i == n / 2);
				break; /* one odd */
			}
		}
		unsigned char *a, *b;
		size_t na = pack_col(n, 1, &a), nb = pack_col(n, 0, &b);
		CHECK_EQ(na, nb);
		CHECK(memcmp(a, b, na) == 0);
		free(a);
		free(b);
	}
	reel_codec_plain(0);
}

static char path[] = "/tmp/ioreel-codec-XXXXXX", path2[] = "/tmp/ioreel-codec-XXXXXX";
static void rm_path(void)
{
	unlink(path);
	unlink(path2);
}

/* the bytes of the file at P (*N of them), malloc'd */
static unsigned char *slurp(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	CHECK(f != NULL);
	CHECK_EQ(fseek(f, 0, SEEK_END), 0);
	long sz = ftell(f);
	CHECK(sz > 0);
	rewind(f);
	unsigned char *b = malloc((size_t)sz);
	CHECK(b != NULL);
	CHECK_EQ(fread(b, 1, (size_t)sz, f), (size_t)sz);
	fclose(f);
	*n = (size_t)sz;
	return b;
}

int main(void)
{
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK((fd = mkstemp(path2)) >= 0);
	close(fd);
	atexit(rm_path);
	edge_cols();
	/* the encoder's SIMD paths (the range, gcd, scaling and zigzag) write
	 * the plain ones' bytes */
	reel_codec_plain(1);
	write_file(path2);
	reel_codec_plain(0);
	write_file(path);
	size_t n1, n2;
	unsigned char *b1 = slurp(path, &n1), *b2 = slurp(path2, &n2);
	CHECK_EQ(n1, n2);
	CHECK(memcmp(b1, b2, n1) == 0);
	free(b1);
	free(b2);
	for (int plain = 0; plain < 2; plain++) { /* the SIMD paths, then the plain ones */
		reel_codec_plain(plain);
		for (int mode = 0; mode < 3; mode++)
			read_back(path, mode);
	}
	return 0;
}
