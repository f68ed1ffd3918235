/*
 * reel_read_cols (the column reader model fit uses) gives the same records
 * as reel_read, field by field, whatever the mix of present fields, across
 * chunks, mixed with reel_read and after a rewind; and it refuses the same
 * out-of-bounds chunks with the same message.  Without issue and completion
 * times (reel_reader_cols_ic), the same but for those times of batches
 * whose every record is queued.  Read again (reel_reader_reread), the same
 * records, the summary without ops and bytes.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

#define N 5000

static uint64_t s = 88172645463325252ull;
static uint64_t rnd(void)
{
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s;
}

/* the records of write_trace: all three times but for records 2000-2099 */
static int all_times;

/* A record with some fields absent (and dev set where HAS_DEV is not). */
static void make_rec(struct reel_rec *r, uint64_t i, int64_t *t)
{
	memset(r, 0, sizeof(*r));
	*t += (int64_t)(rnd() % 100000);
	unsigned k = (unsigned)(rnd() % 8);
	if (all_times && (i < 2000 || i >= 2100)) /* queued, issued, completed */
		k = 3 + (unsigned)(rnd() % 5);
	r->has = REEL_HAS_PID | REEL_HAS_COMM | REEL_HAS_CPU | REEL_HAS_FLAGS;
	r->has |= k == 1 ? REEL_HAS_ISSUE : k == 2 ? REEL_HAS_COMPLETE : REEL_HAS_QUEUE;
	if (k >= 3)
		r->has |= REEL_HAS_ISSUE | REEL_HAS_COMPLETE;
	if (k != 4)
		r->has |= REEL_HAS_DEV;
	r->queue_ns = r->has & REEL_HAS_QUEUE ? *t : 0;
	r->issue_ns = r->has & REEL_HAS_ISSUE ? *t + (int64_t)(rnd() % 5000) : 0;
	r->complete_ns = r->has & REEL_HAS_COMPLETE ? *t + 5000 + (int64_t)(rnd() % 900000) : 0;
	r->offset = rnd() % 3 ? (rnd() % (1u << 24)) * 4096 : i * 8192;
	r->length = (uint32_t)(512u << (rnd() % 8));
	r->op = (uint8_t)(rnd() % REEL_OP__COUNT);
	r->dev = (uint16_t)(rnd() % 3);
	r->pid = (uint32_t)(rnd() % 50);
	r->cpu = (uint16_t)(rnd() % 4);
	r->flags = (uint8_t)(rnd() % 4);
}

static int write_trace(const char *path)
{
	struct reel_writer *w;
	struct reel_header h = {.source = "synthetic"};
	CHECK(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE) == 0);
	int64_t t = 1000;
	for (uint64_t i = 0; i < N; i++) {
		struct reel_rec r;
		make_rec(&r, i, &t);
		CHECK(reel_write(w, &r) == 0);
		if (i == 1234 || i == 3000) /* chunks of odd sizes */
			CHECK(reel_writer_flush(w) == 0);
	}
	CHECK(reel_writer_close(w) == 0);
	return 0;
}

static void check_same(const struct reel_rec *y, const struct reel_cols *c, size_t i)
{
	CHECK_EQ(c->has[i], y->has);
	CHECK_EQ(c->queue_ns[i], y->queue_ns);
	CHECK_EQ(c->issue_ns[i], y->issue_ns);
	CHECK_EQ(c->complete_ns[i], y->complete_ns);
	CHECK_EQ(c->offset[i], y->offset);
	CHECK_EQ(c->length[i], y->length);
	CHECK_EQ(c->op[i], y->op);
	CHECK_EQ(c->dev[i], y->dev);
}

/* Every record of PATH through reel_read_cols against reel_read; with MIX,
 * a few records of each block through reel_read first. */
static int test_same_records(const char *path, int mix)
{
	struct reel_reader *a, *b;
	CHECK(reel_reader_open(&a, path, 0) == 0);
	CHECK(reel_reader_open(&b, path, 0) == 0);
	for (int round = 0; round < 2; round++) {
		uint64_t n = 0;
		struct reel_rec y;
		for (;;) {
			if (mix && n % 3 == 0) {
				int rc = reel_read(b, &y);
				if (rc < 0)
					fprintf(stderr, "%s\n", reel_reader_errmsg(b));
				CHECK(rc >= 0);
				if (rc == 0)
					break;
				CHECK_EQ(reel_read(a, &(struct reel_rec){0}), 1);
				n++;
			}
			struct reel_cols c;
			long k = reel_read_cols(b, &c);
			CHECK(k >= 0);
			if (k > 0)
				CHECK_EQ(c.n, k);
			if (k == 0)
				break;
			for (long i = 0; i < k; i++) {
				CHECK_EQ(reel_read(a, &y), 1);
				check_same(&y, &c, (size_t)i);
			}
			n += (uint64_t)k;
		}
		CHECK_EQ(reel_read(a, &y), 0);
		CHECK_EQ(n, N);
		struct reel_summary sa, sb;
		reel_reader_seen(a, &sa);
		reel_reader_seen(b, &sb);
		CHECK(!memcmp(&sa, &sb, sizeof(sa)));
		CHECK(reel_reader_rewind(a) == 0);
		CHECK(reel_reader_rewind(b) == 0);
	}
	reel_reader_close(a);
	reel_reader_close(b);
	return 0;
}

static int read_to_end(const char *path, int cols, char *msg, size_t len)
{
	struct reel_reader *r = NULL;
	int rc = reel_reader_open(&r, path, 0);
	struct reel_rec rec;
	struct reel_cols c;
	while (!rc && (rc = cols ? (int)reel_read_cols(r, &c) : reel_read(r, &rec)) > 0)
		rc = 0;
	snprintf(msg, len, "%s", r ? reel_reader_errmsg(r) : "");
	reel_reader_close(r);
	return rc;
}

static int test_same_refusals(void)
{
	static const char *files[] = {"oob-time-max.reel",    "oob-time-span.reel",
				      "oob-latency.reel",     "oob-issue-only.reel",
				      "oob-offset-wrap.reel", "oob-huge-length.reel"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256], m1[1024], m2[1024];
		snprintf(path, sizeof(path), "tests/fuzz/corpus/reel/%s", files[i]);
		if (access(path, R_OK))
			SKIP("%s absent: run from the top of the tree", path);
		CHECK(read_to_end(path, 0, m1, sizeof(m1)) == REEL_E_CORRUPT);
		CHECK(read_to_end(path, 1, m2, sizeof(m2)) == REEL_E_CORRUPT);
		if (strcmp(m1, m2)) {
			fprintf(stderr, "%s: '%s' != '%s'\n", path, m1, m2);
			return 1;
		}
	}
	return 0;
}

/* reel_reader_cols_ic(0): the same records but for the issue and
 * completion times of batches whose every record is queued (those stepped
 * over), the same summary; a batch with a record not queued whole. */
static int test_without_ic(const char *path)
{
	struct reel_reader *a, *b;
	CHECK(reel_reader_open(&a, path, 0) == 0);
	CHECK(reel_reader_open(&b, path, 0) == 0);
	reel_reader_cols_ic(b, 0);
	uint64_t n = 0, whole = 0;
	struct reel_cols c;
	static struct reel_rec y[REEL_CHUNK_MAX];
	long k;
	while ((k = reel_read_cols(b, &c)) > 0) {
		int queued = 1;
		for (long i = 0; i < k; i++) {
			CHECK_EQ(reel_read(a, &y[i]), 1);
			queued &= (y[i].has & REEL_HAS_QUEUE) != 0;
		}
		whole += !queued;
		for (long i = 0; i < k; i++) {
			struct reel_rec x = y[i];
			if (queued) /* the times not decoded: as the batch holds them */
				x.issue_ns = c.issue_ns[i], x.complete_ns = c.complete_ns[i];
			check_same(&x, &c, (size_t)i);
		}
		n += (uint64_t)k;
	}
	CHECK(k == 0);
	CHECK_EQ(n, N);
	CHECK(whole >= 1 && whole < n / 1024);
	struct reel_summary sa, sb;
	reel_reader_seen(a, &sa);
	reel_reader_seen(b, &sb);
	CHECK(!memcmp(&sa, &sb, sizeof(sa)));
	reel_reader_close(a);
	reel_reader_close(b);
	return 0;
}

/* reel_reader_reread(1) after a whole read and a rewind: the same records
 * (as reel_read gives them), the same count, chunks and first and last
 * times, no ops or bytes counted. */
static int test_reread(const char *path)
{
	struct reel_reader *a, *b;
	CHECK(reel_reader_open(&a, path, 0) == 0);
	CHECK(reel_reader_open(&b, path, 0) == 0);
	struct reel_cols c;
	struct reel_rec y;
	long k;
	while ((k = reel_read_cols(b, &c)) > 0)
		;
	CHECK(k == 0);
	CHECK(reel_reader_rewind(b) == 0);
	reel_reader_reread(b, 1);
	uint64_t n = 0;
	while ((k = reel_read_cols(b, &c)) > 0)
		for (long i = 0; i < k; i++, n++) {
			CHECK_EQ(reel_read(a, &y), 1);
			check_same(&y, &c, (size_t)i);
		}
	CHECK(k == 0);
	CHECK_EQ(n, N);
	CHECK_EQ(reel_read(a, &y), 0);
	struct reel_summary sa, sb;
	reel_reader_seen(a, &sa);
	reel_reader_seen(b, &sb);
	CHECK_EQ(sb.count, sa.count);
	CHECK_EQ(sb.chunks, sa.chunks);
	CHECK(sb.first_ns == sa.first_ns && sb.last_ns == sa.last_ns);
	for (int o = 0; o < REEL_OP__COUNT; o++)
		CHECK(sb.ops[o] == 0 && sb.bytes[o] == 0 && sa.ops[o] > 0);
	reel_reader_close(a);
	reel_reader_close(b);
	return 0;
}

int main(void)
{
	char path[] = "/tmp/ioreel-cols-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	int e = write_trace(path) || test_same_records(path, 0) || test_same_records(path, 1);
	all_times = 1;
	e = e || write_trace(path) || test_same_records(path, 0) || test_without_ic(path) ||
	    test_reread(path);
	unlink(path);
	CHECK(e == 0);
	CHECK(test_same_refusals() == 0);
	return 0;
}
