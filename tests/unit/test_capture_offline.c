/*
 * tests/unit/test_capture_offline.c - the raw-page parser and the CPU merge
 * on real trace_pipe_raw pages (the fuzz seeds, recorded on 6.18): events
 * come out in time order across CPUs, with the fields the pages hold;
 * malformed pages are counted, not parsed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz_capture.c" /* the 6.18 event formats */
#include "tests/unit/unit.h"

struct seen {
	long n, q, d, c, x, out_of_order;
	int64_t last;
	uint64_t qbytes_write;
	int cpus;
};

static int check(void *ctx, const struct reel_event *e)
{
	struct seen *s = ctx;
	if (s->n++ && e->t_ns < s->last)
		s->out_of_order++;
	s->last = e->t_ns;
	s->cpus |= 1 << e->cpu;
	s->q += e->action == REEL_ACT_QUEUE;
	s->d += e->action == REEL_ACT_ISSUE;
	s->c += e->action == REEL_ACT_COMPLETE;
	s->x += e->action == REEL_ACT_SPLIT;
	if (e->action == REEL_ACT_QUEUE && e->op == REEL_OP_WRITE)
		s->qbytes_write += e->bytes;
	CHECK(e->devt == (7u << 20));
	return 0;
}

static struct seen run(const char *path, struct capture_stats *st)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		SKIP("%s missing", path);
	static uint8_t b[1 << 20];
	size_t n = fread(b, 1, sizeof(b), f);
	fclose(f);
	struct capture *c;
	char err[256];
	CHECK(capture_open_offline(&c, systems, formats, sizeof(formats) / sizeof(formats[0]), 2,
				   NULL, err, sizeof(err)) == 0);
	for (size_t off = 1; off + 3 <= n;) {
		int cpu = b[off] & 1;
		size_t len = (size_t)b[off + 1] | (size_t)b[off + 2] << 8;
		off += 3;
		if (len > n - off)
			len = n - off; /* a cut seed */
		CHECK(capture_feed(c, cpu, b + off, len) == 0);
		off += len;
	}
	struct seen s = {0};
	CHECK(capture_poll(c, 1, check, &s) == s.n);
	capture_stats(c, st);
	capture_close(c);
	return s;
}

int main(void)
{
	struct capture_stats st;
	/* fio randrw at QD8: pages of both CPUs, merged in time order */
	struct seen s = run("tests/fuzz/corpus/capture/fio-randrw-qd8", &st);
	CHECK(s.n > 100);
	CHECK_EQ(s.out_of_order, 0);
	CHECK_EQ(s.cpus, 3);
	CHECK(s.q > 0 && s.d > 0 && s.c > 0);
	CHECK_EQ(st.bad, 0);
	/* 2 MiB of 1 MiB direct writes: split by the loop device's limits */
	s = run("tests/fuzz/corpus/capture/dd-split-merge", &st);
	CHECK_EQ(s.qbytes_write, 2 << 20);
	CHECK(s.x >= 2);
	CHECK_EQ(s.out_of_order, 0);
	/* a commit beyond the page, a cut page: counted, not parsed */
	s = run("tests/fuzz/corpus/capture/bad-commit", &st);
	CHECK_EQ(s.n, 0);
	CHECK_EQ(st.bad, 1);
	s = run("tests/fuzz/corpus/capture/truncated", &st);
	CHECK_EQ(st.bad, 1);
	return 0;
}
