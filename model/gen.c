/*
 * model/gen.c - generate a synthetic trace from a model, deterministic for
 * a seed.  Window by window: the window's I/O count per op (times the rate
 * factor) is placed by drawing gaps from the phase's gap-class chain and
 * scaling them to the window; ops follow the phase's op chain within the
 * window's counts.  The windows repeat (or are cut) to the requested
 * duration; --capacity rescales the regions of the address space (local
 * jumps keep their size: they are the shape).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void model_gen_destroy(struct model_gen *g)
{
	if (!g)
		return;
	free(g->bt);
	free(g->bop);
	free(g->gap_class);
	free(g->last_op);
	gen_space_free(g);
	free(g);
}

int model_gen_create(struct model_gen **out, const struct model *m, const struct model_gen_opts *o)
{
	*out = NULL;
	if (!m->nphases || !m->ndevs || !m->nwin || m->duration_ns <= 0)
		return REEL_E_ARG;
	struct model_gen *g = calloc(1, sizeof(*g));
	if (!g)
		return REEL_E_NOMEM;
	g->m = m;
	if (o)
		g->o = *o;
	if (g->o.rate <= 0)
		g->o.rate = 1;
	if (g->o.duration_ns <= 0)
		g->o.duration_ns = m->duration_ns;
	g->end = (double)g->o.duration_ns;
	uint64_t sd = g->o.seed;
	for (int i = 0; i < 4; i++)
		g->s[i] = splitmix(&sd);
	for (int i = 0; i < 4; i++)
		g->sp[i] = splitmix(&sd);
	g->wl = (double)m->duration_ns / (double)m->nwin;
	g->gap_class = calloc(m->nphases, sizeof(*g->gap_class));
	g->last_op = calloc(m->nphases, sizeof(*g->last_op));
	if (!g->gap_class || !g->last_op || gen_space_init(g)) {
		model_gen_destroy(g);
		return REEL_E_NOMEM;
	}
	for (size_t p = 0; p < m->nphases; p++) {
		g->gap_class[p] = (int)(rnd(g) * MODEL_CLASSES) % MODEL_CLASSES;
		double u = rnd(g), c = 0;
		g->last_op[p] = 0;
		for (int k = 0; k < REEL_OP__COUNT; k++) {
			c += m->phases[p].op_mix[k];
			if (u < c) {
				g->last_op[p] = k;
				break;
			}
		}
	}
	double c = 0;
	for (size_t d = 0; d < m->ndevs; d++) {
		c += m->devs[d].share;
		g->dev_cum[d] = c;
	}
	for (size_t d = 0; d < m->ndevs; d++)
		g->dev_cum[d] /= c > 0 ? c : 1;
	*out = g;
	return 0;
}

size_t model_gen_devices(const struct model_gen *g, struct reel_device *out, size_t max)
{
	size_t k = 0;
	for (size_t d = 0; d < g->m->ndevs && k < max; d++, k++) {
		memset(&out[k], 0, sizeof(out[k]));
		out[k].id = g->m->devs[d].id;
		snprintf(out[k].name, sizeof(out[k].name), "%s", g->m->devs[d].name);
		out[k].capacity = g->ds[d].extent;
		out[k].lbs = 512;
		out[k].pbs = g->m->devs[d].align >= 4096 ? 4096 : 512;
	}
	return k;
}

/* The window's ops in arrival order: the phase's op chain, restricted to
 * the counts left (cnt, c in all). */
static void draw_ops(struct model_gen *g, const struct model_phase *ph, size_t p, uint64_t *cnt,
		     uint64_t c)
{
	for (uint64_t i = 0; i < c; i++) {
		const double *row = ph->op_next[g->last_op[p]];
		double tot = 0;
		for (int o = 0; o < REEL_OP__COUNT; o++)
			tot += cnt[o] ? row[o] : 0;
		int op = -1;
		if (tot > 0) {
			double u = rnd(g) * tot, cc = 0;
			for (int o = 0; o < REEL_OP__COUNT; o++) {
				if (!cnt[o])
					continue;
				cc += row[o];
				op = o;
				if (u < cc)
					break;
			}
		} else { /* the chain never goes there: any op left */
			uint64_t u = next64(g) % (c - i), cc = 0;
			for (int o = 0; o < REEL_OP__COUNT; o++) {
				cc += cnt[o];
				if (u < cc) {
					op = o;
					break;
				}
			}
		}
		cnt[op]--;
		g->bop[i] = (uint8_t)op;
		g->last_op[p] = op;
	}
}

/* The window's I/O per op: the model's times the rate, rounded so that
 * the running total is the rounded running total of the model's (no I/O
 * lost or added by rounding: the whole trace holds round(rate x count)). */
static uint64_t window_counts(struct model_gen *g, size_t w, uint64_t *cnt)
{
	const struct model *m = g->m;
	uint64_t c = 0;
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		g->acc[o] += (double)m->win_ops[w * REEL_OP__COUNT + o] * g->o.rate;
		uint64_t want = (uint64_t)floor(g->acc[o] + 0.5);
		cnt[o] = want > g->done[o] ? want - g->done[o] : 0;
		g->done[o] += cnt[o];
		c += cnt[o];
	}
	return c;
}

/* c - 1 gaps from the phase's class chain into g->bt (bt[0] = 0); their sum. */
static double draw_gaps(struct model_gen *g, const struct model_phase *ph, size_t p, uint64_t c)
{
	double sum = 0, inv_rate = 1 / g->o.rate;
	/* the classes of windows of this many I/O (as in the model, before the
	 * rate factor): the chain's row weighted by them */
	double mc = (double)c * inv_rate;
	int b = mc >= 2 ? (int)floor(log2(mc)) : 1;
	const double *cb = ph->class_by_count[b < MODEL_CNT_BUCKETS ? b : MODEL_CNT_BUCKETS - 1];
	double cbt = 0;
	for (int j = 0; j < MODEL_CLASSES; j++)
		cbt += cb[j];
	g->bt[0] = 0;
	for (uint64_t i = 1; i < c; i++) {
		double gap = 0;
		if (ph->gap.nk) {
			const double *row0 = ph->gap_next[g->gap_class[p]];
			double row[MODEL_CLASSES], rt = 0;
			for (int j = 0; j < MODEL_CLASSES; j++)
				rt += row[j] = cbt > 0 ? row0[j] * cb[j] : row0[j];
			if (!(rt > 0))
				for (int j = 0; j < MODEL_CLASSES; j++)
					rt += row[j] = cb[j];
			double u = rnd(g) * rt, cc = 0;
			int k = MODEL_CLASSES - 1;
			for (int j = 0; j < MODEL_CLASSES; j++) {
				cc += row[j];
				if (u < cc) {
					k = j;
					break;
				}
			}
			g->gap_class[p] = k;
			gap = model_dist_inv(&ph->gap, (k + rnd(g)) / MODEL_CLASSES);
			if (!(gap >= 0))
				gap = 0;
		}
		sum += gap * inv_rate;
		g->bt[i] = sum;
	}
	return sum;
}

static int buffer_room(struct model_gen *g, uint64_t c)
{
	if (c + 1 <= g->cap)
		return 0;
	size_t nc = (c + 1) * 2;
	double *bt = realloc(g->bt, nc * sizeof(*bt));
	if (!bt)
		return -1;
	g->bt = bt;
	uint8_t *bo = realloc(g->bop, nc);
	if (!bo)
		return -1;
	g->bop = bo;
	g->cap = nc;
	return 0;
}

static int dcmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* A cluster longer than its window: the longest gaps are cut to a common
 * cap (water filling) so that the gaps sum to ROOM; the short gaps, most
 * of the distribution, stay as drawn.  bt[] holds the running sums. */
static double squeeze(struct model_gen *g, uint64_t c, double room)
{
	double *gp = malloc(c * sizeof(*gp)), *sg = malloc(c * sizeof(*sg));
	if (!gp || !sg) { /* no memory: scale them all */
		double k = room / g->bt[c - 1];
		for (uint64_t i = 1; i < c; i++)
			g->bt[i] *= k;
		free(gp);
		free(sg);
		return room;
	}
	for (uint64_t i = 1; i < c; i++)
		sg[i - 1] = gp[i - 1] = g->bt[i] - g->bt[i - 1];
	qsort(sg, c - 1, sizeof(*sg), dcmp);
	/* the cap: below it the k smallest gaps as they are, the rest capped */
	double below = 0, cap = 0;
	for (uint64_t k = 0; k < c - 1; k++) {
		double rest = (double)(c - 1 - k);
		cap = (room - below) / rest;
		if (cap <= sg[k])
			break;
		below += sg[k];
	}
	double sum = 0;
	for (uint64_t i = 1; i < c; i++) {
		sum += gp[i - 1] < cap ? gp[i - 1] : cap;
		g->bt[i] = sum;
	}
	free(gp);
	free(sg);
	return sum;
}

/* Draw the arrivals of the next window with I/O; 0 when past the end.
 * Every arrival stays inside its window (a cluster longer than the window
 * is squeezed into it), so the window counts are the model's exactly. */
static int fill_window(struct model_gen *g)
{
	const struct model *m = g->m;
	for (;;) {
		double ws = (double)g->win * g->wl;
		if (ws >= g->end)
			return 0;
		int first = g->win == 0;
		size_t w = g->win++ % m->nwin, p = m->win_phase[w];
		const struct model_phase *ph = &m->phases[p];
		uint64_t cnt[REEL_OP__COUNT], c = window_counts(g, w, cnt);
		if (!c)
			continue;
		if (c > (1u << 26))
			return -2; /* a window of more than 64 Mi I/O: lower the rate */
		if (buffer_room(g, c))
			return -1;
		/* the window's span: the model's window, cut at the end */
		double span = g->end - ws < g->wl ? g->end - ws : g->wl;
		double q = m->quantum_ns > 1 ? (double)m->quantum_ns : 1, room = span - q;
		if (room < 0)
			room = 0;
		double sum = draw_gaps(g, ph, p, c);
		if (sum > room) /* squeezed: no spill into the next window */
			sum = squeeze(g, c, room);
		double lead = ph->lead.nk
				  ? model_dist_inv(&ph->lead, sdraw(g, &g->s_lead)) / 1e6 * g->wl
				  : rnd(g) * g->wl;
		if (first) /* the trace starts with an arrival */
			lead = 0;

		if (lead + sum > room)
			lead = room - sum;
		double start = ws + lead, iq = 1 / q, top = floor((ws + span) * iq - 1e-9) * q;
		for (uint64_t i = 0; i < c; i++) {
			double t = floor((start + g->bt[i]) * iq + 0.5) * q;
			if (t < ws)
				t = ceil(ws * iq) * q;
			g->bt[i] = t > top ? top : t;
		}
		draw_ops(g, ph, p, cnt, c);
		g->phase = p;
		g->nbuf = c;
		g->pos = 0;
		return 1;
	}
}

int model_gen_next(struct model_gen *g, struct reel_rec *r)
{
	const struct model *m = g->m;
	if (g->o.max_records && g->count >= g->o.max_records)
		return 0;
	if (g->pos >= g->nbuf) {
		int k = fill_window(g);
		if (k <= 0)
			return k == -1 ? REEL_E_NOMEM : k < 0 ? REEL_E_RANGE : 0;
	}
	double t = g->bt[g->pos];
	int op = g->bop[g->pos++];
	/* device */
	size_t d = 0;
	{
		double u = rnd(g);
		while (d + 1 < m->ndevs && g->dev_cum[d] <= u)
			d++;
	}
	uint64_t off, len;
	gen_space_place(g, d, op, &off, &len);
	memset(r, 0, sizeof(*r));
	r->queue_ns = (int64_t)t;
	r->op = (uint8_t)op;
	r->offset = off;
	r->length = (uint32_t)len;
	r->dev = m->devs[d].id;
	r->has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	g->count++;
	return 1;
}
