/*
 * replay/setup.c - everything a replay does before its first I/O.
 *
 * A first pass streams through the trace to measure it (extent and
 * alignment per device, which times it has, the original queue depth);
 * then the queue depth is resolved, trace devices are mapped to targets,
 * the targets are opened and checked against what the trace needs, and
 * the engine, the data generator and the bounded buffers (window, slots,
 * result ring) are made.  The scheduler (schedule.c) takes it from there.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "replay/run_internal.h"

/* Instantaneous original in-flight count at x's point (earlier records
 * still open, and x); x joins the set when it has a completion time. */
static int inflight_at(struct run *r, const struct reel_rec *x, unsigned *out)
{
	int64_t p = point_of(r, x);
	while (r->qd_heap.n && time_heap_top(&r->qd_heap)->k <= p)
		time_heap_pop(&r->qd_heap);
	*out = (unsigned)r->qd_heap.n + 1;
	if (x->has & REEL_HAS_COMPLETE && x->complete_ns > p && r->qd_heap.n < (1u << 22))
		return time_heap_push(&r->qd_heap, (struct time_ent){x->complete_ns, 0});
	return 0;
}

/*
 * --qd original: the cap at a point is the most the original had in flight
 * within QD_WINDOW_NS either side of it (whole buckets of that width: the
 * point's bucket and its two neighbours), not the instantaneous count.
 * An instantaneous cap forces a full drain whenever the original happened
 * to be idle at an arrival (fio at iodepth 8 reaps a batch, then queues
 * the next: 1 in flight at its first I/O), and the replay, whose
 * completions never fall exactly where the original's did, falls behind.
 * Over a window, an I/O is never held back where the original had room.
 * Records without a completion time count as QD_UNKNOWN around them.
 */
#define QD_WINDOW_NS 1000000
#define QD_MAX_BUCKETS (1u << 22)
#define QD_UNKNOWN 32u

int orig_inflight(struct run *r, const struct reel_rec *x, unsigned *out)
{
	*out = 1;
	if (!r->qd_prof)
		return 0;
	int64_t p = point_of(r, x);
	size_t b = p <= r->first_t ? 0 : (size_t)((p - r->first_t) / r->qd_bucket);
	if (b >= r->qd_nb)
		b = r->qd_nb - 1;
	unsigned m = r->qd_prof[b];
	if (b > 0 && r->qd_prof[b - 1] > m)
		m = r->qd_prof[b - 1];
	if (b + 1 < r->qd_nb && r->qd_prof[b + 1] > m)
		m = r->qd_prof[b + 1];
	*out = m ? m : 1;
	return 0;
}

/* A pass over the trace filling r->qd_prof; the reader is rewound. */
static int build_qd_profile(struct run *r)
{
	int64_t span = r->last_t - r->first_t;
	r->qd_bucket = QD_WINDOW_NS;
	if (span / r->qd_bucket >= QD_MAX_BUCKETS)
		r->qd_bucket = span / (QD_MAX_BUCKETS - 1) + 1;
	r->qd_nb = (size_t)(span / r->qd_bucket) + 1;
	r->qd_prof = calloc(r->qd_nb, sizeof(*r->qd_prof));
	if (!r->qd_prof)
		return reel_errf(r->err, r->errlen, REEL_E_NOMEM, "out of memory");
	const struct reel_rec *v;
	long n;
	while ((n = reel_read_chunk(r->rd, &v)) > 0)
		for (long i = 0; i < n; i++) {
			unsigned inf;
			if (inflight_at(r, &v[i], &inf) < 0)
				return reel_errf(r->err, r->errlen, REEL_E_NOMEM,
						 "out of memory measuring the trace's queue depth");
			if (!(v[i].has & REEL_HAS_COMPLETE) && inf < QD_UNKNOWN)
				inf = QD_UNKNOWN;
			int64_t p = point_of(r, &v[i]);
			size_t b = p <= r->first_t ? 0 : (size_t)((p - r->first_t) / r->qd_bucket);
			if (b >= r->qd_nb)
				b = r->qd_nb - 1;
			if (inf > 65535)
				inf = 65535;
			if (inf > r->qd_prof[b])
				r->qd_prof[b] = (uint16_t)inf;
		}
	r->qd_heap.n = 0;
	if (n < 0)
		return reel_errf(r->err, r->errlen, (int)n, "%s", reel_reader_errmsg(r->rd));
	int rc = reel_reader_rewind(r->rd);
	return rc < 0 ? reel_errf(r->err, r->errlen, rc, "%s", reel_reader_errmsg(r->rd)) : 0;
}

/* Tell the caller something it should know (o->notice), printf-style. */
static void notice(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void notice(struct run *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	if (!r->o->notice)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->o->notice(msg, r->o->notice_arg);
}

/* ---- first pass -------------------------------------------------------- */
struct devscan {
	uint64_t max_end;
	uint64_t count;
	uint64_t orbits;		    /* OR of offsets and lengths: their common alignment */
	uint64_t first_mis512, first_mis4k; /* record index + 1 */
	uint64_t writes;
	uint32_t max_len; /* longest read or write */
};

/* Extent, alignment and writes of one data I/O (record index idx). */
static void scan_extent(struct devscan *d, const struct reel_rec *x, uint64_t idx)
{
	if (x->op != REEL_OP_READ)
		d->writes++;
	uint64_t end = x->offset + x->length;
	if (end > d->max_end)
		d->max_end = end;
	uint64_t b = x->offset | x->length;
	d->orbits |= b;
	if ((b & 511) && !d->first_mis512)
		d->first_mis512 = idx + 1;
	if ((b & 4095) && !d->first_mis4k)
		d->first_mis4k = idx + 1;
	if ((x->op == REEL_OP_READ || x->op == REEL_OP_WRITE) && x->length > d->max_len)
		d->max_len = x->length;
}

static int first_pass(struct run *r, struct devscan *ds)
{
	const struct reel_rec *v;
	long n;
	uint64_t idx = 0;
	int64_t p0 = 0, top = 0, mi = r->o->max_idle_ns;
	r->first_t = INT64_MAX;
	r->last_t = INT64_MIN;
	r->all_issue = r->all_complete = r->all_queue = 1;
	while ((n = reel_read_chunk(r->rd, &v)) > 0) {
		for (long i = 0; i < n; i++, idx++) {
			const struct reel_rec *x = &v[i];
			struct devscan *d = &ds[x->dev];
			d->count++;
			if (!(x->has & REEL_HAS_ISSUE))
				r->all_issue = 0;
			if (!(x->has & REEL_HAS_COMPLETE))
				r->all_complete = 0;
			else
				r->n_complete++;
			if (!(x->has & REEL_HAS_QUEUE))
				r->all_queue = 0;
			int64_t p = point_of(r, x);
			if (p < r->first_t)
				r->first_t = p;
			if (p > r->last_t)
				r->last_t = p;
			/* --max-idle: what schedule.c's idle_cut() will cut, each gap
			 * past the latest point so far (the first one's: below) */
			if (!idx)
				p0 = top = p;
			else if (p - top > mi && mi > 0)
				r->res->idle_cut_ns += p - top - mi;
			top = p > top ? p : top;
			unsigned inf;
			if (inflight_at(r, x, &inf) < 0)
				return reel_errf(r->err, r->errlen, REEL_E_NOMEM,
						 "out of memory measuring the trace's queue depth");
			if (inf > r->orig_max_inflight)
				r->orig_max_inflight = inf;
			if (is_data_op(x->op) && x->length)
				scan_extent(d, x, idx);
			if (x->length > r->max_len)
				r->max_len = x->length;
		}
	}
	if (n < 0)
		return reel_errf(r->err, r->errlen, (int)n, "%s", reel_reader_errmsg(r->rd));
	r->total = idx;
	r->qd_heap.n = 0;
	if (idx && mi > 0 && p0 - r->first_t > mi)
		r->res->idle_cut_ns += p0 - r->first_t - mi;
	if (!idx)
		return reel_errf(r->err, r->errlen, REEL_E_ARG,
				 "%s: the trace has no I/O to replay", r->o->trace);
	int rc = reel_reader_rewind(r->rd);
	if (rc < 0)
		return reel_errf(r->err, r->errlen, rc, "%s", reel_reader_errmsg(r->rd));
	return 0;
}

/* ---- targets ----------------------------------------------------------- */
static void sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	buf[0] = 0;
	if (!f)
		return;
	if (fgets(buf, (int)len, f)) {
		size_t n = strlen(buf);
		while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
			buf[--n] = 0;
	}
	fclose(f);
}

/* A block device: size, block sizes, kernel name and model from sysfs. */
static int probe_blk(struct run *r, struct target *t, const struct stat *st)
{
	int lbs = 512;
	unsigned pbs = 512;
	t->is_blk = 1;
	if (ioctl(t->fd, BLKGETSIZE64, &t->size) < 0)
		return reel_errf(r->err, r->errlen, -errno, "%s: BLKGETSIZE64: %s", t->path,
				 strerror(errno));
	if (ioctl(t->fd, BLKSSZGET, &lbs) == 0)
		t->lbs = (uint32_t)lbs;
	if (ioctl(t->fd, BLKPBSZGET, &pbs) == 0)
		t->pbs = pbs;
	char p[256], link[256];
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(st->st_rdev), minor(st->st_rdev));
	ssize_t n = readlink(p, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = 0;
		const char *kn = strrchr(link, '/');
		snprintf(t->name, sizeof(t->name), "%.63s", kn ? kn + 1 : link);
	}
	snprintf(p, sizeof(p), "/sys/class/block/%s/device/model", t->name);
	sysfs_read(p, t->model, sizeof(t->model));
	if (!t->model[0]) {
		snprintf(p, sizeof(p), "/sys/class/block/%s/loop/backing_file", t->name);
		char bf[100];
		sysfs_read(p, bf, sizeof(bf));
		if (bf[0])
			snprintf(t->model, sizeof(t->model), "loop over %s", bf);
	}
	return 0;
}

/* A regular file: its size, and the alignment O_DIRECT needs there. */
static void probe_file(struct run *r, struct target *t, const struct stat *st)
{
	t->size = (uint64_t)st->st_size;
	t->lbs = 512;
	t->pbs = (uint32_t)st->st_blksize;
#ifdef STATX_DIOALIGN
	struct statx sx;
	if (!r->o->buffered && statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
	    (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align)
		t->lbs = sx.stx_dio_offset_align;
#endif
	snprintf(t->model, sizeof(t->model), "file");
}

static int open_target(struct run *r, struct target *t, int will_write)
{
	const struct replay_opts *o = r->o;
	struct replay_safety_opts so = {will_write, o->destroy_name, o->overwrite, o->destroy_names,
					o->ndestroy};
	int rc = replay_safety_check(t->path, &so, &t->created, r->err, r->errlen);
	if (rc < 0)
		return rc;
	if (t->created && o->read_only)
		return reel_errf(r->err, r->errlen, REEL_E_ARG,
				 "%s does not exist, and --read-only creates nothing: name an "
				 "existing device or file",
				 t->path);
	int flags = (will_write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	if (!o->buffered)
		flags |= O_DIRECT;
	if (t->created)
		flags |= O_CREAT | O_EXCL | O_RDWR;
	struct stat st;
	if (!t->created && stat(t->path, &st) == 0 && S_ISBLK(st.st_mode) && will_write)
		flags |= O_EXCL; /* the kernel refuses if mounted or claimed meanwhile */
	t->fd = open(t->path, flags, 0644);
	if (t->fd < 0 && errno == EINVAL && !o->buffered)
		return reel_errf(
		    r->err, r->errlen, -EINVAL,
		    "%s: O_DIRECT is not supported here (tmpfs or similar): replay with "
		    "--buffered or use another target",
		    t->path);
	if (t->fd < 0)
		return reel_errf(
		    r->err, r->errlen, -errno, "%s: cannot open: %s%s", t->path, strerror(errno),
		    errno == EBUSY ? " (in use: mounted or claimed by another device)" : "");
	if (t->created)
		replay_safety_mark_created(t->fd);
	if (fstat(t->fd, &st) < 0)
		return reel_errf(r->err, r->errlen, -errno, "%s: %s", t->path, strerror(errno));
	const char *b = strrchr(t->path, '/');
	snprintf(t->name, sizeof(t->name), "%.63s", b ? b + 1 : t->path);
	if (S_ISBLK(st.st_mode)) {
		if ((rc = probe_blk(r, t, &st)) < 0)
			return rc;
		/* the safety probe (libblkid) read the device's start and end
		 * through the page cache: drop those pages, long before time
		 * zero, so the replay meets the device as the trace did */
		posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
	} else {
		probe_file(r, t, &st);
	}
	if (!t->lbs)
		t->lbs = 512;
	return 0;
}

/* Index of path among the targets, added when new; < 0 when full. */
static int target_add(struct run *r, const char *path)
{
	unsigned k;
	for (k = 0; k < r->ntg; k++)
		if (!strcmp(r->tg[k].path, path))
			return (int)k;
	if (r->ntg >= REPLAY_MAX_TARGETS)
		return reel_errf(r->err, r->errlen, REEL_E_RANGE, "too many targets (at most %d)",
				 REPLAY_MAX_TARGETS);
	r->tg[r->ntg++].path = path;
	return (int)k;
}

/* Without --map, trace devices go to the targets in order of device id. */
static int map_in_order(struct run *r, const struct devscan *ds)
{
	unsigned used = 0;
	char list[256] = "";
	for (unsigned d = 0; d < MAX_DEVS; d++) {
		if (!ds[d].count)
			continue;
		if (used < r->ntg)
			r->devmap[d] = (int32_t)used;
		size_t l = strlen(list);
		if (l < sizeof(list) - 16)
			snprintf(list + l, sizeof(list) - l, "%s%u", l ? ", " : "", d);
		used++;
	}
	if (used > r->ntg)
		return reel_errf(
		    r->err, r->errlen, REEL_E_ARG,
		    "%s: the trace uses %u devices (ids %s) but %u target%s given: give "
		    "one target per device (--target A,B,...) or choose with --map ID=PATH",
		    r->o->trace, used, list, r->ntg, r->ntg == 1 ? " was" : "s were");
	return 0;
}

static int map_devices(struct run *r, const struct devscan *ds)
{
	const struct replay_opts *o = r->o;
	for (unsigned i = 0; i < MAX_DEVS; i++)
		r->devmap[i] = -1;
	/* targets: --target list, then --map paths not already listed */
	for (size_t i = 0; i < o->ntargets; i++) {
		unsigned before = r->ntg;
		int k = target_add(r, o->targets[i]);
		if (k < 0)
			return k;
		if (r->ntg == before)
			return reel_errf(
			    r->err, r->errlen, REEL_E_ARG,
			    "--target %s is given twice: name each target once (use --map "
			    "to send several trace devices to one place)",
			    o->targets[i]);
	}
	for (size_t m = 0; m < o->nmaps; m++) {
		int k = target_add(r, o->maps[m].path);
		if (k < 0)
			return k;
		if (o->maps[m].trace_dev < 0 || o->maps[m].trace_dev >= MAX_DEVS)
			return reel_errf(r->err, r->errlen, REEL_E_ARG,
					 "--map %d=%s: device id out of range",
					 o->maps[m].trace_dev, o->maps[m].path);
		r->devmap[o->maps[m].trace_dev] = (int32_t)k;
	}
	if (!r->ntg)
		return reel_errf(r->err, r->errlen, REEL_E_ARG,
				 "no target: give --target PATH[,PATH...]");
	if (o->nmaps)
		return 0; /* explicit: unmapped devices are skipped */
	return map_in_order(r, ds);
}

/* What the trace devices mapped to target t need of it. */
struct need {
	int will_write;
	uint64_t orbits, mis512, mis4k;
};

static struct need target_need(struct run *r, unsigned t, const struct devscan *ds)
{
	struct need nd = {0, 0, 0, 0};
	struct target *tg = &r->tg[t];
	for (unsigned d = 0; d < MAX_DEVS; d++) {
		if (r->devmap[d] != (int32_t)t || !ds[d].count)
			continue;
		if (ds[d].max_end > tg->need)
			tg->need = ds[d].max_end;
		if (ds[d].writes && !r->o->read_only)
			nd.will_write = 1;
		nd.orbits |= ds[d].orbits;
		if (ds[d].first_mis512 && (!nd.mis512 || ds[d].first_mis512 < nd.mis512))
			nd.mis512 = ds[d].first_mis512;
		if (ds[d].first_mis4k && (!nd.mis4k || ds[d].first_mis4k < nd.mis4k))
			nd.mis4k = ds[d].first_mis4k;
	}
	if (r->o->precondition && !r->o->read_only)
		nd.will_write = 1;
	return nd;
}

/* Open target t, grow it when it is a file, refuse what will not fit. */
static int check_target(struct run *r, unsigned t, const struct devscan *ds)
{
	const struct replay_opts *o = r->o;
	struct target *tg = &r->tg[t];
	struct need nd = target_need(r, t, ds);
	int rc = open_target(r, tg, nd.will_write);
	if (rc < 0)
		return rc;
	/* a file grows to what the trace needs when ioreel made it, or under
	 * --fit fail; --fit wrap and scale keep its size and fit the offsets */
	if (tg->created ||
	    (!tg->is_blk && nd.will_write && tg->size < tg->need && o->fit == REPLAY_FIT_FAIL)) {
		uint64_t sz = (tg->need + 1048575) & ~1048575ull;
		double g = (double)sz / 1073741824.0;
		if (tg->created)
			notice(r,
			       "creating %s: %.*f %s sparse, as far as the trace reaches; for a "
			       "smaller file, make it first (truncate -s SIZE) and pass --fit "
			       "scale or --fit wrap",
			       tg->path, g < 1 ? 0 : 1, g < 1 ? g * 1024 : g,
			       g < 1 ? "MiB" : "GiB");
		if (ftruncate(tg->fd, (off_t)sz) < 0)
			return reel_errf(r->err, r->errlen, -errno,
					 "%s: cannot size the file to %llu bytes: %s", tg->path,
					 (unsigned long long)sz, strerror(errno));
		tg->size = sz;
	}
	if (tg->need > tg->size && o->fit == REPLAY_FIT_FAIL)
		return reel_errf(
		    r->err, r->errlen, REEL_E_RANGE,
		    "%s: the trace needs %llu bytes (%.1f GiB) on this target, which has "
		    "%llu: use a target of at least that size, or --fit wrap or --fit scale",
		    tg->path, (unsigned long long)tg->need, tg->need / 1073741824.0,
		    (unsigned long long)tg->size);
	if (!o->buffered && !o->align && (nd.orbits & (tg->lbs - 1))) {
		uint64_t first = tg->lbs > 512 ? nd.mis4k : nd.mis512;
		return reel_errf(
		    r->err, r->errlen, REEL_E_ARG,
		    "%s: the trace has I/Os not aligned to this target's %u-byte logical "
		    "blocks (first: record #%llu), which O_DIRECT needs: pass --align to "
		    "round them to whole blocks, or --buffered",
		    tg->path, tg->lbs, (unsigned long long)(first ? first - 1 : 0));
	}
	return 0;
}

/* Preconditioning target t: a line every 2 s (the command prints it). */
static void precondition_note(struct run *r, unsigned t, uint64_t off, int64_t start, int64_t *next)
{
	int64_t now = reel_now_ns();
	if (now < *next)
		return;
	*next = now + 2000000000;
	const struct target *tg = &r->tg[t];
	double s = (double)(now - start) / 1e9;
	notice(r, "preconditioning %s: %.2f of %.2f GiB (%.0f%%), %.0f MB/s", tg->path,
	       (double)off / 1073741824.0, (double)tg->size / 1073741824.0,
	       tg->size ? 100.0 * (double)off / (double)tg->size : 100.0,
	       s > 0 ? (double)off / s / 1e6 : 0.0);
}

static int precondition(struct run *r)
{
	void *buf;
	const size_t bs = 1 << 20;
	int64_t start = reel_now_ns(), next = start + 2000000000;
	if (posix_memalign(&buf, 4096, bs))
		return reel_errf(r->err, r->errlen, REEL_E_NOMEM, "out of memory");
	for (unsigned t = 0; t < r->ntg; t++) {
		struct target *tg = &r->tg[t];
		notice(r, "preconditioning %s: writing its %.2f GiB once, sequentially", tg->path,
		       (double)tg->size / 1073741824.0);
		for (uint64_t off = 0; off < tg->size; off += bs) {
			size_t n = tg->size - off < bs ? (size_t)(tg->size - off) : bs;
			n = n / tg->lbs * tg->lbs;
			if (!n)
				break;
			replay_datagen_fill(r->gen, buf, n, off, (uint16_t)t, UINT64_MAX >> 8);
			if (pwrite(tg->fd, buf, n, (off_t)off) != (ssize_t)n) {
				free(buf);
				return reel_errf(r->err, r->errlen, -EIO,
						 "%s: preconditioning write at %llu failed: %s",
						 tg->path, (unsigned long long)off,
						 strerror(errno));
			}
			if (r->o->stop && *r->o->stop)
				break;
			precondition_note(r, t, off + n, start, &next);
		}
		fdatasync(tg->fd);
	}
	free(buf);
	return 0;
}

/* ---- queue depth ------------------------------------------------------- */
/* The default: the original depth wherever the trace has completion times
 * (records without one count as QD_UNKNOWN around them), 32 when it has
 * none.  Explicit original/xK needs some completion times.  Says why. */
static int choose_qd(struct run *r)
{
	struct replay_opts *o = &r->opts;
	char *why = r->res->qd_why;
	size_t wl = sizeof(r->res->qd_why);
	uint64_t lack = r->total - r->n_complete;
	if (o->qd_default && !r->n_complete) {
		o->qd_mode = REPLAY_QD_FIXED;
		o->qd = QD_UNKNOWN;
		snprintf(why, wl, "the trace has no completion times, so its own depth is unknown");
		return 0;
	}
	if (o->qd_default)
		o->qd_mode = REPLAY_QD_ORIGINAL;
	if (o->qd_mode == REPLAY_QD_FIXED)
		return 0;
	if (!r->n_complete)
		return reel_errf(
		    r->err, r->errlen, REEL_E_ARG,
		    "%s: --qd %s needs completion times, which this trace lacks: give a "
		    "fixed depth, e.g. --qd 32",
		    o->trace, o->qd_str);
	if (o->qd_default)
		snprintf(why, wl,
			 "the trace's own in-flight count (at most %u within 1 ms of each "
			 "I/O)",
			 r->orig_max_inflight);
	if (lack) {
		size_t l = strlen(why);
		snprintf(why + l, wl - l,
			 "%s%llu of %llu I/Os lack a completion time: at least %u "
			 "in flight allowed within 1 ms of them",
			 l ? "; " : "", (unsigned long long)lack, (unsigned long long)r->total,
			 QD_UNKNOWN);
	}
	return 0;
}

/* The mode, its description, the profile and the engine's depth. */
static int resolve_qd(struct run *r)
{
	struct replay_opts *o = &r->opts;
	struct replay_result *res = r->res;
	int rc = choose_qd(r);
	if (rc < 0)
		return rc;
	if (o->qd_mode == REPLAY_QD_FIXED)
		snprintf(res->qd_desc, sizeof(res->qd_desc), "%u", o->qd);
	else if (o->qd_mode == REPLAY_QD_ORIGINAL)
		snprintf(res->qd_desc, sizeof(res->qd_desc), "original");
	else
		snprintf(res->qd_desc, sizeof(res->qd_desc), "x%g", o->qd_scale);
	unsigned omax = 1;
	if (o->qd_mode != REPLAY_QD_FIXED) {
		if ((rc = build_qd_profile(r)) < 0)
			return rc;
		for (size_t b = 0; b < r->qd_nb; b++)
			if (r->qd_prof[b] > omax)
				omax = r->qd_prof[b];
	}
	if (o->qd_mode == REPLAY_QD_FIXED)
		r->depth = o->qd;
	else if (o->qd_mode == REPLAY_QD_ORIGINAL)
		r->depth = omax;
	else
		r->depth = (unsigned)ceil(o->qd_scale * omax);
	if (r->depth < 1)
		r->depth = 1;
	if (r->depth > REPLAY_MAX_QD)
		r->depth = REPLAY_MAX_QD;
	if (r->ops->flags & REPLAY_ENG_SYNC)
		r->depth = 1; /* one thread, synchronous */
	if (res->qd_why[0])
		notice(r, "queue depth %s%s: %s", o->qd_mode == REPLAY_QD_FIXED ? "" : "cap ",
		       res->qd_desc, res->qd_why);
	return 0;
}

/* ---- setup ------------------------------------------------------------- */
/* Open the trace and measure it. */
static int scan_trace(struct run *r, struct devscan *ds)
{
	const struct replay_opts *o = r->o;
	int rc = reel_reader_open(&r->rd, o->trace, 0);
	if (rc < 0) {
		if (r->rd && reel_reader_errmsg(r->rd)[0])
			return reel_errf(r->err, r->errlen, rc, "%s", reel_reader_errmsg(r->rd));
		return reel_errf(r->err, r->errlen, rc, "%s: %s", o->trace, reel_strerror(rc));
	}
	if ((rc = first_pass(r, ds)) < 0)
		return rc;
	if (!reel_reader_complete(r->rd)) {
		r->res->trace_cut_short = 1;
		notice(r, "warning: %s", reel_reader_errmsg(r->rd));
	}
	/* the schedule divides times by the speed: keep it within int64 */
	int64_t span;
	if (__builtin_sub_overflow(r->last_t, r->first_t, &span) ||
	    (double)span / o->speed > (double)(INT64_MAX / 2))
		return reel_errf(r->err, r->errlen, REEL_E_RANGE,
				 "%s: the trace spans %.3g s, which at --speed %g would last %.3g "
				 "s: choose a larger --speed",
				 o->trace, (double)r->last_t / 1e9 - (double)r->first_t / 1e9,
				 o->speed,
				 ((double)r->last_t - (double)r->first_t) / 1e9 / o->speed);
	r->res->trace_duration_ns = span;
	if (o->point == REPLAY_POINT_ISSUE && !r->all_issue)
		return reel_errf(r->err, r->errlen, REEL_E_ARG,
				 "%s: not every I/O has an issue (D) time, which --point issue "
				 "needs: use --point queue",
				 o->trace);
	return 0;
}

/* --hipri: every target must be a block device that polls (queue/io_poll);
 * refused before any buffer is made or any byte preconditioned. */
static int check_hipri(struct run *r)
{
	if (!r->o->hipri)
		return 0;
	if (r->ops != &replay_engine_uring)
		return reel_errf(r->err, r->errlen, REEL_E_ARG,
				 "--hipri needs --engine io_uring (polled completions)");
	for (unsigned t = 0; t < r->ntg; t++) {
		char p[160], v[8] = "";
		snprintf(p, sizeof(p), "/sys/class/block/%s/queue/io_poll", r->tg[t].name);
		FILE *f = r->tg[t].is_blk ? fopen(p, "r") : NULL;
		if (f) {
			if (!fgets(v, sizeof(v), f))
				v[0] = 0;
			fclose(f);
		}
		if (v[0] != '1')
			return reel_errf(
			    r->err, r->errlen, REEL_E_ARG,
			    "--hipri: %s does not support polled I/O (%s): use a device "
			    "with poll queues (e.g. nvme with poll_queues > 0), or drop "
			    "--hipri",
			    r->tg[t].path, r->tg[t].is_blk ? "its queue/io_poll is 0" : "a file");
	}
	return 0;
}

/* --cpu N: the process must be allowed there (cpuset, taskset); said
 * before anything is done, applied by schedule.c before time zero. */
static int check_cpu(struct run *r)
{
	cpu_set_t ok;
	if (!r->o->pin_cpu)
		return 0;
	if (sched_getaffinity(0, sizeof(ok), &ok) < 0)
		return reel_errf(r->err, r->errlen, -errno, "--cpu %d: %s", r->o->cpu,
				 strerror(errno));
	if (r->o->cpu >= 0 && r->o->cpu < CPU_SETSIZE && CPU_ISSET(r->o->cpu, &ok))
		return 0;
	char list[128] = "";
	for (int c = 0, n = 0; c < CPU_SETSIZE && n < 16; c++)
		if (CPU_ISSET(c, &ok)) {
			size_t l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%d", n++ ? "," : "", c);
		}
	return reel_errf(r->err, r->errlen, REEL_E_ARG,
			 "--cpu %d: this process may not run there; it may use CPU %s%s", r->o->cpu,
			 list, CPU_COUNT(&ok) > 16 ? ",..." : "");
}

/* The data generator and the engine. */
static int start_engine(struct run *r)
{
	struct replay_data_spec spec = r->o->data;
	int rc = replay_datagen_create(&r->gen, &spec);
	if (rc < 0)
		return reel_errf(r->err, r->errlen, rc, "out of memory");
	struct replay_engine_cfg cfg = {r->depth, r->o->hipri, r->o->sqpoll,
					r->o->timing == REPLAY_TIMING_AFAP &&
					    r->o->qd_mode == REPLAY_QD_FIXED &&
					    r->o->order != REPLAY_ORDER_DEPENDENCY};
	if ((rc = r->ops->create(&r->eng, &cfg, r->err, r->errlen)) < 0) {
		if (!r->err[0])
			reel_errf(r->err, r->errlen, rc, "%s: cannot start the engine: %s",
				  r->ops->name, strerror(-rc));
		r->eng = NULL;
		return rc;
	}
	return 0;
}

/* ---- buffers -----------------------------------------------------------
 * An I/O buffer made of scattered 4 KiB pages costs the direct-I/O path
 * one bio_vec per page, and a bio holds at most 256 (BIO_MAX_VECS): a
 * 2.5 MiB read leaves as bios of 1 MiB, 1 MiB and 512 KiB, three I/Os
 * where the trace had one (and more segments than a loop device's
 * max_segments, 128).  Buffers are therefore cut from 2 MiB huge pages:
 * MAP_HUGETLB when the host has reserved some, else transparent huge
 * pages (madvise MADV_HUGEPAGE), and touched now so no page fault falls
 * inside the replay.
 *
 * The transparent ones come from reel_map_huge (formats/), which advises
 * a mapping before making it writable.  Under mlockall(MCL_FUTURE), which
 * the replay holds from before time zero (schedule.c: lock_memory), mmap()
 * itself populates a writable mapping, in 4 KiB pages since it is not yet
 * advised: every buffer made during the replay (an I/O longer than the
 * arena's slices) was small pages, and each such I/O over 1 MiB reached
 * the device as several bios (git.reel: 8 I/Os, +20..+24 bios;
 * chromium.reel at --qd 128: 76-81, +135..+144). */
static void *huge_map(size_t len, size_t *maplen, int *huge)
{
	size_t l = (len + HUGE_SZ - 1) & ~(size_t)(HUGE_SZ - 1);
	void *p =
	    mmap(NULL, l, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p != MAP_FAILED) {
		*maplen = l;
		*huge = 2;
		return p;
	}
	/* transparent huge pages, advised before the mapping is writable */
	char *q = reel_map_huge(l, huge);
	if (!q)
		return NULL;
	*maplen = l;
	return q;
}

void *iobuf_alloc(size_t len, size_t *cap)
{
	if (len >= HUGE_SZ / 8) {
		int huge;
		void *p = huge_map(len, cap, &huge);
		if (p)
			memset(p, 0, *cap);
		return p;
	}
	void *p;
	*cap = (len + 65535) & ~(size_t)65535;
	return posix_memalign(&p, 4096, *cap) ? NULL : p;
}

void iobuf_free(void *p, size_t cap)
{
	if (p && cap >= HUGE_SZ) /* only huge_map() makes these */
		munmap(p, cap);
	else
		free(p);
}

/* One region for all slots' buffers, each slot a slice as long as the
 * longest I/O (at most ARENA_MAX in all; longer I/Os get their own). */
static int alloc_arena(struct run *r)
{
	if (r->ops->flags & REPLAY_ENG_NO_IO)
		return 0;
	size_t cap = ((size_t)(r->max_len ? r->max_len : 4096) + 4095) & ~(size_t)4095;
	if (cap * r->depth > ARENA_MAX)
		cap = ARENA_MAX / r->depth & ~(size_t)4095;
	if (cap < 4096)
		return 0;
	r->arena = huge_map(cap * r->depth, &r->arena_len, &r->arena_huge);
	if (!r->arena)
		return 0;		   /* the slots allocate as they go */
	memset(r->arena, 0, r->arena_len); /* fault it in now */
	for (unsigned i = 0; i < r->depth; i++) {
		r->slots[i].io.buf = (char *)r->arena + (size_t)i * cap;
		r->slots[i].cap = cap;
		r->slots[i].fixed = (int)i;
	}
	return 0;
}

/* The window, the slots and the result ring: all the replay's memory. */
static int alloc_buffers(struct run *r)
{
	unsigned w = r->o->window;
	r->wcap = w ? (w > MAX_WINDOW ? MAX_WINDOW : w) : DEFAULT_WINDOW;
	r->win = calloc(r->wcap, sizeof(*r->win));
	r->dep_c = calloc(r->wcap, sizeof(*r->dep_c));
	r->slots = calloc(r->depth, sizeof(*r->slots));
	r->freel = calloc(r->depth, sizeof(*r->freel));
	r->ring = calloc(RING, sizeof(*r->ring));
	if (!r->win || !r->dep_c || !r->slots || !r->freel || !r->ring)
		return reel_errf(r->err, r->errlen, REEL_E_NOMEM, "out of memory");
	for (unsigned i = 0; i < r->depth; i++) {
		r->freel[r->nfree++] = r->depth - 1 - i;
		r->slots[i].fixed = -1;
	}
	/* fault the pages in now, not during the replay */
	memset(r->ring, 0, RING * sizeof(*r->ring));
	memset(r->win, 0, r->wcap * sizeof(*r->win));
	return alloc_arena(r);
}

/* How much of the arena the kernel backs with huge pages (kB, from
 * /proc/self/smaps: transparent huge pages are a request, not a promise). */
static uint64_t arena_huge_kb(const struct run *r)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	int in = 0;
	uint64_t kb = 0;
	uintptr_t a = (uintptr_t)r->arena;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && sscanf(line, "AnonHugePages: %" SCNu64, &kb) == 1)
			break;
	}
	if (f)
		fclose(f);
	return kb;
}

static unsigned queue_limit(const struct target *t, const char *what)
{
	char p[192], v[32];
	snprintf(p, sizeof(p), "/sys/class/block/%s/queue/%s", t->name, what);
	sysfs_read(p, v, sizeof(v));
	if (!v[0]) { /* a partition: its disk's queue */
		snprintf(p, sizeof(p), "/sys/class/block/%s/../queue/%s", t->name, what);
		sysfs_read(p, v, sizeof(v));
	}
	return (unsigned)strtoul(v, NULL, 10);
}

/* Say, once per block target, where its queue limits will split the
 * trace's I/Os whatever the replay does: longer than max_sectors_kb, or
 * (buffers not in huge pages) more 4 KiB pages than max_segments. */
static void check_queue_limits(struct run *r, const struct devscan *ds)
{
	if (r->ops->flags & REPLAY_ENG_NO_IO)
		return;
	int huge = r->arena && (r->arena_huge == 2 ||
				(r->arena_huge == 1 && arena_huge_kb(r) * 1024 >= r->arena_len));
	for (unsigned t = 0; t < r->ntg; t++) {
		const struct target *tg = &r->tg[t];
		uint32_t longest = 0;
		for (unsigned d = 0; tg->is_blk && d < MAX_DEVS; d++)
			if (r->devmap[d] == (int32_t)t && ds[d].max_len > longest)
				longest = ds[d].max_len;
		unsigned kb = longest ? queue_limit(tg, "max_sectors_kb") : 0;
		unsigned segs = longest ? queue_limit(tg, "max_segments") : 0;
		unsigned seg_size = longest ? queue_limit(tg, "max_segment_size") : 0;
		if (kb && longest > kb * 1024ull)
			notice(r,
			       "%s: the trace has I/Os of up to %u KiB, longer than its "
			       "max_sectors_kb (%u): the kernel splits each such I/O into requests "
			       "of at most %u KiB, whatever the replay does",
			       tg->name, longest / 1024, kb, kb);
		uint64_t seg_bytes =
		    (uint64_t)segs * (seg_size && seg_size < 4096 ? seg_size : 4096);
		if (!huge && segs && longest > seg_bytes && (!kb || seg_bytes < kb * 1024ull))
			notice(r,
			       "%s: the I/O buffers are not in huge pages here, so I/Os longer "
			       "than %" PRIu64 " KiB (max_segments %u of 4 KiB pages) may be split "
			       "further (reserve huge pages: sysctl vm.nr_hugepages, or set "
			       "transparent_hugepage to madvise or always)",
			       tg->name, seg_bytes / 1024, segs);
	}
}

static void make_label(struct run *r)
{
	char names[96] = "";
	for (unsigned t = 0; t < r->ntg; t++) {
		size_t l = strlen(names);
		if (l < sizeof(names) - 2)
			snprintf(names + l, sizeof(names) - l, "%s%s", t ? "+" : "", r->tg[t].name);
	}
	snprintf(r->res->label, sizeof(r->res->label), "%.60s qd%s%.20s %.24s %.12s", names,
		 r->o->qd_mode == REPLAY_QD_FIXED ? "" : "-", r->res->qd_desc,
		 r->o->data_str ? r->o->data_str : "random", r->ops->name);
}

int run_setup(struct run *r)
{
	const struct replay_opts *o = r->o;
	struct devscan *ds = calloc(MAX_DEVS, sizeof(*ds));
	int rc = 0;
	if (!ds)
		return reel_errf(r->err, r->errlen, REEL_E_NOMEM, "out of memory");
	if (!(o->speed >= REPLAY_SPEED_MIN && o->speed <= REPLAY_SPEED_MAX)) {
		rc = reel_errf(r->err, r->errlen, REEL_E_ARG,
			       "--speed %g: give a factor from %g to %g", o->speed,
			       REPLAY_SPEED_MIN, REPLAY_SPEED_MAX);
		goto out;
	}
	if ((rc = result_reserve(r)) < 0)
		goto out;
	r->ops = replay_engine_find(o->engine);
	if (!r->ops) {
		rc = reel_errf(r->err, r->errlen, REEL_E_ARG,
			       "--engine %s: use libaio, io_uring, psync or null", o->engine);
		goto out;
	}
	snprintf(r->res->engine, sizeof(r->res->engine), "%s", r->ops->name);
	if ((rc = scan_trace(r, ds)) < 0 || (rc = resolve_qd(r)) < 0 ||
	    (rc = map_devices(r, ds)) < 0)
		goto out;
	for (unsigned t = 0; t < r->ntg; t++)
		if ((rc = check_target(r, t, ds)) < 0)
			goto out;
	r->res->ntargets = r->ntg;
	if ((rc = check_hipri(r)) < 0 || (rc = check_cpu(r)) < 0)
		goto out;
	if ((rc = start_engine(r)) < 0 || (rc = alloc_buffers(r)) < 0)
		goto out;
	check_queue_limits(r, ds);
	make_label(r);
	if (o->precondition && !o->read_only)
		rc = precondition(r);
out:
	free(ds);
	return rc;
}

int run_create(struct run **out, const struct replay_opts *o, struct replay_result *res,
	       char *errmsg, size_t errlen)
{
	memset(res, 0, sizeof(*res));
	struct run *r = calloc(1, sizeof(*r));
	*out = r;
	if (!r)
		return reel_errf(errmsg, errlen, REEL_E_NOMEM, "out of memory");
	r->opts = *o;
	r->o = &r->opts;
	r->res = res;
	r->err = errmsg;
	r->errlen = errlen;
	r->null_fd = -1;
	r->out.fd = -1;
	r->prepared = -1;
	r->spin = SPIN_NS;
	for (unsigned t = 0; t < REPLAY_MAX_TARGETS; t++)
		r->tg[t].fd = -1;
	return 0;
}

void run_destroy(struct run *r)
{
	if (!r)
		return;
	if (r->slots)
		for (unsigned i = 0; i < r->depth; i++)
			if (r->slots[i].fixed < 0)
				iobuf_free(r->slots[i].io.buf, r->slots[i].cap);
	if (r->arena)
		munmap(r->arena, r->arena_len);
	free(r->slots);
	free(r->freel);
	free(r->ring);
	free(r->win);
	free(r->dep_c);
	time_heap_free(&r->dep);
	time_heap_free(&r->qd_heap);
	free(r->qd_prof);
	if (r->ops && r->eng)
		r->ops->destroy(r->eng);
	replay_datagen_destroy(r->gen);
	for (unsigned t = 0; t < r->ntg; t++)
		if (r->tg[t].fd > 0)
			close(r->tg[t].fd);
	reel_reader_close(r->rd);
	reel_out_abort(&r->out); /* a failed replay leaves nothing under -o */
	free(r);
}
