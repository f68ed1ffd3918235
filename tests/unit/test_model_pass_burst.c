/*
 * test_model_pass_burst: a burst of re-uses going back together is kept
 * as the device's pass though its other re-uses are near.  One device:
 * 3,000 reads at random offsets over 64 GiB, every 50th re-reading the
 * block read 5 I/O before (59 near re-uses), and a run of 16 writes of
 * 4 KiB up a band at 300 MiB (I/O 2,000-2,015) whose first 12 are
 * re-written in order 150 I/O later (I/O 2,150-2,161: chromium's closing
 * burst).  The re-uses' mean distance (about 35) is under the pass's 128:
 * the model keeps the burst alone (reuse_pass_burst: the 12 I/O it goes
 * back to and its own 12), writes the flag to MODEL.json and reads it
 * back; the re-use odds the draws use are net of the pass's I/O (its
 * re-writes' run is not among the re-using runs).  Generated (seeds 1-3),
 * the band's 12 re-writes go back 120-180 I/O, and the near re-uses are
 * drawn too (10 or more others); with the pass taken out of the model,
 * fewer than 6 of the band's do.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define NIO 3000
#define RUN 16
#define BURST 12
#define AT 2000
#define BACK 150
#define MIB (1ull << 20)

static uint64_t rs = 0x9e3779b97f4a7c15ull;

static void make_trace(struct model_trace *tr)
{
	uint64_t last[5] = {0};
	unit_model_trace_one(tr, "sda");
	tr->devs[0].capacity = 64ull << 30;
	for (int i = 0; i < NIO; i++) {
		int run = i >= AT && i < AT + RUN, burst = i >= AT + BACK && i < AT + BACK + BURST;
		uint64_t off = (uint64_t)(unit_urand(&rs) * (double)(1ull << 24)) * 4096;
		if (run || burst)
			off = 300 * MIB + (uint64_t)(i - (run ? AT : AT + BACK)) * 4096;
		else if (i % 50 == 49)
			off = last[i % 5]; /* the block read 5 I/O before */
		last[i % 5] = off;
		unit_model_push_op(tr, (int64_t)i * 1000000, 0,
				   run || burst ? REEL_OP_WRITE : REEL_OP_READ, off);
	}
	CHECK(model_trace_sort(tr) == 0);
}

/* The band's writes of T re-writing a block written 120-180 I/O before;
 * *OTHER: the other I/O re-using a block touched before. */
static int burst_rewrites(const struct model_trace *t, int *other)
{
	int n = 0;
	*other = 0;
	for (size_t i = 0; i < t->n; i++)
		for (size_t j = i; j-- > 0;)
			if (t->off[j] < t->off[i] + t->len[i] &&
			    t->off[i] < t->off[j] + t->len[j]) {
				int band = t->off[i] >= 300 * MIB && t->off[i] < 301 * MIB;
				if (band && i - j >= 120 && i - j <= 180)
					n++;
				else
					(*other)++;
				break;
			}
	return n;
}

/* M generated with SEED: burst_rewrites of it, *OTHER as there */
static int gen_rewrites(const struct model *m, uint64_t seed, int *other)
{
	struct model_gen_opts o = {.seed = seed};
	struct model_trace b;
	unit_model_gen(m, &o, &b);
	int n = burst_rewrites(&b, other);
	model_trace_free(&b);
	return n;
}

int main(void)
{
	struct model_trace a;
	struct model m, r;
	make_trace(&a);
	unit_model_fit(&m, &a);
	const struct model_devspace *d = &m.devs[0];
	printf("pass: %u I/O, burst %u, p_reuse %.4f\n", d->npass, d->pass_burst, d->p_reuse);
	CHECK_EQ(d->pass_burst, 1);
	CHECK_EQ(d->npass, 2 * BURST);
	CHECK_EQ(d->pass[0].at, AT);
	CHECK_EQ(d->pass[0].off, 300 * MIB);
	CHECK_EQ(d->pass[BURST].at, AT + BACK);
	CHECK_EQ(d->pass[BURST].write, 1);
	CHECK(d->p_reuse > 0);
	/* the draws' odds net of the pass: its run of re-writes out of the
	 * re-using runs, those of the near re-reads (one I/O each) left (1.175
	 * with it) */
	printf("net of the pass: %llu reuse distances, re-using runs %.3f I/O\n",
	       (unsigned long long)d->reuse_dist.n, d->reuse_run);
	CHECK(d->reuse_run < 1.01);
	char *text;
	size_t len = 0;
	unit_model_reread(&m, &r, &text, &len);
	CHECK_EQ(r.devs[0].pass_burst, 1);
	CHECK_EQ(r.devs[0].npass, d->npass);
	CHECK(strstr(text, "\"reuse_pass_burst\": 1") != NULL);
	model_free(&r);
	free(text);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		int other;
		int n = gen_rewrites(&m, seed, &other);
		printf("seed %llu: %d band re-writes 120-180 back, %d other re-uses\n",
		       (unsigned long long)seed, n, other);
		CHECK_EQ(n, BURST);
		CHECK(other >= 10);
	}
	m.devs[0].npass = 0; /* the model without it: the draws alone */
	for (uint64_t seed = 1; seed <= 3; seed++) {
		int other;
		int n = gen_rewrites(&m, seed, &other);
		printf("without the pass, seed %llu: %d band re-writes 120-180 back\n",
		       (unsigned long long)seed, n);
		CHECK(n < BURST / 2);
	}
	model_trace_free(&a);
	model_free(&m);
	return 0;
}
