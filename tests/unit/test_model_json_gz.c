/*
 * test_model_json_gz: the gzip-compressed MODEL.json.  A text of
 * MODEL_GZ_SPLIT bytes or more is written as one gzip member of two
 * deflated halves: it inflates to the same text (zlib checks the member's
 * CRC and length), the same bytes on one thread or two; a smaller one has
 * the bytes the old writer gave (zlib's gzip at level 9 in one stream).
 * The reader takes both the new files and the old writer's, of a model
 * of either size.
 */
#include <string.h>
#include <zlib.h>

#include "tests/unit/unit_model.h"

/* TEXT as the old writer (before the halves) gzipped it, into *GZ. */
static void old_gzip(const char *text, size_t len, char **gz, size_t *lg)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	CHECK(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) == Z_OK);
	size_t cap = deflateBound(&z, len) + 64;
	*gz = malloc(cap);
	CHECK(*gz != NULL);
	z.next_in = (unsigned char *)text;
	z.avail_in = (unsigned)len;
	z.next_out = (unsigned char *)*gz;
	z.avail_out = (unsigned)cap;
	CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
	*lg = cap - z.avail_out;
	deflateEnd(&z);
}

/* TEXT through model_json_deflate with IOREEL_FIT_READAHEAD=RA (one
 * thread or two), into *GZ. */
static void new_gzip(const char *text, size_t len, const char *ra, char **gz, size_t *lg)
{
	setenv("IOREEL_FIT_READAHEAD", ra, 1);
	*gz = NULL;
	FILE *f = open_memstream(gz, lg);
	CHECK(f && model_json_deflate(text, len, f) == 0 && fclose(f) == 0);
	unsetenv("IOREEL_FIT_READAHEAD");
}

/* GZ (LG bytes) is one gzip member and nothing after it (zlib, not the
 * reader under test: the header's magic and method, the trailer's CRC and
 * length checked by inflate), inflating to TEXT. */
static void one_member(const char *gz, size_t lg, const char *text, size_t len)
{
	CHECK(lg >= 18 && (unsigned char)gz[0] == 0x1f && (unsigned char)gz[1] == 0x8b &&
	      gz[2] == 8);
	z_stream z;
	memset(&z, 0, sizeof(z));
	CHECK(inflateInit2(&z, 15 + 16) == Z_OK); /* gzip only: one member */
	char *out = malloc(len + 1);
	CHECK(out != NULL);
	z.next_in = (unsigned char *)gz;
	z.avail_in = (unsigned)lg;
	z.next_out = (unsigned char *)out;
	z.avail_out = (unsigned)len + 1; /* room for one byte too many */
	CHECK(inflate(&z, Z_FINISH) == Z_STREAM_END);
	CHECK(z.avail_in == 0 && z.total_out == len); /* the member is the whole file */
	CHECK(!memcmp(out, text, len));
	inflateEnd(&z);
	free(out);
}

/* TEXT gzipped on one thread and on two (IOREEL_FIT_READAHEAD, which
 * fit_spare_core obeys): the same bytes, each one gzip member inflating
 * to TEXT; below MODEL_GZ_SPLIT the old writer's bytes.  Returns the
 * size. */
static size_t check_text(const char *text, size_t len)
{
	char *g1, *g2, *back, err[256];
	size_t l1, l2, lb;
	new_gzip(text, len, "0", &g1, &l1);
	new_gzip(text, len, "1", &g2, &l2);
	one_member(g1, l1, text, len);
	one_member(g2, l2, text, len);
	CHECK(l1 == l2 && !memcmp(g1, g2, l1));
	CHECK(model_json_is_gzip(g1, l1));
	CHECK(model_json_inflate(g1, l1, &back, &lb, err, sizeof(err)) == 0);
	CHECK(lb == len && !memcmp(back, text, len));
	free(back);
	if (len < MODEL_GZ_SPLIT) {
		char *old;
		size_t lo;
		old_gzip(text, len, &old, &lo);
		CHECK(lo == l1 && !memcmp(old, g1, lo));
		free(old);
	}
	CHECK(model_json_inflate(g1, l1 - 1, &back, &lb, err, sizeof(err)) != 0);
	g1[l1 - 4] ^= 0x01; /* the length */
	CHECK(model_json_inflate(g1, l1, &back, &lb, err, sizeof(err)) != 0);
	g1[l1 - 4] ^= 0x01;
	g1[l1 - 8] ^= 0x01; /* the CRC */
	CHECK(model_json_inflate(g1, l1, &back, &lb, err, sizeof(err)) != 0);
	free(g1);
	free(g2);
	return l1;
}

/* Text of LEN bytes, digits and a repeated stretch across the middle (a
 * match the second half finds in its dictionary). */
static void test_lengths(void)
{
	static const size_t lens[] = {0,
				      1,
				      100,
				      MODEL_GZ_SPLIT - 1,
				      MODEL_GZ_SPLIT,
				      MODEL_GZ_SPLIT + 1,
				      3 * MODEL_GZ_SPLIT + 7,
				      (1u << 20) + 1};
	uint64_t rs = 1234567;
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		size_t len = lens[k];
		char *t = malloc(len + 1);
		CHECK(t != NULL);
		for (size_t i = 0; i < len; i++)
			t[i] = i % 61 == 60 ? '\n' : (char)('0' + (int)(unit_urand(&rs) * 10));
		if (len > 4000)
			memcpy(t + len / 2, t + len / 2 - 3000, 2000);
		check_text(t, len);
		free(t);
	}
}

/* M's text on one thread (IOREEL_FIT_READAHEAD=0: the devices in order,
 * as before) and on two (=1: the second half of the devices, from 4 on,
 * written beside the rest and copied in): the same bytes, for M with its
 * first 1, 2, ... of its devices (the split from 4 on). */
static void check_devs_text(const struct model *m)
{
	for (size_t n = 1; n <= m->ndevs; n++) { /* its first N devices: odd, even, 3 and 4 */
		struct model k = *m;		 /* shares m's arrays: not freed */
		char *t1, *t2;
		size_t l1, l2;
		k.ndevs = n;
		setenv("IOREEL_FIT_READAHEAD", "0", 1);
		unit_model_json(&k, &t1, &l1);
		setenv("IOREEL_FIT_READAHEAD", "1", 1);
		unit_model_json(&k, &t2, &l2);
		unsetenv("IOREEL_FIT_READAHEAD");
		CHECK(l1 == l2 && !memcmp(t1, t2, l1));
		free(t1);
		free(t2);
	}
}

/* A corpus model, its MODEL.json gzipped by the old writer and by the
 * new: both read back to the same model (the same text). */
static void test_model(const char *name, int halves)
{
	struct model m, r;
	char *j, *j2, *old, *gz, err[512];
	size_t l, l2, lo, lg;
	unit_model_load_corpus(&m, name);
	check_devs_text(&m);
	unit_model_json(&m, &j, &l);
	CHECK(halves == (l >= MODEL_GZ_SPLIT));
	size_t n = check_text(j, l);
	old_gzip(j, l, &old, &lo);
	printf("%s: %zu bytes of text, %zu gzipped (%zu at level 9 in one stream)\n", name, l, n,
	       lo);
	gz = NULL;
	FILE *f = open_memstream(&gz, &lg);
	CHECK(f && model_write_json_gz(&m, f) == 0 && fclose(f) == 0);
	CHECK(lg == n);
	for (int z = 0; z < 2; z++) {
		if (model_read_json(&r, z ? gz : old, z ? lg : lo, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", name, err);
			exit(1);
		}
		unit_model_json(&r, &j2, &l2);
		CHECK(l2 == l && !memcmp(j, j2, l));
		free(j2);
		model_free(&r);
	}
	free(gz);
	free(old);
	free(j);
	model_free(&m);
}

int main(void)
{
	test_lengths();
	test_model("fiu_2phases", 0);
	test_model("disksim_16dev", 1);
	return 0;
}
