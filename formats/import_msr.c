/*
 * formats/import_msr.c - MSR Cambridge block traces (SNIA IOTTA), CSV:
 *   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
 * Timestamp is a Windows filetime (100 ns units since 1601-01-01 UTC),
 * Type is Read or Write, Offset and Size are bytes, ResponseTime is in
 * 100 ns units.  Each line becomes one record with queue and completion
 * times; (Hostname, DiskNumber) becomes a device whose id is the disk
 * number when that is free, named "host_disk" (wdev_1).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "formats/text_import.h"

#define FILETIME_UNIX_EPOCH 116444736000000000ull /* 1970-01-01 in filetime */

struct msr_state {
	int have_t0;
	uint64_t t0; /* first timestamp, filetime units */
};

static int msr_line(struct ti_ctx *c, char *line, void *arg)
{
	struct msr_state *s = arg;
	char *f[8];
	int rc;
	if (!ti_csv_fields(c, line, f, 7,
			   "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime", &rc))
		return rc;
	uint64_t ts, disk, off, size, rt;
	if ((rc = ti_field_u64(c, "timestamp", f[0], &ts)) ||
	    (rc = ti_field_u64(c, "disk number", f[2], &disk)) ||
	    (rc = ti_field_u64(c, "offset", f[4], &off)) ||
	    (rc = ti_field_u64(c, "size", f[5], &size)) ||
	    (rc = ti_field_u64(c, "response time", f[6], &rt)))
		return rc;
	struct reel_rec r;
	memset(&r, 0, sizeof(r));
	if (!strcasecmp(f[3], "Read"))
		r.op = REEL_OP_READ;
	else if (!strcasecmp(f[3], "Write"))
		r.op = REEL_OP_WRITE;
	else
		return ti_bad(c, "type '%.40s' is neither Read nor Write", f[3]);
	if (size > UINT32_MAX)
		return ti_bad(c, "size %llu is over the largest, 4 GiB - 1 (4294967295 bytes)",
			      (unsigned long long)size);
	if (rt > (uint64_t)INT64_MAX / 400)
		return ti_bad(c, "response time '%s' is out of range", f[6]);
	if (!*f[1])
		return ti_bad(c, "empty host name");
	if (!s->have_t0) {
		s->have_t0 = 1;
		s->t0 = ts;
		if (ts >= FILETIME_UNIX_EPOCH &&
		    (ts - FILETIME_UNIX_EPOCH) < (uint64_t)INT64_MAX / 100)
			ti_set_base(c, (int64_t)(ts - FILETIME_UNIX_EPOCH) * 100);
	}
	/* relative in filetime units first: absolute ns overflow 64 bits */
	int64_t d = ts >= s->t0 ? (int64_t)(ts - s->t0) : -(int64_t)(s->t0 - ts);
	if (d > INT64_MAX / 400 || d < -(INT64_MAX / 400))
		return ti_bad(c, "timestamp '%s' is too far from the first (%llu)", f[0],
			      (unsigned long long)s->t0);
	int dev = ti_device_find(c, disk, ti_hash(f[1]));
	if (dev < 0) {
		char name[64];
		snprintf(name, sizeof(name), "%.40s_%llu", f[1], (unsigned long long)disk);
		dev = ti_device(c, disk, ti_hash(f[1]), 1, name, 0, 0, 0);
		if (dev < 0)
			return dev;
	}
	r.queue_ns = d * 100;
	r.complete_ns = r.queue_ns + (int64_t)rt * 100;
	r.offset = off;
	r.length = (uint32_t)size;
	r.dev = (uint16_t)dev;
	r.has = REEL_HAS_QUEUE | REEL_HAS_COMPLETE | REEL_HAS_DEV;
	return ti_emit(c, &r);
}

static int msr_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		   struct reel_writer *w, struct reel_import_stats *st, char *errmsg, size_t errlen)
{
	struct msr_state s = {0};
	return ti_run(paths, npaths, o, w, st, errmsg, errlen, msr_line, &s, NULL);
}

static int msr_detect_line(char *line, int lineno)
{
	char *f[8];
	int k = ti_csv_detect_fields(line, lineno, f, 7);
	if (k <= 0)
		return k;
	return ti_is_int(f[0]) && strlen(f[0]) >= 15 && ti_is_int(f[2]) &&
	       (!strcasecmp(f[3], "Read") || !strcasecmp(f[3], "Write")) && ti_is_int(f[4]) &&
	       ti_is_int(f[5]) && ti_is_int(f[6]);
}

static int msr_detect(const unsigned char *buf, size_t len, const char *path)
{
	int pct = ti_detect_lines(buf, len, 1, msr_detect_line);
	return pct >= 90 ? 95 : pct >= 50 ? 60 : 0;
}

const struct reel_importer reel_imp_msr = {
    .name = "msr",
    .describe = "MSR Cambridge CSV (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)",
    .detect = msr_detect,
    .run = msr_run,
};
