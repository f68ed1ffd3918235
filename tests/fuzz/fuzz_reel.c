/* Fuzz target: the .reel reader (header, chunks, trailer), with and without
 * salvage, through the statistics pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
