/*
 * A .reel read in two parts, a reader each (reel_reader_range: model fit's
 * first pass on two threads): the parts' records are the whole file's, the
 * first part ends where the second begins (reel_reader_offset), and the
 * first reader's device table, joined with the devices the second part's
 * chunks declare, is the whole read's; a rewind reads the whole file.
 * Model fit gives the same MODEL.json with its first pass split or not,
 * also when the index is wrong (the parts do not meet: the file is read
 * whole again).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"
#include "model/model.h"
#include "tests/unit/unit.h"

#define N 9000
#define CHUNKS 6 /* flushed at every 1500th record */

/* Sorted times, three devices: 0 in the header, 1 declared with chunk 1,
 * 2 (its capacity given) with chunk 4. */
static void write_trace(const char *path)
{
	struct reel_writer *w;
	struct reel_device d0 = {.id = 0, .name = "first"};
	struct reel_header h = {.source = "synthetic", .devices = &d0, .ndevices = 1};
	CHECK(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE) == 0);
	uint64_t rs = 42;
	int64_t t = 1000;
	for (uint64_t i = 0; i < N; i++) {
		if (i == 1500)
			CHECK(reel_writer_add_device(
				  w, &(struct reel_device){.id = 1, .name = "b"}) == 0);
		if (i == 6000) {
			CHECK(reel_writer_add_device(
				  w, &(struct reel_device){
					 .id = 2, .name = "c", .capacity = 1 << 30}) == 0);
		}
		t += 1000 * (int64_t)(1 + unit_urand(&rs) * 50);
		uint16_t dev = (uint16_t)(i < 1500 ? 0 : i < 6000 ? i % 2 : i % 3);
		struct reel_rec r = {
		    .has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE | REEL_HAS_DEV,
		    .queue_ns = t,
		    .issue_ns = t + 100,
		    .complete_ns = t + 100000,
		    .offset = (uint64_t)(unit_urand(&rs) * 65536) * 4096,
		    .length = 4096u << (i % 4),
		    .op = (uint8_t)(i % 3 == 0),
		    .dev = dev,
		};
		CHECK(reel_write(w, &r) == 0);
		if ((i + 1) % 1500 == 0 && i + 1 < N)
			CHECK(reel_writer_flush(w) == 0);
	}
	CHECK(reel_writer_close(w) == 0);
}

/* The records of R to its end into V from *K on. */
static void read_all(struct reel_reader *r, struct reel_rec *v, size_t *k)
{
	struct reel_rec y;
	int rc;
	while ((rc = reel_read(r, &y)) > 0) {
		CHECK(*k < N);
		v[(*k)++] = y;
	}
	CHECK_EQ(rc, 0);
}

static void same_devices(const struct reel_header *a, const struct reel_header *b)
{
	CHECK_EQ(a->ndevices, b->ndevices);
	for (size_t i = 0; i < a->ndevices; i++) {
		CHECK_EQ(a->devices[i].id, b->devices[i].id);
		CHECK(!strcmp(a->devices[i].name, b->devices[i].name));
		CHECK_EQ(a->devices[i].capacity, b->devices[i].capacity);
	}
}

/* Every split point: the two parts' records and devices are the whole's;
 * *MEET: the first chunk's byte offset at split 3 (for test_wrong_index). */
static void test_parts(const char *path, struct reel_rec *whole, struct reel_rec *parts,
		       uint64_t *meet)
{
	struct reel_reader *w, *a, *b;
	size_t n = 0;
	CHECK(reel_reader_open(&w, path, 0) == 0);
	read_all(w, whole, &n);
	CHECK_EQ(n, N);
	CHECK_EQ(reel_reader_nchunks(w), CHUNKS);
	CHECK_EQ(reel_reader_header(w)->ndevices, 3);
	for (uint64_t k = 1; k < CHUNKS; k++) {
		CHECK(reel_reader_open(&a, path, 0) == 0);
		CHECK(reel_reader_open(&b, path, 0) == 0);
		CHECK(reel_reader_range(b, k, CHUNKS) == 0);
		CHECK(reel_reader_range(a, 0, k) == 0);
		uint64_t at = reel_reader_offset(b);
		size_t m = 0;
		read_all(a, parts, &m);
		CHECK_EQ(m, k * 1500);
		CHECK_EQ(reel_reader_offset(a), at);
		read_all(b, parts, &m);
		CHECK_EQ(m, N);
		CHECK(!memcmp(whole, parts, N * sizeof(*whole)));
		CHECK(reel_reader_devices_join(a, b) == 0);
		same_devices(reel_reader_header(a), reel_reader_header(w));
		if (k == 3)
			*meet = at;
		/* rewound: the whole file */
		CHECK(reel_reader_rewind(b) == 0);
		m = 0;
		read_all(b, parts, &m);
		CHECK_EQ(m, N);
		CHECK(!memcmp(whole, parts, N * sizeof(*whole)));
		reel_reader_close(a);
		reel_reader_close(b);
	}
	CHECK_EQ(reel_reader_range(w, CHUNKS, CHUNKS + 1), REEL_E_ARG);
	CHECK_EQ(reel_reader_range(w, 2, 2), REEL_E_ARG);
	reel_reader_close(w);
}

/* PATH's MODEL.json (malloc'd), the first pass split (SPLIT) or not. */
static char *fit_json(const char *path, int split)
{
	struct model m;
	char err[512], *buf = NULL;
	size_t len = 0;
	setenv("IOREEL_FIT_READAHEAD", split ? "1" : "0", 1);
	if (model_fit_file(&m, path, NULL, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		CHECK(0);
	}
	FILE *f = open_memstream(&buf, &len);
	CHECK(f && model_write_json(&m, f) == 0);
	fclose(f);
	model_free(&m);
	unsetenv("IOREEL_FIT_READAHEAD");
	return buf;
}

static void test_fit_same(const char *path)
{
	char *one = fit_json(path, 0), *two = fit_json(path, 1);
	CHECK(!strcmp(one, two));
	CHECK(strstr(one, "\"b\"") && strstr(one, "\"c\""));
	free(one);
	free(two);
}

/* The index's offset of chunk 3 (AT) one byte on, in place (the offsets
 * still rise): the second part starts inside chunk 3, the parts do not
 * meet, and the fit reads the file whole. */
static void test_wrong_index(const char *path, uint64_t at)
{
	FILE *f = fopen(path, "r+b");
	CHECK(f && at + 1 < UINT32_MAX);
	CHECK(fseek(f, 0, SEEK_END) == 0);
	long size = ftell(f);
	unsigned char *p = malloc((size_t)size);
	CHECK(p && fseek(f, 0, SEEK_SET) == 0 && fread(p, 1, (size_t)size, f) == (size_t)size);
	/* [off, ...]: fixarray 4, then the offset as msgpack's uint16 or uint32 */
	int w = at + 1 < 65536 ? 2 : 4;
	unsigned char pat[6] = {0x94, w == 2 ? 0xcd : 0xce}, to[6];
	for (int i = 0; i < w; i++) {
		pat[2 + i] = (unsigned char)(at >> (8 * (w - 1 - i)));
		to[2 + i] = (unsigned char)((at + 1) >> (8 * (w - 1 - i)));
	}
	long hit = -1;
	for (long i = size - 1 - (2 + w); i > 0 && hit < 0; i--)
		if (!memcmp(p + i, pat, (size_t)(2 + w)))
			hit = i;
	CHECK(hit > 0);
	memcpy(p + hit + 2, to + 2, (size_t)w);
	CHECK(fseek(f, hit, SEEK_SET) == 0 &&
	      fwrite(p + hit, 1, (size_t)(2 + w), f) == (size_t)(2 + w));
	fclose(f);
	free(p);
	struct reel_reader *a, *b;
	CHECK(reel_reader_open(&a, path, 0) == 0);
	CHECK(reel_reader_open(&b, path, 0) == 0);
	CHECK(reel_reader_range(b, 3, CHUNKS) == 0);
	CHECK(reel_reader_range(a, 0, 3) == 0);
	CHECK_EQ(reel_reader_offset(b), at + 1);
	struct reel_rec y;
	while (reel_read(a, &y) > 0)
		;
	CHECK_EQ(reel_reader_offset(a), at);
	reel_reader_close(a);
	reel_reader_close(b);
	test_fit_same(path);
}

int main(void)
{
	char path[] = "/tmp/ioreel-range-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	write_trace(path);
	struct reel_rec *whole = malloc(N * sizeof(*whole)), *parts = malloc(N * sizeof(*parts));
	CHECK(whole && parts);
	memset(whole, 0, N * sizeof(*whole));
	memset(parts, 0, N * sizeof(*parts));
	uint64_t meet = 0;
	test_parts(path, whole, parts, &meet);
	test_fit_same(path);
	test_wrong_index(path, meet);
	free(whole);
	free(parts);
	unlink(path);
	return 0;
}
