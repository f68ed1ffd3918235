/*
 * tests/unit/test_replay_tool.c - helper for the replay tests, and a unit
 * test of itself when run without arguments.
 *
 *   gen OUT.reel key=value...   write a synthetic trace:
 *       n=COUNT iops=RATE bs=BYTES[:BYTES] rw=read|write|mix:PCT(writes)
 *       lat=NS (completion - issue) devs=N flush=K (every Kth is a flush)
 *       discard=K zeroes=K (every Kth a discard / write-zeroes) misalign=1 base=BYTES noissue=1
 * nocomplete=1 seed=S span=BYTES (offsets repeat within the span instead of being disjoint) Offsets
 * are disjoint: I/O i gets slot perm(i) of max-bs bytes. verify RESULT.reel TARGET[,TARGET...]
 * check every write's stamps on the targets and print key=value facts about the result: ios writes
 * errors stamped_pieces bad_pieces issue_p50_ns issue_p99_ns duration_ns trace_duration_ns
 * interrupted max_inflight ratio_readback order_violations
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/replay.h"
#include "tests/unit/unit.h"

static uint64_t rs = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static const char *kv(int argc, char **argv, const char *key, const char *def)
{
	size_t l = strlen(key);
	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], key, l) && argv[i][l] == '=')
			return argv[i] + l + 1;
	return def;
}

static int gen(const char *out, int argc, char **argv)
{
	uint64_t n = strtoull(kv(argc, argv, "n", "1000"), NULL, 10);
	double iops = atof(kv(argc, argv, "iops", "10000"));
	const char *bs = kv(argc, argv, "bs", "4096");
	uint64_t bsmin = strtoull(bs, NULL, 10), bsmax = bsmin;
	if (strchr(bs, ':'))
		bsmax = strtoull(strchr(bs, ':') + 1, NULL, 10);
	const char *rw = kv(argc, argv, "rw", "write");
	int wpct = !strcmp(rw, "read") ? 0 : !strcmp(rw, "write") ? 100 : atoi(rw + 4);
	int64_t lat = atoll(kv(argc, argv, "lat", "100000"));
	unsigned devs = (unsigned)atoi(kv(argc, argv, "devs", "1"));
	uint64_t flush = strtoull(kv(argc, argv, "flush", "0"), NULL, 10);
	uint64_t discard = strtoull(kv(argc, argv, "discard", "0"), NULL, 10);
	uint64_t zeroes = strtoull(kv(argc, argv, "zeroes", "0"), NULL, 10);
	int misalign = atoi(kv(argc, argv, "misalign", "0"));
	uint64_t base = strtoull(kv(argc, argv, "base", "0"), NULL, 10);
	int noissue = atoi(kv(argc, argv, "noissue", "0"));
	int nocomplete = atoi(kv(argc, argv, "nocomplete", "0"));
	rs ^= strtoull(kv(argc, argv, "seed", "1"), NULL, 10) * 0x9E3779B97F4A7C15ull;
	struct reel_device d[8];
	memset(d, 0, sizeof(d));
	for (unsigned i = 0; i < devs && i < 8; i++) {
		d[i].id = (uint16_t)i;
		snprintf(d[i].name, sizeof(d[i].name), "synth%u", i);
		d[i].lbs = 512;
		d[i].pbs = 4096;
	}
	struct reel_header h = {.source = "imported:synthetic",
				.source_detail = "test_replay_tool",
				.devices = d,
				.ndevices = devs};
	struct reel_writer *w;
	if (reel_writer_open(&w, out, -1, &h, REEL_W_OVERWRITE) < 0) {
		fprintf(stderr, "%s: %s\n", out, w ? reel_writer_errmsg(w) : "open failed");
		return 1;
	}
	reel_writer_set_level(w, 0); /* fast: traces of 100M I/Os for the bench */
	uint64_t per = (n + devs - 1) / devs;
	uint64_t span = strtoull(kv(argc, argv, "span", "0"), NULL, 10);
	if (span && span / bsmax < per)
		per = span / bsmax ? span / bsmax : 1; /* offsets repeat */
	uint64_t prime = 1000003;		       /* coprime to per unless per is a multiple */
	while (per % prime == 0)
		prime += 2;
	double step = 1e9 / iops;
	for (uint64_t i = 0; i < n; i++) {
		struct reel_rec r;
		memset(&r, 0, sizeof(r));
		r.queue_ns = (int64_t)(i * step);
		r.issue_ns = r.queue_ns + 2000;
		r.complete_ns = r.issue_ns + lat;
		r.has = REEL_HAS_QUEUE | REEL_HAS_DEV | REEL_HAS_ERROR;
		if (!noissue)
			r.has |= REEL_HAS_ISSUE;
		if (!nocomplete)
			r.has |= REEL_HAS_COMPLETE;
		r.dev = (uint16_t)(i % devs);
		uint64_t k = i / devs;
		uint64_t slot = (k * prime) % per;
		r.length =
		    (uint32_t)(bsmin +
			       (bsmax > bsmin ? (rnd() % ((bsmax - bsmin) / 512 + 1)) * 512 : 0));
		r.offset = base + slot * bsmax;
		if (misalign && i % 7 == 3)
			r.offset += 512 + 100 * (i % 2);
		r.op = (rnd() % 100) < (uint64_t)wpct ? REEL_OP_WRITE : REEL_OP_READ;
		if (flush && i % flush == flush - 1) {
			r.op = REEL_OP_FLUSH;
			r.offset = 0;
			r.length = 0;
		} else if (discard && i % discard == discard - 1) {
			r.op = REEL_OP_DISCARD;
		} else if (zeroes && i % zeroes == zeroes - 1) {
			r.op = REEL_OP_WRITE_ZEROES;
		}
		if (reel_write(w, &r) < 0) {
			fprintf(stderr, "%s: %s\n", out, reel_writer_errmsg(w));
			return 1;
		}
	}
	return reel_writer_close(w) < 0;
}

struct want {
	uint64_t off, seq;
	uint32_t len;
	uint16_t tgt, piece;
};

static int cmp(const void *a, const void *b)
{
	int64_t d = *(const int64_t *)a - *(const int64_t *)b;
	return d < 0 ? -1 : d > 0;
}

struct sec {
	uint64_t key; /* target << 48 | sector, + 1 (0 = empty) */
	uint64_t val; /* last writer's seq + 1 */
};
static uint64_t *sec_slot(struct sec *m, size_t cap, uint64_t key)
{
	size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
	while (m[i].key && m[i].key != key + 1)
		i = (i + 1) & (cap - 1);
	m[i].key = key + 1;
	return &m[i].val;
}

static int64_t quant(int64_t *v, size_t n, double q)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp);
	size_t i = (size_t)ceil(q * (double)n);
	return v[i ? i - 1 : 0];
}

/* What verify gathers from a result: the writes' pieces, each write, and
 * every I/O's queue-to-issue time. */
struct verify_facts {
	struct want *wv; /* one per stamped piece */
	size_t nw, cap;
	struct want *wr; /* one per write */
	size_t nwr, wcap, nsec;
	int64_t *ierr; /* issue - queue of every I/O */
	size_t nios, icap;
	uint64_t seq, writes, errors, order_viol;
};

/* Opens the comma-separated targets read-only into fds (at most
 * REPLAY_MAX_TARGETS), dropping their cached pages; *ts owns the copy of
 * targets. Returns 1 (after saying why) when one cannot be opened. */
static int open_targets(const char *targets, int *fds, int *nt, char **ts)
{
	char *save = NULL;
	*ts = strdup(targets);
	for (char *t = strtok_r(*ts, ",", &save); t && *nt < REPLAY_MAX_TARGETS;
	     t = strtok_r(NULL, ",", &save)) {
		fds[*nt] = open(t, O_RDONLY);
		if (fds[*nt] < 0) {
			fprintf(stderr, "%s: %s\n", t, strerror(errno));
			return 1;
		}
		posix_fadvise(fds[*nt], 0, 0, POSIX_FADV_DONTNEED);
		(*nt)++;
	}
	return 0;
}

/* Reads every record of the result into v; returns reel_read's last code. */
static int gather_writes(struct reel_reader *rd, struct verify_facts *v)
{
	v->cap = 1 << 16, v->icap = 1 << 16, v->wcap = 1 << 12;
	v->wv = malloc(v->cap * sizeof(*v->wv));
	v->wr = malloc(v->wcap * sizeof(*v->wr));
	v->ierr = malloc(v->icap * sizeof(*v->ierr));
	struct reel_rec r;
	int64_t last_issue = INT64_MIN, last_queue = INT64_MIN;
	int rc;
	while ((rc = reel_read(rd, &r)) == 1) {
		if (r.error)
			v->errors++;
		if (r.issue_ns < last_issue || r.queue_ns < last_queue)
			v->order_viol++;
		last_issue = r.issue_ns;
		last_queue = r.queue_ns;
		if (v->nios == v->icap)
			v->ierr = realloc(v->ierr, (v->icap *= 2) * sizeof(*v->ierr));
		v->ierr[v->nios++] = r.issue_ns - r.queue_ns;
		if (r.op == REEL_OP_WRITE && !r.error) {
			v->writes++;
			if (v->nwr == v->wcap)
				v->wr = realloc(v->wr, (v->wcap *= 2) * sizeof(*v->wr));
			v->wr[v->nwr++] = (struct want){r.offset, v->seq, r.length, r.dev, 0};
			v->nsec += (r.length + 511) / 512 + 1;
			for (uint32_t p = 0; p * REPLAY_STAMP_PIECE < r.length; p++) {
				if (v->nw == v->cap)
					v->wv = realloc(v->wv, (v->cap *= 2) * sizeof(*v->wv));
				v->wv[v->nw++] =
				    (struct want){r.offset + (uint64_t)p * REPLAY_STAMP_PIECE,
						  v->seq, r.length, r.dev, (uint16_t)p};
			}
		}
		v->seq++;
	}
	return rc;
}

/* the last writer (in issue order) of each 512-byte sector: a piece's
 * stamp must be there unless a later write covered its first sector.
 * Returns the map (the caller frees it), its size in *mcap. */
static struct sec *last_writers(const struct verify_facts *v, size_t *mcap)
{
	*mcap = 1;
	while (*mcap < 4 * v->nsec + 16)
		*mcap *= 2;
	struct sec *map = calloc(*mcap, sizeof(*map));
	for (size_t i = 0; i < v->nwr; i++)
		for (uint64_t sct = v->wr[i].off / 512;
		     sct < (v->wr[i].off + v->wr[i].len + 511) / 512; sct++)
			*sec_slot(map, *mcap, (uint64_t)v->wr[i].tgt << 48 | sct) =
			    v->wr[i].seq + 1;
	return map;
}

/* Reads back every piece that no later write covered: counts the stamps
 * that are right (*good) and wrong (*bad), and sums the LZ4 ratio's input
 * and output over whole writes (*in, *out). */
static void check_stamps(const struct verify_facts *v, struct sec *map, size_t mcap, const int *fds,
			 int nt, uint64_t *good, uint64_t *bad, double *in, double *out)
{
	const struct want *wv = v->wv;
	for (size_t i = 0; i < v->nw; i++) {
		uint64_t key = (uint64_t)wv[i].tgt << 48 | wv[i].off / 512;
		if (*sec_slot(map, mcap, key) != wv[i].seq + 1)
			continue; /* overwritten later */
		unsigned char buf[REPLAY_STAMP_PIECE];
		struct replay_stamp st;
		if (wv[i].tgt >= nt || pread(fds[wv[i].tgt], buf, 32, (off_t)wv[i].off) != 32 ||
		    replay_stamp_read(buf, &st) != 1 || st.offset != wv[i].off ||
		    st.seq != wv[i].seq || st.length != wv[i].len || st.target != wv[i].tgt ||
		    st.piece != wv[i].piece) {
			if (*bad < 5)
				fprintf(stderr, "piece at %llu on target %u: wanted write #%llu\n",
					(unsigned long long)wv[i].off, wv[i].tgt,
					(unsigned long long)wv[i].seq);
			(*bad)++;
		} else {
			(*good)++;
		}
		/* LZ4 ratio read back at the write's size, for whole writes */
		if (wv[i].piece == 0 && wv[i].len <= sizeof(buf) * 256 && *in < 64e6) {
			unsigned char *wb = malloc(wv[i].len);
			if (pread(fds[wv[i].tgt], wb, wv[i].len, (off_t)wv[i].off) ==
			    (ssize_t)wv[i].len) {
				double rt = replay_lz4_ratio(wb, wv[i].len);
				*in += wv[i].len;
				*out += wv[i].len / rt;
			}
			free(wb);
		}
	}
}

/* Prints the replay's metadata as key=value, the key without its prefix. */
static void print_replay_meta(struct reel_reader *rd)
{
	const struct reel_meta *m;
	static const char *const keys[] = {
	    REEL_META_REPLAY_DURATION_NS, REEL_META_REPLAY_TRACE_DURATION_NS,
	    REEL_META_REPLAY_INTERRUPTED, REEL_META_REPLAY_RATIO_ACHIEVED,
	    REEL_META_REPLAY_ENGINE,	  REEL_META_REPLAY_QD,
	    REEL_META_REPLAY_ORDER,	  REEL_META_REPLAY_LABEL};
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		m = reel_reader_meta(rd, keys[k]);
		const char *name = strchr(keys[k], '.') + 1;
		if (!m)
			printf("%s=\n", name);
		else if (m->type == REEL_META_STR)
			printf("%s=%s\n", name, m->s);
		else if (m->type == REEL_META_INT)
			printf("%s=%lld\n", name, (long long)m->i);
		else
			printf("%s=%.4f\n", name, m->d);
	}
}

static int verify(const char *result, const char *targets)
{
	struct reel_reader *rd;
	if (reel_reader_open(&rd, result, 0) < 0) {
		fprintf(stderr, "%s: %s\n", result, rd ? reel_reader_errmsg(rd) : "cannot open");
		return 1;
	}
	int fds[REPLAY_MAX_TARGETS], nt = 0;
	char *ts;
	if (open_targets(targets, fds, &nt, &ts))
		return 1;
	struct verify_facts v;
	memset(&v, 0, sizeof(v));
	if (gather_writes(rd, &v) < 0) {
		fprintf(stderr, "%s: %s\n", result, reel_reader_errmsg(rd));
		return 1;
	}
	size_t mcap;
	struct sec *map = last_writers(&v, &mcap);
	uint64_t good = 0, bad = 0;
	double in = 0, out = 0;
	check_stamps(&v, map, mcap, fds, nt, &good, &bad, &in, &out);
	printf("ios=%llu\nwrites=%llu\nerrors=%llu\nstamped_pieces=%llu\nbad_pieces=%llu\n",
	       (unsigned long long)v.seq, (unsigned long long)v.writes,
	       (unsigned long long)v.errors, (unsigned long long)good, (unsigned long long)bad);
	printf("order_violations=%llu\n", (unsigned long long)v.order_viol);
	printf("ratio_readback=%.4f\n", out > 0 ? in / out : 0.0);
	printf("issue_p50_ns=%lld\nissue_p99_ns=%lld\n", (long long)quant(v.ierr, v.nios, 0.5),
	       (long long)quant(v.ierr, v.nios, 0.99));
	print_replay_meta(rd);
	printf("complete=%d\n", reel_reader_complete(rd));
	reel_reader_close(rd);
	free(v.wv);
	free(v.wr);
	free(map);
	free(v.ierr);
	free(ts);
	return 0;
}

/*
 * depcheck TRACE RESULT: the result replays the trace record for record (no
 * skips); count I/Os issued before an I/O that, in the trace, completed
 * before they were queued had completed in the replay.
 */
struct dep {
	int64_t oc, rc; /* original completion, replay completion */
};
static int cmp_dep(const void *a, const void *b)
{
	const struct dep *x = a, *y = b;
	return x->oc < y->oc ? -1 : x->oc > y->oc;
}

static int depcheck(const char *trace, const char *result)
{
	struct reel_reader *a, *b;
	if (reel_reader_open(&a, trace, 0) < 0 || reel_reader_open(&b, result, 0) < 0)
		return 1;
	size_t n = 0, cap = 1 << 16;
	int64_t *oq = malloc(cap * sizeof(*oq)), *ri = malloc(cap * sizeof(*ri));
	struct dep *d = malloc(cap * sizeof(*d));
	struct reel_rec x, y;
	while (reel_read(a, &x) == 1) {
		if (reel_read(b, &y) != 1 || x.offset != y.offset || x.length != y.length) {
			fprintf(stderr, "record %zu: result does not follow the trace\n", n);
			return 1;
		}
		if (n == cap) {
			cap *= 2;
			oq = realloc(oq, cap * sizeof(*oq));
			ri = realloc(ri, cap * sizeof(*ri));
			d = realloc(d, cap * sizeof(*d));
		}
		oq[n] = x.queue_ns;
		ri[n] = y.issue_ns;
		d[n] = (struct dep){x.complete_ns, y.complete_ns};
		n++;
	}
	qsort(d, n, sizeof(*d), cmp_dep);
	/* sweep in queue order: parents are those with oc < oq[i] */
	size_t k = 0, viol = 0;
	int64_t maxrc = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		while (k < n && d[k].oc < oq[i])
			maxrc = d[k].rc > maxrc ? d[k].rc : maxrc, k++;
		if (maxrc > ri[i])
			viol++;
	}
	printf("ios=%zu\ndep_violations=%zu\n", n, viol);
	reel_reader_close(a);
	reel_reader_close(b);
	free(oq);
	free(ri);
	free(d);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* distinct FILE: 4 KiB pieces that are not all zero, and how many differ */
static int distinct(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 1;
	size_t cap = 1 << 16, n = 0;
	uint64_t *h = malloc(cap * sizeof(*h));
	unsigned char b[4096];
	while (fread(b, 1, sizeof(b), f) == sizeof(b)) {
		uint64_t x = 1469598103934665603ull, nz = 0;
		for (size_t i = 0; i < sizeof(b); i++) {
			x = (x ^ b[i]) * 1099511628211ull;
			nz |= b[i];
		}
		if (!nz)
			continue;
		if (n == cap)
			h = realloc(h, (cap *= 2) * sizeof(*h));
		h[n++] = x;
	}
	fclose(f);
	qsort(h, n, sizeof(*h), cmp_u64);
	size_t d = n ? 1 : 0;
	for (size_t i = 1; i < n; i++)
		d += h[i] != h[i - 1];
	printf("pieces=%zu\ndistinct=%zu\n", n, d);
	free(h);
	return 0;
}

/* self test: a generated trace reads back as generated */
static int test_generated_trace_reads_back(void)
{
	char path[] = "/tmp/ioreel-tool-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	char *a[] = {"n=5000", "rw=mix:50", "bs=4096:16384", "devs=2", "flush=100"};
	CHECK(gen(path, 5, a) == 0);
	struct reel_reader *rd;
	CHECK(reel_reader_open(&rd, path, 0) == 0);
	struct reel_rec r;
	uint64_t n = 0, flushes = 0, writes = 0;
	int64_t lastq = -1;
	while (reel_read(rd, &r) == 1) {
		CHECK(r.queue_ns > lastq);
		lastq = r.queue_ns;
		CHECK_EQ(r.dev, n % 2);
		if (r.op == REEL_OP_FLUSH)
			flushes++;
		else
			CHECK(r.length >= 4096 && r.length <= 16384 && r.offset % 16384 == 0);
		writes += r.op == REEL_OP_WRITE;
		n++;
	}
	CHECK_EQ(n, 5000);
	CHECK_EQ(flushes, 50);
	CHECK(writes > 2000 && writes < 3000);
	reel_reader_close(rd);
	unlink(path);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "depcheck"))
		return depcheck(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "distinct"))
		return distinct(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "gen"))
		return gen(argv[2], argc - 3, argv + 3);
	if (argc == 4 && !strcmp(argv[1], "verify"))
		return verify(argv[2], argv[3]);
	if (argc > 1) {
		fprintf(stderr, "usage: %s gen OUT.reel k=v... | verify RESULT.reel TARGETS\n",
			argv[0]);
		return 2;
	}
	return test_generated_trace_reads_back();
}
