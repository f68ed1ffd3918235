/*
 * formats/reel.c - the .reel writer and reader.  formats/FORMAT.md is the
 * normative description of what is written here; keep the two in step.
 *
 * A file is: a header LZ4 frame (msgpack map), data chunk LZ4 frames (one
 * msgpack map each, columns as zigzag LEB128 varints in msgpack bin), and a
 * trailer in an LZ4 skippable frame whose payload ends with its own length
 * and the tag "RLIX", so a reader finds it from the end of the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lz4frame.h>
#include <msgpack.h>

#include "formats/reel.h"

#define LZ4F_MAGIC 0x184D2204u
#define SKIP_MAGIC 0x184D2A5Eu
#define TRAILER_TAG "RLIX"
#define MAX_FRAME (64u << 20) /* no chunk or header frame is larger */
#define NAME_MAX_LEN 256

/* ---- errors ------------------------------------------------------------ */
static const char *const err_msgs[] = {
#define REEL_X_MSG(name, msg) msg,
	REEL_LIST_ERRORS(REEL_X_MSG)
#undef REEL_X_MSG
};

const char *reel_strerror(int err)
{
	if (err == 0)
		return "success";
	if (err > REEL_E__BASE && err < REEL_E__END)
		return err_msgs[err - REEL_E__BASE - 1];
	if (err < 0 && err > -4096)
		return strerror(-err);
	return "unknown error";
}

/* ---- small helpers ----------------------------------------------------- */
static const char *const op_names[REEL_OP__COUNT] = {"read", "write", "discard", "flush",
						     "write-zeroes"};

const char *reel_op_name(int op)
{
	return op >= 0 && op < REEL_OP__COUNT ? op_names[op] : "?";
}

int reel_op_parse(const char *name)
{
	for (int i = 0; i < REEL_OP__COUNT; i++)
		if (!strcmp(name, op_names[i]))
			return i;
	return -1;
}

static const char *const flag_names[] = {"sync", "fua", "meta", "preflush", "readahead"};

int reel_flags_format(unsigned flags, char *buf, size_t len)
{
	size_t n = 0;
	if (len)
		buf[0] = 0;
	for (unsigned i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
		if (!(flags & (1u << i)))
			continue;
		int k = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%s",
				 n ? "," : "", flag_names[i]);
		n += (size_t)k;
	}
	return (int)n;
}

int64_t reel_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void reel_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int reel_parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s || errno || *s == '-')
		return REEL_E_ARG;
	uint64_t mul = 1;
	switch (*end) {
	case 0:
		break;
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	case 't': case 'T': mul = 1ull << 40; end++; break;
	default:
		return REEL_E_ARG;
	}
	if (*end == 'i' && mul > 1)
		end++;
	if ((*end == 'B' || *end == 'b') && end[1] == 0)
		end++;
	if (*end)
		return REEL_E_ARG;
	if (v > UINT64_MAX / mul)
		return REEL_E_RANGE;
	*out = v * mul;
	return 0;
}

static inline uint64_t zz(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzz(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- metadata lists (shared by writer and reader) ---------------------- */
struct meta_list {
	struct reel_meta *v;
	size_t n, cap;
};

static void meta_free(struct meta_list *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free((char *)m->v[i].key);
		free((char *)m->v[i].s);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static struct reel_meta *meta_find(const struct meta_list *m, const char *key)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].key, key))
			return &m->v[i];
	return NULL;
}

/* Set key (copied); s is copied when type is STR. */
static int meta_set(struct meta_list *m, const char *key, enum reel_meta_type t, const char *s,
		    size_t slen, int64_t i, double d)
{
	struct reel_meta *e = meta_find(m, key);
	if (!e) {
		if (m->n == m->cap) {
			size_t nc = m->cap ? m->cap * 2 : 16;
			void *nv = realloc(m->v, nc * sizeof(*m->v));
			if (!nv)
				return REEL_E_NOMEM;
			m->v = nv;
			m->cap = nc;
		}
		e = &m->v[m->n];
		memset(e, 0, sizeof(*e));
		e->key = strdup(key);
		if (!e->key)
			return REEL_E_NOMEM;
		m->n++;
	}
	free((char *)e->s);
	e->s = NULL;
	e->type = t;
	e->i = i;
	e->d = d;
	if (t == REEL_META_STR) {
		char *c = malloc(slen + 1);
		if (!c)
			return REEL_E_NOMEM;
		memcpy(c, s, slen);
		c[slen] = 0;
		e->s = c;
	}
	return 0;
}

/* ---- column layout ----------------------------------------------------- */
enum col_id {
	C_HAS, C_QUEUE, C_ISSUE, C_COMPLETE, C_OFFSET, C_LENGTH, C_OP, C_FLAGS,
	C_DEV, C_PID, C_COMM, C_CPU, C_ERROR, C__COUNT
};
static const char *const col_names[C__COUNT] = {
	"has", "queue", "issue", "complete", "offset", "length", "op", "flags",
	"dev", "pid", "comm", "cpu", "error"};

/*
 * The per-record value stored in each column (before scaling and zigzag).
 * prev is the previous record of the same chunk; prevq the queue time of
 * the last record of the chunk that had one.  Absent times store 0.
 */
static inline int64_t col_value(int c, const struct reel_rec *r, const struct reel_rec *prev,
				int64_t prevq)
{
	switch (c) {
	case C_HAS: return r->has;
	case C_QUEUE:
		return r->has & REEL_HAS_QUEUE ? (int64_t)((uint64_t)r->queue_ns - (uint64_t)prevq) : 0;
	case C_ISSUE:
		return r->has & REEL_HAS_ISSUE
			       ? (int64_t)((uint64_t)r->issue_ns -
					   (uint64_t)(r->has & REEL_HAS_QUEUE ? r->queue_ns : 0))
			       : 0;
	case C_COMPLETE:
		return r->has & REEL_HAS_COMPLETE
			       ? (int64_t)((uint64_t)r->complete_ns -
					   (uint64_t)(r->has & REEL_HAS_ISSUE   ? r->issue_ns
						      : r->has & REEL_HAS_QUEUE ? r->queue_ns
										: 0))
			       : 0;
	case C_OFFSET: return (int64_t)(r->offset - (prev->offset + prev->length));
	case C_LENGTH: return r->length;
	case C_OP: return r->op;
	case C_FLAGS: return r->flags;
	case C_DEV: return r->dev;
	case C_PID: return r->pid;
	case C_COMM: return r->comm;
	case C_CPU: return r->cpu;
	case C_ERROR: return r->error;
	}
	return 0;
}

/* ---- the writer -------------------------------------------------------- */
struct name_ent {
	char *name;
	uint32_t id;
	uint64_t chunk_written; /* chunk number + 1 where last listed */
};

struct reel_writer {
	int fd, own_fd;
	char *path;
	uint64_t file_off;
	int header_done;
	int level;
	struct reel_rec *recs;
	size_t nrec;
	/* header */
	int64_t start_unix_ns;
	char *source, *source_detail;
	struct reel_device *devs;
	size_t ndevs, devs_written;
	struct meta_list meta;
	size_t meta_written; /* meta entries [0, meta_written) already in a frame */
	uint64_t meta_gen;   /* bumps when an entry already written changes */
	uint64_t meta_gen_written;
	size_t hdr_meta_n;   /* entries in the header frame ... */
	uint64_t hdr_meta_gen; /* ... and the generation then */
	/* names: open hash table + id order */
	struct name_ent *names; /* by id */
	size_t nnames, names_cap;
	uint32_t *htab; /* id + 1, 0 empty */
	size_t hcap;
	/* index and summary */
	struct {
		uint64_t off;
		uint32_t n;
		int64_t first, last;
	} *index;
	size_t nindex, index_cap;
	struct reel_summary sum;
	/* scratch */
	unsigned char *vbuf; /* varints of one column */
	int64_t *cvals;      /* values of one column */
	char errmsg[512];
	int failed;
};

static int werr(struct reel_writer *w, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(w->errmsg, sizeof(w->errmsg), "%s: ", w->path ? w->path : "(fd)");
	vsnprintf(w->errmsg + n, sizeof(w->errmsg) - (size_t)n, fmt, ap);
	va_end(ap);
	w->failed = err;
	return err;
}

const char *reel_writer_errmsg(const struct reel_writer *w)
{
	return w && w->errmsg[0] ? w->errmsg : "no error";
}

static int write_all(struct reel_writer *w, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t k = write(w->fd, p, len);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return werr(w, REEL_E_IO, "write failed at byte %llu: %s",
				    (unsigned long long)w->file_off, strerror(errno));
		}
		p += k;
		len -= (size_t)k;
		w->file_off += (uint64_t)k;
	}
	return 0;
}

/* Compress sbuf as one LZ4 frame and write it. */
static int write_frame(struct reel_writer *w, const msgpack_sbuffer *sb)
{
	LZ4F_preferences_t pr;
	memset(&pr, 0, sizeof(pr));
	pr.frameInfo.blockSizeID = LZ4F_max4MB;
	pr.frameInfo.blockMode = LZ4F_blockIndependent;
	pr.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
	pr.frameInfo.contentSize = sb->size;
	pr.compressionLevel = w->level;
	size_t bound = LZ4F_compressFrameBound(sb->size, &pr);
	void *out = malloc(bound);
	if (!out)
		return werr(w, REEL_E_NOMEM, "out of memory compressing a chunk");
	size_t n = LZ4F_compressFrame(out, bound, sb->data, sb->size, &pr);
	if (LZ4F_isError(n)) {
		free(out);
		return werr(w, REEL_E_IO, "lz4: %s", LZ4F_getErrorName(n));
	}
	int rc = write_all(w, out, n);
	free(out);
	return rc;
}

static void pack_str(msgpack_packer *pk, const char *s)
{
	size_t n = strlen(s);
	msgpack_pack_str(pk, n);
	msgpack_pack_str_body(pk, s, n);
}

static void pack_device(msgpack_packer *pk, const struct reel_device *d)
{
	msgpack_pack_map(pk, 7);
	pack_str(pk, "id");
	msgpack_pack_uint16(pk, d->id);
	pack_str(pk, "name");
	pack_str(pk, d->name);
	pack_str(pk, "major");
	msgpack_pack_uint32(pk, d->major);
	pack_str(pk, "minor");
	msgpack_pack_uint32(pk, d->minor);
	pack_str(pk, "lbs");
	msgpack_pack_uint32(pk, d->lbs);
	pack_str(pk, "pbs");
	msgpack_pack_uint32(pk, d->pbs);
	pack_str(pk, "capacity");
	msgpack_pack_uint64(pk, d->capacity);
}

static void pack_meta(msgpack_packer *pk, const struct meta_list *m, size_t from)
{
	msgpack_pack_map(pk, m->n - from);
	for (size_t i = from; i < m->n; i++) {
		pack_str(pk, m->v[i].key);
		switch (m->v[i].type) {
		case REEL_META_STR: pack_str(pk, m->v[i].s); break;
		case REEL_META_INT: msgpack_pack_int64(pk, m->v[i].i); break;
		case REEL_META_DBL: msgpack_pack_double(pk, m->v[i].d); break;
		}
	}
}

static int write_header(struct reel_writer *w)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 8);
	pack_str(&pk, "format");
	pack_str(&pk, "ioreel");
	pack_str(&pk, "version");
	msgpack_pack_uint32(&pk, REEL_FORMAT_VERSION);
	pack_str(&pk, "time_unit");
	pack_str(&pk, "ns");
	pack_str(&pk, "start_unix_ns");
	msgpack_pack_int64(&pk, w->start_unix_ns);
	pack_str(&pk, "source");
	pack_str(&pk, w->source ? w->source : "");
	pack_str(&pk, "source_detail");
	pack_str(&pk, w->source_detail ? w->source_detail : "");
	pack_str(&pk, "devices");
	msgpack_pack_array(&pk, w->ndevs);
	for (size_t i = 0; i < w->ndevs; i++)
		pack_device(&pk, &w->devs[i]);
	pack_str(&pk, "meta");
	pack_meta(&pk, &w->meta, 0);
	int rc = write_frame(w, &sb);
	msgpack_sbuffer_destroy(&sb);
	if (!rc) {
		w->header_done = 1;
		w->hdr_meta_n = w->meta.n;
		w->hdr_meta_gen = w->meta_gen;
		w->devs_written = w->ndevs;
		w->meta_written = w->meta.n;
		w->meta_gen_written = w->meta_gen;
	}
	return rc;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

int64_t reel_writer_intern(struct reel_writer *w, const char *name)
{
	if (!name)
		name = "";
	size_t len = strnlen(name, NAME_MAX_LEN);
	char tmp[NAME_MAX_LEN + 1];
	memcpy(tmp, name, len);
	tmp[len] = 0;
	if (w->nnames * 2 >= w->hcap) {
		size_t nc = w->hcap ? w->hcap * 2 : 256;
		uint32_t *nt = calloc(nc, sizeof(*nt));
		if (!nt)
			return REEL_E_NOMEM;
		for (size_t i = 0; i < w->nnames; i++) {
			size_t h = hash_str(w->names[i].name) & (nc - 1);
			while (nt[h])
				h = (h + 1) & (nc - 1);
			nt[h] = (uint32_t)i + 1;
		}
		free(w->htab);
		w->htab = nt;
		w->hcap = nc;
	}
	size_t h = hash_str(tmp) & (w->hcap - 1);
	while (w->htab[h]) {
		struct name_ent *e = &w->names[w->htab[h] - 1];
		if (!strcmp(e->name, tmp))
			return e->id;
		h = (h + 1) & (w->hcap - 1);
	}
	if (w->nnames == w->names_cap) {
		size_t nc = w->names_cap ? w->names_cap * 2 : 64;
		void *nv = realloc(w->names, nc * sizeof(*w->names));
		if (!nv)
			return REEL_E_NOMEM;
		w->names = nv;
		w->names_cap = nc;
	}
	struct name_ent *e = &w->names[w->nnames];
	e->name = strdup(tmp);
	if (!e->name)
		return REEL_E_NOMEM;
	e->id = (uint32_t)w->nnames;
	e->chunk_written = 0;
	w->htab[h] = (uint32_t)w->nnames + 1;
	return (int64_t)w->nnames++;
}

static unsigned char *put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static inline size_t vlen(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Pack column c of the pending records, or nothing when all zero. */
static int pack_column(struct reel_writer *w, msgpack_packer *pk, int c, int *packed)
{
	const struct reel_rec zero = {0};
	const struct reel_rec *r = w->recs;
	size_t n = w->nrec;
	int64_t *v = w->cvals;
	int64_t mn = INT64_MAX, mx = INT64_MIN;
	uint64_t g = 0;
	int64_t prevq = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t x = col_value(c, &r[i], i ? &r[i - 1] : &zero, prevq);
		if (r[i].has & REEL_HAS_QUEUE)
			prevq = r[i].queue_ns;
		v[i] = x;
		if (x < mn)
			mn = x;
		if (x > mx)
			mx = x;
		uint64_t a = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
		if (g != 1)
			g = gcd64(g, a);
	}
	*packed = 0;
	if (mn == mx && mn == 0)
		return 0;
	pack_str(pk, col_names[c]);
	*packed = 1;
	if (mn == mx) { /* const: a bare integer */
		msgpack_pack_int64(pk, mn);
		return 0;
	}
	if (g == 0 || g > INT64_MAX)
		g = 1;
	/*
	 * "bitpack": u = zigzag(x / mul); per mini-block of 128 values a
	 * varint minimum and a width byte, then (u - min) in that many bits.
	 */
	unsigned char *p = w->vbuf;
	for (size_t b0 = 0; b0 < n; b0 += 128) {
		size_t m = n - b0 < 128 ? n - b0 : 128;
		uint64_t umin = UINT64_MAX, umax = 0;
		for (size_t i = 0; i < m; i++) {
			uint64_t u = zz(v[b0 + i] / (int64_t)g);
			v[b0 + i] = (int64_t)u;
			if (u < umin)
				umin = u;
			if (u > umax)
				umax = u;
		}
		unsigned width = umax == umin ? 0 : 64 - (unsigned)__builtin_clzll(umax - umin);
		p = put_varint(p, umin);
		*p++ = (unsigned char)width;
		uint64_t acc = 0;
		unsigned nbits = 0;
		for (size_t i = 0; i < m && width; i++) {
			uint64_t d = (uint64_t)v[b0 + i] - umin;
			acc |= d << nbits;
			if (nbits + width >= 64) {
				memcpy(p, &acc, 8);
				p += 8;
				unsigned used = 64 - nbits;
				acc = used < 64 ? d >> used : 0;
				nbits = nbits + width - 64;
			} else {
				nbits += width;
			}
		}
		while (nbits > 0) {
			*p++ = (unsigned char)acc;
			acc >>= 8;
			nbits = nbits > 8 ? nbits - 8 : 0;
		}
	}
	/* heavy-tailed deltas (arrival gaps) can be smaller as varints */
	size_t bp_size = (size_t)(p - w->vbuf), vi_size = 0;
	for (size_t i = 0; i < n; i++)
		vi_size += vlen((uint64_t)v[i]);
	const char *enc = "bitpack";
	if (vi_size * 10 < bp_size * 9) {
		enc = "varint";
		p = w->vbuf;
		for (size_t i = 0; i < n; i++)
			p = put_varint(p, (uint64_t)v[i]);
	}
	/* bitpack with mul 1: a bare bin; otherwise [mul, bin] or [mul, bin, "varint"] */
	int varint = enc[0] == 'v';
	if (g != 1 || varint) {
		msgpack_pack_array(pk, 2 + (size_t)varint);
		msgpack_pack_uint64(pk, g);
	}
	msgpack_pack_bin(pk, (size_t)(p - w->vbuf));
	msgpack_pack_bin_body(pk, w->vbuf, (size_t)(p - w->vbuf));
	if (varint)
		pack_str(pk, "varint");
	return 0;
}

static int write_chunk(struct reel_writer *w)
{
	if (!w->header_done) {
		int rc = write_header(w);
		if (rc)
			return rc;
	}
	if (!w->nrec && w->devs_written == w->ndevs && w->meta_written == w->meta.n &&
	    w->meta_gen_written == w->meta_gen)
		return 0;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);

	/* names first listed in this chunk, or not listed since the previous one */
	uint64_t cno = w->sum.chunks + 1;
	size_t nnew = 0;
	for (size_t i = 0; i < w->nrec; i++) {
		if (!(w->recs[i].has & REEL_HAS_COMM) || w->recs[i].comm >= w->nnames)
			continue;
		struct name_ent *e = &w->names[w->recs[i].comm];
		if (e->chunk_written != cno) {
			e->chunk_written = cno;
			nnew++;
		}
	}
	int meta_changed = w->meta_written != w->meta.n || w->meta_gen_written != w->meta_gen;
	int ndev_new = (int)(w->ndevs - w->devs_written);
	msgpack_pack_map(&pk, 3 + (nnew > 0) + (ndev_new > 0) + meta_changed);
	pack_str(&pk, "n");
	msgpack_pack_uint32(&pk, (uint32_t)w->nrec);
	pack_str(&pk, "seq");
	msgpack_pack_uint64(&pk, w->sum.chunks);
	if (nnew) {
		pack_str(&pk, "comms");
		msgpack_pack_array(&pk, nnew * 2);
		for (size_t i = 0; i < w->nnames; i++) {
			if (w->names[i].chunk_written != cno)
				continue;
			msgpack_pack_uint32(&pk, w->names[i].id);
			pack_str(&pk, w->names[i].name);
		}
	}
	if (ndev_new) {
		pack_str(&pk, "devices");
		msgpack_pack_array(&pk, (size_t)ndev_new);
		for (size_t i = w->devs_written; i < w->ndevs; i++)
			pack_device(&pk, &w->devs[i]);
	}
	if (meta_changed) {
		pack_str(&pk, "meta");
		pack_meta(&pk, &w->meta, w->meta_gen_written != w->meta_gen ? 0 : w->meta_written);
	}
	/* columns: count the packed ones first, into a second buffer */
	msgpack_sbuffer cb;
	msgpack_packer cpk;
	msgpack_sbuffer_init(&cb);
	msgpack_packer_init(&cpk, &cb, msgpack_sbuffer_write);
	int ncols = 0;
	if (w->nrec) {
		for (int c = 0; c < C__COUNT; c++) {
			int packed;
			pack_column(w, &cpk, c, &packed);
			ncols += packed;
		}
	}
	pack_str(&pk, "cols");
	msgpack_pack_map(&pk, (size_t)ncols);
	msgpack_sbuffer_write(&sb, cb.data, cb.size);
	msgpack_sbuffer_destroy(&cb);

	uint64_t off = w->file_off;
	int rc = write_frame(w, &sb);
	msgpack_sbuffer_destroy(&sb);
	if (rc)
		return rc;
	if (w->nindex == w->index_cap) {
		size_t nc = w->index_cap ? w->index_cap * 2 : 64;
		void *nv = realloc(w->index, nc * sizeof(*w->index));
		if (!nv)
			return werr(w, REEL_E_NOMEM, "out of memory");
		w->index = nv;
		w->index_cap = nc;
	}
	w->index[w->nindex].off = off;
	w->index[w->nindex].n = (uint32_t)w->nrec;
	w->index[w->nindex].first = w->nrec ? w->recs[0].queue_ns : 0;
	w->index[w->nindex].last = w->nrec ? w->recs[w->nrec - 1].queue_ns : 0;
	w->nindex++;
	w->sum.chunks++;
	w->nrec = 0;
	w->devs_written = w->ndevs;
	w->meta_written = w->meta.n;
	w->meta_gen_written = w->meta_gen;
	return 0;
}

int reel_writer_open(struct reel_writer **out, const char *path, int fd,
		     const struct reel_header *h, unsigned flags)
{
	*out = NULL;
	struct reel_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return REEL_E_NOMEM;
	w->recs = malloc(REEL_CHUNK_MAX * sizeof(*w->recs));
	w->vbuf = malloc((size_t)REEL_CHUNK_MAX * 10 + 1024);
	w->cvals = malloc((size_t)REEL_CHUNK_MAX * sizeof(*w->cvals));
	w->path = path ? strdup(path) : NULL;
	w->level = 9;
	w->fd = -1;
	const char *lvl = getenv("IOREEL_LZ4_LEVEL");
	if (lvl)
		w->level = atoi(lvl);
	if (!w->recs || !w->vbuf || !w->cvals || (path && !w->path))
		goto nomem;
	if (h) {
		w->start_unix_ns = h->start_unix_ns;
		if (h->source && !(w->source = strdup(h->source)))
			goto nomem;
		if (h->source_detail && !(w->source_detail = strdup(h->source_detail)))
			goto nomem;
		for (size_t i = 0; i < h->ndevices; i++)
			if (reel_writer_add_device(w, &h->devices[i]))
				goto nomem;
	}
	w->sum.first_ns = INT64_MAX;
	w->sum.last_ns = INT64_MIN;
	if (path) {
		int of = O_WRONLY | O_CREAT | O_CLOEXEC | (flags & REEL_W_OVERWRITE ? O_TRUNC : O_EXCL);
		w->fd = open(path, of, 0644);
		if (w->fd < 0) {
			int e = errno;
			*out = w;
			if (e == EEXIST)
				return werr(w, REEL_E_EXISTS,
					    "exists; choose another name or pass --overwrite");
			return werr(w, REEL_E_IO, "cannot create: %s", strerror(e));
		}
		w->own_fd = 1;
	} else {
		w->fd = fd;
	}
	*out = w;
	return 0;
nomem:
	*out = w;
	return werr(w, REEL_E_NOMEM, "out of memory");
}

int reel_writer_set_start(struct reel_writer *w, int64_t start_unix_ns)
{
	if (w->header_done)
		return REEL_E_ARG;
	w->start_unix_ns = start_unix_ns;
	return 0;
}

void reel_writer_set_level(struct reel_writer *w, int level)
{
	w->level = level < 0 ? 0 : level > 12 ? 12 : level;
}

int reel_write(struct reel_writer *w, const struct reel_rec *r)
{
	if (w->failed)
		return w->failed;
	w->recs[w->nrec++] = *r;
	w->sum.count++;
	if (r->op < REEL_OP__COUNT) {
		w->sum.ops[r->op]++;
		w->sum.bytes[r->op] += r->length;
	}
	int64_t t = r->has & REEL_HAS_QUEUE ? r->queue_ns : r->issue_ns;
	if (t < w->sum.first_ns)
		w->sum.first_ns = t;
	if (t > w->sum.last_ns)
		w->sum.last_ns = t;
	if (w->nrec == REEL_CHUNK_MAX)
		return write_chunk(w);
	return 0;
}

int reel_writer_add_device(struct reel_writer *w, const struct reel_device *d)
{
	for (size_t i = 0; i < w->ndevs; i++)
		if (w->devs[i].id == d->id)
			return REEL_E_ARG;
	void *nv = realloc(w->devs, (w->ndevs + 1) * sizeof(*w->devs));
	if (!nv)
		return REEL_E_NOMEM;
	w->devs = nv;
	w->devs[w->ndevs] = *d;
	w->devs[w->ndevs].name[sizeof(d->name) - 1] = 0;
	w->ndevs++;
	return 0;
}

static int wmeta(struct reel_writer *w, const char *key, enum reel_meta_type t, const char *s,
		 int64_t i, double d)
{
	struct reel_meta *e = meta_find(&w->meta, key);
	if (e && (size_t)(e - w->meta.v) < w->meta_written)
		w->meta_gen++;
	return meta_set(&w->meta, key, t, s, s ? strlen(s) : 0, i, d);
}

int reel_writer_meta_str(struct reel_writer *w, const char *key, const char *v)
{
	return wmeta(w, key, REEL_META_STR, v ? v : "", 0, 0);
}

int reel_writer_meta_int(struct reel_writer *w, const char *key, int64_t v)
{
	return wmeta(w, key, REEL_META_INT, NULL, v, 0);
}

int reel_writer_meta_dbl(struct reel_writer *w, const char *key, double v)
{
	return wmeta(w, key, REEL_META_DBL, NULL, 0, v);
}

int reel_writer_flush(struct reel_writer *w)
{
	if (w->failed)
		return w->failed;
	return write_chunk(w);
}

static int write_trailer(struct reel_writer *w)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	/* room for the skippable frame header, filled in below */
	msgpack_sbuffer_write(&sb, "\0\0\0\0\0\0\0\0", 8);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3);
	pack_str(&pk, "summary");
	msgpack_pack_map(&pk, 6);
	pack_str(&pk, "count");
	msgpack_pack_uint64(&pk, w->sum.count);
	pack_str(&pk, "chunks");
	msgpack_pack_uint64(&pk, w->sum.chunks);
	pack_str(&pk, "first_ns");
	msgpack_pack_int64(&pk, w->sum.count ? w->sum.first_ns : 0);
	pack_str(&pk, "last_ns");
	msgpack_pack_int64(&pk, w->sum.count ? w->sum.last_ns : 0);
	pack_str(&pk, "ops");
	msgpack_pack_array(&pk, REEL_OP__COUNT);
	for (int i = 0; i < REEL_OP__COUNT; i++)
		msgpack_pack_uint64(&pk, w->sum.ops[i]);
	pack_str(&pk, "bytes");
	msgpack_pack_array(&pk, REEL_OP__COUNT);
	for (int i = 0; i < REEL_OP__COUNT; i++)
		msgpack_pack_uint64(&pk, w->sum.bytes[i]);
	pack_str(&pk, "index");
	msgpack_pack_array(&pk, w->nindex);
	for (size_t i = 0; i < w->nindex; i++) {
		msgpack_pack_array(&pk, 4);
		msgpack_pack_uint64(&pk, w->index[i].off);
		msgpack_pack_uint32(&pk, w->index[i].n);
		msgpack_pack_int64(&pk, w->index[i].first);
		msgpack_pack_int64(&pk, w->index[i].last);
	}
	/* the metadata not already in the header (all of it if any changed) */
	pack_str(&pk, "meta");
	pack_meta(&pk, &w->meta, w->meta_gen == w->hdr_meta_gen ? w->hdr_meta_n : 0);
	unsigned char tail[8];
	put_le32(tail, (uint32_t)(sb.size - 8));
	memcpy(tail + 4, TRAILER_TAG, 4);
	msgpack_sbuffer_write(&sb, (const char *)tail, 8);
	put_le32((unsigned char *)sb.data, SKIP_MAGIC);
	put_le32((unsigned char *)sb.data + 4, (uint32_t)(sb.size - 8));
	int rc = write_all(w, sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

void reel_writer_destroy(struct reel_writer *w)
{
	if (!w)
		return;
	if (w->own_fd && w->fd >= 0)
		close(w->fd);
	for (size_t i = 0; i < w->nnames; i++)
		free(w->names[i].name);
	free(w->names);
	free(w->htab);
	free(w->recs);
	free(w->vbuf);
	free(w->cvals);
	free(w->devs);
	free(w->index);
	free(w->source);
	free(w->source_detail);
	free(w->path);
	meta_free(&w->meta);
	free(w);
}

int reel_writer_close(struct reel_writer *w)
{
	if (!w)
		return 0;
	int rc = w->failed;
	if (!rc && w->fd >= 0)
		rc = write_chunk(w);
	if (!rc && w->fd >= 0)
		rc = write_trailer(w);
	if (!rc && w->own_fd && w->fd >= 0) {
		if (close(w->fd) < 0)
			rc = werr(w, REEL_E_IO, "close failed: %s", strerror(errno));
		w->fd = -1;
	}
	reel_writer_destroy(w);
	return rc;
}

/* ---- the reader -------------------------------------------------------- */
/* One column being decoded, a block of records at a time. */
enum { K_ZERO, K_CONST, K_BP, K_VARINT };
struct colstate {
	int kind;
	int64_t base, mul;
	const unsigned char *p, *end;
};


struct reel_reader {
	int fd;
	char *path;
	unsigned flags;
	/* input window: buf[0] is file offset buf_off */
	unsigned char *buf;
	size_t buf_len, buf_cap, pos; /* pos: index into buf of the next frame */
	uint64_t buf_off;
	int eof;
	/* decoded chunk */
	LZ4F_dctx *dctx;
	unsigned char *dec;
	size_t dec_cap;
	struct reel_rec *recs; /* the current block */
	size_t nrec, next;
	int64_t *tmp;
	msgpack_unpacked cur; /* the current chunk's map */
	struct colstate cs[C__COUNT];
	size_t chunk_n, chunk_left;
	uint64_t cq, cend;         /* running queue time and end offset */
	uint64_t cur_chunk, cur_at; /* for messages */
	/* header and tables */
	struct reel_header hdr;
	char *source, *source_detail;
	struct reel_device *devs;
	size_t ndevs;
	struct meta_list meta;
	char **comms;
	size_t ncomms;
	/* state */
	int header_read, done, complete, have_trailer;
	struct reel_summary trailer_sum, seen;
	uint64_t skipped;
	uint64_t chunk_no;
	char errmsg[512];
};

static int rerr(struct reel_reader *r, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(r->errmsg, sizeof(r->errmsg), "%s: ", r->path);
	vsnprintf(r->errmsg + n, sizeof(r->errmsg) - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

const char *reel_reader_errmsg(const struct reel_reader *r)
{
	return r && r->errmsg[0] ? r->errmsg : "no error";
}

/* Make at least want bytes available at buf[pos]; returns how many are. */
static size_t avail(struct reel_reader *r, size_t want)
{
	if (r->buf_len - r->pos >= want || r->eof)
		return r->buf_len - r->pos;
	if (r->pos) { /* slide the window */
		memmove(r->buf, r->buf + r->pos, r->buf_len - r->pos);
		r->buf_off += r->pos;
		r->buf_len -= r->pos;
		r->pos = 0;
	}
	if (want > r->buf_cap) {
		size_t nc = r->buf_cap;
		while (nc < want)
			nc *= 2;
		void *nb = realloc(r->buf, nc);
		if (!nb)
			return r->buf_len;
		r->buf = nb;
		r->buf_cap = nc;
	}
	while (r->buf_len < want && !r->eof) {
		ssize_t k = read(r->fd, r->buf + r->buf_len, r->buf_cap - r->buf_len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			r->eof = 1;
			break;
		}
		r->buf_len += (size_t)k;
	}
	return r->buf_len - r->pos;
}

/*
 * Walk the LZ4 frame at buf[pos] to find its length without decoding.
 * Returns the length, 0 when the file ends inside the frame, or a negative
 * error for a malformed frame.
 */
static long frame_length(struct reel_reader *r, uint64_t *content_size)
{
	size_t a = avail(r, 19);
	if (a < 7)
		return 0;
	const unsigned char *p = r->buf + r->pos;
	unsigned flg = p[4];
	if ((flg >> 6) != 1)
		return REEL_E_CORRUPT;
	size_t hl = 7 + ((flg & 8) ? 8 : 0) + ((flg & 1) ? 4 : 0);
	if (a < hl)
		return 0;
	*content_size = 0;
	if (flg & 8) {
		uint64_t cs = 0;
		for (int i = 7; i >= 0; i--)
			cs = cs << 8 | p[6 + i];
		*content_size = cs;
	}
	int bsum = (flg >> 4) & 1, csum = (flg >> 2) & 1;
	size_t len = hl;
	for (;;) {
		if (len > MAX_FRAME)
			return REEL_E_CORRUPT;
		if (avail(r, len + 4) < len + 4)
			return 0;
		uint32_t bs = get_le32(r->buf + r->pos + len);
		len += 4;
		if (bs == 0)
			break;
		bs &= 0x7fffffffu;
		if (bs > (4u << 20))
			return REEL_E_CORRUPT;
		len += bs + (bsum ? 4 : 0);
	}
	len += csum ? 4 : 0;
	if (avail(r, len) < len)
		return 0;
	return (long)len;
}

static int decode_frame(struct reel_reader *r, size_t len, uint64_t content_size, size_t *outlen)
{
	if (content_size > MAX_FRAME)
		return REEL_E_CORRUPT;
	size_t need = content_size ? (size_t)content_size : 4 * len + 65536;
	if (need > r->dec_cap) {
		void *nd = realloc(r->dec, need);
		if (!nd)
			return REEL_E_NOMEM;
		r->dec = nd;
		r->dec_cap = need;
	}
	LZ4F_resetDecompressionContext(r->dctx);
	size_t srcsz = len, dstsz = r->dec_cap;
	size_t hint = LZ4F_decompress(r->dctx, r->dec, &dstsz, r->buf + r->pos, &srcsz, NULL);
	if (LZ4F_isError(hint)) {
		if (strstr(LZ4F_getErrorName(hint), "hecksum"))
			return REEL_E_CHECKSUM;
		return REEL_E_CORRUPT;
	}
	if (hint != 0 || srcsz != len)
		return REEL_E_CORRUPT;
	*outlen = dstsz;
	return 0;
}

/*
 * Check that buf holds one well-formed msgpack object whose containers
 * never claim more elements than there are bytes left, before msgpack-c
 * allocates room for them (it trusts the counts).
 */
static uint64_t rd_be(const unsigned char **p, size_t *left, size_t n, int *ok)
{
	uint64_t v = 0;
	*ok = *left >= n;
	if (!*ok)
		return 0;
	for (size_t i = 0; i < n; i++)
		v = v << 8 | (*p)[i];
	*p += n;
	*left -= n;
	return v;
}

static int mp_sane(const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;
	uint64_t need = 1;
	while (need) {
		if (p >= end)
			return 0;
		unsigned c = *p++;
		uint64_t skip = 0, items = 0;
		int ok = 1;
		size_t left = (size_t)(end - p);
#define RD(n) rd_be(&p, &left, (n), &ok)
		need--;
		if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3) {
		} else if ((c & 0xf0) == 0x80) {
			items = 2 * (uint64_t)(c & 0x0f);
		} else if ((c & 0xf0) == 0x90) {
			items = c & 0x0f;
		} else if ((c & 0xe0) == 0xa0) {
			skip = c & 0x1f;
		} else {
			switch (c) {
			case 0xc4: case 0xd9: skip = RD(1); break;
			case 0xc5: case 0xda: skip = RD(2); break;
			case 0xc6: case 0xdb: skip = RD(4); break;
			case 0xc7: skip = RD(1) + 1; break;
			case 0xc8: skip = RD(2) + 1; break;
			case 0xc9: skip = RD(4) + 1; break;
			case 0xca: skip = 4; break;
			case 0xcb: skip = 8; break;
			case 0xcc: case 0xd0: skip = 1; break;
			case 0xcd: case 0xd1: skip = 2; break;
			case 0xce: case 0xd2: skip = 4; break;
			case 0xcf: case 0xd3: skip = 8; break;
			case 0xd4: skip = 2; break;
			case 0xd5: skip = 3; break;
			case 0xd6: skip = 5; break;
			case 0xd7: skip = 9; break;
			case 0xd8: skip = 17; break;
			case 0xdc: items = RD(2); break;
			case 0xdd: items = RD(4); break;
			case 0xde: items = 2 * RD(2); break;
			case 0xdf: items = 2 * RD(4); break;
			default: return 0;
			}
		}
#undef RD
		if (!ok)
			return 0;
		if (skip > (uint64_t)(end - p))
			return 0;
		p += skip;
		need += items;
		if (need > (uint64_t)(end - p))
			return 0;
	}
	return 1;
}

static const msgpack_object *map_get(const msgpack_object *m, const char *key)
{
	if (!m || m->type != MSGPACK_OBJECT_MAP)
		return NULL;
	size_t kl = strlen(key);
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object *k = &m->via.map.ptr[i].key;
		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == kl &&
		    !memcmp(k->via.str.ptr, key, kl))
			return &m->via.map.ptr[i].val;
	}
	return NULL;
}

static int obj_int(const msgpack_object *o, int64_t *v)
{
	if (!o)
		return -1;
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
		if (o->via.u64 > INT64_MAX)
			return -1;
		*v = (int64_t)o->via.u64;
		return 0;
	}
	if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		*v = o->via.i64;
		return 0;
	}
	return -1;
}

static int64_t obj_int_or(const msgpack_object *o, int64_t dflt)
{
	int64_t v;
	return obj_int(o, &v) ? dflt : v;
}

static char *obj_strdup(const msgpack_object *o)
{
	if (!o || o->type != MSGPACK_OBJECT_STR)
		return strdup("");
	char *s = malloc(o->via.str.size + 1);
	if (s) {
		memcpy(s, o->via.str.ptr, o->via.str.size);
		s[o->via.str.size] = 0;
	}
	return s;
}

static int read_devices(struct reel_reader *r, const msgpack_object *arr)
{
	if (!arr)
		return 0;
	if (arr->type != MSGPACK_OBJECT_ARRAY)
		return REEL_E_CORRUPT;
	for (uint32_t i = 0; i < arr->via.array.size; i++) {
		const msgpack_object *d = &arr->via.array.ptr[i];
		if (d->type != MSGPACK_OBJECT_MAP)
			return REEL_E_CORRUPT;
		struct reel_device dev;
		memset(&dev, 0, sizeof(dev));
		int64_t id = obj_int_or(map_get(d, "id"), -1);
		if (id < 0 || id > UINT16_MAX)
			return REEL_E_CORRUPT;
		dev.id = (uint16_t)id;
		const msgpack_object *n = map_get(d, "name");
		if (n && n->type == MSGPACK_OBJECT_STR) {
			size_t l = n->via.str.size < sizeof(dev.name) - 1 ? n->via.str.size
									  : sizeof(dev.name) - 1;
			memcpy(dev.name, n->via.str.ptr, l);
		}
		dev.major = (uint32_t)obj_int_or(map_get(d, "major"), 0);
		dev.minor = (uint32_t)obj_int_or(map_get(d, "minor"), 0);
		dev.lbs = (uint32_t)obj_int_or(map_get(d, "lbs"), 0);
		dev.pbs = (uint32_t)obj_int_or(map_get(d, "pbs"), 0);
		dev.capacity = (uint64_t)obj_int_or(map_get(d, "capacity"), 0);
		size_t j;
		for (j = 0; j < r->ndevs; j++)
			if (r->devs[j].id == dev.id)
				break;
		if (j == r->ndevs) {
			void *nv = realloc(r->devs, (r->ndevs + 1) * sizeof(*r->devs));
			if (!nv)
				return REEL_E_NOMEM;
			r->devs = nv;
			r->ndevs++;
		}
		r->devs[j] = dev;
	}
	r->hdr.devices = r->devs;
	r->hdr.ndevices = r->ndevs;
	return 0;
}

static int read_meta(struct reel_reader *r, const msgpack_object *m)
{
	if (!m)
		return 0;
	if (m->type != MSGPACK_OBJECT_MAP)
		return REEL_E_CORRUPT;
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object *k = &m->via.map.ptr[i].key, *v = &m->via.map.ptr[i].val;
		if (k->type != MSGPACK_OBJECT_STR || k->via.str.size > 255)
			return REEL_E_CORRUPT;
		char key[256];
		memcpy(key, k->via.str.ptr, k->via.str.size);
		key[k->via.str.size] = 0;
		int rc;
		int64_t iv;
		if (v->type == MSGPACK_OBJECT_STR)
			rc = meta_set(&r->meta, key, REEL_META_STR, v->via.str.ptr, v->via.str.size,
				      0, 0);
		else if (!obj_int(v, &iv))
			rc = meta_set(&r->meta, key, REEL_META_INT, NULL, 0, iv, 0);
		else if (v->type == MSGPACK_OBJECT_FLOAT64 || v->type == MSGPACK_OBJECT_FLOAT32)
			rc = meta_set(&r->meta, key, REEL_META_DBL, NULL, 0, 0, v->via.f64);
		else
			continue; /* later versions may add types: ignore */
		if (rc)
			return rc;
	}
	return 0;
}

static int set_comm(struct reel_reader *r, uint64_t id, const msgpack_object *name)
{
	if (id > (1u << 24) || !name || name->type != MSGPACK_OBJECT_STR ||
	    name->via.str.size > NAME_MAX_LEN)
		return REEL_E_CORRUPT;
	if (id >= r->ncomms) {
		size_t nc = (size_t)id + 1;
		if (nc < r->ncomms * 2)
			nc = r->ncomms * 2;
		void *nv = realloc(r->comms, nc * sizeof(*r->comms));
		if (!nv)
			return REEL_E_NOMEM;
		r->comms = nv;
		memset(r->comms + r->ncomms, 0, (nc - r->ncomms) * sizeof(*r->comms));
		r->ncomms = nc;
	}
	if (r->comms[id] && strlen(r->comms[id]) == name->via.str.size &&
	    !memcmp(r->comms[id], name->via.str.ptr, name->via.str.size))
		return 0;
	free(r->comms[id]);
	r->comms[id] = obj_strdup(name);
	return r->comms[id] ? 0 : REEL_E_NOMEM;
}

static int parse_header(struct reel_reader *r, const unsigned char *p, size_t len)
{
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	int rc = REEL_E_NOTREEL;
	if (!mp_sane(p, len) ||
	    msgpack_unpack_next(&u, (const char *)p, len, &off) != MSGPACK_UNPACK_SUCCESS)
		goto out;
	const msgpack_object *m = &u.data;
	const msgpack_object *f = map_get(m, "format");
	if (!f || f->type != MSGPACK_OBJECT_STR || f->via.str.size != 6 ||
	    memcmp(f->via.str.ptr, "ioreel", 6))
		goto out;
	int64_t ver = obj_int_or(map_get(m, "version"), -1);
	if (ver < 1) {
		rc = REEL_E_NOTREEL;
		goto out;
	}
	/* Versions only add keys; a reader accepts any version whose
	 * "compat" (the oldest version able to read it) it knows. */
	int64_t compat = obj_int_or(map_get(m, "compat"), ver > REEL_FORMAT_VERSION ? ver : 1);
	if (compat > REEL_FORMAT_VERSION) {
		rc = REEL_E_VERSION;
		goto out;
	}
	r->hdr.version = (uint32_t)ver;
	r->hdr.start_unix_ns = obj_int_or(map_get(m, "start_unix_ns"), 0);
	r->source = obj_strdup(map_get(m, "source"));
	r->source_detail = obj_strdup(map_get(m, "source_detail"));
	r->hdr.source = r->source;
	r->hdr.source_detail = r->source_detail;
	rc = read_devices(r, map_get(m, "devices"));
	if (!rc)
		rc = read_meta(r, map_get(m, "meta"));
out:
	msgpack_unpacked_destroy(&u);
	return rc;
}

#define BLOCK 1024
/* column scratch stride: not a multiple of 4 KiB, so the 13 column streams
 * of a block do not all fall in the same L1 cache sets */
#define TSTRIDE (BLOCK + 40)

/* Slow path: one varint byte by byte; 0 on a bad or short stream. */
static int varint_slow(const unsigned char **pp, const unsigned char *end, uint64_t *out)
{
	const unsigned char *p = *pp;
	uint64_t u = 0;
	unsigned shift = 0;
	for (;;) {
		if (p >= end || shift > 63)
			return 0;
		unsigned char b = *p++;
		u |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*pp = p;
	*out = u;
	return 1;
}

/*
 * Bitpack: mini-blocks of 128 values (the last may be short), each a varint
 * minimum, a width byte, then the values minus the minimum in width bits,
 * little-endian.  Decode blocks are multiples of 128 values, so a call
 * starts at a mini-block boundary.
 */
static int decode_bitpack(struct colstate *cs, int64_t *out, size_t m)
{
	const unsigned char *p = cs->p, *end = cs->end;
	const uint64_t mul = (uint64_t)cs->mul;
	unsigned char pad[128 * 8 + 16];
	for (size_t b0 = 0; b0 < m; b0 += 128) {
		size_t k = m - b0 < 128 ? m - b0 : 128;
		uint64_t umin;
		if (!varint_slow(&p, end, &umin) || p >= end)
			return -1;
		unsigned width = *p++;
		if (width > 64)
			return -1;
		size_t nb = (k * width + 7) / 8;
		if ((size_t)(end - p) < nb)
			return -1;
		int64_t *o = out + b0;
		if (width == 0) {
			for (size_t i = 0; i < k; i++)
				o[i] = (int64_t)((uint64_t)unzz(umin) * mul);
			continue;
		}
		const unsigned char *src = p;
		if ((size_t)(end - p) < nb + 8 || width > 56) { /* no room to over-read */
			memset(pad, 0, sizeof(pad));
			memcpy(pad, p, nb);
			src = pad;
		}
		if (width <= 56) {
			const uint64_t mask = (1ull << width) - 1;
			uint64_t bit = 0;
			for (size_t i = 0; i < k; i++, bit += width) {
				uint64_t wd;
				memcpy(&wd, src + (bit >> 3), 8);
				uint64_t u = umin + ((wd >> (bit & 7)) & mask);
				o[i] = (int64_t)((uint64_t)unzz(u) * mul);
			}
		} else {
			const uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
			uint64_t bit = 0;
			for (size_t i = 0; i < k; i++, bit += width) {
				uint64_t lo, hi = 0;
				memcpy(&lo, src + (bit >> 3), 8);
				unsigned sh = bit & 7;
				if (sh)
					hi = (uint64_t)src[(bit >> 3) + 8] << (64 - sh);
				uint64_t u = umin + (((lo >> sh) | hi) & mask);
				o[i] = (int64_t)((uint64_t)unzz(u) * mul);
			}
		}
		p += nb;
	}
	cs->p = p;
	return 0;
}

static int decode_block(struct colstate *cs, int64_t *out, size_t m)
{
	size_t i = 0;
	switch (cs->kind) {
	case K_ZERO:
		memset(out, 0, m * sizeof(*out));
		return 0;
	case K_CONST:
		for (; i < m; i++)
			out[i] = cs->base;
		return 0;
	}
	if (cs->kind == K_VARINT) {
		/* varints of up to 8 bytes decode branch-free from one 8-byte
		 * load: the first clear high bit gives the length */
		const unsigned char *p = cs->p, *end = cs->end;
		const uint64_t mul = (uint64_t)cs->mul;
		for (size_t i = 0; i < m; i++) {
			uint64_t u, w8, stop;
			if (end - p >= 8 && (memcpy(&w8, p, 8), stop = ~w8 & 0x8080808080808080ull)) {
				unsigned nb = ((unsigned)__builtin_ctzll(stop) + 1) >> 3;
				uint64_t v = nb == 8 ? w8 : w8 & ((1ull << (nb * 8)) - 1);
				u = (v & 0x7f) | ((v & 0x7f00ull) >> 1) | ((v & 0x7f0000ull) >> 2) |
				    ((v & 0x7f000000ull) >> 3) | ((v & 0x7f00000000ull) >> 4) |
				    ((v & 0x7f0000000000ull) >> 5) | ((v & 0x7f000000000000ull) >> 6) |
				    ((v & 0x7f00000000000000ull) >> 7);
				p += nb;
			} else if (!varint_slow(&p, end, &u)) {
				return -1;
			}
			out[i] = (int64_t)((uint64_t)unzz(u) * mul);
		}
		cs->p = p;
		return 0;
	}
	return decode_bitpack(cs, out, m);
}

static int parse_chunk(struct reel_reader *r, const unsigned char *p, size_t len, const char **why)
{
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	int rc = REEL_E_CORRUPT;
	*why = "not a msgpack map";
	if (!mp_sane(p, len) || msgpack_unpack_next(&u, (const char *)p, len, &off) != MSGPACK_UNPACK_SUCCESS ||
	    u.data.type != MSGPACK_OBJECT_MAP)
		goto out;
	const msgpack_object *m = &u.data;
	int64_t n = obj_int_or(map_get(m, "n"), -1);
	*why = "record count missing or above 65536";
	if (n < 0 || n > REEL_CHUNK_MAX)
		goto out;
	const msgpack_object *comms = map_get(m, "comms");
	if (comms) {
		*why = "bad process name table";
		if (comms->type != MSGPACK_OBJECT_ARRAY || comms->via.array.size % 2)
			goto out;
		for (uint32_t i = 0; i < comms->via.array.size; i += 2) {
			int64_t id;
			if (obj_int(&comms->via.array.ptr[i], &id) || id < 0 ||
			    set_comm(r, (uint64_t)id, &comms->via.array.ptr[i + 1]))
				goto out;
		}
	}
	*why = "bad device table";
	if (read_devices(r, map_get(m, "devices")))
		goto out;
	*why = "bad metadata";
	if (read_meta(r, map_get(m, "meta")))
		goto out;
	const msgpack_object *cols = map_get(m, "cols");
	*why = "no column map";
	if (!cols || cols->type != MSGPACK_OBJECT_MAP)
		goto out;
	struct colstate cs[C__COUNT];
	static __thread char whybuf[128];
	for (int c = 0; c < C__COUNT; c++) {
		const msgpack_object *col = map_get(cols, col_names[c]);
		memset(&cs[c], 0, sizeof(cs[c]));
		cs[c].kind = K_ZERO;
		if (!col)
			continue;
		snprintf(whybuf, sizeof(whybuf), "column '%s' is malformed", col_names[c]);
		*why = whybuf;
		const msgpack_object *d = col;
		int64_t mul = 1;
		int varint = 0;
		if (!obj_int(col, &cs[c].base)) {
			cs[c].kind = K_CONST;
			continue;
		}
		if (col->type == MSGPACK_OBJECT_MAP) { /* the map form of early builds */
			const msgpack_object *e = map_get(col, "enc");
			if (!e || e->type != MSGPACK_OBJECT_STR)
				goto out;
			if (e->via.str.size == 5 && !memcmp(e->via.str.ptr, "const", 5)) {
				if (obj_int(map_get(col, "v"), &cs[c].base))
					goto out;
				cs[c].kind = K_CONST;
				continue;
			}
			varint = e->via.str.size == 6 && !memcmp(e->via.str.ptr, "varint", 6);
			if (!varint && (e->via.str.size != 7 || memcmp(e->via.str.ptr, "bitpack", 7))) {
				snprintf(whybuf, sizeof(whybuf), "column '%s': unknown encoding",
					 col_names[c]);
				goto out;
			}
			mul = obj_int_or(map_get(col, "mul"), 1);
			d = map_get(col, "data");
			if (mul < 1 || !d)
				goto out;
		} else if (col->type == MSGPACK_OBJECT_ARRAY) {
			uint32_t na = col->via.array.size;
			if (na < 2 || na > 3 || obj_int(&col->via.array.ptr[0], &mul) || mul < 1)
				goto out;
			d = &col->via.array.ptr[1];
			if (na == 3) {
				const msgpack_object *e = &col->via.array.ptr[2];
				if (e->type != MSGPACK_OBJECT_STR || e->via.str.size != 6 ||
				    memcmp(e->via.str.ptr, "varint", 6)) {
					snprintf(whybuf, sizeof(whybuf), "column '%s': unknown encoding",
						 col_names[c]);
					goto out;
				}
				varint = 1;
			}
		}
		if (d->type != MSGPACK_OBJECT_BIN)
			goto out;
		cs[c].kind = varint ? K_VARINT : K_BP;
		cs[c].mul = mul;
		cs[c].p = (const unsigned char *)d->via.bin.ptr;
		cs[c].end = cs[c].p + d->via.bin.size;
	}
	memcpy(r->cs, cs, sizeof(cs));
	r->chunk_n = r->chunk_left = (size_t)n;
	r->cq = r->cend = 0;
	/* keep the parsed map: the column streams point into r->dec */
	msgpack_unpacked_destroy(&r->cur);
	r->cur = u;
	return 0;
out:
	msgpack_unpacked_destroy(&u);
	return rc;
}

/*
 * Decode the next block (up to BLOCK records) of the current chunk into
 * r->recs: a block stays in cache while all its columns are applied.
 */
static int decode_next_block(struct reel_reader *r, const char **why)
{
	static __thread char whybuf[128];
	size_t bm = r->chunk_left < BLOCK ? r->chunk_left : BLOCK;
	struct reel_rec *x = r->recs;
	int64_t *t = r->tmp;
	uint64_t q = r->cq, end = r->cend;
	for (int c = 0; c < C__COUNT; c++) {
		if (decode_block(&r->cs[c], t + (size_t)c * TSTRIDE, bm)) {
			snprintf(whybuf, sizeof(whybuf),
				 "column '%s': bad bitpack data or fewer values than n=%zu", col_names[c],
				 r->chunk_n);
			*why = whybuf;
			return REEL_E_CORRUPT;
		}
	}
	/* undo the column transforms (see col_value), one pass over the block */
	const int64_t *th = t + C_HAS * TSTRIDE, *tq = t + C_QUEUE * TSTRIDE,
		      *ti = t + C_ISSUE * TSTRIDE, *tc = t + C_COMPLETE * TSTRIDE,
		      *to = t + C_OFFSET * TSTRIDE, *tl = t + C_LENGTH * TSTRIDE,
		      *top = t + C_OP * TSTRIDE, *tf = t + C_FLAGS * TSTRIDE, *td = t + C_DEV * TSTRIDE,
		      *tp = t + C_PID * TSTRIDE, *tm = t + C_COMM * TSTRIDE, *tu = t + C_CPU * TSTRIDE,
		      *te = t + C_ERROR * TSTRIDE;
	struct reel_summary *s = &r->seen;
	int64_t first = s->first_ns, last = s->last_ns;
	for (size_t i = 0; i < bm; i++) {
		struct reel_rec *y = &x[i];
		unsigned has = (unsigned)th[i];
		/* absent times are 0; a time is stored relative to the one before it */
		uint64_t qq = 0, is = 0, cm = 0;
		if (has & REEL_HAS_QUEUE)
			qq = q += (uint64_t)tq[i];
		if (has & REEL_HAS_ISSUE)
			is = qq + (uint64_t)ti[i];
		if (has & REEL_HAS_COMPLETE)
			cm = (has & REEL_HAS_ISSUE ? is : qq) + (uint64_t)tc[i];
		y->queue_ns = (int64_t)qq;
		y->issue_ns = (int64_t)is;
		y->complete_ns = (int64_t)cm;
		y->offset = end + (uint64_t)to[i];
		y->length = (uint32_t)tl[i];
		end = y->offset + y->length;
		y->pid = (uint32_t)tp[i];
		y->comm = (uint32_t)tm[i];
		y->error = (int32_t)te[i];
		y->dev = (uint16_t)td[i];
		y->cpu = (uint16_t)tu[i];
		y->has = (uint16_t)th[i];
		y->op = (uint8_t)top[i];
		y->flags = (uint8_t)tf[i];
		unsigned op = y->op < REEL_OP__COUNT ? y->op : REEL_OP_READ;
		s->ops[op]++;
		s->bytes[op] += y->length;
		int64_t tt = y->has & REEL_HAS_QUEUE ? y->queue_ns : y->issue_ns;
		first = tt < first ? tt : first;
		last = tt > last ? tt : last;
	}
	s->first_ns = first;
	s->last_ns = last;
	s->count += bm;
	r->cq = q;
	r->cend = end;
	r->chunk_left -= bm;
	if (!r->chunk_left) {
		for (int c = 0; c < C__COUNT; c++) {
			if (r->cs[c].kind >= K_BP &&
			    r->cs[c].p != r->cs[c].end) {
				snprintf(whybuf, sizeof(whybuf), "column '%s': more values than n=%zu",
					 col_names[c], r->chunk_n);
				*why = whybuf;
				return REEL_E_CORRUPT;
			}
		}
	}
	r->nrec = bm;
	r->next = 0;
	return 0;
}

static int parse_trailer(struct reel_reader *r, const unsigned char *p, size_t len)
{
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	int rc = REEL_E_CORRUPT;
	if (!mp_sane(p, len) ||
	    msgpack_unpack_next(&u, (const char *)p, len, &off) != MSGPACK_UNPACK_SUCCESS ||
	    u.data.type != MSGPACK_OBJECT_MAP)
		goto out;
	const msgpack_object *s = map_get(&u.data, "summary");
	struct reel_summary sum;
	memset(&sum, 0, sizeof(sum));
	sum.count = (uint64_t)obj_int_or(map_get(s, "count"), 0);
	sum.chunks = (uint64_t)obj_int_or(map_get(s, "chunks"), 0);
	sum.first_ns = obj_int_or(map_get(s, "first_ns"), 0);
	sum.last_ns = obj_int_or(map_get(s, "last_ns"), 0);
	const msgpack_object *ops = map_get(s, "ops"), *bytes = map_get(s, "bytes");
	for (int i = 0; i < REEL_OP__COUNT; i++) {
		if (ops && ops->type == MSGPACK_OBJECT_ARRAY && (uint32_t)i < ops->via.array.size)
			sum.ops[i] = (uint64_t)obj_int_or(&ops->via.array.ptr[i], 0);
		if (bytes && bytes->type == MSGPACK_OBJECT_ARRAY &&
		    (uint32_t)i < bytes->via.array.size)
			sum.bytes[i] = (uint64_t)obj_int_or(&bytes->via.array.ptr[i], 0);
	}
	if ((rc = read_devices(r, map_get(&u.data, "devices"))))
		goto out;
	if ((rc = read_meta(r, map_get(&u.data, "meta"))))
		goto out;
	const msgpack_object *comms = map_get(&u.data, "comms");
	if (comms && comms->type == MSGPACK_OBJECT_ARRAY)
		for (uint32_t i = 0; i < comms->via.array.size; i++)
			if ((rc = set_comm(r, i, &comms->via.array.ptr[i])))
				goto out;
	r->trailer_sum = sum;
	r->have_trailer = 1;
	rc = 0;
out:
	msgpack_unpacked_destroy(&u);
	return rc;
}

/* Try to read the trailer from the end of a seekable file. */
static void load_trailer(struct reel_reader *r)
{
	struct stat st;
	if (fstat(r->fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 16)
		return;
	unsigned char tail[8];
	if (pread(r->fd, tail, 8, st.st_size - 8) != 8 || memcmp(tail + 4, TRAILER_TAG, 4))
		return;
	uint32_t len = get_le32(tail); /* of the msgpack map before the tail */
	if (len == 0 || (off_t)len + 16 > st.st_size || len > MAX_FRAME)
		return;
	unsigned char *p = malloc(len);
	if (!p)
		return;
	if (pread(r->fd, p, len, st.st_size - 8 - (off_t)len) == (ssize_t)len)
		parse_trailer(r, p, len);
	free(p);
}

int reel_reader_open(struct reel_reader **out, const char *path, unsigned flags)
{
	*out = NULL;
	struct reel_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return REEL_E_NOMEM;
	*out = r;
	r->fd = -1;
	r->flags = flags;
	r->path = strdup(path);
	r->buf_cap = 1 << 20;
	r->buf = malloc(r->buf_cap);
	r->recs = malloc(BLOCK * sizeof(*r->recs));
	msgpack_unpacked_init(&r->cur);
	r->tmp = malloc((size_t)C__COUNT * TSTRIDE * sizeof(*r->tmp));
	r->hdr.source = r->hdr.source_detail = "";
	if (!r->path || !r->buf || !r->recs || !r->tmp) {
		if (!r->path)
			r->path = NULL;
		snprintf(r->errmsg, sizeof(r->errmsg), "out of memory");
		return REEL_E_NOMEM;
	}
	if (LZ4F_isError(LZ4F_createDecompressionContext(&r->dctx, LZ4F_VERSION)))
		return rerr(r, REEL_E_NOMEM, "out of memory");
	r->fd = !strcmp(path, "-") ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return rerr(r, REEL_E_IO, "cannot open: %s", strerror(errno));
	load_trailer(r);
	/* header frame */
	uint64_t cs;
	if (avail(r, 4) < 4 || get_le32(r->buf) != LZ4F_MAGIC)
		return rerr(r, REEL_E_NOTREEL,
			    "not a .reel file (no LZ4 frame at the start); 'ioreel import' "
			    "converts other trace formats");
	long fl = frame_length(r, &cs);
	if (fl <= 0)
		return rerr(r, fl == 0 ? REEL_E_TRUNCATED : REEL_E_CORRUPT,
			    "header frame %s", fl == 0 ? "cut short" : "malformed");
	size_t dl;
	int rc = decode_frame(r, (size_t)fl, cs, &dl);
	if (rc)
		return rerr(r, rc, "header frame: %s", reel_strerror(rc));
	rc = parse_header(r, r->dec, dl);
	if (rc == REEL_E_VERSION)
		return rerr(r, rc, "written by a newer ioreel (format version %u or later "
				   "needed); upgrade ioreel", REEL_FORMAT_VERSION + 1);
	if (rc)
		return rerr(r, rc, "header is not an ioreel header");
	r->pos += (size_t)fl;
	r->header_read = 1;
	r->hdr.devices = r->devs;
	r->hdr.ndevices = r->ndevs;
	r->seen.first_ns = INT64_MAX;
	r->seen.last_ns = INT64_MIN;
	return 0;
}

void reel_reader_close(struct reel_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	if (r->dctx)
		LZ4F_freeDecompressionContext(r->dctx);
	for (size_t i = 0; i < r->ncomms; i++)
		free(r->comms[i]);
	free(r->comms);
	free(r->buf);
	free(r->dec);
	free(r->recs);
	free(r->tmp);
	msgpack_unpacked_destroy(&r->cur);
	free(r->devs);
	free(r->source);
	free(r->source_detail);
	free(r->path);
	meta_free(&r->meta);
	free(r);
}

const struct reel_header *reel_reader_header(const struct reel_reader *r)
{
	return &r->hdr;
}

/* Scan forward from pos+1 for the next LZ4 frame magic (salvage). */
static int resync(struct reel_reader *r)
{
	r->pos++;
	for (;;) {
		size_t a = avail(r, 4);
		if (a < 4)
			return 0;
		if (get_le32(r->buf + r->pos) == LZ4F_MAGIC ||
		    get_le32(r->buf + r->pos) == SKIP_MAGIC)
			return 1;
		r->pos++;
	}
}

/* Load the next chunk into r->recs; 1 loaded, 0 end, <0 error. */
static int next_chunk(struct reel_reader *r)
{
	for (;;) {
		if (r->done)
			return 0;
		size_t a = avail(r, 8);
		uint64_t at = r->buf_off + r->pos;
		if (a == 0) {
			r->done = 1;
			if (!r->complete)
				rerr(r, 0, "file cut short: no index at the end (the writer did "
					   "not finish); read %llu I/Os in %llu whole chunks up to "
					   "byte %llu", (unsigned long long)r->seen.count,
				     (unsigned long long)r->seen.chunks, (unsigned long long)at);
			return 0;
		}
		if (a < 8) {
			r->done = 1;
			rerr(r, 0, "file cut short at byte %llu after chunk %llu; read %llu I/Os "
				   "in %llu whole chunks", (unsigned long long)at,
			     (unsigned long long)r->chunk_no, (unsigned long long)r->seen.count,
			     (unsigned long long)r->seen.chunks);
			return 0;
		}
		uint32_t magic = get_le32(r->buf + r->pos);
		if (magic == SKIP_MAGIC || (magic & 0xFFFFFFF0u) == 0x184D2A50u) {
			uint32_t len = get_le32(r->buf + r->pos + 4);
			if (len > MAX_FRAME) {
				if (r->flags & REEL_R_SALVAGE) {
					r->skipped++;
					if (!resync(r)) {
						r->done = 1;
						return 0;
					}
					continue;
				}
				r->done = 1;
				return rerr(r, REEL_E_CORRUPT, "frame at byte %llu claims %u bytes; "
					    "'ioreel info --salvage' reads past it",
					    (unsigned long long)at, len);
			}
			if (avail(r, (size_t)len + 8) < (size_t)len + 8) {
				r->done = 1;
				rerr(r, 0, "file cut short inside the index at byte %llu; all "
					   "%llu chunks were read", (unsigned long long)at,
				     (unsigned long long)r->seen.chunks);
				return 0;
			}
			if (magic == SKIP_MAGIC && len >= 8 &&
			    !memcmp(r->buf + r->pos + 8 + len - 4, TRAILER_TAG, 4)) {
				if (!r->have_trailer)
					parse_trailer(r, r->buf + r->pos + 8, len - 8);
				r->complete = 1;
			}
			r->pos += (size_t)len + 8;
			continue;
		}
		uint64_t chunk = r->chunk_no;
		int rc;
		const char *why = "";
		if (magic != LZ4F_MAGIC) {
			rc = REEL_E_CORRUPT;
			why = "no frame starts here";
		} else {
			uint64_t cs;
			long fl = frame_length(r, &cs);
			if (fl == 0) {
				r->done = 1;
				rerr(r, 0, "file cut short inside chunk %llu at byte %llu (a crash "
					   "or kill during writing); read %llu I/Os in %llu whole "
					   "chunks before it", (unsigned long long)chunk,
				     (unsigned long long)at, (unsigned long long)r->seen.count,
				     (unsigned long long)r->seen.chunks);
				return 0;
			}
			size_t dl = 0;
			if (fl < 0) {
				rc = (int)fl;
				why = "malformed LZ4 frame";
			} else if ((rc = decode_frame(r, (size_t)fl, cs, &dl))) {
				why = rc == REEL_E_CHECKSUM ? "LZ4 checksum mismatch"
							    : "LZ4 data does not decode";
			} else if ((rc = parse_chunk(r, r->dec, dl, &why)) == 0) {
				r->cur_chunk = chunk;
				r->cur_at = at;
				r->pos += (size_t)fl;
				r->chunk_no++;
				r->seen.chunks++;
				return 1;
			}
		}
		if (r->flags & REEL_R_SALVAGE) {
			r->skipped++;
			r->chunk_no++;
			if (!resync(r)) {
				r->done = 1;
				return 0;
			}
			continue;
		}
		r->done = 1;
		return rerr(r, rc, "chunk %llu at byte %llu: %s; 'ioreel info --salvage' reads "
				   "the chunks around it", (unsigned long long)chunk,
			    (unsigned long long)at, why);
	}
}

/* Make r->recs[r->next..r->nrec) non-empty: 1, 0 at the end, or an error. */
static int fill(struct reel_reader *r)
{
	while (r->next >= r->nrec) {
		if (r->chunk_left) {
			const char *why = "";
			int rc = decode_next_block(r, &why);
			if (!rc)
				continue;
			r->chunk_left = 0;
			if (r->flags & REEL_R_SALVAGE) {
				r->skipped++;
				continue;
			}
			r->done = 1;
			return rerr(r, rc, "chunk %llu at byte %llu: %s; 'ioreel info --salvage' "
				    "reads the chunks around it", (unsigned long long)r->cur_chunk,
				    (unsigned long long)r->cur_at, why);
		}
		int rc = next_chunk(r);
		if (rc <= 0)
			return rc;
	}
	return 1;
}

long reel_read_chunk(struct reel_reader *r, const struct reel_rec **recs)
{
	int rc = fill(r);
	if (rc <= 0)
		return rc;
	size_t n = r->nrec - r->next;
	*recs = r->recs + r->next;
	r->next = r->nrec;
	return (long)n;
}

int reel_read(struct reel_reader *r, struct reel_rec *rec)
{
	int rc = fill(r);
	if (rc <= 0)
		return rc;
	*rec = r->recs[r->next++];
	return 1;
}

const char *reel_reader_comm(const struct reel_reader *r, uint32_t id)
{
	return id < r->ncomms ? r->comms[id] : NULL;
}

size_t reel_reader_ncomms(const struct reel_reader *r)
{
	return r->ncomms;
}

const struct reel_meta *reel_reader_meta(const struct reel_reader *r, const char *key)
{
	return meta_find(&r->meta, key);
}

const struct reel_meta *reel_reader_meta_all(const struct reel_reader *r, size_t *n)
{
	*n = r->meta.n;
	return r->meta.v;
}

int reel_reader_summary(const struct reel_reader *r, struct reel_summary *s)
{
	if (!r->have_trailer)
		return 0;
	*s = r->trailer_sum;
	return 1;
}

void reel_reader_seen(const struct reel_reader *r, struct reel_summary *s)
{
	*s = r->seen;
	if (!s->count)
		s->first_ns = s->last_ns = 0;
}

int reel_reader_complete(const struct reel_reader *r)
{
	return r->complete;
}

uint64_t reel_reader_skipped(const struct reel_reader *r)
{
	return r->skipped;
}

int reel_reader_rewind(struct reel_reader *r)
{
	if (lseek(r->fd, 0, SEEK_SET) < 0)
		return rerr(r, REEL_E_IO, "cannot rewind: %s", strerror(errno));
	r->buf_len = r->pos = 0;
	r->buf_off = 0;
	r->eof = r->done = 0;
	r->nrec = r->next = 0;
	r->chunk_left = 0;
	r->chunk_no = 0;
	memset(&r->seen, 0, sizeof(r->seen));
	r->seen.first_ns = INT64_MAX;
	r->seen.last_ns = INT64_MIN;
	uint64_t cs;
	long fl = frame_length(r, &cs);
	if (fl <= 0)
		return rerr(r, REEL_E_IO, "cannot re-read the header");
	r->pos = (size_t)fl;
	return 0;
}
