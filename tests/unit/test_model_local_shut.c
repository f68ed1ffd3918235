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
 * largest double below 1.  And gen_local_all_shut, which finds the
 * reach's regions from R's by their bounds at scale 1, answers as round
 * 29's (copied below: both ends' regions looked up) wherever R is the
 * region of an offset in the reach, and says 1 only where it does.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_asked, n_shut, n_same;

/* gen_local_all_shut as round 29 made it: the reach's ends' regions by
 * gen_region_of (the reach itself, gen_local_reach, as then); the reach's
 * regions in *RA, *RB (RA > RB: no reach) */
static int all_shut_ref(const struct model_devspace *dv, const struct devstate *s, uint64_t len,
			uint64_t al, uint32_t r, uint32_t *ra, uint32_t *rb)
{
	int64_t a, b;
	*ra = 1, *rb = 0;
	if (!gen_local_reach(dv, s, len, al, &a, &b))
		return 0;
	if (a > b)
		return gen_local_shut(dv, s, r);
	*ra = gen_region_of(dv, s, (uint64_t)a), *rb = gen_region_of(dv, s, (uint64_t)b);
	if (!gen_local_shut(dv, s, r) || *rb - *ra >= GEN_LOCAL_SHUT)
		return 0;
	for (uint32_t x = *ra; x <= *rb; x++)
		if (x != r && !gen_local_shut(dv, s, x))
			return 0;
	return 1;
}

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

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	static struct devstate t;
	uint64_t al = dv->align >= 1 ? dv->align : 512;
	for (int i = 0; i < 60 && s->extent >= al; i++) {
		t = *s;
		t.op = i % 2 ? REEL_OP_WRITE : REEL_OP_READ;
		t.reusing = i % 5 == 4;
		/* some regions over their share: a jump's reach shut */
		for (uint32_t r = 0; i % 3 && r < dv->nregions; r++)
			if (unit_urand(rs) < 0.7)
				t.rn[r] += (uint32_t)(t.hn + 1000);
		t.hn = t.hn > GEN_SHORT_MIN ? t.hn : GEN_SHORT_MIN;
		double x = unit_urand(rs);
		if (i % 4 == 3 && dv->nregions) { /* a region's bound, an alignment either side */
			uint32_t r = (uint32_t)(x * dv->nregions);
			t.cursor =
			    (uint64_t)((double)dv->bound[r] * s->scale) + (i % 8 < 4 ? al : 0);
		} else {
			t.cursor = (uint64_t)(x * (double)s->extent);
		}
		t.cursor = t.cursor < s->extent ? t.cursor / al * al : (s->extent - 1) / al * al;
		if (i % 8 >= 6 && dv->nregions && dv->local.nk && s->scale == 1) {
			/* the reach's low end (6) or high end (7) on a region's bound */
			uint64_t bd = dv->bound[(uint32_t)(x * dv->nregions)];
			int64_t c =
			    i % 8 == 6 ? (int64_t)bd - gen_floor_i(dv->local.v[0]) + 2 * (int64_t)al
				       : (int64_t)bd - gen_ceil_i(dv->local.v[dv->local.nk - 1]) -
					     2 * (int64_t)al;
			if (c >= 0 && (uint64_t)c < s->extent)
				t.cursor = (uint64_t)c;
		}
		uint64_t len = al * (1 + (uint64_t)(unit_urand(rs) * 8));
		uint32_t rc = gen_region_of(dv, &t, t.cursor);
		for (uint32_t r = rc > 2 ? rc - 2 : 0; r <= rc + 2 && r < dv->nregions; r++) {
			n_asked++;
			uint32_t ra, rb;
			int ref = all_shut_ref(dv, &t, len, al, r, &ra, &rb),
			    got = gen_local_all_shut(dv, &t, len, al, r);
			CHECK(!got || ref);
			if (ra > rb || (ra <= r && r <= rb)) { /* R a landing's region */
				CHECK_EQ(got, ref);
				n_same++;
			}
			if (got) {
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
	printf("%s capacity %llu: %llu I/O, %llu asked, %llu shut, %llu as round 29's\n", name,
	       (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)n_asked,
	       (unsigned long long)n_shut, (unsigned long long)n_same);
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

/* gen_offsets_repeat_end against its plain formula (the division and
 * the ceiling always made), bit for bit: counts below, at, a double
 * either side of and past the I/O per repeat, repeats of under one I/O,
 * infinite and NaN, totals below and past the end. */
static void test_repeat_end(void)
{
	static struct devstate s;
	uint64_t rs = 0x7e9ea7ull, n = 0, first = 0;
	double odd[] = {0.5, 1, INFINITY, NAN, 0x1p53, 3};
	for (int i = 0; i < 200000; i++, n++) {
		double per = unit_urand(&rs) < 0.1 ? odd[i % 6] : 1 + floor(unit_urand(&rs) * 1e7);
		double h = per < 0x1p40 && i % 3 ? per + (i % 5) - 2 : floor(unit_urand(&rs) * 3e7);
		h = i % 7 == 0 && per < 0x1p40 ? nextafter(per, i % 2 ? 0 : INFINITY) : h;
		s.nper = per;
		s.hn = h >= 1 && h < 0x1p62 ? (uint64_t)h - 1 : (uint64_t)(i % 100);
		s.ntot = i % 4 == 0 ? per : i % 4 == 1 ? per * 3 : unit_urand(&rs) * 2e7;
		double want = (double)s.hn;
		if (s.nper >= 1) {
			double x = ((double)s.hn + 1) / s.nper;
			double end = s.nper * (x < 0x1p52 ? (double)gen_ceil_i(x) : ceil(x));
			want = gen_fmax(gen_fmin(end, s.ntot), (double)s.hn);
		}
		double got = gen_offsets_repeat_end(&s);
		first += (double)s.hn + 1 <= s.nper;
		CHECK(memcmp(&got, &want, sizeof(got)) == 0);
	}
	CHECK(first > 10000);
	printf("%llu repeats' ends (%llu in the first): the same\n", (unsigned long long)n,
	       (unsigned long long)first);
}

int main(void)
{
	test_repeat_end();
	test_libm_inline();
	unit_model_gen_each(test_model);
	CHECK(n_shut > 1000 && n_same > 100000);
	printf("ok\n");
	return 0;
}
