/*
 * model/fit_internal.h - what the parts of model_fit() share; not a public
 * header (model.h is the manual of model/).  fit.c drives the fit (windows,
 * phases by k-means, devices, in-flight, the whole trace's b-model and
 * PQRS); fit_phase.c fits one phase (op chain, sizes, inter-arrival
 * times); fit_device.c fits one device's address space (runs, jumps,
 * regions).  The helpers below are inline: they sit in the hot loops.
 */
#ifndef IOREEL_MODEL_FIT_INTERNAL_H
#define IOREEL_MODEL_FIT_INTERNAL_H
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

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
static inline int samp_init(struct samp *s, uint64_t n, size_t st)
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
static inline void samp_fit(struct samp *s, struct model_dist *d)
{
	model_dist_fit_sample(d, s->v, s->k, s->n, s->sum);
}

/* b-model of all I/O (bm[0]) and per op (bm[1 + op]) over one span: the
 * bins are powers of two and x * 2^L is exact, so an op's bin (it has
 * fewer) is the all-I/O bin shifted right by sh[op]: one range check */
static inline void bm_op_shifts(const struct model_bm *bm, int *sh)
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

/* the device's non-flush I/O: their count, highest end and the OR of their
 * offsets and lengths (for the alignment), from model_fit's pass over them */
struct dev_pre {
	size_t nd;
	uint64_t maxend, alignbits;
};

/* Fit phase PI from its windows (wphase[w] == PI; window w holds records
 * wstart[w] .. wstart[w + 1] - 1): 0 or REEL_E_NOMEM. */
int model_fit_phase(struct model *m, const struct model_trace *tr, size_t pi, const int *wphase,
		    size_t nwin, const size_t *wstart);
/* The naive model's one phase: Poisson arrivals, mean sizes. */
void model_fit_naive_phase(struct model *m, const struct model_trace *tr);
/* Fit device D (id, capacity and share set) from the trace: 0 or
 * REEL_E_NOMEM.  NAIVE: one region, no runs (the addresses uniform). */
int model_fit_device(const struct model_trace *tr, struct model_devspace *d,
		     const struct dev_pre *pre, int naive);

#endif
