/* The .reel writer and reader: every field round-trips over several chunks;
 * a cut-short file reads to its last whole chunk; a corrupt chunk is named
 * and skipped with REEL_R_SALVAGE; existing files are not overwritten. */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

#define N 150000

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void make_rec(uint64_t i, struct reel_rec *r, uint32_t *comms)
{
	memset(r, 0, sizeof(*r));
	r->has = REEL_HAS_QUEUE | REEL_HAS_DEV | REEL_HAS_PID | REEL_HAS_COMM | REEL_HAS_CPU;
	r->queue_ns = (int64_t)(i * 1000 + next() % 700);
	if (i % 7) {
		r->has |= REEL_HAS_ISSUE;
		r->issue_ns = r->queue_ns + (int64_t)(next() % 5000);
		if (i % 11) {
			r->has |= REEL_HAS_COMPLETE;
			r->complete_ns = r->issue_ns + (int64_t)(next() % 900000);
		}
	}
	r->offset = (next() % 4 == 0) ? (next() % (1ull << 40)) * 512 : i * 4096;
	r->length = (uint32_t)((1 + next() % 64) * 512);
	r->op = (uint8_t)(next() % REEL_OP__COUNT);
	r->flags = (uint8_t)(next() % 32);
	r->dev = (uint16_t)(i >= 100000 ? 1 : 0);
	r->pid = (uint32_t)(1000 + next() % 5);
	r->comm = comms[r->pid - 1000];
	r->cpu = (uint16_t)(next() % 2);
	if (i % 1000 == 3) {
		r->has |= REEL_HAS_ERROR;
		r->error = -5;
	}
}

static size_t write_file(const char *path)
{
	struct reel_device d0 = {.id = 0,
				 .name = "loop7",
				 .major = 7,
				 .minor = 7,
				 .lbs = 512,
				 .pbs = 4096,
				 .capacity = 1ull << 30};
	struct reel_header h = {.start_unix_ns = 1700000000000000000ll,
				.source = "test",
				.source_detail = "unit",
				.devices = &d0,
				.ndevices = 1};
	struct reel_writer *w;
	CHECK_EQ(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE), 0);
	CHECK_EQ(reel_writer_meta_str(w, "test.kind", "roundtrip"), 0);
	uint32_t comms[5];
	const char *names[5] = {"kworker/0:1", "fio", "systemd-journal", "", "git"};
	for (int i = 0; i < 5; i++)
		comms[i] = (uint32_t)reel_writer_intern(w, names[i]);
	CHECK_EQ(reel_writer_intern(w, "fio"), comms[1]);
	rng = 88172645463325252ull;
	for (uint64_t i = 0; i < N; i++) {
		struct reel_rec r;
		if (i == 100000) {
			struct reel_device d1 = {.id = 1, .name = "sdb", .lbs = 4096};
			CHECK_EQ(reel_writer_add_device(w, &d1), 0);
		}
		make_rec(i, &r, comms);
		CHECK_EQ(reel_write(w, &r), 0);
	}
	CHECK_EQ(reel_writer_meta_int(w, "test.lost", 42), 0);
	CHECK_EQ(reel_writer_meta_dbl(w, "test.ratio", 2.5), 0);
	CHECK_EQ(reel_writer_close(w), 0);
	struct stat st;
	CHECK(stat(path, &st) == 0);
	return (size_t)st.st_size;
}

static void check_all(const char *path)
{
	struct reel_reader *r;
	CHECK_EQ(reel_reader_open(&r, path, 0), 0);
	const struct reel_header *h = reel_reader_header(r);
	CHECK(!strcmp(h->source, "test"));
	CHECK_EQ(h->start_unix_ns, 1700000000000000000ll);
	uint32_t comms[5] = {0, 1, 2, 3, 4};
	rng = 88172645463325252ull;
	struct reel_rec got, want;
	uint64_t i = 0;
	int rc;
	while ((rc = reel_read(r, &got)) == 1) {
		make_rec(i, &want, comms);
		CHECK(i < N);
		CHECK_EQ(got.queue_ns, want.queue_ns);
		CHECK_EQ(got.issue_ns, want.issue_ns);
		CHECK_EQ(got.complete_ns, want.complete_ns);
		CHECK_EQ(got.offset, want.offset);
		CHECK_EQ(got.length, want.length);
		CHECK_EQ(got.op, want.op);
		CHECK_EQ(got.flags, want.flags);
		CHECK_EQ(got.dev, want.dev);
		CHECK_EQ(got.pid, want.pid);
		CHECK_EQ(got.comm, want.comm);
		CHECK_EQ(got.cpu, want.cpu);
		CHECK_EQ(got.error, want.error);
		CHECK_EQ(got.has, want.has);
		i++;
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(i, N);
	CHECK(reel_reader_complete(r));
	CHECK(!strcmp(reel_reader_comm(r, 2), "systemd-journal"));
	CHECK(!strcmp(reel_reader_comm(r, 3), ""));
	CHECK_EQ(h->ndevices, 2);
	CHECK(!strcmp(h->devices[1].name, "sdb"));
	CHECK_EQ(h->devices[0].capacity, 1ull << 30);
	const struct reel_meta *m = reel_reader_meta(r, "test.lost");
	CHECK(m && m->type == REEL_META_INT && m->i == 42);
	m = reel_reader_meta(r, "test.kind");
	CHECK(m && !strcmp(m->s, "roundtrip"));
	m = reel_reader_meta(r, "test.ratio");
	CHECK(m && m->type == REEL_META_DBL && m->d == 2.5);
	struct reel_summary s, seen;
	CHECK_EQ(reel_reader_summary(r, &s), 1);
	reel_reader_seen(r, &seen);
	CHECK_EQ(s.count, N);
	CHECK_EQ(seen.count, N);
	CHECK_EQ(s.chunks, 3);
	for (int k = 0; k < REEL_OP__COUNT; k++) {
		CHECK_EQ(s.ops[k], seen.ops[k]);
		CHECK_EQ(s.bytes[k], seen.bytes[k]);
	}
	CHECK_EQ(s.first_ns, seen.first_ns);
	CHECK_EQ(s.last_ns, seen.last_ns);
	/* chunk interface after rewind gives the same count */
	CHECK_EQ(reel_reader_rewind(r), 0);
	const struct reel_rec *recs;
	long n, total = 0;
	while ((n = reel_read_chunk(r, &recs)) > 0)
		total += n;
	CHECK_EQ(n, 0);
	CHECK_EQ(total, N);
	reel_reader_close(r);
}

static long count_records(const char *path, unsigned flags, int *rc_out, char *msg, size_t len)
{
	struct reel_reader *r;
	int rc = reel_reader_open(&r, path, flags);
	if (rc) {
		*rc_out = rc;
		snprintf(msg, len, "%s", reel_reader_errmsg(r));
		reel_reader_close(r);
		return -1;
	}
	const struct reel_rec *recs;
	long n, total = 0;
	while ((n = reel_read_chunk(r, &recs)) > 0)
		total += n;
	*rc_out = (int)n;
	snprintf(msg, len, "%s|complete=%d|skipped=%llu", reel_reader_errmsg(r),
		 reel_reader_complete(r), (unsigned long long)reel_reader_skipped(r));
	reel_reader_close(r);
	return total;
}

static void copy_prefix(const char *from, const char *to, size_t len)
{
	int a = open(from, O_RDONLY), b = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(a >= 0 && b >= 0);
	char *buf = malloc(len + 1);
	CHECK(read(a, buf, len) == (ssize_t)len);
	CHECK(write(b, buf, len) == (ssize_t)len);
	free(buf);
	close(a);
	close(b);
}

/* A file written to after it was opened (a trace still being recorded):
 * a rewind refuses it, naming the change (callers such as model fit size
 * their arrays by the first read, and a re-read skips its checks). */
static void check_changed(const char *path, const char *dir)
{
	char copy[256];
	snprintf(copy, sizeof(copy), "%s/changed.reel", dir);
	struct stat st;
	CHECK(stat(path, &st) == 0);
	copy_prefix(path, copy, (size_t)st.st_size);
	struct reel_reader *r;
	CHECK_EQ(reel_reader_open(&r, copy, 0), 0);
	const struct reel_rec *recs;
	CHECK(reel_read_chunk(r, &recs) > 0);
	CHECK_EQ(reel_reader_rewind(r), 0); /* unchanged: rewinds */
	int fd = open(copy, O_WRONLY | O_APPEND);
	CHECK(fd >= 0);
	CHECK(write(fd, "x", 1) == 1);
	close(fd);
	CHECK_EQ(reel_reader_rewind(r), REEL_E_IO);
	CHECK(strstr(reel_reader_errmsg(r), "changed while it was being read") != NULL);
	reel_reader_close(r);
	unlink(copy);
}

int main(void)
{
	char dir[] = "/tmp/ioreel-unit.XXXXXX";
	CHECK(mkdtemp(dir));
	char path[256], cut[256];
	snprintf(path, sizeof(path), "%s/a.reel", dir);
	snprintf(cut, sizeof(cut), "%s/cut.reel", dir);
	size_t size = write_file(path);
	check_all(path);
	check_changed(path, dir);

	/* not overwritten without the flag */
	struct reel_writer *w;
	CHECK_EQ(reel_writer_open(&w, path, -1, NULL, 0), REEL_E_EXISTS);
	CHECK(strstr(reel_writer_errmsg(w), "--overwrite"));
	reel_writer_destroy(w);

	/* cut short: every prefix reads whole chunks only, never an error */
	char msg[1024];
	int rc;
	long prev = -1;
	for (size_t cutat = size / 8; cutat < size; cutat += size / 8) {
		copy_prefix(path, cut, cutat);
		long n = count_records(cut, 0, &rc, msg, sizeof(msg));
		CHECK_EQ(rc, 0);
		if (!(n == 0 || n == 65536 || n == 131072 || n == N))
			fprintf(stderr, "cut %zu n=%ld %s\n", cutat, n, msg);
		CHECK(n == 0 || n == 65536 || n == 131072 || n == N);
		CHECK(strstr(msg, "cut short") && strstr(msg, "complete=0"));
		CHECK(n >= prev);
		prev = n;
	}
	/* corrupt a byte in the middle: named chunk and offset; salvage skips it */
	copy_prefix(path, cut, size);
	int fd = open(cut, O_RDWR);
	unsigned char b;
	off_t at = (off_t)(size / 2);
	CHECK(pread(fd, &b, 1, at) == 1);
	b ^= 0x5a;
	CHECK(pwrite(fd, &b, 1, at) == 1);
	close(fd);
	long n = count_records(cut, 0, &rc, msg, sizeof(msg));
	CHECK(rc < 0);
	CHECK(strstr(msg, "chunk 1 at byte") && strstr(msg, "salvage"));
	n = count_records(cut, REEL_R_SALVAGE, &rc, msg, sizeof(msg));
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, N - 65536);
	CHECK(strstr(msg, "skipped=1"));

	/* not a reel */
	copy_prefix("/etc/hostname", cut, 1);
	n = count_records(cut, 0, &rc, msg, sizeof(msg));
	CHECK_EQ(rc, REEL_E_NOTREEL);
	unlink(path);
	unlink(cut);
	rmdir(dir);
	printf("roundtrip ok, %zu bytes for %d records\n", size, N);
	return 0;
}
