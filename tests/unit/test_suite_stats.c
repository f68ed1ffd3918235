/* The suite's statistics: t distribution against published values, the
 * confidence interval, Welch's test, Holm's method and the PTS rule. */
#include <math.h>
#include <string.h>

#include "suite/suite.h"
#include "tests/unit/unit.h"

#define NEAR(a, b, tol) CHECK(fabs((a) - (b)) <= (tol))

static void test_betai(void)
{
	NEAR(reel_betai(1, 1, 0.3), 0.3, 1e-12);    /* uniform */
	NEAR(reel_betai(2, 3, 0.4), 0.5248, 1e-10); /* 1-(1-x)^4-4x(1-x)^3 */
	NEAR(reel_betai(0.5, 0.5, 0.5), 0.5, 1e-10);
	CHECK(reel_betai(3, 4, 0) == 0 && reel_betai(3, 4, 1) == 1);
}

static void test_t_cdf(void)
{
	/* quantiles from standard t tables */
	NEAR(reel_t_cdf(12.706205, 1), 0.975, 1e-5);
	NEAR(reel_t_cdf(4.302653, 2), 0.975, 1e-5);
	NEAR(reel_t_cdf(2.776445, 4), 0.975, 1e-5);
	NEAR(reel_t_cdf(2.228139, 10), 0.975, 1e-5);
	NEAR(reel_t_cdf(2.575829, 1e6), 0.995, 1e-5); /* -> normal */
	NEAR(reel_t_cdf(1.0, 1), 0.75, 1e-12);	      /* Cauchy */
	NEAR(reel_t_cdf(-1.0, 1), 0.25, 1e-12);
	NEAR(reel_t_cdf(0, 7), 0.5, 1e-12);
	NEAR(reel_t_cdf(3.746947, 4), 0.99, 1e-5);
	NEAR(reel_t_quantile(0.975, 2), 4.302653, 1e-5);
	NEAR(reel_t_quantile(0.975, 30), 2.042272, 1e-5);
	NEAR(reel_t_quantile(0.025, 5), -2.570582, 1e-5);
	NEAR(reel_t_cdf(reel_t_quantile(0.975, 2.5), 2.5), 0.975, 1e-9); /* fractional df */
}

static void test_summary(void)
{
	double x[] = {10, 12, 14};
	struct reel_sample_stats s;
	reel_summarize(x, 3, &s);
	NEAR(s.mean, 12, 1e-12);
	NEAR(s.sd, 2, 1e-12);
	NEAR(s.ci_hi - s.mean, 4.302653 * 2 / sqrt(3), 1e-4);
	reel_summarize(x, 1, &s);
	CHECK(s.ci_lo == 10 && s.ci_hi == 10);
}

static void test_welch(void)
{
	/* Welch's test on two samples (a: n=10, b: n=20); t and df by hand,
	 * p by numerical integration of the t density: t = -2.2255,
	 * df = 24.5246, p = 0.035485 */
	double a[] = {19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0};
	double b[] = {28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
		      23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3};
	struct reel_welch w;
	reel_welch_test(b, 20, a, 10, 0, 0, &w);
	NEAR(w.t, -2.225512, 1e-5);
	NEAR(w.df, 24.524635, 1e-5);
	NEAR(w.p, 0.035485, 1e-5);
	CHECK(w.diff_lo < w.diff && w.diff < w.diff_hi && w.diff_hi < 0);
	/* identical quantised values: the resolution floor keeps p away from 0 */
	double q1[] = {100, 100, 100}, q2[] = {101, 101, 101};
	reel_welch_test(q1, 3, q2, 3, 0.01, 0, &w);
	CHECK(w.p > 0.05);
	reel_welch_test(q1, 3, q2, 3, 0.01, 1, &w);
	CHECK(w.p > 0.05);
	reel_welch_test(q1, 3, q2, 3, 0, 0, &w);
	CHECK(w.p == 0);
	reel_welch_test(q1, 3, q1, 3, 0, 1, &w);
	CHECK(w.p == 1);
	/* on logs: b = 2a in every repeat with 5% spread -> +100% */
	double la[] = {100, 105, 95}, lb[] = {200, 210, 190};
	reel_welch_test(la, 3, lb, 3, 0, 1, &w);
	CHECK(w.log_scale);
	NEAR(w.pct, 100, 1e-9);
	CHECK(w.pct_lo < 100 && w.pct_hi > 100 && w.pct_lo > 50 && w.p < 1e-3);
	/* a zero falls back to the linear test */
	double z[] = {0, 1, 2};
	reel_welch_test(z, 3, lb, 3, 0, 1, &w);
	CHECK(!w.log_scale);
}

static void test_holm(void)
{
	double p[] = {0.01, 0.04, 0.03, 0.005};
	int r[4];
	reel_holm(p, 4, 0.05, r);
	/* sorted: .005 <= .0125 yes, .01 <= .0167 yes, .03 <= .025 no -> stop */
	CHECK(r[3] && r[0] && !r[2] && !r[1]);
	double q[] = {0.2, 0.001};
	reel_holm(q, 2, 0.05, r);
	CHECK(!r[0] && r[1]);
}

static void test_steady(void)
{
	/* a drive that falls from 100k IOPS and settles near 40k */
	double conv[30];
	for (int i = 0; i < 30; i++)
		conv[i] = 40000 + 60000 * exp(-i / 2.0) + (i % 2 ? 300 : -300);
	struct suite_steady st;
	suite_steady_check(conv, 30, 5, 0.20, 0.10, &st);
	CHECK(st.reached);
	CHECK(st.round >= 5 && st.round < 15);
	/* the rule really holds in the window it names, and not in the one before */
	struct suite_steady st2;
	suite_steady_check(conv, st.round - 1, 5, 0.20, 0.10, &st2);
	CHECK(!st2.reached);
	/* a series that never settles: a steady 5%-per-round decline */
	double never[25];
	for (int i = 0; i < 25; i++)
		never[i] = 100000 * pow(0.95, i);
	suite_steady_check(never, 25, 5, 0.20, 0.10, &st);
	CHECK(!st.reached && st.round == 25);
	/* oscillating +-15%: range 30% > 20% */
	double osc[20];
	for (int i = 0; i < 20; i++)
		osc[i] = i % 2 ? 115 : 85;
	suite_steady_check(osc, 20, 5, 0.20, 0.10, &st);
	CHECK(!st.reached);
	/* fewer rounds than the window */
	suite_steady_check(conv, 4, 5, 0.20, 0.10, &st);
	CHECK(!st.reached);
}

int main(void)
{
	test_betai();
	test_t_cdf();
	test_summary();
	test_welch();
	test_holm();
	test_steady();
	return 0;
}
