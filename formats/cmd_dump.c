/*
 * formats/cmd_dump.c - `ioreel dump FILE.reel`: one I/O per line, stable
 * text for grep and diff.  Absent fields print as '-'.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "formats/reel.h"

static void put_i64(FILE *f, int has, int64_t v)
{
	if (has)
		fprintf(f, "%lld ", (long long)v);
	else
		fputs("- ", f);
}

int cmd_dump(int argc, char **argv)
{
	int salvage = 0;
	const struct reel_opt opts[] = {
	    OPT_FLAG(0, "salvage", &salvage, "skip corrupt chunks and read the ones around them"),
	    OPT_END,
	};
	const struct reel_cmd_doc doc = {
	    .name = "dump",
	    .usage = "[--salvage] FILE.reel",
	    .about =
		"Print one I/O per line:\n"
		"  queue_ns issue_ns complete_ns dev op flags offset length pid comm cpu error\n"
		"times in ns from the trace's time zero, offset and length in bytes, '-' for a\n"
		"field the trace lacks; process names with blanks have them turned into '_'.\n"
		"In a replay result queue_ns is the scheduled issue time.",
	};
	int first = reel_opt_parse(&doc, opts, argc, argv);
	if (first < 0)
		return reel_opt_exit(first);
	if (first != argc - 1) {
		if (first >= argc)
			fprintf(stderr, "ioreel dump: name the .reel file to read\n");
		else
			fprintf(stderr, "ioreel dump: give exactly one .reel file (%d given)\n",
				argc - first);
		reel_opt_usage(stderr, &doc, opts);
		return 2;
	}
	struct reel_reader *r;
	if (reel_reader_open(&r, argv[first], salvage ? REEL_R_SALVAGE : 0)) {
		fprintf(stderr, "ioreel dump: %s\n", reel_reader_errmsg(r));
		reel_reader_close(r);
		return 1;
	}
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	printf("# queue_ns issue_ns complete_ns dev op flags offset length pid comm cpu error\n");
	const struct reel_rec *recs;
	long n = 0;
	char fl[64], comm[300];
	int werr = 0; /* stdout failing (a full disk) ends the dump */
	while (!werr && (n = reel_read_chunk(r, &recs)) > 0) {
		for (long i = 0; i < n; i++) {
			const struct reel_rec *x = &recs[i];
			put_i64(stdout, x->has & REEL_HAS_QUEUE, x->queue_ns);
			put_i64(stdout, x->has & REEL_HAS_ISSUE, x->issue_ns);
			put_i64(stdout, x->has & REEL_HAS_COMPLETE, x->complete_ns);
			put_i64(stdout, x->has & REEL_HAS_DEV, x->dev);
			reel_flags_format(x->flags, fl, sizeof(fl));
			printf("%s %s %llu %u ", reel_op_name(x->op), fl[0] ? fl : "-",
			       (unsigned long long)x->offset, x->length);
			put_i64(stdout, x->has & REEL_HAS_PID, x->pid);
			const char *cm =
			    x->has & REEL_HAS_COMM ? reel_reader_comm(r, x->comm) : NULL;
			if (cm && *cm) {
				snprintf(comm, sizeof(comm), "%s", cm);
				for (char *p = comm; *p; p++)
					if (*p == ' ' || *p == '\t' || *p == '\n')
						*p = '_';
				reel_fputs_safe(stdout, comm); /* from the file: escaped */
				fputc(' ', stdout);
			} else {
				fputs(x->has & REEL_HAS_COMM ? "_ " : "- ", stdout);
			}
			put_i64(stdout, x->has & REEL_HAS_CPU, x->cpu);
			if (x->has & REEL_HAS_ERROR)
				printf("%d\n", x->error);
			else
				fputs("-\n", stdout);
		}
		if (ferror(stdout))
			werr = errno ? errno : EIO;
	}
	if (!werr && fflush(stdout))
		werr = errno;
	int rc = 0;
	if (werr) {
		fprintf(stderr, "ioreel dump: cannot write to standard output: %s\n",
			strerror(werr));
		rc = 1;
	} else if (n < 0) {
		fprintf(stderr, "ioreel dump: %s\n", reel_reader_errmsg(r));
		rc = 1;
	} else if (!reel_reader_complete(r)) {
		fprintf(stderr, "ioreel dump: warning: %s\n", reel_reader_errmsg(r));
	}
	reel_reader_close(r);
	return rc;
}
