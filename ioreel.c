/*
 * ioreel.c - the dispatcher: a table of subcommands, nothing else.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "formats/reel.h"
#include "model/model.h"
#include "plots/plots.h"
#include "replay/replay.h"
#include "suite/suite.h"
#ifdef IOREEL_MPI
#include "cluster/cluster.h"
#endif

#ifndef IOREEL_VERSION
#define IOREEL_VERSION "0.1"
#endif

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
} commands[] = {
    {"capture", cmd_capture, "-o OUT.reel [-d DEV]... [--duration S] [--drop-caches] [-- CMD ...]"},
    {"import", cmd_import, "[--from FMT] IN... -o OUT.reel"},
    {"export", cmd_export, "--to fio|csv|blkparse IN.reel -o OUT"},
    {"info", cmd_info, "[--json] [--salvage] [--strict] FILE.reel"},
    {"dump", cmd_dump, "[--salvage] FILE.reel"},
    {"replay", cmd_replay, "TRACE.reel --target PATH[,PATH...] [-o RESULT.reel] [--json FILE] ..."},
    {"model", cmd_model, "fit|gen|compare ..."},
    {"plot", cmd_plot, "RESULT.reel... -o DIR"},
    {"compare", cmd_compare, "RESULT.reel... [-o DIR]"},
    {"suite", cmd_suite, "[PLAN] --drive NAME=PATH... -o DIR"},
    {"demo", cmd_demo, "[-o DIR]   (replay a bundled trace on scratch files, compare)"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: ioreel COMMAND [ARGS]\n\n"
		   "Capture, store, replay, model and compare block I/O traces.\n\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  ioreel %-8s %s\n", commands[i].name, commands[i].usage);
	fprintf(f, "\n'ioreel COMMAND --help' describes a command; 'man ioreel' all of them.\n");
}

/* Output that standard output could not take (a full disk, a closed pipe)
 * must not pass for a whole one: it fails the command, as in git and the
 * coreutils.  A closed pipe is the reader's choice: no message then. */
static int finish(const char *cmd, int rc)
{
	int e = fflush(stdout) ? errno : 0;
	if (!e && !ferror(stdout))
		return rc;
	if (!rc && e != EPIPE) /* a command that failed has said why */
		fprintf(stderr, "ioreel%s%s: cannot write to standard output: %s\n", cmd ? " " : "",
			cmd ? cmd : "", e ? strerror(e) : "a write failed");
	return rc ? rc : 1;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("ioreel %s\n", IOREEL_VERSION);
		return 0;
	}
	/* replay and capture with --mpi (before any "--"): the cluster module */
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--mpi") &&
		    (!strcmp(argv[1], "replay") || !strcmp(argv[1], "capture"))) {
#ifdef IOREEL_MPI
			if (argv[1][0] == 'r')
				return cmd_cluster_replay(argc - 1, argv + 1);
			return cmd_cluster_capture(argc - 1, argv + 1);
#else
			fprintf(stderr,
				"ioreel %s: --mpi needs ioreel-mpi, built beside ioreel when "
				"Open MPI (mpicc) is installed; see docs/mpi.md\n",
				argv[1]);
			return 2;
#endif
		}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "ioreel: '%s' is not a command; 'ioreel --help' lists them\n", argv[1]);
	return 2;
}

int main(int argc, char **argv)
{
	int rc = dispatch(argc, argv);
	return finish(argc > 1 && argv[1][0] != '-' ? argv[1] : NULL, rc);
}
