/*
 * model/cmd_model.c - `ioreel model fit|gen|compare`: the only file of
 * model/ that talks to people.  One option table per subcommand.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "model/model.h"

/* Operands missing or extra: say what is needed (exit 2). */
static int operands_error(const struct reel_cmd_doc *doc, const char *what)
{
	fprintf(stderr, "ioreel %s: needs %s\nTry 'ioreel %s --help'.\n", doc->name, what,
		doc->name);
	return 2;
}

/* ---- fit -------------------------------------------------------------- */
static const struct reel_cmd_doc fit_doc = {
    .name = "model fit",
    .usage = "TRACE.reel -o MODEL.json [--naive] [--phases N] [--plain] [--overwrite]",
    .about = "Fit a workload model (phases, op mix, sizes, inter-arrival times,\n"
	     "burstiness, jumps, sequential runs, hot regions, in-flight) from a trace.\n"
	     "MODEL.json is described field by field in model/MODEL.md (installed as\n"
	     "PREFIX/share/doc/ioreel/model/MODEL.md; PREFIX is /usr/local by default).",
};

/* An existing MODEL.json that `model fit` wrote may be replaced. */
static int is_model_json(const char *path)
{
	char head[64] = "";
	gzFile f = gzopen(path, "rb"); /* plain or gzip-compressed */
	if (!f)
		return 0;
	int n = gzread(f, head, sizeof(head) - 1);
	gzclose(f);
	head[n > 0 ? n : 0] = 0;
	return strstr(head, "\"format\": \"ioreel-model\"") != NULL;
}

/* Write M to OUT ('-': standard output) through the output policy and say
 * what was written. */
static int fit_write(struct model *m, const char *in, const char *out, int overwrite, int plain,
		     size_t n, int64_t fit_ns)
{
	struct reel_out o;
	char err[600];
	if (reel_out_open(&o, AT_FDCWD, out, REEL_OUT_STDOUT | (overwrite ? REEL_OUT_OVERWRITE : 0),
			  is_model_json, &in, 1, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel model fit: %s\n", err);
		return 1;
	}
	int e = plain || o.is_stdout ? model_write_json(m, o.f) : model_write_json_gz(m, o.f);
	if (e) {
		reel_out_abort(&o);
		fprintf(stderr, "ioreel model fit: writing %s failed: %s\n", out, reel_strerror(e));
		return 1;
	}
	long long sz = o.is_stdout ? -1 : (long long)ftello(o.f);
	if (reel_out_commit(&o, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel model fit: %s\n", err);
		return 1;
	}
	fprintf(stderr, "ioreel model fit: %zu I/O, %zu phase%s, %zu device%s%s -> %s", n,
		m->nphases, m->nphases == 1 ? "" : "s", m->ndevs, m->ndevs == 1 ? "" : "s",
		m->naive ? " (naive)" : "", out);
	if (sz >= 0)
		fprintf(stderr, " (%lld bytes%s)", sz, plain ? "" : ", gzip");
	fprintf(stderr, ", fit in %.3f s\n", (double)fit_ns / 1e9);
	return 0;
}

static int cmd_fit(int argc, char **argv)
{
	const char *out = NULL;
	int overwrite = 0, plain = 0;
	struct model_fit_opts fo = {0, 0};
	const struct reel_opt opts[] = {
	    OPT_STR('o', "output", "FILE", &out,
		    "where to write the model ('-' for standard output)"),
	    OPT_FLAG(0, "overwrite", &overwrite,
		     "replace FILE if it exists; not needed for a MODEL.json\n"
		     "ioreel wrote (only ioreel's own output of this kind is\n"
		     "replaced without --overwrite)"),
	    OPT_FLAG(0, "naive", &fo.naive,
		     "the naive model instead: Poisson arrivals, uniform\n"
		     "addresses, mean sizes (a baseline for fidelity)"),
	    OPT_UINT(0, "phases", "N", &fo.max_phases, 1, MODEL_MAX_PHASES,
		     "at most N phases (1..16, default 8)"),
	    OPT_FLAG(0, "plain", &plain,
		     "write plain JSON text (default: gzip-compressed JSON,\n"
		     "'zcat MODEL.json' shows it; standard output is plain)"),
	    OPT_END,
	};
	int i = reel_opt_parse(&fit_doc, opts, argc, argv);
	if (i < 0)
		return reel_opt_exit(i);
	if (i + 1 != argc || !out)
		return operands_error(&fit_doc, "one TRACE.reel and -o MODEL.json");
	const char *in = argv[i];
	char err[512];
	struct model m;
	int64_t t0 = reel_now_ns();
	int e = model_fit_file(&m, in, &fo, err, sizeof(err));
	int64_t t1 = reel_now_ns();
	if (e) {
		fprintf(stderr, "ioreel model fit: %s\n", err);
		return 1;
	}
	size_t n = m.count;
	/* the file name only: a model is shared between machines, and the
	 * size of a small one must not depend on where its trace lay */
	const char *base = strrchr(in, '/');
	snprintf(m.source, sizeof(m.source), "%s", base && base[1] ? base + 1 : in);
	int rc = fit_write(&m, in, out, overwrite, plain, n, t1 - t0);
	model_free(&m);
	return rc;
}

/* ---- gen ---------------------------------------------------------------- */
static const struct reel_cmd_doc gen_doc = {
    .name = "model gen",
    .usage = "MODEL.json -o OUT.reel [--duration S] [--rate X]\n"
	     "                        [--capacity BYTES] [--seed N] [--count N] [--overwrite]",
    .about = "Generate a synthetic trace from a model; the same seed gives the same trace.",
};

/* An existing .reel that `model gen` wrote may be replaced. */
static int is_generated_reel(const char *path) { return reel_out_reel_source(path, "synthetic"); }

/* The generated trace's writer, on a temporary beside OUT: header (devices
 * as scaled) and the model's metadata.  NULL after saying why. */
static struct reel_writer *gen_open(const struct model *m, const struct model_gen *g,
				    const struct model_gen_opts *go, const char *in,
				    struct reel_out *o, const char *out, int overwrite)
{
	struct reel_device devs[MODEL_MAX_DEVS];
	size_t nd = model_gen_devices(g, devs, MODEL_MAX_DEVS);
	char detail[512], err[600];
	snprintf(detail, sizeof(detail), "ioreel model gen %s seed %llu", in,
		 (unsigned long long)go->seed);
	struct reel_header h = {0};
	h.source = m->naive ? "synthetic:naive" : "synthetic";
	h.source_detail = detail;
	h.devices = devs;
	h.ndevices = nd;
	if (reel_out_open(o, AT_FDCWD, out, REEL_OUT_FD_ONLY | (overwrite ? REEL_OUT_OVERWRITE : 0),
			  is_generated_reel, &in, 1, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel model gen: %s\n", err);
		return NULL;
	}
	struct reel_writer *w;
	int x = reel_writer_open(&w, NULL, o->fd, &h, REEL_W_THREAD | REEL_W_WRITEBACK);
	if (x) {
		fprintf(stderr, "ioreel model gen: cannot write %s: %s\n", out, reel_strerror(x));
		reel_out_abort(o);
		return NULL;
	}
	/* LZ4's fast mode, as replay results: 6% larger than HC, 2x less CPU */
	reel_writer_set_level(w, 0);
	reel_writer_meta_str(w, REEL_META_MODEL_PATH, in);
	reel_writer_meta_int(w, REEL_META_MODEL_SEED, (int64_t)go->seed);
	reel_writer_meta_dbl(w, REEL_META_MODEL_RATE, go->rate);
	reel_writer_meta_int(w, REEL_META_MODEL_DURATION_NS,
			     go->duration_ns ? go->duration_ns : m->duration_ns);
	return w;
}

/* The writing of the generated records on a thread of its own: the
 * generator fills a batch while the writer packs the ones before (the
 * records in the same order: the same file).  A ring of GEN_NBUF
 * batches: with two, the generator waited for the writer 1.1 s of a
 * 10 s run at load 11 (the writer's thread shares a core with the
 * arrivals' and is off it for a few ms at a time), with eight 0.001-0.07 s.
 * The batches hold reel_rec_q's 24 bytes a record (the placing thread's
 * stores: the ring 1.5 MiB, not 3.5 of reel_recs), made reel_recs in
 * the writer's chunk (reel_write_q). */
#define GEN_BATCH 8192
#define GEN_NBUF 8
struct gen_pipe {
	struct reel_writer *w;
	struct reel_rec_q *buf[GEN_NBUF];
	size_t n[GEN_NBUF];
	int full[GEN_NBUF], done, werr;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *gen_pipe_main(void *arg)
{
	struct gen_pipe *p = arg;
	reel_thread_lower(MODEL_GEN_WRITER_NICE); /* the generator first */
	for (int k = 0;; k = (k + 1) % GEN_NBUF) {
		pthread_mutex_lock(&p->mu);
		while (!p->full[k] && !p->done)
			pthread_cond_wait(&p->cv, &p->mu);
		int have = p->full[k], werr = p->werr;
		pthread_mutex_unlock(&p->mu);
		if (!have)
			return NULL;
		if (!werr)
			werr = reel_write_q(p->w, p->buf[k], p->n[k]);
		pthread_mutex_lock(&p->mu);
		p->werr = werr;
		p->full[k] = 0;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Generate into batches for the writer: the generator's last result (0 at
 * the end, < 0 an error), or 1 when the writer failed (p->werr). */
static int gen_pipe_run(struct gen_pipe *p, struct model_gen *g, uint64_t *n)
{
	int x = 1;
	for (int k = 0; x == 1; k = (k + 1) % GEN_NBUF) {
		pthread_mutex_lock(&p->mu);
		while (p->full[k] && !p->werr)
			pthread_cond_wait(&p->cv, &p->mu);
		int werr = p->werr;
		pthread_mutex_unlock(&p->mu);
		if (werr)
			return 1;
		size_t m = 0;
		while (m < GEN_BATCH && (x = model_gen_next_q(g, &p->buf[k][m])) == 1)
			m++;
		*n += m;
		pthread_mutex_lock(&p->mu);
		p->n[k] = m;
		p->full[k] = m > 0;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return x;
}

/* Every record of G into W on a second thread (or here without the
 * memory for it): the generator's result, *werr the writer's. */
static int gen_records(struct model_gen *g, struct reel_writer *w, uint64_t *n, int *werr)
{
	struct gen_pipe p = {.w = w};
	pthread_t th;
	int x;
	p.buf[0] = malloc(GEN_NBUF * GEN_BATCH * sizeof(*p.buf[0]));
	for (int i = 1; i < GEN_NBUF && p.buf[0]; i++)
		p.buf[i] = p.buf[i - 1] + GEN_BATCH;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	if (!p.buf[0] || pthread_create(&th, NULL, gen_pipe_main, &p)) {
		struct reel_rec r;
		while ((x = model_gen_next(g, &r)) == 1 && !(*werr = reel_write(w, &r)))
			++*n;
	} else {
		x = gen_pipe_run(&p, g, n);
		pthread_mutex_lock(&p.mu);
		p.done = 1;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
		pthread_join(th, NULL);
		*werr = p.werr;
		x = *werr ? 1 : x;
	}
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	free(p.buf[0]);
	return x;
}

/* Every generated record into W, which is closed and its file committed
 * (or destroyed and the temporary removed on a failure): 0 or 1 after
 * saying why. */
static int gen_write(struct model_gen *g, struct reel_writer *w, struct reel_out *o, const char *in,
		     const char *out)
{
	uint64_t n = 0;
	int x, werr = 0;
	char err[600];
	int64_t t0 = reel_now_ns();
	x = gen_records(g, w, &n, &werr);
	if (werr)
		fprintf(stderr, "ioreel model gen: %s: %s\n", out, reel_writer_errmsg(w));
	else if (x < 0)
		fprintf(stderr, "ioreel model gen: %s: %s%s\n", in, reel_strerror(x),
			x == REEL_E_RANGE
			    ? ": a window would hold more than 64 Mi I/O; lower --rate"
			    : "");
	if (werr || x < 0) {
		reel_writer_destroy(w);
		reel_out_abort(o);
		return 1;
	}
	if ((x = reel_writer_close(w))) {
		fprintf(stderr, "ioreel model gen: closing %s: %s\n", out, reel_strerror(x));
		reel_out_abort(o);
		return 1;
	}
	if (reel_out_commit(o, err, sizeof(err)) < 0) {
		fprintf(stderr, "ioreel model gen: %s\n", err);
		return 1;
	}
	int64_t t1 = reel_now_ns();
	fprintf(stderr, "ioreel model gen: %llu I/O -> %s in %.3f s\n", (unsigned long long)n, out,
		(double)(t1 - t0) / 1e9);
	return 0;
}

static int cmd_gen(int argc, char **argv)
{
	const char *out = NULL;
	struct model_gen_opts go = {0, 1, 0, 1, 0};
	double secs = 0;
	int overwrite = 0;
	const struct reel_opt opts[] = {
	    OPT_STR('o', "output", "FILE", &out, "the .reel to write"),
	    OPT_DBL(0, "duration", "S", &secs, 1e-6, 1e8,
		    "seconds of trace, 1e-6 to 1e8 (default: the original's);\n"
		    "the phase timeline repeats or is cut to fit"),
	    OPT_DBL(0, "rate", "X", &go.rate, 1e-6, 1e6,
		    "X times the original arrival rate, 1e-6 to 1e6 (default 1);\n"
		    "above 1 the working set grows X times too, its new blocks\n"
		    "up the device past the original's address bands"),
	    OPT_SIZE(0, "capacity", "BYTES", &go.capacity, 4096, 1152921504606846976.0,
		     "address space per device (\"4T\", \"512G\"; 4k to 1E);\n"
		     "regions scale with it, local jumps keep their size"),
	    OPT_U64(0, "seed", "N", &go.seed, 0, 9223372036854775807.0,
		    "random seed, 0 to 2^63-1 (default 1)"),
	    OPT_U64(0, "count", "N", &go.max_records, 1, 1e12, "stop after N I/O (1 to 1e12)"),
	    OPT_FLAG(0, "overwrite", &overwrite,
		     "replace OUT.reel if it exists; not needed for a .reel an\n"
		     "earlier model gen wrote (only ioreel's own output of this\n"
		     "kind is replaced without --overwrite)"),
	    OPT_END,
	};
	int i = reel_opt_parse(&gen_doc, opts, argc, argv);
	if (i < 0)
		return reel_opt_exit(i);
	if (i + 1 != argc || !out)
		return operands_error(&gen_doc, "one MODEL.json and -o OUT.reel");
	if (secs > 0)
		go.duration_ns = (int64_t)(secs * 1e9);
	const char *in = argv[i];
	char err[600];
	struct model m;
	if (model_load_file(&m, in, err, sizeof(err))) {
		fprintf(stderr, "ioreel model gen: %s\n", err);
		return 1;
	}
	struct model_gen *g;
	int x = model_gen_create(&g, &m, &go);
	/* the same records, on two cores; whatever the load (not fit's rule):
	 * on one core the threads cost no more than one (model/HISTORY.md,
	 * "Gen speed, third pass") */
	if (!x && sysconf(_SC_NPROCESSORS_ONLN) > 1)
		x = model_gen_thread(g);
	if (x) {
		fprintf(stderr, "ioreel model gen: %s: cannot generate: %s\n", in,
			reel_strerror(x));
		model_free(&m);
		return 1;
	}
	int rc = 1;
	struct reel_out o;
	reel_out_catch_signals(); /* Ctrl-C: no temporary left, nothing under OUT */
	struct reel_writer *w = gen_open(&m, g, &go, in, &o, out, overwrite);
	if (w)
		rc = gen_write(g, w, &o, in, out);
	model_gen_destroy(g);
	model_free(&m);
	return rc;
}

/* ---- compare -------------------------------------------------------------- */
static const struct reel_cmd_doc cmp_doc = {
    .name = "model compare",
    .usage = "A.reel B.reel [--json]",
    .about = "Compare two traces dimension by dimension: Kolmogorov-Smirnov distance of\n"
	     "request sizes, inter-arrival times, jump distances and sequential run\n"
	     "lengths; op mix; b-model burstiness; PQRS shares.  When both carry\n"
	     "latencies (replay results: complete - issue), the demerit figure: the RMS\n"
	     "horizontal distance between the latency CDFs at 10,000 quantiles, in us\n"
	     "and as % of A's mean latency.  Then what the distributions hide: I/O count\n"
	     "and bytes, burstiness (IDC at 1 ms .. 10 s), the window series, locality,\n"
	     "block re-use, read-after-write, working set, sizes of sequential and\n"
	     "random I/O, per-device offsets and gaps.  Each figure is checked against\n"
	     "its target (model/MODEL.md lists them; installed as\n"
	     "PREFIX/share/doc/ioreel/model/MODEL.md); within_targets: all hold.",
};

static void cmp_json(const struct model_cmp *r, const char *pa, const char *pb)
{
	double rd = fabs(r->read_a - r->read_b) * 100;
	printf("{\"a\": {\"path\": ");
	reel_json_str(stdout, pa);
	printf(", \"ios\": %llu, \"read_fraction\": %.6f, \"bmodel\": ", (unsigned long long)r->na,
	       r->read_a);
	model_write_bmodel(stdout, r->bmodel_a);
	printf("},\n \"b\": {\"path\": ");
	reel_json_str(stdout, pb);
	printf(", \"ios\": %llu, \"read_fraction\": %.6f, \"bmodel\": ", (unsigned long long)r->nb,
	       r->read_b);
	model_write_bmodel(stdout, r->bmodel_b);
	printf("},\n \"ks_size\": %.6f, \"ks_interarrival\": %.6f, \"ks_jump\": %.6f, "
	       "\"ks_run\": %.6f,\n \"op_mix_diff\": %.6f, \"read_diff_points\": %.4f, "
	       "\"bmodel_diff\": %.6f, \"pqrs_diff\": %.6f,\n",
	       r->ks_size, r->ks_gap, r->ks_jump, r->ks_run, r->op_diff, rd, r->bmodel_diff,
	       r->pqrs_diff);
	if (r->latency)
		printf(" \"demerit_us\": %.3f, \"demerit_pct\": %.3f, \"mean_latency_a_us\": %.3f, "
		       "\"mean_latency_b_us\": %.3f,\n",
		       r->demerit_us, r->demerit_pct, r->mean_lat_a_us, r->mean_lat_b_us);
	printf(" \"checks\": {");
	for (size_t k = 0; k < r->nchecks; k++) {
		const struct model_check *c = &r->check[k];
		printf("%s\n  \"%s\": {\"a\": ", k ? "," : "", c->name);
		reel_json_num(stdout, c->a, 6);
		printf(", \"b\": ");
		reel_json_num(stdout, c->b, 6);
		printf(", \"value\": ");
		reel_json_num(stdout, c->value, 6);
		printf(", \"target\": \"%s\", \"ok\": %s}", c->target,
		       c->ok < 0 ? "null"
		       : c->ok	 ? "true"
				 : "false");
	}
	printf("},\n \"within_targets\": %s}\n", r->ok ? "true" : "false");
}

/* One figure of the table in WIDTH columns: "-" where there is none (the
 * JSON's null). */
static void cmp_cell(double x, int width, int g)
{
	if (!isfinite(x))
		printf(" %*s", width, "-");
	else
		printf(g ? " %*.6g" : " %*.4f", width, x);
}

static void cmp_table(const struct model_cmp *r, const char *pa, const char *pb)
{
	printf("A: %s (%llu I/O)\nB: %s (%llu I/O)\n\n", pa, (unsigned long long)r->na, pb,
	       (unsigned long long)r->nb);
	printf("%-24s %12s %12s %10s %-12s %s\n", "dimension", "A", "B", "value", "target", "");
	for (size_t k = 0; k < r->nchecks; k++) {
		const struct model_check *c = &r->check[k];
		printf("%-24s", c->name);
		cmp_cell(c->a, 12, 1);
		cmp_cell(c->b, 12, 1);
		cmp_cell(c->value, 10, 0);
		printf(" %-12s %s\n", c->target, c->ok < 0 ? "-" : c->ok ? "ok" : "OFF");
	}
	/* the b-model of a series too sparse to measure is -1: "-" */
	const double *bm[2] = {r->bmodel_a, r->bmodel_b};
	static const char *const bn[3] = {"all", "read", "write"};
	for (int t = 0; t < 2; t++) {
		printf("b-model %c:", "AB"[t]);
		for (int k = 0; k < 3; k++)
			if (bm[t][k] < 0)
				printf(" %s -", bn[k]);
			else
				printf(" %s %.3f", bn[k], bm[t][k]);
		printf("\n");
	}
	if (r->latency)
		printf("latency mean A %.1f us, B %.1f us; demerit %.2f us\n", r->mean_lat_a_us,
		       r->mean_lat_b_us, r->demerit_us);
	printf("\n%s\n", r->ok ? "within targets" : "outside targets");
}

static int cmd_cmp(int argc, char **argv)
{
	int json = 0;
	const struct reel_opt opts[] = {
	    OPT_FLAG(0, "json", &json, "print one JSON object instead of the table"),
	    OPT_END,
	};
	int i = reel_opt_parse(&cmp_doc, opts, argc, argv);
	if (i < 0)
		return reel_opt_exit(i);
	if (i + 2 != argc)
		return operands_error(&cmp_doc, "two traces A.reel B.reel");
	const char *pa = argv[i], *pb = argv[i + 1];
	char err[512];
	struct model_trace a, b;
	if (model_trace_load(&a, pa, err, sizeof(err))) {
		fprintf(stderr, "ioreel model compare: %s\n", err);
		return 1;
	}
	if (model_trace_load(&b, pb, err, sizeof(err))) {
		fprintf(stderr, "ioreel model compare: %s\n", err);
		model_trace_free(&a);
		return 1;
	}
	struct model_cmp *r = malloc(sizeof(*r));
	int e = r ? model_compare(&a, &b, r) : REEL_E_NOMEM;
	model_trace_free(&a);
	model_trace_free(&b);
	if (e) {
		fprintf(stderr, "ioreel model compare: %s\n", reel_strerror(e));
		free(r);
		return 1;
	}
	if (json)
		cmp_json(r, pa, pb);
	else
		cmp_table(r, pa, pb);
	free(r);
	return 0;
}

int cmd_model(int argc, char **argv)
{
	const char *usage = "usage: ioreel model fit|gen|compare ... ('ioreel model SUB --help')\n";
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage, stdout);
		/* each subcommand's own usage line, so the summary names every
		 * option that its --help does (its continuation lines indented
		 * under this summary's column instead of under "usage: ...") */
		const struct reel_cmd_doc *docs[] = {&fit_doc, &gen_doc, &cmp_doc};
		for (size_t k = 0; k < sizeof(docs) / sizeof(docs[0]); k++) {
			printf("  %-8s ", docs[k]->name + strlen("model "));
			for (const char *u = docs[k]->usage; *u; u++) {
				putchar(*u);
				if (*u != '\n')
					continue;
				while (u[1] == ' ')
					u++;
				printf("%11s", "");
			}
			putchar('\n');
		}
		printf(
		    "MODEL.json and compare's targets: model/MODEL.md (installed as\n"
		    "PREFIX/share/doc/ioreel/model/MODEL.md; PREFIX is /usr/local by default).\n");
		return 0;
	}
	if (!strcmp(argv[1], "fit"))
		return cmd_fit(argc - 1, argv + 1);
	if (!strcmp(argv[1], "gen"))
		return cmd_gen(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_cmp(argc - 1, argv + 1);
	fprintf(stderr, "ioreel model: '%s' is not fit, gen or compare\n", argv[1]);
	fputs(usage, stderr);
	return 2;
}
