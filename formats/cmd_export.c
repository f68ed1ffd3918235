/*
 * formats/cmd_export.c - `ioreel export`: .reel -> fio iolog, CSV or
 * blkparse-like text (the exporters of formats/import.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"

int cmd_export(int argc, char **argv)
{
	const char *to = NULL, *out = NULL;
	int overwrite = 0;
	const struct reel_opt opts[] = {
	    OPT_STR('t', "to", "FMT", &to, "fio, csv or blkparse (--to list describes them)"),
	    OPT_STR('o', "output", "FILE", &out, "where to write ('-' for stdout)"),
	    OPT_FLAG(0, "overwrite", &overwrite,
		     "replace OUT if it exists.  Always needed: a text export\n"
		     "carries no mark of ioreel, so none is replaced without it"),
	    OPT_END,
	};
	const struct reel_cmd_doc doc = {
	    .name = "export",
	    .usage = "--to FMT IN.reel -o OUT",
	    .about = "Write a .reel trace in another tool's format.",
	    .footer =
		"example: ioreel export --to fio boot.reel -o boot.iolog\n"
		"         fio --name=replay --read_iolog=boot.iolog --replay_redirect=/dev/sdX\n",
	};
	int first = reel_opt_parse(&doc, opts, argc, argv);
	if (first < 0)
		return reel_opt_exit(first);
	if (to && !strcmp(to, "list")) {
		for (const struct reel_exporter *const *p = reel_exporters(); *p; p++)
			printf("%-10s %s\n", (*p)->name, (*p)->describe);
		return 0;
	}
	if (!to || !out || first != argc - 1) {
		fprintf(stderr, "ioreel export: %s\n",
			!to    ? "choose the format with --to fio|csv|blkparse"
			: !out ? "name the output with -o OUT ('-' for stdout)"
			       : "give exactly one input .reel");
		reel_opt_usage(stderr, &doc, opts);
		return 2;
	}
	const struct reel_exporter *ex = reel_exporter_find(to);
	if (!ex) {
		fprintf(stderr, "ioreel export: unknown format '%s'; use fio, csv or blkparse\n",
			to);
		return 2;
	}
	const char *in = argv[first];
	struct reel_reader *r = NULL;
	int rc = reel_reader_open(&r, in, 0);
	if (rc) {
		fprintf(stderr, "ioreel export: %s\n",
			r ? reel_reader_errmsg(r) : reel_strerror(rc));
		reel_reader_close(r);
		return 1;
	}
	reel_out_catch_signals(); /* Ctrl-C leaves no temporary behind */
	int to_stdout = !strcmp(out, "-");
	struct reel_out ro;
	char errmsg[1024] = "";
	const char *inputs[] = {in};
	/* text exports are never replaced without --overwrite: no way to tell
	 * ours from someone's */
	rc = reel_out_open(&ro, AT_FDCWD, out,
			   REEL_OUT_STDOUT | (overwrite ? REEL_OUT_OVERWRITE : 0), NULL, inputs, 1,
			   errmsg, sizeof(errmsg));
	if (rc) {
		fprintf(stderr, "ioreel export: %s\n", errmsg);
		reel_reader_close(r);
		return 1;
	}
	FILE *f = ro.f;
	static char obuf[1 << 16];
	setvbuf(f, obuf, _IOFBF, sizeof(obuf));
	rc = ex->run(r, f, errmsg, sizeof(errmsg));
	if (!rc)
		rc = reel_out_commit(&ro, errmsg, sizeof(errmsg));
	if (rc) {
		fprintf(stderr, "ioreel export: %s\n", errmsg[0] ? errmsg : reel_strerror(rc));
		reel_reader_close(r);
		reel_out_abort(&ro); /* only our temporary: the final name is untouched */
		return 1;
	}
	struct reel_summary s;
	reel_reader_seen(r, &s);
	if (!reel_reader_complete(r))
		fprintf(stderr, "ioreel export: warning: %s\n", reel_reader_errmsg(r));
	fprintf(stderr, "ioreel export: %llu records written to %s as %s\n",
		(unsigned long long)s.count, to_stdout ? "stdout" : out, ex->name);
	reel_reader_close(r);
	return 0;
}
