/*
 * The output policy (formats/output.c): what it refuses, and that the
 * final name only ever holds a complete file.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

static char dir[] = "/tmp/ioreel-out-XXXXXX";
static char err[1024];

static char *p(const char *name)
{
	static char buf[8][512];
	static int i;
	char *b = buf[i++ % 8];
	snprintf(b, 512, "%s/%s", dir, name);
	return b;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f);
	fputs(text, f);
	fclose(f);
}

static int has(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return !strcmp(buf, text);
}

static int count_entries(void)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "test $(ls -A %s | wc -l) -eq", dir);
	int n;
	for (n = 0; n < 100; n++) {
		char c[700];
		snprintf(c, sizeof(c), "%s %d", cmd, n);
		if (system(c) == 0)
			return n;
	}
	return -1;
}

static int test_new_file_appears_only_on_commit(void)
{
	struct reel_out o;
	CHECK(reel_out_open(&o, AT_FDCWD, p("new.txt"), 0, NULL, NULL, 0, err, sizeof(err)) == 0);
	fputs("complete", o.f);
	CHECK(access(p("new.txt"), F_OK) != 0); /* not yet under its name */
	CHECK(reel_out_commit(&o, err, sizeof(err)) == 0);
	CHECK(has(p("new.txt"), "complete"));
	return 0;
}

static int test_abort_keeps_old_file(void)
{
	struct reel_out o;
	put(p("old.txt"), "old");
	CHECK(reel_out_open(&o, AT_FDCWD, p("old.txt"), REEL_OUT_OVERWRITE, NULL, NULL, 0, err,
			    sizeof(err)) == 0);
	fputs("half", o.f);
	reel_out_abort(&o);
	CHECK(has(p("old.txt"), "old"));
	return 0;
}

static int test_existing_needs_overwrite_or_ours(void)
{
	struct reel_out o;
	put(p("x.txt"), "x");
	CHECK(reel_out_open(&o, AT_FDCWD, p("x.txt"), 0, NULL, NULL, 0, err, sizeof(err)) ==
	      REEL_E_EXISTS);
	CHECK(strstr(err, "--overwrite"));
	CHECK(reel_out_open(&o, AT_FDCWD, p("x.txt"), REEL_OUT_OVERWRITE, NULL, NULL, 0, err,
			    sizeof(err)) == 0);
	fputs("y", o.f);
	CHECK(reel_out_commit(&o, err, sizeof(err)) == 0);
	CHECK(has(p("x.txt"), "y"));
	return 0;
}

static int yes(const char *path)
{
	(void)path;
	return 1;
}

static int test_ours_may_be_replaced(void)
{
	struct reel_out o;
	CHECK(reel_out_open(&o, AT_FDCWD, p("x.txt"), 0, yes, NULL, 0, err, sizeof(err)) == 0);
	reel_out_abort(&o);
	return 0;
}

static int test_refuses_non_regular(void)
{
	struct reel_out o;
	CHECK(mkfifo(p("fifo"), 0600) == 0);
	CHECK(reel_out_open(&o, AT_FDCWD, p("fifo"), REEL_OUT_OVERWRITE, NULL, NULL, 0, err,
			    sizeof(err)) < 0);
	CHECK(strstr(err, "FIFO"));
	CHECK(reel_out_open(&o, AT_FDCWD, "/dev/null", REEL_OUT_OVERWRITE, NULL, NULL, 0, err,
			    sizeof(err)) < 0);
	CHECK(strstr(err, "device"));
	put(p("target.txt"), "t");
	CHECK(symlink(p("target.txt"), p("link")) == 0);
	CHECK(reel_out_open(&o, AT_FDCWD, p("link"), REEL_OUT_OVERWRITE, NULL, NULL, 0, err,
			    sizeof(err)) < 0);
	CHECK(has(p("target.txt"), "t"));
	CHECK(reel_out_open(&o, AT_FDCWD, "-", 0, NULL, NULL, 0, err, sizeof(err)) < 0);
	CHECK(reel_out_open(&o, AT_FDCWD, "-", REEL_OUT_STDOUT, NULL, NULL, 0, err, sizeof(err)) ==
	      0);
	CHECK(o.f == stdout);
	return 0;
}

static int test_refuses_an_input(void)
{
	struct reel_out o;
	const char *in[] = {p("in.txt")};
	put(in[0], "input");
	CHECK(reel_out_open(&o, AT_FDCWD, p("in.txt"), REEL_OUT_OVERWRITE, yes, in, 1, err,
			    sizeof(err)) == REEL_E_EXISTS);
	CHECK(strstr(err, "same file as the input"));
	CHECK(symlink(in[0], p("in-link")) == 0);
	CHECK(reel_out_open(&o, AT_FDCWD, p("in-link"), REEL_OUT_OVERWRITE, yes, in, 1, err,
			    sizeof(err)) == REEL_E_EXISTS);
	CHECK(has(in[0], "input"));
	return 0;
}

static int test_folder_refuses_symlinks_inside(void)
{
	int d = reel_outdir_open(p("plots"), err, sizeof(err));
	CHECK(d >= 0);
	put(p("victim"), "v");
	CHECK(symlink(p("victim"), p("plots/a.png")) == 0);
	struct reel_out o;
	CHECK(reel_out_open(&o, d, "a.png", REEL_OUT_OVERWRITE, NULL, NULL, 0, err, sizeof(err)) <
	      0);
	CHECK(has(p("victim"), "v"));
	CHECK(reel_out_open(&o, d, "b.png", 0, NULL, NULL, 0, err, sizeof(err)) == 0);
	fputs("png", o.f);
	CHECK(reel_out_commit(&o, err, sizeof(err)) == 0);
	CHECK(has(p("plots/b.png"), "png"));
	CHECK(symlink(p("plots"), p("plots-link")) == 0);
	CHECK(reel_outdir_open(p("plots-link"), err, sizeof(err)) < 0);
	close(d);
	return 0;
}

int main(void)
{
	CHECK(mkdtemp(dir));
	test_new_file_appears_only_on_commit();
	test_abort_keeps_old_file();
	test_existing_needs_overwrite_or_ours();
	test_ours_may_be_replaced();
	test_refuses_non_regular();
	test_refuses_an_input();
	test_folder_refuses_symlinks_inside();
	/* nothing left behind: only the files the tests made */
	int n = count_entries();
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "ls -A %s | grep -q ioreel-", dir);
	CHECK(system(cmd) != 0); /* no temporaries left */
	CHECK(n > 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	return 0;
}
