/*
 * model/compare.c - compare two traces dimension by dimension: the
 * per-dimension samples (sizes, gaps, jumps, runs, latencies) of each,
 * then KS distances, op mix, b-model, PQRS and the demerit figure.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* ---- samples ------------------------------------------------------------ */
static int has_addr(int op)
{
	return op != REEL_OP_FLUSH;
}

int model_samples_get(struct model_samples *s, const struct model_trace *tr)
{
	memset(s, 0, sizeof(*s));
	size_t n = tr->n;
	s->size = malloc((n + 1) * sizeof(int64_t));
	s->gap = malloc((n + 1) * sizeof(int64_t));
	s->jump = malloc((n + 1) * sizeof(int64_t));
	s->run = malloc((n + 1) * sizeof(int64_t));
	s->lat = malloc((n + 1) * sizeof(int64_t));
	uint64_t *prev_end = calloc(65536, sizeof(uint64_t));
	uint8_t *seen = calloc(65536, 1);
	int64_t *runlen = calloc(65536, sizeof(int64_t));
	if (!s->size || !s->gap || !s->jump || !s->run || !s->lat || !prev_end || !seen ||
	    !runlen) {
		free(prev_end);
		free(seen);
		free(runlen);
		model_samples_free(s);
		return REEL_E_NOMEM;
	}
	uint64_t opc[REEL_OP__COUNT] = {0};
	double lat_sum = 0;
	for (size_t i = 0; i < n; i++) {
		opc[tr->op[i]]++;
		s->size[s->nsize++] = tr->len[i];
		if (i)
			s->gap[s->ngap++] = tr->t[i] - tr->t[i - 1];
		if (tr->issue && tr->issue[i] >= 0 && tr->complete[i] >= 0) {
			s->lat[s->nlat++] = tr->complete[i] - tr->issue[i];
			lat_sum += (double)(tr->complete[i] - tr->issue[i]);
		}
		if (!has_addr(tr->op[i]))
			continue;
		uint16_t d = tr->dev[i];
		if (seen[d]) {
			int64_t j = (int64_t)(tr->off[i] - prev_end[d]);
			s->jump[s->njump++] = j;
			if (j == 0) {
				runlen[d]++;
			} else {
				s->run[s->nrun++] = runlen[d];
				runlen[d] = 1;
			}
		} else {
			seen[d] = 1;
			runlen[d] = 1;
		}
		prev_end[d] = tr->off[i] + tr->len[i];
	}
	for (size_t d = 0; d < 65536; d++)
		if (seen[d])
			s->run[s->nrun++] = runlen[d];
	free(prev_end);
	free(seen);
	free(runlen);
	for (int o = 0; o < REEL_OP__COUNT; o++)
		s->op_frac[o] = n ? (double)opc[o] / (double)n : 0;
	s->mean_lat = s->nlat ? lat_sum / (double)s->nlat : 0;
	int64_t t0 = n ? tr->t[0] : 0, t1 = n ? tr->t[n - 1] + 1 : 1;
	s->bmodel[0] = model_bmodel(tr->t, n, t0, t1);
	int64_t *tt = malloc((n + 1) * sizeof(*tt));
	if (!tt) {
		model_samples_free(s);
		return REEL_E_NOMEM;
	}
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			if (tr->op[i] == o)
				tt[k++] = tr->t[i];
		s->bmodel[1 + o] = model_bmodel(tt, k, t0, t1);
	}
	free(tt);
	uint64_t amax = 1;
	for (size_t i = 0; i < n; i++)
		if (tr->off[i] + tr->len[i] > amax)
			amax = tr->off[i] + tr->len[i];
	model_pqrs(tr->t, tr->off, n, t0, t1, 0, amax, s->pqrs);
	int e;
	if ((e = model_sort_i64(s->size, s->nsize)) || (e = model_sort_i64(s->gap, s->ngap)) ||
	    (e = model_sort_i64(s->jump, s->njump)) || (e = model_sort_i64(s->run, s->nrun)) ||
	    (e = model_sort_i64(s->lat, s->nlat))) {
		model_samples_free(s);
		return e;
	}
	return 0;
}

void model_samples_free(struct model_samples *s)
{
	if (!s)
		return;
	free(s->size);
	free(s->gap);
	free(s->jump);
	free(s->run);
	free(s->lat);
	memset(s, 0, sizeof(*s));
}

/* ---- compare ------------------------------------------------------------ */
int model_compare(const struct model_trace *a, const struct model_trace *b, struct model_cmp *c)
{
	struct model_samples sa, sb;
	memset(c, 0, sizeof(*c));
	int e = model_samples_get(&sa, a);
	if (e)
		return e;
	if ((e = model_samples_get(&sb, b))) {
		model_samples_free(&sa);
		return e;
	}
	c->na = a->n;
	c->nb = b->n;
	c->ks_size = model_ks(sa.size, sa.nsize, sb.size, sb.nsize);
	c->ks_gap = model_ks(sa.gap, sa.ngap, sb.gap, sb.ngap);
	c->ks_jump = model_ks(sa.jump, sa.njump, sb.jump, sb.njump);
	c->ks_run = model_ks(sa.run, sa.nrun, sb.run, sb.nrun);
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		double d = sa.op_frac[o] - sb.op_frac[o];
		if (d < 0)
			d = -d;
		if (d > c->op_diff)
			c->op_diff = d;
	}
	c->read_a = sa.op_frac[REEL_OP_READ];
	c->read_b = sb.op_frac[REEL_OP_READ];
	for (int k = 0; k <= REEL_OP__COUNT; k++) {
		c->bmodel_a[k] = sa.bmodel[k];
		c->bmodel_b[k] = sb.bmodel[k];
		if (sa.bmodel[k] >= 0 && sb.bmodel[k] >= 0) {
			double d = sa.bmodel[k] - sb.bmodel[k];
			if (d < 0)
				d = -d;
			if (d > c->bmodel_diff)
				c->bmodel_diff = d;
		} else if ((sa.bmodel[k] >= 0) != (sb.bmodel[k] >= 0) && k <= 2) {
			/* one side too sparse to measure: count as unmeasured, not 0 */
		}
	}
	for (int k = 0; k < 4; k++) {
		double d = sa.pqrs[k] - sb.pqrs[k];
		if (d < 0)
			d = -d;
		if (d > c->pqrs_diff)
			c->pqrs_diff = d;
	}
	if (sa.nlat && sb.nlat) {
		c->latency = 1;
		c->demerit_us = model_demerit(sa.lat, sa.nlat, sb.lat, sb.nlat) / 1000.0;
		c->mean_lat_a_us = sa.mean_lat / 1000.0;
		c->mean_lat_b_us = sb.mean_lat / 1000.0;
		c->demerit_pct = sa.mean_lat > 0 ? 100.0 * c->demerit_us / c->mean_lat_a_us : 0;
	}
	model_samples_free(&sa);
	model_samples_free(&sb);
	return 0;
}
