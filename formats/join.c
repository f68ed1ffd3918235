/*
 * formats/join.c - block-layer events (blktrace actions) -> one record per
 * I/O.  Shared by the blktrace and blkparse importers and by capture.
 *
 * Model.  An I/O is a bio seen at Q.  It owns one or more *parts* (a split
 * adds one); a part sits either alone (queued, keyed by device and sector so
 * that A, X, M, F and G find it) or in a *request* (created at G, or at D
 * when no G was traced).  Requests are matched by D, C and R on (device,
 * start sector); back merges find them by end sector, front merges by start.
 * A request's completion completes all its parts; an I/O is complete when
 * all its parts are (or, when it was remapped away from a traced bio-based
 * device such as dm, when that device completes the original bio).
 *
 * I/Os are kept in a FIFO in queue order and written from its head as soon
 * as the head is complete.  An I/O still incomplete `window` of trace time
 * after its queueing, or when more than `cap` are pending, is written as it
 * stands (missing fields absent, counted in no_issue / no_complete): memory
 * stays bounded whatever the trace length.
 *
 * This file is over 1,000 lines on purpose: it is one state machine (the
 * life of an I/O from Q through its parts and requests to the record
 * written), and its hash, request and FIFO helpers exist only for it.
 */
#include "formats/reel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEF_WINDOW_NS (30ll * 1000000000ll)
#define DEF_CAP ((size_t)1 << 20)
#define NALIAS 64
#define NQDEVS 32
#define NRCACHE 4096
#define NCOMM 1024

#define container_of(p, type, member) ((type *)((char *)(p)-offsetof(type, member)))

/*
 * ---- a hash on (devt, sector, class) of lists, intrusive nodes ----------
 * Each distinct key has one entry holding its nodes newest first, so that
 * finding the newest or oldest node of a key, and removing any node, take
 * constant time however many I/Os share a sector (a trace that queues a
 * million bios at one sector and never completes them stays linear).  The
 * class splits a key's nodes by a state the lookups select on (a part
 * expecting its Q, a request issued, an I/O done); a node moving between
 * classes keeps its place in the order (seq) it was added in.
 */
struct hkey;
struct hnode {
	struct hnode *newer, *older;
	struct hkey *k; /* NULL when not in a table */
	uint64_t key, seq;
	uint32_t devt;
};
struct hkey {
	struct hkey *next; /* the bucket's chain */
	struct hnode *newest, *oldest;
	uint64_t key;
	uint32_t devt;
	uint8_t cls;
};
struct htab {
	struct hkey **b;
	size_t mask, n; /* n: keys in use */
	struct hkey *spare;
	uint64_t seq;
};

static inline size_t hfn(uint32_t devt, uint64_t key)
{
	uint64_t h = key * 0x9E3779B97F4A7C15ull ^ ((uint64_t)devt + 1) * 0xC2B2AE3D27D4EB4Full;
	return (size_t)(h ^ (h >> 31));
}

static inline size_t hslot(const struct htab *t, uint32_t devt, uint64_t key, unsigned cls)
{
	return (hfn(devt, key) + cls * 0x9E3779B1u) & t->mask;
}

static int h_grow(struct htab *t)
{
	size_t nc = t->b ? (t->mask + 1) * 2 : 1024;
	struct hkey **nb = calloc(nc, sizeof(*nb)), **ob = t->b;
	if (!nb)
		return REEL_E_NOMEM;
	size_t om = t->mask;
	t->b = nb;
	t->mask = nc - 1;
	for (size_t i = 0; ob && i <= om; i++)
		for (struct hkey *k = ob[i], *nx; k; k = nx) {
			nx = k->next;
			size_t s = hslot(t, k->devt, k->key, k->cls);
			k->next = nb[s];
			nb[s] = k;
		}
	free(ob);
	return 0;
}

static struct hkey *h_find(const struct htab *t, uint32_t devt, uint64_t key, unsigned cls)
{
	if (!t->b)
		return NULL;
	for (struct hkey *k = t->b[hslot(t, devt, key, cls)]; k; k = k->next)
		if (k->key == key && k->devt == devt && k->cls == cls)
			return k;
	return NULL;
}

/* Put n into key's list at its place by seq (from whichever end is nearer:
 * new nodes go first at once). */
static int h_link(struct htab *t, struct hnode *n, unsigned cls)
{
	struct hkey *k = h_find(t, n->devt, n->key, cls);
	if (!k) {
		if (!t->b || t->n >= t->mask + 1) {
			int rc = h_grow(t);
			if (rc)
				return rc;
		}
		k = t->spare;
		if (k)
			t->spare = k->next;
		else if (!(k = malloc(sizeof(*k))))
			return REEL_E_NOMEM;
		size_t s = hslot(t, n->devt, n->key, cls);
		*k = (struct hkey){
		    .next = t->b[s], .key = n->key, .devt = n->devt, .cls = (uint8_t)cls};
		t->b[s] = k;
		t->n++;
	}
	struct hnode *newer, *older, *hi = k->newest, *lo = k->oldest;
	/* walk from both ends at once to n's place by seq */
	for (;;) {
		if (!hi || hi->seq < n->seq) {
			older = hi;
			newer = hi ? hi->newer : k->oldest;
			break;
		}
		if (!lo || lo->seq > n->seq) {
			newer = lo;
			older = lo ? lo->older : k->newest;
			break;
		}
		hi = hi->older;
		lo = lo->newer;
	}
	n->newer = newer;
	n->older = older;
	if (newer)
		newer->older = n;
	else
		k->newest = n;
	if (older)
		older->newer = n;
	else
		k->oldest = n;
	n->k = k;
	return 0;
}

static int h_add_cls(struct htab *t, struct hnode *n, uint32_t devt, uint64_t key, unsigned cls)
{
	n->devt = devt;
	n->key = key;
	n->seq = ++t->seq;
	return h_link(t, n, cls);
}

static int h_add(struct htab *t, struct hnode *n, uint32_t devt, uint64_t key)
{
	return h_add_cls(t, n, devt, key, 0);
}

static void h_unlink(struct htab *t, struct hnode *n)
{
	struct hkey *k = n->k;
	if (n->newer)
		n->newer->older = n->older;
	else
		k->newest = n->older;
	if (n->older)
		n->older->newer = n->newer;
	else
		k->oldest = n->newer;
	n->k = NULL;
	n->newer = n->older = NULL;
	if (k->newest)
		return;
	for (struct hkey **pp = &t->b[hslot(t, k->devt, k->key, k->cls)]; *pp; pp = &(*pp)->next)
		if (*pp == k) {
			*pp = k->next;
			break;
		}
	t->n--;
	k->next = t->spare;
	t->spare = k;
}

static void h_del(struct htab *t, struct hnode *n)
{
	if (n->k)
		h_unlink(t, n);
}

/* Move n (in t) to another class, keeping its place in the order. */
static int h_set_cls(struct htab *t, struct hnode *n, unsigned cls)
{
	if (!n->k || n->k->cls == cls)
		return 0;
	h_unlink(t, n);
	return h_link(t, n, cls);
}

/* The newest and oldest node of (devt, key) in class cls, or NULL. */
static inline struct hnode *h_newest(const struct htab *t, uint32_t devt, uint64_t key,
				     unsigned cls)
{
	struct hkey *k = h_find(t, devt, key, cls);
	return k ? k->newest : NULL;
}

static inline struct hnode *h_oldest(const struct htab *t, uint32_t devt, uint64_t key,
				     unsigned cls)
{
	struct hkey *k = h_find(t, devt, key, cls);
	return k ? k->oldest : NULL;
}

/* The newer (older: pick 0) of two nodes that may be NULL. */
static inline struct hnode *h_pick(struct hnode *a, struct hnode *b, int newer)
{
	if (!a || !b)
		return a ? a : b;
	return (a->seq > b->seq) == !!newer ? a : b;
}

static void h_free(struct htab *t)
{
	for (size_t i = 0; t->b && i <= t->mask; i++)
		for (struct hkey *k = t->b[i], *nx; k; k = nx) {
			nx = k->next;
			free(k);
		}
	for (struct hkey *k = t->spare, *nx; k; k = nx) {
		nx = k->next;
		free(k);
	}
	free(t->b);
}

/* ---- objects ------------------------------------------------------------ */
struct io;
struct req;

struct part {
	struct hnode hq; /* in j->parts while in_q */
	struct io *io;
	struct part *io_next;
	struct req *req;
	struct part *r_next, *r_prev; /* the request's parts, in order */
	uint64_t sector;
	uint32_t nsect;
	uint32_t devt;
	uint8_t in_q, expect_q;
};

struct req {
	struct hnode hs, he; /* by start (always), by end (while mergeable) */
	struct req *prev, *next;
	struct part *parts, *ptail;
	uint32_t devt;
	uint64_t start, end;
	int64_t created_ns;
	uint8_t issued, in_he, had_parts, preflush, flush_issued, requeued;
};

struct io {
	struct hnode ho; /* origin (devt, sector) until written */
	struct io *prev, *next;
	struct part *parts;
	struct reel_rec rec;
	uint32_t devt; /* device the record belongs to */
	uint32_t live; /* parts not yet complete */
	uint8_t done, needs_origin_c, split, remapped, merged;
};

struct devname {
	uint32_t devt;
	char name[64];
};

struct devid {
	uint32_t devt;
	uint16_t id;
};

struct reel_join {
	struct reel_writer *w;
	struct htab parts, rstart, rend, origins;
	struct io *head, *tail;
	size_t npending;
	struct req *rhead, *rtail;
	int64_t now;
	int64_t window;
	size_t cap;
	uint32_t *traced;
	size_t ntraced;
	struct devid *ids;
	size_t nids, ids_cap;
	struct devname *names;
	size_t nnames, names_cap;
	struct {
		uint32_t from, to;
	} alias[NALIAS];
	size_t nalias;
	uint32_t qdevs[NQDEVS];
	size_t nqdevs;
	struct {
		uint64_t sector;
		uint32_t devt;
		uint8_t valid;
	} rcache[NRCACHE];
	struct {
		uint32_t pid;
		int64_t id;
		char name[32];
	} comm[NCOMM];
	struct reel_join_stats st;
	int err;
	int finished;
};

static inline uint32_t nsect_of(uint32_t bytes) { return (uint32_t)(((uint64_t)bytes + 511) >> 9); }

/* t is more than win before now (no overflow whatever the times) */
static inline int older(int64_t now, int64_t t, int64_t win)
{
	return now > t && (uint64_t)now - (uint64_t)t > (uint64_t)win;
}

static int is_traced(const struct reel_join *j, uint32_t devt)
{
	if (!j->ntraced)
		return 1;
	for (size_t i = 0; i < j->ntraced; i++)
		if (j->traced[i] == devt)
			return 1;
	return 0;
}

static uint32_t alias_of(const struct reel_join *j, uint32_t devt)
{
	for (int hops = 0; hops < 4; hops++) {
		size_t i;
		for (i = 0; i < j->nalias; i++)
			if (j->alias[i].from == devt)
				break;
		if (i == j->nalias)
			break;
		devt = j->alias[i].to;
	}
	return devt;
}

static void alias_add(struct reel_join *j, uint32_t from, uint32_t to)
{
	if (from == to || j->nalias == NALIAS || (j->ntraced && is_traced(j, from)))
		return;
	for (size_t i = 0; i < j->nalias; i++)
		if (j->alias[i].from == from)
			return;
	j->alias[j->nalias].from = from;
	j->alias[j->nalias].to = to;
	j->nalias++;
}

/* Device id of devt for a record; -1 when the device is not traced. */
static int resolve_id(struct reel_join *j, uint32_t devt)
{
	devt = alias_of(j, devt);
	if (j->ntraced) {
		for (size_t i = 0; i < j->ntraced; i++)
			if (j->traced[i] == devt)
				return (int)i;
		return -1;
	}
	for (size_t i = 0; i < j->nids; i++)
		if (j->ids[i].devt == devt)
			return j->ids[i].id;
	if (j->nids >= 65535)
		return -1;
	if (REEL_VEC_RESERVE(j->ids, j->nids, j->ids_cap, 8)) {
		j->err = REEL_E_NOMEM;
		return -1;
	}
	struct reel_device d;
	memset(&d, 0, sizeof(d));
	d.id = (uint16_t)j->nids;
	d.major = reel_devt_major(devt);
	d.minor = reel_devt_minor(devt);
	snprintf(d.name, sizeof(d.name), "%u,%u", d.major, d.minor);
	for (size_t i = 0; i < j->nnames; i++)
		if (j->names[i].devt == devt)
			snprintf(d.name, sizeof(d.name), "%s", j->names[i].name);
	int rc = reel_writer_add_device(j->w, &d);
	if (rc && rc != REEL_E_ARG) {
		j->err = rc;
		return -1;
	}
	j->ids[j->nids].devt = devt;
	j->ids[j->nids].id = d.id;
	j->nids++;
	return d.id;
}

static void note_qdev(struct reel_join *j, uint32_t devt)
{
	for (size_t i = 0; i < j->nqdevs; i++)
		if (j->qdevs[i] == devt)
			return;
	if (j->nqdevs < NQDEVS)
		j->qdevs[j->nqdevs++] = devt;
}

static int seen_q(const struct reel_join *j, uint32_t devt)
{
	for (size_t i = 0; i < j->nqdevs; i++)
		if (j->qdevs[i] == devt)
			return 1;
	return 0;
}

static int64_t intern_comm(struct reel_join *j, uint32_t pid, const char *name)
{
	size_t len = strlen(name);
	if (len >= sizeof(j->comm[0].name))
		return reel_writer_intern(j->w, name);
	size_t s = pid % NCOMM;
	if (j->comm[s].id > 0 && j->comm[s].pid == pid && !strcmp(j->comm[s].name, name))
		return j->comm[s].id - 1;
	int64_t id = reel_writer_intern(j->w, name);
	if (id >= 0) {
		j->comm[s].pid = pid;
		j->comm[s].id = id + 1;
		memcpy(j->comm[s].name, name, len + 1);
	}
	return id;
}

/* ---- parts and requests ------------------------------------------------- */
static struct part *find_part(struct reel_join *j, uint32_t devt, uint64_t sector, int want_expect)
{
	/* newest first; want_expect: 1 only expecting a Q, 0 prefer not, -1 any */
	struct hnode *q = h_newest(&j->parts, devt, sector, 1), *n = q;
	if (want_expect == 0)
		n = h_newest(&j->parts, devt, sector, 0);
	else if (want_expect < 0)
		n = h_pick(h_newest(&j->parts, devt, sector, 0), q, 1);
	if (!n && want_expect == 0)
		n = q;
	return n ? container_of(n, struct part, hq) : NULL;
}

/* mode: 0 oldest unissued, 1 oldest issued (else oldest any), 2 newest unissued */
static struct req *find_req_start(struct reel_join *j, uint32_t devt, uint64_t sector, int mode)
{
	struct hnode *n;
	if (mode == 2)
		n = h_newest(&j->rstart, devt, sector, 0);
	else if (mode == 1 && (n = h_oldest(&j->rstart, devt, sector, 1)))
		;
	else
		n = h_oldest(&j->rstart, devt, sector, 0);
	return n ? container_of(n, struct req, hs) : NULL;
}

static struct req *find_req_end(struct reel_join *j, uint32_t devt, uint64_t sector)
{
	struct hnode *n = h_newest(&j->rend, devt, sector, 0);
	return n ? container_of(n, struct req, he) : NULL;
}

static void part_unlink_req(struct part *p)
{
	struct req *r = p->req;
	if (!r)
		return;
	if (p->r_prev)
		p->r_prev->r_next = p->r_next;
	else
		r->parts = p->r_next;
	if (p->r_next)
		p->r_next->r_prev = p->r_prev;
	else
		r->ptail = p->r_prev;
	p->req = NULL;
	p->r_next = p->r_prev = NULL;
}

static void part_unlink_io(struct part *p)
{
	for (struct part **pp = &p->io->parts; *pp; pp = &(*pp)->io_next)
		if (*pp == p) {
			*pp = p->io_next;
			break;
		}
}

static void part_free(struct reel_join *j, struct part *p)
{
	if (p->in_q)
		h_del(&j->parts, &p->hq);
	part_unlink_req(p);
	free(p);
}

static void part_to_req(struct reel_join *j, struct part *p, struct req *r, int front)
{
	if (p->in_q) {
		h_del(&j->parts, &p->hq);
		p->in_q = 0;
	}
	p->expect_q = 0;
	p->req = r;
	if (front || !r->parts) {
		p->r_prev = NULL;
		p->r_next = r->parts;
		if (r->parts)
			r->parts->r_prev = p;
		else
			r->ptail = p;
		r->parts = p;
	} else {
		p->r_prev = r->ptail;
		p->r_next = NULL;
		r->ptail->r_next = p;
		r->ptail = p;
	}
	r->had_parts = 1;
}

static struct req *req_new(struct reel_join *j, uint32_t devt, uint64_t start, uint64_t end,
			   int64_t t)
{
	struct req *r = calloc(1, sizeof(*r));
	if (!r) {
		j->err = REEL_E_NOMEM;
		return NULL;
	}
	r->devt = devt;
	r->start = start;
	r->end = end;
	r->created_ns = t;
	if (h_add(&j->rstart, &r->hs, devt, start) || h_add(&j->rend, &r->he, devt, end)) {
		h_del(&j->rstart, &r->hs);
		free(r);
		j->err = REEL_E_NOMEM;
		return NULL;
	}
	r->in_he = 1;
	r->prev = j->rtail;
	if (j->rtail)
		j->rtail->next = r;
	else
		j->rhead = r;
	j->rtail = r;
	return r;
}

static void req_free(struct reel_join *j, struct req *r)
{
	h_del(&j->rstart, &r->hs);
	if (r->in_he)
		h_del(&j->rend, &r->he);
	for (struct part *p = r->parts, *nx; p; p = nx) {
		nx = p->r_next;
		p->req = NULL;
		p->r_next = p->r_prev = NULL;
	}
	r->parts = r->ptail = NULL;
	if (r->prev)
		r->prev->next = r->next;
	else
		j->rhead = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		j->rtail = r->prev;
	free(r);
}

static void req_unmergeable(struct reel_join *j, struct req *r)
{
	if (r->in_he) {
		h_del(&j->rend, &r->he);
		r->in_he = 0;
	}
}

/* ---- I/O state ------------------------------------------------------------ */
static void io_set_issue(struct io *io, int64_t t)
{
	if (!(io->rec.has & REEL_HAS_ISSUE) || t < io->rec.issue_ns) {
		io->rec.issue_ns = t;
		io->rec.has |= REEL_HAS_ISSUE;
	}
}

static void io_set_complete(struct io *io, int64_t t, int32_t err)
{
	if (!(io->rec.has & REEL_HAS_COMPLETE) || t > io->rec.complete_ns)
		io->rec.complete_ns = t;
	io->rec.has |= REEL_HAS_COMPLETE | REEL_HAS_ERROR;
	if (err)
		io->rec.error = err;
}

static void part_complete(struct reel_join *j, struct part *p, int64_t t, int32_t err)
{
	struct io *io = p->io;
	io_set_complete(io, t, err);
	part_unlink_io(p);
	part_free(j, p);
	if (io->live)
		io->live--;
	if (!io->live && !io->needs_origin_c) {
		io->done = 1;
		h_del(&j->origins, &io->ho);
	}
}

static void io_complete_all(struct reel_join *j, struct io *io, int64_t t, int32_t err)
{
	io_set_complete(io, t, err);
	while (io->parts) {
		struct part *p = io->parts;
		io->parts = p->io_next;
		part_free(j, p);
	}
	io->live = 0;
	io->done = 1;
	h_del(&j->origins, &io->ho);
}

static int io_emit(struct reel_join *j, struct io *io)
{
	if (io->prev)
		io->prev->next = io->next;
	else
		j->head = io->next;
	if (io->next)
		io->next->prev = io->prev;
	else
		j->tail = io->prev;
	j->npending--;
	h_del(&j->origins, &io->ho);
	while (io->parts) {
		struct part *p = io->parts;
		io->parts = p->io_next;
		part_free(j, p);
	}
	int rc = 0;
	int id = resolve_id(j, io->devt);
	if (id >= 0) {
		io->rec.dev = (uint16_t)id;
		io->rec.has |= REEL_HAS_DEV;
		if (!(io->rec.has & REEL_HAS_ISSUE))
			j->st.no_issue++;
		if (!(io->rec.has & REEL_HAS_COMPLETE))
			j->st.no_complete++;
		j->st.merged += io->merged;
		j->st.split += io->split;
		j->st.remapped += io->remapped;
		rc = reel_write(j->w, &io->rec);
		if (!rc)
			j->st.records++;
	}
	free(io);
	if (rc && !j->err)
		j->err = rc;
	return rc;
}

static int drain(struct reel_join *j, int all)
{
	while (j->head && !j->err) {
		struct io *io = j->head;
		if (!all && !io->done && !older(j->now, io->rec.queue_ns, j->window) &&
		    j->npending <= j->cap)
			break;
		io_emit(j, io);
	}
	/* forget old requests nobody refers to any more */
	for (struct req *r = j->rhead, *nx; r; r = nx) {
		nx = r->next;
		if (!all && !older(j->now, r->created_ns, j->window))
			break;
		if (all || !r->parts)
			req_free(j, r);
	}
	return j->err;
}

/* ---- event handlers -------------------------------------------------------- */
static int on_queue(struct reel_join *j, const struct reel_event *e)
{
	uint32_t n = nsect_of(e->bytes);
	struct part *p = find_part(j, e->devt, e->sector, 1);
	if (p) { /* the continuation of a remapped or split bio */
		p->expect_q = 0;
		if (h_set_cls(&j->parts, &p->hq, 0))
			return j->err = REEL_E_NOMEM;
		if (n)
			p->nsect = n;
		return 0;
	}
	note_qdev(j, e->devt);
	size_t rs = hfn(e->devt, e->sector) % NRCACHE;
	int remapped = j->rcache[rs].valid && j->rcache[rs].devt == e->devt &&
		       j->rcache[rs].sector == e->sector;
	if (remapped)
		j->rcache[rs].valid = 0;

	struct io *io = calloc(1, sizeof(*io));
	p = calloc(1, sizeof(*p));
	if (!io || !p) {
		free(io);
		free(p);
		return j->err = REEL_E_NOMEM;
	}
	struct reel_rec *r = &io->rec;
	r->queue_ns = e->t_ns;
	r->offset = e->sector == REEL_SECTOR_UNKNOWN ? 0 : e->sector * 512;
	r->length = e->bytes;
	r->op = e->op;
	r->flags = e->flags;
	r->pid = e->pid;
	r->cpu = e->cpu;
	r->has = REEL_HAS_QUEUE | REEL_HAS_CPU | REEL_HAS_FLAGS;
	/* pid 0 without a name is no process at all (blkparse text "[]", what
	 * exporters write for an I/O whose source had no pid) */
	if (e->pid || (e->comm && e->comm[0]))
		r->has |= REEL_HAS_PID;
	if (e->comm && e->comm[0]) {
		int64_t id = intern_comm(j, e->pid, e->comm);
		if (id < 0) {
			free(io);
			free(p);
			return j->err = (int)id;
		}
		r->comm = (uint32_t)id;
		r->has |= REEL_HAS_COMM;
	}
	io->devt = e->devt;
	io->live = 1;
	io->remapped = (uint8_t)remapped;
	io->parts = p;
	p->io = io;
	p->devt = e->devt;
	p->sector = e->sector;
	p->nsect = n;
	if (h_add(&j->origins, &io->ho, e->devt, e->sector) ||
	    h_add(&j->parts, &p->hq, e->devt, e->sector)) {
		h_del(&j->origins, &io->ho);
		free(io);
		free(p);
		return j->err = REEL_E_NOMEM;
	}
	p->in_q = 1;
	io->prev = j->tail;
	if (j->tail)
		j->tail->next = io;
	else
		j->head = io;
	j->tail = io;
	j->npending++;
	return 0;
}

/*
 * A remap from inside a bio queued on a traced device, not from its start:
 * a bio-based device (dm) sending one more clone of it down.  The clone is
 * another part of that I/O (it completes when the device completes the
 * original bio), not a new I/O.  The recent I/Os are searched, newest first.
 */
static int remap_clone(struct reel_join *j, const struct reel_event *e)
{
	int n = 0;
	for (struct io *io = j->tail; io && n < 256; io = io->prev, n++) {
		uint64_t s0 = io->ho.key, len = nsect_of(io->rec.length);
		if (io->ho.devt != e->from_devt || e->from_sector < s0 ||
		    e->from_sector >= s0 + len)
			continue;
		struct part *q = calloc(1, sizeof(*q));
		if (!q)
			return j->err = REEL_E_NOMEM;
		q->io = io;
		q->devt = e->devt;
		q->sector = e->sector;
		q->nsect = nsect_of(e->bytes);
		if (h_add_cls(&j->parts, &q->hq, q->devt, q->sector, 1)) {
			free(q);
			return j->err = REEL_E_NOMEM;
		}
		q->in_q = 1;
		q->expect_q = 1;
		q->io_next = io->parts;
		io->parts = q;
		io->live++;
		io->remapped = 1;
		io->needs_origin_c = 1;
		return 0;
	}
	return 0;
}

static int on_remap(struct reel_join *j, const struct reel_event *e)
{
	size_t rs = hfn(e->devt, e->sector) % NRCACHE;
	j->rcache[rs].devt = e->devt;
	j->rcache[rs].sector = e->sector;
	j->rcache[rs].valid = 1;
	struct part *p = find_part(j, e->from_devt, e->from_sector, -1);
	if (!p && e->from_devt != e->devt)
		/* kernels that report a dm target's partition as the whole disk */
		p = find_part(j, e->devt, e->from_sector, 1);
	if (!p && seen_q(j, e->from_devt))
		return remap_clone(j, e);
	if (!p || (p->devt == e->devt && p->sector == e->sector))
		return 0;
	h_del(&j->parts, &p->hq);
	p->devt = e->devt;
	p->sector = e->sector;
	if (h_add_cls(&j->parts, &p->hq, e->devt, e->sector, 1)) {
		p->in_q = 0;
		return j->err = REEL_E_NOMEM;
	}
	p->expect_q = 1;
	struct io *io = p->io;
	io->remapped = 1;
	if (j->ntraced && !is_traced(j, alias_of(j, io->devt)) && is_traced(j, e->devt)) {
		/* queued on a device we do not record: it becomes the traced device's I/O */
		io->devt = e->devt;
		io->rec.offset = e->sector * 512;
	} else if (is_traced(j, alias_of(j, io->devt))) {
		/* a bio-based device (dm, md) completes the original bio itself */
		io->needs_origin_c = 1;
	}
	return 0;
}

static int on_split(struct reel_join *j, const struct reel_event *e)
{
	struct part *p = find_part(j, e->devt, e->sector, 0);
	if (!p)
		return 0;
	uint64_t end = p->sector + p->nsect;
	if (e->split_sector <= p->sector || e->split_sector >= end)
		return 0;
	struct part *q = calloc(1, sizeof(*q));
	if (!q)
		return j->err = REEL_E_NOMEM;
	q->io = p->io;
	q->devt = p->devt;
	q->sector = e->split_sector;
	q->nsect = (uint32_t)(end - e->split_sector);
	if (h_add_cls(&j->parts, &q->hq, q->devt, q->sector, 1)) {
		free(q);
		return j->err = REEL_E_NOMEM;
	}
	q->in_q = 1;
	q->expect_q = 1;
	q->io_next = p->io->parts;
	p->io->parts = q;
	p->io->live++;
	p->io->split = 1;
	p->nsect = (uint32_t)(e->split_sector - p->sector);
	return 0;
}

static int on_merge(struct reel_join *j, const struct reel_event *e, int back)
{
	uint32_t n = nsect_of(e->bytes);
	struct part *p = find_part(j, e->devt, e->sector, 0);
	if (p && p->nsect)
		n = p->nsect;
	struct req *r;
	if (back) {
		r = find_req_end(j, e->devt, e->sector);
		if (!r)
			return 0;
		h_del(&j->rend, &r->he);
		r->end = e->sector + n;
		if (h_add(&j->rend, &r->he, r->devt, r->end)) {
			r->in_he = 0;
			return j->err = REEL_E_NOMEM;
		}
	} else {
		r = find_req_start(j, e->devt, e->sector + n, 2);
		if (!r)
			return 0;
		h_del(&j->rstart, &r->hs);
		r->start = e->sector;
		if (h_add_cls(&j->rstart, &r->hs, r->devt, r->start, r->issued))
			return j->err = REEL_E_NOMEM;
	}
	if (p) {
		part_to_req(j, p, r, !back);
		p->io->merged = 1;
	}
	return 0;
}

static struct req *req_from_part(struct reel_join *j, struct part *p, int64_t t)
{
	struct req *r = req_new(j, p->devt, p->sector, p->sector + p->nsect, t);
	if (!r)
		return NULL;
	r->preflush = (p->io->rec.flags & REEL_FL_PREFLUSH) || p->io->rec.op == REEL_OP_FLUSH;
	part_to_req(j, p, r, 0);
	return r;
}

static int on_getrq(struct reel_join *j, const struct reel_event *e)
{
	struct part *p = find_part(j, e->devt, e->sector, 0);
	if (p) {
		req_from_part(j, p, e->t_ns);
		return j->err;
	}
	struct req *r = req_new(j, e->devt, e->sector, e->sector + nsect_of(e->bytes), e->t_ns);
	if (r)
		r->preflush = (e->flags & REEL_FL_PREFLUSH) || e->op == REEL_OP_FLUSH;
	return j->err;
}

/* A data-less flush at D or C that matches no request of its own (blkparse
 * "FN", tracefs "FF"): the flush machinery's request, issued and completed
 * on behalf of the requests carrying a preflush. */
static int is_flush_proxy(const struct reel_event *e)
{
	return e->op == REEL_OP_FLUSH && !e->bytes;
}

static int flush_proxy_issue(struct reel_join *j, const struct reel_event *e)
{
	int found = 0;
	for (struct req *r = j->rhead; r; r = r->next) {
		if (r->devt != e->devt || !r->preflush || r->issued || r->flush_issued)
			continue;
		r->flush_issued = 1;
		found = 1;
		for (struct part *p = r->parts; p; p = p->r_next)
			io_set_issue(p->io, e->t_ns);
	}
	return found;
}

static int flush_in_progress(struct reel_join *j, uint32_t devt)
{
	for (struct req *r = j->rhead; r; r = r->next)
		if (r->devt == devt && r->flush_issued)
			return 1;
	return 0;
}

static struct req *zero_len_req(struct reel_join *j, uint32_t devt, int unissued_only)
{
	for (struct req *r = j->rhead; r; r = r->next)
		if (r->devt == devt && r->start == r->end && (!unissued_only || !r->issued))
			return r;
	return NULL;
}

/* D or C on (devt, sector) found nothing: a partition reported under its own
 * devt at Q/G and under the disk's at D/C (tracefs on recent kernels). */
static struct req *alias_req(struct reel_join *j, const struct reel_event *e, int issue)
{
	for (size_t i = 0; i < j->nqdevs; i++) {
		uint32_t y = j->qdevs[i];
		if (y == e->devt || (j->ntraced && is_traced(j, y)))
			continue;
		struct req *r = find_req_start(j, y, e->sector, issue ? 0 : 1);
		if (!r && issue) {
			struct part *p = find_part(j, y, e->sector, 0);
			if (p)
				r = req_from_part(j, p, e->t_ns);
		}
		if (r) {
			alias_add(j, y, e->devt);
			return r;
		}
	}
	return NULL;
}

static void orphan(struct reel_join *j, uint32_t devt)
{
	if (is_traced(j, alias_of(j, devt)))
		j->st.orphan_events++;
}

static int on_issue(struct reel_join *j, const struct reel_event *e)
{
	int proxy = is_flush_proxy(e);
	struct req *r = find_req_start(j, e->devt, e->sector, 0);
	if (!r) {
		struct part *p = find_part(j, e->devt, e->sector, 0);
		if (p)
			r = req_from_part(j, p, e->t_ns);
	}
	if (!r && proxy && flush_proxy_issue(j, e))
		return 0;
	if (!r)
		r = alias_req(j, e, 1);
	if (!r && !e->bytes)
		r = zero_len_req(j, e->devt, 1);
	if (!r) {
		orphan(j, e->devt);
		return j->err;
	}
	if (proxy && r->preflush)
		r->flush_issued = 1; /* its completion may come as a bare flush */
	if (!r->had_parts)
		orphan(j, e->devt);
	/* requests the elevator merged into this one (no event says so) are
	 * issued with it: D covers them */
	uint64_t upto = e->sector + nsect_of(e->bytes), pos = r->end;
	for (int hops = 0; r; hops++) {
		r->issued = 1;
		if (h_set_cls(&j->rstart, &r->hs, 1))
			return j->err = REEL_E_NOMEM;
		req_unmergeable(j, r);
		for (struct part *p = r->parts; p; p = p->r_next) {
			if (r->requeued) /* the dispatch that counts is the last one */
				p->io->rec.has &= (uint16_t)~REEL_HAS_ISSUE;
			io_set_issue(p->io, e->t_ns);
		}
		r->requeued = 0;
		if (hops >= 64 || pos >= upto || e->sector == REEL_SECTOR_UNKNOWN)
			break;
		r = find_req_start(j, e->devt, pos, 0);
		if (r && r->end > pos && r->end <= upto)
			pos = r->end;
		else
			r = NULL;
	}
	return 0;
}

static int32_t norm_err(int32_t err)
{
	if (err > 32767 && err <= 65535)
		return err - 65536;
	return err > 0 ? -err : err;
}

static void complete_req(struct reel_join *j, struct req *r, const struct reel_event *e)
{
	uint32_t n = nsect_of(e->bytes);
	int32_t err = norm_err(e->error);
	if (n && n < r->end - r->start) { /* partial completion */
		uint64_t upto = r->start + n;
		for (struct part *p = r->parts, *nx; p; p = nx) {
			nx = p->r_next;
			if (p->sector + p->nsect <= upto)
				part_complete(j, p, e->t_ns, err);
		}
		h_del(&j->rstart, &r->hs);
		r->start = upto;
		if (h_add_cls(&j->rstart, &r->hs, r->devt, r->start, r->issued))
			j->err = REEL_E_NOMEM;
		return;
	}
	if (!r->had_parts)
		orphan(j, e->devt);
	struct part *list = r->parts;
	r->parts = r->ptail = NULL;
	for (struct part *p = list, *nx; p; p = nx) {
		nx = p->r_next;
		p->req = NULL;
		p->r_next = p->r_prev = NULL;
		part_complete(j, p, e->t_ns, err);
	}
	req_free(j, r);
}

/* The oldest I/O not done queued at (devt, sector): an I/O leaves the
 * table when it is done. */
static struct io *find_origin(struct reel_join *j, uint32_t devt, uint64_t sector)
{
	struct hnode *n = h_oldest(&j->origins, devt, sector, 0);
	return n ? container_of(n, struct io, ho) : NULL;
}

static int on_complete(struct reel_join *j, const struct reel_event *e)
{
	struct req *r = find_req_start(j, e->devt, e->sector, 1);
	if (r) {
		/* and the requests merged into it, which D covered too */
		uint64_t upto = e->sector + nsect_of(e->bytes), pos = r->end;
		complete_req(j, r, e);
		for (int hops = 0; hops < 64 && pos < upto && e->sector != REEL_SECTOR_UNKNOWN;
		     hops++) {
			struct req *m = find_req_start(j, e->devt, pos, 1);
			if (!m || !m->issued || m->end <= pos || m->end > upto)
				break;
			pos = m->end;
			struct reel_event part = *e;
			part.bytes = 0; /* whole */
			complete_req(j, m, &part);
		}
		return j->err;
	}
	struct io *io = find_origin(j, e->devt, e->sector);
	if (io && (io->needs_origin_c || !io->parts || io->parts->in_q)) {
		io_complete_all(j, io, e->t_ns, norm_err(e->error));
		return 0;
	}
	struct part *p = find_part(j, e->devt, e->sector, 0);
	if (p) { /* a bio-based device completing a bio */
		part_complete(j, p, e->t_ns, norm_err(e->error));
		return 0;
	}
	if (is_flush_proxy(e) && flush_in_progress(j, e->devt))
		return 0; /* the flush machinery's own request: its I/Os complete later */
	r = alias_req(j, e, 0);
	if (!r && !e->bytes)
		r = zero_len_req(j, e->devt, 0);
	if (r) {
		complete_req(j, r, e);
		return j->err;
	}
	orphan(j, e->devt);
	return 0;
}

static int on_requeue(struct reel_join *j, const struct reel_event *e)
{
	struct req *r = find_req_start(j, e->devt, e->sector, 1);
	if (r) {
		r->issued = 0;
		r->requeued = 1;
		if (h_set_cls(&j->rstart, &r->hs, 0))
			return j->err = REEL_E_NOMEM;
	}
	return 0;
}

/* ---- API -------------------------------------------------------------------- */
int reel_join_create(struct reel_join **out, struct reel_writer *w, const uint32_t *devts,
		     size_t ndevts)
{
	*out = NULL;
	if (!w)
		return REEL_E_ARG;
	struct reel_join *j = calloc(1, sizeof(*j));
	if (!j)
		return REEL_E_NOMEM;
	j->w = w;
	j->window = DEF_WINDOW_NS;
	j->cap = DEF_CAP;
	if (ndevts) {
		j->traced = malloc(ndevts * sizeof(*devts));
		if (!j->traced) {
			free(j);
			return REEL_E_NOMEM;
		}
		memcpy(j->traced, devts, ndevts * sizeof(*devts));
		j->ntraced = ndevts;
	}
	*out = j;
	return 0;
}

void reel_join_limits(struct reel_join *j, int64_t window_ns, size_t cap)
{
	if (window_ns > 0)
		j->window = window_ns;
	if (cap)
		j->cap = cap;
}

int reel_join_name_device(struct reel_join *j, uint32_t devt, const char *name)
{
	for (size_t i = 0; i < j->nnames; i++)
		if (j->names[i].devt == devt) {
			snprintf(j->names[i].name, sizeof(j->names[i].name), "%s", name);
			return 0;
		}
	if (REEL_VEC_RESERVE(j->names, j->nnames, j->names_cap, 8))
		return REEL_E_NOMEM;
	struct devname *n = j->names;
	n[j->nnames].devt = devt;
	snprintf(n[j->nnames].name, sizeof(n[j->nnames].name), "%s", name);
	j->nnames++;
	return 0;
}

int reel_join_push(struct reel_join *j, const struct reel_event *e)
{
	if (j->err)
		return j->err;
	if (j->finished)
		return REEL_E_ARG;
	if (e->t_ns > j->now)
		j->now = e->t_ns;
	int rc = 0;
	switch (e->action) {
	case REEL_ACT_QUEUE:
		rc = on_queue(j, e);
		break;
	case REEL_ACT_REMAP:
		rc = on_remap(j, e);
		break;
	case REEL_ACT_SPLIT:
		rc = on_split(j, e);
		break;
	case REEL_ACT_BACKMERGE:
		rc = on_merge(j, e, 1);
		break;
	case REEL_ACT_FRONTMERGE:
		rc = on_merge(j, e, 0);
		break;
	case REEL_ACT_GETRQ:
		rc = on_getrq(j, e);
		break;
	case REEL_ACT_ISSUE:
		rc = on_issue(j, e);
		break;
	case REEL_ACT_COMPLETE:
		rc = on_complete(j, e);
		break;
	case REEL_ACT_REQUEUE:
		rc = on_requeue(j, e);
		break;
	default: /* I (insert) and anything else carry nothing we record */
		break;
	}
	if (rc)
		return rc;
	return drain(j, 0);
}

int reel_join_finish(struct reel_join *j)
{
	if (j->finished)
		return j->err;
	int rc = drain(j, 1);
	j->finished = 1;
	return rc;
}

void reel_join_stats(const struct reel_join *j, struct reel_join_stats *s) { *s = j->st; }

void reel_join_write_meta(struct reel_writer *w, const struct reel_join_stats *s, int capture)
{
	static const char *const imported[] = {NULL,
					       REEL_META_JOIN_NO_ISSUE,
					       REEL_META_JOIN_NO_COMPLETE,
					       REEL_META_JOIN_MERGED,
					       REEL_META_JOIN_SPLIT,
					       REEL_META_JOIN_REMAPPED,
					       REEL_META_JOIN_ORPHAN_EVENTS};
	static const char *const captured[] = {
	    REEL_META_CAPTURE_JOIN_RECORDS,	 REEL_META_CAPTURE_JOIN_NO_ISSUE,
	    REEL_META_CAPTURE_JOIN_NO_COMPLETE,	 REEL_META_CAPTURE_JOIN_MERGED,
	    REEL_META_CAPTURE_JOIN_SPLIT,	 REEL_META_CAPTURE_JOIN_REMAPPED,
	    REEL_META_CAPTURE_JOIN_ORPHAN_EVENTS};
	const uint64_t v[] = {s->records, s->no_issue, s->no_complete,	s->merged,
			      s->split,	  s->remapped, s->orphan_events};
	const char *const *k = capture ? captured : imported;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (k[i])
			reel_writer_meta_int(w, k[i], (int64_t)v[i]);
}

void reel_join_destroy(struct reel_join *j)
{
	if (!j)
		return;
	while (j->head) {
		struct io *io = j->head;
		j->head = io->next;
		while (io->parts) {
			struct part *p = io->parts;
			io->parts = p->io_next;
			free(p);
		}
		free(io);
	}
	while (j->rhead) {
		struct req *r = j->rhead;
		j->rhead = r->next;
		free(r);
	}
	h_free(&j->parts);
	h_free(&j->rstart);
	h_free(&j->rend);
	h_free(&j->origins);
	free(j->traced);
	free(j->ids);
	free(j->names);
	free(j);
}

/* ---- rwbs --------------------------------------------------------------------- */
int reel_rwbs_parse(const char *s, size_t len, uint32_t bytes, uint8_t *op, uint8_t *flags)
{
	size_t i = 0;
	uint8_t fl = 0;
	int o = -1, preflush = 0;
	if (!len)
		return REEL_E_PARSE;
	/* "F" then an op letter: a preflush; "F" then anything else: the
	 * REQ_OP_FLUSH letter itself (tracefs "FS") */
	if (s[0] == 'F' && len > 1 && strchr("WRDFN", s[1])) {
		preflush = 1;
		i = 1;
	}
	switch (s[i]) {
	case 'W':
		o = REEL_OP_WRITE;
		if (i + 1 < len && s[i + 1] == 'Z') { /* tracefs write-zeroes */
			o = REEL_OP_WRITE_ZEROES;
			i++;
		}
		break;
	case 'R':
		o = REEL_OP_READ;
		break;
	case 'D':
		o = REEL_OP_DISCARD;
		if (i + 1 < len && s[i + 1] == 'E') /* secure erase */
			i++;
		break;
	case 'F': /* REQ_OP_FLUSH ("FF": with a preflush, the flush machinery's) */
		o = REEL_OP_FLUSH;
		break;
	case 'N': /* blkparse: no data; "FN" is a REQ_OP_FLUSH */
		o = preflush ? REEL_OP_FLUSH : REEL_OP_READ;
		preflush = 0;
		break;
	default:
		return REEL_E_PARSE;
	}
	for (i++; i < len; i++) {
		switch (s[i]) {
		case 'F':
			fl |= REEL_FL_FUA;
			break;
		case 'A':
			fl |= REEL_FL_READAHEAD;
			break;
		case 'S':
			fl |= REEL_FL_SYNC;
			break;
		case 'M':
			fl |= REEL_FL_META;
			break;
		case 'E': /* secure erase (handled), or unknown-but-harmless */
			break;
		case 'B': /* barrier (kernels before 2.6.36): a flush before the data */
			preflush = 1;
			break;
		default:
			return REEL_E_PARSE;
		}
	}
	if (preflush) {
		fl |= REEL_FL_PREFLUSH;
		if (!bytes && (o == REEL_OP_WRITE || o == REEL_OP_READ))
			o = REEL_OP_FLUSH; /* an empty bio carrying a preflush is a flush */
	}
	*op = (uint8_t)o;
	*flags = fl;
	return 0;
}
