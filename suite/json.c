/*
 * suite/json.c - summary.json: the drives with their identity and states,
 * every cell with each drive's per-metric summary and raw repeat values,
 * and every comparison with its test, p-value and verdict.  Non-finite
 * numbers are written as null.
 */
#include <math.h>
#include <string.h>

#include "suite/suite.h"

static void jkey(FILE *f, const char *k)
{
	reel_json_str(f, k);
	fputc(':', f);
}

static void json_drive(FILE *f, const struct suite_opts *o, const struct suite_results *res,
		       size_t d)
{
	const struct suite_drive *x = &o->drives[d];
	const struct suite_plan *p = o->plan;
	fputs("{", f);
	const char *sk[] = {"name",   "path",	  "kernel_name", "model",
			    "serial", "firmware", "scheduler"};
	const char *sv[] = {x->name,   x->path,	    x->kname,	 x->model,
			    x->serial, x->firmware, x->scheduler};
	for (size_t i = 0; i < sizeof(sk) / sizeof(sk[0]); i++) {
		jkey(f, sk[i]);
		reel_json_str(f, sv[i]);
		fputc(',', f);
	}
	fprintf(f,
		"\"capacity\":%llu,\"logical_block_size\":%u,\"physical_block_size\":%u,"
		"\"rotational\":%u,\"nr_requests\":%u,\"max_sectors_kb\":%u,\"states\":{",
		(unsigned long long)x->capacity, x->lbs, x->pbs, x->rotational, x->nr_requests,
		x->max_sectors_kb);
	for (size_t s = 0; s < p->nstates; s++) {
		const struct suite_state_info *si = &res->state[d][p->states[s]];
		jkey(f, suite_state_name(p->states[s]));
		fputs("{\"method\":", f);
		reel_json_str(f, si->method);
		fprintf(f, ",\"done\":%d,\"fill_gib\":", si->done);
		reel_json_num(f, si->fill_gib, 6);
		fputs(",\"seconds\":", f);
		reel_json_num(f, si->seconds, 6);
		if (p->states[s] == SUITE_STATE_STEADY) {
			fprintf(f, ",\"steady_rounds\":%u,\"steady_reached\":%s,\"round_iops\":[",
				si->rounds, si->steady_reached ? "true" : "false");
			for (unsigned r = 0; r < si->rounds; r++) {
				fputs(r ? "," : "", f);
				reel_json_num(f, si->steady_iops[r], 6);
			}
			fputc(']', f);
		}
		fputs(s + 1 < p->nstates ? "}," : "}", f);
	}
	fputs("}}", f);
}

static void json_metric(FILE *f, const struct suite_opts *o, const struct suite_results *res,
			size_t c, size_t d, int m)
{
	const struct suite_plan *p = o->plan;
	struct reel_sample_stats s;
	suite_cell_summary(o, res, c, d, m, &s);
	jkey(f, suite_metric_key(m));
	fputc('{', f);
	reel_json_summary(f, &s, 6, 1);
	fputs(",\"values\":[", f);
	for (unsigned r = 0; r < p->repeats; r++) {
		const struct suite_run_metrics *rm =
		    &res->runs[(c * o->ndrives + d) * p->repeats + r];
		fputs(r ? "," : "", f);
		reel_json_num(f, rm->copies ? rm->m[m] : NAN, 6);
	}
	fputs("]}", f);
}

static void json_cell(FILE *f, const struct suite_opts *o, const struct suite_results *res,
		      size_t c)
{
	const struct suite_plan *p = o->plan;
	const struct suite_cell *cl = &res->cells[c];
	char label[256];
	suite_cell_label(p, cl, label, sizeof(label));
	fprintf(f, "{\"index\":%zu,\"label\":", c);
	reel_json_str(f, label);
	fputs(",\"trace\":", f);
	reel_json_str(f, p->w[cl->w].name);
	fputs(",\"qd\":", f);
	reel_json_str(f, p->qd[cl->qd]);
	fputs(",\"data\":", f);
	reel_json_str(f, p->data[cl->data]);
	fputs(",\"timing\":", f);
	reel_json_str(f, p->timing[cl->timing].name);
	fprintf(f, ",\"state\":\"%s\",\"drives\":[", suite_state_name(cl->state));
	for (size_t d = 0; d < o->ndrives; d++) {
		const struct suite_run_metrics *r0 = &res->runs[(c * o->ndrives + d) * p->repeats];
		double busy = 0, ratio = 0, issue = -1;
		int host = 0;
		unsigned n = 0;
		for (unsigned r = 0; r < p->repeats; r++)
			if (r0[r].copies) {
				busy += r0[r].busy_s;
				ratio += r0[r].ratio;
				issue = fmax(issue, r0[r].issue_p99_us);
				host |= r0[r].host_bound;
				n++;
			}
		fputs(d ? ",{" : "{", f);
		jkey(f, "drive");
		reel_json_str(f, o->drives[d].name);
		fprintf(f, ",\"runs\":%u,\"trace_copies\":%u,\"busy_s_mean\":", n, r0[0].copies);
		reel_json_num(f, n ? busy / n : NAN, 6);
		fputs(",\"lz4_ratio\":", f);
		reel_json_num(f, n && ratio > 0 ? ratio / n : NAN, 6);
		fputs(",\"issue_error_p99_us\":", f);
		reel_json_num(f, issue >= 0 ? issue : NAN, 6);
		fprintf(f, ",\"host_bound\":%s,\"metrics\":{", host ? "true" : "false");
		for (int m = 0; m < SUITE__NMETRICS; m++) {
			fputs(m ? "," : "", f);
			json_metric(f, o, res, c, d, m);
		}
		fputs("}}", f);
	}
	fputs("]}", f);
}

static void json_cmp(FILE *f, const struct suite_opts *o, const struct suite_cmp *k)
{
	fprintf(f, "{\"cell\":%zu,\"metric\":\"%s\",\"a\":", k->cell, suite_metric_key(k->metric));
	reel_json_str(f, o->drives[k->a].name);
	fputs(",\"b\":", f);
	reel_json_str(f, o->drives[k->b].name);
	fputs(",\"diff_pct\":", f);
	reel_json_num(f, k->w.pct, 6);
	fputc(',', f);
	reel_json_interval(f, "ci95_pct", k->w.pct_lo, k->w.pct_hi, 6, 1);
	fputc(',', f);
	reel_json_welch(f, &k->w, 6, 1);
	fprintf(f, ",\"significant\":%s,\"verdict\":\"%s\"}", k->significant ? "true" : "false",
		!k->significant ? "within noise"
		: k->better > 0 ? "b better"
				: "b worse");
}

int suite_report_json(const struct suite_opts *o, const struct suite_results *res,
		      const struct suite_verdicts *v, FILE *f)
{
	const struct suite_plan *p = o->plan;
	fputs("{\"ioreel_version\":", f);
	reel_json_str(f, o->version);
	fputs(",\"host\":", f);
	reel_json_str(f, res->host);
	fputs(",\"kernel\":", f);
	reel_json_str(f, res->kernel);
	fprintf(f, ",\"start_unix_ns\":%lld,\"end_unix_ns\":%lld,\"interrupted\":%s,\"plan\":{",
		(long long)res->start_unix_ns, (long long)res->end_unix_ns,
		res->interrupted ? "true" : "false");
	jkey(f, "path");
	reel_json_str(f, p->path);
	fputs(",\"text\":", f);
	reel_json_str(f, p->text);
	fprintf(f, ",\"repeats\":%u,\"min_busy_s\":", p->repeats);
	reel_json_num(f, p->min_busy_s, 6);
	fprintf(f, ",\"fit\":\"%s\",\"traces\":[", p->fit);
	for (size_t w = 0; w < p->nw; w++) {
		fputs(w ? ",{\"name\":" : "{\"name\":", f);
		reel_json_str(f, p->w[w].name);
		fputs(",\"path\":", f);
		reel_json_str(f, p->w[w].trace);
		fprintf(f, ",\"ios\":%llu,\"extent_bytes\":%llu,\"offsets_moved_on\":[",
			(unsigned long long)p->w[w].ios, (unsigned long long)p->w[w].extent);
		char how[128];
		for (size_t d = 0, k = 0; d < o->ndrives; d++)
			if (suite_fit_describe(p, w, &o->drives[d], how, sizeof(how))) {
				fputs(k++ ? "," : "", f);
				reel_json_str(f, o->drives[d].name);
			}
		fputs("]}", f);
	}
	fputc(']', f);
	fprintf(f,
		"},\"statistics\":{\"test\":\"welch t on log values, "
		"two-sided\",\"correction\":\"holm\","
		"\"alpha\":%g,\"comparisons\":%zu,\"significant\":%zu,"
		"\"headline_comparisons\":%zu,\"headline_significant\":%zu,\"ci\":0.95,"
		"\"issue_error_limit_us\":%g,\"max_cv\":%g},\"drives\":[",
		p->alpha, v->n, v->nsig, v->nhead, v->nhead_sig, p->issue_error_limit_us,
		p->max_cv);
	for (size_t d = 0; d < o->ndrives; d++) {
		fputs(d ? "," : "", f);
		json_drive(f, o, res, d);
	}
	fputs("],\"cells\":[", f);
	for (size_t c = 0; c < res->ncells; c++) {
		fputs(c ? ",\n" : "\n", f);
		json_cell(f, o, res, c);
	}
	fputs("],\"comparisons\":[", f);
	for (size_t i = 0; i < v->n; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_cmp(f, o, &v->cmp[i]);
	}
	fputs("]}\n", f);
	return ferror(f) ? -5 : 0;
}
