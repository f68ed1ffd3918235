/*
 * test_model_fit: fit a model from a bursty, local synthetic workload, generate
 * from it and compare; the naive model must fail the same comparison.  Also:
 * the same seed gives the same trace, scaling by rate, duration and capacity,
 * MODEL.json round trip, and the JSON parser's strictness.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"

static uint64_t rs = 88172645463325252ull;
static double urand(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (double)(rs >> 11) / 9007199254740992.0;
}

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
		r.length = urand() < 0.6 ? 4096 : (urand() < 0.5 ? 65536 : 4096u << (int)(urand() * 4));
		r.offset = cursor;
		r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
		cursor += r.length;
		run--;
		CHECK(model_trace_push(tr, &r) == 0);
	}
	CHECK(model_trace_sort(tr) == 0);
}

static void gen_trace(const struct model *m, const struct model_gen_opts *o, struct model_trace *out)
{
	struct model_gen *g;
	memset(out, 0, sizeof(*out));
	CHECK(model_gen_create(&g, m, o) == 0);
	struct reel_rec r;
	while (model_gen_next(g, &r) == 1)
		CHECK(model_trace_push(out, &r) == 0);
	model_gen_destroy(g);
	CHECK(model_trace_sort(out) == 0);
}

static char *to_json(const struct model *m, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	CHECK(f);
	CHECK(model_write_json(m, f) == 0);
	fclose(f);
	return buf;
}

int main(void)
{
	char err[512];
	struct model_trace a;
	make_trace(&a, 20000);
	struct model m, naive;
	struct model_fit_opts fo = {0, 0}, fn = {1, 0};
	CHECK(model_fit(&m, &a, &fo, err, sizeof(err)) == 0);
	CHECK(model_fit(&naive, &a, &fn, err, sizeof(err)) == 0);
	CHECK(m.nphases >= 2); /* bursts and idle periods are different phases */

	/* fidelity */
	struct model_gen_opts go = {0, 1, 0, 1, 0};
	struct model_trace b, c;
	gen_trace(&m, &go, &b);
	struct model_cmp r;
	CHECK(model_compare(&a, &b, &r) == 0);
	fprintf(stderr, "model: ks size %.4f gap %.4f jump %.4f run %.4f read %.4f/%.4f b %.4f\n",
		r.ks_size, r.ks_gap, r.ks_jump, r.ks_run, r.read_a, r.read_b, r.bmodel_diff);
	CHECK(r.ks_size <= 0.05);
	CHECK(r.ks_gap <= 0.05);
	CHECK(r.ks_jump <= 0.05);
	CHECK(fabs(r.read_a - r.read_b) <= 0.01);
	CHECK(r.bmodel_diff <= 0.02);
	gen_trace(&naive, &go, &c);
	struct model_cmp rn;
	CHECK(model_compare(&a, &c, &rn) == 0);
	fprintf(stderr, "naive: ks size %.4f gap %.4f jump %.4f run %.4f b %.4f\n", rn.ks_size,
		rn.ks_gap, rn.ks_jump, rn.ks_run, rn.bmodel_diff);
	CHECK(rn.ks_gap > 0.05 && rn.ks_jump > 0.05 && rn.bmodel_diff > 0.02);

	/* determinism: same seed, same trace; another seed, another trace */
	struct model_trace b2, b3;
	gen_trace(&m, &go, &b2);
	CHECK_EQ(b.n, b2.n);
	CHECK(!memcmp(b.t, b2.t, b.n * sizeof(*b.t)) && !memcmp(b.off, b2.off, b.n * sizeof(*b.off)));
	go.seed = 2;
	gen_trace(&m, &go, &b3);
	CHECK(b3.n != b.n || memcmp(b.off, b3.off, b.n * sizeof(*b.off)));
	model_trace_free(&b2);
	model_trace_free(&b3);

	/* scaling: twice the rate, twice the duration, four times the capacity */
	struct model_gen_opts s2 = {0, 2, 0, 3, 0};
	gen_trace(&m, &s2, &b2);
	CHECK(fabs((double)b2.n / (double)a.n - 2) < 0.05);
	CHECK(b2.t[b2.n - 1] <= m.duration_ns);
	model_trace_free(&b2);
	s2.rate = 1;
	s2.duration_ns = 2 * m.duration_ns;
	gen_trace(&m, &s2, &b2);
	CHECK(fabs((double)b2.n / (double)a.n - 2) < 0.05);
	CHECK(b2.t[b2.n - 1] > m.duration_ns);
	struct model_cmp r2;
	CHECK(model_compare(&a, &b2, &r2) == 0); /* longer, same shape */
	CHECK(r2.ks_size <= 0.05 && r2.ks_gap <= 0.05 && r2.ks_jump <= 0.05);
	model_trace_free(&b2);
	s2.duration_ns = 0;
	s2.capacity = 32ull << 30;
	gen_trace(&m, &s2, &b2);
	uint64_t mx = 0;
	for (size_t i = 0; i < b2.n; i++)
		if (b2.off[i] + b2.len[i] > mx)
			mx = b2.off[i] + b2.len[i];
	CHECK(mx <= s2.capacity && mx > (8ull << 30));
	model_trace_free(&b2);

	/* MODEL.json round trip: write, read, write gives the same text */
	size_t l1, l2;
	char *j1 = to_json(&m, &l1);
	struct model m2;
	if (model_read_json(&m2, j1, l1, err, sizeof(err))) {
		fprintf(stderr, "read back: %s\n", err);
		return 1;
	}
	char *j2 = to_json(&m2, &l2);
	CHECK(l1 == l2 && !memcmp(j1, j2, l1));
	/* a model read from the same text generates the same trace */
	struct model m3;
	CHECK(model_read_json(&m3, j2, l2, err, sizeof(err)) == 0);
	gen_trace(&m2, &go, &b2);
	gen_trace(&m3, &go, &b3);
	model_free(&m3);
	CHECK_EQ(b2.n, b3.n);
	CHECK(!memcmp(b2.t, b3.t, b2.n * sizeof(*b2.t)) &&
	      !memcmp(b2.off, b3.off, b2.n * sizeof(*b2.off)) &&
	      !memcmp(b2.len, b3.len, b2.n * sizeof(*b2.len)));
	model_trace_free(&b2);
	model_trace_free(&b3);
	model_free(&m2);
	/* a damaged model is refused with the field named */
	char *bad = strdup(j1);
	char *p = strstr(bad, "\"duration_ns\": ");
	CHECK(p);
	p[15] = '-';
	CHECK(model_read_json(&m2, bad, l1, err, sizeof(err)) != 0);
	CHECK(strstr(err, "duration_ns"));
	free(bad);
	free(j1);
	free(j2);

	/* the parser is strict */
	static const char *const refuse[] = {
		"", "{", "{\"a\":1,}", "[1,]", "01", "1.", "-", "+1", "NaN", "{\"a\" 1}", "\"\\x\"",
		"\"\\ud800\"", "\"\\u0000\"", "[1] 2", "{'a':1}", "tru", "\"a\tb\"", "1e", "[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]",
	};
	for (size_t i = 0; i < sizeof(refuse) / sizeof(refuse[0]); i++) {
		struct model_json *jj = model_json_parse(refuse[i], strlen(refuse[i]), err, sizeof(err));
		if (jj) {
			fprintf(stderr, "accepted: %s\n", refuse[i]);
			return 1;
		}
	}
	const char *ok = " {\"a\": [1, -2.5e3, true, false, null, \"\\u00e9\\n\"], \"b\": {}} ";
	struct model_json *jj = model_json_parse(ok, strlen(ok), err, sizeof(err));
	CHECK(jj && jj->n == 2 && model_json_get(jj, "a")->n == 6);
	CHECK(model_json_get(jj, "a")->kids[1]->num == -2500);
	CHECK(!strcmp(model_json_get(jj, "a")->kids[5]->str, "\xc3\xa9\n"));
	model_json_free(jj);

	model_trace_free(&a);
	model_trace_free(&b);
	model_trace_free(&c);
	model_free(&m);
	model_free(&naive);
	return 0;
}
