/*
 * test_model_pregather: pass 4's blocks gathered on the main thread for
 * the second thread's re-use pass (struct reuse_pre, reuse_pregather_w,
 * model_devs_pregather; disksim's 16 disks).  (1) The gather, plain and
 * AVX2, keeps what a reference written from reuse_blocks and mix64 keeps:
 * each I/O's device index or -1 (a flush, a device done), its sampled
 * blocks' keys and hashes in order, and stops at the first I/O whose
 * blocks might not fit in PRE_CAP (I/O of 0 bytes to past FIT_REUSE_SPAN
 * blocks, limits of every shift, devices done).  (2) A fit of three 64 GiB
 * devices (no sample map, no direct extent: the gather goes to the main
 * thread; 240k I/O, four chunks, the map halving in the pass, chunks past
 * PRE_CAP at first) on two threads is the same model as on one
 * (IOREEL_FIT_READAHEAD=0: no second thread, the pass gathers its own).
 */
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define NIO 3000
#define NDEV 3

static size_t gather_ref(const struct fit_cols *c, const int8_t *slot, const uint8_t *live,
			 uint64_t lim, uint16_t *at, int8_t *dev, uint64_t *k, uint64_t *h)
{
	uint32_t m = 0;
	at[0] = 0;
	for (size_t i = 0; i < c->n; i++) {
		int8_t d = slot[c->dev[i]];
		d = c->op[i] != REEL_OP_FLUSH && live[d] ? d : -1;
		if (d >= 0) {
			uint64_t b0 = c->off[i] / 4096,
				 b1 = (c->off[i] + (c->len[i] ? c->len[i] - 1 : 0)) / 4096;
			if (b1 - b0 + 1 > 4096)
				b1 = b0 + 4095;
			if (m + (b1 - b0 + 1) > PRE_CAP)
				return i;
			for (uint64_t b = b0; b <= b1; b++) {
				uint64_t key = (uint64_t)c->dev[i] << 52 ^ b, hash = mix64(key);
				if (hash <= lim) {
					k[m] = key;
					h[m++] = hash;
				}
			}
		}
		dev[i] = d;
		at[i + 1] = (uint16_t)m;
	}
	return c->n;
}

static size_t gather_plain(const struct fit_cols *c, const int8_t *slot, const uint8_t *live,
			   uint64_t lim, struct reuse_pre *p)
{
	return reuse_pregather_w(c, slot, live, lim, 0, p);
}
#if FIT_HASH_AVX2
__attribute__((target("avx2"))) static size_t gather_avx2(const struct fit_cols *c,
							  const int8_t *slot, const uint8_t *live,
							  uint64_t lim, struct reuse_pre *p)
{
	return reuse_pregather_w(c, slot, live, lim, 1, p);
}
#endif

static uint64_t off[NIO], kr[PRE_CAP], hr[PRE_CAP];
static uint32_t len[NIO];
static uint16_t atr[NIO + 1];
static uint8_t op[NIO];
static uint16_t dv[NIO];
static int8_t devr[NIO];

static void test_gather(void)
{
	struct reuse_pre *p = malloc(sizeof(*p));
	CHECK(p != NULL);
	int8_t slot[8] = {0, 1, 2, 3, 0, 1, 2, 3}; /* ids 0-7, two ids an index */
	uint64_t rs = 0x853c49e6748fea9bull, stops = 0, kept = 0;
	int avx2 = FIT_HASH_AVX2 && reel_has_avx2();
	for (int round = 0; round < 400; round++) {
		uint8_t live[4] = {1, 1, 1, 1};
		live[unit_below(&rs, 5) % 4] = round % 3 != 0; /* a device done */
		size_t n = 1 + unit_below(&rs, NIO);
		int big = round % 8; /* in 100 I/O: those of up to 40 MiB */
		for (size_t i = 0; i < n; i++) {
			dv[i] = (uint16_t)unit_below(&rs, 8);
			op[i] = (uint8_t)unit_below(&rs, REEL_OP__COUNT);
			off[i] = (round % 2 ? (1ull << 50) : 0) + unit_below(&rs, 1ull << 36);
			len[i] = unit_below(&rs, 100) < (uint64_t)big
				     ? (uint32_t)unit_below(&rs, 40ull << 20)
				     : (uint32_t)unit_below(&rs, 16) * 4096 +
					   (uint32_t)unit_below(&rs, 2) * 512;
		}
		struct fit_cols c = {.n = n, .off = off, .len = len, .op = op, .dev = dv};
		/* every shift, most rounds at the first few (the cap reached) */
		int sh = round % 3 ? round / 3 % 4 : round / 3 % 64;
		uint64_t lim = round % 97 == 5 ? 0 : UINT64_MAX >> sh;
		size_t nr = gather_ref(&c, slot, live, lim, atr, devr, kr, hr);
		for (int way = 0; way < 1 + avx2; way++) {
			memset(p->at, 0xff, (n + 1) * sizeof(*p->at));
			size_t ng = way ? 0 : gather_plain(&c, slot, live, lim, p);
#if FIT_HASH_AVX2
			if (way)
				ng = gather_avx2(&c, slot, live, lim, p);
#endif
			CHECK_EQ(ng, nr);
			CHECK_EQ(p->n, nr);
			CHECK(!memcmp(p->at, atr, (nr + 1) * sizeof(*atr)));
			CHECK(!memcmp(p->dev, devr, nr * sizeof(*devr)));
			CHECK(!memcmp(p->k, kr, atr[nr] * sizeof(*kr)));
			CHECK(!memcmp(p->h, hr, atr[nr] * sizeof(*hr)));
		}
		stops += nr < n;
		kept += atr[nr];
	}
	printf("gather: 400 chunks, %llu stopped at PRE_CAP, %llu blocks kept\n",
	       (unsigned long long)stops, (unsigned long long)kept);
	CHECK(stops > 50 && stops < 350);
	free(p);
}

#define PER 80000

static void make_trace(struct model_trace *tr, uint64_t rs)
{
	unit_model_trace_one(tr, "sda");
	tr->ndev = NDEV;
	for (int d = 0; d < NDEV; d++) {
		snprintf(tr->devs[d].name, sizeof(tr->devs[d].name), "sd%c", 'a' + d);
		tr->devs[d].capacity = 64ull << 30;
	}
	uint64_t prev[NDEV] = {0}, hot[NDEV][64];
	for (int d = 0; d < NDEV; d++)
		for (int x = 0; x < 64; x++)
			hot[d][x] = unit_below(&rs, 16ull << 20) << 12;
	int64_t t = 0;
	for (int i = 0; i < NDEV * PER; i++) {
		int d = (int)unit_below(&rs, NDEV), w = unit_urand(&rs) < 0.4;
		double u = unit_urand(&rs);
		uint64_t o;
		if (u < 0.3) /* a run goes on */
			o = prev[d];
		else if (u < 0.45) /* a hot place: re-used */
			o = hot[d][unit_below(&rs, 64)];
		else /* fresh, anywhere */
			o = unit_below(&rs, 16ull << 20) << 12;
		uint32_t l = (1 + (uint32_t)unit_below(&rs, 16)) * 4096;
		unit_model_push_op(tr, t += 1000, (uint16_t)d, w ? REEL_OP_WRITE : REEL_OP_READ, o);
		tr->len[tr->n - 1] = l;
		prev[d] = o + l;
	}
	CHECK(model_trace_sort(tr) == 0);
}

static void test_fit(void)
{
	struct model_trace tr;
	struct model m2, m1;
	char *j2, *j1;
	size_t n2, n1;
	make_trace(&tr, 0x9e3779b97f4a7c15ull);
	setenv("IOREEL_FIT_READAHEAD", "1", 1);
	unit_model_fit(&m2, &tr);
	setenv("IOREEL_FIT_READAHEAD", "0", 1);
	unit_model_fit(&m1, &tr);
	unsetenv("IOREEL_FIT_READAHEAD");
	unit_model_json(&m2, &j2, &n2);
	unit_model_json(&m1, &j1, &n1);
	printf("fit: %zu devices, p_reuse %.3f %.3f %.3f; JSON %zu / %zu bytes\n", m2.ndevs,
	       m2.devs[0].p_reuse, m2.devs[1].p_reuse, m2.devs[2].p_reuse, n2, n1);
	CHECK_EQ(m2.ndevs, NDEV);
	CHECK(m2.devs[0].p_reuse > 0);
	CHECK_EQ(n2, n1);
	CHECK(!memcmp(j2, j1, n1));
	free(j2);
	free(j1);
	model_free(&m2);
	model_free(&m1);
	model_trace_free(&tr);
}

int main(void)
{
	test_gather();
	test_fit();
	return 0;
}
