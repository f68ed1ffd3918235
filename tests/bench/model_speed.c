/*
 * model_speed MODEL.json RATE OUT.reel: generate RATE times the model's I/O
 * in memory (timed: the generator alone), write them to OUT.reel (timed: the
 * anchor, reel_write), load them back (timed: decode) and fit (timed).
 * Prints one line per figure; times are the thread's CPU time (per core).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "model/model.h"

static double secs(int64_t a, int64_t b)
{
	return (double)(b - a) / 1e9;
}

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
	size_t cap = 1 << 20, n = 0;
	struct reel_rec *recs = malloc(cap * sizeof(*recs));
	int64_t t0 = cpu_ns();
	while (recs) {
		if (n == cap) {
			cap *= 2;
			recs = realloc(recs, cap * sizeof(*recs));
			if (!recs)
				break;
		}
		if (model_gen_next(g, &recs[n]) != 1)
			break;
		n++;
	}
	int64_t t1 = cpu_ns();
	model_gen_destroy(g);
	if (!recs)
		return 1;
	struct reel_device devs[MODEL_MAX_DEVS];
	model_gen_create(&g, &m, &o);
	size_t nd = model_gen_devices(g, devs, MODEL_MAX_DEVS);
	model_gen_destroy(g);
	struct reel_header h = {0};
	h.source = "synthetic";
	h.devices = devs;
	h.ndevices = nd;
	struct reel_writer *w;
	if (reel_writer_open(&w, argv[3], -1, &h, REEL_W_OVERWRITE))
		return 1;
	for (size_t i = 0; i < n; i++)
		if (reel_write(w, &recs[i]))
			return 1;
	if (reel_writer_close(w))
		return 1;
	int64_t t2 = cpu_ns();
	free(recs);
	struct model_trace tr;
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
	double gen = (double)n / secs(t0, t1) / 1e6, wr = (double)n / secs(t1, t2) / 1e6;
	double dec = (double)n / secs(t2, t3) / 1e6, fit = (double)n / secs(t3, t4) / 1e6;
	printf("   I/O generated            %zu (rate x%s)\n", n, argv[2]);
	printf("   model gen                %6.1f M I/O/s   target >= 10: x%.2f   anchor reel_write %6.1f M I/O/s: x%.2f\n",
	       gen, gen / 10, wr, gen / wr);
	printf("   model fit                %6.1f M I/O/s   target >= 10: x%.2f   anchor decode (load) %6.1f M I/O/s: x%.2f\n",
	       fit, fit / 10, dec, fit / dec);
	printf("   MODEL.json size          %zu bytes = %.4f%% of the %lld-byte trace (target <= 1%%)\n",
	       blen, 100.0 * (double)blen / (double)st.st_size, (long long)st.st_size);
	free(buf);
	model_trace_free(&tr);
	model_free(&fm);
	model_free(&m);
	return 0;
}
