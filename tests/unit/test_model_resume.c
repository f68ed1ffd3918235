/*
 * test_model_resume: streams resumed after other I/O (p_resume).  One
 * device: two logs of 4 KiB writes, at 256 and 768 MiB, each written in
 * order in pieces of 1-7 writes, the pieces of the two in turn (chromium's
 * log band among its other I/O): every piece resumes where its log's last
 * one ended.  fit keeps the share of remote jumps that do (p_resume, all
 * of them here); generated (seeds 1-3), at least 60% of the write pieces
 * start at the end of one of the last 64 writes, and at least twice as
 * many as from the same model without p_resume (the model before it:
 * starts drawn anywhere in a log's stretch).
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define PIECES 300
#define BACK 64

static uint64_t rs = 0x9e3779b97f4a7c15ull;

static void make_trace(struct model_trace *tr)
{
	unit_model_trace_one(tr, "sda");
	int64_t t = 0;
	uint64_t end[2] = {256ull << 20, 768ull << 20};
	for (int k = 0; k < PIECES; k++) {
		int nw = 1 + (int)(unit_urand(&rs) * 7);
		for (int i = 0; i < nw; i++, end[k & 1] += 4096) {
			unit_model_push(tr, t += 1000000, 0, end[k & 1]);
			tr->op[tr->n - 1] = REEL_OP_WRITE;
		}
	}
	CHECK(model_trace_sort(tr) == 0);
}

/* Of B's writes that start a run (not at the end of the I/O before), the
 * share at the end of one of the last BACK writes (a log resumed). */
static double resumed(const struct model_trace *b)
{
	size_t n = 0, r = 0;
	uint64_t prev = 0, ends[BACK] = {0}, ne = 0;
	for (size_t i = 0; i < b->n; i++) {
		if (b->op[i] == REEL_OP_WRITE && i && b->off[i] != prev) {
			n++;
			for (uint64_t j = 0; j < ne && j < BACK; j++)
				if (ends[j] == b->off[i]) {
					r++;
					break;
				}
		}
		if (b->op[i] == REEL_OP_WRITE)
			ends[ne++ % BACK] = b->off[i] + b->len[i];
		prev = b->off[i] + b->len[i];
	}
	return n ? (double)r / (double)n : 0;
}

int main(void)
{
	struct model_trace a, b;
	make_trace(&a);
	struct model m;
	unit_model_fit(&m, &a);
	printf("trace: p_resume %.3f, write pieces resumed %.3f\n", m.devs[0].p_resume,
	       resumed(&a));
	CHECK(m.devs[0].p_resume >= 0.9 && resumed(&a) > 0.99);
	double keep = m.devs[0].p_resume;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct model_gen_opts o = {.seed = seed};
		m.devs[0].p_resume = keep;
		unit_model_gen(&m, &o, &b);
		double with = resumed(&b);
		model_trace_free(&b);
		m.devs[0].p_resume = 0; /* the model before it */
		unit_model_gen(&m, &o, &b);
		double without = resumed(&b);
		model_trace_free(&b);
		printf("seed %llu: write pieces resumed %.3f, without p_resume %.3f\n",
		       (unsigned long long)seed, with, without);
		CHECK(with >= 0.6 && with >= 2 * without);
	}
	model_trace_free(&a);
	model_free(&m);
	return 0;
}
