/*
 * formats/export_fio.c - fio iolog version 3, which fio replays with
 * --read_iolog=FILE:
 *   fio version 3 iolog
 *   0 FILE add
 *   0 FILE open
 *   TIME FILE read|write|trim|sync OFFSET LENGTH
 *   ...
 *   TIME FILE close
 * One FILE per device, named after the device in the .reel header (blanks
 * replaced by '_'; "devN" when it has no name); point fio at real targets
 * with --replay_redirect or by naming the devices.  TIME is in microseconds
 * from the trace's time zero (queue time, or issue time when the queue
 * time is absent), as fio 3.33 writes and replays it.  fio waits for no
 * delay before the first time stamp, and ignores the delay after a zero
 * time stamp, so when the first I/O is at time 0 every time is shifted by
 * 1 us.  Flushes become "sync"; write-zeroes become writes (fio's log has
 * no such action).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"

struct fio_exp {
	unsigned char *added; /* by device id: add/open written */
	int64_t shift_us;
	int started;
	long long last_us;
};

static void dev_name(struct reel_reader *r, unsigned id, char *buf, size_t len)
{
	const struct reel_header *h = reel_reader_header(r);
	buf[0] = 0;
	for (size_t i = 0; h && i < h->ndevices; i++)
		if (h->devices[i].id == id) {
			snprintf(buf, len, "%s", h->devices[i].name);
			break;
		}
	if (!buf[0])
		snprintf(buf, len, "dev%u", id);
	for (char *p = buf; *p; p++)
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			*p = '_';
}

static void add_file(struct reel_reader *r, struct fio_exp *x, FILE *out, unsigned id, long long t)
{
	char name[80];
	dev_name(r, id, name, sizeof(name));
	fprintf(out, "%lld %s add\n%lld %s open\n", t, name, t, name);
	x->added[id] = 1;
}

static int fio_run(struct reel_reader *r, FILE *out, char *errmsg, size_t errlen)
{
	struct fio_exp x = {0};
	x.added = calloc(65536, 1);
	if (!x.added)
		return REEL_E_NOMEM;
	fputs("fio version 3 iolog\n", out);
	const struct reel_header *h = reel_reader_header(r);
	for (size_t i = 0; h && i < h->ndevices; i++)
		if (!x.added[h->devices[i].id])
			add_file(r, &x, out, h->devices[i].id, 0);
	const struct reel_rec *recs;
	long n;
	int rc = 0;
	char name[80];
	unsigned last_dev = 65536;
	while ((n = reel_read_chunk(r, &recs)) > 0) {
		for (long i = 0; i < n; i++) {
			const struct reel_rec *q = &recs[i];
			long long t;
			if (q->has & REEL_HAS_QUEUE)
				t = q->queue_ns / 1000;
			else if (q->has & REEL_HAS_ISSUE)
				t = q->issue_ns / 1000;
			else
				t = x.last_us; /* no time: right after the previous */
			if (t < 0)
				t = 0;
			if (!x.started) {
				x.started = 1;
				x.shift_us = t == 0;
			}
			t += x.shift_us;
			x.last_us = t;
			unsigned dev = (q->has & REEL_HAS_DEV) ? q->dev : 0;
			if (!x.added[dev])
				add_file(r, &x, out, dev, t);
			if (dev != last_dev) {
				dev_name(r, dev, name, sizeof(name));
				last_dev = dev;
			}
			switch (q->op) {
			case REEL_OP_READ:
				fprintf(out, "%lld %s read %llu %u\n", t, name,
					(unsigned long long)q->offset, q->length);
				break;
			case REEL_OP_WRITE:
			case REEL_OP_WRITE_ZEROES:
				fprintf(out, "%lld %s write %llu %u\n", t, name,
					(unsigned long long)q->offset, q->length);
				break;
			case REEL_OP_DISCARD:
				fprintf(out, "%lld %s trim %llu %u\n", t, name,
					(unsigned long long)q->offset, q->length);
				break;
			case REEL_OP_FLUSH:
				fprintf(out, "%lld %s sync 0 0\n", t, name);
				break;
			default:
				rc = reel_errf(errmsg, errlen, REEL_E_CORRUPT,
					       "record with unknown op %u", q->op);
				goto out;
			}
		}
		if (ferror(out)) {
			rc = reel_errf(errmsg, errlen, REEL_E_IO, "cannot write the output: %s",
				       strerror(errno ? errno : EIO));
			goto out;
		}
	}
	if (n < 0) {
		rc = reel_errf(errmsg, errlen, (int)n, "%s", reel_reader_errmsg(r));
		goto out;
	}
	for (unsigned id = 0; id < 65536; id++)
		if (x.added[id]) {
			dev_name(r, id, name, sizeof(name));
			fprintf(out, "%lld %s close\n", x.last_us, name);
		}
out:
	free(x.added);
	return rc;
}

const struct reel_exporter reel_exp_fio = {
    .name = "fio",
    .describe = "fio iolog version 3 (replay with fio --read_iolog=FILE)",
    .run = fio_run,
};
