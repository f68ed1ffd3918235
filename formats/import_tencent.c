/*
 * formats/import_tencent.c - Tencent CBS traces (SNIA IOTTA), CSV:
 *   Timestamp,Offset,Size,IOType,VolumeID
 * Timestamp in seconds (Unix time: the header's start_unix_ns is set from
 * the first record), Offset and Size in 512-byte sectors, IOType 0 = read,
 * 1 = write; VolumeID becomes the device id ("vol<N>").
 */
#include <stdio.h>
#include <string.h>

#include "formats/text_import.h"

#define UNIX_S_MIN 1000000000ll /* 2001-09-09 */

static int tencent_line(struct ti_ctx *c, char *line, void *arg)
{
	(void)arg;
	char *f[6];
	int rc;
	if (!ti_csv_fields(c, line, f, 5, "Timestamp,Offset,Size,IOType,VolumeID", &rc))
		return rc;
	int64_t t;
	uint64_t off, size, type, vol;
	if ((rc = ti_field_dec(c, "timestamp", f[0], 1000000000, &t)) ||
	    (rc = ti_field_u64(c, "offset", f[1], &off)) ||
	    (rc = ti_field_u64(c, "size", f[2], &size)) ||
	    (rc = ti_field_u64(c, "I/O type", f[3], &type)) ||
	    (rc = ti_field_u64(c, "volume id", f[4], &vol)))
		return rc;
	if (type > 1)
		return ti_bad(c, "I/O type '%s' is neither 0 (read) nor 1 (write)", f[3]);
	if (t < 0)
		return ti_bad(c, "timestamp '%s' is negative", f[0]);
	if (off > UINT64_MAX / 512)
		return ti_bad(c, "offset '%s' is out of range", f[1]);
	if (size > UINT32_MAX / 512)
		return ti_bad(c, "size %llu sectors is larger than 4 GiB",
			      (unsigned long long)size);
	if (!c->seq && t >= UNIX_S_MIN * 1000000000ll)
		ti_set_base(c, 0); /* raw times are Unix times */
	int dev = ti_device_numbered(c, vol, "vol", 512);
	if (dev < 0)
		return dev;
	struct reel_rec r;
	memset(&r, 0, sizeof(r));
	r.op = type ? REEL_OP_WRITE : REEL_OP_READ;
	r.queue_ns = t;
	r.offset = off * 512;
	r.length = (uint32_t)(size * 512);
	r.dev = (uint16_t)dev;
	r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	return ti_emit(c, &r);
}

static int tencent_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		       struct reel_writer *w, struct reel_import_stats *st, char *errmsg,
		       size_t errlen)
{
	return ti_run(paths, npaths, o, w, st, errmsg, errlen, tencent_line, NULL, NULL);
}

static int tencent_detect_line(char *line, int lineno)
{
	char *f[6];
	int k = ti_csv_detect_fields(line, lineno, f, 5);
	if (k <= 0)
		return k;
	return ti_is_num(f[0]) && ti_is_int(f[1]) && ti_is_int(f[2]) &&
	       (!strcmp(f[3], "0") || !strcmp(f[3], "1")) && ti_is_int(f[4]);
}

static int tencent_detect(const unsigned char *buf, size_t len, const char *path)
{
	int pct = ti_detect_lines(buf, len, 1, tencent_detect_line);
	return pct >= 90 ? 80 : pct >= 50 ? 45 : 0;
}

const struct reel_importer reel_imp_tencent = {
    .name = "tencent",
    .describe = "Tencent CBS CSV (Timestamp_s,Offset,Size (sectors),IOType 0/1,VolumeID)",
    .detect = tencent_detect,
    .run = tencent_run,
};
