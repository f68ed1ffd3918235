/*
 * replay/engine_internal.h - the engine ops table (internal to replay/).
 * One file per kind of engine: engine_libaio.c, engine_uring.c, engine_sync.c (psync
 * and null).  The scheduler owns every struct replay_io; an engine
 * borrows it from submit() until reap() hands it back.
 */
#ifndef IOREEL_REPLAY_ENGINE_INTERNAL_H
#define IOREEL_REPLAY_ENGINE_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct replay_io {
	int fd;
	int is_blk; /* block device (discard = BLKDISCARD) */
	uint8_t op; /* enum reel_op */
	uint64_t offset;
	uint32_t length;
	void *buf;
	int64_t res;	 /* set by the engine: bytes done or -errno */
	int64_t done_ns; /* set by synchronous engines: completion time; else 0 */
	uint32_t slot;	 /* the scheduler's */
	uint16_t target; /* index in the fds given to attach() */
	int16_t fixed;	 /* buf lies in registered buffer `fixed`; -1 no */
};

/* How the engine is to run (from replay_opts). */
struct replay_engine_cfg {
	unsigned depth; /* most I/Os in flight at once */
	int hipri;	/* polled completions (io_uring IOPOLL) */
	int sqpoll;	/* a kernel thread submits (io_uring SQPOLL) */
	int reap_batch; /* afap, fixed depth, no dependency order: with
			   every slot out, submit and wait in one call */
};

/* What an engine is, for the scheduler (fio's FIO_DISKLESSIO, FIO_SYNCIO). */
enum replay_engine_flags {
	REPLAY_ENG_NO_IO = 1 << 0, /* does no I/O: needs no buffers, no data */
	REPLAY_ENG_SYNC = 1 << 1,  /* does each I/O inside submit(), in this
				      thread: one at a time, so depth 1 */
};

struct replay_engine;
struct replay_engine_ops {
	const char *name;
	unsigned flags; /* enum replay_engine_flags */
	int (*create)(struct replay_engine **out, const struct replay_engine_cfg *cfg, char *errmsg,
		      size_t errlen);
	/* Before time zero: the targets' fds (io->target indexes them) and the
	 * slots' buffers (io->fixed indexes them), for an engine that
	 * registers them with the kernel; both stay valid until destroy().
	 * May be NULL.  Returns 0 or -errno (the engine then works unregistered). */
	int (*attach)(struct replay_engine *e, const int *fds, unsigned nfds,
		      const struct iovec *bufs, unsigned nbufs);
	/*
	 * Start one I/O; returns 0 or -errno (the I/O was not started).  With
	 * more set the engine may hold it back to submit it with the next ones
	 * (one system call for a batch, as fio's iodepth_batch): the caller
	 * then calls commit() before it waits for anything.
	 */
	int (*submit)(struct replay_engine *e, struct replay_io *io, int more);
	/* Submit what submit(more) held back; failures come back through
	 * reap() as I/Os with res < 0.  May be NULL (nothing held back). */
	int (*commit)(struct replay_engine *e);
	/*
	 * Hand back up to max finished I/Os into out[].  timeout_ns: 0 do not
	 * wait, > 0 wait up to that long for one, < 0 wait for one.  Returns
	 * the count or -errno (-EINTR when a signal arrived).
	 */
	int (*reap)(struct replay_engine *e, struct replay_io **out, unsigned max,
		    int64_t timeout_ns);
	/* Nonzero when reap() would return something without a system call
	 * (a cheap look at a shared ring); may be NULL. */
	int (*ready)(struct replay_engine *e);
	void (*destroy)(struct replay_engine *e);
};

extern const struct replay_engine_ops replay_engine_libaio;
extern const struct replay_engine_ops replay_engine_uring;
extern const struct replay_engine_ops replay_engine_psync;
extern const struct replay_engine_ops replay_engine_null;

/* The engine called name ("uring" for io_uring too; NULL: the default,
 * libaio), or NULL when there is none. */
const struct replay_engine_ops *replay_engine_find(const char *name);

/* Do io synchronously (pread, pwrite, fdatasync, discard, write-zeroes);
 * returns bytes or -errno.  Shared by the engines for what they cannot
 * queue (discard on libaio, everything on psync). */
int64_t replay_io_sync(const struct replay_io *io);

/* A small FIFO of I/Os finished synchronously inside submit(). */
struct replay_donelist {
	struct replay_io **v;
	unsigned cap, head, n;
};
int replay_donelist_init(struct replay_donelist *d, unsigned cap);
void replay_donelist_free(struct replay_donelist *d);
void replay_donelist_push(struct replay_donelist *d, struct replay_io *io);
unsigned replay_donelist_pop(struct replay_donelist *d, struct replay_io **out, unsigned max);

#endif
