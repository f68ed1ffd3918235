/*
 * tests/unit/unit_model.h - what the model tests share to build a trace in
 * code, generate from a fitted model and read a comparison's checks.
 * Each helper stops the test (exit 1, via CHECK) when a call fails.
 */
#ifndef IOREEL_UNIT_MODEL_H
#define IOREEL_UNIT_MODEL_H
#include <stdio.h>
#include <string.h>

#include "formats/reel_internal.h"
#include "model/model.h"
#include "tests/unit/unit.h"

/* An empty trace of one 1 GiB device called name. */
static inline void unit_model_trace_one(struct model_trace *tr, const char *name)
{
	memset(tr, 0, sizeof(*tr));
	tr->ndev = 1;
	snprintf(tr->devs[0].name, sizeof(tr->devs[0].name), "%s", name);
	tr->devs[0].capacity = 1ull << 30;
}

/* A hash of every record M makes with O (FNV-1a over the records' bytes)
 * and their count in *N, with gen's SIMD paths off when PLAIN
 * (reel_codec_plain) and on again after. */
static inline uint64_t unit_model_records_hash(const struct model *m,
					       const struct model_gen_opts *o, int plain, size_t *n)
{
	reel_codec_plain(plain);
	struct model_gen *g;
	CHECK(model_gen_create(&g, m, o) == 0);
	uint64_t h = 1469598103934665603ull;
	struct reel_rec r;
	*n = 0;
	for (;;) {
		memset(&r, 0, sizeof(r));
		if (model_gen_next(g, &r) != 1)
			break;
		const unsigned char *b = (const unsigned char *)&r;
		for (size_t i = 0; i < sizeof(r); i++)
			h = (h ^ b[i]) * 1099511628211ull;
		++*n;
	}
	model_gen_destroy(g);
	reel_codec_plain(0);
	return h;
}

/* Append a 4 KiB I/O of op queued at t ns at offset off of device dev. */
static inline void unit_model_push_op(struct model_trace *tr, int64_t t, uint16_t dev, int op,
				      uint64_t off)
{
	struct reel_rec r = {0};
	r.queue_ns = t;
	r.op = (uint8_t)op;
	r.length = 4096;
	r.offset = off;
	r.dev = dev;
	r.has = REEL_HAS_QUEUE | REEL_HAS_DEV;
	CHECK(model_trace_push(tr, &r) == 0);
}

/* Append a 4 KiB read queued at t ns at offset off of device dev. */
static inline void unit_model_push(struct model_trace *tr, int64_t t, uint16_t dev, uint64_t off)
{
	unit_model_push_op(tr, t, dev, REEL_OP_READ, off);
}

/* Load the fuzz corpus' model NAME (tests/fuzz/corpus/model_json/NAME.json,
 * the tests run from the tree's top) into m; the test fails with the
 * loader's message when it cannot. */
static inline void unit_model_load_corpus(struct model *m, const char *name)
{
	char path[256], err[600];
	snprintf(path, sizeof(path), "tests/fuzz/corpus/model_json/%s.json", name);
	if (model_load_file(m, path, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
}

/* Fit m to tr with the default options (the test fails with the fit's
 * message when it cannot); the caller frees m with model_free(). */
static inline void unit_model_fit(struct model *m, const struct model_trace *tr)
{
	char err[512];
	struct model_fit_opts fo = {0, 0};
	if (model_fit(m, tr, &fo, err, sizeof(err))) {
		fprintf(stderr, "model_fit: %s\n", err);
		exit(1);
	}
}

/* Generate from m with o into out (set up here, sorted; the caller frees
 * it with model_trace_free()). */
static inline void unit_model_gen(const struct model *m, const struct model_gen_opts *o,
				  struct model_trace *out)
{
	struct model_gen *g;
	memset(out, 0, sizeof(*out));
	CHECK(model_gen_create(&g, m, o) == 0);
	struct reel_rec r;
	while (model_gen_next(g, &r) == 1)
		CHECK(model_trace_push(out, &r) == 0);
	model_gen_destroy(g);
	CHECK(model_trace_sort(out) == 0);
}

/* m's MODEL.json text (plain) into *text, *len its length; the caller
 * frees *text. */
static inline void unit_model_json(const struct model *m, char **text, size_t *len)
{
	*text = NULL;
	FILE *f = open_memstream(text, len);
	CHECK(f != NULL);
	CHECK(model_write_json(m, f) == 0);
	CHECK(fclose(f) == 0);
}

/* m written as MODEL.json (its text into *text, *len its length; the
 * caller frees it) and read back into *r (the caller frees it with
 * model_free): a read that fails prints its error and fails the test. */
static inline void unit_model_reread(const struct model *m, struct model *r, char **text,
				     size_t *len)
{
	char err[512];
	unit_model_json(m, text, len);
	if (model_read_json(r, *text, *len, err, sizeof(err))) {
		fprintf(stderr, "model_read_json: %s\n", err);
		exit(1);
	}
}

/* TR's fit as gen sees it: fitted, written as MODEL.json and read back
 * into M (the caller frees it with model_free()). */
static inline void unit_model_fit_read(const struct model_trace *tr, struct model *m)
{
	struct model f;
	char *text;
	size_t len;
	unit_model_fit(&f, tr);
	unit_model_reread(&f, m, &text, &len);
	free(text);
	model_free(&f);
}

/* TEXT (LEN bytes), a MODEL.json spoiled on purpose, refused by the
 * reader with an error naming PATH (WHAT: the spoiling, printed with the
 * error). */
static inline void unit_model_refused(const char *text, size_t len, const char *path,
				      const char *what)
{
	char err[512];
	struct model r;
	CHECK(model_read_json(&r, text, len, err, sizeof(err)) != 0);
	printf("%s: %s\n", what, err);
	CHECK(strstr(err, path) != NULL);
}

/* The check called name of a comparison; a test without it fails. */
static inline const struct model_check *unit_model_check(const struct model_cmp *c,
							 const char *name)
{
	for (size_t i = 0; i < c->nchecks; i++)
		if (!strcmp(c->check[i].name, name))
			return &c->check[i];
	fprintf(stderr, "no check %s\n", name);
	exit(1);
}
#ifdef IOREEL_MODEL_GEN_INTERNAL_H
/* A check of one device's placing state; RS is the check's own random
 * state. */
typedef void unit_dev_check(const struct model_devspace *dv, const struct devstate *s,
			    uint64_t *rs);

/* Generate from the corpus model NAME (SEED, rate 4, CAPACITY) up to
 * 20,000 I/O, CHECK on every device's state before the I/O K where
 * K % EVERY == FIRST (K from 1), and (TOUCHED) the generator keeps a
 * touched set; the I/O count generated. */
static inline uint64_t unit_model_gen_checked_if(const char *name, uint64_t capacity, uint64_t seed,
						 uint64_t rs, int every, int first, int touched,
						 unit_dev_check *check)
{
	struct model m;
	unit_model_load_corpus(&m, name);
	struct model_gen *g;
	struct model_gen_opts o = {.seed = seed, .rate = 4, .capacity = capacity};
	CHECK(model_gen_create(&g, &m, &o) == 0);
	uint64_t n = 0;
	struct reel_rec rec;
	for (int k = 1;; k++) {
		if (k % every == first && (!touched || g->touched))
			for (size_t d = 0; d < m.ndevs; d++)
				check(&m.devs[d], &g->ds[d], &rs);
		if (model_gen_next(g, &rec) != 1 || ++n >= 20000)
			break;
	}
	model_gen_destroy(g);
	model_free(&m);
	return n;
}
/* reserved's answer for [OFF, OFF + SPAN): whether it meets a kept long
 * run still to come, asked run by run (the reference of the tests of
 * reserved, scan_untouched and the dense asks). */
static inline int unit_model_ref_reserved(const struct model_devspace *dv, const struct devstate *s,
					  uint64_t off, uint64_t span)
{
	double x = (double)off, e = (double)off + (double)span;
	int hit = 0;
	for (uint32_t j = s->lnext; j < dv->nlong; j++)
		hit |= (x < s->lr_hi[j]) & (e > s->lr_lo[j]);
	return hit;
}
/* unit_model_gen_checked_if on every generator. */
static inline uint64_t unit_model_gen_checked(const char *name, uint64_t capacity, uint64_t seed,
					      uint64_t rs, int every, int first,
					      unit_dev_check *check)
{
	return unit_model_gen_checked_if(name, capacity, seed, rs, every, first, 0, check);
}

/* Random rows of a region chain for D (its nregions set), into TO and P
 * (nregions^2 entries at most): rows of 0 entries, of 1, of up to
 * nregions; shares of 0 (ties in the sums); a row's cumulated shares
 * ending at 1 (SET % 3) or just below it; every 8th set a row's second
 * share going down (a walk, not a search). */
static inline void unit_model_chain_rows(struct model_devspace *d, uint16_t *to, double *p,
					 uint64_t *rs, int set)
{
	d->tr_to = to;
	d->tr_p = p;
	for (uint32_t r = 0, n = 0; r < d->nregions; r++) {
		double u = unit_urand(rs), c = 0;
		uint32_t len = u < 0.1 ? 0 : u < 0.2 ? 1 : 1 + (uint32_t)(u * d->nregions);
		d->row[r] = n;
		for (uint32_t x = 0; x < len; x++, n++) {
			double q = unit_urand(rs);
			c += q < 0.15 ? 0 : q;
			p[n] = c;
			to[n] = (uint16_t)(unit_urand(rs) * d->nregions);
		}
		c = c > 0 ? c : 1; /* a row of shares of 0 */
		for (uint32_t x = d->row[r]; x < n; x++)
			p[x] = x + 1 == n && set % 3 ? 1 : p[x] / (set % 3 ? c : c * (1 + 1e-5));
		if (set % 8 == 7 && len > 2)
			p[d->row[r] + 1] = p[d->row[r]] * 0.5;
		d->row[r + 1] = n;
	}
}

/* D cleared, then a random device of chain_op's: 1-24 regions (every 4th
 * SET up to MODEL_MAX_REGIONS), read shares of 0, 1 or between, and its
 * chain's rows (unit_model_chain_rows) into TO and P. */
static inline void unit_model_chain_device(struct model_devspace *d, uint16_t *to, double *p,
					   uint64_t *rs, int set)
{
	memset(d, 0, sizeof(*d));
	d->nregions = 1 + (uint32_t)(unit_urand(rs) * (set % 4 ? 24 : MODEL_MAX_REGIONS));
	d->read_share_fitted = 1;
	for (uint32_t r = 0; r < d->nregions; r++) {
		double u = unit_urand(rs);
		d->read_share[r] = u < 0.2 ? 0 : u < 0.4 ? 1 : (float)unit_urand(rs);
	}
	unit_model_chain_rows(d, to, p, rs, set);
}

/* TEST on each of the corpus models the placing tests walk, with no
 * capacity given and with 3 GiB. */
static inline void unit_model_gen_each(void (*test)(const char *name, uint64_t capacity))
{
	const char *names[] = {"boot_nspawn_local_odds",
			       "compile_read_share",
			       "disksim_16dev",
			       "disksim_seg_weights",
			       "fiu_2phases",
			       "blktrace_one_phase",
			       "msr_1phase"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		test(names[i], 0);
		test(names[i], 3ull << 30);
	}
}
/* A hashed touched set T emptied, then FILL of its bits set at random
 * (some set twice): the sets the touched-set tests look at. */
static inline void unit_touch_fill(uint64_t *t, double fill, uint64_t *rs)
{
	memset(t, 0, TOUCH_BYTES);
	uint64_t nbits = (uint64_t)(fill * (double)(1ull << TOUCH_BITS));
	for (uint64_t i = 0; i < nbits; i++) {
		uint64_t s = (uint64_t)(unit_urand(rs) * (double)(1ull << TOUCH_BITS));
		t[s >> 6] |= 1ull << (s & 63);
	}
}
#endif

#endif
