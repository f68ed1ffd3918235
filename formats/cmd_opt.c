/*
 * formats/cmd_opt.c - one option table per command: each option's name,
 * argument, help and destination are declared once (git's parse-options),
 * and this file turns the table into getopt_long's arrays, checks every
 * number against its range, and prints the usage from the same table.
 * It prints (usage, errors), so it is a cmd_ file: commands call it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"

#define OPT_MAX 96
#define OPT_FIRST_LONG 256

static size_t opt_count(const struct reel_opt *opts)
{
	size_t n = 0;
	while (opts[n].kind != REEL_OPT_END)
		n++;
	return n;
}

static int opt_takes_arg(const struct reel_opt *o)
{
	return o->kind != REEL_OPT_FLAG && o->kind != REEL_OPT_GROUP;
}

static const char *kind_word(const struct reel_opt *o)
{
	switch (o->kind) {
	case REEL_OPT_INT:
	case REEL_OPT_UINT:
	case REEL_OPT_U64:
		return "a whole number";
	case REEL_OPT_SIZE:
		return "a size in bytes (suffixes k, M, G, T, P, E)";
	default:
		return "a number";
	}
}

/* "--name" or "-c" as the user typed it, for messages. */
static void opt_label(const struct reel_opt *o, char *buf, size_t len)
{
	if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", o->short_name);
}

/* A bound as the user would type it: sizes with the largest exact suffix
 * (2^60 is "1E", not 1.15292150460685e+18), whole numbers in full. */
static const char *bound(const struct reel_opt *o, double v, char *buf, size_t len)
{
	static const char suf[] = "EPTGMk";
	if (o->kind == REEL_OPT_SIZE && v >= 1024 && v < 1.8e19) {
		uint64_t u = (uint64_t)v;
		for (int k = 0; k < 6; k++) {
			uint64_t unit = 1ull << (10 * (6 - k));
			if (u % unit == 0) {
				snprintf(buf, len, "%llu%c", (unsigned long long)(u / unit),
					 suf[k]);
				return buf;
			}
		}
	}
	if (o->kind != REEL_OPT_DBL && fabs(v) < 1e19)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.15g", v);
	return buf;
}

static int range_error(const struct reel_opt *o, const char *arg, const char *why, char *err,
		       size_t errlen)
{
	char lab[64], lo[32], hi[32];
	opt_label(o, lab, sizeof(lab));
	return reel_errf(err, errlen, REEL_E_ARG, "%s '%s': %s; give %s from %s to %s", lab, arg,
			 why, kind_word(o), bound(o, o->min, lo, sizeof(lo)),
			 bound(o, o->max, hi, sizeof(hi)));
}

/* Numbers: the whole argument must be one finite number within [min, max]. */
static int parse_number(const struct reel_opt *o, const char *arg, char *err, size_t errlen)
{
	char *end = NULL;
	double d;
	uint64_t u = 0;
	errno = 0;
	if (o->kind == REEL_OPT_SIZE) {
		if (arg[0] == '-' || reel_parse_size(arg, &u) < 0)
			return range_error(o, arg, "not a size", err, errlen);
		d = (double)u;
	} else if (o->kind == REEL_OPT_DBL) {
		d = strtod(arg, &end);
		if (end == arg || *end)
			return range_error(o, arg, "not a number", err, errlen);
		if (!isfinite(d))
			return range_error(o, arg, "not a finite number", err, errlen);
	} else {
		long long v = strtoll(arg, &end, 10);
		if (end == arg || *end)
			return range_error(o, arg, "not a whole number", err, errlen);
		if (errno == ERANGE)
			return range_error(o, arg, "out of range", err, errlen);
		d = (double)v;
		u = (uint64_t)v;
	}
	if (d < o->min || d > o->max)
		return range_error(o, arg, "out of range", err, errlen);
	switch (o->kind) {
	case REEL_OPT_INT:
		*(int *)o->dest = (int)(long long)d;
		break;
	case REEL_OPT_UINT:
		*(unsigned *)o->dest = (unsigned)(long long)d;
		break;
	case REEL_OPT_U64:
	case REEL_OPT_SIZE:
		*(uint64_t *)o->dest = u;
		break;
	default:
		*(double *)o->dest = d;
		break;
	}
	return 0;
}

static int parse_choice(const struct reel_opt *o, const char *arg, char *err, size_t errlen)
{
	size_t n = 0, used;
	char lab[64];
	for (; o->choices[n]; n++)
		if (!strcmp(arg, o->choices[n])) {
			*(int *)o->dest = (int)n;
			return 0;
		}
	opt_label(o, lab, sizeof(lab));
	used = (size_t)snprintf(err, errlen, "%s '%s': use", lab, arg);
	for (size_t i = 0; i < n && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s %s",
					 i ? (i == n - 1 ? " or" : ",") : "", o->choices[i]);
	return REEL_E_ARG;
}

int reel_opt_apply(const struct reel_opt *o, const char *arg, char *err, size_t errlen)
{
	char lab[64];
	int rc;
	switch (o->kind) {
	case REEL_OPT_FLAG:
		*(int *)o->dest = o->value ? o->value : 1;
		return 0;
	case REEL_OPT_STR:
		*(const char **)o->dest = arg;
		return 0;
	case REEL_OPT_CHOICE:
		return parse_choice(o, arg, err, errlen);
	case REEL_OPT_CALL:
		err[0] = 0;
		rc = o->fn(arg, o->dest, err, errlen);
		if (rc < 0 && !err[0]) {
			opt_label(o, lab, sizeof(lab));
			reel_errf(err, errlen, rc, "%s '%s': %s", lab, arg, reel_strerror(rc));
		}
		return rc < 0 ? rc : 0;
	case REEL_OPT_INT:
	case REEL_OPT_UINT:
	case REEL_OPT_U64:
	case REEL_OPT_SIZE:
	case REEL_OPT_DBL:
		return parse_number(o, arg, err, errlen);
	default:
		return REEL_E_ARG;
	}
}

/* Left column of the usage: "  -o, --output FILE". */
static int opt_left(const struct reel_opt *o, char *buf, size_t len)
{
	char arg[64] = "";
	if (opt_takes_arg(o))
		snprintf(arg, sizeof(arg), "%s%s", o->name ? " " : " ", o->arg ? o->arg : "ARG");
	if (o->short_name && o->name)
		return snprintf(buf, len, "  -%c, --%s%s", o->short_name, o->name, arg);
	if (o->short_name)
		return snprintf(buf, len, "  -%c%s", o->short_name, arg);
	return snprintf(buf, len, "      --%s%s", o->name, arg);
}

void reel_opt_usage(FILE *f, const struct reel_cmd_doc *doc, const struct reel_opt *opts)
{
	fprintf(f, "usage: ioreel %s %s\n", doc->name, doc->usage);
	if (doc->about)
		fprintf(f, "\n%s\n", doc->about);
	fprintf(f, "\n");
	for (const struct reel_opt *o = opts; o->kind != REEL_OPT_END; o++) {
		char left[160];
		if (o->kind == REEL_OPT_GROUP) {
			fprintf(f, "%s\n", o->help);
			continue;
		}
		int w = opt_left(o, left, sizeof(left));
		/* help lines after the first are indented under the first */
		const char *h = o->help ? o->help : "";
		if (w > 28) {
			fprintf(f, "%s\n%30s", left, "");
		} else {
			fprintf(f, "%-30s", left);
		}
		for (; *h; h++) {
			fputc(*h, f);
			if (*h == '\n' && h[1])
				fprintf(f, "%30s", "");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "  -h, --help                  this help\n");
	if (doc->footer)
		fprintf(f, "\n%s", doc->footer);
}

/* Machine-readable table for tests: "name kind min max" per option. */
static void opt_table_dump(const struct reel_opt *opts)
{
	static const char *const kinds[] = {
	    [REEL_OPT_FLAG] = "flag", [REEL_OPT_STR] = "str",	    [REEL_OPT_INT] = "int",
	    [REEL_OPT_UINT] = "uint", [REEL_OPT_U64] = "u64",	    [REEL_OPT_SIZE] = "size",
	    [REEL_OPT_DBL] = "dbl",   [REEL_OPT_CHOICE] = "choice", [REEL_OPT_CALL] = "call",
	};
	for (const struct reel_opt *o = opts; o->kind != REEL_OPT_END; o++) {
		if (o->kind == REEL_OPT_GROUP)
			continue;
		char lab[64];
		opt_label(o, lab, sizeof(lab));
		const char *k = kinds[o->kind];
		if (o->kind == REEL_OPT_CALL && o->numeric)
			k = "callnum";
		printf("%s %s %.17g %.17g\n", lab, k, o->min, o->max);
	}
}

int reel_opt_parse(const struct reel_cmd_doc *doc, const struct reel_opt *opts, int argc,
		   char **argv)
{
	struct option lo[OPT_MAX + 3];
	char shorts[2 * OPT_MAX + 8];
	size_t n = opt_count(opts), nl = 0, ns = 0;
	char err[1024];
	int c;
	if (n > OPT_MAX)
		n = OPT_MAX;
	if (doc->in_order)
		shorts[ns++] = '+';
	shorts[ns++] = ':'; /* missing argument: ':' instead of '?' */
	shorts[ns++] = 'h';
	for (size_t i = 0; i < n; i++) {
		const struct reel_opt *o = &opts[i];
		if (o->kind == REEL_OPT_GROUP)
			continue;
		if (o->name)
			lo[nl++] = (struct option){
			    o->name, opt_takes_arg(o) ? required_argument : no_argument, NULL,
			    o->short_name ? o->short_name : OPT_FIRST_LONG + (int)i};
		if (o->short_name) {
			shorts[ns++] = (char)o->short_name;
			if (opt_takes_arg(o))
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = 0;
	lo[nl++] = (struct option){"help", no_argument, NULL, 'h'};
	lo[nl++] = (struct option){"options-table", no_argument, NULL, 1};
	lo[nl] = (struct option){NULL, 0, NULL, 0};
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct reel_opt *o = NULL;
		if (c == 'h') {
			reel_opt_usage(stdout, doc, opts);
			return REEL_OPT_EXIT_OK;
		}
		if (c == 1) {
			opt_table_dump(opts);
			return REEL_OPT_EXIT_OK;
		}
		if (c == '?' || c == ':') {
			const char *bad = argv[optind - 1];
			if (c == ':')
				fprintf(stderr, "ioreel %s: %s needs an argument\n", doc->name,
					bad);
			else if (optopt)
				fprintf(stderr, "ioreel %s: unknown option '-%c'\n", doc->name,
					optopt);
			else
				fprintf(stderr, "ioreel %s: unknown option '%s'\n", doc->name, bad);
			fprintf(stderr, "Try 'ioreel %s --help'.\n", doc->name);
			return REEL_OPT_EXIT_USAGE;
		}
		if (c >= OPT_FIRST_LONG)
			o = &opts[c - OPT_FIRST_LONG];
		else
			for (size_t i = 0; i < n && !o; i++)
				if (opts[i].short_name == c)
					o = &opts[i];
		if (!o)
			continue;
		if (reel_opt_apply(o, optarg, err, sizeof(err)) < 0) {
			fprintf(stderr, "ioreel %s: %s\n", doc->name, err);
			return REEL_OPT_EXIT_USAGE;
		}
	}
	return optind;
}
