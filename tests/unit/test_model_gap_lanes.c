/*
 * test_model_gap_lanes: draw_gaps' draws (two a gap) and its cascade's
 * from garr5's four AVX2 lanes of the stream (gen_gap_lanes_min) give the
 * records of the draws one by one, every byte of every record: the lanes
 * opened in windows of any size (a window of one I/O: opened and closed
 * unread), at the defaults (1024 gaps not cascaded, 128 cascaded) and
 * never, and with gen's SIMD paths off (reel_codec_plain), on corpus
 * models with cascades, burst layouts (the lanes closed before their
 * draws), 2 phases, 16 devices and one phase of blktrace's, at rates
 * whose windows hold from a few gaps to 200 K (their gap loops over many
 * chunks of 2,048 draws, the cascade's reads going on in the chunk the
 * gaps left).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "formats/reel_internal.h"
#include "model/gen_internal.h"
#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static void test_same(const char *name, double rate, uint64_t max, uint64_t seed)
{
	struct model m;
	unit_model_load_corpus(&m, name);
	struct model_gen_opts o = {.rate = rate, .seed = seed, .max_records = max};
	size_t n[4];
	uint64_t h[4];
	gen_gap_lanes_min(SIZE_MAX, SIZE_MAX); /* never: rnd() */
	h[0] = unit_model_records_hash(&m, &o, 0, &n[0]);
	gen_gap_lanes_min(0, 0); /* any window */
	h[1] = unit_model_records_hash(&m, &o, 0, &n[1]);
	gen_gap_lanes_min(1024, 128);
	h[2] = unit_model_records_hash(&m, &o, 0, &n[2]);
	gen_gap_lanes_min(0, 0); /* asked for, not taken: plain */
	h[3] = unit_model_records_hash(&m, &o, 1, &n[3]);
	gen_gap_lanes_min(1024, 128);
	for (int k = 1; k < 4; k++) {
		CHECK_EQ(n[k], n[0]);
		CHECK(h[k] == h[0]);
	}
	CHECK(n[0] > 0);
	printf("%s rate %g seed %llu: %zu records the same 4 ways\n", name, rate,
	       (unsigned long long)seed, n[0]);
	model_free(&m);
}

int main(void)
{
	test_same("fiu_burst_len", 1, 0, 1);
	test_same("fiu_burst_len", 50, 200000, 2);
	test_same("chromium_pass_burst", 1, 0, 3);
	test_same("chromium_pass_burst", 30, 200000, 4);
	test_same("fiu_2phases", 5, 0, 5);
	test_same("fiu_2phases", 2000, 300000, 6); /* windows of 200 K */
	test_same("disksim_16dev", 8, 0, 7);
	test_same("blktrace_one_phase", 200, 300000, 8);
	test_same("boot_nspawn_local_odds", 20, 200000, 9);
	test_same("compile_read_share", 40, 200000, 10);
	return 0;
}
