/* replay/engine_libaio.c - Linux native AIO (libaio): reads, writes and
 * fdatasync queued with io_submit(), one call per I/O so each leaves at its
 * scheduled time (with afap timing, batches of those ready at once);
 * completions are read from the kernel's ring in user space (a system call
 * only to wait); discards and write-zeroes run synchronously (AIO has no
 * command for them). */
#include <errno.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"
#include "replay/engine_internal.h"

/* The kernel's completion ring, mapped at the context address. */
struct aio_ring_hdr {
	unsigned id, nr, head, tail, magic, compat, incompat, header_length;
};
#define AIO_RING_MAGIC 0xa10a10a1

struct replay_engine {
	io_context_t ctx;
	unsigned depth;
	struct iocb *cbs;    /* one per slot */
	struct iocb **batch; /* held back by submit(more) */
	unsigned nbatch;
	struct io_event *ev;
	struct replay_donelist done;
};

static int aio_create(struct replay_engine **out, const struct replay_engine_cfg *cfg, char *errmsg,
		      size_t errlen)
{
	unsigned depth = cfg->depth;
	struct replay_engine *e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->depth = depth;
	e->cbs = calloc(depth, sizeof(*e->cbs));
	e->ev = calloc(depth, sizeof(*e->ev));
	e->batch = calloc(depth, sizeof(*e->batch));
	if (!e->cbs || !e->ev || !e->batch || replay_donelist_init(&e->done, depth)) {
		free(e->batch);
		free(e->cbs);
		free(e->ev);
		free(e);
		return -ENOMEM;
	}
	int rc = io_setup((int)depth, &e->ctx);
	if (rc < 0) {
		reel_errf(
		    errmsg, errlen, rc,
		    "libaio: io_setup(%u) failed: %s (raise /proc/sys/fs/aio-max-nr or lower --qd)",
		    depth, strerror(-rc));
		replay_donelist_free(&e->done);
		free(e->batch);
		free(e->cbs);
		free(e->ev);
		free(e);
		return rc;
	}
	*out = e;
	return 0;
}

/* io_submit() what is held back; an iocb the kernel refuses completes
 * with the error (or, for an fdatasync AIO cannot do, synchronously). */
static int aio_commit(struct replay_engine *e)
{
	unsigned k = 0;
	while (k < e->nbatch) {
		int rc = io_submit(e->ctx, (long)(e->nbatch - k), e->batch + k);
		if (rc > 0) {
			k += (unsigned)rc;
			continue;
		}
		if (rc == -EAGAIN || rc == -EINTR)
			continue;
		struct replay_io *io = e->batch[k]->data;
		io->res = rc == -EINVAL && io->op == REEL_OP_FLUSH ? replay_io_sync(io)
								   : (rc < 0 ? rc : -EIO);
		io->done_ns = reel_now_ns();
		replay_donelist_push(&e->done, io);
		k++;
	}
	e->nbatch = 0;
	return 0;
}

static int aio_submit(struct replay_engine *e, struct replay_io *io, int more)
{
	struct iocb *cb = &e->cbs[io->slot % e->depth];
	switch (io->op) {
	case REEL_OP_READ:
		io_prep_pread(cb, io->fd, io->buf, io->length, (long long)io->offset);
		break;
	case REEL_OP_WRITE:
		io_prep_pwrite(cb, io->fd, io->buf, io->length, (long long)io->offset);
		break;
	case REEL_OP_FLUSH:
		io_prep_fdsync(cb, io->fd);
		break;
	default:
		/* no AIO command: done inline, after what is held back */
		aio_commit(e);
		io->res = replay_io_sync(io);
		io->done_ns = reel_now_ns();
		replay_donelist_push(&e->done, io);
		return 0;
	}
	cb->data = io;
	io->done_ns = 0;
	e->batch[e->nbatch++] = cb;
	if (more && e->nbatch < e->depth)
		return 0;
	return aio_commit(e);
}

static int aio_ready(struct replay_engine *e)
{
	const struct aio_ring_hdr *r = (const void *)e->ctx;
	if (e->done.n)
		return 1;
	if (r->magic != AIO_RING_MAGIC || r->incompat)
		return 1; /* unknown layout: make the caller ask the kernel */
	return __atomic_load_n(&r->head, __ATOMIC_ACQUIRE) !=
	       __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
}

/* Take up to max events from the completion ring in user space, as fio's
 * userspace_reap does: no system call when completions are there.  The
 * kernel accepts this (it reads the ring's head back to count free
 * requests); io_getevents() is kept for waiting. */
static unsigned ring_reap(struct replay_engine *e, struct io_event *ev, unsigned max)
{
	struct aio_ring_hdr *r = (void *)e->ctx;
	if (r->magic != AIO_RING_MAGIC || r->incompat)
		return 0;
	const struct io_event *events = (const void *)((const char *)r + r->header_length);
	unsigned head = r->head, n = 0;
	unsigned tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
	while (n < max && head != tail) {
		ev[n++] = events[head];
		head = head + 1 == r->nr ? 0 : head + 1;
	}
	if (n)
		__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return n;
}

static int aio_reap(struct replay_engine *e, struct replay_io **out, unsigned max, int64_t t)
{
	unsigned k = replay_donelist_pop(&e->done, out, max);
	if (k == max)
		return (int)k;
	unsigned want = max - k;
	if (want > e->depth)
		want = e->depth;
	int n = (int)ring_reap(e, e->ev, want);
	if (n == 0 && !k && t != 0) {
		/* nothing there: sleep in the kernel until one completes */
		struct timespec ts, *tp = NULL;
		if (t > 0) {
			ts.tv_sec = t / 1000000000;
			ts.tv_nsec = t % 1000000000;
			tp = &ts;
		}
		n = io_getevents(e->ctx, 1, (long)want, e->ev, tp);
		if (n < 0)
			return n;
	} else if (n == 0 && !k && aio_ready(e)) {
		/* a ring this engine cannot read: ask the kernel */
		struct timespec zero = {0, 0};
		n = io_getevents(e->ctx, 0, (long)want, e->ev, &zero);
		if (n < 0)
			return n;
	}
	for (int i = 0; i < n; i++) {
		struct replay_io *io = e->ev[i].data;
		long res = (long)e->ev[i].res;
		if (res < 0)
			io->res = res;
		else if (io->op == REEL_OP_FLUSH)
			io->res = 0;
		else
			io->res = (uint64_t)res == io->length ? res : -EIO;
		out[k++] = io;
	}
	return (int)k;
}

static void aio_destroy(struct replay_engine *e)
{
	if (!e)
		return;
	io_destroy(e->ctx);
	replay_donelist_free(&e->done);
	free(e->batch);
	free(e->cbs);
	free(e->ev);
	free(e);
}

const struct replay_engine_ops replay_engine_libaio = {
    .name = "libaio",
    .create = aio_create,
    .submit = aio_submit,
    .commit = aio_commit,
    .reap = aio_reap,
    .ready = aio_ready,
    .destroy = aio_destroy,
};
