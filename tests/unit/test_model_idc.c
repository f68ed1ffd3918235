/*
 * test_model_idc: burstiness inside the model's windows.  A trace whose
 * windows hold either one tight burst (tens of I/O within 1 ms) or I/O
 * spread over the window, at random: the generated trace's index of
 * dispersion of counts at 1 ms and 10 ms must be within 20% of the
 * trace's (3 seeds), and the merged gaps within KS 0.05.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit_model.h"

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static double urand(void) { return unit_urand(&rs); }

/* 2000 stretches of 20 ms: a burst of 20-60 I/O 10-30 us apart, or 5-15
 * I/O spread at random over the stretch, or nothing. */
static void make_trace(struct model_trace *tr)
{
	unit_model_trace_one(tr, "idc0");
	uint64_t off = 0;
	for (int s = 0; s < 2000; s++) {
		double t0 = s * 2e7, u = urand();
		if (u < 0.3) {
			double t = t0 + urand() * 1.9e7;
			int n = 20 + (int)(urand() * 40);
			for (int i = 0; i < n; i++, t += 1e4 + urand() * 2e4)
				unit_model_push(tr, (int64_t)t, 0, off += 4096);
		} else if (u < 0.8) {
			int n = 5 + (int)(urand() * 10);
			for (int i = 0; i < n; i++)
				unit_model_push(tr, (int64_t)(t0 + urand() * 2e7), 0, off += 4096);
		}
	}
	CHECK(model_trace_sort(tr) == 0);
}

int main(void)
{
	struct model_trace a, b;
	make_trace(&a);
	struct model m;
	unit_model_fit(&m, &a);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct model_gen_opts o = {.seed = seed};
		unit_model_gen(&m, &o, &b);
		struct model_cmp c;
		CHECK(model_compare(&a, &b, &c) == 0);
		const struct model_check *i1 = unit_model_check(&c, "idc_1ms"),
					 *i10 = unit_model_check(&c, "idc_10ms");
		printf("seed %llu: IDC at 1 ms %.3g vs %.3g (%.3f), 10 ms %.3g vs %.3g (%.3f), "
		       "gap KS %.4f\n",
		       (unsigned long long)seed, i1->a, i1->b, i1->value, i10->a, i10->b,
		       i10->value, c.ks_gap);
		CHECK(i1->ok == 1 && i10->ok == 1);
		CHECK(c.ks_gap <= 0.05);
		model_trace_free(&b);
	}
	model_trace_free(&a);
	model_free(&m);
	return 0;
}
