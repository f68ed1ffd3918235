/*
 * replay/result.c - the result of a replay is a .reel file too: a header
 * naming the targets as its devices, the replay's configuration and the
 * targets' description as metadata at the start, one record per replayed
 * I/O (written by schedule.c), and the totals as metadata at the end.
 * Without -o the same file goes to /dev/null, so every replay takes the
 * same path.
 *
 * -o goes through the output policy (formats/output.c): a regular file
 * only, never the trace or a target, an existing file replaced only when
 * it is an ioreel replay result (or with --overwrite).  The result is
 * written to a temporary name beside it, ".NAME.ioreel-PID-N", and renamed
 * into place when complete (also after Ctrl-C or SIGTERM: a complete result
 * marked interrupted).  It goes to disk at least once a second, so after a
 * SIGKILL the temporary holds every I/O completed up to a second before,
 * readable as a cut-short .reel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "replay/run_internal.h"

const char *const replay_timing_names[] = {"original", "afap", NULL};
const char *const replay_order_names[] = {"none", "strict", "dependency", NULL};
const char *const replay_point_names[] = {"queue", "issue", NULL};
const char *const replay_fit_names[] = {"fail", "wrap", "scale", NULL};

/* An existing -o may be replaced when it is an ioreel replay result. */
static int result_is_replay(const char *path) { return reel_out_reel_source(path, "replay"); }

int result_reserve(struct run *r)
{
	const struct replay_opts *o = r->o;
	const char *inputs[1 + 2 * REPLAY_MAX_TARGETS];
	size_t n = 0;
	if (!o->result)
		return 0;
	inputs[n++] = o->trace;
	for (size_t i = 0; i < o->ntargets && n < 1 + REPLAY_MAX_TARGETS; i++)
		inputs[n++] = o->targets[i];
	for (size_t i = 0; i < o->nmaps && n < 1 + 2 * REPLAY_MAX_TARGETS; i++)
		inputs[n++] = o->maps[i].path;
	for (size_t i = 1; i < n; i++)
		if (!strcmp(inputs[i], o->result))
			return reel_errf(r->err, r->errlen, REEL_E_ARG,
					 "-o %s is also a target: name another result file",
					 o->result);
	unsigned fl =
	    REEL_OUT_FD_ONLY | (o->overwrite || o->overwrite_result ? REEL_OUT_OVERWRITE : 0);
	int rc = reel_out_open(&r->out, AT_FDCWD, o->result, fl, result_is_replay, inputs, n,
			       r->err, r->errlen);
	if (rc < 0 && rc == REEL_E_EXISTS && !strstr(r->err, "same file"))
		reel_errf(r->err, r->errlen, rc,
			  "-o %s: the file exists and is not an ioreel replay result: choose "
			  "another name, remove it, or pass --overwrite",
			  o->result);
	return rc;
}

int result_tick(struct run *r)
{
	int64_t now = reel_now_ns();
	if (now - r->flushed_at < 1000000000)
		return 0;
	r->flushed_at = now;
	int rc = reel_writer_flush(r->w);
	return rc < 0 ? reel_errf(r->err, r->errlen, rc, "%s: %s",
				  r->o->result ? r->o->result : "result", reel_writer_errmsg(r->w))
		      : 0;
}

/* What each target is: target.N.path, size, model, created. */
static void write_target_meta(struct run *r)
{
	struct reel_writer *w = r->w;
	for (unsigned t = 0; t < r->ntg; t++) {
		char k[64];
		snprintf(k, sizeof(k), REEL_META_TARGET_FMT, t, "path");
		reel_writer_meta_str(w, k, r->tg[t].path);
		snprintf(k, sizeof(k), REEL_META_TARGET_FMT, t, "size");
		reel_writer_meta_int(w, k, (int64_t)r->tg[t].size);
		if (r->tg[t].model[0]) {
			snprintf(k, sizeof(k), REEL_META_TARGET_FMT, t, "model");
			reel_writer_meta_str(w, k, r->tg[t].model);
		}
		snprintf(k, sizeof(k), REEL_META_TARGET_FMT, t, "created");
		reel_writer_meta_int(w, k, r->tg[t].created);
	}
}

/* The configuration, at the start of the result. */
static int write_start_meta(struct run *r)
{
	const struct replay_opts *o = r->o;
	struct reel_writer *w = r->w;
	char targets[4096];
	targets[0] = 0;
	for (unsigned t = 0; t < r->ntg; t++) {
		size_t l = strlen(targets);
		snprintf(targets + l, sizeof(targets) - l, "%s%s", t ? "," : "", r->tg[t].path);
	}
	reel_writer_meta_str(w, REEL_META_REPLAY_TARGETS, targets);
	reel_writer_meta_str(w, REEL_META_REPLAY_TRACE, o->trace);
	reel_writer_meta_int(w, REEL_META_REPLAY_TRACE_DURATION_NS, r->res->trace_duration_ns);
	reel_writer_meta_str(w, REEL_META_REPLAY_ENGINE, r->ops->name);
	reel_writer_meta_str(w, REEL_META_REPLAY_TIMING, replay_timing_names[o->timing]);
	reel_writer_meta_dbl(w, REEL_META_REPLAY_SPEED, o->speed);
	if (o->max_idle_ns > 0)
		reel_writer_meta_int(w, REEL_META_REPLAY_MAX_IDLE_NS, o->max_idle_ns);
	reel_writer_meta_str(w, REEL_META_REPLAY_QD, r->res->qd_desc);
	reel_writer_meta_str(w, REEL_META_REPLAY_ORDER, replay_order_names[o->order]);
	reel_writer_meta_str(w, REEL_META_REPLAY_POINT, replay_point_names[o->point]);
	reel_writer_meta_str(w, REEL_META_REPLAY_DATA, o->data_str ? o->data_str : "random");
	reel_writer_meta_int(w, REEL_META_REPLAY_DEDUPE, o->data.dedupe_pct);
	reel_writer_meta_int(w, REEL_META_REPLAY_READ_ONLY, o->read_only);
	reel_writer_meta_int(w, REEL_META_REPLAY_BUFFERED, o->buffered);
	reel_writer_meta_int(w, REEL_META_REPLAY_PRECONDITION, o->precondition);
	reel_writer_meta_str(w, REEL_META_REPLAY_LABEL, r->res->label);
	write_target_meta(r);
	int rc = reel_writer_flush(w);
	return rc < 0 ? reel_errf(r->err, r->errlen, rc, "%s: %s", o->result, reel_writer_errmsg(w))
		      : 0;
}

/* Close the writer and the /dev/null under it; returns the close's code. */
static int writer_close(struct run *r)
{
	int rc = reel_writer_close(r->w);
	r->w = NULL;
	if (r->null_fd >= 0)
		close(r->null_fd);
	r->null_fd = -1;
	return rc;
}

int result_open(struct run *r)
{
	const struct replay_opts *o = r->o;
	struct reel_device devs[REPLAY_MAX_TARGETS];
	memset(devs, 0, sizeof(devs));
	for (unsigned t = 0; t < r->ntg; t++) {
		devs[t].id = (uint16_t)t;
		snprintf(devs[t].name, sizeof(devs[t].name), "%.63s", r->tg[t].name);
		devs[t].lbs = r->tg[t].lbs;
		devs[t].pbs = r->tg[t].pbs;
		devs[t].capacity = r->tg[t].size;
	}
	char detail[512];
	snprintf(detail, sizeof(detail), "ioreel replay %s", o->trace);
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	struct reel_header h = {.start_unix_ns = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec,
				.source = "replay",
				.source_detail = detail,
				.devices = devs,
				.ndevices = r->ntg};
	int fd = r->out.fd;
	if (!o->result) {
		fd = r->null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (r->null_fd < 0)
			return reel_errf(r->err, r->errlen, -errno, "/dev/null: %s",
					 strerror(errno));
	}
	int rc = reel_writer_open(&r->w, NULL, fd, &h, 0);
	if (rc < 0) {
		reel_errf(r->err, r->errlen, rc, "%s: %s", o->result ? o->result : "/dev/null",
			  r->w ? reel_writer_errmsg(r->w) : reel_strerror(rc));
		reel_writer_destroy(r->w);
		r->w = NULL;
		if (r->null_fd >= 0)
			close(r->null_fd);
		r->null_fd = -1;
		return rc;
	}
	/* fast LZ4: the result is written while replaying */
	reel_writer_set_level(r->w, 0);
	r->flushed_at = reel_now_ns();
	if ((rc = write_start_meta(r)) < 0)
		writer_close(r);
	return rc;
}

int result_close(struct run *r, int rc)
{
	const struct replay_result *res = r->res;
	reel_writer_meta_int(r->w, REEL_META_REPLAY_DURATION_NS, res->duration_ns);
	reel_writer_meta_int(r->w, REEL_META_REPLAY_INTERRUPTED, res->interrupted);
	reel_writer_meta_dbl(r->w, REEL_META_REPLAY_RATIO_ACHIEVED, res->ratio_achieved);
	reel_writer_meta_int(r->w, REEL_META_REPLAY_IOS, (int64_t)res->ios);
	reel_writer_meta_int(r->w, REEL_META_REPLAY_ERRORS, (int64_t)res->errors);
	reel_writer_meta_int(r->w, REEL_META_REPLAY_SKIPPED, (int64_t)res->skipped);
	int crc = writer_close(r);
	if (rc == 0 && crc < 0)
		rc = reel_errf(r->err, r->errlen, crc, "%s: writing the result failed: %s",
			       r->o->result, reel_strerror(crc));
	if (!r->o->result)
		return rc;
	if (rc < 0) {
		reel_out_abort(&r->out); /* nothing under the final name */
		return rc;
	}
	return reel_out_commit(&r->out, r->err, r->errlen);
}
