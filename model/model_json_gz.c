/*
 * model/model_json_gz.c - MODEL.json stored gzip-compressed (RFC 1952):
 * `model fit` writes it so by default (`zcat MODEL.json` shows the text;
 * the model is then a small fraction of its trace, MODEL.md "Size"), and
 * the reader takes both, telling them apart by the gzip magic.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "model/fit_internal.h"
#include "model/model.h"

int model_json_is_gzip(const char *data, size_t len)
{
	return len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b;
}

int model_json_inflate(const char *data, size_t len, char **out, size_t *outlen, char *err,
		       size_t errlen)
{
	*out = NULL;
	*outlen = 0;
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 32) != Z_OK) /* + 32: gzip or zlib header */
		return reel_errf(err, errlen, REEL_E_NOMEM, "out of memory");
	size_t cap = len * 4 + 4096, n = 0;
	char *buf = malloc(cap);
	int zr = Z_OK;
	z.next_in = (unsigned char *)data;
	while (buf && zr == Z_OK) {
		if (n == cap) {
			if (cap > MODEL_JSON_MAX_BYTES)
				break;
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		/* len may pass 4 GiB on paper: feed it in pieces */
		size_t left = len - (size_t)((const char *)z.next_in - data);
		z.avail_in = left > (1u << 30) ? 1u << 30 : (unsigned)left;
		z.next_out = (unsigned char *)buf + n;
		z.avail_out = (unsigned)(cap - n);
		zr = inflate(&z, Z_NO_FLUSH);
		n = cap - z.avail_out;
		if (zr == Z_BUF_ERROR && z.avail_out)
			break; /* the input ended before the stream */
		if (zr == Z_BUF_ERROR)
			zr = Z_OK;
	}
	inflateEnd(&z);
	if (zr != Z_STREAM_END) {
		free(buf);
		if (!buf || n == cap)
			return reel_errf(err, errlen, buf ? REEL_E_PARSE : REEL_E_NOMEM,
					 buf ? "gzip: more than %u bytes inflated: not a model"
					     : "out of memory",
					 MODEL_JSON_MAX_BYTES);
		return reel_errf(err, errlen, REEL_E_PARSE, "gzip: %s",
				 zr == Z_BUF_ERROR ? "truncated" : "corrupt data");
	}
	*out = buf;
	*outlen = n;
	return 0;
}

/* One piece of the deflate: TEXT[0, LEN) as raw deflate (no header) at
 * LEVEL into OUT (malloc'ed, *OUTLEN bytes), primed with the DICT bytes
 * before it, ended by FLUSH (Z_SYNC_FLUSH: on a byte boundary, so the
 * next piece follows it; Z_FINISH: the last block); and the text's CRC. */
struct gz_piece {
	const unsigned char *text, *dict;
	size_t len, dictlen;
	int level, flush, err;
	unsigned char *out;
	size_t outlen;
	unsigned long crc;
};

static void *gz_piece_run(void *arg)
{
	struct gz_piece *p = arg;
	z_stream z;
	memset(&z, 0, sizeof(z));
	p->err = REEL_E_NOMEM;
	if (deflateInit2(&z, p->level, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	size_t cap = deflateBound(&z, p->len) + 64;
	p->out = malloc(cap);
	if (p->out)
		p->err = REEL_E_IO; /* from here on a deflate's failure */
	if (p->out && (!p->dictlen || deflateSetDictionary(&z, p->dict, p->dictlen) == Z_OK)) {
		z.next_in = (unsigned char *)p->text;
		z.avail_in = (unsigned)p->len; /* a model is at most 64 MiB */
		z.next_out = p->out;
		z.avail_out = (unsigned)cap;
		int zr = deflate(&z, p->flush);
		/* the bound holds the whole piece: all in, and room left over */
		if (z.avail_in == 0 && z.avail_out > 0 &&
		    (p->flush == Z_FINISH ? zr == Z_STREAM_END : zr == Z_OK))
			p->err = 0;
		p->outlen = cap - z.avail_out;
	}
	deflateEnd(&z);
	p->crc = crc32(crc32(0, NULL, 0), p->text, (unsigned)p->len);
	return NULL;
}

/* TEXT[0, LEN) as one gzip member made of two raw deflate pieces, the
 * halves, deflated on two threads when there is a spare core (the second
 * primed with the last 32 KiB of the first, pigz's way: the same bytes on
 * one thread or two); the member's CRC combined from the halves'.  Unlike
 * gz_write_one it holds the whole compressed member in memory (about the
 * text's size at most) before writing it: nothing is written on an error. */
static int gz_write_halves(const char *text, size_t len, FILE *f)
{
	size_t h = len / 2, d = h < 32768 ? h : 32768;
	const unsigned char *t = (const unsigned char *)text;
	struct gz_piece p[2] = {
	    {.text = t, .len = h, .level = MODEL_GZ_LEVEL, .flush = Z_SYNC_FLUSH},
	    {.text = t + h,
	     .len = len - h,
	     .dict = t + h - d,
	     .dictlen = d,
	     .level = MODEL_GZ_LEVEL,
	     .flush = Z_FINISH},
	};
	pthread_t th;
	int two = fit_spare_core() && !pthread_create(&th, NULL, gz_piece_run, &p[1]);
	gz_piece_run(&p[0]);
	if (two)
		pthread_join(th, NULL);
	else
		gz_piece_run(&p[1]);
	int e = p[0].err ? p[0].err : p[1].err;
	/* zlib's own header for the levels 2 to 8: no name, no time, XFL 0,
	 * OS 3 (Unix) */
	_Static_assert(MODEL_GZ_LEVEL >= 2 && MODEL_GZ_LEVEL <= 8, "XFL 0 is for levels 2-8");
	static const unsigned char head[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
	unsigned long crc = crc32_combine(p[0].crc, p[1].crc, (z_off_t)p[1].len);
	unsigned char tail[8];
	for (int i = 0; i < 4; i++) {
		tail[i] = (unsigned char)(crc >> (8 * i));
		tail[4 + i] = (unsigned char)((uint32_t)len >> (8 * i));
	}
	if (!e && (fwrite(head, 1, sizeof(head), f) != sizeof(head) ||
		   fwrite(p[0].out, 1, p[0].outlen, f) != p[0].outlen ||
		   fwrite(p[1].out, 1, p[1].outlen, f) != p[1].outlen ||
		   fwrite(tail, 1, sizeof(tail), f) != sizeof(tail)))
		e = REEL_E_IO;
	free(p[0].out);
	free(p[1].out);
	return e;
}

/* TEXT[0, LEN) as zlib's gzip at level 9, one stream (what fit wrote
 * before MODEL_GZ_SPLIT: a small model's bytes unchanged). */
static int gz_write_one(const char *text, size_t len, FILE *f)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	/* 15 + 16: a gzip header (gzip -d and zcat read it) */
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return REEL_E_NOMEM;
	unsigned char out[1 << 16];
	z.next_in = (unsigned char *)text;
	z.avail_in = (unsigned)len; /* a model is at most 64 MiB */
	int zr;
	do {
		z.next_out = out;
		z.avail_out = sizeof(out);
		zr = deflate(&z, Z_FINISH);
		if (fwrite(out, 1, sizeof(out) - z.avail_out, f) != sizeof(out) - z.avail_out)
			zr = Z_ERRNO;
	} while (zr == Z_OK || zr == Z_BUF_ERROR);
	deflateEnd(&z);
	return zr == Z_STREAM_END ? 0 : REEL_E_IO;
}

int model_json_deflate(const char *text, size_t len, FILE *f)
{
	if (len > MODEL_JSON_MAX_BYTES) /* the lengths below are 32-bit */
		return REEL_E_RANGE;
	int e = len < MODEL_GZ_SPLIT ? gz_write_one(text, len, f) : gz_write_halves(text, len, f);
	if (e)
		return e;
	return ferror(f) ? REEL_E_IO : 0;
}

int model_write_json_gz(const struct model *m, FILE *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return REEL_E_NOMEM;
	int e = model_write_json(m, mem);
	if (fclose(mem) || !text)
		e = e ? e : REEL_E_NOMEM;
	if (!e)
		e = model_json_deflate(text, len, f);
	free(text);
	return e;
}
