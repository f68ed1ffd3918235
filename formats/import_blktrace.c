/*
 * formats/import_blktrace.c - blktrace binary traces.
 *
 * Inputs: the per-CPU files NAME.blktrace.N (each given, or NAME alone for
 * all of them), or one piped stream (`blktrace -o - > f`, every CPU in one
 * file).  Records are struct blk_io_trace (version 7, 48 bytes, 32-bit
 * action) or blk_io_trace2 (version 8, 64 bytes, 64-bit action), in the
 * byte order of the traced machine (told by the magic 0x654174vv), each
 * followed by pdu_len bytes of payload (remap, split point, process name,
 * message; first an 8-byte cgroup id when the action says so).
 *
 * The files are merged by time (a k-way merge of the per-CPU files; a piped
 * stream, whose CPUs interleave in chunks, is sorted within a window) and
 * the events go through the joiner (formats/join.c), which writes one
 * record per I/O.  Times are ns from the first event.
 */
#include "formats/reel.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BT_MAGIC 0x65617400u
#define BT_V7_SIZE 48
#define BT_V8_SIZE 64
#define BT_BUF (1u << 20)
#define BT_STREAM_WINDOW_NS (2ll * 1000000000ll) /* piped streams: sort window */
#define BT_HEAP_CAP ((size_t)1 << 20)		 /* events held at most */
#define BT_MAX_FILES 4096
#define BT_MAX_MESSAGES 16

/* action codes (low byte) and categories (action >> 16) */
enum {
	TA_QUEUE = 1,
	TA_BACKMERGE,
	TA_FRONTMERGE,
	TA_GETRQ,
	TA_SLEEPRQ,
	TA_REQUEUE,
	TA_ISSUE,
	TA_COMPLETE,
	TA_PLUG,
	TA_UNPLUG_IO,
	TA_UNPLUG_TIMER,
	TA_INSERT,
	TA_SPLIT,
	TA_BOUNCE,
	TA_REMAP,
	TA_ABORT,
	TA_DRV_DATA,
};
#define TA_CGROUP (1u << 8)
#define TC_READ (1ull << 0)
#define TC_WRITE (1ull << 1)
#define TC_FLUSH (1ull << 2)
#define TC_SYNC (1ull << 3)
#define TC_PC (1ull << 9)
#define TC_NOTIFY (1ull << 10)
#define TC_AHEAD (1ull << 11)
#define TC_META (1ull << 12)
#define TC_DISCARD (1ull << 13)
#define TC_FUA (1ull << 15)
#define TC_WRITE_ZEROES (1ull << 22)
enum { TN_PROCESS = 0, TN_TIMESTAMP = 1, TN_MESSAGE = 2 };

struct bev {
	int64_t t;
	uint64_t seq;
	uint64_t sector;
	uint64_t aux; /* remap: sector_from; split: where the second part starts */
	uint32_t bytes, pid, devt, from_devt;
	uint16_t cpu, src;
	uint16_t error;
	uint8_t act, op, flags;
};

/* (time, read order): a strict order, so ties come out as they were read */
#define BEV_BEFORE(a, b) ((a)->t < (b)->t || ((a)->t == (b)->t && (a)->seq < (b)->seq))
REEL_HEAP(bev_heap, struct bev, BEV_BEFORE)

struct src {
	const char *path;
	char *owned_path;
	const char *base; /* name for the device: "sda" */
	int fd;
	unsigned char *buf;
	size_t len, pos;
	uint64_t off; /* file offset of buf[0] */
	int eof, active, swap, version, named;
	uint32_t cpu0;
	int have_cpu0;
	int64_t last_t;
};

struct comm_ent {
	uint32_t pid;
	char name[32];
	uint8_t used;
};

struct bt {
	const struct reel_import_opts *o;
	struct reel_import_stats *st;
	struct reel_writer *w;
	struct reel_join *j;
	char *errmsg;
	size_t errlen;
	struct src *srcs;
	size_t nsrcs, srcs_cap;
	struct bev_heap heap;
	uint64_t seq;
	int multi_cpu;
	int64_t genesis;
	int have_genesis;
	struct comm_ent *comms;
	size_t ncomm_cap, ncomms;
	uint64_t messages;
	int64_t wall_ns, wall_t; /* from a TIMESTAMP notify */
	int have_wall, start_set;
};

/* Wall clock of time zero (the first event), from the TIMESTAMP notify. */
static int64_t start_unix_ns(const struct bt *b)
{
	return (int64_t)((uint64_t)b->wall_ns - (uint64_t)b->wall_t + (uint64_t)b->genesis);
}

/* Into the header as soon as both are known (before the first chunk). */
static void maybe_set_start(struct bt *b)
{
	if (!b->start_set && b->have_wall && b->have_genesis) {
		reel_writer_set_start(b->w, start_unix_ns(b)); /* too late: meta only */
		b->start_set = 1;
	}
}

static uint32_t bswap32(uint32_t v) { return __builtin_bswap32(v); }
static uint64_t bswap64(uint64_t v) { return __builtin_bswap64(v); }
static uint16_t bswap16(uint16_t v) { return __builtin_bswap16(v); }

static uint32_t rd32(const unsigned char *p, int swap)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return swap ? bswap32(v) : v;
}
static uint64_t rd64(const unsigned char *p, int swap)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return swap ? bswap64(v) : v;
}
static uint16_t rd16(const unsigned char *p, int swap)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return swap ? bswap16(v) : v;
}
static uint32_t be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static uint64_t be64(const unsigned char *p) { return ((uint64_t)be32(p) << 32) | be32(p + 4); }

/* Magic of a record: version (7 or 8) and whether it is byte-swapped; 0 if
 * not a blktrace record. */
static int magic_version(const unsigned char *p, int *swap)
{
	uint32_t m;
	memcpy(&m, p, 4);
	for (int s = 0; s < 2; s++) {
		uint32_t v = s ? bswap32(m) : m;
		if ((v & 0xffffff00u) == BT_MAGIC && ((v & 0xff) == 7 || (v & 0xff) == 8)) {
			*swap = s;
			return (int)(v & 0xff);
		}
	}
	return 0;
}

/* ---- process names ---------------------------------------------------- */
static int comm_set(struct bt *b, uint32_t pid, const unsigned char *name, size_t len)
{
	if (b->ncomms * 2 >= b->ncomm_cap) {
		size_t nc = b->ncomm_cap ? b->ncomm_cap * 2 : 256;
		struct comm_ent *n = calloc(nc, sizeof(*n));
		if (!n)
			return REEL_E_NOMEM;
		for (size_t i = 0; i < b->ncomm_cap; i++)
			if (b->comms[i].used) {
				size_t h = (b->comms[i].pid * 2654435761u) & (nc - 1);
				while (n[h].used)
					h = (h + 1) & (nc - 1);
				n[h] = b->comms[i];
			}
		free(b->comms);
		b->comms = n;
		b->ncomm_cap = nc;
	}
	size_t h = (pid * 2654435761u) & (b->ncomm_cap - 1);
	while (b->comms[h].used && b->comms[h].pid != pid)
		h = (h + 1) & (b->ncomm_cap - 1);
	if (!b->comms[h].used)
		b->ncomms++;
	b->comms[h].used = 1;
	b->comms[h].pid = pid;
	size_t n = 0;
	while (n < len && n < sizeof(b->comms[h].name) - 1 && name[n]) {
		unsigned char c = name[n];
		b->comms[h].name[n] = (char)(c < 32 || c == 127 ? '?' : c);
		n++;
	}
	b->comms[h].name[n] = 0;
	return 0;
}

static const char *comm_get(const struct bt *b, uint32_t pid)
{
	if (!b->ncomm_cap)
		return NULL;
	size_t h = (pid * 2654435761u) & (b->ncomm_cap - 1);
	while (b->comms[h].used) {
		if (b->comms[h].pid == pid)
			return b->comms[h].name;
		h = (h + 1) & (b->ncomm_cap - 1);
	}
	return NULL;
}

/* ---- reading ------------------------------------------------------------ */
/* Make at least `need` bytes available at s->pos; returns bytes available. */
static size_t src_fill(struct bt *b, struct src *s, size_t need)
{
	if (s->len - s->pos >= need || s->eof)
		return s->len - s->pos;
	if (s->pos) {
		memmove(s->buf, s->buf + s->pos, s->len - s->pos);
		s->off += s->pos;
		s->len -= s->pos;
		s->pos = 0;
	}
	while (s->len < need && !s->eof) {
		ssize_t n = read(s->fd, s->buf + s->len, BT_BUF - s->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				s->eof = -errno;
			else
				s->eof = 1;
			break;
		}
		s->len += (size_t)n;
		__atomic_fetch_add(&b->st->bytes_in, (uint64_t)n, __ATOMIC_RELAXED);
	}
	return s->len - s->pos;
}

static int bad(struct bt *b, struct src *s, int rc)
{
	if (b->o && b->o->skip_bad) {
		b->st->bad++;
		return 0;
	}
	(void)s;
	return rc;
}

/* After a bad record with --skip-bad: move to the next plausible record
 * (same version and byte order). */
static void resync(struct bt *b, struct src *s)
{
	s->pos++;
	for (;;) {
		size_t avail = src_fill(b, s, 4);
		if (avail < 4) {
			s->pos = s->len;
			return;
		}
		int swap = 0;
		if (magic_version(s->buf + s->pos, &swap) == s->version && swap == s->swap)
			return;
		s->pos++;
	}
}

static void decode_op(uint64_t cat, uint32_t bytes, uint8_t *op, uint8_t *flags)
{
	char rwbs[8];
	size_t n = 0;
	if (cat & TC_FLUSH)
		rwbs[n++] = 'F';
	if (cat & TC_DISCARD)
		rwbs[n++] = 'D';
	else if (cat & TC_WRITE_ZEROES) {
		rwbs[n++] = 'W';
		rwbs[n++] = 'Z';
	} else if (cat & TC_WRITE)
		rwbs[n++] = 'W';
	else if (bytes)
		rwbs[n++] = 'R';
	else
		rwbs[n++] = 'N';
	if (cat & TC_FUA)
		rwbs[n++] = 'F';
	if (cat & TC_AHEAD)
		rwbs[n++] = 'A';
	if (cat & TC_SYNC)
		rwbs[n++] = 'S';
	if (cat & TC_META)
		rwbs[n++] = 'M';
	if (reel_rwbs_parse(rwbs, n, bytes, op, flags)) {
		*op = REEL_OP_READ;
		*flags = 0;
	}
}

enum { REC_OK, REC_AGAIN, REC_END }; /* what to do after a record, or < 0 */

/* Check the magic at s->pos: REC_OK (s->version, s->swap set), REC_AGAIN
 * after skipping a bad record, REC_END, or an error. */
static int src_sync(struct bt *b, struct src *s, size_t avail)
{
	uint64_t at = s->off + s->pos;
	int swap = 0;
	int v = avail >= 4 ? magic_version(s->buf + s->pos, &swap) : 0;
	if (v && (!s->version || (v == s->version && swap == s->swap))) {
		s->version = v;
		s->swap = swap;
		return REC_OK;
	}
	int rc = bad(
	    b, s,
	    reel_errf(b->errmsg, b->errlen, REEL_E_PARSE,
		      "%s: byte %llu: %s (magic %02x%02x%02x%02x); the file is "
		      "corrupt or not blktrace output; --skip-bad skips to the "
		      "next record",
		      s->path, (unsigned long long)at,
		      v ? "record version or byte order changes mid-file" : "not a blktrace record",
		      avail > 0 ? s->buf[s->pos] : 0, avail > 1 ? s->buf[s->pos + 1] : 0,
		      avail > 2 ? s->buf[s->pos + 2] : 0, avail > 3 ? s->buf[s->pos + 3] : 0));
	if (rc)
		return rc;
	if (!s->version) /* never synchronised: nothing to resync to */
		return REC_END;
	resync(b, s);
	return REC_AGAIN;
}

/* The fixed part of a version 7 or 8 record. */
static void decode_header(const unsigned char *p, int v, int swap, struct bev *e, uint64_t *action,
			  uint16_t *pdu_len)
{
	memset(e, 0, sizeof(*e));
	e->t = (int64_t)rd64(p + 8, swap);
	e->sector = rd64(p + 16, swap);
	e->bytes = rd32(p + 24, swap);
	if (v == 7) {
		*action = rd32(p + 28, swap);
		e->pid = rd32(p + 32, swap);
		e->devt = rd32(p + 36, swap);
		e->cpu = (uint16_t)rd32(p + 40, swap);
		e->error = rd16(p + 44, swap);
		*pdu_len = rd16(p + 46, swap);
	} else {
		e->pid = rd32(p + 28, swap);
		*action = rd64(p + 32, swap);
		e->devt = rd32(p + 40, swap);
		e->cpu = (uint16_t)rd32(p + 44, swap);
		e->error = rd16(p + 48, swap);
		*pdu_len = rd16(p + 50, swap);
	}
}

/* A record that the file ends inside: REC_END with --skip-bad, else the error. */
static int src_cut(struct bt *b, struct src *s, int rc)
{
	rc = bad(b, s, rc);
	if (rc)
		return rc;
	s->pos = s->len;
	return REC_END;
}

/*
 * Read the record at s->pos: its fixed fields into *e, its action, and its
 * payload (*pdu, *pdu_len: past a cgroup id; valid until the next read).
 */
static int read_record(struct bt *b, struct src *s, struct bev *e, uint64_t *action,
		       const unsigned char **pdu, uint16_t *pdu_len)
{
	size_t avail = src_fill(b, s, BT_V8_SIZE);
	if (s->eof < 0)
		return reel_errf(b->errmsg, b->errlen, REEL_E_IO, "%s: read error at byte %llu: %s",
				 s->path, (unsigned long long)(s->off + s->pos), strerror(-s->eof));
	if (!avail)
		return REC_END;
	uint64_t at = s->off + s->pos;
	int rc = src_sync(b, s, avail);
	if (rc != REC_OK)
		return rc;
	size_t hsz = s->version == 8 ? BT_V8_SIZE : BT_V7_SIZE;
	if (avail < hsz)
		return src_cut(
		    b, s,
		    reel_errf(b->errmsg, b->errlen, REEL_E_TRUNCATED,
			      "%s: byte %llu: record cut short (%zu of %zu bytes): the "
			      "trace was interrupted; --skip-bad imports what precedes it",
			      s->path, (unsigned long long)at, avail, hsz));
	decode_header(s->buf + s->pos, s->version, s->swap, e, action, pdu_len);
	if (src_fill(b, s, hsz + *pdu_len) < hsz + *pdu_len)
		return src_cut(
		    b, s,
		    reel_errf(b->errmsg, b->errlen, REEL_E_TRUNCATED,
			      "%s: byte %llu: payload cut short (%u bytes announced): the "
			      "trace was interrupted; --skip-bad imports what precedes it",
			      s->path, (unsigned long long)at, *pdu_len));
	*pdu = s->buf + s->pos + hsz; /* src_fill may have moved the data */
	s->pos += hsz + *pdu_len;
	b->st->lines++;
	if ((*action & TA_CGROUP) && *pdu_len >= 8) {
		*pdu += 8;
		*pdu_len -= 8;
	}
	return REC_OK;
}

/* Notify records: process names, the wall clock, messages (into metadata). */
static int notify(struct bt *b, const struct bev *e, unsigned code, const unsigned char *pdu,
		  uint16_t pdu_len, int swap)
{
	if (code == TN_PROCESS) {
		if (comm_set(b, e->pid, pdu, pdu_len))
			return reel_errf(b->errmsg, b->errlen, REEL_E_NOMEM, "out of memory");
	} else if (code == TN_TIMESTAMP && pdu_len >= 8 && !b->have_wall) {
		b->wall_ns = (int64_t)rd32(pdu, swap) * 1000000000ll + rd32(pdu + 4, swap);
		b->wall_t = e->t;
		b->have_wall = 1;
		maybe_set_start(b);
	} else if (code == TN_MESSAGE) {
		if (b->messages < BT_MAX_MESSAGES) {
			char key[48], msg[256];
			size_t n = pdu_len < sizeof(msg) - 1 ? pdu_len : sizeof(msg) - 1;
			for (size_t i = 0; i < n; i++)
				msg[i] = (char)(pdu[i] < 32 || pdu[i] == 127 ? ' ' : pdu[i]);
			msg[n] = 0;
			while (n && (msg[n - 1] == ' ' || msg[n - 1] == 0))
				msg[--n] = 0;
			snprintf(key, sizeof(key), "blktrace.message.%llu",
				 (unsigned long long)b->messages);
			reel_writer_meta_str(b->w, key, msg);
		}
		b->messages++;
	}
	return 0;
}

/* The joiner's action letter for a trace action (and its payload): 0 for
 * actions that carry nothing to record. */
static char event_action(struct bev *e, unsigned code, const unsigned char *pdu, uint16_t pdu_len)
{
	switch (code) {
	case TA_QUEUE:
		return 'Q';
	case TA_BACKMERGE:
		return 'M';
	case TA_FRONTMERGE:
		return 'F';
	case TA_GETRQ:
		return 'G';
	case TA_REQUEUE:
		return 'R';
	case TA_ISSUE:
		return 'D';
	case TA_COMPLETE:
		return 'C';
	case TA_INSERT:
		return 'I';
	case TA_SPLIT:
		if (pdu_len < 8)
			return 0;
		e->aux = be64(pdu);
		return 'X';
	case TA_REMAP:
		if (pdu_len < 16)
			return 0;
		e->from_devt = be32(pdu);
		e->devt = be32(pdu + 4);
		e->aux = be64(pdu + 8);
		return 'A';
	default: /* plug, unplug, sleep, bounce, abort, driver data, zone plugs */
		return 0;
	}
}

/* An event of s is ready: note its CPU and device name, and queue it. */
static int queue_event(struct bt *b, struct src *s, struct bev *e)
{
	if (!s->have_cpu0) {
		s->cpu0 = e->cpu;
		s->have_cpu0 = 1;
	} else if (e->cpu != s->cpu0) {
		b->multi_cpu = 1; /* a piped stream: CPUs interleave */
	}
	if (!s->named && e->act != 'A' && s->base) {
		int rc = reel_join_name_device(b->j, e->devt, s->base);
		if (rc)
			return reel_errf(b->errmsg, b->errlen, rc, "out of memory");
		s->named = 1;
	}
	e->seq = b->seq++;
	e->src = (uint16_t)(s - b->srcs);
	s->last_t = e->t;
	int rc = bev_heap_push(&b->heap, *e);
	if (rc)
		return reel_errf(b->errmsg, b->errlen, rc, "out of memory");
	return 0;
}

/*
 * Read the next event of s into the heap.  Notify records (process names,
 * timestamps, messages) are handled here.  Returns 0 (s->active cleared at
 * the end) or an error.
 */
static int src_next(struct bt *b, struct src *s)
{
	for (;;) {
		struct bev e;
		uint64_t action = 0;
		const unsigned char *pdu = NULL;
		uint16_t pdu_len = 0;
		int rc = read_record(b, s, &e, &action, &pdu, &pdu_len);
		if (rc == REC_AGAIN)
			continue;
		if (rc == REC_END)
			s->active = 0;
		if (rc)
			return rc == REC_END ? 0 : rc;
		uint64_t cat = action >> 16;
		unsigned code = (unsigned)(action & 0xff);
		if (cat & TC_NOTIFY) {
			rc = notify(b, &e, code, pdu, pdu_len, s->swap);
			if (rc)
				return rc;
			continue;
		}
		if (cat & TC_PC) /* SCSI passthrough: no sectors */
			continue;
		e.act = (uint8_t)event_action(&e, code, pdu, pdu_len);
		if (!e.act)
			continue;
		decode_op(cat, e.bytes, &e.op, &e.flags);
		return queue_event(b, s, &e);
	}
}

static int process(struct bt *b, const struct bev *be)
{
	if (!b->have_genesis) {
		b->genesis = be->t;
		b->have_genesis = 1;
		maybe_set_start(b);
	}
	struct reel_event e;
	memset(&e, 0, sizeof(e));
	e.action = be->act;
	e.t_ns = (int64_t)((uint64_t)be->t - (uint64_t)b->genesis);
	e.devt = be->devt;
	e.sector = be->sector;
	e.bytes = be->bytes;
	e.op = be->op;
	e.flags = be->flags;
	e.pid = be->pid;
	e.comm = be->act == 'Q' ? comm_get(b, be->pid) : NULL;
	e.cpu = be->cpu;
	e.error = be->error;
	if (be->act == 'A') {
		e.from_devt = be->from_devt;
		e.from_sector = be->aux;
	} else if (be->act == 'X') {
		e.split_sector = be->aux;
	}
	int rc = reel_join_push(b->j, &e);
	if (rc)
		return reel_errf(b->errmsg, b->errlen, rc, "writing the records: %s",
				 reel_writer_errmsg(b->w));
	return 0;
}

/* ---- inputs -------------------------------------------------------------- */
static int add_src(struct bt *b, const char *path, char *owned, const char *base)
{
	if (b->nsrcs >= BT_MAX_FILES) {
		free(owned);
		return reel_errf(b->errmsg, b->errlen, REEL_E_RANGE, "%s: more than %d input files",
				 path, BT_MAX_FILES);
	}
	if (REEL_VEC_RESERVE(b->srcs, b->nsrcs, b->srcs_cap, 16)) {
		free(owned);
		return reel_errf(b->errmsg, b->errlen, REEL_E_NOMEM, "out of memory");
	}
	struct src *s = &b->srcs[b->nsrcs++];
	memset(s, 0, sizeof(*s));
	s->path = owned ? owned : path;
	s->owned_path = owned;
	s->base = base;
	s->fd = -1;
	/* a piped stream may hold every CPU from its first chunk on (the
	 * issues and completions of I/Os another CPU queued, whose chunk comes
	 * later): sort it within the window from the start, not from the
	 * second CPU seen */
	if (!base)
		b->multi_cpu = 1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* NAME.blktrace.N files of a base name, sorted; returns how many added. */
static int expand_base(struct bt *b, const char *base, const char *name)
{
	char dir[4096];
	const char *slash = strrchr(base, '/');
	const char *stem = slash ? slash + 1 : base;
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - base), base);
	else
		snprintf(dir, sizeof(dir), ".");
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/");
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	char **list = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	size_t sl = strlen(stem);
	while ((de = readdir(d))) {
		const char *f = de->d_name;
		if (strncmp(f, stem, sl) || strncmp(f + sl, ".blktrace.", 10))
			continue;
		const char *num = f + sl + 10;
		if (!*num || strspn(num, "0123456789") != strlen(num))
			continue;
		if (REEL_VEC_RESERVE(list, n, cap, 64))
			break;
		if (asprintf(&list[n], "%s/%s", dir, f) < 0)
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(list, n, sizeof(*list), cmp_str);
	int added = 0;
	for (size_t i = 0; i < n; i++) {
		if (!add_src(b, list[i], list[i], name))
			added++;
		else {
			for (size_t k = i + 1; k < n; k++)
				free(list[k]);
			break;
		}
	}
	free(list);
	return added;
}

/* "dir/sda.blktrace.3" -> "sda": the name of the traced device; NULL for a
 * file named otherwise (a piped stream), whose device keeps "MAJ,MIN". */
static char *base_of(const char *path, int is_base)
{
	const char *slash = strrchr(path, '/');
	const char *f = slash ? slash + 1 : path;
	const char *dot = strstr(f, ".blktrace.");
	if (!is_base && !dot)
		return NULL;
	size_t len = dot && !is_base ? (size_t)(dot - f) : strlen(f);
	return strndup(f, len);
}

static int bt_run(const char *const *paths, size_t npaths, const struct reel_import_opts *o,
		  struct reel_writer *w, struct reel_import_stats *st, char *errmsg, size_t errlen)
{
	struct bt b;
	memset(&b, 0, sizeof(b));
	b.o = o;
	b.st = st;
	b.w = w;
	b.errmsg = errmsg;
	b.errlen = errlen;
	if (errlen)
		errmsg[0] = 0;
	char **bases = calloc(npaths ? npaths : 1, sizeof(*bases));
	int rc = bases ? 0 : reel_errf(b.errmsg, b.errlen, REEL_E_NOMEM, "out of memory");
	if (!rc)
		rc = reel_join_create(&b.j, w, NULL, 0);
	for (size_t i = 0; i < npaths && !rc; i++) {
		struct stat sb;
		int is_file = !strcmp(paths[i], "-") || !stat(paths[i], &sb);
		bases[i] = base_of(paths[i], !is_file);
		if (!is_file && !bases[i]) {
			rc = reel_errf(b.errmsg, b.errlen, REEL_E_NOMEM, "out of memory");
			break;
		}
		if (is_file) {
			rc = add_src(&b, paths[i], NULL, bases[i]);
		} else if (!expand_base(&b, paths[i], bases[i])) {
			rc =
			    reel_errf(b.errmsg, b.errlen, REEL_E_IO,
				      "%s: no such file, nor files %s.blktrace.N (give the per-CPU "
				      "files, their base name, or a piped stream)",
				      paths[i], paths[i]);
		}
	}
	if (!rc && !b.nsrcs)
		rc = reel_errf(b.errmsg, b.errlen, REEL_E_ARG, "no input files");
	for (size_t i = 0; i < b.nsrcs && !rc; i++) {
		struct src *s = &b.srcs[i];
		s->fd = !strcmp(s->path, "-") ? 0 : open(s->path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0) {
			rc = reel_errf(b.errmsg, b.errlen, REEL_E_IO, "%s: %s", s->path,
				       strerror(errno));
			break;
		}
		s->buf = malloc(BT_BUF);
		if (!s->buf) {
			rc = reel_errf(b.errmsg, b.errlen, REEL_E_NOMEM, "out of memory");
			break;
		}
		s->active = 1;
		s->last_t = INT64_MIN;
	}
	/* the merge: read from the source that is furthest behind; an event is
	 * final once every active source has read past it (less a window for
	 * piped streams, whose CPUs arrive in interleaved chunks) */
	while (!rc) {
		struct src *lag = NULL;
		for (size_t i = 0; i < b.nsrcs; i++)
			if (b.srcs[i].active && (!lag || b.srcs[i].last_t < lag->last_t))
				lag = &b.srcs[i];
		int64_t win = b.multi_cpu ? BT_STREAM_WINDOW_NS : 0, upto = INT64_MIN;
		if (lag && lag->last_t != INT64_MIN &&
		    __builtin_sub_overflow(lag->last_t, win, &upto))
			upto = INT64_MIN;
		while (b.heap.n && !rc &&
		       (!lag || (upto != INT64_MIN && b.heap.v[0].t <= upto) ||
			b.heap.n > BT_HEAP_CAP)) {
			struct bev e = bev_heap_pop(&b.heap);
			rc = process(&b, &e);
		}
		if (!lag || rc)
			break;
		rc = src_next(&b, lag);
	}
	if (!rc) {
		rc = reel_join_finish(b.j);
		if (rc)
			reel_errf(b.errmsg, b.errlen, rc, "writing the records: %s",
				  reel_writer_errmsg(w));
	}
	if (b.j) {
		reel_join_stats(b.j, &st->join);
		st->records = st->join.records;
	}
	if (!rc) {
		reel_join_write_meta(w, &st->join, 0);
		reel_writer_meta_int(w, REEL_META_BLKTRACE_VERSION,
				     b.nsrcs ? b.srcs[0].version : 0);
		reel_writer_meta_int(w, REEL_META_BLKTRACE_MESSAGES, (int64_t)b.messages);
		if (b.have_wall && b.have_genesis) /* wall clock of time zero */
			reel_writer_meta_int(w, REEL_META_BLKTRACE_START_UNIX_NS,
					     start_unix_ns(&b));
	}
	reel_join_destroy(b.j);
	for (size_t i = 0; i < b.nsrcs; i++) {
		if (b.srcs[i].fd >= 0 && strcmp(b.srcs[i].path, "-"))
			close(b.srcs[i].fd);
		free(b.srcs[i].buf);
		free(b.srcs[i].owned_path);
	}
	free(b.srcs);
	for (size_t i = 0; bases && i < npaths; i++)
		free(bases[i]);
	free(bases);
	bev_heap_free(&b.heap);
	free(b.comms);
	return rc;
}

/* Two records in a row with the blktrace magic (either byte order). */
static int bt_detect(const unsigned char *buf, size_t len, const char *path)
{
	int swap, score = 0;
	if (len < BT_V7_SIZE)
		return 0;
	int v = magic_version(buf, &swap);
	if (!v)
		return 0;
	size_t hsz = v == 8 ? BT_V8_SIZE : BT_V7_SIZE;
	if (len < hsz)
		return 40;
	uint16_t pdu = rd16(buf + (v == 8 ? 50 : 46), swap);
	score = 80;
	if (len >= hsz + pdu + 4) {
		int swap2;
		if (magic_version(buf + hsz + pdu, &swap2) == v && swap2 == swap)
			score = 100;
		else
			score = 50;
	}
	if (path && strstr(path, ".blktrace.") && score < 100)
		score += 10;
	return score;
}

const struct reel_importer reel_imp_blktrace = {
    .name = "blktrace",
    .describe = "blktrace binary: per-CPU NAME.blktrace.N files (or NAME), or a piped stream; "
		"record versions 7 and 8, either byte order",
    .detect = bt_detect,
    .run = bt_run,
};
