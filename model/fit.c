/*
 * model/fit.c - fit a workload model from a trace in memory.
 *
 * The trace is cut into windows; windows are grouped into phases by their
 * features (rate, read share, request size, sequentiality) with k-means.
 * Per phase: op mix and op-to-op chain, request sizes per op, inter-arrival
 * times (empirical CDF, a Markov chain over gap classes, fitted families),
 * b-model bias.  Per device: sequential runs, jumps (local ones as an
 * empirical CDF, remote ones as a Markov chain over equal-mass regions),
 * hot regions, read/write overlap.  Whole trace: PQRS shares, in-flight.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

#define LOCAL_LIMIT (1u << 20)

static int ferr(char *err, size_t errlen, int e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return e;
}

/* deterministic hash -> [0,1): the random share of a tied rank */
static double hash01(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

void model_free(struct model *m)
{
	if (!m)
		return;
	if (m->devs)
		for (size_t i = 0; i < m->ndevs; i++) {
			free(m->devs[i].tr_to);
			free(m->devs[i].tr_p);
		}
	free(m->devs);
	free(m->phases);
	free(m->win_phase);
	free(m->win_ops);
	memset(m, 0, sizeof(*m));
}

/* ---- inter-arrival families ------------------------------------------- */
/* gaps: every FAM_STRIDE(n)-th of the phase's n gaps (time order), nz of
 * all n gaps being 0 */
#define FAM_STRIDE(n) ((n) > 65536 ? (n) / 65536 + 1 : 1)
static void fit_families(struct model_phase *p, const int64_t *gaps, size_t n, size_t nall,
			 size_t nz)
{
	/* at most 65536 gaps (a fixed stride): the families are for people */
	p->gap_zero = nall ? (double)nz / (double)nall : 0;
	size_t np = 0;
	double sum = 0, slog = 0, slog2 = 0;
	for (size_t i = 0; i < n; i++)
		if (gaps[i] > 0) {
			double x = (double)gaps[i], l = log(x);
			np++;
			sum += x;
			slog += l;
			slog2 += l * l;
		}
	for (int f = 0; f < 3; f++) {
		p->fam[f].loglik = p->fam[f].aic = 0;
		p->fam[f].p[0] = p->fam[f].p[1] = p->fam[f].p[2] = 0;
	}
	p->best_family = -1;
	if (np < 8)
		return;
	double N = (double)np, mean = sum / N;
	/* exponential */
	p->fam[0].p[0] = mean;
	p->fam[0].loglik = -N * log(mean) - N;
	p->fam[0].aic = 2 * 1 - 2 * p->fam[0].loglik;
	/* lognormal */
	double mu = slog / N, var = slog2 / N - mu * mu;
	double sg = sqrt(var > 1e-12 ? var : 1e-12);
	p->fam[1].p[0] = mu;
	p->fam[1].p[1] = sg;
	p->fam[1].loglik = -slog - N * log(sg) - 0.5 * N * log(2 * M_PI) - 0.5 * N;
	p->fam[1].aic = 2 * 2 - 2 * p->fam[1].loglik;
	/* 2-phase hyperexponential by EM on at most 65536 gaps (a fixed stride) */
	size_t stride = np > 16384 ? np / 16384 + 1 : 1;
	double w = 0.5, m1 = mean * 0.2, m2 = mean * 3;
	for (int it = 0; it < 60; it++) {
		double s1 = 0, s1x = 0, s2 = 0, s2x = 0;
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			if (gaps[i] <= 0 || (k++ % stride))
				continue;
			double x = (double)gaps[i];
			double a = w / m1 * exp(-x / m1), b = (1 - w) / m2 * exp(-x / m2);
			double r = (a + b) > 0 ? a / (a + b) : (x < mean ? 1 : 0);
			s1 += r;
			s1x += r * x;
			s2 += 1 - r;
			s2x += (1 - r) * x;
		}
		if (s1 <= 0 || s2 <= 0)
			break;
		w = s1 / (s1 + s2);
		m1 = s1x / s1;
		m2 = s2x / s2;
		if (m1 <= 0)
			m1 = 1e-3;
		if (m2 <= 0)
			m2 = 1e-3;
	}
	double ll = 0;
	for (size_t i = 0; i < n; i++) {
		if (gaps[i] <= 0)
			continue;
		double x = (double)gaps[i];
		double f = w / m1 * exp(-x / m1) + (1 - w) / m2 * exp(-x / m2);
		ll += log(f > 1e-300 ? f : 1e-300);
	}
	if (m1 > m2) { /* list the short phase first */
		double t = m1;
		m1 = m2;
		m2 = t;
		w = 1 - w;
	}
	p->fam[2].p[0] = w;
	p->fam[2].p[1] = m1;
	p->fam[2].p[2] = m2;
	p->fam[2].loglik = ll;
	p->fam[2].aic = 2 * 3 - 2 * ll;
	p->best_family = 0;
	for (int f = 1; f < 3; f++)
		if (p->fam[f].aic < p->fam[p->best_family].aic)
			p->best_family = f;
}

/* ---- k-means over window features -------------------------------------- */
#define NFEAT 4
static double kmeans(const double (*x)[NFEAT], size_t n, size_t k, int *assign,
		     double (*cent)[NFEAT])
{
	/* farthest-point initialisation: deterministic */
	memcpy(cent[0], x[0], sizeof(cent[0]));
	for (size_t c = 1; c < k; c++) {
		double best = -1;
		size_t bi = 0;
		for (size_t i = 0; i < n; i++) {
			double dmin = 1e300;
			for (size_t cc = 0; cc < c; cc++) {
				double d = 0;
				for (int f = 0; f < NFEAT; f++)
					d += (x[i][f] - cent[cc][f]) * (x[i][f] - cent[cc][f]);
				if (d < dmin)
					dmin = d;
			}
			if (dmin > best) {
				best = dmin;
				bi = i;
			}
		}
		memcpy(cent[c], x[bi], sizeof(cent[c]));
	}
	double sse = 0;
	for (int it = 0; it < 30; it++) {
		int changed = 0;
		sse = 0;
		for (size_t i = 0; i < n; i++) {
			double dmin = 1e300;
			int bc = 0;
			for (size_t c = 0; c < k; c++) {
				double d = 0;
				for (int f = 0; f < NFEAT; f++)
					d += (x[i][f] - cent[c][f]) * (x[i][f] - cent[c][f]);
				if (d < dmin) {
					dmin = d;
					bc = (int)c;
				}
			}
			if (it == 0 || assign[i] != bc)
				changed = 1;
			assign[i] = bc;
			sse += dmin;
		}
		if (!changed && it)
			break;
		double sum[MODEL_MAX_PHASES][NFEAT] = {{0}};
		size_t cnt[MODEL_MAX_PHASES] = {0};
		for (size_t i = 0; i < n; i++) {
			cnt[assign[i]]++;
			for (int f = 0; f < NFEAT; f++)
				sum[assign[i]][f] += x[i][f];
		}
		for (size_t c = 0; c < k; c++)
			if (cnt[c])
				for (int f = 0; f < NFEAT; f++)
					cent[c][f] = sum[c][f] / (double)cnt[c];
	}
	return sse;
}

/* ---- a small growable int64 vector ------------------------------------- */
struct vec {
	int64_t *v;
	size_t n, cap;
};
static int vpush(struct vec *v, int64_t x)
{
	if (v->n == v->cap) {
		size_t c = v->cap ? v->cap * 2 : 1024;
		int64_t *p = realloc(v->v, c * sizeof(*p));
		if (!p)
			return REEL_E_NOMEM;
		v->v = p;
		v->cap = c;
	}
	v->v[v->n++] = x;
	return 0;
}

static void normalize_rows(double *m, size_t rows, size_t cols, const double *fallback)
{
	for (size_t r = 0; r < rows; r++) {
		double s = 0;
		for (size_t c = 0; c < cols; c++)
			s += m[r * cols + c];
		for (size_t c = 0; c < cols; c++)
			m[r * cols + c] = s > 0 ? m[r * cols + c] / s : fallback[c];
	}
}

/* a fixed-stride sample of a stream of values (every st-th, from the first)
 * and the sum of all of them, as model_dist_fit_sample wants it */
struct samp {
	int64_t *v;
	/* types that an int64_t store cannot alias (long on LP64, where
	 * size_t and uint64_t are unsigned long): the counters stay in
	 * registers across the stores to v */
	uint32_t k, cd, st;
	unsigned long long n;
	double sum;
};
static int samp_init(struct samp *s, uint64_t n, size_t st)
{
	memset(s, 0, sizeof(*s));
	if (st > UINT32_MAX)
		return REEL_E_RANGE;
	s->st = (uint32_t)st;
	s->v = malloc((size_t)(n / st + 2) * sizeof(*s->v)); /* + 1: samp_add's spare */
	return s->v ? 0 : REEL_E_NOMEM;
}
static inline void samp_add(struct samp *s, int64_t x)
{
	/* without a branch: x always goes in the spare slot, kept every st-th */
	s->sum += (double)x;
	s->n++;
	s->v[s->k] = x;
	uint32_t take = s->cd == 0;
	s->k += take;
	s->cd = (take ? s->st : s->cd) - 1;
}
static void samp_fit(struct samp *s, struct model_dist *d)
{
	model_dist_fit_sample(d, s->v, s->k, s->n, s->sum);
}

/* b-model of all I/O (bm[0]) and per op (bm[1 + op]) over one span: the
 * bins are powers of two and x * 2^L is exact, so an op's bin (it has
 * fewer) is the all-I/O bin shifted right by sh[op]: one range check */
static void bm_op_shifts(const struct model_bm *bm, int *sh)
{
	for (int op = 0; op < REEL_OP__COUNT; op++)
		sh[op] = bm[1 + op].c ? bm[0].L - bm[1 + op].L : 0;
}
static inline void bm_add_op(struct model_bm *bm, const int *sh, uint8_t op, int64_t t)
{
	struct model_bm *b0 = &bm[0], *bo = &bm[1 + op];
	if (t >= b0->lo && t < b0->hi) {
		b0->c[b0->k]++;
	} else {
		model_bm_add_slow(b0, t);
		if (!(t >= b0->lo && t < b0->hi))
			return; /* outside [t0, t1) or too few events */
	}
	if (bo->c)
		bo->c[b0->k >> sh[op]]++;
}

/* ---- per phase ----------------------------------------------------------- */
/* One pass over the phase's windows, keeping only bounded samples (the
 * counts per op and of gaps are known beforehand from the windows), then
 * a second pass for the gap-class chain. */
static int fit_phase(struct model *m, const struct model_trace *tr, size_t pi,
		     const int *wphase, size_t nwin, const size_t *wstart)
{
	struct model_phase *p = &m->phases[pi];
	struct samp sizes[REEL_OP__COUNT] = {{0}}, gaps = {0}, fam = {0};
	struct model_bm bm[REEL_OP__COUNT + 1];
	int64_t *leads = NULL;
	size_t nlead = 0, nz = 0;
	uint64_t opn[REEL_OP__COUNT][REEL_OP__COUNT] = {{0}};
	uint64_t opc[REEL_OP__COUNT] = {0};
	int e = REEL_E_NOMEM;
	int64_t acc = 0; /* phase-local time: the phase's windows laid end to end */
	double wl = (double)m->duration_ns / (double)m->nwin;
	uint64_t pops[REEL_OP__COUNT] = {0}, pios = 0, ngap = 0, nwp = 0, nne = 0;
	memset(bm, 0, sizeof(bm));
	for (size_t w = 0; w < nwin; w++) {
		if (wphase[w] != (int)pi)
			continue;
		nwp++;
		size_t cnt = wstart[w + 1] - wstart[w];
		pios += cnt;
		ngap += cnt ? cnt - 1 : 0;
		nne += cnt > 0;
		for (int o = 0; o < REEL_OP__COUNT; o++)
			pops[o] += m->win_ops[w * REEL_OP__COUNT + o];
	}
	int64_t accend = (int64_t)nwp * ((int64_t)wl + 1);
	for (int o = 0; o < REEL_OP__COUNT; o++)
		if (samp_init(&sizes[o], pops[o], model_dist_stride(pops[o])))
			goto out;
	if (samp_init(&gaps, ngap, model_dist_stride(ngap)) ||
	    samp_init(&fam, ngap, FAM_STRIDE(ngap)))
		goto out;
	if (!(leads = malloc((nne + 1) * sizeof(*leads))))
		goto out;
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		if (model_bm_init(&bm[k], k ? pops[k - 1] : pios, 0, accend > 0 ? accend : 1))
			goto out;
	int sh[REEL_OP__COUNT];
	bm_op_shifts(bm, sh);
	for (size_t w = 0; w < nwin; w++) {
		if (wphase[w] != (int)pi)
			continue;
		p->windows++;
		int64_t ws = tr->t[0] + (int64_t)((double)w * wl);
		for (size_t i = wstart[w]; i < wstart[w + 1]; i++) {
			uint8_t op = tr->op[i];
			p->ios++;
			opc[op]++;
			samp_add(&sizes[op], tr->len[i]);
			int64_t lt = acc + (tr->t[i] - ws);
			bm_add_op(bm, sh, op, lt);
			if (i > 0 && i != wstart[w]) {
				opn[tr->op[i - 1]][op]++;
			} else if (i > 0 && w > 0 && wphase[w - 1] == (int)pi) {
				opn[tr->op[i - 1]][op]++;
			}
			if (i > wstart[w]) { /* gaps inside the window */
				int64_t g = tr->t[i] - tr->t[i - 1];
				samp_add(&gaps, g);
				samp_add(&fam, g);
				nz += g == 0;
			} else { /* where the window's first I/O falls, in ppm */
				double f = (double)(tr->t[i] - ws) / wl * 1e6;
				leads[nlead++] = f < 0 ? 0 : f > 1e6 ? 1000000 : (int64_t)f;
			}
		}
		acc += (int64_t)wl + 1;
	}
	p->rate = p->windows ? (double)p->ios / ((double)p->windows * wl) * 1e9 : 0;
	for (int o = 0; o < REEL_OP__COUNT; o++)
		p->op_mix[o] = p->ios ? (double)opc[o] / (double)p->ios : 0;
	for (int a = 0; a < REEL_OP__COUNT; a++)
		for (int b = 0; b < REEL_OP__COUNT; b++)
			p->op_next[a][b] = (double)opn[a][b];
	normalize_rows(&p->op_next[0][0], REEL_OP__COUNT, REEL_OP__COUNT, p->op_mix);
	for (int o = 0; o < REEL_OP__COUNT; o++)
		samp_fit(&sizes[o], &p->size[o]);
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		p->bmodel[k] = model_bm_finish(&bm[k]);
	model_dist_fit(&p->lead, leads, nlead);
	fit_families(p, fam.v, fam.k, gaps.n, nz);
	samp_fit(&gaps, &p->gap);
	/* gaps in time order again: their classes and the classes' chain */
	{
		/* four tables in turn: a transition repeating does not wait on
		 * the increment before it */
		uint64_t cnt[4][MODEL_CLASSES * MODEL_CLASSES] = {{0}};
		double tm[MODEL_CLASSES][MODEL_CLASSES];
		double uni[MODEL_CLASSES];
		for (int c = 0; c < MODEL_CLASSES; c++)
			uni[c] = 1.0 / MODEL_CLASSES;
		/* class bounds; the CDF only for a gap equal to a bound */
		double cb[MODEL_CLASSES + 1];
		for (int k = 1; k < MODEL_CLASSES; k++)
			cb[k] = model_dist_inv(&p->gap, (double)k / MODEL_CLASSES);
		/* the same bounds for integer gaps below 2^53 (exact as doubles):
		 * g > cb[k] iff g >= gt[k], g >= cb[k] iff g >= ge[k] */
		const double exact = 9007199254740992.0;
		int64_t gt[MODEL_CLASSES], ge[MODEL_CLASSES], glim = INT64_C(1) << 53;
		for (int k = 1; k < MODEL_CLASSES; k++) {
			if (!(cb[k] > -exact && cb[k] < exact)) {
				glim = 0; /* a bound out of range: doubles for every gap */
				gt[k] = ge[k] = 0;
				continue;
			}
			gt[k] = (int64_t)floor(cb[k]) + 1;
			ge[k] = (int64_t)ceil(cb[k]);
		}
		int prev = -1;
		/* the CDF at each bound, for gaps equal to it (a pure function of
		 * the bound: computed once, used without a branch) */
		double mlo[MODEL_CLASSES + 1] = {0}, mhi[MODEL_CLASSES + 1] = {0};
		for (int k = 1; k < MODEL_CLASSES; k++)
			model_dist_cdf(&p->gap, cb[k], &mlo[k], &mhi[k]);
		size_t gi = 0;
		for (size_t w = 0; w < nwin; w++) {
			if (wphase[w] != (int)pi)
				continue;
			for (size_t i = wstart[w] + 1; i < wstart[w + 1]; i++, gi++) {
				int64_t g = tr->t[i] - tr->t[i - 1];
				int lo = 0, hi = 0;
				if (g >= 0 && g < glim) {
					for (int k = 1; k < MODEL_CLASSES; k++) {
						lo += g >= gt[k];
						hi += g >= ge[k];
					}
				} else {
					double gv = (double)g;
					for (int k = 1; k < MODEL_CLASSES; k++) {
						lo += cb[k] < gv;
						hi += cb[k] <= gv;
					}
				}
				int c = lo;
				if (lo != hi) { /* the gap equals bound lo + 1: its class
						 * a random share of the bound's point mass */
					double u =
					    mlo[lo + 1] + (mhi[lo + 1] - mlo[lo + 1]) *
							      hash01((uint64_t)gi * 7919 + pi);
					c = (int)(u * MODEL_CLASSES);
					c = c < 0 ? 0 : c >= MODEL_CLASSES ? MODEL_CLASSES - 1 : c;
				}
				if (prev >= 0)
					cnt[gi & 3][prev * MODEL_CLASSES + c]++;
				prev = c;
			}
		}
		for (int a = 0; a < MODEL_CLASSES; a++)
			for (int b = 0; b < MODEL_CLASSES; b++) {
				int x = a * MODEL_CLASSES + b;
				tm[a][b] = (double)(cnt[0][x] + cnt[1][x] + cnt[2][x] + cnt[3][x]);
			}
		memcpy(p->gap_next, tm, sizeof(tm));
		normalize_rows(&p->gap_next[0][0], MODEL_CLASSES, MODEL_CLASSES, uni);
	}
	e = 0;
out:
	for (int o = 0; o < REEL_OP__COUNT; o++)
		free(sizes[o].v);
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		free(bm[k].c);
	free(gaps.v);
	free(fam.v);
	free(leads);
	return e;
}

/* a region one block wide holding >= 1% of the offsets: a hot block */
static int regc_hot(const struct model_devspace *d, uint32_t r)
{
	double below, at;
	model_dist_cdf(&d->addr, (double)d->bound[r], &below, &at);
	return at - below >= 0.01;
}

/* ---- per device ----------------------------------------------------------- */
static uint32_t region_search(const struct model_devspace *d, uint64_t a)
{
	/* the last lo with bound[lo] <= a (bound[0] is 0), without branches */
	if (a >= d->bound[d->nregions])
		return d->nregions - 1;
	const uint64_t *b = d->bound;
	uint32_t lo = 0, len = d->nregions;
	while (len > 1) {
		uint32_t half = len / 2;
		lo = b[lo + half] <= a ? lo + half : lo;
		len -= half;
	}
	return lo;
}

/* region lookups through a table of the region at each 1/4096th of the
 * extent: then a search between two neighbouring entries */
#define RLUT 4096
struct region_lut {
	int sh;
	uint16_t at[RLUT + 1];
};
static void region_lut_init(struct region_lut *l, const struct model_devspace *d)
{
	int sh = 0;
	while ((d->extent >> sh) >= RLUT)
		sh++;
	l->sh = sh;
	for (size_t j = 0; j <= RLUT; j++)
		l->at[j] = (uint16_t)region_search(d, (uint64_t)j << sh);
}
static inline uint32_t region_of(const struct model_devspace *d, const struct region_lut *l,
				 uint64_t a)
{
	if (a >= d->bound[d->nregions])
		return d->nregions - 1;
	size_t j = (size_t)(a >> l->sh); /* a < extent: j < RLUT */
	uint32_t lo = l->at[j], len = l->at[j + 1] - lo + 1u; /* the region is in there */
	while (len > 1) {
		uint32_t half = len / 2;
		lo = d->bound[lo + half] <= a ? lo + half : lo;
		len -= half;
	}
	return lo;
}

static int u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* the slice of the 1024 equal ones of [0, ext) where off falls, and the
 * offsets [lo, hi) that fall there too, to skip the division for the next */
static uint64_t slice_of(uint64_t off, uint64_t ext)
{
	uint64_t s = (uint64_t)((double)off / (double)ext * 1024);
	return s < 1024 ? s : 1023;
}
static void slice_range(uint64_t off, uint64_t ext, uint64_t *lo, uint64_t *hi, uint64_t *s)
{
	uint64_t k = slice_of(off, ext), h = UINT64_MAX;
	if (k < 1023) { /* the binning is monotone: correct an estimate */
		double est = (double)(k + 1) * (double)ext / 1024;
		h = est < 1.8e19 ? (uint64_t)est : UINT64_MAX - 1;
		if (h <= off)
			h = off + 1;
		while (h > off + 1 && slice_of(h - 1, ext) > k)
			h--;
		while (h < UINT64_MAX && slice_of(h, ext) <= k)
			h++;
	}
	*lo = off;
	*hi = h;
	*s = k;
}

/* a read whose block is also written, or a write whose block is also read */
static inline void overlap_count(uint8_t op, uint64_t off, int sh, const uint8_t *wb,
				 const uint8_t *rb, size_t *ra, size_t *wa)
{
	uint64_t b = ((off >> 20) << 20) >> sh;
	size_t rd = op == REEL_OP_READ;
	const uint8_t *other = rd ? wb : rb;
	size_t hit = (other[b / 8] >> (b % 8)) & 1;
	*ra += hit & rd;
	*wa += hit & (rd ^ 1);
}
static void overlap_set(struct model_devspace *d, size_t ra, size_t wa, size_t nr, size_t nw)
{
	d->rw_overlap_read = nr ? (double)ra / (double)nr : 0;
	d->rw_overlap_write = nw ? (double)wa / (double)nw : 0;
}

/* the device's non-flush I/O: their count, highest end and the OR of their
 * offsets and lengths (for the alignment), from model_fit's pass over them */
struct dev_pre {
	size_t nd;
	uint64_t maxend, alignbits;
};

static int fit_device(struct model *m, const struct model_trace *tr, struct model_devspace *d,
		      const struct dev_pre *pre, int naive)
{
	size_t n = tr->n, nd = pre->nd;
	uint64_t maxend = pre->maxend, alignbits = pre->alignbits;
	uint32_t align = 1;
	while (align < 4096 && !(alignbits & align))
		align <<= 1;
	d->align = align;
	uint64_t ext = (maxend + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
	if (d->capacity >= maxend && d->capacity > 0)
		ext = d->capacity;
	if (!ext)
		ext = 1u << 20;
	d->extent = ext;
	d->local_limit = LOCAL_LIMIT < ext / 4 ? LOCAL_LIMIT : ext / 4;
	if (!nd || naive) {
		d->nregions = 1;
		d->bound[0] = 0;
		d->bound[1] = ext;
		d->weight[0] = 1;
		d->row[0] = d->row[1] = 0;
		d->p_local = 0;
		int64_t one = 1;
		model_dist_fit(&d->run, &one, 1);
		if (!naive)
			return 0;
	}
	int e = REEL_E_NOMEM;
	struct samp addr = {0}, jumps = {0};
	struct vec runs = {0}, loc = {0};
	uint64_t *tc = NULL;
	uint8_t *wb = NULL, *rb = NULL;
	size_t k = 0;
	if (samp_init(&addr, nd, model_dist_stride(nd)) ||
	    samp_init(&jumps, nd, model_dist_stride(nd ? nd - 1 : 0)))
		goto out;
	/* read/write overlap at 1 MiB granularity (coarser on huge devices:
	 * at most 2^26 blocks), with one bitmap per direction */
	int sh = 20;
	while ((ext >> sh) >= (1u << 26))
		sh++;
	size_t nb = (size_t)(ext >> sh) + 1;
	wb = calloc(nb / 8 + 1, 1);
	rb = calloc(nb / 8 + 1, 1);
	if (!wb || !rb)
		goto out;
	/* hot regions: the hottest 10% of 1024 equal slices; offsets sampled */
	uint64_t sl[1024] = {0}, slo = 1, shi = 0, sc = 0;
	size_t nr = 0, nw = 0;
	for (size_t i = 0; i < n; i++) {
		if (tr->dev[i] != d->id || tr->op[i] == REEL_OP_FLUSH)
			continue;
		uint64_t off = tr->off[i];
		k++;
		samp_add(&addr, (int64_t)off);
		if (!(off >= slo && off < shi))
			slice_range(off, ext, &slo, &shi, &sc);
		sl[sc]++;
		uint64_t b = ((off >> 20) << 20) >> sh;
		size_t rd = tr->op[i] == REEL_OP_READ;
		uint8_t *mine = rd ? rb : wb;
		mine[b / 8] |= (uint8_t)(1u << (b % 8));
		nr += rd;
		nw += rd ^ 1;
	}
	{
		qsort(sl, 1024, sizeof(sl[0]), u64cmp);
		uint64_t top = 0;
		for (size_t s = 1024 - 102; s < 1024; s++)
			top += sl[s];
		d->hot10 = k ? (double)top / (double)k : 0;
	}
	/* reads in blocks also written and the converse: counted in a pass of
	 * their own for the naive model, else in the pass of the jumps */
	size_t ra = 0, wa = 0;
	if (naive) {
		for (size_t i = 0; i < n; i++) {
			if (tr->dev[i] != d->id || tr->op[i] == REEL_OP_FLUSH)
				continue;
			overlap_count(tr->op[i], tr->off[i], sh, wb, rb, &ra, &wa);
		}
		overlap_set(d, ra, wa, nr, nw);
		e = 0;
		goto out;
	}
	/* equal-mass regions */
	samp_fit(&addr, &d->addr);
	/* equal-mass bounds, plus each hot block (a point mass of the offsets
	 * holding >= 1%) as a region of its own, so that jumps between hot
	 * blocks keep their exact source and destination */
	uint32_t R = (uint32_t)(k / 32);
	if (R < 1)
		R = 1;
	if (R > MODEL_MAX_REGIONS / 2)
		R = MODEL_MAX_REGIONS / 2;
	uint64_t cand[MODEL_MAX_REGIONS + 2 * MODEL_DIST_POINTS + 2];
	size_t nc = 0;
	for (uint32_t r = 1; r < R; r++)
		cand[nc++] = (uint64_t)model_dist_inv(&d->addr, (double)r / R) / align * align;
	for (uint32_t i = 0; i + 1 < d->addr.nk; i++)
		if (d->addr.v[i] == d->addr.v[i + 1] && d->addr.c[i + 1] - d->addr.c[i] >= 0.01) {
			cand[nc++] = (uint64_t)d->addr.v[i] / align * align;
			cand[nc++] = (uint64_t)d->addr.v[i] / align * align + align;
		}
	model_sort_i64((int64_t *)cand, nc);
	uint32_t nreg = 0;
	d->bound[0] = 0;
	for (size_t i = 0; i < nc && nreg + 1 < MODEL_MAX_REGIONS; i++)
		if (cand[i] > d->bound[nreg] && cand[i] < ext)
			d->bound[++nreg] = cand[i];
	d->bound[++nreg] = ext;
	d->nregions = nreg;
	uint8_t hotr[MODEL_MAX_REGIONS];
	for (uint32_t r = 0; r < nreg; r++)
		hotr[r] = d->bound[r + 1] - d->bound[r] <= align && regc_hot(d, r);
	/* jumps, runs, transitions in time order; transitions counted in a
	 * from x to matrix */
	struct region_lut lut;
	region_lut_init(&lut, d);
	tc = calloc((size_t)nreg * nreg, sizeof(*tc));
	if (!tc)
		goto out;
	uint64_t prev_end = 0;
	int seen = 0;
	size_t nloc = 0, nrem = 0;
	int64_t run = 0;
	uint64_t regc[MODEL_MAX_REGIONS] = {0};
	uint32_t reg = 0;
	for (size_t i = 0; i < n; i++) {
		if (tr->dev[i] != d->id || tr->op[i] == REEL_OP_FLUSH)
			continue;
		uint64_t off = tr->off[i];
		overlap_count(tr->op[i], off, sh, wb, rb, &ra, &wa);
		/* sequential I/O mostly stays in the region of the one before */
		if (!(off >= d->bound[reg] && off < d->bound[reg + 1]))
			reg = region_of(d, &lut, off);
		regc[reg]++;
		if (seen) {
			int64_t j = (int64_t)(off - prev_end);
			samp_add(&jumps, j);
			if (j == 0) {
				run++;
			} else {
				if ((e = vpush(&runs, run)))
					goto out;
				run = 1;
				uint64_t aj = j < 0 ? (uint64_t)(-j) : (uint64_t)j;
				if (aj <= d->local_limit && !hotr[reg]) {
					if ((e = vpush(&loc, j)))
						goto out;
					nloc++;
				} else {
					tc[(size_t)region_of(d, &lut, prev_end) * nreg + reg]++;
					nrem++;
				}
			}
		} else {
			seen = 1;
			run = 1;
		}
		prev_end = off + tr->len[i];
	}
	e = REEL_E_NOMEM;
	if (seen && vpush(&runs, run))
		goto out;
	overlap_set(d, ra, wa, nr, nw);
	for (uint32_t r = 0; r < nreg; r++)
		d->weight[r] = k ? (double)regc[r] / (double)k : 1.0 / nreg;
	samp_fit(&jumps, &d->jump);
	model_dist_fit(&d->run, runs.v, runs.n);
	model_dist_fit(&d->local, loc.v, loc.n);
	d->p_local = (nloc + nrem) ? (double)nloc / (double)(nloc + nrem) : 0;
	/* sparse transitions: the non-zero cells, row by row */
	{
		size_t nt = 0;
		for (size_t x = 0; x < (size_t)nreg * nreg; x++)
			nt += tc[x] != 0;
		d->tr_to = malloc((nt + 1) * sizeof(*d->tr_to));
		d->tr_p = malloc((nt + 1) * sizeof(*d->tr_p));
		if (!d->tr_to || !d->tr_p)
			goto out;
		size_t t = 0;
		memset(d->row, 0, sizeof(d->row));
		for (uint32_t f = 0; f < nreg; f++)
			for (uint32_t x = 0; x < nreg; x++)
				if (tc[(size_t)f * nreg + x]) {
					d->tr_to[t] = (uint16_t)x;
					d->tr_p[t] = (double)tc[(size_t)f * nreg + x];
					d->row[f + 1]++;
					t++;
				}
		d->ntr = (uint32_t)nt;
		for (uint32_t r = 0; r < nreg; r++)
			d->row[r + 1] += d->row[r];
		for (uint32_t r = 0; r < nreg; r++) { /* counts -> cumulative shares */
			double s = 0;
			for (uint32_t x = d->row[r]; x < d->row[r + 1]; x++)
				s += d->tr_p[x];
			double c = 0;
			for (uint32_t x = d->row[r]; x < d->row[r + 1]; x++) {
				c += d->tr_p[x];
				d->tr_p[x] = c / s;
			}
		}
	}
	e = 0;
out:
	free(addr.v);
	free(jumps.v);
	free(runs.v);
	free(loc.v);
	free(tc);
	free(wb);
	free(rb);
	return e;
}

/* ---- in-flight ------------------------------------------------------------ */
static int fit_inflight(struct model *m, const struct model_trace *tr)
{
	struct model_inflight *f = &m->inflight;
	if (!tr->issue)
		return 0;
	size_t n = tr->n, k = 0;
	int64_t *is = malloc((n + 1) * sizeof(*is)), *cs = malloc((n + 1) * sizeof(*cs));
	int64_t *lat = malloc((n + 1) * sizeof(*lat)), *dep = malloc((n + 1) * sizeof(*dep));
	if (!is || !cs || !lat || !dep) {
		free(is);
		free(cs);
		free(lat);
		free(dep);
		return REEL_E_NOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (tr->issue[i] >= 0 && tr->complete[i] >= tr->issue[i]) {
			is[k] = tr->issue[i];
			cs[k] = tr->complete[i];
			lat[k] = cs[k] - is[k];
			k++;
		}
	if (k >= 2) {
		model_sort_i64(is, k);
		model_sort_i64(cs, k);
		size_t c = 0;
		double sum = 0, mx = 0;
		for (size_t i = 0; i < k; i++) {
			while (c < k && cs[c] <= is[i])
				c++;
			int64_t d = (int64_t)(i + 1) - (int64_t)c;
			dep[i] = d;
			sum += (double)d;
			if (d > mx)
				mx = (double)d;
		}
		f->known = 1;
		f->mean = sum / (double)k;
		f->max = mx;
		model_dist_fit(&f->depth, dep, k);
		model_dist_fit(&f->latency, lat, k);
	}
	free(is);
	free(cs);
	free(lat);
	free(dep);
	return 0;
}

/* ---- the naive model: one phase, Poisson arrivals, mean sizes -------- */
static void naive_phase(struct model *m, const struct model_trace *tr)
{
	struct model_phase *p = &m->phases[0];
	uint64_t opc[REEL_OP__COUNT] = {0};
	double bytes[REEL_OP__COUNT] = {0};
	for (size_t i = 0; i < tr->n; i++) {
		opc[tr->op[i]]++;
		bytes[tr->op[i]] += tr->len[i];
	}
	p->ios = tr->n;
	p->windows = 1;
	p->rate = (double)tr->n / ((double)m->duration_ns / 1e9);
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		p->op_mix[o] = (double)opc[o] / (double)tr->n;
		if (opc[o]) {
			int64_t mean = (int64_t)(bytes[o] / (double)opc[o] / 512 + 0.5) * 512;
			model_dist_fit(&p->size[o], &mean, 1);
		}
	}
	for (int a = 0; a < REEL_OP__COUNT; a++)
		memcpy(p->op_next[a], p->op_mix, sizeof(p->op_mix));
	/* exponential gaps with the trace's mean, as quantile knots */
	double mean = (double)m->duration_ns / (double)(tr->n > 1 ? tr->n - 1 : 1);
	struct model_dist *g = &p->gap;
	g->n = tr->n - 1;
	g->mean = mean;
	g->nk = MODEL_DIST_Q + 1;
	for (int q = 0; q <= MODEL_DIST_Q; q++) {
		double c = (double)q / MODEL_DIST_Q;
		double cc = q == MODEL_DIST_Q ? 1 - 0.1 / MODEL_DIST_Q : c;
		g->v[q] = floor(-mean * log(1 - cc));
		g->c[q] = c;
	}
	model_dist_prepare(g);
	for (int a = 0; a < MODEL_CLASSES; a++)
		for (int b = 0; b < MODEL_CLASSES; b++)
			p->gap_next[a][b] = 1.0 / MODEL_CLASSES;
	p->best_family = 0;
	p->fam[0].p[0] = mean;
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		p->bmodel[k] = -1;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static size_t window_of(int64_t t, int64_t t0, int64_t dur, size_t nwin)
{
	size_t wi = (size_t)((double)(t - t0) / (double)dur * (double)nwin);
	return wi >= nwin ? nwin - 1 : wi;
}

/* ---- the whole fit ------------------------------------------------------- */
int model_fit(struct model *m, const struct model_trace *tr, const struct model_fit_opts *o,
	      char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	size_t n = tr->n;
	if (n < 2)
		return ferr(err, errlen, REEL_E_ARG, "the trace has %zu I/O; a model needs at least 2",
			    n);
	int e = REEL_E_NOMEM;
	unsigned maxp = o && o->max_phases ? o->max_phases : 8;
	if (maxp > MODEL_MAX_PHASES)
		maxp = MODEL_MAX_PHASES;
	m->naive = o && o->naive;
	m->count = n;
	int64_t t0 = tr->t[0];
	m->duration_ns = tr->t[n - 1] - t0 + 1;
	snprintf(m->source, sizeof(m->source), "%s", tr->source);
	{ /* the clock's granularity (DiskSim's us, Windows' 100 ns ticks) */
		uint64_t q = 0;
		for (size_t i = 1; i < n && q != 1; i++)
			q = gcd_u64(q, (uint64_t)(tr->t[i] - t0));
		m->quantum_ns = q ? (int64_t)q : 1;
		if (m->quantum_ns > m->duration_ns)
			m->quantum_ns = 1;
	}
	/* windows: a power of two, so that b-model levels fall on window bounds */
	size_t nwin = 8;
	while (nwin < MODEL_MAX_WINDOWS && nwin * 16 < n)
		nwin *= 2;
	if (m->naive)
		nwin = 1;
	m->nwin = nwin;
	size_t *wstart = malloc((nwin + 1) * sizeof(*wstart));
	int *wphase = calloc(nwin, sizeof(*wphase));
	double(*feat)[NFEAT] = calloc(nwin, sizeof(*feat));
	if (!wstart || !wphase || !feat)
		goto out;
	{
		size_t w = 0;
		wstart[0] = 0;
		/* times are sorted: past the window's last time, the next
		 * window; the exact division only near a bound */
		int64_t wlo = INT64_MAX, wend = INT64_MIN;
		for (size_t i = 0; i < n; i++) {
			if (tr->t[i] >= wlo && tr->t[i] < wend)
				continue;
			wlo = tr->t[i];
			size_t wi = window_of(tr->t[i], t0, m->duration_ns, nwin);
			while (w < wi)
				wstart[++w] = i;
			/* wend: the first time in a later window */
			if (wi + 1 >= nwin) {
				wend = INT64_MAX;
				continue;
			}
			double est = (double)(wi + 1) * (double)m->duration_ns / (double)nwin;
			wend = t0 + (int64_t)est;
			if (wend <= tr->t[i])
				wend = tr->t[i] + 1;
			while (wend > tr->t[i] + 1 &&
			       window_of(wend - 1, t0, m->duration_ns, nwin) > wi)
				wend--;
			while (window_of(wend, t0, m->duration_ns, nwin) <= wi)
				wend++;
		}
		while (w < nwin)
			wstart[++w] = n;
	}
	size_t nph = 1;
	if (!m->naive && nwin >= 8) {
		for (size_t w = 0; w < nwin; w++) {
			size_t a = wstart[w], b = wstart[w + 1], cnt = b - a, rd = 0, sq = 0;
			double ls = 0;
			for (size_t i = a; i < b; i++) {
				rd += tr->op[i] == REEL_OP_READ;
				ls += 63 - __builtin_clzll((uint64_t)tr->len[i] + 1);
				sq += i > 0 && tr->off[i] == tr->off[i - 1] + tr->len[i - 1];
			}
			feat[w][0] = log2((double)cnt + 1);
			feat[w][1] = cnt ? (double)rd / (double)cnt / 0.25 : 2;
			feat[w][2] = cnt ? ls / (double)cnt : 0;
			feat[w][3] = cnt ? (double)sq / (double)cnt / 0.25 : 0;
		}
		size_t kmax = nwin / 4 < maxp ? nwin / 4 : maxp;
		double(*cent)[NFEAT] = calloc(MODEL_MAX_PHASES, sizeof(*cent));
		int *as = calloc(nwin, sizeof(*as));
		if (!cent || !as) {
			free(cent);
			free(as);
			goto out;
		}
		for (size_t k = 1; k <= kmax; k++) {
			double sse = kmeans((const double(*)[NFEAT])feat, nwin, k, as, cent);
			memcpy(wphase, as, nwin * sizeof(*as));
			nph = k;
			if (sse / (double)nwin <= 0.25)
				break;
		}
		free(cent);
		free(as);
		/* renumber phases by first appearance; drop empty ones */
		int map[MODEL_MAX_PHASES];
		for (int i = 0; i < MODEL_MAX_PHASES; i++)
			map[i] = -1;
		size_t next = 0;
		for (size_t w = 0; w < nwin; w++) {
			if (map[wphase[w]] < 0)
				map[wphase[w]] = (int)next++;
			wphase[w] = map[wphase[w]];
		}
		nph = next;
	}
	m->nphases = nph;
	m->phases = calloc(nph, sizeof(*m->phases));
	if (!m->phases)
		goto out;
	/* the windows: phase and I/O per op */
	m->win_phase = malloc(nwin * sizeof(*m->win_phase));
	m->win_ops = calloc(nwin * REEL_OP__COUNT, sizeof(*m->win_ops));
	if (!m->win_phase || !m->win_ops)
		goto out;
	for (size_t w = 0; w < nwin; w++) {
		m->win_phase[w] = (uint16_t)wphase[w];
		for (size_t i = wstart[w]; i < wstart[w + 1]; i++)
			m->win_ops[w * REEL_OP__COUNT + tr->op[i]]++;
	}
	if (m->naive) {
		naive_phase(m, tr);
	} else {
		for (size_t p = 0; p < nph; p++)
			if ((e = fit_phase(m, tr, p, wphase, nwin, wstart)))
				goto out;
	}
	/* devices */
	{
		int16_t *slot = malloc(65536 * sizeof(*slot)); /* device id -> index */
		size_t per[MODEL_MAX_DEVS] = {0};
		struct dev_pre pre[MODEL_MAX_DEVS];
		for (size_t k = 0; k < MODEL_MAX_DEVS; k++)
			pre[k] = (struct dev_pre){0, 0, ~0ull};
		uint16_t ids[MODEL_MAX_DEVS];
		size_t nd = 0;
		if (!slot)
			goto out;
		memset(slot, 0xff, 65536 * sizeof(*slot));
		for (size_t i = 0; i < n; i++) {
			uint16_t d = tr->dev[i];
			if (slot[d] < 0) {
				if (nd == MODEL_MAX_DEVS) {
					free(slot);
					e = ferr(err, errlen, REEL_E_RANGE,
						 "the trace uses more than %d devices", MODEL_MAX_DEVS);
					goto out;
				}
				slot[d] = (int16_t)nd;
				ids[nd++] = d;
			}
			int sd = slot[d];
			per[sd]++;
			if (tr->op[i] != REEL_OP_FLUSH) {
				uint64_t end = tr->off[i] + tr->len[i];
				pre[sd].nd++;
				pre[sd].maxend = end > pre[sd].maxend ? end : pre[sd].maxend;
				pre[sd].alignbits &= tr->off[i] | (tr->len[i] ? tr->len[i] : 4096);
			}
		}
		free(slot);
		m->devs = calloc(nd, sizeof(*m->devs));
		if (!m->devs)
			goto out;
		m->ndevs = nd;
		for (size_t k = 0; k < nd; k++) {
			struct model_devspace *d = &m->devs[k];
			d->id = ids[k];
			d->share = (double)per[k] / (double)n;
			snprintf(d->name, sizeof(d->name), "dev%u", ids[k]);
			for (size_t h = 0; h < tr->ndev; h++)
				if (tr->devs[h].id == ids[k]) {
					snprintf(d->name, sizeof(d->name), "%s", tr->devs[h].name);
					d->capacity = tr->devs[h].capacity;
				}
			if ((e = fit_device(m, tr, d, &pre[k], m->naive)))
				goto out;
		}
	}
	if ((e = fit_inflight(m, tr)))
		goto out;
	{ /* b-model of all arrivals and per op, in one pass */
		struct model_bm bm[REEL_OP__COUNT + 1];
		uint64_t nop[REEL_OP__COUNT] = {0};
		for (size_t w = 0; w < nwin; w++)
			for (int op = 0; op < REEL_OP__COUNT; op++)
				nop[op] += m->win_ops[w * REEL_OP__COUNT + op];
		memset(bm, 0, sizeof(bm));
		e = REEL_E_NOMEM;
		for (int k = 0; k <= REEL_OP__COUNT; k++)
			if (model_bm_init(&bm[k], k ? nop[k - 1] : n, t0, t0 + m->duration_ns)) {
				for (int j = 0; j < k; j++)
					free(bm[j].c);
				goto out;
			}
		uint64_t amax = 1;
		int sh[REEL_OP__COUNT];
		bm_op_shifts(bm, sh);
		for (size_t i = 0; i < n; i++) {
			bm_add_op(bm, sh, tr->op[i], tr->t[i]);
			if (tr->off[i] + tr->len[i] > amax)
				amax = tr->off[i] + tr->len[i];
		}
		for (int k = 0; k <= REEL_OP__COUNT; k++)
			m->bmodel[k] = model_bm_finish(&bm[k]);
		model_pqrs(tr->t, tr->off, n, t0, t0 + m->duration_ns, 0, amax, m->pqrs);
	}
	e = 0;
out:
	if (e == REEL_E_NOMEM)
		ferr(err, errlen, e, "out of memory fitting %zu I/O", n);
	free(wstart);
	free(wphase);
	free(feat);
	if (e)
		model_free(m);
	return e;
}
