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

/* Create OUT (or take stdout for "-"); NULL after saying why. */
static FILE *open_output(const char *out, int overwrite)
{
	if (!strcmp(out, "-"))
		return stdout;
	int fd = open(out, O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL), 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			fprintf(stderr, "ioreel export: %s exists; choose another name or pass "
					"--overwrite\n", out);
		else
			fprintf(stderr, "ioreel export: cannot create %s: %s\n", out, strerror(errno));
		return NULL;
	}
	FILE *f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

int cmd_export(int argc, char **argv)
{
	const char *to = NULL, *out = NULL;
	int overwrite = 0;
	const struct reel_opt opts[] = {
		OPT_STR('t', "to", "FMT", &to, "fio, csv or blkparse (--to list describes them)"),
		OPT_STR('o', "output", "FILE", &out, "where to write ('-' for stdout)"),
		OPT_FLAG(0, "overwrite", &overwrite, "replace OUT if it exists"),
		OPT_END,
	};
	const struct reel_cmd_doc doc = {
		.name = "export",
		.usage = "--to FMT IN.reel -o OUT",
		.about = "Write a .reel trace in another tool's format.",
		.footer = "example: ioreel export --to fio boot.reel -o boot.iolog\n"
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
			!to ? "choose the format with --to fio|csv|blkparse"
			: !out ? "name the output with -o OUT ('-' for stdout)"
			       : "give exactly one input .reel");
		reel_opt_usage(stderr, &doc, opts);
		return 2;
	}
	const struct reel_exporter *ex = reel_exporter_find(to);
	if (!ex) {
		fprintf(stderr, "ioreel export: unknown format '%s'; use fio, csv or blkparse\n", to);
		return 2;
	}
	const char *in = argv[first];
	struct reel_reader *r = NULL;
	int rc = reel_reader_open(&r, in, 0);
	if (rc) {
		fprintf(stderr, "ioreel export: %s\n", r ? reel_reader_errmsg(r) : reel_strerror(rc));
		reel_reader_close(r);
		return 1;
	}
	int to_stdout = !strcmp(out, "-");
	FILE *f = open_output(out, overwrite);
	if (!f) {
		reel_reader_close(r);
		return 1;
	}
	static char obuf[1 << 16];
	setvbuf(f, obuf, _IOFBF, sizeof(obuf));
	char errmsg[1024] = "";
	rc = ex->run(r, f, errmsg, sizeof(errmsg));
	if (fflush(f) && !rc)
		rc = reel_errf(errmsg, sizeof(errmsg), REEL_E_IO, "write error on %s: %s", out,
			       strerror(errno));
	if (!to_stdout && fclose(f) && !rc)
		rc = reel_errf(errmsg, sizeof(errmsg), REEL_E_IO, "write error on %s: %s", out,
			       strerror(errno));
	if (rc) {
		fprintf(stderr, "ioreel export: %s\n", errmsg[0] ? errmsg : reel_strerror(rc));
		reel_reader_close(r);
		if (!to_stdout)
			unlink(out);
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
