/*
 * plots/trace_copy.c - a copy of a trace without the I/Os that never
 * completed in the capture (a boot's probe reads, queued and never
 * issued), for a replay at the trace's own queue depth (--qd original),
 * which needs every I/O's completion time.  Used by `ioreel demo` and
 * `ioreel suite`.
 */
#include <stdlib.h>

#include "plots/plots.h"

/* The writer's id of the reader's process name *comm (ids[] grown on
 * demand, -1 where not yet interned). */
static int map_comm(int64_t **ids, size_t *n, struct reel_reader *r, struct reel_writer *w,
		    uint32_t *comm)
{
	if (*comm >= *n) {
		size_t nn = (size_t)*comm + 64;
		int64_t *ni = realloc(*ids, nn * sizeof(*ni));
		if (!ni)
			return REEL_E_NOMEM;
		for (size_t i = *n; i < nn; i++)
			ni[i] = -1;
		*ids = ni;
		*n = nn;
	}
	if ((*ids)[*comm] < 0) {
		const char *name = reel_reader_comm(r, *comm);
		int64_t id = reel_writer_intern(w, name ? name : "?");
		if (id < 0)
			return (int)id;
		(*ids)[*comm] = id;
	}
	*comm = (uint32_t)(*ids)[*comm];
	return 0;
}

static int copy_completed(struct reel_reader *r, struct reel_writer *w, uint64_t *dropped)
{
	struct reel_rec rec;
	int64_t *ids = NULL;
	size_t nids = 0;
	int rc;
	while ((rc = reel_read(r, &rec)) == 1) {
		if (!(rec.has & REEL_HAS_COMPLETE)) {
			(*dropped)++;
			continue;
		}
		if ((rec.has & REEL_HAS_COMM) && (rc = map_comm(&ids, &nids, r, w, &rec.comm)) < 0)
			break;
		if ((rc = reel_write(w, &rec)) < 0)
			break;
	}
	free(ids);
	return rc;
}

int plots_trace_completed(const char *in, const char *out, uint64_t *dropped, char *err,
			  size_t errlen)
{
	struct reel_reader *r;
	struct reel_writer *w;
	*dropped = 0;
	int rc = reel_reader_open(&r, in, 0);
	if (rc < 0)
		return reel_errf(err, errlen, rc, "%s: %s", in, reel_strerror(rc));
	struct reel_header h = *reel_reader_header(r);
	h.source = "replay-input";
	h.source_detail = "the I/Os that completed (for --qd original)";
	rc = reel_writer_open(&w, out, -1, &h, REEL_W_OVERWRITE);
	if (rc < 0) {
		reel_reader_close(r);
		return reel_errf(err, errlen, rc, "%s: %s", out, reel_strerror(rc));
	}
	reel_writer_set_level(w, 0);
	rc = copy_completed(r, w, dropped);
	if (rc < 0)
		reel_errf(err, errlen, rc, "%s -> %s: %s", in, out,
			  rc == REEL_E_NOMEM ? "out of memory" : reel_reader_errmsg(r));
	int crc = reel_writer_close(w);
	if (!rc && crc < 0)
		rc = reel_errf(err, errlen, crc, "%s: %s", out, reel_strerror(crc));
	reel_reader_close(r);
	return rc;
}
