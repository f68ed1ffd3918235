/*
 * suite/stats.c - the SNIA PTS steady-state rule.  The statistics of the
 * comparison (t distribution, confidence intervals, Welch, Holm) are
 * formats/statistics.c's, shared with `ioreel compare`.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

/* Does the window y[end-window, end) meet the rule? */
static int steady_window(const double *y, size_t end, unsigned window, double range_frac,
			 double slope_frac, struct suite_steady *o)
{
	const double *v = y + end - window;
	double sum = 0, mn = v[0], mx = v[0], sx = 0, sxy = 0, sxx = 0;
	for (unsigned i = 0; i < window; i++) {
		sum += v[i];
		mn = fmin(mn, v[i]);
		mx = fmax(mx, v[i]);
	}
	double avg = sum / window, xm = (window - 1) / 2.0;
	for (unsigned i = 0; i < window; i++) {
		sx += (i - xm) * (i - xm);
		sxy += (i - xm) * (v[i] - avg);
	}
	sxx = sx;
	double slope = sxx > 0 ? sxy / sxx : 0;
	o->avg = avg;
	o->range = mx - mn;
	o->excursion = fabs(slope) * (window - 1);
	return avg > 0 && o->range <= range_frac * avg && o->excursion <= slope_frac * avg;
}

int suite_steady_check(const double *y, size_t n, unsigned window, double range_frac,
		       double slope_frac, struct suite_steady *out)
{
	memset(out, 0, sizeof(*out));
	out->round = n;
	if (window < 2)
		return REEL_E_ARG;
	for (size_t end = window; end <= n; end++)
		if (steady_window(y, end, window, range_frac, slope_frac, out)) {
			out->reached = 1;
			out->round = end;
			return 0;
		}
	if (n >= window)
		steady_window(y, n, window, range_frac, slope_frac, out);
	return 0;
}
