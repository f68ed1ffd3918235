/*
 * REEL_W_THREAD (chunks packed and compressed on a second thread) writes
 * the same bytes as the writer without it: records over several chunks,
 * process names interned as they come, a device declared and metadata set
 * mid-stream, flushes, and a final short chunk; and the file reads back.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

#define N (3 * REEL_CHUNK_MAX + 777)

static void write_trace(const char *path, unsigned flags)
{
	uint64_t s = 88172645463325252ull;
	struct reel_device d0 = {.id = 0, .name = "sda", .lbs = 512};
	struct reel_header h = {.source = "synthetic", .devices = &d0, .ndevices = 1};
	struct reel_writer *w;
	CHECK(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE | flags) == 0);
	int64_t t = 0;
	for (uint64_t i = 0; i < N; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		struct reel_rec r = {0};
		t += (int64_t)(s % 200000);
		r.has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE | REEL_HAS_DEV |
			REEL_HAS_COMM | REEL_HAS_PID;
		r.queue_ns = t;
		r.issue_ns = t + (int64_t)(s % 3000);
		r.complete_ns = r.issue_ns + 40000 + (int64_t)(s % 100000);
		r.offset = (s >> 20) % (1u << 20) * 4096;
		r.length = 4096u << (s % 5);
		r.op = (uint8_t)(s % 2);
		r.dev = i > N / 2 ? (uint16_t)(s % 2) : 0;
		r.pid = (uint32_t)(s % 7);
		char name[32];
		snprintf(name, sizeof(name), "proc%llu", (unsigned long long)(i / 50000));
		r.comm = (uint32_t)reel_writer_intern(w, name);
		CHECK(reel_write(w, &r) == 0);
		if (i == N / 2) {
			struct reel_device d1 = {.id = 1, .name = "sdb", .lbs = 4096};
			CHECK(reel_writer_add_device(w, &d1) == 0);
			CHECK(reel_writer_meta_int(w, REEL_META_REPLAY_TRACE_DURATION_NS, 42) == 0);
		}
		if (i == 1000 || i == N - 500)
			CHECK(reel_writer_flush(w) == 0);
	}
	CHECK(reel_writer_meta_str(w, REEL_META_REPLAY_TRACE, "x.reel") == 0);
	CHECK(reel_writer_close(w) == 0);
}

static int test_same_bytes(const char *a, const char *b)
{
	write_trace(a, 0);
	write_trace(b, REEL_W_THREAD);
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	CHECK(fa && fb);
	long n = 0;
	int ca, cb;
	do {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb) {
			fprintf(stderr, "files differ at byte %ld\n", n);
			return 1;
		}
		n++;
	} while (ca != EOF);
	fclose(fa);
	fclose(fb);
	CHECK(n > 100000);
	struct reel_reader *r;
	CHECK(reel_reader_open(&r, b, 0) == 0);
	struct reel_rec rec;
	long k = 0;
	int rc;
	while ((rc = reel_read(r, &rec)) == 1)
		k++;
	CHECK_EQ(rc, 0);
	CHECK_EQ(k, N);
	CHECK(reel_reader_complete(r));
	reel_reader_close(r);
	return 0;
}

int main(void)
{
	char a[] = "/tmp/ioreel-wthread-a-XXXXXX", b[] = "/tmp/ioreel-wthread-b-XXXXXX";
	int fa = mkstemp(a), fb = mkstemp(b);
	CHECK(fa >= 0 && fb >= 0);
	close(fa);
	close(fb);
	int e = test_same_bytes(a, b);
	unlink(a);
	unlink(b);
	return e;
}
