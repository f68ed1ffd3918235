/*
 * cluster/merge.c - rank 0 merges the ranks' .reel files into one: devices
 * renamed "host:name", times shifted onto the common clock, records k-way
 * merged in time order (the one heap, REEL_HEAP), per-target metadata
 * renumbered.
 */
#include <stdio.h>
#include <string.h>

#include "cluster/cluster.h"

#define MAX_PARTS 64
#define MAX_DEVS_PER_PART 64

struct head {
	int64_t t;
	unsigned part;
};
#define HEAD_BEFORE(a, b) ((a)->t < (b)->t || ((a)->t == (b)->t && (a)->part < (b)->part))
REEL_HEAP(heads, struct head, HEAD_BEFORE)

struct part_state {
	struct reel_reader *rd;
	struct reel_rec rec; /* the part's next record, times shifted */
	int devmap[MAX_DEVS_PER_PART];
};

struct merge {
	const struct cluster_part *parts;
	size_t nparts;
	const struct cluster_merge_opts *o;
	struct part_state ps[MAX_PARTS];
	struct reel_device devs[MAX_PARTS * 4];
	int dev_rank[MAX_PARTS * 4], dev_trace[MAX_PARTS * 4];
	size_t ndevs;
	struct reel_writer *w;
	char *err;
	size_t errlen;
};

/* Name part p's device d "host:name", unique in the merged list. */
static int add_device(struct merge *m, size_t p, const struct reel_device *d)
{
	const struct cluster_part *cp = &m->parts[p];
	if (m->ndevs >= sizeof(m->devs) / sizeof(m->devs[0]) || d->id >= MAX_DEVS_PER_PART)
		return reel_errf(m->err, m->errlen, REEL_E_RANGE,
				 "too many devices to merge (rank %d, device %s)", cp->rank,
				 d->name);
	struct reel_device *nd = &m->devs[m->ndevs];
	*nd = *d;
	nd->id = (uint16_t)m->ndevs;
	snprintf(nd->name, sizeof(nd->name), "%.30s:%.32s", cp->host, d->name);
	for (size_t k = 0; k < m->ndevs; k++)
		if (!strcmp(m->devs[k].name, nd->name)) {
			snprintf(nd->name, sizeof(nd->name), "%.26s:%.28s#%d", cp->host, d->name,
				 cp->rank);
			break;
		}
	m->dev_rank[m->ndevs] = cp->rank;
	m->dev_trace[m->ndevs] = d->id < cp->ntrace_dev ? cp->trace_dev[d->id] : -1;
	m->ps[p].devmap[d->id] = (int)m->ndevs++;
	return 0;
}

static int open_parts(struct merge *m, struct cluster_merge_stats *st)
{
	for (size_t p = 0; p < m->nparts; p++) {
		struct part_state *ps = &m->ps[p];
		for (int i = 0; i < MAX_DEVS_PER_PART; i++)
			ps->devmap[i] = -1;
		if (!m->parts[p].path)
			continue;
		int rc = reel_reader_open(&ps->rd, m->parts[p].path, 0);
		if (rc < 0) {
			rc =
			    reel_errf(m->err, m->errlen, rc, "rank %d's file: %s", m->parts[p].rank,
				      ps->rd ? reel_reader_errmsg(ps->rd) : reel_strerror(rc));
			reel_reader_close(ps->rd);
			ps->rd = NULL;
			return rc;
		}
		const struct reel_header *h = reel_reader_header(ps->rd);
		for (size_t d = 0; d < h->ndevices; d++)
			if ((rc = add_device(m, p, &h->devices[d])) < 0)
				return rc;
	}
	st->ndevices = (unsigned)m->ndevs;
	return 0;
}

/* Read part p's next record into ps->rec; 1, 0 at its end, or < 0. */
static int next_rec(struct merge *m, size_t p, struct cluster_merge_stats *st)
{
	struct part_state *ps = &m->ps[p];
	const struct cluster_part *cp = &m->parts[p];
	int rc = reel_read(ps->rd, &ps->rec);
	if (rc < 0)
		return reel_errf(m->err, m->errlen, rc, "rank %d's file: %s", cp->rank,
				 reel_reader_errmsg(ps->rd));
	if (rc == 0) {
		if (!reel_reader_complete(ps->rd))
			st->incomplete = 1;
		return 0;
	}
	struct reel_rec *r = &ps->rec;
	if ((r->has & REEL_HAS_QUEUE) && !cp->keep_queue)
		r->queue_ns += cp->shift_ns;
	if (r->has & REEL_HAS_ISSUE)
		r->issue_ns += cp->shift_ns;
	if (r->has & REEL_HAS_COMPLETE)
		r->complete_ns += cp->shift_ns;
	int d = r->dev < MAX_DEVS_PER_PART ? ps->devmap[r->dev] : -1;
	if (d < 0)
		return reel_errf(
		    m->err, m->errlen, REEL_E_CORRUPT,
		    "rank %d's file: a record names device %u, which it does not declare", cp->rank,
		    r->dev);
	r->dev = (uint16_t)d;
	rc = reel_rec_copy_comm(ps->rd, m->w, r);
	if (rc < 0)
		return reel_errf(m->err, m->errlen, rc, "%s: %s", m->o->out,
				 reel_writer_errmsg(m->w));
	return 1;
}

static int64_t key_of(const struct merge *m, const struct reel_rec *r)
{
	if (m->o->by_issue && (r->has & REEL_HAS_ISSUE))
		return r->issue_ns;
	if (r->has & REEL_HAS_QUEUE)
		return r->queue_ns;
	return (r->has & REEL_HAS_ISSUE) ? r->issue_ns : r->complete_ns;
}

static int merge_records(struct merge *m, struct cluster_merge_stats *st)
{
	struct heads h = {0};
	int rc = 0;
	for (size_t p = 0; p < m->nparts && rc >= 0; p++) {
		if (!m->ps[p].rd)
			continue;
		if ((rc = next_rec(m, p, st)) > 0)
			rc = heads_push(&h, (struct head){key_of(m, &m->ps[p].rec), (unsigned)p});
	}
	while (rc >= 0 && h.n) {
		struct head top = heads_pop(&h);
		struct part_state *ps = &m->ps[top.part];
		if ((rc = reel_write(m->w, &ps->rec)) < 0) {
			rc = reel_errf(m->err, m->errlen, rc, "%s: %s", m->o->out,
				       reel_writer_errmsg(m->w));
			break;
		}
		st->records++;
		if (top.part < 64)
			st->per_part[top.part]++;
		if ((rc = next_rec(m, top.part, st)) > 0)
			rc = heads_push(&h, (struct head){key_of(m, &ps->rec), top.part});
	}
	heads_free(&h);
	return rc < 0 ? rc : 0;
}

static int skipped(const struct cluster_merge_opts *o, const char *key)
{
	for (size_t i = 0; i < o->nskip; i++)
		if (!strcmp(o->skip_keys[i], key))
			return 1;
	if (!strncmp(key, "target.", 7))
		return 0;
	for (size_t i = 0; o->copy_prefixes && o->copy_prefixes[i]; i++)
		if (!strncmp(key, o->copy_prefixes[i], strlen(o->copy_prefixes[i])))
			return 0;
	return 1;
}

static void put_meta(struct reel_writer *w, const char *key, const struct reel_meta *x)
{
	if (x->type == REEL_META_STR)
		reel_writer_meta_str(w, key, x->s);
	else if (x->type == REEL_META_INT)
		reel_writer_meta_int(w, key, x->i);
	else
		reel_writer_meta_dbl(w, key, x->d);
}

/* Shared metadata from the first part; target.<k>.* from every part,
 * renumbered to the merged device ids. */
static void copy_meta(struct merge *m)
{
	int first = 1;
	for (size_t p = 0; p < m->nparts; p++) {
		if (!m->ps[p].rd)
			continue;
		size_t n;
		const struct reel_meta *all = reel_reader_meta_all(m->ps[p].rd, &n);
		for (size_t i = 0; i < n; i++) {
			const char *key = all[i].key;
			unsigned k;
			char field[64], nk[96];
			if (sscanf(key, "target.%u.%63s", &k, field) == 2) {
				if (k < MAX_DEVS_PER_PART && m->ps[p].devmap[k] >= 0) {
					snprintf(nk, sizeof(nk), REEL_META_TARGET_FMT,
						 (unsigned)m->ps[p].devmap[k], field);
					put_meta(m->w, nk, &all[i]);
				}
				continue;
			}
			if (first && !skipped(m->o, key))
				put_meta(m->w, key, &all[i]);
		}
		first = 0;
	}
	for (size_t d = 0; d < m->ndevs; d++) {
		char k[96];
		snprintf(k, sizeof(k), REEL_META_CLUSTER_DEV_FMT, (unsigned)d, "rank");
		reel_writer_meta_int(m->w, k, m->dev_rank[d]);
		if (m->dev_trace[d] >= 0) {
			snprintf(k, sizeof(k), REEL_META_CLUSTER_DEV_FMT, (unsigned)d, "trace_dev");
			reel_writer_meta_int(m->w, k, m->dev_trace[d]);
		}
	}
}

int cluster_merge(const struct cluster_part *parts, size_t nparts,
		  const struct cluster_merge_opts *o, struct reel_writer **wout,
		  struct cluster_merge_stats *st, char *err, size_t errlen)
{
	static struct merge m; /* large; rank 0 merges once */
	int rc;
	memset(&m, 0, sizeof(m));
	memset(st, 0, sizeof(*st));
	*wout = NULL;
	if (nparts > MAX_PARTS)
		return reel_errf(err, errlen, REEL_E_RANGE, "at most %d ranks can be merged",
				 MAX_PARTS);
	m.parts = parts;
	m.nparts = nparts;
	m.o = o;
	m.err = err;
	m.errlen = errlen;
	if ((rc = open_parts(&m, st)) < 0)
		goto out;
	struct reel_header h = {.start_unix_ns = o->start_unix_ns,
				.source = o->source,
				.source_detail = o->source_detail,
				.devices = m.devs,
				.ndevices = m.ndevs};
	rc = reel_writer_open(&m.w, o->out, -1, &h, REEL_W_OVERWRITE);
	if (rc < 0) {
		rc = reel_errf(err, errlen, rc, "%s: %s", o->out,
			       m.w ? reel_writer_errmsg(m.w) : reel_strerror(rc));
		reel_writer_destroy(m.w);
		m.w = NULL;
		goto out;
	}
	copy_meta(&m);
	if ((rc = merge_records(&m, st)) < 0) {
		reel_writer_destroy(m.w);
		m.w = NULL;
		goto out;
	}
	*wout = m.w;
out:
	for (size_t p = 0; p < nparts; p++)
		reel_reader_close(m.ps[p].rd);
	return rc;
}
