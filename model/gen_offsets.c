/*
 * model/gen_offsets.c - each region's share of a device's I/O kept as
 * generation goes (MODEL.md, "Offsets: shares kept as they go").  Local
 * jumps, re-uses at a reuse distance and fresh starts moved past touched
 * blocks each leave the region the chain drew: in a trace whose dense
 * bands are narrow (boot: regions of 190 KiB holding 2-3% of the I/O each,
 * read once in random order by local jumps) the generated I/O drift out of
 * them into wide, sparse stretches.  So a remote jump goes now and then to
 * a region short of its share (drawn by how short), at odds that grow with
 * the device's drift; a local jump or a re-use landing where the device
 * already holds more than its share is drawn again.  Re-using starts keep
 * the chain and their jumps (the re-use share held), and a region is not
 * short of a kept run not yet due (starts sent there would land on blocks
 * the run then reads).
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"

void gen_offsets_init(const struct model_devspace *dv, struct devstate *s)
{
	const struct model_dist *d = &dv->addr;
	for (uint32_t i = 0; i < dv->nlong; i++) /* after region_lut_init: its table */
		s->lr_reg[i] =
		    gen_space_region(dv, s, (uint64_t)((double)dv->longrun[i].off * s->scale));
	s->rm_a = 0; /* after region_lut_init: its table */
	s->rm_r = gen_region_of(dv, s, 0);
	s->klut_r = 0;
	/* each segment's density of the trace's offsets (gen_offsets_dense_cdf;
	 * NaN where two knots share a value, no stretch's knot, or where it is
	 * not finite: the CDFs answer there) */
	for (size_t k = 0; k + 1 < d->nk; k++) {
		double span = d->v[k + 1] - d->v[k];
		double r = span > 0 ? (d->c[k + 1] - d->c[k]) * (double)d->n / span : NAN;
		s->kd[k] = isfinite(r) ? r : NAN;
	}
	if (d->nk < 3 || !(d->v[d->nk - 1] > d->v[0]))
		return;
	double w = (d->v[d->nk - 1] - d->v[0]) / GEN_KLUT;
	for (uint32_t j = 0; j <= GEN_KLUT; j++)
		s->klut[j] = (uint16_t)model_dist_knot(d, d->v[0] + j * w, d->nk - 1);
	s->klut_r = 1 / w;
}

/* The knot of X in the offsets CDF (*LO): found through the table, or up
 * from *LO when HINT and v[*LO] <= X (a few steps from the I/O's start to
 * its end, or from a knot near it); 0 (*LO: nk) at or past v[nk-1], or
 * below v[0].  The last knot with v[lo] <= X is the same whatever finds
 * it. */
static int addr_knot(const struct model_devspace *dv, const struct devstate *s, double x, int hint,
		     size_t *lo)
{
	const struct model_dist *d = &dv->addr;
	size_t n = d->nk, k = *lo, t = 0;
	if (n < 2 || !(x < d->v[n - 1]) || x < d->v[0]) {
		*lo = n;
		return 0;
	}
	if (hint && k < n && d->v[k] <= x) {
		while (t < 4 && d->v[k + 1] <= x) /* v[n - 1] > x: k + 1 < n */
			k++, t++;
		hint = t < 4;
	} else {
		hint = 0; /* *LO above X (or past the knots): searched */
	}
	*lo = hint ? k : gen_addr_knot(dv, s, x);
	return 1;
}

/* model_dist_cdf(&dv->addr, X, ...), its knot (*LO) by addr_knot; fiu at
 * --rate 2000: the searches were 8% of gen's CPU, from
 * gen_offsets_dense's two CDFs at every try.  Outside the knots,
 * model_dist_cdf's whole search (*LO: nk). */
static void addr_cdf(const struct model_devspace *dv, const struct devstate *s, double x, int hint,
		     size_t *lo, double *below, double *at)
{
	if (addr_knot(dv, s, x, hint, lo))
		model_dist_cdf_at(&dv->addr, x, *lo, below, at);
	else
		model_dist_cdf(&dv->addr, x, below, at);
}

/* The segment of the offsets CDF (knot to knot) holding A (generated,
 * scaled), its share of the trace's offsets in *W (with a point mass at
 * its low knot). */
static uint32_t seg_of(const struct model_devspace *dv, const struct devstate *s, uint64_t a,
		       double *w)
{
	uint32_t lo = (uint32_t)gen_addr_knot(dv, s, gen_unscale(s, a));
	if (w)
		*w = gen_seg_weight(&dv->addr, lo);
	return lo;
}

/* The segment (MODEL_SEGS-th of a repeat of the model's duration) the
 * device's N-th I/O falls in, and the share of it gone in *X; the repeats
 * gone before it in *F (floor(N / nper)). */
static int seg_at(const struct devstate *s, double n, double *x, double *f)
{
	double c = n / s->nper, y = (c - (*f = floor(c))) * MODEL_SEGS;
	int k = y < MODEL_SEGS - 1 ? (int)y : MODEL_SEGS - 1;
	*x = y - k;
	return k;
}

int gen_offsets_seg(const struct model_devspace *d, const struct devstate *s)
{
	double x, f;
	if (!d->seg_fitted || !(s->nper >= 1))
		return -1;
	return seg_at(s, (double)s->hn, &x, &f);
}

/* A point N of the device's I/O as the regions' wants take it. */
struct want_at {
	double n, f, x; /* seg_at's, at N */
	int k, seg;	/* seg: the model's shares by segment taken */
};

static inline struct want_at want_at(const struct model_devspace *d, const struct devstate *s,
				     double n)
{
	struct want_at a = {n, 0, 0, 0, d->seg_fitted && s->nper >= 1};
	if (a.seg)
		a.k = seg_at(s, n, &a.x, &a.f);
	return a;
}

/* Region R's want at A: the same doubles at every region of one A, its
 * division and segment found once (shortfalls asks for all of them). */
static inline double want_of(const struct model_devspace *d, const struct devstate *s, uint32_t r,
			     const struct want_at *a)
{
	if (!a->seg)
		return d->weight[r] * a->n;
	double w = a->f * d->weight[r] * MODEL_SEGS;
	for (int j = 0; j < a->k; j++)
		w += d->seg_w[j][r];
	return (w + a->x * d->seg_w[a->k][r]) * s->nper / MODEL_SEGS;
}

/* The trace's log front moves up the device as it goes (disksim's disk 8:
 * its last region holds 0, 0, 0, 9, 28 of its I/O by fifth): a region's
 * want is what the trace put there over the same share of its I/O. */
static inline double want_n(const struct model_devspace *d, const struct devstate *s, uint32_t r,
			    double n)
{
	struct want_at a = want_at(d, s, n);
	return want_of(d, s, r, &a);
}

/* The shortfall of region R below its share of the device's I/O so far
 * (less PEND, the kept runs' I/O there still to come: they come whole
 * when due), beyond chance (2 sqrt + 1 of the I/O it should hold). */
static double shortfall(const struct model_devspace *d, const struct devstate *s, uint32_t r,
			const struct want_at *at, double pend)
{
	double want = want_of(d, s, r, at) - pend, a = want - (double)s->rn[r];
	/* x below is at most a - 1 (its rounding too): a region not short
	 * without the root is not short with it, and it is not taken (half
	 * the regions, about) */
	if (!(a - 1 > 0))
		return 0;
	double x = a - 2 * sqrt(want > 0 ? want : 0) - 1;
	return x > 0 ? x : 0;
}

/* C plus the regions' shortfalls from R on at WA, cumulated into
 * s->short_c: one by one, as shortfall (c + 0 is c: the sum's chain of
 * adds, their latency, only through the regions short). */
static double shortfalls_from(const struct model_devspace *d, struct devstate *s,
			      const double *pend, const struct want_at *wa, uint32_t r, double c)
{
	for (; r < d->nregions; r++) {
		double x = shortfall(d, s, r, wa, pend[r]);
		if (x > 0)
			c += x;
		s->short_c[r] = (float)c;
	}
	return c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
/* shortfalls_from(..., 0, 0) two regions at a time (SSE2, x86-64's base):
 * shortfall's doubles (IEEE's products, differences and roots in its
 * order; a count's double exact: the u32 less 2^31 as an int32, 2^31
 * added back), maxpd for its X > 0 ? X : +0 and want > 0 ? want : +0,
 * and the sum's adds one by one in the regions' order.  Where shortfall
 * returns 0 before its root (A - 1 <= 0), X here is at most A - 1 (the
 * root's subtraction rounds down from A at most), so +0 too, and c + 0 is
 * c (c starts at +0 and only grows): the same sums, the same floats.
 * git's and kernel-src's rate-1 models: 30 instructions a region and a
 * branch missed about every other one, one by one (146 instructions an
 * I/O, 6% of the placing thread on git). */
static double shortfalls_sse2(const struct model_devspace *d, struct devstate *s,
			      const double *pend, double n)
{
	const __m128d vn = _mm_set1_pd(n), zero = _mm_setzero_pd(), one = _mm_set1_pd(1),
		      two = _mm_set1_pd(2), half = _mm_set1_pd(2147483648.0);
	const __m128i flip = _mm_set1_epi32(INT32_MIN);
	double c = 0;
	uint32_t r = 0;
	for (; r + 2 <= d->nregions; r += 2) {
		__m128d want =
		    _mm_sub_pd(_mm_mul_pd(_mm_loadu_pd(d->weight + r), vn), _mm_loadu_pd(pend + r));
		__m128i k = _mm_xor_si128(_mm_loadl_epi64((const __m128i *)(s->rn + r)), flip);
		__m128d a = _mm_sub_pd(want, _mm_add_pd(_mm_cvtepi32_pd(k), half));
		__m128d root = _mm_mul_pd(two, _mm_sqrt_pd(_mm_max_pd(want, zero)));
		__m128d x = _mm_max_pd(_mm_sub_pd(_mm_sub_pd(a, root), one), zero);
		c += _mm_cvtsd_f64(x);
		s->short_c[r] = (float)c;
		c += _mm_cvtsd_f64(_mm_unpackhi_pd(x, x));
		s->short_c[r + 1] = (float)c;
	}
	struct want_at wa = {n, 0, 0, 0, 0};
	return shortfalls_from(d, s, pend, &wa, r, c);
}

#include <immintrin.h>
/* shortfalls_sse2's doubles four regions at a time (AVX2: the same IEEE
 * operations in the same order, lane by lane; the count's conversion by
 * the same flip), the sum's adds one by one in the regions' order as
 * there: the same sums, the same floats.  boot-nspawn at rate 1: its 121
 * regions made again every 30 I/O, 45 M instructions of the placing
 * thread's 2,019 M a million I/O in the SSE2 loop. */
__attribute__((target("avx2"))) static double
shortfalls_avx2(const struct model_devspace *d, struct devstate *s, const double *pend, double n)
{
	const __m256d vn = _mm256_set1_pd(n), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1),
		      two = _mm256_set1_pd(2), half = _mm256_set1_pd(2147483648.0);
	const __m128i flip = _mm_set1_epi32(INT32_MIN);
	double c = 0;
	uint32_t r = 0;
	for (; r + 4 <= d->nregions; r += 4) {
		__m256d want = _mm256_sub_pd(_mm256_mul_pd(_mm256_loadu_pd(d->weight + r), vn),
					     _mm256_loadu_pd(pend + r));
		__m128i k = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(s->rn + r)), flip);
		__m256d a = _mm256_sub_pd(want, _mm256_add_pd(_mm256_cvtepi32_pd(k), half));
		__m256d root = _mm256_mul_pd(two, _mm256_sqrt_pd(_mm256_max_pd(want, zero)));
		__m256d x = _mm256_max_pd(_mm256_sub_pd(_mm256_sub_pd(a, root), one), zero);
		__m128d lo = _mm256_castpd256_pd128(x), hi = _mm256_extractf128_pd(x, 1);
		c += _mm_cvtsd_f64(lo);
		s->short_c[r] = (float)c;
		c += _mm_cvtsd_f64(_mm_unpackhi_pd(lo, lo));
		s->short_c[r + 1] = (float)c;
		c += _mm_cvtsd_f64(hi);
		s->short_c[r + 2] = (float)c;
		c += _mm_cvtsd_f64(_mm_unpackhi_pd(hi, hi));
		s->short_c[r + 3] = (float)c;
	}
	struct want_at wa = {n, 0, 0, 0, 0};
	return shortfalls_from(d, s, pend, &wa, r, c);
}

/* AVX2's where the processor has it (and reel_codec_plain is off),
 * else SSE2's */
static double shortfalls_by_weight(const struct model_devspace *d, struct devstate *s,
				   const double *pend, double n)
{
	if (reel_has_avx2())
		return shortfalls_avx2(d, s, pend, n);
	return shortfalls_sse2(d, s, pend, n);
}
#else
static double shortfalls_by_weight(const struct model_devspace *d, struct devstate *s,
				   const double *pend, double n)
{
	struct want_at wa = {n, 0, 0, 0, 0};
	return shortfalls_from(d, s, pend, &wa, 0, 0);
}
#endif

/* How often the regions' shortfalls are made again: every nregions / 4
 * I/O (at least GEN_SHORT_EVERY), so that each I/O pays O(1) for them. */
static inline uint64_t shortfalls_every(const struct model_devspace *d)
{
	return d->nregions / 4 > GEN_SHORT_EVERY ? d->nregions / 4 : GEN_SHORT_EVERY;
}

/* Whether they are due again: s->short_due is short_at +
 * shortfalls_every, set at each refresh (0 before
 * the first: due at once), so the ask at each remote draw is one compare
 * (its sum and the every's division were 13 instructions a call,
 * boot-nspawn at rate 1: 810k calls a million I/O) */
static inline int shortfalls_due(const struct devstate *s) { return s->hn >= s->short_due; }

/* The regions' shortfalls, cumulated (when shortfalls_due: asked first,
 * inline, without this call's frame at every remote jump). */
static void shortfalls(const struct model_devspace *d, struct devstate *s)
{
	/* the kept runs still to come in this repeat: their I/O times the
	 * share of the repeat gone (a region is not short of a run not due) */
	double pend[MODEL_MAX_LONG], f = 0;
	uint32_t at[MODEL_MAX_LONG], nl = 0;
	if (s->nper >= 1)
		f = fmin(1, ((double)s->hn - (double)s->lcycle * s->nper) / s->nper);
	for (uint32_t i = s->lnext; i < d->nlong && f > 0; i++, nl++) {
		at[nl] = s->lr_reg[i];
		pend[nl] = (double)d->longrun[i].len * f;
	}
	/* per region, summed in the runs' order; cleared (2 KiB every 64
	 * I/O) only with a kept run to come, else none */
	static const double none[MODEL_MAX_REGIONS];
	double p[MODEL_MAX_REGIONS];
	if (nl)
		memset(p, 0, d->nregions * sizeof(*p));
	for (uint32_t i = 0; i < nl; i++)
		p[at[i]] += pend[i];
	const double *pr = nl ? p : none;
	struct want_at wa = want_at(d, s, (double)s->hn);
	s->short_tot =
	    wa.seg ? shortfalls_from(d, s, pr, &wa, 0, 0) : shortfalls_by_weight(d, s, pr, wa.n);
	s->short_at = s->hn ? s->hn : 1;
	s->short_due = s->short_at + shortfalls_every(d);
	gen_short_16ths(s->short_c, d->nregions, s->short_16);
}

int64_t gen_offsets_region(struct model_gen *g, const struct model_devspace *d, struct devstate *s)
{
	if (d->nregions < 2 || s->hn < GEN_SHORT_MIN || s->short_pick || s->reusing)
		return -1;
	if (shortfalls_due(s))
		shortfalls(d, s);
	if (!(s->short_tot > 0) || rnd_sp(g) >= GEN_SHORT_ODDS * s->short_tot / (double)s->hn)
		return -1;
	double u = rnd_sp(g) * s->short_tot;
	s->short_pick = 1;
	return gen_short_search(s->short_c, s->short_16, d->nregions, u);
}

static inline int over_in_at(const struct model_devspace *d, const struct devstate *s, uint32_t r,
			     double n)
{
	double want = want_n(d, s, r, n),
	       a = want * (1 + GEN_OVER_TOL); /* region_over's, chance + 1 */
	/* not over at A + 1 or less, whatever the root: fl(A + B) >= A for B
	 * >= 0 (or NaN: the compare below false, as the bound's), so fl(fl(A
	 * + B) + 1) >= fl(A + 1).  git's model x2986: ~30% of 2.1 M asks in 1M
	 * I/O, the sqrt's latency off their path */
	double rn = (double)s->rn[r];
	if (rn <= a + 1)
		return 0;
	return rn > a + 2 * sqrt(want) + 1;
}

static inline int over_in(const struct model_devspace *d, const struct devstate *s, uint32_t r)
{
	return over_in_at(d, s, r, (double)s->hn);
}

int gen_offsets_over_until(const struct model_devspace *d, const struct devstate *s, uint32_t r,
			   uint64_t n)
{
	/* the want by segment may step down at a segment's edge (its sums
	 * rounded): not asked */
	if (want_at(d, s, (double)n).seg || !(d->weight[r] >= 0) || !(n >= s->hn) ||
	    !gen_shares_kept(d, s))
		return 0;
	return over_in_at(d, s, r, (double)n);
}

int gen_offsets_over(const struct model_devspace *d, const struct devstate *s, uint64_t off)
{
	return gen_shares_kept(d, s) && over_in(d, s, gen_region_of(d, s, off));
}

int gen_offsets_over_r(const struct model_devspace *d, const struct devstate *s, uint32_t r)
{
	return gen_shares_kept(d, s) && over_in(d, s, r);
}

/* The device's I/O to the end of this repeat of the model's duration: a
 * region's whole share is of those.  A band is read in one stretch of the
 * trace (boot: 110 of the 162 I/O of its 0.8 MiB band in one tenth of
 * it; boot-nspawn's, git's, fiu's and compile's bands alike), where it
 * holds more than its share of the I/O so far without being over. */
double gen_offsets_repeat_end(const struct devstate *s)
{
	if (!(s->nper >= 1))
		return (double)s->hn;
	double h = (double)s->hn + 1, x = h / s->nper; /* >= 0, or NaN */
	/* the first repeat (rate 1's only one): x in (0, 1], its ceiling 1
	 * (x's division then off the path: boot's 441k full looks a 1M I/O) */
	double end = h <= s->nper && s->nper < INFINITY
			 ? s->nper
			 : s->nper * (x < 0x1p52 ? (double)gen_ceil_i(x) : ceil(x));
	return gen_fmax(gen_fmin(end, s->ntot), (double)s->hn);
}

/* Whether OFF's region R, or its stretch of the offsets CDF, holds more
 * than its share of N of the device's I/O. */
static int local_over_of(const struct model_devspace *d, const struct devstate *s, uint64_t off,
			 uint32_t r, double n)
{
	if (gen_region_over_of(d, s, r, n))
		return 1;
	if (d->addr.nk < 2)
		return 0;
	double w;
	uint32_t k = seg_of(d, s, off, &w);
	return gen_seg_over_of(s, w, k, n);
}

int gen_offsets_local_over(const struct model_devspace *d, const struct devstate *s, uint64_t off)
{
	if (s->hn < GEN_SHORT_MIN || s->reusing)
		return 0;
	uint32_t r = d->nregions >= 2 ? gen_region_of(d, s, off) : 0;
	return local_over_of(d, s, off, r, (double)s->hn);
}

int gen_offsets_local_full(const struct model_devspace *d, const struct devstate *s, uint64_t off)
{
	if (s->hn < GEN_SHORT_MIN || s->reusing)
		return 0;
	uint32_t r = d->nregions >= 2 ? gen_region_of(d, s, off) : 0;
	return local_over_of(d, s, off, r, gen_offsets_repeat_end(s));
}

int gen_offsets_local_full_rk(const struct model_devspace *dv, const struct devstate *s, uint32_t r,
			      uint32_t k)
{
	if (s->hn < GEN_SHORT_MIN || s->reusing) /* gen_offsets_local_full's */
		return 0;
	double n = gen_offsets_repeat_end(s);
	return gen_region_over_of(dv, s, dv->nregions >= 2 ? r : 0, n) ||
	       (dv->addr.nk >= 2 && gen_seg_over_of(s, gen_seg_weight(&dv->addr, k), k, n));
}

/*
 * The regions' quotas.  The shares above are kept against the device's
 * I/O so far, beyond chance (2 sqrt + 1): on a device of a few hundred
 * I/O chance is all there is, and they never act (blktrace, 113 I/O:
 * region 0 over only past 60 I/O of its 37).  Its region shares then
 * move by the chain's draws: the chain keeps region 0 to itself at 0.61,
 * a visit there lasts, and region 0 got 27-55 generated I/O over seeds
 * 1-32 (region 6 4-34 against 18), as the sizes' mix moved before their
 * quotas.  So where the model is of one phase (stationary: a region's
 * share holds over any stretch of the trace), each region has a quota of
 * the I/O generated, as the sizes have: its weight times the device's
 * I/O in the trace generated, less the kept runs' there (placed whole,
 * where they were), and a remote jump's region drawn by the chain is
 * taken at the odds of what the region still lacks over what it would
 * lack at its share of what is left (drawing without replacement), else
 * drawn again (up to GEN_OVER_TRIES times, as over-visited).  A model of
 * several phases has regions its phases keep to (the phases' regions are
 * not kept): a quota over the whole trace pulls a phase's I/O out of its
 * regions (chromium, compile, boot-nspawn: offsets' KS median up by
 * 0.003-0.012 over seeds 1-32 with quotas on every model).
 */
static int quota_over(struct model_gen *g, const struct model_devspace *d, const struct devstate *s,
		      uint32_t r)
{
	if (g->m->nphases != 1 || !(s->ntot > (double)s->hn) || s->reusing)
		return 0;
	double q = d->weight[r] * s->ntot - s->kall[r], nf = s->ntot - s->kall_tot;
	double left = nf - (double)(s->hn - s->hk);
	if (!(q > 0))
		return 1;
	if (!(left > 0) || !(nf > 0))
		return 0;
	double f = (q - (double)(s->rn[r] - s->rk[r])) / (q * left / nf);
	return f < 1 && rnd_sp(g) >= f;
}

void gen_offsets_quota_init(const struct model_devspace *dv, struct devstate *s, double n)
{
	s->ntot = n;
	/* the kept runs come once per repeat of the model's duration */
	double reps = s->nper >= 1 ? ceil(n / s->nper - 1e-9) : 1;
	for (uint32_t i = 0; i < dv->nlong; i++) {
		uint32_t r = gen_space_region(dv, NULL, dv->longrun[i].off);
		s->kall[r] += dv->longrun[i].len * reps;
		s->kall_tot += dv->longrun[i].len * reps;
	}
}

int gen_offsets_region_over(struct model_gen *g, const struct model_devspace *d,
			    const struct devstate *s, uint32_t r)
{
	if (quota_over(g, d, s, r))
		return 1;
	double want = want_n(d, s, r, (double)s->hn);
	return (double)s->rn[r] > want * (1 + GEN_OVER_TOL) + 2 * sqrt(want) + 2;
}

/* Whether offset A (generated, scaled) falls where the trace has offsets:
 * within their range and not in a stretch of the offsets CDF that holds
 * none (a gap between two files, the empty space between two bands). */
int gen_offsets_in_extents(const struct model_devspace *dv, const struct devstate *s, uint64_t a)
{
	uint32_t lo;
	return gen_in_extents_knot(dv, s, a, &lo);
}

/* Sizes and places are drawn apart: a large I/O placed where the trace's
 * I/O are dense (boot-nspawn: reads of 444 and 712 KiB drawn into its
 * 0.8 MiB band of 4 KiB reads) touches the blocks that the band's own
 * fresh starts then find taken, and they scan out of it (104 I/O there
 * in the trace, 1 generated).  The trace's I/O cover another's start
 * hardly ever (more than 8 on 5 of boot's 1,297), so a fresh start does
 * not cover more than GEN_DENSE of them. */
int gen_offsets_dense_cdf(const struct model_devspace *dv, const struct devstate *s, uint64_t off,
			  uint64_t len)
{
	const struct model_dist *d = &dv->addr;
	if (d->nk < 2 || !(d->n > GEN_DENSE))
		return 0;
	double a, at, e, et, x = gen_unscale(s, off), y = gen_unscale(s, off + len);
	/* the start's knot looked for first at s->kh (remote's draw's, a
	 * local start's last I/O's): the table's search and its line were a
	 * third of these asks on disksim, each try's knot a miss in its own
	 * device's table; the knot found is the same (addr_knot) */
	size_t lo = s->kh;
	if (addr_knot(dv, s, x, 1, &lo)) {
		/* the stretch inside the knot's segment: the CDF a line there,
		 * its count the segment's density times the length (kd), far
		 * from GEN_DENSE (a factor of 2; the sums' rounding some 1e-15
		 * of the count) it is the answer.  Disksim's 25 knots a device
		 * (~26 K of the trace's I/O a segment): the two CDFs were 8%
		 * of its placing thread's instructions. */
		if (y < d->v[lo + 1]) {
			double w = (y - x) * s->kd[lo];
			if (w <= GEN_DENSE / 2.0 || w >= GEN_DENSE * 2.0)
				return w > GEN_DENSE;
		}
		model_dist_cdf_at(d, x, lo, &a, &at);
	} else {
		model_dist_cdf(d, x, &a, &at);
	}
	addr_cdf(dv, s, y, 1, &lo, &e, &et);
	return (e - at) * (double)d->n > GEN_DENSE;
}

/* ---- remote's place inside its region, told by its CDF value ----------- */
/* Remote's draws of a place in a region that it does not take (a full
 * region's, whose places fresh_at would not take: fresh_tries' 8 and
 * start_hot's redraws, 2/3 of boot's remote draws at rate 1) decide only
 * whether one more draw is made: whether the inverse CDF's answer at the
 * draw's V is inside the region.  Where the inverse does not fall as V
 * grows, that is V within a stretch of V found once (gen_place_least at
 * the region's bounds): two compares where the guide, the walk and the
 * lerp's division were. */
static double place_at(const struct model_dist *d, double u)
{
	size_t k = 0;
	return gen_dist_inv_at(d, u, &k);
}

static double dbl_of(uint64_t b)
{
	double x;
	memcpy(&x, &b, sizeof(x));
	return x;
}

static uint64_t bits_of(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof(b));
	return b;
}

int gen_place_monotone(const struct model_dist *d)
{
	size_t n = d->nk;
	if (n < 2 || !(d->c[0] <= 0))
		return 0;
	for (size_t k = 0; k < n; k++)
		if (!isfinite(d->c[k]) || !isfinite(d->v[k]) ||
		    (k + 1 < n && !(d->c[k] <= d->c[k + 1] && d->v[k] <= d->v[k + 1])))
			return 0;
	for (size_t i = 0; i < MODEL_DIST_GUIDE; i++)
		if (d->guide[i] <= n - 2 && !(d->c[d->guide[i]] <= (double)i / MODEL_DIST_GUIDE))
			return 0;
	/* where the stretch changes: at a knot's cumulative inside (0, 1),
	 * at 0 (the answer of V <= 0 beside the first stretch's) and 1 */
	if (!(place_at(d, 0) <= place_at(d, dbl_of(1))) ||
	    !(place_at(d, dbl_of(bits_of(1.0) - 1)) <= place_at(d, 1)))
		return 0;
	for (size_t k = 1; k + 1 < n; k++) {
		double c = d->c[k];
		if (c > 0 && c < 1 && !(place_at(d, dbl_of(bits_of(c) - 1)) <= place_at(d, c)))
			return 0;
	}
	return 1;
}

double gen_place_least(const struct model_dist *d, double x)
{
	if (place_at(d, 0) >= x)
		return -INFINITY;
	if (!(place_at(d, 1) >= x))
		return INFINITY;
	/* the positive doubles in the order of their bits: the least from
	 * the least above 0 to 1 whose answer is at or above X */
	uint64_t lo = 1, hi = bits_of(1.0);
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (place_at(d, dbl_of(mid)) >= x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return dbl_of(lo);
}

void gen_place_init(const struct model_devspace *dv, struct devstate *s)
{
	s->pv_ok = gen_place_monotone(&dv->addr);
	for (uint32_t r = 0; s->pv_ok && r <= dv->nregions; r++)
		s->pv[r] = gen_place_least(&dv->addr, s->rb[r]);
}
