/*
 * model/gen_space.c - where each generated I/O goes and how large it is:
 * per device, sequential runs (their lengths by the region they start in),
 * run starts by local jumps (kept in the trace's extents) or remote jumps
 * (a Markov chain over regions, the position where the trace's offsets
 * fall), re-use of touched blocks as the model's share; request sizes
 * given whether the I/O continues a run.  MODEL.md says why each is so
 * (HISTORY.md: what each was measured against, and what was dropped).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/gen_internal.h"

static void run_tilt(const struct model_devspace *dv, struct devstate *s);
static uint32_t region_search(const struct model_devspace *d, double scale, uint64_t a);
static void region_lut_init(const struct model_devspace *d, struct devstate *s);
static inline uint32_t cum_count(const double *w, uint32_t lo, uint32_t n, double u);
static int chain_guide_init(const struct model_devspace *d, struct devstate *s);
static int cold_init(const struct model_devspace *d, struct devstate *s);
static float run_cap(const struct model_devspace *dv);
static int reserved(const struct model_devspace *dv, const struct devstate *s, uint64_t off,
		    uint64_t span);
static inline __attribute__((always_inline)) int64_t
run_length(const struct model_devspace *dv, struct devstate *s, double u, int64_t r);
static double run_exp(const struct model_devspace *dv, const struct devstate *s, uint32_t t);
static int64_t run_reused(const struct model_devspace *dv, struct devstate *s, double u, int op);
static int pool_later(const struct model_gen *g, int op, uint32_t len);
static int scan_untouched(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
			  uint64_t from, uint64_t len, uint64_t al, uint64_t far, uint64_t *at);
static uint64_t reserved_end(const struct model_devspace *dv, const struct devstate *s,
			     uint64_t off, uint64_t span);
static int long_due(const struct model_devspace *dv, struct devstate *s);
static int scan_fresh(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		      uint64_t lo, uint64_t hi, uint64_t len, uint64_t al, uint64_t *at);
static int room_up(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		   uint32_t r, uint64_t len, uint64_t span, uint64_t al, uint64_t *at);

/* Whether a start of LEN bytes at AT, its run spanning SPAN bytes, keeps
 * off the kept runs still to come and the dense stretches.  Most starts
 * that reserved lets by are nowhere near a dense one (git's model x2986:
 * 154k of gen_offsets_dense's two CDFs in 300k I/O, 53 M instructions;
 * the bucket's byte says so first).  Inline always: with the byte, GCC
 * made it a call (git 0.7% more instructions). */
static inline __attribute__((always_inline)) int start_clear(const struct model_devspace *dv,
							     const struct devstate *s, uint64_t at,
							     uint64_t len, uint64_t span)
{
	return !reserved(dv, s, at, span) && !gen_offsets_dense(dv, s, at, len);
}

/* X down to the device's grid AL (dv->align, or 1): a power of two (fit
 * makes it one, the reader checks it), so X / AL * AL, without the 64-bit
 * division (40-odd cycles; start_early's was on the way to the touched
 * word's prefetch, 4% of the placing thread). */
static inline uint64_t al_down(uint64_t x, uint64_t al) { return x & ~(al - 1); }

/* The size CDF of a run start (SEQ 0) or a run's next I/O (1): the op's
 * knots, each segment weighted by its share of either kind. */
static void seq_dist(struct model_dist *out, const struct model_dist *d, const float *share,
		     int seq)
{
	memset(out, 0, sizeof(*out));
	double c = 0;
	out->v[0] = d->v[0];
	for (uint32_t k = 0; k + 1 < d->nk; k++) {
		double w = seq ? share[k] : 1 - share[k];
		c += (d->c[k + 1] - d->c[k]) * (w > 0 ? w : 0);
		out->v[k + 1] = d->v[k + 1];
		out->c[k + 1] = c;
	}
	if (!(c > 1e-9))
		return; /* none of this kind: the op's sizes alone */
	for (uint32_t k = 1; k < d->nk; k++)
		out->c[k] = out->c[k] / c < 1 ? out->c[k] / c : 1;
	out->c[d->nk - 1] = 1;
	out->nk = d->nk;
	out->n = (uint64_t)((double)d->n * c + 0.5); /* the I/O of this kind */
	for (uint32_t k = 0; k + 1 < d->nk; k++)     /* the knots' mean: a run's I/O size */
		out->mean += (out->c[k + 1] - out->c[k]) * (out->v[k] + out->v[k + 1]) / 2;
	model_dist_prepare(out);
}

static int seq_sizes_init(struct model_gen *g)
{
	const struct model *m = g->m;
	if (!m->nphases || !m->phases[0].seq_fitted) /* every phase or none */
		return 0;
	if (!(g->csize = calloc(m->nphases, sizeof(*g->csize))) ||
	    !(g->seq_want = calloc(m->nphases, sizeof(*g->seq_want))) ||
	    !(g->seq_seen = calloc(m->nphases, sizeof(*g->seq_seen))) ||
	    !(g->seq_cont = calloc(m->nphases, sizeof(*g->seq_cont))))
		return -1;
	for (size_t p = 0; p < m->nphases; p++)
		for (int o = 0; o < REEL_OP__COUNT; o++) {
			const struct model_dist *d = &m->phases[p].size[o];
			g->seq_want[p][o] = -1; /* unknown: the runs decide alone */
			if (d->nk < 2)
				continue;
			for (int k = 0; k < 2; k++)
				seq_dist(&g->csize[p][o][k], d, m->phases[p].seq_share[o], k);
			double w = 0;
			for (uint32_t k = 0; k + 1 < d->nk; k++)
				w += (d->c[k + 1] - d->c[k]) * m->phases[p].seq_share[o][k];
			g->seq_want[p][o] = w;
		}
	for (size_t p = 0; p < m->nphases; p++)
		for (int o = 0; o < REEL_OP__COUNT; o++) /* continues' answer */
			g->seq_cont[p][o] = !(g->seq_want[p][o] >= 0 && g->seq_want[p][o] < 0.05);
	return 0;
}

static double size_inv(const struct model_gen *g, size_t p, int op, double u, uint32_t k);

/* A new block of phase P's quota of OP: each stratum a run start's or a
 * run's next I/O's by one systematic draw along the CDF (the kinds'
 * counts by the model's shares of run continuations there; all run
 * starts without them), each kind's strata in a random order. */
static void quota_block(struct model_gen *g, struct quota *q)
{
	double u = rnd_sz(g);
	int64_t fprev = 0; /* floor(c + u) of the stratum before (c = 0, u < 1) */
	uint32_t n = q->n, i = 0, j = n;
	for (uint32_t s = 0; s < n; s++) { /* the label in bit 15 */
		/* floor(c n + u) in integers: c n in [0, n] (quota_cn) */
		double y = q->cn[s] + u;
		int64_t f = (int64_t)y;
		f -= (double)f > y;
		q->perm[s] = (uint16_t)(s | (f > fprev) << 15);
		fprev = f;
	}
	while (i < j) { /* starts to the front */
		if (q->perm[i] >> 15) {
			uint16_t t = q->perm[--j];
			q->perm[j] = q->perm[i];
			q->perm[i] = t;
		} else {
			i++;
		}
	}
	q->end0 = i;
	for (int h = 0; h < 2; h++) {
		uint32_t lo = h ? q->end0 : 0, m = h ? n - q->end0 : q->end0;
		for (uint32_t r = m; r > 1; r--) {
			uint32_t x = quota_mod(next64_sz(g), r, g->quota_mul[r]);
			uint16_t t = q->perm[lo + r - 1];
			q->perm[lo + r - 1] = q->perm[lo + x];
			q->perm[lo + x] = t;
		}
	}
	memset(q->left, 0, 2 * q->nw * sizeof(*q->left));
	for (uint32_t s = 0; s < n; s++) {
		uint32_t x = q->perm[s] &= 0x7fff, w = (s >= q->end0) * q->nw + x / 64;
		q->inv[x] = (uint16_t)s;
		q->left[w] |= 1ull << (x % 64);
	}
	q->pos[0] = 0;
	q->pos[1] = q->end0;
}

/* Of the strata set in W (bits), the last at or below A and at or above
 * LO (-1: none; LO >= 0): the unread words' too (gen_unread_near). */
static int64_t left_below(const uint64_t *w, int64_t lo, int64_t a)
{
	if (a < lo)
		return -1;
	int64_t i = a / 64, x;
	uint64_t m = w[i] & (~0ull >> (63 - a % 64));
	while (!m && i > lo / 64)
		m = w[--i];
	x = m ? i * 64 + 63 - __builtin_clzll(m) : -1;
	return x >= lo ? x : -1;
}

/* The first bit set in W at or above B, under N (-1: none): the strata
 * left, the unread granules (unread_up). */
static int64_t left_above(const uint64_t *w, uint32_t n, int64_t b)
{
	if (b >= (int64_t)n)
		return -1;
	int64_t i = b / 64, nw = ((int64_t)n + 63) / 64;
	uint64_t m = w[i] & (~0ull << (b % 64));
	while (!m && i + 1 < nw)
		m = w[++i];
	return m ? i * 64 + __builtin_ctzll(m) : -1;
}

/* A point of phase P's size CDF of OP in its stratum I for an I/O of kind
 * SEQ (UINT32_MAX: anywhere): with the density of the kind's share there
 * (uniform where the kind has none, and without the model's shares). */
#define QUOTA_ONE 0x8000u /* quota_knots: the stratum in one stretch */
/* quota_at's point of a stratum [A, B) inside one stretch, of weight W
 * there (quota_draw asks it itself: nearly every draw's stratum). */
static inline double quota_one(struct model_gen *g, double a, double b, double w)
{
	double pw = b > a && w > 0 ? (b - a) * w : 0, x = rnd_sz(g) * pw;
	if (!(pw > 0))
		return a + rnd_sz(g) * (b - a);
	return x < pw ? a + (b - a) * x / pw : b;
}
static double quota_at(struct model_gen *g, size_t p, int op, int seq, uint32_t i)
{
	const struct model_dist *d = &g->m->phases[p].size[op];
	const float *share = g->m->phases[p].seq_share[op];
	const struct quota *q = &g->s_size[p * REEL_OP__COUNT + (size_t)op];
	uint32_t n = q->n, k0;
	double a = i < n ? q->at[i] : 0, b = i < n ? q->at[i + 1] : 1, tot = 0;
	if (q->uniform)
		return a + rnd_sz(g) * (b - a);
	k0 = q->knot[i < n ? i : 0]; /* the last knot with c <= a (quota_knots) */
	/* the stratum inside one stretch (quota_knots): the loops below in
	 * short, the same draws and the same arithmetic */
	if (k0 & QUOTA_ONE && i < n)
		return quota_one(g, a, b,
				 seq ? share[k0 & ~QUOTA_ONE] : 1 - share[k0 & ~QUOTA_ONE]);
	k0 &= ~QUOTA_ONE;
	if (i >= n) { /* anywhere: the second pass alone, over the weights made once */
		double x = rnd_sz(g) * q->any_tot[seq];
		if (!(q->any_tot[seq] > 0))
			return a + rnd_sz(g) * (b - a);
		return quota_any_walk(d, q->any_w[seq], q->any_k[seq], q->any_n[seq], x);
	}
	for (int pass = 0; pass < 2; pass++) {
		double x = pass ? rnd_sz(g) * tot : 0;
		if (pass && !(tot > 0))
			break;
		for (uint32_t j = k0; j + 1 < d->nk && d->c[j] < b; j++) {
			double lo, hi, pw = quota_weight(d, share, seq, j, a, b, &lo, &hi);
			if (!pass)
				tot += pw;
			else if (x < pw)
				return lo + (hi - lo) * x / pw;
			else
				x -= pw;
		}
		if (pass)
			return b;
	}
	return a + rnd_sz(g) * (b - a);
}

/* Of kind K's strata still to come in Q, the one nearest T (below and
 * above it, the nearer, the one below on a tie: as a walk outward from T
 * would meet them; each one's place in the block in inv) taken: moved to
 * the kind's next place.  Its index. */
static uint32_t quota_take(struct quota *q, int k, double t)
{
	uint32_t lo = q->pos[k];
	uint64_t *w = q->left + (size_t)k * q->nw;
	int64_t a = (int64_t)floor(t), ra = left_above(w, q->n, a + 1);
	int64_t lb = left_below(w, 0, a < (int64_t)q->n ? a : (int64_t)q->n - 1);
	int64_t x = lb >= 0 && (ra < 0 || t - (double)lb <= (double)ra - t) ? lb : ra;
	w[x / 64] &= ~(1ull << (x % 64));
	uint32_t at = q->inv[x];
	q->perm[at] = q->perm[lo];
	q->inv[q->perm[at]] = (uint16_t)at;
	q->perm[lo] = (uint16_t)x;
	q->inv[x] = (uint16_t)lo;
	q->pos[k]++;
	return (uint32_t)x;
}

/* Or'ed into quota_near's and quota_near_of's SEQ (0 or 1): the stratum
 * of SEQ's kind alone, never the other's where it is nearer (size_own). */
#define QUOTA_OWN_KIND 2
/* Or'ed into quota_draw's SEQ: where the kind's strata are drawn out, a
 * point of its own CDF, never the other kind's stratum (a run's next I/O
 * in a model with a device of sizes of its own: seq_fresh). */
#define QUOTA_FRESH 4

/* The stratum of Q (of either kind, or of SEQ's alone with QUOTA_OWN_KIND
 * or'ed in) left nearest the size SZ of phase P's OP, where it is within
 * 10% of SZ: its kind in *K and the point T to take it at (quota_take); 0
 * if none. */
static int quota_near_of(struct model_gen *g, struct quota *q, size_t p, int op, int seq, double sz,
			 int *kp, double *tp)
{
	const struct model_dist *d = &g->m->phases[p].size[op];
	double below = 0, at = 0, t, dk[2];
	int64_t xk[2];
	int own = seq & QUOTA_OWN_KIND;
	seq &= 1;
	model_dist_cdf(d, sz, &below, &at);
	t = (below + at) / 2 * q->n - 0.5;
	for (int k = 0; k < 2; k++) { /* each kind's nearest still to come */
		const uint64_t *w = q->left + (size_t)k * q->nw;
		int64_t a = (int64_t)floor(t), ra = left_above(w, q->n, a + 1);
		int64_t lb = left_below(w, 0, a < (int64_t)q->n ? a : (int64_t)q->n - 1);
		dk[k] =
		    fmin(lb >= 0 ? t - (double)lb : INFINITY, ra >= 0 ? (double)ra - t : INFINITY);
		xk[k] = lb >= 0 && dk[k] == t - (double)lb ? lb : ra;
	}
	int k = !own && dk[!seq] < dk[seq] ? !seq : seq; /* the nearer kind, its own on a tie */
	if (!(dk[k] < INFINITY))
		return 0;
	/* none of its size left (the other I/O drew them first): none taken,
	 * rather than a size the other I/O then lack (within a factor 2:
	 * checks out on boot and compile over seeds 1-16 24; 1.25: 21, 1.1:
	 * 19, 1.01: 21) */
	double near = size_inv(g, p, op, ((double)xk[k] + 0.5) / q->n, UINT32_MAX);
	*kp = k;
	*tp = t;
	return near <= GEN_PASS_NEAR * sz && GEN_PASS_NEAR * near >= sz;
}

/* The model's addressed I/O (every op but flushes) of window W. */
static double win_addressed(const struct model *m, size_t w)
{
	double c = 0;
	for (int o = 0; o < REEL_OP__COUNT; o++)
		c += o != REEL_OP_FLUSH ? (double)m->win_ops[w * REEL_OP__COUNT + o] : 0;
	return c;
}

/* The window that held pass I/O IO of device DV: the one where the
 * model's addressed I/O (ALL of them), counted window by window, reach its
 * place among the device's (the device's share of each window taken as
 * even; exact on one device); its place and I/O of IO's op in *PW. */
static void pass_window(const struct model *m, const struct model_devspace *dv,
			const struct model_pass_io *io, double all, struct gen_pass_win *pw)
{
	double at, c = 0;
	at = dv->pass_n ? ((double)io->at + 0.5) / (double)dv->pass_n * all : 0;
	size_t w = 0;
	for (; w + 1 < m->nwin && c + win_addressed(m, w) < at; w++)
		c += win_addressed(m, w);
	pw->win = (uint32_t)w;
	pw->from = c;
	pw->nop = 0;
	for (int o = 0; o < REEL_OP__COUNT && w < m->nwin; o++)
		if (o != REEL_OP_FLUSH && (o != REEL_OP_READ) == io->write)
			pw->nop += (double)m->win_ops[w * REEL_OP__COUNT + o];
	pw->rem = 1;
}

/* A new block's strata for the re-use pass's I/O of OP it is to hold
 * (resv_want: the pass's share of the op's I/O, of a block's): each pass
 * I/O's nearest within 10%, taken while the block is whole.  Taken when
 * the pass's I/O came, the late ones found only the large strata the
 * other I/O had not drawn yet, or left them to the block's end, where
 * which ones stayed was chance: compile's bytes 0.88-1.08x over seeds
 * 1-16, its 36 re-writes (28 of 4 KiB) among 296 writes of up to 2 MiB. */
static void quota_reserve(struct model_gen *g, struct quota *q, size_t p, int op)
{
	const struct model *m = g->m;
	uint32_t tot = 0, want = q->resv_want, i = 0;
	int w = op != REEL_OP_READ;
	size_t j = 0;
	q->resv_n = 0;
	for (size_t d = 0; d < m->ndevs; d++)
		for (uint32_t k = 0; k < m->devs[d].npass; k++, j++)
			tot += m->devs[d].pass[k].write == w && g->pass_ph[j] == p;
	if (!want || !tot || m->phases[p].size[op].nk < 2)
		return;
	j = 0;
	for (size_t d = 0; d < m->ndevs; d++)
		for (uint32_t k = 0; k < m->devs[d].npass; k++, j++) {
			const struct model_pass_io *io = &m->devs[d].pass[k];
			int kind;
			double t;
			if (io->write != w || g->pass_ph[j] != p)
				continue;
			/* want of the tot, evenly spread */
			if ((uint64_t)(i + 1) * want / tot > (uint64_t)i * want / tot &&
			    quota_near_of(g, q, p, op, 0, (double)io->len, &kind, &t))
				q->resv[q->resv_n++] = (uint16_t)quota_take(q, kind, t);
			i++;
		}
}

/* Q (phase P's sizes of OP) drawn out: a new block, the re-use pass's
 * strata reserved in it. */
static void quota_refill(struct model_gen *g, struct quota *q, size_t p, int op)
{
	if (q->pos[0] >= q->end0 && q->pos[1] >= q->n) {
		quota_block(g, q);
		quota_reserve(g, q, p, op);
	}
}

/* The next quota draw of phase P's sizes of OP for an I/O of kind SEQ, a
 * point of the CDF: in a stratum of its kind, or where none of them is
 * left, in the other kind's stratum nearest a point of its own kind's CDF
 * (any one gave disksim's sequential I/O the sizes of its run starts),
 * looked for outward from that point (a look over every stratum left took
 * fiu at --rate 300 6x the CPU: its runs propose more continuations than
 * its model's share, and each I/O past its kind's looked at 4,096).  The
 * point is drawn in the stratum at the density of the stratum's kind, not
 * the I/O's: so every stratum gives what the block laid out (drawn at the
 * I/O's density, a run start's 2 MiB stratum given to a run's next I/O
 * came out at the 580 KiB point mass it touches by a rounding: compile's
 * bytes 0.89-0.94x on 4 of seeds 1-128).  The stratum's knot in *K
 * (size_inv's search starts there; UINT32_MAX: anywhere).  With
 * QUOTA_FRESH or'ed into SEQ, where none of its kind is left, a fresh
 * point of its kind's CDF instead, no stratum taken (seq_fresh). */
static double quota_draw(struct model_gen *g, size_t p, int op, int seq, uint32_t *k)
{
	struct quota *q = &g->s_size[p * REEL_OP__COUNT + (size_t)op];
	uint32_t x;
	int fresh = seq & QUOTA_FRESH;
	seq &= 1;
	int kind = seq;
	quota_refill(g, q, p, op);
	/* the kind's next place and its end, loaded once: quota_take below
	 * moves the other kind's alone */
	uint32_t pos = q->pos[seq], end = seq ? q->n : q->end0;
	if (fresh && !(pos < end)) {
		*k = UINT32_MAX;
		return quota_at(g, p, op, seq, UINT32_MAX);
	}
	if (pos < end) {
		x = q->perm[pos++];
		q->pos[seq] = pos;
		q->left[seq * q->nw + x / 64] &= ~(1ull << (x % 64));
	} else {
		double t = quota_at(g, p, op, seq, UINT32_MAX) * q->n - 0.5;
		x = quota_take(q, !seq, t);
		kind = !seq;
	}
	uint32_t k0 = q->knot[x];
	*k = k0 & ~QUOTA_ONE;
	if (pos < end) { /* the kind's next stratum's, a few I/O on */
		__builtin_prefetch(&q->knot[q->perm[pos]]);
		__builtin_prefetch(&q->at[q->perm[pos]]);
	}
	if (!q->uniform && k0 & QUOTA_ONE && x < q->n) { /* quota_at's first case, here */
		const float *share = g->m->phases[p].seq_share[op];
		return quota_one(g, q->at[x], q->at[x + 1], kind ? share[*k] : 1 - share[*k]);
	}
	return quota_at(g, p, op, kind, x);
}

/* A draw of phase P's sizes of OP for an I/O of kind SEQ that is to be
 * of size SZ (the re-use pass's I/O, placed as they were): the stratum
 * nearest SZ taken, of either kind (of SEQ's alone with QUOTA_OWN_KIND
 * or'ed in: size_own), where it is within 10% of SZ (else
 * none: boot's 1-block re-writes took 17- and 43-block strata where the
 * other I/O had drawn the small ones first, and its pieces of 11-24
 * blocks the large ones its other writes lack), so the sizes drawn for
 * the other I/O keep the model's mix and bytes. */
static void quota_near(struct model_gen *g, size_t p, int op, int seq, double sz)
{
	struct quota *q = &g->s_size[p * REEL_OP__COUNT + (size_t)op];
	const struct model_dist *d = &g->m->phases[p].size[op];
	if (!q->n || d->nk < 2)
		return;
	quota_refill(g, q, p, op);
	double t;
	uint32_t best = UINT32_MAX;
	double be = INFINITY;
	for (uint32_t i = 0; i < q->resv_n; i++) { /* of those taken for the pass */
		double v = size_inv(g, p, op, ((double)q->resv[i] + 0.5) / q->n, UINT32_MAX);
		double e = fabs(log(v / sz));
		if (e < be) {
			be = e;
			best = i;
		}
	}
	if (best != UINT32_MAX && be <= log(GEN_PASS_NEAR)) {
		q->resv[best] = q->resv[--q->resv_n];
		return;
	}
	int k;
	if (quota_near_of(g, q, p, op, seq, sz, &k, &t))
		quota_take(q, k, t);
}

/* The strata of phase P's quota block of OP still to draw (0 before the
 * first block). */
static uint32_t quota_left(const struct model_gen *g, size_t p, int op)
{
	const struct quota *q = &g->s_size[p * REEL_OP__COUNT + (size_t)op];
	return q->end0 - q->pos[0] + q->n - q->pos[1];
}

/* Where size_inv draws D's largest size as itself: U from the returned
 * share on (1: nowhere).  A largest size seen once above a point mass
 * (knots v[k-3] == v[k-2] < v[k-1], the top stretch half an I/O to one of
 * the D->n: none seen in between) is drawn at its share 1 / n (taken from
 * the point mass below where the stretch holds less: knots at mid-ranks
 * give the max half its share).  Drawn along the stretch, it came out at
 * half its size (and at half its odds): boot-nspawn's one write of 844 KiB
 * among 127 of 4 KiB (211 of its 342 blocks written) went out in 2 seeds
 * of 9. */
static double size_top(const struct model_dist *d)
{
	uint32_t k = d->nk;
	if (k >= 3 && d->v[k - 3] == d->v[k - 2] && d->v[k - 2] < d->v[k - 1] &&
	    d->c[k - 2] > d->c[k - 3] && (1 - d->c[k - 2]) * (double)d->n >= 0.4 &&
	    (1 - d->c[k - 2]) * (double)d->n <= 1 + 1e-6) {
		double split = 1 - 1 / (double)d->n;
		return split > d->c[k - 3] ? split : d->c[k - 3];
	}
	return 1;
}

/* Whether D's stretch from knot K to the next is thin: it holds under one
 * of the trace's I/O, between two sizes further apart than the mean size.
 * What it holds is no spread of sizes the trace saw but a part of one I/O
 * that the CDF's coarsening laid along it (blktrace: 0.6 I/O from 148 to
 * 512 KiB, where the trace has one write of 156 KiB), and a draw along it
 * is one size anywhere there: one quota stratum of blktrace's 113
 * straddles it, and the seeds whose draw fell high in it wrote 376-408
 * KiB for it (bytes 1.057-1.077 on 4 of seeds 1-32, 0.98-0.99 on most
 * others).  Drawn at its mean (under the tilt: v0 + (v1 - v0) / (a + 1)),
 * the sizes' mean is the same and no seed's bytes hang on where one draw
 * falls.  A stretch narrower than the mean size moves the bytes by less
 * than one I/O wherever its draw falls: drawn along it, as before. */
static int stretch_thin(const struct model_dist *d, size_t k)
{
	double w = d->c[k + 1] - d->c[k];
	return w > 0 && w * (double)d->n < 1 && d->v[k + 1] - d->v[k] > d->mean;
}

/* A size of phase P's sizes of OP at U, as model_dist_inv but for a
 * largest size seen once (size_top), and inside a stretch between knots
 * at v0 + (v1 - v0) t^a for the share t of the stretch below U (a: the
 * phase's and op's tilt; 1: model_dist_inv).  K: a knot at or below U
 * (the stratum's of a quota draw: c[K] <= U) where the search starts
 * (UINT32_MAX: from the guide); the same size either way. */
static double size_inv(const struct model_gen *g, size_t p, int op, double u, uint32_t k)
{
	const struct model_dist *d = &g->m->phases[p].size[op];
	size_t ix = p * REEL_OP__COUNT + (size_t)op;
	if (d->nk >= 2 && u >= g->size_tops[ix])
		return d->v[d->nk - 1];
	if (g->size_thin[ix] > 0 && u > 0 && u < 1) { /* a stretch of under one I/O: its mean */
		size_t lo = k != UINT32_MAX ? k : d->guide[(size_t)(u * MODEL_DIST_GUIDE)];
		lo = model_dist_seek(d, u, lo > d->nk - 2 ? 0 : lo);
		if (stretch_thin(d, lo))
			return d->v[lo] + (d->v[lo + 1] - d->v[lo]) / (g->size_tilt[ix] + 1);
	}
	if (k == UINT32_MAX || d->nk < 2 || !(u > 0) || !(u < 1))
		return model_dist_inv_pow(d, u, g->size_tilt[ix]);
	if (d->v[k] == d->v[k + 1] && u < d->c[k + 1])
		return d->v[k]; /* a point mass: v0 + 0 * t, as model_dist_inv_from */
	return model_dist_inv_from(d, u, g->size_tilt[ix], k);
}

/* The exponent of each phase's and op's sizes inside their CDF's
 * stretches (size_inv) that gives the sizes drawn the trace's mean: the
 * mean of the draws is A + B / (a + 1), A from the point masses and the
 * stretches' lower ends, B from the stretches' widths; the knots stand
 * where the CDF bends, not where the sizes in a stretch fall, and a
 * stretch of a small trace is a few sizes near its lower end (blkparse's
 * 4-80 KiB stretch holds a 6 KiB and a 28 KiB write, drawn linearly at
 * 42 KiB: its sizes' mean +3.4%).  Only where the knots' mean misses the
 * trace's by 1% or more, and a mean point from 1/9 to 8/9 of the way up
 * the stretches reaches it (a in [1/8, 8]); else the miss is not the
 * stretches' (disksim's reads, 1% under: a = 1/8 moved its sizes given
 * sequentiality out of target on seed 1, asserted). */
static void size_tilt_init(struct model_gen *g)
{
	for (size_t p = 0; p < g->m->nphases; p++)
		for (int o = 0; o < REEL_OP__COUNT; o++) {
			const struct model_dist *d = &g->m->phases[p].size[o];
			double top = d->nk >= 2 ? size_top(d) : 1, A = 0, B = 0, x;
			g->size_tilt[p * REEL_OP__COUNT + (size_t)o] = 1;
			g->size_tops[p * REEL_OP__COUNT + (size_t)o] = top;
			g->size_thin[p * REEL_OP__COUNT + (size_t)o] = 0;
			for (uint32_t k = 0; k + 1 < d->nk && d->c[k] < top; k++)
				g->size_thin[p * REEL_OP__COUNT + (size_t)o] += stretch_thin(d, k);
			for (uint32_t k = 0; k + 1 < d->nk && d->c[k] < top; k++) {
				double c1 = d->c[k + 1] < top ? d->c[k + 1] : top;
				A += (c1 - d->c[k]) * d->v[k];
				B += (c1 - d->c[k]) * (d->v[k + 1] - d->v[k]);
			}
			A += (1 - top) * (d->nk ? d->v[d->nk - 1] : 0);
			if (!(B > 0) || !(d->mean > 0) ||
			    fabs(A + B / 2 - d->mean) < 0.01 * d->mean)
				continue;
			x = (d->mean - A) / B; /* 1 / (a + 1) */
			if (x >= 1.0 / 9 && x <= 8.0 / 9)
				g->size_tilt[p * REEL_OP__COUNT + (size_t)o] = 1 / x - 1;
		}
}

/* The re-use passes' I/O over all devices; *ALL the model's addressed I/O. */
static size_t pass_count(const struct model *m, double *all)
{
	size_t np = 0;
	for (size_t d = 0; d < m->ndevs; d++)
		np += m->devs[d].npass;
	*all = 0;
	for (size_t w = 0; w < m->nwin; w++)
		*all += win_addressed(m, w);
	return np;
}

/* The re-use passes' I/O's windows and phases (g->pass_win, g->pass_ph):
 * 0, or -1 without memory. */
static int pass_wins_init(struct model_gen *g)
{
	const struct model *m = g->m;
	size_t j = 0;
	double all;
	size_t np = pass_count(m, &all);
	if (np && (!(g->pass_ph = malloc(np * sizeof(*g->pass_ph))) ||
		   !(g->pass_win = malloc(np * sizeof(*g->pass_win)))))
		return -1;
	for (size_t d = 0; d < m->ndevs; d++) {
		struct gen_pass_win *pw = g->pass_win + j;
		const struct model_pass_io *io = m->devs[d].pass;
		for (uint32_t k = 0; k < m->devs[d].npass; k++, j++) {
			pass_window(m, &m->devs[d], &io[k], all, &pw[k]);
			g->pass_ph[j] = m->nwin ? m->win_phase[pw[k].win] : 0;
		}
		for (uint32_t k = m->devs[d].npass; k-- > 0;) /* the op's in the window after it */
			for (uint32_t x = k + 1; x < m->devs[d].npass && pw[x].win == pw[k].win;
			     x++)
				if (io[x].write == io[k].write) {
					pw[k].rem = pw[x].rem + 1;
					break;
				}
	}
	return 0;
}

/* Each phase's and op's count of the re-use pass's I/O a quota block
 * holds: the pass's I/O of the op in the phase per I/O of the op of the
 * phase in the model, times the block's, at most a third. */
static int quota_resv_init(struct model_gen *g)
{
	const struct model *m = g->m;
	size_t j = 0;
	if (pass_wins_init(g))
		return -1;
	for (size_t p = 0; p < m->nphases; p++)
		for (int o = 0; o < REEL_OP__COUNT; o++) {
			struct quota *q = &g->s_size[p * REEL_OP__COUNT + (size_t)o];
			double own = 0, n = 0;
			for (size_t w = 0; w < m->nwin; w++)
				own +=
				    m->win_phase[w] == p ? m->win_ops[w * REEL_OP__COUNT + o] : 0;
			j = 0;
			for (size_t d = 0; d < m->ndevs; d++)
				for (uint32_t k = 0; k < m->devs[d].npass; k++, j++)
					n += m->devs[d].pass[k].write == (o != REEL_OP_READ) &&
					     g->pass_ph[j] == p;
			double x = own > 0 ? floor(n / own * q->n + 0.5) : 0;
			q->resv_want = (uint32_t)(x < q->n ? x : q->n);
		}
	return 0;
}

/* The re-use pass's I/O as places among their window's addressed
 * arrivals (its place as pass_window counts it, less the window's first,
 * times the rate), sorted: the arrivals' side puts an I/O of the pass's
 * op there (pin_ops), so that each comes at its index.  The window's ops
 * are drawn in an order of their own, and a pass I/O waited for the next
 * of its op: boot's probe (48 reads going back 329-334 I/O) came 2-16 I/O
 * late on one seed in eight, behind its window's burst of writes drawn
 * first, and its reuse-distance KS went out (0.12-0.19 at 334). */
static int pass_pins_init(struct model_gen *g)
{
	const struct model *m = g->m;
	size_t j = 0;
	double all;
	size_t np = pass_count(m, &all);
	if (!np)
		return 0;
	if (!(g->pins = malloc(np * sizeof(*g->pins))))
		return -1;
	for (size_t d = 0; d < m->ndevs; d++)
		for (uint32_t k = 0; k < m->devs[d].npass; k++, j++) {
			const struct model_pass_io *io = &m->devs[d].pass[k];
			const struct gen_pass_win *pw = &g->pass_win[j];
			double n = (double)m->devs[d].pass_n, at = ((double)io->at + 0.5) / n * all;
			double x = floor((at - pw->from) * g->o.rate);
			if (n > 0 && x >= 0 && x < (double)(1u << 30))
				g->pins[g->npin++] =
				    (int64_t)pw->win << 32 | (int64_t)x << 1 | io->write;
		}
	return model_sort_i64(g->pins, g->npin);
}

/* Each stratum's knot in Q, of the sizes D: the last knot with c at or
 * below its lower end (c[0] = 0), from the guide, then forward (as
 * model_dist_inv); quota_at's and size_inv's search starts there.  Or'ed
 * with QUOTA_ONE where the stratum lies in the one stretch from it to
 * the next knot. */
static void quota_knots(const struct model_dist *d, struct quota *q)
{
	uint32_t n = q->n;
	for (uint32_t i = 0; i <= n; i++)
		q->at[i] = (double)i / n;
	for (uint32_t i = 0; i < n; i++) {
		double a = q->at[i], b = q->at[i + 1]; /* as quota_at */
		uint32_t k0 = d->nk >= 2 ? d->guide[(size_t)(a * MODEL_DIST_GUIDE)] : 0;
		if (d->nk >= 2 && k0 > d->nk - 2)
			k0 = 0;
		while (k0 + 2 < d->nk && d->c[k0 + 1] <= a)
			k0++;
		int one = d->nk >= 2 && (k0 + 2 >= d->nk || !(d->c[k0 + 1] < b));
		q->knot[i] = (uint16_t)(k0 | (one ? QUOTA_ONE : 0));
	}
}

/* Q's c n of each stratum S (quota_block): the share of run continuations
 * cumulated along phase P's size CDF of OP up to (S + 1) / n, times n (0
 * without the model's shares: all run starts). */
static void quota_cn(const struct model_gen *g, struct quota *q, size_t p, int op)
{
	const struct model_dist *d = &g->m->phases[p].size[op];
	const float *share = g->m->phases[p].seq_share[op];
	int seq = g->seq_want && g->seq_want[p][op] >= 0;
	double w = 0; /* the share cumulated to knot k */
	uint32_t k = 0, n = q->n;
	q->uniform = !seq || d->nk < 2;
	for (uint32_t s = 0; s < n; s++) {
		double x = q->at[s + 1], c;
		while (seq && k + 1 < d->nk && d->c[k + 1] <= x) {
			w += (d->c[k + 1] - d->c[k]) * share[k];
			k++;
		}
		c = seq && k + 1 < d->nk ? w + (x - d->c[k]) * share[k] : w;
		q->cn[s] = c * n;
	}
}

/* Q's weights for quota_at's draw anywhere in phase P's sizes of OP, for
 * each kind (quota_any_make): none where it draws uniformly. */
static void quota_any(const struct model_gen *g, struct quota *q, size_t p, int op)
{
	const struct model_dist *d = &g->m->phases[p].size[op];
	for (int seq = 0; seq < 2; seq++)
		q->any_n[seq] = q->uniform ? 0
					   : quota_any_make(d, g->m->phases[p].seq_share[op], seq,
							    q->knot[0] & ~QUOTA_ONE, q->any_w[seq],
							    q->any_k[seq], &q->any_tot[seq]);
}

/* Each phase's and op's quota block: its sizes drawn over the trace
 * generated (its I/O in the windows generated, times the rate), in blocks
 * of at most QUOTA_MAX. */
static int size_quota_init(struct model_gen *g)
{
	const struct model *m = g->m;
	size_t ns = m->nphases * REEL_OP__COUNT;
	double *e = calloc(ns, sizeof(*e));
	if (!e)
		return -1;
	for (size_t w = 0; w < m->nwin; w++) {
		double k = gen_win_times(g, w) * g->o.rate;
		for (int o = 0; o < REEL_OP__COUNT; o++)
			e[m->win_phase[w] * REEL_OP__COUNT + (size_t)o] +=
			    (double)m->win_ops[w * REEL_OP__COUNT + o] * k;
	}
	size_t tot = 0, nk = 0; /* the strata, the knots (quota_any) */
	for (size_t i = 0; i < ns; i++) {
		double n = floor(e[i] + 0.5);
		nk += m->phases[i / REEL_OP__COUNT].size[i % REEL_OP__COUNT].nk;
		if (g->o.max_records && n > (double)g->o.max_records)
			n = (double)g->o.max_records;
		n = n < 1 ? 1 : n > QUOTA_MAX ? floor(n / ceil(n / QUOTA_MAX) + 0.5) : n;
		g->s_size[i].n = (uint32_t)(n < QUOTA_MAX ? n : QUOTA_MAX);
		g->s_size[i].pos[1] = g->s_size[i].n; /* none left: a block at the first draw */
		tot += g->s_size[i].n;
	}
	free(e);
	uint16_t *perm = malloc((4 * tot + 2 * nk) * sizeof(*perm));
	uint64_t *left = calloc(2 * (tot / 64 + ns), sizeof(*left));
	double *at = malloc((2 * tot + ns + 2 * nk) * sizeof(*at));
	if (!perm || !left || !at ||
	    !(g->quota_mul = calloc(QUOTA_MAX + 1, sizeof(*g->quota_mul)))) {
		free(perm);
		free(left);
		free(at);
		return -1;
	}
	for (uint32_t r = 2; r <= QUOTA_MAX; r++)
		g->quota_mul[r] = UINT64_MAX / r + 1;
	uint16_t *any_k = perm + 4 * tot;
	double *any_w = at + 2 * tot + ns;
	for (size_t i = 0; i < ns; i++) {
		uint32_t nki = m->phases[i / REEL_OP__COUNT].size[i % REEL_OP__COUNT].nk;
		g->s_size[i].perm = perm;
		g->s_size[i].inv = perm + tot;
		g->s_size[i].resv = perm + 2 * tot;
		g->s_size[i].knot = perm + 3 * tot;
		g->s_size[i].at = at;
		g->s_size[i].cn = at + g->s_size[i].n + 1;
		at += 2 * g->s_size[i].n + 1;
		quota_knots(&m->phases[i / REEL_OP__COUNT].size[i % REEL_OP__COUNT], &g->s_size[i]);
		quota_cn(g, &g->s_size[i], i / REEL_OP__COUNT, (int)(i % REEL_OP__COUNT));
		for (int k = 0; k < 2; k++, any_k += nki, any_w += nki) {
			g->s_size[i].any_k[k] = any_k;
			g->s_size[i].any_w[k] = any_w;
		}
		quota_any(g, &g->s_size[i], i / REEL_OP__COUNT, (int)(i % REEL_OP__COUNT));
		perm += g->s_size[i].n;
		g->s_size[i].nw = (g->s_size[i].n + 63) / 64;
		g->s_size[i].left = left;
		left += 2 * g->s_size[i].nw;
	}
	return quota_resv_init(g) || pass_pins_init(g) ? -1 : 0;
}

/* The I/O back under which the trace made under GEN_RECENT_SHARE of its
 * re-uses (at most GEN_RECENT_MAX); 0: none. */
static uint32_t recent_of(const struct model_devspace *dv)
{
	uint32_t k = 0;
	if (!dv->reuse_fitted || dv->reuse_dist.nk < 2)
		return 0;
	for (double below, at; k < GEN_RECENT_MAX; k++) {
		model_dist_cdf(&dv->reuse_dist, (double)k + 1.5, &below, &at);
		if (at >= GEN_RECENT_SHARE)
			break;
	}
	return k;
}

/* The reads' reuse distances on a device keeping the writes' own
 * (reuse_distance_write, from 32 re-using write starts, under half the
 * device's): the device's less the writes', (n F - nw Fw) / (n - nw) at
 * each knot of either, kept non-decreasing.  The device's mix the writes'
 * into the reads' (fiu: its reads all re-use 1 I/O back, its writes up to
 * 7,061; 12% of the device's beyond 1, so a re-using read went back up to
 * thousands of I/O, 24 of them a seed).  Too many knots (past
 * MODEL_DIST_MAXK): none (nk 0), the device's kept. */
static void reads_dist(const struct model_devspace *dv, struct model_dist *r)
{
	const struct model_dist *a = &dv->reuse_dist, *w = &dv->reuse_dist_w;
	memset(r, 0, sizeof(*r));
	if (!a->nk || !w->nk || w->n >= a->n)
		return;
	double n = (double)a->n, nw = (double)w->n, last = 0;
	size_t i = 0, j = 0, k = 0;
	while (i < a->nk || j < w->nk) {
		double x = j >= w->nk || (i < a->nk && a->v[i] <= w->v[j]) ? a->v[i] : w->v[j];
		while (i < a->nk && a->v[i] == x)
			i++;
		while (j < w->nk && w->v[j] == x)
			j++;
		double ab, aa, wb, wa;
		model_dist_cdf(a, x, &ab, &aa);
		model_dist_cdf(w, x, &wb, &wa);
		double c[2] = {(n * ab - nw * wb) / (n - nw), (n * aa - nw * wa) / (n - nw)};
		for (int e = 0; e < 2; e++) {
			c[e] = c[e] < last ? last : c[e] > 1 ? 1 : c[e];
			if (e && c[1] <= c[0] && k)
				continue; /* no step at x: one knot */
			if (k == MODEL_DIST_MAXK) {
				r->nk = 0;
				return;
			}
			r->v[k] = x;
			r->c[k++] = c[e];
			last = c[e];
		}
	}
	r->c[k - 1] = 1;
	r->nk = (uint32_t)k;
	r->n = a->n - w->n;
	r->mean = (n * a->mean - nw * w->mean) / (n - nw);
	model_dist_prepare(r);
}

static void pass_reserve(struct model_gen *g, const struct model_devspace *dv,
			 const struct devstate *s);
static void touch_direct_init(struct model_gen *g);
static void touch_exact_init(struct model_gen *g);
static void touch_exact_free(struct model_gen *g);
static int writ_init(struct model_gen *g);

/* A p_unread device's map of blocks written and not read since, and its
 * ring of the granules written, for CAP bytes (0, or REEL_E_NOMEM). */
static int unread_init(struct devstate *s, uint64_t cap)
{
	struct unread *u = s->ur = calloc(1, sizeof(*u));
	if (!u)
		return REEL_E_NOMEM;
	u->shift = 12;
	while ((cap >> u->shift) > GEN_UNREAD_BITS)
		u->shift++;
	u->nw = ((cap >> u->shift) + 64) / 64;
	u->rg = malloc(GEN_UNREAD_RING * sizeof(*u->rg));
	u->rt = malloc(GEN_UNREAD_RING * sizeof(*u->rt));
	u->fw = calloc(GEN_UNREAD_RING + GEN_UNREAD_RING / 32, sizeof(*u->fw));
	u->live = (uint64_t *)(u->fw + GEN_UNREAD_RING);
	if (!(u->bits = calloc(u->nw + (u->nw + 63) / 64, sizeof(*u->bits))) || !u->rg || !u->rt ||
	    !u->fw)
		return REEL_E_NOMEM;
	u->nz = u->bits + u->nw;
	memset(u->rg, 0xff, GEN_UNREAD_RING * sizeof(*u->rg)); /* no slot live */
	return 0;
}

int gen_space_init(struct model_gen *g)
{
	const struct model *m = g->m;
	if (!(g->ds = calloc(m->ndevs, sizeof(*g->ds))) ||
	    !(g->s_size = calloc(m->nphases * REEL_OP__COUNT, sizeof(*g->s_size))) ||
	    !(g->pool = calloc(m->nphases * REEL_OP__COUNT * 2 * GEN_POOL, sizeof(*g->pool))) ||
	    !(g->npool = calloc(m->nphases * REEL_OP__COUNT * 2, sizeof(*g->npool))) ||
	    !(g->pool_want = calloc(m->nphases * REEL_OP__COUNT * 2, sizeof(*g->pool_want))) ||
	    !(g->size_tilt = malloc(3 * m->nphases * REEL_OP__COUNT * sizeof(*g->size_tilt))) ||
	    seq_sizes_init(g) || size_quota_init(g))
		return REEL_E_NOMEM;
	g->size_tops = g->size_tilt + m->nphases * REEL_OP__COUNT;
	g->size_thin = g->size_tops + m->nphases * REEL_OP__COUNT;
	size_tilt_init(g);
	for (size_t d = 0; d < m->ndevs; d++) {
		uint64_t cap = g->o.capacity ? g->o.capacity : m->devs[d].extent;
		g->ds[d].extent = cap;
		g->ds[d].scale = (double)cap / (double)m->devs[d].extent;
		g->ds[d].widen = g->o.rate > 1;
		for (int k = 0; k < 2; k++)
			g->seq_fresh |= m->devs[d].dsize[k].nk ? QUOTA_FRESH : 0;
		g->ds[d].pass_rest = g->ds[d].widen ? 1 - 1 / g->o.rate : 0;
		for (uint32_t r = 0; r <= m->devs[d].nregions; r++) {
			double below, at;
			model_dist_cdf(&m->devs[d].addr, (double)m->devs[d].bound[r], &below, &at);
			g->ds[d].rc[r] = below;
			g->ds[d].rb[r] = (double)m->devs[d].bound[r];
		}
		for (uint32_t r = 0; r < m->devs[d].nregions; r++)
			g->ds[d].wcum[r] = (r ? g->ds[d].wcum[r - 1] : 0) + m->devs[d].weight[r];
		uint32_t nw = m->devs[d].nregions ? m->devs[d].nregions - 1 : 0;
		for (uint32_t q = 0; q <= GEN_WG; q++) {
			double x = (double)q / GEN_WG;
			g->ds[d].wguide[q] =
			    (uint8_t)(q < GEN_WG ? cum_count(g->ds[d].wcum, 0, nw, x) : nw);
		}
		for (uint32_t i = 0; i < m->devs[d].nlong; i++) {
			const struct model_long_run *lr = &m->devs[d].longrun[i];
			g->ds[d].lr_lo[i] = (double)lr->off * g->ds[d].scale;
			g->ds[d].lr_hi[i] = g->ds[d].lr_lo[i] + (double)lr->bytes * g->ds[d].scale;
		}
		for (uint32_t i = m->devs[d].nlong; i-- > 0;) { /* the hulls, from the last run */
			struct devstate *s = &g->ds[d];
			int last = i + 1 == m->devs[d].nlong;
			s->lr_from_lo[i] = last || s->lr_lo[i] < s->lr_from_lo[i + 1]
					       ? s->lr_lo[i]
					       : s->lr_from_lo[i + 1];
			s->lr_from_hi[i] = last || s->lr_hi[i] > s->lr_from_hi[i + 1]
					       ? s->lr_hi[i]
					       : s->lr_from_hi[i + 1];
		}
		if (m->devs[d].nlong) {
			uint32_t n = m->devs[d].nlong;
			if (!(g->ds[d].lr_by = malloc(gen_lr_size(n) * sizeof(double))))
				return REEL_E_NOMEM;
			gen_lr_rows(g->ds[d].lr_lo, g->ds[d].lr_hi, n, g->ds[d].lr_by);
		}
		g->ds[d].run_cap = run_cap(&m->devs[d]);
		g->ds[d].recent = recent_of(&m->devs[d]);
		reads_dist(&m->devs[d], &g->ds[d].rdist_r);
		region_lut_init(&m->devs[d], &g->ds[d]);
		/* the ring's slots as they start (offset 0, a read) in its bitmaps */
		memset(g->ds[d].ropm[REEL_OP_READ], 0xff, sizeof(g->ds[d].ropm[0]));
		if (region_hot(&m->devs[d], gen_region_of(&m->devs[d], &g->ds[d], 0)))
			memset(g->ds[d].rhot, 0xff, sizeof(g->ds[d].rhot));
		gen_offsets_init(&m->devs[d], &g->ds[d]);
		gen_place_init(&m->devs[d], &g->ds[d]);
		if (gen_bucket_init(&m->devs[d], &g->ds[d]) || gen_noroom_init(&g->ds[d]) ||
		    chain_guide_init(&m->devs[d], &g->ds[d]))
			return REEL_E_NOMEM;
		if (cold_init(&m->devs[d], &g->ds[d]))
			return REEL_E_NOMEM;
		g->ds[d].run_e =
		    malloc((m->devs[d].nregions + 3) * GEN_RUN_EDGES * sizeof(*g->ds[d].run_e));
		g->ds[d].run_e0 = malloc((m->devs[d].nregions + 3) * sizeof(*g->ds[d].run_e0));
		g->ds[d].wide_c = malloc((m->devs[d].nregions + 1) * sizeof(*g->ds[d].wide_c));
		g->ds[d].wide_k = -2; /* none made */
		if (!g->ds[d].run_e || !g->ds[d].run_e0 || !g->ds[d].wide_c)
			return REEL_E_NOMEM;
		run_tilt(&m->devs[d], &g->ds[d]);
		if (m->devs[d].p_unread > 0 && unread_init(&g->ds[d], cap))
			return REEL_E_NOMEM;
	}
	double fl = 0, all = 0; /* the addressed I/O's share */
	for (size_t w = 0; w < m->nwin; w++)
		for (int o = 0; o < REEL_OP__COUNT; o++) {
			all += (double)m->win_ops[w * REEL_OP__COUNT + o];
			fl += o == REEL_OP_FLUSH ? (double)m->win_ops[w * REEL_OP__COUNT + o] : 0;
		}
	for (size_t d = 0, j = 0; d < m->ndevs; j += m->devs[d].npass, d++) {
		g->ds[d].nper = (all - fl) * g->o.rate * m->devs[d].share;
		g->ds[d].pass_win = g->pass_win ? g->pass_win + j : NULL;
		g->ds[d].addressed = all - fl;
	}
	double n = 0; /* the addressed I/O of the windows generated */
	for (size_t w = 0; w < m->nwin; w++)
		n += win_addressed(m, w) * gen_win_times(g, w);
	for (size_t d = 0; d < m->ndevs; d++)
		gen_offsets_quota_init(&m->devs[d], &g->ds[d], n * g->o.rate * m->devs[d].share);
	for (size_t d = 0; d < m->ndevs && !g->touched; d++)
		if (m->devs[d].reuse_fitted && !(g->touched = touch_alloc()))
			return REEL_E_NOMEM;
	if (g->touched)
		touch_direct_init(g);
	if (g->touched && !g->touch_d)
		touch_exact_init(g);
	if (g->touch_d)
		gen_region_full_init(&m->devs[0], &g->ds[0], g->touch_nb);
	if (g->touched && writ_init(g))
		return REEL_E_NOMEM;
	for (size_t d = 0; d < m->ndevs && g->touched; d++)
		pass_reserve(g, &m->devs[d], &g->ds[d]);
	return 0;
}

int gen_space_init_arrivals(struct model_gen *g)
{
	return pass_wins_init(g) || pass_pins_init(g) ? REEL_E_NOMEM : 0;
}

void gen_space_free(struct model_gen *g)
{
	for (size_t d = 0; g->ds && d < g->m->ndevs; d++) {
		free(g->ds[d].run_e);
		free(g->ds[d].run_e0);
		free(g->ds[d].wide_c);
		free(g->ds[d].lr_by);
		free(g->ds[d].bk);
		free(g->ds[d].nr);
		free(g->ds[d].tr_cw);
		free(g->ds[d].op_wc);
		free(g->ds[d].tr_cw_guide);
		free(g->ds[d].cold_cs);
		free(g->ds[d].cold_guide);
		free(g->ds[d].tr_guide);
	}
	for (size_t d = 0; g->ds && d < g->m->ndevs; d++)
		if (g->ds[d].ur) {
			free(g->ds[d].ur->bits);
			free(g->ds[d].ur->rg);
			free(g->ds[d].ur->rt);
			free(g->ds[d].ur->fw);
			free(g->ds[d].ur);
		}
	free(g->ds);
	if (g->s_size) {
		free(g->s_size[0].perm);
		free(g->s_size[0].left);
		free(g->s_size[0].at);
	}
	free(g->s_size);
	free(g->quota_mul);
	free(g->size_tilt);
	free(g->pass_ph);
	free(g->pass_win);
	free(g->pins);
	free(g->pool);
	free(g->npool);
	free(g->pool_want);
	free(g->csize);
	free(g->seq_want);
	free(g->seq_seen);
	free(g->seq_cont);
	reel_free_big(g->touched, TOUCH_BYTES);
	reel_free_big(g->writ_d, g->touch_nb / 8);
	reel_free_big(g->touch_d, g->touch_nb / 8);
	touch_exact_free(g);
	reel_free_big(g->writ, TOUCH_BYTES);
}

static uint32_t region_search(const struct model_devspace *d, double scale, uint64_t a)
{
	uint32_t lo = 0, n = d->nregions;
	double x = (double)a / scale;
	if (x >= (double)d->bound[d->nregions])
		return d->nregions - 1;
	uint64_t xi = (uint64_t)x; /* B <= x as B <= floor(x): bounds under 2^53 are exact */
	if (d->bound[d->nregions] < (1ull << 53))
		for (uint32_t h; n > 1; n -= h) { /* the last bound <= x; no branch to miss */
			h = n / 2;
			lo = d->bound[lo + h] <= xi ? lo + h : lo;
		}
	for (uint32_t h; n > 1; n -= h) {
		h = n / 2;
		lo = (double)d->bound[lo + h] <= x ? lo + h : lo;
	}
	return lo;
}

/* The region at each 1/GEN_RLUT of the model's extent (bounds under 2^53:
 * then region_of searches between two neighbouring entries only; a
 * search over the bounds took 7 dependent loads, at every I/O). */
static void region_lut_init(const struct model_devspace *d, struct devstate *s)
{
	uint64_t e = d->bound[d->nregions];
	int sh = 0;
	while ((e >> sh) >= GEN_RLUT)
		sh++;
	s->rlut_sh = (uint8_t)sh;
	for (uint64_t j = 0; j <= GEN_RLUT; j++)
		s->rlut[j] = (uint8_t)region_search(d, 1.0, j << sh);
	s->rtop = s->scale == 1 && e < (1ull << 53) ? e : 0;
}

/* The region of offset A (generated, scaled by s->scale): region_search's
 * answer, through the table (gen_region_of: the offsets under s->rtop
 * without a call). */
static uint32_t region_of_any(const struct model_devspace *d, const struct devstate *s, uint64_t a)
{
	uint64_t top = d->bound[d->nregions], xi = a;
	/* at scale 1, x = (double)A: A itself under TOP (< 2^53), at or
	 * past it past TOP, without the conversions */
	if (!(top < (1ull << 53)) || (s->scale == 1 && a >= top))
		return region_search(d, s->scale, a);
	if (s->scale != 1) {
		double x = (double)a / s->scale;
		if (x >= (double)top)
			return region_search(d, s->scale, a);
		xi = (uint64_t)x;
	}
	return gen_region_lut(d, s, xi);
}

uint32_t gen_space_region(const struct model_devspace *d, const struct devstate *s, uint64_t a)
{
	return s ? region_of_any(d, s, a) : region_search(d, 1.0, a);
}

/* The chain's row FROM given the op of the start (s->op): each
 * destination's share times its share of I/O of the op (the trace's ops
 * in regions of their own: compile's reads in 5 of its 14 regions, its
 * writes in the 9 others; drawn by the row alone, a fifth of its I/O went
 * to regions holding none of their op), at U; drawn again (up to
 * GEN_OVER_TRIES times) while it goes to an over-visited region.  With no
 * destination of the op in the row, the regions by weight times the op's
 * share.  0 when the op is in no region. */
static int chain_op(struct model_gen *g, const struct model_devspace *d, struct devstate *s,
		    uint32_t from, double u, uint32_t *to)
{
	uint32_t a = d->row[from], b = d->row[from + 1];
	/* the row's sums given the op made once (gen_chain_sums): the walk
	 * summed them twice a draw (chromium: ~100 instructions an I/O) */
	const double *cw = s->tr_cw + (s->op != REEL_OP_READ ? d->row[d->nregions] : 0);
	/* and the row's table where they go up (gen_chain_op_at) */
	const uint32_t *tg =
	    s->tr_cw_guide
		? s->tr_cw_guide +
		      ((s->op != REEL_OP_READ ? (size_t)d->nregions : 0) + from) * GEN_TRC
		: NULL;
	double w = b > a ? cw[b - 1] : 0;
	for (int t = 0; w > 0 && t < GEN_OVER_TRIES; t++) {
		uint32_t x = tg ? gen_chain_op_at(cw, tg, a, b, u, w)
				: gen_chain_pick(cw, a, b, u * w, s->tr_cw_up);
		*to = d->tr_to[x < b ? x : b - 1];
		if (!gen_offsets_region_over(g, d, s, *to))
			return 1;
		u = rnd_sp(g);
	}
	if (w > 0)
		return 1;
	if (s->op_wc && w == 0) { /* the walk's sums made once: searched */
		const double *wc = s->op_wc + (s->op != REEL_OP_READ ? d->nregions : 0);
		w = wc[d->nregions - 1];
		uint32_t r = w > 0 ? gen_upper_masked(wc, 0, d->nregions, u * w) : d->nregions;
		if (r < d->nregions)
			*to = r;
		return r < d->nregions;
	}
	int k = gen_offsets_seg(d, s);
	for (uint32_t r = 0; r < d->nregions; r++)
		w += gen_weight_in(d, k, r) * gen_op_share(d, r, s->op);
	double c = 0, v = u * w;
	for (uint32_t r = 0; r < d->nregions && w > 0; r++)
		if (v < (c += gen_weight_in(d, k, r) * gen_op_share(d, r, s->op))) {
			*to = r;
			return 1;
		}
	return 0;
}

/* The row FROM's first entry whose cumulated share passes U, else its last
 * (a search of the row): by the row's table (gen_chain_at; the row's
 * shares cumulated do not fall).  With a table at each 1/32 of [0, 1),
 * the 2-8 entries of a 128-entry row between two of its entries were
 * searched at each draw, tr_p's lines missed (disksim's 16 devices: 2 MiB
 * of it, 19% of the samples here); at each 1/512 a draw mostly lands
 * where the entry does not step, and the table's 128 bytes a row (256 KiB
 * on disksim) are missed less.  The row's tr_to asked for at once:
 * remote's load of the entry found, a miss after the table's. */
static uint32_t chain_find(const struct model_gen *g, const struct model_devspace *d,
			   const struct devstate *s, uint32_t from, double u)
{
	uint32_t a = d->row[from], n = d->row[from + 1] - a;
	/* remote's load of tr_to[the entry]: asked for with the table's,
	 * where chain_ask asks (on one device's model the row is in cache:
	 * the loop was a third of chain_find's instructions on blktrace) */
	for (uint32_t x = 0; !g->touch_d && x < n; x += 32)
		__builtin_prefetch(&d->tr_to[a + x]);
	return gen_chain_at(d->tr_p, a, s->tr_guide + (size_t)from * GEN_TRC, u);
}

/* The word of the chain's row table that the device's next remote jump
 * will read, asked for at its run start's first: the row is the cursor's
 * region's, and the draw's 1/STRATA is the next of s_trans's strata, so
 * its 1/GEN_TRC is known before the draw (what comes between, the size
 * and gen_offsets_region, hides the miss: disksim's 16 devices' 256 KiB
 * of tables, 55% of chain_find's samples on that load).  Only asked for:
 * a jump to a region short of its share leaves it; none for a LOCAL one.
 * Asked only where the touched set is hashed (no direct set: many
 * devices, or one past TOUCH_D0): on one device's model the row is in
 * cache and the asks cost boot's scaled gen 4% (round 29's pairs). */
static inline void chain_ask(const struct model_gen *g, const struct model_devspace *d,
			     const struct devstate *s, int local)
{
	const struct strat *st = &s->s_trans;
	if (g->touch_d || local || !s->tr_guide || st->pos == 0 || st->pos >= STRATA)
		return; /* one device's direct set, a local jump; the strata drawn again first */
	uint32_t from = gen_region_of(d, s, s->cursor), a = d->row[from], n = d->row[from + 1] - a;
	__builtin_prefetch(
	    &s->tr_guide[(size_t)from * GEN_TRC + (uint32_t)st->perm[st->pos] * GEN_TRC / STRATA]);
	for (uint32_t x = 0; x < n; x += 32) /* and the row's tr_to, as chain_find's */
		__builtin_prefetch(&d->tr_to[a + x]);
	/* and tr_p where the stratum would fall were the row's shares even */
	__builtin_prefetch(&d->tr_p[a + n * (uint32_t)st->perm[st->pos] / STRATA]);
}

void gen_chain_steps(const double *p, uint32_t a, uint32_t b, double w, uint8_t *g, uint32_t nq)
{
	uint32_t x = a;
	for (uint32_t q = 0; q <= nq; q++) {
		while (x < b - 1 && !(p[x] > (double)q / nq * w))
			x++;
		g[q] = (uint8_t)(x - a);
	}
}

void gen_chain_guide(const double *p, uint32_t a, uint32_t b, double w, uint32_t *t)
{
	uint8_t g[GEN_TRG + 1];
	gen_chain_steps(p, a, b, w, g, GEN_TRG);
	for (uint32_t c = 0; c < GEN_TRC; c++) {
		uint32_t m = 0, q0 = c * GEN_TRF;
		for (uint32_t f = 0; f < GEN_TRF && m != UINT32_MAX; f++)
			m = g[q0 + f + 1] - g[q0 + f] > 1
				? UINT32_MAX
				: m | (uint32_t)(g[q0 + f + 1] > g[q0 + f]) << f;
		t[c] = (m == UINT32_MAX ? 0 : m) | (uint32_t)g[q0] << 16 |
		       (uint32_t)g[q0 + GEN_TRF] << 24;
	}
}

int gen_chain_sums(const struct model_devspace *d, double *cw)
{
	uint32_t n = d->row[d->nregions];
	int up = 1;
	for (int k = 0; k < 2; k++)
		for (uint32_t r = 0; r < d->nregions; r++) {
			double c = 0;
			for (uint32_t x = d->row[r], a = x; x < d->row[r + 1]; x++) {
				double p = c;
				c += (d->tr_p[x] - (x > a ? d->tr_p[x - 1] : 0)) *
				     gen_op_share(d, d->tr_to[x], k ? REEL_OP_WRITE : REEL_OP_READ);
				cw[k * n + x] = c;
				up &= c >= p;
			}
		}
	return up;
}

int gen_op_weight_sums(const struct model_devspace *d, double *wc)
{
	int up = 1;
	for (int k = 0; k < 2; k++) {
		double w = 0;
		for (uint32_t r = 0; r < d->nregions; r++) {
			double x =
			    d->weight[r] * gen_op_share(d, r, k ? REEL_OP_WRITE : REEL_OP_READ);
			up &= x >= 0;
			wc[k * d->nregions + r] = w += x;
		}
	}
	return up;
}

/* Each row's table for chain_find: the entry the row's search gives at
 * each 1/GEN_TRG of [0, 1] (gen_chain_guide); and chain_op's sums (0, or
 * REEL_E_NOMEM). */
static int chain_guide_init(const struct model_devspace *d, struct devstate *s)
{
	if (d->nregions &&
	    !(s->tr_guide = calloc((size_t)d->nregions * GEN_TRC, sizeof(*s->tr_guide))))
		return REEL_E_NOMEM;
	for (uint32_t r = 0; r < d->nregions; r++)
		if (d->row[r + 1] > d->row[r])
			gen_chain_guide(d->tr_p, d->row[r], d->row[r + 1], 1,
					s->tr_guide + (size_t)r * GEN_TRC);
	/* chain_op's sums given the op (read_share: the only chain_op) */
	if (!d->read_share_fitted || !d->nregions)
		return 0;
	if (!(s->tr_cw = malloc((2 * (size_t)d->row[d->nregions] + 1) * sizeof(double))))
		return REEL_E_NOMEM;
	s->tr_cw_up = gen_chain_sums(d, s->tr_cw);
	if (!d->seg_fitted) { /* the last resort's sums: the weights fixed */
		if (!(s->op_wc = malloc(2 * (size_t)d->nregions * sizeof(double))))
			return REEL_E_NOMEM;
		if (!gen_op_weight_sums(d, s->op_wc)) {
			free(s->op_wc);
			s->op_wc = NULL;
		}
	}
	uint32_t n = d->row[d->nregions];
	if (!s->tr_cw_up)
		return 0;
	if (!(s->tr_cw_guide = calloc(2 * (size_t)d->nregions * GEN_TRC, sizeof(uint32_t))))
		return REEL_E_NOMEM;
	for (int k = 0; k < 2; k++)
		gen_chain_op_guide(d, s->tr_cw + (size_t)k * n,
				   s->tr_cw_guide + (size_t)k * d->nregions * GEN_TRC);
	return 0;
}

void gen_chain_op_guide(const struct model_devspace *d, const double *cw, uint32_t *t)
{
	for (uint32_t r = 0; r < d->nregions; r++)
		if (d->row[r + 1] > d->row[r] && cw[d->row[r + 1] - 1] > 0)
			gen_chain_guide(cw, d->row[r], d->row[r + 1], cw[d->row[r + 1] - 1],
					t + (size_t)r * GEN_TRC);
}

/* LO plus how many of W[LO, LO + N) are at or below U (W not decreasing),
 * by a search without a branch. */
static inline uint32_t cum_count(const double *w, uint32_t lo, uint32_t n, double u)
{
	for (uint32_t h; n > 1; n -= h) {
		h = n / 2;
		lo += h * (w[lo + h - 1] <= u);
	}
	return lo + (n && w[lo] <= u);
}

/* Remote's draws of a place in region TO, the place not made (not taken:
 * TO full), so neither its inverse CDF (gen_place_inside) nor the knot
 * kept for the count (s->kh: a hint, checked there). */
static inline void remote_draws(struct model_gen *g, const struct model_devspace *d,
				struct devstate *s, uint32_t to)
{
	if (d->addr.nk) {
		double a0 = s->rc[to], b0 = s->rc[to + 1];
		if (b0 > a0 && gen_place_inside(d, s, to, a0 + sdraw_sp(g, &s->s_pos) * (b0 - a0)))
			return;
	}
	xo_step_sh(g->sp, 17); /* rnd_sp's draw, not read */
}

/* A remote jump's destination: the region *TO (drawn from the chain when
 * -1, as it is then set), the position in it as the trace's offsets fall. */
static uint64_t remote(struct model_gen *g, const struct model_devspace *d, struct devstate *s,
		       int64_t *tor)
{
	uint32_t from = 0, to = 0;
	double u = *tor >= 0 ? 0 : sdraw_sp(g, &s->s_trans);
	if (*tor < 0)
		*tor = gen_offsets_region(g, d, s);
	/* the chain's row, the cursor's region's: not looked up where a
	 * region short of its share is drawn */
	if (*tor < 0)
		from = gen_region_memo(d, s, s->cursor);
	if (*tor >= 0) {
		to = (uint32_t)*tor;
	} else if (d->read_share_fitted && chain_op(g, d, s, from, u, &to)) {
		/* the chain's row given the op */
	} else if (d->row[from + 1] > d->row[from]) {
		uint32_t at = UINT32_MAX;
		for (int t = 0; t < GEN_OVER_TRIES; t++) { /* not to an over-visited region */
			uint32_t a1 = chain_find(g, d, s, from, u);
			if (!gen_offsets_region_over(g, d, s, d->tr_to[a1])) {
				at = a1; /* taken at this U: not searched again */
				break;
			}
			u = rnd_sp(g);
		}
		to = d->tr_to[at != UINT32_MAX ? at : chain_find(g, d, s, from, u)];
	} else if (d->seg_fitted && s->nper >= 1) { /* the weights of the fifth (seg_weights) */
		double c = 0;
		int k = gen_offsets_seg(d, s);
		to = d->nregions - 1;
		for (uint32_t r = 0; r < d->nregions; r++) {
			c += gen_weight_in(d, k, r);
			if (u < c) {
				to = r;
				break;
			}
		}
	} else { /* the first region whose weights cumulated pass U, else the
		  * last: the count of those before the last at or below U, in
		  * wcum (the sums a walk adding them gives, not decreasing:
		  * the weights are >= 0), searched without a branch (the walk
		  * through 128 regions was 15% of the placing thread on
		  * gen_reel's model, a search with branches half of that)
		  * between the counts at U's 1/GEN_WG and the next (q /
		  * GEN_WG exact: those below the first are at or below U,
		  * those past the second above it; the full search's 8
		  * dependent loads were 40% of remote's time) */
		uint32_t q = u * GEN_WG < GEN_WG - 1 ? (uint32_t)(u * GEN_WG) : GEN_WG - 1;
		to = cum_count(s->wcum, s->wguide[q], (uint32_t)s->wguide[q + 1] - s->wguide[q], u);
	}
	*tor = to;
	double lo = s->rb[to], hi = s->rb[to + 1];
	if (d->addr.nk) { /* where the trace's offsets fall inside the region */
		double a0 = s->rc[to], b0 = s->rc[to + 1];
		if (b0 > a0) { /* its knot kept for the count */
			size_t k = s->kh;
			double v = a0 + sdraw_sp(g, &s->s_pos) * (b0 - a0);
			double x = gen_dist_inv_at(&d->addr, v, &k);
			s->kh = (uint32_t)k;
			if (x >= lo && x < hi)
				return (uint64_t)(x * s->scale);
		}
	}
	return (uint64_t)((lo + rnd_sp(g) * (hi - lo)) * s->scale);
}

/* ---- run starts: jumps, and re-use as the model's share ----------------- */
/* The odds that a run start of op OP is a local jump: those of the op in
 * the region the cursor is in (regions.p_local_read, p_local_write), else
 * the device's.  A band read block by block keeps its starts local while
 * the cursor is in it (boot-nspawn: 90% there, 31% elsewhere); drawn at
 * the device's 53%, each visit to it was a few I/O and it held a third of
 * its I/O. */
static inline double local_odds(const struct model_devspace *dv, struct devstate *s, int op)
{
	int k = op != REEL_OP_READ;
	if (!(dv->p_local_fitted && dv->p_local_op[k]))
		return dv->p_local;
	return dv->p_local_r[k][gen_region_keep_near(dv, s, s->cursor)];
}

static inline uint64_t touch_bit(uint16_t dev, uint64_t b)
{
	uint64_t x = (b ^ ((uint64_t)dev << 48)) * TOUCH_MUL;
	return touch_slot(x >> (64 - TOUCH_BITS));
}

/* The hash of touch_bit is additive over blocks below 2^48 (where the
 * device's bits do not mix with the block's): block B + STEP's is B's
 * plus STEP times TOUCH_MUL (touch_bit's), one add per block looked at. */
#define TOUCH_ADDITIVE(b1) (!((b1) >> 48))

/*
 * The touched set kept direct: bit B of g->touch_d is block B of the one
 * device, a run's blocks side by side in a word (a run of 50 blocks one
 * line, not the 5-10 lines its hashed bits jump over), and a 64 GiB
 * device's 2 MiB where the hashed set takes 8.  The same set, false
 * "touched" included: two blocks share a hashed bit only if their
 * hashes' difference, (B' - B) * TOUCH_MUL mod 2^64, is within
 * 2^(64 - TOUCH_BITS) of 0, and the first B' - B for which it is, is
 * TOUCH_D0 (a Fibonacci number; test_model_touch_d0 finds it), so the
 * blocks below TOUCH_D0 of one device (whose hashes differ by that
 * alone) never share one: each is touched alone, as here.  So too the
 * blocks from touch_nb (past the extent and a margin) up to TOUCH_D0,
 * never marked while the set is direct: untouched, as their hashed bits
 * are.  A block marked at or past touch_nb, or one asked for at or past
 * TOUCH_D0, first moves the set to the hashed bits (touch_hash), for
 * good.  Asked for past touch_nb, it moved too: git's model x2986 asked
 * for a 10,240-block span 6.6 MiB below its device's end at its 5.45M-th
 * of 10M I/O, and scanned the hashed set from there on (scan_run: 40% of
 * the placing thread's time, a word per 9-10 blocks of an 8 MiB set).
 */
#define TOUCH_MARGIN (2 * TOUCH_MAX) /* blocks past the extent kept direct */

static void touch_direct_init(struct model_gen *g)
{
	const struct model *m = g->m;
	uint64_t nb = (g->ds[0].extent + 4095) / 4096 + TOUCH_MARGIN;
	nb = (nb + 511) / 512 * 512; /* whole lines */
	if (m->ndevs != 1 || nb > TOUCH_D0 || nb / 8 >= TOUCH_BYTES)
		return;
	if ((g->touch_d = reel_calloc_big(1, nb / 8)))
		g->touch_nb = nb;
}

/*
 * The touched set kept exact where it would start hashed (many devices,
 * or one device past TOUCH_D0): a direct set a device (touch_x[id], a bit
 * a block up to its extent and TOUCH_MARGIN), looked at and marked as the
 * one device's direct set is.  The hashed set's false "touched" was most
 * of its answers there: disksim's 10M model at rate 1 (16 devices of
 * 47-57 M blocks) marked 26.0 M blocks of 754 M (3.4%) in its 2^26 bits,
 * 38.7% of them set by the end, and 6.13 M of the 7.57 M fresh tries
 * start_wanted turned down as touched were on blocks never marked (each
 * drawn again: 1.79 tries a start); blkparse's one device (95 M blocks)
 * 2% of them.  The model's fitted bands draw over each whole device, so
 * the set's pages are nearly all written: disksim's 94 MiB.  Not kept
 * past TOUCH_X_MAX bytes, nor for a device id the table has no room for
 * (the hashed set then, as before).
 */
#define TOUCH_X_MAX ((uint64_t)256 << 20)
static uint64_t touch_x_blocks(const struct model_gen *g, size_t d)
{
	uint64_t nb = (g->ds[d].extent + 4095) / 4096 + TOUCH_MARGIN;
	return (nb + 511) / 512 * 512; /* whole lines */
}

static void touch_exact_init(struct model_gen *g)
{
	const struct model *m = g->m;
	uint64_t all = 0;
	for (size_t d = 0; d < m->ndevs; d++) {
		if (m->devs[d].id >= MODEL_MAX_DEVS || g->touch_x[m->devs[d].id])
			return;
		all += touch_x_blocks(g, d) / 8;
	}
	if (all > TOUCH_X_MAX)
		return;
	for (size_t d = 0; d < m->ndevs; d++) {
		uint16_t id = m->devs[d].id;
		uint64_t nb = touch_x_blocks(g, d);
		if (!(g->touch_x[id] = reel_calloc_big(1, nb / 8))) {
			touch_exact_free(g); /* the hashed set, as before */
			return;
		}
		g->touch_xn[id] = nb;
		/* its pages made present at once: left to fault, a page first read
		 * maps the zero page and its first write faults again and flushes the
		 * other threads' TLBs (disksim's 10M gen: 59.8 K minor faults and
		 * 1.26 s of system time against 40.0 K and 0.35 s so) */
		gen_populate(g->touch_x[id], 0, nb / 8);
	}
	g->touch_xon = 1;
}

static void touch_exact_free(struct model_gen *g)
{
	for (size_t id = 0; id < MODEL_MAX_DEVS; id++) {
		reel_free_big(g->touch_x[id], g->touch_xn[id] / 8);
		g->touch_x[id] = NULL;
		g->touch_xn[id] = 0;
	}
	g->touch_xon = 0;
}

/* Whether any of the direct set T's blocks B0 to B1 (NB kept: those past
 * it untouched), STEP apart, is touched. */
static inline int direct_any(const uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1,
			     uint64_t step)
{
	if (step == 1)
		return touch_d_next(t, nb, b0, b1, 0) <= b1;
	for (uint64_t b = b0; b <= b1 && b < nb; b += step)
		if ((t[b >> 6] >> (b & 63)) & 1)
			return 1;
	return 0;
}

/* Mark the direct set T's blocks B0 to B1 (those at or past NB not kept:
 * the exact set's device ends). */
static void direct_mark(uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1)
{
	if (b0 >= nb)
		return;
	b1 = b1 < nb ? b1 : nb - 1;
	uint64_t w = b0 >> 6, we = b1 >> 6;
	uint64_t lo = ~0ull << (b0 & 63), hi = ~0ull >> (63 - (b1 & 63));
	if (w == we) {
		t[w] |= lo & hi;
		return;
	}
	t[w] |= lo;
	while (++w < we)
		t[w] = ~0ull;
	t[w] |= hi;
}

/* touched_any's and touch_mark's of the exact set, for the unit test
 * (test_model_touch_exact). */
int gen_touch_x_any(const uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1, uint64_t step)
{
	return direct_any(t, nb, b0, b1, step);
}

void gen_touch_x_mark(uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1)
{
	direct_mark(t, nb, b0, b1);
}

/*
 * The blocks written (g->writ, g->writ_d), kept beside the touched set
 * only where a device re-uses most starts (start_hot: writ_steer), the
 * same way: direct (touch_nb / 8 bytes: chromium's 2 GiB device 64 KiB)
 * while the touched set is, then hashed by touch_bit into TOUCH_BYTES (a
 * mapping: only the pages written to are memory), moved to it when the
 * touched set moves (writ_hash); kept only where the touched set starts
 * direct (one device).  A false "written" of the hashed set is
 * as rare as a false "touched".  0, or REEL_E_NOMEM.
 */
static int writ_init(struct model_gen *g)
{
	const struct model *m = g->m;
	int hot = 0;
	/* only where the regions hold reads and writes apart (read_share):
	 * there a re-using write lands on blocks only read (chromium, boot,
	 * git, boot-nspawn).  Elsewhere the tries cost more than they gave:
	 * blktrace's 10M model (writes only) 42% more of the placing thread's
	 * instructions for its blocks written 1.034x -> 1.023x the trace's,
	 * kernel-src's (its trace writes new blocks) 0.57x -> 0.46x */
	for (size_t d = 0; d < m->ndevs; d++)
		hot |= m->devs[d].reuse_fitted && m->devs[d].p_reuse >= GEN_REUSE_GATE &&
		       m->devs[d].read_share_fitted;
	/* none where the touched set starts hashed (many devices): the
	 * written set's 8 MiB touched all over (disksim's disk 5 re-using:
	 * gen's peak RSS 73 -> 81 MiB) */
	if (!hot || !g->touch_d)
		return 0;
	g->writ_d = reel_calloc_big(1, g->touch_nb / 8);
	return g->writ_d ? 0 : REEL_E_NOMEM;
}

/* The NB blocks of device DEV's direct set D (a bit a block) marked in
 * the hashed set H (touch_bit's): the touched set's and the written
 * set's move when the direct ones stop. */
static void direct_to_hashed(uint16_t dev, const uint64_t *d, uint64_t nb, uint64_t *h)
{
	for (uint64_t w = 0; w < nb / 64; w++)
		for (uint64_t v = d[w]; v; v &= v - 1) {
			uint64_t k = touch_bit(dev, w * 64 + (uint64_t)__builtin_ctzll(v));
			h[k >> 6] |= 1ull << (k & 63);
		}
}

/* The direct written set moved to the hashed one (touch_hash's, before
 * the touched set's): kept direct no longer, or dropped without memory
 * (re-using writes then land as drawn). */
static void writ_hash(struct model_gen *g)
{
	if (!g->writ_d)
		return;
	if ((g->writ = touch_alloc()))
		direct_to_hashed(g->m->devs[0].id, g->writ_d, g->touch_nb, g->writ);
	reel_free_big(g->writ_d, g->touch_nb / 8);
	g->writ_d = NULL;
}

/* The direct set's blocks marked in the hashed one, the direct one freed:
 * a block at or past touch_nb asked for or marked. */
static void touch_hash(struct model_gen *g)
{
	writ_hash(g);
	direct_to_hashed(g->m->devs[0].id, g->touch_d, g->touch_nb, g->touched);
	reel_free_big(g->touch_d, g->touch_nb / 8);
	g->touch_d = NULL;
	g->touch_nb = 0;
}

/* The touched set's word of block B (device DEV) asked for.  Inlined
 * always: GCC took a call of it for one without effect and dropped all
 * four (round 20: no prefetch of the direct set in the binary). */
__attribute__((always_inline)) static inline void touch_ask(const struct model_gen *g, uint16_t dev,
							    uint64_t b)
{
	if (g->touch_d)
		__builtin_prefetch(&g->touch_d[b < g->touch_nb ? b >> 6 : 0]);
	else if (g->touch_xon)
		__builtin_prefetch(&g->touch_x[dev][b < g->touch_xn[dev] ? b >> 6 : 0]);
	else
		__builtin_prefetch(&g->touched[touch_bit(dev, b) >> 6]);
}

/* The touched word of a fresh try's start at OFF asked for as soon as it
 * is drawn, under the region's and the run's look-ups before touched
 * reads it: a miss on the hashed set's 8 MiB at nearly every I/O of a
 * model of many devices (disksim's one-I/O runs, p_reuse 0: no
 * start_early; HISTORY.md, "Gen on 16 devices"). */
__attribute__((always_inline)) static inline void touch_ask_early(const struct model_gen *g,
								  uint16_t dev, uint64_t off)
{
	if (g->touched)
		touch_ask(g, dev, off >> 12);
}

/* Whether [off, off + len) touches a block touched before (LOOK of its
 * blocks looked at, evenly spread, when it has more): the first such
 * block ends the look.  Never inline: folded into touched, touched
 * would save six registers on every ask, its direct set's too (round 29's
 * reviewer: boot's rate-1 placing thread 1.6% more instructions). */
__attribute__((noinline)) static int touched_any(struct model_gen *g, uint16_t dev, uint64_t off,
						 uint64_t len, uint64_t look)
{
	uint64_t b0 = off >> 12, b1 = (off + (len ? len - 1 : 0)) >> 12, step = 1;
	if (b1 - b0 >= look)
		step = (b1 - b0) / look + 1;
	if (g->touch_d && b1 < TOUCH_D0) /* step 1: touched answers it inline; kept whole here */
		return direct_any(g->touch_d, g->touch_nb, b0, b1, step);
	if (g->touch_xon)
		return direct_any(g->touch_x[dev], g->touch_xn[dev], b0, b1, step);
	if (g->touch_d)
		touch_hash(g);
	const uint64_t *t = g->touched;
	if (!TOUCH_ADDITIVE(b1)) {
		for (uint64_t b = b0; b <= b1; b += step) {
			uint64_t k = touch_bit(dev, b);
			if ((t[k >> 6] >> (k & 63)) & 1)
				return 1;
		}
		return 0;
	}
	uint64_t x = (b0 ^ ((uint64_t)dev << 48)) * TOUCH_MUL, dx = step * TOUCH_MUL;
	if (step == 1) /* every block: a word's at once (touched's inline) */
		return touch_run_any(t, x, b1 - b0 + 1);
	for (uint64_t n = (b1 - b0) / step + 1; n; n--, x += dx) {
		uint64_t k = touch_slot(x >> (64 - TOUCH_BITS));
		if ((t[k >> 6] >> (k & 63)) & 1)
			return 1;
	}
	return 0;
}

/* touched_any, its most asked case inline: the direct set, every block
 * looked at (fewer than LOOK).  Seven asks an I/O on boot's model, a
 * third of each the call's (touched_any saves six registers for the
 * hashed set's paths).  The hashed set's step-1 path asked here too made
 * touched too large to inline (round 29: git scaled 3.7% more
 * instructions, the scaled models 6-8% slower), so it stays
 * touched_any's. */
static inline int touched(struct model_gen *g, uint16_t dev, uint64_t off, uint64_t len,
			  uint64_t look)
{
	uint64_t b0 = off >> 12, b1 = (off + (len ? len - 1 : 0)) >> 12;
	if (g->touch_d && b1 < TOUCH_D0 && b1 - b0 < look)
		return gen_touch_d_any(g->touch_d, g->touch_nb, b0, b1);
	return touched_any(g, dev, off, len, look);
}

/* A fresh start at OFF: the I/O's LEN bytes untouched, each block looked
 * at, and its run's SPAN (LOOK blocks of it): a stretch looked at evenly
 * steps over the blocks of a large I/O (chromium's 2.5 MiB reads, a scan's
 * too, landed on written blocks between the steps).  Inline: 3-5 asks an
 * I/O, its frame (the registers touched_any's paths need) a third of
 * each (blktrace: 8% of the placing thread).  The I/O's own look only
 * where the span's may have missed one of its blocks
 * (gen_fresh_own_look). */
static inline __attribute__((always_inline)) int fresh_span(struct model_gen *g, uint16_t dev,
							    uint64_t off, uint64_t len,
							    uint64_t span, uint64_t look)
{
	return !touched(g, dev, off, span, look) &&
	       !(gen_fresh_own_look(off, len, span, look) && touched(g, dev, off, len, TOUCH_MAX));
}

/* Mark blocks B0 to B1 touched: touch_mark's but for an I/O inside one
 * word of the direct set. */
static void touch_mark_blocks(struct model_gen *g, uint16_t dev, uint64_t b0, uint64_t b1)
{
	if (g->touch_d && b1 < g->touch_nb) {
		direct_mark(g->touch_d, g->touch_nb, b0, b1);
		return;
	}
	if (g->touch_xon) {
		direct_mark(g->touch_x[dev], g->touch_xn[dev], b0, b1);
		return;
	}
	if (g->touch_d)
		touch_hash(g);
	uint64_t *t = g->touched;
	if (!TOUCH_ADDITIVE(b1)) {
		for (uint64_t b = b0; b <= b1; b++) {
			uint64_t k = touch_bit(dev, b);
			t[k >> 6] |= 1ull << (k & 63);
		}
		return;
	}
	touch_run(t, (b0 ^ ((uint64_t)dev << 48)) * TOUCH_MUL, b1 - b0 + 1);
}

/* Mark the blocks of [off, off + len) touched (the first TOUCH_MAX of
 * them, as fit looks at them).  An I/O inside one word of the direct set
 * (nearly all) marked here, inlined: the call's frame for the hashed
 * set's paths was half of its instructions, at every I/O. */
static inline void touch_mark(struct model_gen *g, uint16_t dev, uint64_t off, uint64_t len)
{
	uint64_t b0 = off >> 12, b1 = (off + (len ? len - 1 : 0)) >> 12;
	if (b1 - b0 >= TOUCH_MAX)
		b1 = b0 + TOUCH_MAX - 1;
	if (g->touch_d && b1 < g->touch_nb && b0 >> 6 == b1 >> 6)
		g->touch_d[b0 >> 6] |= ~0ull << (b0 & 63) & ~0ull >> (63 - (b1 & 63));
	else
		touch_mark_blocks(g, dev, b0, b1);
}

/* Mark the blocks of a write [off, off + len) written (the first
 * TOUCH_MAX, as touch_mark, called after it: the written set is direct
 * only while the touched set is, and then the blocks are below touch_nb). */
static void writ_mark(struct model_gen *g, uint16_t dev, uint64_t off, uint64_t len)
{
	uint64_t b0 = off >> 12, b1 = (off + (len ? len - 1 : 0)) >> 12;
	if (b1 - b0 >= TOUCH_MAX)
		b1 = b0 + TOUCH_MAX - 1;
	if (g->writ_d) {
		for (uint64_t b = b0; b <= b1 && b < g->touch_nb; b++)
			g->writ_d[b >> 6] |= 1ull << (b & 63);
	} else if (!TOUCH_ADDITIVE(b1)) {
		for (uint64_t b = b0; b <= b1; b++) {
			uint64_t k = touch_bit(dev, b);
			g->writ[k >> 6] |= 1ull << (k & 63);
		}
	} else {
		touch_run(g->writ, (b0 ^ ((uint64_t)dev << 48)) * TOUCH_MUL, b1 - b0 + 1);
	}
}

/* Whether every block of [off, off + len) was written (TOUCH_LOOK of them
 * looked at, evenly spread, when it has more).  A block past the direct
 * set's was never written: the set moves to the hashed one when one is. */
static int writ_all(const struct model_gen *g, uint16_t dev, uint64_t off, uint64_t len)
{
	uint64_t b0 = off >> 12, b1 = (off + (len ? len - 1 : 0)) >> 12, step = 1;
	if (b1 - b0 >= TOUCH_LOOK)
		step = (b1 - b0) / TOUCH_LOOK + 1;
	if (g->writ_d && step == 1)
		return touch_d_next(g->writ_d, g->touch_nb, b0, b1, ~0ull) > b1;
	for (uint64_t b = b0; b <= b1; b += step) {
		if (g->writ_d && !(b < g->touch_nb && (g->writ_d[b >> 6] >> (b & 63)) & 1))
			return 0;
		uint64_t k = g->writ_d ? 0 : touch_bit(dev, b);
		if (!g->writ_d && !((g->writ[k >> 6] >> (k & 63)) & 1))
			return 0;
	}
	return 1;
}

/* The ring's Fenwick tree (a slot's count 1 while live): V added at slot I. */
static void ring_add(uint32_t *fw, uint32_t i, uint32_t v)
{
	for (i++; i <= GEN_UNREAD_RING; i += i & -i)
		fw[i - 1] += v;
}

/* The live slots below slot I. */
static uint32_t ring_below(const uint32_t *fw, uint32_t i)
{
	uint32_t c = 0;
	for (; i; i -= i & -i)
		c += fw[i - 1];
	return c;
}

/* The slot of the live one after K others (K below the live count). */
static uint32_t ring_kth(const uint32_t *fw, uint32_t k)
{
	uint32_t at = 0;
	for (uint32_t step = GEN_UNREAD_RING; step; step >>= 1)
		if (fw[at + step - 1] <= k) {
			at += step;
			k -= fw[at - 1];
			if (at == GEN_UNREAD_RING)
				break;
		}
	return at;
}

/* The granules of [OFF, OFF + LEN) set (a write, at the device's I/O
 * count NOW: each joins the ring), or cleared (a read: its ring slots are
 * dropped when gen_unread_back comes to them). */
void gen_unread_mark(struct unread *u, uint64_t off, uint64_t len, int set, uint64_t now)
{
	uint64_t g1 = (off + (len ? len - 1 : 0)) >> u->shift;
	for (uint64_t g = off >> u->shift; g <= g1 && g >> 6 < u->nw; g++) {
		uint64_t *w = &u->bits[g >> 6], b = 1ull << (g & 63), *z = &u->nz[g >> 12];
		u->n += set && !(*w & b);
		u->n -= !set && (*w & b);
		*w = set ? *w | b : *w & ~b;
		*z = *w ? *z | 1ull << (g >> 6 & 63) : *z & ~(1ull << (g >> 6 & 63));
		if (set) {
			uint32_t i = (uint32_t)(u->head++ % GEN_UNREAD_RING);
			if (u->rg[i] == UINT32_MAX) /* else the oldest, overwritten: live still */
				ring_add(u->fw, i, 1);
			u->live[i >> 6] |= 1ull << (i & 63);
			u->rg[i] = (uint32_t)g;
			u->rt[i] = (uint32_t)now;
		}
	}
}

/* Of the words K away each side of granule G's, the granule set nearest
 * G (the one up on a tie), or -1. */
static int64_t unread_near_at(const struct unread *u, uint64_t g, uint64_t k)
{
	uint64_t w = g >> 6, bd = UINT64_MAX;
	int64_t best = -1;
	if (w + k < u->nw) {
		uint64_t b = u->bits[w + k] & (k ? ~0ull : ~0ull << (g & 63));
		if (b) {
			best = (int64_t)((w + k) * 64 + (uint64_t)__builtin_ctzll(b));
			bd = (uint64_t)best - g;
		}
	}
	if (k <= w && w - k < u->nw) {
		uint64_t b = u->bits[w - k] & (k ? ~0ull : ~0ull >> (63 - (g & 63)));
		uint64_t at = b ? (w - k) * 64 + 63 - (uint64_t)__builtin_clzll(b) : 0;
		if (b && g - at < bd)
			best = (int64_t)at;
	}
	return best;
}

/*
 * The granule set nearest granule G by words: of the first words out from
 * G's (within GEN_UNREAD_SCAN each way) with one, or -1.  The words
 * between are found by the map of words set (nz): kernel-src's starts
 * mostly found none within the words, and looking at each of the 2,049
 * was over a quarter of gen's time.
 */
int64_t gen_unread_near(const struct unread *u, uint64_t g)
{
	uint64_t w = g >> 6, k = UINT64_MAX;
	if (!u->n)
		return -1;
	if (w < u->nw && u->bits[w])
		return unread_near_at(u, g, 0);
	uint64_t hi = w + GEN_UNREAD_SCAN + 1 < u->nw ? w + GEN_UNREAD_SCAN + 1 : u->nw;
	int64_t x = w + 1 < hi ? left_above(u->nz, (uint32_t)hi, (int64_t)w + 1) : -1;
	if (x >= 0)
		k = (uint64_t)x - w;
	if (w > 0) {
		uint64_t lo = w > GEN_UNREAD_SCAN ? w - GEN_UNREAD_SCAN : 0;
		uint64_t top = w - 1 < u->nw - 1 ? w - 1 : u->nw - 1;
		x = left_below(u->nz, (int64_t)lo, (int64_t)top);
		if (x >= 0 && w - (uint64_t)x < k)
			k = w - (uint64_t)x;
	}
	return k <= GEN_UNREAD_SCAN ? unread_near_at(u, g, k) : -1;
}

static inline int unread_bit(const struct unread *u, uint64_t g)
{
	return g >> 6 < u->nw && (u->bits[g >> 6] >> (g & 63) & 1);
}

/* The first granule set from G up (within GEN_UNREAD_SCAN words), or -1:
 * left_above's search, its end at those words. */
static int64_t unread_up(const struct unread *u, uint64_t g)
{
	uint64_t end = ((g >> 6) + GEN_UNREAD_SCAN + 1) * 64;
	return left_above(u->bits, (uint32_t)(end < u->nw * 64 ? end : u->nw * 64), (int64_t)g);
}

static inline int unread_bit(const struct unread *u, uint64_t g);

/* The live slots of the ring's writes A to B (B - A at most the ring). */
static uint32_t ring_count(const uint32_t *fw, uint64_t a, uint64_t b)
{
	uint32_t pa = (uint32_t)(a % GEN_UNREAD_RING), pb = (uint32_t)(b % GEN_UNREAD_RING);
	if (a >= b)
		return 0;
	return pa < pb ? ring_below(fw, pb) - ring_below(fw, pa)
		       : ring_below(fw, GEN_UNREAD_RING) - ring_below(fw, pa) + ring_below(fw, pb);
}

/* Of the ring's N live slots from slot I on (I live), in order (the live
 * map's next bits, a word's at a time), those read since dropped (their
 * count), the live one nearest granule WANT (the first as near) if nearer
 * than *BD: *BD its distance, *BEST its granule, *T its write's count.
 * The slots are looked at as they are found (kernel-src x84: 178 M slots,
 * each once stored in a list and read back, were a tenth of gen's time);
 * a drop clears a bit already passed. */
static uint32_t unread_look(struct unread *u, uint32_t i, uint32_t n, uint64_t want, uint64_t *bd,
			    int64_t *best, uint32_t *t)
{
	uint32_t dead = 0, j = i & ~63u;
	uint64_t w = u->live[j >> 6] & (~0ull << (i & 63));
	for (uint32_t k = 0; k < n; k++) {
		while (!w) {
			j = j + 64 == GEN_UNREAD_RING ? 0 : j + 64;
			w = u->live[j >> 6];
		}
		uint32_t at = j + (uint32_t)__builtin_ctzll(w), gr = u->rg[at];
		w &= w - 1;
		if (!unread_bit(u, gr)) {
			u->rg[at] = UINT32_MAX; /* read since: dropped */
			u->live[at >> 6] &= ~(1ull << (at & 63));
			ring_add(u->fw, at, UINT32_MAX);
			dead++;
			continue;
		}
		uint64_t x = gr > want ? gr - want : want - gr;
		if (x < *bd) {
			*bd = x;
			*best = gr;
			*t = u->rt[at];
		}
	}
	return dead;
}

/*
 * The granule written and not read since, of the ring's live slots
 * around the first whose write came at most D I/O before the device's
 * I/O count NOW (BEFORE of them older, AFTER from it on, fewer on one side
 * where the ring ends), nearest granule WANT (the oldest of those as
 * near); *T: its write's count.  -1: none.  Slots found read since are
 * dropped and the window taken again (a slot is looked at once dead, so
 * the cost stays O(log n) a slot), until it has none.  The window taken
 * again holds the last one's slots left, in order, and new ones either
 * side (they are contiguous by rank: a slot dropped moves the ranks
 * after it down by one, the window's start down by at most as many, its
 * end up to at least the last one's left): only the new ones are looked
 * at, the nearest of the last one's kept (kernel-src: two windows of
 * 1,024 a call on average, each looked at whole, were a quarter of gen's
 * time).
 */
int64_t gen_unread_back(struct unread *u, uint64_t now, double d, uint64_t want, uint32_t before,
			uint32_t after, uint32_t *t)
{
	uint64_t lo = u->head > GEN_UNREAD_RING ? u->head - GEN_UNREAD_RING : 0, a = lo,
		 b = u->head, bd = UINT64_MAX;
	uint32_t n32 = (uint32_t)now, kn = before + after;
	uint32_t s0 = 0, ns = 0; /* the last window's slots left: ranks s0 on, ns of them */
	int64_t best = -1;
	if (!gen_unread_live(u)) /* before the search: kernel-src's most asks (3.6 M of 3.8 M) */
		return -1;
	while (a < b) { /* the first write at most D back: ages fall along the ring */
		uint64_t mid = a + (b - a) / 2;
		if ((double)(uint32_t)(n32 - u->rt[mid % GEN_UNREAD_RING]) > d)
			a = mid + 1;
		else
			b = mid;
	}
	for (;;) {
		uint32_t all = gen_unread_live(u), dead = 0;
		if (!all)
			return -1;
		/* the live slots in write order from the ring's oldest: ranks */
		uint32_t base = ring_below(u->fw, (uint32_t)(lo % GEN_UNREAD_RING));
		uint32_t r0 = ring_count(u->fw, lo, a), r1;
		r0 = r0 > before ? r0 - before : 0;
		r1 = r0 + kn < all ? r0 + kn : all;
		r0 = r1 > kn ? r1 - kn : 0;
		if (!ns)
			s0 = r1;
		/* the new slots: before the last window's left ([r0, s0)),
		 * then after them ([s0 + ns, r1)); both runs' first slots
		 * found before any is dropped (a drop moves the ranks) */
		uint32_t nl = s0 - r0, nr = r1 - s0 - ns;
		uint32_t il = nl ? ring_kth(u->fw, (base + r0) % all) : 0;
		uint32_t ir = nr ? ring_kth(u->fw, (base + s0 + ns) % all) : 0;
		uint64_t ld = UINT64_MAX;
		uint32_t lt = 0;
		int64_t lb = -1;
		dead = nl ? unread_look(u, il, nl, want, &ld, &lb, &lt) : 0;
		if (lb >= 0 && ld <= bd) { /* the older as near: before the kept ones */
			bd = ld;
			best = lb;
			*t = lt;
		}
		dead += nr ? unread_look(u, ir, nr, want, &bd, &best, t) : 0;
		if (!dead)
			return best;
		s0 = r0; /* the window's slots left: ranks from its start on */
		ns = r1 - r0 - dead;
	}
}

/*
 * A read start at OFF (LOCAL: the device's local jump drawn) on a device
 * with p_unread: the granule to read by the reads' reuse distances (RD).
 * kernel-src's reads take tar's writes back a directory at a time, each
 * read local and its write near the last read's in the write history
 * (reuse distance at 10/50/90%: 32.7k / 59.3k / 87.8k I/O; each tenth of
 * the read phase reads a narrow band of the writes): a local start goes
 * on from the last read's write (GEN_UNREAD_NEAR live slots each way,
 * the one nearest OFF: the jump drawn kept), a remote one to a write RD's
 * distance back (the GEN_UNREAD_FAR live slots at or older than it, the
 * one nearest the device's cursor: the trace's remote reads stay within
 * 11 MB 95 times in 100).  Older than drawn: the blocks read already
 * leave the nearest ones younger than drawn (centred on it, reuse
 * distance KS 0.079 on seeds 1-16; older, 0.066).  OFF as drawn where
 * the ring has none.
 */
static uint64_t unread_pick(struct model_gen *g, const struct model_devspace *dv,
			    struct devstate *s, uint64_t off, int local)
{
	struct unread *u = s->ur;
	const struct model_dist *rd = s->rdist_r.nk ? &s->rdist_r : &dv->reuse_dist;
	uint32_t t = 0;
	int64_t gr = -1;
	if (local && u->last_ok)
		gr = gen_unread_back(u, s->hn, (double)(uint32_t)((uint32_t)s->hn - u->last_t) - 1,
				     off >> u->shift, GEN_UNREAD_NEAR / 2, GEN_UNREAD_NEAR / 2, &t);
	else if (!gen_unread_live(u)) /* none to go back to: the distance drawn, not inverted */
		(void)rnd_sp(g);
	else
		gr = gen_unread_back(u, s->hn, model_dist_inv(rd, rnd_sp(g)), s->cursor >> u->shift,
				     GEN_UNREAD_FAR, 0, &t);
	u->last_ok = gr >= 0;
	u->last_t = t;
	return gr >= 0 ? (uint64_t)gr << u->shift : off;
}

/*
 * A read start at OFF moved to the nearest block written and not read
 * since (kernel-src's reads go back to tar's writes in an order all but
 * independent of theirs, Spearman 0.14, each near the read before: half
 * within 64 blocks), where its LEN bytes find as many such blocks: the
 * stretch there, from lower down in it, or the next ones up
 * (GEN_UNREAD_TRIES).  Drawn at the nearest alone, its blocks ran on over
 * blocks read before (91.8k blocks read of the trace's 124.9k).
 */
static uint64_t unread_snap(const struct devstate *s, uint64_t off, uint64_t len, uint64_t al)
{
	const struct unread *u = s->ur;
	int64_t n = gen_unread_near(u, off >> u->shift);
	if (n < 0)
		return off;
	uint64_t nb = (len + (1ull << u->shift) - 1) >> u->shift, g = (uint64_t)n, at = g, up, dn;
	for (up = 0; up < nb && unread_bit(u, g + up); up++)
		;
	for (dn = 0; up + dn < nb && dn < g && unread_bit(u, g - dn - 1); dn++)
		;
	at = g - dn;
	for (int t = 0; up + dn < nb && t < GEN_UNREAD_TRIES; t++) {
		int64_t x = unread_up(u, g + up);
		if (x < 0)
			break;
		g = (uint64_t)x;
		for (up = dn = 0; up < nb && unread_bit(u, g + up); up++)
			;
		at = up >= nb ? g : at;
	}
	off = al_down(at << u->shift, al);
	if (off + len > s->extent)
		off = al_down(s->extent - len, al);
	return off;
}

/* OFF joins the device's history: the ring of the last GEN_HIST and a
 * uniform sample of all. */
static void remember(struct model_gen *g, struct devstate *s, uint64_t off)
{
	s->ring[s->hn % GEN_HIST] = off;
	s->hn++;
	if (s->hn <= GEN_RES) {
		s->res[s->hn - 1] = off;
	} else {
		uint64_t j = next64_sp(g) % s->hn;
		if (j < GEN_RES)
			s->res[j] = off;
	}
}

/* Where the re-use pass's I/O K goes: its place times the capacity's
 * scale, on the device's grid, inside the extent; its length in *LEN. */
static uint64_t pass_place(const struct model_devspace *dv, const struct devstate *s, uint32_t k,
			   uint64_t *len)
{
	uint64_t al = dv->align ? dv->align : 1;
	uint64_t off = al_down((uint64_t)((double)dv->pass[k].off * s->scale), al);
	*len = dv->pass[k].len < s->extent ? dv->pass[k].len : al_down(s->extent, al);
	if (off + *len > s->extent)
		off = al_down(s->extent - *len, al);
	return off;
}

/* The re-use pass's blocks marked touched from the start: the trace's
 * other I/O kept off them (each I/O that touched one again is in the
 * pass), and so do the fresh starts and runs drawn. */
static void pass_reserve(struct model_gen *g, const struct model_devspace *dv,
			 const struct devstate *s)
{
	for (uint32_t k = 0; k < dv->npass; k++) {
		uint64_t len, off = pass_place(dv, s, k, &len);
		touch_mark(g, dv->id, off, len);
	}
}

/* The re-use pass's I/O that an I/O of OP places, or -1: the next of its
 * op once the device's I/O so far (in this repeat of the model's
 * duration) have reached its index, scaled to the I/O per duration, or,
 * in the window that held it, once the window's I/O of the op still to
 * come (this one too) are no more than the pass's in it.  The window's
 * I/O of each op are the trace's, but their order in it is drawn: due at
 * their index alone, those after the window's last I/O of their op
 * waited for a later window's, in another phase, and took its sizes
 * (boot's working set written 0.89x: 14 re-writes of 1-3 blocks placed
 * 200-350 I/O late, in phase 0, whose writes of 24-43 blocks then stayed
 * in its quota).  Places are compared as products (exact at rate 1: at /
 * pass_n x nper rounded up past the index on about half of them, and
 * those came one I/O late). */
static int64_t pass_due(const struct model_devspace *dv, struct devstate *s, int op)
{
	if (!(s->nper >= 1))
		return -1;
	uint64_t cycle = (uint64_t)((double)s->hn / s->nper);
	if (cycle != s->pcycle) {
		s->pcycle = cycle;
		s->pnext[0] = s->pnext[1] = 0;
		s->pwin[0] = s->pwin[1] = 0;
	}
	int w = op != REEL_OP_READ;
	uint32_t k = s->pnext[w];
	while (k < dv->npass && dv->pass[k].write != w)
		k++;
	s->pnext[w] = k;
	double pos = (double)s->hn - (double)cycle * s->nper;
	if (k >= dv->npass)
		return -1;
	const struct gen_pass_win *pw = &s->pass_win[k];
	if (pos * s->addressed < pw->from * s->nper)
		return -1;		 /* before its window */
	if (s->pwin[w] != pw->win + 1) { /* its window entered: the op's I/O counted */
		s->pwin[w] = pw->win + 1;
		s->pseen[w] = 0;
	}
	s->pseen[w]++;
	if (pos * (double)dv->pass_n < (double)dv->pass[k].at * s->nper &&
	    floor(pw->nop * s->nper / s->addressed + 0.5) - (double)(s->pseen[w] - 1) >
		(double)pw->rem)
		return -1;
	s->pnext[w] = k + 1;
	return k;
}

/* gen_offsets_over(DV, S, OFF), the last region asked and its answer
 * kept in *LAST_R and *LAST_OVER (*LAST_R starts at UINT32_MAX): one
 * answer per region while the regions' counts stay (within one of the
 * loops below, whose tries land in few regions: chromium's history_back
 * asked 3.7 times an I/O). */
static inline int over_kept(const struct model_devspace *dv, const struct devstate *s, uint64_t off,
			    uint32_t *last_r, int *last_over)
{
	if (!gen_shares_kept(dv, s))
		return 0;
	uint32_t r = gen_region_of(dv, s, off);
	if (r != *last_r)
		*last_over = gen_offsets_over_r(dv, s, *last_r = r);
	return *last_over;
}

/* The offset of the I/O K back on the device (1: the one before), or one
 * of the sample of older ones; 0 when there is none. */
static int history_at(struct model_gen *g, const struct devstate *s, uint64_t k, uint64_t *off)
{
	if (k < 1)
		k = 1;
	if (k <= s->hn && k <= GEN_HIST) {
		*off = s->ring[(s->hn - k) % GEN_HIST];
		return 1;
	}
	uint64_t n = s->hn < GEN_RES ? s->hn : GEN_RES;
	if (!n)
		return 0;
	*off = s->res[next64_sp(g) % n];
	return 1;
}

/* history_at(G, S, K, OFF), and whether OFF's region is over its share
 * (over_kept's answer): a slot of the ring by the region kept with it
 * (rreg, filled with the ring where the touched set is) and the region's
 * answer kept (gen_over_kept_r).  compile's model x21979: 2.4 tries a
 * history_back, each a region looked up and most a share asked. */
static inline int history_over(struct model_gen *g, const struct model_devspace *dv,
			       struct devstate *s, uint64_t k, uint64_t *off)
{
	uint64_t j = k < 1 ? 1 : k;
	if (g->touched && j <= s->hn && j <= GEN_HIST) {
		uint64_t i = (s->hn - j) % GEN_HIST;
		*off = s->ring[i];
		return gen_shares_kept(dv, s) && gen_over_kept_r(dv, s, s->rreg[i]);
	}
	uint32_t last_r = UINT32_MAX;
	int last_over = 0;
	return history_at(g, s, k, off) && over_kept(dv, s, *off, &last_r, &last_over);
}

/* Boot at rate 1: 449k of its 502k local jumps made every try, ~3.7 a
 * jump, the jump's inverse CDF and its landing's region each time; the
 * tries after the last resort's landing mostly land in its region. */
int gen_local_all_shut(const struct model_devspace *dv, const struct devstate *s, uint64_t len,
		       uint64_t al, uint32_t r)
{
	int64_t a, b;
	if (!gen_local_shut(dv, s, r) || !gen_local_reach(dv, s, len, al, &a, &b))
		return 0;
	if (a > b)
		return 1;
	/* the regions in order of their offsets: [A, B]'s from A's to B's,
	 * R's among them (its landing is in [A, B]) */
	uint32_t ra, rb;
	if ((uint64_t)a < s->rtop) { /* scale 1: R's neighbours by their bounds */
		for (ra = r; ra > 0 && dv->bound[ra] > (uint64_t)a && r - ra < GEN_LOCAL_SHUT;)
			ra--;
		for (rb = r; rb + 1 < dv->nregions && dv->bound[rb + 1] <= (uint64_t)b &&
			     rb - ra < GEN_LOCAL_SHUT;)
			rb++;
	} else {
		ra = gen_region_of(dv, s, (uint64_t)a);
		rb = gen_region_of(dv, s, (uint64_t)b);
	}
	if (rb - ra >= GEN_LOCAL_SHUT)
		return 0;
	for (uint32_t x = ra; x <= rb; x++)
		if (x != r && !gen_local_shut(dv, s, x))
			return 0;
	return 1;
}

/* A local jump from the cursor (1, *off set) or none fits (0): drawn again
 * (up to GEN_LOCAL_TRIES times) while it lands outside the trace's
 * extents.  Jumps drawn independently walk the cursor away: a device of
 * local jumps alone (disksim's disk 8: 98% of its starts) drifted out of
 * its 2.5 MiB band (offset KS 0.4-0.6).  One landing where the device
 * holds more, or in a region holding none of the start's op (s->op; the
 * cursor at the edge of compile's log, a read's jump into it), is drawn
 * again too but kept as the last resort: made remote instead, boot's
 * jumps bent (KS 0.029 -> 0.043 median over seeds 1-16). */
static int local_jump(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		      uint64_t len, uint64_t al, uint64_t *off)
{
	int over = 0; /* one landing where the device holds more: the last resort */
	uint32_t over_r = 0, over_k = 0; /* its region and knot (gen_offsets_local_at's) */
	double ial = gen_al_inv(al);
	for (int t = 0; t < GEN_LOCAL_TRIES; t++) {
		double j = model_dist_inv(&dv->local, sdraw_sp(g, &s->s_local));
		int64_t jj = gen_lround(j * ial) * (int64_t)al; /* j / al */
		if (jj == 0)
			jj = j < 0 ? -(int64_t)al : (int64_t)al;
		int64_t a;
		int landing_over;
		uint32_t r, k;
		if (__builtin_add_overflow((int64_t)s->cursor, jj, &a) || a < 0 ||
		    (uint64_t)a + len > s->extent)
			continue;
		r = gen_region_of(dv, s, (uint64_t)a);
		/* the last resort kept, a landing in a region over its share or
		 * holding none of the op is passed at once: in the extents or
		 * not, it is not taken (compile: 161k of its 286k jumps end in
		 * the last resort, most of their tries so) */
		if (over && gen_local_shut(dv, s, r))
			continue;
		if (!gen_offsets_local_at(dv, s, (uint64_t)a, r, &landing_over, &k))
			continue;
		if (landing_over || !(gen_op_share(dv, r, s->op) > 0)) {
			if (!over) {
				*off = (uint64_t)a;
				over_r = r;
				over_k = k;
				over = 1;
				/* the tries left all passed (their draws made) */
				if (gen_local_all_shut(dv, s, len, al, r))
					for (t++; t < GEN_LOCAL_TRIES; t++)
						(void)sdraw_sp(g, &s->s_local);
			}
			continue;
		}
		*off = (uint64_t)a;
		s->kh = k; /* its knot, for its count (gen_offsets_count) */
		return 1;
	}
	/* with the odds given the region, a start whose cursor stays in a band
	 * at its region's odds goes on by the chain where the band holds its
	 * share (as the last resort, compile's read regions filled 1.3x): its
	 * whole share, not its share of the I/O so far (a band read in one
	 * stretch is over that on most visits: boot's local jumps 520 -> 368
	 * of its 1,334 made remote so with its odds per region, their KS
	 * 0.039 -> 0.066 over seeds 1-16); on a device whose regions' weights
	 * drift (seg_weights), a remote start, drawn by where the trace was
	 * then (disksim's disk 8: its local jumps from 0.8 MiB carried the
	 * walk into the log's late front, past 1.7 MiB, in its first fifth:
	 * its offsets out on 37 of seeds 1-256 without, 8 with) */
	return over && !(dv->p_local_fitted && gen_offsets_local_full_rk(dv, s, over_r, over_k)) &&
	       !dv->seg_fitted;
}

/* One draw of a run start of the kind LOCAL (a local jump, else remote
 * into the region *TO, drawn when -1).  Inline: 1.5 draws an I/O from
 * start_wanted's loops and start_hot, its frame 1-2% of the thread. */
static inline __attribute__((always_inline)) uint64_t
start_once(struct model_gen *g, const struct model_devspace *dv, struct devstate *s, uint64_t len,
	   uint64_t al, int local, int64_t *to)
{
	uint64_t off = 0;
	if (!(local && local_jump(g, dv, s, len, al, &off))) {
		off = al_down(remote(g, dv, s, to), al);
		if (s->started && off == s->cursor) /* not a run: keep it a jump */
			off = off >= al ? off - al : off + al;
	}
	if (off + len > s->extent)
		off = al_down(s->extent - len, al);
	return off;
}

/* The I/O a re-use K back goes to: the nearest to K in the ring (up to
 * GEN_NEAR either side) of OP where OP is the minority of the device's
 * I/O, else K.  A write re-writes what was written, a read re-reads
 * (boot: 74% of its re-using writes; taken at any op, 30%, and its
 * working set written 1.4-1.8x the trace's); for the majority op the I/O
 * K back mostly is of it already (steering it too bent chromium's jumps:
 * KS 0.059 on seed 3).  Where FEW (the device's distances kept as
 * quartiles), not one that a re-use went back to since: that re-use is
 * its block's last touch, and a second re-use drawn onto the same I/O
 * measured from the first (blkparse: its metadata blocks re-written a
 * commit after the one before, each re-use going back to the last). */
static uint64_t back_slot(const struct devstate *s, uint64_t k, int op, int few)
{
	uint64_t n = s->hn < GEN_HIST ? s->hn : GEN_HIST;
	int minor = 2 * s->opn[op] < s->hn; /* the op's I/O not the ring's most */
	if ((!minor && !few) || k < 1 || k > n)
		return k;
	/* where FEW, an I/O on a hot block (a region one block wide) within
	 * GEN_HOT_NEAR of K first: the trace's blocks re-used are its hot ones
	 * (blkparse: all 21 re-uses on its 13 hot blocks; drawn at the I/O
	 * nearest K, 13 a seed went to its log, which it never re-writes).
	 * The slots' bits a word at a time (ring_nearest): a loop over them, a
	 * region looked up for each, took 22% of compile x2000's instructions
	 * (2.3 calls an I/O, 7 lookups and ~20 slots a call) */
	return ring_nearest(s, k, n, op, minor, few);
}

/* A reuse distance drawn from RD (none kept: any of the N I/O in the
 * ring); where FEW, given that it is not past the device's I/O so far:
 * the draw U taken as U F(hn) where F(hn) < 1.  No re-use of a trace goes
 * back past its first I/O, so its first re-uses are short; one drawn past
 * them went to a random earlier I/O (blkparse: 3 of its 18-21 re-uses a
 * seed, drawn 40-73 back at its 30th-60th I/O).  Inline: chromium draws
 * 4.6 an I/O, its frame a sixth of each. */
static inline __attribute__((always_inline)) double back_dist(struct model_gen *g,
							      const struct devstate *s,
							      const struct model_dist *rd,
							      uint64_t n, int few)
{
	double u = rnd_sp(g);
	if (!rd->nk)
		return 1 + u * (double)n;
	double k = model_dist_inv(rd, u) + 0.5;
	if (few && k >= (double)s->hn + 1) {
		double below, at;
		model_dist_cdf(rd, (double)s->hn, &below, &at);
		k = model_dist_inv(rd, u * at) + 0.5;
	}
	return k;
}

/* A re-use of the minority op going back to the I/O AT back in the ring
 * (of N): the first I/O of the run of its op it is in (the I/O before it
 * of the op, ending where it starts), and that run's I/O from there on
 * noted (s->replay) for the run the re-use starts.  A re-write replays
 * the run it re-writes: in the traces 83-100% of the writes' re-using
 * starts go back to a run's first I/O and run as long as it did (fiu's
 * journal, 3-7 blocks written, re-written from its first block a few
 * I/O later); at the I/O a distance back, mid-run, they ran on past
 * what was written (fiu: its writes over read blocks 6 -> 38-47). */
static uint64_t replay_from(struct devstate *s, uint64_t at, uint64_t n)
{
#define RING(x) ((s->hn - (x)) % GEN_HIST)
	uint8_t op = s->rop[RING(at)];
	while (at < n && s->rop[RING(at + 1)] == op && s->rend[RING(at + 1)] == s->ring[RING(at)])
		at++;
	uint32_t len = 1;
	for (uint64_t e = at; e > 1 && s->rop[RING(e - 1)] == op &&
			      s->ring[RING(e - 1)] == s->rend[RING(e)] && len < GEN_NEAR;
	     e--)
		len++;
#undef RING
	s->replay = len;
	return at;
}

/* The reuse distances OP's re-uses go back: on a device keeping the
 * writes' own (reuse_distance_write), a write's those and a read's the
 * reads' (reads_dist: the device's less the writes'); else the device's. */
static const struct model_dist *op_dist(const struct model_devspace *dv, const struct devstate *s,
					int op)
{
	if (op != REEL_OP_READ && dv->reuse_dist_w.nk)
		return &dv->reuse_dist_w;
	return op == REEL_OP_READ && s->rdist_r.nk ? &s->rdist_r : &dv->reuse_dist;
}

/* *OFF: the offset of the I/O a reuse distance back on the device, drawn
 * from the model's (1), or none fits (0). */
static int history_back(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
			int op, uint64_t len, uint64_t al, int replay, uint64_t *off)
{
	uint64_t base, n = s->hn < GEN_HIST ? s->hn : GEN_HIST;
	/* no distances kept (under 16 re-uses: a small trace): any I/O before */
	const struct model_dist *rd = op_dist(dv, s, op);
	int few = rd->nk && rd->n < GEN_FEW_REUSES;
	double k = back_dist(g, s, rd, n, few);
	/* each K's slot found once: the try that stops the loop keeps its
	 * own (back_slot's answer is K's and the ring's alone) */
	uint64_t at = n ? back_slot(s, (uint64_t)k, op, few) : 0;
	for (int t = 0; t < GEN_LOCAL_TRIES && n && /* not where the device holds more */
			history_over(g, dv, s, at, &base);
	     t++) {
		k = back_dist(g, s, rd, n, few);
		at = back_slot(s, (uint64_t)k, op, few);
	}
	/* a write with its own distances, the fewer of the device's I/O: the
	 * run of writes it lands in replayed; none near the distance (a
	 * sparse phase of writes among reads), the latest one further back
	 * (else it wrote over read blocks: fiu's writes over read blocks
	 * 6 in the trace, 33-40 generated) */
	int minor = replay && rd == &dv->reuse_dist_w && 2 * s->opn[op] < s->hn;
	for (uint64_t b = at + 1;
	     minor && at >= 1 && b <= n && s->rop[(s->hn - at) % GEN_HIST] != op; b++)
		if (s->rop[(s->hn - b) % GEN_HIST] == op)
			at = b;
	if (minor && at >= 1 && at <= n && s->rop[(s->hn - at) % GEN_HIST] == op)
		at = replay_from(s, at, n);
	if (!n || !history_at(g, s, at, &base) || al_down(base, al) + len > s->extent ||
	    al_down(base, al) == s->cursor || reserved(dv, s, al_down(base, al), len)) {
		s->replay = 0;
		return 0;
	}
	if (few && at >= 1 && at <= n) { /* the re-use is its block's last touch from now */
		uint64_t i = (s->hn - at) % GEN_HIST;
		s->gone[i / 64] |= 1ull << (i % 64);
	}
	if (g->touched && at <= n) /* its slot's knot, for the count's look */
		s->kh = s->rkn[(s->hn - (at < 1 ? 1 : at)) % GEN_HIST];
	*off = al_down(base, al);
	return 1;
}

/* Whether a start takes a kind of the share P of those SEEN (one more
 * now), MADE taken so far: at the odds P times the trace's so far over
 * MADE (a prior of GEN_PACE_PRIOR), so that those not found do not go
 * missing. */
static int paced(struct model_gen *g, double p, uint64_t *seen, uint64_t made)
{
	double want = p * (double)(*seen)++ + GEN_PACE_PRIOR;
	return rnd_sp(g) < p * want / ((double)made + GEN_PACE_PRIOR);
}

/*
 * A fresh remote start that resumes a stream (1, *OFF set): at the end of
 * the latest of the device's last GEN_RESUME I/O of its op (a read, or
 * not) whose blocks after it are untouched and whose region is not over its
 * share, at the odds of the trace's resumed remote starts (p_resume), paced
 * by those made so far (a prior of GEN_PACE_PRIOR: many find none).  A log
 * written in order among other I/O (chromium's band: each of its 95
 * entries resumes at the end of the band's last write; fiu, 58% of its
 * remote starts) came out as starts at random in the band, which found it
 * full of their neighbours and scanned up out of it.
 */
static int resume_at(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		     int op, uint64_t len, uint64_t *off)
{
	if (!(dv->p_resume > 0) || !paced(g, dv->p_resume, &s->nremote, s->nresumed))
		return 0;
	uint64_t n = s->hn < GEN_RESUME ? s->hn : GEN_RESUME;
	int kept = gen_shares_kept(dv, s); /* over_kept's guard */
	uint64_t ep = s->hn / GEN_OVER_AHEAD + 1;
	if (s->rov_ep != ep) { /* the slots passed over: none yet this time */
		memset(s->rover, 0, sizeof(s->rover));
		s->rov_ep = ep;
	}
	/* the slots known touched, or of the other kind, stepped over a
	 * word of the bitmaps at a time (ring_resume_bits): J I/O back is
	 * slot I, the word's slots below it J + 1 on */
	for (uint64_t j = 1, i = (s->hn - 1) % GEN_HIST; j <= n;
	     j += i % 64 + 1, i = (s->hn - j) % GEN_HIST)
		for (uint64_t v = ring_resume_bits(s, i, op) & ~s->rover[i / 64]; v;) {
			uint64_t p = 63 - (uint64_t)__builtin_clzll(v), k = i - i % 64 + p;
			v ^= 1ull << p;
			if (j + i % 64 - p > n)
				return 0;
			uint64_t e = s->rend[k];
			if (e == s->cursor || e + len > s->extent)
				continue;
			/* touched looks at the block at E first, whatever LEN: once it is
			 * touched (for good), the slot is known so (most are: the next
			 * I/O of a run starts there), not looked up each time */
			if (touched(g, dv->id, e, 1, 1)) {
				s->rtouch[k / 64] |= 1ull << (k % 64);
				continue;
			}
			if (kept && gen_resume_over(dv, s, k, e)) {
				uint32_t r = s->rs_r[k % GEN_RESUME];
				if (s->ovu_ep[r] != ep) {
					s->ovu_ep[r] = ep;
					s->ovu[r] = (uint8_t)gen_offsets_over_until(
					    dv, s, r, ep * GEN_OVER_AHEAD);
				}
				s->rover[k / 64] |= (uint64_t)s->ovu[r] << (k % 64);
				continue;
			}
			if (touched(g, dv->id, e, len, TOUCH_LOOK) ||
			    !start_clear(dv, s, e, len, len))
				continue;
			*off = e;
			s->nresumed++;
			return 1;
		}
	return 0;
}

/*
 * A fresh remote start not resumed that lands near one of the device's
 * last MODEL_NEAR_BACK I/O (1, *OFF set): a near_jump from the offset of
 * the I/O a near_back back (none kept: within local_limit either way, of
 * any of them), not within local_limit of the cursor (a local jump's
 * place), its run's span (as start_wanted's) untouched, over no kept run
 * still to come, in a region not over its share, over no dense stretch;
 * up to GEN_LOCAL_TRIES draws, at the odds p_near paced (the chance ones
 * come besides: p_near is the trace's share beyond them).  disksim's 15
 * disks read and written at random, 111 of their 6,849 I/O near one of
 * the 100 before: the offsets CDF placed 10-16 there.  The device's runs'
 * next I/O (nrun) are near I/O too: counted with those placed in the pace,
 * and while they alone are p_near's share of the starts or more, none is
 * placed, nor drawn for.  seq_decide extends runs on disksim's 15 disks,
 * which have none, for disk 8's share (42-78 I/O a seed): their near I/O
 * 144-195 a seed, the trace 111; with the runs counted, 124-151.
 */
static int near_at(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		   uint64_t len, uint64_t al, double unit, double u, uint64_t *off)
{
	if (!(dv->p_near > 0))
		return 0;
	if ((double)s->nrun >= dv->p_near * (double)(s->nfar + 1)) {
		s->nfar++; /* the runs alone make the share: no draw */
		return 0;
	}
	if (!paced(g, dv->p_near, &s->nfar, s->nnear + s->nrun))
		return 0;
	uint64_t n = s->hn < MODEL_NEAR_BACK ? s->hn : MODEL_NEAR_BACK, lim = dv->local_limit;
	for (int t = 0; t < GEN_LOCAL_TRIES && n; t++) {
		double k = dv->near_back.nk ? model_dist_inv(&dv->near_back, rnd_sp(g)) + 0.5
					    : 1 + rnd_sp(g) * (double)n;
		double j = dv->near_jump.nk ? model_dist_inv(&dv->near_jump, rnd_sp(g))
					    : (2 * rnd_sp(g) - 1) * (double)lim;
		uint64_t back = k < 1 ? 1 : k > (double)n ? n : (uint64_t)k;
		int64_t a = (int64_t)s->ring[(s->hn - back) % GEN_HIST] +
			    gen_lround(j / (double)al) * (int64_t)al;
		if (a < 0 || (uint64_t)a + len > s->extent)
			continue;
		uint64_t at = al_down((uint64_t)a, al);
		uint64_t span =
		    (uint64_t)(unit *
			       (double)(run_length(dv, s, u, (int64_t)gen_region_of(dv, s, at)) +
					1));
		if ((at > s->cursor ? at - s->cursor : s->cursor - at) <= lim ||
		    !fresh_span(g, dv->id, at, len, span, TOUCH_LOOK) ||
		    gen_offsets_over(dv, s, at) || !start_clear(dv, s, at, len, span))
			continue;
		*off = at;
		s->nnear++;
		return 1;
	}
	return 0;
}

/* A re-using start drawn onto the blocks of the device's last s->recent
 * I/O (but the last of TRY's draws), or of its last s->far (far_of; the
 * last draw too): drawn again.  Local jumps land near the cursor, on the
 * blocks just touched (boot: 35% of its generated re-uses under 16 I/O
 * back, the trace's 8%; compile's none under 32, generated 31%). */
static int too_near(const struct devstate *s, uint64_t off, uint64_t len, int try)
{
	uint64_t k = try < GEN_TRIES - 1 && s->recent > s->far ? s->recent : s->far;
	for (uint64_t j = 1; j <= k && j <= s->hn; j++) {
		uint64_t i = (s->hn - j) % GEN_HIST;
		if (s->ring[i] < off + len && s->rend[i] > off)
			return 1;
	}
	return 0;
}

/* A local re-using start keeps off the blocks of the device's last K - 1
 * I/O, K a reuse distance drawn (at most GEN_FAR_MAX), on every draw: one
 * that finds no block so far back goes back a reuse distance instead
 * (history_back).  The local jumps land near the cursor, whose blocks the
 * recent I/O touched: chromium's local re-using writes came 2/9/23 I/O
 * back at the 10/25/50% quantiles (the trace's 15/54/94), its remote ones
 * where the trace's are.  K is drawn from the op's distances (op_dist:
 * fiu's reads re-use 1 I/O back, its writes up to thousands; drawn from
 * the device's, 20 of its local re-reads a seed went back thousands).
 * None (0) where the device keeps no distances, or keeps a re-use pass. */
static uint32_t far_of(struct model_gen *g, const struct model_devspace *dv,
		       const struct devstate *s, int op)
{
	const struct model_dist *rd = op_dist(dv, s, op);
	if (!rd->nk || model_pass_alone(dv))
		return 0;
	double k = back_dist(g, s, rd, s->hn, rd->n < GEN_FEW_REUSES);
	return k >= GEN_FAR_MAX ? GEN_FAR_MAX - 1 : k >= 1 ? (uint32_t)k - 1 : 0;
}

/* A fresh start's re-use where no fresh stretch was found: the I/O a
 * reuse distance back; reads that never re-use in the trace take a
 * stretch no write of the ring touched (not on a device's one-draw
 * start, FULL).  None fits: the start's last draw (*DRAWN; NULL: a start
 * that skipped the search, gen_search_skipped, one remote draw, as the
 * skipped start's own would be local and kept fewer of the written
 * blocks: HISTORY.md, gscale), but not over a kept run still to come. */
static uint64_t reuse_after_search(struct model_gen *g, const struct model_devspace *dv,
				   struct devstate *s, int op, uint64_t len, uint64_t al, int full,
				   const uint64_t *drawn)
{
	uint64_t off = drawn ? *drawn : 0;
	int nw = !full && op == REEL_OP_READ && dv->p_reuse_op[0] <= 0, back = 0;
	for (int t = 0; t < (nw ? GEN_TRIES : 1); t++)
		if ((back = history_back(g, dv, s, op, len, al, 0, &off)) &&
		    !(nw && gen_written(s, off, len)))
			break;
	if (!back && !drawn)
		off = start_once(g, dv, s, len, al, 0, &(int64_t){-1});
	/* none a reuse distance back (over a kept run still to come, past the
	 * extent): the last draw, but not over a kept run either (chromium's
	 * 38-block write there, the run's 12 I/O then re-used 823 back); a
	 * remote jump, the chain's region (the draws' may be the run's band) */
	for (int t = 0; !back && t < GEN_TRIES && reserved(dv, s, off, len); t++)
		off = start_once(g, dv, s, len, al, 0, &(int64_t){-1});
	return off;
}

uint64_t gen_steps_kept(const struct model_devspace *dv, const struct devstate *s, uint64_t *off,
			uint64_t len, uint64_t span, uint64_t step, uint64_t left)
{
	uint64_t e = reserved_end(dv, s, *off, span), k = e > *off ? (e - *off - 1) / step : 0;
	uint64_t fit = (s->extent - len - *off) / step; /* *off + len <= extent: a step's */
	k = k < left ? k : left;
	k = k < fit ? k : fit;
	*off += k * step;
	return k;
}

/* A fresh start's GEN_SCAN steps by STEP from *OFF whose spans hold a
 * touched block, passed at once where fresh_span looks at each of the
 * span's blocks in the direct set and at nothing else (at most
 * TOUCH_SCAN of them, the I/O's own look not asked: the caller's WHOLE):
 * at most LEFT, those whose LEN fits the extent; *OFF the last passed,
 * and how many.  STEP is whole blocks, so each span's blocks are the
 * first's moved on (blktrace's model x88496: 832k such steps in 300k
 * I/O). */
static inline __attribute__((always_inline)) uint64_t
steps_touched(const struct model_gen *g, const struct devstate *s, uint64_t *off, uint64_t len,
	      uint64_t span, uint64_t step, uint64_t left)
{
	uint64_t a = *off, sb = step >> 12, b0 = a >> 12, b1 = (a + (span ? span - 1 : 0)) >> 12;
	if (!g->touch_d || !sb) /* moved to the hashed bits meanwhile; or no step */
		return !g->touch_d || a + len > s->extent || b1 >= TOUCH_D0 ||
			       !gen_touch_d_any(g->touch_d, g->touch_nb, b0, b1)
			   ? 0
			   : left;
	/* the steps whose LEN fits the extent and whose span is in the
	 * direct set: at most N */
	uint64_t n = a <= s->extent && len <= s->extent - a ? (s->extent - a - len) / step : 0;
	n = n < left ? n : left;
	if (b1 >= TOUCH_D0)
		n = 0;
	else if ((TOUCH_D0 - 1 - b1) / sb < n)
		n = (TOUCH_D0 - 1 - b1) / sb;
	uint64_t k = gen_touch_d_steps(g->touch_d, g->touch_nb, b0, b1 - b0 + 1, sb, n);
	*off = a + k * step;
	return k;
}

uint64_t gen_steps_touched(const struct model_gen *g, const struct devstate *s, uint64_t *off,
			   uint64_t len, uint64_t span, uint64_t step, uint64_t left)
{
	return steps_touched(g, s, off, len, span, step, left);
}

/* The GEN_SCAN places a span's blocks apart up the device past *AT for
 * a fresh start of LEN bytes, its run SPAN: the first whose span is
 * untouched, off the kept runs still to come and the dense places (1,
 * *AT); else 0, *AT the last looked at (where the tries after it draw
 * from).  The places on touched blocks where the spans are looked at
 * whole in the direct set (steps_touched), and those over a kept run
 * (gen_steps_kept), passed at once. */
static inline int scan_steps(struct model_gen *g, const struct model_devspace *dv,
			     const struct devstate *s, uint64_t len, uint64_t span, uint64_t *at)
{
	uint64_t off = *at, step = (span + 4095) & ~(uint64_t)4095;
	int found = 0, whole = g->touch_d &&
			       ((off + (span ? span - 1 : 0)) >> 12) - (off >> 12) < TOUCH_SCAN &&
			       !gen_fresh_own_look(off, len, span, TOUCH_SCAN);
	for (int t = 0; t < GEN_SCAN && !found; t++) {
		if (whole && (t += (int)steps_touched(g, s, &off, len, span, step, GEN_SCAN - t)) >=
				 GEN_SCAN)
			break;
		uint64_t next = off + step;
		if (next < off || next + len > s->extent)
			break;
		off = next;
		if (!fresh_span(g, dv->id, off, len, span, TOUCH_SCAN))
			continue;
		if (reserved(dv, s, off, span)) /* and the steps on it */
			t += (int)gen_steps_kept(dv, s, &off, len, span, step, GEN_SCAN - 1 - t);
		else
			found = !gen_offsets_dense(dv, s, off, len);
	}
	*at = off;
	return found;
}

/* A start of the kind wanted (WANT: re-using a block, else fresh over
 * SPAN bytes), drawn up to GEN_TRIES times (a remote jump into the region
 * the first draw chose: the regions keep their share of the run starts,
 * where redrawing the region moved starts out of the trace's dense bands
 * as they filled up); a fresh one not found by the
 * draws (the trace's band of offsets fills up) is the next stretch of the
 * run's size past the last draw that is still untouched, as a scan over
 * the band would find it, and above the model's rate the next one up the
 * device (room_up); a re-use not found goes back to the I/O a reuse
 * distance back on the device.  A fresh try asks its touched words before
 * start_clear: the other order (round 29's gdisk) hid disksim's touched
 * word, but asked reserved and the address CDF on the tries the touched
 * set turns down (git scaled 2.3% more instructions). */
static uint64_t start_wanted(struct model_gen *g, const struct model_devspace *dv,
			     struct devstate *s, int op, uint64_t len, uint64_t al, int local,
			     int *want, double unit, double u)
{
	uint64_t off = 0, span = len;
	uint32_t span_r = UINT32_MAX; /* the region SPAN was asked for */
	int64_t to = -1;
	chain_ask(g, dv, s, local);
	if (*want && (!local || (op != REEL_OP_READ && dv->reuse_dist_w.nk)) &&
	    history_back(g, dv, s, op, len, al, 1, &off))
		return off; /* a remote re-use: at the trace's reuse distance */
	if (!*want && gen_search_skipped(dv, s)) {
		*want = 1;
		return reuse_after_search(g, dv, s, op, len, al, 1, NULL);
	}
	/* a device whose last GEN_FULL fresh starts found no room (its band
	 * full): one draw, the full search every GEN_FULL-th start */
	int full = !*want && !s->widen && s->fresh_fails >= GEN_FULL && s->fresh_fails % GEN_FULL;
	s->miss = 1;	    /* a fresh start's tries found no room, unless said */
	uint32_t r0 = 0;    /* the first draw's region */
	s->reusing = *want; /* local jumps onto touched blocks: where they are */
	s->far = *want && local ? far_of(g, dv, s, op) : 0;
	for (int t = 0; t < (full ? 1 : GEN_TRIES); t++) {
		off = start_once(g, dv, s, len, al, local, &to);
		touch_ask_early(g, dv->id, off); /* before the look-ups below */
		if (!t) {
			r0 = to >= 0 ? (uint32_t)to : gen_region_of(dv, s, off);
			/* widened, the first draw's region full of late: one
			 * draw, the full search every GEN_FULL-th start (a
			 * stream resumed all the same) */
			full |= !*want && s->widen && s->missed[r0] > GEN_ROOM_FULL &&
				s->nfresh++ % GEN_FULL;
			s->miss_at = r0;
		}
		if (!t && !*want && (!full || s->widen) && to >= 0 &&
		    (resume_at(g, dv, s, op, len, &off) ||
		     near_at(g, dv, s, len, al, unit, u, &off))) {
			s->miss = -1; /* not the bands' room: not counted */
			return off;
		}
		if (!*want) { /* the run as long as it would be there: asked once a
			       * region, U the start's (git: 1.6 tries a start) */
			uint32_t r = gen_region_of(dv, s, off);
			if (r != span_r) {
				int64_t rl = run_length(dv, s, u, (int64_t)r);
				span = (uint64_t)(unit * (double)(rl + 1));
				span_r = r;
			}
		}
		if (*want ? touched(g, dv->id, off, len, TOUCH_LOOK) &&
				!reserved(dv, s, off, len) && !too_near(s, off, len, t)
			  : fresh_span(g, dv->id, off, len, span, TOUCH_LOOK) &&
				start_clear(dv, s, off, len, span)) {
			s->fresh_fails = *want ? s->fresh_fails : 0;
			s->miss = 0;
			return off;
		}
	}
	/* a remote start whose region's tries all landed on touched blocks: the
	 * next untouched stretch for the I/O up the region (wrapping at its
	 * end), as start_hot's.  A narrow band read once (boot-nspawn's 47-block
	 * regions of 1-block reads, short of their share and so drawn) is
	 * soon full: 8 random tries there found none, the span's scan stepped
	 * out of it, the tries for the I/O alone drew the full region again,
	 * and the start re-used (boot-nspawn's re-use share of 0.22%, 6-20x on
	 * 9 seeds of 128 with the local odds per region).  A region without
	 * room: the tries for the I/O alone each draw the chain's region. */
	uint64_t at = off;
	int kept = to >= 0;
	/* so too a local start on a device with its regions' own odds, up the
	 * region of its last landing: a band read once, the span's scan past
	 * its tries left it (boot: 6 of 36 starts a seed from its band) */
	int64_t in = to;
	if (in < 0 && local && dv->p_local_fitted)
		in = (int64_t)gen_region_of(dv, s, off);
	if (!*want && !full && in >= 0 &&
	    scan_fresh(g, dv, s, (uint64_t)((double)dv->bound[in] * s->scale),
		       (uint64_t)((double)dv->bound[in + 1] * s->scale), len, al, &at) &&
	    start_clear(dv, s, at, len, len)) {
		s->fresh_fails = 0;
		return at;
	}
	if (!*want && !full && scan_steps(g, dv, s, len, span, &off)) {
		s->fresh_fails = 0;
		return off;
	}
	/* no room for the run: one for the I/O alone (the run then stops
	 * short of touched blocks, its I/O owed), rather than a re-use the
	 * trace's op may not make (chromium's reads of 2.5 MiB, never on
	 * written blocks in its trace, went back to the reads before them) */
	for (int t = 0; !*want && !full && t < GEN_TRIES; t++) {
		if (kept) /* its region without room: the chain's, each try */
			to = -1;
		at = start_once(g, dv, s, len, al, local, &to);
		if (!touched(g, dv->id, at, len, TOUCH_LOOK) && start_clear(dv, s, at, len, len))
			return at;
	}
	/* an op that never re-uses in the trace: the nearest untouched stretch
	 * up the device (chromium's reads of 1-2.5 MiB, none re-reading in the
	 * trace, re-read 8-16 times a seed here, and took the write starts'
	 * re-uses from the pace: reuse_owed) */
	if (!*want && !full && dv->reuse_fitted && dv->p_reuse_op[op != REEL_OP_READ] <= 0 &&
	    scan_untouched(g, dv, s, off, len, al, GEN_SCAN_FAR, &off))
		return off;
	s->fresh_fails += !*want;
	if (!*want && room_up(g, dv, s, r0, len, span, al, &off))
		return off; /* generated above the trace's rate: its bands widened */
	*want = 1;	    /* a fresh stretch not found: it re-uses, as the model's re-uses do */
	return reuse_after_search(g, dv, s, op, len, al, full, &off);
}

/* Whether OP's re-uses go to the device's hot blocks (back_slot's FEW: the
 * distances kept as quartiles) and it has any (a region one block wide).
 * There a re-using start wider than a block is made fresh and the next
 * start re-uses in its place (run_start's reuse_due): the trace's
 * re-uses re-write its hot blocks one at a time (blkparse: all 21 of
 * 4 KiB, its five large writes fresh), and a large one drawn to re-use
 * re-wrote its hot blocks' neighbours or 20 blocks of its log (11 blocks
 * a seed: working set written 0.96 of the trace's). */
static int reuse_hot(const struct model_devspace *dv, const struct devstate *s, int op)
{
	const struct model_dist *rd = op_dist(dv, s, op);
	if (!(rd->nk && rd->n < GEN_FEW_REUSES))
		return 0;
	for (uint32_t r = 0; r < dv->nregions; r++)
		if (region_hot(dv, r))
			return 1;
	return 0;
}

/* The odds of a re-using start, times the trace's re-using starts per
 * I/O over the generated's so far (a prior of GEN_PACE_PRIOR, at most 2):
 * runs shorter than the trace's (a long run not drawn) bring more starts,
 * and the re-use share of the I/O would grow with them. */
static double reuse_pace(const struct model_devspace *dv, const struct devstate *s)
{
	if (!(dv->run.mean >= 1))
		return 1;
	double want = (double)s->hn * dv->p_reuse / dv->run.mean + GEN_PACE_PRIOR;
	double r = want / ((double)s->reused + GEN_PACE_PRIOR);
	return r < 2 ? r : 2;
}

/* The trace's run starts after its first over those gen draws re-use for:
 * the kept runs' starts are placed where they were (run_start) and draw
 * none, while p_reuse counts them (fresh in the traces: blkparse's 8 of
 * 66, whose other 58 re-use at 0.36 against p_reuse's 0.32; its re-use
 * share generated 0.89 of the trace's, the pace's prior of GEN_PACE_PRIOR
 * making up little of it). */
static double reuse_kept(const struct model_devspace *dv)
{
	double n = (double)dv->run.n - 1;
	return n > (double)dv->nlong ? n / (n - (double)dv->nlong) : 1;
}

/* The odds of a re-using start of OP: the op's share (in the phase, with
 * p_reuse_phase) times the pace.  With p_reuse_phase the pace is the op's:
 * the re-using starts the trace makes in the I/O of the op generated so far
 * (each I/O the phase's share times its starts per I/O, 1 - its share
 * continuing a run) over those made, a prior of GEN_PACE_PRIOR, at most 2
 * (the device's pace let the writes' re-uses make up for the reads'
 * missing: fiu's reuse-distance KS to 0.15). */
static double reuse_phase_odds(const struct model_gen *g, const struct model_devspace *dv,
			       const struct devstate *s, int op)
{
	int k = op != REEL_OP_READ;
	if (!dv->reuse_ph_fitted)
		return dv->p_reuse_op[k] * reuse_kept(dv) * reuse_pace(dv, s);
	double p =
	    dv->p_reuse_ph[g->phase][k] >= 0 ? dv->p_reuse_ph[g->phase][k] : dv->p_reuse_op[k];
	double r = (s->ph_want[k] + GEN_PACE_PRIOR) / ((double)s->ph_reused[k] + GEN_PACE_PRIOR);
	return p * (r < 2 ? r : 2);
}

/* The I/O of OP on the device generated in phase P: the re-using starts the
 * trace makes in as many (reuse_phase_odds). */
static void reuse_phase_count(const struct model_gen *g, const struct model_devspace *dv,
			      struct devstate *s, size_t p, int op)
{
	int k = op != REEL_OP_READ;
	double q = dv->p_reuse_ph[p][k] >= 0 ? dv->p_reuse_ph[p][k] : dv->p_reuse_op[k];
	double sw = g->seq_want ? g->seq_want[p][op] : -1;
	s->ph_want[k] += q * (sw >= 0 ? 1 - sw : 1 / fmax(1, dv->run.mean));
}

/* The odds of a run start of OP and LEN bytes re-using a block: the op's
 * share, times its size class's over the device's. */
static double reuse_odds(const struct model_devspace *dv, int op, uint64_t len)
{
	double p = dv->p_reuse_op[op != REEL_OP_READ];
	if (dv->p_reuse > 0)
		p *= dv->p_reuse_size[model_reuse_size(len)] / dv->p_reuse;
	return p < 1 ? p : 1;
}

/* Region R's width, generated, is at least LEN. */
static inline int wide(const struct model_devspace *dv, const struct devstate *s, uint32_t r,
		       uint64_t len)
{
	return (double)(dv->bound[r + 1] - dv->bound[r]) * s->scale >= (double)len;
}

int gen_wide_sums(const struct model_devspace *d, const struct devstate *s, int k, uint64_t len,
		  double *c)
{
	double w = 0;
	int up = 1;
	for (uint32_t r = 0; r < d->nregions; r++) {
		double x = wide(d, s, r, len) ? gen_weight_in(d, k, r) : 0;
		up &= x >= 0;
		c[r] = w += x;
	}
	return up;
}

/* A region at least LEN wide, drawn by weight (-1: none): the first whose
 * sum (gen_wide_sums) is above U times their total.  The sums are kept
 * for the LEN and segment they were made for: start_hot asks at each of
 * its last tries with the same LEN, and the walks over every region (two
 * a call, the width's branch at each) were 40 M instructions and 0.7 M
 * missed branches of chromium's placing thread a million I/O at rate 1
 * (~12k calls, 121 regions). */
static int64_t wide_region(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
			   uint64_t len)
{
	int k = gen_offsets_seg(dv, s);
	if (s->wide_k != k || s->wide_len != len) {
		s->wide_up = gen_wide_sums(dv, s, k, len, s->wide_c);
		s->wide_k = k;
		s->wide_len = len;
	}
	return gen_wide_pick(s->wide_c, dv->nregions, s->wide_up, rnd_sp(g));
}

/* [AT, AT + LEN) is inside the device and untouched: a fresh start, paid. */
static int fresh_at(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		    uint64_t at, uint64_t len)
{
	if (at + len > s->extent || touched(g, dv->id, at, len, TOUCH_LOOK))
		return 0;
	s->fresh_due -= 1;
	s->fresh_fails = 0;
	return 1;
}

/* The next untouched stretch of LEN bytes up from *AT in [LO, HI), block
 * by block (wrapping at HI), GEN_SCAN looked at: 1 and *AT, else 0.  Steps
 * of the I/O's own length found no room in msr's 36-block regions half
 * written (two places for a 15-block write). */
#define SCAN_AHEAD 16  /* stretches whose touched words are asked for ahead */
#define SCAN_BLOCKS 96 /* blocks past the look whose words scan_run asks for ahead */

/* The blocks of a stretch of LEN bytes at A (touched's: touched looks at
 * each of them up to TOUCH_LOOK). */
static inline uint64_t span_blocks(uint64_t a, uint64_t len)
{
	return ((a + (len ? len - 1 : 0)) >> 12) - (a >> 12) + 1;
}

/* Of the stretches of M blocks starting at block B, B + 1, ..., B + K - 1
 * (device DEV), the first with no block touched: its index, else K.  The
 * blocks are looked at once each, in order, a word of the set at a time
 * (the blocks whose slots lie side by side): a touched block rules out
 * every stretch over it, so the next one that may be fresh starts past
 * it (in a full band, a block per stretch, ten to a word). */
static uint64_t scan_run(const uint64_t *t, uint16_t dev, uint64_t b, uint64_t k, uint64_t m)
{
	uint64_t cs = 0, j = 0, n = k + m - 1, pf = 0; /* cs: the first stretch still possible */
	uint64_t x = (b ^ ((uint64_t)dev << 48)) * TOUCH_MUL, y = x;
	while (j < n && cs < k) {
		for (; pf < n && pf < j + SCAN_BLOCKS; pf += 8, y += 8 * TOUCH_MUL)
			__builtin_prefetch(&t[touch_slot(y >> (64 - TOUCH_BITS)) >> 6]);
		uint64_t w, bits, nb = touch_word(x, n - j, &w, &bits);
		uint64_t v = t[w] & bits;
		if (v == bits) { /* all touched (a full band): past them */
			cs = j + nb;
			v = 0;
		}
		for (v >>= __builtin_ctzll(bits); v; v &= v - 1) {
			/* each touched block: the stretches over it out */
			uint64_t l = j + (uint64_t)__builtin_ctzll(v);
			if (l - cs >= m)
				return cs < k ? cs : k;
			cs = l + 1;
		}
		j += nb;
		x += nb * TOUCH_MUL;
		if (j - cs >= m && cs < k)
			return cs;
	}
	return k;
}

/* scan_run on the touched set as it is kept (the direct set: each touched
 * block found by its word, the stretches over it out). */
static uint64_t direct_scan(const uint64_t *t, uint64_t nb, uint64_t b, uint64_t k, uint64_t m)
{
	if (m >= 1 && m <= 64)
		return gen_touch_d_fit(t, nb, b, k, m);
	for (uint64_t cs = 0; cs < k;) {
		/* the next untouched block (a start on a touched one is out) */
		uint64_t s = touch_d_next(t, nb, b + cs, b + k - 1, ~0ull);
		if (s >= b + k)
			return k;
		uint64_t p = touch_d_next(t, nb, s, s + m - 1, 0);
		if (p == s + m)
			return s - b;
		cs = p - b + 1;
	}
	return k;
}

/* touch_scan's look on the exact set (its direct set's, the same code
 * out of line: inlined there beside it, boot's placing thread took 0.13%
 * more instructions at 1M I/O) */
__attribute__((noinline)) static uint64_t touch_x_scan(const struct model_gen *g, uint16_t dev,
						       uint64_t b, uint64_t k, uint64_t m)
{
	return direct_scan(g->touch_x[dev], g->touch_xn[dev], b, k, m);
}

static uint64_t touch_scan(struct model_gen *g, uint16_t dev, uint64_t b, uint64_t k, uint64_t m)
{
	if (g->touch_d && b + k + m - 1 <= TOUCH_D0) {
		if (m >= 1 && m <= 64)
			return gen_touch_d_fit(g->touch_d, g->touch_nb, b, k, m);
		for (uint64_t cs = 0; cs < k;) {
			/* the next untouched block (a start on a touched one is out) */
			uint64_t s =
			    touch_d_next(g->touch_d, g->touch_nb, b + cs, b + k - 1, ~0ull);
			if (s >= b + k)
				return k;
			uint64_t p = touch_d_next(g->touch_d, g->touch_nb, s, s + m - 1, 0);
			if (p == s + m)
				return s - b;
			cs = p - b + 1;
		}
		return k;
	}
	if (g->touch_xon)
		return touch_x_scan(g, dev, b, k, m);
	if (g->touch_d)
		touch_hash(g);
	return scan_run(g->touched, dev, b, k, m);
}

/* scan_fresh's look for stretches a block apart (its step 4096): the
 * stretches of each pass up the region (from *AT, then from LO after each
 * wrap) looked at by scan_run, the same one found as fresh_at's one by one
 * (those past the extent not fresh); *AT the last looked at when none is. */
static int scan_blocks(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		       uint64_t lo, uint64_t hi, uint64_t len, uint64_t *at)
{
	uint64_t p = *at + 4096 + len > hi ? lo : *at + 4096, last = *at;
	for (uint64_t done = 0; done < GEN_SCAN; p = lo) {
		uint64_t k = (hi - len - p) / 4096 + 1; /* this pass's stretches */
		k = k < GEN_SCAN - done ? k : GEN_SCAN - done;
		uint64_t kok = p + len > s->extent ? 0 : (s->extent - len - p) / 4096 + 1;
		kok = kok < k ? kok : k;
		uint64_t i = kok ? touch_scan(g, dv->id, p >> 12, kok, span_blocks(p, len)) : 0;
		if (i < kok) {
			*at = p + 4096 * i;
			s->fresh_due -= 1;
			s->fresh_fails = 0;
			return 1;
		}
		done += k;
		last = p + 4096 * (k - 1);
		if (p == lo && done < GEN_SCAN) { /* a whole pass from LO: the ones after it too */
			uint64_t full = (hi - len - lo) / 4096 + 1, r = (GEN_SCAN - done) % full;
			last = lo + 4096 * ((r ? r : full) - 1);
			break;
		}
	}
	*at = last;
	return 0;
}

static int scan_fresh(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		      uint64_t lo, uint64_t hi, uint64_t len, uint64_t al, uint64_t *at)
{
	uint64_t step = al >= 4096 ? al : 4096 / al * al, ahead = *at;
	lo = (lo + al - 1) / al * al;
	if (step == 4096 && hi > lo + len && !(hi >> 60) && span_blocks(*at, len) <= TOUCH_LOOK &&
	    span_blocks(lo, len) <= TOUCH_LOOK)
		return scan_blocks(g, dv, s, lo, hi, len, at);
	for (int t = 0, na = 0; t < GEN_SCAN && hi > lo + len; t++) {
		/* the touched words of the stretches up to SCAN_AHEAD on asked
		 * for: the blocks' slots jump every 9 or 10 blocks, each jump a
		 * cache miss, else one after the other */
		for (; na < GEN_SCAN && na <= t + SCAN_AHEAD; na++) {
			ahead = ahead + step + len > hi ? lo : ahead + step;
			touch_ask(g, dv->id, ahead >> 12);
		}
		*at = *at + step + len > hi ? lo : *at + step;
		if (fresh_at(g, dv, s, *at, len))
			return 1;
	}
	return 0;
}

/* The first untouched stretch of LEN bytes from FROM up the device (then
 * from its start), at most FAR places a block apart, off the kept runs
 * still to come and the dense places: 1 and *AT, else 0.  Devices whose
 * grid is not the block's: none.  The chunks of places found without
 * room are kept (gen_noroom_mark) and passed at once by later scans
 * (git's model x2986: 84% of its scans found no room, each looking at
 * GEN_SCAN_FAR places anew); a scan's look stops at each chunk's end to
 * ask the next one's memo. */
static int scan_untouched(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
			  uint64_t from, uint64_t len, uint64_t al, uint64_t far, uint64_t *at)
{
	if (al > 4096 || 4096 % al || !len || len > s->extent)
		return 0;
	gen_noroom_keyed(s);
	uint64_t p = from >> 12 << 12, left = far, m = span_blocks(0, len);
	for (int wrap = 0; left && wrap < 2; wrap++, p = 0) {
		uint64_t lo = p; /* the places from LO up to P have no room */
		while (left && p + len <= s->extent) {
			uint64_t k = (s->extent - len - p) / 4096 + 1, b = p >> 12;
			k = k < left ? k : left;
			uint64_t n = gen_noroom_pass(s, b, len), c = gen_noroom_chunk(s, b);
			if (n) { /* none in the chunks: their places passed, counted */
				n = n < k ? n : k;
				left -= n;
				p += 4096 * n;
				continue;
			}
			k = k < c ? k : c;
			uint64_t i = touch_scan(g, dv->id, b, k, m);
			left -= i < k ? i + 1 : k;
			if (i == k) {
				p += 4096 * k;
				continue;
			}
			uint64_t a = p + 4096 * i;
			if (start_clear(dv, s, a, len, len)) {
				gen_noroom_mark(s, lo >> 12, a >> 12, len);
				*at = a;
				return 1;
			}
			p = a + 4096;
			/* the places up to the end of a kept run still to come
			 * over A's stretch: each over it too, passed and counted
			 * as one by one (git's model x2986, its first 1M I/O:
			 * 26,654 scans found 16.8M untouched places on kept
			 * runs, each asked of reserved, 49% of the instructions;
			 * now 103k places, 5%) */
			uint64_t e = reserved_end(dv, s, a, len);
			if (e > p && p + len <= s->extent) {
				uint64_t nk = (e - p + 4095) / 4096,
					 np = (s->extent - len - p) / 4096 + 1;
				nk = nk < np ? nk : np;
				nk = nk < left ? nk : left;
				left -= nk;
				p += 4096 * nk;
			}
		}
		gen_noroom_mark(s, lo >> 12, p + len > s->extent ? UINT64_MAX : p >> 12, len);
	}
	return 0;
}

int gen_scan_untouched(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		       uint64_t from, uint64_t len, uint64_t al, uint64_t far, uint64_t *at)
{
	return scan_untouched(g, dv, s, from, len, al, far, at);
}

/* Where a fresh run of writes cut short goes on (*AT, 1; else 0): its next
 * I/O of LEN found the blocks ahead touched, or a kept run still to come,
 * and takes the next untouched stretch up past them within the device's
 * local_limit, the run's length kept.  The trace's log band (chromium's
 * ext4 journal at 1,025-1,030 MiB: 870 writes of 4 KiB in 96 runs, 28 of
 * them kept) is written in order, its runs between the kept ones; the
 * walk's runs land anywhere in it and ran into the kept runs and each
 * other: 21 cuts a seed, and with the rest of each run (60 I/O) given to
 * the op's later runs elsewhere (seq_owed), the band held 738 writes and
 * 0-260 MiB 70 more than the trace's (offsets KS over 0.09 on 9 of seeds
 * 1-64).  Reads run on as before: a file read in order does not skip. */
static int run_past(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		    int op, uint64_t len, uint64_t al, uint64_t *at)
{
	if (op == REEL_OP_READ || s->run_reuse || s->pinned || s->run_left <= 0 ||
	    dv->local_limit < 4096 || !dv->read_share_fitted ||
	    dv->read_share[gen_region_of(dv, s, s->cursor)] > 0)
		return 0;
	uint64_t far = dv->local_limit >> 12; /* a model's own limit: the scan's at most */
	return scan_untouched(g, dv, s, s->cursor, len, al, far < GEN_SCAN_FAR ? far : GEN_SCAN_FAR,
			      at) &&
	       *at > s->cursor && *at - s->cursor <= dv->local_limit;
}

/* The frontiers' greatest up to region Q (a Fenwick tree of maxima over
 * s->front: they only grow) and the update of region Q's to V. */
static uint64_t front_upto(const struct devstate *s, uint32_t q)
{
	uint64_t m = 0;
	for (uint32_t i = q + 1; i; i &= i - 1)
		m = s->front_tree[i] > m ? s->front_tree[i] : m;
	return m;
}

static void front_set(const struct model_devspace *dv, struct devstate *s, uint32_t q, uint64_t v)
{
	if (s->front[q] == v) /* the tree holds it (git x2986: half of room_up's) */
		return;
	s->front[q] = v;
	for (uint32_t i = q + 1; i <= dv->nregions; i += i & -i)
		s->front_tree[i] = v > s->front_tree[i] ? v : s->front_tree[i];
}

/*
 * A fresh start of LEN bytes (its run SPAN) that found no room where the
 * trace's offsets fall, on a model generated above its rate (s->widen):
 * the first untouched stretch for the run up from region R's start to the
 * device's end, off the kept runs still to come and the dense
 * places: 1 and *AT, else 0 (none within GEN_ROOM_SCAN places).  Each
 * region's frontier (s->front) keeps where its last one went, and the
 * stretches that the frontiers of the regions below looked through are
 * stepped over (to the greatest frontier of the regions up to the place),
 * so a place is looked at about once: a dense cluster of regions widens
 * upward as one band.  The trace's bands hold its fresh blocks at its
 * rate; at X times it they fill, and every later fresh start searched them
 * in full, failed and re-used (fiu's model x2000: re-use 23% of the I/O
 * against the trace's 7.9%, working set 1300x the trace's; 1.16 M I/O/s).
 * Grids other than the block's: none.
 */
static int room_up(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		   uint32_t r, uint64_t len, uint64_t span, uint64_t al, uint64_t *at)
{
	if (!s->widen || al > 4096 || 4096 % al || !len || len > s->extent)
		return 0;
	uint64_t need = span > len ? span : len, hi = s->extent, left = GEN_ROOM_SCAN;
	uint64_t p = ((uint64_t)((double)dv->bound[r] * s->scale) + 4095) >> 12 << 12;
	uint64_t m = span_blocks(0, need);
	m = m < TOUCH_MAX ? m : TOUCH_MAX;
	p = s->front[r] > p ? s->front[r] : p;
	while (left && p + need <= hi) {
		for (uint64_t f; (f = front_upto(s, gen_region_of(dv, s, p))) > p;)
			p = f; /* looked through */
		if (p + need > hi)
			break;
		uint64_t k = (hi - need - p) / 4096 + 1;
		k = k < left ? k : left;
		uint64_t i = touch_scan(g, dv->id, p >> 12, k, m);
		left -= i < k ? i + 1 : k;
		if (i == k) {
			p += 4096 * k;
			break;
		}
		uint64_t a = p + 4096 * i;
		p = a + 4096;
		if (start_clear(dv, s, a, len, span)) {
			front_set(dv, s, r, a);
			*at = a;
			return 1;
		}
	}
	front_set(dv, s, r, p);
	return 0;
}

int gen_region_full_look(const uint64_t *t, uint64_t nb, struct devstate *s, uint32_t r)
{
	uint64_t f = touch_d_next(t, nb, s->full_b[r], s->full_e[r], ~0ull);
	s->full_b[r] = (uint32_t)f; /* at most full_e + 1 < NB <= TOUCH_D0 */
	return f > s->full_e[r];
}

void gen_region_full_init(const struct model_devspace *dv, struct devstate *s, uint64_t nb)
{
	uint64_t al = dv->align ? dv->align : 1;
	for (uint32_t r = 0; r < dv->nregions; r++) {
		double lo = s->rb[r] * s->scale, hi = s->rb[r + 1] * s->scale;
		int ok = al <= 4096 && hi < (double)nb * 4096.0;
		s->full_b[r] = (uint32_t)(ok ? (uint64_t)lo >> 12 : nb - 1);
		s->full_e[r] = (uint32_t)(ok ? (uint64_t)hi >> 12 : nb - 1);
	}
}

/* GEN_TRIES positions in region TO for a fresh start of LEN bytes, as
 * that many fresh_at(remote()) one after the other: all drawn first and
 * their words of the touched set asked for, so that their cache misses
 * overlap (on a full band each try is one: 8 in a row), then looked at in
 * order; the first fresh one is taken with the random state as after its
 * draw (the draws after it undone).  1 and *AT, or 0 and *AT the last. */
static int fresh_tries(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		       int64_t to, uint64_t len, uint64_t al, uint64_t *at)
{
	if (gen_region_full(g->touch_d, g->touch_nb, s, (uint32_t)to)) {
		/* none fresh: the draws alone (remote's at a region given:
		 * its place's), *AT as it was */
		for (int t = 0; t < GEN_TRIES; t++)
			remote_draws(g, dv, s, (uint32_t)to);
		return 0;
	}
	struct {
		uint64_t at, sp[4];
		struct strat pos;
	} c[GEN_TRIES];
	for (int t = 0; t < GEN_TRIES; t++) {
		c[t].at = al_down(remote(g, dv, s, &to), al);
		memcpy(c[t].sp, g->sp, sizeof(g->sp));
		c[t].pos = s->s_pos;
		touch_ask(g, dv->id, c[t].at >> 12);
	}
	for (int t = 0; t < GEN_TRIES; t++)
		if (fresh_at(g, dv, s, *at = c[t].at, len)) {
			memcpy(g->sp, c[t].sp, sizeof(g->sp));
			s->s_pos = c[t].pos;
			return 1;
		}
	return 0;
}

int gen_cold_sums(const struct model_devspace *d, const uint8_t *cy_reg, double *cs)
{
	int up = 1;
	for (uint32_t r = 0; r < d->nregions; r++) {
		double c = 0;
		for (uint32_t x = d->row[r], a = x; x < d->row[r + 1]; x++) {
			double p = c;
			if (!cy_reg[d->tr_to[x]])
				c += d->tr_p[x] - (x > a ? d->tr_p[x - 1] : 0);
			cs[x] = c;
			up &= c >= p;
		}
	}
	return up;
}

void gen_cold_guide(const struct model_devspace *d, const double *cs, uint8_t *t)
{
	for (uint32_t r = 0; r < d->nregions; r++)
		if (d->row[r + 1] > d->row[r])
			gen_chain_steps(cs, d->row[r], d->row[r + 1], cs[d->row[r + 1] - 1],
					t + (size_t)r * GEN_COLD_ROW, GEN_COLDQ);
}

/* The kept blocks' regions (cy_reg), cold_region's sums and, where they
 * go up, their table (0, or REEL_E_NOMEM): only on a device that can ask
 * cold_region (start_cycle's kept blocks, start_hot's unread writes), the
 * sums as large as the chain's tr_p. */
static int cold_init(const struct model_devspace *d, struct devstate *s)
{
	for (uint32_t k = 0; k < d->ncycle; k++)
		s->cy_reg[region_search(d, 1.0, (uint64_t)d->cycle[k].off)] = (uint8_t)(k + 1);
	if (!d->nregions || !(d->ncycle || d->p_unread > 0))
		return 0;
	s->cold_cs = malloc(((size_t)d->row[d->nregions] + 1) * sizeof(double));
	s->cold_guide = calloc((size_t)d->nregions * GEN_COLD_ROW, sizeof(*s->cold_guide));
	if (!s->cold_cs || !s->cold_guide)
		return REEL_E_NOMEM;
	if ((s->cold_up = gen_cold_sums(d, s->cy_reg, s->cold_cs)))
		gen_cold_guide(d, s->cold_cs, s->cold_guide);
	return 0;
}

/* A region for a fresh start on a device whose hot blocks keep their own
 * period: one short of its share (gen_offsets_region), else the chain's
 * from the cursor's region, else by weight, never a kept block's.  Inline
 * in start_hot (its two calls): boot at rate 1 called it 2.0 M times a
 * million I/O, its frame ~18 instructions a call (1.2% of the placing
 * thread). */
static inline __attribute__((always_inline)) int64_t
cold_region(struct model_gen *g, const struct model_devspace *dv, struct devstate *s)
{
	/* none once the run start drew a short region (gen_offsets_region's
	 * first test, without its call: start_hot's retries) */
	int64_t r = s->short_pick ? -1 : gen_offsets_region(g, dv, s);
	if (r >= 0 && !s->cy_reg[r])
		return r;
	if (!(s->cold_cur1 && s->cold_cur1 == s->cursor + 1)) { /* not the last call's cursor */
		/* run_start's local_odds kept it (boot at rate 1: all 779k
		 * looked up in a million I/O, a search each) */
		s->cold_from = gen_region_memo(dv, s, s->cursor);
		s->cold_cur1 = s->cursor + 1;
	}
	uint32_t from = s->cold_from, a = dv->row[from], b = dv->row[from + 1];
	/* the row's sums off the kept blocks made once (gen_cold_sums): the
	 * walk summed them twice a call (boot's rows of ~100: 43% of all
	 * instructions at rate 1) */
	double w = b > a ? s->cold_cs[b - 1] : 0, c = 0, u = sdraw_sp(g, &s->s_trans);
	if (w > 0) {
		uint32_t x =
		    gen_cold_at(dv, s->cy_reg, s->cold_cs, s->cold_guide, from, u, w, s->cold_up);
		if (x < b)
			return dv->tr_to[x];
	}
	w = 0;
	int k = gen_offsets_seg(dv, s);
	for (uint32_t x = 0; x < dv->nregions; x++)
		w += s->cy_reg[x] ? 0 : gen_weight_in(dv, k, x);
	for (uint32_t x = 0; w > 0 && x < dv->nregions; x++)
		if (!s->cy_reg[x] && u * w < (c += gen_weight_in(dv, k, x)))
			return x;
	return -1;
}

/* A region for a start of a size mostly fresh, by the trace's such starts
 * (fresh_share). */
static int64_t fresh_region(struct model_gen *g, const struct model_devspace *dv)
{
	double w = 0, c = 0;
	for (uint32_t r = 0; r < dv->nregions; r++)
		w += dv->fresh_share[r];
	double u = rnd_sp(g) * w;
	for (uint32_t r = 0; r < dv->nregions; r++)
		if (dv->fresh_share[r] > 0 && u < (c += dv->fresh_share[r]))
			return r;
	return -1;
}

/* Kept block C's next interval (the device's I/O): its quantiles at a
 * stratified draw, linear between them. */
static double cycle_interval(struct model_gen *g, const struct model_cycle *c, struct devstate *s)
{
	double u = sdraw_sp(g, &s->s_cycle) * (MODEL_CYCLE_Q - 1);
	int j = (int)u < MODEL_CYCLE_Q - 2 ? (int)u : MODEL_CYCLE_Q - 2;
	return c->q[j] + (c->q[j + 1] - c->q[j]) * (u - j);
}

/* The chain's share of remote jumps from region FROM to region TO. */
static double chain_p(const struct model_devspace *dv, uint32_t from, uint32_t to)
{
	for (uint32_t x = dv->row[from]; x < dv->row[from + 1]; x++)
		if (dv->tr_to[x] == to)
			return dv->tr_p[x] - (x > dv->row[from] ? dv->tr_p[x - 1] : 0);
	return 0;
}

/*
 * The kept block to touch at the device's I/O now, or -1 (a fresh start).
 * Of the blocks whose touches in the trace span where the device is in the
 * model's duration (a block's first due where its touches begin), those
 * due, or due within GEN_CYCLE_EARLY times the chain's share of jumps from
 * the cursor's region to them (msr's pairs: d then b, c then a, 40-47% of
 * their jumps; drawn only when due, the pairs fell apart and the jump KS
 * went 0.04 -> 0.09-0.10) but not nearer their last touch than their
 * least interval; one drawn by those shares, else the earliest due.
 */
static int cycle_due(struct model_gen *g, const struct model_devspace *dv, struct devstate *s)
{
	double nper = s->nper >= 1 ? s->nper : 1, now = (double)s->hn;
	double rep = floor(now / nper) * nper, pos = now - rep, bd = 0, w[MODEL_MAX_CYCLE], tot = 0;
	uint32_t from = gen_region_of(dv, s, s->cursor);
	int best = -1;
	for (uint32_t k = 0; k < dv->ncycle; k++) {
		const struct model_cycle *c = &dv->cycle[k];
		w[k] = 0;
		if (pos < c->from * nper || pos > c->to * nper + 1)
			continue;
		int seen = s->cy_last[k] && (double)(s->cy_last[k] - 1) >= rep;
		double due = seen ? s->cy_due[k] : rep + c->from * nper;
		double pk = chain_p(dv, from, region_search(dv, 1.0, c->off));
		if (due > now + GEN_CYCLE_EARLY * pk ||
		    (seen && now - (double)(s->cy_last[k] - 1) < c->q[0]))
			continue;
		w[k] = pk;
		tot += pk;
		if (best < 0 || due < bd) {
			best = (int)k;
			bd = due;
		}
	}
	if (!(tot > 0))
		return best;
	double u = rnd_sp(g) * tot, c = 0;
	for (uint32_t k = 0; k < dv->ncycle; k++)
		if (w[k] > 0 && u < (c += w[k]))
			return (int)k;
	return best;
}

static inline __attribute__((always_inline)) uint64_t
start_hot(struct model_gen *g, const struct model_devspace *dv, struct devstate *s, int op,
	  uint64_t len, uint64_t al, int local, int fresh);
static uint64_t size_round(double sz, uint64_t al, uint64_t extent);

/*
 * A write of cycle_back going back K (of the N I/O in the ring): the write
 * nearest K (K first, then K + 1, K - 1, .., GEN_NEAR either side) whose
 * place holds LEN written bytes, within local_limit of the cursor where
 * LOCAL, *BASE (1), else none (0).  A write wider than the one K back ran
 * past it onto blocks not written, and a local one drawn by the local
 * jumps landed on any: boot's 932 KiB writes, which the trace makes at two
 * places only (each a local jump back onto itself), wrote 135k new blocks
 * against the trace's 1.9k.
 */
static int cycle_rewrite(struct model_gen *g, const struct model_devspace *dv,
			 const struct devstate *s, uint64_t k, uint64_t n, uint64_t len,
			 uint64_t al, int local, uint64_t *base)
{
	for (uint64_t d = 0; d <= 2 * GEN_NEAR; d++) {
		uint64_t at = d & 1 ? k + (d + 1) / 2 : k - d / 2;
		if (at < 1 || at > n)
			continue;
		uint64_t i = (s->hn - at) % GEN_HIST, b = al_down(s->ring[i], al);
		uint64_t j = b > s->cursor ? b - s->cursor : s->cursor - b;
		if (s->rop[i] != REEL_OP_WRITE || (local && j > dv->local_limit) ||
		    b + len > s->extent || b == s->cursor || !writ_all(g, dv->id, b, len) ||
		    reserved(dv, s, b, len))
			continue;
		*base = b;
		return 1;
	}
	/* none near K: the latest write at least LEN long (its bytes written) */
	for (uint64_t at = 1; at <= n; at++) {
		uint64_t i = (s->hn - at) % GEN_HIST, b = al_down(s->ring[i], al);
		uint64_t j = b > s->cursor ? b - s->cursor : s->cursor - b;
		if (s->rop[i] != REEL_OP_WRITE || s->rend[i] < b + len ||
		    (local && j > dv->local_limit) || b + len > s->extent || b == s->cursor ||
		    reserved(dv, s, b, len))
			continue;
		*base = b;
		return 1;
	}
	return 0;
}

/*
 * A start start_cycle sent as fresh (OFF, start_hot's answer) on a device
 * whose fresh starts find no room of late (GEN_FULL in a row: the device
 * full), placed by the device's reuse distances instead of where
 * start_hot's draw landed (any block of a cold region: boot's 10M model
 * re-used 79% of its remote starts over 100 I/O back against the trace's
 * 5%, locality 0.99 -> 0.60, ks_jump 0.26, and its writes spread over 7.3x
 * the trace's blocks).  A remote one on touched blocks goes back a
 * distance drawn from the op's (1 back: onto the I/O just before, as the
 * trace's re-reads of the block just read, 67% of its re-uses), for a
 * write to the nearest write there holding its bytes (cycle_rewrite), else
 * to the op's nearest where the op is the minority (back_slot).  A local
 * write on blocks not all written goes to such a write within local_limit.
 * A local draw is kept otherwise; OFF kept where the distance is past the
 * ring or nothing there can be taken.  Only where the regions hold reads
 * and writes apart (read_share, as start_hot's writ_steer for start_cycle):
 * msr's 10M model (no reads) writes its cold blocks once each, up the
 * device, and sent back its ks_jump went 0.007 -> 0.053.  Not above the
 * model's rate (widen: the working set grows with the rate).
 */
static uint64_t cycle_back(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
			   int op, uint64_t len, uint64_t al, int local, uint64_t off)
{
	const struct model_dist *rd = op_dist(dv, s, op);
	uint64_t n = s->hn < GEN_HIST ? s->hn : GEN_HIST, base;
	int writes = op == REEL_OP_WRITE && (g->writ || g->writ_d);
	if (!dv->read_share_fitted || s->widen || s->fresh_fails < GEN_FULL || !rd->nk ||
	    rd->n < GEN_FEW_REUSES || n < 2)
		return off;
	if (local) {
		if (!writes || writ_all(g, dv->id, off, len))
			return off;
		uint64_t k = (uint64_t)(model_dist_inv(rd, rnd_sp(g)) + 0.5);
		return k <= n && cycle_rewrite(g, dv, s, k, n, len, al, 1, &base) ? base : off;
	}
	if (!touched(g, dv->id, off, len, TOUCH_LOOK))
		return off;
	uint64_t k = (uint64_t)(model_dist_inv(rd, rnd_sp(g)) + 0.5);
	if (k < 1 || k > n)
		return off;
	if (writes && cycle_rewrite(g, dv, s, k, n, len, al, 0, &base))
		return base;
	if (!history_at(g, s, back_slot(s, k, op, 0), &base))
		return off;
	base = al_down(base, al);
	if (base + len > s->extent || base == s->cursor || reserved(dv, s, base, len))
		return off;
	return base;
}

/* A start on a device whose hot blocks keep their own period: the block
 * due (cycle_due), for a size that mostly re-uses; else a fresh start
 * off the kept blocks. */
static uint64_t start_cycle(struct model_gen *g, const struct model_devspace *dv,
			    struct devstate *s, int op, uint64_t *lenp, uint64_t al, int local)
{
	uint64_t len = *lenp;
	int fresh = reuse_odds(dv, op, len) < 0.5, k;
	if (dv->norder) { /* the order walked: a size mostly fresh takes only a fresh place */
		uint32_t at = s->cy_pos;
		k = dv->order[at] - 1;
		if (!fresh || k < 0)
			s->cy_pos = (s->cy_pos + 1) % dv->norder;
		k = fresh ? -1 : k;
		/* a block's place writes the trace's size there (hot_order_len):
		 * a drawn 3-block write on a block covered the next two, which
		 * the order then re-used 1-4 starts later (msr) */
		if (k >= 0 && dv->order_len[at]) /* as any size: within the extent */
			*lenp = len =
			    size_round((double)dv->order_len[at] * (double)al, al, s->extent);
	} else {
		k = fresh ? -1 : cycle_due(g, dv, s);
	}
	if (k < 0)
		return cycle_back(g, dv, s, op, len, al, local,
				  start_hot(g, dv, s, op, len, al, local, 1));
	uint64_t off = al_down((uint64_t)((double)dv->cycle[k].off * s->scale), al);
	if (off + len > s->extent)
		off = al_down(s->extent - len, al);
	s->cy_last[k] = s->hn + 1;
	s->cy_due[k] = (double)s->hn + cycle_interval(g, &dv->cycle[k], s) + GEN_CYCLE_LATE;
	return off;
}

/*
 * A re-using write of start_hot (P, its size's odds of re-use, at least
 * even; HIT, whether it landed on touched blocks) at *OFF on blocks not all
 * written: on blocks only read, or untouched where no fresh start is owed
 * (FRESH_DUE under 1; owed, the untouched place is the fresh start).
 * Drawn again up to GEN_WRIT_TRIES times, a remote start in the region TO the
 * chain drew, a local one as a local jump, and the first whose blocks were
 * all written taken (1), else *OFF kept (0).  The trace's re-using writes
 * re-write written blocks; taking any touched block (its reads touch
 * nearly every block), chromium's 10M model wrote 2.9x the trace's blocks
 * (62,650 local + 51,618 remote writes to new blocks against 831 + 5,117;
 * round 28, fid10m).
 */
static int writ_tries(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		      uint64_t len, uint64_t al, int local, int64_t to, uint64_t *off)
{
	if (writ_all(g, dv->id, *off, len))
		return 0;
	uint64_t i = (s->hn - 1) % GEN_HIST; /* the device's last I/O */
	for (int t = 0; t < GEN_WRIT_TRIES; t++) {
		uint64_t at = start_once(g, dv, s, len, al, local, &to);
		/* a local jump back onto the I/O just placed: not taken (its
		 * blocks, just written, are where a local try lands written
		 * most; taken, chromium's ks_jump 0.043 -> 0.051 at 8 tries) */
		if (local && s->ring[i] < at + len && s->rend[i] > at)
			continue;
		if (writ_all(g, dv->id, at, len)) {
			*off = at;
			return 1;
		}
	}
	return 0;
}

/* writ_steer's tests before its tries, inline in start_hot (its two asks,
 * boot-nspawn at rate 1: 282k calls in 300k I/O, mostly reads or
 * devices without a written set, answered at once without the call) */
static inline __attribute__((always_inline)) int
writ_steer(struct model_gen *g, const struct model_devspace *dv, struct devstate *s, int op,
	   double p, int hit, uint64_t len, uint64_t al, int local, int64_t to, uint64_t *off)
{
	if (op != REEL_OP_WRITE || !(g->writ || g->writ_d) || p < 0.5 ||
	    !(hit || s->fresh_due < 1) || !s->hn)
		return 0;
	return writ_tries(g, dv, s, len, al, local, to, off);
}

/*
 * A start on a device re-using most starts (p_reuse >= GEN_REUSE_GATE: hot
 * blocks, whose jumps the region chain keeps exactly): drawn once, as the
 * chain says.  Fresh starts are owed at the odds of the op and the size
 * (reuse_odds: msr's 15-block writes are all fresh, its 1-block ones 16%);
 * a remote start landing on touched blocks while one is owed (or, for a
 * size mostly fresh, by its own odds) moves inside the region drawn
 * (GEN_TRIES positions there, then the next untouched stretch up from the
 * last, wrapping at the region's end), or, where the region is narrower
 * than the I/O or has no room for a size mostly fresh (msr's 15-block
 * writes drawn to the full 36-block regions of its hot blocks), to another
 * region (the chain's, then one wide enough by weight); else it stays
 * (after GEN_FULL such in a row, every GEN_FULL-th is looked for: the
 * bands are full).  Drawn anywhere in a band written once in order, msr's
 * cold writes (354 of its 369 blocks written once, one after the other
 * between writes of 15 hot ones) landed on one another, and its 15-block
 * writes on the hot blocks: half its working set written.
 */
static inline __attribute__((always_inline)) uint64_t
start_hot(struct model_gen *g, const struct model_devspace *dv, struct devstate *s, int op,
	  uint64_t len, uint64_t al, int local, int fresh)
{
	double p = reuse_odds(dv, op, len);
	int sized = p < 0.5 && dv->fresh_share_fitted; /* a size mostly fresh: its regions */
	int64_t to = sized ? fresh_region(g, dv) : fresh ? cold_region(g, dv, s) : -1;
	uint64_t off;
	if (!fresh && s->early == 2) { /* start_once's draws made before the size's */
		off = s->early_off;
		to = s->early_to;
		if (off + len > s->extent)
			off = al_down(s->extent - len, al);
	} else {
		off = start_once(g, dv, s, len, al, local, &to);
	}
	s->early = 0;
	int hit = touched(g, dv->id, off, len, TOUCH_LOOK);
	/* a write of a re-using size sent here by start_cycle (no kept block
	 * due, or its order's fresh place) re-uses too, off the kept blocks,
	 * where the regions hold reads and writes apart (read_share): boot's
	 * 10M model, 51 of 52 such starts, wrote 11.5x the trace's blocks.
	 * Not elsewhere: msr's real trace (no read_share) writes its cold
	 * blocks once each (steered, its model wrote 0.78x the blocks) */
	if (fresh && dv->ncycle && dv->read_share_fitted && !s->ur &&
	    writ_steer(g, dv, s, op, p, 1, len, al, local, to, &off))
		return off;
	/* a local start landing on touched blocks, on a device without hot
	 * blocks of their own period whose I/O are finer than a block
	 * (disksim's disk 8, whose 4 KiB blocks re-use as its 512-byte writes
	 * share them): the I/O a reuse distance back re-used, where a jump
	 * kept would land on any touched block (disk 8's reuse distance KS
	 * 0.18-0.24 on 10 seeds of 32) */
	uint64_t back;
	if (hit && local && !fresh && !dv->ncycle && dv->align < 4096 && dv->reuse_dist.nk &&
	    history_back(g, dv, s, op, len, al, 0, &back))
		off = back;
	if (!fresh) {
		s->fresh_due = gen_fmin(s->fresh_due + 1 - p, GEN_PACE_PRIOR); /* libm's, a call */
		hit |= writ_steer(g, dv, s, op, p, hit, len, al, local, to, &off);
		if (!hit)
			s->fresh_due = gen_fmax(s->fresh_due - 1, -GEN_PACE_PRIOR);
	}
	if (!hit || to < 0 ||
	    (!fresh && s->fresh_due < 1 && !(p < 0.5 && sdraw_sp(g, &s->s_reuse) >= p)))
		return off;
	if (s->fresh_fails >= GEN_FULL && s->fresh_fails++ % GEN_FULL) /* no room of late */
		return off;
	uint64_t lo = (uint64_t)((double)dv->bound[to] * s->scale),
		 hi = (uint64_t)((double)dv->bound[to + 1] * s->scale), at = off;
	if (fresh_tries(g, dv, s, to, len, al, &at))
		return at;
	/* gen_region_full's answer as fresh_tries found it (full: it stays so) */
	if (!gen_region_full(g->touch_d, g->touch_nb, s, (uint32_t)to) &&
	    scan_fresh(g, dv, s, lo, hi, len, al, &at))
		return at;
	/* too narrow, or full for a size mostly fresh: another region (for
	 * every size, msr's jumps bent: KS 0.038 -> 0.052 on seed 1) */
	for (int t = 0; (hi < lo + len || p < 0.5 || fresh) && t < GEN_TRIES; t++) {
		to = sized		 ? fresh_region(g, dv)
		     : fresh		 ? cold_region(g, dv, s)
		     : t < GEN_TRIES / 2 ? -1
					 : wide_region(g, dv, s, len);
		/* a region full: neither fresh_at nor scan_fresh finds one;
		 * given one (remote draws none), its place's draws alone */
		int given = to >= 0;
		if (given && gen_region_full(g->touch_d, g->touch_nb, s, (uint32_t)to)) {
			remote_draws(g, dv, s, (uint32_t)to);
			continue;
		}
		at = al_down(remote(g, dv, s, &to), al); /* TO its region now */
		if (!given && gen_region_full(g->touch_d, g->touch_nb, s, (uint32_t)to))
			continue;
		if (fresh_at(g, dv, s, at, len))
			return at;
		if (to >= 0 &&
		    scan_fresh(g, dv, s, (uint64_t)((double)dv->bound[to] * s->scale),
			       (uint64_t)((double)dv->bound[to + 1] * s->scale), len, al, &at))
			return at;
	}
	s->fresh_fails += s->fresh_fails < GEN_FULL;
	return off;
}

/* Whether [OFF, OFF + SPAN) overlaps a long run of the model still to
 * come in this repeat of the model's duration: fresh starts keep off them,
 * as the trace's other I/O did (the long run is fresh there). */
static int reserved(const struct model_devspace *dv, const struct devstate *s, uint64_t off,
		    uint64_t span)
{
	uint32_t i = s->lnext;
	double x = (double)off, e = (double)off + (double)span;
	/* none where the hull of the runs still to come is not (most calls:
	 * fiu's 21 runs looked at one by one were 7% of the placing thread's
	 * instructions at --rate 2000) */
	if (i >= dv->nlong || !(x < s->lr_from_hi[i] && e > s->lr_from_lo[i]))
		return 0;
	return gen_lr_over(s->lr_by, dv->nlong, i, x, e);
}

int gen_long_due(const struct model_devspace *dv, struct devstate *s) { return long_due(dv, s); }

/*
 * s->bk made (after gen_offsets_init; the device's offsets CDF at its
 * scale): 0, or REEL_E_NOMEM.  At most GEN_BK_BUCKETS buckets of a power
 * of two bytes, a block at least, over the extent; none past 2^52 bytes
 * (a stretch's bounds in them exact as doubles).  Bucket B is [B0, B1) =
 * [B << bk_sh, (B + 1) << bk_sh); bk[B] is 1 where the trace's offsets
 * from the CDF below B0 of B to the CDF at or below B1 of B + 1
 * (unscaled), times their count, are at most GEN_DENSE / 2: a stretch in
 * the two has its share of them (gen_offsets_dense's, the CDF rising
 * with the offset) within that, and the margin is far wider than the
 * sums' rounding.  (Kept runs' marks there as well, to answer reserved's
 * no, cost git's model x2986 more on start_clear's asks, most of them
 * over a run, than they saved on the others: 1,272.5 -> 1,276.7 M
 * instructions at 300k I/O.)
 */
int gen_bucket_init(const struct model_devspace *dv, struct devstate *s)
{
	const struct model_dist *d = &dv->addr;
	uint32_t sh = 12;
	s->bk = NULL;
	if (!s->extent || s->extent > (1ull << 52))
		return 0;
	while ((s->extent - 1) >> sh >= GEN_BK_BUCKETS)
		sh++;
	s->bk_sh = sh;
	s->bk_nb = (uint32_t)(((s->extent - 1) >> sh) + 1);
	if (!(s->bk = malloc(s->bk_nb)))
		return REEL_E_NOMEM;
	int any = d->nk >= 2 && d->n > GEN_DENSE; /* else none dense */
	double below[3] = {0}, at = 0, n = (double)d->n;
	for (uint64_t k = 0; k < (uint64_t)s->bk_nb + 2; k++) { /* bound K: bucket K - 2's end */
		if (any)
			model_dist_cdf(d, gen_unscale(s, k << sh), &below[k % 3], &at);
		if (k >= 2)
			s->bk[k - 2] = !any || (at - below[(k - 2) % 3]) * n <= GEN_DENSE / 2.0;
	}
	return 0;
}

/* s->nr made (after the extent is set; nothing known): 0, or
 * REEL_E_NOMEM.  At most GEN_NR_CHUNKS chunks of a power of two blocks,
 * 2^GEN_NR_SH at least (a scan asks each chunk's memo: git's 2 GiB in 512,
 * a scan's 65,536 places 64 asks); none past 2^52 bytes. */
int gen_noroom_init(struct devstate *s)
{
	s->nr = NULL;
	if (!s->extent || s->extent > (1ull << 52))
		return 0;
	uint64_t nb = ((s->extent - 1) >> 12) + 1;
	uint32_t sh = GEN_NR_SH;
	while ((nb - 1) >> sh >= GEN_NR_CHUNKS)
		sh++;
	s->nr_sh = sh;
	s->nr_nc = (uint32_t)(((nb - 1) >> sh) + 1);
	s->nr_lnext = s->lnext;
	if (!(s->nr = malloc(s->nr_nc * sizeof(*s->nr))))
		return REEL_E_NOMEM;
	memset(s->nr, 0xff, s->nr_nc * sizeof(*s->nr));
	return 0;
}

void gen_lr_rows(const double *lo, const double *hi, uint32_t n, double *rows)
{
	for (uint32_t i = 0; i < n; i++) {
		double *rl = rows + (size_t)i * GEN_LR_ROW, *pm = rl + GEN_LR_W, rh[MODEL_MAX_LONG];
		uint32_t m = 0;
		for (uint32_t j = i; j < n; j++, m++) { /* by start, an insertion */
			uint32_t k = m;
			for (; k && rl[k - 1] > lo[j]; k--) {
				rl[k] = rl[k - 1];
				rh[k] = rh[k - 1];
			}
			rl[k] = lo[j];
			rh[k] = hi[j];
		}
		for (uint32_t k = m; k < GEN_LR_W; k++) /* no stretch's end is past +inf */
			rl[k] = INFINITY;
		for (uint32_t k = 0; k < m; k++)
			pm[k] = k && pm[k - 1] > rh[k] ? pm[k - 1] : rh[k];
	}
}

/* Of the kept runs still to come over [OFF, OFF + SPAN) (reserved's), the
 * greatest end, rounded up to a byte (0: none).  A run over it is over
 * every stretch as wide from OFF up to its end: reserved there too.  The
 * runs one by one, not by gen_lr_over's table: it is asked only after
 * reserved has said yes, and wants the greatest end, not whether any. */
static uint64_t reserved_end(const struct model_devspace *dv, const struct devstate *s,
			     uint64_t off, uint64_t span)
{
	uint32_t i = s->lnext;
	double x = (double)off, e = (double)off + (double)span, end = 0;
	if (i >= dv->nlong || !(x < s->lr_from_hi[i] && e > s->lr_from_lo[i]))
		return 0;
	for (; i < dv->nlong; i++)
		if (x < s->lr_hi[i] && e > s->lr_lo[i] && s->lr_hi[i] > end)
			end = s->lr_hi[i];
	return (uint64_t)ceil(end);
}

/* Whether I/O of OP continue runs in the phase (or it is not known): in
 * the trace a long run is of those, and in a phase that has them. */
static int continues(const struct model_gen *g, int op)
{
	/* !(seq_want && seq_want[phase][op] >= 0 && < 0.05), made once */
	return !g->seq_cont || g->seq_cont[g->phase][op];
}

/* Whether I/O of OP continue runs in some phase: a kept run goes on
 * across the phases' bounds (k-means may cut its windows apart). */
static int continues_any(const struct model_gen *g, int op)
{
	int known = 0;
	for (size_t p = 0; g->seq_want && p < g->m->nphases; p++) {
		if (g->seq_want[p][op] >= 0.05)
			return 1;
		known |= g->seq_want[p][op] >= 0;
	}
	return !known;
}

/* Whether the next of the model's long runs is due: the device's I/O so
 * far (in this repeat of the model's duration) has reached its start. */
static int long_due(const struct model_devspace *dv, struct devstate *s)
{
	if (!dv->nlong || !(s->nper >= 1))
		return 0;
	/* asked at every run start (git x2986: 2.8 M times in 3M I/O, a
	 * division each), it changes at a few I/O a repeat */
	if (s->hn < s->ld_quiet && s->lnext == s->ld_lnext)
		return 0;
	uint64_t cycle = (uint64_t)((double)s->hn / s->nper);
	if (cycle != s->lcycle) {
		s->lcycle = cycle;
		s->lnext = 0;
	}
	if (gen_long_moves(dv, s, s->hn))
		return 1;
	s->ld_quiet = gen_long_quiet_until(dv, s);
	s->ld_lnext = s->lnext;
	return 0;
}

/*
 * A run start of OP on a device whose starts mostly re-use (start_hot),
 * its draws made before its size is drawn (the sizes draw from a stream of
 * their own, sz, so the records are the same): run_start's run length and
 * local draws, and when remote, start_once's place but for the clamp at
 * the extent (s->early 1 or 2, taken by run_start and start_hot).  The
 * touched set's word of the place asked for: the probe's cache miss (an
 * 8 MiB set probed at random) then overlaps the size's draws.  Only where
 * run_start is sure to come (no run continued, no kept run going on).
 */
static void start_early(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
			int op, uint64_t al)
{
	s->early = 0;
	if (!g->touched || !dv->reuse_fitted || !s->started || !(dv->p_reuse >= GEN_REUSE_GATE) ||
	    dv->ncycle || dv->fresh_share_fitted || (s->pinned && s->run_left > 0))
		return; /* fresh_share_fitted: a start's region waits for its size */
	s->early_u = sdraw_sp(g, &s->s_run);
	s->early = 1;
	s->pinned = 0;
	s->op = op;
	/* dv->nlong first: long_due's own first test (0 without a change to
	 * the state), continues' loads at every start of a model without
	 * long runs (chromium, boot, git, compile at rate 1) */
	if (dv->nlong && continues(g, op) && long_due(dv, s))
		return; /* run_start's kept run: the rest as it draws them */
	s->short_pick = s->reusing = 0;
	s->early_local = dv->local.nk && sdraw_sp(g, &s->s_plocal) < local_odds(dv, s, op);
	if (s->early_local)
		return; /* a local jump: drawn by start_once, given the size */
	s->early_to = -1;
	uint64_t off = al_down(remote(g, dv, s, &s->early_to), al);
	if (off == s->cursor) /* not a run: keep it a jump (start_once's) */
		off = off >= al ? off - al : off + al;
	s->early_off = off;
	s->early = 2;
	touch_ask(g, dv->id, off >> 12);
}

/*
 * Where a new run starts.  The jump's kind (local or remote) is drawn with
 * the model's share; with a fitted re-use, so is whether the start re-uses
 * a block (p_reuse), and the jump is drawn again until it lands on touched
 * blocks or off them as wanted (start_wanted): jumps drawn independently
 * of the history land on touched blocks far more often than the trace's
 * fresh starts do (a file read once, a log appended).  A fresh start keeps
 * its whole run (as long as drawn, of I/O of the mean size UNIT or this
 * one's if larger) off touched blocks.  Devices whose starts mostly re-use
 * (p_reuse >= GEN_REUSE_GATE: hot blocks, whose jumps the region chain
 * keeps exactly) keep their jumps as drawn: redrawing them bent the jump
 * distribution (msr: KS 0.02 -> 0.05-0.3) while their re-use already held.
 */
static inline __attribute__((always_inline)) uint64_t
run_start(struct model_gen *g, const struct model_devspace *dv, struct devstate *s, int op,
	  uint64_t *lenp, uint64_t al, double unit)
{
	uint64_t len = *lenp;
	double u = s->early ? s->early_u : sdraw_sp(g, &s->s_run);
	s->pinned = 0;
	s->head_n = 0;
	s->op = op;
	/* an I/O larger than the kept run now due, where no later I/O of its
	 * op in the phase would take its size back from the pool (pinned_first),
	 * starts a run of its own, and the kept run the next start: cut to the
	 * run's bytes it lost the rest (boot-nspawn's 844 KiB write, 211 of its
	 * 342 blocks written, drawn as its last kept run's first I/O on 6 seeds
	 * of 32: the run's 44 writes were its phase's last) */
	int due = dv->nlong && continues(g, op) && long_due(dv, s); /* start_early's order */
	int defer = due && (double)*lenp > (double)dv->longrun[s->lnext].bytes * s->scale &&
		    !pool_later(g, op, dv->longrun[s->lnext].len);
	if (defer) /* start_early drew the run length alone (long_due): the rest below */
		s->early = 0;
	if (due && !defer) { /* a long run of the trace, where it was */
		s->early = 0;
		const struct model_long_run *lr = &dv->longrun[s->lnext++];
		uint64_t off = al_down((uint64_t)((double)lr->off * s->scale), al);
		if (off + *lenp > s->extent)
			off = al_down(s->extent - *lenp, al);
		s->run_left = (int64_t)lr->len - 1;
		s->pin_end = off + (uint64_t)((double)lr->bytes * s->scale);
		if (*lenp + off > s->pin_end) /* not over the long runs after it */
			*lenp = s->pin_end > off + al ? al_down(s->pin_end - off, al) : al;
		s->pin_left = lr->bytes > *lenp ? lr->bytes - *lenp : 0;
		/* a head of its own: its first I/O drawn to its bytes */
		s->head_n = lr->head ? MODEL_LONG_HEAD - 1 : 0;
		s->head_left = lr->head > *lenp ? lr->head - *lenp : 0;
		s->pin_op = op;
		s->run_reuse = 0;
		s->pinned = 1;
		return off;
	}
	if (!s->early) /* start_early's reset them before its remote draw */
		s->short_pick = s->reusing = 0;
	s->replay = 0;
	int local = s->early ? s->early_local
			     : s->started && dv->local.nk &&
				   sdraw_sp(g, &s->s_plocal) < local_odds(dv, s, op);
	uint64_t off;
	int want = 0, asked = 0;
	s->early = s->early == 2 ? 2 : 0; /* the place drawn early: start_hot's */
	if (!g->touched || !dv->reuse_fitted || !s->started) {
		off = start_once(g, dv, s, len, al, local, &(int64_t){-1});
		for (int t = 0; t < GEN_TRIES && reserved(dv, s, off, len); t++)
			off = start_once(g, dv, s, len, al, local, &(int64_t){-1});
	} else if (dv->p_reuse >= GEN_REUSE_GATE && dv->ncycle) {
		off = start_cycle(g, dv, s, op, lenp, al, local);
	} else if (dv->p_reuse >= GEN_REUSE_GATE) {
		off = start_hot(g, dv, s, op, len, al, local, s->ur && op == REEL_OP_WRITE);
	} else {
		/* a device whose re-use pass is kept re-uses there alone, but
		 * for the I/O generated beyond the model's rate (its pass comes
		 * once a model duration) */
		want = sdraw_sp(g, &s->s_reuse) < reuse_phase_odds(g, dv, s, op) &&
		       (!model_pass_alone(dv) || (s->widen && rnd_sp(g) < s->pass_rest));
		if (want && s->reuse_owed) { /* a fresh start re-used: this one does not */
			s->reuse_owed--;
			want = 0;
		}
		if (!want && s->reuse_due) { /* one made fresh before: this one re-uses */
			s->reuse_due--;
			want = 1;
		}
		if (want && len > al && reuse_hot(dv, s, op)) {
			s->reuse_due++; /* wider than a hot block: fresh, the next start re-uses */
			want = 0;
		}
		asked = want;
		off = start_wanted(g, dv, s, op, len, al, local, &want,
				   unit > (double)len ? unit : (double)len, u);
		s->reuse_owed += (uint32_t)(want && !asked);
		/* widened: the first draw's region's share of fresh starts
		 * finding no room, of late (start_wanted's miss, missed) */
		if (!asked && s->widen && s->miss >= 0)
			s->missed[s->miss_at] +=
			    ((float)s->miss - s->missed[s->miss_at]) / GEN_FULL;
		if (!asked && s->widen)
			s->reuse_run = want ? s->reuse_run + 1 : 0;
		s->reused += (uint64_t)want;
		s->ph_reused[op != REEL_OP_READ] += (uint64_t)want;
	}
	/* start_hot's places know nothing of what was written */
	if (s->ur && op == REEL_OP_READ && s->ur->n && rnd_sp(g) < dv->p_unread)
		off = unread_snap(s, unread_pick(g, dv, s, off, local), len, al);
	s->run_left = run_length(dv, s, u, (int64_t)gen_region_keep(dv, s, off));
	s->run_reuse = want && s->reuse_a > 0;
	if (s->run_reuse) { /* a block re-used: a run of the re-using runs' length */
		int64_t fresh = s->run_left;
		s->run_left =
		    s->replay && asked ? (int64_t)s->replay - 1 : run_reused(dv, s, u, op);
		/* a fresh run that found no room: the I/O it would have run on
		 * continue later runs of its op (the runs keep their share) */
		if (!asked && fresh > s->run_left)
			s->seq_owed[op] = (uint32_t)fmin(
			    GEN_SEQ_OWED, s->seq_owed[op] + (double)(fresh - s->run_left));
	}
	if (defer) /* the kept run starts at the next start */
		s->run_left = 0;
	return off;
}

/*
 * The I/O left in a run starting in region R (-1: not known yet) at the
 * uniform draw U.  Runs are longer where the trace's are (a log appended
 * in a hot band, a file read whole): U is bent to U^a (s->run_a[R], fitted
 * by run_tilt) so that the runs starting in R have the region's mean
 * length, from the device's run CDF; each region keeps its share of
 * sequential I/O, where remote jumps alone would spread it evenly.
 */
static inline __attribute__((always_inline)) int64_t
run_length(const struct model_devspace *dv, struct devstate *s, double u, int64_t r)
{
	uint32_t t = r >= 0 ? (uint32_t)r : dv->nregions;
	return gen_run_left0(&dv->run, s->run_cap, run_exp(dv, s, t), s->run_e + t * GEN_RUN_EDGES,
			     s->run_e0[t], u);
}

/* The exponent of run_length's table T (run_e): a region's, no region's
 * (1), a re-using read's or write's (gen_run_edges). */
static double run_exp(const struct model_devspace *dv, const struct devstate *s, uint32_t t)
{
	if (t < dv->nregions)
		return dv->run_mean_fitted ? s->run_a[t] : 1;
	return t == dv->nregions ? 1 : s->reuse_a_op[t - dv->nregions - 1];
}

/* gen_run_ys's question: more than K at X (bits of a double >= 0)? */
struct run_more {
	const struct model_dist *run;
	int64_t k;
};
static int run_more(uint64_t x, const void *ctx)
{
	const struct run_more *q = ctx;
	double y;
	memcpy(&y, &x, sizeof(y));
	return gen_run_plain(q->run, 1, 1, y) > q->k;
}

void gen_run_ys(const struct model_dist *run, double cap, double *y)
{
	uint64_t top;
	memcpy(&top, &cap, sizeof(top));
	for (int64_t k = 0; k < GEN_RUN_EDGES; k++) {
		/* over the doubles in [0, cap] in order (their bits, as
		 * integers, are): the first one it is more than k at */
		struct run_more q = {run, k};
		uint64_t at = model_first_u64(0, top, run_more, &q);
		if (run_more(at, &q))
			memcpy(&y[k], &at, sizeof(y[k]));
		else
			y[k] = INFINITY;
	}
}

void gen_run_edges(const struct model_dist *run, double cap, double a, const double *y,
		   struct gen_run_edge *e)
{
	int k = 0;
	/* the margin, relative: 1e-9 in U, and U^a's at least 1e-12 (4,500
	 * of its last bits; a < 1 flattens it: 1e-9 in U is a * 1e-9 in U^a) */
	double m = fmax(1e-9, 1e-12 / a);
	/* a CDF a MODEL.json can hold (model_dist_valid): monotone */
	for (; a > 0 && !model_dist_valid(run) && k < GEN_RUN_EDGES; k++) {
		if (y[k] == INFINITY) { /* k at most up to U = 1 (U^a * cap <= cap) */
			e[k].hi = INFINITY;
			e[k].lo = 1;
			if (gen_run_plain(run, cap, a, 1) > k)
				break;
			k++;
			break;
		}
		double t = a == 1 ? y[k] / cap : pow(y[k] / cap, 1 / a);
		e[k].hi = t * (1 + m);
		e[k].lo = t * (1 - m);
		if (y[k] == 0) /* more than k at 0 already */
			e[k].lo = -1;
		else if (e[k].hi == 0) /* a small a: past y[k] from the least U > 0 on */
			e[k].hi = 0x1p-1074;
		/* the HI do not fall (gen_run_edge_at's search by halves): Y
		 * rises with K, so this ends no table a model makes */
		if (k > 0 && e[k].hi < e[k - 1].hi)
			break;
		/* asked of the formula itself: the table holds only what it
		 * answers (monotone in U), else it ends here */
		if (gen_run_plain(run, cap, a, e[k].hi) <= k ||
		    (e[k].lo >= 0 && gen_run_plain(run, cap, a, e[k].lo) > k))
			break;
		if (e[k].lo >= 1) { /* at most k up to 1 */
			e[k].hi = INFINITY;
			k++;
			break;
		}
	}
	for (; k < GEN_RUN_EDGES; k++) { /* past the table: the formula */
		e[k].hi = INFINITY;
		e[k].lo = -INFINITY;
	}
}

/* run_length of a run starting with a re-use by op OP: at U^a of the
 * re-using runs' exponent (reuse_a_op), as of no region's at U^a. */
static int64_t run_reused(const struct model_devspace *dv, struct devstate *s, double u, int op)
{
	uint32_t t = dv->nregions + 1 + (op != REEL_OP_READ);
	return gen_run_left(&dv->run, s->run_cap, run_exp(dv, s, t), s->run_e + t * GEN_RUN_EDGES,
			    u);
}

/* The run CDF's share below the shortest long run the model keeps (1:
 * none kept): the other runs are drawn below it. */
static float run_cap(const struct model_devspace *dv)
{
	uint32_t lmin = UINT32_MAX;
	for (uint32_t i = 0; i < dv->nlong; i++)
		lmin = dv->longrun[i].len < lmin ? dv->longrun[i].len : lmin;
	double below = 1, at = 1;
	if (dv->nlong && dv->run.nk >= 2)
		model_dist_cdf(&dv->run, (double)lmin - 1, &below, &at);
	return at > 0.5 ? (float)at : 1;
}

/* The mean run length of draws U^a (128 strata), below the long runs. */
static double tilt_mean(const struct model_devspace *dv, const struct devstate *st, double a)
{
	double s = 0;
	for (int i = 0; i < 128; i++) {
		double L = model_dist_inv(&dv->run, pow((i + 0.5) / 128, a) * st->run_cap);
		s += floor(L + 0.5) > 1 ? floor(L + 0.5) : 1;
	}
	return s / 128;
}

/* The exponent a whose draws U^a have the mean run length MEAN (bisection
 * over log a in [2^-20, 2^20]); M: the device's memo, or NULL. */
float gen_tilt_for(const struct model_devspace *dv, const struct devstate *s, double mean,
		   struct gen_tilt_memo *m)
{
	double lo = -20, hi = 20; /* log2 a: the mean falls as a grows */
	uint32_t node = 1;
	for (int it = 0; it < 24; it++) {
		double mid = (lo + hi) / 2, t;
		if (m && node < (1u << GEN_TILT_MEMO_LEVELS)) {
			if (!m->ok[node]) {
				m->v[node] = tilt_mean(dv, s, exp2(mid));
				m->ok[node] = 1;
			}
			t = m->v[node];
		} else {
			t = tilt_mean(dv, s, exp2(mid));
		}
		int up = t > mean;
		if (up)
			lo = mid;
		else
			hi = mid;
		node = 2 * node + (uint32_t)up;
	}
	return (float)exp2((lo + hi) / 2);
}

/* Per region, the exponent a whose draws U^a have the region's mean run
 * length (1 where no run starts); that of the runs starting with a re-use
 * (0: drawn as the others). */
static void run_tilt(const struct model_devspace *dv, struct devstate *s)
{
	struct gen_tilt_memo *m = calloc(1, sizeof(*m)); /* NULL: each worked out */
	s->reuse_a =
	    dv->reuse_run >= 1 && dv->run.nk >= 2 ? gen_tilt_for(dv, s, dv->reuse_run, m) : 0;
	for (int k = 0; k < 2; k++) /* by the start's op where the model has it */
		s->reuse_a_op[k] = s->reuse_a > 0 && dv->reuse_run_op[k] >= 1 &&
					   dv->reuse_run_op[k] != dv->reuse_run
				       ? gen_tilt_for(dv, s, dv->reuse_run_op[k], m)
				       : s->reuse_a;
	/* the fresh runs' mean, from the runs' and the re-using ones': the
	 * regions' means scaled by it over the runs' */
	double p = dv->p_reuse, k = 1;
	if (s->reuse_a > 0 && p < 1 && dv->run.mean > 0)
		k = fmax(1, (dv->run.mean - p * dv->reuse_run) / (1 - p)) / dv->run.mean;
	for (uint32_t r = 0; r < dv->nregions; r++) {
		s->run_a[r] = 1;
		if (dv->run_mean_fitted && dv->run_mean[r] >= 1 && dv->run.nk >= 2)
			s->run_a[r] = gen_tilt_for(dv, s, dv->run_mean[r] * k, m);
	}
	free(m);
	double y[GEN_RUN_EDGES];
	gen_run_ys(&dv->run, s->run_cap, y);
	for (uint32_t t = 0; t < dv->nregions + 3; t++) {
		gen_run_edges(&dv->run, s->run_cap, run_exp(dv, s, t), y,
			      s->run_e + t * GEN_RUN_EDGES);
		s->run_e0[t] = s->run_e[t * GEN_RUN_EDGES];
	}
}

/*
 * Whether an I/O of op OP in phase P continues its device's run.  The runs
 * propose (RUN: the run drawn is not over), whatever the op; the trace's
 * ops differ (chromium: 11% of reads continue a run, 77% of writes), so a
 * proposal is taken with the odds that bring the op's share of continuing
 * I/O to the trace's: cut when more than it continue, extended (a run's
 * next I/O though the run drawn is over) when fewer do.
 * The proposals' share is counted as they come (a prior of 8 at the
 * trace's; counting what was taken instead overshoots: jump KS 0.04 ->
 * 0.085 on boot-nspawn).  Run lengths bend a little; sizes given
 * sequentiality follow.
 */
static int seq_decide(struct model_gen *g, size_t p, int op, int started, int run)
{
	if (!g->seq_want || g->seq_want[p][op] < 0)
		return run;
	double want = g->seq_want[p][op];
	uint64_t *n = g->seq_seen[p][op];
	double have = ((double)n[1] + 8 * want) / ((double)n[0] + 8);
	n[0]++;
	n[1] += (uint64_t)run;
	if (run)
		return have <= want || rnd_sp(g) * have < want;
	return started && have < want && have < 1 && rnd_sp(g) * (1 - have) < want - have;
}

/* A request size SZ as an I/O's: a multiple of AL (a power of two), at
 * least AL if SZ > 0, at most EXTENT. */
static uint64_t size_round(double sz, uint64_t al, uint64_t extent)
{
	uint64_t len = sz > 0 ? ((uint64_t)sz + al / 2) & ~(al - 1) : 0;
	if (len == 0 && sz > 0)
		len = al;
	if (len > 0xffffffffu)
		len = al_down(0xffffffffu, al);
	if (len > extent)
		len = al_down(extent, al);
	return len;
}

/* The sizes of phase P's I/O of OP, a run's next (SEQ) or a run start; the
 * index of its stream (and pool) in *IX. */
static const struct model_dist *sizes_of(const struct model_gen *g, size_t p, int op, int seq,
					 size_t *ix)
{
	*ix = (p * REEL_OP__COUNT + (size_t)op) * 2 + (size_t)seq;
	if (g->csize && g->csize[p][op][seq].nk)
		return &g->csize[p][op][seq];
	return &g->m->phases[p].size[op];
}

/* Whether the phase's I/O of OP still to come hold, past a kept run of LEN
 * I/O starting now and the sizes its run starts' pool holds, one more: a
 * size given back to that pool is taken.  The I/O to come are the quota's
 * strata left and the sizes set aside in both pools (each pool empties as
 * the quota does), the run starts' pool's own on either side. */
static int pool_later(const struct model_gen *g, int op, uint32_t len)
{
	size_t ix;
	sizes_of(g, g->phase, op, 1, &ix);
	return quota_left(g, g->phase, op) + g->npool[ix] >= len;
}

/* The pool IX's size I taken out of it. */
static double pool_take(struct model_gen *g, size_t ix, unsigned i)
{
	double *q = &g->pool[ix * GEN_POOL];
	double sz = q[i];
	memmove(q + i, q + i + 1, (size_t)(g->npool[ix] - i - 1) * sizeof(*q));
	g->npool[ix]--;
	return sz;
}

/* Of the pool IX's sizes, the one furthest from what the last kept run's
 * I/O wanted (the first if none): left for the other I/O. */
static unsigned pool_far(const struct model_gen *g, size_t ix)
{
	const double *q = &g->pool[ix * GEN_POOL];
	double want = g->pool_want[ix];
	unsigned far = 0;
	for (unsigned i = 1; want > 0 && i < g->npool[ix]; i++)
		far = fabs(q[i] - want) > fabs(q[far] - want) ? i : far;
	return far;
}

/* A request size of op OP in phase PH: of a run's next I/O (SEQ) or of a
 * run start, from the phase's sizes weighted by the share of each kind
 * (the op's sizes alone in models without it), or of those a kept run's
 * I/O left if any (size_pick), the one least like the kept run's; a
 * multiple of AL, at most EXTENT. */
static uint64_t size_draw(struct model_gen *g, const struct model_phase *ph, int op, int seq,
			  uint64_t al, uint64_t extent)
{
	size_t ix, p = (size_t)(ph - g->m->phases);
	sizes_of(g, p, op, seq, &ix);
	double sz = 4096;
	if (!g->npool[ix] && g->npool[ix ^ 1] && g->npool[ix ^ 1] >= quota_left(g, p, op))
		ix ^= 1; /* the pool holds what the quota has left to give */
	if (g->npool[ix])
		sz = pool_take(g, ix, pool_far(g, ix));
	else if (ph->size[op].nk) {
		uint32_t k;
		double u = quota_draw(g, p, op, seq ? seq | g->seq_fresh : seq, &k);
		sz = size_inv(g, p, op, u, k);
	}
	return size_round(sz, al, extent);
}

/* A request size of op OP of a device with sizes of its own (dsize: a
 * log's disk among disks of the phase's sizes): drawn from them, and the
 * phase's size of its kind (SEQ) nearest it taken out of its quota, so
 * that the other devices' I/O keep the phase's mix.  Of its kind alone:
 * disksim's disk 8 made 38% of its run starts 0.5-1.5 KiB, where the
 * phase's strata are nearly all run continuations (disk 8's runs are the
 * trace's only ones), and took those; the runs' next I/O then found
 * their kind run out and took the run starts' 8 and 16 KiB.  A multiple
 * of AL, at most EXTENT. */
static uint64_t size_own(struct model_gen *g, const struct model_devspace *dv, int op, int seq,
			 uint64_t al, uint64_t extent)
{
	double sz = model_dist_inv(&dv->dsize[op != REEL_OP_READ], rnd_sz(g));
	quota_near(g, g->phase, op, seq | QUOTA_OWN_KIND, sz);
	return size_round(sz, al, extent);
}

/* A kept run's I/O of LEN bytes placed: its head's, while it lasts. */
static void head_take(struct devstate *s, uint64_t len)
{
	if (!s->head_n)
		return;
	s->head_n--;
	s->head_left -= len < s->head_left ? len : s->head_left;
}

/*
 * The size of a kept long run's next I/O (of OP, the op it started with, in
 * phase PH): GEN_PICK_DRAWS sizes of the op's run continuations drawn into
 * the stream's pool (while it has room: two, so the pool fills while the
 * other I/O empty it), and of the pool's the one nearest the run's bytes
 * still to come per I/O left; the others stay for the stream's other I/O
 * (size_draw).  So every size drawn goes out once, as the op's sizes say
 * (they hold the kept runs' I/O too), but a kept run takes those near its
 * own and keeps its bytes (git's kept runs of 5-24 KiB reads among reads of
 * 26 KiB on average: the other reads, 63 KiB on average, get the rest;
 * the pool is drawn into only while it holds fewer than the quota has
 * left, so it empties as the quota does: 28 of blkparse's 225 writes were
 * left in it and as many drawn from a next block, its large sizes).
 */
static uint64_t size_pick(struct model_gen *g, const struct model_phase *ph, int op,
			  const struct devstate *s, uint64_t al)
{
	size_t ix, p = (size_t)(ph - g->m->phases);
	const struct model_dist *d = &ph->size[op];
	sizes_of(g, p, op, 1, &ix);
	double want = s->head_n ? (double)s->head_left / s->head_n
				: (double)s->pin_left / (double)(s->run_left > 0 ? s->run_left : 1);
	const double *q = &g->pool[ix * GEN_POOL];
	unsigned best = 0;
	for (int k = 0; k < GEN_PICK_DRAWS && g->npool[ix] < GEN_POOL && d->nk &&
			(!g->npool[ix] || g->npool[ix] < quota_left(g, p, op));
	     k++) {
		uint32_t kn;
		double u = quota_draw(g, p, op, 1 | g->seq_fresh, &kn);
		g->pool[ix * GEN_POOL + g->npool[ix]++] = size_inv(g, p, op, u, kn);
	}
	if (!g->npool[ix])
		return size_round(4096, al, s->extent);
	for (unsigned i = 0; i < g->npool[ix]; i++)
		best = fabs(q[i] - want) < fabs(q[best] - want) ? i : best;
	g->pool_want[ix] = want;
	/* none near (a 1 MiB read in a run of 4 KiB ones): a few more drawn in */
	for (int k = 0; k < 4 * GEN_PICK_DRAWS && want > 0 && q[best] > 2 * want &&
			g->npool[ix] < GEN_POOL && d->nk && g->npool[ix] < quota_left(g, p, op);
	     k++) {
		unsigned n = g->npool[ix]++;
		uint32_t kn;
		double u = quota_draw(g, p, op, 1 | g->seq_fresh, &kn);
		g->pool[ix * GEN_POOL + n] = size_inv(g, p, op, u, kn);
		best = fabs(q[n] - want) < fabs(q[best] - want) ? n : best;
	}
	return size_round(pool_take(g, ix, best), al, s->extent);
}

/* The first I/O of a kept long run, DRAWN bytes as a run start, cut to
 * LEN (the run's bytes; a 2 MiB write drawn for compile's journal run of
 * 76 KiB lost the rest, 4-14% of its bytes): the size drawn goes back to
 * its stream's pool, for the op's next run start, and the run's I/O takes
 * of the pool of a run's next I/O the size nearest its own (size_pick),
 * at most LEN. */
static uint64_t pinned_first(struct model_gen *g, const struct model_phase *ph, int op,
			     struct devstate *s, uint64_t al, uint64_t drawn, uint64_t len)
{
	size_t ix, p = (size_t)(ph - g->m->phases);
	sizes_of(g, p, op, 0, &ix);
	if (g->npool[ix] < GEN_POOL)
		g->pool[ix * GEN_POOL + g->npool[ix]++] = (double)drawn;
	s->pin_left += len;
	s->run_left++;
	s->head_n += s->head_n > 0;
	s->head_left += s->head_n ? len : 0;
	uint64_t x = size_pick(g, ph, op, s, al);
	x = x < len ? x : len;
	s->run_left--;
	s->pin_left -= x < s->pin_left ? x : s->pin_left;
	head_take(s, x);
	return x;
}

/* An I/O of OP placed at OFF for LEN: counted in its region and the
 * offsets CDF's segments, remembered and its blocks marked touched. */
static inline __attribute__((always_inline)) void placed(struct model_gen *g,
							 const struct model_devspace *dv,
							 struct devstate *s, int op, uint64_t off,
							 uint64_t len)
{
	uint32_t r = gen_region_memo(dv, s, off);
	gen_offsets_count(dv, s, r, off);
	if (s->ur && (op == REEL_OP_WRITE || op == REEL_OP_READ))
		gen_unread_mark(s->ur, off, len, op == REEL_OP_WRITE, s->hn);
	if (!g->touched)
		s->hn++;
	if (g->touched) {
		uint64_t i = s->hn % GEN_HIST, bit = 1ull << (i % 64);
		s->rhot[i / 64] =
		    region_hot(dv, r) ? s->rhot[i / 64] | bit : s->rhot[i / 64] & ~bit;
		gen_ring_op(s, op, off); /* the slot remember fills */
		s->rend[s->hn % GEN_HIST] = off + len;
		s->gone[s->hn % GEN_HIST / 64] &= ~(1ull << (s->hn % 64));
		s->rtouch[s->hn % GEN_HIST / 64] &= ~(1ull << (s->hn % 64));
		s->opn[op]++;
		remember(g, s, off);
		touch_mark(g, dv->id, off, len);
		if (op == REEL_OP_WRITE && (g->writ || g->writ_d))
			writ_mark(g, dv->id, off, len);
		if (g->touch_d || g->touch_xon) /* a run's next 128 blocks: a word or two */
			touch_ask(g, dv->id, (s->cursor >> 12) + TOUCH_AHEAD);
		else if (gen_touch_goes_on(s, off))
			touch_prefetch(g->touched, dv->id, &s->touch_pf, s->cursor >> 12);
	}
}

/* A kept run's place and what is left of it, kept over an I/O of another
 * op placed inside it. */
struct kept_run {
	uint64_t cursor, pin_end, pin_left, head_left;
	uint32_t head_n;
	int64_t run_left;
	int run_reuse, pin_op, op;
};

static void run_resume(struct devstate *s, const struct kept_run *k)
{
	s->cursor = k->cursor;
	s->run_left = k->run_left;
	s->run_reuse = k->run_reuse;
	s->pinned = 1;
	s->pin_end = k->pin_end;
	s->pin_left = k->pin_left;
	s->head_left = k->head_left;
	s->head_n = k->head_n;
	s->pin_op = k->pin_op;
	s->op = k->op;
}

/* The size and offset of the next I/O (gen_internal.h). */
/* The re-use pass's I/O PK, of op OP, where and as large as it was. */
static void pass_take(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		      int op, uint32_t pk, uint64_t al, uint64_t *offp, uint64_t *lenp)
{
	uint64_t len, off = pass_place(dv, s, pk, &len);
	/* a size of its kind drawn near its own: the sizes' mix and bytes
	 * stay the model's */
	int seq = s->started && off == s->cursor;
	quota_near(g, g->phase, op, seq, (double)len);
	if (g->seq_want && g->seq_want[g->phase][op] >= 0) { /* the runs' share counts it */
		g->seq_seen[g->phase][op][0]++;
		g->seq_seen[g->phase][op][1] += (uint64_t)seq;
	}
	/* the kept long run due next starting here is the pass's own (a
	 * burst's stretch, chromium's run of metadata writes re-written 150
	 * I/O on): placed with it, not again after it */
	if (s->lnext < dv->nlong &&
	    al_down((uint64_t)((double)dv->longrun[s->lnext].off * s->scale), al) == off)
		s->lnext++;
	if (!(s->pinned && s->run_left > 0)) { /* a long run goes on after it */
		s->cursor = off + len;
		s->run_left = 0;
		s->run_reuse = 0;
	}
	s->started = 1;
	placed(g, dv, s, op, off, len);
	*offp = off;
	*lenp = len;
}

void gen_space_place(struct model_gen *g, size_t d, int op, uint64_t *offp, uint64_t *lenp)
{
	const struct model_phase *ph = &g->m->phases[g->phase];
	const struct model_devspace *dv = &g->m->devs[d];
	struct devstate *s = &g->ds[d];
	uint64_t al = dv->align ? dv->align : 1;
	int64_t pk = op != REEL_OP_FLUSH && dv->npass ? pass_due(dv, s, op) : -1;
	if (pk >= 0) {
		pass_take(g, dv, s, op, (uint32_t)pk, al, offp, lenp);
		return;
	}
	if (dv->reuse_ph_fitted && op != REEL_OP_FLUSH)
		reuse_phase_count(g, dv, s, g->phase, op);
	/* size: of a run's next I/O or of a run start, as the trace's */
	int seq = op != REEL_OP_FLUSH && seq_decide(g, g->phase, op, s->started && !s->run_reuse,
						    s->started && s->run_left > 0);
	if (s->pinned && s->run_left > 0 && op != REEL_OP_FLUSH && continues_any(g, op))
		seq = 1; /* a long run of the trace runs its length */
	if (!seq && op != REEL_OP_FLUSH && s->seq_owed[op] && s->started && !s->run_reuse) {
		seq = 1; /* in place of one of its op cut short below */
		s->seq_owed[op]--;
	}
	if (!seq && op != REEL_OP_FLUSH)
		start_early(g, dv, s, op, al);
	uint64_t len = s->pinned && s->run_left > 0 && seq && op == s->pin_op
			   ? size_pick(g, ph, op, s, al)
		       : op != REEL_OP_FLUSH && !seq && dv->dsize[op != REEL_OP_READ].nk
			   ? size_own(g, dv, op, seq, al, s->extent)
			   : size_draw(g, ph, op, seq, al, s->extent);
	if (s->pinned && s->run_left > 0 && reserved(dv, s, s->cursor, len))
		s->run_left = 0; /* a long run ends short of the next ones */
	/* an I/O of another op inside a kept run (disksim's disk 8: a read
	 * between a log's writes) starts a run of its own as any other, and
	 * the kept run goes on after it, as after the re-use pass's I/O: it
	 * had ended the run, whose I/O then went to the walk's jumps */
	struct kept_run run; /* set where KEEP is */
	int keep = 0;
	/* a run's span: its I/O of the size of a run's next I/O */
	const struct model_dist *cs = g->csize ? &g->csize[g->phase][op][1] : NULL;
	double unit = cs && cs->nk ? cs->mean : ph->size[op].mean;
	uint64_t off = 0;
	if (op != REEL_OP_FLUSH) {
		/* a fresh run stops short of touched blocks: the trace's fresh
		 * runs hardly ever re-use; a re-using one too, but for the
		 * trace's share of its next I/O that re-use (reuse_cont), of an
		 * op that re-uses (chromium's reads continued its re-writes);
		 * never into a kept long run still to come.  Hot devices'
		 * runs go on as drawn, but for the writes of one whose reads
		 * go to blocks written (p_unread: kernel-src's runs of tar's
		 * writes ran over each other, 22k of its 71k writes).  Nor
		 * does a run's next read, on a device whose reads keep to
		 * bands (local odds by region), cover more of the trace's
		 * dense places than a fresh start may (gen_offsets_dense:
		 * boot-nspawn's 4 KiB start by its band, a 736 KiB read after
		 * it over the band's core, whose 104 I/O came out as 0-1: its
		 * offsets out on 3 of seeds 1-128, 1 with the rule).  Not
		 * writes, nor reads elsewhere: a run there goes on over what
		 * the trace re-uses (on all, kernel-src's jumps out on 111 of
		 * seeds 1-128 (0 before), chromium's re-use on 3) */
		uint64_t own = (4096 - (s->cursor & 4095)) & 4095; /* the run's own last block */
		int past = 0; /* cut short, it goes on past what is in its way */
		if (seq && !(s->pinned && s->run_left > 0 && s->cursor < s->pin_end) &&
		    g->touched && dv->reuse_fitted &&
		    (dv->p_reuse < GEN_REUSE_GATE || (s->ur && op == REEL_OP_WRITE)) &&
		    (reserved(dv, s, s->cursor, len) ||
		     (op == REEL_OP_READ && dv->p_local_fitted && dv->p_local_op[0] &&
		      gen_offsets_dense(dv, s, s->cursor, len)) ||
		     (!(s->run_reuse && dv->p_reuse_op[op != REEL_OP_READ] > 0 &&
			rnd_sp(g) < dv->reuse_cont_op[op != REEL_OP_READ]) &&
		      len > own && touched(g, dv->id, s->cursor + own, len - own, TOUCH_LOOK)))) {
			seq = 0; /* a run's next I/O owed: the runs keep their share */
			past = run_past(g, dv, s, op, len, al, &off);
			s->seq_owed[op] += !past && s->seq_owed[op] < GEN_SEQ_OWED;
		}
		/* a read run on a p_unread device ends at a block read since
		 * (the trace's runs read their own stretch: reuse distance
		 * of its runs' next reads 21.3k I/O at 10%, gen's, run on, 0.3k) */
		if (seq && s->ur && op == REEL_OP_READ && !past &&
		    !unread_bit(s->ur, s->cursor >> s->ur->shift))
			seq = 0;
		if (past) {
			s->run_left -= s->run_left > 0;
		} else if (seq && s->cursor + len <= s->extent) {
			off = s->cursor;
			s->nrun++;
			s->run_left -= s->run_left > 0;
			s->pin_left -= len < s->pin_left ? len : s->pin_left;
			if (s->pinned)
				head_take(s, len);
		} else {
			keep = s->pinned && s->run_left > 0 && op != s->pin_op;
			if (keep)
				run = (struct kept_run){s->cursor,    s->pin_end, s->pin_left,
							s->head_left, s->head_n,  s->run_left,
							s->run_reuse, s->pin_op,  s->op};
			uint64_t drawn = len;
			off = run_start(g, dv, s, op, &len, al, unit);
			if (s->pinned && len < drawn)
				len = pinned_first(g, ph, op, s, al, drawn, len);
		}
		s->cursor = off + len;
		s->started = 1;
		placed(g, dv, s, op, off, len);
		if (keep && !s->pinned) /* the kept run goes on after it */
			run_resume(s, &run);
	}
	*offp = off;
	*lenp = len;
}
