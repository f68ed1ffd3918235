/*
 * formats/text_import.h - internal helpers shared by the text importers
 * (formats/import_<name>.c) and exporters.  Not part of the public API
 * (formats/reel.h is); nothing here prints or exits.
 *
 * A text importer reads its inputs line by line through a ti_ctx, whose
 * ti_lines reader owns a fixed-size line buffer (constant memory whatever
 * the input size) and counts lines and bytes; the ti_ctx formats
 * "file:line: reason" messages for bad input (or counts and skips them
 * with --skip-bad), maps source device keys to .reel device ids, and sorts records by queue time
 * within a bounded window (TI_WINDOW records) before they reach the writer.
 */
#ifndef IOREEL_TEXT_IMPORT_H
#define IOREEL_TEXT_IMPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/reel.h"

#define TI_LINE_MAX 4096	   /* longer lines are bad lines */
#define TI_LONG_LINE_MAX (1 << 20) /* a "line" longer than this ends the import */
#define TI_WINDOW 4096		   /* records kept to sort by queue time */
#define TI_MAX_DEVICES 4096	   /* distinct devices per import */
#define TI_DEV_HASH 8192	   /* slots of the device key hash (2x the devices) */
#define TI_DETECT_MIN 3		   /* lines a detector needs to be confident */

struct ti_dev {
	uint64_t key;  /* source's device key (disk number, devt, ...) */
	uint64_t key2; /* second key part (hash of a host name), or 0 */
	uint16_t id;
};

/*
 * The one line reader of the text importers: a fixed-size buffer (constant
 * memory whatever the input size) over one input at a time, counting lines
 * and bytes into st.  ti_ctx holds one; import_blkparse.c one per input.
 */
struct ti_lines {
	struct reel_import_stats *st; /* lines, bytes_in (borrowed) */
	char *errmsg;		      /* open and read errors (borrowed) */
	size_t errlen;
	const char *path;
	int fd;
	uint64_t lineno;
	char *buf; /* TI_LINE_MAX * 2 + 1 bytes */
	size_t bstart, bend;
	int eof;
	int toolong;  /* the last line returned was cut short */
	char cut[64]; /* start of a line that was too long */
};

/* Set up (allocates the buffer); 0 or REEL_E_NOMEM. */
int ti_lines_init(struct ti_lines *l, struct reel_import_stats *st, char *errmsg, size_t errlen);
void ti_lines_free(struct ti_lines *l);
/* Open an input ("-": standard input), closing the previous one.  Returns 0
 * or REEL_E_IO with errmsg set. */
int ti_lines_open(struct ti_lines *l, const char *path);
/*
 * Next line: 1 with *line (NUL-terminated, the line ending stripped; valid
 * until the next call) and *len (its length, which counts any NUL bytes in
 * it; len may be NULL), 0 at the end, or REEL_E_IO.  Lines longer than
 * TI_LINE_MAX come back cut short with l->toolong set (the rest is
 * consumed); one without a line ending in TI_LONG_LINE_MAX bytes is an
 * error (REEL_E_PARSE), whatever --skip-bad says.
 */
int ti_lines_next(struct ti_lines *l, char **line, size_t *len);

struct ti_key {
	int64_t t;
	uint64_t order; /* arrival number << 13 | slot */
};
/* time, then arrival order: keys are unique, so ties keep the input order */
#define TI_KEY_BEFORE(a, b) ((a)->t < (b)->t || ((a)->t == (b)->t && (a)->order < (b)->order))
REEL_HEAP(ti_heap, struct ti_key, TI_KEY_BEFORE)

struct ti_ctx {
	/* borrowed from the importer's caller */
	const struct reel_import_opts *o;
	struct reel_import_stats *st;
	struct reel_writer *w;
	char *errmsg;
	size_t errlen;
	struct ti_lines in; /* the current input */
	/* device map */
	struct ti_dev *devs;
	size_t ndevs;
	uint16_t *devhash; /* index + 1 into devs, 0 empty */
	/* reorder window: records in slots, a min-heap of keys (ti_emit()) */
	struct reel_rec *slots;
	struct ti_heap keys;
	unsigned *free;
	size_t nfree;
	uint64_t seq;	  /* records emitted so far */
	int64_t last_out; /* queue time of the last record written */
	int have_out;
	uint64_t late; /* records older than one already written */
	/* time zero: the earliest record of the first window (ns, in the
	 * importer's raw time scale); subtracted from every record written */
	int have_t0;
	int64_t t0;
	/* wall clock of raw time 0, for formats with absolute times */
	int have_base;
	int64_t base;
};

/* Set up (allocates the buffers); returns 0 or REEL_E_NOMEM. */
int ti_init(struct ti_ctx *c, const struct reel_import_opts *o, struct reel_import_stats *st,
	    struct reel_writer *w, char *errmsg, size_t errlen);
/* Drain the window into the writer, record the stats; returns 0 or error. */
int ti_finish(struct ti_ctx *c);
void ti_free(struct ti_ctx *c);

/* Open an input (closing the previous one): ti_lines_open() on c->in. */
int ti_open(struct ti_ctx *c, const char *path);
/* Next line of the current input: ti_lines_next() on c->in. */
int ti_getline(struct ti_ctx *c, char **line);

/*
 * A malformed line: with skip_bad count it and return 1 (skip the line);
 * otherwise fill errmsg with "path:line: reason; use --skip-bad ..." and
 * return REEL_E_PARSE.
 */
int ti_bad(struct ti_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fatal error with "path:line: reason" (no --skip-bad hint). */
int ti_fail(struct ti_ctx *c, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Split line in place on delim (' ' means runs of blanks/tabs; for other
 * delimiters the fields are trimmed).  Returns the field count; at most
 * max fields are stored, a count above max means "too many". */
int ti_split(char *line, char delim, char **f, int max);

/* Strict decimal parses of a whole field: 0 ok, -1 not a number, -2 out
 * of range.  ti_dec parses "12", "12.5", "1e3" into value * scale as an
 * integer (exact for up to 9 decimals), e.g. seconds with scale 1e9. */
int ti_u64(const char *s, uint64_t *v);
int ti_i64(const char *s, int64_t *v);
int ti_dec(const char *s, int64_t scale, int64_t *v);

/* Field parses that report a bad line themselves: 0 ok, else ti_bad()'s
 * return (1 skip, or REEL_E_PARSE).  what names the field ("offset"). */
int ti_field_u64(struct ti_ctx *c, const char *what, const char *s, uint64_t *v);
int ti_field_dec(struct ti_ctx *c, const char *what, const char *s, int64_t scale, int64_t *v);

/*
 * Device id for a source device key: the first time a key is seen it gets
 * an id (the key itself when preferred and free, else the lowest free id)
 * and is declared on the writer with name, major, minor.  Returns the id
 * (>= 0) or a negative error (too many devices).
 */
int ti_device(struct ti_ctx *c, uint64_t key, uint64_t key2, int prefer_key, const char *name,
	      uint32_t major, uint32_t minor, uint32_t lbs);

/* The id of a device key already seen, or -1 (then name it, ti_device()). */
int ti_device_find(const struct ti_ctx *c, uint64_t key, uint64_t key2);

/* The id of a numbered source device (disk, volume, ASU): ti_device_find()
 * with key2 0, else ti_device() naming it "<prefix><key>" (the key as the
 * preferred id, no major:minor, logical block size lbs, 0 if unknown).
 * Returns the id (>= 0) or a negative error. */
int ti_device_numbered(struct ti_ctx *c, uint64_t key, const char *prefix, uint32_t lbs);

/* Queue a record for the writer (sorted within the window).  0, 1 (a bad
 * line: a time beyond +-2^62 ns) or error. */
int ti_emit(struct ti_ctx *c, const struct reel_rec *r);

/*
 * The usual importer: for each input, open it, call file_fn (may be NULL)
 * then line_fn on each line.  line_fn returns 0 (line used or ignored), 1
 * (a bad line, already counted by ti_bad) or a negative error, which ends
 * the run.  Lines that are too long are reported here.  Ends with
 * ti_finish().  Returns 0 or the error (errmsg filled).
 */
int ti_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
	   struct reel_writer *w, struct reel_import_stats *st, char *errmsg, size_t errlen,
	   int (*line_fn)(struct ti_ctx *c, char *line, void *arg), void *arg,
	   int (*file_fn)(struct ti_ctx *c, void *arg));

/*
 * Importers emit times in ns on their own raw scale; ti subtracts time
 * zero (the earliest record of the first window) when writing.  For formats
 * with absolute times, ti_set_base() gives the wall clock (Unix ns) of raw
 * time 0; the header's start time then becomes base + time zero.
 */
void ti_set_base(struct ti_ctx *c, int64_t unix_ns);
int ti_set_start(struct ti_ctx *c, int64_t unix_ns);

/* A header word: starts with a letter, has no digits ("Timestamp"). */
int ti_is_word(const char *s);

/* A blank line or a '#' comment. */
int ti_blank(const char *line);

/*
 * A CSV record of nf fields, the start of a CSV importer's line function:
 * returns 1 with f[0..nf) set (f has room for nf + 1 fields).  Else 0, with
 * *rc what the line function returns: 0 for a blank line, a comment or a
 * header (line 1 starting with a word), ti_bad()'s return for another
 * field count ("N fields, expected nf (columns)").
 */
int ti_csv_fields(struct ti_ctx *c, char *line, char **f, int nf, const char *columns, int *rc);
/* The same for a detector's line function: -1 (blank, comment or line 1's
 * header: ignore), 0 (not nf fields) or 1 (f[0..nf) set; f as above). */
int ti_csv_detect_fields(char *line, int lineno, char **f, int nf);

/* ---- detection helpers ---- */
/*
 * Call fn on each complete line of buf (at most 200 lines; a last line cut
 * by the 64 KiB limit is left out).  fn returns 1 (matches), 0 (does not),
 * -1 (ignore: blank, comment or header).  Returns matching*100/lines seen,
 * or 0 when fewer than min_lines lines were judged.
 */
int ti_detect_lines(const unsigned char *buf, size_t len, int min_lines,
		    int (*fn)(char *line, int lineno));
/* Is s a non-empty string of decimal digits (with optional '-')? */
int ti_is_int(const char *s);
/* Is s a decimal number (digits, optional '.' and fraction)? */
int ti_is_num(const char *s);

/* 64-bit FNV-1a of a string (device keys from host names). */
uint64_t ti_hash(const char *s);

#endif
