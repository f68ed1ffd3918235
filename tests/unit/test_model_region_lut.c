/*
 * test_model_region_lut: gen_region_lut's search (model/gen_internal.h,
 * rlut_k steps whatever the table's entry, from the first of N regions,
 * gen_region_lut_init's table) answers as the plain search over the
 * bounds, the last region whose bound is at or below the offset:
 * - on devices of 1 to MODEL_MAX_REGIONS regions, their widths at random
 *   over 12 orders (many regions in one entry: every K from 0 to 8), and
 *   of equal widths, at every bound and a byte either side and at random
 *   offsets under the last bound;
 * - the table's K the least with N <= 2^K, its first step N - 2^(K - 1),
 *   no entry's first region past N before the end.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

static struct model_devspace dv;
static struct devstate st;
static int k_seen[9];

/* the last region whose bound is at or below XI */
static uint32_t ref_region(const struct model_devspace *d, uint64_t xi)
{
	uint32_t r = 0;
	while (r + 1 < d->nregions && d->bound[r + 1] <= xi)
		r++;
	return r;
}

static void check_at(uint64_t xi)
{
	if (xi < dv.bound[dv.nregions])
		CHECK_EQ(gen_region_lut(&dv, &st, xi), ref_region(&dv, xi));
}

/* DV's table made and its search held to ref_region */
static void check_device(uint64_t *rs)
{
	memset(&st, 0, sizeof(st));
	st.scale = 1;
	gen_region_lut_init(&dv, &st);
	uint32_t n = 1, k = st.rlut_k; /* the most regions an entry spans */
	for (uint64_t x = 0; x < GEN_RLUT; x++) {
		uint32_t a = ref_region(&dv, x << st.rlut_sh),
			 b = ref_region(&dv, (x + 1) << st.rlut_sh);
		n = b - a + 1 > n ? b - a + 1 : n;
		CHECK(st.rlut[x] <= a && st.rlut[x] + n - 1 >= b); /* the window holds both */
	}
	CHECK(k <= 8 && n <= (1u << k) && (k == 0 || (1u << (k - 1)) < n));
	CHECK_EQ(st.rlut_f, k ? n - (1u << (k - 1)) : 0);
	k_seen[k] = 1;
	for (uint32_t r = 0; r <= dv.nregions; r++) {
		uint64_t b = dv.bound[r];
		check_at(b ? b - 1 : 0);
		check_at(b);
		check_at(b + 1);
	}
	for (int i = 0; i < 2000; i++)
		check_at(unit_below(rs, (double)dv.bound[dv.nregions]));
}

int main(void)
{
	uint64_t rs = 0x243f6a8885a308d3ull;
	for (int set = 0; set < 400; set++) {
		memset(&dv, 0, sizeof(dv));
		dv.nregions =
		    set < 8 ? 1u << set : 1 + (uint32_t)unit_below(&rs, MODEL_MAX_REGIONS);
		dv.nregions = dv.nregions > MODEL_MAX_REGIONS ? MODEL_MAX_REGIONS : dv.nregions;
		for (uint32_t r = 0; r < dv.nregions; r++) {
			double w = set % 5 == 0				 ? 4096
				   : set % 7 == 1 && r + 1 < dv.nregions ? unit_below(&rs, 16)
				   : set % 7 == 1
				       ? exp2(40) /* all but the last in entry 0 */
				       : exp2(12 + 40 * unit_urand(&rs) * unit_urand(&rs));
			dv.bound[r + 1] = dv.bound[r] + 1 + (uint64_t)w;
		}
		check_device(&rs);
	}
	for (int k = 0; k <= 8; k++) {
		printf("K %d %s\n", k, k_seen[k] ? "seen" : "not seen");
		CHECK(k_seen[k]);
	}
	printf("ok\n");
	return 0;
}
