/*
 * test_model_near_resume: near starts (p_near, several devices) leave out
 * the remote jumps that resume where one of the last MODEL_RESUME_BACK
 * I/O of their op ended (p_resume's), which the re-use pass now reads
 * from the walk's bits (dev_fit's rsb, set in pass 3 by the walk's I/O
 * count, read in pass 4 by the re-use pass's).  Three 64 GiB devices,
 * their I/O in turn: runs, random fresh starts anywhere, and starts that
 * resume a recent I/O's end of the same op (A) or land 64 KiB past one
 * (B: near, not a resume).  A's resumes, if looked at, would be near
 * starts far above chance: its fit keeps no p_near on any device; B's
 * keeps one on every device (the look works).  The bits read one I/O off,
 * or not set, fail A.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define NDEV 3
#define PER 6000
#define BACK 64

static void make_trace(struct model_trace *tr, int near, uint64_t rs)
{
	unit_model_trace_one(tr, "sda");
	tr->ndev = NDEV;
	for (int d = 0; d < NDEV; d++) {
		snprintf(tr->devs[d].name, sizeof(tr->devs[d].name), "sd%c", 'a' + d);
		tr->devs[d].capacity = 64ull << 30;
	}
	uint64_t end[NDEV][2][BACK] = {{{0}}}, ne[NDEV][2] = {{0}}, prev[NDEV] = {0};
	int64_t t = 0;
	for (int i = 0; i < NDEV * PER; i++) {
		int d = i % NDEV, w = unit_urand(&rs) < 0.4;
		double u = unit_urand(&rs);
		uint64_t off, n = ne[d][w] < BACK ? ne[d][w] : BACK;
		if (i >= NDEV && u < 0.35) /* a run goes on */
			off = prev[d];
		else if (n && u < 0.65) /* a recent end of the op: resumed, or near it */
			off = end[d][w][unit_below(&rs, (double)n)] + (near ? 64 << 10 : 0);
		else /* fresh, anywhere */
			off = unit_below(&rs, (double)(16ull << 20)) << 12;
		unit_model_push_op(tr, t += 1000000, (uint16_t)d, w ? REEL_OP_WRITE : REEL_OP_READ,
				   off);
		prev[d] = off + 4096;
		end[d][w][ne[d][w]++ % BACK] = off + 4096;
	}
	CHECK(model_trace_sort(tr) == 0);
}

int main(void)
{
	for (int near = 0; near < 2; near++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct model_trace tr;
			struct model m;
			make_trace(&tr, near, 0x9e3779b97f4a7c15ull * seed);
			unit_model_fit(&m, &tr);
			CHECK_EQ(m.ndevs, NDEV);
			for (size_t d = 0; d < NDEV; d++) {
				double p = m.devs[d].p_near;
				printf("%s seed %llu device %zu: p_near %.3f, p_resume %.3f\n",
				       near ? "near" : "resumed", (unsigned long long)seed, d, p,
				       m.devs[d].p_resume);
				CHECK(near ? p > 0.2 : p == 0);
				CHECK(near || m.devs[d].p_resume > 0.2);
			}
			model_free(&m);
			model_trace_free(&tr);
		}
	return 0;
}
