/*
 * model/fit_source.c - the trace as model_fit's passes read it: a trace in
 * memory, or a .reel file read chunk by chunk and rewound between passes
 * (so the fit holds one chunk, not the trace); the first pass (counts,
 * time span, clock quantum, devices); the sample budget shared by the
 * distributions fitted in one pass.
 */
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"

static long src_next_mem(struct fit_src *s, struct fit_cols *c)
{
	const struct model_trace *tr = s->tr;
	if (s->pos >= tr->n)
		return 0;
	size_t a = (size_t)s->pos, k = tr->n - a < FIT_CHUNK ? tr->n - a : FIT_CHUNK;
	c->n = k;
	c->base = a;
	c->t = tr->t + a;
	c->issue = tr->issue ? tr->issue + a : NULL;
	c->complete = tr->complete ? tr->complete + a : NULL;
	c->off = tr->off + a;
	c->len = tr->len + a;
	c->op = tr->op + a;
	c->dev = tr->dev + a;
	s->pos += k;
	return (long)k;
}

/* Room for K records in the columns fit_src_next fills (s->buf). */
static int src_room(struct fit_src *s, size_t k)
{
	struct model_trace *b = &s->buf;
	if (b->cap >= k)
		return 0;
#define G(f)                                                                                       \
	do {                                                                                       \
		void *p = realloc(b->f, k * sizeof(*b->f));                                        \
		if (!p)                                                                            \
			return REEL_E_NOMEM;                                                       \
		b->f = p;                                                                          \
	} while (0)
	G(t);
	G(issue);
	G(complete);
	G(op);
	G(dev);
#undef G
	b->cap = k;
	return 0;
}

/* The next batch of the file, as model_trace_push would hold it: the
 * arrival (queue, else issue, else completion), issue (else queue) and
 * completion or -1, unknown ops as reads, dev 0 where absent.  Offsets and
 * lengths are the reader's own columns. */
static long src_next_file(struct fit_src *s, struct fit_cols *c)
{
	struct reel_cols rc;
	long k = reel_read_cols(s->r, &rc);
	if (k <= 0)
		return k;
	if (src_room(s, (size_t)k))
		return REEL_E_NOMEM;
	struct model_trace *b = &s->buf;
	unsigned ic = 0;
	for (size_t i = 0; i < (size_t)k; i++) {
		unsigned h = rc.has[i];
		b->t[i] = h & REEL_HAS_QUEUE   ? rc.queue_ns[i]
			  : h & REEL_HAS_ISSUE ? rc.issue_ns[i]
					       : rc.complete_ns[i];
		b->op[i] = rc.op[i] < REEL_OP__COUNT ? rc.op[i] : REEL_OP_READ;
		b->dev[i] = h & REEL_HAS_DEV ? rc.dev[i] : 0;
		ic |= h;
	}
	c->issue = c->complete = NULL;
	if (ic & (REEL_HAS_ISSUE | REEL_HAS_COMPLETE)) {
		for (size_t i = 0; i < (size_t)k; i++) {
			unsigned h = rc.has[i];
			b->issue[i] = h & REEL_HAS_ISSUE   ? rc.issue_ns[i]
				      : h & REEL_HAS_QUEUE ? rc.queue_ns[i]
							   : -1;
			b->complete[i] = h & REEL_HAS_COMPLETE ? rc.complete_ns[i] : -1;
		}
		c->issue = b->issue;
		c->complete = b->complete;
	}
	c->n = (size_t)k;
	c->base = s->pos;
	c->t = b->t;
	c->off = rc.offset;
	c->len = rc.length;
	c->op = b->op;
	c->dev = b->dev;
	s->pos += (uint64_t)k;
	return k;
}

long fit_src_next(struct fit_src *s, struct fit_cols *c)
{
	return s->tr ? src_next_mem(s, c) : src_next_file(s, c);
}

int fit_src_rewind(struct fit_src *s)
{
	s->pos = 0;
	if (s->tr)
		return 0;
	return reel_reader_rewind(s->r);
}

void fit_src_close(struct fit_src *s) { model_trace_free(&s->buf); }

/* ---- the first pass ------------------------------------------------------- */
/* A device seen for the first time: its index, or -1 past MODEL_MAX_DEVS. */
static int scan_newdev(struct fit_scan *sc, uint16_t d)
{
	if (sc->nd == MODEL_MAX_DEVS)
		return -1;
	sc->slot[d] = (int8_t)sc->nd;
	sc->ids[sc->nd] = d;
	sc->pre[sc->nd] = (struct dev_pre){0, 0, ~0ull};
	return (int)sc->nd++;
}

static int scan_chunk(struct fit_scan *sc, const struct fit_cols *c)
{
	for (size_t i = 0; i < c->n; i++) {
		int64_t t = c->t[i];
		if (sc->n == 0)
			sc->tfirst = sc->tmin = sc->tmax = t;
		sc->sorted &= t >= sc->tmax;
		sc->tmin = t < sc->tmin ? t : sc->tmin;
		sc->tmax = t > sc->tmax ? t : sc->tmax;
		if (sc->q != 1 && t != sc->tfirst) {
			uint64_t d = t > sc->tfirst ? (uint64_t)(t - sc->tfirst)
						    : (uint64_t)(sc->tfirst - t);
			sc->q = reel_gcd64(sc->q, d);
		}
		sc->n++;
		uint8_t op = c->op[i];
		sc->nop[op]++;
		sc->bytes[op] += c->len[i];
		if (c->issue && c->issue[i] >= 0 && c->complete[i] >= c->issue[i])
			sc->nic++;
		uint64_t end = c->off[i] + c->len[i];
		sc->amax = end > sc->amax ? end : sc->amax;
		int sd = sc->slot[c->dev[i]];
		if (sd < 0 && (sd = scan_newdev(sc, c->dev[i])) < 0)
			return REEL_E_RANGE;
		sc->per[sd]++;
		if (op != REEL_OP_FLUSH) {
			struct dev_pre *p = &sc->pre[sd];
			p->nd++;
			p->maxend = end > p->maxend ? end : p->maxend;
			p->alignbits &= c->off[i] | (c->len[i] ? c->len[i] : 4096);
		}
	}
	return 0;
}

int fit_scan(struct fit_src *s, struct fit_scan *sc, char *err, size_t errlen)
{
	memset(sc, 0, sizeof(*sc));
	sc->sorted = 1;
	sc->amax = 1;
	if (!(sc->slot = malloc(65536 * sizeof(*sc->slot))))
		return REEL_E_NOMEM;
	memset(sc->slot, 0xff, 65536 * sizeof(*sc->slot));
	struct fit_cols c;
	long k = 0;
	int e = fit_src_rewind(s);
	while (!e && (k = fit_src_next(s, &c)) > 0)
		e = scan_chunk(sc, &c);
	if (!e && k < 0)
		e = (int)k;
	if (e == REEL_E_RANGE)
		return reel_errf(err, errlen, e, "the trace uses more than %d devices",
				 MODEL_MAX_DEVS);
	if (e)
		return reel_errf(err, errlen, e, "%s",
				 s->r ? reel_reader_errmsg(s->r) : reel_strerror(e));
	return 0;
}

/* ---- the sample budget ---------------------------------------------------- */
static uint64_t sum_capped(const uint64_t *n, size_t k, uint64_t cap)
{
	uint64_t s = 0;
	for (size_t i = 0; i < k; i++)
		s += n[i] < cap ? n[i] : cap;
	return s;
}

uint64_t fit_sample_cap(const uint64_t *n, size_t k, uint64_t budget)
{
	uint64_t hi = MODEL_DIST_SAMPLE, lo = FIT_SAMPLE_MIN;
	if (sum_capped(n, k, hi) <= budget)
		return hi;
	while (hi - lo > 1) { /* sum_capped(lo) fits or lo is the floor */
		uint64_t mid = lo + (hi - lo) / 2;
		if (sum_capped(n, k, mid) <= budget)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
