/* replay/engine_common.c - what the engines share: the table that chooses
 * one by name, synchronous I/O and the done list. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "formats/reel.h"
#include "replay/engine_internal.h"
#include "replay/replay.h"

/* The engines, the default first (ae's table of backends). */
static const struct replay_engine_ops *const engines[] = {
    &replay_engine_libaio,
    &replay_engine_uring,
    &replay_engine_psync,
    &replay_engine_null,
};
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

const struct replay_engine_ops *replay_engine_find(const char *name)
{
	if (!name)
		return engines[0];
	if (!strcmp(name, "uring"))
		name = "io_uring";
	for (size_t i = 0; i < NENGINES; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const char *replay_engine_name(unsigned i) { return i < NENGINES ? engines[i]->name : NULL; }

int64_t replay_io_sync(const struct replay_io *io)
{
	ssize_t n;
	switch (io->op) {
	case REEL_OP_READ:
		n = pread(io->fd, io->buf, io->length, (off_t)io->offset);
		break;
	case REEL_OP_WRITE:
		n = pwrite(io->fd, io->buf, io->length, (off_t)io->offset);
		break;
	case REEL_OP_FLUSH:
		return fdatasync(io->fd) < 0 ? -errno : 0;
	case REEL_OP_DISCARD:
		if (io->is_blk) {
			uint64_t r[2] = {io->offset, io->length};
			return ioctl(io->fd, BLKDISCARD, r) < 0 ? -errno : (int64_t)io->length;
		}
		return fallocate(io->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				 (off_t)io->offset, (off_t)io->length) < 0
			   ? -errno
			   : (int64_t)io->length;
	case REEL_OP_WRITE_ZEROES:
		if (io->is_blk) {
			uint64_t r[2] = {io->offset, io->length};
			return ioctl(io->fd, BLKZEROOUT, r) < 0 ? -errno : (int64_t)io->length;
		}
		/* tmpfs and others lack ZERO_RANGE: a punched hole reads as zeros */
		if (fallocate(io->fd, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, (off_t)io->offset,
			      (off_t)io->length) == 0 ||
		    fallocate(io->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)io->offset,
			      (off_t)io->length) == 0)
			return (int64_t)io->length;
		return -errno;
	default:
		return -EINVAL;
	}
	if (n < 0)
		return -errno;
	if ((uint64_t)n != io->length)
		return -EIO; /* short transfer: past the end of the target */
	return n;
}

int replay_donelist_init(struct replay_donelist *d, unsigned cap)
{
	d->v = calloc(cap, sizeof(*d->v));
	d->cap = cap;
	d->head = d->n = 0;
	return d->v ? 0 : -ENOMEM;
}

void replay_donelist_free(struct replay_donelist *d)
{
	free(d->v);
	d->v = NULL;
}

void replay_donelist_push(struct replay_donelist *d, struct replay_io *io)
{
	d->v[(d->head + d->n) % d->cap] = io;
	d->n++;
}

unsigned replay_donelist_pop(struct replay_donelist *d, struct replay_io **out, unsigned max)
{
	unsigned k = 0;
	while (k < max && d->n) {
		out[k++] = d->v[d->head];
		d->head = (d->head + 1) % d->cap;
		d->n--;
	}
	return k;
}
