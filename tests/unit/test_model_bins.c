/*
 * test_model_bins: the quick ways fit and compare find an event's bin give
 * what the plain ways give, on random inputs and at the edges (no events,
 * one, duplicates, values at the bins' bounds, values near 2^64):
 * model_first_u64 against a linear search; fit's slices (slice_bounds,
 * slice_near: fit_internal.h) against slice_of and a scan of every offset;
 * model_pqrs_add_n's cells against each event's cell counted alone;
 * bm_add_ops (a chunk's runs) against bm_add_op (one record at a time);
 * model_idc against the counts of every bin.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

static uint64_t rs = 0x853c49e6748fea9bull;
static double urand(void) { return unit_urand(&rs); }
static uint64_t u64(void)
{
	return (uint64_t)(urand() * 4294967296.0) << 32 ^ (uint64_t)(urand() * 4294967296.0);
}
/* uniform in [0, n) (n > 0) */
static uint64_t below(uint64_t n) { return u64() % n; }

/* ---- model_first_u64 against a linear search -------------------------- */
struct thr {
	uint64_t t;
	double ext, side; /* > 0: the test is a binning by doubles */
};
static int at_least(uint64_t x, const void *ctx)
{
	const struct thr *h = ctx;
	if (h->ext > 0)
		return (uint64_t)((double)x / h->ext * h->side) >= h->t;
	return x >= h->t;
}
static void first_one(uint64_t lo, uint64_t hi, const struct thr *h)
{
	uint64_t want = lo;
	while (want < hi && !at_least(want, h))
		want++;
	uint64_t got = model_first_u64(lo, hi, at_least, h);
	if (got != want)
		fprintf(stderr, "model_first_u64(%llu, %llu) t %llu: %llu, not %llu\n",
			(unsigned long long)lo, (unsigned long long)hi, (unsigned long long)h->t,
			(unsigned long long)got, (unsigned long long)want);
	CHECK(got == want);
}
static void test_first_u64(void)
{
	static const uint64_t base[] = {0,
					1,
					1000,
					1ull << 53,
					(1ull << 63) - 300,
					1ull << 63,
					UINT64_MAX - 600,
					UINT64_MAX - 1};
	for (size_t b = 0; b < sizeof(base) / sizeof(base[0]); b++)
		for (int i = 0; i < 400; i++) {
			uint64_t lo = base[b] < UINT64_MAX - 64 ? base[b] + below(64) : base[b];
			uint64_t len = i < 8 ? (uint64_t)i : below(300);
			if (lo > UINT64_MAX - len)
				lo = UINT64_MAX - len;
			uint64_t hi = lo + len; /* lo == hi, lo + 1 == hi, ... */
			/* the threshold anywhere in [lo, hi], at the ends too; the
			 * test holds at hi (model_first_u64's promise) */
			uint64_t t = i % 5 == 0 ? lo : i % 5 == 1 ? hi : lo + below(len + 1);
			first_one(lo, hi, &(struct thr){t, 0, 0});
			/* a binning by doubles, as fit's slices and PQRS's rows: flat
			 * runs of many x (values near 2^64 round alike) */
			double ext = ((double)hi + 1) * (1 + urand());
			struct thr d = {0, ext, (double)(1u << (1 + below(10)))};
			d.t = (uint64_t)((double)hi / d.ext * d.side);
			first_one(lo, hi, &d);
		}
}

/* ---- fit's slices: slice_bounds and slice_near against slice_of ------- */
static void check_slice(const uint64_t *sb, double sinv, uint64_t ext, uint64_t off)
{
	uint64_t want = slice_of(off, ext), got = slice_near(sb, off, sinv);
	if (got != want)
		fprintf(stderr, "ext %llu off %llu: slice_near %llu, slice_of %llu\n",
			(unsigned long long)ext, (unsigned long long)off, (unsigned long long)got,
			(unsigned long long)want);
	CHECK(got == want);
	CHECK(off >= sb[got] && (off < sb[got + 1] || got == 1023));
}
static void slices_one(uint64_t ext)
{
	uint64_t sb[1025];
	slice_bounds(ext, sb);
	double sinv = 1024 / (double)ext;
	CHECK(sb[0] == 0 && sb[1024] == UINT64_MAX);
	/* sb[k]: the least offset of slice k or a later one */
	for (uint64_t k = 1; k < 1024; k++) {
		CHECK(sb[k] >= sb[k - 1] && sb[k] <= ext);
		CHECK(slice_of(sb[k], ext) >= k);
		CHECK(sb[k] == 0 || slice_of(sb[k] - 1, ext) < k);
	}
	if (ext <= 5000) { /* every offset, as a scan from 0 finds the bounds */
		uint64_t k = 0;
		for (uint64_t off = 0; off <= ext + 2; off++) {
			while (k < 1023 && slice_of(off, ext) > k)
				CHECK(sb[++k] == off);
			check_slice(sb, sinv, ext, off);
		}
	}
	/* each bound, the offsets around it, the ends and random ones */
	for (uint64_t k = 0; k < 1024; k++)
		for (int d = -1; d <= 1; d++)
			if (!(d < 0 && sb[k] == 0))
				check_slice(sb, sinv, ext, sb[k] + (uint64_t)(int64_t)d);
	/* fit's offsets are below ext; past it slice_of is the last slice
	 * while off / ext * 1024 converts (fit's ext >= 1 MiB or the capacity) */
	uint64_t ends[] = {0, 1, ext - 1, ext, ext + 1, UINT64_MAX - 1, UINT64_MAX};
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if ((double)ends[i] / (double)ext * 1024 < 1.8e19)
			check_slice(sb, sinv, ext, ends[i]);
	for (int i = 0; i < 3000; i++)
		check_slice(sb, sinv, ext, below(ext));
}
static void test_slices(void)
{
	static const uint64_t ext[] = {1,
				       2,
				       3,
				       1023,
				       1024,
				       1025,
				       4099,
				       1000003,
				       1ull << 30,
				       (1ull << 40) + 123,
				       (1ull << 53) + 1,
				       (1ull << 53) * 3 + 7,
				       1ull << 62,
				       (1ull << 63) - 1,
				       1ull << 63,
				       UINT64_MAX - 1,
				       UINT64_MAX};
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		slices_one(ext[i]);
	for (int i = 0; i < 40; i++) /* sizes of every magnitude */
		slices_one(1 + (u64() >> below(64)));
}

/* ---- PQRS: model_pqrs_add_n against each event's own cell ------------- */
/* the cell of (T, A) as measures.c defines it (pqrs_x, pqrs_y) */
static size_t pqrs_cell(const struct model_pqrs *p, int64_t t, uint64_t a)
{
	size_t side = p->side;
	double ft = (double)(t - p->t0) / (double)(p->t1 - p->t0);
	size_t x = ft < 0 ? 0 : !(ft < 1) ? side - 1 : (size_t)(ft * (double)side);
	double fa = a < p->a0 ? 0 : (double)(a - p->a0) / (double)(p->a1 - p->a0);
	size_t y = !(fa < 1) ? side - 1 : (size_t)(fa * (double)side);
	return (y >= side ? side - 1 : y) * side + (x >= side ? side - 1 : x);
}
static void pqrs_one(size_t n, int64_t t0, int64_t t1, uint64_t a0, uint64_t a1, int sorted)
{
	int64_t *t = malloc((n + 1) * sizeof(*t));
	uint64_t *a = malloc((n + 1) * sizeof(*a));
	struct model_pqrs p, q;
	CHECK(t && a && model_pqrs_init(&p, n, t0, t1, a0, a1) == 0 &&
	      model_pqrs_init(&q, n, t0, t1, a0, a1) == 0);
	/* times: in order with runs of equal ones (or any order), some
	 * outside [t0, t1); addresses: sequential runs that cross the rows'
	 * bounds, a row's bound and the one before it, the ends, random */
	uint64_t span = (uint64_t)(t1 - t0), as = a1 - a0;
	int64_t tc = t0 - (int64_t)(span / 64);
	uint64_t ac = a0;
	for (size_t i = 0; i < n; i++) {
		double r = urand();
		if (!sorted)
			tc = t0 - (int64_t)(span / 64) + (int64_t)below(span + span / 32 + 1);
		else if (r < 0.7)
			tc += (int64_t)below(span / (n + 1) * 2 + 2);
		t[i] = tc;
		r = urand();
		if (r < 0.5)
			ac += 1;
		else if (r < 0.6 && p.c)
			ac = p.ab[below(p.side)] - (urand() < 0.5);
		else if (r < 0.7)
			ac = urand() < 0.5 ? a0 - (a0 > 0) : a1 + (a1 < UINT64_MAX);
		else if (r < 0.75)
			ac = urand() < 0.5 ? 0 : UINT64_MAX;
		else
			ac = a0 + (as == UINT64_MAX ? u64() : below(as + 1));
		a[i] = ac;
	}
	/* the events in chunks of random sizes, as fit's passes give them */
	for (size_t i = 0; i < n;) {
		size_t m = i + below(2000) + (urand() < 0.1 ? 0 : 1);
		m = m > n ? n : m;
		model_pqrs_add_n(&p, t + i, a + i, m - i);
		i = m;
	}
	CHECK(!p.c == !q.c);
	if (q.c) {
		for (size_t i = 0; i < n; i++)
			q.c[pqrs_cell(&q, t[i], a[i])]++;
		for (size_t c = 0; c < q.side * q.side; c++)
			if (p.c[c] != q.c[c]) {
				fprintf(stderr, "pqrs n %zu: cell %zu has %llu, not %llu\n", n, c,
					(unsigned long long)p.c[c], (unsigned long long)q.c[c]);
				CHECK(p.c[c] == q.c[c]);
			}
	}
	double o1[4], o2[4];
	model_pqrs_finish(&p, o1);
	model_pqrs_finish(&q, o2);
	CHECK(memcmp(o1, o2, sizeof(o1)) == 0);
	free(t);
	free(a);
}
static void test_pqrs(void)
{
	static const size_t ns[] = {0, 1, 63, 64, 65, 300, 1025, 5000, 70000};
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (int sorted = 0; sorted < 2; sorted++) {
			pqrs_one(ns[i], 0, 1000000000, 0, 8ull << 30, sorted);
			/* fewer values than cells */
			pqrs_one(ns[i], 5, 70, 4096, 4096 + 3, sorted);
			pqrs_one(ns[i], -(1ll << 61), 1ll << 61, 0, UINT64_MAX, sorted);
			pqrs_one(ns[i], 1000, 1001, (1ull << 63) - 5, (1ull << 63) + 1000000007,
				 sorted);
			pqrs_one(ns[i], 0, (int64_t)below(1ull << 40) + 1, below(1ull << 50),
				 (1ull << 50) + below(1ull << 60) + 1, sorted);
		}
}

/* ---- fit's b-model counts: bm_add_ops against bm_add_op --------------- */
#define NBM (REEL_OP__COUNT + 1)
static void bm_init(struct model_bm *bm, int *sh, size_t n, const size_t *nop, int64_t t0,
		    int64_t t1, int maxl)
{
	for (int k = 0; k < NBM; k++)
		CHECK(model_bm_init_max(&bm[k], k ? nop[k - 1] : n, t0, t1, maxl) == 0);
	bm_op_shifts(bm, sh);
}
static void bm_one(size_t n, int64_t t0, int64_t t1, int maxl, double pj)
{
	int64_t *t = malloc((n + 1) * sizeof(*t));
	uint8_t *op = malloc(n + 1);
	size_t nop[REEL_OP__COUNT] = {0};
	CHECK(t && op);
	uint64_t span = (uint64_t)(t1 - t0);
	int64_t tc = t0;
	for (size_t i = 0; i < n; i++) {
		double r = urand();
		if (r < pj / 2) /* out of [t0, t1): not counted */
			tc = urand() < 0.5 ? t0 - 1 - (int64_t)below(1000)
					   : t1 + (int64_t)below(1000);
		else if (r < pj)
			tc = t0 + (int64_t)below(span); /* a jump, back or ahead */
		else if (tc < t0 || tc >= t1)
			tc = t0;
		else if (r < 0.5 && tc < t1 - 1)
			tc += (int64_t)below(span / (n + 1) * 2 + 1);
		t[i] = tc; /* else the same time again */
		/* flushes rare: an op with too few records has no bins */
		op[i] = urand() < 0.01 ? REEL_OP_FLUSH : (uint8_t)below(2 + (urand() < 0.1) * 3);
		nop[op[i]]++;
	}
	struct model_bm a[NBM], b[NBM];
	int sha[REEL_OP__COUNT], shb[REEL_OP__COUNT];
	bm_init(a, sha, n, nop, t0, t1, maxl);
	bm_init(b, shb, n, nop, t0, t1, maxl);
	for (size_t i = 0; i < n; i++)
		bm_add_op(a, sha, op[i], t[i]);
	for (size_t i = 0; i < n;) {
		size_t m = i + below(3000) + (urand() < 0.1 ? 0 : 1);
		m = m > n ? n : m;
		bm_add_ops(b, shb, op + i, t + i, m - i);
		i = m;
	}
	for (int k = 0; k < NBM; k++) {
		CHECK(!a[k].c == !b[k].c && a[k].nb == b[k].nb);
		if (a[k].c && memcmp(a[k].c, b[k].c, a[k].nb * sizeof(*a[k].c))) {
			fprintf(stderr, "bm n %zu: counts %d differ\n", n, k);
			CHECK(0);
		}
		double x = model_bm_finish(&a[k]), y = model_bm_finish(&b[k]);
		CHECK(memcmp(&x, &y, sizeof(x)) == 0);
	}
	free(t);
	free(op);
}
static void test_bm_ops(void)
{
	static const size_t ns[] = {0, 1, 63, 64, 200, 4096, 100000};
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		bm_one(ns[i], 0, 1000000000, 20, 0.1);
		bm_one(ns[i], 0, 3, 20, 0.1);	 /* more bins than times */
		bm_one(ns[i], 0, 3, 20, 0.0001); /* long runs in a bin */
		bm_one(ns[i], -(1ll << 61), 1ll << 61, 20, 0.1);
		bm_one(ns[i], 12345, 12345 + (int64_t)below(1ull << 40) + 1, 1 + (int)below(12),
		       0.1);
	}
}

/* ---- model_idc against the counts of every bin ------------------------ */
/* the IDC of the counts of every bin, the times' (DT 0) or the double
 * times t + DT's (model_idc_add_d's, the generator's) */
static double idc_of(const int64_t *t, size_t n, int64_t end, int s, double dt)
{
	int64_t sc = model_idc_scale_ns[s];
	uint64_t nb = (uint64_t)((end + sc - 1) / sc);
	double *c = calloc(nb + 1, sizeof(*c)), s2 = 0;
	CHECK(c);
	for (size_t i = 0; i < n; i++)
		c[dt > 0 ? (int64_t)(((double)t[i] + dt) / (double)sc) : t[i] / sc]++;
	for (uint64_t k = 0; k < nb; k++) /* empty bins add 0: the same sum */
		s2 += c[k] * c[k];
	free(c);
	double mean = (double)n / (double)nb;
	return nb >= 8 && n ? (s2 / (double)nb - mean * mean) / mean : -1;
}
static void idc_one(size_t n, int64_t end, int64_t step, double jump)
{
	struct model_idc a, d;
	model_idc_init(&a);
	model_idc_init(&d);
	int64_t *t = malloc((n + 1) * sizeof(*t)), tc = 0;
	CHECK(t);
	for (size_t i = 0; i < n; i++) { /* in order: repeats, bins' bounds, gaps */
		double r = urand();
		if (r < jump)
			tc = (tc / 1000000 + 1) * 1000000 - (urand() < 0.5);
		else if (r < 0.6)
			tc += (int64_t)below((uint64_t)step + 1);
		tc = tc < end ? tc : end - 1;
		t[i] = tc;
		model_idc_add(&a, tc);
		model_idc_add_d(&d, (double)tc + 0.5);
	}
	for (int s = 0; s < MODEL_IDC_SCALES; s++) {
		int64_t sc = model_idc_scale_ns[s];
		double nb = (double)(uint64_t)((end + sc - 1) / sc);
		double got = model_idc_end(&a, s, nb), want = idc_of(t, n, end, s, 0);
		double gotd = model_idc_end(&d, s, nb), wantd = idc_of(t, n, end, s, 0.5);
		if (memcmp(&got, &want, sizeof(got)) || memcmp(&gotd, &wantd, sizeof(got)))
			fprintf(stderr, "idc n %zu scale %d: %a, %a, not %a, %a\n", n, s, got, gotd,
				want, wantd);
		CHECK(memcmp(&got, &want, sizeof(got)) == 0);
		CHECK(memcmp(&gotd, &wantd, sizeof(got)) == 0);
	}
	free(t);
}
static void test_idc(void)
{
	static const size_t ns[] = {0, 1, 2, 100, 5000, 200000};
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		idc_one(ns[i], 200000000000, 3000000, 0.2);
		idc_one(ns[i], 9000000, 1000, 0.01); /* 8 bins or more only at 1 ms */
		idc_one(ns[i], 90000000000, 0, 0);   /* every time the same */
	}
}

int main(void)
{
	test_first_u64();
	test_slices();
	test_pqrs();
	test_bm_ops();
	test_idc();
	return 0;
}
