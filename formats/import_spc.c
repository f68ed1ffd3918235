/*
 * formats/import_spc.c - SPC trace format (UMass trace repository), CSV:
 *   ASU,LBA,Size,Opcode,Timestamp[,optional fields]
 * ASU is the application storage unit (it becomes the device id), LBA is
 * in blocks of --lba-size bytes (default 512), Size is bytes, Opcode r or w,
 * Timestamp seconds (decimal) from the start of the trace.
 */
#include <stdio.h>
#include <string.h>

#include "formats/text_import.h"

static int spc_line(struct ti_ctx *c, char *line, void *arg)
{
	(void)arg;
	char *f[16];
	int rc;
	if (ti_blank(line))
		return 0;
	int n = ti_split(line, ',', f, 16);
	if (c->in.lineno == 1 && ti_is_word(f[0]))
		return 0; /* header */
	if (n < 5)
		return ti_bad(c, "%d fields, expected at least 5 (ASU,LBA,Size,Opcode,Timestamp)",
			      n);
	uint64_t asu, lba, size;
	int64_t t;
	if ((rc = ti_field_u64(c, "ASU", f[0], &asu)) ||
	    (rc = ti_field_u64(c, "LBA", f[1], &lba)) ||
	    (rc = ti_field_u64(c, "size", f[2], &size)) ||
	    (rc = ti_field_dec(c, "timestamp", f[4], 1000000000, &t)))
		return rc;
	struct reel_rec r;
	memset(&r, 0, sizeof(r));
	if ((f[3][0] == 'r' || f[3][0] == 'R') && !f[3][1])
		r.op = REEL_OP_READ;
	else if ((f[3][0] == 'w' || f[3][0] == 'W') && !f[3][1])
		r.op = REEL_OP_WRITE;
	else
		return ti_bad(c, "opcode '%.40s' is neither r nor w", f[3]);
	uint32_t lbs = c->o && c->o->lba_size ? c->o->lba_size : 512;
	if (lba > UINT64_MAX / lbs)
		return ti_bad(c, "LBA '%s' is out of range", f[1]);
	if (size > UINT32_MAX)
		return ti_bad(c, "size %llu is over the largest, 4 GiB - 1 (4294967295 bytes)",
			      (unsigned long long)size);
	if (asu > 65535)
		return ti_bad(c, "ASU %llu is larger than 65535", (unsigned long long)asu);
	if (t < 0)
		return ti_bad(c, "timestamp '%s' is negative", f[4]);
	int dev = ti_device_numbered(c, asu, "asu", lbs);
	if (dev < 0)
		return dev;
	r.queue_ns = t;
	r.offset = lba * lbs;
	r.length = (uint32_t)size;
	r.dev = (uint16_t)dev;
	r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	return ti_emit(c, &r);
}

static int spc_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		   struct reel_writer *w, struct reel_import_stats *st, char *errmsg, size_t errlen)
{
	return ti_run(paths, npaths, o, w, st, errmsg, errlen, spc_line, NULL, NULL);
}

static int spc_detect_line(char *line, int lineno)
{
	char *f[16];
	if (ti_blank(line))
		return -1;
	int n = ti_split(line, ',', f, 16);
	if (lineno == 1 && n >= 5 && n <= 16 && ti_is_word(f[0]))
		return -1;
	return n >= 5 && n <= 16 && ti_is_int(f[0]) && ti_is_int(f[1]) && ti_is_int(f[2]) &&
	       (f[3][0] == 'r' || f[3][0] == 'R' || f[3][0] == 'w' || f[3][0] == 'W') && !f[3][1] &&
	       ti_is_num(f[4]);
}

static int spc_detect(const unsigned char *buf, size_t len, const char *path)
{
	int pct = ti_detect_lines(buf, len, 1, spc_detect_line);
	return pct >= 90 ? 90 : pct >= 50 ? 55 : 0;
}

const struct reel_importer reel_imp_spc = {
    .name = "spc",
    .describe = "SPC / UMass CSV (ASU,LBA,Size,Opcode,Timestamp; --lba-size N, default 512)",
    .detect = spc_detect,
    .run = spc_run,
};
