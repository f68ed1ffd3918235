/* libFuzzer target: the blkparse importer (and the joiner behind it) on
 * arbitrary bytes, strictly or with --skip-bad; the input goes through a
 * memfd (/proc/self/fd/N) and the .reel output to another memfd. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "formats/reel.h"

extern const struct reel_importer reel_imp_blkparse;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct reel_importer *imp = &reel_imp_blkparse;
	imp->detect(data, size < 65536 ? size : 65536, "fuzz.blkparse");
	int in = memfd_create("fuzz-in", MFD_CLOEXEC);
	if (in < 0)
		return 0;
	for (size_t off = 0; off < size;) {
		ssize_t n = write(in, data + off, size - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", in);
	const char *paths[] = {path};
	/* strict or --skip-bad by the size's parity: one pass per input (the
	 * writer is not cheap to open), both modes explored */
	for (unsigned skip_bad = size & 1; skip_bad == (size & 1); skip_bad++) {
		int out = memfd_create("fuzz-out", MFD_CLOEXEC);
		if (out < 0)
			break;
		struct reel_header h = {.source = "fuzz"};
		struct reel_writer *w = NULL;
		if (reel_writer_open(&w, NULL, out, &h, 0) == 0) {
			struct reel_import_opts o = {.skip_bad = skip_bad, .lba_size = 512};
			struct reel_import_stats st = {0};
			char err[512];
			if (imp->run(paths, 1, &o, w, &st, err, sizeof(err)) == 0)
				reel_writer_close(w);
			else
				reel_writer_destroy(w);
		} else {
			reel_writer_destroy(w);
		}
		close(out);
	}
	close(in);
	return 0;
}
