/*
 * plots/run_stats.c - per-run statistics for plots and comparisons: two
 * streaming passes over a .reel file (span, then everything else) into
 * fixed-size histograms and per-interval buckets.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plots/plots.h"

int plots_strf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- records ----------------------------------------------------------- */
/* Start (issue, else queue, else completion) and end (completion or -1). */
static int rec_times(const struct reel_rec *r, int64_t *start, int64_t *end)
{
	*end = (r->has & REEL_HAS_COMPLETE) ? r->complete_ns : -1;
	if (r->has & REEL_HAS_ISSUE)
		*start = r->issue_ns;
	else if (r->has & REEL_HAS_QUEUE)
		*start = r->queue_ns;
	else if (*end >= 0)
		*start = *end;
	else
		return -1;
	/* times beyond ~73 years are corrupt: keep spans free of overflow */
	const int64_t lim = INT64_C(1) << 61;
	if (*start < -lim || *start > lim || *end > lim)
		return -1;
	if (*end >= 0 && *end < *start)
		*end = *start;
	return 0;
}

static int op_dir(int op)
{
	if (op == REEL_OP_READ)
		return PLOTS_READ;
	if (op == REEL_OP_WRITE || op == REEL_OP_WRITE_ZEROES)
		return PLOTS_WRITE;
	return PLOTS_OTHER;
}

/* The reader's message (it names the file), else "path: error". */
static void reader_err(char *buf, size_t len, const char *path, const struct reel_reader *rd,
		       int err)
{
	const char *m = rd ? reel_reader_errmsg(rd) : NULL;
	if (m && *m && strstr(m, path))
		reel_errf(buf, len, err, "%s", m);
	else
		reel_errf(buf, len, err, "%s: %s", path, m && *m ? m : reel_strerror(err));
}

static void meta_text(const struct reel_reader *rd, const char *key, char *buf, size_t len)
{
	const struct reel_meta *m = reel_reader_meta(rd, key);
	buf[0] = 0;
	if (!m)
		return;
	if (m->type == REEL_META_STR) /* crafted text stays inert on a terminal */
		plots_term_escape(buf, len, m->s ? m->s : "");
	else if (m->type == REEL_META_INT)
		plots_strf(buf, len, "%lld", (long long)m->i);
	else
		plots_strf(buf, len, "%g", m->d);
}

/* Result keys, not configuration: excluded from config (grouping). */
static int is_result_key(const char *k)
{
	static const char *const keys[] = {REEL_META_REPLAY_LABEL,   REEL_META_REPLAY_INTERRUPTED,
					   REEL_META_REPLAY_IOS,     REEL_META_REPLAY_ERRORS,
					   REEL_META_REPLAY_SKIPPED, NULL};
	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(k, keys[i]))
			return 1;
	/* measured values: times (*_ns), achieved ratios, counts */
	size_t l = strlen(k);
	static const char *const suffixes[] = {"_ns", "_achieved", "_count", "_us", NULL};
	for (size_t i = 0; suffixes[i]; i++) {
		size_t sl = strlen(suffixes[i]);
		if (l > sl && !strcmp(k + l - sl, suffixes[i]))
			return 1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void build_config(struct plots_run *run, const struct reel_reader *rd)
{
	size_t n = 0;
	const struct reel_meta *all = reel_reader_meta_all(rd, &n);
	const char **keys = calloc(n ? n : 1, sizeof(*keys));
	size_t nk = 0;
	for (size_t i = 0; keys && i < n; i++)
		if (all[i].key &&
		    !strncmp(all[i].key, REEL_META_REPLAY_PREFIX,
			     strlen(REEL_META_REPLAY_PREFIX)) &&
		    !is_result_key(all[i].key))
			keys[nk++] = all[i].key;
	if (keys)
		qsort(keys, nk, sizeof(*keys), cmp_str);
	size_t off = 0;
	run->config[0] = 0;
	for (size_t i = 0; i < nk; i++) {
		if (i && !strcmp(keys[i], keys[i - 1]))
			continue; /* header and trailer both */
		char v[512];
		meta_text(rd, keys[i], v, sizeof(v));
		int w =
		    plots_strf(run->config + off, sizeof(run->config) - off, "%s=%s\n", keys[i], v);
		if (w < 0 || (size_t)w >= sizeof(run->config) - off)
			break;
		off += (size_t)w;
	}
	free(keys);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static void build_label(struct plots_run *run, const struct reel_reader *rd)
{
	char v[256];
	meta_text(rd, REEL_META_REPLAY_LABEL, v, sizeof(v));
	if (v[0]) {
		plots_strf(run->label, sizeof(run->label), "%s", v);
		return;
	}
	if (run->is_replay) {
		char tgt[256];
		meta_text(rd, REEL_META_REPLAY_TARGETS, tgt, sizeof(tgt));
		const struct reel_header *h = reel_reader_header(rd);
		if (!tgt[0] && h->ndevices)
			plots_term_escape(tgt, sizeof(tgt), h->devices[0].name);
		char *comma = strchr(tgt, ',');
		if (comma)
			*comma = 0;
		plots_strf(run->label, sizeof(run->label), "%s%s%s%s%s%s%s",
			   tgt[0] ? base_name(tgt) : "replay", run->qd[0] ? " qd" : "", run->qd,
			   run->data[0] ? " " : "", run->data, run->engine[0] ? " " : "",
			   run->engine);
		return;
	}
	plots_strf(run->label, sizeof(run->label), "%s", base_name(run->path));
	size_t l = strlen(run->label);
	if (l > 5 && !strcmp(run->label + l - 5, ".reel"))
		run->label[l - 5] = 0;
}

/* "a/b/x.reel,c/loop3" -> "x.reel,loop3" */
static void base_names(char *buf, size_t len, const char *list)
{
	size_t o = 0;
	buf[0] = 0;
	for (const char *p = list; *p && o + 1 < len;) {
		size_t l = strcspn(p, ",");
		const char *b = p;
		for (const char *q = p; q < p + l; q++)
			if (*q == '/')
				b = q + 1;
		int w = plots_strf(buf + o, len - o, "%s%.*s", o ? "," : "", (int)(p + l - b), b);
		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
		p += l + (p[l] == ',');
	}
}

/* Integer metadata key (a format with one index and a field), or -1. */
static int64_t meta_int_at(const struct reel_reader *rd, const char *fmt, unsigned i,
			   const char *field)
{
	char k[96];
	plots_strf(k, sizeof(k), fmt, i, field);
	const struct reel_meta *m = reel_reader_meta(rd, k);
	return m && m->type == REEL_META_INT ? m->i : -1;
}

/* The ranks of a merged multi-host result (replay --mpi): device i belongs
 * to rank cluster.dev.i.rank; a rank is named by its host
 * (cluster.rank.R.host), "host#R" when ranks share a host. */
static void run_hosts(struct plots_run *run, const struct reel_reader *rd)
{
	const struct reel_header *h = reel_reader_header(rd);
	if (!reel_reader_meta(rd, REEL_META_CLUSTER_RANKS))
		return;
	int64_t rank_of[64];
	unsigned nh = 0;
	for (size_t i = 0; i < h->ndevices && i < 64; i++) {
		rank_of[i] = meta_int_at(rd, REEL_META_CLUSTER_DEV_FMT, (unsigned)i, "rank");
		if (rank_of[i] < 0 || rank_of[i] >= 64)
			return; /* not a result this reads: no per-host rows */
		if (h->devices[i].id < 64)
			run->dev_host[h->devices[i].id] = (uint16_t)rank_of[i];
		if ((unsigned)rank_of[i] + 1 > nh)
			nh = (unsigned)rank_of[i] + 1;
	}
	run->nhosts = nh;
}

/* Name of rank r of a multi-host result (see run_hosts). */
static void rank_name(const struct reel_reader *rd, unsigned r, char *buf, size_t len)
{
	char k[96], a[64], b[64];
	plots_strf(k, sizeof(k), REEL_META_CLUSTER_RANK_FMT, r, "host");
	meta_text(rd, k, a, sizeof(a));
	int shared = 0;
	for (unsigned o = 0; o < 64 && !shared; o++) {
		plots_strf(k, sizeof(k), REEL_META_CLUSTER_RANK_FMT, o, "host");
		if (!reel_reader_meta(rd, k))
			break;
		meta_text(rd, k, b, sizeof(b));
		shared = o != r && !strcmp(a, b);
	}
	if (shared || !a[0])
		plots_strf(buf, len, "%s#%u", a[0] ? a : "rank", r);
	else
		plots_strf(buf, len, "%s", a);
}

/* What makes runs repeats of one another: trace, targets, speed, name. */
static void run_identity(struct plots_run *run, const struct reel_reader *rd)
{
	char v[1024];
	run->host = -1;
	run->part_of = -1;
	meta_text(rd, REEL_META_REPLAY_TRACE, v, sizeof(v));
	base_names(run->trace, sizeof(run->trace), v);
	meta_text(rd, REEL_META_REPLAY_TARGETS, v, sizeof(v));
	base_names(run->target, sizeof(run->target), v);
	const struct reel_meta *m = reel_reader_meta(rd, REEL_META_REPLAY_SPEED);
	if (m && strcmp(run->timing, "afap"))
		run->speed = m->type == REEL_META_DBL ? m->d : (double)m->i;
	meta_text(rd, REEL_META_REPLAY_LABEL, v, sizeof(v));
	plots_strf(run->name, sizeof(run->name), "%s", v[0] ? v : run->target);
	run_hosts(run, rd);
}

/* A run is read twice, start to end: only a regular file can be (a FIFO
 * would also block the open until a writer came). */
static int check_input(const char *path, char *errbuf, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return 0; /* the reader says why it cannot open it */
	if (S_ISREG(st.st_mode))
		return 0;
	return reel_errf(errbuf, errlen, REEL_E_ARG,
			 "%s is %s, not a regular file: runs are read twice, from the start; "
			 "save the trace to a file first",
			 path,
			 S_ISFIFO(st.st_mode)	? "a FIFO"
			 : S_ISDIR(st.st_mode)	? "a folder"
			 : S_ISCHR(st.st_mode)	? "a character device"
			 : S_ISBLK(st.st_mode)	? "a block device"
			 : S_ISSOCK(st.st_mode) ? "a socket"
						: "not a regular file");
}

int plots_run_open(struct plots_run **out, const char *path, char *errbuf, size_t errlen)
{
	*out = NULL;
	int rc = check_input(path, errbuf, errlen);
	if (rc < 0)
		return rc;
	struct plots_run *run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	plots_strf(run->path, sizeof(run->path), "%s", path);
	struct reel_reader *rd = NULL;
	int err = reel_reader_open(&rd, path, 0);
	if (err < 0) {
		reader_err(errbuf, errlen, path, rd, err);
		reel_reader_close(rd);
		free(run);
		return err;
	}
	const struct reel_header *h = reel_reader_header(rd);
	plots_term_escape(run->source, sizeof(run->source), h->source ? h->source : "");
	run->is_replay = !strcmp(run->source, "replay");
	run->ndevices = (uint32_t)h->ndevices;
	meta_text(rd, REEL_META_REPLAY_DATA, run->data, sizeof(run->data));
	meta_text(rd, REEL_META_REPLAY_QD, run->qd, sizeof(run->qd));
	meta_text(rd, REEL_META_REPLAY_ENGINE, run->engine, sizeof(run->engine));
	meta_text(rd, REEL_META_REPLAY_TIMING, run->timing, sizeof(run->timing));
	run_identity(run, rd);
	const struct reel_meta *ra;
	run->ratio_achieved = -1;

	const struct reel_rec *recs;
	long n;
	int first = 1;
	uint64_t with_lat = 0, with_complete = 0;
	while ((n = reel_read_chunk(rd, &recs)) > 0) {
		for (long i = 0; i < n; i++) {
			int64_t s, e;
			run->count++;
			if (recs[i].offset + recs[i].length > run->max_offset)
				run->max_offset = recs[i].offset + recs[i].length;
			if (rec_times(&recs[i], &s, &e) < 0) {
				run->untimed++;
				continue;
			}
			if (e >= 0) {
				with_complete++;
				if (recs[i].has & (REEL_HAS_ISSUE | REEL_HAS_QUEUE))
					with_lat++;
			}
			int64_t end = e >= 0 ? e : s;
			if (first || s < run->t0)
				run->t0 = s;
			if (first || end > run->t1)
				run->t1 = end;
			first = 0;
		}
	}
	if (n < 0) {
		reader_err(errbuf, errlen, path, rd, (int)n);
		reel_reader_close(rd);
		free(run);
		return (int)n;
	}
	run->complete = reel_reader_complete(rd);
	ra = reel_reader_meta(rd, REEL_META_REPLAY_RATIO_ACHIEVED); /* a trailer key */
	if (ra && ra->type == REEL_META_DBL)
		run->ratio_achieved = ra->d;
	else if (ra && ra->type == REEL_META_INT)
		run->ratio_achieved = (double)ra->i;
	run->has_latency = with_lat > 0;
	/* throughput by completion time when most I/Os have one */
	run->time_by_completion = with_complete * 2 > run->count;
	run->span_s = (double)(run->t1 - run->t0) / 1e9;
	build_config(run, rd);
	build_label(run, rd);
	reel_reader_close(rd);
	*out = run;
	return 0;
}

void plots_run_free(struct plots_run *run)
{
	if (!run)
		return;
	free(run->buckets);
	free(run->lat_time);
	free(run->points);
	free(run);
}

int64_t plots_auto_interval(int64_t span_ns, uint64_t count)
{
	static const int64_t steps[] = {1, 2, 5};
	double want = (double)span_ns / 150.0;
	/* at least ~30 I/Os per bucket on average, or the rates are noise */
	if (count && (double)span_ns * 30.0 / (double)count > want)
		want = (double)span_ns * 30.0 / (double)count;
	int64_t base = 1000; /* 1 us */
	for (;;) {
		for (size_t i = 0; i < 3; i++)
			if ((double)(steps[i] * base) >= want)
				return steps[i] * base;
		if (base > INT64_MAX / 100)
			return base;
		base *= 10;
	}
}

/* Spread the in-flight time [s, e) over the buckets it covers. */
static void add_busy(struct plots_run *run, int64_t s, int64_t e)
{
	int64_t iv = run->interval_ns;
	s -= run->t0;
	e -= run->t0;
	if (e <= s)
		return;
	size_t b = (size_t)(s / iv), last = (size_t)((e - 1) / iv);
	for (; b <= last && b < run->nbuckets; b++) {
		int64_t lo = (int64_t)b * iv, hi = lo + iv;
		int64_t a = s > lo ? s : lo, z = e < hi ? e : hi;
		if (z > a)
			run->buckets[b].busy_ns += (double)(z - a);
	}
}

static size_t size_bucket(uint32_t len)
{
	size_t i = 0;
	uint64_t lim = 512;
	while (i < PLOTS_SIZE_BUCKETS - 1 && len > lim) {
		lim <<= 1;
		i++;
	}
	return i;
}

/*
 * Busy time: the union of the I/Os' [start, completion] intervals.  Records
 * come nearly in start order (a result is written as I/Os complete, a
 * merged one in issue order), so a window of BUSY_WINDOW intervals in a
 * min-heap by start puts them in order; an interval later than that still
 * counts, from where the union has reached.
 */
struct span {
	int64_t a, b;
};
#define SPAN_BEFORE(x, y) ((x)->a < (y)->a)
REEL_HEAP(span_heap, struct span, SPAN_BEFORE)
#define BUSY_WINDOW 65536

struct busy {
	struct span_heap h;
	int64_t cs, ce; /* the open interval of the union */
	int open;
	double total_ns;
};

static void busy_merge(struct busy *b, struct span x)
{
	if (b->open && x.a <= b->ce) {
		if (x.b > b->ce)
			b->ce = x.b;
		return;
	}
	if (b->open)
		b->total_ns += (double)(b->ce - b->cs);
	b->cs = x.a;
	b->ce = x.b;
	b->open = 1;
}

static int busy_add(struct busy *b, int64_t s, int64_t e)
{
	if (span_heap_push(&b->h, (struct span){s, e}) < 0)
		return REEL_E_NOMEM;
	if (b->h.n > BUSY_WINDOW)
		busy_merge(b, span_heap_pop(&b->h));
	return 0;
}

static double busy_finish(struct busy *b)
{
	while (b->h.n)
		busy_merge(b, span_heap_pop(&b->h));
	span_heap_free(&b->h);
	if (b->open)
		b->total_ns += (double)(b->ce - b->cs);
	return b->total_ns;
}

/* Bucket widths and counts for interval_ns, the arrays they need, and
 * every statistic zeroed for a (new) pass. */
static int analyze_reset(struct plots_run *run, int64_t interval_ns, char *errbuf, size_t errlen)
{
	int64_t span = run->t1 - run->t0;
	if (interval_ns <= 0)
		interval_ns = plots_auto_interval(span, run->count);
	run->interval_ns = interval_ns;
	run->nbuckets = (size_t)(span / interval_ns) + 1;
	/* latency over time: a multiple of interval_ns, at most PLOTS_LAT_BUCKETS
	 * buckets; a preset (by plots_runs_load, common to all runs) wins */
	int64_t mult = span / interval_ns / (PLOTS_LAT_BUCKETS - 1) + 1;
	if (run->lat_interval_ns < mult * interval_ns || run->lat_interval_ns % interval_ns)
		run->lat_interval_ns = mult * interval_ns;
	run->nlatb = (size_t)(span / run->lat_interval_ns) + 1;
	free(run->buckets);
	free(run->lat_time);
	free(run->points);
	run->buckets = calloc(run->nbuckets, sizeof(*run->buckets));
	run->lat_time = run->has_latency ? calloc(run->nlatb, sizeof(*run->lat_time)) : NULL;
	run->points =
	    calloc(run->count / (run->count / PLOTS_MAP_POINTS + 1) + 2, sizeof(*run->points));
	if (!run->buckets || !run->points || (run->has_latency && !run->lat_time))
		return reel_errf(errbuf, errlen, -ENOMEM, "%s: out of memory for %zu time buckets",
				 run->path, run->nbuckets);
	run->npoints = 0;
	memset(run->op, 0, sizeof(run->op));
	memset(&run->all, 0, sizeof(run->all));
	memset(&run->issue_err, 0, sizeof(run->issue_err));
	memset(run->size_hist, 0, sizeof(run->size_hist));
	run->has_issue_err = 0;
	run->max_offset = 0;
	return 0;
}

/* Record number k of the run into every statistic; every stride-th one is
 * an access-map point. */
static void analyze_rec(struct plots_run *run, const struct reel_rec *r, uint64_t k,
			uint64_t stride, struct busy *busy)
{
	int64_t s, e;
	if (run->host >= 0 && (r->dev >= 64 || run->dev_host[r->dev] != run->host))
		return; /* a per-host part: another host's I/O */
	if (rec_times(r, &s, &e) < 0)
		return;
	int d = op_dir(r->op);
	struct plots_op_stats *o = &run->op[d];
	o->ios++;
	o->bytes += r->length;
	run->all.ios++;
	run->all.bytes += r->length;
	if ((r->has & REEL_HAS_ERROR) && r->error) {
		o->errors++;
		run->all.errors++;
	}
	if (r->offset + r->length > run->max_offset)
		run->max_offset = r->offset + r->length;
	if (e >= 0 && (r->has & (REEL_HAS_ISSUE | REEL_HAS_QUEUE))) {
		reel_hist_add(&o->lat, (uint64_t)(e - s));
		reel_hist_add(&run->all.lat, (uint64_t)(e - s));
		add_busy(run, s, e);
		busy_add(busy, s, e); /* out of memory: the busy time falls short */
		size_t lb = (size_t)((e - run->t0) / run->lat_interval_ns);
		if (lb < run->nlatb)
			reel_hist_add(&run->lat_time[lb], (uint64_t)(e - s));
	}
	if (run->is_replay && (r->has & REEL_HAS_QUEUE) && (r->has & REEL_HAS_ISSUE)) {
		/* as replay records it: an early issue counts as 0 */
		int64_t ie = r->issue_ns - r->queue_ns;
		reel_hist_add(&run->issue_err, ie > 0 ? (uint64_t)ie : 0);
		run->has_issue_err = 1;
	}
	if (d != PLOTS_OTHER) {
		run->size_hist[d][size_bucket(r->length)]++;
		int64_t t = run->time_by_completion && e >= 0 ? e : s;
		size_t b = (size_t)((t - run->t0) / run->interval_ns);
		if (b < run->nbuckets) {
			run->buckets[b].ios[d]++;
			run->buckets[b].bytes[d] += r->length;
		}
	}
	if (k % stride == 0) {
		struct plots_point *p = &run->points[run->npoints++];
		p->t_s = (float)((double)(s - run->t0) / 1e9);
		p->off_mib = (float)((double)r->offset / 1048576.0);
		p->dir = (uint8_t)d;
		p->dev = r->dev;
	}
}

int plots_run_analyze(struct plots_run *run, int64_t interval_ns, char *errbuf, size_t errlen)
{
	int err = analyze_reset(run, interval_ns, errbuf, errlen);
	if (err < 0)
		return err;
	struct reel_reader *rd = NULL;
	err = reel_reader_open(&rd, run->path, 0);
	if (err < 0) {
		reader_err(errbuf, errlen, run->path, rd, err);
		reel_reader_close(rd);
		return err;
	}
	const struct reel_rec *recs;
	long n;
	uint64_t k = 0, stride = run->count / PLOTS_MAP_POINTS + 1;
	struct busy busy = {0};
	while ((n = reel_read_chunk(rd, &recs)) > 0)
		for (long i = 0; i < n; i++, k++)
			analyze_rec(run, &recs[i], k, stride, &busy);
	run->busy_s = busy_finish(&busy) / 1e9;
	if (n < 0) {
		reader_err(errbuf, errlen, run->path, rd, (int)n);
		reel_reader_close(rd);
		return (int)n;
	}
	reel_reader_close(rd);
	if (run->busy_s > 0) {
		run->busy_mbps = (double)run->all.bytes / 1e6 / run->busy_s;
		run->busy_iops = (double)run->all.ios / run->busy_s;
	}
	double span_s = run->span_s > 0 ? run->span_s : 1e-9;
	for (int d = 0; d < PLOTS__NDIR; d++) {
		run->op[d].mbps = (double)run->op[d].bytes / 1e6 / span_s;
		run->op[d].iops = (double)run->op[d].ios / span_s;
	}
	run->all.mbps = run->mbps = (double)run->all.bytes / 1e6 / span_s;
	run->all.iops = run->iops = (double)run->all.ios / span_s;
	return 0;
}

void plots_labels_fix(struct plots_run **runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *l = runs[i]->label;
		for (char *c = l; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f || strchr("\"'\\<>&|`", *c))
				*c = '_';
	}
	/* repeats of one label: "name #1", "name #2", ... */
	char(*orig)[sizeof(runs[0]->label)] = malloc((n ? n : 1) * sizeof(*orig));
	if (!orig)
		return;
	for (size_t i = 0; i < n; i++)
		memcpy(orig[i], runs[i]->label, sizeof(orig[i]));
	for (size_t i = 0; i < n; i++) {
		size_t k = 0, total = 0;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(orig[i], orig[j])) {
				total++;
				k += j <= i;
			}
		if (total > 1) {
			char tmp[sizeof(runs[i]->label)];
			plots_strf(tmp, sizeof(tmp), "%.140s #%zu", orig[i], k);
			memcpy(runs[i]->label, tmp, sizeof(tmp));
		}
	}
	free(orig);
}

void plots_runs_free(struct plots_run **runs, size_t n)
{
	if (!runs)
		return;
	for (size_t i = 0; i < n; i++)
		plots_run_free(runs[i]);
	free(runs);
}

unsigned plots_run_flags(const struct plots_run *r)
{
	unsigned f = 0;
	if (r->is_replay && r->has_latency && r->busy_s < PLOTS_MIN_BUSY_S)
		f |= PLOTS_FLAG_SHORT;
	if (plots_issue_error_meaningful(r) &&
	    (double)reel_hist_quantile(&r->issue_err, 0.99) / 1e3 > PLOTS_ISSUE_ERROR_LIMIT_US)
		f |= PLOTS_FLAG_HOST;
	return f;
}

int plots_issue_error_meaningful(const struct plots_run *r)
{
	return r->has_issue_err && strcmp(r->timing, "afap") != 0;
}

/* One run per rank of each multi-host run, right after it: *runs grows. */
static int add_host_parts(struct plots_run ***runs, size_t *n)
{
	size_t total = *n;
	for (size_t i = 0; i < *n; i++)
		total += (*runs)[i]->nhosts > 1 ? (*runs)[i]->nhosts : 0;
	if (total == *n)
		return 0;
	struct plots_run **old = *runs, **nr = calloc(total, sizeof(*nr));
	if (!nr)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < *n; i++) {
		size_t agg = k;
		nr[k++] = old[i];
		for (unsigned hh = 0; old[i]->nhosts > 1 && hh < old[i]->nhosts; hh++) {
			struct plots_run *p = malloc(sizeof(*p));
			if (!p) {
				for (size_t j = i + 1; j < *n; j++)
					nr[k++] = old[j];
				free(old);
				*runs = nr;
				*n = k;
				return -ENOMEM;
			}
			memcpy(p, old[i], sizeof(*p));
			p->buckets = NULL;
			p->lat_time = NULL;
			p->points = NULL;
			p->host = (int)hh;
			p->part_of = (long)agg;
			p->nhosts = 0;
			nr[k++] = p;
		}
	}
	free(old);
	*runs = nr;
	*n = k;
	return 0;
}

/* Host names and labels of the per-host parts. */
static void host_labels(struct plots_run **runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct plots_run *p = runs[i];
		if (p->part_of < 0)
			continue;
		struct reel_reader *rd = NULL;
		if (reel_reader_open(&rd, p->path, 0) == 0)
			rank_name(rd, (unsigned)p->host, p->host_name, sizeof(p->host_name));
		reel_reader_close(rd);
		char l[sizeof(p->label)];
		plots_strf(l, sizeof(l), "%.100s @%s", runs[p->part_of]->label, p->host_name);
		memcpy(p->label, l, sizeof(l));
		plots_strf(p->name, sizeof(p->name), "%.100s @%s", runs[p->part_of]->name,
			   p->host_name);
	}
}

/* The user's names: --label NAME for run i. */
static void apply_labels(struct plots_run **runs, size_t n, const char *const *labels)
{
	for (size_t i = 0; labels && i < n; i++)
		if (labels[i] && labels[i][0]) {
			plots_strf(runs[i]->label, sizeof(runs[i]->label), "%s", labels[i]);
			plots_strf(runs[i]->name, sizeof(runs[i]->name), "%s", labels[i]);
			runs[i]->user_label = 1;
		}
}

static int runs_load(struct plots_run ***out, size_t *nout, const char *const *paths,
		     const char *const *labels, size_t n, int64_t interval_ns, int hosts,
		     char *errbuf, size_t errlen)
{
	*out = NULL;
	struct plots_run **runs = calloc(n ? n : 1, sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	int64_t span = 0;
	uint64_t maxcount = 0;
	size_t nr = n;
	int err;
	for (size_t i = 0; i < n; i++) {
		if ((err = plots_run_open(&runs[i], paths[i], errbuf, errlen)) < 0)
			goto fail;
		if (runs[i]->t1 - runs[i]->t0 > span)
			span = runs[i]->t1 - runs[i]->t0;
		if (runs[i]->count > maxcount)
			maxcount = runs[i]->count;
	}
	apply_labels(runs, n, labels);
	plots_labels_fix(runs, n);
	if (hosts && (err = add_host_parts(&runs, &nr)) < 0)
		goto fail;
	if (interval_ns <= 0)
		interval_ns = plots_auto_interval(span, maxcount);
	/* latency-over-time buckets: one width for all runs, so bands align;
	 * at most PLOTS_LAT_BUCKETS, ~100 I/Os each (a p99 needs them), yet
	 * at least 10 over the span */
	double want = (double)span / (PLOTS_LAT_BUCKETS - 1);
	if (maxcount && (double)span * 100.0 / (double)maxcount > want)
		want = (double)span * 100.0 / (double)maxcount;
	if (want > (double)span / 10.0)
		want = (double)span / 10.0;
	int64_t liv = ((int64_t)want / interval_ns + 1) * interval_ns;
	for (size_t i = 0; i < nr; i++) {
		runs[i]->lat_interval_ns = liv;
		if ((err = plots_run_analyze(runs[i], interval_ns, errbuf, errlen)) < 0)
			goto fail;
	}
	host_labels(runs, nr);
	*out = runs;
	*nout = nr;
	return 0;
fail:
	plots_runs_free(runs, nr);
	return err;
}

int plots_runs_load_labeled(struct plots_run ***out, size_t *nout, const char *const *paths,
			    const char *const *labels, size_t n, int64_t interval_ns, char *errbuf,
			    size_t errlen)
{
	return runs_load(out, nout, paths, labels, n, interval_ns, 1, errbuf, errlen);
}

int plots_runs_load(struct plots_run ***out, const char *const *paths, size_t n,
		    int64_t interval_ns, char *errbuf, size_t errlen)
{
	size_t nout;
	return runs_load(out, &nout, paths, NULL, n, interval_ns, 0, errbuf, errlen);
}
