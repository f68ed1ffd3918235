/*
 * formats/statistics.c - the statistics every comparison shares (`ioreel
 * compare` and `ioreel suite`): Student's t distribution through the
 * regularized incomplete beta function, means with 95% confidence
 * intervals, Welch's t test and Holm's step-down method, and the JSON
 * of a summary and a test.  Declared in formats/reel.h ("statistics of
 * repeated runs").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"

/* Continued fraction of the incomplete beta (modified Lentz), as in
 * Numerical Recipes' betacf. */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-13;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 400; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double reel_betai(double a, double b, double x)
{
	if (!(x > 0))
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	double bt = exp(lbt);
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double reel_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	double x = df / (df + t * t);
	double tail = 0.5 * reel_betai(df / 2, 0.5, x); /* P(T > |t|) */
	return t > 0 ? 1 - tail : tail;
}

double reel_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -reel_t_quantile(1 - p, df);
	double lo = 0, hi = 1;
	while (reel_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (reel_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void reel_summarize(const double *x, unsigned n, struct reel_sample_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	double sum = 0;
	s->min = s->max = x[0];
	for (unsigned i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->mean = sum / n;
	s->ci_lo = s->ci_hi = s->mean;
	if (n < 2)
		return;
	double ss = 0;
	for (unsigned i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = sqrt(ss / (n - 1));
	s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : 0;
	double h = reel_t_quantile(0.975, n - 1) * s->sd / sqrt(n);
	s->ci_lo = s->mean - h;
	s->ci_hi = s->mean + h;
}

/* Welch on the given values; rel_res as in reel.h */
static void welch_core(const double *a, unsigned na, const double *b, unsigned nb, double floor_a,
		       double floor_b, struct reel_welch *w)
{
	struct reel_sample_stats sa, sb;
	reel_summarize(a, na, &sa);
	reel_summarize(b, nb, &sb);
	memset(w, 0, sizeof(*w));
	w->p = 1;
	w->diff = w->diff_lo = w->diff_hi = sb.mean - sa.mean;
	if (na < 2 || nb < 2)
		return;
	double vara = fmax(sa.sd * sa.sd, floor_a), varb = fmax(sb.sd * sb.sd, floor_b);
	double va = vara / na, vb = varb / nb, se = sqrt(va + vb);
	if (!(se > 0)) {
		w->p = w->diff == 0 ? 1 : 0;
		return;
	}
	w->t = w->diff / se;
	w->df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
	w->p = 2 * (1 - reel_t_cdf(fabs(w->t), w->df));
	if (w->p > 1)
		w->p = 1;
	double h = reel_t_quantile(0.975, w->df) * se;
	w->diff_lo = w->diff - h;
	w->diff_hi = w->diff + h;
}

void reel_welch_test(const double *a, unsigned na, const double *b, unsigned nb, double rel_res,
		     int log_scale, struct reel_welch *w)
{
	double la[128], lb[128];
	int use_log = log_scale && na <= 128 && nb <= 128;
	for (unsigned i = 0; use_log && i < na; i++)
		use_log = a[i] > 0;
	for (unsigned i = 0; use_log && i < nb; i++)
		use_log = b[i] > 0;
	if (use_log) {
		for (unsigned i = 0; i < na; i++)
			la[i] = log(a[i]);
		for (unsigned i = 0; i < nb; i++)
			lb[i] = log(b[i]);
		/* a value read from a histogram bucket rel_res wide can be off by
		 * up to a bucket either way: uniform on [-w, w], variance w^2/3 */
		double f = log1p(rel_res) * log1p(rel_res) / 3;
		welch_core(la, na, lb, nb, f, f, w);
		w->log_scale = 1;
		w->pct = 100 * expm1(w->diff);
		w->pct_lo = 100 * expm1(w->diff_lo);
		w->pct_hi = 100 * expm1(w->diff_hi);
		return;
	}
	struct reel_sample_stats sa, sb;
	reel_summarize(a, na, &sa);
	reel_summarize(b, nb, &sb);
	double qa = rel_res * fabs(sa.mean), qb = rel_res * fabs(sb.mean);
	welch_core(a, na, b, nb, qa * qa / 3, qb * qb / 3, w);
	if (sa.mean != 0) {
		w->pct = 100 * w->diff / fabs(sa.mean);
		w->pct_lo = 100 * w->diff_lo / fabs(sa.mean);
		w->pct_hi = 100 * w->diff_hi / fabs(sa.mean);
	}
}

static int cmp_idx_p(const void *x, const void *y, void *arg)
{
	const double *p = arg;
	double a = p[*(const size_t *)x], b = p[*(const size_t *)y];
	return a < b ? -1 : a > b ? 1 : 0;
}

void reel_holm(const double *p, size_t n, double alpha, int *reject)
{
	size_t *ix = malloc((n ? n : 1) * sizeof(*ix));
	for (size_t i = 0; i < n; i++)
		reject[i] = 0;
	if (!ix)
		return; /* conservative: nothing significant */
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	qsort_r(ix, n, sizeof(*ix), cmp_idx_p, (void *)p);
	for (size_t k = 0; k < n; k++) {
		if (!(p[ix[k]] <= alpha / (double)(n - k)))
			break;
		reject[ix[k]] = 1;
	}
	free(ix);
}

/* ---- JSON of a summary and a test --------------------------------------- */
static void json_member(FILE *f, const char *sep, const char *key, double v, int digits,
			int compact)
{
	fprintf(f, "%s\"%s\":%s", sep, key, compact ? "" : " ");
	reel_json_num(f, v, digits);
}

void reel_json_interval(FILE *f, const char *key, double lo, double hi, int digits, int compact)
{
	fprintf(f, compact ? "\"%s\":[" : "\"%s\": [", key);
	reel_json_num(f, lo, digits);
	fputs(compact ? "," : ", ", f);
	reel_json_num(f, hi, digits);
	fputc(']', f);
}

void reel_json_summary(FILE *f, const struct reel_sample_stats *s, int digits, int compact)
{
	const char *sep = compact ? "," : ", ";
	fprintf(f, compact ? "\"n\":%u" : "\"n\": %u", s->n);
	json_member(f, sep, "mean", s->mean, digits, compact);
	json_member(f, sep, "sd", s->sd, digits, compact);
	fputs(sep, f);
	reel_json_interval(f, "ci95", s->ci_lo, s->ci_hi, digits, compact);
}

void reel_json_welch(FILE *f, const struct reel_welch *w, int digits, int compact)
{
	const char *sep = compact ? "," : ", ";
	json_member(f, "", "t", w->t, digits, compact);
	json_member(f, sep, "df", w->df, digits, compact);
	json_member(f, sep, "p", w->p, digits, compact);
}
