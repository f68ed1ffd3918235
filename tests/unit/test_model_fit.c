/*
 * test_model_fit: fit a model from a bursty, local synthetic workload, generate
 * from it and compare; the naive model must fail the same comparison.  Also:
 * the same seed gives the same trace, scaling by rate, duration and capacity,
 * MODEL.json round trip, the reader's refusals (field paths, lines), and a
 * knot searched in a narrowed range (the same as the whole search), the
 * inverse CDF the same as its plain form.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit_model.h"

static uint64_t rs = 88172645463325252ull;
static double urand(void) { return unit_urand(&rs); }

/* On/off bursts with lognormal gaps; three hot regions with sequential runs. */
static void make_trace(struct model_trace *tr, size_t n)
{
	memset(tr, 0, sizeof(*tr));
	tr->ndev = 1;
	tr->devs[0].id = 0;
	strcpy(tr->devs[0].name, "test0");
	tr->devs[0].capacity = 8ull << 30;
	int64_t t = 0;
	uint64_t cursor = 0;
	int run = 0, op = 0;
	static const uint64_t hot[3] = {100ull << 20, 3ull << 30, 7ull << 30};
	for (size_t i = 0; i < n; i++) {
		if (i % 500 == 0) /* an idle period between bursts */
			t += (int64_t)(2e8 * urand());
		double z = sqrt(-2 * log(urand() + 1e-12)) * cos(2 * M_PI * urand());
		t += (int64_t)exp(10.5 + 1.3 * z);
		if (run <= 0) {
			run = 1 + (int)(-log(urand() + 1e-12) * 6);
			op = urand() < 0.7 ? REEL_OP_READ : REEL_OP_WRITE;
			cursor = hot[(int)(urand() * 3) % 3] + (uint64_t)(urand() * 64) * (1 << 20);
		}
		struct reel_rec r = {0};
		r.queue_ns = t;
		r.op = (uint8_t)op;
		r.length =
		    urand() < 0.6 ? 4096 : (urand() < 0.5 ? 65536 : 4096u << (int)(urand() * 4));
		r.offset = cursor;
		r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
		cursor += r.length;
		run--;
		CHECK(model_trace_push(tr, &r) == 0);
	}
	CHECK(model_trace_sort(tr) == 0);
}

/* the model reproduces the trace; the naive model does not */
static void test_fidelity(const struct model_trace *a, const struct model *m,
			  const struct model *naive)
{
	struct model_gen_opts go = {0, 1, 0, 1, 0};
	struct model_trace b, c;
	unit_model_gen(m, &go, &b);
	struct model_cmp r;
	CHECK(model_compare(a, &b, &r) == 0);
	fprintf(stderr, "model: ks size %.4f gap %.4f jump %.4f run %.4f read %.4f/%.4f b %.4f\n",
		r.ks_size, r.ks_gap, r.ks_jump, r.ks_run, r.read_a, r.read_b, r.bmodel_diff);
	CHECK(r.ks_size <= 0.05);
	CHECK(r.ks_gap <= 0.05);
	CHECK(r.ks_jump <= 0.05);
	CHECK(fabs(r.read_a - r.read_b) <= 0.01);
	CHECK(r.bmodel_diff <= 0.02);
	unit_model_gen(naive, &go, &c);
	struct model_cmp rn;
	CHECK(model_compare(a, &c, &rn) == 0);
	fprintf(stderr, "naive: ks size %.4f gap %.4f jump %.4f run %.4f b %.4f\n", rn.ks_size,
		rn.ks_gap, rn.ks_jump, rn.ks_run, rn.bmodel_diff);
	CHECK(rn.ks_gap > 0.05 && rn.ks_jump > 0.05 && rn.bmodel_diff > 0.02);
	model_trace_free(&b);
	model_trace_free(&c);
}

/* same seed, same trace; another seed, another trace */
static void test_determinism(const struct model *m)
{
	struct model_gen_opts go = {0, 1, 0, 1, 0};
	struct model_trace b, b2, b3;
	unit_model_gen(m, &go, &b);
	unit_model_gen(m, &go, &b2);
	CHECK_EQ(b.n, b2.n);
	CHECK(!memcmp(b.t, b2.t, b.n * sizeof(*b.t)) &&
	      !memcmp(b.off, b2.off, b.n * sizeof(*b.off)));
	go.seed = 2;
	unit_model_gen(m, &go, &b3);
	CHECK(b3.n != b.n || memcmp(b.off, b3.off, b.n * sizeof(*b.off)));
	model_trace_free(&b);
	model_trace_free(&b2);
	model_trace_free(&b3);
}

/* twice the rate, twice the duration, four times the capacity */
static void test_scaling(const struct model_trace *a, const struct model *m)
{
	struct model_trace b2;
	struct model_gen_opts s2 = {0, 2, 0, 3, 0};
	unit_model_gen(m, &s2, &b2);
	CHECK(fabs((double)b2.n / (double)a->n - 2) < 0.05);
	CHECK(b2.t[b2.n - 1] <= m->duration_ns);
	model_trace_free(&b2);
	s2.rate = 1;
	s2.duration_ns = 2 * m->duration_ns;
	unit_model_gen(m, &s2, &b2);
	CHECK(fabs((double)b2.n / (double)a->n - 2) < 0.05);
	CHECK(b2.t[b2.n - 1] > m->duration_ns);
	struct model_cmp r2;
	CHECK(model_compare(a, &b2, &r2) == 0); /* longer, same shape */
	CHECK(r2.ks_size <= 0.05 && r2.ks_gap <= 0.05 && r2.ks_jump <= 0.05);
	model_trace_free(&b2);
	s2.duration_ns = 0;
	s2.capacity = 32ull << 30;
	unit_model_gen(m, &s2, &b2);
	uint64_t mx = 0;
	for (size_t i = 0; i < b2.n; i++)
		if (b2.off[i] + b2.len[i] > mx)
			mx = b2.off[i] + b2.len[i];
	CHECK(mx <= s2.capacity && mx > (8ull << 30));
	model_trace_free(&b2);
}

/* MODEL.json round trip: write, read, write gives the same text, and a model
 * read from the same text generates the same trace */
static void test_json_round_trip(const struct model *m)
{
	char err[512];
	struct model_gen_opts go = {0, 1, 0, 1, 0};
	size_t l1, l2;
	char *j1;
	unit_model_json(m, &j1, &l1);
	struct model m2, m3;
	if (model_read_json(&m2, j1, l1, err, sizeof(err))) {
		fprintf(stderr, "read back: %s\n", err);
		exit(1);
	}
	char *j2;
	unit_model_json(&m2, &j2, &l2);
	CHECK(l1 == l2 && !memcmp(j1, j2, l1));
	CHECK(model_read_json(&m3, j2, l2, err, sizeof(err)) == 0);
	struct model_trace b2, b3;
	unit_model_gen(&m2, &go, &b2);
	unit_model_gen(&m3, &go, &b3);
	CHECK_EQ(b2.n, b3.n);
	CHECK(!memcmp(b2.t, b3.t, b2.n * sizeof(*b2.t)) &&
	      !memcmp(b2.off, b3.off, b2.n * sizeof(*b2.off)) &&
	      !memcmp(b2.len, b3.len, b2.n * sizeof(*b2.len)));
	model_trace_free(&b2);
	model_trace_free(&b3);
	model_free(&m2);
	model_free(&m3);
	free(j1);
	free(j2);
}

/* a model of one phase: windows.phase left out, read back as all 0 */
static void test_json_one_phase(const struct model *m)
{
	char err[512];
	size_t l;
	char *j;
	unit_model_json(m, &j, &l);
	CHECK(m->nphases == 1 && !strstr(j, "\"phase\""));
	struct model m2;
	CHECK(model_read_json(&m2, j, l, err, sizeof(err)) == 0);
	CHECK(m2.nphases == 1 && m2.nwin == m->nwin);
	for (size_t i = 0; i < m2.nwin; i++)
		CHECK(m2.win_phase[i] == 0);
	model_free(&m2);
	free(j);
}

/* gzip-compressed MODEL.json reads back to the same model (the same text);
 * a truncated or damaged one is refused */
static void test_json_gzip(const struct model *m)
{
	char err[512], *gz = NULL;
	size_t lg, l1, l2;
	FILE *f = open_memstream(&gz, &lg);
	CHECK(f && model_write_json_gz(m, f) == 0);
	fclose(f);
	char *j1;
	unit_model_json(m, &j1, &l1);
	CHECK(model_json_is_gzip(gz, lg) && lg < l1 / 2);
	struct model m2;
	if (model_read_json(&m2, gz, lg, err, sizeof(err))) {
		fprintf(stderr, "gzip read back: %s\n", err);
		exit(1);
	}
	char *j2;
	unit_model_json(&m2, &j2, &l2);
	CHECK(l1 == l2 && !memcmp(j1, j2, l1));
	model_free(&m2);
	CHECK(model_read_json(&m2, gz, lg / 2, err, sizeof(err)) != 0 && strstr(err, "gzip"));
	gz[lg / 2] ^= 0x55;
	CHECK(model_read_json(&m2, gz, lg, err, sizeof(err)) != 0);
	free(gz);
	free(j1);
	free(j2);
}

/* The model's text with the first NEEDLE replaced by REPL is refused, the
 * message holding WANT ("LINE:COL: field PATH: ..." or "LINE:COL: ...",
 * the place of the field or of a syntax error). */
static void check_refused(const char *json, const char *needle, const char *repl, const char *want)
{
	char err[512];
	const char *p = strstr(json, needle);
	CHECK(p);
	size_t pre = (size_t)(p - json), nl = strlen(needle), rl = strlen(repl);
	size_t len = strlen(json) - nl + rl;
	char *t = malloc(len + 1);
	CHECK(t);
	memcpy(t, json, pre);
	memcpy(t + pre, repl, rl);
	strcpy(t + pre + rl, p + nl);
	struct model m;
	if (model_read_json(&m, t, len, err, sizeof(err)) == 0) {
		fprintf(stderr, "accepted: %s -> %s\n", needle, repl);
		exit(1);
	}
	if (!strstr(err, want)) {
		fprintf(stderr, "%s -> %s: '%s' does not say '%s'\n", needle, repl, err, want);
		exit(1);
	}
	free(t);
}

/* damaged models are refused with the field named; both with its line */
static void test_json_refused(const struct model *m)
{
	size_t l;
	char *j;
	unit_model_json(m, &j, &l);
	static const struct {
		const char *needle, *repl, *want;
	} cases[] = {
	    {"\"duration_ns\": ", "\"duration_ns\": -", "7:18: field model.duration_ns: -"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": NaN",
	     "8:17: field quantum_ns: not a finite number"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": Infinity",
	     "8:17: field quantum_ns: not a finite"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": 1e400", "8:17: field quantum_ns: not a finite"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": \"1\"",
	     "8:17: field model.quantum_ns: wrong type"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": null",
	     "8:17: field model.quantum_ns: wrong type"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": 99999999999999999999", "quantum_ns: 1.8"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": tru", "8:20: bad JSON"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": +1", "8:17: bad JSON"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": 1e", "8:19: bad JSON"},
	    {"\"quantum_ns\": 1", "\"quantum_ns\": 1,", "8:19: bad JSON"},
	    {"\"version\": 1,", "\"version\": 1,,", "3:16: bad JSON"},
	    {"\"version\": 1,", "\"version\": 1, /* c */", "3:17: bad JSON"},
	    {"\"version\": 1,", "'version': 1,", "3:3: a single quote"},
	    {"\"naive\":", "\"naive\" :: ", "4:12: bad JSON"},
	    {"\"source\": \"", "\"source\": \"a\tb", "5:15: control character"},
	    {"\"source\": \"", "\"source\": \"\\u0000", "5:13: field source: \\u0000"},
	    {"\"source\": \"", "\"source\": \"\\x", "5:15: bad JSON"},
	    {"\"format\": \"ioreel-model\"", "\"format\": \"x\"",
	     "2:13: field model.format: \"x\", not"},
	    {"\"version\": 1", "\"version\": 2", "3:14: field model.version: 2 is outside [1, 1]"},
	    /* missing: the line of the object that lacks it */
	    {"\"count\": ", "\"cnt\": ", "1:1: field model.count: missing"},
	    {"\"phase\": [0", "\"phase\": [99", "14:15: field windows.phase[0]: a phase number"},
	    /* left out only where the model has one phase */
	    {"\"phase\": [0", "\"phases_\": [0", "field windows.phase: missing"},
	    {"\"op_next\": [[", "\"op_next\": [[2, ",
	     "25:19: field phases[0].op_next[0]: expected 5"},
	    {"\"cdf\": [[", "\"cdf\": [[[[[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]]], [",
	     "bad JSON: nesting"},
	    {"\"align\": ", "\"align\": 3", "field devices[0].align: a power of two"},
	    {"\"bounds\": [0", "\"bounds\": [1", "field devices[0].regions.bounds: run from 0"},
	    {"\"inflight\": null\n}\n", "\"inflight\": null\n}\n}", "bad JSON"},
	    {"\"seq_share\": {", "\"seq_share\": {\"discard\": [0.5], ",
	     "field phases[0].seq_share.discard: expected a share or an array of 0"},
	    {"\"run_mean\": [", "\"run_mean\": [-1,",
	     "field devices[0].regions.run_mean: one per region"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_refused(j, cases[i].needle, cases[i].repl, cases[i].want);
	char err[512];
	struct model m2;
	j[l - 1] = 0; /* a NUL byte after the object (json-c would stop there) */
	CHECK(model_read_json(&m2, j, l, err, sizeof(err)) != 0 && strstr(err, "NUL"));
	free(j);
}

/* a knot searched in a narrowed range (model_dist_knot_in) is the one the
 * whole search finds, and the CDF from it (model_dist_cdf_at) the same
 * values bit for bit: on knots with point masses (equal values) and
 * flats (equal CDF), at random points and on the knots themselves */
static void test_dist_knot_in(void)
{
	uint64_t ks = 0x2545f4914f6cdd1dull; /* its own stream: the trace above stays */
	struct model_dist d = {0};
	d.nk = 40;
	double v = 100, c = 0;
	for (size_t i = 0; i < d.nk; i++) {
		double r = unit_urand(&ks);
		v += r < 0.2   ? 0
		     : r < 0.3 ? 1
			       : unit_urand(&ks) * 1000; /* point masses, unit steps */
		c += unit_urand(&ks) < 0.2 ? 0 : unit_urand(&ks);
		d.v[i] = v;
		d.c[i] = c;
	}
	for (size_t i = 0; i < d.nk; i++)
		d.c[i] /= c;
	d.c[0] = 0;
	for (int t = 0; t < 200000; t++) {
		size_t kn = (size_t)(unit_urand(&ks) * (double)d.nk);
		double x = t & 1 ? d.v[kn] : d.v[0] + unit_urand(&ks) * (d.v[d.nk - 1] - d.v[0]);
		double a = x - unit_urand(&ks) * 2000, b = x + unit_urand(&ks) * 2000;
		size_t lo = a >= d.v[0] ? model_dist_knot(&d, a, d.nk) : 0,
		       hi = model_dist_knot(&d, b, d.nk) + 1, k = model_dist_knot(&d, x, d.nk);
		CHECK_EQ(model_dist_knot_in(&d, x, lo, hi), k);
		double b1, a1, b2, a2;
		model_dist_cdf(&d, x, &b1, &a1);
		model_dist_cdf_at(&d, x, k, &b2, &a2);
		CHECK(memcmp(&b1, &b2, sizeof(b1)) == 0 && memcmp(&a1, &a2, sizeof(a1)) == 0);
	}
}

/* The inverse CDF as it was written before model_dist_inv was inline
 * (round 22): the knots searched from the guide's, then the stretch's
 * value, t^A inside it. */
static double plain_inv_pow(const struct model_dist *d, double u, double a)
{
	if (!d->nk)
		return 0;
	if (u <= 0)
		return d->v[0];
	if (u >= 1)
		return d->v[d->nk - 1];
	size_t lo = d->guide[(size_t)(u * MODEL_DIST_GUIDE)];
	lo = lo > d->nk - 2 ? 0 : lo;
	while (lo + 2 < d->nk && d->c[lo + 1] <= u)
		lo++;
	double c0 = d->c[lo], c1 = d->c[lo + 1];
	if (c1 <= c0)
		return d->v[lo + 1];
	if (a != 1)
		return d->v[lo] + (d->v[lo + 1] - d->v[lo]) * pow((u - c0) / (c1 - c0), a);
	return d->v[lo] + (d->v[lo + 1] - d->v[lo]) * (u - c0) / (c1 - c0);
}

/* model_dist_inv (inline), model_dist_inv_pow and model_dist_inv_from
 * from any knot at or below U give the plain form's doubles bit for bit:
 * on point masses and flats, at random points, on the knots' CDF values
 * and at 0 and 1 */
static void test_dist_inv(void)
{
	uint64_t ks = 0x9e3779b97f4a7c15ull; /* its own stream */
	for (int rep = 0; rep < 50; rep++) {
		struct model_dist d = {0};
		d.nk = 2 + (uint32_t)(unit_urand(&ks) * (MODEL_DIST_MAXK - 2));
		double v = unit_urand(&ks) * 100, c = 0;
		for (size_t i = 0; i < d.nk; i++) {
			double r = unit_urand(&ks);
			v += r < 0.2 ? 0 : r < 0.3 ? 1 : unit_urand(&ks) * 1000;
			c += unit_urand(&ks) < 0.2 ? 0 : unit_urand(&ks);
			d.v[i] = v;
			d.c[i] = c;
		}
		for (size_t i = 0; i < d.nk; i++)
			d.c[i] = c > 0 ? d.c[i] / c : 1;
		d.c[0] = 0;
		d.c[d.nk - 1] = 1;
		model_dist_prepare(&d);
		for (int t = 0; t < 20000; t++) {
			size_t kn = (size_t)(unit_urand(&ks) * (double)d.nk);
			double u = t % 3 == 0	 ? d.c[kn]
				   : t % 97 == 1 ? (double)(t & 2) / 2
						 : unit_urand(&ks);
			double a = t & 1 ? 1 : 0.05 + unit_urand(&ks) * 4;
			double w = plain_inv_pow(&d, u, a), x = model_dist_inv_pow(&d, u, a);
			CHECK(memcmp(&w, &x, sizeof(w)) == 0);
			if (a == 1) {
				x = model_dist_inv(&d, u);
				CHECK(memcmp(&w, &x, sizeof(w)) == 0);
			}
			if (u > 0 && u < 1) { /* from a knot at or below U */
				size_t lo = (size_t)(unit_urand(&ks) * (double)(d.nk - 1));
				while (lo && d.c[lo] > u)
					lo--;
				x = model_dist_inv_from(&d, u, a, lo);
				CHECK(memcmp(&w, &x, sizeof(w)) == 0);
			}
		}
	}
	struct model_dist e = {0};
	CHECK(model_dist_inv(&e, 0.5) == 0 && model_dist_inv_pow(&e, 0.5, 2) == 0);
}

int main(void)
{
	test_dist_knot_in();
	test_dist_inv();
	char err[512];
	struct model_trace a;
	make_trace(&a, 20000);
	struct model m, naive;
	struct model_fit_opts fo = {0, 0}, fn = {1, 0};
	CHECK(model_fit(&m, &a, &fo, err, sizeof(err)) == 0);
	CHECK(model_fit(&naive, &a, &fn, err, sizeof(err)) == 0);
	CHECK(m.nphases >= 2); /* bursts and idle periods are different phases */
	test_fidelity(&a, &m, &naive);
	test_determinism(&m);
	test_scaling(&a, &m);
	test_json_round_trip(&m);
	test_json_one_phase(&naive);
	test_json_gzip(&m);
	test_json_gzip(&naive); /* its gap knots start at 0, once written "-0" */
	test_json_refused(&m);
	model_trace_free(&a);
	model_free(&m);
	model_free(&naive);
	return 0;
}
