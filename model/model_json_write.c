/*
 * model/model_json_write.c - MODEL.json, the writer: a small emitter, one
 * field a line so a person can read it.  model/MODEL.md documents the
 * fields; model_json_read.c reads them back.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"
#include "model/model.h"

const char *const model_op_key[REEL_OP__COUNT] = {"read", "write", "discard", "flush",
						  "write_zeroes"};
const char *const model_family_key[3] = {"exponential", "lognormal", "hyperexp2"};

static void num(FILE *f, double v)
{
	if (!isfinite(v))
		v = 0;
	if (v == floor(v) && fabs(v) < 1e17) {
		fprintf(f, "%.0f", v);
		return;
	}
	char b[40]; /* the shortest text that reads back exactly */
	for (int prec = 9; prec <= 17; prec++) {
		snprintf(b, sizeof(b), "%.*g", prec, v);
		if (strtod(b, NULL) == v)
			break;
	}
	fputs(b, f);
}

static void dist(FILE *f, const struct model_dist *d, int top)
{
	/* the mean to 9 digits: gen uses it only as a scale */
	fprintf(f, "{\"n\": %llu, \"mean\": %.9g", (unsigned long long)d->n,
		isfinite(d->mean) ? d->mean : 0);
	if (top) {
		fprintf(f, ", \"top\": [");
		int first = 1;
		for (uint32_t i = 0; i + 1 < d->nk; i++)
			if (d->v[i] == d->v[i + 1] && d->c[i + 1] - d->c[i] >= 0.01) {
				fprintf(f, "%s[", first ? "" : ",");
				num(f, d->v[i]);
				fprintf(f, ",%.3g]", d->c[i + 1] - d->c[i]);
				first = 0;
			}
		fprintf(f, "]");
	}
	fprintf(f, ", \"cdf\": [");
	for (uint32_t i = 0; i < d->nk; i++) {
		fprintf(f, "%s[", i ? "," : "");
		num(f, d->v[i]);
		fprintf(f, ",%.6g]", d->c[i]);
	}
	fprintf(f, "]}");
}

void model_write_bmodel(FILE *f, const double *b)
{
	fprintf(f, "{");
	int first = 1;
	for (int k = 0; k <= REEL_OP__COUNT; k++) {
		if (b[k] < 0)
			continue;
		fprintf(f, "%s\"%s\": %.4f", first ? "" : ", ", k ? model_op_key[k - 1] : "all",
			b[k]);
		first = 0;
	}
	fprintf(f, "}");
}

static void write_windows(const struct model *m, FILE *f)
{
	fprintf(f, "  \"windows\": {\n    \"count\": %zu,\n    \"window_ns\": %.0f,\n", m->nwin,
		(double)m->duration_ns / (double)m->nwin);
	/* one phase: every window's is 0, left out (blktrace's model: 12 of its
	 * 2,307 bytes, under its trace's 2,310 with its regions' local odds) */
	if (m->nphases > 1) {
		fprintf(f, "    \"phase\": [");
		for (size_t i = 0; i < m->nwin; i++)
			fprintf(f, "%s%u", i ? "," : "", m->win_phase[i]);
		fprintf(f, "],\n");
	}
	fprintf(f, "    \"ops\": {");
	for (int o = 0, first = 1; o < REEL_OP__COUNT; o++) {
		uint64_t tot = 0;
		for (size_t i = 0; i < m->nwin; i++)
			tot += m->win_ops[i * REEL_OP__COUNT + o];
		if (!tot)
			continue;
		fprintf(f, "%s\n      \"%s\": [", first ? "" : ",", model_op_key[o]);
		for (size_t i = 0; i < m->nwin; i++)
			fprintf(f, "%s%u", i ? "," : "", m->win_ops[i * REEL_OP__COUNT + o]);
		fprintf(f, "]");
		first = 0;
	}
	fprintf(f, "}");
	for (size_t k = 0; k < m->nkept; k++) { /* [window, first, last, knots...] */
		const struct model_kept_window *kw = &m->kept[k];
		fprintf(f, "%s[%u,%u,%u", k ? "," : ",\n    \"kept\": [", kw->w, kw->first_ppm,
			kw->last_ppm);
		for (uint32_t j = 0; j < kw->nknot; j++)
			if (kw->knot_io[0]) /* [its I/O, its place] */
				fprintf(f, ",[%u,%u]", kw->knot_io[j], kw->knot[j]);
			else
				fprintf(f, ",%u", kw->knot[j]);
		fprintf(f, "]");
	}
	fprintf(f, "%s\n  },\n", m->nkept ? "]" : "");
}

static void matrix(FILE *f, const double *m, int n)
{
	for (int a = 0; a < n; a++) {
		fprintf(f, "%s[", a ? "," : "");
		for (int b = 0; b < n; b++)
			fprintf(f, "%s%.5g", b ? "," : "", m[a * n + b]);
		fprintf(f, "]");
	}
}

/* One row [bucket, 8 values] per count bucket the phase has windows of,
 * each value to DIG significant digits; SKIP_HALF: not the rows of 0.5
 * only (the reader's default). */
static void class_rows(FILE *f, const struct model_phase *ph, const double (*v)[MODEL_CLASSES],
		       int dig, int skip_half)
{
	for (int b = 0, first = 1; b < MODEL_CNT_BUCKETS; b++) {
		double t = 0;
		int half = 1;
		for (int c = 0; c < MODEL_CLASSES; c++) {
			t += ph->class_by_count[b][c];
			half &= v[b][c] == 0.5;
		}
		if (!(t > 0) || (skip_half && half))
			continue;
		fprintf(f, "%s[%d", first ? "" : ",", b);
		for (int c = 0; c < MODEL_CLASSES; c++)
			fprintf(f, ",%.*g", dig, v[b][c]);
		fprintf(f, "]");
		first = 0;
	}
}

static void write_interarrival(const struct model_phase *ph, FILE *f)
{
	fprintf(f, "},\n      \"interarrival\": {\n        \"zero_fraction\": %.6f,\n",
		ph->gap_zero);
	fprintf(f, "        \"best_family\": %s%s%s,\n        \"families\": {",
		ph->best_family >= 0 ? "\"" : "",
		ph->best_family >= 0 ? model_family_key[ph->best_family] : "null",
		ph->best_family >= 0 ? "\"" : "");
	if (ph->best_family >= 0) {
		const struct model_family *fm = ph->fam;
		fprintf(f,
			"\n          \"exponential\": {\"mean_ns\": %.6g, \"loglik\": %.6g, "
			"\"aic\": %.6g},",
			fm[0].p[0], fm[0].loglik, fm[0].aic);
		fprintf(f,
			"\n          \"lognormal\": {\"mu\": %.6g, \"sigma\": %.6g, "
			"\"loglik\": %.6g, \"aic\": %.6g},",
			fm[1].p[0], fm[1].p[1], fm[1].loglik, fm[1].aic);
		fprintf(f,
			"\n          \"hyperexp2\": {\"p\": %.6g, \"mean1_ns\": %.6g, "
			"\"mean2_ns\": %.6g, \"loglik\": %.6g, \"aic\": %.6g}",
			fm[2].p[0], fm[2].p[1], fm[2].p[2], fm[2].loglik, fm[2].aic);
	}
	fprintf(f, "},\n        \"gap_ns\": ");
	dist(f, &ph->gap, 0);
	fprintf(f, ",\n        \"lead_ppm\": ");
	dist(f, &ph->lead, 0);
	fprintf(f, ",\n        \"class_next\": [");
	matrix(f, &ph->gap_next[0][0], MODEL_CLASSES);
	fprintf(f, "],\n        \"class_by_count\": [");
	class_rows(f, ph, ph->class_by_count, 4, 0);
	fprintf(f, "]");
	int fitted = 0; /* buckets of enough windows (none in small traces) */
	for (int b = 1; b < MODEL_CNT_BUCKETS; b++)
		fitted |= ph->compact[b] >= 0;
	if (fitted) {
		fprintf(f, ",\n        \"class_position\": [");
		class_rows(f, ph, ph->class_pos, 2, 1); /* a mean position: 0.01 is plenty */
		fprintf(f, "],\n        \"class_compact\": [");
		for (int b = 1, first = 1; b < MODEL_CNT_BUCKETS; b++)
			if (ph->compact[b] >= 0) {
				fprintf(f, "%s[%d,%.3g,%.3g]", first ? "" : ",", b, ph->compact[b],
					ph->top_rest[b]);
				first = 0;
			}
		fprintf(f, "]");
	}
	if (ph->class_disp > 0)
		fprintf(f, ",\n        \"class_dispersion\": %.4f", ph->class_disp);
	if (ph->burst.nk) { /* left out where the chain's lengths pass */
		fprintf(f, ",\n        \"burst_len\": ");
		dist(f, &ph->burst, 0);
	}
	fprintf(f, "\n      },\n");
}

/* The share of each size segment that continues a run, two decimals
 * (0.005 is below what a KS target of 0.05 can see; one where the
 * segment holds fewer than 100 I/O, whose share is not known closer);
 * one number when
 * every segment has the same; ops whose shares are all 0 left out, and
 * the field when every op is. */
static double seq_round(const struct model_phase *ph, int o, uint32_t k)
{
	const struct model_dist *d = &ph->size[o];
	double q = (d->c[k + 1] - d->c[k]) * (double)d->n < 100 ? 10 : 100;
	return round(ph->seq_share[o][k] * q) / q;
}
static int seq_same(const struct model_phase *ph, int o, double *x)
{
	int same = 1;
	*x = seq_round(ph, o, 0);
	for (uint32_t k = 1; k + 1 < ph->size[o].nk; k++)
		same &= seq_round(ph, o, k) == *x;
	return same;
}
static void write_seq_share(const struct model_phase *ph, FILE *f)
{
	if (!ph->seq_fitted)
		return;
	int first = 1;
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		double x;
		if (o == REEL_OP_FLUSH || ph->size[o].nk < 2 || (seq_same(ph, o, &x) && x == 0))
			continue;
		fprintf(f, "%s\"%s\": ", first ? "\n      \"seq_share\": {" : ", ",
			model_op_key[o]);
		first = 0;
		if (seq_same(ph, o, &x)) {
			fprintf(f, "%.2g", x);
			continue;
		}
		fprintf(f, "[");
		for (uint32_t k = 0; k + 1 < ph->size[o].nk; k++)
			fprintf(f, "%s%.2g", k ? "," : "", seq_round(ph, o, k));
		fprintf(f, "]");
	}
	if (!first)
		fprintf(f, "},");
}

static void write_phase(const struct model_phase *ph, int last, FILE *f)
{
	/* the rate (for people) to 6 digits: a small model stays below its trace */
	fprintf(f,
		"    {\n      \"ios\": %llu,\n      \"windows\": %llu,\n      \"rate_iops\": %.6g",
		(unsigned long long)ph->ios, (unsigned long long)ph->windows,
		isfinite(ph->rate) ? ph->rate : 0);
	fprintf(f, ",\n      \"op_mix\": {");
	for (int o = 0, first = 1; o < REEL_OP__COUNT; o++)
		if (ph->op_mix[o] > 0) {
			fprintf(f, "%s\"%s\": %.6f", first ? "" : ", ", model_op_key[o],
				ph->op_mix[o]);
			first = 0;
		}
	fprintf(f, "},\n      \"op_next\": [");
	matrix(f, &ph->op_next[0][0], REEL_OP__COUNT);
	fprintf(f, "],");
	write_seq_share(ph, f);
	fprintf(f, "\n      \"sizes\": {");
	for (int o = 0, first = 1; o < REEL_OP__COUNT; o++)
		if (ph->size[o].nk) {
			fprintf(f, "%s\n        \"%s\": ", first ? "" : ",", model_op_key[o]);
			dist(f, &ph->size[o], 1);
			first = 0;
		}
	write_interarrival(ph, f);
	fprintf(f, "      \"bmodel\": ");
	model_write_bmodel(f, ph->bmodel);
	fprintf(f, "\n    }%s\n", last ? "" : ",");
}

/* Whether the runs starting in some region are on average a quarter
 * longer or shorter than the device's (else run_mean is left out: gen
 * draws every run from the device's lengths alone). */
static int run_mean_differ(const struct model_devspace *d)
{
	for (uint32_t r = 0; d->run_mean_fitted && r < d->nregions; r++)
		if (d->run_mean[r] > 0 && fabs(d->run_mean[r] / d->run.mean - 1) > 0.25)
			return 1;
	return 0;
}

static void write_regions(const struct model_devspace *d, FILE *f)
{
	fprintf(f, ",\n      \"regions\": {\n        \"bounds\": [");
	for (uint32_t r = 0; r <= d->nregions; r++)
		fprintf(f, "%s%llu", r ? "," : "", (unsigned long long)d->bound[r]);
	fprintf(f, "],\n        \"weights\": [");
	for (uint32_t r = 0; r < d->nregions; r++)
		fprintf(f, "%s%.6g", r ? "," : "", d->weight[r]);
	if (run_mean_differ(d)) {
		fprintf(f, "],\n        \"run_mean\": [");
		for (uint32_t r = 0; r < d->nregions; r++)
			fprintf(f, "%s%.3g", r ? "," : "", d->run_mean[r]);
	}
	if (d->read_share_fitted) {
		fprintf(f, "],\n        \"read_share\": [");
		for (uint32_t r = 0; r < d->nregions; r++)
			fprintf(f, "%s%.3g", r ? "," : "", d->read_share[r]);
	}
	for (int k = 0; k < 2; k++) {
		if (!d->p_local_fitted || !d->p_local_op[k])
			continue;
		fprintf(f, "],\n        \"%s\": [", k ? "p_local_write" : "p_local_read");
		for (uint32_t r = 0; r < d->nregions; r++)
			fprintf(f, "%s%.2g", r ? "," : "", d->p_local_r[k][r]);
	}
	if (d->fresh_share_fitted) {
		fprintf(f, "],\n        \"fresh_share\": [");
		for (uint32_t r = 0; r < d->nregions; r++)
			fprintf(f, "%s%.3g", r ? "," : "", d->fresh_share[r]);
	}
	for (int k = 0; d->seg_fitted && k < MODEL_SEGS; k++) {
		fprintf(f, k ? "],\n          [" : "],\n        \"seg_weights\": [\n          [");
		for (uint32_t r = 0; r < d->nregions; r++)
			fprintf(f, "%s%.3g", r ? "," : "", d->seg_w[k][r]);
		if (k == MODEL_SEGS - 1)
			fprintf(f, "]");
	}
	if (d->nblk) {
		fprintf(f, "],\n        \"chain_blocks\": [");
		for (uint32_t k = 0; k <= d->nblk; k++)
			fprintf(f, "%s%u", k ? "," : "", d->blk[k]);
	}
	fprintf(f, "],\n        \"transitions\": [");
	int first = 1;
	for (uint32_t r = 0; r < (d->nblk ? d->nblk : d->nregions); r++)
		for (uint32_t x = d->row[r]; x < d->row[r + 1]; x++) {
			double p = d->tr_p[x] - (x > d->row[r] ? d->tr_p[x - 1] : 0);
			fprintf(f, "%s[%u,%u,%.5g]", first ? "" : ",", r, d->tr_to[x], p);
			first = 0;
		}
	fprintf(f, "]\n      }");
}

/* The re-use share of run starts by size class, where one differs from
 * p_reuse by more than 0.1 (classes without starts hold p_reuse) on a
 * device of hot blocks (gen uses them there only). */
static void reuse_sizes(FILE *f, const struct model_devspace *d)
{
	int differ = 0;
	if (d->p_reuse < MODEL_REUSE_HOT)
		return;
	for (int k = 0; k < MODEL_REUSE_SIZES; k++)
		differ |= fabs(d->p_reuse_size[k] - d->p_reuse) > 0.1;
	if (!differ)
		return;
	fprintf(f, ",\n      \"p_reuse_size\": [");
	for (int k = 0; k < MODEL_REUSE_SIZES; k++)
		fprintf(f, "%s%.2g", k ? ", " : "", d->p_reuse_size[k]);
	fprintf(f, "]");
}

/* D at five knots, its quartiles (the least, 25%, the median, 75%, the
 * most): a small trace's reuse distances (16 to 31 re-uses) in a few
 * bytes.  Without them gen goes back to any earlier I/O (blkparse: 21
 * re-uses, all 8-127 I/O back, a third generated under 8) or takes local
 * jumps onto the blocks just touched (compile: its re-uses 32-255 back,
 * 31% generated 1-31). */
static struct model_dist quartiles(const struct model_dist *d)
{
	struct model_dist q = {.n = d->n, .mean = d->mean, .nk = 5};
	for (uint32_t k = 0; k < q.nk; k++) {
		q.c[k] = k / 4.0;
		q.v[k] = round(model_dist_inv(d, q.c[k]));
	}
	return q;
}

/* p_near's distances, from 8 near starts: their quartiles under 32 (a
 * few of disksim's disks' 2-12 near starts a disk). */
static void near_dists(FILE *f, const struct model_devspace *d)
{
	fprintf(f, ",\n      \"p_near\": %.3g", d->p_near);
	if (d->near_back.n < 8)
		return;
	struct model_dist q = quartiles(&d->near_back);
	fprintf(f, ",\n      \"near_back\": ");
	dist(f, d->near_back.n < 32 ? &q : &d->near_back, 0);
	q = quartiles(&d->near_jump);
	fprintf(f, ",\n      \"near_jump\": ");
	dist(f, d->near_jump.n < 32 ? &q : &d->near_jump, 0);
}

/* What the device keeps where the trace had it: its longest runs, its
 * re-use pass, its hot blocks' periods and their order with each place's
 * size. */
static void write_kept(const struct model_devspace *d, FILE *f)
{
	for (uint32_t i = 0; i < d->nlong; i++) { /* [offset, length, bytes, at(, head)] */
		fprintf(f, "%s[%llu,%u,%llu,%.3f", i ? "," : ",\n      \"long_runs\": [",
			(unsigned long long)d->longrun[i].off, d->longrun[i].len,
			(unsigned long long)d->longrun[i].bytes, d->longrun[i].at);
		if (d->longrun[i].head)
			fprintf(f, ",%llu", (unsigned long long)d->longrun[i].head);
		fprintf(f, "]");
	}
	if (d->nlong)
		fprintf(f, "]");
	if (d->npass) { /* the I/O count, then per I/O [index step, write, offset step, length] */
		uint64_t pa = 0, po = 0; /* in 512-byte units */
		fprintf(f, ",\n      \"reuse_pass\": [%llu", (unsigned long long)d->pass_n);
		for (uint32_t i = 0; i < d->npass; i++) {
			const struct model_pass_io *p = &d->pass[i];
			fprintf(f, "%s%llu,%u,%lld,%u", i % 8 ? "," : ",\n        ",
				(unsigned long long)(p->at - pa), p->write,
				(long long)((p->off >> 9) - po), p->len >> 9);
			pa = p->at;
			po = p->off >> 9;
		}
		fprintf(f, "]");
		if (d->pass_burst)
			fprintf(f, ",\n      \"reuse_pass_burst\": 1");
	}
	for (uint32_t i = 0; i < d->ncycle; i++) { /* [offset, from, to, quantiles] */
		const struct model_cycle *c = &d->cycle[i];
		fprintf(f, "%s[%llu,%.3f,%.3f", i ? ",\n        " : ",\n      \"hot_cycle\": [",
			(unsigned long long)c->off, c->from, c->to);
		for (int q = 0; q < MODEL_CYCLE_Q; q++)
			fprintf(f, ",%.6g", c->q[q]);
		fprintf(f, "]");
	}
	if (d->ncycle)
		fprintf(f, "]");
	for (uint32_t i = 0; i < d->norder; i++)
		fprintf(f, "%s%u", i ? "," : ",\n      \"hot_order\": [", d->order[i]);
	if (d->norder)
		fprintf(f, "]");
	for (uint32_t i = 0; i < d->norder; i++)
		fprintf(f, "%s%u", i ? "," : ",\n      \"hot_order_len\": [", d->order_len[i]);
	if (d->norder)
		fprintf(f, "]");
}

static void write_device(const struct model_devspace *d, size_t nph, int last, FILE *f)
{
	fprintf(f, "    {\n      \"id\": %u,\n      \"name\": ", d->id);
	reel_json_str(f, d->name);
	fprintf(f, ",\n      \"capacity\": %llu,\n      \"extent\": %llu,\n      \"align\": %u,\n",
		(unsigned long long)d->capacity, (unsigned long long)d->extent, d->align);
	fprintf(f, "      \"share\": %.6g,\n      \"hot10\": %.4g,\n", d->share, d->hot10);
	fprintf(f, "      \"rw_overlap\": {\"read\": %.4g, \"write\": %.4g},\n", d->rw_overlap_read,
		d->rw_overlap_write);
	if (d->gap.nk) { /* the device's own arrivals */
		fprintf(f, "      \"gap_ns\": ");
		dist(f, &d->gap, 0);
		fprintf(f, ",\n");
	}
	fprintf(f, "      \"runs\": ");
	dist(f, &d->run, 1);
	fprintf(f, ",\n      \"jumps\": ");
	dist(f, &d->jump, 0);
	fprintf(f, ",\n      \"local_limit\": %llu,\n      \"p_local\": %.6g",
		(unsigned long long)d->local_limit, d->p_local);
	if (d->p_resume > 0)
		fprintf(f, ",\n      \"p_resume\": %.3g", d->p_resume);
	if (d->op_bias_fitted)
		fprintf(f, ",\n      \"op_bias\": [%.3g, %.3g]", d->op_bias[0], d->op_bias[1]);
	if (d->dsize[0].nk || d->dsize[1].nk) { /* the device's own sizes: reads, the others */
		fprintf(f, ",\n      \"own_sizes\": {");
		for (int k = 0, first = 1; k < 2; k++)
			if (d->dsize[k].nk) {
				fprintf(f, "%s\n        \"%s\": ", first ? "" : ",",
					k ? "others" : "read");
				dist(f, &d->dsize[k], 1);
				first = 0;
			}
		fprintf(f, "}");
	}
	if (d->p_near > 0)
		near_dists(f, d);
	fprintf(f, ",\n      \"local_jumps\": ");
	dist(f, &d->local, 0);
	write_kept(d, f);
	if (d->reuse_fitted) /* the distance only from 32 re-uses: small traces stay small */
		fprintf(f, ",\n      \"p_reuse\": %.4g", d->p_reuse);
	if (d->reuse_fitted && d->p_unread >= MODEL_UNREAD) /* the ten traces before it: none */
		fprintf(f, ",\n      \"p_unread\": %.4g", d->p_unread);
	/* the ops' odds from 8 re-uses: a small trace's re-uses are of one op */
	if (d->reuse_fitted && d->reuse_dist.n >= 8 &&
	    fabs(d->p_reuse_op[0] - d->p_reuse) + fabs(d->p_reuse_op[1] - d->p_reuse) > 0.02)
		fprintf(f, ",\n      \"p_reuse_rw\": [%.2g, %.2g]", d->p_reuse_op[0],
			d->p_reuse_op[1]);
	/* by phase where they differ: gen uses them on a device neither hot
	 * nor with a re-use pass */
	if (d->reuse_fitted && d->reuse_ph_fitted && d->reuse_dist.n >= 32 &&
	    !model_pass_alone(d) && d->p_reuse < MODEL_REUSE_HOT)
		for (size_t p = 0; p < nph; p++)
			fprintf(f, "%s[%.2g, %.2g]%s", p ? ", " : ",\n      \"p_reuse_phase\": [",
				d->p_reuse_ph[p][0], d->p_reuse_ph[p][1], p + 1 == nph ? "]" : "");
	if (d->reuse_fitted && d->reuse_dist.n >= 16 && d->reuse_dist.n < 32) {
		fprintf(f, ",\n      \"reuse_distance\": ");
		struct model_dist q = quartiles(&d->reuse_dist);
		dist(f, &q, 0);
	}
	if (d->reuse_fitted && d->reuse_dist.n >= 32) {
		fprintf(f, ",\n      \"reuse_distance\": ");
		dist(f, &d->reuse_dist, 0);
		if (d->reuse_dist_w.nk) {
			fprintf(f, ",\n      \"reuse_distance_write\": ");
			dist(f, &d->reuse_dist_w, 0);
		}
		/* the re-using runs' mean length where it differs from the runs' */
		if (d->reuse_run > 0 && fabs(d->reuse_run / d->run.mean - 1) > 0.25) {
			fprintf(f, ",\n      \"reuse_run\": [%.3g, %.2g]", d->reuse_run,
				d->reuse_cont);
			if (fabsf(d->reuse_run_op[0] - d->reuse_run_op[1]) > 0.25f * d->reuse_run)
				fprintf(f, ",\n      \"reuse_run_rw\": [%.3g, %.3g]",
					d->reuse_run_op[0], d->reuse_run_op[1]);
			if (fabsf(d->reuse_cont_op[0] - d->reuse_cont) +
				fabsf(d->reuse_cont_op[1] - d->reuse_cont) >
			    0.02f)
				fprintf(f, ",\n      \"reuse_cont_rw\": [%.2g, %.2g]",
					d->reuse_cont_op[0], d->reuse_cont_op[1]);
		}
		reuse_sizes(f, d);
	}
	fprintf(f, ",\n      \"offsets\": ");
	dist(f, &d->addr, 1);
	write_regions(d, f);
	fprintf(f, "\n    }%s\n", last ? "" : ",");
}

/* Devices [a, b) of M as write_device writes them, into a text of their
 * own (BUF, LEN; ERR: 0, or the text is to be written again). */
struct devs_text {
	const struct model *m;
	size_t a, b;
	char *buf;
	size_t len;
	int err;
};
/* M's devices A up to B, each one's text (the last without its comma) */
static void write_devices(const struct model *m, size_t a, size_t b, FILE *f)
{
	for (size_t k = a; k < b; k++)
		write_device(&m->devs[k], m->nphases, k + 1 == m->ndevs, f);
}
static void *devs_text_run(void *arg)
{
	struct devs_text *t = arg;
	FILE *f = open_memstream(&t->buf, &t->len);
	if (!f) {
		t->err = REEL_E_NOMEM;
		return NULL;
	}
	write_devices(t->m, t->a, t->b, f);
	t->err = ferror(f) ? REEL_E_IO : 0;
	if (fclose(f) && !t->err)
		t->err = REEL_E_NOMEM;
	return NULL;
}

/* From this many devices on, the second half of them is written on a
 * second thread (fit_spare_core) beside the rest of the text, and copied
 * in after the first half: the same text.  The devices are most of a
 * large model's text (disksim's 16 at 10M I/O: 2.5 of 2.6 MB, the
 * `transitions` rows; 0.45 G instructions of printf on the main thread
 * after the fit). */
#define JSON_DEVS_SPLIT_MIN 4

int model_write_json(const struct model *m, FILE *f)
{
	struct devs_text dt = {.m = m, .a = m->ndevs, .b = m->ndevs};
	pthread_t th;
	int two = 0;
	if (m->ndevs >= JSON_DEVS_SPLIT_MIN && fit_spare_core()) {
		dt.a = m->ndevs / 2;
		if (!(two = !pthread_create(&th, NULL, devs_text_run, &dt)))
			dt.a = m->ndevs;
	}
	fprintf(f, "{\n  \"format\": \"ioreel-model\",\n  \"version\": 1,\n");
	fprintf(f, "  \"naive\": %s,\n  \"source\": ", m->naive ? "true" : "false");
	reel_json_str(f, m->source);
	fprintf(f, ",\n  \"count\": %llu,\n  \"duration_ns\": %lld,\n  \"quantum_ns\": %lld,\n",
		(unsigned long long)m->count, (long long)m->duration_ns, (long long)m->quantum_ns);
	if (m->gap_cascade > 0)
		fprintf(f, "  \"gap_cascade\": %.3g,\n", m->gap_cascade);
	fprintf(f, "  \"bmodel\": ");
	model_write_bmodel(f, m->bmodel);
	fprintf(f, ",\n  \"pqrs\": [%.4f, %.4f, %.4f, %.4f],\n", m->pqrs[0], m->pqrs[1], m->pqrs[2],
		m->pqrs[3]);
	write_windows(m, f);
	fprintf(f, "  \"phases\": [\n");
	for (size_t p = 0; p < m->nphases; p++)
		write_phase(&m->phases[p], p + 1 == m->nphases, f);
	fprintf(f, "  ],\n  \"devices\": [\n");
	write_devices(m, 0, dt.a, f);
	if (two) {
		pthread_join(th, NULL);
		if (!dt.err)
			fwrite(dt.buf, 1, dt.len, f);
		else /* no text of its own: here after all */
			write_devices(m, dt.a, m->ndevs, f);
		free(dt.buf);
	}
	fprintf(f, "  ],\n  \"inflight\": ");
	if (m->inflight.known) {
		fprintf(f, "{\n    \"mean\": %.4f,\n    \"max\": %.0f,\n    \"depth\": ",
			m->inflight.mean, m->inflight.max);
		dist(f, &m->inflight.depth, 0);
		fprintf(f, ",\n    \"latency_ns\": ");
		dist(f, &m->inflight.latency, 0);
		fprintf(f, "\n  }\n}\n");
	} else {
		fprintf(f, "null\n}\n");
	}
	return ferror(f) ? REEL_E_IO : 0;
}
