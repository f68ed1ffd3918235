/*
 * formats/cmd_info.c - `ioreel info [--json] [--salvage] FILE.reel`
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/reel.h"

static const char *human(double b, char *buf, size_t len)
{
	const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	int i = 0;
	while (b >= 1024 && i < 5) {
		b /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f B", b);
	else
		snprintf(buf, len, "%.*f %s", b < 10 ? 2 : 1, b, u[i]);
	return buf;
}

static const char *dur(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", ns / 1e9);
	return buf;
}

static const double pct[] = {0.5, 0.9, 0.99, 0.999, 0.9999};
static const char *const pct_name[] = {"p50", "p90", "p99", "p99.9", "p99.99"};
#define NPCT (sizeof(pct) / sizeof(pct[0]))

static void json_hist(FILE *f, const struct reel_hist *h)
{
	fprintf(f, "{\"count\":%llu,\"min\":%llu,\"mean\":%.1f", (unsigned long long)h->count,
		(unsigned long long)h->min, reel_hist_mean(h));
	for (size_t i = 0; i < NPCT; i++)
		fprintf(f, ",\"%s\":%llu", pct_name[i],
			(unsigned long long)reel_hist_quantile(h, pct[i]));
	fprintf(f, ",\"max\":%llu}", (unsigned long long)h->max);
}

static void text_hist(FILE *f, const char *label, const struct reel_hist *h, int bytes)
{
	char b[32];
	fprintf(f, "  %-14s n=%llu", label, (unsigned long long)h->count);
	fprintf(f, " mean %s",
		bytes ? human(reel_hist_mean(h), b, sizeof(b))
		      : dur(reel_hist_mean(h), b, sizeof(b)));
	for (size_t i = 0; i < NPCT; i++) {
		double v = (double)reel_hist_quantile(h, pct[i]);
		fprintf(f, "  %s %s", pct_name[i],
			bytes ? human(v, b, sizeof(b)) : dur(v, b, sizeof(b)));
	}
	fprintf(f, "  max %s\n",
		bytes ? human((double)h->max, b, sizeof(b)) : dur((double)h->max, b, sizeof(b)));
}

static void print_meta_value(FILE *f, const struct reel_meta *m, int json)
{
	switch (m->type) {
	case REEL_META_STR:
		if (json)
			reel_json_str(f, m->s);
		else
			reel_fputs_safe(f, m->s);
		break;
	case REEL_META_INT:
		fprintf(f, "%lld", (long long)m->i);
		break;
	case REEL_META_DBL:
		fprintf(f, "%.6g", m->d);
		break;
	}
}

static void print_json(FILE *f, const char *path, struct reel_reader *r, const struct reel_stats *s)
{
	const struct reel_header *h = reel_reader_header(r);
	double d = (double)(s->last_ns - s->first_ns);
	fprintf(f, "{\"file\":");
	reel_json_str(f, path);
	fprintf(f, ",\"format_version\":%u,\"complete\":%s,\"skipped_chunks\":%llu,\"source\":",
		h->version, reel_reader_complete(r) ? "true" : "false",
		(unsigned long long)reel_reader_skipped(r));
	reel_json_str(f, h->source);
	fprintf(f, ",\"source_detail\":");
	reel_json_str(f, h->source_detail);
	fprintf(f, ",\"start_unix_ns\":%lld,\"devices\":[", (long long)h->start_unix_ns);
	for (size_t i = 0; i < h->ndevices; i++) {
		const struct reel_device *dv = &h->devices[i];
		fprintf(f, "%s{\"id\":%u,\"name\":", i ? "," : "", dv->id);
		reel_json_str(f, dv->name);
		fprintf(f, ",\"major\":%u,\"minor\":%u,\"lbs\":%u,\"pbs\":%u,\"capacity\":%llu}",
			dv->major, dv->minor, dv->lbs, dv->pbs, (unsigned long long)dv->capacity);
	}
	fprintf(f,
		"],\"ios\":%llu,\"first_ns\":%lld,\"last_ns\":%lld,\"end_ns\":%lld,"
		"\"duration_ns\":%lld,\"ops\":{",
		(unsigned long long)s->sum.count, (long long)s->first_ns, (long long)s->last_ns,
		(long long)s->end_ns, (long long)(s->last_ns - s->first_ns));
	for (int i = 0; i < REEL_OP__COUNT; i++)
		fprintf(f, "%s\"%s\":{\"count\":%llu,\"bytes\":%llu}", i ? "," : "",
			reel_op_name(i), (unsigned long long)s->sum.ops[i],
			(unsigned long long)s->sum.bytes[i]);
	fprintf(f, "},\"sizes\":");
	json_hist(f, &s->size);
	fprintf(f, ",\"top_sizes\":[");
	for (size_t i = 0; i < s->ntop; i++)
		fprintf(f, "%s{\"bytes\":%u,\"count\":%llu}", i ? "," : "", s->top_size[i],
			(unsigned long long)s->top_count[i]);
	uint64_t bytes = 0;
	for (int i = 0; i < REEL_OP__COUNT; i++)
		bytes += s->sum.bytes[i];
	fprintf(f, "],\"iops_mean\":%.3f,\"mbps_mean\":%.3f,\"iops_peak\":%.0f,\"mbps_peak\":%.3f,",
		d > 0 ? (double)s->sum.count * 1e9 / d : 0, d > 0 ? (double)bytes * 1e3 / d : 0,
		s->peak_iops, s->peak_mbps);
	fprintf(f, "\"with_issue\":%llu,\"with_complete\":%llu,\"errors\":%llu,",
		(unsigned long long)s->with_issue, (unsigned long long)s->with_complete,
		(unsigned long long)s->errors);
	fprintf(f,
		"\"inflight_max\":%llu,\"inflight_mean\":%.3f,\"inflight_busy_mean\":%.3f,"
		"\"latency_ns\":{",
		(unsigned long long)s->inflight_max, s->inflight_mean, s->inflight_busy_mean);
	int first = 1;
	for (int i = 0; i <= REEL_OP__COUNT; i++) {
		if (!s->lat[i].count)
			continue;
		fprintf(f, "%s\"%s\":", first ? "" : ",",
			i == REEL_OP__COUNT ? "all" : reel_op_name(i));
		json_hist(f, &s->lat[i]);
		first = 0;
	}
	fprintf(f, "},\"queue_to_complete_ns\":");
	json_hist(f, &s->qlat);
	fprintf(f, ",\"queue_to_issue_ns\":");
	json_hist(f, &s->qdelay);
	fprintf(f, ",\"meta\":{");
	size_t nm;
	const struct reel_meta *m = reel_reader_meta_all(r, &nm);
	for (size_t i = 0; i < nm; i++) {
		fprintf(f, "%s", i ? "," : "");
		reel_json_str(f, m[i].key);
		fputc(':', f);
		print_meta_value(f, &m[i], 1);
	}
	fprintf(f, "}}\n");
}

static void print_text(FILE *f, const char *path, struct reel_reader *r, const struct reel_stats *s)
{
	const struct reel_header *h = reel_reader_header(r);
	char b1[32], b2[32];
	fprintf(f, "file         %s (format version %u%s)\n", path, h->version,
		reel_reader_complete(r) ? "" : ", cut short: no index");
	/* text from the file: escaped, it may hold anything */
	fputs("source       ", f);
	reel_fputs_safe(f, h->source);
	fputs(h->source_detail[0] ? ": " : "", f);
	reel_fputs_safe(f, h->source_detail);
	fputc('\n', f);
	if (h->start_unix_ns) {
		time_t t = (time_t)(h->start_unix_ns / 1000000000);
		struct tm tm;
		gmtime_r(&t, &tm);
		char tb[64];
		strftime(tb, sizeof(tb), "%Y-%m-%d %H:%M:%S UTC", &tm);
		fprintf(f, "start        %s\n", tb);
	}
	for (size_t i = 0; i < h->ndevices; i++) {
		const struct reel_device *dv = &h->devices[i];
		fprintf(f, "device %-5u ", dv->id);
		reel_fputs_safe(f, dv->name);
		if (dv->major || dv->minor)
			fprintf(f, " (%u:%u)", dv->major, dv->minor);
		if (dv->lbs)
			fprintf(f, " block %u/%u", dv->lbs, dv->pbs);
		if (dv->capacity)
			fprintf(f, " capacity %s", human((double)dv->capacity, b1, sizeof(b1)));
		fputc('\n', f);
	}
	double d = (double)(s->last_ns - s->first_ns);
	uint64_t bytes = 0;
	for (int i = 0; i < REEL_OP__COUNT; i++)
		bytes += s->sum.bytes[i];
	fprintf(f, "I/Os         %llu (%s)\n", (unsigned long long)s->sum.count,
		human((double)bytes, b1, sizeof(b1)));
	fprintf(f, "duration     %s (first to last arrival)\n", dur(d, b1, sizeof(b1)));
	fprintf(f, "mix\n");
	for (int i = 0; i < REEL_OP__COUNT; i++) {
		if (!s->sum.ops[i])
			continue;
		fprintf(f, "  %-14s %10llu  %5.1f%% of I/Os  %10s  %5.1f%% of bytes\n",
			reel_op_name(i), (unsigned long long)s->sum.ops[i],
			100.0 * (double)s->sum.ops[i] / (double)s->sum.count,
			human((double)s->sum.bytes[i], b1, sizeof(b1)),
			bytes ? 100.0 * (double)s->sum.bytes[i] / (double)bytes : 0);
	}
	fprintf(f, "sizes\n");
	text_hist(f, "request size", &s->size, 1);
	fprintf(f, "  top sizes     ");
	for (size_t i = 0; i < s->ntop; i++)
		fprintf(f, " %s (%.1f%%)", human(s->top_size[i], b1, sizeof(b1)),
			100.0 * (double)s->top_count[i] / (double)s->sum.count);
	fputc('\n', f);
	fprintf(f, "rate         mean %.1f IOPS %.2f MB/s; ",
		d > 0 ? (double)s->sum.count * 1e9 / d : 0, d > 0 ? (double)bytes * 1e3 / d : 0);
	/* a trace under 1 s has no whole window: its "peak" would be its
	 * count, below its mean rate */
	if (d < 1e9)
		fprintf(f, "no peak (under 1 s: no whole 1 s window)\n");
	else
		fprintf(f, "peak 1 s window %.0f IOPS %.2f MB/s\n", s->peak_iops, s->peak_mbps);
	fprintf(f, "timing       %llu with issue time, %llu with completion, %llu errors\n",
		(unsigned long long)s->with_issue, (unsigned long long)s->with_complete,
		(unsigned long long)s->errors);
	if (s->inflight_max)
		fprintf(f,
			"in flight    max %llu, mean %.2f over the whole span, %.2f while busy "
			"(at least one in flight)\n",
			(unsigned long long)s->inflight_max, s->inflight_mean,
			s->inflight_busy_mean);
	if (s->lat[REEL_OP__COUNT].count) {
		fprintf(f, "latency (issue to completion)\n");
		for (int i = 0; i <= REEL_OP__COUNT; i++)
			if (s->lat[i].count && (i < REEL_OP__COUNT || s->lat[i].count))
				text_hist(f, i == REEL_OP__COUNT ? "all" : reel_op_name(i),
					  &s->lat[i], 0);
	}
	if (s->qdelay.count) {
		const struct reel_meta *m = reel_reader_meta(r, REEL_META_REPLAY_ENGINE);
		fprintf(f, "%s\n",
			m ? "issue error (actual minus scheduled issue)" : "queue to issue");
		text_hist(f, "all", &s->qdelay, 0);
	}
	size_t nm;
	const struct reel_meta *m = reel_reader_meta_all(r, &nm);
	if (nm)
		fprintf(f, "metadata\n");
	for (size_t i = 0; i < nm; i++) {
		fputs("  ", f);
		reel_fputs_safe(f, m[i].key);
		fprintf(f, "%*s ", (int)(strlen(m[i].key) < 28 ? 28 - strlen(m[i].key) : 0), "");
		print_meta_value(f, &m[i], 0);
		fputc('\n', f);
	}
	(void)b2;
}

int cmd_info(int argc, char **argv)
{
	int json = 0, salvage = 0, strict = 0;
	const struct reel_opt opts[] = {
	    OPT_FLAG(0, "json", &json, "machine-readable output (schema in docs/ioreel-info.md)"),
	    OPT_FLAG(0, "salvage", &salvage, "skip corrupt chunks and read the ones around them"),
	    OPT_FLAG(0, "strict", &strict,
		     "exit 1 when the file is cut short (no index) or chunks were skipped"),
	    OPT_END,
	};
	const struct reel_cmd_doc doc = {
	    .name = "info",
	    .usage = "[--json] [--salvage] [--strict] FILE.reel",
	    .about = "Describe a trace or a replay result: source, devices, I/O count, duration,\n"
		     "op mix by count and bytes, request sizes, IOPS and MB/s (mean and peak\n"
		     "1-second window), in-flight maximum and latency percentiles where the\n"
		     "trace has issue and completion times.  A cut-short file is described up to\n"
		     "its last whole chunk with a warning and exit 0; --strict makes it exit 1.",
	};
	int first = reel_opt_parse(&doc, opts, argc, argv);
	if (first < 0)
		return reel_opt_exit(first);
	if (first != argc - 1) {
		if (first >= argc)
			fprintf(stderr, "ioreel info: name the .reel file to read\n");
		else
			fprintf(stderr, "ioreel info: give exactly one .reel file (%d given)\n",
				argc - first);
		reel_opt_usage(stderr, &doc, opts);
		return 2;
	}
	const char *path = argv[first];
	struct reel_reader *r;
	int rc = reel_reader_open(&r, path, salvage ? REEL_R_SALVAGE : 0);
	if (rc) {
		fprintf(stderr, "ioreel info: %s\n", reel_reader_errmsg(r));
		reel_reader_close(r);
		return 1;
	}
	struct reel_stats *s = malloc(sizeof(*s));
	if (!s) {
		reel_reader_close(r);
		fprintf(stderr, "ioreel info: out of memory\n");
		return 1;
	}
	rc = reel_stats_compute(r, s);
	if (rc) {
		fprintf(stderr, "ioreel info: %s\n", reel_reader_errmsg(r));
		free(s);
		reel_reader_close(r);
		return 1;
	}
	if (json)
		print_json(stdout, path, r, s);
	else
		print_text(stdout, path, r, s);
	int whole = reel_reader_complete(r) && !reel_reader_skipped(r);
	if (!reel_reader_complete(r))
		fprintf(stderr, "ioreel info: %s: %s\n", strict ? "error" : "warning",
			reel_reader_errmsg(r));
	if (reel_reader_skipped(r))
		fprintf(stderr, "ioreel info: %s: skipped %llu corrupt chunk(s)\n",
			strict ? "error" : "warning", (unsigned long long)reel_reader_skipped(r));
	free(s);
	reel_reader_close(r);
	return strict && !whole ? 1 : 0;
}
