/*
 * The blktrace importer on the shared real trace (v7, little endian, two
 * per-CPU files, sda under dm and a partition):
 *  - one record per queued bio: as many records as blkparse itself counts
 *    Q events (run here), sorted by queue time, issue/complete consistent;
 *  - the same records from the base name, from the files, from a piped
 *    stream (the CPUs' records interleaved in chunks), and from the trace
 *    rewritten as version 8 (blk_io_trace2) and big endian (v7 and v8);
 *  - the same records from blkparse's own text output of that trace
 *    through the blkparse importer;
 *  - bad input: a corrupt magic and a cut-short file name the file and
 *    byte offset; --skip-bad counts and goes on; detection scores.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

/* import.c refers to importers weakly: take ours out of the library */
extern const struct reel_importer reel_imp_blktrace, reel_imp_blkparse;
__attribute__((used)) static const struct reel_importer *const keep[] = {&reel_imp_blktrace,
									 &reel_imp_blkparse};

static char tmpdir[] = "/tmp/ioreel-test-blktrace.XXXXXX";
static int64_t start_ns, start_meta; /* of the last import */

struct recs {
	struct reel_rec *r;
	char (*comm)[32];
	size_t n;
	struct reel_import_stats st;
};

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	CHECK(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc((size_t)n + 1);
	CHECK(b && fread(b, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void spill(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f && fwrite(b, 1, n, f) == n);
	fclose(f);
}

/* Import paths with importer name; rc and errmsg returned. */
static int import(const char *name, const char **paths, size_t n, unsigned skip_bad,
		  struct recs *out, char *err, size_t errlen)
{
	const struct reel_importer *imp = reel_importer_find(name);
	CHECK(imp);
	char path[256];
	snprintf(path, sizeof(path), "%s/out.reel", tmpdir);
	struct reel_header h = {.source = "test"};
	struct reel_writer *w;
	CHECK_EQ(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE), 0);
	struct reel_import_opts o = {.skip_bad = skip_bad, .lba_size = 512};
	memset(&out->st, 0, sizeof(out->st));
	free(out->r);
	free(out->comm);
	out->r = NULL;
	out->comm = NULL;
	out->n = 0;
	int rc = imp->run(paths, n, &o, w, &out->st, err, errlen);
	if (rc) {
		reel_writer_destroy(w);
		return rc;
	}
	CHECK_EQ(reel_writer_close(w), 0);
	struct reel_reader *r;
	CHECK_EQ(reel_reader_open(&r, path, 0), 0);
	start_ns = reel_reader_header(r)->start_unix_ns;
	const struct reel_meta *m = reel_reader_meta(r, REEL_META_BLKTRACE_START_UNIX_NS);
	start_meta = m ? m->i : -1;
	size_t cap = 1024;
	out->r = malloc(cap * sizeof(*out->r));
	out->comm = malloc(cap * sizeof(*out->comm));
	out->n = 0;
	int k;
	while ((k = reel_read(r, &out->r[out->n])) == 1) {
		const char *c = reel_reader_comm(r, out->r[out->n].comm);
		snprintf(out->comm[out->n], 32, "%s", c ? c : "");
		if (++out->n == cap) {
			cap *= 2;
			out->r = realloc(out->r, cap * sizeof(*out->r));
			out->comm = realloc(out->comm, cap * sizeof(*out->comm));
		}
	}
	CHECK_EQ(k, 0);
	reel_reader_close(r);
	return 0;
}

static void same(const struct recs *a, const struct recs *b)
{
	CHECK_EQ(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct reel_rec *x = &a->r[i], *y = &b->r[i];
		CHECK_EQ(x->queue_ns, y->queue_ns);
		CHECK_EQ(x->issue_ns, y->issue_ns);
		CHECK_EQ(x->complete_ns, y->complete_ns);
		CHECK_EQ(x->offset, y->offset);
		CHECK_EQ(x->length, y->length);
		CHECK_EQ(x->op, y->op);
		CHECK_EQ(x->flags, y->flags);
		CHECK_EQ(x->has, y->has);
		CHECK_EQ(x->pid, y->pid);
		CHECK_EQ(x->cpu, y->cpu);
		CHECK_EQ(x->error, y->error);
		CHECK_EQ(x->dev, y->dev);
		CHECK(!strcmp(a->comm[i], b->comm[i]));
	}
}

static uint32_t sw32(uint32_t v) { return __builtin_bswap32(v); }
static uint64_t sw64(uint64_t v) { return __builtin_bswap64(v); }
static uint16_t sw16(uint16_t v) { return __builtin_bswap16(v); }

/* Rewrite a v7 little-endian trace as version 8 and/or big endian. */
static unsigned char *convert(const unsigned char *in, size_t len, int v8, int be, size_t *outlen)
{
	unsigned char *out = malloc(len * 2 + 64);
	size_t o = 0, i = 0;
	CHECK(out);
	while (i + 48 <= len) {
		uint32_t magic, seq, bytes, action, pid, dev, cpu;
		uint64_t time, sector;
		uint16_t err, pdu;
		memcpy(&magic, in + i, 4);
		memcpy(&seq, in + i + 4, 4);
		memcpy(&time, in + i + 8, 8);
		memcpy(&sector, in + i + 16, 8);
		memcpy(&bytes, in + i + 24, 4);
		memcpy(&action, in + i + 28, 4);
		memcpy(&pid, in + i + 32, 4);
		memcpy(&dev, in + i + 36, 4);
		memcpy(&cpu, in + i + 40, 4);
		memcpy(&err, in + i + 44, 2);
		memcpy(&pdu, in + i + 46, 2);
		CHECK_EQ(magic, 0x65617407u);
		CHECK(i + 48 + pdu <= len);
		uint32_t m = v8 ? 0x65617408u : magic;
		uint64_t act64 = action;
		if (be) {
			m = sw32(m), seq = sw32(seq), time = sw64(time), sector = sw64(sector);
			bytes = sw32(bytes), action = sw32(action), pid = sw32(pid),
			dev = sw32(dev);
			cpu = sw32(cpu), err = sw16(err);
			act64 = sw64(act64);
		}
		uint16_t pdu_out = be ? sw16(pdu) : pdu;
		memcpy(out + o, &m, 4);
		memcpy(out + o + 4, &seq, 4);
		memcpy(out + o + 8, &time, 8);
		memcpy(out + o + 16, &sector, 8);
		memcpy(out + o + 24, &bytes, 4);
		if (v8) {
			memcpy(out + o + 28, &pid, 4);
			memcpy(out + o + 32, &act64, 8);
			memcpy(out + o + 40, &dev, 4);
			memcpy(out + o + 44, &cpu, 4);
			memcpy(out + o + 48, &err, 2);
			memcpy(out + o + 50, &pdu_out, 2);
			memset(out + o + 52, 0, 12);
			o += 64;
		} else {
			memcpy(out + o + 28, &action, 4);
			memcpy(out + o + 32, &pid, 4);
			memcpy(out + o + 36, &dev, 4);
			memcpy(out + o + 40, &cpu, 4);
			memcpy(out + o + 44, &err, 2);
			memcpy(out + o + 46, &pdu_out, 2);
			o += 48;
		}
		memcpy(out + o, in + i + 48, pdu);
		/* a timestamp notify carries two native u32 */
		if (be && (action == sw32(0x04000001u)) && pdu >= 8) {
			uint32_t a, b;
			memcpy(&a, out + o, 4);
			memcpy(&b, out + o + 4, 4);
			a = sw32(a), b = sw32(b);
			memcpy(out + o, &a, 4);
			memcpy(out + o + 4, &b, 4);
		}
		o += pdu;
		i += 48 + pdu;
	}
	*outlen = o;
	return out;
}

/* Byte offsets of the records of a v7 trace. */
static size_t record_offsets(const unsigned char *b, size_t len, size_t *offs, size_t max)
{
	size_t n = 0, i = 0;
	while (i + 48 <= len && n < max) {
		uint16_t pdu;
		memcpy(&pdu, b + i + 46, 2);
		offs[n++] = i;
		i += 48 + pdu;
	}
	return n;
}

/* Interleave two CPUs' records in chunks of period ns (CPU 1's chunk first when
 * first1) into tmpdir/piped; returns the bytes written, path in p. */
static size_t piped_stream(const unsigned char *b0, size_t l0, const unsigned char *b1, size_t l1,
			   int first1, uint64_t period, char *p, size_t plen)
{
	static size_t o0[100000], o1[100000]; /* record offsets */
	size_t n0 = record_offsets(b0, l0, o0, 100000), n1 = record_offsets(b1, l1, o1, 100000);
	unsigned char *st = malloc(l0 + l1);
	size_t sl = 0, i[2] = {0, 0};
	const unsigned char *bb[2] = {b0, b1};
	const size_t *oo[2] = {o0, o1}, nn[2] = {n0, n1}, ll[2] = {l0, l1};
	uint64_t t0, t1, tc;
	memcpy(&t0, b0 + 8, 8);
	memcpy(&t1, b1 + 8, 8);
	CHECK(st);
	for (tc = (t0 < t1 ? t0 : t1) + period; i[0] < n0 || i[1] < n1; tc += period) {
		for (int k = 0; k < 2; k++) {
			int c = first1 ? 1 - k : k;
			for (; i[c] < nn[c]; i[c]++) {
				uint64_t t;
				memcpy(&t, bb[c] + oo[c][i[c]] + 8, 8);
				if (t >= tc)
					break;
				size_t e = i[c] + 1 < nn[c] ? oo[c][i[c] + 1] : ll[c];
				memcpy(st + sl, bb[c] + oo[c][i[c]], e - oo[c][i[c]]);
				sl += e - oo[c][i[c]];
			}
		}
	}
	snprintf(p, plen, "%s/piped%d-%llu", tmpdir, first1, (unsigned long long)period);
	spill(p, st, sl);
	free(st);
	return sl;
}

/* the scratch directory goes even when a check fails (exit) */
static void cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpdir);
}

/* the shared trace: base name and its two per-CPU files, read into b0/b1 */
static char base[512], f0[600], f1[600];
static unsigned char *b0, *b1;
static size_t l0, l1;
static long q_blkparse = -1; /* blkparse's own count of Q events, -1 if not run */
static struct recs ref, r;   /* the records from the base name; of the last case */
static char err[1024];

/* blkparse's own count of Q events */
static void count_q_with_blkparse(void)
{
	char cmd[1500];
	snprintf(cmd, sizeof(cmd), "blkparse -q -i '%s' -f '%%a\\n' 2>/dev/null", base);
	FILE *bp = popen(cmd, "r");
	if (bp) {
		char line[256];
		q_blkparse = 0;
		while (fgets(line, sizeof(line), bp))
			q_blkparse += !strcmp(line, "Q\n");
		if (pclose(bp))
			q_blkparse = -1;
	}
}

/* the base name: one record per queued bio, sorted by queue time, issue and
 * complete consistent, time zero dated by the trace's TIMESTAMP notify */
static int test_base_name_one_record_per_q(void)
{
	const char *pb[] = {base};
	CHECK_EQ(import("blktrace", pb, 1, 0, &ref, err, sizeof(err)), 0);
	CHECK(ref.n > 0);
	if (q_blkparse >= 0)
		CHECK_EQ(ref.n, q_blkparse);
	else
		printf("blkparse not runnable: Q count not cross-checked\n");
	CHECK_EQ(ref.st.records, ref.n);
	CHECK(ref.st.lines > ref.n);
	CHECK_EQ(ref.st.bad, 0);
	CHECK_EQ(ref.st.join.orphan_events, 0);
	uint64_t complete = 0, issued = 0;
	for (size_t i = 0; i < ref.n; i++) {
		const struct reel_rec *x = &ref.r[i];
		CHECK(x->has & REEL_HAS_QUEUE);
		CHECK(x->has & REEL_HAS_DEV);
		CHECK_EQ(x->dev, 0);
		CHECK(x->length > 0 && x->offset % 512 == 0);
		if (i)
			CHECK(x->queue_ns >= ref.r[i - 1].queue_ns);
		if (x->has & REEL_HAS_ISSUE) {
			issued++;
			CHECK(x->issue_ns >= x->queue_ns);
		}
		if (x->has & REEL_HAS_COMPLETE) {
			complete++;
			CHECK(x->complete_ns >= x->issue_ns);
		}
		CHECK(ref.comm[i][0]);
	}
	/* the trace's TIMESTAMP notify dates time zero */
	CHECK(start_ns > 1000000000ll * 1000000000ll); /* after 2001 */
	CHECK_EQ(start_ns, start_meta);
	CHECK_EQ(ref.n - issued, ref.st.join.no_issue);
	CHECK_EQ(ref.n - complete, ref.st.join.no_complete);
	printf("sda: %zu I/Os (blkparse: %ld Q), %llu merged, %llu remapped, %llu without issue, "
	       "%llu without completion\n",
	       ref.n, q_blkparse, (unsigned long long)ref.st.join.merged,
	       (unsigned long long)ref.st.join.remapped, (unsigned long long)ref.st.join.no_issue,
	       (unsigned long long)ref.st.join.no_complete);
	return 0;
}

/* the files themselves, in either order */
static int test_files_in_either_order(void)
{
	const char *pf[] = {f1, f0};
	CHECK_EQ(import("blktrace", pf, 2, 0, &r, err, sizeof(err)), 0);
	same(&ref, &r);
	return 0;
}

/* a piped stream: as blktrace -o - writes it, each CPU's records in
 * chunks as its buffer is drained (here every 0.5 s of trace time);
 * either CPU's chunk first: the stream's first chunk may hold the
 * issues and completions of I/Os another CPU queued */
static int test_piped_stream(void)
{
	char p[700];
	for (int first1 = 0; first1 < 4; first1++) {
		/* 0.5 s chunks, then CPU 1 first in 0.5 s and 1.5 s chunks */
		uint64_t period = first1 == 3 ? 1500000000ull : 500000000ull;
		size_t sl =
		    piped_stream(b0, l0, b1, l1, first1 & 1 || first1 == 2, period, p, sizeof(p));
		CHECK_EQ(sl, l0 + l1);
		const char *pp[] = {p};
		CHECK_EQ(import("blktrace", pp, 1, 0, &r, err, sizeof(err)), 0);
		same(&ref, &r);
	}
	return 0;
}

/* version 8 and big endian, per-CPU files under a new base name */
static int test_v8_and_big_endian(void)
{
	for (int v = 0; v < 3; v++) {
		int v8 = v != 1, be = v != 0;
		size_t c0, c1;
		unsigned char *x0 = convert(b0, l0, v8, be, &c0),
			      *x1 = convert(b1, l1, v8, be, &c1);
		char nb[600], nf[700];
		snprintf(nb, sizeof(nb), "%s/v%d%s", tmpdir, v8 ? 8 : 7, be ? "be" : "le");
		snprintf(nf, sizeof(nf), "%s.blktrace.0", nb);
		spill(nf, x0, c0);
		snprintf(nf, sizeof(nf), "%s.blktrace.1", nb);
		spill(nf, x1, c1);
		const struct reel_importer *imp = reel_importer_find("blktrace");
		CHECK_EQ(imp->detect(x0, c0, nf), 100);
		const char *pv[] = {nb};
		int64_t s0 = start_ns;
		CHECK_EQ(import("blktrace", pv, 1, 0, &r, err, sizeof(err)), 0);
		same(&ref, &r);
		CHECK_EQ(start_ns, s0);
		free(x0);
		free(x1);
	}
	return 0;
}

/* blkparse's text of the same trace, through the blkparse importer */
static int test_blkparse_text_same_records(void)
{
	char p[700], cmd[1500];
	snprintf(p, sizeof(p), "%s/sda.txt", tmpdir);
	snprintf(cmd, sizeof(cmd), "blkparse -i '%s' > '%s' 2>/dev/null", base, p);
	if (q_blkparse >= 0 && !system(cmd)) {
		const char *pt[] = {p};
		size_t tl;
		unsigned char *tb = slurp(p, &tl);
		CHECK(reel_importer_find("blkparse")->detect(tb, tl < 65536 ? tl : 65536, p) >= 90);
		CHECK_EQ(reel_importer_find("blktrace")->detect(tb, tl < 65536 ? tl : 65536, p), 0);
		free(tb);
		CHECK_EQ(import("blkparse", pt, 1, 0, &r, err, sizeof(err)), 0);
		same(&ref, &r);
		CHECK_EQ(r.st.join.merged, ref.st.join.merged);
	}
	CHECK_EQ(reel_importer_find("blkparse")->detect(b0, l0, f0), 0);
	return 0;
}

/* the record offsets of CPU 0's file (too many for the stack) */
static size_t o0[100000];

/* bad input: a corrupt magic in the middle of a file */
static int test_corrupt_magic_names_byte(void)
{
	char p[700];
	const char *pbad[] = {p};
	unsigned char *bad = malloc(l0);
	memcpy(bad, b0, l0);
	size_t n0 = record_offsets(b0, l0, o0, 100000);
	size_t at = o0[n0 / 2];
	bad[at] ^= 0x5a;
	snprintf(p, sizeof(p), "%s/bad.blktrace.0", tmpdir);
	spill(p, bad, l0);
	CHECK(import("blktrace", pbad, 1, 0, &r, err, sizeof(err)) < 0);
	char want[64];
	snprintf(want, sizeof(want), "byte %zu:", at);
	CHECK(strstr(err, p) && strstr(err, want));
	CHECK_EQ(import("blktrace", pbad, 1, 1, &r, err, sizeof(err)), 0);
	CHECK_EQ(r.st.bad, 1);
	CHECK_EQ(r.st.lines, n0 - 1); /* only the bad record is lost */
	free(bad);
	return 0;
}

/* a file cut short in the middle of a record */
static int test_cut_short_names_byte(void)
{
	char p[700];
	const char *pbad[] = {p};
	size_t n0 = record_offsets(b0, l0, o0, 100000);
	snprintf(p, sizeof(p), "%s/bad.blktrace.0", tmpdir);
	spill(p, b0, o0[n0 - 3] + 20);
	CHECK(import("blktrace", pbad, 1, 0, &r, err, sizeof(err)) < 0);
	char want[64];
	snprintf(want, sizeof(want), "byte %zu:", o0[n0 - 3]);
	CHECK(strstr(err, want) && strstr(err, "cut short"));
	CHECK_EQ(import("blktrace", pbad, 1, 1, &r, err, sizeof(err)), 0);
	CHECK_EQ(r.st.bad, 1);
	CHECK_EQ(r.st.lines, n0 - 3);
	return 0;
}

/* not a trace at all; a missing input */
static int test_not_a_trace_and_missing_input(void)
{
	char p[700];
	const char *pbad[] = {p};
	snprintf(p, sizeof(p), "%s/bad.blktrace.0", tmpdir);
	spill(p, "hello, world\n", 13);
	CHECK(import("blktrace", pbad, 1, 0, &r, err, sizeof(err)) < 0);
	CHECK(strstr(err, "byte 0:"));
	snprintf(p, sizeof(p), "%s/nothing", tmpdir);
	CHECK(import("blktrace", pbad, 1, 0, &r, err, sizeof(err)) < 0);
	CHECK(strstr(err, "nothing"));
	return 0;
}

int main(void)
{
	const char *shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
	snprintf(base, sizeof(base), "%s/traces/public/blktrace/sda", shared);
	snprintf(f0, sizeof(f0), "%s.blktrace.0", base);
	snprintf(f1, sizeof(f1), "%s.blktrace.1", base);
	if (access(f0, R_OK) || access(f1, R_OK))
		SKIP("%s absent", f0);
	CHECK(mkdtemp(tmpdir));
	atexit(cleanup);
	count_q_with_blkparse();
	b0 = slurp(f0, &l0);
	b1 = slurp(f1, &l1);

	CHECK(test_base_name_one_record_per_q() == 0);
	CHECK(test_files_in_either_order() == 0);
	CHECK(test_piped_stream() == 0);
	CHECK(test_v8_and_big_endian() == 0);
	CHECK(test_blkparse_text_same_records() == 0);
	CHECK(test_corrupt_magic_names_byte() == 0);
	CHECK(test_cut_short_names_byte() == 0);
	CHECK(test_not_a_trace_and_missing_input() == 0);

	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	CHECK_EQ(system(cmd), 0);
	free(b0);
	free(b1);
	free(ref.r), free(ref.comm), free(r.r), free(r.comm);
	printf("blktrace import: all cases pass\n");
	return 0;
}
