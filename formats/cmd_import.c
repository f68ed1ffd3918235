/*
 * formats/cmd_import.c - `ioreel import`: another tool's trace -> .reel.
 * The formats are the importers of formats/import.c, chosen by --from or
 * detected from the first 64 KiB of the first input.
 */
#include <errno.h>
#include <fcntl.h>
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
	int overwrite, quiet, allow_empty;
	struct reel_import_opts io;
};

static void list_formats(void)
{
	for (const struct reel_importer *const *p = reel_importers(); *p; p++)
		printf("%-10s %s\n", (*p)->name, (*p)->describe);
}

/* ---- progress: a thread that reports bytes read ----
 * On a terminal one line rewritten every 2 s; otherwise (a log, a pipe) a
 * whole line every 5 s, never a carriage return glued into the log. */
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
	int tty = isatty(2);
	const char *pre = tty ? "\r" : "", *post = tty ? "   " : "\n";
	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += tty ? 2 : 5;
		pthread_cond_timedwait(&p->cv, &p->mu, &ts);
		if (p->stop)
			break;
		uint64_t b = __atomic_load_n(&p->st->bytes_in, __ATOMIC_RELAXED);
		double secs = (double)(reel_now_ns() - p->start) / 1e9;
		if (p->total)
			fprintf(stderr, "%sioreel import: %.0f of %.0f MB (%.0f%%), %.1f MB/s%s",
				pre, b / 1e6, p->total / 1e6, 100.0 * (double)b / (double)p->total,
				b / 1e6 / secs, post);
		else
			fprintf(stderr, "%sioreel import: %.0f MB, %.1f MB/s%s", pre, b / 1e6,
				b / 1e6 / secs, post);
		p->printed = tty;
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* An existing .reel that an earlier import wrote: replaced without
 * --overwrite (its header's source is imported:FMT). */
static int import_is_ours(const char *path) { return reel_out_reel_source(path, "imported"); }

/* The output: a temporary beside OUT (or stdout), the writer on its fd. */
static int open_output(const struct import_opts *o, const struct reel_importer *imp, char **in,
		       size_t nin, struct reel_out *out, struct reel_writer **w)
{
	char source[64], detail[1024], err[1024];
	snprintf(source, sizeof(source), "imported:%s", imp->name);
	size_t dl = 0;
	detail[0] = 0;
	for (size_t i = 0; i < nin && dl < sizeof(detail) - 1; i++) {
		int k = snprintf(detail + dl, sizeof(detail) - dl, "%s%s", i ? " " : "", in[i]);
		if (k < 0)
			break;
		dl += (size_t)k;
	}
	int rc = reel_out_open(out, AT_FDCWD, o->out,
			       REEL_OUT_FD_ONLY | REEL_OUT_STDOUT |
				   (o->overwrite ? REEL_OUT_OVERWRITE : 0),
			       import_is_ours, (const char *const *)in, nin, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ioreel import: %s\n", err);
		return 1;
	}
	struct reel_header h = {.source = source, .source_detail = detail};
	rc = reel_writer_open(w, NULL, out->fd, &h, 0);
	if (rc) {
		fprintf(stderr, "ioreel import: %s\n",
			*w ? reel_writer_errmsg(*w) : reel_strerror(rc));
		reel_writer_destroy(*w);
		*w = NULL;
		reel_out_abort(out);
		return 1;
	}
	return 0;
}

static int run_import(const struct import_opts *o, const struct reel_importer *imp, char **in,
		      size_t nin)
{
	/* input size for the progress line (an input may also be a base name,
	 * blktrace's NAME for NAME.blktrace.N: the importer opens the files) */
	uint64_t total = 0;
	for (size_t i = 0; i < nin; i++) {
		struct stat sb;
		if (strcmp(in[i], "-") && !stat(in[i], &sb) && S_ISREG(sb.st_mode))
			total += (uint64_t)sb.st_size;
		else if (strcmp(in[i], "-") && !stat(in[i], &sb) && S_ISDIR(sb.st_mode)) {
			fprintf(stderr,
				"ioreel import: %s is a folder: name the trace files in it\n",
				in[i]);
			return 1;
		}
	}
	struct reel_writer *w = NULL;
	struct reel_out out;
	reel_out_catch_signals(); /* nothing under the final name */
	if (open_output(o, imp, in, nin, &out, &w))
		return 1;
	int rc;
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
	if (!rc && !st.records && !o->allow_empty)
		rc = reel_errf(errmsg, sizeof(errmsg), REEL_E_PARSE,
			       "no records in %s%s: nothing imported (--allow-empty writes an "
			       "empty trace)",
			       in[0], nin > 1 ? " ..." : "");
	if (!rc) {
		rc = reel_writer_close(w);
		if (rc)
			reel_errf(errmsg, sizeof(errmsg), rc, "%s", reel_writer_errmsg(w));
		w = NULL;
	}
	if (!rc)
		rc = reel_out_commit(&out, errmsg, sizeof(errmsg));
	if (rc) {
		fprintf(stderr, "ioreel import: %s\n", errmsg[0] ? errmsg : reel_strerror(rc));
		reel_writer_destroy(w);
		reel_out_abort(&out); /* only our temporary: the final name is untouched */
		return 1;
	}
	if (!o->quiet) {
		fprintf(
		    stderr,
		    "ioreel import: %llu record%s from %zu file%s (%llu lines, %.1f MB) in %.2f s",
		    (unsigned long long)st.records, st.records == 1 ? "" : "s", nin,
		    nin == 1 ? "" : "s", (unsigned long long)st.lines, st.bytes_in / 1e6, secs);
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
				(unsigned long long)j->remapped,
				(unsigned long long)j->orphan_events);
	}
	return 0;
}

/* The importer --from names, or the one that recognises the first input. */
/* 1 when path starts with an LZ4 frame, as every .reel does. */
static int is_reel(const char *path)
{
	unsigned char b[4];
	FILE *f = fopen(path, "rb");
	int yes = f && fread(b, 1, 4, f) == 4 && b[0] == 0x04 && b[1] == 0x22 && b[2] == 0x4d &&
		  b[3] == 0x18;
	if (f)
		fclose(f);
	return yes;
}

static const struct reel_importer *choose_importer(const struct import_opts *o, char **in,
						   int *status)
{
	const struct reel_importer *imp;
	*status = 2;
	if (o->from) {
		imp = reel_importer_find(o->from);
		if (!imp) {
			fprintf(stderr, "ioreel import: unknown format '%s'; formats:\n", o->from);
			for (const struct reel_importer *const *p = reel_importers(); *p; p++)
				fprintf(stderr, "  %s\n", (*p)->name);
		}
		return imp;
	}
	if (!strcmp(in[0], "-")) {
		fprintf(stderr, "ioreel import: name the format of standard input with --from "
				"(--from list shows them)\n");
		return NULL;
	}
	*status = 1;
	struct stat sb;
	if (!stat(in[0], &sb) && S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "ioreel import: %s is a folder: name the trace files in it\n",
			in[0]);
		return NULL;
	}
	if (!stat(in[0], &sb) && !S_ISREG(sb.st_mode)) {
		fprintf(stderr,
			"ioreel import: %s is not a regular file: the format is detected "
			"by reading its start, which a FIFO or device cannot give back; name "
			"the format with --from FMT (--from list shows them)\n",
			in[0]);
		return NULL;
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
		return NULL;
	}
	imp = reel_importer_detect(probe);
	if (!imp && !stat(probe, &sb) && sb.st_size == 0) {
		fprintf(stderr,
			"ioreel import: %s is empty (0 bytes): nothing to import "
			"(--from FMT --allow-empty writes an empty trace)\n",
			in[0]);
		return NULL;
	}
	if (!imp && is_reel(probe)) {
		fprintf(stderr,
			"ioreel import: %s is already a .reel file: nothing to import "
			"('ioreel info' describes it)\n",
			in[0]);
		return NULL;
	}
	if (!imp) {
		fprintf(stderr,
			"ioreel import: cannot tell the format of %s; name it with "
			"--from FMT (--from list shows them)\n",
			in[0]);
		return NULL;
	}
	if (!o->quiet)
		fprintf(stderr,
			"ioreel import: %s looks like %s (%s); use --from to choose "
			"another format\n",
			in[0], imp->name, imp->describe);
	return imp;
}

static const char *const time_units[] = {"ns", "us", "ms", "s", NULL};
static const int64_t time_unit_ns[] = {1, 1000, 1000000, 1000000000};

int cmd_import(int argc, char **argv)
{
	struct import_opts o = {0};
	int skip_bad = 0, unit = 2;
	uint64_t lba = 512;
	const struct reel_opt opts[] = {
	    OPT_STR('f', "from", "FMT", &o.from, "input format (--from list shows them)"),
	    OPT_STR('o', "output", "FILE", &o.out, "the .reel to write ('-' for stdout)"),
	    OPT_FLAG(0, "skip-bad", &skip_bad,
		     "skip malformed lines (counted) instead of stopping"),
	    OPT_SIZE(0, "lba-size", "N", &lba, 1, 1 << 20,
		     "SPC/UMass block size in bytes, 1 to 1M (default 512)"),
	    OPT_CHOICE(0, "time-unit", "U", &unit, time_units,
		       "DiskSim time unit: ns, us, ms (default) or s"),
	    OPT_FLAG(0, "overwrite", &o.overwrite,
		     "replace OUT.reel if it exists; not needed for a .reel an earlier\n"
		     "import wrote (the one rule: only ioreel's own output of this\n"
		     "kind is replaced without --overwrite)"),
	    OPT_FLAG(0, "allow-empty", &o.allow_empty,
		     "write an empty trace when the input holds no records (else exit 1)"),
	    OPT_FLAG('q', "quiet", &o.quiet, "no progress or summary on stderr"),
	    OPT_END,
	};
	const struct reel_cmd_doc doc = {
	    .name = "import",
	    .usage = "[--from FMT] IN... -o OUT.reel [options]",
	    .about = "Convert another tool's block trace into a .reel file.  The format is\n"
		     "detected from the first input unless --from names it.",
	    .footer = "example: ioreel import wdev_1.csv -o wdev_1.reel\n",
	};
	int first = reel_opt_parse(&doc, opts, argc, argv);
	if (first < 0)
		return reel_opt_exit(first);
	o.io.skip_bad = (unsigned)skip_bad;
	o.io.lba_size = (uint32_t)lba;
	o.io.time_unit_ns = time_unit_ns[unit];
	if (o.from && !strcmp(o.from, "list")) {
		list_formats();
		return 0;
	}
	if (first >= argc || !o.out) {
		fprintf(stderr, "ioreel import: %s\n",
			first >= argc ? "name at least one input"
				      : "name the output with -o OUT.reel");
		reel_opt_usage(stderr, &doc, opts);
		return 2;
	}
	char **in = argv + first;
	int status;
	const struct reel_importer *imp = choose_importer(&o, in, &status);
	if (!imp)
		return status;
	return run_import(&o, imp, in, (size_t)(argc - first));
}
