/* tests/unit/unit.h - tiny assertions for one-file unit tests (exit 0/1/77). */
#ifndef IOREEL_UNIT_H
#define IOREEL_UNIT_H
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)
#define CHECK_EQ(a, b)                                                                             \
	do {                                                                                       \
		long long _a = (long long)(a), _b = (long long)(b);                                \
		if (_a != _b) {                                                                    \
			fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__,        \
				__LINE__, #a, #b, _a, _b);                                         \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)
#define SKIP(...)                                                                                  \
	do {                                                                                       \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
		exit(77);                                                                          \
	} while (0)
/* The tests' one pseudo-random generator (xorshift64, uniform in [0, 1)),
 * on a state each test seeds itself. */
#include <stdint.h>
static inline double unit_urand(uint64_t *rs)
{
	*rs ^= *rs << 13;
	*rs ^= *rs >> 7;
	*rs ^= *rs << 17;
	return (double)(*rs >> 11) / 9007199254740992.0;
}

/* A whole number drawn uniformly in [0, n) from rs. */
static inline uint64_t unit_below(uint64_t *rs, double n) { return (uint64_t)(unit_urand(rs) * n); }

/* perm[0..n) a permutation of 0..n-1, shuffled (Fisher-Yates) from rs. */
static inline void unit_shuffle(int *perm, int n, uint64_t *rs)
{
	for (int i = 0; i < n; i++)
		perm[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(unit_urand(rs) * (i + 1)), x = perm[i];
		perm[i] = perm[j];
		perm[j] = x;
	}
}
#endif
