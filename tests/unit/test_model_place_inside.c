/*
 * test_model_place_inside: remote's full-region draws (model/gen_offsets.c
 * gen_place_monotone, gen_place_least, gen_place_init; gen_internal.h
 * gen_place_inside) and chain_op's last resort's sums (gen_space.c
 * gen_op_weight_sums).
 *
 * On 6,000 distributions of 2 to MODEL_DIST_MAXK knots (values whole
 * bytes, or with fractions; cumulatives from 0 going up with flats and
 * ties, or every 5th at random, falling, from above 0, or to 0.9) and 1 to 40
 * regions of bounds at random (inside the values, at knots, outside):
 * gen_place_inside at V against the inverse's place at V (gen_dist_inv_at)
 * tested against the region's bounds, V at random in [0, 1], at each pv and
 * a double either side, at each cumulative and a double either side, 0, 1
 * and past; both with pv_ok as gen_place_init made it and with it 0.  Where
 * gen_place_monotone says 1, the inverse at each V asked is at least the
 * one at the double below (and at 0).  On 2,000 sets of weights and read
 * shares: gen_op_weight_sums' sums are the walk's (bit for bit), and the
 * first above U * W by gen_upper_masked is the walk's region.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

static void dist_make(struct model_dist *d, uint32_t nk, int kind, uint64_t *rs)
{
	memset(d, 0, sizeof(*d));
	d->nk = nk;
	double v = floor(unit_urand(rs) * 1e6), c = 0;
	for (uint32_t i = 0; i < nk; i++) {
		double r = unit_urand(rs);
		double step = unit_urand(rs) * 40960;
		v += r < 0.2 ? 0 : kind == 1 ? step : floor(step);
		c += r < 0.3 ? 0 : unit_urand(rs);
		d->v[i] = v;
		d->c[i] = kind == 2 ? unit_urand(rs) : c;
	}
	if (kind != 2 && c > 0)
		for (uint32_t i = 0; i < nk; i++)
			d->c[i] = i + 1 < nk ? d->c[i] / c : 1;
	d->c[0] = kind == 3 ? 0.01 : 0;
	for (uint32_t i = 0; kind == 4 && i < nk; i++) /* short of 1: the last stretch past v */
		d->c[i] *= 0.9;
	model_dist_prepare(d);
}

static double inv(const struct model_dist *d, double u)
{
	size_t k = 0;
	return gen_dist_inv_at(d, u, &k);
}

/* the answer at V against the place's, with pv_ok as made and 0; and
 * where monotone, the inverse not below the one just under V */
static int check_at(const struct model_devspace *dv, struct devstate *s, double v)
{
	double x = inv(&dv->addr, v);
	int mono = s->pv_ok;
	if (mono && v > 0)
		CHECK(inv(&dv->addr, nextafter(v, -1)) <= x);
	for (uint32_t r = 0; r < dv->nregions; r++) {
		int want = x >= s->rb[r] && x < s->rb[r + 1];
		CHECK_EQ(gen_place_inside(dv, s, r, v), want);
		s->pv_ok = 0;
		CHECK_EQ(gen_place_inside(dv, s, r, v), want);
		s->pv_ok = mono;
	}
	return 1;
}

static uint64_t place_sets(uint64_t *rs, uint64_t *nmono)
{
	static struct model_devspace dv;
	static struct devstate s;
	uint64_t asked = 0;
	for (int set = 0; set < 6000; set++) {
		uint32_t nk = set % 3 ? 2 + (uint32_t)(unit_urand(rs) * 6)
				      : 2 + (uint32_t)(unit_urand(rs) * (MODEL_DIST_MAXK - 1));
		int kind = set % 5 == 4 ? 2 : set % 7 == 6 ? 3 : set % 11 == 10 ? 4 : set % 2;
		dist_make(&dv.addr, nk, kind, rs);
		const struct model_dist *d = &dv.addr;
		dv.nregions = 1 + (uint32_t)unit_below(rs, 40);
		double lo = d->v[0] - 5000, span = d->v[nk - 1] - d->v[0] + 10000;
		for (uint32_t r = 0; r <= dv.nregions; r++) { /* bounds going up */
			double b = unit_urand(rs) < 0.3 ? d->v[unit_below(rs, nk)]
							: floor(lo + unit_urand(rs) * span);
			s.rb[r] = r && b < s.rb[r - 1] ? s.rb[r - 1] : b;
		}
		gen_place_init(&dv, &s);
		*nmono += s.pv_ok;
		for (int q = 0; q < 30; q++)
			asked += check_at(&dv, &s, unit_urand(rs));
		for (uint32_t r = 0; s.pv_ok && r <= dv.nregions; r++)
			for (int e = -1; e <= 1; e++)
				if (isfinite(s.pv[r]))
					asked +=
					    check_at(&dv, &s, e ? nextafter(s.pv[r], e) : s.pv[r]);
		for (uint32_t i = 0; i < nk; i++)
			for (int e = -1; e <= 1; e++)
				if (d->c[i] >= 0)
					asked +=
					    check_at(&dv, &s, e ? nextafter(d->c[i], e) : d->c[i]);
		const double edge[] = {0, nextafter(0, 1), nextafter(1, 0),
				       1, nextafter(1, 2), 1.5};
		for (size_t e = 0; e < sizeof(edge) / sizeof(edge[0]); e++)
			asked += check_at(&dv, &s, edge[e]);
	}
	return asked;
}

/* chain_op's walk: the regions by weight times the op's share */
static uint32_t walk(const struct model_devspace *d, int op, double u)
{
	double w = 0, c = 0;
	for (uint32_t r = 0; r < d->nregions; r++)
		w += d->weight[r] * gen_op_share(d, r, op);
	double v = u * w;
	for (uint32_t r = 0; r < d->nregions && w > 0; r++)
		if (v < (c += d->weight[r] * gen_op_share(d, r, op)))
			return r;
	return d->nregions;
}

static uint64_t weight_sets(uint64_t *rs)
{
	static struct model_devspace d;
	static double wc[2 * MODEL_MAX_REGIONS];
	uint64_t asked = 0;
	d.read_share_fitted = 1;
	for (int set = 0; set < 2000; set++) {
		d.nregions = 1 + (uint32_t)unit_below(rs, MODEL_MAX_REGIONS);
		for (uint32_t r = 0; r < d.nregions; r++) {
			double x = unit_urand(rs);
			d.weight[r] = x < 0.2 ? 0 : unit_urand(rs) / d.nregions;
			d.read_share[r] = x < 0.4 ? 0 : x < 0.6 ? 1 : unit_urand(rs);
		}
		if (set % 10 == 9) /* no region of one op */
			for (uint32_t r = 0; r < d.nregions; r++)
				d.read_share[r] = set % 20 == 9;
		CHECK(gen_op_weight_sums(&d, wc));
		for (int k = 0; k < 2; k++) {
			int op = k ? REEL_OP_WRITE : REEL_OP_READ;
			double c = 0;
			for (uint32_t r = 0; r < d.nregions; r++) {
				c += d.weight[r] * gen_op_share(&d, r, op);
				CHECK(memcmp(&c, &wc[k * d.nregions + r], sizeof(c)) == 0);
			}
			const double *p = wc + k * d.nregions;
			for (int q = 0; q < 50; q++) {
				double u = q == 0 ? 0 : q == 1 ? nextafter(1, 0) : unit_urand(rs);
				double w = p[d.nregions - 1];
				uint32_t x =
				    w > 0 ? gen_upper_masked(p, 0, d.nregions, u * w) : d.nregions;
				CHECK_EQ(x, walk(&d, op, u));
				asked++;
			}
		}
	}
	d.weight[0] = -1; /* a weight below 0: the sums not taken */
	CHECK(!gen_op_weight_sums(&d, wc));
	return asked;
}

int main(void)
{
	uint64_t rs = 0x91ace5ull, nmono = 0;
	uint64_t asked = place_sets(&rs, &nmono);
	printf("%llu places asked on 6000 distributions (%llu monotone): the place's answers\n",
	       (unsigned long long)asked, (unsigned long long)nmono);
	CHECK(nmono > 1000 && nmono < 6000);
	asked = weight_sets(&rs);
	printf("%llu draws on 2000 weight sets: the walk's sums and regions\n",
	       (unsigned long long)asked);
	return 0;
}
