/*
 * model/model_json_read.c - MODEL.json, the reader: the strict JSON parser
 * of json.c plus a schema check of every field.  model/MODEL.md documents
 * the fields.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* ---- reader --------------------------------------------------------------- */
struct rd {
	char *err;
	size_t errlen;
	int failed;
};

static int bad(struct rd *r, const char *fmt, ...)
{
	if (!r->failed && r->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->err, r->errlen, fmt, ap);
		va_end(ap);
	}
	r->failed = 1;
	return REEL_E_PARSE;
}

static const struct model_json *need(struct rd *r, const struct model_json *o, const char *key,
				     enum model_json_type t, const char *where)
{
	const struct model_json *j = model_json_get(o, key);
	if (!j) {
		bad(r, "%s: field \"%s\" is missing", where, key);
		return NULL;
	}
	if (j->type != t) {
		bad(r, "%s.%s: wrong type", where, key);
		return NULL;
	}
	return j;
}

static int get_num(struct rd *r, const struct model_json *o, const char *key, const char *where,
		   double lo, double hi, double *out)
{
	const struct model_json *j = need(r, o, key, MJ_NUM, where);
	if (!j)
		return REEL_E_PARSE;
	if (!(j->num >= lo && j->num <= hi))
		return bad(r, "%s.%s: %g is outside [%g, %g]", where, key, j->num, lo, hi);
	*out = j->num;
	return 0;
}

static int read_dist(struct rd *r, const struct model_json *j, struct model_dist *d,
		     const char *where)
{
	memset(d, 0, sizeof(*d));
	if (!j || j->type != MJ_OBJ)
		return bad(r, "%s: expected an object", where);
	double n, mean;
	if (get_num(r, j, "n", where, 0, 1e19, &n) || get_num(r, j, "mean", where, -1e19, 1e19, &mean))
		return REEL_E_PARSE;
	d->n = (uint64_t)n;
	d->mean = mean;
	const struct model_json *c = need(r, j, "cdf", MJ_ARR, where);
	if (!c)
		return REEL_E_PARSE;
	if (c->n > MODEL_DIST_MAXK || c->n == 1)
		return bad(r, "%s.cdf: %zu knots (0 or 2..%d allowed)", where, c->n, MODEL_DIST_MAXK);
	for (size_t i = 0; i < c->n; i++) {
		const struct model_json *k = c->kids[i];
		if (k->type != MJ_ARR || k->n != 2 || k->kids[0]->type != MJ_NUM ||
		    k->kids[1]->type != MJ_NUM)
			return bad(r, "%s.cdf[%zu]: expected [value, cumulative]", where, i);
		d->v[i] = k->kids[0]->num;
		d->c[i] = k->kids[1]->num;
	}
	d->nk = (uint32_t)c->n;
	if (model_dist_valid(d))
		return bad(r, "%s.cdf: knots must be non-decreasing, from cumulative 0 to 1, values "
			      "within +-9.2e18",
			   where);
	model_dist_prepare(d);
	return 0;
}

static int read_matrix(struct rd *r, const struct model_json *j, double *m, size_t n,
		       const char *where)
{
	if (!j || j->type != MJ_ARR || j->n != n)
		return bad(r, "%s: expected %zu rows", where, n);
	for (size_t a = 0; a < n; a++) {
		const struct model_json *row = j->kids[a];
		if (row->type != MJ_ARR || row->n != n)
			return bad(r, "%s[%zu]: expected %zu numbers", where, a, n);
		double s = 0;
		for (size_t b = 0; b < n; b++) {
			if (row->kids[b]->type != MJ_NUM || !(row->kids[b]->num >= 0) ||
			    row->kids[b]->num > 1)
				return bad(r, "%s[%zu][%zu]: a probability in [0, 1]", where, a, b);
			m[a * n + b] = row->kids[b]->num;
			s += m[a * n + b];
		}
		if (s > 0 && fabs(s - 1) > 1e-4)
			for (size_t b = 0; b < n; b++)
				m[a * n + b] /= s;
	}
	return 0;
}

static int read_bmodel(struct rd *r, const struct model_json *j, double *b, const char *where)
{
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		b[k] = -1;
	if (!j || j->type != MJ_OBJ)
		return bad(r, "%s.bmodel: expected an object", where);
	for (int k = 0; k <= REEL_OP__COUNT; k++) {
		const struct model_json *x = model_json_get(j, k ? model_op_key[k - 1] : "all");
		if (!x)
			continue;
		if (x->type != MJ_NUM || !(x->num >= 0.5 && x->num <= 1))
			return bad(r, "%s.bmodel: values are in [0.5, 1]", where);
		b[k] = x->num;
	}
	return 0;
}

static int read_phase(struct rd *r, const struct model_json *j, struct model_phase *p, size_t i)
{
	char w[64];
	snprintf(w, sizeof(w), "phases[%zu]", i);
	if (j->type != MJ_OBJ)
		return bad(r, "%s: expected an object", w);
	double x;
	if (get_num(r, j, "ios", w, 0, 1e19, &x))
		return REEL_E_PARSE;
	p->ios = (uint64_t)x;
	if (get_num(r, j, "windows", w, 0, 1e19, &x))
		return REEL_E_PARSE;
	p->windows = (uint64_t)x;
	if (get_num(r, j, "rate_iops", w, 0, 1e15, &p->rate))
		return REEL_E_PARSE;
	const struct model_json *mix = need(r, j, "op_mix", MJ_OBJ, w);
	if (!mix)
		return REEL_E_PARSE;
	double s = 0;
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		const struct model_json *v = model_json_get(mix, model_op_key[o]);
		p->op_mix[o] = 0;
		if (!v)
			continue;
		if (v->type != MJ_NUM || !(v->num >= 0 && v->num <= 1))
			return bad(r, "%s.op_mix.%s: a probability in [0, 1]", w, model_op_key[o]);
		p->op_mix[o] = v->num;
		s += v->num;
	}
	if (s <= 0 && p->ios)
		return bad(r, "%s.op_mix: no op has a share", w);
	if (s <= 0 || fabs(s - 1) <= 1e-4)
		s = 1;
	for (int o = 0; o < REEL_OP__COUNT; o++)
		p->op_mix[o] /= s;
	char ww[96];
	snprintf(ww, sizeof(ww), "%s.op_next", w);
	if (read_matrix(r, model_json_get(j, "op_next"), &p->op_next[0][0], REEL_OP__COUNT, ww))
		return REEL_E_PARSE;
	const struct model_json *sz = need(r, j, "sizes", MJ_OBJ, w);
	if (!sz)
		return REEL_E_PARSE;
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		const struct model_json *v = model_json_get(sz, model_op_key[o]);
		if (!v)
			continue;
		snprintf(ww, sizeof(ww), "%s.sizes.%s", w, model_op_key[o]);
		if (read_dist(r, v, &p->size[o], ww))
			return REEL_E_PARSE;
		if (p->size[o].nk && (p->size[o].v[0] < 0 || p->size[o].v[p->size[o].nk - 1] > 4294967295.0))
			return bad(r, "%s: sizes are 0..4 GiB", ww);
	}
	const struct model_json *ia = need(r, j, "interarrival", MJ_OBJ, w);
	if (!ia)
		return REEL_E_PARSE;
	snprintf(ww, sizeof(ww), "%s.interarrival", w);
	if (get_num(r, ia, "zero_fraction", ww, 0, 1, &p->gap_zero))
		return REEL_E_PARSE;
	p->best_family = -1;
	const struct model_json *bf = model_json_get(ia, "best_family");
	if (bf && bf->type == MJ_STR)
		for (int f = 0; f < 3; f++)
			if (!strcmp(bf->str, model_family_key[f]))
				p->best_family = f;
	const struct model_json *fams = model_json_get(ia, "families");
	if (fams && fams->type == MJ_OBJ)
		for (int f = 0; f < 3; f++) {
			const struct model_json *fo = model_json_get(fams, model_family_key[f]);
			static const char *const pk[3][3] = {{"mean_ns", NULL, NULL},
							     {"mu", "sigma", NULL},
							     {"p", "mean1_ns", "mean2_ns"}};
			if (!fo || fo->type != MJ_OBJ)
				continue;
			for (int q = 0; q < 3 && pk[f][q]; q++) {
				const struct model_json *v = model_json_get(fo, pk[f][q]);
				if (v && v->type == MJ_NUM)
					p->fam[f].p[q] = v->num;
			}
			const struct model_json *v = model_json_get(fo, "loglik");
			if (v && v->type == MJ_NUM)
				p->fam[f].loglik = v->num;
			v = model_json_get(fo, "aic");
			if (v && v->type == MJ_NUM)
				p->fam[f].aic = v->num;
		}
	snprintf(ww, sizeof(ww), "%s.interarrival.gap_ns", w);
	if (read_dist(r, model_json_get(ia, "gap_ns"), &p->gap, ww))
		return REEL_E_PARSE;
	if (p->gap.nk && p->gap.v[0] < 0)
		return bad(r, "%s: gaps are >= 0", ww);
	snprintf(ww, sizeof(ww), "%s.interarrival.lead_ppm", w);
	if (read_dist(r, model_json_get(ia, "lead_ppm"), &p->lead, ww))
		return REEL_E_PARSE;
	if (p->lead.nk && (p->lead.v[0] < 0 || p->lead.v[p->lead.nk - 1] > 1e6))
		return bad(r, "%s: 0..1e6 ppm of a window", ww);
	snprintf(ww, sizeof(ww), "%s.interarrival.class_next", w);
	if (read_matrix(r, model_json_get(ia, "class_next"), &p->gap_next[0][0], MODEL_CLASSES, ww))
		return REEL_E_PARSE;
	for (int a = 0; a < MODEL_CLASSES; a++) { /* an all-zero row: uniform */
		double t = 0;
		for (int b = 0; b < MODEL_CLASSES; b++)
			t += p->gap_next[a][b];
		if (t <= 0)
			for (int b = 0; b < MODEL_CLASSES; b++)
				p->gap_next[a][b] = 1.0 / MODEL_CLASSES;
	}
	for (int a = 0; a < REEL_OP__COUNT; a++) {
		double t = 0;
		for (int b = 0; b < REEL_OP__COUNT; b++)
			t += p->op_next[a][b];
		if (t <= 0)
			memcpy(p->op_next[a], p->op_mix, sizeof(p->op_mix));
	}
	if (read_bmodel(r, model_json_get(j, "bmodel"), p->bmodel, w))
		return REEL_E_PARSE;
	return 0;
}

static int read_device(struct rd *r, const struct model_json *j, struct model_devspace *d, size_t i)
{
	char w[64], ww[96];
	snprintf(w, sizeof(w), "devices[%zu]", i);
	if (j->type != MJ_OBJ)
		return bad(r, "%s: expected an object", w);
	double x;
	if (get_num(r, j, "id", w, 0, 65535, &x))
		return REEL_E_PARSE;
	d->id = (uint16_t)x;
	const struct model_json *nm = need(r, j, "name", MJ_STR, w);
	if (!nm)
		return REEL_E_PARSE;
	snprintf(d->name, sizeof(d->name), "%s", nm->str);
	if (get_num(r, j, "capacity", w, 0, 9.2e18, &x))
		return REEL_E_PARSE;
	d->capacity = (uint64_t)x;
	if (get_num(r, j, "extent", w, 1, 9.2e18, &x))
		return REEL_E_PARSE;
	d->extent = (uint64_t)x;
	if (get_num(r, j, "align", w, 1, 1 << 20, &x))
		return REEL_E_PARSE;
	d->align = (uint32_t)x;
	if (d->align & (d->align - 1))
		return bad(r, "%s.align: a power of two", w);
	if (get_num(r, j, "share", w, 0, 1, &d->share))
		return REEL_E_PARSE;
	const struct model_json *v = model_json_get(j, "hot10");
	if (v && v->type == MJ_NUM)
		d->hot10 = v->num;
	v = model_json_get(j, "rw_overlap");
	if (v && v->type == MJ_OBJ) {
		const struct model_json *a = model_json_get(v, "read"), *b = model_json_get(v, "write");
		if (a && a->type == MJ_NUM)
			d->rw_overlap_read = a->num;
		if (b && b->type == MJ_NUM)
			d->rw_overlap_write = b->num;
	}
	snprintf(ww, sizeof(ww), "%s.runs", w);
	if (read_dist(r, model_json_get(j, "runs"), &d->run, ww))
		return REEL_E_PARSE;
	if (d->run.nk && (d->run.v[0] < 0 || d->run.v[d->run.nk - 1] > 1e15))
		return bad(r, "%s: run lengths are 0..1e15", ww);
	snprintf(ww, sizeof(ww), "%s.jumps", w);
	if (read_dist(r, model_json_get(j, "jumps"), &d->jump, ww))
		return REEL_E_PARSE;
	snprintf(ww, sizeof(ww), "%s.local_jumps", w);
	if (read_dist(r, model_json_get(j, "local_jumps"), &d->local, ww))
		return REEL_E_PARSE;
	snprintf(ww, sizeof(ww), "%s.offsets", w);
	if (read_dist(r, model_json_get(j, "offsets"), &d->addr, ww))
		return REEL_E_PARSE;
	if (d->addr.nk && (d->addr.v[0] < 0 || d->addr.v[d->addr.nk - 1] > (double)d->extent))
		return bad(r, "%s: offsets within 0..extent", ww);
	if (get_num(r, j, "local_limit", w, 0, 9.2e18, &x))
		return REEL_E_PARSE;
	d->local_limit = (uint64_t)x;
	if (get_num(r, j, "p_local", w, 0, 1, &d->p_local))
		return REEL_E_PARSE;
	const struct model_json *reg = need(r, j, "regions", MJ_OBJ, w);
	if (!reg)
		return REEL_E_PARSE;
	snprintf(ww, sizeof(ww), "%s.regions", w);
	const struct model_json *b = need(r, reg, "bounds", MJ_ARR, ww);
	const struct model_json *wt = b ? need(r, reg, "weights", MJ_ARR, ww) : NULL;
	const struct model_json *t = wt ? need(r, reg, "transitions", MJ_ARR, ww) : NULL;
	if (!t)
		return REEL_E_PARSE;
	if (b->n < 2 || b->n > MODEL_MAX_REGIONS + 1 || wt->n != b->n - 1)
		return bad(r, "%s: 2..%d bounds and one weight fewer", ww, MODEL_MAX_REGIONS + 1);
	d->nregions = (uint32_t)(b->n - 1);
	double ws = 0;
	for (size_t k = 0; k < b->n; k++) {
		const struct model_json *e = b->kids[k];
		if (e->type != MJ_NUM || !(e->num >= 0 && e->num <= 9.2e18) ||
		    (k && e->num <= (double)d->bound[k - 1]))
			return bad(r, "%s.bounds[%zu]: increasing byte offsets", ww, k);
		d->bound[k] = (uint64_t)e->num;
	}
	if (d->bound[0] != 0 || d->bound[d->nregions] != d->extent)
		return bad(r, "%s.bounds: run from 0 to the extent", ww);
	for (size_t k = 0; k < wt->n; k++) {
		const struct model_json *e = wt->kids[k];
		if (e->type != MJ_NUM || !(e->num >= 0 && e->num <= 1))
			return bad(r, "%s.weights[%zu]: a share in [0, 1]", ww, k);
		d->weight[k] = e->num;
		ws += e->num;
	}
	if (ws <= 0)
		return bad(r, "%s.weights: all zero", ww);
	for (size_t k = 0; k < wt->n && fabs(ws - 1) > 1e-4; k++)
		d->weight[k] /= ws;
	d->tr_to = malloc((t->n + 1) * sizeof(*d->tr_to));
	d->tr_p = malloc((t->n + 1) * sizeof(*d->tr_p));
	if (!d->tr_to || !d->tr_p)
		return bad(r, "out of memory");
	memset(d->row, 0, sizeof(d->row));
	uint32_t prev_from = 0, prev_to = 0;
	for (size_t k = 0; k < t->n; k++) {
		const struct model_json *e = t->kids[k];
		if (e->type != MJ_ARR || e->n != 3 || e->kids[0]->type != MJ_NUM ||
		    e->kids[1]->type != MJ_NUM || e->kids[2]->type != MJ_NUM)
			return bad(r, "%s.transitions[%zu]: expected [from, to, share]", ww, k);
		double f = e->kids[0]->num, to = e->kids[1]->num, p = e->kids[2]->num;
		if (!(f >= 0 && f < d->nregions && f == floor(f) && to >= 0 && to < d->nregions &&
		      to == floor(to) && p > 0 && p <= 1))
			return bad(r, "%s.transitions[%zu]: regions 0..%u and a share in (0, 1]", ww, k,
				   d->nregions - 1);
		uint32_t fi = (uint32_t)f, ti = (uint32_t)to;
		if (k && (fi < prev_from || (fi == prev_from && ti <= prev_to)))
			return bad(r, "%s.transitions[%zu]: sorted by (from, to), no repeats", ww, k);
		prev_from = fi;
		prev_to = ti;
		d->tr_to[k] = (uint16_t)ti;
		d->tr_p[k] = p;
		d->row[fi + 1]++;
	}
	d->ntr = (uint32_t)t->n;
	for (uint32_t q = 0; q < d->nregions; q++)
		d->row[q + 1] += d->row[q];
	for (uint32_t q = 0; q < d->nregions; q++) {
		double s = 0, c = 0;
		for (uint32_t x2 = d->row[q]; x2 < d->row[q + 1]; x2++)
			s += d->tr_p[x2];
		if (fabs(s - 1) <= 1e-4)
			s = 1;
		for (uint32_t x2 = d->row[q]; x2 < d->row[q + 1]; x2++) {
			c += d->tr_p[x2];
			d->tr_p[x2] = c / s;
		}
	}
	return 0;
}

int model_read_json(struct model *m, const char *text, size_t len, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	struct rd r = {err, errlen, 0};
	char perr[200];
	struct model_json *root = model_json_parse(text, len, perr, sizeof(perr));
	if (!root) {
		bad(&r, "%s", perr);
		return REEL_E_PARSE;
	}
	int e = REEL_E_PARSE;
	const char *w = "model";
	if (root->type != MJ_OBJ) {
		bad(&r, "the model is a JSON object");
		goto out;
	}
	const struct model_json *fmt = need(&r, root, "format", MJ_STR, w);
	if (!fmt)
		goto out;
	if (strcmp(fmt->str, "ioreel-model")) {
		bad(&r, "format is \"%s\", not \"ioreel-model\"", fmt->str);
		goto out;
	}
	double x;
	if (get_num(&r, root, "version", w, 1, 1, &x))
		goto out;
	const struct model_json *nv = need(&r, root, "naive", MJ_BOOL, w);
	if (!nv)
		goto out;
	m->naive = nv->boolean;
	const struct model_json *src = model_json_get(root, "source");
	if (src && src->type == MJ_STR)
		snprintf(m->source, sizeof(m->source), "%s", src->str);
	if (get_num(&r, root, "count", w, 0, 1e19, &x))
		goto out;
	m->count = (uint64_t)x;
	if (get_num(&r, root, "duration_ns", w, 1, 9.2e18, &x))
		goto out;
	m->duration_ns = (int64_t)x;
	if (get_num(&r, root, "quantum_ns", w, 1, 1e12, &x))
		goto out;
	m->quantum_ns = (int64_t)x;
	const struct model_json *bm = model_json_get(root, "bmodel");
	if (bm && read_bmodel(&r, bm, m->bmodel, w))
		goto out;
	if (!bm)
		for (int k = 0; k <= REEL_OP__COUNT; k++)
			m->bmodel[k] = -1;
	const struct model_json *pq = model_json_get(root, "pqrs");
	for (int k = 0; k < 4; k++)
		m->pqrs[k] = pq && pq->type == MJ_ARR && pq->n == 4 && pq->kids[k]->type == MJ_NUM
				     ? pq->kids[k]->num
				     : -1;
	const struct model_json *ph = need(&r, root, "phases", MJ_ARR, w);
	if (!ph)
		goto out;
	if (!ph->n || ph->n > MODEL_MAX_PHASES) {
		bad(&r, "phases: 1..%d phases", MODEL_MAX_PHASES);
		goto out;
	}
	m->nphases = ph->n;
	m->phases = calloc(ph->n, sizeof(*m->phases));
	if (!m->phases)
		goto nomem;
	for (size_t i = 0; i < ph->n; i++)
		if (read_phase(&r, ph->kids[i], &m->phases[i], i))
			goto out;
	const struct model_json *wn = need(&r, root, "windows", MJ_OBJ, w);
	if (!wn || get_num(&r, wn, "count", "windows", 1, MODEL_MAX_WINDOWS, &x))
		goto out;
	if (x != floor(x)) {
		bad(&r, "windows.count: a whole number");
		goto out;
	}
	m->nwin = (size_t)x;
	m->win_phase = malloc(m->nwin * sizeof(*m->win_phase));
	m->win_ops = calloc(m->nwin * REEL_OP__COUNT, sizeof(*m->win_ops));
	if (!m->win_phase || !m->win_ops)
		goto nomem;
	const struct model_json *wp = need(&r, wn, "phase", MJ_ARR, "windows");
	const struct model_json *wo = wp ? need(&r, wn, "ops", MJ_OBJ, "windows") : NULL;
	if (!wo)
		goto out;
	if (wp->n != m->nwin) {
		bad(&r, "windows.phase: %zu entries for %zu windows", wp->n, m->nwin);
		goto out;
	}
	for (size_t i = 0; i < wp->n; i++) {
		const struct model_json *k = wp->kids[i];
		if (k->type != MJ_NUM || !(k->num >= 0) || k->num >= (double)m->nphases ||
		    k->num != floor(k->num)) {
			bad(&r, "windows.phase[%zu]: a phase number below %zu", i, m->nphases);
			goto out;
		}
		m->win_phase[i] = (uint16_t)k->num;
	}
	uint64_t total = 0;
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		const struct model_json *a = model_json_get(wo, model_op_key[o]);
		if (!a)
			continue;
		if (a->type != MJ_ARR || a->n != m->nwin) {
			bad(&r, "windows.ops.%s: %zu counts expected", model_op_key[o], m->nwin);
			goto out;
		}
		for (size_t i = 0; i < a->n; i++) {
			const struct model_json *k = a->kids[i];
			if (k->type != MJ_NUM || !(k->num >= 0 && k->num <= 4e9) || k->num != floor(k->num)) {
				bad(&r, "windows.ops.%s[%zu]: a count 0..4e9", model_op_key[o], i);
				goto out;
			}
			m->win_ops[i * REEL_OP__COUNT + o] = (uint32_t)k->num;
			total += (uint64_t)k->num;
			if (k->num > 0 && !m->phases[m->win_phase[i]].ios) {
				bad(&r, "windows.ops.%s[%zu]: I/O in a window of phase %u, which has none",
				    model_op_key[o], i, m->win_phase[i]);
				goto out;
			}
		}
	}
	if (!total) {
		bad(&r, "windows.ops: no I/O at all");
		goto out;
	}
	const struct model_json *dv = need(&r, root, "devices", MJ_ARR, w);
	if (!dv)
		goto out;
	if (!dv->n || dv->n > MODEL_MAX_DEVS) {
		bad(&r, "devices: 1..%d devices", MODEL_MAX_DEVS);
		goto out;
	}
	m->ndevs = dv->n;
	m->devs = calloc(dv->n, sizeof(*m->devs));
	if (!m->devs)
		goto nomem;
	for (size_t i = 0; i < dv->n; i++)
		if (read_device(&r, dv->kids[i], &m->devs[i], i))
			goto out;
	const struct model_json *inf = model_json_get(root, "inflight");
	if (inf && inf->type == MJ_OBJ) {
		m->inflight.known = 1;
		const struct model_json *a = model_json_get(inf, "mean"), *b = model_json_get(inf, "max");
		if (a && a->type == MJ_NUM)
			m->inflight.mean = a->num;
		if (b && b->type == MJ_NUM)
			m->inflight.max = b->num;
		if (read_dist(&r, model_json_get(inf, "depth"), &m->inflight.depth, "inflight.depth") ||
		    read_dist(&r, model_json_get(inf, "latency_ns"), &m->inflight.latency,
			      "inflight.latency_ns"))
			goto out;
	}
	e = 0;
	goto out;
nomem:
	e = REEL_E_NOMEM;
	bad(&r, "out of memory");
out:
	model_json_free(root);
	if (e)
		model_free(m);
	return e;
}

int model_load_file(struct model *m, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %m", path);
		return REEL_E_IO;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n == cap) {
			if (cap > MODEL_JSON_MAX_BYTES) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: larger than %u bytes: not a model", path,
					 MODEL_JSON_MAX_BYTES);
				return REEL_E_RANGE;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		size_t k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (!k)
			break;
	}
	int rerr = ferror(f);
	fclose(f);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		return REEL_E_NOMEM;
	}
	if (rerr) {
		free(buf);
		snprintf(err, errlen, "%s: read error", path);
		return REEL_E_IO;
	}
	char e2[400];
	int e = model_read_json(m, buf, n, e2, sizeof(e2));
	free(buf);
	if (e)
		snprintf(err, errlen, "%s: %s", path, e2);
	return e;
}
