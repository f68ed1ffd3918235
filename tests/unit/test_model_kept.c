/*
 * test_model_kept: the densest windows' first and last arrivals kept,
 * and the knots of their arrival curve.
 *
 * A trace of 2.56 s (256 windows of 10 ms): one 4 KiB read every 50 ms
 * (but in windows 100 and 200), 1 ms into its window, and in each of
 * windows 100 and 200 a burst of 200 reads from 3 ms to 6 ms into it:
 * two runs of reads 2 us apart, of 40 then 160 reads in window 100, of
 * 160 then 40 in window 200.  The bursts are nearly all of the windows'
 * squared counts, so the model keeps them: windows.kept holds [100,
 * 300000, 600000, ...] (ppm of the window), which MODEL.json gives back,
 * and a kept window out of order, ending before it starts or with its
 * knots out of order (their places or their I/O) is refused with its
 * path.  Generated (seeds 1-5),
 * window 100's arrivals start at 3 ms and end at 6 ms into it (within
 * 100 ns); drawn as before, the burst started where the sparse windows'
 * first arrivals do (1 ms) and ran as long as its gaps drew.  The knots
 * where the arrival curves bend, each a run's bound: window 100's I/O 39
 * and 40 at 3.078 and 5.682 ms, 3 and 89 hundredths of its span; window
 * 200's I/O 159 and 160 at 3.318 and 5.922 ms, 11 and 97 (the other two
 * knots anywhere: two make each curve exact).  Generated, window 100's I/O
 * 80 falls after 5.5 ms and window 200's I/O 119 before 3.5 ms (with the
 * first and last alone, the windows draw their gaps from the same chain,
 * and the long gap falls where the draw puts it: the same I/O in both).
 *
 * Knots in one hundredth (blkparse's densest window): a second trace
 * whose window 100 holds 41 reads, one at 1 ms, 30 from 5.98 ms 500 ns
 * apart, 10 from 6.1 to 7 ms 100 us apart; its knots include I/O 1, 30
 * and 31, at 83, 83 and 85 hundredths of the 6 ms span.
 * Generated (seeds 1-8), no gap of that window is under 100 ns (the
 * trace's least is 500 ns); fitting each anchor in turn to the nearest
 * end of its knot's interval put I/O 8 at the top of the hundredth where
 * the draw ran past it, and squeezed the gaps of a stretch to 0 (knots
 * of evenly spaced I/O then: I/O 8, 16 and 24, all at 83).
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

#define WIN 10000000ll /* 10 ms */
#define NWIN 256

static void make_trace(struct model_trace *tr)
{
	unit_model_trace_one(tr, "sda");
	uint64_t off = 0;
	for (int w = 0; w < NWIN; w++) {
		int64_t ws = (int64_t)w * WIN;
		if (w == 0)
			unit_model_push(tr, 0, 0, off += 1 << 20);
		else if (w % 5 == 0 && w != 100 && w != 200)
			unit_model_push(tr, ws + 1000000, 0, off += 1 << 20);
		if (w == 100 || w == 200)
			for (int k = 0, run = w == 100 ? 40 : 160; k < 200; k++) {
				int64_t t = k < run ? ws + 3000000 + k * 2000
						    : ws + 6000000 - (199 - k) * 2000;
				unit_model_push(tr, t, 0, off += 4096);
			}
	}
	unit_model_push(tr, (int64_t)NWIN * WIN - 1, 0, off + (1 << 20)); /* the end */
}

static void test_fit_keeps(const struct model *m)
{
	CHECK(m->nwin == NWIN);
	int found = 0;
	for (size_t k = 0; k < m->nkept; k++)
		if (m->kept[k].w == 100 || m->kept[k].w == 200) {
			found++;
			CHECK(m->kept[k].first_ppm >= 299999 && m->kept[k].first_ppm <= 300001);
			CHECK(m->kept[k].last_ppm >= 599999 && m->kept[k].last_ppm <= 600001);
			const uint16_t want[2][2] = {{3, 89}, {11, 97}};
			const uint32_t io[2][2] = {{39, 40}, {159, 160}};
			int b = m->kept[k].w == 200, got = 0;
			CHECK(m->kept[k].nknot == 4);
			for (uint32_t j = 0; j < m->kept[k].nknot; j++)
				for (int q = 0; q < 2; q++)
					if (m->kept[k].knot_io[j] == io[b][q]) {
						got++;
						CHECK(abs((int)m->kept[k].knot[j] - want[b][q]) <=
						      1);
					}
			CHECK(got == 2);
		}
	CHECK(found == 2);
}

static void test_json(const struct model *m)
{
	char *text;
	size_t len;
	struct model r;
	unit_model_reread(m, &r, &text, &len);
	CHECK(r.nkept == m->nkept);
	for (size_t k = 0; k < m->nkept; k++)
		CHECK(r.kept[k].w == m->kept[k].w && r.kept[k].first_ppm == m->kept[k].first_ppm &&
		      r.kept[k].last_ppm == m->kept[k].last_ppm &&
		      r.kept[k].nknot == m->kept[k].nknot &&
		      !memcmp(r.kept[k].knot, m->kept[k].knot, sizeof(r.kept[k].knot)) &&
		      !memcmp(r.kept[k].knot_io, m->kept[k].knot_io, sizeof(r.kept[k].knot_io)));
	model_free(&r);
	char *at = strstr(text, "\"kept\": [");
	CHECK(at != NULL);
	/* the last before the first: refused, the path named */
	char *bad = malloc(len + 64);
	CHECK(bad != NULL);
	size_t head = (size_t)(at - text) + strlen("\"kept\": [");
	memcpy(bad, text, head);
	size_t n = (size_t)sprintf(bad + head, "[100,700000,600000],");
	memcpy(bad + head + n, text + head, len - head);
	unit_model_refused(bad, len + n, "windows.kept", "the last before the first");
	n = (size_t)sprintf(bad + head, "[100,300000,600000,50,40],"); /* knots back */
	memcpy(bad + head + n, text + head, len - head);
	unit_model_refused(bad, len + n, "windows.kept", "knots out of order");
	n = (size_t)sprintf(bad + head, "[100,300000,600000,[50,40],[49,50]],"); /* I/O back */
	memcpy(bad + head + n, text + head, len - head);
	unit_model_refused(bad, len + n, "windows.kept", "knots' I/O out of order");
	n = (size_t)sprintf(bad + head, "[100,300000,600000,[50,40],60],"); /* mixed */
	memcpy(bad + head + n, text + head, len - head);
	unit_model_refused(bad, len + n, "windows.kept", "knots with and without I/O");
	n = (size_t)sprintf(bad + head, "[100,300000,600000,[199,40]],"); /* the last I/O */
	memcpy(bad + head + n, text + head, len - head);
	unit_model_refused(bad, len + n, "windows.kept", "a knot at the window's last I/O");
	free(bad);
	free(text);
}

static void test_gen_places(const struct model *m)
{
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct model_trace g;
		struct model_gen_opts o = {.seed = seed};
		unit_model_gen(m, &o, &g);
		int64_t ws = 100 * WIN, lo = -1, hi = -1, at80 = -1, at119 = -1;
		for (size_t i = 0, n = 0; i < g.n; i++) /* window 200's I/O 119 */
			if (g.t[i] >= 200 * WIN && g.t[i] < 201 * WIN && n++ == 119)
				at119 = g.t[i] - 200 * WIN;
		size_t n = 0;
		for (size_t i = 0; i < g.n; i++)
			if (g.t[i] >= ws && g.t[i] < ws + WIN) {
				lo = lo < 0 ? g.t[i] : lo;
				hi = g.t[i];
				at80 = n == 80 ? g.t[i] - ws : at80;
				n++;
			}
		printf("seed %llu: window 100's I/O 80 at %.4f ms, window 200's 119 at %.4f ms\n",
		       (unsigned long long)seed, (double)at80 / 1e6, (double)at119 / 1e6);
		CHECK(at80 > 5500000);
		CHECK(at119 >= 0 && at119 < 3500000);
		printf("seed %llu: window 100 holds %zu, from %.4f to %.4f ms\n",
		       (unsigned long long)seed, n, (double)(lo - ws) / 1e6,
		       (double)(hi - ws) / 1e6);
		CHECK(n == 200);
		CHECK(llabs(lo - ws - 3000000) <= 100);
		CHECK(llabs(hi - ws - 6000000) <= 100);
		model_trace_free(&g);
	}
}

static void make_trace_burst(struct model_trace *tr)
{
	unit_model_trace_one(tr, "sda");
	uint64_t off = 0;
	for (int w = 0; w < NWIN; w++) {
		int64_t ws = (int64_t)w * WIN;
		if (w == 0 || (w % 5 == 0 && w != 100))
			unit_model_push(tr, ws + (w ? 1000000 : 0), 0, off += 1 << 20);
		if (w == 100) {
			unit_model_push(tr, ws + 1000000, 0, off += 1 << 20);
			for (int k = 0; k < 30; k++)
				unit_model_push(tr, ws + 5980000 + k * 500, 0, off += 4096);
			for (int k = 1; k <= 10; k++)
				unit_model_push(tr, ws + 6000000 + k * 100000, 0, off += 1 << 20);
		}
	}
	unit_model_push(tr, (int64_t)NWIN * WIN - 1, 0, off + (1 << 20)); /* the end */
}

static void test_gen_shared_unit(void)
{
	struct model_trace tr;
	make_trace_burst(&tr);
	struct model m;
	unit_model_fit(&m, &tr);
	const struct model_kept_window *kw = NULL;
	for (size_t k = 0; k < m.nkept; k++)
		kw = m.kept[k].w == 100 ? &m.kept[k] : kw;
	CHECK(kw != NULL && kw->nknot == 4);
	int got = 0;
	for (uint32_t j = 0; kw && j < kw->nknot; j++) {
		printf("burst window's knot %u: I/O %u at %u\n", j, kw->knot_io[j], kw->knot[j]);
		got += (kw->knot_io[j] == 1 || kw->knot_io[j] == 30) && kw->knot[j] == 83;
		got += kw->knot_io[j] == 31 && kw->knot[j] == 85;
	}
	CHECK(got == 3);
	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct model_trace g;
		struct model_gen_opts o = {.seed = seed};
		unit_model_gen(&m, &o, &g);
		int64_t ws = 100 * WIN, least = -1, prev = -1;
		size_t n = 0;
		for (size_t i = 0; i < g.n; i++)
			if (g.t[i] >= ws && g.t[i] < ws + WIN) {
				if (prev >= 0 && (least < 0 || g.t[i] - prev < least))
					least = g.t[i] - prev;
				prev = g.t[i];
				n++;
			}
		printf("seed %llu: the burst window's %zu I/O, least gap %lld ns\n",
		       (unsigned long long)seed, n, (long long)least);
		CHECK(n == 41);
		CHECK(least >= 100);
		model_trace_free(&g);
	}
	model_free(&m);
	model_trace_free(&tr);
}

int main(void)
{
	struct model_trace tr;
	make_trace(&tr);
	struct model m;
	unit_model_fit(&m, &tr);
	test_fit_keeps(&m);
	test_json(&m);
	test_gen_places(&m);
	model_free(&m);
	model_trace_free(&tr);
	test_gen_shared_unit();
	return 0;
}
