/*
 * suite/idle.c - rewriting a trace for the suite: cutting idle time, as
 * the Storage Bench does (a gap with no I/O in flight longer than the limit
 * is shortened to the limit, and every later time moves earlier by what was
 * cut), and looping it (copies one after another), so that a run is one
 * replay long enough to measure rather than many short ones.  The result is
 * a new .reel the replay reads like any other trace.
 */
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

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

/* Map the reader's comm ids to the writer's (grown on demand). */
struct comm_map {
	int64_t *id;
	size_t n;
};

static int map_comm(struct comm_map *cm, struct reel_reader *r, struct reel_writer *w,
		    uint32_t *comm)
{
	if (*comm >= cm->n) {
		size_t nn = (size_t)*comm + 64;
		int64_t *ni = realloc(cm->id, nn * sizeof(*ni));
		if (!ni)
			return REEL_E_NOMEM;
		for (size_t i = cm->n; i < nn; i++)
			ni[i] = -1;
		cm->id = ni;
		cm->n = nn;
	}
	if (cm->id[*comm] < 0) {
		const char *name = reel_reader_comm(r, *comm);
		int64_t id = reel_writer_intern(w, name ? name : "?");
		if (id < 0)
			return (int)id;
		cm->id[*comm] = id;
	}
	*comm = (uint32_t)cm->id[*comm];
	return 0;
}

/* One copy of the trace, idle gaps cut, times moved by shift; *end gets
 * the copy's last time. */
static int copy_cut(struct reel_reader *r, struct reel_writer *w, struct comm_map *cm,
		    int64_t limit, int64_t shift, int64_t *end)
{
	struct reel_rec rec;
	int64_t cut = 0, busy_end = INT64_MIN;
	int rc;
	while ((rc = reel_read(r, &rec)) == 1) {
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
		if ((rec.has & REEL_HAS_COMM) && (rc = map_comm(cm, r, w, &rec.comm)) < 0)
			break;
		if ((rc = reel_write(w, &rec)) < 0)
			break;
	}
	return rc;
}

static int copies_out(struct reel_reader *r, struct reel_writer *w, int64_t limit, unsigned copies)
{
	struct comm_map cm = {0};
	int64_t end = INT64_MIN, shift = 0;
	int rc = 0;
	for (unsigned k = 0; k < copies && rc >= 0; k++) {
		if (k && (rc = reel_reader_rewind(r)) < 0)
			break;
		rc = copy_cut(r, w, &cm, limit, shift, &end);
		shift = end + 1000000; /* the next copy starts 1 ms after this one ends */
	}
	free(cm.id);
	return rc;
}

int suite_trace_rewrite(const char *in, const char *out, double max_idle_s, unsigned copies,
			char *errmsg, size_t errlen)
{
	struct reel_reader *r;
	struct reel_writer *w;
	int rc = reel_reader_open(&r, in, 0);
	if (rc < 0)
		return reel_errf(errmsg, errlen, rc, "%s: %s", in, reel_strerror(rc));
	struct reel_header h = *reel_reader_header(r);
	h.source = "replay-input";
	h.source_detail = "rewritten by ioreel suite (max-idle cut, looped)";
	rc = reel_writer_open(&w, out, -1, &h, REEL_W_OVERWRITE);
	if (rc < 0) {
		reel_reader_close(r);
		return reel_errf(errmsg, errlen, rc, "%s: %s", out, reel_strerror(rc));
	}
	reel_writer_set_level(w, 0);
	rc = copies_out(r, w, max_idle_s > 0 ? (int64_t)(max_idle_s * 1e9) : -1,
			copies ? copies : 1);
	if (rc < 0)
		reel_errf(errmsg, errlen, rc, "%s -> %s: %s", in, out,
			  rc == REEL_E_NOMEM ? "out of memory" : reel_reader_errmsg(r));
	int crc = reel_writer_close(w);
	if (!rc && crc < 0)
		rc = reel_errf(errmsg, errlen, crc, "%s: %s", out, reel_strerror(crc));
	reel_reader_close(r);
	return rc;
}
