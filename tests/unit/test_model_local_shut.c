/*
 * test_model_local_shut: where gen_local_all_shut (model/gen_space.c) says
 * a local jump's tries left all pass (local_jump then makes only their
 * draws), every landing its jump can draw does pass, as local_jump draws
 * and checks it (copied below): out of the extent, or in a region that
 * takes none (gen_local_shut).  On the fuzz corpus' models of 1 to 16
 * devices, their state as placing left it every 500 I/O, the cursor
 * anywhere (and at the regions' bounds), both ops, reusing or not, some
 * regions' counts made over their share; each jump's draws at each
 * 1/1024, at the distribution's knots and a double either side, and the
 * largest double below 1.  And where gen_local_all_full says local_jump's
 * answer is 0 whatever it draws, every such landing passes and, where it
 * fits, would not be taken as a last resort either (its region's and
 * knot's gen_offsets_local_full_rk, as local_jump's end asks it), some
 * regions' counts put just over their share so far (shut, not full).
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_asked, n_shut, n_full, n_landed;

/* local_jump's landing at draw U: 1 where it passes once a last resort
 * is kept (out of the extent, or its region takes none) */
static int passes(const struct model_devspace *dv, const struct devstate *s, uint64_t len,
		  uint64_t al, double u)
{
	double j = model_dist_inv(&dv->local, u);
	int64_t jj = gen_lround(j * gen_al_inv(al)) * (int64_t)al, a;
	if (jj == 0)
		jj = j < 0 ? -(int64_t)al : (int64_t)al;
	if (__builtin_add_overflow((int64_t)s->cursor, jj, &a) || a < 0 ||
	    (uint64_t)a + len > s->extent)
		return 1;
	return gen_local_shut(dv, s, gen_region_of(dv, s, (uint64_t)a));
}

static void check_all(const struct model_devspace *dv, const struct devstate *s, uint64_t len,
		      uint64_t al)
{
	const struct model_dist *d = &dv->local;
	for (uint32_t k = 0; k < 1024; k++)
		CHECK(passes(dv, s, len, al, k / 1024.0));
	for (uint32_t k = 0; k < d->nk; k++) {
		double c = d->c[k];
		if (c >= 0 && c < 1)
			CHECK(passes(dv, s, len, al, c));
		if (nextafter(c, 0) >= 0 && nextafter(c, 0) < 1)
			CHECK(passes(dv, s, len, al, nextafter(c, 0)));
		if (nextafter(c, 1) < 1)
			CHECK(passes(dv, s, len, al, nextafter(c, 1)));
	}
	CHECK(passes(dv, s, len, al, nextafter(1.0, 0)));
}

/* local_jump's landing at draw U where gen_local_all_full said 1: it
 * passes (passes), and a last resort kept there is not taken (local_jump's
 * last line, 0) */
static int not_taken(const struct model_devspace *dv, const struct devstate *s, uint64_t len,
		     uint64_t al, double u)
{
	double j = model_dist_inv(&dv->local, u);
	int64_t jj = gen_lround(j * gen_al_inv(al)) * (int64_t)al, a;
	if (jj == 0)
		jj = j < 0 ? -(int64_t)al : (int64_t)al;
	if (!passes(dv, s, len, al, u))
		return 0;
	if (__builtin_add_overflow((int64_t)s->cursor, jj, &a) || a < 0 ||
	    (uint64_t)a + len > s->extent)
		return 1;
	uint32_t r = gen_region_of(dv, s, (uint64_t)a), k = 0;
	int over;
	if (!gen_offsets_local_at(dv, s, (uint64_t)a, r, &over, &k))
		return 1; /* out of the extents: never the last resort */
	n_landed++;
	return !(!(dv->p_local_fitted && gen_offsets_local_full_rk(dv, s, r, k)) && !dv->seg_fitted);
}

static void check_full(const struct model_devspace *dv, const struct devstate *s, uint64_t len,
		       uint64_t al)
{
	const struct model_dist *d = &dv->local;
	for (uint32_t k = 0; k < 1024; k++)
		CHECK(not_taken(dv, s, len, al, k / 1024.0));
	for (uint32_t k = 0; k < d->nk; k++) {
		double c = d->c[k];
		if (c >= 0 && c < 1)
			CHECK(not_taken(dv, s, len, al, c));
		if (nextafter(c, 0) >= 0 && nextafter(c, 0) < 1)
			CHECK(not_taken(dv, s, len, al, nextafter(c, 0)));
		if (nextafter(c, 1) < 1)
			CHECK(not_taken(dv, s, len, al, nextafter(c, 1)));
	}
	CHECK(not_taken(dv, s, len, al, nextafter(1.0, 0)));
}

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	static struct devstate t;
	uint64_t al = dv->align >= 1 ? dv->align : 512;
	for (int i = 0; i < 60 && s->extent >= al; i++) {
		t = *s;
		t.op = i % 2 ? REEL_OP_WRITE : REEL_OP_READ;
		t.reusing = i % 5 == 4;
		/* some regions over their share: a jump's reach shut */
		t.hn = t.hn > GEN_SHORT_MIN ? t.hn : GEN_SHORT_MIN;
		for (uint32_t r = 0; i % 3 && r < dv->nregions; r++)
			if (unit_urand(rs) < 0.7) /* over so far; every 6th, just (not full) */
				t.rn[r] = i % 6 == 5 ? (uint32_t)((dv->weight[r] * (double)t.hn + 1) *
								  GEN_LOCAL_REGION)
						     : t.rn[r] + (uint32_t)(t.hn + 1000);
		double x = unit_urand(rs);
		if (i % 4 == 3 && dv->nregions) { /* a region's bound, an alignment either side */
			uint32_t r = (uint32_t)(x * dv->nregions);
			t.cursor =
			    (uint64_t)((double)dv->bound[r] * s->scale) + (i % 8 < 4 ? al : 0);
		} else {
			t.cursor = (uint64_t)(x * (double)s->extent);
		}
		t.cursor = t.cursor < s->extent ? t.cursor / al * al : (s->extent - 1) / al * al;
		uint64_t len = al * (1 + (uint64_t)(unit_urand(rs) * 8));
		n_asked++;
		if (gen_local_all_full(dv, &t, len, al)) {
			n_full++;
			check_full(dv, &t, len, al);
		}
		uint32_t rc = gen_region_of(dv, &t, t.cursor);
		for (uint32_t r = rc > 2 ? rc - 2 : 0; r <= rc + 2 && r < dv->nregions; r++) {
			n_asked++;
			if (gen_local_all_shut(dv, &t, len, al, r)) {
				n_shut++;
				check_all(dv, &t, len, al);
			}
		}
	}
}

static void test_model(const char *name, uint64_t capacity)
{
	uint64_t n =
	    unit_model_gen_checked(name, capacity, 5, 0x452821e638d01377ull, 500, 1, check_dev);
	printf("%s capacity %llu: %llu I/O, %llu asked, %llu shut, %llu full (%llu landings)\n",
	       name, (unsigned long long)capacity, (unsigned long long)n,
	       (unsigned long long)n_asked, (unsigned long long)n_shut, (unsigned long long)n_full,
	       (unsigned long long)n_landed);
}

/* gen_floor_i and gen_ceil_i against libm's floor and ceil (|X| < 2^52:
 * whole, halves, a double either side of a whole, tiny, signed zeros),
 * gen_fmin and gen_fmax against fmin and fmax bit for bit (ties, but of
 * signed zeros by value, NaN, infinities). */
static void test_libm_inline(void)
{
	uint64_t rs = 0x10ca1ull, n = 0;
	double some[] = {0, -0.0, 1, -1, 0.5, -0.5, INFINITY, -INFINITY, NAN, 0x1p-1074};
	for (int i = 0; i < 400000; i++, n++) {
		double m = ldexp(1, (int)(unit_urand(&rs) * 53)), x = (unit_urand(&rs) - 0.5) * m;
		x = i % 4 == 1 ? nearbyint(x) : i % 4 == 2 ? nextafter(nearbyint(x), x) : x;
		x = i % 97 == 3 ? some[i % 6] : i % 97 == 5 ? some[9] * (i % 2 ? 1 : -1) : x;
		if (!(fabs(x) < 0x1p52))
			continue;
		CHECK_EQ(gen_floor_i(x), (int64_t)floor(x));
		CHECK_EQ(gen_ceil_i(x), (int64_t)ceil(x));
		double y = i % 5 == 0 ? x : i % 5 == 1 ? some[i / 5 % 10] : unit_urand(&rs) * m;
		double a = gen_fmin(x, y), b = fmin(x, y), c = gen_fmax(y, x), d = fmax(y, x);
		/* a tie of -0 and +0 by value: libm's fmin/fmax may give either
		 * (GCC's built-ins take them as commutative: round 30's reviewer) */
		if (x == y && x == 0)
			CHECK(a == b && c == d);
		else
			CHECK(memcmp(&a, &b, sizeof(a)) == 0 && memcmp(&c, &d, sizeof(c)) == 0);
	}
	printf("%llu floors, ceils, mins and maxes: the same\n", (unsigned long long)n);
}

int main(void)
{
	test_libm_inline();
	unit_model_gen_each(test_model);
	CHECK(n_shut > 1000);
	CHECK(n_full > 1000 && n_landed > 100000);
	printf("ok\n");
	return 0;
}
