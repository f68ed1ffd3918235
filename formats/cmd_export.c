/*
 * formats/cmd_export.c - `ioreel export`: .reel -> fio iolog, CSV or
 * blkparse-like text (the exporters of formats/import.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ioreel export --to FMT IN.reel -o OUT\n"
		"\n"
		"Write a .reel trace in another tool's format.\n"
		"\n"
		"  -t, --to FMT          fio, csv or blkparse (--to list describes them)\n"
		"  -o, --output FILE     where to write ('-' for stdout)\n"
		"      --overwrite       replace OUT if it exists\n"
		"  -h, --help            this help\n"
		"\n"
		"example: ioreel export --to fio boot.reel -o boot.iolog\n"
		"         fio --name=replay --read_iolog=boot.iolog --replay_redirect=/dev/sdX\n");
}

int cmd_export(int argc, char **argv)
{
	enum { O_OVER = 256 };
	static const struct option longopts[] = {
		{"to", required_argument, NULL, 't'},
		{"output", required_argument, NULL, 'o'},
		{"overwrite", no_argument, NULL, O_OVER},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *to = NULL, *out = NULL;
	int overwrite = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't': to = optarg; break;
		case 'o': out = optarg; break;
		case O_OVER: overwrite = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (to && !strcmp(to, "list")) {
		for (const struct reel_exporter *const *p = reel_exporters(); *p; p++)
			printf("%-10s %s\n", (*p)->name, (*p)->describe);
		return 0;
	}
	if (!to || !out || optind != argc - 1) {
		fprintf(stderr, "ioreel export: %s\n",
			!to ? "choose the format with --to fio|csv|blkparse"
			: !out ? "name the output with -o OUT ('-' for stdout)"
			       : "give exactly one input .reel");
		usage(stderr);
		return 2;
	}
	const struct reel_exporter *ex = reel_exporter_find(to);
	if (!ex) {
		fprintf(stderr, "ioreel export: unknown format '%s'; use fio, csv or blkparse\n", to);
		return 2;
	}
	const char *in = argv[optind];
	struct reel_reader *r = NULL;
	int rc = reel_reader_open(&r, in, 0);
	if (rc) {
		fprintf(stderr, "ioreel export: %s\n", r ? reel_reader_errmsg(r) : reel_strerror(rc));
		reel_reader_close(r);
		return 1;
	}
	FILE *f = stdout;
	int to_stdout = !strcmp(out, "-");
	if (!to_stdout) {
		int fd = open(out, O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL), 0644);
		if (fd < 0) {
			if (errno == EEXIST)
				fprintf(stderr, "ioreel export: %s exists; choose another name or pass "
						"--overwrite\n", out);
			else
				fprintf(stderr, "ioreel export: cannot create %s: %s\n", out,
					strerror(errno));
			reel_reader_close(r);
			return 1;
		}
		f = fdopen(fd, "w");
		if (!f) {
			close(fd);
			reel_reader_close(r);
			return 1;
		}
	}
	static char obuf[1 << 16];
	setvbuf(f, obuf, _IOFBF, sizeof(obuf));
	char errmsg[1024] = "";
	rc = ex->run(r, f, errmsg, sizeof(errmsg));
	if (fflush(f) && !rc) {
		snprintf(errmsg, sizeof(errmsg), "write error on %s: %s", out, strerror(errno));
		rc = REEL_E_IO;
	}
	if (!to_stdout && fclose(f) && !rc) {
		snprintf(errmsg, sizeof(errmsg), "write error on %s: %s", out, strerror(errno));
		rc = REEL_E_IO;
	}
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
