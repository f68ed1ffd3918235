/*
 * formats/import_alibaba.c - Alibaba block traces (alibaba/block-traces,
 * 2020), CSV:  device_id,opcode,offset,length,timestamp
 * opcode R or W, offset and length in bytes, timestamp in microseconds
 * (Unix time: the header's start_unix_ns is set from the first record).
 */
#include <stdio.h>
#include <string.h>

#include "formats/text_import.h"

/* Timestamps above this many us are Unix times (2001 onwards). */
#define UNIX_US_MIN 1000000000000000ll

static int alibaba_line(struct ti_ctx *c, char *line, void *arg)
{
	(void)arg;
	char *f[6];
	int rc;
	if (!ti_csv_fields(c, line, f, 5, "device_id,opcode,offset,length,timestamp", &rc))
		return rc;
	uint64_t devid, off, len, ts;
	if ((rc = ti_field_u64(c, "device id", f[0], &devid)) ||
	    (rc = ti_field_u64(c, "offset", f[2], &off)) ||
	    (rc = ti_field_u64(c, "length", f[3], &len)) ||
	    (rc = ti_field_u64(c, "timestamp", f[4], &ts)))
		return rc;
	struct reel_rec r;
	memset(&r, 0, sizeof(r));
	if (!strcmp(f[1], "R") || !strcmp(f[1], "r"))
		r.op = REEL_OP_READ;
	else if (!strcmp(f[1], "W") || !strcmp(f[1], "w"))
		r.op = REEL_OP_WRITE;
	else
		return ti_bad(c, "opcode '%.40s' is neither R nor W", f[1]);
	if (len > UINT32_MAX)
		return ti_bad(c, "length %llu is over the largest, 4 GiB - 1 (4294967295 bytes)",
			      (unsigned long long)len);
	if (ts > (uint64_t)INT64_MAX / 1000)
		return ti_bad(c, "timestamp '%s' is out of range", f[4]);
	if (!c->seq && (int64_t)ts >= UNIX_US_MIN)
		ti_set_base(c, 0); /* raw times are Unix times */
	int dev = ti_device_numbered(c, devid, "dev", 0);
	if (dev < 0)
		return dev;
	r.queue_ns = (int64_t)ts * 1000;
	r.offset = off;
	r.length = (uint32_t)len;
	r.dev = (uint16_t)dev;
	r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	return ti_emit(c, &r);
}

static int alibaba_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		       struct reel_writer *w, struct reel_import_stats *st, char *errmsg,
		       size_t errlen)
{
	return ti_run(paths, npaths, o, w, st, errmsg, errlen, alibaba_line, NULL, NULL);
}

static int alibaba_detect_line(char *line, int lineno)
{
	char *f[6];
	int k = ti_csv_detect_fields(line, lineno, f, 5);
	if (k <= 0)
		return k;
	return ti_is_int(f[0]) &&
	       (!strcmp(f[1], "R") || !strcmp(f[1], "W") || !strcmp(f[1], "r") ||
		!strcmp(f[1], "w")) &&
	       ti_is_int(f[2]) && ti_is_int(f[3]) && ti_is_int(f[4]);
}

static int alibaba_detect(const unsigned char *buf, size_t len, const char *path)
{
	int pct = ti_detect_lines(buf, len, 1, alibaba_detect_line);
	return pct >= 90 ? 90 : pct >= 50 ? 55 : 0;
}

const struct reel_importer reel_imp_alibaba = {
    .name = "alibaba",
    .describe = "Alibaba block trace CSV (device_id,opcode,offset,length,timestamp_us)",
    .detect = alibaba_detect,
    .run = alibaba_run,
};
