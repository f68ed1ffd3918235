/* replay/engine_sync.c - the two engines that complete an I/O inside
 * submit(): psync, one thread doing synchronous pread/pwrite (what the
 * single-threaded replay tools do: queue depth 1 whatever --qd says), and
 * null, no I/O at all (every I/O completes as it is submitted: measures
 * ioreel's own scheduling and bookkeeping).  Completions wait in a done
 * list for the next reap(). */
#include <errno.h>
#include <stdlib.h>

#include "formats/reel.h"
#include "replay/engine_internal.h"

struct replay_engine {
	struct replay_donelist done;
};

static int sync_create(struct replay_engine **out, const struct replay_engine_cfg *cfg,
		       char *errmsg, size_t errlen)
{
	struct replay_engine *e = calloc(1, sizeof(*e));
	if (!e || replay_donelist_init(&e->done, cfg->depth)) {
		free(e);
		return -ENOMEM;
	}
	*out = e;
	return 0;
}

static int psync_submit(struct replay_engine *e, struct replay_io *io, int more)
{
	io->res = replay_io_sync(io);
	io->done_ns = reel_now_ns();
	replay_donelist_push(&e->done, io);
	return 0;
}

static int null_submit(struct replay_engine *e, struct replay_io *io, int more)
{
	io->res = io->op == REEL_OP_FLUSH ? 0 : io->length;
	io->done_ns = 0;
	replay_donelist_push(&e->done, io);
	return 0;
}

static int sync_reap(struct replay_engine *e, struct replay_io **out, unsigned max, int64_t t)
{
	return (int)replay_donelist_pop(&e->done, out, max);
}

static int sync_ready(struct replay_engine *e) { return e->done.n != 0; }

static void sync_destroy(struct replay_engine *e)
{
	if (!e)
		return;
	replay_donelist_free(&e->done);
	free(e);
}

const struct replay_engine_ops replay_engine_psync = {
    .name = "psync",
    .flags = REPLAY_ENG_SYNC,
    .create = sync_create,
    .submit = psync_submit,
    .reap = sync_reap,
    .ready = sync_ready,
    .destroy = sync_destroy,
};

const struct replay_engine_ops replay_engine_null = {
    .name = "null",
    .flags = REPLAY_ENG_NO_IO,
    .create = sync_create,
    .submit = null_submit,
    .reap = sync_reap,
    .ready = sync_ready,
    .destroy = sync_destroy,
};
