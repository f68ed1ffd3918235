/*
 * formats/trace_rewrite.c - a trace rewritten for a replay: the I/Os that
 * never completed in the capture left out (a replay at the trace's own
 * queue depth needs every completion time), idle gaps cut as the Storage
 * Bench does (a gap with no I/O in flight longer than the limit is
 * shortened to the limit, and every later time moves earlier by what was
 * cut), and the whole looped (copies one after another, 1 ms apart) so
 * that one replay is long enough to measure.  `ioreel demo` and `ioreel
 * suite` use it; the result is a new .reel the replay reads like any other.
 */
#include <stdlib.h>

#include "formats/reel.h"

int reel_rec_copy_comm(struct reel_reader *r, struct reel_writer *w, struct reel_rec *rec)
{
	if (!(rec->has & REEL_HAS_COMM))
		return 0;
	const char *name = reel_reader_comm(r, rec->comm);
	int64_t id = reel_writer_intern(w, name ? name : "?");
	if (id < 0)
		return (int)id;
	rec->comm = (uint32_t)id;
	return 0;
}

static int64_t rec_start(const struct reel_rec *r)
{
	return r->has & REEL_HAS_QUEUE ? r->queue_ns : r->issue_ns;
}

static int64_t rec_end(const struct reel_rec *r)
{
	if (r->has & REEL_HAS_COMPLETE)
		return r->complete_ns;
	return r->has & REEL_HAS_ISSUE ? r->issue_ns : rec_start(r);
}

/* One copy of the trace (first: the first of them), idle gaps longer than limit (< 0: none) cut and
 * times moved by shift; *end gets the copy's last time. */
static int copy_once(struct reel_reader *r, struct reel_writer *w, const struct reel_rewrite *how,
		     int64_t shift, int64_t *end, struct reel_rewrite_stats *st, int first)
{
	struct reel_rec rec;
	int64_t cut = 0, busy_end = INT64_MIN, limit = how->max_idle_ns;
	int rc;
	while ((rc = reel_read(r, &rec)) == 1) {
		if (how->completed_only && !(rec.has & REEL_HAS_COMPLETE)) {
			st->dropped += first; /* counted in the first copy only */
			continue;
		}
		int64_t s = rec_start(&rec), e = rec_end(&rec);
		if (limit >= 0 && busy_end != INT64_MIN && s - busy_end > limit)
			cut += s - busy_end - limit;
		if (e > busy_end)
			busy_end = e;
		int64_t d = shift - cut;
		if (rec.has & REEL_HAS_QUEUE)
			rec.queue_ns += d;
		if (rec.has & REEL_HAS_ISSUE)
			rec.issue_ns += d;
		if (rec.has & REEL_HAS_COMPLETE)
			rec.complete_ns += d;
		if (e + d > *end)
			*end = e + d;
		if ((rc = reel_rec_copy_comm(r, w, &rec)) < 0 || (rc = reel_write(w, &rec)) < 0)
			break;
		st->written++;
	}
	st->cut_ns += cut;
	return rc;
}

int reel_trace_rewrite(const char *in, const char *out, const struct reel_rewrite *how,
		       struct reel_rewrite_stats *st, char *errmsg, size_t errlen)
{
	struct reel_reader *r;
	struct reel_writer *w;
	*st = (struct reel_rewrite_stats){0};
	int rc = reel_reader_open(&r, in, 0);
	if (rc < 0)
		return reel_errf(errmsg, errlen, rc, "%s: %s", in, reel_strerror(rc));
	struct reel_header h = *reel_reader_header(r);
	h.source = "replay-input";
	h.source_detail = how->detail ? how->detail : "rewritten by ioreel for a replay";
	rc = reel_writer_open(&w, out, -1, &h, REEL_W_OVERWRITE);
	if (rc < 0) {
		reel_reader_close(r);
		return reel_errf(errmsg, errlen, rc, "%s: %s", out, reel_strerror(rc));
	}
	reel_writer_set_level(w, 0);
	int64_t end = INT64_MIN, shift = 0;
	unsigned copies = how->copies ? how->copies : 1;
	for (unsigned k = 0; k < copies && rc >= 0; k++) {
		if (k && (rc = reel_reader_rewind(r)) < 0)
			break;
		rc = copy_once(r, w, how, shift, &end, st, k == 0);
		shift = end + 1000000; /* the next copy starts 1 ms after this one ends */
	}
	if (rc < 0)
		reel_errf(errmsg, errlen, rc, "%s -> %s: %s", in, out,
			  rc == REEL_E_NOMEM ? "out of memory" : reel_reader_errmsg(r));
	int crc = reel_writer_close(w);
	if (!rc && crc < 0)
		rc = reel_errf(errmsg, errlen, crc, "%s: %s", out, reel_strerror(crc));
	reel_reader_close(r);
	return rc < 0 ? rc : 0;
}
