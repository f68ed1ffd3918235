/*
 * Bench helper for tests/bench/import_bin.sh: imports the given inputs with
 * one importer (by name) into a .reel written to /dev/null and prints
 * "records bytes_in seconds events".
 *   import_bin_run blktrace|blkparse FILE...
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"

extern const struct reel_importer reel_imp_blktrace, reel_imp_blkparse;
__attribute__((used)) static const struct reel_importer *const keep[] = {&reel_imp_blktrace,
									 &reel_imp_blkparse};

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s blktrace|blkparse FILE...\n", argv[0]);
		return 2;
	}
	const struct reel_importer *imp = reel_importer_find(argv[1]);
	if (!imp) {
		fprintf(stderr, "%s: no importer %s\n", argv[0], argv[1]);
		return 2;
	}
	int fd = open("/dev/null", O_WRONLY);
	struct reel_header h = {.source = "bench"};
	struct reel_writer *w;
	if (fd < 0 || reel_writer_open(&w, NULL, fd, &h, 0)) {
		fprintf(stderr, "%s: cannot open the writer\n", argv[0]);
		return 1;
	}
	struct reel_import_opts o = {.lba_size = 512};
	struct reel_import_stats st;
	memset(&st, 0, sizeof(st));
	char err[1024] = "";
	int64_t t0 = reel_now_ns();
	int rc =
	    imp->run((const char *const *)argv + 2, (size_t)argc - 2, &o, w, &st, err, sizeof(err));
	if (!rc)
		rc = reel_writer_close(w);
	else
		reel_writer_destroy(w);
	double secs = (double)(reel_now_ns() - t0) / 1e9;
	if (rc) {
		fprintf(stderr, "%s: %s\n", argv[0], err[0] ? err : reel_strerror(rc));
		return 1;
	}
	printf("%llu %llu %.6f %llu\n", (unsigned long long)st.records,
	       (unsigned long long)st.bytes_in, secs, (unsigned long long)st.lines);
	close(fd);
	return 0;
}
