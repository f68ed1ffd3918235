/*
 * test_model_bytes: a small trace's bytes, generated.
 *
 * 225 writes as blkparse's: 220 of 4 KiB, one of 6 KiB, one of 28 KiB,
 * three of 80 KiB; 136 of the 4 KiB ones in 8 sequential runs of 17, the
 * others at random.  The size CDF is a point mass at 4 KiB, a stretch to
 * 80 KiB holding the 6 and 28 KiB writes (0.9% of the writes), a point
 * mass at 80 KiB.  The sizes are drawn by quota, so their sum is the
 * model's if the stretch is drawn where the trace's sizes in it were
 * (their mean; gen_space.c, size_tilt_init): drawn linearly, at 42 KiB
 * on average, the bytes came out 3.6% over (median of seeds 1-16, 1.009
 * to 1.054).  Seeds 1-16: the median of bytes generated over the trace's
 * within 2%, at most 2 seeds outside 5% (the target of the issue-13
 * check).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t rs = 0x9e3779b97f4a7c15ull;

static void push(struct model_trace *tr, int64_t i, uint64_t off, uint32_t len)
{
	struct reel_rec r = {0};
	r.queue_ns = i * 1000000;
	r.op = REEL_OP_WRITE;
	r.offset = off;
	r.length = len;
	r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	CHECK(model_trace_push(tr, &r) == 0);
}

/* A random 4 KiB-aligned offset in the device's first 768 MiB. */
static uint64_t any(void) { return (uint64_t)(unit_urand(&rs) * (768.0 * 256)) * 4096; }

static void make_trace(struct model_trace *tr)
{
	unit_model_trace_one(tr, "nvme0n1");
	static const uint32_t odd[] = {6144, 28672, 81920, 81920, 81920};
	int64_t i = 0;
	for (int r = 0; r < 8; r++) {
		uint64_t at = any();
		for (int k = 0; k < 17; k++) {
			int x = r * 17 + k; /* 84 random ones among the 136 */
			push(tr, i++, at + (uint64_t)k * 4096, 4096);
			if ((x + 1) * 84 / 136 > x * 84 / 136)
				push(tr, i++, any(), 4096);
		}
		if (r < 5)
			push(tr, i++, any(), odd[r]);
		i += 1000; /* a pause between bursts */
	}
	CHECK(model_trace_sort(tr) == 0);
}

static uint64_t bytes_of(const struct model_trace *t)
{
	uint64_t b = 0;
	for (size_t i = 0; i < t->n; i++)
		b += t->len[i];
	return b;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	struct model_trace a, b;
	make_trace(&a);
	CHECK_EQ(a.n, 225);
	struct model m;
	unit_model_fit(&m, &a);
	uint64_t ba = bytes_of(&a);
	double r[16];
	int out = 0;
	for (uint64_t seed = 1; seed <= 16; seed++) {
		struct model_gen_opts o = {.seed = seed};
		unit_model_gen(&m, &o, &b);
		r[seed - 1] = (double)bytes_of(&b) / (double)ba;
		out += fabs(r[seed - 1] - 1) > 0.05;
		printf("seed %2llu: %zu I/O, bytes %.3fx the trace's\n", (unsigned long long)seed,
		       b.n, r[seed - 1]);
		model_trace_free(&b);
	}
	qsort(r, 16, sizeof(*r), cmp_dbl);
	double med = (r[7] + r[8]) / 2;
	printf("bytes generated over the trace's, seeds 1-16: median %.3f [%.3f-%.3f], "
	       "%d outside 5%%\n",
	       med, r[0], r[15], out);
	CHECK(fabs(med - 1) <= 0.02);
	CHECK(out <= 2);
	model_trace_free(&a);
	model_free(&m);
	return 0;
}
