/*
 * formats/reel_write.c - the .reel writer: streams records into data
 * chunks of up to REEL_CHUNK_MAX, each an LZ4 frame, after a header frame,
 * and ends the file with the index and summary trailer.  Constant memory.
 * formats/FORMAT.md is the normative description of what is written here;
 * the column codec is formats/column_codec.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lz4frame.h>
#include <msgpack.h>

#include "formats/reel_internal.h"

struct name_ent {
	char *name;
	uint32_t id;
	uint64_t chunk_written; /* chunk number + 1 where last listed */
};

struct reel_writer {
	int fd, own_fd;
	char *path;
	uint64_t file_off;
	uint64_t wb_off; /* REEL_W_WRITEBACK: started up to here */
	int writeback;
	int header_done;
	int level;
	struct reel_rec *recs;
	size_t nrec;
	unsigned chunk_has; /* the has bits of the chunk's records, or-ed */
	/* header */
	int64_t start_unix_ns;
	char *source, *source_detail;
	struct reel_device *devs;
	size_t ndevs, devs_cap, devs_written;
	struct meta_list meta;
	size_t meta_written; /* meta entries [0, meta_written) already in a frame */
	uint64_t meta_gen;   /* bumps when an entry already written changes */
	uint64_t meta_gen_written;
	size_t hdr_meta_n;     /* entries in the header frame ... */
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
	} * index;
	size_t nindex, index_cap;
	struct reel_summary sum;
	/* scratch */
	unsigned char *vbuf; /* varints of one column */
	int64_t *cvals;	     /* values of one column */
	char errmsg[512];
	int failed;
	struct wthread *wt; /* REEL_W_THREAD */
};

/* reel_errf with the file's name in front; the writer fails from then on. */
static int werr(struct reel_writer *w, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int werr(struct reel_writer *w, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(w->errmsg, sizeof(w->errmsg), "%s: ", w->path ? w->path : "(fd)");
	reel_verrf(w->errmsg + n, sizeof(w->errmsg) - (size_t)n, fmt, ap);
	va_end(ap);
	w->failed = err;
	return err;
}

int reel_writer_failed(const struct reel_writer *w) { return w->failed; }

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
	if (w->writeback && w->file_off - w->wb_off >= REEL_WRITEBACK_BYTES) {
		/* a hint: a pipe or a file system without it says so, and the
		 * fsync at the end writes it all as before */
		(void)sync_file_range(w->fd, (off_t)w->wb_off, (off_t)(w->file_off - w->wb_off),
				      SYNC_FILE_RANGE_WRITE);
		w->wb_off = w->file_off;
	}
	return 0;
}

/* SB as one LZ4 frame at LEVEL into *OUT (grown as needed, *CAP bytes):
 * its size, or 0 with *WHY set. */
static size_t compress_frame(int level, const msgpack_sbuffer *sb, void **out, size_t *cap,
			     const char **why)
{
	LZ4F_preferences_t pr;
	memset(&pr, 0, sizeof(pr));
	pr.frameInfo.blockSizeID = LZ4F_max4MB;
	pr.frameInfo.blockMode = LZ4F_blockIndependent;
	pr.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
	pr.frameInfo.contentSize = sb->size;
	pr.compressionLevel = level;
	size_t bound = LZ4F_compressFrameBound(sb->size, &pr);
	if (bound > *cap) {
		void *nb = realloc(*out, bound);
		if (!nb) {
			*why = "out of memory compressing a chunk";
			return 0;
		}
		*out = nb;
		*cap = bound;
	}
	size_t n = LZ4F_compressFrame(*out, *cap, sb->data, sb->size, &pr);
	if (LZ4F_isError(n)) {
		*why = LZ4F_getErrorName(n);
		return 0;
	}
	return n;
}

/* Compress sbuf as one LZ4 frame and write it. */
static int write_frame(struct reel_writer *w, const msgpack_sbuffer *sb)
{
	void *out = NULL;
	size_t cap = 0;
	const char *why = "";
	size_t n = compress_frame(w->level, sb, &out, &cap, &why);
	int rc = n ? write_all(w, out, n) : werr(w, REEL_E_IO, "lz4: %s", why);
	free(out);
	return rc;
}

static void pack_device(msgpack_packer *pk, const struct reel_device *d)
{
	msgpack_pack_map(pk, 7);
	reel_mp_pack_str(pk, "id");
	msgpack_pack_uint16(pk, d->id);
	reel_mp_pack_str(pk, "name");
	reel_mp_pack_str(pk, d->name);
	reel_mp_pack_str(pk, "major");
	msgpack_pack_uint32(pk, d->major);
	reel_mp_pack_str(pk, "minor");
	msgpack_pack_uint32(pk, d->minor);
	reel_mp_pack_str(pk, "lbs");
	msgpack_pack_uint32(pk, d->lbs);
	reel_mp_pack_str(pk, "pbs");
	msgpack_pack_uint32(pk, d->pbs);
	reel_mp_pack_str(pk, "capacity");
	msgpack_pack_uint64(pk, d->capacity);
}

static int write_header(struct reel_writer *w)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 8);
	reel_mp_pack_str(&pk, "format");
	reel_mp_pack_str(&pk, "ioreel");
	reel_mp_pack_str(&pk, "version");
	msgpack_pack_uint32(&pk, REEL_FORMAT_VERSION);
	reel_mp_pack_str(&pk, "time_unit");
	reel_mp_pack_str(&pk, "ns");
	reel_mp_pack_str(&pk, "start_unix_ns");
	msgpack_pack_int64(&pk, w->start_unix_ns);
	reel_mp_pack_str(&pk, "source");
	reel_mp_pack_str(&pk, w->source ? w->source : "");
	reel_mp_pack_str(&pk, "source_detail");
	reel_mp_pack_str(&pk, w->source_detail ? w->source_detail : "");
	reel_mp_pack_str(&pk, "devices");
	msgpack_pack_array(&pk, w->ndevs);
	for (size_t i = 0; i < w->ndevs; i++)
		pack_device(&pk, &w->devs[i]);
	reel_mp_pack_str(&pk, "meta");
	reel_meta_list_pack(&pk, &w->meta, 0);
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
	if (REEL_VEC_RESERVE(w->names, w->nnames, w->names_cap, 64))
		return REEL_E_NOMEM;
	struct name_ent *e = &w->names[w->nnames];
	e->name = strdup(tmp);
	if (!e->name)
		return REEL_E_NOMEM;
	e->id = (uint32_t)w->nnames;
	e->chunk_written = 0;
	w->htab[h] = (uint32_t)w->nnames + 1;
	return (int64_t)w->nnames++;
}

/* The chunk's map up to its columns, into SB: n, seq, the process names
 * first listed in it (or not since the previous chunk), new devices and
 * metadata. */
static void chunk_head(struct reel_writer *w, msgpack_sbuffer *sb)
{
	msgpack_packer pk;
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	uint64_t cno = w->sum.chunks + 1;
	size_t nnew = 0;
	/* the records' names looked for only where one has a name (not a
	 * generated trace's: a pass over its 3.7 MB saved) */
	for (size_t i = 0; (w->chunk_has & REEL_HAS_COMM) && i < w->nrec; i++) {
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
	reel_mp_pack_str(&pk, "n");
	msgpack_pack_uint32(&pk, (uint32_t)w->nrec);
	reel_mp_pack_str(&pk, "seq");
	msgpack_pack_uint64(&pk, w->sum.chunks);
	if (nnew) {
		reel_mp_pack_str(&pk, "comms");
		msgpack_pack_array(&pk, nnew * 2);
		for (size_t i = 0; i < w->nnames; i++) {
			if (w->names[i].chunk_written != cno)
				continue;
			msgpack_pack_uint32(&pk, w->names[i].id);
			reel_mp_pack_str(&pk, w->names[i].name);
		}
	}
	if (ndev_new) {
		reel_mp_pack_str(&pk, "devices");
		msgpack_pack_array(&pk, (size_t)ndev_new);
		for (size_t i = w->devs_written; i < w->ndevs; i++)
			pack_device(&pk, &w->devs[i]);
	}
	if (meta_changed) {
		reel_mp_pack_str(&pk, "meta");
		reel_meta_list_pack(&pk, &w->meta,
				    w->meta_gen_written != w->meta_gen ? 0 : w->meta_written);
	}
}

/* The chunk's columns of RECS[0, N) after its head in SB ("cols": a map of
 * the columns not all zero); CVALS and VBUF the codec's scratch. */
static void chunk_cols(msgpack_sbuffer *sb, const struct reel_rec *recs, size_t n, int64_t *cvals,
		       unsigned char *vbuf)
{
	msgpack_sbuffer cb;
	msgpack_packer cpk, pk;
	msgpack_sbuffer_init(&cb);
	msgpack_packer_init(&cpk, &cb, msgpack_sbuffer_write);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	int ncols = 0;
	unsigned same = 0, zero = n ? reel_col_zero(recs, n, &same) : 0;
	for (int c = 0; n && c < C__COUNT; c++) {
		int packed = 1;
		if ((zero >> c) & 1) /* all zero: not packed */
			continue;
		if ((same >> c) & 1) /* one value: a bare integer */
			reel_col_pack_same(&cpk, c, recs);
		else
			reel_col_pack(&cpk, c, recs, n, cvals, vbuf, &packed);
		ncols += packed;
	}
	reel_mp_pack_str(&pk, "cols");
	msgpack_pack_map(&pk, (size_t)ncols);
	msgpack_sbuffer_write(sb, cb.data, cb.size);
	msgpack_sbuffer_destroy(&cb);
}

/* A chunk written at OFF: its index entry; the writer's chunk done. */
static int chunk_done(struct reel_writer *w, uint64_t off, uint32_t n, int64_t first, int64_t last)
{
	if (REEL_VEC_RESERVE(w->index, w->nindex, w->index_cap, 64))
		return werr(w, REEL_E_NOMEM, "out of memory");
	w->index[w->nindex].off = off;
	w->index[w->nindex].n = n;
	w->index[w->nindex].first = first;
	w->index[w->nindex].last = last;
	w->nindex++;
	return 0;
}

/* ---- packing and compressing on a second thread (REEL_W_THREAD) ---------- */
/* One chunk in flight: the caller hands over its records (swapping record
 * buffers) and the chunk's head, the thread adds the columns and
 * compresses; the caller writes the frame when it hands over the next one,
 * flushes or closes, so the file, its offsets and errors stay the caller's. */
struct wthread {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int running, posted, done, stop;
	struct reel_rec *recs; /* the chunk's records (the caller fills the other buffer) */
	size_t nrec;
	int level;
	uint32_t n; /* its index entry */
	int64_t first, last;
	msgpack_sbuffer sb;
	void *out;
	size_t outcap, outn;
	const char *why;
	int64_t *cvals;
	unsigned char *vbuf;
};

static void *wthread_main(void *arg)
{
	struct wthread *t = arg;
	pthread_mutex_lock(&t->mu);
	for (;;) {
		while (!t->stop && (!t->posted || t->done))
			pthread_cond_wait(&t->cv, &t->mu);
		if (t->stop)
			break;
		pthread_mutex_unlock(&t->mu);
		chunk_cols(&t->sb, t->recs, t->nrec, t->cvals, t->vbuf);
		t->outn = compress_frame(t->level, &t->sb, &t->out, &t->outcap, &t->why);
		pthread_mutex_lock(&t->mu);
		t->done = 1;
		pthread_cond_broadcast(&t->cv);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

static int wthread_start(struct reel_writer *w)
{
	struct wthread *t = calloc(1, sizeof(*t));
	if (!t)
		return REEL_E_NOMEM;
	t->recs = malloc(REEL_CHUNK_MAX * sizeof(*t->recs));
	t->cvals = malloc((size_t)REEL_CHUNK_MAX * sizeof(*t->cvals));
	t->vbuf = malloc(REEL_COL_VBUF(REEL_CHUNK_MAX));
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	msgpack_sbuffer_init(&t->sb);
	w->wt = t;
	if (!t->recs || !t->cvals || !t->vbuf || pthread_create(&t->th, NULL, wthread_main, t))
		return REEL_E_NOMEM;
	t->running = 1;
	return 0;
}

static void wthread_free(struct wthread *t)
{
	if (!t)
		return;
	if (t->running) {
		pthread_mutex_lock(&t->mu);
		t->stop = 1;
		pthread_cond_broadcast(&t->cv);
		pthread_mutex_unlock(&t->mu);
		pthread_join(t->th, NULL);
	}
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	msgpack_sbuffer_destroy(&t->sb);
	free(t->recs);
	free(t->cvals);
	free(t->vbuf);
	free(t->out);
	free(t);
}

/* Wait for the chunk in flight, if any, and write it. */
static int wthread_finish(struct reel_writer *w)
{
	struct wthread *t = w->wt;
	if (!t || !t->posted)
		return 0;
	pthread_mutex_lock(&t->mu);
	while (!t->done)
		pthread_cond_wait(&t->cv, &t->mu);
	t->posted = 0;
	pthread_mutex_unlock(&t->mu);
	if (!t->outn)
		return werr(w, REEL_E_IO, "lz4: %s", t->why);
	uint64_t off = w->file_off;
	int rc = write_all(w, t->out, t->outn);
	return rc ? rc : chunk_done(w, off, t->n, t->first, t->last);
}

/* The chunk of w->recs to the thread, its head packed here. */
static int wthread_post(struct reel_writer *w)
{
	struct wthread *t = w->wt;
	int rc = wthread_finish(w);
	if (rc)
		return rc;
	msgpack_sbuffer_clear(&t->sb);
	chunk_head(w, &t->sb);
	struct reel_rec *x = t->recs;
	t->recs = w->recs;
	w->recs = x;
	t->nrec = w->nrec;
	t->level = w->level;
	t->n = (uint32_t)t->nrec;
	t->first = t->nrec ? t->recs[0].queue_ns : 0;
	t->last = t->nrec ? t->recs[t->nrec - 1].queue_ns : 0;
	pthread_mutex_lock(&t->mu);
	t->posted = 1;
	t->done = 0;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
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
	if (w->wt) {
		int rc = wthread_post(w);
		if (rc)
			return rc;
	} else {
		msgpack_sbuffer sb;
		msgpack_sbuffer_init(&sb);
		chunk_head(w, &sb);
		chunk_cols(&sb, w->recs, w->nrec, w->cvals, w->vbuf);
		uint64_t off = w->file_off;
		int rc = write_frame(w, &sb);
		msgpack_sbuffer_destroy(&sb);
		if (rc ||
		    (rc = chunk_done(w, off, (uint32_t)w->nrec, w->nrec ? w->recs[0].queue_ns : 0,
				     w->nrec ? w->recs[w->nrec - 1].queue_ns : 0)))
			return rc;
	}
	w->sum.chunks++;
	w->nrec = 0;
	w->chunk_has = 0;
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
	w->vbuf = malloc(REEL_COL_VBUF(REEL_CHUNK_MAX));
	w->cvals = malloc((size_t)REEL_CHUNK_MAX * sizeof(*w->cvals));
	w->path = path ? strdup(path) : NULL;
	w->level = 9;
	w->fd = -1;
	w->writeback = !!(flags & REEL_W_WRITEBACK);
	const char *lvl = getenv("IOREEL_LZ4_LEVEL");
	if (lvl)
		w->level = atoi(lvl);
	if (!w->recs || !w->vbuf || !w->cvals || (path && !w->path) ||
	    ((flags & REEL_W_THREAD) && wthread_start(w)))
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
		int of =
		    O_WRONLY | O_CREAT | O_CLOEXEC | (flags & REEL_W_OVERWRITE ? O_TRUNC : O_EXCL);
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

/* Within the bounds of FORMAT.md 3.2 (what the reader accepts)? */
static int rec_in_bounds(const struct reel_rec *r)
{
	return !(r->has & REEL_HAS_QUEUE && reel_time_out(r->queue_ns)) &&
	       !(r->has & REEL_HAS_ISSUE && reel_time_out(r->issue_ns)) &&
	       !(r->has & REEL_HAS_COMPLETE && reel_time_out(r->complete_ns)) &&
	       r->offset <= REEL_END_LIMIT - r->length;
}

/* A chunk's room of records (K of the M tried) copied: the writer's sums
 * and count, the record out of bounds (K < M) failed, a full chunk written
 * (reel_write_n's and reel_write_q's end of a pass). */
static int write_n_end(struct reel_writer *w, size_t k, size_t m, uint16_t has, int64_t first,
		       int64_t last, const uint64_t *ops, const uint64_t *bytes)
{
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		w->sum.ops[o] += ops[o];
		w->sum.bytes[o] += bytes[o];
	}
	w->nrec += k;
	w->chunk_has |= has;
	w->sum.count += k;
	w->sum.first_ns = first;
	w->sum.last_ns = last;
	if (k < m)
		return werr(w, REEL_E_ARG,
			    "record %llu: a time beyond +-2^62 ns or offset + length beyond "
			    "2^63 (FORMAT.md 3.2)",
			    (unsigned long long)w->sum.count);
	if (w->nrec == REEL_CHUNK_MAX)
		return write_chunk(w);
	return 0;
}

int reel_write_n(struct reel_writer *w, const struct reel_rec *r, size_t n)
{
	/* a chunk's room at a time: the records copied and counted in one
	 * loop, the writer's sums in registers (gen's writer thread: 59
	 * instructions a record one by one) */
	while (n) {
		if (w->failed)
			return w->failed;
		size_t m = REEL_CHUNK_MAX - w->nrec, k = 0;
		m = m < n ? m : n;
		struct reel_rec *d = w->recs + w->nrec;
		uint16_t has = 0;
		int64_t first = w->sum.first_ns, last = w->sum.last_ns;
		uint64_t ops[REEL_OP__COUNT] = {0}, bytes[REEL_OP__COUNT] = {0};
		for (; k < m && rec_in_bounds(&r[k]); k++) {
			struct reel_rec x = r[k];
			d[k] = x;
			has |= x.has;
			if (x.op < REEL_OP__COUNT) {
				ops[x.op]++;
				bytes[x.op] += x.length;
			}
			int64_t t = x.has & REEL_HAS_QUEUE ? x.queue_ns : x.issue_ns;
			first = t < first ? t : first;
			last = t > last ? t : last;
		}
		int rc = write_n_end(w, k, m, has, first, last, ops, bytes);
		if (rc)
			return rc;
		r += k;
		n -= k;
	}
	return 0;
}

int reel_write_q(struct reel_writer *w, const struct reel_rec_q *q, size_t n)
{
	/* reel_write_n's loop on the records' five fields: rec_in_bounds of
	 * a record with only a queue time, its has and first / last of the
	 * queue times */
	while (n) {
		if (w->failed)
			return w->failed;
		size_t m = REEL_CHUNK_MAX - w->nrec, k = 0;
		m = m < n ? m : n;
		struct reel_rec *d = w->recs + w->nrec;
		int64_t first = w->sum.first_ns, last = w->sum.last_ns;
		uint64_t ops[REEL_OP__COUNT] = {0}, bytes[REEL_OP__COUNT] = {0};
		for (; k < m; k++) {
			struct reel_rec_q x = q[k];
			if (reel_time_out(x.queue_ns) || x.offset > REEL_END_LIMIT - x.length)
				break;
			reel_rec_of_q(&x, &d[k]);
			if (x.op < REEL_OP__COUNT) {
				ops[x.op]++;
				bytes[x.op] += x.length;
			}
			first = x.queue_ns < first ? x.queue_ns : first;
			last = x.queue_ns > last ? x.queue_ns : last;
		}
		int rc = write_n_end(w, k, m, k ? REEL_HAS_QUEUE | REEL_HAS_DEV : 0, first, last,
				     ops, bytes);
		if (rc)
			return rc;
		q += k;
		n -= k;
	}
	return 0;
}

int reel_write(struct reel_writer *w, const struct reel_rec *r) { return reel_write_n(w, r, 1); }

int reel_writer_add_device(struct reel_writer *w, const struct reel_device *d)
{
	for (size_t i = 0; i < w->ndevs; i++)
		if (w->devs[i].id == d->id)
			return REEL_E_ARG;
	if (REEL_VEC_RESERVE(w->devs, w->ndevs, w->devs_cap, 8))
		return REEL_E_NOMEM;
	w->devs[w->ndevs] = *d;
	w->devs[w->ndevs].name[sizeof(d->name) - 1] = 0;
	w->ndevs++;
	return 0;
}

static int wmeta(struct reel_writer *w, const char *key, enum reel_meta_type t, const char *s,
		 int64_t i, double d)
{
	struct reel_meta *e = reel_meta_list_find(&w->meta, key);
	if (e && (size_t)(e - w->meta.v) < w->meta_written)
		w->meta_gen++;
	return reel_meta_list_set(&w->meta, key, t, s, s ? strlen(s) : 0, i, d);
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
	int rc = write_chunk(w);
	return rc ? rc : wthread_finish(w);
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
	reel_mp_pack_str(&pk, "summary");
	msgpack_pack_map(&pk, 6);
	reel_mp_pack_str(&pk, "count");
	msgpack_pack_uint64(&pk, w->sum.count);
	reel_mp_pack_str(&pk, "chunks");
	msgpack_pack_uint64(&pk, w->sum.chunks);
	reel_mp_pack_str(&pk, "first_ns");
	msgpack_pack_int64(&pk, w->sum.count ? w->sum.first_ns : 0);
	reel_mp_pack_str(&pk, "last_ns");
	msgpack_pack_int64(&pk, w->sum.count ? w->sum.last_ns : 0);
	reel_mp_pack_str(&pk, "ops");
	msgpack_pack_array(&pk, REEL_OP__COUNT);
	for (int i = 0; i < REEL_OP__COUNT; i++)
		msgpack_pack_uint64(&pk, w->sum.ops[i]);
	reel_mp_pack_str(&pk, "bytes");
	msgpack_pack_array(&pk, REEL_OP__COUNT);
	for (int i = 0; i < REEL_OP__COUNT; i++)
		msgpack_pack_uint64(&pk, w->sum.bytes[i]);
	reel_mp_pack_str(&pk, "index");
	msgpack_pack_array(&pk, w->nindex);
	for (size_t i = 0; i < w->nindex; i++) {
		msgpack_pack_array(&pk, 4);
		msgpack_pack_uint64(&pk, w->index[i].off);
		msgpack_pack_uint32(&pk, w->index[i].n);
		msgpack_pack_int64(&pk, w->index[i].first);
		msgpack_pack_int64(&pk, w->index[i].last);
	}
	/* the metadata not already in the header (all of it if any changed) */
	reel_mp_pack_str(&pk, "meta");
	reel_meta_list_pack(&pk, &w->meta, w->meta_gen == w->hdr_meta_gen ? w->hdr_meta_n : 0);
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
	wthread_free(w->wt);
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
	reel_meta_list_free(&w->meta);
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
		rc = wthread_finish(w);
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
