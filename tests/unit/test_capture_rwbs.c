/*
 * tests/unit/test_capture_rwbs.c - capture_rwbs() against the strings the
 * kernel's blk_fill_rwbs() writes into tracefs block events.
 *
 * Also the capture tests' reader: "test_capture_rwbs dump FILE.reel" prints
 * one line per record ("op offset length has queue issue complete dev pid
 * error comm") and one "meta KEY VALUE" line per metadata key, then
 * "complete 0|1" (whether the file had its trailer), so the shell tests do
 * not depend on another command's output format.
 */
#include <inttypes.h>
#include <string.h>

#include "capture/capture.h"
#include "tests/unit/unit.h"

static int dump(const char *path)
{
	struct reel_reader *r;
	struct reel_rec rec;
	int rc = reel_reader_open(&r, path, 0);
	if (rc) {
		fprintf(stderr, "%s: %s\n", path, r ? reel_reader_errmsg(r) : reel_strerror(rc));
		reel_reader_close(r);
		return 1;
	}
	const struct reel_header *h = reel_reader_header(r);
	printf("source %s\n", h->source ? h->source : "");
	for (size_t i = 0; i < h->ndevices; i++)
		printf("device %u %s %u:%u %u %u %" PRIu64 "\n", h->devices[i].id,
		       h->devices[i].name, h->devices[i].major, h->devices[i].minor,
		       h->devices[i].lbs, h->devices[i].pbs, h->devices[i].capacity);
	while ((rc = reel_read(r, &rec)) == 1) {
		const char *comm = rec.has & REEL_HAS_COMM ? reel_reader_comm(r, rec.comm) : NULL;
		printf("%s %" PRIu64 " %u %u %" PRId64 " %" PRId64 " %" PRId64 " %u %u %d %s\n",
		       reel_op_name(rec.op), rec.offset, rec.length, rec.has, rec.queue_ns,
		       rec.issue_ns, rec.complete_ns, rec.dev, rec.pid, rec.error,
		       comm ? comm : "-");
	}
	size_t n;
	const struct reel_meta *m = reel_reader_meta_all(r, &n);
	for (size_t i = 0; i < n; i++) {
		if (m[i].type == REEL_META_STR)
			printf("meta %s %s\n", m[i].key, m[i].s);
		else if (m[i].type == REEL_META_INT)
			printf("meta %s %" PRId64 "\n", m[i].key, m[i].i);
		else
			printf("meta %s %g\n", m[i].key, m[i].d);
	}
	printf("complete %d\n", reel_reader_complete(r));
	if (rc < 0)
		printf("error %s\n", reel_reader_errmsg(r));
	reel_reader_close(r);
	return 0;
}

static void expect(const char *rwbs, uint32_t bytes, int op, unsigned flags)
{
	uint8_t o = 0xff, f = 0xff;
	int rc = capture_rwbs(rwbs, strlen(rwbs), bytes, &o, &f);
	if (rc || o != op || f != flags) {
		fprintf(stderr,
			"rwbs '%s' (%u bytes): got rc %d op %d flags %#x, want op %d flags %#x\n",
			rwbs, bytes, rc, o, f, op, flags);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	uint8_t o, f;
	if (argc == 3 && !strcmp(argv[1], "dump"))
		return dump(argv[2]);

	expect("R", 4096, REEL_OP_READ, 0);
	expect("RS", 4096, REEL_OP_READ, REEL_FL_SYNC);
	expect("RA", 4096, REEL_OP_READ, REEL_FL_READAHEAD);
	expect("RM", 4096, REEL_OP_READ, REEL_FL_META);
	expect("W", 4096, REEL_OP_WRITE, 0);
	expect("WS", 4096, REEL_OP_WRITE, REEL_FL_SYNC);
	expect("WFS", 4096, REEL_OP_WRITE, REEL_FL_FUA | REEL_FL_SYNC);
	expect("FWS", 4096, REEL_OP_WRITE, REEL_FL_PREFLUSH | REEL_FL_SYNC);
	expect("FWFS", 4096, REEL_OP_WRITE, REEL_FL_PREFLUSH | REEL_FL_FUA | REEL_FL_SYNC);
	/* an empty preflush write is what fsync sends: a flush */
	expect("FWS", 0, REEL_OP_FLUSH, REEL_FL_PREFLUSH | REEL_FL_SYNC);
	/* "FF", the flush machinery's request: a flush (its flags are
	 * reel_rwbs_parse()'s business) */
	CHECK(capture_rwbs("FF", 2, 0, &o, &f) == 0 && o == REEL_OP_FLUSH);
	expect("F", 0, REEL_OP_FLUSH, 0);
	expect("D", 1 << 20, REEL_OP_DISCARD, 0);
	expect("DE", 1 << 20, REEL_OP_DISCARD, 0);
	/* write-zeroes is "N" in tracefs (seen on 6.18: blkdiscard -z gives "NS") */
	expect("N", 8192, REEL_OP_WRITE_ZEROES, 0);
	expect("NS", 1 << 20, REEL_OP_WRITE_ZEROES, REEL_FL_SYNC);
	CHECK(capture_rwbs("", 0, 0, &o, &f) < 0);
	CHECK(capture_rwbs("X", 1, 0, &o, &f) < 0);
	/* not NUL-terminated within its 10 bytes, as in the event record */
	char raw[10];
	memcpy(raw, "RSMMMMMMMM", 10);
	CHECK(capture_rwbs(raw, strnlen(raw, sizeof(raw)), 512, &o, &f) == 0 && o == REEL_OP_READ &&
	      f == (REEL_FL_SYNC | REEL_FL_META));
	return 0;
}
