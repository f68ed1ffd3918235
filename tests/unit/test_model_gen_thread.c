/*
 * test_model_gen_thread: a generator whose arrivals are drawn on a second
 * thread (model_gen_thread) gives the records of one drawing them itself,
 * every field of every record, to the end or to --count: on a model of 16
 * devices (each its own arrival clock), one of 2 phases and one of 3
 * (models in the model_json fuzz corpus), rate factors that make several
 * of the thread's batches, and windows of more arrivals than the batches
 * it holds ahead.  A generator stopped early is destroyed with
 * its thread; one already begun refuses a thread.  The records are also the
 * same with gen's SIMD paths off (reel_codec_plain: fill_window's rounding
 * and pick_device's weights one by one, as on a processor without AVX2):
 * the test that runs gen's scalar weights end to end on 16 devices.
 * Every second record of the threaded generator is taken as gen's writer
 * pipe takes them (model_gen_next_q, reel_rec_of_q): the same bytes.
 */
#include <string.h>

#include "formats/reel_internal.h"
#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

/* The records of M with O, drawn with and without the thread, the same;
 * how many. */
static size_t same_records(const struct model *m, const struct model_gen_opts *o)
{
	struct model_gen *a, *b;
	CHECK(model_gen_create(&a, m, o) == 0);
	CHECK(model_gen_create(&b, m, o) == 0);
	CHECK(model_gen_thread(b) == 0);
	CHECK(model_gen_thread(b) == 0); /* a second call: the thread it has */
	size_t n = 0;
	for (;;) {
		struct reel_rec ra, rb;
		memset(&ra, 0, sizeof(ra));
		memset(&rb, 0, sizeof(rb));
		/* B by turns through gen's pipe's 24-byte record (a reel_rec
		 * made of it as model_gen_next made it: the old code's memset
		 * and six fields) */
		struct reel_rec_q ob;
		int ka = model_gen_next(a, &ra);
		int kb = n % 2 ? model_gen_next_q(b, &ob) : model_gen_next(b, &rb);
		CHECK_EQ(kb, ka);
		if (ka != 1)
			break;
		if (n % 2) {
			memset(&rb, 0, sizeof(rb));
			rb.queue_ns = ob.queue_ns;
			rb.op = ob.op;
			rb.offset = ob.offset;
			rb.length = ob.length;
			rb.dev = ob.dev;
			rb.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
			struct reel_rec rc;
			memset(&rc, 0xa5, sizeof(rc));
			reel_rec_of_q(&ob, &rc);
			CHECK(!memcmp(&rc, &rb, sizeof(rc)));
		}
		CHECK_EQ(rb.queue_ns, ra.queue_ns);
		CHECK_EQ(rb.op, ra.op);
		CHECK_EQ(rb.offset, ra.offset);
		CHECK_EQ(rb.length, ra.length);
		CHECK_EQ(rb.dev, ra.dev);
		CHECK(!memcmp(&ra, &rb, sizeof(ra)));
		n++;
	}
	CHECK_EQ(model_gen_next(b, &(struct reel_rec){0}), 0); /* at the end it stays there */
	model_gen_destroy(a);
	model_gen_destroy(b);
	return n;
}

static void test_same(const char *name, double rate, uint64_t max, uint64_t seed)
{
	struct model m;
	unit_model_load_corpus(&m, name);
	struct model_gen_opts o = {.rate = rate, .seed = seed, .max_records = max};
	size_t n = same_records(&m, &o);
	size_t n0, n1;
	uint64_t h0 = unit_model_records_hash(&m, &o, 0, &n0),
		 h1 = unit_model_records_hash(&m, &o, 1, &n1);
	CHECK_EQ(n1, n0);
	CHECK_EQ(n0, n);
	CHECK(h1 == h0);
	printf("%s rate %g seed %llu: %zu records the same\n", name, rate, (unsigned long long)seed,
	       n);
	CHECK(n > 0);
	if (max)
		CHECK_EQ(n, max);
	model_free(&m);
}

/* N records of M at RATE, the thread started, then destroyed. */
static void stop_after(const struct model *m, double rate, int n)
{
	struct model_gen *g;
	struct model_gen_opts o = {.rate = rate, .seed = 9};
	CHECK(model_gen_create(&g, m, &o) == 0);
	CHECK(model_gen_thread(g) == 0);
	struct reel_rec r;
	for (int i = 0; i < n; i++)
		CHECK_EQ(model_gen_next(g, &r), 1);
	model_gen_destroy(g);
}

/* Stopped after a few records, while the thread draws ahead (or waits for
 * room): destroy joins it (the sanitizers see a leak or a race). */
static void test_stop_early(void)
{
	struct model m;
	unit_model_load_corpus(&m, "fiu_2phases");
	for (int k = 0; k < 50; k += 7)
		stop_after(&m, 20, k * 1000);
	/* in windows of 200 K arrivals, handed over whole past the thread's
	 * slots while it draws the next: its batches all freed */
	for (int k = 760; k < 1000; k += 110)
		stop_after(&m, 2000, k * 1000);
	model_free(&m);
}

static void test_begun(void)
{
	struct model m;
	unit_model_load_corpus(&m, "msr_wdev1");
	struct model_gen *g;
	struct model_gen_opts o = {.seed = 1};
	CHECK(model_gen_create(&g, &m, &o) == 0);
	struct reel_rec r;
	CHECK_EQ(model_gen_next(g, &r), 1);
	CHECK_EQ(model_gen_thread(g), REEL_E_ARG);
	model_gen_destroy(g);
	model_free(&m);
}

int main(void)
{
	test_same("disksim_16dev", 8, 0, 1);
	test_same("disksim_16dev", 1, 0, 2);
	test_same("fiu_2phases", 5, 0, 3);
	test_same("fiu_2phases", 5, 12345, 4);
	test_same("msr_wdev1", 30, 0, 5);
	test_same("msr_wdev1", 30, 4096, 6); /* the end at a batch's end */
	/* windows of more arrivals than the thread's GT_SLOTS batches (128
	 * Ki), handed over whole: fiu's 64th-68th of 200 K, disksim's 29th of
	 * 150 K (each its device drawn) */
	test_same("fiu_2phases", 2000, 1000000, 7);
	test_same("disksim_16dev", 6000, 1500000, 8);
	test_stop_early();
	test_begun();
	return 0;
}
