/*
 * tests/bench/decode.c - decode speed, records per CPU second.
 *   decode reel FILE.reel   read every record into struct reel_rec
 *   decode cols FILE.reel   read every record as columns (reel_read_cols:
 *                           times, offset, length, op, dev; what model fit reads)
 *   decode text             parse `ioreel dump`-style text from stdin into
 *                           struct reel_rec (the anchor: a minimal parser)
 * Prints: records seconds records_per_second checksum
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "formats/reel.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *num(const char *p, int64_t *v)
{
	int neg = 0;
	int64_t x = 0;
	while (*p == ' ' || *p == ',')
		p++;
	if (*p == '-' && (p[1] < '0' || p[1] > '9')) {
		*v = 0;
		return p + 1;
	}
	if (*p == '-') {
		neg = 1;
		p++;
	}
	while (*p >= '0' && *p <= '9')
		x = x * 10 + (*p++ - '0');
	*v = neg ? -x : x;
	return p;
}

static const char *word(const char *p, const char **start, size_t *len)
{
	while (*p == ' ' || *p == ',')
		p++;
	*start = p;
	while (*p && *p != ' ' && *p != ',' && *p != '\n')
		p++;
	*len = (size_t)(p - *start);
	return p;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: decode reel|cols FILE | decode text < FILE\n");
		return 2;
	}
	uint64_t n = 0, sum = 0;
	double t0 = cpu_now();
	if (!strcmp(argv[1], "cols")) {
		struct reel_reader *r;
		if (argc < 3 || reel_reader_open(&r, argv[2], 0)) {
			fprintf(stderr, "cannot open\n");
			return 1;
		}
		struct reel_cols c;
		long k;
		while ((k = reel_read_cols(r, &c)) > 0) {
			for (long i = 0; i < k; i++)
				sum += c.offset[i] + (uint64_t)c.complete_ns[i];
			n += (uint64_t)k;
		}
		reel_reader_close(r);
	} else if (!strcmp(argv[1], "reel")) {
		struct reel_reader *r;
		if (argc < 3 || reel_reader_open(&r, argv[2], 0)) {
			fprintf(stderr, "cannot open\n");
			return 1;
		}
		const struct reel_rec *recs;
		long k;
		while ((k = reel_read_chunk(r, &recs)) > 0) {
			for (long i = 0; i < k; i++)
				sum += recs[i].offset + (uint64_t)recs[i].complete_ns;
			n += (uint64_t)k;
		}
		reel_reader_close(r);
	} else {
		static char line[4096];
		static struct reel_rec rec;
		while (fgets(line, sizeof(line), stdin)) {
			if (line[0] == '#' || line[0] == 'q')
				continue;
			int64_t v;
			const char *p = line, *w;
			size_t wl;
			p = num(p, &v);
			rec.queue_ns = v;
			p = num(p, &v);
			rec.issue_ns = v;
			p = num(p, &v);
			rec.complete_ns = v;
			p = num(p, &v);
			rec.dev = (uint16_t)v;
			p = word(p, &w, &wl);
			rec.op = (uint8_t)(w[0] == 'w');
			p = word(p, &w, &wl);
			rec.flags = (uint8_t)(wl > 1);
			p = num(p, &v);
			rec.offset = (uint64_t)v;
			p = num(p, &v);
			rec.length = (uint32_t)v;
			p = num(p, &v);
			rec.pid = (uint32_t)v;
			p = word(p, &w, &wl);
			rec.comm = (uint32_t)wl;
			p = num(p, &v);
			rec.cpu = (uint16_t)v;
			p = num(p, &v);
			rec.error = (int32_t)v;
			sum += rec.offset + (uint64_t)rec.complete_ns;
			n++;
		}
	}
	double t = cpu_now() - t0;
	printf("%llu %.4f %.0f %llu\n", (unsigned long long)n, t, t > 0 ? (double)n / t : 0,
	       (unsigned long long)sum);
	return 0;
}
