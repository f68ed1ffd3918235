/*
 * tests/bench/replay_helper.c - helpers for tests/bench/replay.sh:
 *
 *   fiolog TRACE.reel OUT.log FILENAME   fio iolog v3 (timestamps in us) of
 *                                        the trace's reads and writes
 *   issueerr TRACE.reel KTRACE.txt SPEED  match block_rq_issue events (text
 *       from tracefs, mono clock) to the trace's I/Os by sector and print
 *       the kernel-side issue error percentiles: err = (k - s) - min(k - s);
 *       jitter_p99 = p99 of err minus its median; first_late = the first
 *       scheduled I/O's (k - s) minus the median (k - s) of the I/Os
 *       scheduled 10-110 ms after it (all of them when fewer than 10): how
 *       late it went out against where the schedule settled; an I/O whose
 *       sector was issued more than once (the replay's reads before time
 *       zero: the safety probe, the warm-up read) counts its last issue
 *   datagen                              achieved LZ4 ratio per R and size,
 *       generation GB/s, and memcpy GB/s as the anchor
 *   lz4ratio FILE BS                     LZ4 ratio of FILE cut in BS blocks
 */
#include <errno.h>
#include <lz4.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

static int fiolog(const char *in, const char *out, const char *fname)
{
	struct reel_reader *r;
	if (reel_reader_open(&r, in, 0) < 0) {
		fprintf(stderr, "%s: cannot read\n", in);
		return 1;
	}
	FILE *f = fopen(out, "w");
	if (!f)
		return 1;
	static char buf[1 << 20];
	setvbuf(f, buf, _IOFBF, sizeof(buf));
	fprintf(f, "fio version 3 iolog\n0 %s add\n0 %s open\n", fname, fname);
	const struct reel_rec *v;
	long n;
	int64_t t0 = -1, last = 0;
	while ((n = reel_read_chunk(r, &v)) > 0) {
		for (long i = 0; i < n; i++) {
			if (v[i].op != REEL_OP_READ && v[i].op != REEL_OP_WRITE)
				continue;
			if (t0 < 0)
				t0 = v[i].queue_ns;
			last = (v[i].queue_ns - t0) / 1000;
			fprintf(f, "%lld %s %s %llu %u\n", (long long)last, fname,
				v[i].op == REEL_OP_READ ? "read" : "write",
				(unsigned long long)v[i].offset, v[i].length);
		}
	}
	fprintf(f, "%lld %s close\n", (long long)last, fname);
	reel_reader_close(r);
	return fclose(f) != 0;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

struct ent {
	uint64_t sector;
	int64_t t;
	int64_t k; /* its event's index in d[], -1 before one matched */
};
static int cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	return x->sector < y->sector ? -1 : x->sector > y->sector;
}

static int issueerr(const char *in, const char *ktrace, double speed)
{
	struct reel_reader *r;
	if (reel_reader_open(&r, in, 0) < 0)
		return 1;
	size_t cap = 1 << 16, ns = 0;
	struct ent *s = malloc(cap * sizeof(*s));
	struct reel_rec rec;
	int64_t t0 = -1;
	while (reel_read(r, &rec) == 1) {
		if (t0 < 0)
			t0 = rec.queue_ns;
		if (ns == cap)
			s = realloc(s, (cap *= 2) * sizeof(*s));
		s[ns++] =
		    (struct ent){rec.offset / 512, (int64_t)((rec.queue_ns - t0) / speed), -1};
	}
	reel_reader_close(r);
	qsort(s, ns, sizeof(*s), cmp_ent);
	FILE *f = fopen(ktrace, "r");
	if (!f)
		return 1;
	char line[1024];
	size_t nk = 0, kcap = 1 << 16;
	int64_t *d = malloc(kcap * sizeof(*d));
	int64_t first_t = INT64_MAX, first_d = 0;
	int64_t *ts_of = malloc(kcap * sizeof(*ts_of)); /* schedule time of each match */
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "block_rq_issue:");
		if (!p)
			continue;
		/* "... 1234.567890: block_rq_issue: 7,0 R 4096 () 123456 + 8 ..." */
		char *colon = p - 2;
		while (colon > line && *colon != ' ')
			colon--;
		double ts = atof(colon + 1);
		char *plus = strstr(p, " + ");
		if (!plus)
			continue;
		char *q = plus - 1;
		while (q > p && *q != ' ')
			q--;
		uint64_t sector = strtoull(q + 1, NULL, 10);
		struct ent key = {sector, 0, -1};
		struct ent *e = bsearch(&key, s, ns, sizeof(*s), cmp_ent);
		if (!e)
			continue;
		int64_t dk = (int64_t)llround(ts * 1e9) - e->t;
		if (e->k >= 0) { /* matched before: the replay's issue is the last */
			d[e->k] = dk;
			if (e->t == first_t)
				first_d = dk;
			continue;
		}
		e->k = (int64_t)nk;
		if (nk == kcap) {
			kcap *= 2;
			d = realloc(d, kcap * sizeof(*d));
			ts_of = realloc(ts_of, kcap * sizeof(*ts_of));
		}
		ts_of[nk] = e->t;
		d[nk] = dk;
		if (e->t < first_t) {
			first_t = e->t;
			first_d = d[nk];
		}
		nk++;
	}
	fclose(f);
	if (!nk) {
		fprintf(stderr, "no block_rq_issue events matched\n");
		return 1;
	}
	/* the settled offset: I/Os scheduled 10-110 ms after the first */
	int64_t *early = malloc(nk * sizeof(*early));
	size_t ne = 0;
	for (size_t i = 0; i < nk; i++)
		if (ts_of[i] >= first_t + 10000000 && ts_of[i] < first_t + 110000000)
			early[ne++] = d[i];
	qsort(d, nk, sizeof(*d), cmp64);
	int64_t settled = d[(nk + 1) / 2 - 1];
	if (ne >= 10) {
		qsort(early, ne, sizeof(*early), cmp64);
		settled = early[(ne + 1) / 2 - 1];
	}
	free(early);
	free(ts_of);
	int64_t off = d[0];
	printf("matched=%zu of %zu\n", nk, ns);
	static const double qs[] = {0.5, 0.9, 0.99, 0.999, 1};
	static const char *const qn[] = {"p50", "p90", "p99", "p99.9", "max"};
	for (int i = 0; i < 5; i++) {
		size_t k = (size_t)ceil(qs[i] * (double)nk);
		printf("%s_us=%.1f\n", qn[i], (double)(d[k ? k - 1 : 0] - off) / 1e3);
	}
	int64_t med = d[(nk + 1) / 2 - 1], p99 = d[(size_t)ceil(0.99 * (double)nk) - 1];
	printf("jitter_p99_us=%.1f\nfirst_late_us=%.1f\n", (double)(p99 - med) / 1e3,
	       (double)(first_d - settled) / 1e3);
	free(d);
	free(s);
	return 0;
}

#include <time.h>
/* CPU time of this thread: "GB/s per core" on a shared machine */
static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int datagen(void)
{
	const size_t total = 1u << 30;
	unsigned char *buf = aligned_alloc(4096, 1 << 20), *src = aligned_alloc(4096, 1 << 20);
	memset(src, 7, 1 << 20);
	/* anchor: memcpy of the same sizes */
	double t = now_s();
	for (size_t done = 0; done < total; done += 1 << 20)
		memcpy(buf, src + (done & 4096), (1 << 20) - 4096);
	double memcpy_gbs = (double)total / (now_s() - t) / 1e9;
	printf("memcpy_gbs=%.2f\n", memcpy_gbs);
	static const double Rs[] = {1, 1.5, 2, 3, 4, 5, 8, 10, 15, 20};
	static const size_t sz[] = {4096, 16384, 65536, 262144, 1048576};
	double worst = 0, slowest = 1e9;
	for (size_t i = 0; i < sizeof(Rs) / sizeof(Rs[0]); i++) {
		char spec[32], err[128];
		struct replay_data_spec ds;
		snprintf(spec, sizeof(spec), "ratio:%g", Rs[i]);
		replay_data_parse(spec, &ds, err, sizeof(err));
		struct replay_datagen *g;
		replay_datagen_create(&g, &ds);
		for (size_t j = 0; j < sizeof(sz) / sizeof(sz[0]); j++) {
			double in = 0, out = 0;
			for (int k = 0; k < 32; k++) {
				replay_datagen_fill(g, buf, sz[j], (uint64_t)k * sz[j], 0,
						    (uint64_t)k * 7919);
				double r = replay_lz4_ratio(buf, sz[j]);
				in += (double)sz[j];
				out += (double)sz[j] / r;
			}
			double ratio = in / out;
			t = now_s();
			uint64_t seq = 0;
			for (size_t done = 0; done < total / 4; done += sz[j])
				replay_datagen_fill(g, buf, sz[j], done, 0, seq++);
			double gbs = (double)(total / 4) / (now_s() - t) / 1e9;
			printf("ratio R=%g size=%zu achieved=%.4f err_pct=%.2f gen_gbs=%.2f\n",
			       Rs[i], sz[j], ratio, 100 * (ratio / Rs[i] - 1), gbs);
			if (fabs(ratio / Rs[i] - 1) > worst)
				worst = fabs(ratio / Rs[i] - 1);
			if (gbs < slowest)
				slowest = gbs;
		}
		replay_datagen_destroy(g);
	}
	printf("worst_err_pct=%.2f\nslowest_gen_gbs=%.2f\n", 100 * worst, slowest);
	free(buf);
	free(src);
	return 0;
}

static int lz4ratio(const char *path, size_t bs)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 1;
	unsigned char *b = malloc(bs);
	double in = 0, out = 0;
	while (fread(b, 1, bs, f) == bs) {
		double r = replay_lz4_ratio(b, bs);
		in += (double)bs;
		out += (double)bs / r;
	}
	fclose(f);
	free(b);
	printf("%.4f\n", out > 0 ? in / out : 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "fiolog"))
		return fiolog(argv[2], argv[3], argv[4]);
	if (argc == 5 && !strcmp(argv[1], "issueerr"))
		return issueerr(argv[2], argv[3], atof(argv[4]));
	if (argc == 2 && !strcmp(argv[1], "datagen"))
		return datagen();
	if (argc == 4 && !strcmp(argv[1], "lz4ratio"))
		return lz4ratio(argv[2], strtoul(argv[3], NULL, 10));
	fprintf(stderr, "usage: replay_helper fiolog|issueerr|datagen|lz4ratio ...\n");
	return 2;
}
