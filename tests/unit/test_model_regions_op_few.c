/*
 * test_model_regions_op_few: the regions' read shares on a device of few
 * writes (device_ops).  Such a device can hold its ops apart only by
 * 2p(1-p) (p its read share): reads 0.9 of the I/O are at most 0.18
 * apart, under an absolute 0.2, so fit keeps the read shares where the
 * distance is MODEL_OP_APART of that most, and a G-test of regions x op
 * rejects at MODEL_OP_Z (git's 10M output: 0.186 of 0.218, dropped by
 * the absolute rule).  One device of 2 GiB, each I/O 4 KiB at a place of
 * its own (remote jumps), a write with odds 1 in 10:
 * - apart: the writes in the top eighth (a log), the reads in the rest:
 *   kept;
 * - mixed: the writes anywhere as the reads: not kept;
 * - few: 6 writes of 300, anywhere: their regions' read shares are apart
 *   by chance (over MODEL_OP_APART of the most) and the G-test holds them
 *   off (disksim's disk 8: 8 reads of 150 in 8 regions, 0.77 of the most);
 * - halves: 80 I/O, writes 0.8 of the top half's and 0.2 of the rest: 0.2
 *   or more apart, kept by the absolute rule of before whatever the G-test
 *   (MODEL_OP_APART_ABS: the relative rule only adds devices).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define SPAN (2048ull << 20)

enum place { APART, MIXED, HALVES };

static void make_trace(struct model_trace *tr, uint64_t seed, int nio, int nwrite, enum place pl)
{
	uint64_t rs = seed;
	unit_model_trace_one(tr, "sda");
	int64_t t = 0;
	for (int n = 0; n < nio; n++) {
		int w = nwrite ? n % (nio / nwrite) == nio / nwrite / 2 : unit_urand(&rs) < 0.1;
		uint64_t lo = 0, span = SPAN;
		if (pl == HALVES) { /* writes 0.8 of the top half's I/O, 0.2 of the rest */
			lo = n % 2 ? SPAN / 2 : 0;
			span = SPAN / 2;
			w = unit_urand(&rs) < (n % 2 ? 0.8 : 0.2);
		}
		if (pl == APART) {
			lo = w ? SPAN / 8 * 7 : 0;
			span = w ? SPAN / 8 : SPAN / 8 * 7;
		}
		uint64_t off = lo + (uint64_t)(unit_urand(&rs) * (double)(span / 4096)) * 4096;
		unit_model_push_op(tr, t += 1000000, 0, w ? REEL_OP_WRITE : REEL_OP_READ, off);
	}
	CHECK(model_trace_sort(tr) == 0);
}

/* The device's mean distance of a region's read share from its own, over
 * its I/O, as a share of the most it can be; the reads' share in *P. */
static double apart_share(const struct model_devspace *d, const struct model_trace *tr, double *p)
{
	size_t nr = 0;
	for (size_t i = 0; i < tr->n; i++)
		nr += tr->op[i] == REEL_OP_READ;
	*p = (double)nr / (double)tr->n;
	double apart = 0;
	for (uint32_t r = 0; r < d->nregions; r++)
		apart += d->weight[r] * fabs(d->read_share[r] - *p);
	return apart / (2 * *p * (1 - *p));
}

static int fitted(const char *name, uint64_t seed, int nio, int nwrite, enum place pl,
		  double *share, double *abs_apart)
{
	struct model_trace a;
	struct model m;
	double p;
	make_trace(&a, seed, nio, nwrite, pl);
	unit_model_fit(&m, &a);
	*share = apart_share(&m.devs[0], &a, &p);
	*abs_apart = *share * 2 * p * (1 - p);
	int kept = m.devs[0].read_share_fitted;
	printf("%s seed %llu: %zu I/O, reads %.3f, %u regions, apart %.3f of 2p(1-p) %.3f: "
	       "read_share %s\n",
	       name, (unsigned long long)seed, a.n, p, m.devs[0].nregions, *abs_apart,
	       2 * p * (1 - p), kept ? "kept" : "not kept");
	model_trace_free(&a);
	model_free(&m);
	return kept;
}

int main(void)
{
	int n_abs = 0;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		double s, x;
		uint64_t rs = 0x2545f4914f6cdd1dull * seed;
		CHECK(fitted("apart", rs, 2400, 0, APART, &s, &x));
		CHECK(x < 0.2); /* dropped by the absolute rule of before */
		CHECK(!fitted("mixed", rs, 2400, 0, MIXED, &s, &x));
		CHECK(s < MODEL_OP_APART);
		CHECK(!fitted("few", rs, 300, 6, MIXED, &s, &x));
		CHECK(s >= MODEL_OP_APART); /* the G-test holds it off */
		int kept = fitted("halves", rs, 80, 0, HALVES, &s, &x);
		CHECK(x < MODEL_OP_APART_ABS || kept);
		n_abs += x >= MODEL_OP_APART_ABS;
	}
	CHECK(n_abs >= 1); /* the absolute rule asked at least once */
	return 0;
}
