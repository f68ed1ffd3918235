/*
 * test_model_cold_sums: a fresh start's region from the chain's row off the
 * kept blocks' regions (gen_space.c's cold_region) by the sums made once
 * (model/gen_internal.h gen_cold_sums, gen_cold_pick; gen_cold_at by the rows'
 * tables, gen_cold_guide: each row's entries at each 1/GEN_COLDQ of its
 * total, gen_chain_steps) as round 27's walk
 * found it (copied below: the row's shares off the kept blocks summed twice
 * a call): the same total bit for bit and the same entry or none, on 2,000
 * random chains (rows empty, of one entry, of up to MODEL_MAX_REGIONS;
 * shares of 0, ties; no region, some or all of them a kept block's; every
 * 8th chain with a share going down, whose sums are walked), every row,
 * draws at random, at the sums themselves and a double either side, at
 * the tables' steps (q / GEN_COLDQ) and a double either side (every step on
 * the chains of up to 24 regions), and the largest double below 1.  The
 * rows' totals are below 1 (kept blocks' entries left out, or the last
 * cumulated share below 1) and 1; rows of no entry and of shares all 0.
 * Then 300 chains whose rows' totals off the kept blocks are subnormal,
 * zero, or a tiny normal (2^-1022 .. 2^-1000 units), every step asked:
 * there U * W and the table's steps Q / GEN_COLDQ * W are rounded, and
 * U * W rounds up to W itself for U below 1 (gen_cold_at's "none"; this
 * part fails when that test is taken out, the random chains do not).
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

/* round 27's cold_region: the row's total (*W) and the entry the draw U
 * takes (B where none) */
static uint32_t ref_pick(const struct model_devspace *d, const uint8_t *cy, uint32_t from, double u,
			 double *w)
{
	uint32_t a = d->row[from], b = d->row[from + 1];
	double c = 0;
	*w = 0;
	for (uint32_t x = a; x < b; x++)
		*w += cy[d->tr_to[x]] ? 0 : d->tr_p[x] - (x > a ? d->tr_p[x - 1] : 0);
	for (uint32_t x = a; *w > 0 && x < b; x++)
		if (!cy[d->tr_to[x]] && u * *w < (c += d->tr_p[x] - (x > a ? d->tr_p[x - 1] : 0)))
			return x;
	return b;
}

/* Every row of chain D (its sums CS and, where UP, tables GUIDE made):
 * the walk's total and entry at draws at random, at the sums and a double
 * either side, at some table steps, the largest double below 1; at every
 * step and a double either side where STEPS.  The draws asked are added
 * to *ASKED. */
static void check_rows(const struct model_devspace *d, const uint8_t *cy, const double *cs,
		       const uint8_t *guide, int up, int steps, uint64_t *rs, uint64_t *asked)
{
	for (uint32_t r = 0; r < d->nregions; r++) {
		uint32_t a = d->row[r], b = d->row[r + 1];
		for (int q = 0; q < 60 && b > a; q++, (*asked)++) {
			double u = unit_urand(rs), w;
			if (q % 7 == 5) /* a table's step, or a double below it */
				u = q % 2 ? (double)(q * 37 % GEN_COLDQ) / GEN_COLDQ
					  : nextafter((double)(q * 37 % GEN_COLDQ + 1) / GEN_COLDQ,
						      0);
			else if (q == 59)
				u = nextafter(1.0, 0);
			else if (q % 3 == 1 && cs[b - 1] > 0) { /* a sum itself, over the total */
				u = cs[a + (uint32_t)(unit_urand(rs) * (b - a))] / cs[b - 1];
				u = q % 2 ? nextafter(u, 0) : u;
				u = u < 1 ? u : nextafter(1.0, 0);
			}
			uint32_t want = ref_pick(d, cy, r, u, &w);
			CHECK(memcmp(&w, &cs[b - 1], sizeof(w)) == 0);
			if (!(w > 0)) {
				CHECK_EQ(want, b);
				continue; /* cold_region takes the regions then */
			}
			CHECK_EQ(gen_cold_pick(d, cy, cs, a, b, u * w, up), want);
			CHECK_EQ(gen_cold_at(d, cy, cs, guide, r, u, w, up), want);
		}
		for (uint32_t q = 0; steps && b > a && q < 3 * GEN_COLDQ; q++, (*asked)++) {
			/* every step of the table, a double either side */
			double u = (double)(q / 3) / GEN_COLDQ, w;
			u = q % 3 == 1 ? nextafter(u, 0) : q % 3 == 2 ? nextafter(u, 1) : u;
			if (!(u >= 0))
				continue;
			uint32_t want = ref_pick(d, cy, r, u, &w);
			if (w > 0)
				CHECK_EQ(gen_cold_at(d, cy, cs, guide, r, u, w, up), want);
		}
	}
}

/* Rows whose total off the kept blocks is subnormal (KIND 0), zero (1) or
 * a tiny normal (2: near DBL_MIN, or 2^-1000): the row's entries not to a
 * kept block's region cumulate shares of a few units of the least double
 * (or of 2^-1022 .. 2^-1000), entries to one (some of them between those,
 * their shares tiny too) carry the rest of the row, up to 1 or short of
 * it.  The kept regions are the odd ones (D has 2 or more). */
static void tiny_rows(struct model_devspace *d, uint16_t *to, double *p, uint8_t *cy, uint64_t *rs,
		      int kind)
{
	double unit = kind == 0		     ? 0x1p-1074
		      : kind == 1	     ? 0
		      : unit_urand(rs) < 0.5 ? 0x1p-1022
					     : 0x1p-1000;
	for (uint32_t r = 0; r < d->nregions; r++)
		cy[r] = r % 2 ? (uint8_t)(1 + r % 200) : 0;
	uint32_t nodd = d->nregions / 2, neven = d->nregions - nodd;
	for (uint32_t r = 0, n = 0; r < d->nregions; r++) {
		uint32_t len =
		    1 + (uint32_t)(unit_urand(rs) * (d->nregions < 40 ? d->nregions : 40));
		uint32_t ntiny = (uint32_t)(unit_urand(rs) * (len + 1)); /* the tiny shares first */
		double c = 0;
		d->row[r] = n;
		for (uint32_t x = 0; x < len; x++, n++) {
			int kept = x >= ntiny || unit_urand(rs) < 0.2;
			to[n] = (uint16_t)(kept ? 1 + 2 * (uint32_t)(unit_urand(rs) * nodd)
						: 2 * (uint32_t)(unit_urand(rs) * neven));
			if (x < ntiny) /* 0 to 7 units a share, a tie now and then */
				c += unit * (double)(uint32_t)(unit_urand(rs) * 8);
			else /* the rest, to 1 or just below it at the row's end */
				c += (1 - c) *
				     (x + 1 == len ? (r % 3 ? 1 : 1 - 1e-5) : unit_urand(rs));
			p[n] = c;
		}
		d->row[r + 1] = n;
	}
}

/* gen_upper_masked against gen_upper on any P (going up, ties, falling,
 * NaN, infinities) and any U: the same entries looked at, the same
 * answer. */
static uint64_t upper_cmov_same(uint64_t *rs)
{
	double p[300], vals[] = {0, -0.0, 1, 0.5, INFINITY, -INFINITY, NAN};
	uint64_t n = 0;
	for (int set = 0; set < 20000; set++) {
		uint32_t len = (uint32_t)(unit_urand(rs) * (set % 3 ? 20 : 300)), kind = set % 4;
		double c = 0;
		for (uint32_t i = 0; i < len; i++) {
			double x = unit_urand(rs);
			c += kind == 1 && x < 0.3 ? 0 : x; /* ties */
			p[i] = kind == 2	      ? x  /* at random */
			       : kind == 3 && x < 0.1 ? vals[(uint32_t)(x * 70) % 7]
						      : c;
		}
		for (int q = 0; q < 40; q++, n++) {
			uint32_t a = (uint32_t)(unit_urand(rs) * (len + 1)),
				 b = a + (uint32_t)(unit_urand(rs) * (len - a + 1));
			double u = q % 5 == 4 ? vals[q % 7]
				   : q % 5 == 3 && b > a
				       ? p[a + (uint32_t)(unit_urand(rs) * (b - a))]
				       : unit_urand(rs) * (c + 1);
			CHECK_EQ(gen_upper_masked(p, a, b, u), gen_upper(p, a, b, u));
		}
	}
	return n;
}

int main(void)
{
	static struct model_devspace d;
	static uint16_t to[MODEL_MAX_REGIONS * MODEL_MAX_REGIONS];
	static double p[MODEL_MAX_REGIONS * MODEL_MAX_REGIONS];
	static double cs[MODEL_MAX_REGIONS * MODEL_MAX_REGIONS + 1];
	static uint8_t cy[MODEL_MAX_REGIONS];
	static uint8_t guide[MODEL_MAX_REGIONS * GEN_COLD_ROW];
	uint64_t rs = 0xc01d5ull, asked = 0, walked = 0, kept = 0;
	printf("%llu searches by masks: the same\n", (unsigned long long)upper_cmov_same(&rs));
	for (int set = 0; set < 2000; set++) {
		memset(&d, 0, sizeof(d));
		d.nregions = 1 + (uint32_t)(unit_urand(&rs) * (set % 4 ? 24 : MODEL_MAX_REGIONS));
		double ck = set % 5 == 0 ? 0 : set % 5 == 1 ? 1 : unit_urand(&rs) * 0.5;
		for (uint32_t r = 0; r < d.nregions; r++)
			kept += cy[r] = unit_urand(&rs) < ck ? (uint8_t)(1 + r % 200) : 0;
		unit_model_chain_rows(&d, to, p, &rs, set);
		int up = gen_cold_sums(&d, cy, cs);
		walked += !up;
		if (up)
			gen_cold_guide(&d, cs, guide);
		CHECK(up || set % 8 == 7);
		check_rows(&d, cy, cs, guide, up, set % 4, &rs, &asked);
	}
	printf("%llu draws (%llu chains walked, %llu kept regions): the same\n",
	       (unsigned long long)asked, (unsigned long long)walked, (unsigned long long)kept);
	/* totals subnormal, zero, tiny normal: U * W rounded (up to W itself
	 * below 1), the table's steps Q / GEN_COLDQ * W rounded too */
	uint64_t nsub = 0, nzero = 0, ntiny = 0, tasked = 0;
	for (int set = 0; set < 300; set++) {
		memset(&d, 0, sizeof(d));
		d.nregions =
		    2 + (uint32_t)(unit_urand(&rs) * (set % 4 ? 23 : MODEL_MAX_REGIONS - 1));
		d.tr_to = to;
		d.tr_p = p;
		tiny_rows(&d, to, p, cy, &rs, set % 3);
		int up = gen_cold_sums(&d, cy, cs);
		CHECK(up);
		gen_cold_guide(&d, cs, guide);
		for (uint32_t r = 0; r < d.nregions; r++) {
			double w = d.row[r + 1] > d.row[r] ? cs[d.row[r + 1] - 1] : 0;
			nsub += w > 0 && w < 0x1p-1022;
			nzero += w == 0;
			ntiny += w >= 0x1p-1022;
		}
		check_rows(&d, cy, cs, guide, up, 1, &rs, &tasked);
	}
	/* each kind of total asked on many rows */
	CHECK(nsub > 1000 && nzero > 1000 && ntiny > 1000);
	printf("%llu draws on rows of totals subnormal (%llu rows), zero (%llu), tiny (%llu): the "
	       "same\n",
	       (unsigned long long)tasked, (unsigned long long)nsub, (unsigned long long)nzero,
	       (unsigned long long)ntiny);
	return 0;
}
