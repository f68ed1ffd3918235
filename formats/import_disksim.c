/*
 * formats/import_disksim.c - DiskSim ASCII traces, whitespace separated:
 *   time devno lba size flags
 * time in --time-unit (default ms, DiskSim's own; MQSim-style traces use
 * ns), lba and size in 512-byte sectors, flags bit 0: 1 = read, 0 = write.
 * devno becomes the device id ("disk<devno>").
 */
#include <stdio.h>
#include <string.h>

#include "formats/text_import.h"

static int disksim_line(struct ti_ctx *c, char *line, void *arg)
{
	(void)arg;
	char *f[6];
	int rc;
	if (ti_blank(line))
		return 0;
	int n = ti_split(line, ' ', f, 6);
	if (n != 5)
		return ti_bad(c, "%d fields, expected 5 (time devno lba size flags)", n);
	int64_t unit = c->o && c->o->time_unit_ns > 0 ? c->o->time_unit_ns : 1000000;
	int64_t t;
	uint64_t devno, lba, size, flags;
	if ((rc = ti_field_dec(c, "time", f[0], unit, &t)) ||
	    (rc = ti_field_u64(c, "device number", f[1], &devno)) ||
	    (rc = ti_field_u64(c, "lba", f[2], &lba)) ||
	    (rc = ti_field_u64(c, "size", f[3], &size)) ||
	    (rc = ti_field_u64(c, "flags", f[4], &flags)))
		return rc;
	if (t < 0)
		return ti_bad(c, "time '%s' is negative", f[0]);
	if (devno > 65535)
		return ti_bad(c, "device number %llu is larger than 65535",
			      (unsigned long long)devno);
	if (lba > UINT64_MAX / 512)
		return ti_bad(c, "lba '%s' is out of range", f[2]);
	if (size > UINT32_MAX / 512)
		return ti_bad(c,
			      "size %llu sectors is over the largest, 8388607 (4 GiB - 512 bytes)",
			      (unsigned long long)size);
	int dev = ti_device_numbered(c, devno, "disk", 512);
	if (dev < 0)
		return dev;
	struct reel_rec r;
	memset(&r, 0, sizeof(r));
	r.op = (flags & 1) ? REEL_OP_READ : REEL_OP_WRITE;
	r.queue_ns = t;
	r.offset = lba * 512;
	r.length = (uint32_t)(size * 512);
	r.dev = (uint16_t)dev;
	r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	return ti_emit(c, &r);
}

static int disksim_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		       struct reel_writer *w, struct reel_import_stats *st, char *errmsg,
		       size_t errlen)
{
	return ti_run(paths, npaths, o, w, st, errmsg, errlen, disksim_line, NULL, NULL);
}

static int disksim_detect_line(char *line, int lineno)
{
	char *f[6];
	(void)lineno;
	if (ti_blank(line))
		return -1;
	int n = ti_split(line, ' ', f, 6);
	return n == 5 && ti_is_num(f[0]) && f[0][0] != '-' && ti_is_int(f[1]) && ti_is_int(f[2]) &&
	       ti_is_int(f[3]) && ti_is_int(f[4]);
}

static int disksim_detect(const unsigned char *buf, size_t len, const char *path)
{
	int pct = ti_detect_lines(buf, len, 1, disksim_detect_line);
	return pct >= 90 ? 70 : pct >= 50 ? 40 : 0;
}

const struct reel_importer reel_imp_disksim = {
    .name = "disksim",
    .describe = "DiskSim ASCII (time devno lba size flags; --time-unit ns|us|ms, default ms)",
    .detect = disksim_detect,
    .run = disksim_run,
};
