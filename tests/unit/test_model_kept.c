/*
 * test_model_kept: the densest windows' first and last arrivals kept.
 *
 * A trace of 2.56 s (256 windows of 10 ms): one 4 KiB read every 50 ms
 * (but in window 100), 1 ms into its window, and in window 100 a burst of
 * 200 reads from 3 ms
 * to 6 ms into it (two runs of 100 reads 2 us apart).  The burst is
 * nearly all of the windows' squared counts, so the model keeps it:
 * windows.kept holds [100, 300000, 600000] (ppm of the window), which
 * MODEL.json gives back, and a kept window out of order or ending before
 * it starts is refused with its path.  Generated (seeds 1-5), window
 * 100's arrivals start at 3 ms and end at 6 ms into it (within 100 ns);
 * drawn as before, the burst started where the sparse windows' first
 * arrivals do (1 ms) and ran as long as its gaps drew.
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
		else if (w % 5 == 0 && w != 100)
			unit_model_push(tr, ws + 1000000, 0, off += 1 << 20);
		if (w == 100)
			for (int k = 0; k < 200; k++) {
				int64_t t = k < 100 ? ws + 3000000 + k * 2000
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
		if (m->kept[k].w == 100) {
			found = 1;
			CHECK(m->kept[k].first_ppm >= 299999 && m->kept[k].first_ppm <= 300001);
			CHECK(m->kept[k].last_ppm >= 599999 && m->kept[k].last_ppm <= 600001);
		}
	CHECK(found);
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
		      r.kept[k].last_ppm == m->kept[k].last_ppm);
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
	free(bad);
	free(text);
}

static void test_gen_places(const struct model *m)
{
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct model_trace g;
		struct model_gen_opts o = {.seed = seed};
		unit_model_gen(m, &o, &g);
		int64_t ws = 100 * WIN, lo = -1, hi = -1;
		size_t n = 0;
		for (size_t i = 0; i < g.n; i++)
			if (g.t[i] >= ws && g.t[i] < ws + WIN) {
				lo = lo < 0 ? g.t[i] : lo;
				hi = g.t[i];
				n++;
			}
		printf("seed %llu: window 100 holds %zu, from %.4f to %.4f ms\n",
		       (unsigned long long)seed, n, (double)(lo - ws) / 1e6,
		       (double)(hi - ws) / 1e6);
		CHECK(n == 200);
		CHECK(llabs(lo - ws - 3000000) <= 100);
		CHECK(llabs(hi - ws - 6000000) <= 100);
		model_trace_free(&g);
	}
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
	return 0;
}
