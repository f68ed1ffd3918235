/*
 * model/fit_phase.c - fit one phase of the model from its windows: op mix
 * and op-to-op chain, request sizes per op, inter-arrival times (empirical
 * CDF, a Markov chain over gap classes, fitted families for people),
 * where a window's first arrival falls, b-model bias; and the naive
 * model's one phase.  fit.c finds the phases.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"

/* deterministic hash -> [0,1): the random share of a tied rank */
static double hash01(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	x ^= x >> 31;
	return (double)(x >> 11) * (1.0 / 9007199254740992.0);
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
	if (np < 128) /* too few to tell the families apart */
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

/* ---- per phase ----------------------------------------------------------- */
/* What the passes gather for one phase: bounded samples (the counts per op
 * and of gaps are known beforehand from the windows), the op chain, and
 * the gap-class chain's counts. */
struct phase_fit {
	struct samp sizes[REEL_OP__COUNT], gaps, fam;
	struct model_bm bm[REEL_OP__COUNT + 1];
	int sh[REEL_OP__COUNT];
	int64_t *leads;
	size_t nlead, nz;
	uint64_t opn[REEL_OP__COUNT][REEL_OP__COUNT];
	uint64_t opc[REEL_OP__COUNT];
	/* the chain's pass: gap classes, the class before, gaps so far; four
	 * tables in turn, so that a repeating transition does not wait on the
	 * increment before it */
	struct gap_classes *gc;
	int prev;
	size_t gi;
	uint16_t cw;
	uint64_t cnt[4][MODEL_CLASSES * MODEL_CLASSES];
	uint64_t byc[MODEL_CNT_BUCKETS][MODEL_CLASSES];
	/* the class mix of the window being read (its gaps per class, window
	 * cw, bucket cb) and, per bucket, the sum over windows of x_k^2 / n,
	 * windows and sum of (n - 1): the moments of the dispersion */
	uint32_t wx[MODEL_CLASSES];
	uint32_t wn;
	int wb;
	double x2n[MODEL_CNT_BUCKETS][MODEL_CLASSES];
	double pos[MODEL_CNT_BUCKETS][MODEL_CLASSES]; /* sum of positions in class */
	double nw[MODEL_CNT_BUCKETS], nm1[MODEL_CNT_BUCKETS];
	double ntop0[MODEL_CNT_BUCKETS]; /* windows without a top-class gap */
	double nwall[MODEL_CNT_BUCKETS]; /* windows with a gap */
	double ntop[MODEL_CNT_BUCKETS];	 /* top-class gaps */
	double nrest[MODEL_CNT_BUCKETS]; /* gaps of the windows with one */
	struct samp blen;		 /* the lengths of the bursts it starts */
};

/* the gap order is calibrated on the first windows of up to this many I/O
 * (the twelve tries run the generator's arrivals over them: at 2^18 that
 * was 0.42-0.47 CPU s of a 10M-I/O fit's 3.7, at 2^17 half; a trace under
 * 2^17 I/O, every fidelity trace, is calibrated on all of it either way;
 * gen_reel's traces of 0.3M-10M I/O, seed 1, keep their pick, b 0.75;
 * where it moved, between 0.75 and 0.8, one seed's noise: HISTORY.md
 * "Fit, twelfth pass") */
#define FIT_IDC_IOS (1u << 17)

/* Every phase at once, and the record before (of any phase). */
struct phases_fit {
	struct model *m;
	struct phase_fit *f;
	const int *wphase;
	const uint32_t *wcnt;
	int64_t *wacc; /* where window w starts in its phase's local time */
	int64_t t0;
	double wl;
	int has_prev;
	int64_t pt;
	uint8_t pop;
	uint16_t pw;
	/* the current window: its start in trace and phase-local time */
	uint16_t cw;
	int64_t cws, cacc;
	/* each device's own arrivals (with more than one device): its gaps */
	uint8_t *dslot; /* device id -> index + 1 (0: none) */
	struct samp dgap[MODEL_MAX_DEVS];
	int64_t dlast[MODEL_MAX_DEVS];
	/* the trace's IDC over its first idc_win windows (the gap order's
	 * calibration) */
	size_t idc_win;
	struct model_idc idc;
	/* the kept windows (model.kept): window -> index + 1 (0: not kept),
	 * and each one's first and last arrival, its I/O so far and the
	 * arrivals of every kstride-th of its I/O (the last too; the knots
	 * are chosen among them) */
	uint8_t *kslot;
	int64_t kfirst[MODEL_MAX_KEPT], klast[MODEL_MAX_KEPT];
	uint64_t kn[MODEL_MAX_KEPT], kstride[MODEL_MAX_KEPT];
	int64_t *ksamp[MODEL_MAX_KEPT];
	/* the burst going on (MODEL_BURST_NS): its I/O so far (0: none yet),
	 * the phase of the window it started in, whether that is one of the
	 * calibration's; the lengths of the calibration's bursts */
	uint64_t bn;
	int bph, bcal;
	uint64_t bhist[MODEL_BURST_HIST];
};

static void phase_fit_free(struct phase_fit *f)
{
	for (int o = 0; o < REEL_OP__COUNT; o++)
		samp_free(&f->sizes[o]);
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		free(f->bm[k].c);
	samp_free(&f->gaps);
	samp_free(&f->fam);
	samp_free(&f->blen);
	free(f->leads);
	free(f->gc);
}

/* Phase PI's I/O per op and gaps, from the window table. */
static void phase_counts(const struct model *m, size_t pi, const int *wphase, const uint32_t *wcnt,
			 uint64_t *pops, uint64_t *ngap, uint64_t *nne)
{
	memset(pops, 0, REEL_OP__COUNT * sizeof(*pops));
	*ngap = *nne = 0;
	for (size_t w = 0; w < m->nwin; w++) {
		if (wphase[w] != (int)pi)
			continue;
		*ngap += wcnt[w] ? wcnt[w] - 1 : 0;
		*nne += wcnt[w] > 0;
		for (int o = 0; o < REEL_OP__COUNT; o++)
			pops[o] += m->win_ops[w * REEL_OP__COUNT + o];
	}
}

#define DEV_GAP_EPS 0.005 /* a device's gap CDF kept within it (KS) */

/* Device K's gaps (its I/O less one), from its share; 0 with one device,
 * whose gaps are the phases'. */
static uint64_t dev_gaps(const struct model *m, size_t k)
{
	if (m->ndevs < 2)
		return 0;
	double n = floor(m->devs[k].share * (double)m->count + 0.5);
	return n > 1 ? (uint64_t)n - 1 : 0;
}

size_t model_phases_counts(const struct model *m, const int *wphase, const uint32_t *wcnt,
			   uint64_t *n)
{
	size_t k = 0;
	for (size_t pi = 0; pi < m->nphases; pi++) {
		uint64_t nne;
		phase_counts(m, pi, wphase, wcnt, n + k, n + k + REEL_OP__COUNT, &nne);
		k += REEL_OP__COUNT + 1;
	}
	for (size_t d = 0; d < m->ndevs && m->ndevs > 1; d++)
		n[k++] = dev_gaps(m, d);
	return k;
}

/* Size the samples from the phase's windows: its I/O per op, gaps and
 * non-empty windows; the phase-local time runs to accend. */
static int phase_fit_init(struct phase_fit *f, struct model *m, size_t pi, const int *wphase,
			  const uint32_t *wcnt, uint64_t cap)
{
	double wl = (double)m->duration_ns / (double)m->nwin;
	uint64_t pops[REEL_OP__COUNT], pios = 0, ngap, nne, nwp = 0;
	memset(f, 0, sizeof(*f));
	f->prev = -1;
	phase_counts(m, pi, wphase, wcnt, pops, &ngap, &nne);
	for (size_t w = 0; w < m->nwin; w++)
		nwp += wphase[w] == (int)pi;
	for (int o = 0; o < REEL_OP__COUNT; o++)
		pios += pops[o];
	m->phases[pi].windows = nwp;
	int64_t accend = (int64_t)nwp * ((int64_t)wl + 1);
	for (int o = 0; o < REEL_OP__COUNT; o++)
		if (samp_init(&f->sizes[o], pops[o], fit_stride(pops[o], cap)))
			return REEL_E_NOMEM;
	if (samp_init(&f->gaps, ngap, fit_stride(ngap, cap)) ||
	    samp_init(&f->fam, ngap, FAM_STRIDE(ngap)) ||
	    samp_init_upto(&f->blen, pios, fit_stride(pios, cap)))
		return REEL_E_NOMEM;
	if (!(f->leads = malloc((nne + 1) * sizeof(*f->leads))))
		return REEL_E_NOMEM;
	/* the b-model's bins: the phases' together at most 2^FIT_BM_LEVELS
	 * an op, as the whole trace's, so that their memory does not grow
	 * with the trace (8 phases' of 12.5M I/O each: 24 MiB at 2^17 each) */
	int levels = FIT_BM_LEVELS;
	for (size_t np = 1; np < m->nphases; np <<= 1)
		levels--;
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		if (model_bm_init_max(&f->bm[k], k ? pops[k - 1] : pios, 0, accend > 0 ? accend : 1,
				      levels))
			return REEL_E_NOMEM;
	bm_op_shifts(f->bm, f->sh);
	return 0;
}

/* the kept windows hold at least this share of the windows' squared
 * counts (or are MODEL_MAX_KEPT); none are kept where MODEL_MAX_KEPT hold
 * less than FIT_KEPT_FEW of it (no few windows decide the IDC) */
#define FIT_KEPT_SHARE 0.75
#define FIT_KEPT_FEW 0.5
/* a kept window's knots are chosen among so many of its I/O at most; none
 * are kept where the arrivals are within this share of the span (root
 * mean square) of the straight line from the first to the last: the
 * knots, in hundredths, could say little more, and their bytes are not
 * free (blktrace's model is about its trace's size) */
#define FIT_KNOT_SAMPLES 256
#define FIT_KNOT_LINE 0.015

/*
 * The densest windows, whose first and last arrivals the model keeps: by
 * count, down to the fewest whose squared counts hold FIT_KEPT_SHARE of
 * the sum over all windows (the IDC below the window's size is that sum
 * over bins: a few windows decide it on a bursty trace), at most
 * MODEL_MAX_KEPT, windows of 2 I/O or more, none where those hold less
 * than FIT_KEPT_FEW of the sum; in window order in m->kept, their slots
 * in KSLOT.
 */
static void kept_choose(struct model *m, const uint32_t *wcnt, uint8_t *kslot)
{
	double all = 0, got = 0;
	for (size_t w = 0; w < m->nwin; w++)
		all += (double)wcnt[w] * wcnt[w];
	size_t n = 0;
	while (n < MODEL_MAX_KEPT && got < FIT_KEPT_SHARE * all) {
		size_t best = m->nwin; /* the densest window not yet kept */
		for (size_t w = 0; w < m->nwin; w++)
			if (wcnt[w] >= 2 && !kslot[w] && (best == m->nwin || wcnt[w] > wcnt[best]))
				best = w;
		if (best == m->nwin)
			break;
		kslot[best] = 1;
		n++;
		got += (double)wcnt[best] * wcnt[best];
	}
	m->nkept = 0;
	if (got < FIT_KEPT_FEW * all) { /* spread over many windows: none kept */
		memset(kslot, 0, m->nwin);
		return;
	}
	for (size_t w = 0; w < m->nwin; w++)
		if (kslot[w]) {
			struct model_kept_window *kw = &m->kept[m->nkept];
			*kw = (struct model_kept_window){.w = (uint32_t)w};
			kw->nknot = wcnt[w] - 2 < MODEL_KEPT_KNOTS ? wcnt[w] - 2 : MODEL_KEPT_KNOTS;
			kslot[w] = (uint8_t)++m->nkept;
		}
}

int model_phases_init(struct phases_fit **pfp, struct model *m, const int *wphase,
		      const uint32_t *wcnt, int64_t t0, uint64_t cap)
{
	struct phases_fit *pf = calloc(1, sizeof(*pf));
	*pfp = pf;
	if (!pf || !(pf->f = calloc(m->nphases, sizeof(*pf->f))) ||
	    !(pf->wacc = malloc(m->nwin * sizeof(*pf->wacc))))
		return REEL_E_NOMEM;
	pf->m = m;
	pf->wphase = wphase;
	pf->wcnt = wcnt;
	pf->t0 = t0;
	pf->wl = (double)m->duration_ns / (double)m->nwin;
	pf->cw = UINT16_MAX;
	uint64_t nc = 0; /* the calibration's windows: up to FIT_IDC_IOS I/O */
	while (pf->idc_win < m->nwin && (!pf->idc_win || nc + wcnt[pf->idc_win] <= FIT_IDC_IOS))
		nc += wcnt[pf->idc_win++];
	model_idc_init(&pf->idc);
	if (!(pf->kslot = calloc(m->nwin, 1)))
		return REEL_E_NOMEM;
	kept_choose(m, wcnt, pf->kslot);
	for (size_t k = 0; k < m->nkept; k++) {
		uint64_t c = wcnt[m->kept[k].w];
		pf->kstride[k] = (c - 1 + FIT_KNOT_SAMPLES - 1) / FIT_KNOT_SAMPLES;
		if (!(pf->ksamp[k] = malloc(((c - 1) / pf->kstride[k] + 2) * sizeof(int64_t))))
			return REEL_E_NOMEM;
	}
	int64_t acc[MODEL_MAX_PHASES] = {0};
	for (size_t w = 0; w < m->nwin; w++) {
		pf->wacc[w] = acc[wphase[w]];
		acc[wphase[w]] += (int64_t)pf->wl + 1;
	}
	for (size_t p = 0; p < m->nphases; p++)
		if (phase_fit_init(&pf->f[p], m, p, wphase, wcnt, cap))
			return REEL_E_NOMEM;
	if (m->ndevs < 2)
		return 0;
	if (!(pf->dslot = calloc(65536, 1)))
		return REEL_E_NOMEM;
	for (size_t d = 0; d < m->ndevs; d++) {
		uint64_t n = dev_gaps(m, d) + 2; /* + 2: the share's rounding */
		pf->dslot[m->devs[d].id] = (uint8_t)(d + 1);
		pf->dlast[d] = INT64_MIN;
		if (samp_init(&pf->dgap[d], n, fit_stride(n, cap)))
			return REEL_E_NOMEM;
	}
	return 0;
}

void model_phases_free(struct phases_fit *pf)
{
	if (!pf)
		return;
	if (pf->f)
		for (size_t p = 0; p < pf->m->nphases; p++)
			phase_fit_free(&pf->f[p]);
	for (size_t d = 0; d < MODEL_MAX_DEVS; d++)
		samp_free(&pf->dgap[d]);
	free(pf->dslot);
	free(pf->kslot);
	for (size_t k = 0; k < MODEL_MAX_KEPT; k++)
		free(pf->ksamp[k]);
	free(pf->f);
	free(pf->wacc);
	free(pf);
}

/* The pass in time order: sizes, op chain, gaps, where each window's first
 * arrival falls, the phase-local b-model. */
void model_phases_scan(struct phases_fit *pf, const struct fit_cols *c)
{
	const int *wphase = pf->wphase;
	/* the state from one I/O to the next in locals: the samples' stores
	 * (int64_t) could alias it, reloaded at every I/O */
	uint16_t cw = pf->cw, pw = pf->pw;
	int64_t cws = pf->cws, cacc = pf->cacc, pt = pf->pt;
	uint8_t pop = pf->pop;
	int has_prev = pf->has_prev;
	for (size_t i = 0; i < c->n; i++) {
		uint16_t w = c->win[i];
		int pi = wphase[w];
		struct phase_fit *f = &pf->f[pi];
		struct model_phase *p = &pf->m->phases[pi];
		if (w != cw) {
			cw = w;
			cws = pf->t0 + (int64_t)((double)w * pf->wl);
			cacc = pf->wacc[w];
		}
		int64_t t = c->t[i];
		uint8_t op = c->op[i];
		int first = !has_prev || pw != w;
		p->ios++;
		f->opc[op]++;
		samp_add(&f->sizes[op], c->len[i]);
		bm_add_op(f->bm, f->sh, op, cacc + (t - cws));
		if (has_prev && (!first || (w > 0 && wphase[w - 1] == pi)))
			f->opn[pop][op]++;
		if (!first) { /* gaps inside the window */
			int64_t g = t - pt;
			samp_add(&f->gaps, g);
			samp_add(&f->fam, g);
			f->nz += g == 0;
		} else if (pf->kslot[w]) { /* a kept window: its own first arrival */
			pf->kfirst[pf->kslot[w] - 1] = t - cws;
		} else { /* where the window's first I/O falls, in ppm */
			double fr = (double)(t - cws) / pf->wl * 1e6;
			f->leads[f->nlead++] = fr < 0 ? 0 : fr > 1e6 ? 1000000 : (int64_t)fr;
		}
		if (pf->kslot[w]) { /* its last arrival so far, and its knots */
			size_t k = pf->kslot[w] - 1;
			pf->klast[k] = t - cws;
			if (pf->kn[k] % pf->kstride[k] == 0)
				pf->ksamp[k][pf->kn[k] / pf->kstride[k]] = t - cws;
			if (pf->kn[k] == pf->wcnt[w] - 1) /* its last, after the samples */
				pf->ksamp[k][(pf->kn[k] + pf->kstride[k] - 1) / pf->kstride[k]] =
				    t - cws;
			pf->kn[k]++;
		}
		has_prev = 1;
		pt = t;
		pop = op;
		pw = w;
	}
	pf->cw = cw;
	pf->pw = pw;
	pf->cws = cws;
	pf->cacc = cacc;
	pf->pt = pt;
	pf->pop = pop;
	pf->has_prev = has_prev;
	if (pf->dslot)
		for (size_t i = 0; i < c->n; i++) {
			int d = pf->dslot[c->dev[i]] - 1;
			if (d < 0)
				continue;
			if (pf->dlast[d] != INT64_MIN)
				samp_add(&pf->dgap[d], c->t[i] - pf->dlast[d]);
			pf->dlast[d] = c->t[i];
		}
}

/* From the gathered samples: rate, op mix and chain, sizes. */
static void phase_fill_sizes(struct phase_fit *f, struct model_phase *p, const struct model *m)
{
	double wl = (double)m->duration_ns / (double)m->nwin;
	p->rate = p->windows ? (double)p->ios / ((double)p->windows * wl) * 1e9 : 0;
	for (int o = 0; o < REEL_OP__COUNT; o++)
		p->op_mix[o] = p->ios ? (double)f->opc[o] / (double)p->ios : 0;
	for (int a = 0; a < REEL_OP__COUNT; a++)
		for (int b = 0; b < REEL_OP__COUNT; b++)
			p->op_next[a][b] = (double)f->opn[a][b];
	normalize_rows(&p->op_next[0][0], REEL_OP__COUNT, REEL_OP__COUNT, p->op_mix);
	for (int o = 0; o < REEL_OP__COUNT; o++)
		samp_fit(&f->sizes[o], &p->size[o]);
}

/* The rest: b-model, leads, families and the gap CDF. */
static void phase_fill(struct phase_fit *f, struct model_phase *p)
{
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		p->bmodel[k] = model_bm_finish(&f->bm[k]);
	model_dist_fit(&p->lead, f->leads, f->nlead);
	fit_families(p, f->fam.v, f->fam.k, f->gaps.n, f->nz);
	samp_fit(&f->gaps, &p->gap);
}

/* ---- the gap-class chain --------------------------------------------------- */
/* Class k holds the gaps between the k/8 and (k+1)/8 quantiles of the gap
 * CDF; a gap equal to a bound falls in a class at random, by the share of
 * the bound's point mass on each side. */
#define GAP_BINS (FIT_BIN_EXACT + 8 * 57) /* gaps up to 2^63 - 1 */
struct gap_classes {
	double cb[MODEL_CLASSES + 1]; /* class bounds; the CDF only for a gap equal to one */
	/* the same bounds for integer gaps below 2^53 (exact as doubles):
	 * g > cb[k] iff g >= gt[k], g >= cb[k] iff g >= ge[k] */
	int64_t gt[MODEL_CLASSES], ge[MODEL_CLASSES], glim;
	/* the CDF at each bound, for gaps equal to it (a pure function of the
	 * bound: computed once, used without a branch) */
	double mlo[MODEL_CLASSES + 1], mhi[MODEL_CLASSES + 1];
	/* the knots of the gap's CDF that a gap of each bin (gap_bin) can
	 * fall on: [klo, khi), so that its search is a step or two, not a
	 * bisection of every knot (gap_cdf) */
	uint16_t klo[GAP_BINS], khi[GAP_BINS];
	/* the class of every gap of a bin, or GAP_SPLIT where a bound falls
	 * inside it (gap_class compares then): the 14 compares a gap mostly
	 * one look-up in the bin gap_cdf takes anyway */
	uint8_t cls[GAP_BINS];
	/* in a bin of GAP_SPLIT below glim, the counts of gt and ge at or
	 * below the bin's least gap, and the bounds that fall inside the bin
	 * (fit_bound_split): what gap_class's count depends on there */
	uint8_t nt[GAP_BINS], ne[GAP_BINS], vt[GAP_BINS], ve[GAP_BINS];
};
#define GAP_SPLIT 0xff

/* The bin of gap G >= 0 (fit_bin) and the least gap of bin K. */
static inline uint32_t gap_bin(int64_t g) { return fit_bin((uint64_t)g); }

static int64_t gap_bin_lo(uint32_t k) { return (int64_t)fit_bin_lo(k); }

static void gap_bins_init(struct gap_classes *gc, const struct model_dist *gap)
{
	size_t n = gap->nk;
	for (uint32_t k = 0; k < GAP_BINS; k++) {
		double lo = (double)gap_bin_lo(k),
		       hi = k + 1 < GAP_BINS ? (double)(gap_bin_lo(k + 1) - 1) : (double)INT64_MAX;
		gc->klo[k] = n && lo >= gap->v[0] ? (uint16_t)model_dist_knot(gap, lo, n) : 0;
		gc->khi[k] = n ? (uint16_t)(model_dist_knot(gap, hi, n) + 1) : 0;
	}
}

static void gap_classes_init(struct gap_classes *gc, const struct model_dist *gap)
{
	const double exact = 9007199254740992.0;
	memset(gc, 0, sizeof(*gc));
	for (int k = 1; k < MODEL_CLASSES; k++)
		gc->cb[k] = model_dist_inv(gap, (double)k / MODEL_CLASSES);
	gc->glim = INT64_C(1) << 53;
	for (int k = 1; k < MODEL_CLASSES; k++) {
		if (!(gc->cb[k] > -exact && gc->cb[k] < exact)) {
			gc->glim = 0; /* a bound out of range: doubles for every gap */
			gc->gt[k] = gc->ge[k] = 0;
			continue;
		}
		gc->gt[k] = (int64_t)floor(gc->cb[k]) + 1;
		gc->ge[k] = (int64_t)ceil(gc->cb[k]);
	}
	for (int k = 1; k < MODEL_CLASSES; k++)
		model_dist_cdf(gap, gc->cb[k], &gc->mlo[k], &gc->mhi[k]);
	gap_bins_init(gc, gap);
	for (uint32_t b = 0; b < GAP_BINS; b++) { /* gap_class's counts at both ends */
		uint64_t lo = fit_bin_lo(b),
			 hi = b + 1 < GAP_BINS ? fit_bin_lo(b + 1) - 1 : UINT64_MAX;
		int n[4] = {0, 0, 0, 0};
		for (int k = 1; k < MODEL_CLASSES && hi < (uint64_t)gc->glim; k++) {
			n[0] += (int64_t)lo >= gc->gt[k];
			n[1] += (int64_t)lo >= gc->ge[k];
			n[2] += (int64_t)hi >= gc->gt[k];
			n[3] += (int64_t)hi >= gc->ge[k];
		}
		int one = hi < (uint64_t)gc->glim && n[0] == n[1] && n[0] == n[2] && n[0] == n[3];
		gc->cls[b] = one ? (uint8_t)n[0] : GAP_SPLIT;
		if (!one && lo < (uint64_t)gc->glim) { /* its gaps below glim */
			int64_t h =
			    (int64_t)(hi < (uint64_t)gc->glim ? hi : (uint64_t)gc->glim - 1);
			fit_bound_split(gc->gt, MODEL_CLASSES, (int64_t)lo, h, &gc->nt[b],
					&gc->vt[b]);
			fit_bound_split(gc->ge, MODEL_CLASSES, (int64_t)lo, h, &gc->ne[b],
					&gc->ve[b]);
		}
	}
}

/* model_dist_cdf of gap G (GC: GAP's classes, or NULL), the same values:
 * its knot searched only among those of G's bin. */
static inline void gap_cdf(const struct gap_classes *gc, const struct model_dist *gap, int64_t g,
			   double *below, double *at)
{
	double x = (double)g;
	if (!gc || g < 0 || !gap->nk || x < gap->v[0] || x > gap->v[gap->nk - 1]) {
		model_dist_cdf(gap, x, below, at);
		return;
	}
	uint32_t k = gap_bin(g);
	model_dist_cdf_at(gap, x, model_dist_knot_in(gap, x, gc->klo[k], gc->khi[k]), below, at);
}

/* The class of gap G, the GI-th of phase PI (the seed of a tie's draw). */
static inline int gap_class(const struct gap_classes *gc, int64_t g, size_t gi, size_t pi)
{
	uint32_t b = g >= 0 ? gap_bin(g) : 0;
	if (g >= 0 && gc->cls[b] != GAP_SPLIT)
		return gc->cls[b];
	int lo = 0, hi = 0;
	if (g >= 0 && g < gc->glim) { /* g >= gt[k] and g >= ge[k] counted */
		lo = fit_bound_count(gc->gt, gc->nt[b], gc->vt[b], g);
		hi = fit_bound_count(gc->ge, gc->ne[b], gc->ve[b], g);
	} else {
		double gv = (double)g;
		for (int k = 1; k < MODEL_CLASSES; k++) {
			lo += gc->cb[k] < gv;
			hi += gc->cb[k] <= gv;
		}
	}
	int c = lo;
	if (lo != hi) { /* the gap equals bound lo + 1: its class a random share
			 * of the bound's point mass */
		double u = gc->mlo[lo + 1] +
			   (gc->mhi[lo + 1] - gc->mlo[lo + 1]) * hash01((uint64_t)gi * 7919 + pi);
		c = (int)(u * MODEL_CLASSES);
		c = c < 0 ? 0 : c >= MODEL_CLASSES ? MODEL_CLASSES - 1 : c;
	}
	return c;
}

/* In millionths of the window: T ns from its start. */
static uint32_t window_ppm(int64_t t, double wl)
{
	double x = floor((double)t / wl * 1e6);
	return x < 0 ? 0 : x > 999999 ? 999999 : (uint32_t)x;
}

/* The squared distance of the points (x, y) strictly between A and B from
 * the line through A and B, from the prefix sums S[k] (of 1, x, y, x^2,
 * xy, y^2 over the points before k). */
struct knot_sums {
	double n, x, y, xx, xy, yy;
};
static double knot_err(const struct knot_sums *s, const double *x, const double *y, size_t a,
		       size_t b)
{
	if (b <= a + 1)
		return 0;
	const struct knot_sums *l = &s[a + 1], *h = &s[b];
	double n = h->n - l->n, sx = h->x - l->x, sy = h->y - l->y, sxx = h->xx - l->xx;
	double sxy = h->xy - l->xy, syy = h->yy - l->yy, xa = x[a], ya = y[a];
	double k = (y[b] - ya) / (x[b] - xa);
	double uu = sxx - 2 * xa * sx + n * xa * xa, vv = syy - 2 * ya * sy + n * ya * ya;
	double uv = sxy - xa * sy - ya * sx + n * xa * ya;
	double e = vv - 2 * k * uv + k * k * uu;
	return e > 1e-12 ? e : 0; /* below: the sums' rounding, a line */
}

/*
 * Kept window K's knots: of its sampled I/O (every kstride-th, the last
 * too), the NKNOT between its first and last where the arrival curve
 * (time by I/O, both in shares of the window's span and count) bends, the
 * piecewise-linear curve through them nearest the sampled arrivals (least
 * squares in time; dynamic programming over the samples).  A burst's
 * bounds are knots: evenly spaced I/O (the knots before) fell inside
 * bursts, and gen drew where a burst began and ended between them
 * (blktrace's 20 I/O in 0.95 ms after a gap of 0.57 ms, drawn to begin 3
 * to 5 I/O late: its IDC at 1 ms 0.84x on average).
 */
static void kept_knots(struct phases_fit *pf, size_t k)
{
	struct model_kept_window *kw = &pf->m->kept[k];
	uint64_t c = pf->wcnt[kw->w], st = pf->kstride[k];
	size_t np = (size_t)((c - 1 + st - 1) / st) + 1;
	uint32_t nk = kw->nknot;
	if (nk > np - 2)
		nk = kw->nknot = (uint32_t)(np - 2);
	if (!nk)
		return;
	double *x = malloc(np * sizeof(*x)), *y = malloc(np * sizeof(*y));
	struct knot_sums *s = calloc(np + 1, sizeof(*s));
	double *d = malloc((size_t)(nk + 1) * np * sizeof(*d));
	uint32_t *from = malloc((size_t)(nk + 1) * np * sizeof(*from));
	if (!x || !y || !s || !d || !from) { /* no memory: evenly spaced */
		for (uint32_t j = 0; j < nk; j++)
			kw->knot_io[j] = (uint32_t)((j + 1) * (np - 1) / (nk + 1) * st);
		goto out;
	}
	double span = (double)(pf->ksamp[k][np - 1] - pf->ksamp[k][0]);
	for (size_t i = 0; i < np; i++) {
		uint64_t io = i + 1 < np ? i * st : c - 1;
		x[i] = (double)io / (double)(c - 1);
		y[i] = span > 0 ? (double)(pf->ksamp[k][i] - pf->ksamp[k][0]) / span : 0;
		s[i + 1] = (struct knot_sums){s[i].n + 1,
					      s[i].x + x[i],
					      s[i].y + y[i],
					      s[i].xx + x[i] * x[i],
					      s[i].xy + x[i] * y[i],
					      s[i].yy + y[i] * y[i]};
	}
	/* d[j * np + b]: the least error up to sample b with j knots before it */
	for (size_t b = 0; b < np; b++)
		d[b] = knot_err(s, x, y, 0, b);
	if (d[np - 1] < FIT_KNOT_LINE * FIT_KNOT_LINE * (double)np) { /* a line: none */
		nk = kw->nknot = 0;
		goto out;
	}
	for (uint32_t j = 1; j <= nk; j++)
		for (size_t b = j + 1; b < np; b++) {
			double best = INFINITY;
			uint32_t arg = j;
			for (size_t a = j; a < b; a++) {
				double e = d[(j - 1) * np + a] + knot_err(s, x, y, a, b);
				if (e < best) {
					best = e;
					arg = (uint32_t)a;
				}
			}
			d[j * np + b] = best;
			from[j * np + b] = arg;
		}
	size_t b = np - 1;
	for (uint32_t j = nk; j > 0; j--) {
		b = from[j * np + b];
		kw->knot_io[j - 1] = (uint32_t)(b * st);
	}
out:
	free(x);
	free(y);
	free(s);
	free(d);
	free(from);
}

void model_phases_fill_sizes(struct phases_fit *pf)
{
	for (size_t p = 0; p < pf->m->nphases; p++) {
		struct phase_fit *f = &pf->f[p];
		phase_fill_sizes(f, &pf->m->phases[p], pf->m);
		for (int o = 0; o < REEL_OP__COUNT; o++) /* their memory goes */
			samp_free(&f->sizes[o]);
	}
}

void model_phases_fill(struct phases_fit *pf)
{
	for (size_t k = 0; k < pf->m->nkept; k++) {
		struct model_kept_window *kw = &pf->m->kept[k];
		kw->first_ppm = window_ppm(pf->kfirst[k], pf->wl);
		kw->last_ppm = window_ppm(pf->klast[k], pf->wl);
		double f = (double)kw->first_ppm, span = (double)kw->last_ppm - f;
		kept_knots(pf, k);
		for (uint32_t j = 0; j < kw->nknot; j++) { /* in units of the span, rounded */
			int64_t t = pf->ksamp[k][kw->knot_io[j] / pf->kstride[k]];
			double x = span > 0 ? ((double)window_ppm(t, pf->wl) - f) / span : 0;
			x = floor(x * MODEL_KNOT_UNIT + 0.5);
			x = x < 0 ? 0 : x > MODEL_KNOT_UNIT ? MODEL_KNOT_UNIT : x;
			kw->knot[j] = (uint16_t)(j && x < kw->knot[j - 1] ? kw->knot[j - 1] : x);
		}
		if (!(span > 0))
			kw->nknot = 0;
	}
	for (size_t p = 0; p < pf->m->nphases; p++) {
		struct phase_fit *f = &pf->f[p];
		phase_fill(f, &pf->m->phases[p]);
		samp_free(&f->gaps); /* fitted: their memory goes */
		samp_free(&f->fam);
		if ((f->gc = malloc(sizeof(*f->gc))))
			gap_classes_init(f->gc, &pf->m->phases[p].gap);
	}
	for (size_t d = 0; pf->dslot && d < pf->m->ndevs; d++) {
		if (pf->dgap[d].n) { /* within 0.005: 64 devices' gaps stay small */
			samp_fit(&pf->dgap[d], &pf->m->devs[d].gap);
			model_dist_coarsen(&pf->m->devs[d].gap, DEV_GAP_EPS);
		}
		samp_free(&pf->dgap[d]);
	}
	pf->has_prev = 0;
}

/* Where gap G of class K falls inside its class: its CDF value (a point
 * mass split at random by SEED, as gap_class splits it) times 8 less K. */
static double class_position(const struct gap_classes *gc, const struct model_dist *gap, int64_t g,
			     int k, uint64_t seed)
{
	double below, at;
	gap_cdf(gc, gap, g, &below, &at);
	/* no point mass at g (mostly): below + 0 * hash01 is below */
	double u = (at == below ? below : below + (at - below) * hash01(seed)) * MODEL_CLASSES - k;
	return u < 0 ? 0 : u > 1 ? 1 : u;
}

/* The class mix of the window just read joins its bucket's moments. */
static void window_mix_done(struct phase_fit *f)
{
	if (f->wn >= 2) {
		for (int k = 0; k < MODEL_CLASSES; k++)
			f->x2n[f->wb][k] += (double)f->wx[k] * f->wx[k] / f->wn;
		f->nw[f->wb]++;
		f->nm1[f->wb] += f->wn - 1;
	}
	if (f->wn) {
		uint32_t top = f->wx[MODEL_CLASSES - 1];
		f->ntop0[f->wb] += top == 0;
		f->nwall[f->wb]++;
		f->ntop[f->wb] += top;
		f->nrest[f->wb] += top ? f->wn : 0;
	}
	memset(f->wx, 0, sizeof(f->wx));
	f->wn = 0;
}

/* The burst going on is over: its length to its phase's (and to the
 * calibration's histogram). */
static void burst_end(struct phases_fit *pf)
{
	if (!pf->bn)
		return;
	samp_add(&pf->f[pf->bph].blen, (int64_t)pf->bn);
	if (pf->bcal)
		pf->bhist[pf->bn < MODEL_BURST_HIST ? pf->bn - 1 : MODEL_BURST_HIST - 1]++;
	pf->bn = 0;
}

/* The gaps in time order again: their classes and the classes' chain, and
 * the bursts. */
void model_phases_chain(struct phases_fit *pf, const struct fit_cols *c)
{
	for (size_t i = 0; i < c->n; i++) {
		uint16_t w = c->win[i];
		int64_t t = c->t[i];
		if (w < pf->idc_win)
			model_idc_add(&pf->idc, t - pf->t0);
		if (pf->bn && !(t - pf->pt < MODEL_BURST_NS))
			burst_end(pf);
		if (!pf->bn++) {
			pf->bph = pf->wphase[w];
			pf->bcal = w < pf->idc_win;
		}
		if (pf->has_prev && pf->pw == w) { /* a gap inside the window */
			int pi = pf->wphase[w];
			struct phase_fit *f = &pf->f[pi];
			int b = 63 - __builtin_clzll((uint64_t)pf->wcnt[w]);
			b = b < MODEL_CNT_BUCKETS ? b : MODEL_CNT_BUCKETS - 1;
			int k = f->gc ? gap_class(f->gc, t - pf->pt, f->gi, (size_t)pi) : 0;
			f->pos[b][k] += class_position(f->gc, &pf->m->phases[pi].gap, t - pf->pt, k,
						       (uint64_t)f->gi * 7919 + (uint64_t)pi);
			if (f->prev >= 0)
				f->cnt[f->gi & 3][f->prev * MODEL_CLASSES + k]++;
			f->byc[b][k]++;
			if (f->wn && f->cw != w)
				window_mix_done(f);
			f->cw = w;
			f->wb = b;
			f->wx[k]++;
			f->wn++;
			f->prev = k;
			f->gi++;
		}
		pf->has_prev = 1;
		pf->pt = t;
		pf->pw = w;
	}
}

/*
 * The dispersion of the windows' class mix, by moments: a window of n gaps
 * drawn from a Dirichlet-multinomial with the bucket's shares p and
 * intra-window correlation rho has E[sum_k (x_k - n p_k)^2 / (n p_k)] =
 * (K - 1)(1 + (n - 1) rho), K the classes with p_k > 0; pooled over the
 * phase's buckets.  0 when the windows vary no more than chance.
 */
static double class_dispersion(struct phase_fit *f, const struct model_phase *p)
{
	window_mix_done(f);
	double num = 0, den = 0;
	for (int b = 0; b < MODEL_CNT_BUCKETS; b++) {
		if (!f->nw[b])
			continue;
		double s = 0, kk = 0;
		for (int k = 0; k < MODEL_CLASSES; k++) {
			double pk = p->class_by_count[b][k];
			if (pk > 0) {
				s += f->x2n[b][k] / pk;
				kk++;
			}
		}
		/* sum over windows of (sum_k x_k^2 / (n p_k) - n) */
		double chi = s - (f->nm1[b] + f->nw[b]);
		num += chi - f->nw[b] * (kk - 1);
		den += (kk - 1) * f->nm1[b];
	}
	double rho = den > 0 ? num / den : 0;
	return rho < 0 ? 0 : rho > 1 ? 1 : rho;
}

/* the windows of a count bucket that a mean position or a compact share
 * is fitted on, at least */
#define FIT_MIN_WINDOWS 4

/*
 * The order of the gaps inside windows of a gap budget (simulate and
 * match): the generator's IDC at 1 ms .. 10 s over the calibration's
 * windows, for the chain's order and for cascades of each split below,
 * against the trace's; the one that misses least (the squared log ratios
 * summed over the scales, the IDC the mean over a few seeds) if it misses
 * by FIT_IDC_GAIN less than the chain's order, else the chain's (the
 * model says nothing new).
 */
static const double cascade_try[] = {0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.975};
#define FIT_IDC_GAIN 0.8
#define FIT_IDC_SEEDS 3

/* HIST not NULL: the bursts' lengths over the seeds, summed there
 * (MODEL_BURST_HIST counts, zeroed first) */
static double idc_miss(const struct model *m, size_t nwin, int seeds, const double *want,
		       uint64_t *hist)
{
	double got[MODEL_IDC_SCALES] = {0}, x[MODEL_IDC_SCALES], e = 0;
	if (hist)
		memset(hist, 0, MODEL_BURST_HIST * sizeof(*hist));
	for (int k = 0; k < seeds; k++) {
		if (model_gen_idc(m, 0x1dc0 + (uint64_t)k, nwin, x, hist))
			return INFINITY;
		for (int s = 0; s < MODEL_IDC_SCALES; s++)
			got[s] += x[s] / seeds;
	}
	for (int s = 0; s < MODEL_IDC_SCALES; s++)
		if (want[s] > 0 && got[s] > 0)
			e += log(got[s] / want[s]) * log(got[s] / want[s]);
	return e;
}

/* The misses of the chain's order (0) and of each cascade (1 + i), each on
 * a copy of the model with its own split: independent, on two threads.
 * Taken largest split first (job j is try NTRY - j): a cascade of split b
 * draws about n log n / log(1 / b) numbers, so 0.975 costs three times
 * the chain's order (10M-I/O gen_reel trace: 0.072 CPU s against 0.024),
 * and taken last it ran alone while the other thread had nothing left
 * (0.277 s on two threads instead of 0.263, by the tries' CPU times). */
#define NTRY (sizeof(cascade_try) / sizeof(cascade_try[0]))
struct idc_try {
	const struct model *m;
	size_t nwin;
	int seeds;
	double want[MODEL_IDC_SCALES], miss[NTRY + 1];
	uint64_t *hist; /* each try's burst lengths (MODEL_BURST_HIST), or NULL */
};
static void idc_try_one(void *arg, size_t j)
{
	struct idc_try *t = arg;
	size_t i = NTRY - j;
	struct model mc = *t->m; /* the arrays shared, read only */
	mc.gap_cascade = i ? cascade_try[i - 1] : 0;
	t->miss[i] = idc_miss(&mc, t->nwin, t->seeds, t->want,
			      t->hist ? t->hist + i * MODEL_BURST_HIST : NULL);
}

/* a phase's burst lengths are kept from this many bursts on; none where
 * the chain's are within this KS distance of the trace's (compare's KS
 * targets of offsets and re-use: kernel-src's 0.018, past the 5-sigma
 * distance of its 50k bursts, moved its gaps' KS out on seed 1) */
#define FIT_BURST_MIN 64
#define FIT_BURST_KS 0.1
/* the KS distance two samples of sizes A and B pass at 5 sigma
 * (two-sided, 5.7e-7: sqrt(ln(2 / 5.7e-7) / 2) = 2.745) */
static double ks_5sigma(double a, double b) { return 2.745 * sqrt((a + b) / (a * b)); }

/* The KS distance between two histograms of burst lengths; their totals
 * in *NA, *NB. */
static double burst_ks(const uint64_t *a, const uint64_t *b, double *na, double *nb)
{
	double ta = 0, tb = 0, ca = 0, cb = 0, d = 0;
	for (size_t l = 0; l < MODEL_BURST_HIST; l++) {
		ta += (double)a[l];
		tb += (double)b[l];
	}
	for (size_t l = 0; l < MODEL_BURST_HIST && ta > 0 && tb > 0; l++) {
		ca += (double)a[l];
		cb += (double)b[l];
		d = fabs(ca / ta - cb / tb) > d ? fabs(ca / ta - cb / tb) : d;
	}
	*na = ta;
	*nb = tb;
	return d;
}

/*
 * The phases' burst lengths (simulate and match, after the gap order):
 * kept where the generator's bursts over the calibration's windows, the
 * chain's lengths, differ from the trace's by more than FIT_BURST_KS and
 * the KS distance two samples pass at 5 sigma, and with them (gen lays the windows of a
 * gap budget out as bursts of the phase's lengths, burst_layout) the
 * distance is at most half that and the IDC miss at most 1 / FIT_IDC_GAIN
 * the one without (plus 0.01: a miss of 0 stays a miss of 0 within 10%
 * on one scale); else left out, and the model is as before.  A phase of
 * fewer than FIT_BURST_MIN bursts keeps the chain's.  fiu: ten 4 KiB
 * reads 38 us apart, 60% of its I/O; the chain's lengths 3 to 26 long
 * (KS 0.27).  MISS0 and H0: the miss and bursts of the order chosen (its
 * try's: the bursts' count draws nothing), or H0 NULL: run again here.
 */
static void burst_gate(struct phases_fit *pf, const double *want, int seeds, double miss0,
		       const uint64_t *h0)
{
	struct model *m = pf->m;
	uint64_t *h = malloc(MODEL_BURST_HIST * sizeof(*h));
	double na, nb, ks0, ks1;
	int any = 0;
	if (h) {
		if (h0)
			memcpy(h, h0, MODEL_BURST_HIST * sizeof(*h));
		else
			miss0 = idc_miss(m, pf->idc_win, seeds, want, h);
		ks0 = burst_ks(pf->bhist, h, &na, &nb);
		if (na >= FIT_BURST_MIN && nb > 0 && ks0 > FIT_BURST_KS &&
		    ks0 > ks_5sigma(na, nb / seeds)) {
			for (size_t pi = 0; pi < m->nphases; pi++)
				if (pf->f[pi].blen.n >= FIT_BURST_MIN) {
					samp_fit(&pf->f[pi].blen, &m->phases[pi].burst);
					any = 1;
				}
			double miss1 = any ? idc_miss(m, pf->idc_win, seeds, want, h) : INFINITY;
			ks1 = burst_ks(pf->bhist, h, &na, &nb);
			any = any && ks1 <= ks0 / 2 && isfinite(miss1) &&
			      miss1 <= miss0 / FIT_IDC_GAIN + 0.01;
		}
	}
	for (size_t pi = 0; pi < m->nphases && !any; pi++)
		memset(&m->phases[pi].burst, 0, sizeof(m->phases[pi].burst));
	free(h);
}

static void calibrate_order(struct phases_fit *pf)
{
	struct model *m = pf->m;
	double want[MODEL_IDC_SCALES], end = (double)pf->idc_win * pf->wl;
	int budget = 0; /* a window the cascade orders */
	for (size_t w = 0; w < pf->idc_win; w++)
		budget |= pf->wcnt[w] > MODEL_CLASSES;
	m->gap_cascade = 0;
	if (!budget || !(pf->idc.n > 0))
		return;
	for (int s = 0; s < MODEL_IDC_SCALES; s++) /* as model_gen_idc's bins */
		want[s] = model_idc_end(&pf->idc, s, ceil(end / (double)model_idc_scale_ns[s]));
	/* each try counts its bursts: the one chosen need not run again, alone
	 * on one thread, for burst_gate (10M-I/O trace: 0.015 s) */
	struct idc_try t = {.m = m,
			    .nwin = pf->idc_win,
			    .seeds = pf->idc.n < 65536 ? FIT_IDC_SEEDS : 1,
			    .hist = malloc((NTRY + 1) * MODEL_BURST_HIST * sizeof(*t.hist))};
	memcpy(t.want, want, sizeof(want)); /* a long stretch: one seed, less noise */
	fit_par_for(NTRY + 1, idc_try_one, &t);
	double chain = t.miss[0], best = chain, bb = 0;
	size_t bi = 0;
	for (size_t i = 0; i < NTRY; i++)
		if (t.miss[i + 1] < best) {
			best = t.miss[i + 1];
			bb = cascade_try[i];
			bi = i + 1;
		}
	if (!(best < FIT_IDC_GAIN * chain)) { /* the chain's order */
		bb = 0;
		bi = 0;
	}
	m->gap_cascade = bb;
	burst_gate(pf, want, t.seeds, t.miss[bi], t.hist ? t.hist + bi * MODEL_BURST_HIST : NULL);
	free(t.hist);
}

/* The chain's counts as shares. */
void model_phases_finish(struct phases_fit *pf)
{
	double uni[MODEL_CLASSES];
	for (int k = 0; k < MODEL_CLASSES; k++)
		uni[k] = 1.0 / MODEL_CLASSES;
	for (size_t pi = 0; pi < pf->m->nphases; pi++) {
		struct phase_fit *f = &pf->f[pi];
		struct model_phase *p = &pf->m->phases[pi];
		for (int b = 0; b < MODEL_CNT_BUCKETS; b++) {
			uint64_t t = 0;
			for (int k = 0; k < MODEL_CLASSES; k++)
				t += f->byc[b][k];
			for (int k = 0; k < MODEL_CLASSES; k++) {
				p->class_by_count[b][k] = t ? (double)f->byc[b][k] / (double)t : 0;
				p->class_pos[b][k] =
				    f->byc[b][k] ? f->pos[b][k] / (double)f->byc[b][k] : 0.5;
			}
		}
		for (int a = 0; a < MODEL_CLASSES; a++)
			for (int b = 0; b < MODEL_CLASSES; b++) {
				int x = a * MODEL_CLASSES + b;
				p->gap_next[a][b] = (double)(f->cnt[0][x] + f->cnt[1][x] +
							     f->cnt[2][x] + f->cnt[3][x]);
			}
		normalize_rows(&p->gap_next[0][0], MODEL_CLASSES, MODEL_CLASSES, uni);
		p->class_disp = class_dispersion(f, p);
		for (int b = 0; b < MODEL_CNT_BUCKETS; b++) { /* fewer windows: noise */
			int enough = f->nwall[b] >= FIT_MIN_WINDOWS;
			p->compact[b] = enough ? f->ntop0[b] / f->nwall[b] : -1;
			p->top_rest[b] = enough && f->nrest[b] ? f->ntop[b] / f->nrest[b] : 0;
			for (int k = 0; k < MODEL_CLASSES && !enough; k++)
				p->class_pos[b][k] = 0.5;
		}
	}
	burst_end(pf);
	calibrate_order(pf);
}

/* ---- the naive model: one phase, Poisson arrivals, mean sizes -------- */
void model_fit_naive_phase(struct model *m, const struct fit_scan *sc)
{
	struct model_phase *p = &m->phases[0];
	const uint64_t *opc = sc->nop;
	const double *bytes = sc->bytes;
	uint64_t n = sc->n;
	p->ios = n;
	p->windows = 1;
	p->rate = (double)n / ((double)m->duration_ns / 1e9);
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		p->op_mix[o] = (double)opc[o] / (double)n;
		if (opc[o]) {
			int64_t mean = (int64_t)(bytes[o] / (double)opc[o] / 512 + 0.5) * 512;
			model_dist_fit(&p->size[o], &mean, 1);
		}
	}
	for (int a = 0; a < REEL_OP__COUNT; a++)
		memcpy(p->op_next[a], p->op_mix, sizeof(p->op_mix));
	/* exponential gaps with the trace's mean, as quantile knots */
	double mean = (double)m->duration_ns / (double)(n > 1 ? n - 1 : 1);
	struct model_dist *g = &p->gap;
	g->n = n - 1;
	g->mean = mean;
	g->nk = MODEL_DIST_Q + 1;
	for (int q = 0; q <= MODEL_DIST_Q; q++) {
		double c = (double)q / MODEL_DIST_Q;
		double cc = q == MODEL_DIST_Q ? 1 - 0.1 / MODEL_DIST_Q : c;
		/* + 0.0: at q = 0 the product is -0, written "-0" and read back as 0 */
		g->v[q] = floor(-mean * log(1 - cc)) + 0.0;
		g->c[q] = c;
	}
	model_dist_prepare(g);
	for (int a = 0; a < MODEL_CLASSES; a++)
		for (int b = 0; b < MODEL_CLASSES; b++)
			p->gap_next[a][b] = 1.0 / MODEL_CLASSES;
	for (int b = 0; b < MODEL_CNT_BUCKETS; b++) { /* no windows by count */
		p->compact[b] = -1;
		for (int k = 0; k < MODEL_CLASSES; k++)
			p->class_pos[b][k] = 0.5;
	}
	p->best_family = 0;
	p->fam[0].p[0] = mean;
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		p->bmodel[k] = -1;
}
