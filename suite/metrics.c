/*
 * suite/metrics.c - the metrics of one run, computed from the records of
 * its result file (one replay of the trace, looped to size): data rate
 * and IOPS over the busy time (the union of [issue, completion] intervals:
 * time with at least one I/O in flight), latency mean and percentiles per
 * direction, the share of I/Os over 10 ms, and the PCMark-style score.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

const int suite_headline[SUITE_NHEADLINE] = {SUITE_M_RATE, SUITE_M_IOPS, SUITE_M_LAT_MEAN,
					     SUITE_M_LAT_P99, SUITE_M_SCORE};
const double suite_nines[SUITE_NNINES] = {0.5, 0.9, 0.99, 0.999, 0.9999};

static const struct {
	const char *key, *title, *unit;
	int higher_better;
} metric_info[SUITE__NMETRICS] = {
    [SUITE_M_RATE] = {"rate_mbps", "average data rate", "MB/s", 1},
    [SUITE_M_IOPS] = {"iops", "IOPS (over busy time)", "IOPS", 1},
    [SUITE_M_LAT_MEAN] = {"lat_mean_us", "average latency", "us", 0},
    [SUITE_M_LAT_P50] = {"lat_p50_us", "median latency", "us", 0},
    [SUITE_M_LAT_P99] = {"lat_p99_us", "99th percentile latency", "us", 0},
    [SUITE_M_LAT_P999] = {"lat_p999_us", "99.9th percentile latency", "us", 0},
    [SUITE_M_READ_MEAN] = {"read_mean_us", "average read latency", "us", 0},
    [SUITE_M_READ_P99] = {"read_p99_us", "99th percentile read latency", "us", 0},
    [SUITE_M_WRITE_MEAN] = {"write_mean_us", "average write latency", "us", 0},
    [SUITE_M_WRITE_P99] = {"write_p99_us", "99th percentile write latency", "us", 0},
    [SUITE_M_OVER10MS] = {"over_10ms_pct", "I/Os over 10 ms", "%", 0},
    [SUITE_M_SCORE] = {"score", "PCMark-style score", "score", 1},
};

const char *suite_metric_key(int m) { return metric_info[m].key; }
const char *suite_metric_title(int m) { return metric_info[m].title; }
const char *suite_metric_unit(int m) { return metric_info[m].unit; }
int suite_metric_higher_better(int m) { return metric_info[m].higher_better; }

struct span {
	int64_t a, b;
};

struct suite_acc {
	struct reel_hist lat[3]; /* read, write, all */
	uint64_t ios, bytes, errors, over10ms;
	double busy_ns;
	unsigned files;
	struct span *sp;
	size_t nsp, cap;
};

struct suite_acc *suite_acc_new(void) { return calloc(1, sizeof(struct suite_acc)); }

void suite_acc_free(struct suite_acc *a)
{
	if (a)
		free(a->sp);
	free(a);
}

static int span_cmp(const void *x, const void *y)
{
	const struct span *a = x, *b = y;
	return a->a < b->a ? -1 : a->a > b->a;
}

/* Length of the union of the spans. */
static double union_ns(struct span *sp, size_t n)
{
	int sorted = 1;
	for (size_t i = 1; i < n && sorted; i++)
		sorted = sp[i].a >= sp[i - 1].a;
	if (!sorted)
		qsort(sp, n, sizeof(*sp), span_cmp);
	double total = 0;
	int64_t cs = 0, ce = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || sp[i].a > ce) {
			total += (double)(ce - cs);
			cs = sp[i].a;
			ce = sp[i].b;
		} else if (sp[i].b > ce) {
			ce = sp[i].b;
		}
	}
	return n ? total + (double)(ce - cs) : 0;
}

static int add_rec(struct suite_acc *a, const struct reel_rec *r)
{
	const unsigned need = REEL_HAS_ISSUE | REEL_HAS_COMPLETE;
	if ((r->has & need) != need || r->complete_ns < r->issue_ns)
		return 0;
	if (a->nsp == a->cap) {
		size_t nc = a->cap ? a->cap * 2 : 4096;
		struct span *n = realloc(a->sp, nc * sizeof(*n));
		if (!n)
			return REEL_E_NOMEM;
		a->sp = n;
		a->cap = nc;
	}
	a->sp[a->nsp++] = (struct span){r->issue_ns, r->complete_ns};
	uint64_t lat = (uint64_t)(r->complete_ns - r->issue_ns);
	a->ios++;
	if (r->error)
		a->errors++;
	if (lat > 10000000)
		a->over10ms++;
	if (r->op == REEL_OP_READ || r->op == REEL_OP_WRITE) {
		a->bytes += r->length;
		reel_hist_add(&a->lat[r->op], lat);
	}
	reel_hist_add(&a->lat[2], lat);
	return 0;
}

int suite_acc_add_file(struct suite_acc *a, const char *path, char *errmsg, size_t errlen)
{
	struct reel_reader *r;
	int rc = reel_reader_open(&r, path, 0);
	if (rc < 0)
		return reel_errf(errmsg, errlen, rc, "%s: %s", path, reel_strerror(rc));
	const struct reel_rec *recs;
	long n;
	a->nsp = 0;
	while ((n = reel_read_chunk(r, &recs)) > 0)
		for (long i = 0; i < n; i++)
			if ((rc = add_rec(a, &recs[i])) < 0)
				break;
	if (n < 0)
		rc = reel_errf(errmsg, errlen, (int)n, "%s", reel_reader_errmsg(r));
	else if (rc < 0)
		rc = reel_errf(errmsg, errlen, rc, "out of memory");
	reel_reader_close(r);
	a->busy_ns += union_ns(a->sp, a->nsp);
	a->files++;
	return rc;
}

double suite_acc_busy_s(const struct suite_acc *a) { return a->busy_ns / 1e9; }

static double us_q(const struct reel_hist *h, double q)
{
	return h->count ? (double)reel_hist_quantile(h, q) / 1e3 : NAN;
}

static double us_mean(const struct reel_hist *h)
{
	return h->count ? reel_hist_mean(h) / 1e3 : NAN;
}

void suite_acc_metrics(const struct suite_acc *a, struct suite_run_metrics *m)
{
	double busy = a->busy_ns / 1e9;
	m->busy_s = busy;
	m->ios = a->ios;
	m->bytes = a->bytes;
	m->errors = a->errors;
	m->copies = a->files; /* the caller sets the trace copies */
	m->lat_all = a->lat[2];
	m->m[SUITE_M_RATE] = busy > 0 ? (double)a->bytes / busy / 1e6 : NAN;
	m->m[SUITE_M_IOPS] = busy > 0 ? (double)a->ios / busy : NAN;
	m->m[SUITE_M_LAT_MEAN] = us_mean(&a->lat[2]);
	m->m[SUITE_M_LAT_P50] = us_q(&a->lat[2], 0.5);
	m->m[SUITE_M_LAT_P99] = us_q(&a->lat[2], 0.99);
	m->m[SUITE_M_LAT_P999] = us_q(&a->lat[2], 0.999);
	m->m[SUITE_M_READ_MEAN] = us_mean(&a->lat[REEL_OP_READ]);
	m->m[SUITE_M_READ_P99] = us_q(&a->lat[REEL_OP_READ], 0.99);
	m->m[SUITE_M_WRITE_MEAN] = us_mean(&a->lat[REEL_OP_WRITE]);
	m->m[SUITE_M_WRITE_P99] = us_q(&a->lat[REEL_OP_WRITE], 0.99);
	m->m[SUITE_M_OVER10MS] = a->ios ? 100.0 * (double)a->over10ms / (double)a->ios : NAN;
	double mean = m->m[SUITE_M_LAT_MEAN];
	m->m[SUITE_M_SCORE] = mean > 0 && busy > 0 ? sqrt(m->m[SUITE_M_RATE] * 1e3 / mean) : NAN;
}
