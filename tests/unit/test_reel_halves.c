/*
 * A .reel read in two halves, a reader each (reel_reader_halve: model
 * fit's first pass on two threads).  The trailer's index says where the
 * second half begins, and an index can lie: the halves are taken only
 * when the reader proves them the whole read (the first from the header's
 * end to the second's first byte, the second to the trailer, their counts
 * the summary's), and model fit gives the whole read's MODEL.json or its
 * error either way.  Each lie: the index shifted by one chunk either way
 * (offsets rising, count matching the summary's: round 19's reviewer's
 * file, where pass 1 counted 7,500 of 9,000 records), a wrong first entry
 * (not used: the halves are still taken), every offset off by a byte, a
 * frame between the last chunk and the trailer, a summary count one off;
 * files of 1 and 2 chunks, stdin, devices declared late, a corrupt chunk
 * in either half, devices past the model's limit only when joined.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <msgpack.h>

#include "formats/reel.h"
#include "model/model.h"
#include "tests/unit/unit.h"

#define PER 1500 /* records a chunk */
#define MAXC 6

static char dir[] = "/tmp/ioreel-halves-XXXXXX";

/* A trace of CHUNKS chunks at PATH, sorted times: device 0 in the header,
 * 1 declared with chunk 1 and 2 (its capacity given) with the last chunk;
 * with MANY, devices 0-39 in the first half and 40-79 in the second. */
static void write_trace(const char *path, int chunks, int many)
{
	struct reel_writer *w;
	struct reel_device d0 = {.id = 0, .name = "first"};
	struct reel_header h = {.source = "synthetic", .devices = &d0, .ndevices = 1};
	CHECK(reel_writer_open(&w, path, -1, &h, REEL_W_OVERWRITE) == 0);
	uint64_t rs = 42, n = (uint64_t)chunks * PER;
	int64_t t = 1000;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t c = i / PER;
		if (i == PER)
			CHECK(reel_writer_add_device(
				  w, &(struct reel_device){.id = 1, .name = "b"}) == 0);
		if (i == (uint64_t)(chunks - 1) * PER + 700)
			CHECK(reel_writer_add_device(
				  w, &(struct reel_device){
					 .id = 2, .name = "c", .capacity = 1 << 30}) == 0);
		t += 1000 * (int64_t)(1 + unit_urand(&rs) * 50);
		uint16_t dev = (uint16_t)(many	   ? (c < (uint64_t)chunks / 2 ? 0 : 40) + i % 40
					  : c == 0 ? 0
					  : c + 1 < (uint64_t)chunks ? i % 2
								     : i % 3);
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
		if ((i + 1) % PER == 0 && i + 1 < n)
			CHECK(reel_writer_flush(w) == 0);
	}
	CHECK(reel_writer_close(w) == 0);
}

/* A file in memory: its bytes, the trailer's frame's byte and map. */
struct file {
	unsigned char *p;
	size_t size, at; /* at: the trailer's frame */
	msgpack_unpacked u;
	uint64_t off[MAXC], n; /* the index's chunk offsets */
};

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void file_load(struct file *f, const char *path)
{
	FILE *fp = fopen(path, "rb");
	CHECK(fp && fseek(fp, 0, SEEK_END) == 0);
	f->size = (size_t)ftell(fp);
	f->p = malloc(f->size);
	CHECK(f->p && fseek(fp, 0, SEEK_SET) == 0 && fread(f->p, 1, f->size, fp) == f->size);
	fclose(fp);
	uint32_t len = le32(f->p + f->size - 8);
	CHECK(!memcmp(f->p + f->size - 4, "RLIX", 4));
	f->at = f->size - 16 - len;
	msgpack_unpacked_init(&f->u);
	size_t o = 0;
	CHECK(msgpack_unpack_next(&f->u, (const char *)f->p + f->at + 8, len, &o) ==
	      MSGPACK_UNPACK_SUCCESS);
	const msgpack_object_map *m = &f->u.data.via.map;
	f->n = 0;
	for (uint32_t i = 0; i < m->size; i++)
		if (!strncmp(m->ptr[i].key.via.str.ptr, "index", 5)) {
			const msgpack_object_array *ix = &m->ptr[i].val.via.array;
			for (uint32_t j = 0; j < ix->size; j++)
				f->off[f->n++] = ix->ptr[j].via.array.ptr[0].via.u64;
		}
}

static void file_free(struct file *f)
{
	msgpack_unpacked_destroy(&f->u);
	free(f->p);
}

/* F written to PATH with its trailer's index offsets OFF (F's own when
 * NULL), the summary's count moved by DCOUNT, and GAP bytes of a
 * skippable frame of its own before the trailer. */
static void file_write(const struct file *f, const char *path, const uint64_t *off, int dcount,
		       int gap)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	const msgpack_object_map *m = &f->u.data.via.map;
	msgpack_pack_map(&pk, m->size);
	for (uint32_t i = 0; i < m->size; i++) {
		const msgpack_object_kv *kv = &m->ptr[i];
		msgpack_pack_object(&pk, kv->key);
		if (!strncmp(kv->key.via.str.ptr, "index", 5) && off) {
			const msgpack_object_array *ix = &kv->val.via.array;
			msgpack_pack_array(&pk, ix->size);
			for (uint32_t j = 0; j < ix->size; j++) {
				const msgpack_object_array *e = &ix->ptr[j].via.array;
				msgpack_pack_array(&pk, e->size);
				msgpack_pack_uint64(&pk, off[j]);
				for (uint32_t k = 1; k < e->size; k++)
					msgpack_pack_object(&pk, e->ptr[k]);
			}
		} else if (!strncmp(kv->key.via.str.ptr, "summary", 7)) {
			const msgpack_object_map *s = &kv->val.via.map;
			msgpack_pack_map(&pk, s->size);
			for (uint32_t j = 0; j < s->size; j++) {
				msgpack_pack_object(&pk, s->ptr[j].key);
				if (!strncmp(s->ptr[j].key.via.str.ptr, "count", 5))
					msgpack_pack_uint64(&pk, s->ptr[j].val.via.u64 + dcount);
				else
					msgpack_pack_object(&pk, s->ptr[j].val);
			}
		} else {
			msgpack_pack_object(&pk, kv->val);
		}
	}
	FILE *fp = fopen(path, "wb");
	unsigned char hd[8] = {0x5e, 0x2a, 0x4d, 0x18}, tail[8];
	CHECK(fp && fwrite(f->p, 1, f->at, fp) == f->at);
	if (gap) { /* a skippable frame of GAP zero bytes */
		hd[4] = (unsigned char)gap;
		hd[5] = hd[6] = hd[7] = 0;
		CHECK(fwrite(hd, 1, 8, fp) == 8);
		for (int i = 0; i < gap; i++)
			fputc(0, fp);
	}
	uint32_t len = (uint32_t)sb.size, flen = len + 8;
	for (int i = 0; i < 4; i++) {
		hd[4 + i] = (unsigned char)(flen >> (8 * i));
		tail[i] = (unsigned char)(len >> (8 * i));
	}
	memcpy(tail + 4, "RLIX", 4);
	CHECK(fwrite(hd, 1, 8, fp) == 8 && fwrite(sb.data, 1, sb.size, fp) == sb.size &&
	      fwrite(tail, 1, 8, fp) == 8);
	CHECK(fclose(fp) == 0);
	msgpack_sbuffer_destroy(&sb);
}

/* PATH's records read whole into V (N of them at most): their count. */
static size_t read_whole(const char *path, struct reel_rec *v, size_t n, struct reel_reader **keep)
{
	struct reel_reader *r;
	struct reel_rec y;
	size_t k = 0;
	int rc;
	CHECK(reel_reader_open(&r, path, 0) == 0);
	while ((rc = reel_read(r, &y)) > 0) {
		CHECK(k < n);
		v[k++] = y;
	}
	CHECK_EQ(rc, 0);
	*keep = r;
	return k;
}

/* PATH read in halves: -1 when it is not split, 1 when the halves are not
 * proved the whole read, 0 when they are (then their records, devices and
 * summary seen are the whole read's). */
static int halves(const char *path)
{
	static struct reel_rec whole[MAXC * PER + 1], parts[MAXC * PER + 1];
	struct reel_reader *w, *a, *b;
	struct reel_rec y;
	size_t n = read_whole(path, whole, MAXC * PER + 1, &w), k = 0;
	CHECK(reel_reader_open(&a, path, 0) == 0);
	if (reel_reader_halve(a, &b)) {
		CHECK(b == NULL);
		reel_reader_close(a);
		reel_reader_close(w);
		return -1;
	}
	while (k <= MAXC * PER && reel_read(a, &y) > 0)
		parts[k++] = y;
	while (k <= MAXC * PER && reel_read(b, &y) > 0)
		parts[k++] = y;
	int rc = reel_reader_halves_join(a, b);
	if (!rc) {
		CHECK_EQ(k, n);
		CHECK(!memcmp(whole, parts, n * sizeof(*whole)));
		const struct reel_header *ha = reel_reader_header(a), *hw = reel_reader_header(w);
		CHECK_EQ(ha->ndevices, hw->ndevices);
		for (size_t i = 0; i < ha->ndevices; i++) {
			CHECK_EQ(ha->devices[i].id, hw->devices[i].id);
			CHECK(!strcmp(ha->devices[i].name, hw->devices[i].name));
			CHECK_EQ(ha->devices[i].capacity, hw->devices[i].capacity);
		}
		struct reel_summary sa, sw;
		reel_reader_seen(a, &sa);
		reel_reader_seen(w, &sw);
		CHECK(!memcmp(&sa, &sw, sizeof(sa)));
		CHECK_EQ(reel_reader_complete(a), 1);
	}
	/* rewound: the whole file */
	CHECK(reel_reader_rewind(a) == 0);
	for (k = 0; reel_read(a, &y) > 0; k++)
		CHECK(k < n && !memcmp(&y, &whole[k], sizeof(y)));
	CHECK_EQ(k, n);
	reel_reader_close(a);
	reel_reader_close(b);
	reel_reader_close(w);
	return rc;
}

/* PATH's MODEL.json (malloc'd), or its error; the first pass split (SPLIT,
 * where it can be) or not. */
static char *fit_json(const char *path, int split)
{
	struct model m;
	char err[512], *buf = NULL;
	size_t len = 0;
	setenv("IOREEL_FIT_READAHEAD", split ? "1" : "0", 1);
	int e = model_fit_file(&m, path, NULL, err, sizeof(err));
	unsetenv("IOREEL_FIT_READAHEAD");
	if (e)
		return strdup(err);
	FILE *f = open_memstream(&buf, &len);
	CHECK(f && model_write_json(&m, f) == 0);
	fclose(f);
	model_free(&m);
	return buf;
}

/* The fit of PATH split or not: the same MODEL.json or the same error;
 * 1 when it is a model with the devices named in WANT ("" none). */
static int fit_same(const char *path, const char *want)
{
	char *one = fit_json(path, 0), *two = fit_json(path, 1);
	if (strcmp(one, two))
		fprintf(stderr, "%s:\n%.300s\n---\n%.300s\n", path, one, two);
	CHECK(!strcmp(one, two));
	int model = one[0] == '{';
	if (model && *want)
		CHECK(strstr(one, want) != NULL);
	free(one);
	free(two);
	return model;
}

/* Byte AT of PATH's copy TO flipped. */
static void corrupt(const struct file *f, const char *to, size_t at)
{
	FILE *fp = fopen(to, "wb");
	CHECK(fp && fwrite(f->p, 1, f->size, fp) == f->size);
	CHECK(fseek(fp, (long)at, SEEK_SET) == 0);
	fputc(f->p[at] ^ 0x5a, fp);
	CHECK(fclose(fp) == 0);
}

int main(void)
{
	CHECK(mkdtemp(dir));
	char path[256], lie[256];
	uint64_t o[MAXC];
	struct file f;
	snprintf(lie, sizeof(lie), "%s/lie.reel", dir);

	/* six chunks, devices declared in chunks 1 and 5 */
	snprintf(path, sizeof(path), "%s/six.reel", dir);
	write_trace(path, 6, 0);
	file_load(&f, path);
	CHECK_EQ(f.n, 6);
	CHECK_EQ(halves(path), 0);
	CHECK(fit_same(path, "\"c\""));
	/* the index as written, the trailer packed again: still proved */
	file_write(&f, lie, NULL, 0, 0);
	CHECK_EQ(halves(lie), 0);
	/* shifted on by a chunk (the last entry the trailer's byte) */
	for (int i = 0; i < 6; i++)
		o[i] = i < 5 ? f.off[i + 1] : f.at;
	file_write(&f, lie, o, 0, 0);
	CHECK_EQ(halves(lie), 1);
	CHECK(fit_same(lie, "\"c\""));
	/* shifted back by a chunk (the first entry the header's byte 1) */
	for (int i = 0; i < 6; i++)
		o[i] = i ? f.off[i - 1] : 1;
	file_write(&f, lie, o, 0, 0);
	CHECK_EQ(halves(lie), 1);
	CHECK(fit_same(lie, "\"c\""));
	/* a wrong first entry: not used, the halves still proved */
	memcpy(o, f.off, sizeof(o));
	o[0] += 7;
	file_write(&f, lie, o, 0, 0);
	CHECK_EQ(halves(lie), 0);
	CHECK(fit_same(lie, "\"c\""));
	/* the count right, every offset a byte on */
	for (int i = 0; i < 6; i++)
		o[i] = f.off[i] + 1;
	file_write(&f, lie, o, 0, 0);
	CHECK_EQ(halves(lie), 1);
	CHECK(fit_same(lie, "\"c\""));
	/* the second half's entry a chunk on only */
	memcpy(o, f.off, sizeof(o));
	o[3] = f.off[4];
	file_write(&f, lie, o, 0, 0);
	CHECK_EQ(halves(lie), 1);
	CHECK(fit_same(lie, "\"c\""));
	/* a frame between the last chunk and the trailer */
	file_write(&f, lie, NULL, 0, 16);
	CHECK_EQ(halves(lie), 1);
	CHECK(fit_same(lie, "\"c\""));
	/* chunk 3's copy hidden in a skippable frame before chunk 4, chunk 3
	 * gone, the index's half pointing at the copy: the second half's
	 * three chunks end at the trailer and the counts are the summary's,
	 * but the first half ends at the frame (the whole read has 7,500) */
	struct file g = f;
	size_t c3 = (size_t)(f.off[4] - f.off[3]);
	g.p = malloc(f.size + 8);
	CHECK(g.p);
	memcpy(g.p, f.p, f.off[3]);
	memcpy(g.p + f.off[3], (unsigned char[]){0x5e, 0x2a, 0x4d, 0x18}, 4);
	for (int i = 0; i < 4; i++)
		g.p[f.off[3] + 4 + i] = (unsigned char)(c3 >> (8 * i));
	memcpy(g.p + f.off[3] + 8, f.p + f.off[3], c3);
	memcpy(g.p + f.off[3] + 8 + c3, f.p + f.off[4], f.at - f.off[4]);
	g.at = f.at + 8;
	for (int i = 0; i < 6; i++)
		o[i] = f.off[i] + (i < 3 ? 0 : 8);
	file_write(&g, lie, o, 0, 0);
	free(g.p);
	CHECK_EQ(halves(lie), 1);
	CHECK(fit_same(lie, "\"c\""));
	/* the summary's count one off either way */
	file_write(&f, lie, NULL, 1, 0);
	CHECK_EQ(halves(lie), 1);
	CHECK(fit_same(lie, "\"c\""));
	file_write(&f, lie, NULL, -1, 0);
	CHECK_EQ(halves(lie), 1);
	/* a chunk corrupt in either half: the whole read's error */
	corrupt(&f, lie, (size_t)(f.off[1] + f.off[2]) / 2);
	CHECK(!fit_same(lie, ""));
	corrupt(&f, lie, (size_t)(f.off[4] + f.off[5]) / 2);
	CHECK(!fit_same(lie, ""));
	/* stdin: read whole */
	int fd = open(path, O_RDONLY), save = dup(0);
	CHECK(fd >= 0 && save >= 0 && dup2(fd, 0) == 0);
	struct reel_reader *r, *b;
	CHECK(reel_reader_open(&r, "-", 0) == 0);
	CHECK(reel_reader_halve(r, &b) != 0 && b == NULL);
	reel_reader_close(r);
	CHECK(lseek(0, 0, SEEK_SET) == 0); /* where the reader left it */
	char *in = fit_json("-", 1), *whole = fit_json(path, 0);
	CHECK(!strcmp(in, whole));
	free(in);
	free(whole);
	CHECK(dup2(save, 0) == 0);
	close(save);
	close(fd);
	file_free(&f);

	/* two chunks: halves of one; shifted on by a chunk */
	write_trace(path, 2, 0);
	file_load(&f, path);
	CHECK_EQ(f.n, 2);
	CHECK_EQ(halves(path), 0);
	CHECK(fit_same(path, "\"c\""));
	o[0] = f.off[1];
	o[1] = f.at;
	file_write(&f, lie, o, 0, 0);
	CHECK_EQ(halves(lie), 1);
	CHECK(fit_same(lie, "\"c\""));
	file_free(&f);

	/* one chunk: not split (device 2 declared, not used) */
	write_trace(path, 1, 0);
	CHECK_EQ(halves(path), -1);
	CHECK(fit_same(path, "\"first\""));

	/* 40 devices in each half, 80 joined: the whole read's error */
	write_trace(path, 4, 1);
	CHECK_EQ(halves(path), 0);
	CHECK(!fit_same(path, ""));

	unlink(path);
	unlink(lie);
	rmdir(dir);
	return 0;
}
