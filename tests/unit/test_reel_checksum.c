/* A data chunk's integrity: one bit flipped anywhere in its LZ4 frame (the
 * frame header, a block, the end mark, the content checksum) fails the
 * read (or, where a block's size grows past the end of the file, reads as
 * a file cut short before the chunk), never gives other records; a flip in the stored checksum or
 * in a block's literal bytes is named as a checksum mismatch (the reader checks the content
 * checksum itself, with xxHash). */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

#define N 1200

static size_t write_file(const char *path)
{
	struct reel_header h = {.source = "test", .source_detail = "unit"};
	struct reel_writer *w;
	CHECK_EQ(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE), 0);
	uint64_t rs = 7;
	for (uint64_t i = 0; i < N; i++) {
		struct reel_rec r;
		memset(&r, 0, sizeof(r));
		r.has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE;
		r.queue_ns = (int64_t)(i * 1000 + (uint64_t)(unit_urand(&rs) * 700));
		r.issue_ns = r.queue_ns + 50;
		r.complete_ns = r.issue_ns + (int64_t)(unit_urand(&rs) * 90000);
		r.offset = (uint64_t)(unit_urand(&rs) * (1 << 30)) * 512;
		r.length = 4096;
		r.op = (uint8_t)(unit_urand(&rs) * 2);
		CHECK_EQ(reel_write(w, &r), 0);
	}
	CHECK_EQ(reel_writer_close(w), 0);
	struct stat st;
	CHECK_EQ(stat(path, &st), 0);
	return (size_t)st.st_size;
}

/* Read every record of PATH: 0 and their count and a sum of their fields,
 * or the error (its message in msg). */
static int read_all(const char *path, uint64_t *n, uint64_t *sum, char *msg, size_t len)
{
	struct reel_reader *r;
	int rc = reel_reader_open(&r, path, 0);
	const struct reel_rec *recs;
	long k;
	*sum = *n = 0;
	while (!rc && (k = reel_read_chunk(r, &recs)) != 0) {
		if (k < 0) {
			rc = (int)k;
			break;
		}
		for (long i = 0; i < k; i++)
			*sum += recs[i].offset ^ (uint64_t)recs[i].complete_ns;
		*n += (uint64_t)k;
	}
	snprintf(msg, len, "%s", reel_reader_errmsg(r));
	reel_reader_close(r);
	return rc;
}

static void put(const char *path, const unsigned char *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, p, n), (long long)n);
	close(fd);
}

static char dir[] = "/dev/shm/ioreel-ck.XXXXXX", path[64], bad[64];

/* the files and their folder removed at exit, a failed check's too */
static void cleanup(void)
{
	unlink(path);
	unlink(bad);
	rmdir(dir);
}

int main(void)
{
	char msg[600];
	CHECK(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.reel", dir);
	snprintf(bad, sizeof(bad), "%s/b.reel", dir);
	atexit(cleanup);
	size_t size = write_file(path);
	unsigned char *f = malloc(size), *g = malloc(size);
	CHECK(f && g);
	int fd = open(path, O_RDONLY);
	CHECK_EQ(read(fd, f, size), (long long)size);
	close(fd);
	uint64_t n, sum;
	CHECK_EQ(read_all(path, &n, &sum, msg, sizeof(msg)), 0);
	CHECK_EQ(n, N);
	/* the data chunk: the second LZ4 frame, up to the trailer's frame */
	size_t a = 0, b = 0;
	for (size_t i = 4; i + 4 <= size && !b; i++) {
		uint32_t m = (uint32_t)f[i] | (uint32_t)f[i + 1] << 8 | (uint32_t)f[i + 2] << 16 |
			     (uint32_t)f[i + 3] << 24;
		if (m == 0x184D2204u && !a)
			a = i;
		else if (m == 0x184D2A5Eu && a)
			b = i;
	}
	CHECK(a && b > a + 11);
	CHECK((f[a + 4] & 0x14) == 0x04); /* content checksum, no block checksums */
	size_t mismatch = 0;
	for (size_t i = a + 4; i < b; i++) {
		memcpy(g, f, size);
		g[i] ^= (unsigned char)(1u << (i % 8));
		put(bad, g, size);
		int rc = read_all(bad, &n, &sum, msg, sizeof(msg));
		if (rc == 0 && n == 0 && strstr(msg, "cut short inside chunk 0"))
			continue;
		if (rc == 0) {
			fprintf(stderr, "flip at byte %zu (frame byte %zu) read as good\n", i,
				i - a);
			return 1;
		}
		if (strstr(msg, "LZ4 checksum mismatch")) {
			CHECK_EQ(rc, REEL_E_CHECKSUM);
			mismatch++;
		}
		if (i >= b - 4) /* the stored checksum itself */
			CHECK(strstr(msg, "LZ4 checksum mismatch"));
	}
	/* most of the frame is literal bytes: only the checksum sees a flip there */
	CHECK(mismatch > (b - a) / 2);
	free(f);
	free(g);
	printf("checksum ok: %zu flips, %zu named as checksum mismatches\n", b - a - 4, mismatch);
	return 0;
}
