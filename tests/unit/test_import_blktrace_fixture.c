/*
 * The blktrace binary importer on a fixture built here, in code, so that it
 * is tested without the shared traces (test_import_blktrace.c covers the
 * real one when ../shared is present).  One small trace of sda (8,0):
 *  - a read: Q G I D C;
 *  - two writes, the second back-merged (M) into the first's request:
 *    two records sharing the request's issue and completion times;
 *  - a read split (X) in two halves: one record, issued at the first D,
 *    complete at the last C;
 *  - a sync write completed with an error (EIO);
 *  - a process-name and a timestamp notify.
 * Written as two per-CPU files in record version 7 and version 8, little
 * and big endian, and as one piped stream; every form gives the same
 * records, and detection scores each 100.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

/* import.c refers to importers weakly: take ours out of the library */
extern const struct reel_importer reel_imp_blktrace;
__attribute__((used)) static const struct reel_importer *const keep[] = {&reel_imp_blktrace};

/* blktrace's action codes and categories (blktrace_api.h) */
enum {
	A_QUEUE = 1,
	A_BACKMERGE = 2,
	A_GETRQ = 4,
	A_ISSUE = 7,
	A_COMPLETE = 8,
	A_INSERT = 12,
	A_SPLIT = 13
};
#define C_READ (1u << 0)
#define C_WRITE (1u << 1)
#define C_SYNC (1u << 3)
#define C_NOTIFY (1u << 10)
#define N_PROCESS 0
#define N_TIMESTAMP 1
#define SDA ((8u << 20) | 0u)
#define T0 5000000000ull /* trace clock of the first event */
#define WALL_S 1700000000u

struct ev {
	uint64_t t; /* ns after T0 */
	int code;
	uint32_t cat;
	uint64_t sector;
	uint32_t bytes;
	uint32_t pid, cpu;
	uint16_t error;
	uint64_t split_at; /* A_SPLIT: where the second part starts */
};

/* time order; cpu says which per-CPU file holds the event */
static const struct ev evs[] = {
    /* I/O 1: a read of 8 sectors at 1000 */
    {0, A_QUEUE, C_READ, 1000, 4096, 100, 0, 0, 0},
    {100, A_GETRQ, C_READ, 1000, 4096, 100, 0, 0, 0},
    {200, A_INSERT, C_READ, 1000, 4096, 100, 0, 0, 0},
    {300, A_ISSUE, C_READ, 1000, 4096, 100, 0, 0, 0},
    /* I/Os 2 and 3: writes at 2000 and 2008, the second back-merged */
    {10000, A_QUEUE, C_WRITE, 2000, 4096, 101, 1, 0, 0},
    {10100, A_GETRQ, C_WRITE, 2000, 4096, 101, 1, 0, 0},
    {10200, A_INSERT, C_WRITE, 2000, 4096, 101, 1, 0, 0},
    {10300, A_QUEUE, C_WRITE, 2008, 4096, 101, 1, 0, 0},
    {10400, A_BACKMERGE, C_WRITE, 2008, 4096, 101, 1, 0, 0},
    {11000, A_ISSUE, C_WRITE, 2000, 8192, 101, 0, 0, 0},
    {15000, A_COMPLETE, C_READ, 1000, 4096, 0, 0, 0, 0},
    {20000, A_COMPLETE, C_WRITE, 2000, 8192, 0, 1, 0, 0},
    /* I/O 4: a read of 16 sectors at 4000, split at 4008 */
    {30000, A_QUEUE, C_READ, 4000, 8192, 100, 0, 0, 0},
    {30100, A_SPLIT, C_READ, 4000, 8192, 100, 0, 0, 4008},
    {30200, A_GETRQ, C_READ, 4000, 4096, 100, 0, 0, 0},
    {30300, A_ISSUE, C_READ, 4000, 4096, 100, 0, 0, 0},
    {30500, A_QUEUE, C_READ, 4008, 4096, 100, 0, 0, 0},
    {30600, A_GETRQ, C_READ, 4008, 4096, 100, 0, 0, 0},
    {30700, A_ISSUE, C_READ, 4008, 4096, 100, 1, 0, 0},
    {31000, A_COMPLETE, C_READ, 4000, 4096, 0, 0, 0, 0},
    {35000, A_COMPLETE, C_READ, 4008, 4096, 0, 1, 0, 0},
    /* I/O 5: a sync write at 6000 that fails with EIO */
    {40000, A_QUEUE, C_WRITE | C_SYNC, 6000, 4096, 101, 1, 0, 0},
    {40100, A_GETRQ, C_WRITE | C_SYNC, 6000, 4096, 101, 1, 0, 0},
    {40200, A_ISSUE, C_WRITE | C_SYNC, 6000, 4096, 101, 1, 0, 0},
    {45000, A_COMPLETE, C_WRITE | C_SYNC, 6000, 4096, 0, 1, 5, 0},
};
#define NEVS (sizeof(evs) / sizeof(evs[0]))

struct want {
	int64_t q, d, c;
	uint64_t offset;
	uint32_t length;
	uint8_t op, flags;
	uint32_t pid;
	int32_t error;
	const char *comm;
};
static const struct want want[] = {
    {0, 300, 15000, 1000 * 512, 4096, REEL_OP_READ, 0, 100, 0, "fio"},
    {10000, 11000, 20000, 2000 * 512, 4096, REEL_OP_WRITE, 0, 101, 0, "kworker/0:1"},
    {10300, 11000, 20000, 2008 * 512, 4096, REEL_OP_WRITE, 0, 101, 0, "kworker/0:1"},
    {30000, 30300, 35000, 4000 * 512, 8192, REEL_OP_READ, 0, 100, 0, "fio"},
    {40000, 40200, 45000, 6000 * 512, 4096, REEL_OP_WRITE, REEL_FL_SYNC, 101, -5, "kworker/0:1"},
};
#define NWANT (sizeof(want) / sizeof(want[0]))

static char tmpdir[] = "/tmp/ioreel-test-btfix.XXXXXX";

/* A growing byte buffer. */
struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *src, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 256;
		b->p = realloc(b->p, b->cap);
		CHECK(b->p);
	}
	memcpy(b->p + b->n, src, n);
	b->n += n;
}

static void put16(struct buf *b, uint16_t v, int be)
{
	v = be ? __builtin_bswap16(v) : v;
	put(b, &v, 2);
}
static void put32(struct buf *b, uint32_t v, int be)
{
	v = be ? __builtin_bswap32(v) : v;
	put(b, &v, 4);
}
static void put64(struct buf *b, uint64_t v, int be)
{
	v = be ? __builtin_bswap64(v) : v;
	put(b, &v, 8);
}

/* One record: struct blk_io_trace (v7, 48 bytes) or blk_io_trace2 (v8, 64
 * bytes), in the byte order asked for, then its payload. */
static void record(struct buf *b, int v8, int be, uint64_t t, uint32_t action, uint64_t sector,
		   uint32_t bytes, uint32_t pid, uint32_t cpu, uint16_t error, const void *pdu,
		   uint16_t pdu_len)
{
	static uint32_t seq;
	put32(b, 0x65617400u | (v8 ? 8u : 7u), be);
	put32(b, seq++, be);
	put64(b, t, be);
	put64(b, sector, be);
	put32(b, bytes, be);
	if (v8) {
		put32(b, pid, be);
		put64(b, action, be);
	} else {
		put32(b, action, be);
		put32(b, pid, be);
	}
	put32(b, SDA, be);
	put32(b, cpu, be);
	put16(b, error, be);
	put16(b, pdu_len, be);
	if (v8) {
		static const unsigned char pad[12];
		put(b, pad, sizeof(pad));
	}
	if (pdu_len)
		put(b, pdu, pdu_len);
}

static void notify(struct buf *b, int v8, int be, uint32_t cpu, int code, uint32_t pid,
		   const void *pdu, uint16_t len)
{
	record(b, v8, be, T0, (C_NOTIFY << 16) | (uint32_t)code, 0, 0, pid, cpu, 0, pdu, len);
}

/* The per-CPU streams of the fixture: out[0] and out[1]; with stream, one
 * piped stream in out[0], the CPUs' records in time order. */
static void build(struct buf out[2], int v8, int be, int stream)
{
	for (uint32_t cpu = 0; cpu < 2; cpu++) {
		notify(&out[stream ? 0 : cpu], v8, be, cpu, N_PROCESS, 100, "fio", 4);
		notify(&out[stream ? 0 : cpu], v8, be, cpu, N_PROCESS, 101, "kworker/0:1", 12);
	}
	uint32_t ts[2];
	ts[0] = be ? __builtin_bswap32(WALL_S) : WALL_S; /* native u32 pair */
	ts[1] = be ? __builtin_bswap32(250u) : 250u;
	notify(&out[0], v8, be, 0, N_TIMESTAMP, 0, ts, 8);
	for (size_t i = 0; i < NEVS; i++) {
		const struct ev *e = &evs[i];
		unsigned char pdu[8];
		uint16_t plen = 0;
		if (e->code == A_SPLIT) {
			for (int k = 0; k < 8; k++) /* big endian whatever the trace's order */
				pdu[k] = (unsigned char)(e->split_at >> (56 - 8 * k));
			plen = 8;
		}
		record(&out[stream ? 0 : e->cpu], v8, be, T0 + e->t,
		       (e->cat << 16) | (uint32_t)e->code, e->sector, e->bytes, e->pid, e->cpu,
		       e->error, pdu, plen);
	}
}

static void spill(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");
	CHECK(f && fwrite(b->p, 1, b->n, f) == b->n);
	CHECK(!fclose(f));
}

/* Import paths and check the records against want[]; devname: the
 * device name the file names give. */
static void import_check(const char *what, const char **paths, size_t n, const char *devname)
{
	const struct reel_importer *imp = reel_importer_find("blktrace");
	CHECK(imp);
	char out[256], err[1024];
	snprintf(out, sizeof(out), "%s/out.reel", tmpdir);
	struct reel_header h = {.source = "test"};
	struct reel_writer *w;
	CHECK_EQ(reel_writer_open(&w, out, -1, &h, REEL_W_OVERWRITE), 0);
	struct reel_import_opts o = {.lba_size = 512};
	struct reel_import_stats st;
	memset(&st, 0, sizeof(st));
	int rc = imp->run(paths, n, &o, w, &st, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s: %s\n", what, err);
	CHECK_EQ(rc, 0);
	CHECK_EQ(reel_writer_close(w), 0);
	CHECK_EQ(st.records, NWANT);
	CHECK_EQ(st.bad, 0);
	CHECK_EQ(st.join.merged, 1);
	CHECK_EQ(st.join.split, 1);
	CHECK_EQ(st.join.no_issue, 0);
	CHECK_EQ(st.join.no_complete, 0);
	CHECK_EQ(st.join.orphan_events, 0);

	struct reel_reader *r;
	CHECK_EQ(reel_reader_open(&r, out, 0), 0);
	const struct reel_header *rh = reel_reader_header(r);
	CHECK_EQ(rh->ndevices, 1);
	CHECK(!strcmp(rh->devices[0].name, devname));
	const struct reel_meta *m = reel_reader_meta(r, "blktrace.start_unix_ns");
	CHECK(m);
	CHECK_EQ(m->i, (int64_t)WALL_S * 1000000000ll + 250);
	struct reel_rec x;
	size_t i = 0;
	int k;
	while ((k = reel_read(r, &x)) == 1) {
		CHECK(i < NWANT);
		const struct want *y = &want[i];
		uint16_t has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE | REEL_HAS_DEV |
			       REEL_HAS_PID | REEL_HAS_COMM | REEL_HAS_CPU | REEL_HAS_ERROR |
			       REEL_HAS_FLAGS;
		if ((x.has & has) != has)
			fprintf(stderr, "%s: record %zu has 0x%x\n", what, i, x.has);
		CHECK_EQ(x.has & has, has);
		CHECK_EQ(x.queue_ns, y->q);
		CHECK_EQ(x.issue_ns, y->d);
		CHECK_EQ(x.complete_ns, y->c);
		CHECK_EQ(x.offset, y->offset);
		CHECK_EQ(x.length, y->length);
		CHECK_EQ(x.op, y->op);
		CHECK_EQ(x.flags, y->flags);
		CHECK_EQ(x.pid, y->pid);
		CHECK_EQ(x.error, y->error);
		CHECK_EQ(x.dev, 0);
		const char *c = reel_reader_comm(r, x.comm);
		CHECK(c && !strcmp(c, y->comm));
		i++;
	}
	CHECK_EQ(k, 0);
	CHECK_EQ(i, NWANT);
	reel_reader_close(r);
	printf("%s: %zu records as expected (1 merged, 1 split, 1 error)\n", what, i);
}

static void cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpdir);
}

static void test_per_cpu_files(int v8, int be)
{
	struct buf b[2] = {{0}, {0}};
	build(b, v8, be, 0);
	const struct reel_importer *imp = reel_importer_find("blktrace");
	char base[128], f0[160], f1[160], what[64];
	snprintf(base, sizeof(base), "%s/v%d%s/sda", tmpdir, v8 ? 8 : 7, be ? "be" : "le");
	char dir[128];
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(base, '/') - base), base);
	CHECK(!mkdir(dir, 0700));
	snprintf(f0, sizeof(f0), "%s.blktrace.0", base);
	snprintf(f1, sizeof(f1), "%s.blktrace.1", base);
	spill(f0, &b[0]);
	spill(f1, &b[1]);
	CHECK_EQ(imp->detect(b[0].p, b[0].n, f0), 100);
	snprintf(what, sizeof(what), "v%d %s, base name", v8 ? 8 : 7,
		 be ? "big endian" : "little endian");
	const char *pb[] = {base};
	import_check(what, pb, 1, "sda");
	snprintf(what, sizeof(what), "v%d %s, files", v8 ? 8 : 7,
		 be ? "big endian" : "little endian");
	const char *pf[] = {f1, f0};
	import_check(what, pf, 2, "sda");
	free(b[0].p);
	free(b[1].p);
}

/* One piped stream (blktrace -o -), both CPUs in one file, in time order.
 * (Chunks of one CPU at a time are checked on the real trace by
 * test_import_blktrace.c: the importer starts its sort window only once it
 * has seen a second CPU, so a first chunk holding D or C events of I/Os
 * that the other CPU queued would not be joined.) */
static void test_piped_stream(void)
{
	struct buf b[2] = {{0}, {0}};
	build(b, 0, 0, 1);
	CHECK_EQ(b[1].n, 0);
	char p[128];
	snprintf(p, sizeof(p), "%s/piped", tmpdir);
	spill(p, &b[0]);
	const char *pp[] = {p};
	import_check("piped stream", pp, 1, "8,0"); /* no file name to go by */
	free(b[0].p);
}

int main(void)
{
	CHECK(mkdtemp(tmpdir));
	atexit(cleanup);
	for (int v8 = 0; v8 < 2; v8++)
		for (int be = 0; be < 2; be++)
			test_per_cpu_files(v8, be);
	test_piped_stream();
	printf("blktrace fixture import: all cases pass\n");
	return 0;
}
