/*
 * suite/plan.c - the suite's plan: fio job-file (INI) syntax parsed by
 * libinih, checked key by key with the file and line in every message, and
 * the plans embedded in the binary (the default and --quick).
 */
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay/replay.h"
#include "suite/suite.h"

const char suite_default_plan[] =
    "; ioreel suite: the default plan: a cold boot (read-heavy, the headline)\n"
    "; and a build (write-heavy, where the data mode matters), from traces/;\n"
    "; 24 cells x 3 repeats x 2 drives, about 4 minutes for two fast drives\n"
    "[global]\n"
    "qd=original,1,32\n"
    "data=random,ratio:2\n"
    "timing=afap\n"
    "states=empty,full\n"
    "repeats=3\n"
    "min-busy=1\n"
    "\n"
    "[boot]\n"
    "trace=boot.reel\n"
    "\n"
    "[compile]\n"
    "trace=compile.reel\n";

const char suite_quick_plan[] = "; ioreel suite --quick: a short matrix for tests and demos\n"
				"[global]\n"
				"qd=1,32\n"
				"data=random\n"
				"timing=afap\n"
				"states=empty\n"
				"repeats=3\n"
				"min-busy=1\n"
				"\n"
				"[git]\n"
				"trace=git.reel\n";

static const char *const state_names[SUITE__NSTATES] = {"empty", "full", "steady"};

const char *suite_state_name(int s) { return s >= 0 && s < SUITE__NSTATES ? state_names[s] : "?"; }

struct pctx {
	struct suite_plan *p;
	const char *name;
	const char *text, *pos; /* the reader's position in text */
	int line;		/* line last read */
	int err_line;
	char err[512];
	char cur_section[64];
	struct suite_workload *cur;
};

/* The reader: one line per call, counting lines so the handler knows where
 * it is (libinih calls the handler right after reading the line). */
static char *read_line(char *str, int num, void *stream)
{
	struct pctx *c = stream;
	if (!*c->pos || num < 2)
		return NULL;
	size_t len = strcspn(c->pos, "\n");
	size_t take = len + (c->pos[len] == '\n');
	if (take > (size_t)num - 1)
		take = (size_t)num - 1;
	memcpy(str, c->pos, take);
	str[take] = 0;
	c->pos += take;
	if (take && str[take - 1] == '\n')
		c->line++;
	else if (!*c->pos)
		c->line++;
	return str;
}

static int perr(struct pctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct pctx *c, const char *fmt, ...)
{
	if (c->err_line)
		return 0;
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	reel_verrf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->err_line = c->line;
	reel_errf(c->err, sizeof(c->err), REEL_E_PARSE, "%s:%d: %s", c->name, c->line, msg);
	return 0;
}

static int parse_num(const char *v, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (end == v || *end || errno || !isfinite(d) || d < lo || d > hi)
		return -1;
	*out = d;
	return 0;
}

/* Split a comma-separated list into trimmed items; returns the count or -1
 * when there are more than max or one is empty. */
static int split_list(const char *v, char items[][64], int max)
{
	int n = 0;
	const char *s = v;
	for (;;) {
		size_t len = strcspn(s, ",");
		const char *a = s, *b = s + len;
		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (a == b || n >= max || b - a >= 63)
			return -1;
		memcpy(items[n], a, (size_t)(b - a));
		items[n][b - a] = 0;
		n++;
		if (!s[len])
			return n;
		s += len + 1;
	}
}

static int check_qd(const char *s)
{
	double d;
	if (!strcmp(s, "original"))
		return 0;
	if (s[0] == 'x')
		return parse_num(s + 1, 1e-3, 1000, &d);
	return parse_num(s, 1, REPLAY_MAX_QD, &d) < 0 || d != floor(d) ? -1 : 0;
}

static int set_timing(struct suite_timing *t, const char *s)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", s);
	t->speed = 1;
	if (!strcmp(s, "afap")) {
		t->afap = 1;
		return 0;
	}
	if (!strcmp(s, "original"))
		return 0;
	if (!strncmp(s, "speed:", 6))
		return parse_num(s + 6, 1e-6, 1e6, &t->speed);
	return -1;
}

static int list_key(struct pctx *c, const char *key, const char *v)
{
	char items[SUITE_MAX_LIST][64];
	struct suite_plan *p = c->p;
	int n = split_list(v, items, SUITE_MAX_LIST);
	if (n < 0)
		return perr(c, "%s=%s: give 1 to %d comma-separated values, none empty", key, v,
			    SUITE_MAX_LIST);
	for (int i = 0; i < n; i++) {
		char e[256];
		struct replay_data_spec ds;
		if (!strcmp(key, "qd")) {
			if (check_qd(items[i]) < 0)
				return perr(c,
					    "qd: '%s' is not a queue depth: use original, "
					    "1..%d, or xK (K in 0.001..1000)",
					    items[i], REPLAY_MAX_QD);
			snprintf(p->qd[i], sizeof(p->qd[i]), "%.15s", items[i]);
		} else if (!strcmp(key, "data")) {
			if (replay_data_parse(items[i], &ds, e, sizeof(e)) < 0)
				return perr(c, "data: '%s': %s", items[i], e);
			snprintf(p->data[i], sizeof(p->data[i]), "%.31s", items[i]);
		} else if (set_timing(&p->timing[i], items[i]) < 0) {
			return perr(c,
				    "timing: '%s': use afap, original or speed:F (F in 1e-6..1e6)",
				    items[i]);
		}
	}
	if (!strcmp(key, "qd"))
		p->nqd = (size_t)n;
	else if (!strcmp(key, "data"))
		p->ndata = (size_t)n;
	else
		p->ntiming = (size_t)n;
	return 1;
}

static int states_key(struct pctx *c, const char *v)
{
	char items[SUITE__NSTATES + 1][64];
	int n = split_list(v, items, SUITE__NSTATES);
	if (n < 0)
		return perr(c, "states=%s: give 1 to 3 of empty, full, steady", v);
	int seen = 0;
	for (int i = 0; i < n; i++) {
		int s = -1;
		for (int k = 0; k < SUITE__NSTATES; k++)
			if (!strcmp(items[i], state_names[k]))
				s = k;
		if (s < 0)
			return perr(c, "states: '%s' is not a state: use empty, full or steady",
				    items[i]);
		if (seen & (1 << s))
			return perr(c, "states: '%s' given twice", items[i]);
		seen |= 1 << s;
		c->p->states[i] = s;
	}
	c->p->nstates = (size_t)n;
	return 1;
}

struct numkey {
	const char *key;
	double lo, hi;
	size_t off; /* offset of the double/unsigned field */
	int is_uint;
	double scale; /* stored = value * scale */
	const char *unit;
};

#define NK(k, lo, hi, f, u, sc, unit)                                                              \
	{                                                                                          \
		k, lo, hi, offsetof(struct suite_plan, f), u, sc, unit                             \
	}
static const struct numkey numkeys[] = {
    NK("repeats", 2, 100, repeats, 1, 1, "runs"),
    NK("min-busy", 0, 3600, min_busy_s, 0, 1, "seconds"),
    NK("max-cv", 0.1, 1000, max_cv, 0, 0.01, "percent"),
    NK("issue-error-limit", 1, 1e7, issue_error_limit_us, 0, 1, "microseconds"),
    NK("alpha", 1e-6, 0.5, alpha, 0, 1, ""),
    NK("fill", 0.01, 10, fill_factor, 0, 1, "x capacity"),
    NK("steady-rounds", 5, 64, steady_rounds, 1, 1, "rounds"),
    NK("max-idle", 0, 86400, max_idle_s, 0, 1, "seconds (0 keeps every gap)"),
};

static int global_key(struct pctx *c, const char *key, const char *v)
{
	struct suite_plan *p = c->p;
	if (!strcmp(key, "qd") || !strcmp(key, "data") || !strcmp(key, "timing"))
		return list_key(c, key, v);
	if (!strcmp(key, "states"))
		return states_key(c, v);
	for (size_t i = 0; i < sizeof(numkeys) / sizeof(numkeys[0]); i++) {
		const struct numkey *k = &numkeys[i];
		double d;
		if (strcmp(key, k->key))
			continue;
		if (parse_num(v, k->lo, k->hi, &d) < 0 || (k->is_uint && d != floor(d)))
			return perr(c, "%s=%s: give a %snumber from %g to %g %s", key, v,
				    k->is_uint ? "whole " : "", k->lo, k->hi, k->unit);
		if (k->is_uint)
			*(unsigned *)((char *)p + k->off) = (unsigned)d;
		else
			*(double *)((char *)p + k->off) = d * k->scale;
		return 1;
	}
	if (!strcmp(key, "engine")) {
		if (strcmp(v, "libaio") && strcmp(v, "io_uring") && strcmp(v, "psync") &&
		    strcmp(v, "null"))
			return perr(c, "engine=%s: use libaio, io_uring, psync or null", v);
		snprintf(p->engine, sizeof(p->engine), "%s", v);
		return 1;
	}
	if (!strcmp(key, "fit")) {
		if (strcmp(v, "wrap") && strcmp(v, "scale") && strcmp(v, "fail"))
			return perr(c, "fit=%s: use wrap, scale or fail", v);
		snprintf(p->fit, sizeof(p->fit), "%s", v);
		return 1;
	}
	if (!strcmp(key, "steady-stimulus")) {
		if (strlen(v) >= sizeof(p->steady_stimulus) || !*v)
			return perr(c, "steady-stimulus=%s: name a trace section", v);
		snprintf(p->steady_stimulus, sizeof(p->steady_stimulus), "%s", v);
		return 1;
	}
	return perr(c,
		    "unknown key '%s' in [global]: the keys are qd, data, timing, max-idle, "
		    "states, repeats, min-busy, max-cv, issue-error-limit, alpha, fill, "
		    "steady-rounds, steady-stimulus, engine, fit",
		    key);
}

static int workload_key(struct pctx *c, const char *section, const char *key, const char *v)
{
	struct suite_plan *p = c->p;
	if (!c->cur || strcmp(c->cur_section, section)) {
		for (size_t i = 0; i < p->nw; i++)
			if (!strcmp(p->w[i].name, section))
				return perr(c, "section [%s] appears twice", section);
		if (p->nw >= SUITE_MAX_WORKLOADS)
			return perr(c, "[%s]: at most %d trace sections", section,
				    SUITE_MAX_WORKLOADS);
		if (strlen(section) >= sizeof(p->w[0].name))
			return perr(c, "[%s]: section name longer than %zu characters", section,
				    sizeof(p->w[0].name) - 1);
		if (section[strspn(section, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					    "0123456789_.+-")])
			return perr(c,
				    "[%s]: a section name may hold letters, digits and _ . + - "
				    "only (it labels charts)",
				    section);
		c->cur = &p->w[p->nw++];
		snprintf(c->cur->name, sizeof(c->cur->name), "%s", section);
		snprintf(c->cur_section, sizeof(c->cur_section), "%s", section);
	}
	if (strcmp(key, "trace"))
		return perr(c,
			    "unknown key '%s' in [%s]: a trace section has one key, "
			    "trace=FILE.reel",
			    key, section);
	if (c->cur->trace[0])
		return perr(c, "[%s] trace= given twice (first on line %d)", section, c->cur->line);
	if (!*v || strlen(v) >= sizeof(c->cur->trace))
		return perr(c, "[%s] trace=: give a .reel file", section);
	snprintf(c->cur->trace, sizeof(c->cur->trace), "%s", v);
	c->cur->line = c->line;
	return 1;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct pctx *c = user;
	if (c->err_line)
		return 1; /* report the first error only */
	if (!value)
		return perr(c, "'%s' has no value: write %s=VALUE", key, key);
	if (!*section)
		return perr(c, "'%s' before any section: put it under [global]", key);
	if (!strcmp(section, "global"))
		return global_key(c, key, value);
	return workload_key(c, section, key, value);
}

static void plan_defaults(struct suite_plan *p)
{
	p->repeats = 3;
	p->min_busy_s = 1;
	p->max_cv = 0.10;
	p->issue_error_limit_us = 1000;
	p->alpha = 0.05;
	p->fill_factor = 2;
	p->steady_rounds = 25;
	p->nqd = 1;
	snprintf(p->qd[0], sizeof(p->qd[0]), "original");
	p->ndata = 1;
	snprintf(p->data[0], sizeof(p->data[0]), "random");
	p->ntiming = 1;
	set_timing(&p->timing[0], "afap");
	p->nstates = 1;
	p->states[0] = SUITE_STATE_EMPTY;
	snprintf(p->engine, sizeof(p->engine), "libaio");
	snprintf(p->fit, sizeof(p->fit), "wrap");
}

static int plan_finish(struct pctx *c, char *errmsg, size_t errlen)
{
	struct suite_plan *p = c->p;
	if (!p->nw)
		return reel_errf(errmsg, errlen, REEL_E_PARSE,
				 "%s: no trace: add a section such as [boot] with trace=boot.reel",
				 c->name);
	for (size_t i = 0; i < p->nw; i++)
		if (!p->w[i].trace[0])
			return reel_errf(errmsg, errlen, REEL_E_PARSE,
					 "%s: section [%s] has no trace=FILE.reel", c->name,
					 p->w[i].name);
	if (p->steady_stimulus[0]) {
		size_t i = 0;
		while (i < p->nw && strcmp(p->w[i].name, p->steady_stimulus))
			i++;
		if (i == p->nw)
			return reel_errf(errmsg, errlen, REEL_E_PARSE,
					 "%s: steady-stimulus=%s names no trace section", c->name,
					 p->steady_stimulus);
	}
	return 0;
}

int suite_plan_parse_string(struct suite_plan *p, const char *text, const char *name, char *errmsg,
			    size_t errlen)
{
	memset(p, 0, sizeof(*p));
	plan_defaults(p);
	snprintf(p->path, sizeof(p->path), "%s", name);
	p->text = strdup(text);
	if (!p->text)
		return reel_errf(errmsg, errlen, REEL_E_NOMEM, "out of memory");
	struct pctx c = {.p = p, .name = name, .text = text, .pos = text};
	ini_allow_multiline = 0; /* an indented line is a key of its own */
	int rc = ini_parse_stream(read_line, &c, handler, &c);
	if (rc > 0 && (!c.err_line || rc < c.err_line))
		return reel_errf(errmsg, errlen, REEL_E_PARSE,
				 "%s:%d: not a [section] or key=value line", name, rc);
	if (c.err_line)
		return reel_errf(errmsg, errlen, REEL_E_PARSE, "%s", c.err);
	if (rc < 0)
		return reel_errf(errmsg, errlen, REEL_E_NOMEM, "%s: out of memory", name);
	return plan_finish(&c, errmsg, errlen);
}

int suite_plan_parse_file(struct suite_plan *p, const char *path, char *errmsg, size_t errlen)
{
	memset(p, 0, sizeof(*p)); /* suite_plan_free(p) is safe whatever happens */
	FILE *f = fopen(path, "r");
	if (!f)
		return reel_errf(errmsg, errlen, -errno, "%s: %s", path, strerror(errno));
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int c;
	while ((c = getc(f)) != EOF) {
		if (len + 2 > cap) {
			cap = cap ? cap * 2 : 4096;
			char *nb = cap <= (1u << 24) ? realloc(buf, cap) : NULL;
			if (!nb) {
				free(buf);
				fclose(f);
				return reel_errf(errmsg, errlen, REEL_E_RANGE,
						 "%s: too large for a plan (16 MiB at most)", path);
			}
			buf = nb;
		}
		if (!c) {
			free(buf);
			fclose(f);
			return reel_errf(errmsg, errlen, REEL_E_PARSE,
					 "%s: a NUL byte: not a plan (text) file", path);
		}
		buf[len++] = (char)c;
	}
	fclose(f);
	if (!buf && !(buf = calloc(1, 1)))
		return reel_errf(errmsg, errlen, REEL_E_NOMEM, "out of memory");
	buf[len] = 0;
	int rc = suite_plan_parse_string(p, buf, path, errmsg, errlen);
	free(buf);
	return rc;
}

/* dir of the running binary, or "" */
static void exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	buf[n > 0 ? n : 0] = 0;
	char *s = strrchr(buf, '/');
	if (s)
		*s = 0;
	else
		buf[0] = 0;
}

static int try_path(char *out, size_t len, const char *dir, const char *rel)
{
	char p[PATH_MAX + 4200];
	snprintf(p, sizeof(p), "%s%s%s", dir, *dir ? "/" : "", rel);
	if (access(p, R_OK) || strlen(p) >= len)
		return 0;
	snprintf(out, len, "%s", p);
	return 1;
}

int suite_plan_resolve(struct suite_plan *p, char *errmsg, size_t errlen)
{
	char plan_dir[PATH_MAX] = "", exe[PATH_MAX], dirs[4][PATH_MAX + 40];
	int from_file = p->path[0] != '(';
	if (from_file) {
		snprintf(plan_dir, sizeof(plan_dir), "%s", p->path);
		char *s = strrchr(plan_dir, '/');
		if (s)
			*s = 0;
		else
			snprintf(plan_dir, sizeof(plan_dir), ".");
	}
	exe_dir(exe, sizeof(exe));
	snprintf(dirs[0], sizeof(dirs[0]), "%s/../traces", exe);
	snprintf(dirs[1], sizeof(dirs[1]), "%s/../share/ioreel/traces", exe);
	snprintf(dirs[2], sizeof(dirs[2]), "/usr/local/share/ioreel/traces");
	snprintf(dirs[3], sizeof(dirs[3]), "/usr/share/ioreel/traces");
	for (size_t i = 0; i < p->nw; i++) {
		struct suite_workload *w = &p->w[i];
		char out[sizeof(w->trace)];
		int ok = w->trace[0] == '/'
			     ? try_path(out, sizeof(out), "", w->trace)
			     : from_file && try_path(out, sizeof(out), plan_dir, w->trace);
		for (int d = 0; !ok && w->trace[0] != '/' && d < 4; d++)
			ok = exe[0] && try_path(out, sizeof(out), dirs[d], w->trace);
		if (!ok)
			return reel_errf(
			    errmsg, errlen, -ENOENT,
			    "%s:%d: [%s] trace=%s: not found (looked %s%s, in "
			    "<ioreel>/../traces and the share/ioreel/traces directories)",
			    p->path, w->line, w->name, w->trace, from_file ? "next to " : "",
			    from_file ? p->path : "");
		memcpy(w->trace, out, sizeof(out));
	}
	return 0;
}

int suite_plan_uses_original_qd(const struct suite_plan *p)
{
	for (size_t q = 0; q < p->nqd; q++)
		if (!strcmp(p->qd[q], "original") || p->qd[q][0] == 'x')
			return 1;
	return 0;
}

static int is_data_op(int op)
{
	return op == REEL_OP_READ || op == REEL_OP_WRITE || op == REEL_OP_DISCARD ||
	       op == REEL_OP_WRITE_ZEROES;
}

/* Read workload w's trace to its end: its data I/Os, extent and devices. */
static int check_trace(struct suite_plan *p, struct suite_workload *w, int completed_only,
		       char *errmsg, size_t errlen)
{
	struct reel_reader *r = NULL;
	int rc = reel_reader_open(&r, w->trace, 0);
	if (rc < 0) {
		rc = reel_errf(errmsg, errlen, rc, "%s:%d: [%s] trace=%s", p->path, w->line,
			       w->name, r ? reel_reader_errmsg(r) : reel_strerror(rc));
		reel_reader_close(r);
		return rc;
	}
	const struct reel_rec *v;
	long n;
	uint32_t dev = 0;
	int ndev = 0;
	w->ios = w->extent = 0;
	while ((n = reel_read_chunk(r, &v)) > 0)
		for (long i = 0; i < n; i++) {
			const struct reel_rec *x = &v[i];
			if (!is_data_op(x->op) || !x->length ||
			    (completed_only && !(x->has & REEL_HAS_COMPLETE)))
				continue;
			if (!ndev || (ndev == 1 && x->dev != dev))
				dev = ndev++ ? dev : x->dev;
			w->ios++;
			if (x->offset + x->length > w->extent)
				w->extent = x->offset + x->length;
		}
	if (n < 0)
		rc = reel_errf(errmsg, errlen, (int)n, "%s:%d: [%s] trace=%s", p->path, w->line,
			       w->name, reel_reader_errmsg(r));
	else if (ndev > 1)
		rc = reel_errf(errmsg, errlen, REEL_E_ARG,
			       "%s:%d: [%s] trace=%s: the trace has I/Os on several devices; the "
			       "suite replays a trace on one drive (split it per device first)",
			       p->path, w->line, w->name, w->trace);
	else if (!w->ios)
		rc = reel_errf(errmsg, errlen, REEL_E_ARG,
			       "%s:%d: [%s] trace=%s: no %sread, write or discard to replay",
			       p->path, w->line, w->name, w->trace,
			       completed_only ? "completed " : "");
	reel_reader_close(r);
	return rc;
}

int suite_plan_check_traces(struct suite_plan *p, char *errmsg, size_t errlen)
{
	int completed_only = suite_plan_uses_original_qd(p);
	for (size_t i = 0; i < p->nw; i++) {
		struct suite_workload *w = &p->w[i];
		struct stat st;
		if (stat(w->trace, &st) == 0 && S_ISDIR(st.st_mode))
			return reel_errf(errmsg, errlen, REEL_E_ARG,
					 "%s:%d: [%s] trace=%s: is a folder, not a .reel file",
					 p->path, w->line, w->name, w->trace);
		int rc = check_trace(p, w, completed_only, errmsg, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void suite_plan_free(struct suite_plan *p)
{
	if (!p)
		return;
	free(p->text);
	p->text = NULL;
}
