/*
 * formats/text_import.c - line reading, bad-line reports, device ids and the
 * bounded reorder window shared by the text importers (see text_import.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/text_import.h"

#define BUFSZ (2 * TI_LINE_MAX)

int ti_init(struct ti_ctx *c, const struct reel_import_opts *o, struct reel_import_stats *st,
	    struct reel_writer *w, char *errmsg, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->st = st;
	c->w = w;
	c->errmsg = errmsg;
	c->errlen = errlen;
	int lrc = ti_lines_init(&c->in, st, errmsg, errlen);
	c->slots = malloc((TI_WINDOW + 1) * sizeof(*c->slots));
	c->free = malloc((TI_WINDOW + 1) * sizeof(*c->free));
	c->devs = malloc(TI_MAX_DEVICES * sizeof(*c->devs));
	c->devhash = calloc(TI_DEV_HASH, sizeof(*c->devhash));
	if (lrc || !c->slots || !c->free || !c->devs || !c->devhash) {
		ti_free(c);
		return REEL_E_NOMEM;
	}
	for (unsigned i = 0; i <= TI_WINDOW; i++)
		c->free[c->nfree++] = TI_WINDOW - i;
	if (errmsg && errlen)
		errmsg[0] = 0;
	return 0;
}

void ti_free(struct ti_ctx *c)
{
	ti_lines_free(&c->in);
	free(c->slots);
	ti_heap_free(&c->keys);
	free(c->free);
	free(c->devs);
	free(c->devhash);
	c->devhash = NULL;
	c->slots = NULL;
	c->free = NULL;
	c->devs = NULL;
}

static void vmsg(struct ti_ctx *c, const char *fmt, va_list ap, const char *tail)
{
	if (!c->errmsg || !c->errlen)
		return;
	int n = 0;
	if (c->in.path)
		n = snprintf(c->errmsg, c->errlen, "%s:%llu: ", c->in.path,
			     (unsigned long long)c->in.lineno);
	if (n < 0 || (size_t)n >= c->errlen)
		return;
	reel_verrf(c->errmsg + n, c->errlen - n, fmt, ap);
	size_t m = strlen(c->errmsg + n);
	if (n + m + 1 >= c->errlen)
		return;
	snprintf(c->errmsg + n + m, c->errlen - n - m, "%s", tail);
}

int ti_bad(struct ti_ctx *c, const char *fmt, ...)
{
	if (c->o && c->o->skip_bad) {
		c->st->bad++;
		return 1;
	}
	va_list ap;
	va_start(ap, fmt);
	vmsg(c, fmt, ap, "; use --skip-bad to skip such lines");
	va_end(ap);
	return REEL_E_PARSE;
}

int ti_fail(struct ti_ctx *c, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(c, fmt, ap, "");
	va_end(ap);
	return err;
}

/* ---- the line reader ---- */
int ti_lines_init(struct ti_lines *l, struct reel_import_stats *st, char *errmsg, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->st = st;
	l->errmsg = errmsg;
	l->errlen = errlen;
	l->fd = -1;
	l->buf = malloc(BUFSZ + 1);
	return l->buf ? 0 : REEL_E_NOMEM;
}

void ti_lines_free(struct ti_lines *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->buf);
	l->buf = NULL;
}

int ti_lines_open(struct ti_lines *l, const char *path)
{
	if (l->fd >= 0)
		close(l->fd);
	l->path = path;
	l->lineno = 0;
	l->bstart = l->bend = 0;
	l->eof = 0;
	l->fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	if (l->fd < 0)
		return reel_errf(l->errmsg, l->errlen, REEL_E_IO, "%s: cannot open: %s", path,
				 strerror(errno));
	posix_fadvise(l->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}

/* Refill: move the pending bytes to the front and read more. */
static int fill(struct ti_lines *l)
{
	if (l->bstart) {
		memmove(l->buf, l->buf + l->bstart, l->bend - l->bstart);
		l->bend -= l->bstart;
		l->bstart = 0;
	}
	while (l->bend < BUFSZ) {
		ssize_t n = read(l->fd, l->buf + l->bend, BUFSZ - l->bend);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return reel_errf(l->errmsg, l->errlen, REEL_E_IO,
					 "%s: read error after line %llu: %s", l->path,
					 (unsigned long long)l->lineno, strerror(errno));
		}
		if (n == 0) {
			l->eof = 1;
			break;
		}
		l->bend += (size_t)n;
		__atomic_store_n(&l->st->bytes_in, l->st->bytes_in + (uint64_t)n, __ATOMIC_RELAXED);
		/* one read is enough once a line ending is in the buffer */
		if (memchr(l->buf + l->bend - n, '\n', (size_t)n))
			break;
	}
	return 0;
}

/* A line too long for the buffer: keep its start for the message, drop
 * the rest up to its line ending, but no more than TI_LONG_LINE_MAX bytes:
 * input without line endings (/dev/zero, a binary file) ends the import
 * there rather than being read forever. */
static int drop_long_line(struct ti_lines *l)
{
	size_t keep = sizeof(l->cut) - 1;
	uint64_t dropped = l->bend - l->bstart;
	memcpy(l->cut, l->buf + l->bstart, keep);
	l->cut[keep] = 0;
	l->bstart = l->bend;
	while (!l->eof) {
		if (dropped > TI_LONG_LINE_MAX)
			return reel_errf(
			    l->errmsg, l->errlen, REEL_E_PARSE,
			    "%s:%llu: no line ending in %d MiB: not a text trace (binary "
			    "data?); name the right format with --from",
			    l->path, (unsigned long long)l->lineno + 1, TI_LONG_LINE_MAX >> 20);
		int rc = fill(l);
		if (rc)
			return rc;
		char *q = l->buf + l->bstart;
		char *e = memchr(q, '\n', l->bend - l->bstart);
		if (e) {
			l->bstart += (size_t)(e - q) + 1;
			break;
		}
		dropped += l->bend - l->bstart;
		l->bstart = l->bend;
	}
	l->toolong = 1;
	return 0;
}

int ti_lines_next(struct ti_lines *l, char **line, size_t *lenp)
{
	l->toolong = 0;
	for (;;) {
		char *s = l->buf + l->bstart;
		size_t avail = l->bend - l->bstart;
		char *nl = avail ? memchr(s, '\n', avail) : NULL;
		if (!nl && avail >= TI_LINE_MAX) {
			int rc = drop_long_line(l);
			if (rc)
				return rc;
			l->lineno++;
			l->st->lines++;
			*line = l->cut;
			if (lenp)
				*lenp = strlen(l->cut);
			return 1;
		}
		if (nl || (l->eof && avail)) {
			size_t len = nl ? (size_t)(nl - s) : avail;
			l->bstart += nl ? len + 1 : len;
			if (len && s[len - 1] == '\r')
				len--;
			s[len] = 0;
			l->lineno++;
			l->st->lines++;
			*line = s;
			if (lenp)
				*lenp = len;
			return 1;
		}
		if (l->eof)
			return 0;
		int rc = fill(l);
		if (rc)
			return rc;
	}
}

int ti_open(struct ti_ctx *c, const char *path) { return ti_lines_open(&c->in, path); }

int ti_getline(struct ti_ctx *c, char **line) { return ti_lines_next(&c->in, line, NULL); }

int ti_split(char *line, char delim, char **f, int max)
{
	int n = 0;
	char *p = line;
	if (delim == ' ') {
		for (;;) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!*p)
				break;
			if (n < max)
				f[n] = p;
			n++;
			while (*p && *p != ' ' && *p != '\t')
				p++;
			if (!*p)
				break;
			*p++ = 0;
		}
		return n;
	}
	/* one pass: fields end at delim or the end; blanks around are trimmed */
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		char *start = p, *last = p; /* last: one past the last non-blank */
		while (*p && *p != delim) {
			if (*p != ' ' && *p != '\t')
				last = p + 1;
			p++;
		}
		int end = !*p;
		*last = 0;
		if (n < max)
			f[n] = start;
		n++;
		if (end)
			break;
		p++;
	}
	return n;
}

int ti_u64(const char *s, uint64_t *v)
{
	if (!*s)
		return -1;
	uint64_t x = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -2;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int ti_i64(const char *s, int64_t *v)
{
	int neg = *s == '-';
	uint64_t x;
	int rc = ti_u64(s + neg, &x);
	if (rc)
		return rc;
	if (x > (uint64_t)INT64_MAX)
		return -2;
	*v = neg ? -(int64_t)x : (int64_t)x;
	return 0;
}

int ti_dec(const char *s, int64_t scale, int64_t *v)
{
	int neg = 0;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!*s)
		return -1;
	/* mantissa digits (up to 19 significant), decimal exponent */
	uint64_t m = 0;
	int exp10 = 0, digits = 0, seen_dot = 0, any = 0;
	for (; *s && *s != 'e' && *s != 'E'; s++) {
		if (*s == '.') {
			if (seen_dot)
				return -1;
			seen_dot = 1;
			continue;
		}
		if (*s < '0' || *s > '9')
			return -1;
		any = 1;
		if (digits < 18) {
			m = m * 10 + (uint64_t)(*s - '0');
			if (m)
				digits++;
			if (seen_dot)
				exp10--;
		} else if (!seen_dot) {
			exp10++;
		}
	}
	if (!any)
		return -1;
	if (*s) { /* exponent */
		s++;
		int64_t e;
		if (ti_i64(*s == '+' ? s + 1 : s, &e) || e > 400 || e < -400)
			return -1;
		exp10 += (int)e;
	}
	/* value = m * 10^exp10 * scale, computed in integers when exact */
	__int128 x = (__int128)m * scale;
	while (exp10 > 0) {
		x *= 10;
		exp10--;
		if (x > (__int128)INT64_MAX)
			return -2;
	}
	while (exp10 < 0 && x) {
		x /= 10;
		exp10++;
	}
	if (x > (__int128)INT64_MAX)
		return -2;
	*v = neg ? -(int64_t)x : (int64_t)x;
	return 0;
}

int ti_field_u64(struct ti_ctx *c, const char *what, const char *s, uint64_t *v)
{
	int rc = ti_u64(s, v);
	if (rc == -1)
		return ti_bad(c, "%s '%.40s' is not a number", what, s);
	if (rc)
		return ti_bad(c, "%s '%.40s' is out of range", what, s);
	return 0;
}

int ti_field_dec(struct ti_ctx *c, const char *what, const char *s, int64_t scale, int64_t *v)
{
	int rc = ti_dec(s, scale, v);
	if (rc == -1)
		return ti_bad(c, "%s '%.40s' is not a number", what, s);
	if (rc)
		return ti_bad(c, "%s '%.40s' is out of range", what, s);
	return 0;
}

/* The hash slot of a device key: the one holding it, or the empty one where
 * it goes (linear probing). */
static size_t dev_slot(const struct ti_ctx *c, uint64_t key, uint64_t key2)
{
	uint64_t hv = (key * 0x9e3779b97f4a7c15ull) ^ key2;
	size_t slot = (size_t)(hv >> 51) & (TI_DEV_HASH - 1);
	while (c->devhash[slot]) {
		const struct ti_dev *d = &c->devs[c->devhash[slot] - 1];
		if (d->key == key && d->key2 == key2)
			break;
		slot = (slot + 1) & (TI_DEV_HASH - 1);
	}
	return slot;
}

int ti_device_find(const struct ti_ctx *c, uint64_t key, uint64_t key2)
{
	size_t slot = dev_slot(c, key, key2);
	return c->devhash[slot] ? c->devs[c->devhash[slot] - 1].id : -1;
}

static int id_taken(const struct ti_ctx *c, uint32_t id)
{
	for (size_t i = 0; i < c->ndevs; i++)
		if (c->devs[i].id == id)
			return 1;
	return 0;
}

int ti_device(struct ti_ctx *c, uint64_t key, uint64_t key2, int prefer_key, const char *name,
	      uint32_t major, uint32_t minor, uint32_t lbs)
{
	size_t slot = dev_slot(c, key, key2);
	if (c->devhash[slot])
		return c->devs[c->devhash[slot] - 1].id;
	if (c->ndevs >= TI_MAX_DEVICES)
		return ti_fail(c, REEL_E_RANGE, "more than %d devices; split the input",
			       TI_MAX_DEVICES);
	uint32_t id = (uint32_t)key;
	if (!prefer_key || key >= 65536 || id_taken(c, id))
		for (id = 0; id_taken(c, id); id++)
			;
	struct reel_device d;
	memset(&d, 0, sizeof(d));
	d.id = (uint16_t)id;
	snprintf(d.name, sizeof(d.name), "%s", name);
	d.major = major;
	d.minor = minor;
	d.lbs = lbs;
	int rc = reel_writer_add_device(c->w, &d);
	if (rc < 0)
		return ti_fail(c, rc, "cannot declare device %s: %s", name,
			       reel_writer_errmsg(c->w));
	c->devs[c->ndevs].key = key;
	c->devs[c->ndevs].key2 = key2;
	c->devs[c->ndevs].id = (uint16_t)id;
	c->ndevs++;
	c->devhash[slot] = (uint16_t)c->ndevs;
	return (int)id;
}

int ti_device_numbered(struct ti_ctx *c, uint64_t key, const char *prefix, uint32_t lbs)
{
	int dev = ti_device_find(c, key, 0);
	if (dev >= 0)
		return dev;
	char name[32];
	snprintf(name, sizeof(name), "%s%llu", prefix, (unsigned long long)key);
	return ti_device(c, key, 0, 1, name, 0, 0, lbs);
}

/*
 * ---- the reorder window ----
 * Up to TI_WINDOW records wait in slots; a binary min-heap of small keys
 * (time, then arrival order, with the slot number in the low bits) picks
 * the earliest when the window is full.  Sorted input costs O(1) per push
 * and O(log W) per pop on 16-byte keys; ties keep the input order.
 */
#define SLOT_BITS 13 /* TI_WINDOW + 1 slots */

static int64_t rec_time(const struct reel_rec *r)
{
	return (r->has & REEL_HAS_QUEUE) ? r->queue_ns : r->issue_ns;
}

static int time_ok(int64_t t) { return t <= INT64_MAX / 2 && t >= -(INT64_MAX / 2); }

static int write_one(struct ti_ctx *c, const struct reel_rec *raw)
{
	if (!c->have_t0) {
		/* time zero: the earliest record of the first window */
		c->have_t0 = 1;
		c->t0 = rec_time(raw);
		if (c->have_base)
			ti_set_start(c, c->base + c->t0);
	}
	struct reel_rec rr = *raw, *r = &rr;
	/* ti_emit keeps raw times within +-2^62: this cannot overflow */
	if (r->has & REEL_HAS_QUEUE)
		r->queue_ns -= c->t0;
	if (r->has & REEL_HAS_ISSUE)
		r->issue_ns -= c->t0;
	if (r->has & REEL_HAS_COMPLETE)
		r->complete_ns -= c->t0;
	int64_t t = rec_time(r);
	if (c->have_out && t < c->last_out)
		c->late++;
	else
		c->last_out = t;
	c->have_out = 1;
	int rc = reel_write(c->w, r);
	if (rc < 0)
		return ti_fail(c, rc, "cannot write record: %s", reel_writer_errmsg(c->w));
	c->st->records++;
	return 0;
}

static int pop_min(struct ti_ctx *c)
{
	struct ti_key top = ti_heap_pop(&c->keys);
	unsigned slot = (unsigned)(top.order & ((1u << SLOT_BITS) - 1));
	c->free[c->nfree++] = slot;
	return write_one(c, &c->slots[slot]);
}

int ti_emit(struct ti_ctx *c, const struct reel_rec *r)
{
	/* raw times stay within +-2^62 so that subtracting time zero cannot
	 * overflow (2^62 ns is 146 years) */
	if (((r->has & REEL_HAS_QUEUE) && !time_ok(r->queue_ns)) ||
	    ((r->has & REEL_HAS_ISSUE) && !time_ok(r->issue_ns)) ||
	    ((r->has & REEL_HAS_COMPLETE) && !time_ok(r->complete_ns)))
		return ti_bad(c, "time out of range (more than 146 years)");
	if (r->offset > REEL_END_LIMIT - r->length)
		return ti_bad(c, "offset %llu + length %u is beyond 2^63 bytes",
			      (unsigned long long)r->offset, r->length);
	unsigned slot = c->free[--c->nfree];
	c->slots[slot] = *r;
	struct ti_key k = {.t = rec_time(r), .order = (c->seq++ << SLOT_BITS) | slot};
	int rc = ti_heap_push(&c->keys, k);
	if (rc)
		return ti_fail(c, rc, "out of memory");
	if (c->keys.n > TI_WINDOW)
		return pop_min(c);
	return 0;
}

int ti_finish(struct ti_ctx *c)
{
	while (c->keys.n) {
		int rc = pop_min(c);
		if (rc)
			return rc;
	}
	if (c->late)
		reel_writer_meta_int(c->w, REEL_META_IMPORT_OUT_OF_ORDER, (int64_t)c->late);
	return 0;
}

/* ---- detection ---- */
int ti_detect_lines(const unsigned char *buf, size_t len, int min_lines,
		    int (*fn)(char *line, int lineno))
{
	char line[512];
	size_t i = 0;
	int seen = 0, good = 0, lineno = 0;
	while (i < len && lineno < 200) {
		const unsigned char *nl = memchr(buf + i, '\n', len - i);
		if (!nl)
			break; /* a cut line, or a file without line endings */
		size_t n = (size_t)(nl - (buf + i));
		lineno++;
		if (memchr(buf + i, 0, n)) /* binary */
			return 0;
		if (n >= sizeof(line)) {
			seen++;
			i += n + 1;
			continue;
		}
		memcpy(line, buf + i, n);
		if (n && line[n - 1] == '\r')
			n--;
		line[n] = 0;
		i = (size_t)(nl - buf) + 1;
		int r = fn(line, lineno);
		if (r < 0)
			continue;
		seen++;
		good += r > 0;
	}
	/* a short file whose last line lacks its newline */
	if (i < len && lineno == 0 && len < sizeof(line) && !memchr(buf, 0, len)) {
		memcpy(line, buf, len);
		line[len] = 0;
		int r = fn(line, 1);
		if (r >= 0) {
			seen++;
			good += r > 0;
		}
	} else if (i < len && len < 65536 && len - i < sizeof(line) &&
		   !memchr(buf + i, 0, len - i)) {
		size_t n = len - i;
		memcpy(line, buf + i, n);
		line[n] = 0;
		int r = fn(line, lineno + 1);
		if (r >= 0) {
			seen++;
			good += r > 0;
		}
	}
	if (seen < min_lines || !seen)
		return 0;
	return good * 100 / seen;
}

int ti_is_int(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

int ti_is_num(const char *s)
{
	int digits = 0, dot = 0;
	if (*s == '-')
		s++;
	for (; *s; s++) {
		if (*s == '.') {
			if (dot++)
				return 0;
		} else if (*s >= '0' && *s <= '9') {
			digits++;
		} else {
			return 0;
		}
	}
	return digits > 0;
}

uint64_t ti_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h | 1; /* never 0: 0 means "no second key" */
}

int ti_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
	   struct reel_writer *w, struct reel_import_stats *st, char *errmsg, size_t errlen,
	   int (*line_fn)(struct ti_ctx *c, char *line, void *arg), void *arg,
	   int (*file_fn)(struct ti_ctx *c, void *arg))
{
	struct ti_ctx c;
	int rc = ti_init(&c, o, st, w, errmsg, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < npaths && !rc; i++) {
		rc = ti_open(&c, paths[i]);
		if (!rc && file_fn)
			rc = file_fn(&c, arg);
		char *line;
		while (!rc && (rc = ti_getline(&c, &line)) == 1) {
			if (c.in.toolong)
				rc = ti_bad(&c, "line longer than %d bytes (starts '%.32s')",
					    TI_LINE_MAX, line);
			else
				rc = line_fn(&c, line, arg);
			if (rc > 0)
				rc = 0; /* a bad line, counted and skipped */
		}
		if (rc > 0)
			rc = 0;
	}
	if (!rc)
		rc = ti_finish(&c);
	ti_free(&c);
	return rc;
}

void ti_set_base(struct ti_ctx *c, int64_t unix_ns)
{
	if (!c->have_base) {
		c->have_base = 1;
		c->base = unix_ns;
	}
}

int ti_set_start(struct ti_ctx *c, int64_t unix_ns)
{
	return reel_writer_meta_int(c->w, REEL_META_IMPORT_START_UNIX_NS, unix_ns);
}

int ti_blank(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return !*line || *line == '#';
}

int ti_csv_fields(struct ti_ctx *c, char *line, char **f, int nf, const char *columns, int *rc)
{
	*rc = 0;
	if (ti_blank(line))
		return 0;
	int n = ti_split(line, ',', f, nf + 1);
	if (c->in.lineno == 1 && ti_is_word(f[0]))
		return 0; /* a header line naming the columns */
	if (n != nf) {
		*rc = ti_bad(c, "%d fields, expected %d (%s)", n, nf, columns);
		return 0;
	}
	return 1;
}

int ti_csv_detect_fields(char *line, int lineno, char **f, int nf)
{
	if (ti_blank(line))
		return -1;
	int n = ti_split(line, ',', f, nf + 1);
	if (lineno == 1 && n == nf && ti_is_word(f[0]))
		return -1; /* header */
	return n == nf;
}

int ti_is_word(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return 0;
	for (; *s; s++)
		if (*s >= '0' && *s <= '9')
			return 0;
	return 1;
}
