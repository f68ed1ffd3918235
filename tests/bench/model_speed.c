/*
 * model_speed MODEL.json RATE OUT.reel: generate RATE times the model's I/O
 * (timed: the generator alone), write as many records again from the last
 * 64 Ki generated (timed: the writer alone, the anchor of gen), generate
 * them again into OUT.reel, load them back (timed: decode, the anchor of
 * fit) and fit (timed).
 * Prints one line per figure; times are the thread's CPU time (per core),
 * the writer's the process's (its compression may run on threads of its
 * own).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "model/model.h"

static double secs(int64_t a, int64_t b) { return (double)(b - a) / 1e9; }

/* CPU time of this thread: the figures are per core, whatever else runs */
static int64_t clock_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
static int64_t cpu_ns(void) { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }

/* The writer alone: N records into PATH, the ring's M records (the last
 * generated, oldest at START) over and over in their order, each round's
 * times shifted past the one before.  Its process CPU seconds, or -1. */
static double write_alone(const char *path, const struct reel_header *h,
			  const struct reel_rec *ring, size_t start, size_t m, size_t n)
{
	struct reel_writer *w;
	if (!m || reel_writer_open(&w, path, -1, h, REEL_W_OVERWRITE))
		return -1;
	reel_writer_set_level(w, 0); /* as ioreel model gen */
	int64_t span = ring[(start + m - 1) & 65535].queue_ns - ring[start].queue_ns + 1;
	int64_t t0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	for (size_t j = 0; j < n; j++) {
		struct reel_rec r = ring[(start + j % m) & 65535];
		int64_t d = (int64_t)(j / m) * span;
		r.queue_ns += d;
		r.issue_ns += d;
		r.complete_ns += d;
		if (reel_write(w, &r))
			return -1;
	}
	if (reel_writer_close(w))
		return -1;
	return secs(t0, clock_ns(CLOCK_PROCESS_CPUTIME_ID));
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: model_speed MODEL.json RATE OUT.reel\n");
		return 2;
	}
	char err[600];
	struct model m;
	if (model_load_file(&m, argv[1], err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	struct model_gen_opts o = {0, atof(argv[2]), 0, 1, 0};
	struct model_gen *g;
	if (model_gen_create(&g, &m, &o))
		return 1;
	/* pass 1: the generator alone, into a reused 64 Ki-record buffer */
	static struct reel_rec ring[65536];
	size_t n = 0;
	int64_t t0 = cpu_ns();
	while (model_gen_next(g, &ring[n & 65535]) == 1)
		n++;
	int64_t t1 = cpu_ns();
	model_gen_destroy(g);
	/* pass 2: the same records again, written to OUT.reel */
	struct reel_device devs[MODEL_MAX_DEVS];
	model_gen_create(&g, &m, &o);
	size_t nd = model_gen_devices(g, devs, MODEL_MAX_DEVS);
	struct reel_header h = {0};
	h.source = "synthetic";
	h.devices = devs;
	h.ndevices = nd;
	struct reel_writer *w;
	double wsecs =
	    write_alone(argv[3], &h, ring, n < 65536 ? 0 : n & 65535, n < 65536 ? n : 65536, n);
	if (wsecs <= 0)
		return 1;
	if (reel_writer_open(&w, argv[3], -1, &h, REEL_W_OVERWRITE))
		return 1;
	reel_writer_set_level(w, 0); /* as ioreel model gen */
	struct reel_rec r;
	while (model_gen_next(g, &r) == 1)
		if (reel_write(w, &r))
			return 1;
	if (reel_writer_close(w))
		return 1;
	model_gen_destroy(g);
	struct model_trace tr;
	int64_t t2b = cpu_ns();
	if (model_trace_load(&tr, argv[3], err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	int64_t t3 = cpu_ns();
	struct model fm;
	struct model_fit_opts fo = {0, 0};
	if (model_fit(&fm, &tr, &fo, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	int64_t t4 = cpu_ns();
	FILE *f = fopen("/dev/null", "w");
	char *buf = NULL;
	size_t blen = 0;
	FILE *mf = open_memstream(&buf, &blen);
	model_write_json(&fm, mf);
	fclose(mf);
	fclose(f);
	struct stat st;
	stat(argv[3], &st);
	double gen = (double)n / secs(t0, t1) / 1e6;
	double wr = (double)n / wsecs / 1e6; /* the writer alone */
	double dec = (double)n / secs(t2b, t3) / 1e6, fit = (double)n / secs(t3, t4) / 1e6;
	printf("   I/O generated            %zu (rate x%s)\n", n, argv[2]);
	printf("   model gen                %6.1f M I/O/s   target >= 10: x%.2f   anchor "
	       "reel_write %6.1f M I/O/s: x%.2f\n",
	       gen, gen / 10, wr, gen / wr);
	printf("   model fit                %6.1f M I/O/s   target >= 10: x%.2f   anchor decode "
	       "(load) %6.1f M I/O/s: x%.2f\n",
	       fit, fit / 10, dec, fit / dec);
	printf("   MODEL.json size          %zu bytes = %.4f%% of the %lld-byte trace (target <= "
	       "1%%)\n",
	       blen, 100.0 * (double)blen / (double)st.st_size, (long long)st.st_size);
	free(buf);
	model_trace_free(&tr);
	model_free(&fm);
	model_free(&m);
	return 0;
}
