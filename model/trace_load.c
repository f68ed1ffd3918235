/*
 * model/trace_load.c - a trace held in memory column by column: load it
 * from a .reel file, push records, sort by arrival time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"

static int grow(struct model_trace *tr, int want_ic)
{
	size_t cap = tr->cap ? tr->cap * 2 : 4096;
	if (REEL_RESIZE(tr->t, cap) || REEL_RESIZE(tr->off, cap) || REEL_RESIZE(tr->len, cap) ||
	    REEL_RESIZE(tr->op, cap) || REEL_RESIZE(tr->dev, cap))
		return REEL_E_NOMEM;
	if ((tr->issue || want_ic) &&
	    (REEL_RESIZE(tr->issue, cap) || REEL_RESIZE(tr->complete, cap)))
		return REEL_E_NOMEM;
	tr->cap = cap;
	return 0;
}

static int add_ic(struct model_trace *tr)
{
	tr->issue = malloc(tr->cap * sizeof(*tr->issue));
	tr->complete = malloc(tr->cap * sizeof(*tr->complete));
	if (!tr->issue || !tr->complete)
		return REEL_E_NOMEM;
	for (size_t i = 0; i < tr->n; i++)
		tr->issue[i] = tr->complete[i] = -1;
	return 0;
}

int model_trace_push(struct model_trace *tr, const struct reel_rec *r)
{
	int ic = (r->has & (REEL_HAS_ISSUE | REEL_HAS_COMPLETE)) != 0;
	if (tr->n == tr->cap) {
		int e = grow(tr, 0);
		if (e)
			return e;
	}
	if (ic && !tr->issue) {
		int e = add_ic(tr);
		if (e)
			return e;
	}
	size_t i = tr->n++;
	if (r->has & REEL_HAS_QUEUE)
		tr->t[i] = r->queue_ns;
	else if (r->has & REEL_HAS_ISSUE)
		tr->t[i] = r->issue_ns;
	else
		tr->t[i] = r->complete_ns;
	tr->off[i] = r->offset;
	tr->len[i] = r->length;
	tr->op[i] = r->op < REEL_OP__COUNT ? r->op : REEL_OP_READ;
	tr->dev[i] = (r->has & REEL_HAS_DEV) ? r->dev : 0;
	if (tr->issue) {
		tr->issue[i] = (r->has & REEL_HAS_ISSUE)   ? r->issue_ns
			       : (r->has & REEL_HAS_QUEUE) ? r->queue_ns
							   : -1;
		tr->complete[i] = (r->has & REEL_HAS_COMPLETE) ? r->complete_ns : -1;
	}
	return 0;
}

static int idx_cmp(const void *x, const void *y, void *arg)
{
	const int64_t *t = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	if (t[a] != t[b])
		return t[a] < t[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

#define PERMUTE(f, type)                                                                           \
	do {                                                                                       \
		type *nv = malloc(tr->n * sizeof(type));                                           \
		if (!nv)                                                                           \
			goto nomem;                                                                \
		for (size_t i = 0; i < tr->n; i++)                                                 \
			nv[i] = tr->f[idx[i]];                                                     \
		free(tr->f);                                                                       \
		tr->f = nv;                                                                        \
	} while (0)

int model_trace_sort(struct model_trace *tr)
{
	size_t i;
	for (i = 1; i < tr->n; i++)
		if (tr->t[i] < tr->t[i - 1])
			break;
	if (i >= tr->n)
		return 0;
	size_t *idx = malloc(tr->n * sizeof(*idx));
	if (!idx)
		return REEL_E_NOMEM;
	for (i = 0; i < tr->n; i++)
		idx[i] = i;
	qsort_r(idx, tr->n, sizeof(*idx), idx_cmp, tr->t);
	PERMUTE(off, uint64_t);
	PERMUTE(len, uint32_t);
	PERMUTE(op, uint8_t);
	PERMUTE(dev, uint16_t);
	if (tr->issue) {
		PERMUTE(issue, int64_t);
		PERMUTE(complete, int64_t);
	}
	PERMUTE(t, int64_t);
	free(idx);
	tr->cap = tr->n;
	return 0;
nomem:
	free(idx);
	return REEL_E_NOMEM;
}

void model_trace_free(struct model_trace *tr)
{
	if (!tr)
		return;
	free(tr->t);
	free(tr->issue);
	free(tr->complete);
	free(tr->off);
	free(tr->len);
	free(tr->op);
	free(tr->dev);
	memset(tr, 0, sizeof(*tr));
}

int model_trace_load(struct model_trace *tr, const char *path, char *err, size_t errlen)
{
	memset(tr, 0, sizeof(*tr));
	struct reel_reader *r;
	int e = reel_reader_open(&r, path, 0);
	if (e && access(path, R_OK))
		return reel_errf(err, errlen, e, "%s: %s", path, strerror(errno));
	if (e)
		return reel_errf(err, errlen, e,
				 "%s: %s (is it a .reel file? 'ioreel import' converts others)",
				 path, reel_strerror(e));
	const struct reel_header *h = reel_reader_header(r);
	snprintf(tr->source, sizeof(tr->source), "%s", h->source ? h->source : "");
	const struct reel_rec *recs;
	long k;
	while ((k = reel_read_chunk(r, &recs)) > 0) {
		for (long i = 0; i < k; i++)
			if ((e = model_trace_push(tr, &recs[i])))
				goto out;
	}
	if (k < 0) {
		e = (int)k;
		reel_errf(err, errlen, e, "%s", reel_reader_errmsg(r));
		goto out_close;
	}
	h = reel_reader_header(r);
	tr->ndev = h->ndevices < 64 ? h->ndevices : 64;
	for (size_t i = 0; i < tr->ndev; i++)
		tr->devs[i] = h->devices[i];
	e = model_trace_sort(tr);
out:
	if (e)
		reel_errf(err, errlen, e, "%s: %s", path, reel_strerror(e));
out_close:
	reel_reader_close(r);
	if (e)
		model_trace_free(tr);
	return e;
}
