/*
 * formats/import_fiu.c - FIU iodedup traces (SNIA IOTTA, "FIU" set), text:
 *   ts_ns pid process lba size W|R major minor md5
 * ts in ns (from boot), lba and size in 512-byte sectors, the device as
 * major and minor numbers, md5 of the block content (not kept).  Records
 * carry queue time, pid and process name; the device is named "MAJ,MIN".
 */
#include <stdio.h>
#include <string.h>

#include "formats/text_import.h"

struct fiu_state {
	char last_comm[64];
	int64_t last_id;
};

static int fiu_line(struct ti_ctx *c, char *line, void *arg)
{
	struct fiu_state *s = arg;
	char *f[10];
	int rc;
	if (ti_blank(line))
		return 0;
	int n = ti_split(line, ' ', f, 10);
	if (n != 9)
		return ti_bad(c,
			      "%d fields, expected 9 "
			      "(ts_ns pid process lba size W|R major minor md5)",
			      n);
	uint64_t ts, pid, lba, size, maj, min;
	if ((rc = ti_field_u64(c, "timestamp", f[0], &ts)) ||
	    (rc = ti_field_u64(c, "pid", f[1], &pid)) ||
	    (rc = ti_field_u64(c, "lba", f[3], &lba)) ||
	    (rc = ti_field_u64(c, "size", f[4], &size)) ||
	    (rc = ti_field_u64(c, "major", f[6], &maj)) ||
	    (rc = ti_field_u64(c, "minor", f[7], &min)))
		return rc;
	struct reel_rec r;
	memset(&r, 0, sizeof(r));
	if (!strcmp(f[5], "R") || !strcmp(f[5], "r"))
		r.op = REEL_OP_READ;
	else if (!strcmp(f[5], "W") || !strcmp(f[5], "w"))
		r.op = REEL_OP_WRITE;
	else
		return ti_bad(c, "operation '%.40s' is neither R nor W", f[5]);
	if (ts > (uint64_t)INT64_MAX)
		return ti_bad(c, "timestamp '%s' is out of range", f[0]);
	if (pid > UINT32_MAX)
		return ti_bad(c, "pid '%s' is out of range", f[1]);
	if (lba > UINT64_MAX / 512)
		return ti_bad(c, "lba '%s' is out of range", f[3]);
	if (size > UINT32_MAX / 512)
		return ti_bad(c,
			      "size %llu sectors is over the largest, 8388607 (4 GiB - 512 bytes)",
			      (unsigned long long)size);
	if (maj > 4095 || min > 1048575)
		return ti_bad(c, "device %s,%s is not a valid major,minor", f[6], f[7]);
	if (strcmp(f[2], s->last_comm)) {
		int64_t id = reel_writer_intern(c->w, f[2]);
		if (id < 0)
			return ti_fail(c, (int)id, "cannot intern process name: %s",
				       reel_writer_errmsg(c->w));
		if (strlen(f[2]) < sizeof(s->last_comm)) {
			snprintf(s->last_comm, sizeof(s->last_comm), "%s", f[2]);
			s->last_id = id;
		} else {
			s->last_comm[0] = 1; /* too long to cache */
			s->last_comm[1] = 0;
		}
		r.comm = (uint32_t)id;
	} else {
		r.comm = (uint32_t)s->last_id;
	}
	int dev = ti_device_find(c, (maj << 20) | min, 0);
	if (dev < 0) {
		char name[32];
		snprintf(name, sizeof(name), "%llu,%llu", (unsigned long long)maj,
			 (unsigned long long)min);
		dev =
		    ti_device(c, (maj << 20) | min, 0, 0, name, (uint32_t)maj, (uint32_t)min, 512);
		if (dev < 0)
			return dev;
	}
	r.queue_ns = (int64_t)ts;
	r.offset = lba * 512;
	r.length = (uint32_t)(size * 512);
	r.pid = (uint32_t)pid;
	r.dev = (uint16_t)dev;
	r.has = REEL_HAS_QUEUE | REEL_HAS_DEV | REEL_HAS_PID | REEL_HAS_COMM;
	return ti_emit(c, &r);
}

static int fiu_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		   struct reel_writer *w, struct reel_import_stats *st, char *errmsg, size_t errlen)
{
	struct fiu_state s;
	memset(&s, 0, sizeof(s));
	s.last_comm[0] = 1; /* matches no name */
	s.last_comm[1] = 0;
	return ti_run(paths, npaths, o, w, st, errmsg, errlen, fiu_line, &s, NULL);
}

static int is_hex(const char *s, size_t n)
{
	size_t i = 0;
	for (; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return i == n;
}

static int fiu_detect_line(char *line, int lineno)
{
	char *f[10];
	(void)lineno;
	if (ti_blank(line))
		return -1;
	int n = ti_split(line, ' ', f, 10);
	return n == 9 && ti_is_int(f[0]) && ti_is_int(f[1]) && ti_is_int(f[3]) && ti_is_int(f[4]) &&
	       (!strcmp(f[5], "R") || !strcmp(f[5], "W")) && ti_is_int(f[6]) && ti_is_int(f[7]) &&
	       is_hex(f[8], 32);
}

static int fiu_detect(const unsigned char *buf, size_t len, const char *path)
{
	int pct = ti_detect_lines(buf, len, 1, fiu_detect_line);
	return pct >= 90 ? 95 : pct >= 50 ? 60 : 0;
}

const struct reel_importer reel_imp_fiu = {
    .name = "fiu",
    .describe = "FIU iodedup text (ts_ns pid process lba size W|R major minor md5)",
    .detect = fiu_detect,
    .run = fiu_run,
};
