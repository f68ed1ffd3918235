/*
 * test_model_key_sort: gen's radix sort of 64-bit keys (gen.c key_sort_w
 * through gen_key_sort: 8-bit digits below KEY_SORT_W11_MIN keys, 11-bit
 * from there) against a stable merge of (key, tag) pairs, both ways
 * (ascending, largest first): the same keys and tags in the same order.
 * Keys random over all 64 bits, over few bits (most digits shared and
 * skipped), doubles' order keys over a few binades (gaps), many ties
 * (the tags say whether the sort kept their order); N from 0 to 300,000,
 * around the threshold.  Tags of 32 bits.  Gaps sorted in place in an
 * array of doubles (sort_gaps' use: keys read and written by memcpy).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

struct kt {
	uint64_t k;
	uint32_t t;
};

static int desc_order;

static int kt_cmp(const void *x, const void *y)
{
	const struct kt *a = x, *b = y;
	if (a->k != b->k)
		return (a->k < b->k) != desc_order ? -1 : 1;
	return (a->t > b->t) - (a->t < b->t); /* stable: by tag, the first place */
}

static uint64_t rs = 0x6b657973ull;

static uint64_t key(int kind)
{
	uint64_t r =
	    (uint64_t)(unit_urand(&rs) * 0x1p53) << 11 ^ (uint64_t)(unit_urand(&rs) * 2048);
	double g;
	switch (kind) {
	case 0: /* all 64 bits */
		return r;
	case 1: /* few bits: 12 low ones */
		return r & 0xfff;
	case 2: /* few values: ties */
		return (r % 37) * 0x0101010101010101ull;
	default: /* a gap's order key: 1e2 to 1e9 */
		g = 100 * pow(1e7, unit_urand(&rs));
		memcpy(&r, &g, sizeof(r));
		return r | 1ull << 63;
	}
}

static int dbl_asc(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Gaps (doubles >= 0, as sort_gaps hands them over) sorted in place as
 * their bits, the scratch an array of doubles too: the order of a qsort
 * by value, both ways; the gaps' ties (and zeros) kept. */
static void test_doubles(void)
{
	static const size_t ns[] = {0, 1, 2, 100, 4095, 4096, 100000};
	for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]); ni++)
		for (int desc = 0; desc < 2; desc++) {
			size_t n = ns[ni];
			double *v = malloc((n + 1) * sizeof(*v)),
			       *tmp = malloc((n + 1) * sizeof(*tmp));
			double *r = malloc((n + 1) * sizeof(*r));
			CHECK(v && tmp && r);
			for (size_t i = 0; i < n; i++) {
				double u = unit_urand(&rs);
				v[i] = r[i] = u < 0.1 ? 0 : u < 0.3 ? 2500 : 100 * pow(1e7, u);
			}
			qsort(r, n, sizeof(*r), dbl_asc);
			gen_key_sort(v, tmp, NULL, NULL, n, desc);
			for (size_t i = 0; i < n; i++)
				CHECK(v[i] == r[desc ? n - 1 - i : i]);
			free(v);
			free(tmp);
			free(r);
		}
	printf("gaps sorted in place as their bits: qsort's order\n");
}

int main(void)
{
	static const size_t ns[] = {0,	  1,	2,    3,     255,   256,   1000,
				    4095, 4096, 4097, 10000, 65536, 300000};
	size_t runs = 0;
	for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]); ni++)
		for (int kind = 0; kind < 4; kind++)
			for (int desc = 0; desc < 2; desc++, runs++) {
				size_t n = ns[ni];
				uint64_t *a = malloc((2 * n + 1) * sizeof(*a));
				uint32_t *ta = malloc((2 * n + 1) * sizeof(*ta));
				struct kt *r = malloc((n + 1) * sizeof(*r));
				CHECK(a && ta && r);
				for (size_t i = 0; i < n; i++) {
					a[i] = r[i].k = key(kind);
					ta[i] = r[i].t = (uint32_t)i;
				}
				desc_order = desc;
				qsort(r, n, sizeof(*r), kt_cmp);
				gen_key_sort(a, a + n, ta, ta + n, n, desc);
				for (size_t i = 0; i < n; i++)
					CHECK(a[i] == r[i].k && ta[i] == r[i].t);
				free(a);
				free(ta);
				free(r);
			}
	printf("%zu sorts: the same keys and tags\n", runs);
	test_doubles();
	return 0;
}
