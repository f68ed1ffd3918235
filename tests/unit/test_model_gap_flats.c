/*
 * test_model_gap_flats: draw_gaps' stretches of one gap (model/gen.c
 * gen_gap_flats_make, gen_internal.h gen_gap_flat_at) against the gap it
 * stood for: wherever gen_gap_flat_at answers, its value is the inverse
 * CDF at (K + U^gamma) / 8 (pow and model_dist_inv, as draw_gaps asks
 * them), bit for bit; and it answers wherever a stretch of F holds U (a
 * scan of all 16).  On 3,000 gap CDFs of 2 to MODEL_DIST_MAXK knots
 * (staircases of whole values as the traces' are, steps of 0, ties,
 * sloped stretches among them), each class K with gamma 1, the ends of
 * class_gamma's range and at random; U at random (unit()'s multiples of
 * 2^-53), at each stretch's ends and 1-4 doubles either side, and where
 * U^gamma puts the class's sum on a knot's cumulative (and either side).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* D: NK knots, mostly a staircase (a value held over a rise of the
 * cumulative, then a step to the next whole value), cumulatives 0 to 1 */
static void dist_make(struct model_dist *d, uint32_t nk, uint64_t *rs)
{
	memset(d, 0, sizeof(*d));
	d->nk = nk;
	double v = floor(unit_urand(rs) * 4), c = 0;
	for (uint32_t i = 0; i < nk; i++) {
		double r = unit_urand(rs);
		if (i % 2 == 1 || r < 0.15) /* a rise at one value */
			c += r < 0.05 ? 0 : unit_urand(rs);
		else /* a step, or now and then a slope */
			v += r < 0.3 ? floor(unit_urand(rs) * 40) + 1 : 0;
		if (r > 0.9 && i % 2 == 0) {
			v += unit_urand(rs) * 100;
			c += unit_urand(rs);
		}
		d->v[i] = v;
		d->c[i] = c;
	}
	for (uint32_t i = 0; i < nk; i++)
		d->c[i] = c > 0 ? (i + 1 < nk ? d->c[i] / c : 1) : (i + 1 < nk ? 0 : 1);
	d->c[0] = 0;
	model_dist_prepare(d);
}

/* U asked of F against the inverse; 1 where F answered */
static int check_u(const struct model_dist *d, const struct gen_gap_flats *f, int k, double gamma,
		   double u)
{
	if (!(u >= 0 && u < 1))
		return 0;
	int want = 0;
	for (int j = 0; j < GEN_GAP_FLATS; j++)
		want |= f->lo[j] <= u && u <= f->hi[j];
	double v = -7;
	int got = gen_gap_flat_at(f, u, &v);
	CHECK_EQ(got, want);
	if (!got)
		return 0;
	double at = gamma == 1 ? u : pow(u, gamma);
	double x = model_dist_inv(d, (k + at) / MODEL_CLASSES);
	CHECK(memcmp(&x, &v, sizeof(x)) == 0);
	return 1;
}

/* U at X and 1-4 doubles either side */
static int check_near(const struct model_dist *d, const struct gen_gap_flats *f, int k,
		      double gamma, double x)
{
	int hits = 0;
	double lo = x, hi = x;
	hits += check_u(d, f, k, gamma, x);
	for (int e = 0; e < 4; e++) {
		lo = nextafter(lo, -1), hi = nextafter(hi, 2);
		hits += check_u(d, f, k, gamma, lo) + check_u(d, f, k, gamma, hi);
	}
	return hits;
}

int main(void)
{
	static struct model_dist d;
	struct gen_gap_flats f;
	uint64_t rs = 0xf1a75ull, asked = 0, hits = 0, made = 0;
	const double gammas[] = {1, 0.01 / 0.99, 0.99 / 0.01, 0.5 / 0.5};
	for (int set = 0; set < 3000; set++) {
		uint32_t nk = set % 3 ? 2 + (uint32_t)(unit_urand(&rs) * 30)
				      : 2 + (uint32_t)(unit_urand(&rs) * (MODEL_DIST_MAXK - 1));
		dist_make(&d, nk, &rs);
		for (int k = 0; k < MODEL_CLASSES; k++)
			for (int gi = 0; gi < 6; gi++) {
				double m = 0.01 + unit_urand(&rs) * 0.98;
				double gamma = gi < 4 ? gammas[gi] : (1 - m) / m;
				int n = gen_gap_flats_make(&d, k, gamma, &f);
				made += (uint64_t)n;
				for (int j = 0; j < GEN_GAP_FLATS; j++) {
					if (j >= n) { /* past N: never found */
						CHECK(f.lo[j] > 1 && f.hi[j] < 0);
						continue;
					}
					CHECK(f.lo[j] > 0 && f.lo[j] < f.hi[j] && f.hi[j] < 1);
					if (j)
						CHECK(f.hi[j - 1] < f.lo[j]);
					hits += (uint64_t)check_near(&d, &f, k, gamma, f.lo[j]);
					hits += (uint64_t)check_near(&d, &f, k, gamma, f.hi[j]);
					asked += 18;
				}
				for (uint32_t i = 0; i < nk; i++) { /* U^gamma on a knot */
					double t = d.c[i] * MODEL_CLASSES - k;
					if (t > 0 && t < 1) {
						hits += (uint64_t)check_near(
						    &d, &f, k, gamma,
						    gamma == 1 ? t : pow(t, 1 / gamma));
						asked += 9;
					}
				}
				for (int q = 0; q < 40; q++, asked++) {
					double u = (double)(unit_below(&rs, 0x1p53)) * 0x1p-53;
					hits += (uint64_t)check_u(&d, &f, k, gamma, u);
				}
			}
	}
	/* the staircases' stretches are most of U: answered, not all passed */
	CHECK(made > 100000 && hits > asked / 4);
	printf("%llu stretches, %llu of %llu U answered by them: the inverse's values\n",
	       (unsigned long long)made, (unsigned long long)hits, (unsigned long long)asked);
	return 0;
}
