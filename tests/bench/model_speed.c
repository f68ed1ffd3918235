/*
 * model_speed MODEL.json RATE OUT.reel: generate RATE times the model's I/O
 * (timed: the generator alone), generate them again into OUT.reel (the
 * writer's share is the anchor), load them back (timed: decode, the anchor
 * of fit) and fit (timed).
 * Prints one line per figure; times are the thread's CPU time (per core).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "model/model.h"

static double secs(int64_t a, int64_t b) { return (double)(b - a) / 1e9; }

/* CPU time of this thread: the figures are per core, whatever else runs */
static int64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
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
	if (reel_writer_open(&w, argv[3], -1, &h, REEL_W_OVERWRITE))
		return 1;
	reel_writer_set_level(w, 0); /* as ioreel model gen */
	int64_t t1b = cpu_ns();
	struct reel_rec r;
	while (model_gen_next(g, &r) == 1)
		if (reel_write(w, &r))
			return 1;
	if (reel_writer_close(w))
		return 1;
	int64_t t2 = cpu_ns();
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
	double wr = (double)n / (secs(t1b, t2) - secs(t0, t1)) / 1e6; /* writer share of pass 2 */
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
