/*
 * formats/import_fio.c - fio iolog versions 2 and 3 (fio's write_iolog /
 * read_iolog).  First line "fio version 2 iolog" or "fio version 3 iolog";
 * then, version 2:  FILE ACTION [OFFSET LENGTH]
 *       version 3:  TIME FILE ACTION [OFFSET LENGTH]
 * File actions add/open/close; I/O actions read, write, trim, sync,
 * datasync; version 2 also "FILE wait USEC" (time advances by USEC
 * microseconds).  Version 3 times are microseconds from the log's start:
 * that is what fio 3.33 writes (utime_since_now) and replays.  Each file
 * becomes a device (named after the file, id in order of appearance); sync
 * and datasync become flushes.
 */
#include <stdio.h>
#include <string.h>

#include "formats/text_import.h"

struct fio_state {
	int version;	/* of the current file */
	int64_t now_ns; /* version 2: the sum of the waits so far */
};

static int fio_file(struct ti_ctx *c, void *arg)
{
	struct fio_state *s = arg;
	char *line;
	int rc = ti_getline(c, &line);
	if (rc < 0)
		return rc;
	if (rc == 1 && !strncmp(line, "fio version 2 iolog", 19))
		s->version = 2;
	else if (rc == 1 && !strncmp(line, "fio version 3 iolog", 19))
		s->version = 3;
	else
		return ti_fail(c, REEL_E_PARSE,
			       "not a fio iolog: the first line must be 'fio version 2 iolog' "
			       "or 'fio version 3 iolog' (fio's version 1 logs are not supported)");
	s->now_ns = 0;
	return 0;
}

static int fio_dev(struct ti_ctx *c, const char *file)
{
	const char *name = file;
	size_t n = strlen(file);
	if (n > 63) /* keep the end: it names the device or file */
		name = file + n - 63;
	return ti_device(c, ti_hash(file), 0, 0, name, 0, 0, 0);
}

static int fio_line(struct ti_ctx *c, char *line, void *arg)
{
	struct fio_state *s = arg;
	char *f[7];
	int rc;
	if (ti_blank(line))
		return 0;
	int n = ti_split(line, ' ', f, 7);
	int64_t t = s->now_ns;
	char **a = f; /* a[0] file, a[1] action, a[2] offset, a[3] length */
	if (s->version == 3) {
		if (n != 3 && n != 5)
			return ti_bad(c, "%d fields, expected 'TIME FILE ACTION [OFFSET LENGTH]'",
				      n);
		if ((rc = ti_field_dec(c, "time", f[0], 1000, &t)))
			return rc;
		if (t < 0)
			return ti_bad(c, "time '%s' is negative", f[0]);
		a = f + 1;
		n--;
	} else if (n == 3 && !strcmp(f[1], "wait")) {
		f[3] = "0"; /* "FILE wait USEC": fio writes a length too, accept both */
		n = 4;
	} else if (n != 2 && n != 4) {
		return ti_bad(c, "%d fields, expected 'FILE ACTION [OFFSET LENGTH]'", n);
	}
	const char *act = a[1];
	if (n == 2) {
		if (!strcmp(act, "add")) {
			int dev = fio_dev(c, a[0]);
			return dev < 0 ? dev : 0;
		}
		if (!strcmp(act, "open") || !strcmp(act, "close"))
			return 0;
		return ti_bad(c, "file action '%.40s' is not add, open or close", act);
	}
	uint64_t off, len;
	if ((rc = ti_field_u64(c, "offset", a[2], &off)) ||
	    (rc = ti_field_u64(c, "length", a[3], &len)))
		return rc;
	struct reel_rec r;
	memset(&r, 0, sizeof(r));
	if (!strcmp(act, "wait")) {
		if (s->version == 3)
			return ti_bad(c,
				      "'wait' is not valid in a version 3 iolog (fio ignores it)");
		if (off > (uint64_t)(INT64_MAX - s->now_ns) / 1000)
			return ti_bad(c, "wait '%s' is out of range", a[2]);
		s->now_ns += (int64_t)off * 1000;
		return 0;
	} else if (!strcmp(act, "read")) {
		r.op = REEL_OP_READ;
	} else if (!strcmp(act, "write")) {
		r.op = REEL_OP_WRITE;
	} else if (!strcmp(act, "trim")) {
		r.op = REEL_OP_DISCARD;
	} else if (!strcmp(act, "sync") || !strcmp(act, "datasync")) {
		r.op = REEL_OP_FLUSH;
		off = len = 0;
	} else {
		return ti_bad(c, "action '%.40s' is not read, write, trim, sync, datasync or wait",
			      act);
	}
	if (len > UINT32_MAX)
		return ti_bad(c, "length %llu is over the largest, 4 GiB - 1 (4294967295 bytes)",
			      (unsigned long long)len);
	int dev = fio_dev(c, a[0]);
	if (dev < 0)
		return dev;
	r.queue_ns = t;
	r.offset = off;
	r.length = (uint32_t)len;
	r.dev = (uint16_t)dev;
	r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	return ti_emit(c, &r);
}

static int fio_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		   struct reel_writer *w, struct reel_import_stats *st, char *errmsg, size_t errlen)
{
	struct fio_state s = {0};
	return ti_run(paths, npaths, o, w, st, errmsg, errlen, fio_line, &s, fio_file);
}

static int fio_detect(const unsigned char *buf, size_t len, const char *path)
{
	if (len >= 19 &&
	    (!memcmp(buf, "fio version 2 iolog", 19) || !memcmp(buf, "fio version 3 iolog", 19)))
		return 100;
	return 0;
}

const struct reel_importer reel_imp_fio = {
    .name = "fio",
    .describe = "fio iolog version 2 or 3 (fio --write_iolog)",
    .detect = fio_detect,
    .run = fio_run,
};
