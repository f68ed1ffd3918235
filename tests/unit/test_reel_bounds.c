/*
 * The bounds of every record (FORMAT.md 3.2; issue 11, item 7): the reader
 * refuses a chunk holding a time beyond +-2^62 ns or an offset + length
 * beyond 2^63, naming the chunk and the record; the writer refuses to
 * write one.  The crafted files are in the reel fuzz corpus.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

/* Read path to the end: the reader's status and its message. */
static int read_file(const char *path, char *msg, size_t len)
{
	struct reel_reader *r = NULL;
	int rc = reel_reader_open(&r, path, 0);
	struct reel_rec rec;
	while (!rc && (rc = reel_read(r, &rec)) == 1)
		rc = 0;
	snprintf(msg, len, "%s", r ? reel_reader_errmsg(r) : "");
	reel_reader_close(r);
	return rc;
}

static int test_crafted_files_refused(void)
{
	static const struct {
		const char *file, *why;
	} cases[] = {
	    {"oob-time-max.reel",
	     "chunk 0 at byte 196: record 1: queue time 9223372036854775802 ns"},
	    {"oob-time-span.reel", "record 0: queue time -9223372036854775807 ns is beyond +-2^62"},
	    {"oob-latency.reel", "record 0: issue time"},
	    {"oob-issue-only.reel", "record 0: issue time 9223372036854775807"},
	    {"oob-offset-wrap.reel",
	     "record 0: offset 18446744073709547520 + length 8192 is beyond 2^63"},
	    {"oob-huge-length.reel", "record 0: offset 9223372036854775807 + length 4294967295"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[256], msg[1024];
		snprintf(path, sizeof(path), "tests/fuzz/corpus/reel/%s", cases[i].file);
		if (access(path, R_OK))
			SKIP("%s absent: run from the top of the tree", path);
		CHECK(read_file(path, msg, sizeof(msg)) == REEL_E_CORRUPT);
		if (!strstr(msg, cases[i].why)) {
			fprintf(stderr, "%s: '%s' lacks '%s'\n", path, msg, cases[i].why);
			return 1;
		}
	}
	return 0;
}

static int test_writer_refuses_out_of_bounds(void)
{
	char path[] = "/tmp/ioreel-bounds-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	struct reel_writer *w;
	CHECK(reel_writer_open(&w, NULL, fd, NULL, 0) == 0);
	struct reel_rec r = {.has = REEL_HAS_QUEUE, .queue_ns = REEL_TIME_LIMIT - 1, .length = 512};
	CHECK(reel_write(w, &r) == 0); /* the last time in bounds */
	r.queue_ns = REEL_TIME_LIMIT;
	CHECK(reel_write(w, &r) == REEL_E_ARG);
	CHECK(strstr(reel_writer_errmsg(w), "record 1"));
	reel_writer_destroy(w);
	CHECK(reel_writer_open(&w, NULL, fd, NULL, 0) == 0);
	r = (struct reel_rec){.offset = REEL_END_LIMIT - 4096, .length = 4096};
	CHECK(reel_write(w, &r) == 0); /* ends exactly at 2^63 */
	r.length = 4097;
	CHECK(reel_write(w, &r) == REEL_E_ARG);
	reel_writer_destroy(w);
	close(fd);
	unlink(path);
	return 0;
}

int main(void)
{
	CHECK(test_crafted_files_refused() == 0);
	CHECK(test_writer_refuses_out_of_bounds() == 0);
	return 0;
}
