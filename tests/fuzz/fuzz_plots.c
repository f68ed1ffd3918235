/* Fuzz target: the plots statistics and comparison tables on any .reel
 * (two streaming passes, histograms, time buckets, grouping, JSON/text). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "plots/plots.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64], err[512];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	const char *paths[2] = {path, path};
	struct plots_run **runs = NULL;
	if (plots_runs_load(&runs, paths, 2, 0, err, sizeof(err)) == 0) {
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			plots_compare_text(f, runs, 2);
			plots_compare_json(f, runs, 2);
			plots_compare_markdown(f, runs, 2, NULL, 0);
			fclose(f);
		}
		plots_runs_free(runs, 2);
	}
	close(fd);
	return 0;
}
