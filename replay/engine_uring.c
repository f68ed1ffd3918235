/* replay/engine_uring.c - io_uring (liburing): reads, writes, fdatasync
 * and file hole punching queued.  With original timing each I/O is
 * submitted at its time (io_uring_submit, which with SQPOLL only wakes the
 * kernel's submitting thread when it sleeps); with afap timing those ready
 * at once go in one io_uring_submit.  The ring is made with DEFER_TASKRUN
 * where the kernel has it (else COOP_TASKRUN, else neither): finished I/Os
 * are posted when this task enters the kernel (a submission runs them
 * too), not by interrupting it.  Completions are read from the CQ ring in
 * user space; a wait ends at the first completion (a wait for several
 * would stamp the earlier ones late: latency is taken at the reap), and
 * with afap timing and a fixed depth a submission that leaves every slot
 * out waits in the same system call.  The ring's fd, the
 * targets' fds and the slots' buffers are registered before time zero
 * (create, attach), so the kernel does not look them up and pin the pages
 * for each I/O.  --hipri makes the ring IOPOLL (completions polled, not
 * interrupt-driven; block devices with poll queues only).  Discards on
 * block devices (BLKDISCARD) and write-zeroes (BLKZEROOUT, or ZERO_RANGE
 * falling back to hole punching) run synchronously. */
#include <errno.h>
#include <liburing.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"
#include "replay/engine_internal.h"

struct replay_engine {
	struct io_uring ring;
	unsigned depth;
	int files;    /* the targets' fds are registered */
	int iopoll;   /* IORING_SETUP_IOPOLL: completions must be polled for */
	int sqpoll;   /* IORING_SETUP_SQPOLL: a kernel thread takes the entries */
	int batch;    /* afap, fixed depth: submit and wait in one call */
	unsigned out; /* submitted, not yet reaped */
	struct replay_donelist done;
};

/* The setup flags to try, best first: completions run as deferred task
 * work only when this (only) task asks for them (DEFER_TASKRUN, 6.1), or
 * without interrupting it (COOP_TASKRUN, 5.19); TASKRUN_FLAG makes the
 * kernel say in the SQ ring's flags that such work waits, so a look at the
 * rings (needs_enter()) tells when to enter the kernel.
 * An older kernel refuses what it does not know (EINVAL): the next set. */
static const unsigned setup_flags[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
    0,
};
#define NSETUP (sizeof(setup_flags) / sizeof(setup_flags[0]))

static int ring_init(struct replay_engine *e, const struct replay_engine_cfg *cfg)
{
	int rc = -EINVAL;
	/* SQPOLL: the kernel's thread runs the completions; nothing to defer */
	for (size_t i = cfg->sqpoll ? NSETUP - 1 : 0; i < NSETUP; i++) {
		struct io_uring_params p;
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_CQSIZE | setup_flags[i];
		p.cq_entries = e->depth * 2;
		if (cfg->sqpoll) {
			p.flags |= IORING_SETUP_SQPOLL;
			p.sq_thread_idle = 100; /* ms before the kernel thread sleeps */
		}
		if (cfg->hipri)
			p.flags |= IORING_SETUP_IOPOLL;
		rc = io_uring_queue_init_params(e->depth, &e->ring, &p);
		if (rc != -EINVAL)
			break;
	}
	if (rc < 0)
		return rc;
	/* the ring's fd registered: io_uring_enter() does not look it up */
	io_uring_register_ring_fd(&e->ring);
	return 0;
}

static int uring_create(struct replay_engine **out, const struct replay_engine_cfg *cfg,
			char *errmsg, size_t errlen)
{
	unsigned depth = cfg->depth;
	struct replay_engine *e = calloc(1, sizeof(*e));
	if (!e || replay_donelist_init(&e->done, depth)) {
		free(e);
		return -ENOMEM;
	}
	e->depth = depth;
	e->iopoll = cfg->hipri != 0;
	e->sqpoll = cfg->sqpoll != 0;
	e->batch = cfg->reap_batch != 0;
	int rc = ring_init(e, cfg);
	if (rc < 0) {
		reel_errf(
		    errmsg, errlen, rc,
		    "io_uring: setup with %u entries%s%s failed: %s (is io_uring disabled? see "
		    "/proc/sys/kernel/io_uring_disabled; or use --engine libaio)",
		    depth, cfg->sqpoll ? ", SQPOLL" : "", cfg->hipri ? ", IOPOLL" : "",
		    strerror(-rc));
		replay_donelist_free(&e->done);
		free(e);
		return rc;
	}
	*out = e;
	return 0;
}

/* Register the targets and the buffers; without them the I/Os go
 * unregistered (io->target and io->fixed are then ignored). */
static int uring_attach(struct replay_engine *e, const int *fds, unsigned nfds,
			const struct iovec *bufs, unsigned nbufs)
{
	int rc = nfds ? io_uring_register_files(&e->ring, fds, nfds) : -EINVAL;
	e->files = rc == 0;
	int rb = nbufs ? io_uring_register_buffers(&e->ring, bufs, nbufs) : 0;
	if (rb < 0)
		return rb;
	return rc < 0 && nfds ? rc : 0;
}

/* Submit what is held back.  With all slots out (batch: the caller's next
 * step is a wait, as it has no slot to issue from) and nothing finished
 * in sight, wait in the same system call. */
static int submit_held(struct replay_engine *e)
{
	if (!e->batch || e->out < e->depth || e->done.n || io_uring_cq_ready(&e->ring))
		return io_uring_submit(&e->ring);
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = {0, 200000000};
	int rc = io_uring_submit_and_wait_timeout(&e->ring, &cqe, 1, &ts, NULL);
	return rc == -ETIME ? 0 : rc;
}

static int uring_commit(struct replay_engine *e)
{
	/* SQPOLL: the kernel's thread takes the entries when it comes to
	 * them; io_uring_submit() only wakes it when it sleeps */
	if (e->sqpoll) {
		int rc = io_uring_submit(&e->ring);
		return rc < 0 && rc != -EBUSY && rc != -EAGAIN && rc != -EINTR ? rc : 0;
	}
	while (io_uring_sq_ready(&e->ring)) {
		unsigned before = io_uring_sq_ready(&e->ring);
		int rc = submit_held(e);
		if (rc >= 0 && io_uring_sq_ready(&e->ring) < before)
			continue;
		if (rc == -EINTR || rc == -EAGAIN || rc == -EBUSY)
			continue;
		return rc < 0 ? rc : -EIO;
	}
	return 0;
}

static int uring_submit(struct replay_engine *e, struct replay_io *io, int more)
{
	/* block discards have no io_uring command here; write-zeroes may need
	 * the synchronous fallback (hole punching) */
	if ((io->op == REEL_OP_DISCARD && io->is_blk) || io->op == REEL_OP_WRITE_ZEROES) {
		uring_commit(e);
		io->res = replay_io_sync(io);
		io->done_ns = reel_now_ns();
		replay_donelist_push(&e->done, io);
		return 0;
	}
	struct io_uring_sqe *sqe = io_uring_get_sqe(&e->ring);
	if (!sqe) {
		int rc = uring_commit(e);
		if (rc == 0 && e->sqpoll)
			rc = io_uring_sqring_wait(&e->ring);
		if (rc < 0 || !(sqe = io_uring_get_sqe(&e->ring)))
			return rc < 0 ? rc : -EBUSY;
	}
	int fd = e->files ? io->target : io->fd;
	switch (io->op) {
	case REEL_OP_READ:
		if (io->fixed >= 0)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->length, io->offset,
						 io->fixed);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->length, io->offset);
		break;
	case REEL_OP_WRITE:
		if (io->fixed >= 0)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->length, io->offset,
						  io->fixed);
		else
			io_uring_prep_write(sqe, fd, io->buf, io->length, io->offset);
		break;
	case REEL_OP_FLUSH:
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	case REEL_OP_DISCARD:
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					io->offset, io->length);
		break;
	default:
		return -EINVAL;
	}
	if (e->files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
	io->done_ns = 0;
	e->out++;
	if (more)
		return 0;
	return uring_commit(e);
}

/* Must the kernel be entered to see what has finished?  With
 * DEFER_TASKRUN or COOP_TASKRUN finished I/Os wait as task work until this
 * task enters the kernel (the SQ ring's IORING_SQ_TASKRUN says there is
 * some); with IOPOLL nothing completes unless someone polls.  Entries held
 * back (submit(more)) are about to go in an io_uring_enter that runs that
 * work too (liburing adds GETEVENTS when the flag is up): no call for it
 * alone meanwhile. */
static int needs_enter(struct replay_engine *e)
{
	if (io_uring_sq_ready(&e->ring))
		return 0;
	return (IO_URING_READ_ONCE(*e->ring.sq.kflags) & IORING_SQ_TASKRUN) ||
	       (e->iopoll && e->out);
}

static int uring_ready(struct replay_engine *e)
{
	return e->done.n || io_uring_cq_ready(&e->ring) || needs_enter(e);
}

/* Wait up to t ns (t < 0: as long as it takes) for completions. */
static int wait_some(struct replay_engine *e, int64_t t)
{
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts = {t / 1000000000, t % 1000000000};
	int rc = io_uring_wait_cqes(&e->ring, &cqe, 1, t > 0 ? &ts : NULL, NULL);
	return rc < 0 && rc != -ETIME ? rc : 0;
}

static int uring_reap(struct replay_engine *e, struct replay_io **out, unsigned max, int64_t t)
{
	unsigned k = replay_donelist_pop(&e->done, out, max);
	if (k == max)
		return (int)k;
	if (!k && !io_uring_cq_ready(&e->ring)) {
		int rc = 0;
		if (t != 0)
			rc = wait_some(e, t);
		else if (needs_enter(e))
			rc = io_uring_get_events(&e->ring); /* run the task work, or poll once */
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
			return rc;
	}
	/* the CQ ring in user space, as the AIO ring in engine_libaio.c */
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	io_uring_for_each_cqe(&e->ring, head, cqe)
	{
		if (k == max)
			break;
		struct replay_io *io = io_uring_cqe_get_data(cqe);
		int res = cqe->res;
		if (res < 0)
			io->res = res;
		else if (io->op == REEL_OP_READ || io->op == REEL_OP_WRITE)
			io->res = (uint32_t)res == io->length ? res : -EIO;
		else
			io->res = io->op == REEL_OP_FLUSH ? 0 : io->length;
		out[k++] = io;
		n++;
	}
	io_uring_cq_advance(&e->ring, n);
	e->out -= n < e->out ? n : e->out;
	return (int)k;
}

static void uring_destroy(struct replay_engine *e)
{
	if (!e)
		return;
	io_uring_queue_exit(&e->ring);
	replay_donelist_free(&e->done);
	free(e);
}

const struct replay_engine_ops replay_engine_uring = {
    .name = "io_uring",
    .create = uring_create,
    .attach = uring_attach,
    .submit = uring_submit,
    .commit = uring_commit,
    .reap = uring_reap,
    .ready = uring_ready,
    .destroy = uring_destroy,
};
