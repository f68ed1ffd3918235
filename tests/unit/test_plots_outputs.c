/*
 * The plots module's output rules (plots/output_dir.c): which folders are
 * ioreel's to write, and the terminal escaping of trace text.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plots/plots.h"
#include "tests/unit/unit.h"

static char dir[] = "/tmp/ioreel-plots-out-XXXXXX";
static char err[1024];

static const char *p(const char *name)
{
	static char buf[4][512];
	static int i;
	char *b = buf[i++ % 4];
	snprintf(b, 512, "%s/%s", dir, name);
	return b;
}

static int test_folders(void)
{
	int fd = plots_outdir_open(p("new"), 0, err, sizeof(err)); /* new: made and marked */
	CHECK(fd >= 0);
	close(fd);
	CHECK(access(p("new/" PLOTS_MARKER), F_OK) == 0);
	fd = plots_outdir_open(p("new"), 0, err, sizeof(err)); /* marked: ours again */
	CHECK(fd >= 0);
	close(fd);
	CHECK(mkdir(p("other"), 0755) == 0);
	FILE *f = fopen(p("other/notes.txt"), "w");
	CHECK(f);
	fclose(f);
	CHECK(plots_outdir_open(p("other"), 0, err, sizeof(err)) == REEL_E_EXISTS);
	CHECK(strstr(err, "--overwrite"));
	fd = plots_outdir_open(p("other"), 1, err, sizeof(err));
	CHECK(fd >= 0);
	close(fd);
	CHECK(access(p("other/" PLOTS_MARKER), F_OK) != 0); /* --overwrite does not mark */
	CHECK(symlink(p("new"), p("link")) == 0);
	CHECK(plots_outdir_open(p("link"), 1, err, sizeof(err)) < 0);
	CHECK(mkdir(p("planted"), 0755) == 0);
	CHECK(symlink(p("other/notes.txt"), p("planted/" PLOTS_MARKER)) == 0);
	CHECK(plots_outdir_open(p("planted"), 0, err, sizeof(err)) < 0); /* a link is no mark */
	return 0;
}

static int test_term_escape(void)
{
	char out[64];
	plots_term_escape(out, sizeof(out),
			  "a\x1b[31mb\x07\x7f\xc2\x9b"
			  "c\xc3\xa9");
	CHECK(!strcmp(out, "a\\x1b[31mb\\x07\\x7f\\x9bc\xc3\xa9"));
	plots_term_escape(out, 6, "\x1b\x1b");
	CHECK(!strcmp(out, "\\x1b")); /* cut at a whole escape */
	return 0;
}

int main(void)
{
	CHECK(mkdtemp(dir));
	CHECK(test_folders() == 0);
	CHECK(test_term_escape() == 0);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
