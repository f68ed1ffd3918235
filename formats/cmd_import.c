/*
 * formats/cmd_import.c - `ioreel import`: another tool's trace -> .reel.
 * The formats are the importers of formats/import.c, chosen by --from or
 * detected from the first 64 KiB of the first input.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "formats/reel.h"

struct import_opts {
	const char *from;
	const char *out;
	int overwrite, quiet;
	struct reel_import_opts io;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ioreel import [--from FMT] IN... -o OUT.reel [options]\n"
		"\n"
		"Convert another tool's block trace into a .reel file.  The format is\n"
		"detected from the first input unless --from names it.\n"
		"\n"
		"  -f, --from FMT        input format (--from list shows them)\n"
		"  -o, --output FILE     the .reel to write ('-' for stdout)\n"
		"      --skip-bad        skip malformed lines (counted) instead of stopping\n"
		"      --lba-size N      SPC/UMass block size in bytes (default 512)\n"
		"      --time-unit U     DiskSim time unit: ns, us, ms (default) or s\n"
		"      --overwrite       replace OUT.reel if it exists\n"
		"  -q, --quiet           no progress or summary on stderr\n"
		"  -h, --help            this help\n"
		"\n"
		"example: ioreel import wdev_1.csv -o wdev_1.reel\n");
}

static void list_formats(void)
{
	for (const struct reel_importer *const *p = reel_importers(); *p; p++)
		printf("%-10s %s\n", (*p)->name, (*p)->describe);
}

/* ---- progress: a thread that reports bytes read every 2 s ---- */
struct progress {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop, printed;
	const struct reel_import_stats *st;
	uint64_t total;
	int64_t start;
};

static void *progress_main(void *arg)
{
	struct progress *p = arg;
	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 2;
		pthread_cond_timedwait(&p->cv, &p->mu, &ts);
		if (p->stop)
			break;
		uint64_t b = __atomic_load_n(&p->st->bytes_in, __ATOMIC_RELAXED);
		double secs = (double)(reel_now_ns() - p->start) / 1e9;
		if (p->total)
			fprintf(stderr, "\rioreel import: %.0f of %.0f MB (%.0f%%), %.1f MB/s   ",
				b / 1e6, p->total / 1e6, 100.0 * (double)b / (double)p->total,
				b / 1e6 / secs);
		else
			fprintf(stderr, "\rioreel import: %.0f MB, %.1f MB/s   ", b / 1e6,
				b / 1e6 / secs);
		p->printed = 1;
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static int run_import(const struct import_opts *o, const struct reel_importer *imp,
		      char **in, size_t nin)
{
	/* input size for the progress line (an input may also be a base name,
	 * blktrace's NAME for NAME.blktrace.N: the importer opens the files) */
	uint64_t total = 0;
	for (size_t i = 0; i < nin; i++) {
		struct stat sb;
		if (strcmp(in[i], "-") && !stat(in[i], &sb) && S_ISREG(sb.st_mode))
			total += (uint64_t)sb.st_size;
	}
	char source[64], detail[1024];
	snprintf(source, sizeof(source), "imported:%s", imp->name);
	size_t dl = 0;
	detail[0] = 0;
	for (size_t i = 0; i < nin && dl < sizeof(detail) - 1; i++) {
		int k = snprintf(detail + dl, sizeof(detail) - dl, "%s%s", i ? " " : "", in[i]);
		if (k < 0)
			break;
		dl += (size_t)k;
	}
	struct reel_header h = {.source = source, .source_detail = detail};
	struct reel_writer *w = NULL;
	int to_stdout = !strcmp(o->out, "-");
	int rc = reel_writer_open(&w, to_stdout ? NULL : o->out, to_stdout ? 1 : -1, &h,
				  o->overwrite ? REEL_W_OVERWRITE : 0);
	if (rc) {
		fprintf(stderr, "ioreel import: %s\n", w ? reel_writer_errmsg(w) : reel_strerror(rc));
		reel_writer_destroy(w);
		return 1;
	}
	struct reel_import_stats st;
	memset(&st, 0, sizeof(st));
	char errmsg[1024] = "";
	struct progress pr = {.st = &st, .total = total, .start = reel_now_ns()};
	int have_thread = 0;
	if (!o->quiet) {
		pthread_mutex_init(&pr.mu, NULL);
		pthread_cond_init(&pr.cv, NULL);
		have_thread = !pthread_create(&pr.th, NULL, progress_main, &pr);
	}
	int64_t t0 = reel_now_ns();
	rc = imp->run((const char *const *)in, nin, &o->io, w, &st, errmsg, sizeof(errmsg));
	double secs = (double)(reel_now_ns() - t0) / 1e9;
	if (have_thread) {
		pthread_mutex_lock(&pr.mu);
		pr.stop = 1;
		pthread_cond_signal(&pr.cv);
		pthread_mutex_unlock(&pr.mu);
		pthread_join(pr.th, NULL);
		if (pr.printed)
			fputc('\n', stderr);
	}
	if (!rc) {
		rc = reel_writer_close(w);
		if (rc)
			snprintf(errmsg, sizeof(errmsg), "%s", reel_writer_errmsg(w));
		w = NULL;
	}
	if (rc) {
		fprintf(stderr, "ioreel import: %s\n", errmsg[0] ? errmsg : reel_strerror(rc));
		reel_writer_destroy(w);
		if (!to_stdout)
			unlink(o->out); /* a partial file is of no use */
		return 1;
	}
	if (!o->quiet) {
		fprintf(stderr, "ioreel import: %llu records from %zu file%s (%llu lines, %.1f MB) in %.2f s",
			(unsigned long long)st.records, nin, nin == 1 ? "" : "s",
			(unsigned long long)st.lines, st.bytes_in / 1e6, secs);
		if (secs > 0 && st.bytes_in)
			fprintf(stderr, ", %.1f MB/s", st.bytes_in / 1e6 / secs);
		fprintf(stderr, "; %llu bad line%s skipped\n", (unsigned long long)st.bad,
			st.bad == 1 ? "" : "s");
		const struct reel_join_stats *j = &st.join;
		if (j->records || !strcmp(imp->name, "blktrace") || !strcmp(imp->name, "blkparse"))
			fprintf(stderr,
				"ioreel import: %llu I/Os without issue, %llu without completion; "
				"%llu merged, %llu split, %llu remapped, %llu unmatched events\n",
				(unsigned long long)j->no_issue, (unsigned long long)j->no_complete,
				(unsigned long long)j->merged, (unsigned long long)j->split,
				(unsigned long long)j->remapped, (unsigned long long)j->orphan_events);
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	enum { O_SKIP = 256, O_LBA, O_TU, O_OVER };
	static const struct option longopts[] = {
		{"from", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"skip-bad", no_argument, NULL, O_SKIP},
		{"lba-size", required_argument, NULL, O_LBA},
		{"time-unit", required_argument, NULL, O_TU},
		{"overwrite", no_argument, NULL, O_OVER},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct import_opts o = {0};
	o.io.lba_size = 512;
	o.io.time_unit_ns = 1000000;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': o.from = optarg; break;
		case 'o': o.out = optarg; break;
		case 'q': o.quiet = 1; break;
		case O_SKIP: o.io.skip_bad = 1; break;
		case O_OVER: o.overwrite = 1; break;
		case O_LBA: {
			uint64_t v;
			if (reel_parse_size(optarg, &v) || v == 0 || v > (1u << 20)) {
				fprintf(stderr, "ioreel import: --lba-size '%s': give a block size "
						"in bytes, 1 to 1M (e.g. 512 or 4k)\n", optarg);
				return 2;
			}
			o.io.lba_size = (uint32_t)v;
			break;
		}
		case O_TU:
			if (!strcmp(optarg, "ns"))
				o.io.time_unit_ns = 1;
			else if (!strcmp(optarg, "us"))
				o.io.time_unit_ns = 1000;
			else if (!strcmp(optarg, "ms"))
				o.io.time_unit_ns = 1000000;
			else if (!strcmp(optarg, "s"))
				o.io.time_unit_ns = 1000000000;
			else {
				fprintf(stderr, "ioreel import: --time-unit '%s': use ns, us, ms or s\n",
					optarg);
				return 2;
			}
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (o.from && !strcmp(o.from, "list")) {
		list_formats();
		return 0;
	}
	if (optind >= argc || !o.out) {
		fprintf(stderr, "ioreel import: %s\n",
			optind >= argc ? "name at least one input" : "name the output with -o OUT.reel");
		usage(stderr);
		return 2;
	}
	char **in = argv + optind;
	size_t nin = (size_t)(argc - optind);
	const struct reel_importer *imp;
	if (o.from) {
		imp = reel_importer_find(o.from);
		if (!imp) {
			fprintf(stderr, "ioreel import: unknown format '%s'; formats:\n", o.from);
			for (const struct reel_importer *const *p = reel_importers(); *p; p++)
				fprintf(stderr, "  %s\n", (*p)->name);
			return 2;
		}
	} else {
		if (!strcmp(in[0], "-")) {
			fprintf(stderr, "ioreel import: name the format of standard input with --from "
					"(--from list shows them)\n");
			return 2;
		}
		/* blktrace's base name: detect from its first per-CPU file */
		char first[4096];
		const char *probe = in[0];
		if (access(in[0], F_OK) &&
		    snprintf(first, sizeof(first), "%s.blktrace.0", in[0]) < (int)sizeof(first) &&
		    !access(first, F_OK))
			probe = first;
		if (access(probe, R_OK)) {
			fprintf(stderr, "ioreel import: %s: %s\n", in[0], strerror(errno));
			return 1;
		}
		imp = reel_importer_detect(probe);
		if (!imp) {
			fprintf(stderr, "ioreel import: cannot tell the format of %s; name it with "
					"--from FMT (--from list shows them)\n", in[0]);
			return 1;
		}
		if (!o.quiet)
			fprintf(stderr, "ioreel import: %s looks like %s (%s); use --from to choose "
					"another format\n", in[0], imp->name, imp->describe);
	}
	return run_import(&o, imp, in, nin);
}
