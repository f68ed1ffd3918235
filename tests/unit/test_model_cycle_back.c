/*
 * test_model_cycle_back: a full device whose hot blocks keep their own
 * period (hot_cycle) and whose other starts re-read what was read a few
 * I/O before: gen's starts that start_cycle sends as fresh, finding no
 * room, go back a reuse distance (cycle_back), not to any block of a cold
 * region.  One device of 16 MiB (4,096 blocks), 60,000 4 KiB I/O: 6 in
 * 10 on 16 hot blocks (8 of them written, 8 read: the regions' read
 * shares kept, where cycle_back places), the rest a walk of reads that
 * re-reads its last block (6 in 10) or steps on (first through the device
 * once in an order of its own, then to one of its last 32 blocks).  Fitted, its MODEL.json read
 * back, its order set to boot's 10M model's (a kept block, then 51 fresh places), generated at rate
 * 1 on seeds 1-3: of the reads off the hot blocks re-using a block, the share within 64 I/O of its
 * last touch within 0.4 of the trace's 0.998 (0.757-0.778; where start_hot's draw landed, 0.048 on
 * seed 1).
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define NBLK 4096
#define NHOT 16
#define NIO 60000

static void make_trace(struct model_trace *tr, uint64_t seed)
{
	static int order[NBLK];
	static uint64_t last[32];
	uint64_t rs = seed, cur = 0;
	unit_model_trace_one(tr, "sda");
	tr->devs[0].capacity = (uint64_t)NBLK * 4096;
	unit_shuffle(order, NBLK, &rs);
	int64_t t = 0;
	for (int n = 0, nw = 0, nl = 0; n < NIO; n++) {
		uint64_t b;
		int op = REEL_OP_READ;
		if (unit_urand(&rs) < 0.6) { /* the first half of the hot blocks written */
			uint64_t h = (uint64_t)(unit_urand(&rs) * NHOT);
			b = h * (NBLK / NHOT);
			op = h < NHOT / 2 ? REEL_OP_WRITE : REEL_OP_READ;
		} else if (nw && unit_urand(&rs) < 0.6) {
			b = cur;
		} else {
			b = cur =
			    nw < NBLK ? (uint64_t)order[nw] : last[(int)(unit_urand(&rs) * 32)];
			nw++;
			last[nl++ % 32] = cur;
		}
		unit_model_push_op(tr, t += 1000000, 0, op, b * 4096);
	}
	CHECK(model_trace_sort(tr) == 0);
}

/* Of TR's reads off the hot blocks that re-use a block, the share within 64
 * I/O of the block's last touch. */
static double near_share(const struct model_trace *tr)
{
	static int64_t seen[NBLK];
	size_t reuse = 0, near = 0;
	for (int i = 0; i < NBLK; i++)
		seen[i] = -1;
	for (size_t i = 0; i < tr->n; i++) {
		uint64_t b = (tr->off[i] >> 12) % NBLK;
		if (b % (NBLK / NHOT) && seen[b] >= 0) {
			reuse++;
			near += (int64_t)i - seen[b] <= 64;
		}
		seen[b] = (int64_t)i;
	}
	return reuse ? (double)near / (double)reuse : 0;
}

int main(void)
{
	struct model_trace a;
	struct model m; /* the fit as gen sees it (its MODEL.json read back) */
	make_trace(&a, 0x9e3779b97f4a7c15ull);
	unit_model_fit_read(&a, &m);
	printf("p_reuse %.3f, hot_cycle %u blocks, hot_order %u, read_share %s\n",
	       m.devs[0].p_reuse, m.devs[0].ncycle, m.devs[0].norder,
	       m.devs[0].read_share_fitted ? "kept" : "not kept");
	CHECK(m.devs[0].p_reuse >= MODEL_REUSE_HOT); /* start_cycle's device */
	CHECK(m.devs[0].ncycle > 0);
	CHECK(m.devs[0].read_share_fitted); /* where cycle_back places */
	/* boot's order (its 10M model): a kept block, then 51 fresh places */
	m.devs[0].norder = 52;
	memset(m.devs[0].order, 0, sizeof(m.devs[0].order));
	memset(m.devs[0].order_len, 0, sizeof(m.devs[0].order_len));
	m.devs[0].order[0] = 1;
	double na = near_share(&a);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct model_gen_opts o = {0};
		struct model_trace b;
		o.seed = seed;
		unit_model_gen(&m, &o, &b);
		double nb = near_share(&b);
		printf("seed %llu: %zu I/O, re-uses off the hot blocks within 64 I/O %.3f "
		       "(trace %.3f)\n",
		       (unsigned long long)seed, b.n, nb, na);
		CHECK(nb > na - 0.4);
		model_trace_free(&b);
	}
	model_trace_free(&a);
	model_free(&m);
	return 0;
}
