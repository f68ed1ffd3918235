/*
 * model/fit.c - fit a workload model from a trace in memory: the driver.
 *
 * The trace is cut into windows; windows are grouped into phases by their
 * features (rate, read share, request size, sequentiality) with k-means.
 * Per phase (fit_phase.c): op mix and op-to-op chain, request sizes per op,
 * inter-arrival times (empirical CDF, a Markov chain over gap classes,
 * fitted families), b-model bias.  Per device (fit_device.c): sequential
 * runs, jumps (local ones as an empirical CDF, remote ones as a Markov
 * chain over equal-mass regions), hot regions, read/write overlap.  Whole
 * trace (here): PQRS shares, in-flight, b-model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"

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

static size_t window_of(int64_t t, int64_t t0, int64_t dur, size_t nwin)
{
	size_t wi = (size_t)((double)(t - t0) / (double)dur * (double)nwin);
	return wi >= nwin ? nwin - 1 : wi;
}

/* ---- the steps of the fit ------------------------------------------------ */
/* The clock's granularity (DiskSim's us, Windows' 100 ns ticks): the gcd of
 * the arrival times. */
static void fit_quantum(struct model *m, const struct model_trace *tr)
{
	uint64_t q = 0;
	for (size_t i = 1; i < tr->n && q != 1; i++)
		q = reel_gcd64(q, (uint64_t)(tr->t[i] - tr->t[0]));
	m->quantum_ns = q ? (int64_t)q : 1;
	if (m->quantum_ns > m->duration_ns)
		m->quantum_ns = 1;
}

/* wstart[w]: the first record of window w (wstart[nwin] = n). */
static void cut_windows(const struct model *m, const struct model_trace *tr, size_t *wstart)
{
	size_t n = tr->n, nwin = m->nwin, w = 0;
	int64_t t0 = tr->t[0];
	wstart[0] = 0;
	/* times are sorted: past the window's last time, the next window; the
	 * exact division only near a bound */
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
		while (wend > tr->t[i] + 1 && window_of(wend - 1, t0, m->duration_ns, nwin) > wi)
			wend--;
		while (window_of(wend, t0, m->duration_ns, nwin) <= wi)
			wend++;
	}
	while (w < nwin)
		wstart[++w] = n;
}

/* The k-means features of each window: log I/O count, read share, mean
 * log2 size, sequential share (scaled to comparable spreads). */
static void window_features(const struct model_trace *tr, size_t nwin, const size_t *wstart,
			    double (*feat)[NFEAT])
{
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
}

/* Phases: k-means over the window features with k = 1, 2, ... until the
 * mean squared distance is small; renumbered by first appearance.  The
 * number of phases, or REEL_E_NOMEM. */
static long group_phases(const struct model_trace *tr, size_t nwin, const size_t *wstart,
			 unsigned maxp, int *wphase)
{
	double(*feat)[NFEAT] = calloc(nwin, sizeof(*feat));
	double(*cent)[NFEAT] = calloc(MODEL_MAX_PHASES, sizeof(*cent));
	int *as = calloc(nwin, sizeof(*as));
	if (!feat || !cent || !as) {
		free(feat);
		free(cent);
		free(as);
		return REEL_E_NOMEM;
	}
	window_features(tr, nwin, wstart, feat);
	/* at most one phase per 128 I/O: a phase fitted on fewer says little
	 * and costs the model's size */
	size_t kmax = nwin / 4 < maxp ? nwin / 4 : maxp;
	if (kmax > tr->n / 128)
		kmax = tr->n / 128 ? tr->n / 128 : 1;
	for (size_t k = 1; k <= kmax; k++) {
		double sse = kmeans((const double(*)[NFEAT])feat, nwin, k, as, cent);
		memcpy(wphase, as, nwin * sizeof(*as));
		if (sse / (double)nwin <= 0.25)
			break;
	}
	free(feat);
	free(cent);
	free(as);
	/* renumber phases by first appearance; drop empty ones */
	int map[MODEL_MAX_PHASES];
	for (int i = 0; i < MODEL_MAX_PHASES; i++)
		map[i] = -1;
	long next = 0;
	for (size_t w = 0; w < nwin; w++) {
		if (map[wphase[w]] < 0)
			map[wphase[w]] = (int)next++;
		wphase[w] = map[wphase[w]];
	}
	return next;
}

/* The window sequence: each window's phase and I/O per op. */
static int window_table(struct model *m, const struct model_trace *tr, const size_t *wstart,
			const int *wphase)
{
	size_t nwin = m->nwin;
	m->win_phase = malloc(nwin * sizeof(*m->win_phase));
	m->win_ops = calloc(nwin * REEL_OP__COUNT, sizeof(*m->win_ops));
	if (!m->win_phase || !m->win_ops)
		return REEL_E_NOMEM;
	for (size_t w = 0; w < nwin; w++) {
		m->win_phase[w] = (uint16_t)wphase[w];
		for (size_t i = wstart[w]; i < wstart[w + 1]; i++)
			m->win_ops[w * REEL_OP__COUNT + tr->op[i]]++;
	}
	return 0;
}

/* Devices in order of first use, each with its share and header name and
 * capacity; one pass gathers what fit_device needs beforehand. */
static int fit_devices(struct model *m, const struct model_trace *tr, char *err, size_t errlen)
{
	size_t n = tr->n, per[MODEL_MAX_DEVS] = {0}, nd = 0;
	struct dev_pre pre[MODEL_MAX_DEVS];
	uint16_t ids[MODEL_MAX_DEVS];
	for (size_t k = 0; k < MODEL_MAX_DEVS; k++)
		pre[k] = (struct dev_pre){0, 0, ~0ull};
	int16_t *slot = malloc(65536 * sizeof(*slot)); /* device id -> index */
	if (!slot)
		return REEL_E_NOMEM;
	memset(slot, 0xff, 65536 * sizeof(*slot));
	for (size_t i = 0; i < n; i++) {
		uint16_t d = tr->dev[i];
		if (slot[d] < 0) {
			if (nd == MODEL_MAX_DEVS) {
				free(slot);
				return reel_errf(err, errlen, REEL_E_RANGE,
						 "the trace uses more than %d devices", MODEL_MAX_DEVS);
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
		return REEL_E_NOMEM;
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
		int e = model_fit_device(tr, d, &pre[k], m->naive);
		if (e)
			return e;
	}
	return 0;
}

/* The whole trace's b-model (all arrivals and per op, in one pass) and
 * PQRS shares. */
static int fit_whole_trace(struct model *m, const struct model_trace *tr)
{
	size_t n = tr->n;
	int64_t t0 = tr->t[0];
	struct model_bm bm[REEL_OP__COUNT + 1];
	uint64_t nop[REEL_OP__COUNT] = {0};
	for (size_t w = 0; w < m->nwin; w++)
		for (int op = 0; op < REEL_OP__COUNT; op++)
			nop[op] += m->win_ops[w * REEL_OP__COUNT + op];
	memset(bm, 0, sizeof(bm));
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		if (model_bm_init(&bm[k], k ? nop[k - 1] : n, t0, t0 + m->duration_ns)) {
			for (int j = 0; j < k; j++)
				free(bm[j].c);
			return REEL_E_NOMEM;
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
	return 0;
}

/* ---- the whole fit ------------------------------------------------------- */
int model_fit(struct model *m, const struct model_trace *tr, const struct model_fit_opts *o,
	      char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	size_t n = tr->n;
	if (n < 2)
		return reel_errf(err, errlen, REEL_E_ARG,
				 "the trace has %zu I/O; a model needs at least 2", n);
	int e = REEL_E_NOMEM;
	unsigned maxp = o && o->max_phases ? o->max_phases : 8;
	if (maxp > MODEL_MAX_PHASES)
		maxp = MODEL_MAX_PHASES;
	m->naive = o && o->naive;
	m->count = n;
	m->duration_ns = tr->t[n - 1] - tr->t[0] + 1;
	snprintf(m->source, sizeof(m->source), "%s", tr->source);
	fit_quantum(m, tr);
	/* windows: a power of two, so that b-model levels fall on window bounds */
	size_t nwin = 256;
	while (nwin < MODEL_MAX_WINDOWS && nwin * 8 < n)
		nwin *= 2;
	if (m->naive)
		nwin = 1;
	m->nwin = nwin;
	size_t *wstart = malloc((nwin + 1) * sizeof(*wstart));
	int *wphase = calloc(nwin, sizeof(*wphase));
	if (!wstart || !wphase)
		goto out;
	cut_windows(m, tr, wstart);
	long nph = 1;
	if (!m->naive && nwin >= 8 && (nph = group_phases(tr, nwin, wstart, maxp, wphase)) < 0)
		goto out;
	m->nphases = (size_t)nph;
	m->phases = calloc((size_t)nph, sizeof(*m->phases));
	if (!m->phases || window_table(m, tr, wstart, wphase))
		goto out;
	if (m->naive) {
		model_fit_naive_phase(m, tr);
	} else {
		for (size_t p = 0; p < m->nphases; p++)
			if ((e = model_fit_phase(m, tr, p, wphase, nwin, wstart)))
				goto out;
	}
	if ((e = fit_devices(m, tr, err, errlen)) || (e = fit_inflight(m, tr)) ||
	    (e = fit_whole_trace(m, tr)))
		goto out;
	e = 0;
out:
	if (e == REEL_E_NOMEM)
		reel_errf(err, errlen, e, "out of memory fitting %zu I/O", n);
	free(wstart);
	free(wphase);
	if (e)
		model_free(m);
	return e;
}
