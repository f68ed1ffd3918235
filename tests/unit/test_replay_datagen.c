/* Data generator: ratio:R within +-2% (LZ4, at the I/O size) for R 1..20
 * and sizes 4 KiB..1 MiB; stamps name offset, length, target, sequence;
 * dedupe repeats pieces; zero and pattern are exact; the histogram's
 * quantiles are within 1%. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

/* histograms take ns >= 0: an early issue counts as 0 */
static inline uint64_t ns_nonneg(int64_t v) { return v < 0 ? 0 : (uint64_t)v; }
#include "tests/unit/unit.h"

static void check_ratio(double R, size_t len, unsigned char *buf)
{
	char err[200];
	char spec[32];
	struct replay_data_spec s;
	snprintf(spec, sizeof spec, "ratio:%g", R);
	CHECK(replay_data_parse(spec, &s, err, sizeof err) == 0);
	struct replay_datagen *g;
	CHECK(replay_datagen_create(&g, &s) == 0);
	/* several blocks at different offsets and sequence numbers */
	for (int k = 0; k < 4; k++) {
		replay_datagen_fill(g, buf, len, (uint64_t)k * 7 * 1048576 + 4096 * k, (uint16_t)k,
				    12345 + 977 * k);
		double r = replay_lz4_ratio(buf, len);
		if (fabs(r / R - 1) > 0.02) {
			fprintf(stderr,
				"ratio:%g len %zu block %d: LZ4 ratio %.4f (off by %.2f%%)\n", R,
				len, k, r, 100 * (r / R - 1));
			exit(1);
		}
	}
	replay_datagen_destroy(g);
}

static int cmp(const void *a, const void *b)
{
	int64_t d = *(const int64_t *)a - *(const int64_t *)b;
	return d < 0 ? -1 : d > 0;
}

int main(void)
{
	unsigned char *buf = aligned_alloc(4096, 1 << 20);
	CHECK(buf);
	static const double Rs[] = {1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10, 12, 15, 17, 20};
	static const size_t sizes[] = {4096,  8192,   12288,  16384,  32768,
				       65536, 131072, 262144, 1048576};
	for (size_t i = 0; i < sizeof Rs / sizeof Rs[0]; i++)
		for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++)
			check_ratio(Rs[i], sizes[j], buf);

	/* stamps: every 4 KiB piece names its offset, the length and seq */
	char err[200];
	struct replay_data_spec s;
	CHECK(replay_data_parse("random", &s, err, sizeof err) == 0);
	struct replay_datagen *g;
	CHECK(replay_datagen_create(&g, &s) == 0);
	replay_datagen_fill(g, buf, 10240, 1 << 20, 3, 99);
	for (int p = 0; p < 3; p++) {
		struct replay_stamp st;
		CHECK_EQ(replay_stamp_read(buf + 4096 * p, &st), 1);
		CHECK_EQ(st.offset, (1 << 20) + 4096 * p);
		CHECK_EQ(st.length, 10240);
		CHECK_EQ(st.target, 3);
		CHECK_EQ(st.piece, p);
		CHECK_EQ(st.seq, 99);
	}
	CHECK(replay_lz4_ratio(buf, 10240) < 1.01);
	/* two blocks differ (unique data) */
	unsigned char *b2 = malloc(10240);
	replay_datagen_fill(g, b2, 10240, 1 << 20, 3, 100);
	CHECK(memcmp(buf + 64, b2 + 64, 4000) != 0);
	replay_datagen_destroy(g);

	/* dedupe 50: about half the pieces are duplicate-stamped */
	CHECK(replay_data_parse("ratio:3", &s, err, sizeof err) == 0);
	s.dedupe_pct = 50;
	CHECK(replay_datagen_create(&g, &s) == 0);
	int dup = 0, tot = 0;
	for (int k = 0; k < 200; k++) {
		replay_datagen_fill(g, buf, 65536, (uint64_t)k << 16, 0, k);
		for (int p = 0; p < 16; p++, tot++) {
			struct replay_stamp st;
			int t = replay_stamp_read(buf + 4096 * p, &st);
			CHECK(t == 1 || t == 2);
			dup += t == 2;
		}
	}
	CHECK(dup > tot * 40 / 100 && dup < tot * 60 / 100);
	replay_datagen_destroy(g);

	/* zero and pattern are exact */
	CHECK(replay_data_parse("pattern:deadbeef01", &s, err, sizeof err) == 0);
	CHECK_EQ(s.pattern_len, 5);
	CHECK(replay_datagen_create(&g, &s) == 0);
	replay_datagen_fill(g, buf, 65536, 0, 0, 0);
	static const unsigned char pat[] = {0xde, 0xad, 0xbe, 0xef, 0x01};
	for (size_t i = 0; i < 65536; i++)
		if (buf[i] != pat[(i % 4095) % 5]) {
			fprintf(stderr, "pattern byte %zu\n", i);
			return 1;
		}
	replay_datagen_destroy(g);
	CHECK(replay_data_parse("zero", &s, err, sizeof err) == 0);
	CHECK(replay_datagen_create(&g, &s) == 0);
	memset(buf, 1, 8192);
	replay_datagen_fill(g, buf, 8192, 0, 0, 0);
	for (int i = 0; i < 8192; i++)
		CHECK(buf[i] == 0);
	replay_datagen_destroy(g);
	CHECK(replay_data_parse("ratio:0.5", &s, err, sizeof err) < 0);
	CHECK(replay_data_parse("pattern:abc", &s, err, sizeof err) < 0);
	CHECK(replay_data_parse("pattern:zz", &s, err, sizeof err) < 0);
	CHECK(replay_data_parse("bogus", &s, err, sizeof err) < 0);

	/* histogram: quantiles within 1% of the exact ones */
	static struct reel_hist h;
	memset(&h, 0, sizeof(*(&h)));
	int64_t *v = malloc(100000 * sizeof *v);
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[i] = (int64_t)(x % 1000000000ull) / (1 + (int64_t)(x >> 60));
		reel_hist_add(&h, ns_nonneg(v[i]));
	}
	qsort(v, 100000, sizeof *v, cmp);
	static const double qs[] = {0.5, 0.9, 0.99, 0.999, 0.9999};
	for (int i = 0; i < 5; i++) {
		int64_t exact = v[(size_t)ceil(qs[i] * 100000) - 1];
		int64_t got = (int64_t)reel_hist_quantile(&h, qs[i]);
		if (fabs((double)got / (double)exact - 1) > 0.01) {
			fprintf(stderr, "q%g: %lld vs exact %lld\n", qs[i], (long long)got,
				(long long)exact);
			return 1;
		}
	}
	CHECK_EQ((int64_t)reel_hist_quantile(&h, 1), v[99999]);
	free(v);
	free(b2);
	free(buf);
	return 0;
}
