/*
 * test_model_chain_op_at: a remote jump's region from the chain's row given
 * the op (gen_space.c's chain_op) by the rows' tables at their totals
 * (model/gen_internal.h gen_chain_op_at, gen_chain_op_guide: the chain's
 * packed table, gen_chain_guide, at the row's last sum) as the search of
 * the sums (gen_chain_pick, gen_upper's) finds it: the same entry, or none
 * (B), on 2,000 random chains (rows empty, of one entry, of up to
 * MODEL_MAX_REGIONS; shares of 0, ties, read shares of 0 and 1; both ops),
 * every row whose sums go up and whose total is above 0, draws at random,
 * at the sums themselves over the total and a double either side, at the
 * tables' steps (q / GEN_TRG) and a double either side (every step on the
 * chains of up to 24 regions), 0 and the largest double below 1.  Then 300
 * chains whose rows' shares are a few units of the least double, of
 * 2^-1022 or of 2^-1000: there U * W and the tables' steps Q / GEN_TRG * W
 * are rounded, and U * W rounds up to W itself for U below 1 (the "none"
 * of gen_chain_op_at; this part fails when that test is taken out).
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

/* Every row of D whose sums CW (one op's, going up) have a total above 0:
 * gen_chain_op_at by the tables T against gen_chain_pick; at every step
 * and a double either side where STEPS.  The draws asked are added to
 * *ASKED. */
static void check_rows(const struct model_devspace *d, const double *cw, const uint32_t *t,
		       int steps, uint64_t *rs, uint64_t *asked)
{
	for (uint32_t r = 0; r < d->nregions; r++) {
		uint32_t a = d->row[r], b = d->row[r + 1];
		double w = b > a ? cw[b - 1] : 0;
		if (!(w > 0))
			continue; /* chain_op takes the regions then */
		const uint32_t *tr = t + (size_t)r * GEN_TRC;
		for (int q = 0; q < 60; q++, (*asked)++) {
			double u = unit_urand(rs);
			if (q % 7 == 5) /* a table's step, or a double below it */
				u = q % 2 ? (double)(q * 37 % GEN_TRG) / GEN_TRG
					  : nextafter((double)(q * 37 % GEN_TRG + 1) / GEN_TRG, 0);
			else if (q == 58)
				u = 0;
			else if (q == 59)
				u = nextafter(1.0, 0);
			else if (q % 3 == 1) { /* a sum itself, over the total */
				u = cw[a + (uint32_t)(unit_urand(rs) * (b - a))] / w;
				u = q % 2 ? nextafter(u, 0) : u;
				u = u < 1 ? u : nextafter(1.0, 0);
			}
			CHECK_EQ(gen_chain_op_at(cw, tr, a, b, u, w),
				 gen_chain_pick(cw, a, b, u * w, 1));
		}
		for (uint32_t q = 0; steps && q < 3 * GEN_TRG; q++, (*asked)++) {
			double u = (double)(q / 3) / GEN_TRG;
			u = q % 3 == 1 ? nextafter(u, 0) : q % 3 == 2 ? nextafter(u, 1) : u;
			if (!(u >= 0))
				continue;
			CHECK_EQ(gen_chain_op_at(cw, tr, a, b, u, w),
				 gen_chain_pick(cw, a, b, u * w, 1));
		}
	}
}

/* Rows of shares of a few units (UNIT: the least double, 2^-1022 or
 * 2^-1000) each, ties now and then, read shares at random. */
static void tiny_rows(struct model_devspace *d, uint16_t *to, double *p, uint64_t *rs, double unit)
{
	for (uint32_t r = 0, n = 0; r < d->nregions; r++) {
		uint32_t len =
		    1 + (uint32_t)(unit_urand(rs) * (d->nregions < 40 ? d->nregions : 40));
		double c = 0;
		d->row[r] = n;
		for (uint32_t x = 0; x < len; x++, n++) {
			c += unit * (double)(uint32_t)(unit_urand(rs) * 8);
			p[n] = c;
			to[n] = (uint16_t)(unit_urand(rs) * d->nregions);
		}
		d->row[r + 1] = n;
	}
}

/* D's sums for both ops and, where they go up, its tables as
 * chain_guide_init makes them; each op's rows checked.  0 where the sums
 * do not go up. */
static int check_chain(const struct model_devspace *d, double *cw, uint32_t *t, int steps,
		       uint64_t *rs, uint64_t *asked)
{
	if (!gen_chain_sums(d, cw))
		return 0;
	uint32_t n = d->row[d->nregions];
	for (int k = 0; k < 2; k++) {
		uint32_t *tk = t + (size_t)k * d->nregions * GEN_TRC;
		memset(tk, 0, (size_t)d->nregions * GEN_TRC * sizeof(*tk));
		gen_chain_op_guide(d, cw + (size_t)k * n, tk);
		check_rows(d, cw + (size_t)k * n, tk, steps, rs, asked);
	}
	return 1;
}

int main(void)
{
	static struct model_devspace d;
	static uint16_t to[MODEL_MAX_REGIONS * MODEL_MAX_REGIONS];
	static double p[MODEL_MAX_REGIONS * MODEL_MAX_REGIONS];
	static double cw[2 * MODEL_MAX_REGIONS * MODEL_MAX_REGIONS + 1];
	static uint32_t t[2 * MODEL_MAX_REGIONS * GEN_TRC];
	uint64_t rs = 0x0fa7ull, asked = 0, up = 0;
	for (int set = 0; set < 2000; set++) {
		unit_model_chain_device(&d, to, p, &rs, set);
		int ok = check_chain(&d, cw, t, set % 4, &rs, &asked);
		CHECK(ok || set % 8 == 7);
		up += ok;
	}
	printf("%llu draws on %llu chains: the same\n", (unsigned long long)asked,
	       (unsigned long long)up);
	/* totals subnormal or tiny: U * W rounded (up to W itself below 1),
	 * the table's steps Q / GEN_TRG * W rounded too */
	uint64_t tasked = 0, nsub = 0;
	for (int set = 0; set < 300; set++) {
		memset(&d, 0, sizeof(d));
		d.nregions =
		    2 + (uint32_t)(unit_urand(&rs) * (set % 4 ? 23 : MODEL_MAX_REGIONS - 1));
		d.read_share_fitted = 1;
		for (uint32_t r = 0; r < d.nregions; r++)
			d.read_share[r] = (float)unit_urand(&rs);
		d.tr_to = to;
		d.tr_p = p;
		tiny_rows(&d, to, p, &rs,
			  set % 3 == 0	 ? 0x1p-1074
			  : set % 3 == 1 ? 0x1p-1022
					 : 0x1p-1000);
		CHECK(check_chain(&d, cw, t, 1, &rs, &tasked));
		for (uint32_t x = 0; x < 2 * d.row[d.nregions]; x++)
			nsub += cw[x] > 0 && cw[x] < 0x1p-1022;
	}
	CHECK(nsub > 1000);
	printf("%llu draws on rows of tiny totals (%llu sums subnormal): the same\n",
	       (unsigned long long)tasked, (unsigned long long)nsub);
	return 0;
}
