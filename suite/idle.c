/*
 * suite/idle.c - cutting idle time out of a trace, as the Storage Bench
 * does: a gap with no I/O in flight longer than the limit is shortened to
 * the limit, and every later time moves earlier by what was cut.  The
 * result is a new .reel the replay reads like any other trace.
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

static int copy_cut(struct reel_reader *r, struct reel_writer *w, int64_t limit)
{
	struct comm_map cm = {0};
	struct reel_rec rec;
	int64_t cut = 0, busy_end = INT64_MIN;
	int rc;
	while ((rc = reel_read(r, &rec)) == 1) {
		int64_t s = rec_start(&rec), e = rec_end(&rec);
		if (busy_end != INT64_MIN && s - busy_end > limit)
			cut += s - busy_end - limit;
		if (e > busy_end)
			busy_end = e;
		if (rec.has & REEL_HAS_QUEUE)
			rec.queue_ns -= cut;
		if (rec.has & REEL_HAS_ISSUE)
			rec.issue_ns -= cut;
		if (rec.has & REEL_HAS_COMPLETE)
			rec.complete_ns -= cut;
		if ((rec.has & REEL_HAS_COMM) && (rc = map_comm(&cm, r, w, &rec.comm)) < 0)
			break;
		if ((rc = reel_write(w, &rec)) < 0)
			break;
	}
	free(cm.id);
	return rc;
}

int suite_cut_idle(const char *in, const char *out, double max_idle_s, char *errmsg,
		   size_t errlen)
{
	struct reel_reader *r;
	struct reel_writer *w;
	int rc = reel_reader_open(&r, in, 0);
	if (rc < 0)
		return reel_errf(errmsg, errlen, rc, "%s: %s", in, reel_strerror(rc));
	struct reel_header h = *reel_reader_header(r);
	h.source = "replay-input";
	h.source_detail = "idle gaps cut by ioreel suite (max-idle)";
	rc = reel_writer_open(&w, out, -1, &h, REEL_W_OVERWRITE);
	if (rc < 0) {
		reel_reader_close(r);
		return reel_errf(errmsg, errlen, rc, "%s: %s", out, reel_strerror(rc));
	}
	rc = copy_cut(r, w, (int64_t)(max_idle_s * 1e9));
	if (rc < 0)
		reel_errf(errmsg, errlen, rc, "%s -> %s: %s", in, out,
			  rc == REEL_E_NOMEM ? "out of memory" : reel_reader_errmsg(r));
	int crc = reel_writer_close(w);
	if (!rc && crc < 0)
		rc = reel_errf(errmsg, errlen, crc, "%s: %s", out, reel_strerror(crc));
	reel_reader_close(r);
	return rc;
}
