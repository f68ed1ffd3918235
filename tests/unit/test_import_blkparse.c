/*
 * The blkparse text importer:
 *  - on the shared real trace (NVMe under dm-crypt, '#' header, flushes,
 *    merges, blkparse's summary at the end): as many records as Q lines,
 *    and as many as blkparse's own summary says were queued; merges as
 *    many as M/F lines; records in queue order;
 *  - a crafted text with a split, a remap, a completion error, messages,
 *    plugs, passthrough lines, "(elapsed)" columns;
 *  - bad lines name file:line and the reason; --skip-bad counts them;
 *  - detection.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

extern const struct reel_importer reel_imp_blkparse;
__attribute__((used)) static const struct reel_importer *const keep = &reel_imp_blkparse;

static char tmpdir[] = "/tmp/ioreel-test-blkparse.XXXXXX";
static struct reel_rec recs[4096];
static size_t nrecs;
static struct reel_import_stats st;
static char err[1024];

static int import_n(const char **paths, size_t n, unsigned skip_bad);
static int import(const char *path, unsigned skip_bad)
{
	const char *paths[] = {path};
	return import_n(paths, 1, skip_bad);
}

static int import_n(const char **paths, size_t npaths, unsigned skip_bad)
{
	char out[256];
	snprintf(out, sizeof(out), "%s/out.reel", tmpdir);
	struct reel_header h = {.source = "test"};
	struct reel_writer *w;
	CHECK_EQ(reel_writer_open(&w, out, -1, &h, REEL_W_OVERWRITE), 0);
	struct reel_import_opts o = {.skip_bad = skip_bad};
	memset(&st, 0, sizeof(st));
	int rc = reel_importer_find("blkparse")->run(paths, npaths, &o, w, &st, err, sizeof(err));
	if (rc) {
		reel_writer_destroy(w);
		return rc;
	}
	CHECK_EQ(reel_writer_close(w), 0);
	struct reel_reader *r;
	CHECK_EQ(reel_reader_open(&r, out, 0), 0);
	nrecs = 0;
	int k;
	while ((k = reel_read(r, &recs[nrecs])) == 1)
		CHECK(++nrecs < 4096);
	CHECK_EQ(k, 0);
	reel_reader_close(r);
	return 0;
}

static void spill(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f && fputs(text, f) >= 0);
	fclose(f);
}

static const char crafted[] =
    "#Maj,Mn CPU   SeqNo     Seconds     PID  Evt Typ Sector   +Len Description\n"
    "  8,0    0        0     0.000000000     0  m   N cfq schedule dispatch\n"
    "  8,16   0        1     0.000001000   100  A   R 2048 + 16 <- (8,17) 0\n"
    "  8,16   0        2     0.000002000   100  Q   R 2048 + 16 [my prog]\n"
    "  8,16   0        3     0.000003000   100  X   R 2048 / 2056 [my prog]\n"
    "  8,16   0        4     0.000004000   100  G   R 2048 + 8 [my prog]\n"
    "  8,16   0        5     0.000004500   100  P   N [my prog]\n"
    "  8,16   0        6     0.000005000   100  Q   R 2056 + 8 [my prog]\n"
    "  8,16   0        7     0.000006000   100  G   R 2056 + 8 [my prog]\n"
    "  8,16   0        8     0.000006500   100  U   N [my prog] 1\n"
    "  8,16   0        9     0.000007000   100  D   R 2048 + 8 (    3000) [my prog]\n"
    "  8,16   0       10     0.000008000   100  D   R 2056 + 8 (    2000) [my prog]\n"
    "  8,16   1        1     0.000009000     0  C   R 2056 + 8 (    1000) [0]\n"
    "  8,16   1        2     0.000010000     0  C   R 2048 + 8 (    3000) [65531]\n"
    "  8,16   0       11     0.000011000   200  Q  DS 4096 + 2048 [fstrim]\n"
    "  8,16   0       12     0.000011500   200  D   R 36 (12 34 56) [scsi_id]\n"
    "  8,16   0       13     0.000012000   200  G  DS 4096 + 2048 [fstrim]\n"
    "  8,16   0       14     0.000013000   200  D  DS 4096 + 2048 [fstrim]\n"
    "  8,16   0       15     0.000014000     0  C  DS 4096 + 2048 [0]\n"
    "  8,16   0       16     1.000000000   300  Q  RA 9000 + 8 [reader]\n"
    "\n"
    "CPU0 (sdb):\n"
    " Reads Queued:           2,        8KiB\t Writes Queued:           0,        0KiB\n"
    "Total (sdb):\n"
    "Events (sdb): 18 entries\n";

/* the scratch directory goes even when a check fails (exit) */
static void cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpdir);
}

/* Where the crafted cases write their text. */
static void crafted_path(char *p, size_t len) { snprintf(p, len, "%s/crafted.txt", tmpdir); }

/* crafted: a split read with a completion error after a remap, messages,
 * plugs, a passthrough line, "(elapsed)" columns, blkparse's summary */
static int test_crafted_split_remap_error(void)
{
	char p[600];
	crafted_path(p, sizeof(p));
	spill(p, crafted);
	CHECK_EQ(reel_importer_find("blkparse")
		     ->detect((const unsigned char *)crafted, sizeof(crafted) - 1, p),
		 95);
	CHECK_EQ(import(p, 0), 0);
	CHECK_EQ(nrecs, 3);
	/* the split read: one record, issued with its first part, complete with
	 * its last, with the error */
	CHECK_EQ(recs[0].queue_ns, 2000);
	CHECK_EQ(recs[0].issue_ns, 7000);
	CHECK_EQ(recs[0].complete_ns, 10000);
	CHECK_EQ(recs[0].offset, 2048 * 512);
	CHECK_EQ(recs[0].length, 16 * 512);
	CHECK_EQ(recs[0].error, -5);
	CHECK_EQ(recs[0].pid, 100);
	CHECK_EQ(recs[0].op, REEL_OP_READ);
	CHECK_EQ(recs[1].op, REEL_OP_DISCARD);
	CHECK_EQ(recs[1].flags, REEL_FL_SYNC);
	CHECK_EQ(recs[1].length, 2048 * 512);
	CHECK_EQ(recs[1].complete_ns, 14000);
	CHECK_EQ(recs[2].flags, REEL_FL_READAHEAD);
	CHECK(!(recs[2].has & REEL_HAS_ISSUE));
	CHECK_EQ(st.join.split, 1);
	CHECK_EQ(st.join.remapped, 1);
	CHECK_EQ(st.join.no_issue, 1);
	CHECK_EQ(st.join.no_complete, 1);
	CHECK_EQ(st.join.orphan_events, 0);
	CHECK_EQ(st.bad, 0);
	return 0;
}

/* bad lines: file:line and reason; --skip-bad counts them */
static int test_bad_lines_name_file_line(void)
{
	static const char *bad_lines[] = {
	    "  8,16   0        4     0.00000x000   100  Q   R 2048 + 8 [p]\n",
	    "  8,16   0        4     0.000004000   100  Q   R 2048 + 8\n",
	    "  8,16   0        4     0.000004000   100  Q   Z 2048 + 8 [p]\n",
	    "  8,16   0        4     0.000004000   100  A   R 2048 + 8 <- 8,1 5\n",
	    "  8,16   0        4     0.000004000   100  C   R 2048 + 8 [ok]\n",
	    "  8;16   0        4     0.000004000   100  Q   R 2048 + 8 [p]\n",
	    "hello world\n",
	};
	char p[600];
	crafted_path(p, sizeof(p));
	for (size_t i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		static const char good[] =
		    "# a header\n"
		    "  8,16   0        1     0.000001000   100  Q   R 2048 + 16 [my prog]\n"
		    "  8,16   0        2     0.000002000   100  G   R 2048 + 16 [my prog]\n";
		char text[4096];
		snprintf(text, sizeof(text), "%s%s%s", good, bad_lines[i],
			 "  8,16   0       99     2.000000000   100  Q   W 1 + 1 [p]\n");
		spill(p, text);
		CHECK(import(p, 0) < 0);
		char want[700];
		snprintf(want, sizeof(want), "%s:4: ", p);
		if (!strstr(err, want)) {
			fprintf(stderr, "case %zu: '%s' lacks '%s'\n", i, err, want);
			return 1;
		}
		CHECK_EQ(import(p, 1), 0);
		CHECK_EQ(st.bad, 1);
	}
	return 0;
}

/* a line too long to be blkparse output */
static int test_line_too_long(void)
{
	char p[600];
	crafted_path(p, sizeof(p));
	static char text[20000];
	memset(text, 'x', sizeof(text) - 2);
	text[sizeof(text) - 2] = '\n';
	spill(p, text);
	CHECK(import(p, 0) < 0);
	CHECK(strstr(err, ":1: line too long"));
	return 0;
}

/* the shared real trace, and its counts by count_real_lines() */
static char real[600];
static long q = 0, merges = 0, queued = -1;

/* independent counts: Q and M/F lines; blkparse's "Total" summary */
static void count_real_lines(void)
{
	FILE *f = fopen(real, "r");
	CHECK(f);
	char line[4096];
	long total = 0;
	while (fgets(line, sizeof(line), f)) {
		char act[8];
		if (sscanf(line, "%*s %*s %*s %*s %*s %7s", act) == 1 && line[0] != '#' &&
		    strchr(line, ',') < strchr(line, '.')) {
			q += !strcmp(act, "Q");
			merges += !strcmp(act, "M") || !strcmp(act, "F");
		}
		if (!strncmp(line, "Total (", 7))
			total = 1;
		long rq, wq;
		if (total &&
		    sscanf(line, " Reads Queued: %ld, %*s Writes Queued: %ld,", &rq, &wq) == 2)
			queued = rq + wq;
	}
	fclose(f);
}

/* the real trace: as many records as Q lines and as blkparse's summary
 * says were queued, as many merges as M/F lines, in queue order */
static int test_real_trace_counts(void)
{
	CHECK(q > 0);
	CHECK_EQ(import(real, 0), 0);
	CHECK_EQ(nrecs, q);
	CHECK_EQ(nrecs, queued);
	CHECK_EQ(st.join.merged, merges);
	CHECK_EQ(st.bad, 0);
	size_t issued = 0, completed = 0, flushes = 0;
	for (size_t i = 0; i < nrecs; i++) {
		if (i)
			CHECK(recs[i].queue_ns >= recs[i - 1].queue_ns);
		issued += !!(recs[i].has & REEL_HAS_ISSUE);
		completed += !!(recs[i].has & REEL_HAS_COMPLETE);
		flushes += recs[i].op == REEL_OP_FLUSH;
		if (recs[i].has & REEL_HAS_COMPLETE)
			CHECK(recs[i].complete_ns >= recs[i].issue_ns);
	}
	CHECK_EQ(nrecs - issued, st.join.no_issue);
	CHECK_EQ(nrecs - completed, st.join.no_complete);
	CHECK(flushes > 0);
	printf("nvme0n1: %zu I/Os (%ld Q lines, blkparse summary %ld queued), %llu merged, "
	       "%zu flushes, %llu without issue, %llu without completion, %llu unmatched events\n",
	       nrecs, q, queued, (unsigned long long)st.join.merged, flushes,
	       (unsigned long long)st.join.no_issue, (unsigned long long)st.join.no_complete,
	       (unsigned long long)st.join.orphan_events);
	return 0;
}

/* the same lines split by CPU into two files: merged by time again */
static int test_real_split_by_cpu_merges_back(void)
{
	CHECK_EQ(import(real, 0), 0);
	static struct reel_rec whole[4096];
	size_t nwhole = nrecs;
	memcpy(whole, recs, nrecs * sizeof(recs[0]));
	char pa[700], pb[700], line[4096];
	snprintf(pa, sizeof(pa), "%s/even.txt", tmpdir);
	snprintf(pb, sizeof(pb), "%s/odd.txt", tmpdir);
	FILE *in = fopen(real, "r"), *fa = fopen(pa, "w"), *fb = fopen(pb, "w");
	CHECK(in && fa && fb);
	while (fgets(line, sizeof(line), in)) {
		int cpu;
		if (!strncmp(line, "CPU", 3))
			break; /* the summary */
		if (sscanf(line, "%*s %d", &cpu) == 1 && line[0] != '#')
			fputs(line, cpu % 2 ? fb : fa);
	}
	fclose(in);
	fclose(fa);
	fclose(fb);
	const char *two[] = {pb, pa};
	CHECK_EQ(import_n(two, 2, 0), 0);
	CHECK_EQ(nrecs, nwhole);
	for (size_t i = 0; i < nrecs; i++) {
		CHECK_EQ(recs[i].queue_ns, whole[i].queue_ns);
		CHECK_EQ(recs[i].issue_ns, whole[i].issue_ns);
		CHECK_EQ(recs[i].complete_ns, whole[i].complete_ns);
		CHECK_EQ(recs[i].offset, whole[i].offset);
		CHECK_EQ(recs[i].length, whole[i].length);
		CHECK_EQ(recs[i].flags, whole[i].flags);
	}
	return 0;
}

int main(void)
{
	CHECK(mkdtemp(tmpdir));
	atexit(cleanup);
	char cmd[700];

	CHECK(test_crafted_split_remap_error() == 0);
	CHECK(test_bad_lines_name_file_line() == 0);
	CHECK(test_line_too_long() == 0);

	const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
	snprintf(real, sizeof(real), "%s/traces/public/blkparse/nvme0n1.blktrace.txt", shared);
	if (access(real, R_OK)) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		CHECK_EQ(system(cmd), 0);
		SKIP("%s absent (crafted cases passed)", real);
	}
	count_real_lines();
	CHECK(test_real_trace_counts() == 0);
	CHECK(test_real_split_by_cpu_merges_back() == 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	CHECK_EQ(system(cmd), 0);
	return 0;
}
