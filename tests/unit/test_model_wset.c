/*
 * test_model_wset: what the working set written depends on.
 *
 * Re-use by op: one device of 256 MiB; reads at random, each block read
 * twice in a row then the next one (a third of the read starts re-use,
 * at distance 1, and the runs go on fresh), and single reads; writes in
 * runs of 6 blocks, every other run a re-write of the run written 19 runs
 * before (from its first block: distance about 500 I/O, and each of its
 * next I/O re-writes).  The model keeps the writes' own distances
 * (reuse_distance_write, the reads' being most of the re-using starts),
 * their runs' length and continuation (reuse_run_rw, reuse_cont_rw), and
 * MODEL.json gives them back (a share out of range refused with its
 * path).  Generated (seeds 1-3), the writes' re-using starts go back as
 * far as the trace's (median >= 50 I/O; the device's pooled distances,
 * which they drew from before, have a median of 1 or 2).
 * Printed, not asserted: the writes re-writing a block are about half the
 * trace's and the blocks written 1.5x (a re-write starts at a write near
 * its distance, mostly inside a run, not at the run's first block).
 *
 * A size seen once: 2,000 writes of 4 KiB and one of 844 KiB among them.
 * Drawn along the size CDF's top stretch, the 844 KiB write came out as
 * a size anywhere between 4 and 844 KiB, never itself; drawn as itself,
 * seeds 1-20 hold it about once each (8-40 times), and no size in
 * between (4 at most).
 *
 * A size seen once before a kept run (boot-nspawn's last writes): 4
 * writes of 4 KiB at random, one of 844 KiB, then a run of 44 writes of
 * 4 KiB, which the model keeps (long_runs).  Drawn as the kept run's
 * first I/O, the 844 KiB write was cut to the run's bytes and given back
 * to a pool that no later write took: lost on 5 of seeds 1-32 (48 blocks
 * written of 259).  Now it starts a run of its own and the kept run the
 * next start: whole on every seed, and the blocks written at least 3/4
 * of the trace's (0.91 at the least, where a write at random lands on
 * another's blocks).
 *
 * Sizes mostly fresh in a band of their own (msr's 15-block writes): hot
 * blocks re-written in turn, cold 1-block writes one after the other, and
 * 15-block writes one after the other in a band of their own.  The model
 * keeps where the 15-block starts are (regions.fresh_share, read back);
 * generated (seeds 1-8), 90% of them or more land fresh in the band and
 * the blocks written are at least 0.9 of the trace's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define MIB (1ull << 20)
#define CAP (256 * MIB)
#define NBLK (CAP / 4096)
#define BIG (844 * 1024)
#define NSCAT 4 /* writes at random before the large one (run_size_before_run) */

static uint64_t rs = 0x2545f4914f6cdd1dull;

static void push(struct model_trace *tr, int64_t i, int op, uint64_t off, uint32_t len)
{
	struct reel_rec r = {0};
	r.queue_ns = i * 1000000;
	r.op = (uint8_t)op;
	r.offset = off;
	r.length = len;
	r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	CHECK(model_trace_push(tr, &r) == 0);
}

static void trace_init(struct model_trace *tr)
{
	memset(tr, 0, sizeof(*tr));
	tr->ndev = 1;
	snprintf(tr->devs[0].name, sizeof(tr->devs[0].name), "sda");
	tr->devs[0].capacity = CAP;
}

/* Reads re-read at distance 1; writes re-write runs written 10 runs
 * before, from their first block. */
static void make_reuse(struct model_trace *tr)
{
	trace_init(tr);
	uint64_t runs[512];
	int64_t i = 0;
	for (int w = 0; w < 400; w++) {
		for (int k = 0; k < 4; k++) /* single reads */
			push(tr, i++, REEL_OP_READ,
			     (uint64_t)(unit_urand(&rs) * (double)(NBLK / 2)) * 4096, 4096);
		for (int k = 0; k < 4; k++) { /* a block, again, then the next */
			uint64_t off = (uint64_t)(unit_urand(&rs) * (double)(NBLK / 2)) * 4096;
			push(tr, i++, REEL_OP_READ, off, 4096);
			push(tr, i++, REEL_OP_READ, off, 4096);
			push(tr, i++, REEL_OP_READ, off + 4096, 4096);
		}
		uint64_t at = w % 2 && w >= 20 ? runs[w - 19] : CAP / 2 + (uint64_t)w * 64 * 4096;
		runs[w] = at;
		for (int k = 0; k < 6; k++)
			push(tr, i++, REEL_OP_WRITE, at + (uint64_t)k * 4096, 4096);
	}
	CHECK(model_trace_sort(tr) == 0);
}

/* The trace m generates for seed (unit_model_gen with only a seed) */
static void gen_trace(const struct model *m, uint64_t seed, struct model_trace *out)
{
	struct model_gen_opts o = {.seed = seed};
	unit_model_gen(m, &o, out);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The median reuse distance (I/O since the block's last touch) of the
 * write run starts re-using a block; *WS: the blocks written. */
static int64_t write_reuse(const struct model_trace *t, size_t *ws, size_t *rw)
{
	int64_t *last = calloc(NBLK, sizeof(*last)), *d = malloc(t->n * sizeof(*d));
	uint8_t *wr = calloc(NBLK, 1);
	CHECK(last && d && wr);
	size_t nd = 0;
	uint64_t end = UINT64_MAX;
	*ws = *rw = 0;
	for (size_t i = 0; i < t->n; i++) {
		uint64_t b0 = t->off[i] / 4096, b1 = (t->off[i] + t->len[i] - 1) / 4096;
		if (b1 >= NBLK)
			continue;
		int64_t recent = 0;
		for (uint64_t b = b0; b <= b1; b++)
			recent = last[b] > recent ? last[b] : recent;
		if (t->op[i] == REEL_OP_WRITE && t->off[i] != end && recent)
			d[nd++] = (int64_t)i + 1 - recent;
		int again = 0;
		for (uint64_t b = b0; b <= b1; b++)
			again |= wr[b];
		*rw += t->op[i] == REEL_OP_WRITE && again;
		for (uint64_t b = b0; b <= b1; b++) {
			last[b] = (int64_t)i + 1;
			if (t->op[i] == REEL_OP_WRITE && !wr[b]) {
				wr[b] = 1;
				++*ws;
			}
		}
		end = t->off[i] + t->len[i];
	}
	qsort(d, nd, sizeof(*d), cmp_i64);
	int64_t med = nd ? d[nd / 2] : 0;
	free(last);
	free(d);
	free(wr);
	return med;
}

static void round_trip(const struct model *m)
{
	char *text;
	size_t len = 0;
	struct model r;
	unit_model_reread(m, &r, &text, &len);
	CHECK(strstr(text, "\"reuse_distance_write\"") != NULL);
	CHECK(strstr(text, "\"reuse_cont_rw\"") != NULL);
	const struct model_devspace *a = &m->devs[0], *b = &r.devs[0];
	CHECK_EQ(b->reuse_dist_w.nk, a->reuse_dist_w.nk);
	CHECK(b->reuse_dist_w.nk >= 2 && b->reuse_dist_w.v[b->reuse_dist_w.nk - 1] ==
					     a->reuse_dist_w.v[a->reuse_dist_w.nk - 1]);
	for (int k = 0; k < 2; k++)
		CHECK(fabsf(b->reuse_cont_op[k] - a->reuse_cont_op[k]) < 0.01f);
	model_free(&r);
	/* a writes' continuation share out of range: refused, with its path */
	char *p = strstr(text, "\"reuse_cont_rw\": [");
	CHECK(p != NULL);
	memcpy(p + strlen("\"reuse_cont_rw\": ["), "7", 1);
	unit_model_refused(text, len, "devices[0].reuse_cont_rw", "out of range");
	free(text);
}

static void run_reuse(void)
{
	char err[512];
	struct model_trace a, b;
	make_reuse(&a);
	struct model m;
	struct model_fit_opts fo = {0, 0};
	CHECK(model_fit(&m, &a, &fo, err, sizeof(err)) == 0);
	const struct model_devspace *d = &m.devs[0];
	printf("fit: p_reuse %.3f (reads %.3f, writes %.3f), distances %u knots, writes' %u, "
	       "runs' next I/O re-using: reads %.2f, writes %.2f\n",
	       d->p_reuse, d->p_reuse_op[0], d->p_reuse_op[1], d->reuse_dist.nk, d->reuse_dist_w.nk,
	       d->reuse_cont_op[0], d->reuse_cont_op[1]);
	CHECK(d->reuse_dist_w.nk >= 2);
	CHECK(model_dist_inv(&d->reuse_dist_w, 0.5) >= 100);
	CHECK(model_dist_inv(&d->reuse_dist, 0.5) <= 2);
	CHECK(d->reuse_cont_op[1] >= 0.9 && d->reuse_cont_op[0] <= 0.1);
	round_trip(&m);
	size_t ws_a, rw_a;
	int64_t med_a = write_reuse(&a, &ws_a, &rw_a);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		size_t ws_b, rw_b;
		gen_trace(&m, seed, &b);
		int64_t med_b = write_reuse(&b, &ws_b, &rw_b);
		printf("seed %llu: write re-use median distance %lld (trace %lld), blocks written "
		       "%zu (trace %zu), writes re-writing %zu (trace %zu)\n",
		       (unsigned long long)seed, (long long)med_b, (long long)med_a, ws_b, ws_a,
		       rw_b, rw_a);
		CHECK(med_b >= 50);
		model_trace_free(&b);
	}
	model_trace_free(&a);
	model_free(&m);
}

static void run_size_once(void)
{
	char err[512];
	struct model_trace a, b;
	trace_init(&a);
	for (int64_t i = 0; i < 2001; i++)
		push(&a, i, REEL_OP_WRITE,
		     (uint64_t)(unit_urand(&rs) * (double)(NBLK - 256)) * 4096,
		     i == 1000 ? BIG : 4096);
	CHECK(model_trace_sort(&a) == 0);
	struct model m;
	struct model_fit_opts fo = {0, 0};
	CHECK(model_fit(&m, &a, &fo, err, sizeof(err)) == 0);
	size_t big = 0, between = 0;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		gen_trace(&m, seed, &b);
		for (size_t i = 0; i < b.n; i++) {
			big += b.len[i] == BIG;
			between += b.len[i] > 4096 && b.len[i] < BIG;
		}
		model_trace_free(&b);
	}
	printf("size seen once: seeds 1-20 drew it %zu times, sizes in between %zu\n", big,
	       between);
	CHECK(big >= 8 && big <= 40);
	CHECK(between <= 4);
	model_trace_free(&a);
	model_free(&m);
}

static void run_size_before_run(void)
{
	char err[512];
	struct model_trace a, b;
	trace_init(&a);
	int64_t i = 0;
	for (; i < NSCAT; i++)
		push(&a, i, REEL_OP_WRITE, (uint64_t)(unit_urand(&rs) * (double)(NBLK / 2)) * 4096,
		     4096);
	push(&a, i++, REEL_OP_WRITE, CAP / 2, BIG);
	for (int k = 0; k < 44; k++)
		push(&a, i++, REEL_OP_WRITE, CAP * 3 / 4 + (uint64_t)k * 4096, 4096);
	CHECK(model_trace_sort(&a) == 0);
	struct model m;
	struct model_fit_opts fo = {0, 0};
	CHECK(model_fit(&m, &a, &fo, err, sizeof(err)) == 0);
	CHECK_EQ(m.devs[0].nlong, 1);
	size_t ws_a, rw;
	write_reuse(&a, &ws_a, &rw);
	int whole = 0;
	for (uint64_t seed = 1; seed <= 32; seed++) {
		size_t ws_b, big = 0;
		gen_trace(&m, seed, &b);
		write_reuse(&b, &ws_b, &rw);
		for (size_t k = 0; k < b.n; k++)
			big += b.len[k] == BIG;
		printf("before a kept run: seed %2llu: %zu of %u KiB, blocks written %zu (trace "
		       "%zu)\n",
		       (unsigned long long)seed, big, BIG / 1024, ws_b, ws_a);
		whole += big == 1 && ws_b * 4 >= ws_a * 3;
		model_trace_free(&b);
	}
	printf("before a kept run: the large write whole on %d of 32 seeds\n", whole);
	CHECK_EQ(whole, 32);
	model_trace_free(&a);
	model_free(&m);
}

/* Hot blocks, cold 1-block writes, and 15-block writes in a band of their
 * own: 4 hot blocks 2 MiB apart re-written in turn, a cold write after
 * each turn (one after the other at 16 MiB), and every 8th turn a 15-block
 * write (one after the other at 48 MiB). */
#define HOTB 4
#define BIGW (15 * 4096)
#define BAND (48 * MIB)
static void run_fresh_band(void)
{
	char err[512];
	struct model_trace a, b;
	trace_init(&a);
	int64_t i = 0;
	for (int t = 0; t < 800; t++) {
		for (int k = 0; k < HOTB; k++)
			push(&a, i++, REEL_OP_WRITE, 32 * MIB + (uint64_t)k * 2 * MIB, 4096);
		push(&a, i++, REEL_OP_WRITE, 16 * MIB + (uint64_t)t * 4096, 4096);
		if (t % 8 == 7)
			push(&a, i++, REEL_OP_WRITE, BAND + (uint64_t)(t / 8) * BIGW, BIGW);
	}
	CHECK(model_trace_sort(&a) == 0);
	struct model m;
	struct model_fit_opts fo = {0, 0};
	CHECK(model_fit(&m, &a, &fo, err, sizeof(err)) == 0);
	const struct model_devspace *d = &m.devs[0];
	CHECK(d->fresh_share_fitted);
	double in_band = 0;
	for (uint32_t r = 0; r < d->nregions; r++)
		if (d->bound[r + 1] > BAND && d->bound[r] <= BAND + 100 * BIGW)
			in_band += d->fresh_share[r];
	printf("fresh band: p_reuse %.2f, 15-block starts' regions: %.2f over the band\n",
	       d->p_reuse, in_band);
	CHECK(in_band >= 0.99);
	char *text;
	size_t len = 0;
	struct model r;
	unit_model_reread(&m, &r, &text, &len);
	CHECK(r.devs[0].fresh_share_fitted);
	for (uint32_t k = 0; k < d->nregions; k++)
		CHECK(fabsf(r.devs[0].fresh_share[k] - d->fresh_share[k]) < 0.001f);
	model_free(&r);
	free(text);
	size_t ws_a, rw;
	write_reuse(&a, &ws_a, &rw);
	for (uint64_t seed = 1; seed <= 8; seed++) {
		size_t ws_b, nbig = 0, fresh = 0;
		gen_trace(&m, seed, &b);
		write_reuse(&b, &ws_b, &rw);
		uint8_t *wr = calloc(NBLK, 1);
		CHECK(wr != NULL);
		for (size_t k = 0; k < b.n; k++) {
			uint64_t b0 = b.off[k] / 4096, b1 = (b.off[k] + b.len[k] - 1) / 4096;
			int clean = b1 < NBLK;
			for (uint64_t x = b0; clean && x <= b1; x++)
				clean = !wr[x];
			if (b.len[k] == BIGW) {
				nbig++;
				/* above the hot blocks: the band's region */
				fresh += clean && b.off[k] > 38 * MIB;
			}
			for (uint64_t x = b0; x <= b1 && x < NBLK; x++)
				wr[x] = 1;
		}
		free(wr);
		printf("fresh band: seed %llu: %zu of %zu 15-block writes fresh in its region, "
		       "blocks written %zu (trace %zu)\n",
		       (unsigned long long)seed, fresh, nbig, ws_b, ws_a);
		CHECK(nbig >= 80 && fresh * 10 >= nbig * 9);
		CHECK(ws_b * 10 >= ws_a * 9);
		model_trace_free(&b);
	}
	model_trace_free(&a);
	model_free(&m);
}

int main(void)
{
	run_reuse();
	run_size_once();
	run_size_before_run();
	run_fresh_band();
	return 0;
}
