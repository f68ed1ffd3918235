/*
 * formats/reel_read.c - the .reel reader: finds the trailer from the end
 * of a seekable file, then reads the header frame and the data chunks in
 * order, decoding each chunk a block of records at a time.  Constant
 * memory; a file without its trailer (a crash) reads up to its last whole
 * chunk, and REEL_R_SALVAGE skips corrupt chunks.  formats/FORMAT.md is the
 * normative description; the column codec is formats/column_codec.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lz4frame.h>
#include <msgpack.h>
#define XXH_INLINE_ALL /* XXH32 inlined: no library to link */
#include <xxhash.h>

#include "formats/reel_internal.h"

struct reel_reader {
	int fd;
	char *path;
	/* a regular file's size and modification time when opened: a rewind
	 * refuses a file changed since (a re-read skips the first read's
	 * checks, and its callers' counts are the first read's) */
	off_t st_size;
	struct timespec st_mtim;
	int st_kept;
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
	struct reel_cols cols; /* or the current block as columns (reel_read_cols) */
	void *colbuf;
	int64_t *tmp;
	/* tmp's column c holds tval[c] in its first tfill[c] places (an
	 * absent or constant column: not written again for the next block) */
	int64_t tval[C__COUNT];
	size_t tfill[C__COUNT];
	msgpack_unpacked cur; /* the current chunk's map */
	struct colstate cs[C__COUNT];
	size_t chunk_n, chunk_left;
	uint64_t cq, cend;	    /* running queue time and end offset */
	uint64_t cur_chunk, cur_at; /* for messages */
	/* header and tables */
	struct reel_header hdr;
	char *source, *source_detail;
	struct reel_device *devs;
	size_t ndevs, devs_cap;
	struct meta_list meta;
	char **comms;
	size_t ncomms;
	/* state */
	int header_read, done, complete, have_trailer;
	int cols_ic; /* reel_read_cols decodes issue and completion times */
	int reread;  /* read whole before: no checksums, no ops counted */
	struct reel_summary trailer_sum, seen;
	uint64_t skipped;
	uint64_t chunk_no;
	/* reel_reader_halve: the trailer's frame's byte (0: no trailer found
	 * at the end), the index's chunks (0: none or not the summary's count)
	 * and its offset of chunk nix / 2; the chunk a half stops before
	 * (UINT64_MAX: none) and whether it stopped there; a later half's
	 * chunks' devices, in order */
	uint64_t trailer_at, nix, ix_half;
	uint64_t range_end;
	int range_hit, range_decl;
	struct reel_device *decl;
	size_t ndecl, decl_cap;
	char errmsg[512];
};

/* reel_errf with the file's name in front: "PATH: message". */
static int rerr(struct reel_reader *r, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int rerr(struct reel_reader *r, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(r->errmsg, sizeof(r->errmsg), "%s: ", r->path);
	reel_verrf(r->errmsg + n, sizeof(r->errmsg) - (size_t)n, fmt, ap);
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
	/* room for a whole block (4 MiB at most): LZ4F then decodes each block
	 * straight into r->dec, not into a buffer of its own and copied (the
	 * pages past the content are never touched) */
	need = need < (4u << 20) ? 4u << 20 : need;
	if (need > r->dec_cap) {
		void *nd = realloc(r->dec, need);
		if (!nd)
			return REEL_E_NOMEM;
		r->dec = nd;
		r->dec_cap = need;
	}
	LZ4F_resetDecompressionContext(r->dctx);
	/* a frame with the content checksum and no block checksums (as ioreel
	 * writes them): LZ4F skips the checksum and it is checked here, with
	 * xxHash's own XXH32, twice as fast as the copy inside liblz4 */
	const unsigned char *f = r->buf + r->pos;
	int own = len >= 11 && (f[4] & 0x14) == 0x04;
	LZ4F_decompressOptions_t opt = {.skipChecksums = (unsigned)own};
	size_t srcsz = len, dstsz = r->dec_cap;
	size_t hint = LZ4F_decompress(r->dctx, r->dec, &dstsz, f, &srcsz, &opt);
	if (LZ4F_isError(hint)) {
		if (strstr(LZ4F_getErrorName(hint), "hecksum"))
			return REEL_E_CHECKSUM;
		return REEL_E_CORRUPT;
	}
	if (hint != 0 || srcsz != len)
		return REEL_E_CORRUPT;
	if (own && !r->reread && XXH32(r->dec, dstsz, 0) != get_le32(f + len - 4))
		return REEL_E_CHECKSUM;
	*outlen = dstsz;
	return 0;
}

/* DEV into the table: an id declared again replaced where it is. */
static int dev_put(struct reel_reader *r, const struct reel_device *dev)
{
	size_t j;
	for (j = 0; j < r->ndevs; j++)
		if (r->devs[j].id == dev->id)
			break;
	if (j == r->ndevs) {
		if (REEL_VEC_RESERVE(r->devs, r->ndevs, r->devs_cap, 8))
			return REEL_E_NOMEM;
		r->ndevs++;
	}
	r->devs[j] = *dev;
	r->hdr.devices = r->devs;
	r->hdr.ndevices = r->ndevs;
	return 0;
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
		int64_t id = reel_mp_int_or(reel_mp_get(d, "id"), -1);
		if (id < 0 || id > UINT16_MAX)
			return REEL_E_CORRUPT;
		dev.id = (uint16_t)id;
		const msgpack_object *n = reel_mp_get(d, "name");
		if (n && n->type == MSGPACK_OBJECT_STR) {
			size_t l = n->via.str.size < sizeof(dev.name) - 1 ? n->via.str.size
									  : sizeof(dev.name) - 1;
			memcpy(dev.name, n->via.str.ptr, l);
		}
		dev.major = (uint32_t)reel_mp_int_or(reel_mp_get(d, "major"), 0);
		dev.minor = (uint32_t)reel_mp_int_or(reel_mp_get(d, "minor"), 0);
		dev.lbs = (uint32_t)reel_mp_int_or(reel_mp_get(d, "lbs"), 0);
		dev.pbs = (uint32_t)reel_mp_int_or(reel_mp_get(d, "pbs"), 0);
		dev.capacity = (uint64_t)reel_mp_int_or(reel_mp_get(d, "capacity"), 0);
		if (dev_put(r, &dev))
			return REEL_E_NOMEM;
		if (r->range_decl) { /* a later half's chunk (reel_reader_halves_join) */
			if (REEL_VEC_RESERVE(r->decl, r->ndecl, r->decl_cap, 8))
				return REEL_E_NOMEM;
			r->decl[r->ndecl++] = dev;
		}
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
	r->comms[id] = reel_mp_strdup(name);
	return r->comms[id] ? 0 : REEL_E_NOMEM;
}

static int parse_header(struct reel_reader *r, const unsigned char *p, size_t len)
{
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	int rc = REEL_E_NOTREEL;
	if (!reel_mp_sane(p, len) ||
	    msgpack_unpack_next(&u, (const char *)p, len, &off) != MSGPACK_UNPACK_SUCCESS)
		goto out;
	const msgpack_object *m = &u.data;
	const msgpack_object *f = reel_mp_get(m, "format");
	if (!f || f->type != MSGPACK_OBJECT_STR || f->via.str.size != 6 ||
	    memcmp(f->via.str.ptr, "ioreel", 6))
		goto out;
	int64_t ver = reel_mp_int_or(reel_mp_get(m, "version"), -1);
	if (ver < 1) {
		rc = REEL_E_NOTREEL;
		goto out;
	}
	/* Versions only add keys; a reader accepts any version whose
	 * "compat" (the oldest version able to read it) it knows. */
	int64_t compat =
	    reel_mp_int_or(reel_mp_get(m, "compat"), ver > REEL_FORMAT_VERSION ? ver : 1);
	if (compat > REEL_FORMAT_VERSION) {
		rc = REEL_E_VERSION;
		goto out;
	}
	r->hdr.version = (uint32_t)ver;
	r->hdr.start_unix_ns = reel_mp_int_or(reel_mp_get(m, "start_unix_ns"), 0);
	r->source = reel_mp_strdup(reel_mp_get(m, "source"));
	r->source_detail = reel_mp_strdup(reel_mp_get(m, "source_detail"));
	r->hdr.source = r->source;
	r->hdr.source_detail = r->source_detail;
	rc = read_devices(r, reel_mp_get(m, "devices"));
	if (!rc)
		rc = reel_meta_list_read(&r->meta, reel_mp_get(m, "meta"));
out:
	msgpack_unpacked_destroy(&u);
	return rc;
}

#define BLOCK REEL_BLOCK
#define TSTRIDE REEL_TSTRIDE

/* Slow path: one varint byte by byte; 0 on a bad or short stream. */

static int parse_chunk(struct reel_reader *r, const unsigned char *p, size_t len, const char **why)
{
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	int rc = REEL_E_CORRUPT;
	*why = "not a msgpack map";
	if (!reel_mp_sane(p, len) ||
	    msgpack_unpack_next(&u, (const char *)p, len, &off) != MSGPACK_UNPACK_SUCCESS ||
	    u.data.type != MSGPACK_OBJECT_MAP)
		goto out;
	const msgpack_object *m = &u.data;
	int64_t n = reel_mp_int_or(reel_mp_get(m, "n"), -1);
	*why = "record count missing or above 65536";
	if (n < 0 || n > REEL_CHUNK_MAX)
		goto out;
	const msgpack_object *comms = reel_mp_get(m, "comms");
	if (comms) {
		*why = "bad process name table";
		if (comms->type != MSGPACK_OBJECT_ARRAY || comms->via.array.size % 2)
			goto out;
		for (uint32_t i = 0; i < comms->via.array.size; i += 2) {
			int64_t id;
			if (reel_mp_int(&comms->via.array.ptr[i], &id) || id < 0 ||
			    set_comm(r, (uint64_t)id, &comms->via.array.ptr[i + 1]))
				goto out;
		}
	}
	*why = "bad device table";
	if (read_devices(r, reel_mp_get(m, "devices")))
		goto out;
	*why = "bad metadata";
	if (reel_meta_list_read(&r->meta, reel_mp_get(m, "meta")))
		goto out;
	const msgpack_object *cols = reel_mp_get(m, "cols");
	*why = "no column map";
	if (!cols || cols->type != MSGPACK_OBJECT_MAP)
		goto out;
	struct colstate cs[C__COUNT];
	static __thread char whybuf[128];
	for (int c = 0; c < C__COUNT; c++) {
		int unknown;
		if (reel_col_open(&cs[c], reel_mp_get(cols, reel_col_names[c]), &unknown)) {
			snprintf(whybuf, sizeof(whybuf),
				 unknown ? "column '%s': unknown encoding"
					 : "column '%s' is malformed",
				 reel_col_names[c]);
			*why = whybuf;
			goto out;
		}
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

/* Name the first record of the block out of bounds (FORMAT.md 3.2). */
static void out_of_bounds(struct reel_reader *r, const struct reel_rec *x, size_t n, char *why,
			  size_t len)
{
	size_t base = r->chunk_n - r->chunk_left;
	for (size_t i = 0; i < n; i++) {
		const struct reel_rec *y = &x[i];
		const char *what = reel_time_out(y->queue_ns)	? "queue"
				   : reel_time_out(y->issue_ns) ? "issue"
								: "completion";
		int64_t t = reel_time_out(y->queue_ns)	 ? y->queue_ns
			    : reel_time_out(y->issue_ns) ? y->issue_ns
							 : y->complete_ns;
		if (y->offset > REEL_END_LIMIT - y->length)
			snprintf(why, len, "record %zu: offset %llu + length %u is beyond 2^63",
				 base + i, (unsigned long long)y->offset, y->length);
		else if (reel_time_out(t))
			snprintf(why, len, "record %zu: %s time %lld ns is beyond +-2^62 ns",
				 base + i, what, (long long)t);
		else
			continue;
		return;
	}
}

/* The columns reel_read_cols decodes (the others it steps over): those of
 * the I/O's place, size and times (the bounds of FORMAT.md 3.2 and the
 * summary need all but dev) */
#define COLS_SHAPE                                                                                 \
	(1u << C_HAS | 1u << C_QUEUE | 1u << C_ISSUE | 1u << C_COMPLETE | 1u << C_OFFSET |         \
	 1u << C_LENGTH | 1u << C_OP | 1u << C_DEV)

/*
 * Decode the next block (up to BLOCK records) of the current chunk into
 * r->recs, or with COLS only the columns of COLS_SHAPE into r->cols: a
 * block stays in cache while all its columns are applied.  Every record is
 * checked against the bounds of FORMAT.md 3.2.
 */
static int decode_next_block(struct reel_reader *r, int cols, const char **why)
{
	static __thread char whybuf[128];
	size_t bm = r->chunk_left < BLOCK ? r->chunk_left : BLOCK;
	unsigned mask = cols ? COLS_SHAPE : (1u << C__COUNT) - 1;
	int ic = 1; /* issue and completion times decoded */
	for (int c = 0; c < C__COUNT; c++) {
		const struct colstate *cs = &r->cs[c];
		if (c == C_ISSUE && cols && !r->cols_ic && reel_block_queued(r->tmp, bm)) {
			ic = 0; /* the has column, decoded first, says every record is queued */
			mask &= ~(1u << C_ISSUE | 1u << C_COMPLETE);
		}
		int64_t v = cs->kind == K_CONST ? cs->base : 0;
		if (cs->kind <= K_CONST && (mask >> c & 1) && r->tfill[c] >= bm && r->tval[c] == v)
			continue; /* tmp holds it from the block before */
		r->tfill[c] = cs->kind <= K_CONST && (mask >> c & 1) ? bm : 0;
		r->tval[c] = v;
		/* the other columns are stepped over: the streams stay in step
		 * for reel_read, and every column is checked */
		if ((mask >> c & 1) ? reel_col_decode(&r->cs[c], r->tmp + (size_t)c * TSTRIDE, bm)
				    : reel_col_skip(&r->cs[c], bm)) {
			snprintf(whybuf, sizeof(whybuf),
				 "column '%s': bad bitpack data or fewer values than n=%zu",
				 reel_col_names[c], r->chunk_n);
			*why = whybuf;
			return REEL_E_CORRUPT;
		}
	}
	uint64_t q = r->cq, end = r->cend;
	int64_t first = r->seen.first_ns, last = r->seen.last_ns;
	uint64_t bad = cols ? reel_block_cols(r->tmp, bm, r->colbuf, &r->cols, &q, &end, &r->seen,
					      ic, !r->reread)
			    : reel_block_recs(r->tmp, bm, r->recs, &q, &end, &r->seen);
	if (bad) {
		/* the records again, for the message (their times, offsets and
		 * lengths; the summary aside) */
		struct reel_summary scratch = r->seen;
		q = r->cq, end = r->cend;
		reel_block_recs(r->tmp, bm, r->recs, &q, &end, &scratch);
		out_of_bounds(r, r->recs, bm, whybuf, sizeof(whybuf));
		r->seen.first_ns = first;
		r->seen.last_ns = last;
		r->nrec = r->next = 0;
		*why = whybuf;
		return REEL_E_CORRUPT;
	}
	r->seen.count += bm;
	r->cq = q;
	r->cend = end;
	r->chunk_left -= bm;
	if (!r->chunk_left) {
		for (int c = 0; c < C__COUNT; c++) {
			if (r->cs[c].kind >= K_BP && r->cs[c].p != r->cs[c].end) {
				snprintf(whybuf, sizeof(whybuf),
					 "column '%s': more values than n=%zu", reel_col_names[c],
					 r->chunk_n);
				*why = whybuf;
				return REEL_E_CORRUPT;
			}
		}
	}
	r->nrec = cols ? 0 : bm;
	r->next = 0;
	return 0;
}

/* The index's count and its offset of chunk count / 2, when it counts the
 * summary's chunks, 2 or more (reel_reader_halve; proved or not once the
 * halves are read, as the index is only a hint). */
static void read_index(struct reel_reader *r, const msgpack_object *ix, uint64_t chunks)
{
	if (!ix || ix->type != MSGPACK_OBJECT_ARRAY || chunks < 2 || ix->via.array.size != chunks)
		return;
	const msgpack_object *e = &ix->via.array.ptr[chunks / 2];
	int64_t o = e->type == MSGPACK_OBJECT_ARRAY && e->via.array.size
			? reel_mp_int_or(&e->via.array.ptr[0], -1)
			: -1;
	if (o > 0) {
		r->nix = chunks;
		r->ix_half = (uint64_t)o;
	}
}

static int parse_trailer(struct reel_reader *r, const unsigned char *p, size_t len)
{
	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0;
	int rc = REEL_E_CORRUPT;
	if (!reel_mp_sane(p, len) ||
	    msgpack_unpack_next(&u, (const char *)p, len, &off) != MSGPACK_UNPACK_SUCCESS ||
	    u.data.type != MSGPACK_OBJECT_MAP)
		goto out;
	const msgpack_object *s = reel_mp_get(&u.data, "summary");
	struct reel_summary sum;
	memset(&sum, 0, sizeof(sum));
	sum.count = (uint64_t)reel_mp_int_or(reel_mp_get(s, "count"), 0);
	sum.chunks = (uint64_t)reel_mp_int_or(reel_mp_get(s, "chunks"), 0);
	sum.first_ns = reel_mp_int_or(reel_mp_get(s, "first_ns"), 0);
	sum.last_ns = reel_mp_int_or(reel_mp_get(s, "last_ns"), 0);
	if (sum.count && (reel_time_out(sum.first_ns) || reel_time_out(sum.last_ns)))
		goto out; /* out of bounds (FORMAT.md 3.2): not to be trusted */
	const msgpack_object *ops = reel_mp_get(s, "ops"), *bytes = reel_mp_get(s, "bytes");
	for (int i = 0; i < REEL_OP__COUNT; i++) {
		if (ops && ops->type == MSGPACK_OBJECT_ARRAY && (uint32_t)i < ops->via.array.size)
			sum.ops[i] = (uint64_t)reel_mp_int_or(&ops->via.array.ptr[i], 0);
		if (bytes && bytes->type == MSGPACK_OBJECT_ARRAY &&
		    (uint32_t)i < bytes->via.array.size)
			sum.bytes[i] = (uint64_t)reel_mp_int_or(&bytes->via.array.ptr[i], 0);
	}
	if ((rc = read_devices(r, reel_mp_get(&u.data, "devices"))))
		goto out;
	if ((rc = reel_meta_list_read(&r->meta, reel_mp_get(&u.data, "meta"))))
		goto out;
	const msgpack_object *comms = reel_mp_get(&u.data, "comms");
	if (comms && comms->type == MSGPACK_OBJECT_ARRAY)
		for (uint32_t i = 0; i < comms->via.array.size; i++)
			if ((rc = set_comm(r, i, &comms->via.array.ptr[i])))
				goto out;
	read_index(r, reel_mp_get(&u.data, "index"), sum.chunks);
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
	/* its frame's byte, where a whole read steps over it to the end: the
	 * skippable frame's magic and length there (reel_reader_halves_join) */
	unsigned char fh[8];
	off_t at = st.st_size - 16 - (off_t)len;
	if (r->have_trailer && len + 8 <= MAX_FRAME && pread(r->fd, fh, 8, at) == 8 &&
	    get_le32(fh) == SKIP_MAGIC && get_le32(fh + 4) == len + 8)
		r->trailer_at = (uint64_t)at;
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
	r->cols_ic = 1;
	r->range_end = UINT64_MAX;
	r->path = strdup(path);
	r->recs = malloc(BLOCK * sizeof(*r->recs));
	msgpack_unpacked_init(&r->cur);
	r->tmp = malloc((size_t)C__COUNT * TSTRIDE * sizeof(*r->tmp));
	r->hdr.source = r->hdr.source_detail = "";
	if (!r->path || !r->recs || !r->tmp) {
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
	struct stat st = {0};
	if (fstat(r->fd, &st) == 0 && S_ISDIR(st.st_mode))
		return rerr(r, REEL_E_NOTREEL, "is a folder, not a .reel file; name a file in it");
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
		return rerr(r, REEL_E_NOTREEL, "empty file (0 bytes), not a .reel file");
	if (S_ISREG(st.st_mode)) {
		r->st_size = st.st_size;
		r->st_mtim = st.st_mtim;
		r->st_kept = 1;
	}
	/* the read window: 1 MiB, or a small file's size (avail grows it) */
	r->buf_cap = 1 << 20;
	if (S_ISREG(st.st_mode) && st.st_size < (off_t)r->buf_cap)
		r->buf_cap = st.st_size < 4096 ? 4096 : (size_t)st.st_size;
	r->buf = malloc(r->buf_cap);
	if (!r->buf)
		return rerr(r, REEL_E_NOMEM, "out of memory");
	load_trailer(r);
	/* header frame */
	uint64_t cs;
	if (avail(r, 4) < 4 || get_le32(r->buf) != LZ4F_MAGIC)
		return rerr(r, REEL_E_NOTREEL,
			    "not a .reel file (no LZ4 frame at the start); 'ioreel import' "
			    "converts other trace formats");
	long fl = frame_length(r, &cs);
	if (fl <= 0)
		return rerr(r, fl == 0 ? REEL_E_TRUNCATED : REEL_E_CORRUPT, "header frame %s",
			    fl == 0 ? "cut short" : "malformed");
	size_t dl;
	int rc = decode_frame(r, (size_t)fl, cs, &dl);
	if (rc)
		return rerr(r, rc, "header frame: %s", reel_strerror(rc));
	rc = parse_header(r, r->dec, dl);
	if (rc == REEL_E_VERSION)
		return rerr(r, rc,
			    "written by a newer ioreel (format version %u or later "
			    "needed); upgrade ioreel",
			    REEL_FORMAT_VERSION + 1);
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
	free(r->colbuf);
	free(r->tmp);
	msgpack_unpacked_destroy(&r->cur);
	free(r->devs);
	free(r->decl);
	free(r->source);
	free(r->source_detail);
	free(r->path);
	reel_meta_list_free(&r->meta);
	free(r);
}

const struct reel_header *reel_reader_header(const struct reel_reader *r) { return &r->hdr; }

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

/* --salvage: count the bad frame and resume at the next good one; 0 (and
 * the reader done) when there is none. */
static int salvage_skip(struct reel_reader *r)
{
	r->skipped++;
	if (resync(r))
		return 1;
	r->done = 1;
	return 0;
}

/* Load the next chunk into r->recs; 1 loaded, 0 end, <0 error. */
static int next_chunk(struct reel_reader *r)
{
	for (;;) {
		if (r->done)
			return 0;
		if (r->chunk_no == r->range_end) { /* a half's chunks read (reel_reader_halve) */
			r->done = r->range_hit = 1;
			return 0;
		}
		size_t a = avail(r, 8);
		uint64_t at = r->buf_off + r->pos;
		if (a == 0) {
			r->done = 1;
			if (!r->complete)
				rerr(r, 0,
				     "file cut short: no index at the end (the writer did "
				     "not finish); read %llu I/Os in %llu whole chunks up to "
				     "byte %llu",
				     (unsigned long long)r->seen.count,
				     (unsigned long long)r->seen.chunks, (unsigned long long)at);
			return 0;
		}
		if (a < 8) {
			r->done = 1;
			rerr(r, 0,
			     "file cut short at byte %llu after chunk %llu; read %llu I/Os "
			     "in %llu whole chunks",
			     (unsigned long long)at, (unsigned long long)r->chunk_no,
			     (unsigned long long)r->seen.count, (unsigned long long)r->seen.chunks);
			return 0;
		}
		uint32_t magic = get_le32(r->buf + r->pos);
		if (magic == SKIP_MAGIC || (magic & 0xFFFFFFF0u) == 0x184D2A50u) {
			uint32_t len = get_le32(r->buf + r->pos + 4);
			if (len > MAX_FRAME) {
				if (r->flags & REEL_R_SALVAGE) {
					if (!salvage_skip(r))
						return 0;
					continue;
				}
				r->done = 1;
				return rerr(r, REEL_E_CORRUPT,
					    "frame at byte %llu claims %u bytes; "
					    "'ioreel info --salvage' or 'ioreel dump --salvage' "
					    "reads past it",
					    (unsigned long long)at, len);
			}
			if (avail(r, (size_t)len + 8) < (size_t)len + 8) {
				r->done = 1;
				rerr(r, 0,
				     "file cut short inside the index at byte %llu; all "
				     "%llu chunks were read",
				     (unsigned long long)at, (unsigned long long)r->seen.chunks);
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
				rerr(r, 0,
				     "file cut short inside chunk %llu at byte %llu (a crash "
				     "or kill during writing); read %llu I/Os in %llu whole "
				     "chunks before it",
				     (unsigned long long)chunk, (unsigned long long)at,
				     (unsigned long long)r->seen.count,
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
			r->chunk_no++;
			if (!salvage_skip(r))
				return 0;
			continue;
		}
		r->done = 1;
		return rerr(r, rc,
			    "chunk %llu at byte %llu: %s; 'ioreel info --salvage' or "
			    "'ioreel dump --salvage' reads the chunks around it",
			    (unsigned long long)chunk, (unsigned long long)at, why);
	}
}

/* Make r->recs[r->next..r->nrec) non-empty, or with COLS decode the next
 * block into r->cols: 1, 0 at the end, or an error. */
static int fill(struct reel_reader *r, int cols)
{
	if (!cols && r->next < r->nrec)
		return 1;
	for (;;) {
		if (r->chunk_left) {
			const char *why = "";
			int rc = decode_next_block(r, cols, &why);
			if (!rc)
				return 1;
			r->chunk_left = 0;
			if (r->flags & REEL_R_SALVAGE) {
				r->skipped++;
				continue;
			}
			r->done = 1;
			return rerr(r, rc,
				    "chunk %llu at byte %llu: %s; 'ioreel info --salvage' or "
				    "'ioreel dump --salvage' reads the chunks around it",
				    (unsigned long long)r->cur_chunk, (unsigned long long)r->cur_at,
				    why);
		}
		int rc = next_chunk(r);
		if (rc <= 0)
			return rc;
	}
}

long reel_read_chunk(struct reel_reader *r, const struct reel_rec **recs)
{
	int rc = fill(r, 0);
	if (rc <= 0)
		return rc;
	size_t n = r->nrec - r->next;
	*recs = r->recs + r->next;
	r->next = r->nrec;
	return (long)n;
}

int reel_read(struct reel_reader *r, struct reel_rec *rec)
{
	int rc = fill(r, 0);
	if (rc <= 0)
		return rc;
	*rec = r->recs[r->next++];
	return 1;
}

/* The column arrays of r->cols, BLOCK values each (allocated once). */
static int cols_alloc(struct reel_reader *r)
{
	if (r->colbuf)
		return 0;
	unsigned char *p = r->colbuf = malloc(REEL_COLS_SIZE);
	if (!p)
		return REEL_E_NOMEM;
	struct reel_cols *c = &r->cols;
	c->queue_ns = (int64_t *)(p + REEL_COLS_QUEUE);
	c->issue_ns = (int64_t *)(p + REEL_COLS_ISSUE);
	c->complete_ns = (int64_t *)(p + REEL_COLS_COMPLETE);
	c->offset = (uint64_t *)(p + REEL_COLS_OFFSET);
	c->length = (uint32_t *)(p + REEL_COLS_LENGTH);
	c->has = (uint16_t *)(p + REEL_COLS_HAS);
	c->dev = (uint16_t *)(p + REEL_COLS_DEV);
	c->op = (uint8_t *)(p + REEL_COLS_OP);
	return 0;
}

/* The records of r->recs not read yet, as columns. */
static void recs_to_cols(struct reel_reader *r)
{
	struct reel_cols *c = &r->cols;
	size_t n = r->nrec - r->next;
	for (size_t i = 0; i < n; i++) {
		const struct reel_rec *y = &r->recs[r->next + i];
		((uint16_t *)c->has)[i] = y->has;
		((int64_t *)c->queue_ns)[i] = y->queue_ns;
		((int64_t *)c->issue_ns)[i] = y->issue_ns;
		((int64_t *)c->complete_ns)[i] = y->complete_ns;
		((uint64_t *)c->offset)[i] = y->offset;
		((uint32_t *)c->length)[i] = y->length;
		((uint8_t *)c->op)[i] = y->op;
		((uint16_t *)c->dev)[i] = y->dev;
	}
	c->n = n;
	r->next = r->nrec;
}

void reel_reader_cols_ic(struct reel_reader *r, int ic) { r->cols_ic = ic; }

void reel_reader_reread(struct reel_reader *r, int reread) { r->reread = reread; }

long reel_read_cols(struct reel_reader *r, struct reel_cols *c)
{
	if (cols_alloc(r))
		return rerr(r, REEL_E_NOMEM, "out of memory");
	if (r->next < r->nrec) { /* left by reel_read */
		recs_to_cols(r);
	} else {
		int rc = fill(r, 1);
		if (rc <= 0)
			return rc;
	}
	*c = r->cols;
	return (long)c->n;
}

const char *reel_reader_comm(const struct reel_reader *r, uint32_t id)
{
	return id < r->ncomms ? r->comms[id] : NULL;
}

size_t reel_reader_ncomms(const struct reel_reader *r) { return r->ncomms; }

const struct reel_meta *reel_reader_meta(const struct reel_reader *r, const char *key)
{
	return reel_meta_list_find(&r->meta, key);
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

int reel_reader_complete(const struct reel_reader *r) { return r->complete; }

uint64_t reel_reader_skipped(const struct reel_reader *r) { return r->skipped; }

int reel_reader_rewind(struct reel_reader *r)
{
	struct stat st = {0};
	if (r->st_kept &&
	    (fstat(r->fd, &st) || st.st_size != r->st_size ||
	     st.st_mtim.tv_sec != r->st_mtim.tv_sec || st.st_mtim.tv_nsec != r->st_mtim.tv_nsec))
		return rerr(r, REEL_E_IO,
			    "the file changed while it was being read (size %lld -> %lld "
			    "bytes, or its modification time); read it again once "
			    "nothing writes it",
			    (long long)r->st_size, (long long)st.st_size);
	if (lseek(r->fd, 0, SEEK_SET) < 0)
		return rerr(r, REEL_E_IO, "cannot rewind: %s", strerror(errno));
	r->buf_len = r->pos = 0;
	r->buf_off = 0;
	r->eof = r->done = 0;
	r->nrec = r->next = 0;
	r->chunk_left = 0;
	r->chunk_no = 0;
	r->range_end = UINT64_MAX;
	r->range_hit = 0;
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

int reel_reader_halve(struct reel_reader *r, struct reel_reader **later)
{
	*later = NULL;
	int e = reel_reader_rewind(r);
	if (e)
		return e;
	if (!r->trailer_at || r->nix < 2 || !r->st_kept || !strcmp(r->path, "-") ||
	    (r->flags & REEL_R_SALVAGE))
		return REEL_E_ARG;
	struct reel_reader *b;
	struct stat sa, sb;
	e = reel_reader_open(&b, r->path, r->flags);
	/* the same file as R's, as R opened it (another may have replaced it
	 * at its name), and its trailer where R found it */
	if (e || fstat(r->fd, &sa) || fstat(b->fd, &sb) || sa.st_dev != sb.st_dev ||
	    sa.st_ino != sb.st_ino || !b->st_kept || b->st_size != r->st_size ||
	    b->st_mtim.tv_sec != r->st_mtim.tv_sec || b->st_mtim.tv_nsec != r->st_mtim.tv_nsec ||
	    b->trailer_at != r->trailer_at || b->nix != r->nix || b->ix_half != r->ix_half ||
	    lseek(b->fd, (off_t)r->ix_half, SEEK_SET) < 0) {
		reel_reader_close(b);
		return e ? e : REEL_E_ARG;
	}
	b->buf_len = b->pos = 0;
	b->eof = 0;
	b->buf_off = r->ix_half;
	b->chunk_no = r->nix / 2;
	b->range_end = r->nix;
	b->range_decl = 1;
	r->range_end = r->nix / 2;
	*later = b;
	return 0;
}

int reel_reader_halves_join(struct reel_reader *r, const struct reel_reader *later)
{
	struct reel_summary *s = &r->seen;
	const struct reel_summary *b = &later->seen;
	if (!r->range_hit || !later->range_hit || r->buf_off + r->pos != r->ix_half ||
	    later->buf_off + later->pos != r->trailer_at ||
	    s->count + b->count != r->trailer_sum.count)
		return 1;
	for (size_t i = 0; i < later->ndecl; i++) /* as the whole read puts them */
		if (dev_put(r, &later->decl[i]))
			return 1;
	s->count += b->count;
	s->chunks += b->chunks;
	for (int op = 0; op < REEL_OP__COUNT; op++) {
		s->ops[op] += b->ops[op];
		s->bytes[op] += b->bytes[op];
	}
	s->first_ns = b->first_ns < s->first_ns ? b->first_ns : s->first_ns;
	s->last_ns = b->last_ns > s->last_ns ? b->last_ns : s->last_ns;
	r->chunk_no = later->chunk_no;
	r->complete = 1; /* the whole read steps over the trailer at its end */
	return 0;
}
