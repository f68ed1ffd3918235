/*
 * tests/bench/gen_reel.c - write a synthetic .reel of N I/Os for benchmarks
 * (decode speed, replay memory): gen_reel N OUT.reel [SEED]
 * A mix shaped like a real disk trace: runs of sequential 4-128 KiB I/Os and
 * random 4 KiB ones, ~70% reads, arrivals ~ exponential at ~10k IOPS, issue a
 * few us after arrival, completion 50-2000 us later, a handful of processes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"

static uint64_t s = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s;
}
static double unif(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: gen_reel N OUT.reel [SEED]\n");
		return 2;
	}
	uint64_t n = strtoull(argv[1], NULL, 10);
	if (argc > 3)
		s ^= strtoull(argv[3], NULL, 10) * 0x2545F4914F6CDD1Dull;
	struct reel_device d = {
	    .id = 0, .name = "synthetic", .lbs = 512, .pbs = 4096, .capacity = 64ull << 30};
	struct reel_header h = {.source = "synthetic",
				.source_detail = "tests/bench/gen_reel",
				.devices = &d,
				.ndevices = 1};
	struct reel_writer *w;
	if (reel_writer_open(&w, argv[2], -1, &h, REEL_W_OVERWRITE)) {
		fprintf(stderr, "%s\n", reel_writer_errmsg(w));
		return 1;
	}
	const char *names[] = {"systemd", "kworker/u4:2", "gcc", "git", "jbd2/loop0-8"};
	uint32_t ids[5];
	for (int i = 0; i < 5; i++)
		ids[i] = (uint32_t)reel_writer_intern(w, names[i]);
	int64_t t = 0;
	uint64_t off = 0;
	int run = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct reel_rec r;
		memset(&r, 0, sizeof(r));
		t += (int64_t)(-log(1 - unif()) * 100000.0) + 1;
		int p = (int)(rnd() % 5);
		r.has = REEL_HAS_QUEUE | REEL_HAS_ISSUE | REEL_HAS_COMPLETE | REEL_HAS_DEV |
			REEL_HAS_PID | REEL_HAS_COMM | REEL_HAS_CPU | REEL_HAS_ERROR |
			REEL_HAS_FLAGS;
		r.queue_ns = t;
		r.issue_ns = t + 2000 + (int64_t)(rnd() % 3000);
		r.complete_ns = r.issue_ns + 50000 + (int64_t)(rnd() % 1950000);
		if (run > 0) {
			run--;
		} else if (unif() < 0.3) {
			run = (int)(rnd() % 32);
			off = (rnd() % (16ull << 20)) * 4096;
		} else {
			off = (rnd() % (16ull << 20)) * 4096;
		}
		r.length = run ? (uint32_t)(4096u << (rnd() % 6)) : 4096;
		r.offset = off;
		off += r.length;
		r.op = unif() < 0.7 ? REEL_OP_READ : REEL_OP_WRITE;
		r.flags = r.op == REEL_OP_WRITE && unif() < 0.2 ? REEL_FL_SYNC : 0;
		r.pid = 100 + (uint32_t)p;
		r.comm = ids[p];
		r.cpu = (uint16_t)(rnd() % 2);
		if (reel_write(w, &r)) {
			fprintf(stderr, "%s\n", reel_writer_errmsg(w));
			return 1;
		}
	}
	if (reel_writer_close(w)) {
		fprintf(stderr, "close failed\n");
		return 1;
	}
	return 0;
}
