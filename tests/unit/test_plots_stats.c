/* plots statistics on result-shaped .reel files written here: MB/s and IOPS
 * over the I/O span are exact, latency percentiles are within the
 * histogram's resolution of the exact (sorted) values, time buckets add up
 * to the totals, the in-flight integral matches the busy time, the issue
 * error is formats' histogram (as replay prints it), and runs
 * that differ only in replay.data are grouped for the "% of max" table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plots/plots.h"
#include "tests/unit/unit.h"

#define N 20000

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

struct truth {
	uint64_t bytes[2], ios[2];
	int64_t t0, t1;
	double busy_ns;
	struct reel_hist ie; /* issue - queue: what replay's issue_err holds */
	int64_t lat[N];
};

/* A replay result: writes slower for "random" (speed factor). */
static void write_result(const char *path, const char *data, double slow, struct truth *t)
{
	struct reel_device d0 = {
	    .id = 0, .name = "loop9", .lbs = 512, .pbs = 512, .capacity = 1ull << 30};
	struct reel_header h = {
	    .source = "replay", .source_detail = "unit", .devices = &d0, .ndevices = 1};
	struct reel_writer *w;
	CHECK_EQ(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE), 0);
	CHECK_EQ(reel_writer_meta_str(w, REEL_META_REPLAY_TRACE, "/tmp/x.reel"), 0);
	CHECK_EQ(reel_writer_meta_str(w, REEL_META_REPLAY_ENGINE, "libaio"), 0);
	CHECK_EQ(reel_writer_meta_str(w, REEL_META_REPLAY_QD, "4"), 0);
	CHECK_EQ(reel_writer_meta_str(w, REEL_META_REPLAY_TIMING, "afap"), 0);
	CHECK_EQ(reel_writer_meta_str(w, REEL_META_REPLAY_DATA, data), 0);
	CHECK_EQ(reel_writer_meta_str(w, REEL_META_REPLAY_TARGETS, "/dev/loop9"), 0);
	memset(t, 0, sizeof(*t));
	t->t0 = INT64_MAX;
	int64_t clock = 1000;
	for (uint64_t i = 0; i < N; i++) {
		struct reel_rec r = {0};
		r.has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE | REEL_HAS_DEV |
			REEL_HAS_ERROR;
		r.op = next() % 3 ? REEL_OP_READ : REEL_OP_WRITE;
		r.queue_ns = clock;
		r.issue_ns = clock + (int64_t)(next() % 3000);
		int64_t lat = 20000 + (int64_t)(next() % 200000);
		if (r.op == REEL_OP_WRITE)
			lat = (int64_t)((double)lat * slow);
		if (i % 100 == 0)
			lat *= 10; /* a tail */
		r.complete_ns = r.issue_ns + lat;
		r.offset = (next() % 100000) * 4096;
		r.length = (uint32_t)(4096u << (next() % 4));
		clock += 50000;
		CHECK_EQ(reel_write(w, &r), 0);
		int d = r.op == REEL_OP_READ ? 0 : 1;
		t->bytes[d] += r.length;
		t->ios[d]++;
		t->lat[i] = lat;
		reel_hist_add(&t->ie, (uint64_t)(r.issue_ns - r.queue_ns));
		t->busy_ns += (double)lat;
		if (r.issue_ns < t->t0)
			t->t0 = r.issue_ns;
		if (r.complete_ns > t->t1)
			t->t1 = r.complete_ns;
	}
	CHECK_EQ(reel_writer_meta_int(w, REEL_META_REPLAY_DURATION_NS, clock), 0);
	CHECK_EQ(reel_writer_close(w), 0);
}

static int near(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b) + 1e-9; }

int main(void)
{
	char dir[] = "/tmp/ioreel-plots-unit.XXXXXX";
	CHECK(mkdtemp(dir));
	char p1[256], p2[256];
	snprintf(p1, sizeof(p1), "%s/a.reel", dir);
	snprintf(p2, sizeof(p2), "%s/b.reel", dir);
	static struct truth t1, t2;
	write_result(p1, "ratio:2", 1.0, &t1);
	write_result(p2, "random", 1.5, &t2);

	const char *paths[] = {p1, p2};
	struct plots_run **runs;
	char err[1024] = "";
	int rc = plots_runs_load(&runs, paths, 2, 0, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "%s\n", err);
	CHECK_EQ(rc, 0);
	struct truth *tt[] = {&t1, &t2};
	for (int k = 0; k < 2; k++) {
		struct plots_run *r = runs[k];
		struct truth *t = tt[k];
		double span = (double)(t->t1 - t->t0) / 1e9;
		CHECK(r->is_replay && r->has_latency && r->has_issue_err && r->complete);
		CHECK_EQ(r->count, N);
		CHECK_EQ(r->op[PLOTS_READ].bytes, t->bytes[0]);
		CHECK_EQ(r->op[PLOTS_WRITE].ios, t->ios[1]);
		CHECK(near(r->op[PLOTS_READ].mbps, (double)t->bytes[0] / 1e6 / span, 1e-9));
		CHECK(near(r->op[PLOTS_WRITE].iops, (double)t->ios[1] / span, 1e-9));
		CHECK(near(r->mbps, (double)(t->bytes[0] + t->bytes[1]) / 1e6 / span, 1e-9));
		/* percentiles within the histogram's resolution (1/128) */
		qsort(t->lat, N, sizeof(t->lat[0]), cmp_i64);
		double qs[] = {0.5, 0.99, 0.999};
		for (int q = 0; q < 3; q++) {
			double exact = (double)t->lat[(size_t)ceil(qs[q] * N) - 1];
			double got = (double)reel_hist_quantile(&r->all.lat, qs[q]);
			if (!near(got, exact, 0.011))
				fprintf(stderr, "q%.3f: %.0f vs exact %.0f\n", qs[q], got, exact);
			CHECK(near(got, exact, 0.011));
		}
		/* the issue error: the one histogram, so the same percentiles as
		 * `ioreel replay` prints, to the ns */
		CHECK_EQ(r->issue_err.count, N);
		for (int q = 0; q < 3; q++)
			CHECK_EQ(reel_hist_quantile(&r->issue_err, qs[q]),
				 reel_hist_quantile(&t->ie, qs[q]));
		CHECK_EQ(r->issue_err.max, t->ie.max);
		/* latency over time: the buckets' histograms hold every I/O */
		uint64_t nlat = 0;
		for (size_t b = 0; b < r->nlatb; b++)
			nlat += r->lat_time[b].count;
		CHECK_EQ(nlat, N);
		/* buckets add up; in-flight integral = total busy time */
		uint64_t ios = 0, bytes = 0;
		double busy = 0;
		for (size_t b = 0; b < r->nbuckets; b++) {
			ios += r->buckets[b].ios[0] + r->buckets[b].ios[1];
			bytes += r->buckets[b].bytes[0] + r->buckets[b].bytes[1];
			busy += r->buckets[b].busy_ns;
		}
		CHECK_EQ(ios, N);
		CHECK_EQ(bytes, t->bytes[0] + t->bytes[1]);
		CHECK(near(busy, t->busy_ns, 1e-9));
		CHECK(r->npoints > 0 && r->npoints <= PLOTS_MAP_POINTS + 1);
		CHECK(strstr(r->label, "loop9") && strstr(r->label, "qd4") &&
		      strstr(r->label, "libaio"));
	}
	CHECK(strstr(runs[0]->label, "ratio:2") && strstr(runs[1]->label, "random"));
	CHECK_EQ(runs[0]->interval_ns, runs[1]->interval_ns);

	/* grouped by data mode: the JSON names both modes with their % of max */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	plots_compare_json(m, runs, 2);
	fclose(m);
	CHECK(strstr(buf, "\"data_mode\": [\n    {"));
	CHECK(strstr(buf, "\"mode\": \"ratio:2\""));
	CHECK(strstr(buf, "\"mode\": \"random\""));
	CHECK(strstr(buf, "\"qd_scaling\": [\n  ]"));
	free(buf);
	m = open_memstream(&buf, &len);
	plots_compare_text(m, runs, 2);
	fclose(m);
	CHECK(strstr(buf, "random % of max"));
	free(buf);

	/* the renders, when gnuplot is here */
	if (!getenv("IOREEL_PLOTS")) {
		char cwd[4096], pd[4200];
		CHECK(getcwd(cwd, sizeof(cwd)));
		snprintf(pd, sizeof(pd), "%s/plots", cwd);
		setenv("IOREEL_PLOTS", pd, 1);
	}
	if (system("gnuplot --version >/dev/null 2>&1") == 0) {
		char od[300];
		snprintf(od, sizeof(od), "%s/out", dir);
		struct plots_output outs[16];
		size_t nouts = 0;
		rc = plots_render_all(runs, 2, od, PLOTS_SVG, outs, 16, &nouts, err, sizeof(err));
		if (rc < 0)
			fprintf(stderr, "%s\n", err);
		CHECK_EQ(rc, 0);
		CHECK_EQ(nouts, 6); /* afap: no issue-error plot */
	}
	plots_runs_free(runs, 2);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (!getenv("PLOTS_KEEP"))
		CHECK(system(cmd) == 0);
	return 0;
}
