/*
 * test_model_gap_order: gen_gaps_beyond (gen.c, redraw_gaps' order of the
 * gaps it may redraw: those past the mean M, by a radix sort of their
 * keys and places) gives the places the old code read: a qsort of all N
 * gaps by (gap, place), then from the low end while the gap is below M,
 * or from the high end while above.  Random gaps (spread over many
 * binades, near M, whole numbers from a few so that most tie), with
 * zeros of both signs, negatives and infinities mixed in, M at a gap's
 * value, between, beyond all, infinite or NaN; N from 0 to 200,000.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* ---- the old order: all gaps by (gap, place), then one end ---- */
struct gap_at {
	double v;
	size_t i;
};

static int gap_at_cmp(const void *x, const void *y)
{
	const struct gap_at *a = x, *b = y;
	return a->v < b->v ? -1 : a->v > b->v ? 1 : (a->i > b->i) - (a->i < b->i);
}

/* The places the old loop read, in its reading order, into W; how many. */
static size_t old_order(const double *x, size_t n, double m, int above, size_t *w)
{
	struct gap_at *o = malloc((n ? n : 1) * sizeof(*o));
	CHECK(o);
	for (size_t i = 0; i < n; i++)
		o[i] = (struct gap_at){x[i], i};
	qsort(o, n, sizeof(*o), gap_at_cmp);
	size_t k = 0;
	if (above)
		for (size_t j = n; j-- > 0 && o[j].v > m;)
			w[k++] = o[j].i;
	else
		for (size_t j = 0; j < n && o[j].v < m; j++)
			w[k++] = o[j].i;
	free(o);
	return k;
}

static void check_one(const double *x, size_t n, double m, size_t *w)
{
	uint64_t *keys = malloc((2 * n + 1) * sizeof(*keys));
	CHECK(keys);
	for (int above = 0; above < 2; above++) {
		size_t k = old_order(x, n, m, above, w), nb = 0;
		uint32_t *o = gen_gaps_beyond(x, n, m, above, keys, &nb);
		CHECK(o);
		CHECK_EQ(nb, k);
		for (size_t j = 0; j < k; j++) /* the new reads the old's way round */
			CHECK_EQ(o[above ? k - 1 - j : j], w[j]);
		free(o);
	}
	free(keys);
}

static double draw_gap(int kind, uint64_t *rs)
{
	double u = unit_urand(rs);
	switch (kind) {
	case 0: /* many binades */
		return ldexp(0.5 + u / 2, (int)(unit_urand(rs) * 80) - 40);
	case 1: /* near 1 */
		return 1 + (u - 0.5) * 1e-12;
	case 2: /* a few whole numbers: ties */
		return floor(u * 6);
	default: { /* the odd ones */
		static const double odd[] = {0.0, -0.0, -1.5, -1e-300, INFINITY, -INFINITY, 1, 3};
		return odd[(int)(u * 8)];
	}
	}
}

static void test_random(void)
{
	static const size_t sizes[] = {0, 1, 2, 3, 5, 17, 256, 257, 1000, 4097, 200000};
	uint64_t rs = 0x9e3779b97f4a7c15ull;
	size_t cap = 200000;
	double *x = malloc(cap * sizeof(*x));
	size_t *w = malloc(cap * sizeof(*w));
	CHECK(x && w);
	long runs = 0;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
		for (int rep = 0; rep < (sizes[s] > 5000 ? 3 : 40); rep++) {
			size_t n = sizes[s];
			int mix = rep % 5; /* 0-2: one kind; 3: all kinds; 4: kinds 0-2 */
			for (size_t i = 0; i < n; i++)
				x[i] = draw_gap(
				    mix < 3 ? mix : (int)(unit_urand(&rs) * (mix == 3 ? 4 : 3)),
				    &rs);
			double sum = 0;
			for (size_t i = 0; i < n; i++)
				sum += isfinite(x[i]) ? x[i] : 0;
			double ms[] = {n ? sum / (double)n : 0,
				       n ? x[(size_t)(unit_urand(&rs) * (double)n)] : 1,
				       2,
				       0,
				       -0.0,
				       1,
				       1e300,
				       -1e300,
				       INFINITY,
				       -INFINITY,
				       NAN};
			for (size_t j = 0; j < sizeof(ms) / sizeof(*ms); j++, runs++)
				check_one(x, n, ms[j], w);
		}
	printf("%ld orders the same\n", runs);
	free(x);
	free(w);
}

int main(void)
{
	test_random();
	return 0;
}
