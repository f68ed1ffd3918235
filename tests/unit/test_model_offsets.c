/*
 * test_model_offsets: a device's longest runs are kept where they ran.  One
 * device: 6,000 reads at random offsets over 1 GiB and three runs of 500
 * writes each, in narrow bands at 200, 600 and 900 MiB (a file written
 * whole, a log): a fifth of the I/O.  The model keeps the three runs
 * (long_runs: offset, length, bytes, when), writes them to MODEL.json and
 * reads them back; a long_runs out of order is refused with its path.
 * Generated (seeds 1-3), the device's offsets are within target (KS <=
 * 0.1) and each band holds its run; with the long runs taken out of the
 * model, the runs land where the chain and the offsets CDF put them, and
 * the offsets are further from the trace's on every seed.  A kept run of 4
 * KiB reads while another device reads runs of 4 KiB ending in 1 MiB (a
 * quarter of the runs' next I/O 1 MiB): the kept run's I/O take the sizes
 * near its own, most of them in its band; drawn as the op's, a quarter
 * would be 1 MiB and the run would run far past its band.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define NIO 7500
#define RUN 500
#define MIB (1ull << 20)

static uint64_t rs = 0x9e3779b97f4a7c15ull;

static const uint64_t band[3] = {200 * MIB, 600 * MIB, 900 * MIB};

static void make_trace(struct model_trace *tr)
{
	memset(tr, 0, sizeof(*tr));
	tr->ndev = 1;
	snprintf(tr->devs[0].name, sizeof(tr->devs[0].name), "sda");
	tr->devs[0].capacity = 1ull << 30;
	for (int i = 0; i < NIO; i++) {
		struct reel_rec r = {0};
		int k = i < 1000	 ? -1
			: i < 1000 + RUN ? 0
			: i < 3500	 ? -1
			: i < 3500 + RUN ? 1
			: i < 6000	 ? -1
			: i < 6000 + RUN ? 2
					 : -1;
		r.queue_ns = (int64_t)i * 1000000;
		r.op = REEL_OP_READ;
		r.length = 4096;
		r.offset = k < 0 ? (uint64_t)(unit_urand(&rs) * (double)(1ull << 18)) * 4096
				 : band[k] + (uint64_t)(i - (k == 0   ? 1000
							     : k == 1 ? 3500
								      : 6000)) *
						 4096;
		r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
		CHECK(model_trace_push(tr, &r) == 0);
	}
	CHECK(model_trace_sort(tr) == 0);
}

/* The trace m generates for seed (unit_model_gen with only a seed) */
static void gen_trace(const struct model *m, uint64_t seed, struct model_trace *out)
{
	struct model_gen_opts o = {.seed = seed};
	unit_model_gen(m, &o, out);
}

/* The offset KS of device 0 (its check's value); *OK: within target. */
static double offset_ks(const struct model_trace *a, const struct model_trace *b, int *ok)
{
	struct model_cmp c;
	CHECK(model_compare(a, b, &c) == 0);
	CHECK_EQ(c.nb, c.na);
	for (size_t i = 0; i < c.nchecks; i++)
		if (!strcmp(c.check[i].name, "ks_offset.dev0")) {
			*ok = c.check[i].ok == 1;
			return c.check[i].value;
		}
	CHECK(!"no ks_offset.dev0 check");
	return 1;
}

/* I/O of B inside band K's run (its 500 blocks). */
static size_t in_band(const struct model_trace *b, int k)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n; i++)
		n += b->off[i] >= band[k] && b->off[i] < band[k] + RUN * 4096;
	return n;
}

static void round_trip(const struct model *m)
{
	char *text;
	size_t len = 0;
	struct model r;
	unit_model_reread(m, &r, &text, &len);
	CHECK_EQ(r.devs[0].nlong, m->devs[0].nlong);
	for (uint32_t i = 0; i < m->devs[0].nlong; i++) {
		CHECK_EQ(r.devs[0].longrun[i].off, m->devs[0].longrun[i].off);
		CHECK_EQ(r.devs[0].longrun[i].len, m->devs[0].longrun[i].len);
		CHECK_EQ(r.devs[0].longrun[i].bytes, m->devs[0].longrun[i].bytes);
	}
	model_free(&r);
	/* the runs out of order: refused, with the field's path */
	char *p = strstr(text, "\"long_runs\": [[");
	CHECK(p != NULL);
	char *q = strstr(p, "0.133]"); /* the first run's start, 1000 of 7500 */
	CHECK(q != NULL);
	memcpy(q, "0.999]", 6);
	/* the next one is earlier */
	unit_model_refused(text, len, "devices[0].long_runs[1]", "out of order");
	free(text);
}

/* Device 0: a run of RUN reads of 4 KiB at band[1] among reads at random;
 * device 1 at the same time: runs of three reads of 4 KiB then one of 1
 * MiB (a quarter of the runs' next I/O 1 MiB). */
static void make_sizes(struct model_trace *tr)
{
	memset(tr, 0, sizeof(*tr));
	tr->ndev = 2;
	for (int d = 0; d < 2; d++) {
		tr->devs[d].id = (uint16_t)d;
		snprintf(tr->devs[d].name, sizeof(tr->devs[d].name), "dev%d", d);
		tr->devs[d].capacity = 1ull << 30;
	}
	uint64_t base = 0;
	for (int i = 0; i < 4000; i++) {
		struct reel_rec r = {0};
		int k = i / 2, run = i % 2 == 0 && k >= 500 && k < 500 + RUN;
		r.queue_ns = (int64_t)i * 1000000;
		r.op = REEL_OP_READ;
		r.dev = (uint16_t)(i % 2);
		r.length = i % 2 && k % 4 == 3 ? 1u << 20 : 4096;
		if (i % 2 && k % 4 == 0)
			base = (uint64_t)(unit_urand(&rs) * (double)(1ull << 17)) * 4096;
		r.offset = run	   ? band[1] + (uint64_t)(k - 500) * 4096
			   : i % 2 ? base + (uint64_t)(k % 4) * 4096
				   : (uint64_t)(unit_urand(&rs) * (double)(1ull << 18)) * 4096;
		r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
		CHECK(model_trace_push(tr, &r) == 0);
	}
	CHECK(model_trace_sort(tr) == 0);
}

static void run_sizes(void)
{
	char err[512];
	struct model_trace a, b;
	make_sizes(&a);
	struct model m;
	struct model_fit_opts fo = {0, 0};
	CHECK(model_fit(&m, &a, &fo, err, sizeof(err)) == 0);
	CHECK_EQ(m.devs[0].nlong, 1);
	CHECK_EQ(m.devs[0].longrun[0].off, band[1]);
	CHECK_EQ(m.devs[0].longrun[0].bytes, RUN * 4096);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		gen_trace(&m, seed, &b);
		size_t n = 0;
		for (size_t i = 0; i < b.n; i++)
			n +=
			    b.dev[i] == 0 && b.off[i] >= band[1] && b.off[i] < band[1] + RUN * 4096;
		printf("sizes, seed %llu: %zu I/O of device 0 in the kept run's band\n",
		       (unsigned long long)seed, n);
		CHECK(n >= RUN * 8 / 10);
		model_trace_free(&b);
	}
	model_trace_free(&a);
	model_free(&m);
}

int main(void)
{
	char err[512];
	struct model_trace a, b;
	make_trace(&a);
	struct model m;
	struct model_fit_opts fo = {0, 0};
	CHECK(model_fit(&m, &a, &fo, err, sizeof(err)) == 0);
	CHECK_EQ(m.devs[0].nlong, 3);
	for (int k = 0; k < 3; k++) {
		CHECK_EQ(m.devs[0].longrun[k].off, band[k]);
		CHECK_EQ(m.devs[0].longrun[k].len, RUN);
		CHECK_EQ(m.devs[0].longrun[k].bytes, RUN * 4096);
	}
	round_trip(&m);
	double with[4];
	for (uint64_t seed = 1; seed <= 3; seed++) {
		int ok;
		gen_trace(&m, seed, &b);
		with[seed] = offset_ks(&a, &b, &ok);
		printf("seed %llu: offset KS %.4f, I/O in the bands %zu %zu %zu\n",
		       (unsigned long long)seed, with[seed], in_band(&b, 0), in_band(&b, 1),
		       in_band(&b, 2));
		CHECK(ok && with[seed] <= 0.1);
		for (int k = 0; k < 3; k++)
			CHECK(in_band(&b, k) >= RUN * 9 / 10);
		model_trace_free(&b);
	}
	m.devs[0].nlong = 0; /* the model without them */
	for (uint64_t seed = 1; seed <= 3; seed++) {
		int ok;
		gen_trace(&m, seed, &b);
		double ks = offset_ks(&a, &b, &ok);
		printf("without the long runs, seed %llu: offset KS %.4f\n",
		       (unsigned long long)seed, ks);
		CHECK(ks > with[seed]);
		model_trace_free(&b);
	}
	model_trace_free(&a);
	model_free(&m);
	run_sizes();
	return 0;
}
