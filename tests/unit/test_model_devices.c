/*
 * test_model_devices: each device keeps its own arrival process.  Eight
 * devices, each a renewal process with short runs of I/O close together,
 * share a trace.  The generated trace must keep each device's gaps
 * (ks_gap.devN within target, 3 seeds) and the merged gaps; with the
 * devices' gaps taken out of the model (each I/O's device drawn by share,
 * as before), most devices' gaps must fail: the check can tell.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit_model.h"

#define NDEV 8

static uint64_t rs = 0x2545f4914f6cdd1dull;
static double urand(void) { return unit_urand(&rs); }

/* NDEV independent renewal processes of 3000 I/O each, gaps exponential of
 * mean 20 us a third of the time, else 1.5 ms.  About 3 s. */
static void make_trace(struct model_trace *tr)
{
	memset(tr, 0, sizeof(*tr));
	tr->ndev = NDEV;
	for (int d = 0; d < NDEV; d++) {
		tr->devs[d].id = (uint16_t)d;
		snprintf(tr->devs[d].name, sizeof(tr->devs[d].name), "dev%d", d);
		tr->devs[d].capacity = 1ull << 30;
	}
	for (int d = 0; d < NDEV; d++) {
		double t = 0;
		for (int i = 0; i < 3000; i++) {
			t += -log(urand() + 1e-12) * (urand() < 1.0 / 3 ? 2e4 : 1.5e6);
			unit_model_push(tr, (int64_t)t, (uint16_t)d, (uint64_t)i * 4096);
		}
	}
	CHECK(model_trace_sort(tr) == 0);
}

static void gen_trace(const struct model *m, uint64_t seed, struct model_trace *out)
{
	struct model_gen_opts o = {.seed = seed};
	unit_model_gen(m, &o, out);
}

/* Devices whose gap check fails; the worst KS into *WORST.  The I/O count
 * and the merged gaps hold. */
static int dev_fails(const struct model_trace *a, const struct model_trace *b, double *worst)
{
	struct model_cmp c;
	CHECK(model_compare(a, b, &c) == 0);
	CHECK_EQ(c.nb, c.na);
	int fails = 0, seen = 0;
	*worst = 0;
	for (size_t i = 0; i < c.nchecks; i++) {
		const struct model_check *k = &c.check[i];
		if (strncmp(k->name, "ks_gap.dev", 10))
			continue;
		seen++;
		fails += k->ok == 0;
		*worst = k->value > *worst ? k->value : *worst;
	}
	CHECK_EQ(seen, NDEV);
	printf("merged gap KS %.4f; ", c.ks_gap);
	CHECK(c.ks_gap <= 0.05);
	return fails;
}

int main(void)
{
	struct model_trace a, b;
	make_trace(&a);
	struct model m;
	unit_model_fit(&m, &a);
	CHECK_EQ(m.ndevs, NDEV);
	double worst;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		CHECK(m.devs[seed].gap.nk > 0);
		gen_trace(&m, seed, &b);
		int f = dev_fails(&a, &b, &worst);
		printf("seed %llu: %d of %d devices' gaps outside target, worst KS %.4f\n",
		       (unsigned long long)seed, f, NDEV, worst);
		CHECK(f == 0);
		model_trace_free(&b);
	}
	/* without the devices' own gaps: each I/O's device by share */
	for (int d = 0; d < NDEV; d++)
		m.devs[d].gap.nk = 0;
	gen_trace(&m, 1, &b);
	int f = dev_fails(&a, &b, &worst);
	printf("by share: %d of %d devices' gaps outside target, worst KS %.4f\n", f, NDEV, worst);
	CHECK(f >= NDEV / 2);
	model_trace_free(&b);
	model_trace_free(&a);
	model_free(&m);
	return 0;
}
