/* Fuzz target: the .reel reader (header, chunks, trailer), with and without
 * salvage, through the statistics pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <lz4frame.h>
#include <msgpack.h>
#include <string.h>

#include "formats/reel.h"

static void read_all(const char *path, unsigned flags)
{
	struct reel_reader *r;
	if (reel_reader_open(&r, path, flags) == 0) {
		struct reel_stats *s = malloc(sizeof(*s));
		if (s)
			reel_stats_compute(r, s);
		free(s);
		for (uint32_t i = 0; i < 4; i++)
			(void)reel_reader_comm(r, i);
		size_t n;
		(void)reel_reader_meta_all(r, &n);
	}
	(void)reel_reader_errmsg(r);
	reel_reader_close(r);
}

/* Append data as one LZ4 frame, so chunk parsing is reached past the checksums. */
static void put_frame(int fd, const void *data, size_t size)
{
	LZ4F_preferences_t pr;
	memset(&pr, 0, sizeof(pr));
	pr.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
	pr.frameInfo.contentSize = size;
	size_t bound = LZ4F_compressFrameBound(size, &pr);
	void *out = malloc(bound);
	if (!out)
		return;
	size_t n = LZ4F_compressFrame(out, bound, data, size, &pr);
	if (!LZ4F_isError(n) && write(fd, out, n) != (ssize_t)n)
		n = 0;
	free(out);
}

static void wrapped(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzzw", 0);
	if (fd < 0)
		return;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3);
	msgpack_pack_str_with_body(&pk, "format", 6);
	msgpack_pack_str_with_body(&pk, "ioreel", 6);
	msgpack_pack_str_with_body(&pk, "version", 7);
	msgpack_pack_uint32(&pk, 1);
	msgpack_pack_str_with_body(&pk, "time_unit", 9);
	msgpack_pack_str_with_body(&pk, "ns", 2);
	put_frame(fd, sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
	put_frame(fd, data, size);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	read_all(path, 0);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	wrapped(data, size);
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	read_all(path, 0);
	read_all(path, REEL_R_SALVAGE);
	close(fd);
	return 0;
}
