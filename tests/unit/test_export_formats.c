/*
 * The exporters on a crafted trace with every field: CSV (absent fields
 * empty, flags, quoting of process names), blkparse text (Q/D/C lines in
 * time order across overlapping I/Os, RWBS letters, sectors), fio iolog v3
 * (add/open, times in us, ops, close).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

extern const struct reel_exporter reel_exp_csv, reel_exp_blkparse, reel_exp_fio;

static char path[] = "/tmp/ioreel-exp-XXXXXX";

static char *run(const struct reel_exporter *ex)
{
	struct reel_reader *r;
	CHECK(reel_reader_open(&r, path, 0) == 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char err[256] = "";
	int rc = ex->run(r, f, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s: %s\n", ex->name, err);
	CHECK(rc == 0);
	fclose(f);
	reel_reader_close(r);
	return buf;
}

static int expect(const char *name, const char *got, const char *want)
{
	if (!strcmp(got, want))
		return 0;
	fprintf(stderr, "%s export differs.\n--- got:\n%s--- want:\n%s", name, got, want);
	return 1;
}

int main(void)
{
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct reel_device devs[2] = {
	    {.id = 0, .name = "sda", .major = 8, .minor = 0, .lbs = 512},
	    {.id = 3, .name = "my disk", .lbs = 512},
	};
	struct reel_header h = {.source = "test", .devices = devs, .ndevices = 2};
	struct reel_writer *w;
	CHECK(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE) == 0);
	int64_t kw = reel_writer_intern(w, "kworker/0:1");
	int64_t odd = reel_writer_intern(w, "a,\"b\"");
	CHECK(kw >= 0 && odd >= 0);
	/* I/O 1: a read, Q 0, D 1000, C 5000; I/O 2: a sync write, Q 2000,
	 * D 3000, C 4000 (completes before I/O 1); I/O 3: discard, queue only;
	 * I/O 4: flush with preflush+fua flags set, error -5 */
	struct reel_rec r1 = {.queue_ns = 0,
			      .issue_ns = 1000,
			      .complete_ns = 5000,
			      .offset = 4096,
			      .length = 8192,
			      .pid = 42,
			      .comm = (uint32_t)kw,
			      .dev = 0,
			      .cpu = 1,
			      .error = 0,
			      .op = REEL_OP_READ,
			      .flags = REEL_FL_READAHEAD,
			      .has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE |
				     REEL_HAS_DEV | REEL_HAS_PID | REEL_HAS_COMM | REEL_HAS_CPU |
				     REEL_HAS_ERROR | REEL_HAS_FLAGS};
	struct reel_rec r2 = {.queue_ns = 2000,
			      .issue_ns = 3000,
			      .complete_ns = 4000,
			      .offset = 1048576,
			      .length = 4096,
			      .pid = 7,
			      .comm = (uint32_t)odd,
			      .dev = 3,
			      .op = REEL_OP_WRITE,
			      .flags = REEL_FL_SYNC,
			      .has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE |
				     REEL_HAS_DEV | REEL_HAS_PID | REEL_HAS_COMM | REEL_HAS_FLAGS};
	struct reel_rec r3 = {.queue_ns = 1500000000,
			      .offset = 0,
			      .length = 1 << 20,
			      .dev = 0,
			      .op = REEL_OP_DISCARD,
			      .has = REEL_HAS_QUEUE | REEL_HAS_DEV | REEL_HAS_FLAGS};
	struct reel_rec r4 = {.queue_ns = 1500000100,
			      .complete_ns = 1500000900,
			      .dev = 0,
			      .op = REEL_OP_FLUSH,
			      .flags = REEL_FL_PREFLUSH | REEL_FL_FUA,
			      .error = -5,
			      .has = REEL_HAS_QUEUE | REEL_HAS_COMPLETE | REEL_HAS_DEV |
				     REEL_HAS_FLAGS | REEL_HAS_ERROR};
	CHECK(reel_write(w, &r1) == 0);
	CHECK(reel_write(w, &r2) == 0);
	CHECK(reel_write(w, &r3) == 0);
	CHECK(reel_write(w, &r4) == 0);
	CHECK(reel_writer_close(w) == 0);

	int bad = 0;
	char *csv = run(&reel_exp_csv);
	bad |=
	    expect("csv", csv,
		   "queue_ns,issue_ns,complete_ns,op,flags,dev,offset,length,pid,comm,cpu,error\n"
		   "0,1000,5000,read,readahead,0,4096,8192,42,kworker/0:1,1,0\n"
		   "2000,3000,4000,write,sync,3,1048576,4096,7,\"a,\"\"b\"\"\",,\n"
		   "1500000000,,,discard,none,0,0,1048576,,,,\n"
		   "1500000100,,1500000900,flush,fua|preflush,0,0,0,,,,-5\n");
	free(csv);

	char *bp = run(&reel_exp_blkparse);
	bad |= expect("blkparse", bp,
		      "  8,0    1        1     0.000000000    42  Q  RA 8 + 16 [kworker/0:1]\n"
		      "  8,0    1        2     0.000001000    42  D  RA 8 + 16 [kworker/0:1]\n"
		      "  0,3    0        3     0.000002000     7  Q  WS 2048 + 8 [a,\"b\"]\n"
		      "  0,3    0        4     0.000003000     7  D  WS 2048 + 8 [a,\"b\"]\n"
		      "  0,3    0        5     0.000004000     0  C  WS 2048 + 8 [0]\n"
		      "  8,0    1        6     0.000005000     0  C  RA 8 + 16 [0]\n"
		      "  8,0    0        7     1.500000000     0  Q   D 0 + 2048 []\n"
		      "  8,0    0        8     1.500000100     0  Q FFF 0 + 0 []\n"
		      "  8,0    0        9     1.500000900     0  C FFF 0 + 0 [-5]\n");
	free(bp);

	char *fio = run(&reel_exp_fio);
	bad |= expect("fio", fio,
		      "fio version 3 iolog\n"
		      "0 sda add\n0 sda open\n"
		      "0 my_disk add\n0 my_disk open\n"
		      "1 sda read 4096 8192\n"
		      "3 my_disk write 1048576 4096\n"
		      "1500001 sda trim 0 1048576\n"
		      "1500001 sda sync 0 0\n"
		      "1500001 sda close\n"
		      "1500001 my_disk close\n");
	free(fio);
	unlink(path);
	return bad;
}
