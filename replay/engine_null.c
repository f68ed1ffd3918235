/* replay/engine_null.c - no I/O: every I/O completes as it is submitted.
 * Measures ioreel's own scheduling and bookkeeping. */
#include <errno.h>
#include <stdlib.h>

#include "formats/reel.h"
#include "replay/engine_internal.h"

struct replay_engine {
	struct replay_donelist done;
};

static int null_create(struct replay_engine **out, const struct replay_engine_cfg *cfg,
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

static int null_submit(struct replay_engine *e, struct replay_io *io, int more)
{
	io->res = io->op == REEL_OP_FLUSH ? 0 : io->length;
	io->done_ns = 0;
	replay_donelist_push(&e->done, io);
	return 0;
}

static int null_reap(struct replay_engine *e, struct replay_io **out, unsigned max, int64_t t)
{
	return (int)replay_donelist_pop(&e->done, out, max);
}

static int null_ready(struct replay_engine *e) { return e->done.n != 0; }

static void null_destroy(struct replay_engine *e)
{
	if (!e)
		return;
	replay_donelist_free(&e->done);
	free(e);
}

const struct replay_engine_ops replay_engine_null = {
    .name = "null",
    .flags = REPLAY_ENG_NO_IO,
    .create = null_create,
    .submit = null_submit,
    .reap = null_reap,
    .ready = null_ready,
    .destroy = null_destroy,
};
