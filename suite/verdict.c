/*
 * suite/verdict.c - from repeats to verdicts: per (cell, drive, metric)
 * summaries, and for every metric, cell and pair of drives a Welch t test,
 * all of them corrected together with Holm's method so that the whole
 * report keeps its family-wise error rate at the plan's alpha.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

void suite_cell_label(const struct suite_plan *p, const struct suite_cell *c, char *buf, size_t len)
{
	const char *qd = p->qd[c->qd];
	snprintf(buf, len, "%s, QD %s, %s, %s, %s", p->w[c->w].name, qd, p->data[c->data],
		 p->timing[c->timing].name, suite_state_name(c->state));
}

/* The finite values of metric m over the repeats that ran. */
static unsigned cell_values(const struct suite_opts *o, const struct suite_results *res,
			    size_t cell, size_t drive, int m, double *x)
{
	unsigned n = 0, reps = o->plan->repeats;
	for (unsigned r = 0; r < reps; r++) {
		const struct suite_run_metrics *rm =
		    &res->runs[(cell * o->ndrives + drive) * reps + r];
		if (rm->copies && isfinite(rm->m[m]))
			x[n++] = rm->m[m];
	}
	return n;
}

void suite_cell_summary(const struct suite_opts *o, const struct suite_results *res, size_t cell,
			size_t drive, int metric, struct reel_sample_stats *s)
{
	double x[128];
	unsigned n = cell_values(o, res, cell, drive, metric, x);
	reel_summarize(x, n, s);
	if (s->ci_lo < 0)
		s->ci_lo = 0; /* every metric is >= 0 */
}

/* Percentiles come from 1%-wide histogram buckets. */
static double resolution(int m)
{
	switch (m) {
	case SUITE_M_LAT_P50:
	case SUITE_M_LAT_P99:
	case SUITE_M_LAT_P999:
	case SUITE_M_READ_P99:
	case SUITE_M_WRITE_P99:
		return 0.01;
	default:
		return 0;
	}
}

int suite_verdicts_compute(const struct suite_opts *o, const struct suite_results *res,
			   struct suite_verdicts *v)
{
	memset(v, 0, sizeof(*v));
	size_t pairs = o->ndrives * (o->ndrives - 1) / 2;
	size_t max = res->ncells * pairs * SUITE__NMETRICS;
	v->cmp = calloc(max ? max : 1, sizeof(*v->cmp));
	double *p = malloc((max ? max : 1) * sizeof(*p));
	int *rej = malloc((max ? max : 1) * sizeof(*rej));
	if (!v->cmp || !p || !rej) {
		free(p);
		free(rej);
		return REEL_E_NOMEM;
	}
	double xa[128], xb[128];
	for (size_t c = 0; c < res->ncells; c++)
		for (size_t b = 0; b < o->ndrives; b++)
			for (size_t a = b + 1; a < o->ndrives; a++)
				for (int m = 0; m < SUITE__NMETRICS; m++) {
					unsigned na = cell_values(o, res, c, a, m, xa);
					unsigned nb = cell_values(o, res, c, b, m, xb);
					if (na < 2 || nb < 2)
						continue;
					struct suite_cmp *k = &v->cmp[v->n];
					*k = (struct suite_cmp){
					    .cell = c, .a = a, .b = b, .metric = m};
					reel_welch_test(xa, na, xb, nb, resolution(m),
							m != SUITE_M_OVER10MS, &k->w);
					p[v->n++] = k->w.p;
				}
	reel_holm(p, v->n, o->plan->alpha, rej);
	for (size_t i = 0; i < v->n; i++) {
		struct suite_cmp *k = &v->cmp[i];
		k->significant = rej[i];
		int head = 0;
		for (int h = 0; h < SUITE_NHEADLINE; h++)
			head |= suite_headline[h] == k->metric;
		v->nhead += (size_t)head;
		if (rej[i]) {
			int up = k->w.diff > 0;
			k->better = up == suite_metric_higher_better(k->metric) ? 1 : -1;
			v->nsig++;
			v->nhead_sig += (size_t)head;
		}
	}
	free(p);
	free(rej);
	return 0;
}

void suite_verdicts_sentence(const struct suite_opts *o, const struct suite_verdicts *v, char *buf,
			     size_t len)
{
	snprintf(buf, len,
		 "%zu of %zu headline comparisons differ significantly (%d headline metrics x "
		 "cells x drive pairs: the verdict table); over all %d metrics, %zu of %zu "
		 "(Welch t, Holm's correction over all %zu, family-wise alpha %g); the rest "
		 "are within noise.",
		 v->nhead_sig, v->nhead, SUITE_NHEADLINE, SUITE__NMETRICS, v->nsig, v->n, v->n,
		 o->plan->alpha);
}

void suite_verdicts_free(struct suite_verdicts *v)
{
	if (v) {
		free(v->cmp);
		v->cmp = NULL;
		v->n = 0;
	}
}
