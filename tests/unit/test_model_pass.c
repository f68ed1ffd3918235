/*
 * test_model_pass: a device's re-use pass is kept as it was.  One device:
 * 3,000 reads at random offsets over 64 GiB (hardly one read twice), and a pass of 40 writes of 4
 * KiB up a band at 300 MiB (I/O 500-539), re-written in the same order
 * 300 I/O later and again 700 I/O after that (a writeback re-writing
 * what it wrote).  The model keeps the pass (reuse_pass: its 120 I/O,
 * where, when, which op), writes it to MODEL.json and reads it back; an
 * index that does not increase is refused with its path.  Generated
 * (seeds 1-3), the I/O count is the trace's, the reuse-distance KS is
 * within target; with the pass taken out of the model (re-uses drawn
 * at the fitted distances), it is more than twice as far on every seed.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define NIO 3000
#define PASS 40
#define MIB (1ull << 20)

static uint64_t rs = 0x2545f4914f6cdd1dull;

/* Which pass I/O K of the trace is, or -1. */
static int pass_of(int i)
{
	static const int at[3] = {500, 800, 1500};
	for (int k = 0; k < 3; k++)
		if (i >= at[k] && i < at[k] + PASS)
			return i - at[k];
	return -1;
}

static void make_trace(struct model_trace *tr)
{
	unit_model_trace_one(tr, "sda");
	tr->devs[0].capacity = 64ull << 30;
	for (int i = 0; i < NIO; i++) {
		int k = pass_of(i);
		struct reel_rec r = {0};
		r.queue_ns = (int64_t)i * 1000000;
		r.op = k < 0 ? REEL_OP_READ : REEL_OP_WRITE;
		r.length = 4096;
		r.offset = k < 0 ? (uint64_t)(unit_urand(&rs) * (double)(1ull << 24)) * 4096
				 : 300 * MIB + (uint64_t)k * 8192;
		r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
		CHECK(model_trace_push(tr, &r) == 0);
	}
	CHECK(model_trace_sort(tr) == 0);
}

static void round_trip(const struct model *m)
{
	char *text;
	size_t len = 0;
	struct model r;
	unit_model_reread(m, &r, &text, &len);
	CHECK_EQ(r.devs[0].npass, m->devs[0].npass);
	CHECK_EQ(r.devs[0].pass_n, m->devs[0].pass_n);
	for (uint32_t i = 0; i < m->devs[0].npass; i++) {
		CHECK_EQ(r.devs[0].pass[i].off, m->devs[0].pass[i].off);
		CHECK_EQ(r.devs[0].pass[i].len, m->devs[0].pass[i].len);
		CHECK_EQ(r.devs[0].pass[i].at, m->devs[0].pass[i].at);
		CHECK_EQ(r.devs[0].pass[i].write, m->devs[0].pass[i].write);
	}
	model_free(&r);
	/* the second I/O's index step 0: refused, with the field's path */
	char *p = strstr(text, "\"reuse_pass\": [");
	CHECK(p != NULL);
	p = strchr(p, '\n'); /* the first I/O: "500,1,...,8,1,1,2,8," */
	CHECK(p != NULL && !strncmp(p + 9, "500,1,", 6));
	char *q = strchr(p + 15, ',');
	CHECK(q != NULL && !strncmp(q, ",8,1,", 5));
	q[3] = '0';
	unit_model_refused(text, len, "devices[0].reuse_pass[1]", "index not increasing");
	free(text);
}

/* The reuse-distance KS of b against a; *OK: within target. */
static double reuse_ks(const struct model_trace *a, const struct model_trace *b, int *ok)
{
	struct model_cmp c;
	CHECK(model_compare(a, b, &c) == 0);
	CHECK_EQ(c.nb, c.na);
	const struct model_check *k = unit_model_check(&c, "ks_reuse_distance");
	*ok = k->ok == 1;
	return k->value;
}

int main(void)
{
	struct model_trace a, b;
	struct model m;
	make_trace(&a);
	unit_model_fit(&m, &a);
	printf("pass: %u I/O of %llu\n", m.devs[0].npass, (unsigned long long)m.devs[0].pass_n);
	CHECK_EQ(m.devs[0].npass, 3 * PASS);
	CHECK_EQ(m.devs[0].pass[0].at, 500);
	CHECK_EQ(m.devs[0].pass[0].off, 300 * MIB);
	CHECK_EQ(m.devs[0].pass[PASS].at, 800);
	CHECK_EQ(m.devs[0].pass[0].write, 1);
	round_trip(&m);
	double with[4];
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct model_gen_opts o = {.seed = seed};
		int ok;
		unit_model_gen(&m, &o, &b);
		with[seed] = reuse_ks(&a, &b, &ok);
		printf("seed %llu: reuse-distance KS %.4f\n", (unsigned long long)seed, with[seed]);
		CHECK(ok);
		model_trace_free(&b);
	}
	m.devs[0].npass = 0; /* the model without it */
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct model_gen_opts o = {.seed = seed};
		int ok;
		unit_model_gen(&m, &o, &b);
		double ks = reuse_ks(&a, &b, &ok);
		(void)ok;
		printf("without the pass, seed %llu: reuse-distance KS %.4f\n",
		       (unsigned long long)seed, ks);
		CHECK(ks > 2 * with[seed]);
		model_trace_free(&b);
	}
	model_trace_free(&a);
	model_free(&m);
	return 0;
}
