/*
 * formats/import_blkparse.c - blkparse's default text output.
 *
 *   259,0    3       10     0.000009435  1867  D   W 763360912 + 16 [dmcrypt_write/2]
 *   maj,min cpu  sequence  seconds.nsec   pid act rwbs  details
 *
 * details by action: "SECTOR + N [comm]" (Q G I D M F S B; "[comm]" alone
 * when the length is 0; "(elapsed)" may precede the bracket),
 * "SECTOR + N [error]" or "SECTOR [error]" (C R), "SECTOR + N <- (M,m)
 * SECTOR" (A), "SECTOR / SECTOR [comm]" (X).  Lines starting with '#' are
 * headers; the summary blkparse prints at the end ("CPU0 (sda):", "Total
 * (sda):" ...) is skipped; plug, unplug, message and SCSI passthrough lines
 * carry nothing to record.  The events go through the joiner, as blktrace
 * binary traces do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"
#include "formats/text_import.h"

#define BP_LINE_MAX 4096

enum { LINE_EVENT, LINE_IGNORE, LINE_BAD };

struct bp_line {
	struct reel_event e;
	char comm[64];
	const char *why; /* LINE_BAD: reason */
};

static inline const char *skip_sp(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

static inline const char *token_end(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
		p++;
	return p;
}

/* Unsigned decimal; returns the end or NULL when there is no digit or it
 * overflows 64 bits. */
static const char *num(const char *p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	const char *s = p;
	while (p < end && *p >= '0' && *p <= '9') {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return NULL;
		v = v * 10 + d;
		p++;
	}
	if (p == s)
		return NULL;
	*out = v;
	return p;
}

static const char *devt_of(const char *p, const char *end, uint32_t *devt)
{
	uint64_t ma, mi;
	if (!(p = num(p, end, &ma)) || p >= end || *p != ',' || !(p = num(p + 1, end, &mi)))
		return NULL;
	if (ma > 0xfff || mi > 0xfffff)
		return NULL;
	*devt = reel_devt((uint32_t)ma, (uint32_t)mi);
	return p;
}

#define BAD(reason)                                                                                \
	do {                                                                                       \
		l->why = reason;                                                                   \
		return LINE_BAD;                                                                   \
	} while (0)

/*
 * The fields every event line starts with, "MAJ,MIN CPU SEQ SECS.NSEC PID
 * ACTION RWBS": into l->e, *pp after them.  LINE_EVENT to go on.
 */
static int parse_head(const char **pp, const char *end, struct bp_line *l, const char **rwbs,
		      size_t *rwbslen)
{
	const char *p = *pp;
	uint32_t devt;
	uint64_t cpu, seq, secs, nsec = 0, pid;
	const char *q = devt_of(p, end, &devt);
	if (!q || (q < end && *q != ' ' && *q != '\t'))
		BAD("expected MAJ,MIN at the start of an event line");
	p = skip_sp(q, end);
	if (!(p = num(p, end, &cpu)) || cpu > 65535)
		BAD("bad CPU field");
	p = skip_sp(p, end);
	if (!(p = num(p, end, &seq)))
		BAD("bad sequence field");
	p = skip_sp(p, end);
	if (!(p = num(p, end, &secs)) || p >= end || *p != '.' || secs > 9000000000ull)
		BAD("bad time field (expected SECONDS.NANOSECONDS)");
	p++;
	int digits = 0;
	while (p < end && *p >= '0' && *p <= '9') {
		if (digits < 9)
			nsec = nsec * 10 + (uint64_t)(*p - '0');
		digits++;
		p++;
	}
	if (!digits)
		BAD("bad time field (expected SECONDS.NANOSECONDS)");
	for (; digits < 9; digits++)
		nsec *= 10;
	p = skip_sp(p, end);
	if (!(p = num(p, end, &pid)) || pid > UINT32_MAX)
		BAD("bad PID field");
	p = skip_sp(p, end);
	const char *act = p;
	p = token_end(p, end);
	size_t actlen = (size_t)(p - act);
	if (!actlen || actlen > 2)
		BAD("bad action field");
	p = skip_sp(p, end);
	*rwbs = p;
	p = token_end(p, end);
	*rwbslen = (size_t)(p - *rwbs);
	*pp = skip_sp(p, end);

	struct reel_event *e = &l->e;
	e->t_ns = (int64_t)(secs * 1000000000ull + nsec);
	e->devt = devt;
	e->cpu = (uint16_t)cpu;
	e->pid = (uint32_t)pid;
	char a = actlen == 1 ? act[0] : 0;
	switch (a) {
	case 'Q':
	case 'M':
	case 'F':
	case 'G':
	case 'I':
	case 'D':
	case 'C':
	case 'R':
	case 'X':
	case 'A':
		break;
	case 'P':
	case 'U':
	case 'T':
	case 'S':
	case 'B':
	case 'm':
	case 'N':
		return LINE_IGNORE;
	default:
		if (actlen == 2 && (act[0] == 'U' || act[0] == 'T'))
			return LINE_IGNORE; /* "UT" timer unplug */
		BAD("unknown action");
	}
	e->action = a;
	if (!*rwbslen)
		BAD("missing RWBS field");
	return LINE_EVENT;
}

/* "SECTOR + N", "SECTOR / SECTOR" (X) or "SECTOR" (C, R), then the RWBS. */
static int parse_extent(const char **pp, const char *end, struct bp_line *l, const char *rwbs,
			size_t rwbslen, int *have_sector)
{
	struct reel_event *e = &l->e;
	const char *p = *pp;
	char a = e->action;
	uint64_t sector = 0, nsect = 0, v;
	const char *q = num(p, end, &sector);
	*have_sector = 0;
	if (q) {
		*have_sector = 1;
		p = skip_sp(q, end);
		if (p < end && *p == '+') {
			p = skip_sp(p + 1, end);
			if (!(p = num(p, end, &nsect)) || nsect > UINT32_MAX / 512)
				BAD("bad length after '+'");
			p = skip_sp(p, end);
		} else if (a == 'X' && p < end && *p == '/') {
			p = skip_sp(p + 1, end);
			if (!(p = num(p, end, &v)))
				BAD("bad split sector after '/'");
			e->split_sector = v;
			p = skip_sp(p, end);
		} else if (p < end && *p == '(') {
			return LINE_IGNORE; /* SCSI passthrough: "BYTES (cdb) [comm]" */
		} else if (a != 'C' && a != 'R' && p < end && *p != '[') {
			BAD("expected '+ LENGTH' after the sector");
		} else if (a != 'C' && a != 'R') {
			return LINE_IGNORE; /* a sector and no length: nothing to record */
		}
	}
	e->sector = *have_sector ? sector : REEL_SECTOR_UNKNOWN;
	e->bytes = (uint32_t)(nsect * 512);
	if (*have_sector && sector > (REEL_END_LIMIT - e->bytes) / 512)
		BAD("sector and length beyond 2^63 bytes");
	if (reel_rwbs_parse(rwbs, rwbslen, e->bytes, &e->op, &e->flags))
		BAD("bad RWBS field");
	*pp = p;
	return LINE_EVENT;
}

/* A remap's "<- (MAJ,MIN) SECTOR". */
static int parse_remap(const char *p, const char *end, struct bp_line *l)
{
	uint32_t from;
	uint64_t v;
	if (p + 2 > end || p[0] != '<' || p[1] != '-')
		BAD("remap without '<- (MAJ,MIN) SECTOR'");
	p = skip_sp(p + 2, end);
	if (p >= end || *p != '(' || !(p = devt_of(p + 1, end, &from)) || p >= end || *p != ')')
		BAD("remap without '<- (MAJ,MIN) SECTOR'");
	p = skip_sp(p + 1, end);
	if (!(p = num(p, end, &v)))
		BAD("remap without the source sector");
	l->e.from_devt = from;
	l->e.from_sector = v;
	return LINE_EVENT;
}

/* "[comm]" or, for a completion, "[error]"; an "(elapsed)" may come first. */
static int parse_bracket(const char *p, const char *end, struct bp_line *l)
{
	struct reel_event *e = &l->e;
	if (p < end && *p == '(') { /* elapsed time */
		const char *c = memchr(p, ')', (size_t)(end - p));
		if (!c)
			BAD("unclosed '('");
		p = skip_sp(c + 1, end);
	}
	if (p >= end || *p != '[')
		BAD("missing [process] or [error]");
	const char *close = end;
	while (close > p && close[-1] != ']')
		close--;
	if (close == p + 0 || close - 1 <= p)
		BAD("missing ']'");
	const char *in = p + 1;
	size_t n = (size_t)(close - 1 - in);
	if (e->action == 'C' || e->action == 'R') {
		uint64_t err;
		int neg = n && in[0] == '-';
		const char *ee = num(in + neg, in + n, &err);
		if (!ee || ee != in + n || err > 65535)
			BAD("bad [error] of a completion");
		e->error = neg ? -(int32_t)err : (int32_t)err;
	} else {
		if (n >= sizeof(l->comm))
			n = sizeof(l->comm) - 1;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)in[i];
			l->comm[i] = (char)(c < 32 || c == 127 ? '?' : c);
		}
		l->comm[n] = 0;
		e->comm = l->comm;
	}
	return LINE_EVENT;
}

/* Parse one line (without its newline). */
static int parse_line(const char *p, const char *end, struct bp_line *l)
{
	memset(&l->e, 0, sizeof(l->e));
	l->comm[0] = 0;
	l->why = NULL;
	p = skip_sp(p, end);
	if (p == end || *p == '#')
		return LINE_IGNORE;
	const char *rwbs;
	size_t rwbslen;
	int have_sector, k = parse_head(&p, end, l, &rwbs, &rwbslen);
	if (k == LINE_EVENT)
		k = parse_extent(&p, end, l, rwbs, rwbslen, &have_sector);
	if (k != LINE_EVENT)
		return k;
	if (l->e.action == 'A') {
		if (!have_sector)
			BAD("remap without '<- (MAJ,MIN) SECTOR'");
		return parse_remap(p, end, l);
	}
	if (l->e.action == 'X' && !l->e.split_sector)
		BAD("split without 'SECTOR / SECTOR'");
	return parse_bracket(p, end, l);
}

/* The summary blkparse appends: "CPU0 (sda):", "Total (sda):", ... */
static int is_summary(const char *p, const char *end)
{
	p = skip_sp(p, end);
	size_t n = (size_t)(end - p);
	if (n >= 4 && !memcmp(p, "CPU", 3) && p[3] >= '0' && p[3] <= '9')
		return 1;
	return n >= 7 && !memcmp(p, "Total (", 7);
}

struct bp {
	const struct reel_import_opts *o;
	struct reel_import_stats *st;
	char *errmsg;
	size_t errlen;
};

static int bad_line(struct bp *b, const char *path, uint64_t lineno, const char *why,
		    const char *line, size_t len)
{
	if (b->o && b->o->skip_bad) {
		b->st->bad++;
		return 0;
	}
	char shown[81];
	size_t n = len < 80 ? len : 80;
	for (size_t i = 0; i < n; i++)
		shown[i] = (line[i] < 32 || line[i] == 127) ? '?' : line[i];
	shown[n] = 0;
	return reel_errf(b->errmsg, b->errlen, REEL_E_PARSE,
			 "%s:%llu: %s in \"%s%s\"; fix the line or pass --skip-bad to count and "
			 "skip such lines",
			 path, (unsigned long long)lineno, why, shown, len > 80 ? "..." : "");
}

/* One input file: the text importers' line reader, yielding events in order. */
struct bp_src {
	struct ti_lines in;
	int summary;	  /* in the summary blkparse prints at the end */
	struct bp_line l; /* the next event, when have */
	int have;
};

/* Read s's next event into s->l (s->have), or leave have 0 at the end. */
static int src_next(struct bp *b, struct bp_src *s)
{
	s->have = 0;
	for (;;) {
		char *line;
		size_t ll;
		int rc = ti_lines_next(&s->in, &line, &ll);
		if (rc <= 0)
			return rc;
		if (s->summary)
			continue;
		if (s->in.toolong || ll > BP_LINE_MAX) {
			rc = bad_line(b, s->in.path, s->in.lineno, "line too long", line, ll);
			if (rc)
				return rc;
			continue;
		}
		int k = parse_line(line, line + ll, &s->l);
		if (k == LINE_EVENT) {
			s->have = 1;
			return 0;
		}
		if (k == LINE_BAD) {
			if (is_summary(line, line + ll)) {
				s->summary = 1;
				continue;
			}
			rc = bad_line(b, s->in.path, s->in.lineno, s->l.why, line, ll);
			if (rc)
				return rc;
		}
	}
}

static int bp_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		  struct reel_writer *w, struct reel_import_stats *st, char *errmsg, size_t errlen)
{
	struct bp b = {.o = o, .st = st, .errmsg = errmsg, .errlen = errlen};
	if (errlen)
		errmsg[0] = 0;
	if (!npaths)
		return reel_errf(errmsg, errlen, REEL_E_ARG, "no input files");
	struct bp_src *srcs = calloc(npaths, sizeof(*srcs));
	if (!srcs)
		return reel_errf(errmsg, errlen, REEL_E_NOMEM, "out of memory");
	struct reel_join *j = NULL;
	int rc = reel_join_create(&j, w, NULL, 0);
	if (rc)
		reel_errf(errmsg, errlen, rc, "out of memory");
	for (size_t i = 0; i < npaths; i++)
		srcs[i].in.fd = -1;
	for (size_t i = 0; i < npaths && !rc; i++) {
		struct bp_src *s = &srcs[i];
		if (ti_lines_init(&s->in, st, errmsg, errlen)) {
			rc = reel_errf(errmsg, errlen, REEL_E_NOMEM, "out of memory");
			break;
		}
		rc = ti_lines_open(&s->in, paths[i]);
		if (!rc)
			rc = src_next(&b, s);
	}
	/* several files (blkparse of several devices, or of one trace in
	 * parts): merged by time, each being in time order already */
	while (!rc) {
		struct bp_src *m = NULL;
		for (size_t i = 0; i < npaths; i++)
			if (srcs[i].have && (!m || srcs[i].l.e.t_ns < m->l.e.t_ns))
				m = &srcs[i];
		if (!m)
			break;
		m->l.e.comm = m->l.e.comm ? m->l.comm : NULL;
		rc = reel_join_push(j, &m->l.e);
		if (rc) {
			reel_errf(errmsg, errlen, rc, "%s:%llu: %s", m->in.path,
				  (unsigned long long)m->in.lineno, reel_strerror(rc));
			break;
		}
		rc = src_next(&b, m);
	}
	for (size_t i = 0; i < npaths; i++)
		ti_lines_free(&srcs[i].in);
	free(srcs);
	if (!j)
		return rc;
	if (!rc) {
		rc = reel_join_finish(j);
		if (rc)
			reel_errf(errmsg, errlen, rc, "writing the records: %s",
				  reel_writer_errmsg(w));
	}
	reel_join_stats(j, &st->join);
	st->records = st->join.records;
	if (!rc) {
		reel_join_write_meta(w, &st->join, 0);
	}
	reel_join_destroy(j);
	return rc;
}

/* Lines of the first 64 KiB that parse as blkparse events. */
static int bp_detect(const unsigned char *buf, size_t len, const char *path)
{
	const char *p = (const char *)buf, *end = p + len;
	int good = 0, bad = 0, lines = 0;
	struct bp_line l;
	while (p < end && lines < 64) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break; /* a partial last line says nothing */
		int k = parse_line(p, nl, &l);
		if (k == LINE_EVENT)
			good++;
		else if (k == LINE_BAD && is_summary(p, nl))
			break; /* the summary at the end */
		else if (k == LINE_BAD)
			bad++;
		lines++;
		p = nl + 1;
	}
	if (!good)
		return 0;
	if (!bad && good >= 3)
		return 95;
	if (good > bad * 4)
		return 70;
	return good > bad ? 40 : 0;
}

const struct reel_importer reel_imp_blkparse = {
    .name = "blkparse",
    .describe = "blkparse default text output (\"8,0 3 1 0.000000000 697 Q WS 1234 + 8 [comm]\")",
    .detect = bp_detect,
    .run = bp_run,
};
