/*
 * model/model_json_read.c - MODEL.json, the reader.  json-c parses (strict
 * mode, bounded depth) and model_json_syntax.c refuses what json-c lets
 * through (numbers that are not finite, strings holding \u0000); then
 * every field is checked against the schema.  A refusal here is written
 * "PATH: what" ("phases[2].sizes.read.cdf: ...", "model.count: missing")
 * and model_json_place() puts the line and column of the value in front
 * ("FILE:LINE:COL: field PATH: what" from model_load_file), as a syntax
 * error has them.  model/MODEL.md documents the fields.
 */
#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* where a message goes; every reader returns 0 or REEL_E_PARSE with it set */
struct rd {
	char *err;
	size_t len;
};

/* ---- json-c access ----------------------------------------------------- */
/* json-c keeps a JSON null as a NULL member: absent and null differ only in
 * what json_object_object_get_ex returns.  1 when KEY is present. */
static int member(const struct json_object *o, const char *key, struct json_object **v)
{
	*v = NULL;
	return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, v);
}

/* The member, or NULL when absent or null (callers check its type). */
static struct json_object *get(const struct json_object *o, const char *key)
{
	struct json_object *v;
	member(o, key, &v);
	return v;
}

static int is_num(const struct json_object *v)
{
	return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int);
}

static int is_arr(const struct json_object *v, size_t n)
{
	return json_object_is_type(v, json_type_array) && json_object_array_length(v) == n;
}

/* json-c clamps a whole number beyond 64 bits to INT64_MIN or UINT64_MAX
 * (2^64 as a double): keep the negative ones beyond range too */
static double num(const struct json_object *v)
{
	if (json_object_is_type(v, json_type_int) && json_object_get_int64(v) == INT64_MIN)
		return -18446744073709551616.0;
	return json_object_get_double(v);
}

static size_t alen(const struct json_object *v) { return json_object_array_length(v); }

static struct json_object *at(const struct json_object *v, size_t i)
{
	return json_object_array_get_idx(v, i);
}

/* ---- fields ------------------------------------------------------------ */
/* The member KEY of O (in WHERE), of type T (json_type_double: a number). */
static struct json_object *need(struct rd *r, const struct json_object *o, const char *key,
				enum json_type t, const char *where)
{
	struct json_object *j;
	if (!member(o, key, &j)) {
		reel_errf(r->err, r->len, REEL_E_PARSE, "%s.%s: missing", where, key);
		return NULL;
	}
	if (t == json_type_double ? !is_num(j) : !json_object_is_type(j, t)) {
		reel_errf(r->err, r->len, REEL_E_PARSE, "%s.%s: wrong type", where, key);
		return NULL;
	}
	return j;
}

static int get_num(struct rd *r, const struct json_object *o, const char *key, const char *where,
		   double lo, double hi, double *out)
{
	struct json_object *j = need(r, o, key, json_type_double, where);
	if (!j)
		return REEL_E_PARSE;
	double x = num(j);
	if (!(x >= lo && x <= hi))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.%s: %g is outside [%g, %g]",
				 where, key, x, lo, hi);
	*out = x;
	return 0;
}

/* An optional number: *out unchanged unless KEY is a number. */
static void opt_num(const struct json_object *o, const char *key, double *out)
{
	struct json_object *v = get(o, key);
	if (is_num(v))
		*out = num(v);
}

static int read_dist(struct rd *r, const struct json_object *j, struct model_dist *d,
		     const char *where)
{
	memset(d, 0, sizeof(*d));
	if (!json_object_is_type(j, json_type_object))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: expected an object", where);
	double n, mean;
	if (get_num(r, j, "n", where, 0, 1e19, &n) ||
	    get_num(r, j, "mean", where, -1e19, 1e19, &mean))
		return REEL_E_PARSE;
	d->n = (uint64_t)n;
	d->mean = mean;
	struct json_object *c = need(r, j, "cdf", json_type_array, where);
	if (!c)
		return REEL_E_PARSE;
	size_t nk = alen(c);
	if (nk > MODEL_DIST_MAXK || nk == 1)
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "%s.cdf: %zu knots (0 or 2..%d allowed)", where, nk,
				 MODEL_DIST_MAXK);
	for (size_t i = 0; i < nk; i++) {
		struct json_object *k = at(c, i);
		if (!is_arr(k, 2) || !is_num(at(k, 0)) || !is_num(at(k, 1)))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.cdf[%zu]: expected [value, cumulative]", where, i);
		d->v[i] = num(at(k, 0));
		d->c[i] = num(at(k, 1));
	}
	d->nk = (uint32_t)nk;
	if (model_dist_valid(d))
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "%s.cdf: knots must be non-decreasing, from cumulative 0 to 1, "
				 "values within +-9.2e18",
				 where);
	model_dist_prepare(d);
	return 0;
}

/* An N x N matrix of probabilities; rows not summing to 1 are rescaled. */
static int read_matrix(struct rd *r, const struct json_object *j, double *m, size_t n,
		       const char *where)
{
	if (!is_arr(j, n))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: expected %zu rows", where, n);
	for (size_t a = 0; a < n; a++) {
		struct json_object *row = at(j, a);
		if (!is_arr(row, n))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s[%zu]: expected %zu numbers", where, a, n);
		double s = 0;
		for (size_t b = 0; b < n; b++) {
			struct json_object *x = at(row, b);
			if (!is_num(x) || !(num(x) >= 0) || num(x) > 1)
				return reel_errf(r->err, r->len, REEL_E_PARSE,
						 "%s[%zu][%zu]: a probability in [0, 1]", where, a,
						 b);
			m[a * n + b] = num(x);
			s += m[a * n + b];
		}
		if (s > 0 && fabs(s - 1) > 1e-4)
			for (size_t b = 0; b < n; b++)
				m[a * n + b] /= s;
	}
	return 0;
}

static int read_bmodel(struct rd *r, const struct json_object *j, double *b, const char *where)
{
	for (int k = 0; k <= REEL_OP__COUNT; k++)
		b[k] = -1;
	if (!json_object_is_type(j, json_type_object))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.bmodel: expected an object",
				 where);
	for (int k = 0; k <= REEL_OP__COUNT; k++) {
		struct json_object *x;
		if (!member(j, k ? model_op_key[k - 1] : "all", &x))
			continue;
		if (!is_num(x) || !(num(x) >= 0.5 && num(x) <= 1))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.bmodel: values are in [0.5, 1]", where);
		b[k] = num(x);
	}
	return 0;
}

/* ---- phases ------------------------------------------------------------ */
static int read_op_mix(struct rd *r, const struct json_object *j, struct model_phase *p,
		       const char *w)
{
	struct json_object *mix = need(r, j, "op_mix", json_type_object, w);
	if (!mix)
		return REEL_E_PARSE;
	double s = 0;
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		struct json_object *v;
		p->op_mix[o] = 0;
		if (!member(mix, model_op_key[o], &v))
			continue;
		if (!is_num(v) || !(num(v) >= 0 && num(v) <= 1))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.op_mix.%s: a probability in [0, 1]", w,
					 model_op_key[o]);
		p->op_mix[o] = num(v);
		s += num(v);
	}
	if (s <= 0 && p->ios)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.op_mix: no op has a share", w);
	if (s <= 0 || fabs(s - 1) <= 1e-4)
		s = 1;
	for (int o = 0; o < REEL_OP__COUNT; o++)
		p->op_mix[o] /= s;
	return 0;
}

static int read_sizes(struct rd *r, const struct json_object *j, struct model_phase *p,
		      const char *w)
{
	char ww[96];
	struct json_object *sz = need(r, j, "sizes", json_type_object, w);
	if (!sz)
		return REEL_E_PARSE;
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		struct json_object *v;
		if (!member(sz, model_op_key[o], &v))
			continue;
		snprintf(ww, sizeof(ww), "%s.sizes.%s", w, model_op_key[o]);
		if (read_dist(r, v, &p->size[o], ww))
			return REEL_E_PARSE;
		const struct model_dist *d = &p->size[o];
		if (d->nk && (d->v[0] < 0 || d->v[d->nk - 1] > 4294967295.0))
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: sizes are 0..4 GiB",
					 ww);
	}
	return 0;
}

/* Optional (models before it: none): per op, the share of each segment of
 * the op's size CDF that continues a run; one number a segment. */
static int read_seq_share(struct rd *r, const struct json_object *j, struct model_phase *p,
			  const char *w)
{
	char ww[96];
	struct json_object *sq = get(j, "seq_share");
	if (!sq)
		return 0;
	p->seq_fitted = 1;
	if (!json_object_is_type(sq, json_type_object))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.seq_share: expected an object",
				 w);
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		struct json_object *v;
		if (!member(sq, model_op_key[o], &v))
			continue;
		snprintf(ww, sizeof(ww), "%s.seq_share.%s", w, model_op_key[o]);
		size_t nseg = p->size[o].nk ? p->size[o].nk - 1 : 0;
		if (!is_num(v) && !is_arr(v, nseg))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s: expected a share or an array of %zu (one per "
					 "segment of sizes.%s)",
					 ww, nseg, model_op_key[o]);
		for (size_t k = 0; k < nseg; k++) {
			const struct json_object *e = is_num(v) ? v : at(v, k);
			double x = is_num(e) ? num(e) : NAN;
			if (!(x >= 0 && x <= 1))
				return reel_errf(r->err, r->len, REEL_E_PARSE,
						 "%s[%zu]: expected a share in [0, 1]", ww, k);
			p->seq_share[o][k] = (float)x;
		}
	}
	return 0;
}

/* For people only: the best family and the fitted parameters, if any. */
static void read_families(const struct json_object *ia, struct model_phase *p)
{
	static const char *const pk[3][3] = {
	    {"mean_ns", NULL, NULL}, {"mu", "sigma", NULL}, {"p", "mean1_ns", "mean2_ns"}};
	p->best_family = -1;
	struct json_object *bf = get(ia, "best_family");
	if (json_object_is_type(bf, json_type_string))
		for (int f = 0; f < 3; f++)
			if (!strcmp(json_object_get_string(bf), model_family_key[f]))
				p->best_family = f;
	struct json_object *fams = get(ia, "families");
	for (int f = 0; f < 3 && json_object_is_type(fams, json_type_object); f++) {
		struct json_object *fo = get(fams, model_family_key[f]);
		if (!json_object_is_type(fo, json_type_object))
			continue;
		for (int q = 0; q < 3 && pk[f][q]; q++)
			opt_num(fo, pk[f][q], &p->fam[f].p[q]);
		opt_num(fo, "loglik", &p->fam[f].loglik);
		opt_num(fo, "aic", &p->fam[f].aic);
	}
}

/* Optional (older models lack it): [[bucket, share of class 0, ..., 7], ...]. */
static int read_class_rows(struct rd *r, const struct json_object *j, double (*out)[MODEL_CLASSES],
			   const char *w)
{
	if (!j)
		return 0;
	if (!json_object_is_type(j, json_type_array))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: expected an array", w);
	for (size_t i = 0; i < alen(j); i++) {
		struct json_object *row = at(j, i);
		if (!is_arr(row, MODEL_CLASSES + 1) || !is_num(at(row, 0)))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s[%zu]: expected [bucket, %d shares]", w, i,
					 MODEL_CLASSES);
		double b = num(at(row, 0));
		if (!(b >= 1 && b < MODEL_CNT_BUCKETS) || b != floor(b))
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s[%zu][0]: a bucket 1..%d",
					 w, i, MODEL_CNT_BUCKETS - 1);
		for (int c = 0; c < MODEL_CLASSES; c++) {
			struct json_object *x = at(row, (size_t)c + 1);
			if (!is_num(x) || !(num(x) >= 0) || num(x) > 1)
				return reel_errf(r->err, r->len, REEL_E_PARSE,
						 "%s[%zu][%d]: a share in [0, 1]", w, i, c + 1);
			out[(int)b][c] = num(x);
		}
	}
	return 0;
}

/* Optional [[bucket, share, top], ...]: the share of the bucket's windows
 * without a top-class gap (-1 where absent), the top class's share of the
 * others' gaps. */
static int read_compact(struct rd *r, const struct json_object *j, struct model_phase *p,
			const char *w)
{
	for (int b = 0; b < MODEL_CNT_BUCKETS; b++)
		p->compact[b] = -1;
	if (!j)
		return 0;
	if (!json_object_is_type(j, json_type_array))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.class_compact: an array", w);
	for (size_t i = 0; i < alen(j); i++) {
		struct json_object *row = at(j, i);
		int ok = is_arr(row, 3) && is_num(at(row, 0)) && is_num(at(row, 1)) &&
			 is_num(at(row, 2));
		double b = ok ? num(at(row, 0)) : -1, x = ok ? num(at(row, 1)) : -1,
		       y = ok ? num(at(row, 2)) : -1;
		if (!(b >= 1 && b < MODEL_CNT_BUCKETS) || b != floor(b) || !(x >= 0 && x <= 1) ||
		    !(y >= 0 && y <= 1))
			return reel_errf(
			    r->err, r->len, REEL_E_PARSE,
			    "%s.class_compact[%zu]: expected [bucket 1..%d, share, share]", w, i,
			    MODEL_CNT_BUCKETS - 1);
		p->compact[(int)b] = x;
		p->top_rest[(int)b] = y;
	}
	return 0;
}

static int read_interarrival(struct rd *r, const struct json_object *j, struct model_phase *p,
			     const char *w)
{
	char ia_w[96], ww[128];
	struct json_object *ia = need(r, j, "interarrival", json_type_object, w);
	if (!ia)
		return REEL_E_PARSE;
	snprintf(ia_w, sizeof(ia_w), "%s.interarrival", w);
	if (get_num(r, ia, "zero_fraction", ia_w, 0, 1, &p->gap_zero))
		return REEL_E_PARSE;
	read_families(ia, p);
	snprintf(ww, sizeof(ww), "%s.gap_ns", ia_w);
	if (read_dist(r, get(ia, "gap_ns"), &p->gap, ww))
		return REEL_E_PARSE;
	if (p->gap.nk && p->gap.v[0] < 0)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: gaps are >= 0", ww);
	snprintf(ww, sizeof(ww), "%s.lead_ppm", ia_w);
	if (read_dist(r, get(ia, "lead_ppm"), &p->lead, ww))
		return REEL_E_PARSE;
	if (p->lead.nk && (p->lead.v[0] < 0 || p->lead.v[p->lead.nk - 1] > 1e6))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: 0..1e6 ppm of a window", ww);
	snprintf(ww, sizeof(ww), "%s.burst_len", ia_w); /* optional: models before it */
	if (get(ia, "burst_len") && read_dist(r, get(ia, "burst_len"), &p->burst, ww))
		return REEL_E_PARSE;
	if (p->burst.nk && !(p->burst.v[0] >= 1))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: bursts of 1 I/O or more", ww);
	snprintf(ww, sizeof(ww), "%s.class_next", ia_w);
	if (read_matrix(r, get(ia, "class_next"), &p->gap_next[0][0], MODEL_CLASSES, ww))
		return REEL_E_PARSE;
	snprintf(ww, sizeof(ww), "%s.class_by_count", ia_w);
	memset(p->class_by_count, 0, sizeof(p->class_by_count));
	if (read_class_rows(r, get(ia, "class_by_count"), p->class_by_count, ww))
		return REEL_E_PARSE;
	for (int b = 0; b < MODEL_CNT_BUCKETS; b++) /* optional: models before it, 0.5 */
		for (int c = 0; c < MODEL_CLASSES; c++)
			p->class_pos[b][c] = 0.5;
	snprintf(ww, sizeof(ww), "%s.class_position", ia_w);
	if (read_class_rows(r, get(ia, "class_position"), p->class_pos, ww))
		return REEL_E_PARSE;
	if (read_compact(r, get(ia, "class_compact"), p, ia_w))
		return REEL_E_PARSE;
	p->class_disp = 0; /* optional: models before it have none */
	if (get(ia, "class_dispersion") &&
	    get_num(r, ia, "class_dispersion", ia_w, 0, 1, &p->class_disp))
		return REEL_E_PARSE;
	for (int a = 0; a < MODEL_CLASSES; a++) { /* an all-zero row: uniform */
		double t = 0;
		for (int b = 0; b < MODEL_CLASSES; b++)
			t += p->gap_next[a][b];
		if (t <= 0)
			for (int b = 0; b < MODEL_CLASSES; b++)
				p->gap_next[a][b] = 1.0 / MODEL_CLASSES;
	}
	return 0;
}

static int read_phase(struct rd *r, const struct json_object *j, struct model_phase *p, size_t i)
{
	char w[64], ww[96];
	snprintf(w, sizeof(w), "phases[%zu]", i);
	if (!json_object_is_type(j, json_type_object))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: expected an object", w);
	double x;
	if (get_num(r, j, "ios", w, 0, 1e19, &x))
		return REEL_E_PARSE;
	p->ios = (uint64_t)x;
	if (get_num(r, j, "windows", w, 0, 1e19, &x))
		return REEL_E_PARSE;
	p->windows = (uint64_t)x;
	if (get_num(r, j, "rate_iops", w, 0, 1e15, &p->rate) || read_op_mix(r, j, p, w))
		return REEL_E_PARSE;
	snprintf(ww, sizeof(ww), "%s.op_next", w);
	if (read_matrix(r, get(j, "op_next"), &p->op_next[0][0], REEL_OP__COUNT, ww) ||
	    read_sizes(r, j, p, w) || read_seq_share(r, j, p, w) || read_interarrival(r, j, p, w))
		return REEL_E_PARSE;
	for (int a = 0; a < REEL_OP__COUNT; a++) { /* an all-zero row: the op mix */
		double t = 0;
		for (int b = 0; b < REEL_OP__COUNT; b++)
			t += p->op_next[a][b];
		if (t <= 0)
			memcpy(p->op_next[a], p->op_mix, sizeof(p->op_mix));
	}
	return read_bmodel(r, get(j, "bmodel"), p->bmodel, w);
}

/* ---- devices ----------------------------------------------------------- */
/* The distributions of one device: runs, jumps, local jumps, offsets. */
static int read_device_dists(struct rd *r, const struct json_object *j, struct model_devspace *d,
			     const char *w)
{
	char ww[96];
	snprintf(ww, sizeof(ww), "%s.runs", w);
	if (read_dist(r, get(j, "runs"), &d->run, ww))
		return REEL_E_PARSE;
	if (d->run.nk && (d->run.v[0] < 0 || d->run.v[d->run.nk - 1] > 1e15))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: run lengths are 0..1e15", ww);
	snprintf(ww, sizeof(ww), "%s.jumps", w);
	if (read_dist(r, get(j, "jumps"), &d->jump, ww))
		return REEL_E_PARSE;
	snprintf(ww, sizeof(ww), "%s.local_jumps", w);
	if (read_dist(r, get(j, "local_jumps"), &d->local, ww))
		return REEL_E_PARSE;
	if (get(j, "reuse_distance")) { /* optional: models before it have none */
		snprintf(ww, sizeof(ww), "%s.reuse_distance", w);
		if (read_dist(r, get(j, "reuse_distance"), &d->reuse_dist, ww))
			return REEL_E_PARSE;
		if (d->reuse_dist.nk && d->reuse_dist.v[0] < 1)
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: distances >= 1", ww);
	}
	if (get(j, "reuse_distance_write")) { /* optional: the writes' own */
		snprintf(ww, sizeof(ww), "%s.reuse_distance_write", w);
		if (read_dist(r, get(j, "reuse_distance_write"), &d->reuse_dist_w, ww))
			return REEL_E_PARSE;
		if (d->reuse_dist_w.nk && d->reuse_dist_w.v[0] < 1)
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: distances >= 1", ww);
	}
	if (get(j, "near_back")) { /* optional: with p_near, from 8 near starts */
		snprintf(ww, sizeof(ww), "%s.near_back", w);
		if (read_dist(r, get(j, "near_back"), &d->near_back, ww))
			return REEL_E_PARSE;
		if (d->near_back.nk && d->near_back.v[0] < 1)
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: distances >= 1", ww);
		snprintf(ww, sizeof(ww), "%s.near_jump", w);
		if (read_dist(r, get(j, "near_jump"), &d->near_jump, ww))
			return REEL_E_PARSE;
	}
	snprintf(ww, sizeof(ww), "%s.offsets", w);
	if (read_dist(r, get(j, "offsets"), &d->addr, ww))
		return REEL_E_PARSE;
	if (d->addr.nk && (d->addr.v[0] < 0 || d->addr.v[d->addr.nk - 1] > (double)d->extent))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: offsets within 0..extent", ww);
	return 0;
}

/* regions.bounds and regions.weights (ww: "devices[i].regions") */
static int read_region_bounds(struct rd *r, const struct json_object *b,
			      const struct json_object *wt, struct model_devspace *d,
			      const char *ww)
{
	size_t nb = alen(b), nw = alen(wt);
	if (nb < 2 || nb > MODEL_MAX_REGIONS + 1 || nw != nb - 1)
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "%s: 2..%d bounds and one weight fewer", ww,
				 MODEL_MAX_REGIONS + 1);
	d->nregions = (uint32_t)(nb - 1);
	for (size_t k = 0; k < nb; k++) {
		struct json_object *e = at(b, k);
		if (!is_num(e) || !(num(e) >= 0 && num(e) <= 9.2e18) ||
		    (k && num(e) <= (double)d->bound[k - 1]))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.bounds[%zu]: increasing byte offsets", ww, k);
		d->bound[k] = (uint64_t)num(e);
	}
	if (d->bound[0] != 0 || d->bound[d->nregions] != d->extent)
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "%s.bounds: run from 0 to the extent", ww);
	double ws = 0;
	for (size_t k = 0; k < nw; k++) {
		struct json_object *e = at(wt, k);
		if (!is_num(e) || !(num(e) >= 0 && num(e) <= 1))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.weights[%zu]: a share in [0, 1]", ww, k);
		d->weight[k] = num(e);
		ws += num(e);
	}
	if (ws <= 0)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.weights: all zero", ww);
	for (size_t k = 0; k < nw && fabs(ws - 1) > 1e-4; k++)
		d->weight[k] /= ws;
	return 0;
}

/* The chain of blocks read (D->nblk blocks, D->blk) spread over the
 * regions: each region of a block takes the block's row, each destination
 * block's share going to its regions by their weights (equally where
 * they weigh nothing); nblk is then 0.  0 or REEL_E_PARSE (out of memory). */
static int chain_spread(struct rd *r, struct model_devspace *d)
{
	uint32_t nb = d->nblk, nreg = d->nregions;
	size_t cap = (size_t)nreg * nreg + 1;
	uint16_t *to = malloc(cap * sizeof(*to));
	double *p = malloc(cap * sizeof(*p));
	uint32_t row[MODEL_MAX_REGIONS + 1];
	if (!to || !p) {
		free(to);
		free(p);
		return reel_errf(r->err, r->len, REEL_E_PARSE, "out of memory");
	}
	size_t t = 0;
	row[0] = 0;
	for (uint32_t a = 0; a < nb; a++)
		for (uint32_t q = d->blk[a]; q < d->blk[a + 1]; q++) {
			double c = 0;
			for (uint32_t x = d->row[a]; x < d->row[a + 1]; x++) {
				uint32_t b = d->tr_to[x], lo = d->blk[b], hi = d->blk[b + 1];
				double pb = d->tr_p[x] - (x > d->row[a] ? d->tr_p[x - 1] : 0),
				       w = 0;
				for (uint32_t y = lo; y < hi; y++)
					w += d->weight[y];
				for (uint32_t y = lo; y < hi; y++) {
					double s = w > 0 ? pb * d->weight[y] / w : pb / (hi - lo);
					if (!(s > 0))
						continue;
					to[t] = (uint16_t)y;
					p[t++] = (c += s);
				}
			}
			if (t > row[q])
				p[t - 1] = 1;
			row[q + 1] = (uint32_t)t;
		}
	free(d->tr_to);
	free(d->tr_p);
	uint16_t *to2 = realloc(to, (t + 1) * sizeof(*to)); /* dense rows: up to R x R */
	double *p2 = realloc(p, (t + 1) * sizeof(*p));
	d->tr_to = to2 ? to2 : to;
	d->tr_p = p2 ? p2 : p;
	d->ntr = (uint32_t)t;
	memcpy(d->row, row, sizeof(row));
	d->nblk = 0;
	return 0;
}

/* regions.transitions: [from, to, share] sorted, into the CSR rows with
 * cumulative shares; over blocks of regions (regions.chain_blocks), then
 * spread over their regions */
static int read_transitions(struct rd *r, const struct json_object *t, struct model_devspace *d,
			    const char *ww)
{
	size_t nt = alen(t);
	uint32_t nreg = d->nblk ? d->nblk : d->nregions;
	d->tr_to = malloc((nt + 1) * sizeof(*d->tr_to));
	d->tr_p = malloc((nt + 1) * sizeof(*d->tr_p));
	if (!d->tr_to || !d->tr_p)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "out of memory");
	memset(d->row, 0, sizeof(d->row));
	uint32_t prev_from = 0, prev_to = 0;
	for (size_t k = 0; k < nt; k++) {
		struct json_object *e = at(t, k);
		if (!is_arr(e, 3) || !is_num(at(e, 0)) || !is_num(at(e, 1)) || !is_num(at(e, 2)))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.transitions[%zu]: expected [from, to, share]", ww, k);
		double f = num(at(e, 0)), to = num(at(e, 1)), p = num(at(e, 2));
		if (!(f >= 0 && f < nreg && f == floor(f) && to >= 0 && to < nreg &&
		      to == floor(to) && p > 0 && p <= 1))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.transitions[%zu]: %s 0..%u and a share in (0, 1]", ww,
					 k, d->nblk ? "blocks" : "regions", nreg - 1);
		uint32_t fi = (uint32_t)f, ti = (uint32_t)to;
		if (k && (fi < prev_from || (fi == prev_from && ti <= prev_to)))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.transitions[%zu]: sorted by (from, to), no repeats",
					 ww, k);
		prev_from = fi;
		prev_to = ti;
		d->tr_to[k] = (uint16_t)ti;
		d->tr_p[k] = p;
		d->row[fi + 1]++;
	}
	d->ntr = (uint32_t)nt;
	for (uint32_t q = 0; q < nreg; q++)
		d->row[q + 1] += d->row[q];
	for (uint32_t q = 0; q < nreg; q++) {
		double s = 0, c = 0;
		for (uint32_t x = d->row[q]; x < d->row[q + 1]; x++)
			s += d->tr_p[x];
		if (fabs(s - 1) <= 1e-4)
			s = 1;
		for (uint32_t x = d->row[q]; x < d->row[q + 1]; x++) {
			c += d->tr_p[x];
			d->tr_p[x] = c / s;
		}
	}
	return d->nblk ? chain_spread(r, d) : 0;
}

/* The optional per-region shares KEY of REG (device W): N of them, each
 * in [0, 1], into OUT; *FITTED whether present; *SUM their sum (0 when
 * absent).  0, or REEL_E_PARSE naming the field. */
static int region_shares(struct rd *r, const struct json_object *reg, const char *key,
			 const char *w, uint32_t n, float *out, int *fitted, double *sum)
{
	struct json_object *a = get(reg, key);
	*sum = 0;
	if (!(*fitted = a != NULL))
		return 0;
	if (!is_arr(a, n))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.%s: one per region (%u)", w, key,
				 n);
	for (uint32_t k = 0; k < n; k++) {
		double x = is_num(at(a, k)) ? num(at(a, k)) : NAN;
		if (!(x >= 0 && x <= 1))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.%s[%u]: a share in [0, 1]", w, key, k);
		out[k] = (float)x;
		*sum += x;
	}
	return 0;
}

static int read_regions(struct rd *r, const struct json_object *j, struct model_devspace *d,
			const char *w)
{
	char ww[96];
	struct json_object *reg = need(r, j, "regions", json_type_object, w);
	if (!reg)
		return REEL_E_PARSE;
	snprintf(ww, sizeof(ww), "%s.regions", w);
	struct json_object *b = need(r, reg, "bounds", json_type_array, ww);
	struct json_object *wt = b ? need(r, reg, "weights", json_type_array, ww) : NULL;
	struct json_object *t = wt ? need(r, reg, "transitions", json_type_array, ww) : NULL;
	if (!t || read_region_bounds(r, b, wt, d, ww))
		return REEL_E_PARSE;
	struct json_object *ru = get(reg, "run_mean"); /* optional: models before it */
	if ((d->run_mean_fitted = ru != NULL)) {
		if (!is_arr(ru, d->nregions))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.run_mean: one per region (%u)", ww, d->nregions);
		for (uint32_t k = 0; k < d->nregions; k++) {
			double x = is_num(at(ru, k)) ? num(at(ru, k)) : NAN;
			if (!(x == 0 || (x >= 1 && x <= 4294967295.0)))
				return reel_errf(r->err, r->len, REEL_E_PARSE,
						 "%s.run_mean[%u]: 0 or a length in I/O", ww, k);
			d->run_mean[k] = (float)x;
		}
	}
	d->p_local_fitted = 0;
	for (int o = 0; o < 2; o++) { /* optional, each */
		const char *nm = o ? "p_local_write" : "p_local_read";
		struct json_object *pl = get(reg, nm);
		if (!(d->p_local_op[o] = pl != NULL))
			continue;
		d->p_local_fitted = 1;
		if (!is_arr(pl, d->nregions))
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.%s: one per region (%u)",
					 ww, nm, d->nregions);
		for (uint32_t k = 0; k < d->nregions; k++) {
			double x = is_num(at(pl, k)) ? num(at(pl, k)) : NAN;
			if (!(x >= 0 && x <= 1))
				return reel_errf(r->err, r->len, REEL_E_PARSE,
						 "%s.%s[%u]: a share in [0, 1]", ww, nm, k);
			d->p_local_r[o][k] = (float)x;
		}
	}
	double sum = 0;
	int rc = region_shares(r, reg, "read_share", ww, d->nregions, d->read_share,
			       &d->read_share_fitted, &sum);
	if (!rc)
		rc = region_shares(r, reg, "fresh_share", ww, d->nregions, d->fresh_share,
				   &d->fresh_share_fitted, &sum);
	if (rc)
		return rc;
	if (d->fresh_share_fitted && !(sum > 0))
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "%s.fresh_share: some region's share above 0", ww);
	struct json_object *sw = get(reg, "seg_weights"); /* optional */
	if ((d->seg_fitted = sw != NULL) && !is_arr(sw, MODEL_SEGS))
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "%s.seg_weights: one row per %d-th of the I/O", ww, MODEL_SEGS);
	for (int k = 0; d->seg_fitted && k < MODEL_SEGS; k++) {
		char wk[112];
		snprintf(wk, sizeof(wk), "%s.seg_weights[%d]", ww, k);
		struct json_object *row = at(sw, k);
		double s = 0;
		if (!is_arr(row, d->nregions))
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: one per region (%u)",
					 wk, d->nregions);
		for (uint32_t x = 0; x < d->nregions; x++) {
			double v = is_num(at(row, x)) ? num(at(row, x)) : NAN;
			if (!(v >= 0 && v <= 1))
				return reel_errf(r->err, r->len, REEL_E_PARSE,
						 "%s[%u]: a share in [0, 1]", wk, x);
			d->seg_w[k][x] = (float)v;
			s += v;
		}
		/* the writer's %.3g moves a row's sum by at most ~0.5%, however
		 * many regions: a bound growing with them let a row of zeros by */
		if (!(fabs(s - 1) < 0.01))
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: shares summing to 1",
					 wk);
	}
	struct json_object *cb = get(reg, "chain_blocks"); /* optional */
	d->nblk = 0;
	if (cb) {
		size_t nb = json_object_get_type(cb) == json_type_array ? alen(cb) : 0;
		int okb = nb >= 2 && nb <= d->nregions;
		for (size_t k = 0; okb && k < nb; k++) {
			double x = is_num(at(cb, k)) ? num(at(cb, k)) : NAN;
			okb = x == floor(x) && (k ? x > d->blk[k - 1] : x == 0) &&
			      (k + 1 < nb ? x < d->nregions : x == d->nregions);
			if (okb)
				d->blk[k] = (uint16_t)x;
		}
		if (!okb)
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.chain_blocks: increasing region indices from 0 to %u, "
					 "fewer than the regions",
					 ww, d->nregions);
		d->nblk = (uint32_t)nb - 1;
	}
	return read_transitions(r, t, d, ww);
}

/* The optional pair KEY of the device W, [x in [LO, HI], a share] (0: absent
 * or read), else REEL_E_PARSE: reuse_run, p_reuse_rw, reuse_cont_rw; BOTH:
 * y in [LO, HI] too (reuse_run_rw). */
static int opt_pair(struct rd *r, const struct json_object *j, const char *key, const char *w,
		    double lo, double hi, int both, float *out)
{
	struct json_object *v = get(j, key);
	double x = v && is_arr(v, 2) && is_num(at(v, 0)) ? num(at(v, 0)) : NAN;
	double y = v && is_arr(v, 2) && is_num(at(v, 1)) ? num(at(v, 1)) : NAN;
	if (v && !(x >= lo && x <= hi && (both ? y >= lo && y <= hi : y >= 0 && y <= 1)))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.%s: [%g to %g, %s]", w, key, lo,
				 hi, both ? "the same" : "a share");
	out[0] = v ? (float)x : out[0];
	out[1] = v ? (float)y : out[1];
	return 0;
}

/* The optional own_sizes of the device W (its reads' and its other I/O's
 * sizes where they are its own), else REEL_E_PARSE. */
static int own_sizes(struct rd *r, const struct json_object *j, struct model_devspace *d,
		     const char *w)
{
	struct json_object *sz = get(j, "own_sizes"), *v;
	if (!sz)
		return 0;
	if (!json_object_is_type(sz, json_type_object))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.own_sizes: expected an object",
				 w);
	for (int k = 0; k < 2; k++) {
		char ww[96];
		if (!member(sz, k ? "others" : "read", &v))
			continue;
		snprintf(ww, sizeof(ww), "%s.own_sizes.%s", w, k ? "others" : "read");
		if (read_dist(r, v, &d->dsize[k], ww))
			return REEL_E_PARSE;
		if (d->dsize[k].nk &&
		    (d->dsize[k].v[0] < 0 || d->dsize[k].v[d->dsize[k].nk - 1] > 4294967295.0))
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: sizes are 0..4 GiB",
					 ww);
	}
	return 0;
}

/* The optional p_reuse_size of the device W: MODEL_REUSE_SIZES shares
 * (absent: p_reuse for each), else REEL_E_PARSE. */
static int reuse_sizes(struct rd *r, const struct json_object *j, struct model_devspace *d,
		       const char *w)
{
	struct json_object *v = get(j, "p_reuse_size");
	for (int k = 0; k < MODEL_REUSE_SIZES; k++) {
		double x = v && is_arr(v, MODEL_REUSE_SIZES) && is_num(at(v, (size_t)k))
			       ? num(at(v, (size_t)k))
			       : NAN;
		if (v && !(x >= 0 && x <= 1))
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.p_reuse_size: %d shares",
					 w, MODEL_REUSE_SIZES);
		d->p_reuse_size[k] = v ? (float)x : (float)d->p_reuse;
	}
	return 0;
}

/* The optional long_runs of the device W: [offset, length, bytes, at] each,
 * offsets inside the extent, starts (at) not decreasing, and optionally the
 * bytes of its first MODEL_LONG_HEAD I/O (head: at most its bytes, above
 * 0, on a run longer than MODEL_LONG_HEAD). */
static int long_runs(struct rd *r, const struct json_object *j, struct model_devspace *d,
		     const char *w)
{
	struct json_object *v = get(j, "long_runs");
	d->nlong = 0;
	if (!v)
		return 0;
	size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
	if (!n || n > MODEL_MAX_LONG)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.long_runs: 1 to %d runs", w,
				 MODEL_MAX_LONG);
	double prev = 0; /* the start before, as read (not as stored in a float) */
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = at(v, k);
		double x[5] = {NAN, NAN, NAN, NAN, 0};
		size_t ne = is_arr(e, 5) ? 5 : 4;
		for (size_t q = 0; q < ne && is_arr(e, ne); q++)
			x[q] = is_num(at(e, q)) ? num(at(e, q)) : NAN;
		if (!(x[0] >= 0 && x[0] < (double)d->extent && x[1] >= 1 && x[1] <= 4294967295.0 &&
		      x[2] >= 0 && x[2] <= 9.2e18 && x[3] >= prev && x[3] <= 1))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.long_runs[%zu]: [offset in the extent, length >= 1, "
					 "bytes, start share in [0, 1], not decreasing]",
					 w, k);
		if (ne == 5 &&
		    !(x[4] > 0 && x[4] <= x[2] && x[4] == floor(x[4]) && x[1] > MODEL_LONG_HEAD))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "%s.long_runs[%zu][4]: the head's bytes, above 0 and at "
					 "most the run's, on a run longer than %d I/O",
					 w, k, MODEL_LONG_HEAD);
		d->longrun[k] = (struct model_long_run){
		    (uint64_t)x[0], (uint64_t)x[2], (uint32_t)x[1], (float)x[3], (uint64_t)x[4]};
		prev = x[3];
	}
	d->nlong = (uint32_t)n;
	return 0;
}

/* The optional reuse_pass of the device W: the device's I/O count, then
 * per I/O [index step, write, offset step, length], places in 512-byte
 * units, indices increasing, places inside the extent. */
static int reuse_pass(struct rd *r, const struct json_object *j, struct model_devspace *d,
		      const char *w)
{
	struct json_object *v = get(j, "reuse_pass");
	d->npass = 0;
	d->pass_burst = 0;
	d->pass = NULL;
	if (!v)
		return 0;
	size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
	double cnt = n ? (is_num(at(v, 0)) ? num(at(v, 0)) : NAN) : NAN;
	if (n < 5 || (n - 1) % 4 || (n - 1) / 4 > MODEL_MAX_PASS || !(cnt >= 1 && cnt <= 4e9))
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "%s.reuse_pass: the I/O count, then 1 to %d I/O of 4 numbers", w,
				 MODEL_MAX_PASS);
	n = (n - 1) / 4;
	if (!(d->pass = malloc(n * sizeof(*d->pass))))
		return REEL_E_NOMEM;
	double pa = 0, po = 0;
	for (size_t k = 0; k < n; k++) {
		double x[4];
		for (size_t q = 0; q < 4; q++)
			x[q] = is_num(at(v, 1 + 4 * k + q)) ? num(at(v, 1 + 4 * k + q)) : NAN;
		pa += x[0];
		po += x[2];
		if (!(x[0] >= (k ? 1 : 0) && pa < cnt && (x[1] == 0 || x[1] == 1) && po >= 0 &&
		      x[3] >= 1 && x[3] <= 8388607 && (po + x[3]) * 512 <= (double)d->extent &&
		      x[0] == floor(x[0]) && x[2] == floor(x[2]) && x[3] == floor(x[3]))) {
			free(d->pass);
			d->pass = NULL;
			return reel_errf(
			    r->err, r->len, REEL_E_PARSE,
			    "%s.reuse_pass[%zu]: [index step (> 0 after the first), "
			    "write 0 or 1, offset step, length >= 1], inside the extent",
			    w, k);
		}
		d->pass[k] = (struct model_pass_io){(uint64_t)po * 512, (uint32_t)x[3] * 512,
						    (uint32_t)pa, (uint8_t)x[1]};
	}
	d->npass = (uint32_t)n;
	d->pass_n = (uint64_t)cnt;
	double b = 0;
	opt_num(j, "reuse_pass_burst", &b);
	if (b != 0 && b != 1)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.reuse_pass_burst: 0 or 1", w);
	d->pass_burst = (uint8_t)b;
	return 0;
}

/* The optional hot_cycle of the device W: [offset, from, to, then
 * MODEL_CYCLE_Q quantiles of the I/O between touches] each, offsets inside
 * the extent, 0 <= from <= to <= 1, the quantiles >= 1 and not
 * decreasing. */
static int hot_cycle(struct rd *r, const struct json_object *j, struct model_devspace *d,
		     const char *w)
{
	struct json_object *v = get(j, "hot_cycle");
	d->ncycle = 0;
	if (!v)
		return 0;
	size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
	if (!n || n > MODEL_MAX_CYCLE)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.hot_cycle: 1 to %d blocks", w,
				 MODEL_MAX_CYCLE);
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = at(v, k);
		double x[3 + MODEL_CYCLE_Q];
		int ok = is_arr(e, 3 + MODEL_CYCLE_Q);
		for (size_t q = 0; q < 3 + MODEL_CYCLE_Q; q++)
			x[q] = ok && is_num(at(e, q)) ? num(at(e, q)) : NAN;
		ok = x[0] >= 0 && x[0] < (double)d->extent && x[1] >= 0 && x[2] >= x[1] &&
		     x[2] <= 1 && x[3] >= 1;
		for (int q = 1; q < MODEL_CYCLE_Q; q++)
			ok = ok && x[3 + q] >= x[2 + q] && x[3 + q] <= 1e15;
		if (!ok)
			return reel_errf(
			    r->err, r->len, REEL_E_PARSE,
			    "%s.hot_cycle[%zu]: [offset in the extent, from, to "
			    "(0 <= from <= to <= 1), %d quantiles >= 1, not decreasing]",
			    w, k, MODEL_CYCLE_Q);
		struct model_cycle *c = &d->cycle[k];
		c->off = (uint64_t)x[0];
		c->from = (float)x[1];
		c->to = (float)x[2];
		for (int q = 0; q < MODEL_CYCLE_Q; q++)
			c->q[q] = (float)x[3 + q];
	}
	d->ncycle = (uint32_t)n;
	return 0;
}

/* The optional hot_order of the device W (with hot_cycle): 2 to
 * MODEL_MAX_ORDER run starts, each a hot_cycle block + 1 or 0. */
static int hot_order(struct rd *r, const struct json_object *j, struct model_devspace *d,
		     const char *w)
{
	struct json_object *v = get(j, "hot_order");
	d->norder = 0;
	if (!v)
		return 0;
	size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
	int ok = d->ncycle && n >= 2 && n <= MODEL_MAX_ORDER;
	for (size_t k = 0; ok && k < n; k++) {
		double x = is_num(at(v, k)) ? num(at(v, k)) : NAN;
		ok = x >= 0 && x <= d->ncycle && x == floor(x);
		d->order[k] = ok ? (uint8_t)x : 0;
	}
	if (!ok)
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "%s.hot_order: 2 to %d integers from 0 to hot_cycle's length, "
				 "with hot_cycle",
				 w, MODEL_MAX_ORDER);
	d->norder = (uint32_t)n;
	memset(d->order_len, 0, sizeof(d->order_len));
	if (!(v = get(j, "hot_order_len"))) /* optional: models before it draw the size */
		return 0;
	ok = json_object_is_type(v, json_type_array) && json_object_array_length(v) == n;
	for (size_t k = 0; ok && k < n; k++) {
		double x = is_num(at(v, k)) ? num(at(v, k)) : NAN;
		ok = x >= 0 && x <= 255 && x == floor(x);
		d->order_len[k] = ok ? (uint8_t)x : 0;
	}
	if (!ok)
		return reel_errf(
		    r->err, r->len, REEL_E_PARSE,
		    "%s.hot_order_len: as many integers from 0 to 255 as hot_order has", w);
	return 0;
}

/* The optional p_reuse_phase of the device W: NPH pairs, each a share or
 * -1 (absent: none), else REEL_E_PARSE. */
static int reuse_phase(struct rd *r, const struct json_object *j, struct model_devspace *d,
		       size_t nph, const char *w)
{
	struct json_object *v = get(j, "p_reuse_phase");
	d->reuse_ph_fitted = v != NULL;
	for (size_t p = 0; v && p < MODEL_MAX_PHASES; p++)
		for (size_t k = 0; k < 2; k++) {
			struct json_object *e = p < nph && is_arr(v, nph) ? at(v, p) : NULL;
			double x = e && is_arr(e, 2) && is_num(at(e, k)) ? num(at(e, k)) : NAN;
			if (p < nph && !(x == -1 || (x >= 0 && x <= 1)))
				return reel_errf(r->err, r->len, REEL_E_PARSE,
						 "%s.p_reuse_phase: %zu pairs (one a phase), each "
						 "a share or -1",
						 w, nph);
			d->p_reuse_ph[p][k] = p < nph ? (float)x : -1;
		}
	return 0;
}

static int read_device(struct rd *r, const struct json_object *j, struct model_devspace *d,
		       size_t i, size_t nph)
{
	char w[64];
	snprintf(w, sizeof(w), "devices[%zu]", i);
	if (!json_object_is_type(j, json_type_object))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: expected an object", w);
	double x;
	if (get_num(r, j, "id", w, 0, 65535, &x))
		return REEL_E_PARSE;
	d->id = (uint16_t)x;
	struct json_object *nm = need(r, j, "name", json_type_string, w);
	if (!nm)
		return REEL_E_PARSE;
	snprintf(d->name, sizeof(d->name), "%s", json_object_get_string(nm));
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
		return reel_errf(r->err, r->len, REEL_E_PARSE, "%s.align: a power of two", w);
	if (get_num(r, j, "share", w, 0, 1, &d->share))
		return REEL_E_PARSE;
	opt_num(j, "hot10", &d->hot10);
	struct json_object *v = get(j, "rw_overlap");
	if (json_object_is_type(v, json_type_object)) {
		opt_num(v, "read", &d->rw_overlap_read);
		opt_num(v, "write", &d->rw_overlap_write);
	}
	if (get(j, "gap_ns")) { /* optional: models before it have none */
		char ww[96];
		snprintf(ww, sizeof(ww), "%s.gap_ns", w);
		if (read_dist(r, get(j, "gap_ns"), &d->gap, ww))
			return REEL_E_PARSE;
		if (d->gap.nk && d->gap.v[0] < 0)
			return reel_errf(r->err, r->len, REEL_E_PARSE, "%s: gaps >= 0", ww);
	}
	if (read_device_dists(r, j, d, w))
		return REEL_E_PARSE;
	if (get_num(r, j, "local_limit", w, 0, 9.2e18, &x))
		return REEL_E_PARSE;
	d->local_limit = (uint64_t)x;
	if (get_num(r, j, "p_local", w, 0, 1, &d->p_local))
		return REEL_E_PARSE;
	if (get(j, "p_resume") && get_num(r, j, "p_resume", w, 0, 1, &d->p_resume))
		return REEL_E_PARSE; /* optional: models before it, devices without */
	d->op_bias[0] = d->op_bias[1] = 1;
	d->op_bias_fitted = get(j, "op_bias") != NULL;
	if (opt_pair(r, j, "op_bias", w, 0, 1e6, 1, d->op_bias) || own_sizes(r, j, d, w))
		return REEL_E_PARSE; /* the same */
	if (get(j, "p_near") && get_num(r, j, "p_near", w, 0, 1, &d->p_near))
		return REEL_E_PARSE; /* the same */
	if ((d->reuse_fitted = get(j, "p_reuse") != NULL) &&
	    get_num(r, j, "p_reuse", w, 0, 1, &d->p_reuse))
		return REEL_E_PARSE;
	d->p_unread = 0; /* optional: models before it, devices without */
	if (get(j, "p_unread") &&
	    (!d->reuse_fitted || get_num(r, j, "p_unread", w, MODEL_UNREAD, 1, &d->p_unread)))
		return d->reuse_fitted ? REEL_E_PARSE
				       : reel_errf(r->err, r->len, REEL_E_PARSE,
						   "%s.p_unread: only with p_reuse", w);
	float rr[2] = {0, 1}; /* optional, left out where they say nothing */
	d->p_reuse_op[0] = d->p_reuse_op[1] = (float)d->p_reuse;
	if (opt_pair(r, j, "reuse_run", w, 1, 1e12, 0, rr) ||
	    opt_pair(r, j, "p_reuse_rw", w, 0, 1, 0, d->p_reuse_op))
		return REEL_E_PARSE;
	d->reuse_run = rr[0];
	d->reuse_cont = rr[1];
	d->reuse_cont_op[0] = d->reuse_cont_op[1] = d->reuse_cont;
	d->reuse_run_op[0] = d->reuse_run_op[1] = d->reuse_run;
	if (opt_pair(r, j, "reuse_cont_rw", w, 0, 1, 0, d->reuse_cont_op) ||
	    opt_pair(r, j, "reuse_run_rw", w, 1, 1e12, 1, d->reuse_run_op))
		return REEL_E_PARSE;
	if (reuse_sizes(r, j, d, w) || reuse_phase(r, j, d, nph, w) || long_runs(r, j, d, w) ||
	    hot_cycle(r, j, d, w) || hot_order(r, j, d, w))
		return REEL_E_PARSE;
	int e = reuse_pass(r, j, d, w);
	if (e)
		return e;
	return read_regions(r, j, d, w);
}

/* ---- the model --------------------------------------------------------- */
/* format, version, naive, source, count, duration, quantum, bmodel, pqrs */
static int read_top(struct rd *r, const struct json_object *root, struct model *m)
{
	const char *w = "model";
	double x;
	if (!json_object_is_type(root, json_type_object))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "the model is a JSON object");
	struct json_object *fmt = need(r, root, "format", json_type_string, w);
	if (!fmt)
		return REEL_E_PARSE;
	if (strcmp(json_object_get_string(fmt), "ioreel-model"))
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "model.format: \"%s\", not \"ioreel-model\"",
				 json_object_get_string(fmt));
	if (get_num(r, root, "version", w, 1, 1, &x))
		return REEL_E_PARSE;
	struct json_object *nv = need(r, root, "naive", json_type_boolean, w);
	if (!nv)
		return REEL_E_PARSE;
	m->naive = json_object_get_boolean(nv);
	struct json_object *src = get(root, "source");
	if (json_object_is_type(src, json_type_string))
		snprintf(m->source, sizeof(m->source), "%s", json_object_get_string(src));
	if (get_num(r, root, "count", w, 0, 1e19, &x))
		return REEL_E_PARSE;
	m->count = (uint64_t)x;
	if (get_num(r, root, "duration_ns", w, 1, 9.2e18, &x))
		return REEL_E_PARSE;
	m->duration_ns = (int64_t)x;
	if (get_num(r, root, "quantum_ns", w, 1, 1e12, &x))
		return REEL_E_PARSE;
	m->quantum_ns = (int64_t)x;
	if (get(root, "gap_cascade") && get_num(r, root, "gap_cascade", w, 0, 1, &m->gap_cascade))
		return REEL_E_PARSE;
	struct json_object *bm;
	if (member(root, "bmodel", &bm) && read_bmodel(r, bm, m->bmodel, w))
		return REEL_E_PARSE;
	if (!member(root, "bmodel", &bm))
		for (int k = 0; k <= REEL_OP__COUNT; k++)
			m->bmodel[k] = -1;
	struct json_object *pq = get(root, "pqrs");
	for (int k = 0; k < 4; k++)
		m->pqrs[k] =
		    is_arr(pq, 4) && is_num(at(pq, (size_t)k)) ? num(at(pq, (size_t)k)) : -1;
	return 0;
}

static int read_phases(struct rd *r, const struct json_object *root, struct model *m)
{
	struct json_object *ph = need(r, root, "phases", json_type_array, "model");
	if (!ph)
		return REEL_E_PARSE;
	size_t n = alen(ph);
	if (!n || n > MODEL_MAX_PHASES)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "phases: 1..%d phases",
				 MODEL_MAX_PHASES);
	m->nphases = n;
	m->phases = calloc(n, sizeof(*m->phases));
	if (!m->phases)
		return reel_errf(r->err, r->len, REEL_E_NOMEM, "out of memory");
	int seq = 0;
	for (size_t i = 0; i < n; i++) {
		if (read_phase(r, at(ph, i), &m->phases[i], i))
			return REEL_E_PARSE;
		seq |= m->phases[i].seq_fitted;
	}
	for (size_t i = 0; i < n; i++) /* a phase without seq_share: none continue */
		m->phases[i].seq_fitted = seq;
	return 0;
}

/* windows.ops.OP: one count per window; no I/O in a phase without any */
static int read_window_ops(struct rd *r, const struct json_object *a, struct model *m, int o,
			   uint64_t *total)
{
	if (!is_arr(a, m->nwin))
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "windows.ops.%s: %zu counts expected", model_op_key[o], m->nwin);
	for (size_t i = 0; i < m->nwin; i++) {
		struct json_object *k = at(a, i);
		double x = num(k);
		if (!is_num(k) || !(x >= 0 && x <= 4e9) || x != floor(x))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "windows.ops.%s[%zu]: a count 0..4e9", model_op_key[o], i);
		m->win_ops[i * REEL_OP__COUNT + o] = (uint32_t)x;
		*total += (uint64_t)x;
		if (x > 0 && !m->phases[m->win_phase[i]].ios)
			return reel_errf(
			    r->err, r->len, REEL_E_PARSE,
			    "windows.ops.%s[%zu]: I/O in a window of phase %u, which has "
			    "none",
			    model_op_key[o], i, m->win_phase[i]);
	}
	return 0;
}

/* The optional windows.kept: [window, first, last, knots...] each,
 * windows increasing, first <= last, in ppm, up to MODEL_KEPT_KNOTS knots,
 * each [its I/O, its place] (I/O increasing from 1 to the window's count
 * less 2) or its place alone (models before: the I/O model_kept_knot_io's),
 * places nondecreasing in [0, MODEL_KNOT_UNIT]; a kept window holds I/O,
 * more than its knots. */
static int read_kept(struct rd *r, const struct json_object *wn, struct model *m)
{
	struct json_object *v = get(wn, "kept");
	m->nkept = 0;
	if (!v)
		return 0;
	size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
	if (!n || n > MODEL_MAX_KEPT)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "windows.kept: 1 to %d windows",
				 MODEL_MAX_KEPT);
	double prev = -1;
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = at(v, k);
		size_t ne =
		    json_object_is_type(e, json_type_array) ? json_object_array_length(e) : 0;
		double x[3 + MODEL_KEPT_KNOTS], io[MODEL_KEPT_KNOTS] = {0};
		int ok = ne >= 3 && ne <= 3 + MODEL_KEPT_KNOTS, pairs = 0;
		for (size_t q = 0; q < ne && ok; q++) {
			struct json_object *y = at(e, q);
			int pair = q >= 3 && json_object_is_type(y, json_type_array);
			if (q == 3)
				pairs = pair;
			ok = pair == pairs && (!pair || json_object_array_length(y) == 2);
			if (pair) {
				io[q - 3] = is_num(at(y, 0)) ? num(at(y, 0)) : NAN;
				y = at(y, 1);
				ok = ok && io[q - 3] == floor(io[q - 3]);
			}
			x[q] = ok && is_num(y) ? num(y) : NAN;
			ok = ok && x[q] == floor(x[q]);
		}
		uint64_t c = 0;
		for (int o = 0; ok && o < REEL_OP__COUNT && x[0] >= 0 && x[0] < (double)m->nwin;
		     o++)
			c += m->win_ops[(size_t)x[0] * REEL_OP__COUNT + o];
		ok = ok && x[0] > prev && x[0] < (double)m->nwin && c && x[1] >= 0 &&
		     x[1] <= x[2] && x[2] < 1e6 && (ne == 3 || c >= ne - 1);
		for (size_t q = 3; q < ne && ok; q++)
			ok = x[q] >= (q > 3 ? x[q - 1] : 0) && x[q] <= MODEL_KNOT_UNIT &&
			     (!pairs ||
			      (io[q - 3] > (q > 3 ? io[q - 4] : 0) && io[q - 3] <= (double)c - 2));
		if (!ok)
			return reel_errf(
			    r->err, r->len, REEL_E_PARSE,
			    "windows.kept[%zu]: [window with I/O, increasing; first "
			    "<= last, whole ppm below 1e6; up to %d knots, [I/O increasing from 1 "
			    "to the window's count less 2, place] or place alone, places "
			    "nondecreasing whole numbers 0 to %d, fewer than the window's I/O "
			    "less 1]",
			    k, MODEL_KEPT_KNOTS, MODEL_KNOT_UNIT);
		struct model_kept_window *kw = &m->kept[k];
		*kw = (struct model_kept_window){
		    (uint32_t)x[0], (uint32_t)x[1], (uint32_t)x[2], (uint32_t)(ne - 3), {0}, {0}};
		for (size_t q = 3; q < ne; q++) {
			kw->knot[q - 3] = (uint16_t)x[q];
			kw->knot_io[q - 3] = (uint32_t)io[q - 3];
		}
		prev = x[0];
	}
	m->nkept = n;
	return 0;
}

static int read_windows(struct rd *r, const struct json_object *root, struct model *m)
{
	double x;
	struct json_object *wn = need(r, root, "windows", json_type_object, "model");
	if (!wn || get_num(r, wn, "count", "windows", 1, MODEL_MAX_WINDOWS, &x))
		return REEL_E_PARSE;
	if (x != floor(x))
		return reel_errf(r->err, r->len, REEL_E_PARSE, "windows.count: a whole number");
	m->nwin = (size_t)x;
	m->win_phase = malloc(m->nwin * sizeof(*m->win_phase));
	m->win_ops = calloc(m->nwin * REEL_OP__COUNT, sizeof(*m->win_ops));
	if (!m->win_phase || !m->win_ops)
		return reel_errf(r->err, r->len, REEL_E_NOMEM, "out of memory");
	/* windows.phase: left out where the model has one phase (all 0) */
	struct json_object *wp = NULL;
	if ((m->nphases > 1 || member(wn, "phase", &wp)) &&
	    !(wp = need(r, wn, "phase", json_type_array, "windows")))
		return REEL_E_PARSE;
	struct json_object *wo = need(r, wn, "ops", json_type_object, "windows");
	if (!wo)
		return REEL_E_PARSE;
	if (!wp)
		memset(m->win_phase, 0, m->nwin * sizeof(*m->win_phase));
	else if (alen(wp) != m->nwin)
		return reel_errf(r->err, r->len, REEL_E_PARSE,
				 "windows.phase: %zu entries for %zu windows", alen(wp), m->nwin);
	for (size_t i = 0; wp && i < m->nwin; i++) {
		struct json_object *k = at(wp, i);
		if (!is_num(k) || !(num(k) >= 0) || num(k) >= (double)m->nphases ||
		    num(k) != floor(num(k)))
			return reel_errf(r->err, r->len, REEL_E_PARSE,
					 "windows.phase[%zu]: a phase number below %zu", i,
					 m->nphases);
		m->win_phase[i] = (uint16_t)num(k);
	}
	uint64_t total = 0;
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		struct json_object *a;
		if (member(wo, model_op_key[o], &a) && read_window_ops(r, a, m, o, &total))
			return REEL_E_PARSE;
	}
	if (!total)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "windows.ops: no I/O at all");
	return read_kept(r, wn, m);
}

static int read_devices(struct rd *r, const struct json_object *root, struct model *m)
{
	struct json_object *dv = need(r, root, "devices", json_type_array, "model");
	if (!dv)
		return REEL_E_PARSE;
	size_t n = alen(dv);
	if (!n || n > MODEL_MAX_DEVS)
		return reel_errf(r->err, r->len, REEL_E_PARSE, "devices: 1..%d devices",
				 MODEL_MAX_DEVS);
	m->ndevs = n;
	m->devs = calloc(n, sizeof(*m->devs));
	if (!m->devs)
		return reel_errf(r->err, r->len, REEL_E_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (read_device(r, at(dv, i), &m->devs[i], i, m->nphases))
			return REEL_E_PARSE;
	return 0;
}

static int read_inflight(struct rd *r, const struct json_object *root, struct model *m)
{
	struct json_object *inf = get(root, "inflight");
	if (!json_object_is_type(inf, json_type_object))
		return 0;
	m->inflight.known = 1;
	opt_num(inf, "mean", &m->inflight.mean);
	opt_num(inf, "max", &m->inflight.max);
	if (read_dist(r, get(inf, "depth"), &m->inflight.depth, "inflight.depth") ||
	    read_dist(r, get(inf, "latency_ns"), &m->inflight.latency, "inflight.latency_ns"))
		return REEL_E_PARSE;
	return 0;
}

int model_read_json(struct model *m, const char *text, size_t len, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	if (model_json_is_gzip(text, len)) {
		char *plain;
		size_t plen;
		int e = model_json_inflate(text, len, &plain, &plen, err, errlen);
		if (e)
			return e;
		if (model_json_is_gzip(plain, plen)) /* once: no nesting */
			e = reel_errf(err, errlen, REEL_E_PARSE, "gzip inside gzip: not a model");
		else
			e = model_read_json(m, plain, plen, err, errlen);
		free(plain);
		return e;
	}
	struct rd r = {err, errlen};
	if (errlen)
		err[0] = 0;
	size_t k = 0, reel = len >= 4 && !memcmp(text, "\x04\x22\x4d\x18", 4);
	while (k < len && text[k] && strchr(" \t\r\n", text[k]))
		k++;
	if (reel || k == len || text[k] != '{') /* 'ioreel model gen TRACE.reel' */
		return reel_errf(err, errlen, REEL_E_PARSE,
				 "not a MODEL.json (%s; 'ioreel model fit TRACE.reel -o "
				 "MODEL.json' makes one)",
				 reel	    ? "a .reel trace"
				 : k == len ? "empty"
					    : "no JSON object");
	struct json_object *root = model_json_parse(text, len, err, errlen);
	if (!root)
		return REEL_E_PARSE;
	int e = read_top(&r, root, m);
	if (!e)
		e = read_phases(&r, root, m);
	if (!e)
		e = read_windows(&r, root, m);
	if (!e)
		e = read_devices(&r, root, m);
	if (!e)
		e = read_inflight(&r, root, m);
	json_object_put(root);
	if (e == REEL_E_PARSE)
		model_json_place(err, errlen, text, len);
	if (e)
		model_free(m);
	return e;
}

int model_load_file(struct model *m, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return reel_errf(err, errlen, REEL_E_IO, "%s: %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n == cap) {
			if (cap > MODEL_JSON_MAX_BYTES) {
				free(buf);
				fclose(f);
				return reel_errf(err, errlen, REEL_E_RANGE,
						 "%s: larger than %u bytes: not a model", path,
						 MODEL_JSON_MAX_BYTES);
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
	if (!buf)
		return reel_errf(err, errlen, REEL_E_NOMEM, "%s: out of memory", path);
	if (rerr) {
		free(buf);
		return reel_errf(err, errlen, REEL_E_IO, "%s: read error", path);
	}
	char e2[400];
	int e = model_read_json(m, buf, n, e2, sizeof(e2));
	free(buf);
	if (e) /* "FILE:LINE:COL: ..." where the message has a place */
		reel_errf(err, errlen, e, "%s:%s%s", path, isdigit((unsigned char)e2[0]) ? "" : " ",
			  e2);
	return e;
}
