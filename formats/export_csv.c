/*
 * formats/export_csv.c - CSV, one line per I/O after a header line:
 *   queue_ns,issue_ns,complete_ns,op,flags,dev,offset,length,pid,comm,cpu,error
 * Times in ns from the trace's time zero, op by name (read, write, discard,
 * flush, write-zeroes), flags as names joined by '|' ("sync|fua"; "none"
 * when the source gives flags and none is set), dev the device id, offset
 * and length in bytes.  A field the record lacks is empty.  comm is quoted
 * (RFC 4180) when it holds a comma, quote or blank at either end.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "formats/reel.h"

static void put_i64(FILE *out, int have, int64_t v)
{
	if (have)
		fprintf(out, "%lld", (long long)v);
	fputc(',', out);
}

static void put_comm(FILE *out, const char *s)
{
	size_t n = strlen(s);
	if (!strpbrk(s, ",\"\r\n") && (!n || (s[0] != ' ' && s[n - 1] != ' '))) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static int csv_run(struct reel_reader *r, FILE *out, char *errmsg, size_t errlen)
{
	fputs("queue_ns,issue_ns,complete_ns,op,flags,dev,offset,length,pid,comm,cpu,error\n", out);
	const struct reel_rec *recs;
	long n;
	char flags[128];
	while ((n = reel_read_chunk(r, &recs)) > 0) {
		for (long i = 0; i < n; i++) {
			const struct reel_rec *x = &recs[i];
			put_i64(out, x->has & REEL_HAS_QUEUE, x->queue_ns);
			put_i64(out, x->has & REEL_HAS_ISSUE, x->issue_ns);
			put_i64(out, x->has & REEL_HAS_COMPLETE, x->complete_ns);
			fputs(reel_op_name(x->op), out);
			fputc(',', out);
			if (x->has & REEL_HAS_FLAGS) {
				if (!x->flags) {
					fputs("none", out);
				} else {
					reel_flags_format(x->flags, flags, sizeof(flags));
					for (char *p = flags; *p; p++)
						if (*p == ',')
							*p = '|';
					fputs(flags, out);
				}
			}
			fputc(',', out);
			put_i64(out, x->has & REEL_HAS_DEV, x->dev);
			fprintf(out, "%llu,%u,", (unsigned long long)x->offset, x->length);
			put_i64(out, x->has & REEL_HAS_PID, x->pid);
			if (x->has & REEL_HAS_COMM) {
				const char *c = reel_reader_comm(r, x->comm);
				if (c)
					put_comm(out, c);
			}
			fputc(',', out);
			put_i64(out, x->has & REEL_HAS_CPU, x->cpu);
			if (x->has & REEL_HAS_ERROR)
				fprintf(out, "%d", x->error);
			fputc('\n', out);
		}
		if (ferror(out)) {
			return reel_errf(errmsg, errlen, REEL_E_IO, "cannot write the output: %s",
					 strerror(errno ? errno : EIO));
		}
	}
	if (n < 0) {
		return reel_errf(errmsg, errlen, (int)n, "%s", reel_reader_errmsg(r));
	}
	return 0;
}

const struct reel_exporter reel_exp_csv = {
    .name = "csv",
    .describe = "CSV with a header line (queue_ns,issue_ns,complete_ns,op,flags,dev,offset,"
		"length,pid,comm,cpu,error; absent fields empty)",
    .run = csv_run,
};
