/* The event joiner on synthetic blktrace-style sequences: plain, merges
 * (back and front), split, remap (traced lower device; traced dm + disk),
 * missing D / C, out-of-order completion, orphans, flushes (FWFS through the
 * flush machinery), partial completion, the reorder window; records written
 * by the real .reel writer and read back with the reader. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

#define DEV(ma, mi) reel_devt(ma, mi)
#define MAXR 64

static char path[64];
static struct reel_writer *w;
static struct reel_join *j;
static struct reel_rec got[MAXR];
static int ngot;
static struct reel_join_stats st;
static char devname[4][64];
static int ndevname;

static void begin(const uint32_t *devts, size_t n)
{
	snprintf(path, sizeof(path), "/tmp/ioreel-test-join.XXXXXX");
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct reel_device d[2];
	memset(d, 0, sizeof(d));
	for (size_t i = 0; i < n; i++) {
		d[i].id = (uint16_t)i;
		snprintf(d[i].name, sizeof(d[i].name), "t%zu", i);
	}
	struct reel_header h = {.source = "test", .devices = d, .ndevices = n};
	CHECK_EQ(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE), 0);
	CHECK_EQ(reel_join_create(&j, w, devts, n), 0);
}

static void end(void)
{
	CHECK_EQ(reel_join_finish(j), 0);
	reel_join_stats(j, &st);
	reel_join_destroy(j);
	CHECK_EQ(reel_writer_close(w), 0);
	struct reel_reader *r;
	CHECK_EQ(reel_reader_open(&r, path, 0), 0);
	ngot = 0;
	int rc;
	while ((rc = reel_read(r, &got[ngot])) == 1)
		CHECK(++ngot < MAXR);
	CHECK_EQ(rc, 0);
	const struct reel_header *h = reel_reader_header(r);
	ndevname = 0;
	for (size_t i = 0; i < h->ndevices && i < 4; i++)
		snprintf(devname[ndevname++], 64, "%s", h->devices[i].name);
	CHECK_EQ(st.records, (uint64_t)ngot);
	reel_reader_close(r);
	unlink(path);
}

static void ev(int act, int64_t t, uint32_t devt, uint64_t sector, uint32_t sectors,
	       const char *rwbs)
{
	struct reel_event e;
	memset(&e, 0, sizeof(e));
	e.action = act;
	e.t_ns = t;
	e.devt = devt;
	e.sector = sector;
	e.bytes = sectors * 512;
	e.pid = 42;
	e.comm = "proc";
	e.cpu = 1;
	CHECK_EQ(reel_rwbs_parse(rwbs, strlen(rwbs), e.bytes, &e.op, &e.flags), 0);
	CHECK_EQ(reel_join_push(j, &e), 0);
}

static void remap(int64_t t, uint32_t to, uint64_t s, uint32_t sectors, uint32_t from,
		  uint64_t from_s)
{
	struct reel_event e;
	memset(&e, 0, sizeof(e));
	e.action = REEL_ACT_REMAP;
	e.t_ns = t;
	e.devt = to;
	e.sector = s;
	e.bytes = sectors * 512;
	e.op = REEL_OP_WRITE;
	e.from_devt = from;
	e.from_sector = from_s;
	CHECK_EQ(reel_join_push(j, &e), 0);
}

static void split(int64_t t, uint32_t devt, uint64_t s, uint32_t sectors, uint64_t at)
{
	struct reel_event e;
	memset(&e, 0, sizeof(e));
	e.action = REEL_ACT_SPLIT;
	e.t_ns = t;
	e.devt = devt;
	e.sector = s;
	e.bytes = sectors * 512;
	e.split_sector = at;
	CHECK_EQ(reel_join_push(j, &e), 0);
}

static void complete_err(int64_t t, uint32_t devt, uint64_t s, uint32_t sectors, int err)
{
	struct reel_event e;
	memset(&e, 0, sizeof(e));
	e.action = REEL_ACT_COMPLETE;
	e.t_ns = t;
	e.devt = devt;
	e.sector = s;
	e.bytes = sectors * 512;
	e.op = REEL_OP_READ;
	e.error = err;
	CHECK_EQ(reel_join_push(j, &e), 0);
}

#define HAS_ALL (REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE)
static void check_rec(int i, int64_t q, int64_t d, int64_t c, uint64_t sector, uint32_t sectors)
{
	CHECK(i < ngot);
	CHECK_EQ(got[i].queue_ns, q);
	if (d >= 0) {
		CHECK(got[i].has & REEL_HAS_ISSUE);
		CHECK_EQ(got[i].issue_ns, d);
	} else {
		CHECK(!(got[i].has & REEL_HAS_ISSUE));
	}
	if (c >= 0) {
		CHECK(got[i].has & REEL_HAS_COMPLETE);
		CHECK_EQ(got[i].complete_ns, c);
	} else {
		CHECK(!(got[i].has & REEL_HAS_COMPLETE));
	}
	CHECK_EQ(got[i].offset, sector * 512);
	CHECK_EQ(got[i].length, sectors * 512);
}

/* the devices of the cases: a disk, its partition, a dm device above both */
static uint32_t sda, sda2, dm;
static uint32_t traced[1]; /* only the disk is traced */

/* plain: Q G I D C */
static int test_plain_io(void)
{
	begin(traced, 1);
	ev('Q', 100, sda, 2048, 8, "WS");
	ev('G', 110, sda, 2048, 8, "WS");
	ev('I', 120, sda, 2048, 8, "WS");
	ev('D', 130, sda, 2048, 8, "WS");
	ev('C', 500, sda, 2048, 8, "WS");
	end();
	CHECK_EQ(ngot, 1);
	check_rec(0, 100, 130, 500, 2048, 8);
	CHECK_EQ(got[0].op, REEL_OP_WRITE);
	CHECK_EQ(got[0].flags, REEL_FL_SYNC);
	CHECK_EQ(got[0].pid, 42);
	CHECK_EQ(got[0].cpu, 1);
	CHECK(got[0].has & REEL_HAS_COMM);
	CHECK(got[0].has & REEL_HAS_ERROR);
	CHECK_EQ(got[0].error, 0);
	CHECK_EQ(st.no_issue + st.no_complete + st.orphan_events, 0);
	return 0;
}

/* merges: back and front merged bios stay separate records sharing D/C */
static int test_merged_bios_share_issue_complete(void)
{
	begin(traced, 1);
	ev('Q', 100, sda, 1000, 8, "W");
	ev('G', 101, sda, 1000, 8, "W");
	ev('Q', 110, sda, 1008, 8, "W");
	ev('M', 111, sda, 1008, 8, "W");
	ev('Q', 120, sda, 992, 8, "W");
	ev('F', 121, sda, 992, 8, "W");
	ev('Q', 125, sda, 5000, 8, "R"); /* unrelated, completes first */
	ev('G', 126, sda, 5000, 8, "R");
	ev('D', 127, sda, 5000, 8, "R");
	ev('C', 128, sda, 5000, 8, "R");
	ev('D', 130, sda, 992, 24, "W");
	ev('C', 900, sda, 992, 24, "W");
	end();
	CHECK_EQ(ngot, 4);
	check_rec(0, 100, 130, 900, 1000, 8);
	check_rec(1, 110, 130, 900, 1008, 8);
	check_rec(2, 120, 130, 900, 992, 8);
	check_rec(3, 125, 127, 128, 5000, 8);
	CHECK_EQ(got[3].op, REEL_OP_READ);
	CHECK_EQ(st.merged, 2);
	CHECK_EQ(st.no_issue + st.no_complete + st.orphan_events, 0);
	return 0;
}

/* split: one record, issued at its first part, complete with its last;
 * the remainder's own Q is not a new I/O; completions out of order */
static int test_split_is_one_record(void)
{
	begin(traced, 1);
	ev('Q', 100, sda, 4096, 16, "R");
	split(101, sda, 4096, 8, 4104);
	ev('G', 102, sda, 4096, 8, "R");
	ev('D', 103, sda, 4096, 8, "R");
	ev('Q', 104, sda, 4104, 8, "R");
	ev('G', 105, sda, 4104, 8, "R");
	ev('D', 106, sda, 4104, 8, "R");
	ev('C', 200, sda, 4104, 8, "R");
	ev('C', 300, sda, 4096, 8, "R");
	end();
	CHECK_EQ(ngot, 1);
	check_rec(0, 100, 103, 300, 4096, 16);
	CHECK_EQ(st.split, 1);
	CHECK_EQ(st.no_issue + st.no_complete + st.orphan_events, 0);
	return 0;
}

/* remap: dm -> partition -> disk, only the disk traced: one record in
 * the disk's sector space */
static int test_remap_to_traced_disk(void)
{
	begin(traced, 1);
	remap(100, sda2, 24391512, 160, dm, 20481880);
	remap(101, sda, 24803160, 160, sda2, 24391512);
	ev('Q', 102, sda, 24803160, 160, "W");
	ev('G', 103, sda, 24803160, 160, "W");
	ev('D', 104, sda, 24803160, 160, "W");
	ev('C', 105, sda, 24803160, 160, "W");
	end();
	CHECK_EQ(ngot, 1);
	check_rec(0, 102, 104, 105, 24803160, 160);
	CHECK_EQ(got[0].dev, 0);
	CHECK_EQ(st.remapped, 1);
	return 0;
}

/* remap with dm and disk both traced (every device recorded): the bio
 * queued on dm and again on the disk is one I/O, complete when dm
 * completes it, issued when the disk got it */
static int test_remap_dm_and_disk_traced(void)
{
	begin(NULL, 0);
	ev('Q', 100, dm, 20481880, 160, "W");
	remap(101, sda2, 24391512, 160, dm, 20481880);
	remap(102, sda, 24803160, 160, sda2, 24391512);
	ev('Q', 103, sda, 24803160, 160, "W");
	ev('G', 104, sda, 24803160, 160, "W");
	ev('D', 105, sda, 24803160, 160, "W");
	ev('C', 106, sda, 24803160, 160, "W");
	ev('Q', 107, sda, 64, 8, "R"); /* the disk's own I/O */
	ev('D', 108, sda, 64, 8, "R");
	ev('C', 109, sda, 64, 8, "R");
	ev('C', 110, dm, 20481880, 160, "W");
	end();
	CHECK_EQ(ngot, 2);
	check_rec(0, 100, 105, 110, 20481880, 160);
	check_rec(1, 107, 108, 109, 64, 8);
	CHECK_EQ(ndevname, 2);
	CHECK(!strcmp(devname[got[0].dev], "253,0"));
	CHECK(!strcmp(devname[got[1].dev], "8,0"));
	CHECK_EQ(st.orphan_events, 0);
	return 0;
}

/* dm sends a bio down as two clones (a target boundary inside it): still
 * one I/O, complete when dm completes it */
static int test_dm_clones_are_one_io(void)
{
	begin(NULL, 0);
	ev('Q', 100, dm, 1000, 16, "R");
	remap(101, sda, 5000, 8, dm, 1000);
	ev('Q', 102, sda, 5000, 8, "R");
	remap(103, sda, 9000, 8, dm, 1008);
	ev('Q', 104, sda, 9000, 8, "R");
	ev('G', 105, sda, 5000, 8, "R");
	ev('D', 106, sda, 5000, 8, "R");
	ev('G', 107, sda, 9000, 8, "R");
	ev('D', 108, sda, 9000, 8, "R");
	ev('C', 109, sda, 9000, 8, "R");
	ev('C', 110, sda, 5000, 8, "R");
	ev('C', 111, dm, 1000, 16, "R");
	end();
	CHECK_EQ(ngot, 1);
	check_rec(0, 100, 106, 111, 1000, 16);
	CHECK_EQ(st.orphan_events, 0);
	CHECK_EQ(st.remapped, 1);
	return 0;
}

/* missing D and C; an orphan completion; out-of-order completion */
static int test_missing_orphan_out_of_order(void)
{
	begin(traced, 1);
	ev('Q', 100, sda, 8, 8, "W");
	ev('G', 101, sda, 8, 8, "W");
	ev('Q', 110, sda, 16, 8, "W"); /* issued, never completes */
	ev('G', 111, sda, 16, 8, "W");
	ev('D', 112, sda, 16, 8, "W");
	ev('Q', 120, sda, 32, 8, "R");
	ev('G', 121, sda, 32, 8, "R");
	ev('D', 122, sda, 32, 8, "R");
	ev('Q', 130, sda, 48, 8, "R");
	ev('G', 131, sda, 48, 8, "R");
	ev('D', 132, sda, 48, 8, "R");
	complete_err(140, sda, 48, 8, 0);
	complete_err(150, sda, 32, 8, 65531); /* u16 -EIO as blktrace stores it */
	ev('C', 160, sda, 777, 8, "R");	      /* orphan */
	end();
	CHECK_EQ(ngot, 4);
	check_rec(0, 100, -1, -1, 8, 8);
	check_rec(1, 110, 112, -1, 16, 8);
	check_rec(2, 120, 122, 150, 32, 8);
	check_rec(3, 130, 132, 140, 48, 8);
	CHECK_EQ(got[2].error, -5);
	CHECK_EQ(st.no_issue, 1);
	CHECK_EQ(st.no_complete, 2);
	CHECK_EQ(st.orphan_events, 1);
	return 0;
}

/* flushes: an empty FWFS goes through the flush machinery (D/C "FN"),
 * then completes at its own sector; a FWS with data is a write with a
 * preflush; a discard stays a discard */
static int test_flush_preflush_discard(void)
{
	begin(traced, 1);
	ev('Q', 100, sda, 575480360, 0, "FWFS");
	ev('G', 101, sda, 575480360, 0, "FWFS");
	ev('D', 102, sda, 0, 0, "FN");
	ev('C', 103, sda, 0, 0, "FN");
	ev('C', 104, sda, 575480360, 0, "WFS");
	ev('Q', 200, sda, 800, 8, "FWS");
	ev('G', 201, sda, 800, 8, "FWS");
	ev('D', 202, sda, 0, 0, "FN");
	ev('C', 203, sda, 0, 0, "FN");
	ev('D', 204, sda, 800, 8, "WS");
	ev('C', 205, sda, 800, 8, "WS");
	ev('Q', 300, sda, 4096, 2048, "D");
	ev('G', 301, sda, 4096, 2048, "D");
	ev('D', 302, sda, 4096, 2048, "D");
	ev('C', 303, sda, 4096, 2048, "D");
	end();
	CHECK_EQ(ngot, 3);
	check_rec(0, 100, 102, 104, 575480360, 0);
	CHECK_EQ(got[0].op, REEL_OP_FLUSH);
	CHECK_EQ(got[0].flags, REEL_FL_PREFLUSH | REEL_FL_FUA | REEL_FL_SYNC);
	check_rec(1, 200, 202, 205, 800, 8);
	CHECK_EQ(got[1].op, REEL_OP_WRITE);
	CHECK_EQ(got[1].flags, REEL_FL_PREFLUSH | REEL_FL_SYNC);
	check_rec(2, 300, 302, 303, 4096, 2048);
	CHECK_EQ(got[2].op, REEL_OP_DISCARD);
	CHECK_EQ(st.orphan_events, 0);
	return 0;
}

/* the same as blkparse prints it (no sector for data-less Q/G/D), and
 * as an exporter writes a flush record back (Q/D/C at one sector) */
static int test_flush_without_sector(void)
{
	begin(traced, 1);
	struct reel_event e;
	memset(&e, 0, sizeof(e));
	e.devt = sda;
	e.sector = REEL_SECTOR_UNKNOWN;
	e.action = 'Q';
	e.t_ns = 100;
	CHECK_EQ(reel_rwbs_parse("FWFS", 4, 0, &e.op, &e.flags), 0);
	CHECK_EQ(reel_join_push(j, &e), 0);
	e.action = 'G';
	e.t_ns = 101;
	CHECK_EQ(reel_join_push(j, &e), 0);
	e.action = 'D';
	e.t_ns = 102;
	CHECK_EQ(reel_rwbs_parse("FN", 2, 0, &e.op, &e.flags), 0);
	CHECK_EQ(reel_join_push(j, &e), 0);
	ev('C', 103, sda, 0, 0, "FN");
	ev('C', 104, sda, 575480360, 0, "WFS");
	ev('Q', 200, sda, 0, 0, "FFFS");
	ev('D', 201, sda, 0, 0, "FFFS");
	ev('C', 202, sda, 0, 0, "FFFS");
	end();
	CHECK_EQ(ngot, 2);
	check_rec(0, 100, 102, 104, 0, 0);
	check_rec(1, 200, 201, 202, 0, 0);
	CHECK_EQ(got[1].op, REEL_OP_FLUSH);
	CHECK_EQ(got[1].flags, REEL_FL_PREFLUSH | REEL_FL_FUA | REEL_FL_SYNC);
	CHECK_EQ(st.orphan_events, 0);
	return 0;
}

/* a requeued request: issued when dispatched again */
static int test_requeue_issues_at_redispatch(void)
{
	begin(traced, 1);
	ev('Q', 100, sda, 100, 8, "W");
	ev('G', 101, sda, 100, 8, "W");
	ev('D', 102, sda, 100, 8, "W");
	ev('R', 103, sda, 100, 8, "W");
	ev('D', 104, sda, 100, 8, "W");
	ev('C', 105, sda, 100, 8, "W");
	end();
	CHECK_EQ(ngot, 1);
	check_rec(0, 100, 104, 105, 100, 8);
	CHECK_EQ(st.orphan_events, 0);
	return 0;
}

/* requests merged by the elevator (no event): one D and one C cover both */
static int test_elevator_merge_covers_both(void)
{
	begin(traced, 1);
	ev('Q', 100, sda, 100, 8, "W");
	ev('G', 101, sda, 100, 8, "W");
	ev('Q', 102, sda, 108, 8, "W");
	ev('G', 103, sda, 108, 8, "W");
	ev('D', 104, sda, 100, 16, "W");
	ev('C', 105, sda, 100, 16, "W");
	end();
	CHECK_EQ(ngot, 2);
	check_rec(0, 100, 104, 105, 100, 8);
	check_rec(1, 102, 104, 105, 108, 8);
	CHECK_EQ(st.orphan_events, 0);
	return 0;
}

/* partial completion: a request completed in two pieces */
static int test_partial_completion(void)
{
	begin(traced, 1);
	ev('Q', 100, sda, 100, 8, "R");
	ev('G', 101, sda, 100, 8, "R");
	ev('Q', 102, sda, 108, 8, "R");
	ev('M', 103, sda, 108, 8, "R");
	ev('D', 104, sda, 100, 16, "R");
	ev('C', 105, sda, 100, 8, "R");
	ev('C', 106, sda, 108, 8, "R");
	end();
	CHECK_EQ(ngot, 2);
	check_rec(0, 100, 104, 105, 100, 8);
	check_rec(1, 102, 104, 106, 108, 8);
	CHECK_EQ(st.orphan_events, 0);
	return 0;
}

/* the reorder window: a stuck I/O is written (incomplete) once it is
 * older than the window, so the records behind it are not held */
static int test_reorder_window_releases_stuck_io(void)
{
	begin(traced, 1);
	reel_join_limits(j, 1000, 0);
	ev('Q', 100, sda, 8, 8, "W");
	ev('Q', 200, sda, 16, 8, "W");
	ev('D', 201, sda, 16, 8, "W");
	ev('C', 202, sda, 16, 8, "W");
	struct reel_join_stats s1;
	reel_join_stats(j, &s1);
	CHECK_EQ(s1.records, 0); /* held behind the first */
	ev('Q', 1200, sda, 24, 8, "W");
	reel_join_stats(j, &s1);
	CHECK_EQ(s1.records, 2);
	CHECK_EQ(s1.no_issue, 1);
	end();
	CHECK_EQ(ngot, 3);
	check_rec(0, 100, -1, -1, 8, 8);
	check_rec(1, 200, 201, 202, 16, 8);
	return 0;
}

/* events of untraced devices are ignored */
static int test_untraced_device_ignored(void)
{
	begin(traced, 1);
	ev('Q', 100, DEV(8, 16), 8, 8, "W");
	ev('D', 101, DEV(8, 16), 8, 8, "W");
	ev('C', 102, DEV(8, 16), 8, 8, "W");
	end();
	CHECK_EQ(ngot, 0);
	CHECK_EQ(st.orphan_events, 0);
	return 0;
}

/* recent kernels through tracefs: Q/G under the partition's devt (disk
 * sectors), D/C under the disk's: joined, recorded on the disk */
static int test_partition_queue_disk_dispatch(void)
{
	begin(traced, 1);
	ev('Q', 100, sda2, 5000, 8, "W");
	ev('G', 101, sda2, 5000, 8, "W");
	ev('D', 102, sda, 5000, 8, "W");
	ev('C', 103, sda, 5000, 8, "W");
	end();
	CHECK_EQ(ngot, 1);
	check_rec(0, 100, 102, 103, 5000, 8);
	CHECK_EQ(st.orphan_events, 0);
	return 0;
}

/* rwbs */
static int test_rwbs_parse(void)
{
	uint8_t op, fl;
	CHECK_EQ(reel_rwbs_parse("RA", 2, 4096, &op, &fl), 0);
	CHECK(op == REEL_OP_READ && fl == REEL_FL_READAHEAD);
	CHECK_EQ(reel_rwbs_parse("FWFSM", 5, 4096, &op, &fl), 0);
	CHECK(op == REEL_OP_WRITE &&
	      fl == (REEL_FL_PREFLUSH | REEL_FL_FUA | REEL_FL_SYNC | REEL_FL_META));
	CHECK_EQ(reel_rwbs_parse("FF", 2, 0, &op, &fl), 0);
	CHECK(op == REEL_OP_FLUSH && fl == REEL_FL_PREFLUSH);
	CHECK_EQ(reel_rwbs_parse("FN", 2, 0, &op, &fl), 0);
	CHECK(op == REEL_OP_FLUSH && fl == 0);
	CHECK_EQ(reel_rwbs_parse("FS", 2, 0, &op, &fl), 0); /* tracefs: REQ_OP_FLUSH, sync */
	CHECK(op == REEL_OP_FLUSH && fl == REEL_FL_SYNC);
	CHECK_EQ(reel_rwbs_parse("DS", 2, 4096, &op, &fl), 0);
	CHECK(op == REEL_OP_DISCARD && fl == REEL_FL_SYNC);
	CHECK_EQ(reel_rwbs_parse("WZ", 2, 4096, &op, &fl), 0);
	CHECK(op == REEL_OP_WRITE_ZEROES);
	CHECK(reel_rwbs_parse("Wx", 2, 0, &op, &fl) < 0);
	CHECK(reel_rwbs_parse("", 0, 0, &op, &fl) < 0);
	CHECK(reel_rwbs_parse("Q", 1, 0, &op, &fl) < 0);
	return 0;
}

int main(void)
{
	sda = DEV(8, 0);
	sda2 = DEV(8, 2);
	dm = DEV(253, 0);
	traced[0] = sda;
	CHECK(test_plain_io() == 0);
	CHECK(test_merged_bios_share_issue_complete() == 0);
	CHECK(test_split_is_one_record() == 0);
	CHECK(test_remap_to_traced_disk() == 0);
	CHECK(test_remap_dm_and_disk_traced() == 0);
	CHECK(test_dm_clones_are_one_io() == 0);
	CHECK(test_missing_orphan_out_of_order() == 0);
	CHECK(test_flush_preflush_discard() == 0);
	CHECK(test_flush_without_sector() == 0);
	CHECK(test_requeue_issues_at_redispatch() == 0);
	CHECK(test_elevator_merge_covers_both() == 0);
	CHECK(test_partial_completion() == 0);
	CHECK(test_reorder_window_releases_stuck_io() == 0);
	CHECK(test_untraced_device_ignored() == 0);
	CHECK(test_partition_queue_disk_dispatch() == 0);
	CHECK(test_rwbs_parse() == 0);
	printf("join: all cases pass\n");
	return 0;
}
