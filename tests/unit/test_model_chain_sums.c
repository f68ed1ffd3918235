/*
 * test_model_chain_sums: a remote jump's region from the chain's row given
 * the op (gen_space.c's chain_op) by the sums made once (model/
 * gen_internal.h gen_chain_sums, gen_chain_pick) as round 25's walk found
 * it (copied below: the row's shares times the op's summed twice a draw):
 * the same total bit for bit and the same entry, on 2,000 random chains
 * (rows empty, of one entry, of up to MODEL_MAX_REGIONS; shares of 0, ties,
 * read shares of 0 and 1; every 8th chain with a share going down, whose
 * sums are walked), every row, both ops, draws at random and at the sums
 * themselves and a double either side.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

/* round 25's chain_op: the row's total (*W) and the entry the draw U
 * takes (B - 1 where none: its last) */
static uint32_t ref_pick(const struct model_devspace *d, uint32_t from, int op, double u, double *w)
{
	uint32_t a = d->row[from], b = d->row[from + 1], to = b - 1;
	*w = 0;
	for (uint32_t x = a; x < b; x++)
		*w +=
		    (d->tr_p[x] - (x > a ? d->tr_p[x - 1] : 0)) * gen_op_share(d, d->tr_to[x], op);
	double c = 0, v = u * *w;
	for (uint32_t x = a; x < b; x++)
		if (v < (c += (d->tr_p[x] - (x > a ? d->tr_p[x - 1] : 0)) *
			      gen_op_share(d, d->tr_to[x], op))) {
			to = x;
			break;
		}
	return to;
}

int main(void)
{
	static struct model_devspace d;
	static uint16_t to[MODEL_MAX_REGIONS * MODEL_MAX_REGIONS];
	static double p[MODEL_MAX_REGIONS * MODEL_MAX_REGIONS];
	static double cw[2 * MODEL_MAX_REGIONS * MODEL_MAX_REGIONS + 1];
	uint64_t rs = 0xc4a1d5ull, asked = 0, walked = 0;
	for (int set = 0; set < 2000; set++) {
		unit_model_chain_device(&d, to, p, &rs, set);
		int up = gen_chain_sums(&d, cw);
		walked += !up;
		CHECK(up || set % 8 == 7);
		for (uint32_t r = 0; r < d.nregions; r++)
			for (int k = 0; k < 2; k++) {
				int op = k ? REEL_OP_WRITE : REEL_OP_READ;
				const double *c = cw + (k ? d.row[d.nregions] : 0);
				uint32_t a = d.row[r], b = d.row[r + 1];
				for (int q = 0; q < 60 && b > a; q++, asked++) {
					double u = unit_urand(&rs), w;
					if (q % 3 == 1) { /* a sum itself, over the total */
						u = c[a + (uint32_t)(unit_urand(&rs) * (b - a))] /
						    c[b - 1];
						u = q % 2 ? nextafter(u, 0) : u;
					}
					uint32_t want = ref_pick(&d, r, op, u, &w);
					CHECK(memcmp(&w, &c[b - 1], sizeof(w)) == 0);
					if (!(w > 0))
						continue; /* chain_op takes the regions then */
					uint32_t x = gen_chain_pick(c, a, b, u * w, up);
					CHECK_EQ(x < b ? x : b - 1, want);
				}
			}
	}
	printf("%llu draws (%llu chains walked): the same\n", (unsigned long long)asked,
	       (unsigned long long)walked);
	return 0;
}
