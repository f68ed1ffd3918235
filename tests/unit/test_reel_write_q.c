/*
 * test_reel_write_q: reel_write_q (gen's records of five fields written
 * with no copy between) writes the file reel_write_n writes of the same
 * records made reel_recs as `model gen` made them (zeroed, then the five
 * fields and has), byte for byte, with the same results: records in
 * batches of random sizes across chunks, times and offsets at and past
 * FORMAT.md 3.2's bounds (the error, its message and the records before it
 * in), ops past REEL_OP__COUNT, and a writer on its own thread.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A record of gen's kind; now and then one at a bound or past it (BAD). */
static struct reel_rec_q one(uint64_t *s, int64_t *t, int bad)
{
	struct reel_rec_q q = {0};
	*t += (int64_t)(rnd(s) % 5000);
	q.queue_ns = *t;
	q.offset = (rnd(s) % (1u << 30)) * 512;
	q.length = (uint32_t)(1 + rnd(s) % 256) * 512;
	q.dev = (uint16_t)(rnd(s) % 3);
	q.op = (uint8_t)(rnd(s) % (REEL_OP__COUNT + 2));
	switch (bad ? rnd(s) % 6 : 6) {
	case 0:
		q.queue_ns = REEL_TIME_LIMIT - 1;
		break; /* in */
	case 1:
		q.queue_ns = REEL_TIME_LIMIT;
		break;
	case 2:
		q.queue_ns = -REEL_TIME_LIMIT - 1;
		break;
	case 3:
		q.offset = REEL_END_LIMIT - q.length;
		break; /* in */
	case 4:
		q.offset = REEL_END_LIMIT - q.length + 1;
		break;
	case 5:
		q.offset = UINT64_MAX - 100;
		break;
	}
	return q;
}

/* N records of seed SEED written to a file both ways (at most MAXB a call,
 * THR: the writer's thread), the two files and results the same. */
static void both_ways(uint64_t seed, size_t n, size_t maxb, int thr, int bad)
{
	char pa[] = "/tmp/ioreel-wq-XXXXXX", pb[] = "/tmp/ioreel-wn-XXXXXX";
	int fa = mkstemp(pa), fb = mkstemp(pb);
	CHECK(fa >= 0 && fb >= 0);
	struct reel_device dev = {.id = 0, .name = "sda"};
	struct reel_header h = {.source = "test", .devices = &dev, .ndevices = 1};
	struct reel_writer *wa, *wb;
	CHECK(reel_writer_open(&wa, NULL, fa, &h, thr ? REEL_W_THREAD : 0) == 0);
	CHECK(reel_writer_open(&wb, NULL, fb, &h, thr ? REEL_W_THREAD : 0) == 0);
	struct reel_rec_q *q = malloc(n * sizeof(*q));
	struct reel_rec *r = malloc(n * sizeof(*r));
	CHECK(q && r);
	uint64_t s = seed;
	int64_t t = 0;
	for (size_t i = 0; i < n; i++) {
		q[i] = one(&s, &t, bad && rnd(&s) % 20000 == 0);
		memset(&r[i], 0, sizeof(r[i])); /* model_gen_next's old record */
		r[i].queue_ns = q[i].queue_ns;
		r[i].op = q[i].op;
		r[i].offset = q[i].offset;
		r[i].length = q[i].length;
		r[i].dev = q[i].dev;
		r[i].has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	}
	int xa = 0, xb = 0;
	for (size_t i = 0; i < n && !xa && !xb;) {
		size_t m = 1 + rnd(&s) % maxb;
		m = m < n - i ? m : n - i;
		xa = reel_write_q(wa, q + i, m);
		xb = reel_write_n(wb, r + i, m);
		CHECK_EQ(xa, xb);
		i += m;
	}
	if (xa) {
		CHECK(!strcmp(reel_writer_errmsg(wa), reel_writer_errmsg(wb)));
		CHECK_EQ(reel_write_q(wa, q, 1), reel_write_n(wb, r, 1)); /* it stays failed */
		reel_writer_destroy(wa);
		reel_writer_destroy(wb);
	} else {
		CHECK_EQ(reel_writer_close(wa), 0);
		CHECK_EQ(reel_writer_close(wb), 0);
	}
	off_t la = lseek(fa, 0, SEEK_END), lb = lseek(fb, 0, SEEK_END);
	CHECK_EQ(la, lb);
	char *ba = malloc((size_t)la + 1), *bb = malloc((size_t)lb + 1);
	CHECK(ba && bb);
	CHECK_EQ(pread(fa, ba, (size_t)la, 0), la);
	CHECK_EQ(pread(fb, bb, (size_t)lb, 0), lb);
	CHECK(!memcmp(ba, bb, (size_t)la));
	free(ba);
	free(bb);
	free(q);
	free(r);
	close(fa);
	close(fb);
	unlink(pa);
	unlink(pb);
}

int main(void)
{
	for (uint64_t seed = 1; seed <= 6; seed++) {
		both_ways(seed, 300000, 1 + 4000 * (seed % 3), (int)(seed % 2), 0);
		both_ways(seed + 100, 200000, 9000, (int)(seed % 2), 1);
	}
	both_ways(7, 0, 1, 0, 0);
	both_ways(8, 1, 1, 1, 0);
	return 0;
}
