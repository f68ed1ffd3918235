/*
 * formats/export_blkparse.c - text in blkparse's default output format:
 *   MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION RWBS SECTOR + COUNT [COMM]
 * One Q line per I/O (when it has a queue time), a D line when it has an
 * issue time and a C line ("[error]", pid 0) when it has a completion.
 * Lines are in time order across I/Os: D and C lines wait in a heap until
 * no earlier line can come (records arrive in queue-time order, so a line
 * is due once a later record has been queued); the heap holds the I/Os in
 * flight and is capped at 256 Ki lines (beyond that the earliest is written
 * early).  MAJ,MIN come from the header's device (0,id when unknown);
 * offsets and lengths are written in 512-byte sectors; an I/O without pid
 * or comm gets pid 0 and "[]".  RWBS as the kernel writes it: F (preflush),
 * then R, W, D or F (flush), then F (fua), A (readahead), S (sync),
 * M (meta); write-zeroes, which the kernel shows as N, appear as N.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"

#define HEAP_MAX (1u << 18)

struct ev {
	int64_t t;
	uint64_t seq;
	struct reel_rec rec;
	char action;
};

/* (time, arrival) order: a strict order, so the lines come out the same
 * whatever the heap does with ties */
#define EV_BEFORE(a, b) ((a)->t < (b)->t || ((a)->t == (b)->t && (a)->seq < (b)->seq))
REEL_HEAP(ev_heap, struct ev, EV_BEFORE)

struct bp {
	struct ev_heap heap;
	uint64_t seq;	  /* heap order for equal times */
	uint64_t lineseq; /* blkparse's sequence column */
	struct reel_reader *r;
	FILE *out;
};

static void rwbs(const struct reel_rec *x, char *b)
{
	int i = 0;
	unsigned fl = (x->has & REEL_HAS_FLAGS) ? x->flags : 0;
	if (fl & REEL_FL_PREFLUSH)
		b[i++] = 'F';
	switch (x->op) {
	case REEL_OP_READ:
		b[i++] = 'R';
		break;
	case REEL_OP_WRITE:
		b[i++] = 'W';
		break;
	case REEL_OP_DISCARD:
		b[i++] = 'D';
		break;
	case REEL_OP_FLUSH:
		b[i++] = 'F';
		break;
	default:
		b[i++] = 'N';
		break;
	}
	if (fl & REEL_FL_FUA)
		b[i++] = 'F';
	if (fl & REEL_FL_READAHEAD)
		b[i++] = 'A';
	if (fl & REEL_FL_SYNC)
		b[i++] = 'S';
	if (fl & REEL_FL_META)
		b[i++] = 'M';
	b[i] = 0;
}

static void write_line(struct bp *p, const struct ev *e)
{
	const struct reel_rec *x = &e->rec;
	const struct reel_header *h = reel_reader_header(p->r);
	unsigned maj = 0, min = x->dev;
	for (size_t i = 0; h && i < h->ndevices; i++)
		if (h->devices[i].id == x->dev) {
			if (h->devices[i].major || h->devices[i].minor) {
				maj = h->devices[i].major;
				min = h->devices[i].minor;
			}
			break;
		}
	int64_t t = e->t < 0 ? 0 : e->t;
	char rw[8];
	rwbs(x, rw);
	unsigned pid = (e->action != 'C' && (x->has & REEL_HAS_PID)) ? x->pid : 0;
	fprintf(p->out, "%3u,%-3u %2u %8llu %5lld.%09lld %5u  %c %3s %llu + %u ", maj, min,
		(x->has & REEL_HAS_CPU) ? x->cpu : 0, (unsigned long long)++p->lineseq,
		(long long)(t / 1000000000), (long long)(t % 1000000000), pid, e->action, rw,
		(unsigned long long)(x->offset / 512), x->length / 512);
	if (e->action == 'C') {
		fprintf(p->out, "[%d]\n", (x->has & REEL_HAS_ERROR) ? x->error : 0);
	} else {
		const char *c = (x->has & REEL_HAS_COMM) ? reel_reader_comm(p->r, x->comm) : NULL;
		fprintf(p->out, "[%s]\n", c ? c : "");
	}
}

static void pop(struct bp *p)
{
	struct ev top = ev_heap_pop(&p->heap);
	write_line(p, &top);
}

static int push(struct bp *p, const struct reel_rec *x, int64_t t, char action)
{
	if (p->heap.n == HEAP_MAX)
		pop(p);
	struct ev e = {.t = t, .seq = p->seq++, .rec = *x, .action = action};
	return ev_heap_push(&p->heap, e);
}

static int blkparse_run(struct reel_reader *r, FILE *out, char *errmsg, size_t errlen)
{
	struct bp p = {.r = r, .out = out};
	const struct reel_rec *recs;
	long n;
	int rc = 0;
	int64_t last = 0;
	while ((n = reel_read_chunk(r, &recs)) > 0) {
		for (long i = 0; i < n; i++) {
			const struct reel_rec *x = &recs[i];
			int64_t t0 = (x->has & REEL_HAS_QUEUE)	    ? x->queue_ns
				     : (x->has & REEL_HAS_ISSUE)    ? x->issue_ns
				     : (x->has & REEL_HAS_COMPLETE) ? x->complete_ns
								    : last;
			last = t0;
			/* every line still waiting and not later than this I/O is due */
			while (p.heap.n && p.heap.v[0].t <= t0)
				pop(&p);
			if (((x->has & REEL_HAS_QUEUE) && (rc = push(&p, x, x->queue_ns, 'Q'))) ||
			    ((x->has & REEL_HAS_ISSUE) && (rc = push(&p, x, x->issue_ns, 'D'))) ||
			    ((x->has & REEL_HAS_COMPLETE) &&
			     (rc = push(&p, x, x->complete_ns, 'C'))))
				goto out;
			if (!(x->has & (REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE)) &&
			    (rc = push(&p, x, t0, 'Q')))
				goto out;
		}
		if (ferror(out)) {
			rc = reel_errf(errmsg, errlen, REEL_E_IO, "cannot write the output: %s",
				       strerror(errno ? errno : EIO));
			goto out;
		}
	}
	if (n < 0) {
		rc = reel_errf(errmsg, errlen, (int)n, "%s", reel_reader_errmsg(r));
		goto out;
	}
	while (p.heap.n)
		pop(&p);
out:
	if (rc == REEL_E_NOMEM)
		reel_errf(errmsg, errlen, rc, "out of memory");
	ev_heap_free(&p.heap);
	return rc;
}

const struct reel_exporter reel_exp_blkparse = {
    .name = "blkparse",
    .describe = "blkparse-like text (Q, D and C lines per I/O, in time order)",
    .run = blkparse_run,
};
