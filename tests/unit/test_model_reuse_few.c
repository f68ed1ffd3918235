/*
 * test_model_reuse_few: a device of few re-uses (16 to 31: its distances
 * kept as quartiles) has them measured at the distances drawn.  A log of
 * 4 KiB writes, and every 16 to 48 I/O a commit re-writing the same
 * three metadata blocks (jbd2's, as in the blkparse trace): 18 re-uses,
 * 19-47 I/O back.
 * Generated (seeds 1-8, through MODEL.json), at most 1 in 12 re-uses
 * measures under the trace's least distance: a distance drawn past the
 * I/O so far went to a random earlier I/O, and two re-uses drawn onto one
 * I/O measured the second from the first (19 of 153 before, 6 of 151
 * with `back_dist` and `back_slot`, model/gen_space.c).
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define NIO 256
#define EVERY 32
#define SEEDS 8

static uint64_t rs = 0x243f6a8885a308d3ull;

static void make_trace(struct model_trace *tr)
{
	unit_model_trace_one(tr, "log");
	uint64_t log = 64ull << 20;
	int next = EVERY; /* the next commit: every 16 to 48 I/O */
	for (int i = 0; i < NIO; i++) {
		int64_t t = (int64_t)i * 10000000;
		if (i >= next - 3) { /* the commit's three blocks */
			unit_model_push_op(tr, t, 0, REEL_OP_WRITE,
					   (900ull << 20) +
					       (uint64_t)(i - (next - 3)) * (8ull << 20));
			if (i == next - 1)
				next += 16 + (int)(unit_urand(&rs) * 33);
			continue;
		}
		if (unit_urand(&rs) < 0.3) /* the log moves on now and then, MiB on */
			log += (uint64_t)(2 + unit_urand(&rs) * 8) << 20;
		unit_model_push_op(tr, t, 0, REEL_OP_WRITE, log);
		log += 4096;
	}
	CHECK(model_trace_sort(tr) == 0);
}

int main(void)
{
	struct model_trace a, b;
	make_trace(&a);
	struct model m, r;
	unit_model_fit(&m, &a);
	char *text;
	size_t len;
	unit_model_reread(&m, &r, &text, &len);
	struct model_fid fa;
	CHECK(model_fid_get(&fa, &a) == 0);
	printf("trace: %zu re-uses, %lld to %lld I/O back\n", fa.nrdist,
	       (long long)(fa.nrdist ? fa.rdist[0] : 0),
	       (long long)(fa.nrdist ? fa.rdist[fa.nrdist - 1] : 0));
	CHECK(fa.nrdist >= 16 && fa.nrdist < 32);
	CHECK(r.devs[0].reuse_dist.nk == 5); /* kept as quartiles */
	size_t all = 0, near = 0;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct model_gen_opts o = {0};
		o.seed = seed;
		unit_model_gen(&r, &o, &b);
		struct model_fid fb;
		CHECK(model_fid_get(&fb, &b) == 0);
		size_t n = 0;
		for (size_t i = 0; i < fb.nrdist; i++)
			n += fb.rdist[i] < fa.rdist[0];
		printf("seed %llu: %zu re-uses, %zu under %lld I/O back\n",
		       (unsigned long long)seed, fb.nrdist, n, (long long)fa.rdist[0]);
		all += fb.nrdist;
		near += n;
		model_fid_free(&fb);
		model_trace_free(&b);
	}
	printf("%zu of %zu re-uses under the trace's least distance\n", near, all);
	CHECK(all >= SEEDS * 12);
	CHECK(near * 12 <= all); /* at most 1 in 12: 19 of 153 before */
	free(text);
	model_fid_free(&fa);
	model_free(&r);
	model_free(&m);
	model_trace_free(&a);
	return 0;
}
