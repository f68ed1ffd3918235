/*
 * test_model_run_first_edges: run_length's first edges kept side by side
 * (devstate.run_e0, made by run_tilt in model/gen_space.c beside the
 * tables run_e) are each table's edge 0, bit for bit, so that
 * run_length's gen_run_left0 answers as gen_run_left on the table alone.
 * test_model_run_edges holds gen_run_left0 to the formula given the same
 * edge 0; this test holds gen_space_init's copy.  On the fuzz corpus'
 * models of 1 to 16 devices (with no capacity given and with 3 GiB), each
 * device's state right after set-up and then every 500 I/O: every table
 * (the regions', no region's, a re-using read's and write's) is the one
 * gen_run_edges makes at its exponent, its edge 0 is run_e0's, and both
 * answers agree at random U and at and around edge 0's ends.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_tables, n_rand, n_e0; /* tables checked; random U, of them answered at edge 0 */

/* run_length's exponent of table T (gen_space.c, run_exp; copied) */
static double exp_of(const struct model_devspace *dv, const struct devstate *s, uint32_t t)
{
	if (t < dv->nregions)
		return dv->run_mean_fitted ? s->run_a[t] : 1;
	return t == dv->nregions ? 1 : s->reuse_a_op[t - dv->nregions - 1];
}

static void check_u(const struct model_devspace *dv, const struct devstate *s, double a, uint32_t t,
		    double u)
{
	const struct gen_run_edge *e = s->run_e + (size_t)t * GEN_RUN_EDGES;
	int64_t got0 = gen_run_left0(&dv->run, s->run_cap, a, e, s->run_e0[t], u);
	int64_t got = gen_run_left(&dv->run, s->run_cap, a, e, u);
	if (got0 != got) {
		fprintf(stderr, "table %u a %a u %a: %lld from run_e0, %lld from run_e\n", t, a, u,
			(long long)got0, (long long)got);
		CHECK(0);
	}
}

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	double y[GEN_RUN_EDGES];
	struct gen_run_edge e[GEN_RUN_EDGES];
	gen_run_ys(&dv->run, s->run_cap, y);
	for (uint32_t t = 0; t < dv->nregions + 3; t++) {
		double a = exp_of(dv, s, t);
		const struct gen_run_edge *st = s->run_e + (size_t)t * GEN_RUN_EDGES;
		gen_run_edges(&dv->run, s->run_cap, a, y, e);
		CHECK(memcmp(e, st, sizeof(e)) == 0);
		CHECK(memcmp(&s->run_e0[t], &st[0], sizeof(st[0])) == 0);
		n_tables++;
		const double ends[] = {0, 1, nextafter(1, 0), 0x1p-53, st[0].lo, st[0].hi};
		for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
			double u = ends[i], lo = u, hi = u;
			check_u(dv, s, a, t, u);
			for (int k = 0; k < 2; k++) {
				lo = nextafter(lo, -1);
				hi = nextafter(hi, 2);
				if (lo >= 0) /* below 0 pow gives NaN: never drawn */
					check_u(dv, s, a, t, lo);
				check_u(dv, s, a, t, hi);
			}
		}
		for (int i = 0; i < 64; i++) {
			double u = unit_urand(rs);
			check_u(dv, s, a, t, u);
			n_rand++;
			n_e0 += u <= st[0].lo;
		}
	}
}

static void test_model(const char *name, uint64_t capacity)
{
	uint64_t n =
	    unit_model_gen_checked(name, capacity, 9, 0x9e3779b97f4a7c15ull, 500, 1, check_dev);
	printf("%s capacity %llu: %llu I/O, %llu tables checked\n", name,
	       (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)n_tables);
}

int main(void)
{
	unit_model_gen_each(test_model);
	/* edge 0 answers some draws (a run of one I/O), else nothing is held */
	CHECK(n_tables > 1000 && n_e0 > n_rand / 10);
	printf("ok: %llu tables, %.3f of random U answered at edge 0\n",
	       (unsigned long long)n_tables, (double)n_e0 / (double)n_rand);
	return 0;
}
