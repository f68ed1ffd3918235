/* replay/engine_psync.c - one thread, synchronous pread/pwrite: what the
 * single-threaded replay tools do (queue depth is 1 whatever --qd says). */
#include <errno.h>
#include <stdlib.h>

#include "formats/reel.h"
#include "replay/engine_internal.h"

struct replay_engine {
	struct replay_donelist done;
};

static int psync_create(struct replay_engine **out, const struct replay_engine_cfg *cfg,
			char *errmsg, size_t errlen)
{
	unsigned depth = cfg->depth;
	struct replay_engine *e = calloc(1, sizeof(*e));
	if (!e || replay_donelist_init(&e->done, depth)) {
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

static int psync_reap(struct replay_engine *e, struct replay_io **out, unsigned max, int64_t t)
{
	return (int)replay_donelist_pop(&e->done, out, max);
}

static int psync_ready(struct replay_engine *e) { return e->done.n != 0; }

static void psync_destroy(struct replay_engine *e)
{
	if (!e)
		return;
	replay_donelist_free(&e->done);
	free(e);
}

const struct replay_engine_ops replay_engine_psync = {
    .name = "psync",
    .flags = REPLAY_ENG_SYNC,
    .create = psync_create,
    .submit = psync_submit,
    .reap = psync_reap,
    .ready = psync_ready,
    .destroy = psync_destroy,
};
