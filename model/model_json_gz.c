/*
 * model/model_json_gz.c - MODEL.json stored gzip-compressed (RFC 1952):
 * `model fit` writes it so by default (`zcat MODEL.json` shows the text;
 * the model is then a small fraction of its trace, MODEL.md "Size"), and
 * the reader takes both, telling them apart by the gzip magic.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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
	if (e) {
		free(text);
		return e;
	}
	z_stream z;
	memset(&z, 0, sizeof(z));
	/* 15 + 16: a gzip header (gzip -d and zcat read it) */
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(text);
		return REEL_E_NOMEM;
	}
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
	free(text);
	if (zr != Z_STREAM_END)
		return REEL_E_IO;
	return ferror(f) ? REEL_E_IO : 0;
}
