/*
 * test_model_wide_sums: wide_region's draw (gen_space.c: a region at least
 * LEN wide, by weight) from the sums made once for its LEN and segment
 * (model/gen_internal.h gen_wide_sums, searched by gen_wide_pick) as
 * round 38's walk found it (copied below: the regions' weights summed
 * twice a call): the same total bit for bit and the same region or none,
 * on 3,000 random devices (1 to MODEL_MAX_REGIONS regions, widths over 12
 * orders, scales 1 and a capacity's; weights by region and by segment,
 * zeros and ties, every 50th's subnormal (U * W rounded up to W: none);
 * every 10th device with a weight below 0, whose sums are
 * walked), each at LEN below, at and above its regions' widths, draws at
 * random, at the sums over the total and a double either side, 0 and the
 * largest double below 1.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* round 38's wide_region, its draw U given: the total (*W) and the region
 * (-1: none) */
static int64_t ref_wide(const struct model_devspace *dv, const struct devstate *s, int k,
			uint64_t len, double u0, double *wp)
{
	double w = 0, c = 0;
	for (uint32_t r = 0; r < dv->nregions; r++)
		w += (double)(dv->bound[r + 1] - dv->bound[r]) * s->scale >= (double)len
			 ? gen_weight_in(dv, k, r)
			 : 0;
	*wp = w;
	double u = u0 * w;
	for (uint32_t r = 0; r < dv->nregions && w > 0; r++)
		if (u < (c += (double)(dv->bound[r + 1] - dv->bound[r]) * s->scale >= (double)len
				  ? gen_weight_in(dv, k, r)
				  : 0))
			return r;
	return -1;
}

static void make_dev(struct model_devspace *d, struct devstate *s, uint64_t *rs, int set)
{
	memset(d, 0, sizeof(*d));
	memset(s, 0, sizeof(*s));
	d->nregions = 1 + (uint32_t)(unit_urand(rs) * (set % 3 ? 24 : MODEL_MAX_REGIONS));
	s->scale = set % 2 ? 1 : 0.25 + 8 * unit_urand(rs);
	uint64_t b = 0;
	for (uint32_t r = 0; r < d->nregions; r++) {
		d->bound[r] = b;
		b += set % 7 == 3 ? 4096 : (uint64_t)exp2(12 * unit_urand(rs)) * 512;
		double x = unit_urand(rs);
		d->weight[r] = x < 0.15 ? 0 : x < 0.25 ? 0.125 : x / d->nregions; /* zeros, ties */
		for (int k = 0; k < MODEL_SEGS; k++)
			d->seg_w[k][r] = unit_urand(rs) < 0.2 ? 0 : (float)unit_urand(rs);
	}
	d->bound[d->nregions] = b;
	if (set % 50 == 48) /* subnormal weights: U * W rounds up to W below 1 (none) */
		for (uint32_t r = 0; r < d->nregions; r++)
			d->weight[r] = 0x1p-1074 * (double)(uint32_t)(unit_urand(rs) * 4);
	if (set % 10 == 9) /* a weight below 0: the sums walked */
		d->weight[(uint32_t)(unit_urand(rs) * d->nregions)] = -0.25;
}

int main(void)
{
	static struct model_devspace d;
	static struct devstate s;
	static double c[MODEL_MAX_REGIONS];
	uint64_t rs = 0x3a1dee5ull, asked = 0, none = 0, walked = 0;
	for (int set = 0; set < 3000; set++) {
		make_dev(&d, &s, &rs, set);
		for (int q = 0; q < 12; q++) {
			/* a LEN at a region's width, a byte above, or at random */
			uint32_t r0 = (uint32_t)(unit_urand(&rs) * d.nregions);
			uint64_t width =
			    (uint64_t)((double)(d.bound[r0 + 1] - d.bound[r0]) * s.scale);
			uint64_t len = q % 3 == 0   ? width
				       : q % 3 == 1 ? width + 1
						    : (uint64_t)exp2(22 * unit_urand(&rs));
			int k = q % 2 ? -1 : (int)(unit_urand(&rs) * MODEL_SEGS);
			int up = gen_wide_sums(&d, &s, k, len, c);
			walked += !up;
			CHECK(up || (set % 10 == 9 && k < 0));
			for (int t = 0; t < 40; t++, asked++) {
				double u = unit_urand(&rs), w;
				if (t == 0)
					u = 0;
				else if (t == 1)
					u = nextafter(1.0, 0);
				else if (t % 3 == 2) {
					/* a sum over the total, a double either side */
					double tot = c[d.nregions - 1];
					u = tot > 0
						? c[(uint32_t)(unit_urand(&rs) * d.nregions)] / tot
						: u;
					u = t % 2	 ? nextafter(u, 0)
					    : t % 5 == 0 ? nextafter(u, 1)
							 : u;
					u = u >= 0 && u < 1 ? u : nextafter(1.0, 0);
				}
				int64_t want = ref_wide(&d, &s, k, len, u, &w);
				CHECK(memcmp(&w, &c[d.nregions - 1], sizeof(w)) == 0);
				CHECK_EQ(gen_wide_pick(c, d.nregions, up, u), want);
				none += want < 0;
			}
		}
	}
	printf("%llu draws (%llu none, %llu sums walked): the same\n", (unsigned long long)asked,
	       (unsigned long long)none, (unsigned long long)walked);
	return 0;
}
