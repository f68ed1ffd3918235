/*
 * test_model_clear_buckets: start_clear's two short cuts (gen_space.c)
 * answer as the tests they pass by, on the state placing left after every
 * 97 I/O of the fuzz corpus' models (1 to 16 devices, at --rate 4 and at
 * a --capacity's scale):
 * - gen_bucket_init's table: where bk[B] says no stretch in buckets B and
 *   B + 1 is dense, gen_offsets_dense_cdf (the CDFs) says no to stretches
 *   there, and gen_offsets_dense (the byte first) says the same (random
 *   ones, ones from B's first byte, ones ending on B + 1's last, of one
 *   byte and of both buckets whole); the table made again from the state
 *   is the same.  A table made of each bucket's own offsets (not B + 1's
 *   too) fails it: stretches over two buckets.
 * - gen_offsets_dense_cdf looks for the start's knot first at s->kh (a
 *   hint: remote's last draw's, the last I/O's): its answer whatever kh
 *   holds (the state's, 0, the last knot, a knot above the start, one
 *   below it, past the knots) is the two CDFs' by their whole searches,
 *   on stretches inside a knot's segment, over several, from below the
 *   first knot, and from the state's random ones.  A hint above the start
 *   taken as its knot (addr_cdf's search left out there) fails it; so do
 *   its answer by the segment's density (kd) over a stretch past the
 *   segment's end, and a density a third of the segment's.
 * - gen_steps_kept (the GEN_SCAN steps over a kept run passed at once):
 *   from a stretch over a kept run still to come (one of them, from a
 *   random place in it), each step it passes is over one too (the runs
 *   one by one, lnext on) and fits the extent, no more than asked; the
 *   step after them is past the runs over the first stretch, past LEFT,
 *   or past the extent.  One step more (the count rounded up) fails it.
 */
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

static uint64_t n_quiet, n_loud, n_asked, n_dense, n_kept, n_passed;

/* The greatest end of the runs still to come over [OFF, OFF + SPAN). */
static double ref_end(const struct model_devspace *dv, const struct devstate *s, uint64_t off,
		      uint64_t span)
{
	double x = (double)off, e = (double)off + (double)span, end = 0;
	for (uint32_t j = s->lnext; j < dv->nlong; j++)
		if (x < s->lr_hi[j] && e > s->lr_lo[j] && s->lr_hi[j] > end)
			end = s->lr_hi[j];
	return end;
}

/* gen_offsets_dense_cdf's answer by model_dist_cdf's whole searches. */
static int ref_dense(const struct model_devspace *dv, const struct devstate *s, uint64_t off,
		     uint64_t len)
{
	const struct model_dist *d = &dv->addr;
	if (d->nk < 2 || !(d->n > GEN_DENSE))
		return 0;
	double a, at, e, et;
	model_dist_cdf(d, gen_unscale(s, off), &a, &at);
	model_dist_cdf(d, gen_unscale(s, off + len), &e, &et);
	return (e - at) * (double)d->n > GEN_DENSE;
}

static uint64_t n_hinted, n_hint_dense;

/* A stretch's answer the reference's with each hint in s->kh. */
static void check_hints(const struct model_devspace *dv, const struct devstate *s, uint64_t off,
			uint64_t len, uint64_t *rs)
{
	static struct devstate t;
	t = *s;
	size_t nk = dv->addr.nk, k = (size_t)(unit_urand(rs) * (double)nk) % nk;
	uint32_t hint[] = {s->kh, 0, (uint32_t)(nk - 1), (uint32_t)k, (uint32_t)nk, UINT32_MAX};
	int want = ref_dense(dv, s, off, len);
	for (size_t i = 0; i < sizeof(hint) / sizeof(hint[0]); i++) {
		t.kh = hint[i];
		CHECK_EQ(gen_offsets_dense_cdf(dv, &t, off, len), want);
	}
	n_hinted++;
	n_hint_dense += want;
}

static void check_quiet(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	if (!s->bk)
		return;
	static struct devstate t;
	t = *s;
	CHECK(gen_bucket_init(dv, &t) == 0);
	CHECK(t.bk_nb == s->bk_nb && t.bk_sh == s->bk_sh && memcmp(t.bk, s->bk, s->bk_nb) == 0);
	free(t.bk);
	uint64_t w = 1ull << s->bk_sh;
	for (int q = 0; q < 64; q++) {
		uint64_t b = (uint64_t)(unit_urand(rs) * s->bk_nb) % s->bk_nb, lo = b * w;
		uint64_t hi = (b + 2 < s->bk_nb ? b + 2 : s->bk_nb) * w; /* B and B + 1 */
		double u = unit_urand(rs);
		uint64_t off = lo + (uint64_t)(unit_urand(rs) * (double)(hi - lo - 1));
		uint64_t len = 1 + (uint64_t)(unit_urand(rs) * (double)(hi - off - 1));
		if (u < 0.2) /* from B's first byte */
			off = lo, len = 1 + (uint64_t)(unit_urand(rs) * (double)(hi - lo - 1));
		else if (u < 0.4) /* to B + 1's last */
			len = hi - off;
		else if (u < 0.5)
			len = 1;
		else if (u < 0.6)
			off = lo, len = hi - lo;
		int dense = gen_offsets_dense_cdf(dv, s, off, len);
		CHECK_EQ(gen_offsets_dense(dv, s, off, len), dense); /* its byte first */
		check_hints(dv, s, off, len, rs);
		n_asked++;
		n_dense += dense;
		if (s->bk[b]) {
			CHECK(!dense);
			n_quiet++;
		} else {
			n_loud++;
		}
	}
}

static void check_knots(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	const struct model_dist *d = &dv->addr;
	if (d->nk < 2 || !s->extent)
		return;
	for (int q = 0; q < 48; q++) {
		size_t k = (size_t)(unit_urand(rs) * (double)(d->nk - 1)) % (d->nk - 1);
		double x = d->v[k] + unit_urand(rs) * (d->v[k + 1] - d->v[k]);
		uint64_t off = (uint64_t)(x * s->scale), e = s->extent;
		uint64_t len = 4096 * (1 + (uint64_t)(unit_urand(rs) * (q % 3 ? 8 : 4096)));
		if (q % 8 == 7 && d->v[0] >= 1) { /* from below the first knot, past it */
			uint64_t v0 = (uint64_t)(d->v[0] * s->scale);
			off = (uint64_t)((double)v0 * unit_urand(rs));
			len = v0 - off + 4096 * (1 + (uint64_t)(unit_urand(rs) * 8));
		}
		if (off < e && len <= e - off)
			check_hints(dv, s, off, len, rs);
	}
}

static void check_steps(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	if (s->lnext >= dv->nlong)
		return;
	for (int q = 0; q < 32; q++) {
		uint32_t j = s->lnext + (uint32_t)(unit_urand(rs) * (dv->nlong - s->lnext));
		j = j < dv->nlong ? j : dv->nlong - 1;
		double lo = s->lr_lo[j], hi = s->lr_hi[j];
		uint64_t off = (uint64_t)(lo + unit_urand(rs) * (hi - lo)) & ~4095ull;
		uint64_t len = 4096 * (1 + (uint64_t)(unit_urand(rs) * 8));
		uint64_t span = len * (1 + (uint64_t)(unit_urand(rs) * 4));
		uint64_t step = (span + 4095) & ~4095ull, left = (uint64_t)(unit_urand(rs) * 64);
		if (off + len > s->extent || !unit_model_ref_reserved(dv, s, off, span))
			continue;
		uint64_t at = off, k = gen_steps_kept(dv, s, &at, len, span, step, left);
		CHECK(k <= left && at == off + k * step);
		for (uint64_t m = 1; m <= k; m++) {
			CHECK(unit_model_ref_reserved(dv, s, off + m * step, span));
			CHECK(off + m * step + len <= s->extent);
		}
		uint64_t next = off + (k + 1) * step;
		CHECK(k == left || next + len > s->extent ||
		      (double)next >= ref_end(dv, s, off, span));
		n_kept++;
		n_passed += k;
	}
}

static void check_dev(const struct model_devspace *dv, const struct devstate *s, uint64_t *rs)
{
	check_quiet(dv, s, rs);
	check_knots(dv, s, rs);
	check_steps(dv, s, rs);
}

static void test_model(const char *name, uint64_t capacity)
{
	uint64_t n =
	    unit_model_gen_checked(name, capacity, 3, 0x3c6ef372fe94f82bull, 97, 0, check_dev);
	printf("%s capacity %llu: %llu I/O\n", name, (unsigned long long)capacity,
	       (unsigned long long)n);
}

int main(void)
{
	unit_model_gen_each(test_model);
	printf("%llu stretches asked (%llu in quiet buckets, %llu not; %llu dense), "
	       "%llu scans on kept runs, %llu steps passed\n",
	       (unsigned long long)n_asked, (unsigned long long)n_quiet, (unsigned long long)n_loud,
	       (unsigned long long)n_dense, (unsigned long long)n_kept,
	       (unsigned long long)n_passed);
	printf("%llu stretches asked with each knot hint (%llu dense)\n",
	       (unsigned long long)n_hinted, (unsigned long long)n_hint_dense);
	CHECK(n_quiet > 1000 && n_dense > 10 && n_kept > 100 && n_passed > n_kept);
	CHECK(n_hint_dense > 100 && n_hinted > 10 * n_hint_dense / 9);
	printf("ok\n");
	return 0;
}
