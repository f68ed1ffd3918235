/*
 * capture/tracefs_reader.c - the tracefs reader (the tracing session): a
 * private tracefs instance, the per-CPU raw ring buffers, libtraceevent
 * parsing and a time-ordered merge of the CPUs.
 *
 * Why a merge: each CPU's buffer is in time order, the joiner needs one
 * stream in time order.  The instance uses the "mono" trace clock so that
 * timestamps of different CPUs compare, and compare with clock_gettime():
 * after draining every CPU, any event older than (now - SLACK) that the
 * kernel will ever commit has been read, so those can be handed out.  The
 * draining is done by a thread of its own (capture/page_reader.c), which
 * queues pages and marks saying how far each CPU has been read; the parsing,
 * the merge and what the caller does with the events happen here, in the
 * caller's thread, behind it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <stdbool.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <tracefs/tracefs.h>

#include "capture/capture.h"
#include "capture/instance_guard.h"
#include "capture/page_reader.h"
#include "formats/reel.h"

#define COMM_LEN 16
#define RWBS_CACHE 16		  /* rwbs fields up to this size are remembered (rwbs[10] in 6.x) */
#define GUARD_EVERY_NS 50000000LL /* tracing_on read back at most this often */
#define TAKE_MAX 256		  /* pages parsed per capture_poll() */

enum kind {
	K_QUEUE,
	K_BACKMERGE,
	K_FRONTMERGE,
	K_SPLIT,
	K_BIO_REMAP,
	K_RQ_REMAP,
	K_GETRQ,
	K_ISSUE,
	K_COMPLETE,
	K_REQUEUE,
	K_FORK,
	K__COUNT
};

static const struct {
	const char *system, *name;
	int action;
	int required;
} kinds[K__COUNT] = {
    [K_QUEUE] = {"block", "block_bio_queue", REEL_ACT_QUEUE, 1},
    [K_BACKMERGE] = {"block", "block_bio_backmerge", REEL_ACT_BACKMERGE, 0},
    [K_FRONTMERGE] = {"block", "block_bio_frontmerge", REEL_ACT_FRONTMERGE, 0},
    [K_SPLIT] = {"block", "block_split", REEL_ACT_SPLIT, 0},
    [K_BIO_REMAP] = {"block", "block_bio_remap", REEL_ACT_REMAP, 0},
    [K_RQ_REMAP] = {"block", "block_rq_remap", REEL_ACT_REMAP, 0},
    /* block_getrq, not block_rq_insert: the joiner builds requests at G
     * (merges attach to them before dispatch) and has no use for I */
    [K_GETRQ] = {"block", "block_getrq", REEL_ACT_GETRQ, 0},
    [K_ISSUE] = {"block", "block_rq_issue", REEL_ACT_ISSUE, 1},
    [K_COMPLETE] = {"block", "block_rq_complete", REEL_ACT_COMPLETE, 1},
    [K_REQUEUE] = {"block", "block_rq_requeue", REEL_ACT_REQUEUE, 0},
    [K_FORK] = {"sched", "sched_process_fork", 0, 0},
};

struct evdesc {
	struct tep_event *ev;
	int kind;
	struct tep_format_field *dev, *sector, *nr_sector, *bytes, *rwbs, *comm, *error, *old_dev,
	    *old_sector, *new_sector, *parent_pid, *child_pid;
	int min_size; /* bytes an event must have to hold every field read */
	/* the last rwbs field parsed (raw bytes, and whether the event had
	 * data: capture_rwbs() depends on both) and what it gave */
	struct {
		char raw[RWBS_CACHE];
		uint8_t valid, with_data, op, flags;
		int rc;
	} rwbs_last;
};

/* An event waiting for the merge; comm points into the session's table. */
struct pending {
	struct reel_event e;
};

struct cpubuf {
	int fd;
	char last_comm[COMM_LEN]; /* the last raw comm field and its interned name */
	const char *last_str;
	struct pending *q;
	size_t head, n, cap;
	/* trace time up to which every event of this CPU has been read: the
	 * last event read while its partial page waits, else what the reader's
	 * PAGE_MARK_ALL said (page_reader.h) */
	int64_t drained_to;
};

/* Interned process names: stable pointers for the session's life. */
struct comm_ent {
	char name[COMM_LEN];
	const char *str;
};

struct capture {
	struct tracefs_instance *inst;
	char name[64];
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	struct evdesc ed[K__COUNT];
	int ned;
	struct evdesc *by_id[4096];
	struct tep_format_field *f_type, *f_pid;
	int ncpus;
	struct cpubuf *cpu;
	struct tracefs_cpu **tcpu;  /* per CPU; NULL: offline (or no tracefs) */
	struct page_reader *reader; /* while tracing runs */
	size_t queue_max;	    /* bytes the reader may queue */
	void *page;
	int page_size;
	int64_t t0_mono, t0_unix;
	int started;
	uint32_t pid_tree;
	uint32_t *pids;
	size_t npids, cappids;
	struct capture_partmap *parts;
	size_t nparts;
	struct comm_ent *comms;
	size_t comm_cap, ncomms;
	struct capture_stats st;
	struct capture_guard guard; /* the instance's lock and watch */
	int64_t last_check;	    /* CLOCK_MONOTONIC of the last full watch */
	int64_t last_on_check;	    /* ... and of the last look at tracing_on */
};

static int64_t now_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int capture_rwbs(const char *rwbs, size_t len, uint32_t bytes, uint8_t *op, uint8_t *flags)
{
	char rb[16];
	if (len >= sizeof(rb))
		len = sizeof(rb) - 1;
	memcpy(rb, rwbs, len);
	rb[len] = 0;
	size_t oi = len >= 2 && rb[0] == 'F' && strchr("WDRFN", rb[1]) ? 1 : 0;
	int wz = len > oi && rb[oi] == 'N' && bytes;
	if (wz)
		rb[oi] = 'W';
	int rc = reel_rwbs_parse(rb, len, bytes, op, flags);
	if (rc == 0 && wz)
		*op = REEL_OP_WRITE_ZEROES;
	return rc;
}

/* ---- session ------------------------------------------------------------ */
struct fmt_src {
	const char *const *systems, *const *texts;
	size_t n;
};

/*
 * Parse only the formats of the events used: tracefs_local_events() would
 * also load kallsyms and every other event (a large start-up cost that the
 * capture does not need).  src: the format texts (offline), else tracefs.
 */
static int load_formats(struct capture *c, const struct fmt_src *src, char *err, size_t errlen)
{
	c->tep = tep_alloc();
	if (c->tep) {
		enum tep_endian host = tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN;
		tep_set_file_bigendian(c->tep, host);
		tep_set_local_bigendian(c->tep, host);
		tep_set_long_size(c->tep, (int)sizeof(long));
	}
	int nparsed = 0;
	for (size_t i = 0; c->tep && src && i < src->n; i++)
		if (tep_parse_event(c->tep, src->texts[i], strlen(src->texts[i]),
				    src->systems[i]) == 0)
			nparsed++;
	for (int k = 0; c->tep && !src && k < K__COUNT; k++) {
		int size = 0;
		char *fmt = tracefs_event_file_read(c->inst, kinds[k].system, kinds[k].name,
						    "format", &size);
		if (!fmt)
			continue;
		if (tep_parse_event(c->tep, fmt, (size_t)size, kinds[k].system) == 0)
			nparsed++;
		free(fmt);
	}
	if (!c->tep || !nparsed)
		return reel_errf(err, errlen, -ENOENT,
				 "cannot read the block event formats from %s/events "
				 "(is tracefs mounted? mount -t tracefs nodev /sys/kernel/tracing)",
				 src			 ? "the given texts"
				 : tracefs_tracing_dir() ? tracefs_tracing_dir()
							 : "/sys/kernel/tracing");
	return 0;
}

/* The kernel's device filters: "dev == A || dev == B", and for remaps also
 * by their source device. */
static int build_filters(const struct capture_opts *o, char *filt, size_t flen, char *filt_remap,
			 size_t rlen, char *err, size_t errlen)
{
	size_t fl = 0, rl = 0;
	filt[0] = filt_remap[0] = 0;
	for (size_t i = 0; i < o->ndevts; i++) {
		fl += snprintf(filt + fl, flen - fl, "%sdev == %u", i ? " || " : "", o->devts[i]);
		rl += snprintf(filt_remap + rl, rlen - rl, "%sdev == %u || old_dev == %u",
			       i ? " || " : "", o->devts[i], o->devts[i]);
		if (fl >= flen || rl >= rlen)
			return reel_errf(err, errlen, -E2BIG,
					 "too many devices for the event filter");
	}
	return 0;
}

/* The fields read from event ev of kind k, and the size an event must have
 * to hold them all. */
static int describe_event(struct evdesc *d, struct tep_event *ev, int k, char *err, size_t errlen)
{
	d->ev = ev;
	d->kind = k;
	d->dev = tep_find_field(ev, "dev");
	d->sector = tep_find_field(ev, "sector");
	d->nr_sector = tep_find_field(ev, "nr_sector");
	d->bytes = tep_find_field(ev, "bytes");
	d->rwbs = tep_find_field(ev, "rwbs");
	d->comm = tep_find_field(ev, "comm");
	d->error = tep_find_field(ev, "error");
	d->old_dev = tep_find_field(ev, "old_dev");
	d->old_sector = tep_find_field(ev, "old_sector");
	d->new_sector = tep_find_field(ev, "new_sector");
	d->parent_pid = tep_find_field(ev, "parent_pid");
	d->child_pid = tep_find_field(ev, "child_pid");
	if (k != K_FORK && (!d->dev || !d->sector || !d->rwbs))
		return reel_errf(err, errlen, -EINVAL,
				 "%s: unexpected event format (no dev/sector/rwbs field)",
				 kinds[k].name);
	struct tep_format_field *fs[] = {d->dev,
					 d->sector,
					 d->nr_sector,
					 d->bytes,
					 d->rwbs,
					 d->comm,
					 d->error,
					 d->old_dev,
					 d->old_sector,
					 d->new_sector,
					 d->parent_pid,
					 d->child_pid,
					 tep_find_common_field(ev, "common_type"),
					 tep_find_common_field(ev, "common_pid")};
	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if (fs[i] && fs[i]->offset + fs[i]->size > d->min_size)
			d->min_size = fs[i]->offset + fs[i]->size;
	return 0;
}

/* Set event k's device filter (when devices were given) and enable it. */
static int enable_event(struct capture *c, const struct capture_opts *o, const struct evdesc *d,
			const char *filt, const char *filt_remap, char *err, size_t errlen)
{
	int k = d->kind;
	if (k != K_FORK && o->ndevts) {
		const char *f =
		    (k == K_BIO_REMAP || k == K_RQ_REMAP) && d->old_dev ? filt_remap : filt;
		if (tracefs_event_file_write(c->inst, kinds[k].system, kinds[k].name, "filter", f) <
		    0)
			return reel_errf(err, errlen, -errno,
					 "%s: cannot set the device filter: %s", kinds[k].name,
					 strerror(errno));
	}
	if (tracefs_event_enable(c->inst, kinds[k].system, kinds[k].name) < 0)
		return reel_errf(err, errlen, -EIO, "cannot enable %s:%s in instance %s: %s",
				 kinds[k].system, kinds[k].name, c->name, strerror(errno));
	guard_watch_event(&c->guard, kinds[k].system, kinds[k].name);
	return 0;
}

/* The events this kernel has (the required ones must be there), described
 * for parse_event() and, live, enabled with the device filter. */
static int setup_events(struct capture *c, const struct capture_opts *o, const struct fmt_src *src,
			char *err, size_t errlen)
{
	char filt[2048], filt_remap[4096];
	int rc;
	if ((rc = load_formats(c, src, err, errlen)) ||
	    (rc =
		 build_filters(o, filt, sizeof(filt), filt_remap, sizeof(filt_remap), err, errlen)))
		return rc;
	for (int k = 0; k < K__COUNT; k++) {
		if (k == K_FORK && !o->pid_tree)
			continue;
		struct tep_event *ev =
		    tep_find_event_by_name(c->tep, kinds[k].system, kinds[k].name);
		if (!ev) {
			if (kinds[k].required)
				return reel_errf(err, errlen, -ENOENT,
						 "this kernel has no %s:%s tracepoint "
						 "(needs CONFIG_BLOCK tracepoints in tracefs)",
						 kinds[k].system, kinds[k].name);
			continue;
		}
		struct evdesc *d = &c->ed[c->ned++];
		if ((rc = describe_event(d, ev, k, err, errlen)))
			return rc;
		if (ev->id >= 0 && ev->id < (int)(sizeof(c->by_id) / sizeof(c->by_id[0])))
			c->by_id[ev->id] = d;
		if (c->inst && (rc = enable_event(c, o, d, filt, filt_remap, err, errlen)))
			return rc; /* offline: nothing to enable */
	}
	if (!c->ned)
		return reel_errf(err, errlen, -ENOENT, "no block event formats");
	struct tep_event *any = c->ed[0].ev;
	c->f_type = tep_find_common_field(any, "common_type");
	c->f_pid = tep_find_common_field(any, "common_pid");
	if (!c->f_type || !c->f_pid)
		return reel_errf(err, errlen, -EINVAL, "event formats lack common_type/common_pid");
	return 0;
}

/* The private instance, stopped, on the mono clock, with buffers of
 * buffer_kb per CPU that drop new events when full. */
static int create_instance(struct capture *c, const struct capture_opts *o, char *err,
			   size_t errlen)
{
	char num[32];
	if (!tracefs_tracing_dir())
		return reel_errf(err, errlen, -ENOENT,
				 "tracefs is not mounted and cannot be mounted "
				 "(mount -t tracefs nodev /sys/kernel/tracing; needs root)");
	/* the lock first: an instance is never without its owner's lock */
	int rc = guard_lock(&c->guard, c->name, err, errlen);
	if (rc < 0)
		return rc;
	if (tracefs_instance_exists(c->name))
		return reel_errf(err, errlen, -EEXIST, "tracing instance %s already exists",
				 c->name);
	c->inst = tracefs_instance_create(c->name);
	if (!c->inst) {
		int rc = errno ? -errno : -EIO;
		return reel_errf(err, errlen, rc,
				 "cannot create tracing instance %s/instances/%s: %s (needs root)",
				 tracefs_tracing_dir(), c->name, strerror(errno));
	}
	tracefs_trace_off(c->inst);
	if (tracefs_instance_file_write(c->inst, "trace_clock", "mono") < 0)
		return reel_errf(err, errlen, -EIO,
				 "instance %s: cannot select the mono trace clock", c->name);
	/* a full buffer drops new events (counted in "dropped events") rather
	 * than overwriting unread ones */
	tracefs_instance_file_write(c->inst, "options/overwrite", "0");
	unsigned kb = o->buffer_kb ? o->buffer_kb : 8192;
	snprintf(num, sizeof(num), "%u", kb);
	if (tracefs_instance_file_write(c->inst, "buffer_size_kb", num) < 0)
		return reel_errf(err, errlen, -ENOMEM,
				 "instance %s: cannot set buffer_size_kb to %u: %s", c->name, kb,
				 strerror(errno));
	c->guard.inst = c->inst;
	guard_watch_buffer(&c->guard);
	return 0;
}

/* Open every online CPU's raw buffer.  Larger ring-buffer sub-buffers
 * (kernel 6.8+) mean fewer page switches for the writers and fewer reads
 * for us. */
static int open_cpus(struct capture *c, const struct capture_opts *o, char *err, size_t errlen)
{
	char num[32];
	c->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	c->cpu = calloc((size_t)c->ncpus, sizeof(*c->cpu));
	c->tcpu = calloc((size_t)c->ncpus, sizeof(*c->tcpu));
	if (!c->cpu || !c->tcpu)
		return -ENOMEM;
	int subbuf = 0;
	if (o->subbuf_kb != 1) {
		snprintf(num, sizeof(num), "%u", o->subbuf_kb ? o->subbuf_kb : 64);
		tracefs_instance_file_write(c->inst, "buffer_subbuf_size_kb", num);
		char *sb = tracefs_instance_file_read(c->inst, "buffer_subbuf_size_kb", NULL);
		if (sb)
			subbuf = atoi(sb) * 1024;
		free(sb);
	}
	c->page_size = 0;
	for (int i = 0; i < c->ncpus; i++) {
		c->cpu[i].fd = -1;
		if (subbuf > 0) {
			char f[64];
			snprintf(f, sizeof(f), "per_cpu/cpu%d/trace_pipe_raw", i);
			c->cpu[i].fd =
			    tracefs_instance_file_open(c->inst, f, O_RDONLY | O_NONBLOCK);
			if (c->cpu[i].fd < 0)
				continue; /* offline CPU */
			c->tcpu[i] = tracefs_cpu_alloc_fd(c->cpu[i].fd, subbuf, true);
		} else {
			c->tcpu[i] = tracefs_cpu_open(c->inst, i, true);
		}
		if (!c->tcpu[i])
			continue; /* offline CPU */
		int ps = tracefs_cpu_read_size(c->tcpu[i]);
		if (ps > c->page_size)
			c->page_size = ps;
	}
	if (c->page_size <= 0)
		return reel_errf(err, errlen, -EIO,
				 "instance %s: cannot open any per_cpu/cpuN/trace_pipe_raw",
				 c->name);
	return 0;
}

int capture_open(struct capture **out, const struct capture_opts *o, char *err, size_t errlen)
{
	struct capture *c = calloc(1, sizeof(*c));
	int rc;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->guard.lock_fd = -1;
	if (o->instance)
		snprintf(c->name, sizeof(c->name), "%s", o->instance);
	else
		snprintf(c->name, sizeof(c->name), "ioreel-%ld", (long)getpid());
	c->pid_tree = o->pid_tree;
	if ((rc = create_instance(c, o, err, errlen)))
		goto fail;
	if (o->nparts) {
		c->parts = malloc(o->nparts * sizeof(*c->parts));
		if (!c->parts) {
			rc = -ENOMEM;
			goto fail;
		}
		memcpy(c->parts, o->parts, o->nparts * sizeof(*c->parts));
		c->nparts = o->nparts;
	}
	if ((rc = setup_events(c, o, NULL, err, errlen)))
		goto fail;
	if (o->pid_tree) {
		c->cappids = 64;
		c->pids = malloc(c->cappids * sizeof(*c->pids));
		if (!c->pids) {
			rc = -ENOMEM;
			goto fail;
		}
		c->pids[c->npids++] = o->pid_tree;
	}
	if ((rc = open_cpus(c, o, err, errlen)))
		goto fail;
	c->queue_max = page_reader_queue_bytes(c->ncpus, o->buffer_kb ? o->buffer_kb : 8192);
	c->page = malloc((size_t)c->page_size);
	c->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!c->page || !c->kbuf) {
		rc = -ENOMEM;
		goto fail;
	}
	c->st.ncpus = c->ncpus;
	*out = c;
	return 0;
fail:
	capture_close(c);
	return rc;
}

int capture_start(struct capture *c)
{
	/* empty anything from before (nothing should be there: tracing was off) */
	c->t0_unix = now_ns(CLOCK_REALTIME);
	c->t0_mono = now_ns(CLOCK_MONOTONIC);
	int rc = page_reader_start(&c->reader, c->tcpu, c->ncpus, c->page_size, c->t0_mono,
				   c->queue_max);
	if (rc < 0)
		return rc;
	if (tracefs_trace_on(c->inst) < 0)
		return -errno ? -errno : -EIO;
	c->started = 1;
	return 0;
}

int64_t capture_start_unix_ns(const struct capture *c) { return c->t0_unix; }

int64_t capture_start_mono_ns(const struct capture *c) { return c->t0_mono; }

int capture_stop(struct capture *c)
{
	if (!c || !c->inst)
		return 0;
	if (c->started)
		guard_check(&c->guard, 1, 1); /* the last look before it is ours to stop */
	c->started = 0;
	int rc = tracefs_trace_off(c->inst) < 0 ? -EIO : 0;
	page_reader_stop(c->reader); /* after reading everything left */
	return rc;
}

void capture_wait(struct capture *c, int64_t timeout_ns)
{
	if (c->reader) {
		page_reader_wait(c->reader, timeout_ns);
	} else {
		struct timespec ts = {timeout_ns / 1000000000LL, timeout_ns % 1000000000LL};
		nanosleep(&ts, NULL);
	}
}

const char *capture_disturbance(const struct capture *c) { return c->guard.what; }

void capture_set_note(struct capture *c, const char *note) { guard_note(&c->guard, note); }

const char *capture_instance_name(const struct capture *c) { return c->name; }

static const char *intern_comm(struct capture *c, const char *s)
{
	char key[COMM_LEN];
	size_t len = strnlen(s, COMM_LEN - 1);
	memset(key, 0, sizeof(key));
	memcpy(key, s, len);
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)key[i]) * 16777619u;
	if (c->ncomms * 2 >= c->comm_cap) {
		size_t ncap = c->comm_cap ? c->comm_cap * 2 : 256;
		struct comm_ent *n = calloc(ncap, sizeof(*n));
		if (!n)
			return NULL;
		for (size_t i = 0; i < c->comm_cap; i++) {
			if (!c->comms[i].str)
				continue;
			uint32_t hh = 2166136261u;
			for (size_t j = 0; j < COMM_LEN && c->comms[i].name[j]; j++)
				hh = (hh ^ (uint8_t)c->comms[i].name[j]) * 16777619u;
			size_t k = hh & (ncap - 1);
			while (n[k].str)
				k = (k + 1) & (ncap - 1);
			n[k] = c->comms[i];
		}
		free(c->comms);
		c->comms = n;
		c->comm_cap = ncap;
	}
	size_t k = h & (c->comm_cap - 1);
	while (c->comms[k].str) {
		if (!memcmp(c->comms[k].name, key, COMM_LEN))
			return c->comms[k].str;
		k = (k + 1) & (c->comm_cap - 1);
	}
	char *dup = strdup(key);
	if (!dup)
		return NULL;
	memcpy(c->comms[k].name, key, COMM_LEN);
	c->comms[k].str = dup;
	c->ncomms++;
	return dup;
}

static int in_tree(struct capture *c, uint32_t pid)
{
	for (size_t i = 0; i < c->npids; i++)
		if (c->pids[i] == pid)
			return 1;
	return 0;
}

/* A field of a raw event at the offset and size the kernel's format gave
 * (libtraceevent parsed it); the buffer is in host byte order.  Inlined
 * because it runs several times per event. */
static inline unsigned long long num(const struct tep_format_field *f, const void *data)
{
	const unsigned char *p;
	if (!f)
		return 0;
	p = (const unsigned char *)data + f->offset;
	switch (f->size) {
	case 1:
		return *p;
	case 2: {
		uint16_t v;
		memcpy(&v, p, 2);
		return v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, p, 4);
		return v;
	}
	case 8: {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	default: {
		unsigned long long v = 0;
		tep_read_number_field((struct tep_format_field *)f, (void *)data, &v);
		return v;
	}
	}
}

/* e's op and flags from its event's rwbs field; the last field parsed for
 * each kind of event is remembered (nearly every event repeats it). */
static inline int parse_rwbs(struct evdesc *d, const void *data, struct reel_event *e)
{
	const char *rwbs = (const char *)data + d->rwbs->offset;
	size_t size = (size_t)d->rwbs->size;
	uint8_t with_data = e->bytes != 0;
	if (size > RWBS_CACHE)
		return capture_rwbs(rwbs, strnlen(rwbs, size), e->bytes, &e->op, &e->flags);
	if (!d->rwbs_last.valid || d->rwbs_last.with_data != with_data ||
	    memcmp(d->rwbs_last.raw, rwbs, size)) {
		memcpy(d->rwbs_last.raw, rwbs, size);
		d->rwbs_last.with_data = with_data;
		d->rwbs_last.rc = capture_rwbs(rwbs, strnlen(rwbs, size), e->bytes,
					       &d->rwbs_last.op, &d->rwbs_last.flags);
		d->rwbs_last.valid = 1;
	}
	e->op = d->rwbs_last.op;
	e->flags = d->rwbs_last.flags;
	return d->rwbs_last.rc;
}

/* Parse one raw event into the CPU's queue.  Returns 0, or -ENOMEM. */
static int parse_event(struct capture *c, struct cpubuf *cb, int cpu, void *data, int size,
		       unsigned long long ts)
{
	if (size < c->f_type->offset + c->f_type->size) {
		c->st.bad++;
		return 0;
	}
	unsigned long long type = num(c->f_type, data);
	if (type >= sizeof(c->by_id) / sizeof(c->by_id[0]) || !c->by_id[type])
		return 0;
	struct evdesc *d = c->by_id[type];
	if (size < d->min_size) {
		c->st.bad++;
		return 0;
	}
	uint32_t pid = (uint32_t)num(c->f_pid, data);

	if (cb->n == cb->cap) {
		/* compact, then grow */
		if (cb->head) {
			memmove(cb->q, cb->q + cb->head, (cb->n - cb->head) * sizeof(*cb->q));
			cb->n -= cb->head;
			cb->head = 0;
		}
		if (cb->n == cb->cap) {
			size_t ncap = cb->cap ? cb->cap * 2 : 4096;
			void *nq = realloc(cb->q, ncap * sizeof(*cb->q));
			if (!nq)
				return -ENOMEM;
			cb->q = nq;
			cb->cap = ncap;
		}
	}
	struct reel_event *e = &cb->q[cb->n].e;
	/* field by field: a memset here was a tenth of the parsing */
	*e =
	    (struct reel_event){.t_ns = (int64_t)ts - c->t0_mono, .cpu = (uint16_t)cpu, .pid = pid};
	if (d->kind == K_FORK) { /* applied in merge order: action 0 */
		e->action = 0;
		e->from_sector = num(d->parent_pid, data);
		e->sector = num(d->child_pid, data);
		cb->n++;
		return 0;
	}
	e->action = kinds[d->kind].action;
	e->devt = (uint32_t)num(d->dev, data);
	e->sector = num(d->sector, data);
	uint64_t nsec = num(d->nr_sector, data);
	e->bytes = (uint32_t)(nsec << 9);
	if (d->bytes && d->kind == K_ISSUE && !e->bytes)
		e->bytes = (uint32_t)num(d->bytes, data);
	if (parse_rwbs(d, data, e) < 0)
		return 0; /* an op the record cannot express */
	if (d->comm) {
		const char *raw = (const char *)data + d->comm->offset;
		size_t cl = d->comm->size < COMM_LEN ? (size_t)d->comm->size : COMM_LEN;
		if (cb->last_str && cl == COMM_LEN && !memcmp(raw, cb->last_comm, COMM_LEN)) {
			e->comm = cb->last_str;
		} else {
			char comm[COMM_LEN + 1];
			memcpy(comm, raw, cl);
			comm[cl] = 0;
			e->comm = intern_comm(c, comm);
			if (cl == COMM_LEN && e->comm) {
				memcpy(cb->last_comm, raw, COMM_LEN);
				cb->last_str = e->comm;
			}
		}
	}
	if (d->error)
		e->error = (int32_t)(uint32_t)num(d->error, data);
	if (d->kind == K_BIO_REMAP || d->kind == K_RQ_REMAP) {
		e->from_devt = (uint32_t)num(d->old_dev, data);
		e->from_sector = num(d->old_sector, data);
	}
	if (d->kind == K_SPLIT)
		e->split_sector = num(d->new_sector, data);
	for (size_t i = 0; i < c->nparts; i++) {
		const struct capture_partmap *m = &c->parts[i];
		if (e->action == REEL_ACT_REMAP && e->from_devt == m->part)
			return 0; /* the partition's own remap: translated below */
		if (e->devt == m->disk && e->sector >= m->start &&
		    e->sector < m->start + m->nsect) {
			e->devt = m->part;
			e->sector -= m->start;
			if (e->split_sector >= m->start)
				e->split_sector -= m->start;
			break;
		}
	}
	cb->n++;
	return 0;
}

/* Parse one raw ring-buffer page (a buffer_data_page: 8-byte timestamp,
 * a long "commit" = data length with flags in its top bits, the events, and
 * the missed-event count after them when stored).  The header and every
 * event are checked against len before libtraceevent's kbuffer walks them. */
static int load_page(struct capture *c, int cpu, void *page, size_t len)
{
	const size_t hdr = 8 + sizeof(long);
	unsigned long commit;
	if (len < hdr) {
		c->st.bad++;
		return 0;
	}
	memcpy(&commit, (char *)page + 8, sizeof(commit));
	size_t data_len = commit & ((1ul << 27) - 1);
	size_t need = hdr + data_len + (commit & (1ul << 30) ? sizeof(long) : 0);
	if (need > len) {
		c->st.bad++;
		return 0;
	}
	c->st.pages++;
	if (kbuffer_load_subbuffer(c->kbuf, page) < 0) {
		c->st.bad++;
		return 0;
	}
	int missed = kbuffer_missed_events(c->kbuf);
	if (missed > 0)
		c->st.missed += (uint64_t)missed;
	else if (missed < 0)
		c->st.missed += 1; /* "some, count unknown": at least one */
	const char *end = (const char *)page + hdr + data_len;
	unsigned long long ts;
	for (void *data = kbuffer_read_event(c->kbuf, &ts); data;
	     data = kbuffer_next_event(c->kbuf, &ts)) {
		int size = kbuffer_event_size(c->kbuf);
		if ((const char *)data < (const char *)page + hdr || size < 0 ||
		    (const char *)data + size > end) {
			c->st.bad++;
			break;
		}
		int rc = parse_event(c, &c->cpu[cpu], cpu, data, size, ts);
		if (rc)
			return rc;
	}
	return 0;
}

/* Parse the pages the reader queued (all of them when final), and apply
 * its marks: how far each CPU has been read. */
static int parse_queued(struct capture *c, int final)
{
	for (;;) {
		struct page_item *list = page_reader_take(c->reader, TAKE_MAX);
		if (!list)
			return 0;
		int rc = 0;
		for (struct page_item *it = list; it && !rc; it = it->next) {
			struct cpubuf *cb = &c->cpu[it->cpu];
			if (it->len && (rc = load_page(c, it->cpu, it->data, it->len)))
				break;
			if (it->mark == PAGE_MARK_ALL)
				cb->drained_to = it->all_before;
			else if (it->mark == PAGE_MARK_PARTIAL && cb->n > cb->head &&
				 cb->q[cb->n - 1].e.t_ns > cb->drained_to)
				cb->drained_to = cb->q[cb->n - 1].e.t_ns;
		}
		page_reader_give(c->reader, list);
		if (rc || !final)
			return rc;
	}
}

int capture_feed(struct capture *c, int cpu, const void *page, size_t len)
{
	if (cpu < 0 || cpu >= c->ncpus)
		return -EINVAL;
	/* kbuffer keeps a pointer to the page while its events are parsed;
	 * an aligned private copy also serves callers' unaligned buffers */
	if ((int)len > c->page_size) {
		void *np = realloc(c->page, len);
		if (!np)
			return -ENOMEM;
		c->page = np;
		c->page_size = (int)len;
	}
	memcpy(c->page, page, len);
	return load_page(c, cpu, c->page, len);
}

int capture_open_offline(struct capture **out, const char *const *systems,
			 const char *const *formats, size_t n, int ncpus,
			 const struct capture_opts *o, char *err, size_t errlen)
{
	struct capture_opts none = {0};
	struct fmt_src src = {systems, formats, n};
	struct capture *c = calloc(1, sizeof(*c));
	int rc;
	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->guard.lock_fd = -1;
	if (!o)
		o = &none;
	snprintf(c->name, sizeof(c->name), "offline");
	c->pid_tree = o->pid_tree;
	c->ncpus = ncpus > 0 ? ncpus : 1;
	c->cpu = calloc((size_t)c->ncpus, sizeof(*c->cpu));
	c->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (o->pid_tree) {
		c->cappids = 64;
		c->pids = malloc(c->cappids * sizeof(*c->pids));
		if (c->pids)
			c->pids[c->npids++] = o->pid_tree;
	}
	if (!c->cpu || !c->kbuf || (o->pid_tree && !c->pids)) {
		capture_close(c);
		return -ENOMEM;
	}
	rc = setup_events(c, o, &src, err, errlen);
	if (rc) {
		capture_close(c);
		return rc;
	}
	c->st.ncpus = c->ncpus;
	*out = c;
	return 0;
}

long capture_poll(struct capture *c, int final, capture_event_fn fn, void *ctx)
{
	int64_t wm = INT64_MAX;
	long handed = 0;
	int rc;

	if (c->inst && c->started && !final) { /* tracing_on often, the rest each second */
		int64_t now = now_ns(CLOCK_MONOTONIC);
		int full = now - c->last_check >= 1000000000LL;
		if (full)
			c->last_check = now;
		if (full || now - c->last_on_check >= GUARD_EVERY_NS) {
			c->last_on_check = now;
			guard_check(&c->guard, 1, full);
		}
	}
	if (c->reader) {
		if (final)
			page_reader_stop(c->reader); /* (capture_stop() did, normally) */
		if ((rc = parse_queued(c, final)))
			return rc;
	}
	for (int i = 0; i < c->ncpus; i++)
		if (c->tcpu && c->tcpu[i] && c->cpu[i].drained_to < wm)
			wm = c->cpu[i].drained_to;
	if (final)
		wm = INT64_MAX;
	for (;;) {
		int best = -1;
		int64_t bt = 0;
		for (int i = 0; i < c->ncpus; i++) {
			struct cpubuf *cb = &c->cpu[i];
			if (cb->head < cb->n && (best < 0 || cb->q[cb->head].e.t_ns < bt)) {
				best = i;
				bt = cb->q[cb->head].e.t_ns;
			}
		}
		if (best < 0 || bt > wm)
			break;
		struct reel_event *e = &c->cpu[best].q[c->cpu[best].head++].e;
		if (e->action == 0) { /* fork */
			if (c->pid_tree && in_tree(c, (uint32_t)e->from_sector) &&
			    !in_tree(c, (uint32_t)e->sector)) {
				if (c->npids == c->cappids) {
					void *np =
					    realloc(c->pids, 2 * c->cappids * sizeof(*c->pids));
					if (!np)
						return -ENOMEM;
					c->pids = np;
					c->cappids *= 2;
				}
				c->pids[c->npids++] = (uint32_t)e->sector;
			}
			continue;
		}
		if (c->pid_tree &&
		    (e->action == REEL_ACT_QUEUE || e->action == REEL_ACT_BACKMERGE ||
		     e->action == REEL_ACT_FRONTMERGE || e->action == REEL_ACT_SPLIT ||
		     e->action == REEL_ACT_REMAP) &&
		    !in_tree(c, e->pid)) {
			c->st.filtered++;
			continue;
		}
		c->st.events++;
		handed++;
		if (fn && (rc = fn(ctx, e)) < 0)
			return rc;
	}
	for (int i = 0; i < c->ncpus; i++) {
		struct cpubuf *cb = &c->cpu[i];
		if (cb->head == cb->n)
			cb->head = cb->n = 0;
	}
	return handed;
}

static void read_cpu_stats(struct capture *c, int cpu, uint64_t *overrun, uint64_t *dropped)
{
	char file[64];
	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	char *s = tracefs_instance_file_read(c->inst, file, NULL);
	if (!s)
		return;
	for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long v;
		if (sscanf(line, "overrun: %llu", &v) == 1 ||
		    sscanf(line, "commit overrun: %llu", &v) == 1)
			*overrun += v;
		else if (sscanf(line, "dropped events: %llu", &v) == 1)
			*dropped += v;
	}
	free(s);
}

void capture_stats(struct capture *c, struct capture_stats *s)
{
	uint64_t ov = 0, dr = 0;
	for (int i = 0; c->inst && i < c->ncpus; i++)
		read_cpu_stats(c, i, &ov, &dr);
	c->st.overrun = ov;
	c->st.dropped = dr;
	c->st.lost = ov + dr + c->st.missed;
	c->st.disturbed = c->guard.disturbed;
	if (c->reader)
		page_reader_counts(c->reader, &c->st.queue_full, &c->st.queue_peak);
	*s = c->st;
}

void capture_close(struct capture *c)
{
	if (!c)
		return;
	if (c->inst) {
		tracefs_trace_off(c->inst);
		tracefs_event_disable(c->inst, NULL, NULL);
	}
	page_reader_free(c->reader); /* before the buffers it reads close */
	for (int i = 0; c->cpu && i < c->ncpus; i++) {
		if (c->tcpu && c->tcpu[i] && c->cpu[i].fd > 0) {
			tracefs_cpu_free_fd(c->tcpu[i]);
			close(c->cpu[i].fd);
		} else if (c->tcpu && c->tcpu[i]) {
			tracefs_cpu_close(c->tcpu[i]);
		}
		free(c->cpu[i].q);
	}
	free(c->cpu);
	free(c->tcpu);
	if (c->inst) {
		tracefs_instance_destroy(c->inst);
		tracefs_instance_free(c->inst);
	}
	guard_release(&c->guard); /* after the instance is gone */
	if (c->kbuf)
		kbuffer_free(c->kbuf);
	if (c->tep)
		tep_free(c->tep);
	for (size_t i = 0; i < c->comm_cap; i++)
		free((char *)c->comms[i].str);
	free(c->comms);
	free(c->pids);
	free(c->parts);
	free(c->page);
	free(c);
}
