/*
 * test_model_regions_op: the region chain given the op.  One device: reads
 * of 4 KiB in the lower half (files read at random, as compile's reads in
 * 5 of its 14 regions), writes of 4 KiB in the upper half (a log and
 * metadata: its writes in the 9 others), in turns of 1-8 I/O of one op,
 * each I/O at a place of its own in its op's half (remote jumps).  The
 * regions hold the ops apart, so fit keeps their read shares
 * (regions.read_share, read back from MODEL.json as written), and gen
 * draws a remote jump's region given the op.  Generated, seeds 1-3: the
 * I/O landing in the other op's half, with the read shares and without
 * (the chain's rows hold both halves: a turn ends in the other's).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define NIO 2400
#define HALF (512ull << 20)

static uint64_t rs = 0x2545f4914f6cdd1dull;

static void make_trace(struct model_trace *tr)
{
	unit_model_trace_one(tr, "sda");
	int64_t t = 0;
	for (int n = 0, op = REEL_OP_READ; n < NIO;
	     op = op == REEL_OP_READ ? REEL_OP_WRITE : REEL_OP_READ) {
		int k = 1 + (int)(unit_urand(&rs) * 8);
		uint64_t base = op == REEL_OP_READ ? 0 : HALF;
		for (int i = 0; i < k && n < NIO; i++, n++)
			unit_model_push_op(
			    tr, t += 1000000, 0, op,
			    base + (uint64_t)(unit_urand(&rs) * (double)(HALF / 4096)) * 4096);
	}
	CHECK(model_trace_sort(tr) == 0);
}

/* I/O of B in the half of the other op. */
static size_t misplaced(const struct model_trace *b)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++)
		n += (b->op[i] == REEL_OP_READ) != (b->off[i] < HALF);
	return n;
}

int main(void)
{
	struct model_trace a, b;
	make_trace(&a);
	struct model m, m2;
	unit_model_fit(&m, &a);
	CHECK(m.devs[0].read_share_fitted);
	CHECK(misplaced(&a) == 0);
	/* written and read back: the field as gen gets it from MODEL.json */
	char *text;
	size_t len;
	unit_model_reread(&m, &m2, &text, &len);
	CHECK(strstr(text, "\"read_share\"") != NULL);
	free(text);
	for (uint32_t r = 0; r < m.devs[0].nregions; r++)
		CHECK(m2.devs[0].read_share_fitted &&
		      fabsf(m2.devs[0].read_share[r] - m.devs[0].read_share[r]) < 0.001f);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct model_gen_opts o = {.seed = seed};
		size_t x[2];
		for (int k = 0; k < 2; k++) { /* with the read shares, then without */
			m2.devs[0].read_share_fitted = !k;
			unit_model_gen(&m2, &o, &b);
			CHECK(b.n == a.n);
			x[k] = misplaced(&b);
			model_trace_free(&b);
		}
		printf("seed %llu: I/O in the other op's half %zu of %zu (without the read shares "
		       "%zu)\n",
		       (unsigned long long)seed, x[0], a.n, x[1]);
		CHECK(x[0] <= a.n / 20 && x[0] * 4 <= x[1]);
	}
	model_trace_free(&a);
	model_free(&m);
	model_free(&m2);
	return 0;
}
