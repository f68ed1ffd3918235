/*
 * model/gen.c - generate a synthetic trace from a model, deterministic for
 * a seed.  Window by window: the window's I/O count per op (times the rate
 * factor) is placed by drawing gaps from the phase's gap-class chain and
 * scaling them to the window; ops follow the phase's op chain within the
 * window's counts.  The windows repeat (or are cut) to the requested
 * duration; --capacity rescales the regions of the address space (local
 * jumps keep their size: they are the shape).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "model/gen_internal.h"

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The identity of STRATA places, copied at once: GCC made the loop
 * writing it 16 bytes a pass of ~30 shuffles (~100 instructions a block). */
static const uint8_t strat_ident[STRATA] = {
    0,	1,  2,	3,  4,	5,  6,	7,  8,	9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
_Static_assert(STRATA == 64, "strat_ident: 0 .. STRATA - 1");

/* A stratum's shuffle of its STRATA places (gen_internal.h's sdraw_s). */
void gen_strat_fill(uint64_t *s, struct strat *st)
{
	memcpy(st->perm, strat_ident, STRATA);
#pragma GCC unroll 64 /* each remainder by a constant: a multiply */
	for (int i = STRATA - 1; i > 0; i--) {
		size_t j = (size_t)(xo_next(s) % (uint64_t)(i + 1));
		uint8_t t = st->perm[i];
		st->perm[i] = st->perm[j];
		st->perm[j] = t;
	}
	st->pos = 0;
}

/* ---- which device: each its own arrival process -------------------------- */
/* Devices with fitted gaps (a model of more than one device from this
 * version on) get clocks; 0, or -1 without memory. */
static int dev_clocks(struct model_gen *g)
{
	const struct model *m = g->m;
	int any = 0;
	for (size_t d = 0; d < m->ndevs; d++)
		any |= m->devs[d].gap.nk > 0;
	if (m->ndevs < 2 || !any)
		return 0;
	if (!(g->dc = calloc(m->ndevs, sizeof(*g->dc))))
		return -1;
	for (size_t d = 0; d < m->ndevs; d++) {
		struct devclock *k = &g->dc[d];
		double n = m->devs[d].share * (double)m->count;
		k->mean = m->devs[d].gap.nk ? m->devs[d].gap.mean
			  : n >= 1	    ? (double)m->duration_ns / n
					    : INFINITY;
		/* as if its process had been running before the trace began */
		k->last = isfinite(k->mean) ? -rnd(g) * k->mean : -INFINITY;
	}
	g->dl = gen_dev_lanes(m, g->dc); /* NULL: one device at a time */
	return 0;
}

/* A device's op bias on its weight (pick_device): the bias over its mean
 * over the arrivals so far (a prior of 4 at 1), so that the device keeps
 * its share (disksim's disk 8, [0.1, 2.02] with writes 37% of the
 * arrivals: 121-154 of its 150 I/O, mean 137, by the bias alone); its
 * sums moved on. */
static inline double dev_bias(const struct model_devspace *md, struct devclock *c, int op, double h)
{
	if (md->op_bias_fitted && op != REEL_OP_FLUSH) {
		double b = md->op_bias[op != REEL_OP_READ];
		h *= b * ((double)c->bias_n + 4) / (c->bias_sum + 4);
		c->bias_sum += b;
		c->bias_n++;
	}
	return h;
}

/* gen_dev_weights one device at a time.  Each device's hazard at its
 * age, from the stretches of its gap CDF at its last look
 * (devclock_hazard): a search of the knots only when an end of its tick
 * has left its stretch (a galloping search from the knot of its last look
 * at every arrival, two a device: 1/3 of the arrivals' instructions on
 * disksim's model of 16 devices; a binary search from the first knot each
 * time took 3/4 of its time). */
static void dev_weights_plain(const struct model *m, struct devclock *dc, double x, double dt,
			      double count, int op, double *h)
{
	for (size_t k = 0; k < m->ndevs; k++) {
		struct devclock *c = &dc[k];
		double hz = devclock_hazard(c, &m->devs[k].gap, x - c->last, dt);
		/* a device ahead of its share held back, one behind pushed on */
		double want = m->devs[k].share * count;
		h[k] = dev_bias(&m->devs[k], c, op, hz * (want + 4) / (c->n + 4));
	}
}

/* pick_device's terms of each device in rows by device, for AVX2's lanes
 * (gen_dev_lanes): its clock (last, n, as its devclock's), its share, and
 * the stretches of its gap CDF at its last look (as the devclock's lo and
 * hi, but its own copies: a stretch found is the same from any start), a
 * term a row (DL_*: struct cdf_piece's from, to, v0, dv, c0 and dc);
 * ONE_BY_ONE: by 4 devices, a bit a lane, those devclock_hazard answers
 * without the CDF (no mean, no CDF) and the lanes past the last device
 * (their stretches everywhere, so never searched).  LAST and N are kept
 * in step with the devclocks by gen_dev_drawn, the only place a clock
 * moves. */
enum { DL_FROM, DL_TO, DL_V0, DL_DV, DL_C0, DL_DC, DL_TERMS };
struct devlanes {
	double last[MODEL_MAX_DEVS], n[MODEL_MAX_DEVS], share[MODEL_MAX_DEVS];
	double lo[DL_TERMS][MODEL_MAX_DEVS], hi[DL_TERMS][MODEL_MAX_DEVS];
	size_t lo_knot[MODEL_MAX_DEVS], hi_knot[MODEL_MAX_DEVS];
	int one_by_one[MODEL_MAX_DEVS / 4];
	uint64_t biased; /* the devices with an op bias fitted, a bit each */
};
_Static_assert(MODEL_MAX_DEVS <= 64, "devlanes' biased: a bit a device");
_Static_assert(MODEL_MAX_DEVS % 4 == 0, "devlanes' rows: read and written four lanes at a time");

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* Lane K of the stretch rows ROW and KNOT: the piece P. */
static void dl_piece_set(double (*row)[MODEL_MAX_DEVS], size_t *knot, size_t k,
			 const struct cdf_piece *p)
{
	row[DL_FROM][k] = p->from, row[DL_TO][k] = p->to, row[DL_V0][k] = p->v0;
	row[DL_DV][k] = p->dv, row[DL_C0][k] = p->c0, row[DL_DC][k] = p->dc;
	knot[k] = p->knot;
}

struct devlanes *gen_dev_lanes(const struct model *m, const struct devclock *dc)
{
	struct devlanes *l;
	if (!reel_has_avx2() || m->ndevs > MODEL_MAX_DEVS || !(l = calloc(1, sizeof(*l))))
		return NULL;
	const struct cdf_piece all = {-INFINITY, INFINITY, 0, 1, 0, 0, 0};
	for (size_t k = 0; k < MODEL_MAX_DEVS; k++) {
		int by_one = k >= m->ndevs || !isfinite(dc[k].mean) || !m->devs[k].gap.nk;
		/* a stretch to search at the first look: none */
		const struct cdf_piece none = {0, 0, 0, 1, 0, 0, 0};
		dl_piece_set(l->lo, l->lo_knot, k, by_one ? &all : &none);
		dl_piece_set(l->hi, l->hi_knot, k, by_one ? &all : &none);
		l->one_by_one[k / 4] |= by_one << (k % 4);
		if (k < m->ndevs && m->devs[k].op_bias_fitted)
			l->biased |= 1ull << k;
		if (k < m->ndevs) {
			l->last[k] = dc[k].last;
			l->n[k] = dc[k].n;
			l->share[k] = m->devs[k].share;
		}
	}
	return l;
}

/* gen_dev_weights four devices at a time with AVX2, from the rows of L:
 * each end of a tick checked against its stretch four at once (and
 * searched again one by one, as devclock_hazard does), then the CDF's two
 * values, the hazard and the share's push as vectors, the same IEEE
 * operations in the same order lane by lane (where the build's flags
 * enable FMA, the compiler fuses the same ones in both: test_model_hazard
 * holds the lanes to dev_weights_plain bit for bit); one by one, a lane
 * where devclock_hazard returns before or instead of the hazard (no mean,
 * no CDF, survival under 1e-9), and the op bias.  The divisions, 4-5 a
 * device and each waiting on the one before, were most of pick_device's
 * time on disksim's 16 devices. */
__attribute__((target("avx2"))) static void
dev_weights_avx2(const struct model *m, struct devclock *dc, struct devlanes *l, double x,
		 double dt, double count, int op, double *h)
{
	size_t nd = m->ndevs;
	const __m256d hd = _mm256_set1_pd(dt / 2), one = _mm256_set1_pd(1),
		      four = _mm256_set1_pd(4), vx = _mm256_set1_pd(x), vdt = _mm256_set1_pd(dt),
		      vc = _mm256_set1_pd(count), tiny = _mm256_set1_pd(1e-9);
	for (size_t k0 = 0; k0 < nd; k0 += 4) {
#define DL_ROW(r) _mm256_loadu_pd((r) + k0)
		int by_one = l->one_by_one[k0 / 4];
		__m256d a = _mm256_sub_pd(vx, DL_ROW(l->last));
		__m256d xl = _mm256_sub_pd(a, hd), xh = _mm256_add_pd(a, hd);
		__m256d in = _mm256_and_pd(
		    _mm256_and_pd(_mm256_cmp_pd(xl, DL_ROW(l->lo[DL_FROM]), _CMP_GE_OQ),
				  _mm256_cmp_pd(xl, DL_ROW(l->lo[DL_TO]), _CMP_LT_OQ)),
		    _mm256_and_pd(_mm256_cmp_pd(xh, DL_ROW(l->hi[DL_FROM]), _CMP_GE_OQ),
				  _mm256_cmp_pd(xh, DL_ROW(l->hi[DL_TO]), _CMP_LT_OQ)));
		int out = ~_mm256_movemask_pd(in) & ~by_one & 15;
		if (out) { /* an end has left its stretch: as devclock_hazard */
			double xs[2][4];
			_mm256_storeu_pd(xs[0], xl);
			_mm256_storeu_pd(xs[1], xh);
			for (int j = 0; j < 4; j++) {
				if (!(out >> j & 1))
					continue;
				size_t k = k0 + j;
				const struct model_dist *gp = &m->devs[k].gap;
				double xj = xs[0][j], yj = xs[1][j];
				if (!(xj >= l->lo[DL_FROM][k] && xj < l->lo[DL_TO][k])) {
					struct cdf_piece p = {.knot = l->lo_knot[k]};
					cdf_piece_find(&p, gp, xj, 0);
					dl_piece_set(l->lo, l->lo_knot, k, &p);
				}
				if (!(yj >= l->hi[DL_FROM][k] && yj < l->hi[DL_TO][k])) {
					struct cdf_piece p = {.knot = l->hi_knot[k]};
					cdf_piece_find(&p, gp, yj, l->lo_knot[k]);
					dl_piece_set(l->hi, l->hi_knot, k, &p);
				}
			}
		}
		__m256d t0 = _mm256_add_pd(
		    DL_ROW(l->lo[DL_C0]),
		    _mm256_div_pd(_mm256_mul_pd(DL_ROW(l->lo[DL_DC]),
						_mm256_sub_pd(xl, DL_ROW(l->lo[DL_V0]))),
				  DL_ROW(l->lo[DL_DV])));
		__m256d t1 = _mm256_add_pd(
		    DL_ROW(l->hi[DL_C0]),
		    _mm256_div_pd(_mm256_mul_pd(DL_ROW(l->hi[DL_DC]),
						_mm256_sub_pd(xh, DL_ROW(l->hi[DL_V0]))),
				  DL_ROW(l->hi[DL_DV])));
		__m256d surv = _mm256_sub_pd(one, t0);
		__m256d hz = _mm256_div_pd(_mm256_sub_pd(t1, t0), _mm256_mul_pd(surv, vdt));
		by_one |= _mm256_movemask_pd(_mm256_cmp_pd(surv, tiny, _CMP_LE_OQ));
		if (by_one) {
			double hs[4];
			_mm256_storeu_pd(hs, hz);
			for (int j = 0; j < 4 && k0 + j < nd; j++)
				if (by_one >> j & 1)
					hs[j] =
					    !isfinite(dc[k0 + j].mean) ? 0 : 1 / dc[k0 + j].mean;
			hz = _mm256_loadu_pd(hs);
		}
		__m256d want = _mm256_mul_pd(DL_ROW(l->share), vc);
		_mm256_storeu_pd(h + k0, _mm256_div_pd(_mm256_mul_pd(hz, _mm256_add_pd(want, four)),
						       _mm256_add_pd(DL_ROW(l->n), four)));
#undef DL_ROW
	}
	for (uint64_t b = l->biased; b; b &= b - 1) {
		size_t k = (size_t)__builtin_ctzll(b);
		h[k] = dev_bias(&m->devs[k], &dc[k], op, h[k]);
	}
}
#else
struct devlanes *gen_dev_lanes(const struct model *m, const struct devclock *dc)
{
	(void)m;
	(void)dc;
	return NULL;
}
#endif

void gen_dev_weights(const struct model *m, struct devclock *dc, struct devlanes *l, double x,
		     double dt, double count, int op, double *h)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	if (l) {
		dev_weights_avx2(m, dc, l, x, dt, count, op, h);
		return;
	}
#endif
	dev_weights_plain(m, dc, x, dt, count, op, h);
}

void gen_dev_drawn(struct devclock *dc, struct devlanes *l, size_t d, double x)
{
	dc[d].last = x;
	dc[d].n += 1;
	if (l) {
		l->last[d] = x;
		l->n[d] += 1;
	}
}

/*
 * The device of the I/O arriving at T.  The devices are independent
 * renewal processes (each its own gap CDF) whose superposition the
 * windows' arrivals stand for: given an arrival at T and none since each
 * device's last, it came from device d with a probability proportional to
 * d's hazard at its age (the conditional intensity of each process of a
 * superposition given the past), times (the I/O its share wants so far +
 * 4) / (the I/O it has + 4), which keeps the shares where the merged
 * stream is not quite the superposition.  Each device's stream gets its
 * own gaps while the merged stream keeps the window counts and the phases'
 * gaps.  Drawing each I/O's device by share (models without the devices'
 * gaps) thins the merged stream at random instead, the devices' gaps then
 * those of a thinned process (disksim's per-device gap KS 0.09-0.18).
 */
static size_t pick_device(struct model_gen *g, double t, int op)
{
	const struct model *m = g->m;
	size_t d = 0;
	if (!g->dc) {
		double u = rnd(g);
		while (d + 1 < m->ndevs && g->dev_cum[d] <= u)
			d++;
		return d;
	}
	double h[MODEL_MAX_DEVS], tot = 0, x = t * g->o.rate; /* room for the lanes' 4 */
	double dt = (m->quantum_ns > 1 ? (double)m->quantum_ns : 1) * g->o.rate;
	gen_dev_weights(m, g->dc, g->dl, x, dt, (double)(g->count + 1), op, h);
	for (size_t k = 0; k < m->ndevs; k++)
		tot += h[k];
	if (tot > 0) {
		double u = rnd(g) * tot, c = 0;
		for (d = 0; d + 1 < m->ndevs; d++)
			if (u < (c += h[d]))
				break;
	} else { /* no device's process says so: by share */
		double u = rnd(g);
		while (d + 1 < m->ndevs && g->dev_cum[d] <= u)
			d++;
	}
	gen_dev_drawn(g->dc, g->dl, d, x);
	return d;
}

void model_gen_destroy(struct model_gen *g)
{
	if (!g)
		return;
	gen_thread_stop(g);
	free(g->bt);
	free(g->bop);
	free(g->gap_class);
	free(g->last_op);
	gen_space_free(g);
	free(g->dc);
	free(g->dl);
	free(g->sc);
	free(g->sk);
	free(g->rk);
	free(g);
}

/* What times alone need: the options, the random streams, each phase's
 * chain state. */
static int gen_time_init(struct model_gen *g, const struct model *m, const struct model_gen_opts *o)
{
	g->m = m;
	if (o)
		g->o = *o;
	if (g->o.rate <= 0)
		g->o.rate = 1;
	if (g->o.duration_ns <= 0)
		g->o.duration_ns = m->duration_ns;
	g->end = (double)g->o.duration_ns;
	uint64_t sd = g->o.seed;
	for (int i = 0; i < 4; i++)
		g->s[i] = splitmix(&sd);
	for (int i = 0; i < 4; i++)
		g->sp[i] = splitmix(&sd);
	for (int i = 0; i < 4; i++)
		g->sz[i] = splitmix(&sd);
	g->wl = (double)m->duration_ns / (double)m->nwin;
	g->gap_class = calloc(m->nphases, sizeof(*g->gap_class));
	g->last_op = calloc(m->nphases, sizeof(*g->last_op));
	if (!g->gap_class || !g->last_op)
		return -1;
	for (size_t p = 0; p < m->nphases; p++) {
		g->gap_class[p] = (int)(rnd(g) * MODEL_CLASSES) % MODEL_CLASSES;
		double u = rnd(g), c = 0;
		g->last_op[p] = 0;
		for (int k = 0; k < REEL_OP__COUNT; k++) {
			c += m->phases[p].op_mix[k];
			if (u < c) {
				g->last_op[p] = k;
				break;
			}
		}
	}
	return 0;
}

/* model_gen_create, or (FULL 0) gen_create_arrivals. */
static int gen_create(struct model_gen **out, const struct model *m, const struct model_gen_opts *o,
		      int full)
{
	*out = NULL;
	if (!m->nphases || !m->ndevs || !m->nwin || m->duration_ns <= 0)
		return REEL_E_ARG;
	struct model_gen *g = calloc(1, sizeof(*g));
	if (!g)
		return REEL_E_NOMEM;
	if (gen_time_init(g, m, o) || (full ? gen_space_init(g) : gen_space_init_arrivals(g))) {
		model_gen_destroy(g);
		return REEL_E_NOMEM;
	}
	double c = 0;
	for (size_t d = 0; d < m->ndevs; d++) {
		c += m->devs[d].share;
		g->dev_cum[d] = c;
	}
	for (size_t d = 0; d < m->ndevs; d++)
		g->dev_cum[d] /= c > 0 ? c : 1;
	if (dev_clocks(g)) {
		model_gen_destroy(g);
		return REEL_E_NOMEM;
	}
	*out = g;
	return 0;
}

int model_gen_create(struct model_gen **out, const struct model *m, const struct model_gen_opts *o)
{
	return gen_create(out, m, o, 1);
}

int gen_create_arrivals(struct model_gen **out, const struct model *m,
			const struct model_gen_opts *o)
{
	return gen_create(out, m, o, 0);
}

size_t model_gen_devices(const struct model_gen *g, struct reel_device *out, size_t max)
{
	size_t k = 0;
	for (size_t d = 0; d < g->m->ndevs && k < max; d++, k++) {
		memset(&out[k], 0, sizeof(out[k]));
		out[k].id = g->m->devs[d].id;
		snprintf(out[k].name, sizeof(out[k].name), "%s", g->m->devs[d].name);
		out[k].capacity = g->ds[d].extent;
		out[k].lbs = 512;
		out[k].pbs = g->m->devs[d].align >= 4096 ? 4096 : 512;
	}
	return k;
}

/* The ops whose counts CNT are not 0, in order, into AV; how many. */
static int ops_left(const uint64_t *cnt, int *av)
{
	int na = 0;
	for (int o = 0; o < REEL_OP__COUNT; o++)
		if (cnt[o])
			av[na++] = o;
	return na;
}

/* The window's ops in arrival order: the phase's op chain, restricted to
 * the counts left (cnt, c in all).  Each row's weights of the ops left,
 * cumulated in their order (the sums as the draw adds them: the same
 * doubles), are worked out once per row and kept until an op's count runs
 * out; the op drawn is the first whose cumulated weight passes the draw
 * (counted, no branch), the last one left when none does (rounding). */
static void draw_ops(struct model_gen *g, const struct model_phase *ph, size_t p, uint64_t *cnt,
		     uint64_t c)
{
	int av[REEL_OP__COUNT], na = ops_left(cnt, av);
	double cum[REEL_OP__COUNT][REEL_OP__COUNT];
	unsigned ok = 0; /* the rows of cum worked out, a bit each */
	uint8_t *bop = g->bop;
	int lo = g->last_op[p]; /* the op before, kept here (stored through bop, a
				 * char's store, it was loaded again each I/O) */
	/* the main stream's state in registers for the same reason (bop's
	 * store, and cnt's, may alias g->s: a load and a store of its four
	 * words at each draw) */
	uint64_t s[4] = {g->s[0], g->s[1], g->s[2], g->s[3]};
	for (uint64_t i = 0; i < c; i++) {
		int op = -1;
		double *cu = cum[lo];
		if (!(ok >> lo & 1)) {
			const double *row = ph->op_next[lo];
			double cc = 0;
			for (int j = 0; j < na; j++)
				cu[j] = cc += row[av[j]];
			ok |= 1u << lo;
		}
		double tot = cu[na - 1];
		if (tot > 0) {
			double u = unit(xo_next(s)) * tot;
			int j = 0;
			for (int t = 0; t < na; t++)
				j += cu[t] <= u;
			op = av[j < na ? j : na - 1];
		} else { /* the chain never goes there: any op left */
			uint64_t u = xo_next(s) % (c - i), cc = 0;
			for (int o = 0; o < REEL_OP__COUNT; o++) {
				cc += cnt[o];
				if (u < cc) {
					op = o;
					break;
				}
			}
		}
		if (!--cnt[op]) { /* an op run out: the rows again */
			na = ops_left(cnt, av);
			ok = 0;
		}
		bop[i] = (uint8_t)op;
		lo = op;
	}
	g->s[0] = s[0], g->s[1] = s[1], g->s[2] = s[2], g->s[3] = s[3];
	g->last_op[p] = lo;
}

/* Whether O is a pass I/O's op: a write (any op but a read or a flush)
 * if WR, else a read. */
static int op_is(uint8_t o, int wr) { return o != REEL_OP_FLUSH && (o != REEL_OP_READ) == wr; }

/* The N ops at V in the reverse order. */
static void reverse_ops(uint8_t *v, uint64_t n)
{
	for (uint64_t k = 0; k < n / 2; k++) {
		uint8_t t = v[k];
		v[k] = v[n - 1 - k];
		v[n - 1 - k] = t;
	}
}

/* Window W's C ops, drawn, with the re-use pass's pinned (g->pins): at
 * each pin's place among the window's addressed I/O, the first run of the
 * pin's op from there on (its I/O of that op in a row) is moved up to it,
 * the ones it passes after it.  The chain's runs stay whole: moving the
 * pass's one I/O alone put compile's 2 MiB re-write between the reads
 * that followed it, and its window's other writes, which went on after it
 * in the trace, drew their sizes as run starts (its bytes out on 18 of
 * seeds 1-128, 4 before).  The ops' counts and the chain's draws are the
 * drawn ones: a model without a pass gets the same arrivals. */
static void pin_ops(struct model_gen *g, size_t w, uint64_t c)
{
	size_t lo = 0, hi = g->npin;
	int64_t key = (int64_t)w << 32;
	while (lo < hi) { /* the window's first pin */
		size_t mid = lo + (hi - lo) / 2;
		if (g->pins[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint8_t *op = g->bop;
	uint64_t i = 0, a = 0; /* the place, the addressed I/O before it */
	for (size_t k = lo; k < g->npin && g->pins[k] >> 32 == (int64_t)w; k++) {
		uint64_t at = (uint64_t)(g->pins[k] >> 1) & 0x7fffffff;
		int wr = (int)(g->pins[k] & 1);
		for (; i < c && (a < at || op[i] == REEL_OP_FLUSH); i++)
			a += op[i] != REEL_OP_FLUSH;
		uint64_t j = i, e;
		while (j < c && !op_is(op[j], wr))
			j++;
		if (j >= c)
			continue; /* none of its op left in the window */
		/* op[i, j) and op[j, e) swapped: nothing to do when the run
		 * starts at the place (j = i: the last two reversals undo
		 * each other), 68 or more of the 74 pins in boot's first 1M
		 * I/O at --rate 7491, whose runs (82 K I/O on average) the
		 * scan for e and the reversals went over: 1/10 of the
		 * arrivals' instructions */
		if (j > i) {
			for (e = j + 1; e < c && op_is(op[e], wr);)
				e++;
			reverse_ops(op + i, j - i);
			reverse_ops(op + j, e - j);
			reverse_ops(op + i, e - i);
		}
		i++;
		a++;
	}
}

/* The window's I/O per op: the model's so far times the rate, rounded, less
 * what was generated so far; then the op furthest from its own share (its
 * remainder) gives or takes one until the window's total is the same for
 * all ops together.  No I/O lost or added by rounding: the whole trace
 * holds round(rate x count) (not the sum of each op's rounding: one more at
 * rate 0.5 when two ops' counts are odd).  The products are taken of whole
 * counts, so a total ending in .5 rounds as round(rate x count) does.  At a
 * whole rate nothing is rounded and nothing moves. */
static uint64_t window_counts(struct model_gen *g, size_t w, uint64_t *cnt)
{
	const struct model *m = g->m;
	uint64_t c = 0, seen = 0, done = 0;
	for (int o = 0; o < REEL_OP__COUNT; o++) {
		g->seen[o] += m->win_ops[w * REEL_OP__COUNT + o];
		uint64_t want = (uint64_t)floor((double)g->seen[o] * g->o.rate + 0.5);
		cnt[o] = want > g->done[o] ? want - g->done[o] : 0;
		g->done[o] += cnt[o];
		c += cnt[o];
		seen += g->seen[o];
		done += g->done[o];
	}
	uint64_t want = (uint64_t)floor((double)seen * g->o.rate + 0.5);
	while (done != want) {
		int up = done < want, best = -1;
		double br = 0;
		for (int o = 0; o < REEL_OP__COUNT; o++) {
			double r = (double)g->seen[o] * g->o.rate - (double)g->done[o];
			if (!up && !cnt[o])
				continue; /* only this window's I/O can be taken */
			if (best < 0 || (up ? r > br : r < br))
				best = o, br = r;
		}
		if (best < 0)
			break; /* none of this window's to take: the next window's */
		if (up) {
			cnt[best]++, g->done[best]++, c++, done++;
		} else {
			cnt[best]--, g->done[best]--, c--, done--;
		}
	}
	return c;
}

/* A standard normal (Box-Muller) and a Gamma(A, 1) draw (Marsaglia and
 * Tsang; A < 1 through A + 1). */
static double normal(struct model_gen *g)
{
	double u = rnd(g), v = rnd(g);
	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static double gamma_draw(struct model_gen *g, double a)
{
	if (a < 1) {
		double u = rnd(g);
		return gamma_draw(g, a + 1) * pow(u > 0 ? u : 1e-300, 1 / a);
	}
	double d = a - 1.0 / 3, c = 1 / sqrt(9 * d);
	for (;;) {
		double x = normal(g), v = 1 + c * x;
		if (v <= 0)
			continue;
		v = v * v * v;
		double u = rnd(g);
		if (log(u > 0 ? u : 1e-300) < 0.5 * x * x + d - d * v + d * log(v))
			return d * v;
	}
}

/* The window's class shares: the bucket's shares CB (total CBT), or with a
 * dispersion RHO > 0 a Dirichlet draw around them of concentration
 * (1 - rho) / rho, so that windows of one bucket vary as the trace's do. */
static void window_mix(struct model_gen *g, const double *cb, double cbt, double rho, double *q)
{
	double tot = 0;
	for (int j = 0; j < MODEL_CLASSES; j++)
		q[j] = cb[j] / cbt;
	if (!(rho > 1e-6))
		return;
	double alpha = rho < 1 ? (1 - rho) / rho : 0;
	if (alpha < 1e-3) { /* each window one class */
		double u = rnd(g), c = 0;
		int k = MODEL_CLASSES - 1;
		for (int j = 0; j < MODEL_CLASSES; j++)
			if (q[j] > 0 && u < (c += q[j])) {
				k = j;
				break;
			}
		for (int j = 0; j < MODEL_CLASSES; j++)
			q[j] = j == k;
		return;
	}
	for (int j = 0; j < MODEL_CLASSES; j++)
		tot += q[j] = q[j] > 0 ? gamma_draw(g, alpha * q[j]) : 0;
	if (!(tot > 0))
		for (int j = 0; j < MODEL_CLASSES; j++)
			tot += q[j] = cb[j] / cbt;
	for (int j = 0; j < MODEL_CLASSES; j++)
		q[j] /= tot;
}

/* A compact window (no gap of the top class: a burst inside the window),
 * with the share COMPACT of the bucket's windows in the trace, or not
 * (the top class then TOP of the gaps, as in the trace's other windows):
 * the class mix Q so adjusted.  COMPACT < 0: not known, Q as it is. */
static void compact_or_not(struct model_gen *g, double compact, double top, double *q)
{
	const int k7 = MODEL_CLASSES - 1;
	if (!(compact >= 0) || !(q[k7] > 0) || !(q[k7] < 1))
		return;
	double t = rnd(g) < compact ? 0 : top;
	double k = (1 - t) / (1 - q[k7]);
	for (int j = 0; j < k7; j++)
		q[j] *= k;
	q[k7] = t;
}

/* The gap classes a window of C I/O holds: (C - 1) times its shares Q,
 * each rounded down, the remainders handed out by one systematic draw (so
 * the counts sum to C - 1 and each class gets its share on average). */
static void class_budget(struct model_gen *g, const double *q, uint64_t c, uint64_t *left)
{
	double e[MODEL_CLASSES], u = rnd(g), acc = 0;
	uint64_t given = 0;
	for (int j = 0; j < MODEL_CLASSES; j++) {
		e[j] = (double)(c - 1) * q[j];
		left[j] = (uint64_t)floor(e[j]);
		given += left[j];
	}
	for (int j = 0; j < MODEL_CLASSES && given < c - 1; j++) {
		double r = e[j] - floor(e[j]);
		if (floor(acc + r + u) > floor(acc + u)) {
			left[j]++;
			given++;
		}
		acc += r;
	}
	for (int j = MODEL_CLASSES - 1; given < c - 1; j = (j + 1) % MODEL_CLASSES)
		if (q[j] > 0) { /* rounding: a share or two short */
			left[j]++;
			given++;
		}
}

/* Where in its class a gap falls: U^gamma for a uniform U, gamma such that
 * the mean is M (the class's mean position in windows of this bucket):
 * gamma = (1 - M) / M, M held to [0.01, 0.99]; 1 (U itself) at M = 0.5.
 * Worked out once a window per class (draw_gaps). */
static double class_gamma(double m)
{
	m = m < 0.01 ? 0.01 : m > 0.99 ? 0.99 : m;
	return m == 0.5 ? 1 : (1 - m) / m;
}

/* Why a stretch of knots of one value holds the inverse (gen_internal.h):
 * the inverse at W in (0, 1) is the first stretch I (at most nk - 2) with
 * c[I + 1] > W (model_dist_seek; c does not fall), so W in [c[I], c[I +
 * 1]) is stretch I's, whose answer is v[I] + 0 x (W - c[I]) / (c[I + 1] -
 * c[I]) = v[I] + 0 (v[I] + 0.0: -0 as +0, bit for bit).  W = (K + A) / 8
 * for A = U^gamma: A in [8 c[I] - K, 8 c[I + 1] - K) (exact: Sterbenz),
 * each end moved in by 1e-12 (K + A's rounding, 2^-51, and pow's, under
 * 2^-52), then as U: the end's 1 / gamma-th power moved in by 1e-9 of
 * itself (U^gamma then moves gamma x 1e-9 of itself, at least 1e-11:
 * more than 1 / gamma's rounding moves it, 3e-13 at most), the low end
 * at least DBL_MIN (U = 0: the inverse's end at W = 0). */
int gen_gap_flats_make(const struct model_dist *d, int k, double gamma, struct gen_gap_flats *f)
{
	int n = 0;
	for (int j = 0; j < GEN_GAP_FLATS; j++)
		f->lo[j] = 2, f->hi[j] = -1, f->v[j] = 0;
	if (d->nk < 2)
		return 0;
	for (uint32_t i = 1; i < d->nk; i++)
		if (!(d->c[i] >= d->c[i - 1]))
			return 0;
	double a = (double)k / MODEL_CLASSES, b = (k + 1.0) / MODEL_CLASSES, ig = 1 / gamma;
	const double eps = 1e-12, rel = 1e-9;
	for (size_t i = model_dist_seek(d, a, 0); i + 2 <= d->nk && n < GEN_GAP_FLATS; i++) {
		double c0 = d->c[i], c1 = d->c[i + 1], x = d->v[i];
		if (c0 >= b)
			break;
		if (!(c1 > c0) || d->v[i + 1] != x || !isfinite(x))
			continue;
		double t0 = 8 * (c0 > a ? c0 : a) - k + eps, t1 = 8 * (c1 < b ? c1 : b) - k - eps;
		if (!(t0 < t1))
			continue;
		double u0 = (gamma == 1 ? t0 : pow(t0, ig)) * (1 + rel);
		double u1 = (gamma == 1 ? t1 : pow(t1, ig)) * (1 - rel);
		u0 = u0 > DBL_MIN ? u0 : DBL_MIN;
		if (!(u0 < u1))
			continue;
		f->lo[n] = u0, f->hi[n] = u1, f->v[n++] = x + 0.0;
	}
	return n;
}

/* The next gap class for the draw U0 (a uniform): the chain's row from the
 * class before, restricted to the classes the window has left (any of them
 * when the chain never goes there); without a budget (LEFT NULL), the row
 * weighted by the bucket's shares CB (all 0: the row as it is). */
static int next_class(double u0, const double *row0, uint64_t *left, const double *cb)
{
	double row[MODEL_CLASSES], rt = 0, cbt = 0;
	for (int j = 0; j < MODEL_CLASSES; j++)
		cbt += cb[j];
	for (int j = 0; j < MODEL_CLASSES; j++)
		rt += row[j] = left ? (left[j] ? row0[j] : 0) : cbt > 0 ? row0[j] * cb[j] : row0[j];
	if (!(rt > 0)) /* the chain never goes to what is left */
		for (int j = 0; j < MODEL_CLASSES; j++)
			rt += row[j] = left ? (double)left[j] : cb[j];
	if (!(rt > 0))
		for (int j = 0; j < MODEL_CLASSES; j++)
			rt += row[j] = 1;
	double u = u0 * rt, cc = 0;
	int k = MODEL_CLASSES - 1;
	for (int j = 0; j < MODEL_CLASSES; j++) {
		cc += row[j];
		if (row[j] > 0 && u < cc) {
			k = j;
			break;
		}
	}
	if (left && left[k])
		left[k]--;
	return k;
}

/* The rows of the class chain as next_class weighs them, cumulated in
 * their order (the sums its draw adds up: the same doubles), kept for a
 * window while the classes left stay the same (a class's budget run out
 * clears them).  A row's weights are >= 0 (the model's rows are
 * probabilities, model_json_read), so the class drawn is the first whose
 * cumulated weight passes the draw (counted, no branch; the last when none
 * does, rounding), one whose weight is 0 never. */
struct class_rows {
	double cum[MODEL_CLASSES][MODEL_CLASSES];
	unsigned ok; /* the rows worked out, a bit each */
};

/* next_class for the draw U0 from the class PREV before, by the rows kept
 * in CR; a row whose weights sum to 0 (the chain never goes to what is
 * left: weights then of the counts left, which change at each draw) by
 * next_class. */
static int next_class_kept(double u0, const double (*next)[MODEL_CLASSES], int prev, uint64_t *left,
			   const double *cb, struct class_rows *cr)
{
	double *cu = cr->cum[prev];
	if (!(cr->ok >> prev & 1)) {
		const double *row0 = next[prev];
		double rt = 0, cbt = 0;
		for (int j = 0; j < MODEL_CLASSES; j++)
			cbt += cb[j];
		for (int j = 0; j < MODEL_CLASSES; j++)
			cu[j] = rt += left	? (left[j] ? row0[j] : 0)
				      : cbt > 0 ? row0[j] * cb[j]
						: row0[j];
		if (!(rt > 0)) { /* its draw may run a class out */
			cr->ok = 0;
			return next_class(u0, row0, left, cb);
		}
		cr->ok |= 1u << prev;
	}
	double u = u0 * cu[MODEL_CLASSES - 1];
	/* the count two lanes at a time: a lane's compare is -1 where true
	 * (GCC's vectors; its scalar compares, setcc and adds were 41
	 * instructions a gap of the 10M gen_reel model's arrivals); unrolled
	 * (GCC kept a loop of 4: 12 instructions a gap on chromium's rate-1
	 * model) */
	_Static_assert(MODEL_CLASSES % 2 == 0, "the classes two at a time");
	typedef double v2d __attribute__((vector_size(16)));
	typedef int64_t v2i __attribute__((vector_size(16)));
	v2d uu = {u, u};
	v2i kk = {0, 0};
#pragma GCC unroll 4
	for (int j = 0; j < MODEL_CLASSES; j += 2) {
		v2d c2;
		memcpy(&c2, &cu[j], sizeof(c2));
		kk -= c2 <= uu;
	}
	int k = (int)(kk[0] + kk[1]);
	k = k < MODEL_CLASSES ? k : MODEL_CLASSES - 1;
	if (left && left[k] && !--left[k])
		cr->ok = 0;
	return k;
}

static int dcmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

static int dcmp_desc(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a > b ? -1 : a < b;
}

/* P (its capacity *CAP items of SIZE bytes) grown to hold N; NULL
 * without memory (P kept). */
static void *grow_to(void *p, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return p;
	void *x = realloc(p, n * size);
	if (x)
		*cap = n;
	return x;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/* A page fault traps to the hypervisor on the VMs measured (35 us a page
 * first written at load 7, 19 us made present by one call; blktrace's
 * rate-1 gen wrote 22 MB of bt and 20 MB of kept_fit's scratch a window
 * as first written, 10 K faults).  The arrays it is asked for are kept
 * from window to window, so only their new part is asked, once. */
int gen_populate(void *p, size_t from, size_t to)
{
	if (to <= from || to - from < GEN_POPULATE_MIN)
		return 0;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p + from;
	uintptr_t b = ((uintptr_t)p + to) & ~(page - 1);
	a = (a + page - 1) & ~(page - 1);
	return b > a && madvise((void *)a, b - a, MADV_POPULATE_WRITE) == 0;
}

/* sc's first N doubles (at most its capacity), about to be written
 * whole, made present past the sc_pop made present (or written) before
 * (gen_populate), sc_pop moved to N */
static void gen_scratch_populate(struct model_gen *g, size_t n)
{
	if (n > g->sc_cap)
		n = g->sc_cap;
	if (n > g->sc_pop) {
		gen_populate(g->sc, g->sc_pop * sizeof(*g->sc), n * sizeof(*g->sc));
		g->sc_pop = n;
	}
}

/* Scratch of N doubles, N keys or N ranks, grown as windows need it and
 * kept for the next (a window's malloc and free cost the arrivals' thread
 * 2%); NULL without memory. */
static double *gen_scratch(struct model_gen *g, size_t n)
{
	double *x = grow_to(g->sc, &g->sc_cap, n, sizeof(*x));
	return x ? g->sc = x : NULL;
}

static uint64_t *gen_keys(struct model_gen *g, size_t n)
{
	uint64_t *x = grow_to(g->sk, &g->sk_cap, n, sizeof(*x));
	return x ? g->sk = x : NULL;
}

static uint32_t *gen_ranks(struct model_gen *g, size_t n)
{
	uint32_t *x = grow_to(g->rk, &g->rk_cap, n, sizeof(*x));
	return x ? g->rk = x : NULL;
}

/* Key I of keys at P, and key I of P set to X: by memcpy, so keys may be
 * kept in an array of doubles (sort_gaps sorts gaps >= 0 as their bits,
 * in place) without reading a double as an integer; a load and a store */
static inline uint64_t key_get(const void *p, size_t i)
{
	uint64_t x;
	memcpy(&x, (const char *)p + i * sizeof(x), sizeof(x));
	return x;
}

static inline void key_set(void *p, size_t i, uint64_t x)
{
	memcpy((char *)p + i * sizeof(x), &x, sizeof(x));
}

/* Keys A (N 64-bit keys) in order, largest first when DESC: a radix sort
 * of W-bit digits (every digit counted in one pass; a digit all keys
 * share is skipped), stable; each key's tag in TA (N) moved with it when
 * TA is not NULL; B and TB: N of scratch.  Tags of 32 bits (places in a
 * window: half the bytes of size_t's in redraw_gaps' block).  W 8 or 11
 * (a constant where inlined); the counts in 32 bits (N below 2^32: a
 * window holds at most 2^26 I/O, fill_window), 64 KiB of stack. */
static inline __attribute__((always_inline)) void
key_sort_w(void *a, void *b, uint32_t *ta, uint32_t *tb, size_t n, int desc, const int w)
{
	const int nd = (64 + w - 1) / w, nb = 1 << w;
	uint32_t cnt[8][2048];
	for (int d = 0; d < nd; d++)
		memset(cnt[d], 0, (size_t)nb * sizeof(cnt[d][0]));
	for (size_t i = 0; i < n; i++) {
		uint64_t x = key_get(a, i);
#pragma GCC unroll 8
		for (int d = 0; d < nd; d++)
			cnt[d][(x >> (w * d)) & (uint64_t)(nb - 1)]++;
	}
	void *src = a, *dst = b;
	uint32_t *tsrc = ta, *tdst = tb;
	for (int d = 0; d < nd && n; d++) {
		uint32_t *c = cnt[d], sum = 0;
		const int sh = w * d;
		const uint64_t mk = (uint64_t)(nb - 1);
		if (c[(key_get(src, 0) >> sh) & mk] == n)
			continue;
		for (int k = 0; k < nb; k++) {
			uint32_t *e = &c[desc ? nb - 1 - k : k], t = *e;
			*e = sum;
			sum += t;
		}
		for (size_t i = 0; i < n; i++) {
			uint64_t x = key_get(src, i);
			size_t at = c[(x >> sh) & mk]++;
			key_set(dst, at, x);
			if (ta)
				tdst[at] = tsrc[i];
		}
		void *t = src;
		src = dst;
		dst = t;
		uint32_t *tt = tsrc;
		tsrc = tdst;
		tdst = tt;
	}
	if (src != a) {
		memcpy(a, src, n * sizeof(uint64_t));
		if (ta)
			memcpy(ta, tsrc, n * sizeof(*ta));
	}
}

/* keys from this many on by 11-bit digits: 6 counts and at most 6 passes
 * a key, not 8 and 8 (a stable sort: the same order; git x2986's sorts
 * 0.54-0.67x the time); fewer by 8-bit digits, whose 256 counts a digit
 * cost less to sum */
#define KEY_SORT_W11_MIN 4096

static inline __attribute__((always_inline)) void key_sort_tagged(void *a, void *b, uint32_t *ta,
								  uint32_t *tb, size_t n, int desc)
{
	if (n >= KEY_SORT_W11_MIN)
		key_sort_w(a, b, ta, tb, n, desc, 11);
	else
		key_sort_w(a, b, ta, tb, n, desc, 8);
}

static void key_sort(void *a, void *b, size_t n, int desc)
{
	key_sort_tagged(a, b, NULL, NULL, n, desc);
}

void gen_key_sort(void *a, void *b, uint32_t *ta, uint32_t *tb, size_t n, int desc)
{
	key_sort_tagged(a, b, ta, tb, n, desc);
}

/* Gaps V (N) in ascending order, or descending when DESC: as their bits
 * (the order of doubles >= 0, key_sort) when all are >= 0 and not -0,
 * sorted in place with TMP (N doubles the caller has free) as the sort's
 * scratch (a copy of the keys and the scratch in keys of the generator's
 * own were 65 MB more of blktrace's gen at x88496), else by qsort. */
static void sort_gaps(double *v, size_t n, int desc, double *tmp)
{
	int pos = 1;
	for (size_t i = 0; i < n; i++)
		pos &= v[i] >= 0 && !signbit(v[i]);
	if (pos) {
		key_sort(v, tmp, n, desc);
		return;
	}
	qsort(v, n, sizeof(*v), desc ? dcmp_desc : dcmp);
}

/* windows of more gaps keep the chain's order (the cascade's cost grows
 * as n log n / log(1 / b)) */
#define GEN_CASCADE_MAX (1u << 16)

/* N gaps (sorted, longest first: their ranks GP, 0 the longest) into OUT
 * in the order of a b-model cascade, as their ranks: the longest gap
 * splits the I/O into shares B and 1 - B (which side at random), the
 * other gaps go to the sides at random in proportion to their gaps (each
 * side's longest first), and so on inside each side: a uniform heap order
 * of the split tree.  GP and TMP: N + 1 each (GP's own, then scratch; a
 * side's place past its end is written, see below).  Ranks, not the gaps,
 * are moved: squeeze sorts the window's gaps by them. */
/* A split of N gaps (cascade_arrange_w): the places on the longest gap's
 * left, L, from two draws of the stream S.  rnd() < 0.5 as the top bit
 * of its draw; floor(f (n + 1) + U) clamped to [1, n], truncated: the sum
 * is in [0, n + 2] (b in [0, 1], U in [0, 1)), where truncation is floor,
 * and a whole number x is < 1 or > n as its double is. */
static inline __attribute__((always_inline)) size_t cascade_left(uint64_t *s, size_t n, double b)
{
	double f = xo_next(s) >> 63 ? 1 - b : b;
	int64_t x = (int64_t)(f * (double)(int64_t)(n + 1) + unit(xo_next(s)));
	return (size_t)(x < 1 ? 1 : x > (int64_t)n ? (int64_t)n : x) - 1;
}

/* N <= 2 gaps GP into OUT as cascade_arrange_w's split of them (their
 * draws from S): no gap to split, or one gap (its split's two draws), or
 * two: the longest to its place, the other to the other place (its draw
 * below 1 place of 1: AT 0), its side's two draws. */
static inline __attribute__((always_inline)) void cascade_small(uint64_t *s, const uint32_t *gp,
								uint32_t *out, size_t n, double b)
{
	if (n == 1) {
		xo_next(s);
		xo_next(s);
		out[0] = gp[0];
	} else if (n == 2) {
		size_t L = cascade_left(s, 2, b);
		out[L] = gp[0];
		xo_next(s);
		xo_next(s);
		xo_next(s);
		out[1 - L] = gp[1];
	}
}

struct casc_stream; /* the lanes' draws (below), where CASCADE_VEX */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CASCADE_VEX 1
static void cascade_arrange_vex(uint64_t *gs, uint32_t *gp, uint32_t *tmp, uint32_t *out, size_t n,
				double b);

#else
#define CASCADE_VEX 0
#endif
static void cascade_arrange_plain(uint64_t *gs, uint32_t *gp, uint32_t *tmp, uint32_t *out,
				  size_t n, double b);

/* The cascade's body (gen_cascade_arrange), its stream's state GS (4
 * words), built twice:
 * plain, and (VEX) with AVX2 and BMI2's encodings (three-operand
 * conversions and rotates: no register cleared or copied before them),
 * the same operations on the same values (no FMA: none fused) */
static inline __attribute__((always_inline)) void cascade_arrange_w(uint64_t *gs, uint32_t *gp,
								    uint32_t *tmp, uint32_t *out,
								    size_t n, double b,
								    const int vex)
{
	/* the stream's state in registers while a split draws (xo_next's
	 * steps: the same draws), back in G for the recursion and at the
	 * end, word by word (a memcpy left it on the stack, reloaded 16
	 * bytes at a time after 8-byte stores: a store-forwarding stall at
	 * every split) */
	uint64_t s[4];
	s[0] = gs[0], s[1] = gs[1], s[2] = gs[2], s[3] = gs[3];
	int sh = 17; /* opaque where VEX: shlx by a register */
	if (vex)
		__asm__("" : "+r"(sh));
	while (n > 0) {
		if (n <= 2) {
			cascade_small(s, gp, out, n, b);
			break;
		}
		size_t L = cascade_left(s, n, b), R = n - 1 - L;
		out[L] = gp[0];
		if (L == 0 || R == 0) {
			/* all to one side (b near 0 or 1 and under 1 / (1 - b)
			 * gaps: every split of 38 or fewer at boot's 0.975): they
			 * stay where they are, in their order, the draws' steps
			 * alone (their outputs would decide nothing; the loop
			 * took 23 instructions a gap, these 7).  GP + 1 and TMP +
			 * 1 hold N places each for the N - 1 left */
#pragma GCC unroll 4
			for (size_t i = 1; i < n; i++)
				xo_step_sh(s, sh);
			out += L == 0;
			gp++;
			tmp++;
			n--;
			continue;
		}
		/* a random L of them to the left, TMP[0, L), the others to the
		 * right, TMP[L + 1, n): each with odds (places left on the left)
		 * / (places left), U x places < left places, as floor(U x places)
		 * < left places (the same for an integer).  U x places as the
		 * draw's 53 bits times places / 2^53 (one rounding, as rnd()
		 * times places: scaling by 2^-53 is exact), the places counted
		 * down by 2^-53.  Each gap is written to both sides' next place
		 * and only its own side moves on (no branch, no select): the
		 * other's place is written again by the next gap that goes there,
		 * or it is the left side's end (TMP[L], a place no side holds)
		 * or the right side's (TMP[n]); a side's recursion writes inside
		 * its own places and that one past them.  AT - LR < 0 (both
		 * under 2^17) as its sign bit: no flag to widen.  Gap I's right
		 * place is TMP + I + LR (the right side's next: I - 1 - (L - LR)
		 * gone right before it): P[LR] with the loop's pointer P = TMP +
		 * I; gap I itself is P[GD] (GD = GP - TMP: GP and TMP are in one
		 * array, a difference across two would be undefined); the left
		 * side's next place TMP[K], K = L - LR.  By 8: 23 instructions
		 * a gap with VEX's (shlx for T's shift: mov and shl; no
		 * register cleared before a conversion), 27 before. */
		double places = (double)(int64_t)(n - 1) * 0x1p-53;
		int64_t lr = (int64_t)L, k = 0;
		uint32_t *p = tmp + 1;
		const ptrdiff_t gd = gp - tmp;
#pragma GCC unroll 8
		for (; p < tmp + n; p++) {
			uint64_t r = xo_next_sh(s, sh);
			int64_t at = (int64_t)((double)(r >> 11) * places);
			uint64_t lft = (uint64_t)(at - lr) >> 63;
			uint32_t v = p[gd];
			tmp[k] = v;
			p[lr] = v;
			k += (int64_t)lft;
			lr -= (int64_t)lft;
			places -= 0x1p-53;
		}
		uint32_t *sw = gp; /* the sides now in TMP: it holds them, GP is scratch */
		gp = tmp;
		tmp = sw;
		/* the smaller side by recursion, the larger in turn; a smaller
		 * side of 2 gaps or fewer here, not by a call (its frame and the
		 * state through G) */
		size_t sm = L <= R ? L : R;
		uint32_t *sg = L <= R ? gp : gp + L + 1, *so = L <= R ? out : out + L + 1;
		if (sm <= 2) {
			cascade_small(s, sg, so, sm, b);
		} else {
			gs[0] = s[0], gs[1] = s[1], gs[2] = s[2], gs[3] = s[3];
			uint32_t *st = L <= R ? tmp : tmp + L + 1;
#if CASCADE_VEX
			if (vex)
				cascade_arrange_vex(gs, sg, st, so, sm, b);
			else
#endif
				cascade_arrange_plain(gs, sg, st, so, sm, b);
			s[0] = gs[0], s[1] = gs[1], s[2] = gs[2], s[3] = gs[3];
		}
		if (L <= R) {
			gp += L + 1;
			tmp += L + 1;
			out += L + 1;
			n = R;
		} else {
			n = L;
		}
	}
	gs[0] = s[0], gs[1] = s[1], gs[2] = s[2], gs[3] = s[3];
}

#if CASCADE_VEX
__attribute__((target("avx2,bmi2"))) static void
cascade_arrange_vex(uint64_t *gs, uint32_t *gp, uint32_t *tmp, uint32_t *out, size_t n, double b)
{
	cascade_arrange_w(gs, gp, tmp, out, n, b, 1);
}
#endif

static void cascade_arrange_plain(uint64_t *gs, uint32_t *gp, uint32_t *tmp, uint32_t *out,
				  size_t n, double b)
{
	cascade_arrange_w(gs, gp, tmp, out, n, b, 0);
}

#if CASCADE_VEX
#include <immintrin.h>
#include <pthread.h>

/*
 * The cascade's draws made ahead, four lanes of the stream at once: a
 * window's draws are one run of the stream, each read once in order, and
 * the one-gap loop spent ~10 of its 23 instructions a gap stepping the
 * state (a chain: no two steps at once) and 2 more turning the draw into
 * its double.  A chunk of CS_N draws is the stream's next CS_N states cut
 * in four runs of CS_K, each stepped in its own lane of AVX2 vectors (lane
 * j starts at the state CS_K j steps on: xoshiro's jump, a linear map of
 * the state, applied from a table), the draws' 53 bits stored as doubles
 * (exact), in the stream's order.  The loop reads them; at the end the
 * state is the one after the last draw read (its lane's start stepped on),
 * so the draws, the arrangement and the stream after are the same.
 */
#define CS_K 512	/* a lane's draws a chunk */
#define CS_N (4 * CS_K) /* a chunk's draws (16 KiB) */
#ifndef CS_MIN
#define CS_MIN 1024 /* windows of fewer gaps: the one-gap loop (a chunk's cost) */
#endif

struct casc_stream {
	__m256i gen[4];	    /* the next chunk's lanes' states, word by word */
	double *d, *nd;	    /* the chunk read, the next (being made) */
	size_t pos;	    /* the next draw's place in D; CS_N: all read */
	size_t gm;	    /* the next chunk's draws made, a lane */
	uint64_t ls[5][4];  /* lane j's state at D[j CS_K]; ls[4]: after D */
	uint64_t nls[4][4]; /* the next chunk's lanes' states at its start */
	double buf[2][CS_N];
};

/* The jump of CS_K steps (a linear map over GF(2) of the state's 256
 * bits) by the state's 4-bit digits: CS_JT[c][v] is the image of the
 * state whose digit c is v and all else 0 (the map is linear: the images
 * of the digits XORed give the state's).  32 KiB, made once. */
static uint64_t cs_jt[64][16][4] __attribute__((aligned(32)));
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;

static void cs_tables(void)
{
	static uint64_t col[256][4];
	for (int i = 0; i < 256; i++) {
		uint64_t s[4] = {0, 0, 0, 0};
		s[i >> 6] = 1ull << (i & 63);
		for (int k = 0; k < CS_K; k++)
			xo_step_sh(s, 17);
		memcpy(col[i], s, sizeof(s));
	}
	for (int c = 0; c < 64; c++)
		for (int v = 0; v < 16; v++)
			for (int w = 0; w < 4; w++) {
				uint64_t x = 0;
				for (int t = 0; t < 4; t++)
					x ^= (uint64_t) - (uint64_t)((v >> t) & 1) &
					     col[4 * c + t][w];
				cs_jt[c][v][w] = x;
			}
}

/* OUT: the state CS_K steps after IN */
__attribute__((target("avx2"))) static void cs_jump(const uint64_t *in, uint64_t *out)
{
	__m256i acc = _mm256_setzero_si256();
	const uint64_t(*jt)[16][4] = cs_jt;
	for (int w = 0; w < 4; w++) {
		uint64_t x = in[w];
#pragma GCC unroll 16
		for (int c = 0; c < 16; c++, x >>= 4)
			acc = _mm256_xor_si256(acc,
					       _mm256_load_si256((const __m256i *)jt[c][x & 15]));
		jt += 16;
	}
	_mm256_storeu_si256((__m256i *)out, acc);
}

/* xoshiro256**'s draw rotl(s1 5, 7) 9 of each lane, >> 11, as a double:
 * its top 21 bits times 2^32 (2^84 + hi 2^32 less 2^84 + 2^52, exact) and
 * its low 32 (2^52 + lo): their sum is the 53-bit integer, exact */
__attribute__((target("avx2"))) static inline __m256d cs_draw(__m256i s1)
{
	__m256i x = _mm256_add_epi64(s1, _mm256_slli_epi64(s1, 2));
	x = _mm256_or_si256(_mm256_slli_epi64(x, 7), _mm256_srli_epi64(x, 57));
	x = _mm256_add_epi64(x, _mm256_slli_epi64(x, 3));
	__m256i hi =
	    _mm256_or_si256(_mm256_srli_epi64(x, 43), _mm256_set1_epi64x(0x4530000000000000ll));
	__m256i lo = _mm256_blend_epi32(_mm256_srli_epi64(x, 11),
					_mm256_set1_epi64x(0x4330000000000000ll), 0xaa);
	__m256d h = _mm256_sub_pd(_mm256_castsi256_pd(hi), _mm256_set1_pd(0x1p84 + 0x1p52));
	return _mm256_add_pd(h, _mm256_castsi256_pd(lo));
}

/* the lanes' states LS (4 words each) as four vectors, word by word */
__attribute__((target("avx2"))) static inline void cs_lanes_in(__m256i *g, uint64_t (*ls)[4])
{
	for (int w = 0; w < 4; w++)
		g[w] = _mm256_set_epi64x((long long)ls[3][w], (long long)ls[2][w],
					 (long long)ls[1][w], (long long)ls[0][w]);
}

/* Four draws of each lane from G (moved on), lane j's to D[j CS_K + m] */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
cs_gen4(__m256i *g, double *d, size_t m)
{
	__m256i s0 = g[0], s1 = g[1], s2 = g[2], s3 = g[3];
	__m256d o[4]; /* o[t]'s lane j: the draw at j CS_K + m + t */
#pragma GCC unroll 4
	for (int t = 0; t < 4; t++) {
		o[t] = cs_draw(s1);
		__m256i sh = _mm256_slli_epi64(s1, 17);
		s2 = _mm256_xor_si256(s2, s0);
		s3 = _mm256_xor_si256(s3, s1);
		s1 = _mm256_xor_si256(s1, s2);
		s0 = _mm256_xor_si256(s0, s3);
		s2 = _mm256_xor_si256(s2, sh);
		s3 = _mm256_or_si256(_mm256_slli_epi64(s3, 45), _mm256_srli_epi64(s3, 19));
	}
	g[0] = s0, g[1] = s1, g[2] = s2, g[3] = s3;
	/* transposed: lane j's four draws to D[j CS_K + m] */
	__m256d a0 = _mm256_unpacklo_pd(o[0], o[1]), a1 = _mm256_unpackhi_pd(o[0], o[1]);
	__m256d a2 = _mm256_unpacklo_pd(o[2], o[3]), a3 = _mm256_unpackhi_pd(o[2], o[3]);
	_mm256_storeu_pd(d + m, _mm256_permute2f128_pd(a0, a2, 0x20));
	_mm256_storeu_pd(d + CS_K + m, _mm256_permute2f128_pd(a1, a3, 0x20));
	_mm256_storeu_pd(d + 2 * CS_K + m, _mm256_permute2f128_pd(a0, a2, 0x31));
	_mm256_storeu_pd(d + 3 * CS_K + m, _mm256_permute2f128_pd(a1, a3, 0x31));
}

/* The next chunk made to its end (the loop makes a part of it as it
 * reads), then read: its lanes' states to LS, lane 3's end to LS[4]; the
 * chunk after it begun (its lanes' states by jumps, none of it made) */
__attribute__((target("avx2"))) static void cs_refill(struct casc_stream *cs)
{
	__m256i g[4] = {cs->gen[0], cs->gen[1], cs->gen[2], cs->gen[3]};
	for (size_t m = cs->gm; m < CS_K; m += 4)
		cs_gen4(g, cs->nd, m);
	uint64_t w[4][4];
	for (int k = 0; k < 4; k++)
		_mm256_storeu_si256((__m256i *)w[k], g[k]);
	memcpy(cs->ls, cs->nls, sizeof(cs->nls));
	for (int k = 0; k < 4; k++)
		cs->ls[4][k] = w[k][3];
	double *d = cs->d;
	cs->d = cs->nd;
	cs->nd = d;
	cs->pos = 0;
	memcpy(cs->nls[0], cs->ls[4], sizeof(cs->nls[0]));
	for (int j = 1; j < 4; j++)
		cs_jump(cs->nls[j - 1], cs->nls[j]);
	cs_lanes_in(cs->gen, cs->nls);
	cs->gm = 0;
}

/* LR less 1 where AT < LR (both >= 0): a compare and a borrow, the loop's
 * chain from one LR to the next 2 cycles (a subtraction, its sign bit's
 * shift and a subtraction were 3) */
static inline __attribute__((always_inline)) int64_t cs_lr_step(int64_t lr, int64_t at)
{
	__asm__("cmp %0, %1\n\tsbb $0, %0" : "+r"(lr) : "r"(at) : "cc");
	return lr;
}

static inline __attribute__((always_inline)) double cs_next(struct casc_stream *cs)
{
	if (cs->pos == CS_N)
		cs_refill(cs);
	return cs->d[cs->pos++];
}

/* N draws passed over (a one-sided split's) */
static inline __attribute__((always_inline)) void cs_skip(struct casc_stream *cs, size_t n)
{
	while (n > CS_N - cs->pos) {
		n -= CS_N - cs->pos;
		cs_refill(cs);
	}
	cs->pos += n;
}

/* cascade_left from the chunk's draws: the top bit of a draw is bit 52 of
 * its 53 (>= 2^52), unit() its 53 bits times 2^-53 */
static inline __attribute__((always_inline)) size_t cs_left(struct casc_stream *cs, size_t n,
							    double b)
{
	double f = cs_next(cs) >= 0x1p52 ? 1 - b : b;
	int64_t x = (int64_t)(f * (double)(int64_t)(n + 1) + cs_next(cs) * 0x1p-53);
	return (size_t)(x < 1 ? 1 : x > (int64_t)n ? (int64_t)n : x) - 1;
}

/* cascade_small from the chunk's draws */
static inline __attribute__((always_inline)) void
cs_small(struct casc_stream *cs, const uint32_t *gp, uint32_t *out, size_t n, double b)
{
	if (n == 1) {
		cs_skip(cs, 2);
		out[0] = gp[0];
	} else if (n == 2) {
		size_t L = cs_left(cs, 2, b);
		out[L] = gp[0];
		cs_skip(cs, 3);
		out[1 - L] = gp[1];
	}
}

/* cascade_arrange_w with its draws from CS (the same splits, places and
 * loop; the loop's runs cut where a chunk ends) */
__attribute__((target("avx2,bmi2"))) static void cascade_arrange_cs(struct casc_stream *cs,
								    uint32_t *gp, uint32_t *tmp,
								    uint32_t *out, size_t n,
								    double b)
{
	while (n > 0) {
		if (n <= 2) {
			cs_small(cs, gp, out, n, b);
			break;
		}
		size_t L = cs_left(cs, n, b), R = n - 1 - L;
		out[L] = gp[0];
		if (L == 0 || R == 0) {
			cs_skip(cs, n - 1);
			out += L == 0;
			gp++;
			tmp++;
			n--;
			continue;
		}
		double places = (double)(int64_t)(n - 1) * 0x1p-53;
		int64_t lr = (int64_t)L;
		uint32_t *p = tmp + 1, *end = tmp + n;
		const ptrdiff_t gd = gp - tmp;
		uint32_t *tl = tmp + L; /* the left side's next place TMP[K]: TL[-LR] */
		while (p < end) {
			if (cs->pos == CS_N)
				cs_refill(cs);
			const double *q = cs->d + cs->pos;
			size_t m = CS_N - cs->pos, want = (size_t)(end - p);
			m = m < want ? m : want;
			cs->pos += m;
			uint32_t *pe = p + m;
			/* the next chunk made 16 draws for each 16 gaps read here
			 * (its vector steps beside the loop's scalar chain) */
			__m256i g[4] = {cs->gen[0], cs->gen[1], cs->gen[2], cs->gen[3]};
			size_t gm = cs->gm;
			double *nd = cs->nd;
			/* by 16: gap j's places PLACES - j 2^-53, all exact (whole
			 * multiples of 2^-53 under 2^17 of them): the same values as
			 * the loop's one subtraction a gap, without its chain */
			for (; pe - p >= 16; p += 16, q += 16) {
				if (gm < CS_K) {
					cs_gen4(g, nd, gm);
					gm += 4;
				}
#pragma GCC unroll 16
				for (int j = 0; j < 16; j++) {
					int64_t at = (int64_t)(q[j] * (places - j * 0x1p-53));
					uint32_t v = p[j + gd];
					tl[-lr] = v;
					p[j + lr] = v;
					lr = cs_lr_step(lr, at);
				}
				places -= 16 * 0x1p-53;
			}
			cs->gen[0] = g[0], cs->gen[1] = g[1], cs->gen[2] = g[2], cs->gen[3] = g[3];
			cs->gm = gm;
			/* the rest by 4 (a quarter of chromium's gap-levels are in
			 * splits of under 17 gaps), then one by one */
			for (; pe - p >= 4; p += 4, q += 4) {
#pragma GCC unroll 4
				for (int j = 0; j < 4; j++) {
					int64_t at = (int64_t)(q[j] * (places - j * 0x1p-53));
					uint32_t v = p[j + gd];
					tl[-lr] = v;
					p[j + lr] = v;
					lr = cs_lr_step(lr, at);
				}
				places -= 4 * 0x1p-53;
			}
			for (; p < pe; p++, q++) {
				int64_t at = (int64_t)(*q * places);
				uint32_t v = p[gd];
				tl[-lr] = v;
				p[lr] = v;
				lr = cs_lr_step(lr, at);
				places -= 0x1p-53;
			}
		}
		uint32_t *sw = gp;
		gp = tmp;
		tmp = sw;
		size_t sm = L <= R ? L : R;
		uint32_t *sg = L <= R ? gp : gp + L + 1, *so = L <= R ? out : out + L + 1;
		if (sm <= 2)
			cs_small(cs, sg, so, sm, b);
		else
			cascade_arrange_cs(cs, sg, L <= R ? tmp : tmp + L + 1, so, sm, b);
		if (L <= R) {
			gp += L + 1;
			tmp += L + 1;
			out += L + 1;
			n = R;
		} else {
			n = L;
		}
	}
}

/* A stream of draws from lanes (above) from the state GS: NULL without
 * memory */
static struct casc_stream *cs_open(const uint64_t *gs)
{
	struct casc_stream *cs = aligned_alloc(32, sizeof(*cs));
	if (!cs)
		return NULL;
	pthread_once(&cs_once, cs_tables);
	cs->d = cs->buf[0];
	cs->nd = cs->buf[1];
	memcpy(cs->nls[0], gs, sizeof(cs->nls[0]));
	for (int j = 1; j < 4; j++)
		cs_jump(cs->nls[j - 1], cs->nls[j]);
	cs_lanes_in(cs->gen, cs->nls);
	cs->gm = 0;
	cs_refill(cs);
	return cs;
}

/* CS's stream closed, GS moved on as one-by-one draws would have: the
 * state after the last draw read, its lane's start stepped on */
static void cs_close(struct casc_stream *cs, uint64_t *gs)
{
	size_t j = cs->pos / CS_K, m = cs->pos % CS_K;
	uint64_t s[4];
	memcpy(s, cs->ls[j], sizeof(s));
	for (size_t i = 0; i < m; i++)
		xo_step_sh(s, 17);
	memcpy(gs, s, sizeof(s));
	free(cs);
}

/* the cascade with its draws from lanes (above) */
static void cascade_lanes(uint64_t *gs, uint32_t *gp, uint32_t *tmp, uint32_t *out, size_t n,
			  double b)
{
	struct casc_stream *cs = cs_open(gs);
	if (!cs) {
		cascade_arrange_vex(gs, gp, tmp, out, n, b);
		return;
	}
	cascade_arrange_cs(cs, gp, tmp, out, n, b);
	cs_close(cs, gs);
}
#endif

/* the lanes and cascade_arrange_cs may run: AVX2 (reel_has_avx2: not
 * under reel_codec_plain) and BMI2 */
static int cs_can(void)
{
#if CASCADE_VEX
	return reel_has_avx2() && __builtin_cpu_supports("bmi2");
#else
	return 0;
#endif
}

void gen_cascade_arrange(uint64_t *gs, uint32_t *gp, uint32_t *tmp, uint32_t *out, size_t n,
			 double b, int plain)
{
#if CASCADE_VEX
	if (plain != 1 && cs_can()) {
		if (n >= CS_MIN || plain == 2)
			cascade_lanes(gs, gp, tmp, out, n, b);
		else
			cascade_arrange_vex(gs, gp, tmp, out, n, b);
		return;
	}
#endif
	cascade_arrange_plain(gs, gp, tmp, out, n, b);
}

/*
 * draw_gaps' draws from the lanes too: a window's gap loop draws two a gap
 * from the main stream (its class's, then U), nothing else drawing
 * between, and the cascade's draws follow from the same stream (burst
 * layouts draw apart: the lanes closed before them).  So one stream of
 * lanes serves both, opened at the loop's start: each draw ~7
 * instructions made and ~4 read, rnd()'s ~22 with the state through g->s
 * (~45 of the ~255 a gap on chromium's rate-1 model), and the cascade's
 * first chunk and end paid once.  Opened where the window has
 * gen_gap_lanes_min's gaps or more (its cost: a chunk of 2,048 made at
 * the open, up to 511 steps at its close).
 */
static size_t gap_lanes_at[2] = {1024, 128}; /* gaps: not cascaded, cascaded */

void gen_gap_lanes_min(size_t apart, size_t cascaded)
{
	gap_lanes_at[0] = apart;
	gap_lanes_at[1] = cascaded;
}

/* the lanes for a window of C - 1 gaps, cascaded where ORDER: NULL where
 * they do not pay or cannot run (then rnd()) */
static struct casc_stream *gap_lanes_open(struct model_gen *g, uint64_t c, int order)
{
#if CASCADE_VEX
	if (c - 1 >= gap_lanes_at[order != 0] && cs_can())
		return cs_open(g->s);
#endif
	(void)g, (void)c, (void)order;
	return NULL;
}

/* A gap's two draws (rnd()'s values: a draw's 53 bits times 2^-53,
 * exact) into U, where draw_gaps' run of the lanes' chunk [*Q, *QE) is
 * used up: from CS's next chunk where open (a chunk holds whole pairs:
 * the run starts at the lanes' first draw), the run moved there; else by
 * rnd() (CS NULL: the run stays empty).  The run read in draw_gaps'
 * loop, its place in locals (cs_next's loads and store of cs->pos at
 * each draw, around pow's call, were ~10 instructions a draw). */
static inline __attribute__((always_inline)) void gap_draws_next(struct model_gen *g,
								 struct casc_stream *cs,
								 const double **q,
								 const double **qe, double *u)
{
#if CASCADE_VEX
	if (cs) {
		cs->pos = CS_N;
		cs_refill(cs);
		*q = cs->d + 2;
		*qe = cs->d + CS_N;
		u[0] = cs->d[0] * 0x1p-53;
		u[1] = cs->d[1] * 0x1p-53;
		return;
	}
#endif
	(void)cs, (void)q, (void)qe;
	u[0] = rnd(g);
	u[1] = rnd(g);
}

/* the run [Q, ...) read up to Q: CS's place moved there (CS open) */
static void gap_draws_done(struct casc_stream *cs, const double *q)
{
#if CASCADE_VEX
	if (cs)
		cs->pos = (size_t)(q - cs->d);
#endif
	(void)cs, (void)q;
}

/* the run of CS's chunk left to read (NULL, NULL where CS is NULL) */
static void gap_draws_run(struct casc_stream *cs, const double **q, const double **qe)
{
	*q = *qe = NULL;
#if CASCADE_VEX
	if (cs) {
		*q = cs->d + cs->pos;
		*qe = cs->d + CS_N;
	}
#endif
}

/* CS (if open) closed, g->s where one-by-one draws would have left it */
static void gap_lanes_close(struct model_gen *g, struct casc_stream *cs)
{
#if CASCADE_VEX
	if (cs)
		cs_close(cs, g->s);
#endif
	(void)g, (void)cs;
}

/* cascade()'s arrangement of N from CS where open (then closed), else
 * from g->s */
static void gap_lanes_arrange(struct model_gen *g, struct casc_stream *cs, uint32_t *gp,
			      uint32_t *tmp, uint32_t *out, size_t n, double b)
{
#if CASCADE_VEX
	if (cs) {
		cascade_arrange_cs(cs, gp, tmp, out, n, b);
		cs_close(cs, g->s);
		return;
	}
#endif
	(void)cs;
	gen_cascade_arrange(g->s, gp, tmp, out, n, b, 0);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
/* x < y ? x : y and x > y ? x : y, as SSE2's minsd and maxsd: no branch
 * (GCC made the selects a branch on the compare) */
static inline double sel_min(double x, double y)
{
	return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(x), _mm_set_sd(y)));
}
static inline double sel_max(double x, double y)
{
	return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(x), _mm_set_sd(y)));
}
#else
static inline double sel_min(double x, double y) { return x < y ? x : y; }
static inline double sel_max(double x, double y) { return x > y ? x : y; }
#endif

/* Gaps TMP (N) in the order of their places (place_gaps), put right by
 * insertion: TMP, or NULL past 8 moves a gap.  Insertion as swaps of
 * neighbours: each gap's first swap by selects, no branch (the near ties
 * out of order, one in a few gaps of a cascade's window, were a branch
 * mispredicted each), the rest of its way (rare) by the loop: the same
 * swaps, so the same moves and order. */
static inline __attribute__((always_inline)) double *settle_dir(double *tmp, size_t n, int desc)
{
	size_t moves = 0, most = 8 * n;
	double a = n ? tmp[0] : 0, p = 0; /* tmp[i - 1], tmp[i - 2] */
	for (size_t i = 1; i < n && moves <= most; i++) {
		double b = tmp[i];
		int sw = desc ? a < b : a > b; /* out of order */
		double x = desc ? sel_max(b, a) : sel_min(b, a);
		tmp[i - 1] = x;
		tmp[i] = a = desc ? sel_min(a, b) : sel_max(a, b);
		moves += (size_t)sw;
		if (i >= 2 && (desc ? p < x : p > x)) {
			size_t j = i - 1;
			for (; j > 0 && (desc ? tmp[j - 1] < x : tmp[j - 1] > x); j--)
				tmp[j] = tmp[j - 1];
			tmp[j] = x;
			moves += i - 1 - j;
			x = tmp[i - 1];
		}
		p = x;
	}
	return moves > most ? NULL : tmp;
}

static double *settle_gaps(double *tmp, size_t n, int desc)
{
	return desc ? settle_dir(tmp, n, 1) : settle_dir(tmp, n, 0);
}

/* Gaps V (N) longest first (DESC) or shortest first, given each one's
 * place RANK (N, < N) in an order that is theirs but for near ties
 * (draw_gaps' ranks): counted into place in TMP (N), put
 * right by insertion (a gap moves past the few it was out of order with),
 * in TMP.  The order of values, so the same doubles as sort_gaps; TMP
 * when done (not copied back: 13 instructions an I/O), NULL when the
 * places were far out of order (more moves than 8 a gap: V as it was, for
 * sort_gaps).  CNT: N + 1 of scratch. */
static double *place_gaps(const double *v, const uint32_t *rank, double *tmp, uint32_t *cnt,
			  size_t n, int desc)
{
	memset(cnt, 0, (n + 1) * sizeof(*cnt));
	for (size_t i = 0; i < n; i++)
		cnt[rank[i] + 1]++;
	for (size_t r = 1; r < n; r++)
		cnt[r] += cnt[r - 1];
	for (size_t i = 0; i < n; i++)
		tmp[cnt[rank[i]]++] = v[i];
	return settle_gaps(tmp, n, desc);
}

/* The window's C - 1 gaps (running sums in g->bt) reordered by the
 * cascade of split B, sorted by their places RANK (place_gaps) when
 * given, its draws from the lanes CS where open (closed here); 0 or -1
 * without memory (the order as drawn).  The cascade's ranks are left for
 * squeeze (g->ranked). */
static int cascade(struct model_gen *g, uint64_t c, double b, const uint32_t *rank,
		   struct casc_stream *cs)
{
	size_t n = c - 1;
	double *gp = gen_scratch(g, 2 * n);
	uint32_t *rk = gen_ranks(g, 3 * n + 3); /* RANK, if given, is its first N */
	if (!gp || !rk) {
		gap_lanes_close(g, cs);
		return -1;
	}
	double *tmp = gp + n;
	for (size_t i = 0; i < n; i++) { /* longest first */
		double x = g->bt[i + 1] - g->bt[i];
		gp[i] = x > 0 ? x : 0;
	}
	uint32_t *out = rk + 2 * n + 2;
	double *sorted = rank ? place_gaps(gp, rank, tmp, out, n, 1) : NULL;
	if (!sorted) /* tmp free again: the sort's scratch */
		sort_gaps(sorted = gp, n, 1, tmp);
	for (size_t i = 0; i < n; i++)
		rk[i] = (uint32_t)i;
	gap_lanes_arrange(g, cs, rk, rk + n + 1, out, n, b);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		g->bt[i + 1] = sum += sorted[out[i]];
	g->ranked = 1;
	return 0;
}

/* A burst length in [1, HI] from the phase's lengths D, the draw taken
 * below D's CDF at HI (so a window's last bursts fit what it has left). */
static uint64_t burst_len(struct model_gen *g, const struct model_dist *d, uint64_t hi)
{
	double below, at; /* at: the CDF at HI, HI's own mass in */
	model_dist_cdf(d, (double)hi, &below, &at);
	double l = floor(model_dist_inv(d, rnd(g) * at) + 0.5);
	return l < 1 ? 1 : l > (double)hi ? hi : (uint64_t)l;
}

/*
 * The window's C - 1 gaps (g->bt's running sums) laid out as bursts of
 * the phase's lengths D: the gaps of MODEL_BURST_NS and more, in the order
 * drawn, split the window's I/O into as many bursts plus one, each of a
 * length drawn below what the bursts after it need (one of them, at
 * random, takes what is left), the short gaps in the order drawn inside
 * them.  The chain's order alone makes the lengths geometric: fiu's
 * bursts of ten 4 KiB reads 38 us apart (60% of its I/O) came out 3 to 26
 * long.  The gaps are the ones drawn, so the window's class mix and span
 * stay; 0 without memory (the order as drawn).
 */
static int burst_layout(struct model_gen *g, const struct model_dist *d, uint64_t c)
{
	double *gp = gen_scratch(g, 2 * c), *lg = gp ? gp + c : NULL;
	uint64_t ns = 0, nl = 0, *len;
	if (!gp)
		return 0;
	for (uint64_t i = 1; i < c; i++) {
		double x = g->bt[i] - g->bt[i - 1];
		if (x >= MODEL_BURST_NS)
			lg[nl++] = x;
		else
			gp[ns++] = x;
	}
	if (!(len = gen_keys(g, nl + 1)))
		return 0;
	uint64_t rest = c, last = (uint64_t)(rnd(g) * (double)(nl + 1)), drawn = 0;
	for (uint64_t j = 0; j <= nl; j++) {
		if (j == last)
			continue;
		drawn++; /* bursts still to draw after this one, each of 1 at least */
		len[j] = burst_len(g, d, rest - (nl + 1 - drawn));
		rest -= len[j];
	}
	len[last] = rest;
	double sum = 0;
	for (uint64_t j = 0, is = 0, pos = 1; j <= nl; j++) {
		for (uint64_t k = 1; k < len[j]; k++)
			g->bt[pos++] = sum += gp[is++];
		if (j < nl)
			g->bt[pos++] = sum += lg[j];
	}
	return 1;
}

/*
 * c - 1 gaps into g->bt (bt[0] = 0); their sum.  A window of MODEL_CLASSES
 * gaps or more holds the gap classes of windows of as many I/O in the
 * trace: its count bucket's shares, varied from window to window by the
 * phase's dispersion (window_mix), compact or not (compact_or_not), as a
 * budget (class_budget), ordered
 * by the phase's class chain (short gaps follow short gaps, as in bursts).
 * Drawing each class from the chain's row times the bucket's shares (as
 * before, and still in sparser windows, where a budget would be all
 * rounding and the chain's memory across windows matters) let the chain's
 * runs pile up short or long classes in dense windows: too compact or
 * squeezed, IDC at 1 ms 1.25-1.35x the trace's on chromium, boot,
 * boot-nspawn.  Inside its class a gap falls where the class's gaps of
 * windows of that bucket do on average (class_gamma).
 */
/* gen_gap_flats_make's F for class K, and whether draw_gaps should ask it:
 * 1 where its stretches hold at least a tenth of U (a hit saves pow, ~125
 * instructions, and the inverse, ~45 or more), three tenths where GAMMA is 1 (no
 * pow to save). */
static int gap_flats_pay(const struct model_dist *d, int k, double gamma, struct gen_gap_flats *f)
{
	int n = gen_gap_flats_make(d, k, gamma, f);
	double held = 0;
	for (int j = 0; j < n; j++)
		held += f->hi[j] - f->lo[j];
	return n > 0 && held >= (gamma == 1 ? 0.3 : 0.1);
}

static double draw_gaps(struct model_gen *g, const struct model_phase *ph, size_t p, uint64_t c)
{
	double sum = 0, inv_rate = 1 / g->o.rate;
	/* the classes of windows of this many I/O (as in the model, before the
	 * rate factor) */
	double mc = (double)c * inv_rate;
	int b = mc >= 2 ? (int)floor(log2(mc)) : 1;
	int bb = b < MODEL_CNT_BUCKETS ? b : MODEL_CNT_BUCKETS - 1;
	const double *cb = ph->class_by_count[bb];
	double cbt = 0;
	for (int j = 0; j < MODEL_CLASSES; j++)
		cbt += cb[j];
	const double *pos = ph->class_pos[bb];
	uint64_t left[MODEL_CLASSES], *lp = NULL;
	if (cbt > 0 && c > MODEL_CLASSES) {
		double q[MODEL_CLASSES];
		window_mix(g, cb, cbt, ph->class_disp, q);
		compact_or_not(g, ph->compact[bb], ph->top_rest[bb], q);
		class_budget(g, q, c, left);
		lp = left;
	}
	double ce[MODEL_CLASSES]; /* pow(U, 1) is U: M = 0.5 as before */
	for (int k = 0; k < MODEL_CLASSES; k++)
		ce[k] = class_gamma(pos[k]);
	/* each class's stretches of one gap (gen_gap_flats_make), made at
	 * its first gap: a bit a class made, a bit a class whose stretches
	 * are asked (fl_use: they hold enough of U to pay for the ~25
	 * instructions of an ask that misses; boot's hold ~6%) */
	struct gen_gap_flats fl[MODEL_CLASSES];
	unsigned fl_made = 0, fl_use = 0;
	struct class_rows cr;
	cr.ok = 0;
	/* A window the cascade orders: each gap's place longest first, but
	 * for near ties, for its sort (place_gaps).  A gap is the gap CDF's
	 * inverse at (k + U^gamma) / 8, which does not fall as its class k
	 * or its uniform U rise: by class, the top class first, each class
	 * given as many places as its budget holds gaps, spread in them by U
	 * (a class drawn past its budget, rounding, shares its last place). */
	int order = lp && g->m->gap_cascade > 0 && c - 1 <= GEN_CASCADE_MAX;
	g->ranked = 0;
	uint32_t *rank = order && ph->gap.nk ? gen_ranks(g, 3 * c) : NULL;
	double span[MODEL_CLASSES];
	uint64_t first[MODEL_CLASSES];
	for (int k = MODEL_CLASSES - 1, s = 0; rank && k >= 0; k--) { /* s <= 2^16 */
		uint64_t w = left[k] ? left[k] : 1;
		span[k] = (double)w;
		first[k] = (uint64_t)s + w - 1; /* the class's last place: U = 0 */
		s += (int)left[k];
	}
	struct casc_stream *cs = ph->gap.nk ? gap_lanes_open(g, c, order) : NULL;
	const double *q, *qe; /* the lanes' draws left in their chunk */
	gap_draws_run(cs, &q, &qe);
	g->bt[0] = 0;
	for (uint64_t i = 1; i < c; i++) {
		double gap = 0;
		if (ph->gap.nk) {
			double ud[2]; /* the class's draw, U */
			if (q != qe) {
				ud[0] = q[0] * 0x1p-53, ud[1] = q[1] * 0x1p-53;
				q += 2;
			} else {
				gap_draws_next(g, cs, &q, &qe, ud);
			}
			int k = next_class_kept(ud[0], ph->gap_next, g->gap_class[p], lp, cb, &cr);
			g->gap_class[p] = k;
			double u = ud[1];
			int hit = 0;
			if (fl_use >> k & 1)
				hit = gen_gap_flat_at(&fl[k], u, &gap);
			else if (!(fl_made >> k & 1)) {
				fl_made |= 1u << k;
				if (gap_flats_pay(&ph->gap, k, ce[k], &fl[k])) {
					fl_use |= 1u << k;
					hit = gen_gap_flat_at(&fl[k], u, &gap);
				}
			}
			if (!hit) {
				double at = ce[k] == 1 ? u : pow(u, ce[k]);
				gap = model_dist_inv(&ph->gap, (k + at) / MODEL_CLASSES);
			}
			if (!(gap >= 0))
				gap = 0;
			if (rank) {
				uint64_t r = (uint64_t)(u * span[k]);
				r = first[k] - (r < first[k] ? r : first[k]);
				rank[i - 1] = r < c - 2 ? r : c - 2;
			}
		}
		sum += gap * inv_rate;
		g->bt[i] = sum;
	}
	/* bursts of the phase's lengths (where fit keeps them) in place of
	 * the cascade's order: fit kept them only where the IDC held */
	gap_draws_done(cs, q);
	int burst = lp && ph->burst.nk;
	if (!order || burst) { /* the stream's next draws are not the cascade's */
		gap_lanes_close(g, cs);
		cs = NULL;
	}
	if (burst && burst_layout(g, &ph->burst, c)) {
		g->ranked = 0;
		return g->bt[c - 1];
	}
	if (order)
		cascade(g, c, g->m->gap_cascade, rank, cs);
	return sum;
}

static int buffer_room(struct model_gen *g, uint64_t c)
{
	if (c + 1 <= g->cap)
		return 0;
	size_t nc = (c + 1) * 2;
	double *bt = realloc(g->bt, nc * sizeof(*bt));
	if (!bt)
		return -1;
	g->bt = bt;
	uint8_t *bo = realloc(g->bop, nc);
	if (!bo)
		return -1;
	g->bop = bo;
	g->cap = nc;
	return 0;
}

/* The squeezes' and fits' loops over a window's gaps, two at a time with
 * SSE2 where there is x86-64's: each gap's subtraction, compare, division
 * and products the scalar loop's, in its order (no sum across gaps here:
 * those stay one by one), so the same doubles (blkparse's kept windows:
 * ~33 M instructions a million I/O one by one). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GEN_GAPS_SSE2 1
#endif

/* BT[i + 1] = BT[i + 1] - BT[i] for i < N: the gaps of running sums BT
 * (N + 1) in their place, BT[0] kept (from the top down: each pair's
 * sums read before they are written) */
void gen_gaps_in(double *bt, size_t n)
{
	size_t i = n;
#ifdef GEN_GAPS_SSE2
	for (; i >= 2; i -= 2)
		_mm_storeu_pd(bt + i - 1,
			      _mm_sub_pd(_mm_loadu_pd(bt + i - 1), _mm_loadu_pd(bt + i - 2)));
#endif
	for (; i > 0; i--)
		bt[i] -= bt[i - 1];
}

/* The largest of X (N) and 0, as `top = x > top ? x : top` from 0 finds it
 * (maxpd is that compare; equal values are the same bits but for zeros,
 * and a lane starts at +0 and takes no zero) */
double gen_gaps_top(const double *x, size_t n)
{
	double top = 0;
	size_t i = 0;
#ifdef GEN_GAPS_SSE2
	__m128d t = _mm_setzero_pd();
	for (; i + 2 <= n; i += 2)
		t = _mm_max_pd(_mm_loadu_pd(x + i), t);
	double t0 = _mm_cvtsd_f64(t), t1 = _mm_cvtsd_f64(_mm_unpackhi_pd(t, t));
	top = t0 > top ? t0 : top;
	top = t1 > top ? t1 : top;
#endif
	for (; i < n; i++)
		top = x[i] > top ? x[i] : top;
	return top;
}

/* X[i] += ADD * y * y * y * y for y = X[i] / TOP, i < N (C's order: ADD
 * times y, then times y three times) */
void gen_gaps_grow4(double *x, size_t n, double top, double add)
{
	size_t i = 0;
#ifdef GEN_GAPS_SSE2
	const __m128d vt = _mm_set1_pd(top), va = _mm_set1_pd(add);
	for (; i + 2 <= n; i += 2) {
		__m128d v = _mm_loadu_pd(x + i), y = _mm_div_pd(v, vt);
		__m128d a = _mm_mul_pd(_mm_mul_pd(_mm_mul_pd(_mm_mul_pd(va, y), y), y), y);
		_mm_storeu_pd(x + i, _mm_add_pd(v, a));
	}
#endif
	for (; i < n; i++) {
		double y = x[i] / top;
		x[i] += add * y * y * y * y;
	}
}

/* bt's and bop's first C, about to be written whole (draw_gaps), made
 * present where they were not written before (gen_populate; realloc
 * copied or moved what was). */
static void buffer_populate(struct model_gen *g, uint64_t c)
{
	if (c <= g->bt_pop)
		return;
	gen_populate(g->bt, g->bt_pop * sizeof(*g->bt), c * sizeof(*g->bt));
	gen_populate(g->bop, g->bt_pop, c);
	g->bt_pop = c;
}

/* A cluster longer than its window: the longest gaps are cut to a common
 * cap (water filling) so that the gaps sum to ROOM; the short gaps, most
 * of the distribution, stay as drawn.  bt[] holds the running sums. */
static double squeeze(struct model_gen *g, uint64_t c, double room)
{
	/* the gaps in bt itself (gp[i - 1] is bt[i]; a copy of them was 32 MB
	 * of blktrace's gen at x88496), their sorted copy and the sort's
	 * scratch in sc */
	double *sg = gen_scratch(g, 2 * c), *gp = g->bt + 1;
	int ranked = g->ranked;
	g->ranked = 0;
	if (!sg) { /* no memory: scale them all */
		double k = room / g->bt[c - 1];
		for (uint64_t i = 1; i < c; i++)
			g->bt[i] *= k;
		return room;
	}
	/* after a cascade, its ranks are the gaps' places longest first but
	 * for rounding (the gaps summed again): shortest first the other way.
	 * They are a permutation (the cascade's order of 0..n-1), so each
	 * gap goes straight to its place, as place_gaps' count puts it */
	size_t n = c - 1;
	const uint32_t *rank = g->rk + 2 * n + 2;
	double *sorted = NULL;
	/* written whole: ranked the gaps' places (in sg), unranked their
	 * sorted copy sg and the sort's scratch after it */
	gen_scratch_populate(g, ranked ? n : c + n);
	if (ranked) { /* from the top down: bt[i] read before it is a gap */
		for (size_t i = n; i-- > 0;)
			sg[n - 1 - rank[i]] = gp[i] = g->bt[i + 1] - g->bt[i];
		sorted = settle_gaps(sg, n, 0);
	} else
		gen_gaps_in(g->bt, n);
	if (!sorted) {
		memcpy(sg, gp, n * sizeof(*sg));
		sort_gaps(sorted = sg, n, 0, sg + c);
	}
	sg = sorted;
	/* the cap: below it the k smallest gaps as they are, the rest capped */
	double below = 0, cap = 0;
	for (uint64_t k = 0; k < c - 1; k++) {
		double rest = (double)(c - 1 - k);
		cap = (room - below) / rest;
		if (cap <= sg[k])
			break;
		below += sg[k];
	}
	double sum = 0; /* gp[i - 1] (bt[i]) read, then the sum written */
	for (uint64_t i = 1; i < c; i++) {
		sum += gp[i - 1] < cap ? gp[i - 1] : cap;
		g->bt[i] = sum;
	}
	return sum;
}

/* A cluster shorter than its kept span: the gaps grow to sum to SPAN, each
 * by a share of what is missing in proportion to its 4th power, so the
 * long gaps take it and the bursts between them stay as drawn.  bt[]
 * holds the running sums. */
static void stretch(struct model_gen *g, uint64_t c, double span)
{
	double top = 0, w = 0;
	for (uint64_t i = 1; i < c; i++) {
		double x = g->bt[i] - g->bt[i - 1];
		top = x > top ? x : top;
	}
	if (!(top > 0)) { /* all at once: spread evenly */
		for (uint64_t i = 1; i < c; i++)
			g->bt[i] = span * (double)i / (double)(c - 1);
		return;
	}
	for (uint64_t i = 1; i < c; i++) {
		double x = (g->bt[i] - g->bt[i - 1]) / top;
		w += x * x * x * x;
	}
	double add = (span - g->bt[c - 1]) / w, prev = 0, sum = 0;
	for (uint64_t i = 1; i < c; i++) {
		double x = g->bt[i] - prev, y = x / top;
		prev = g->bt[i];
		sum += x + add * y * y * y * y;
		g->bt[i] = sum;
	}
}

/* V's place in the order of doubles as an unsigned key (-0 as 0; NaN
 * not asked): the bits of one >= 0 with the sign bit set, of one < 0
 * flipped. */
static inline uint64_t order_key(double v)
{
	uint64_t u;
	v = v == 0 ? 0 : v;
	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u | 1ull << 63;
}

/* How many of X (N) are above M when ABOVE, else below (NaN neither way:
 * cmpgt and cmplt are ordered), two at a time on x86-64 (7 instructions
 * a gap one by one: blkparse's kept windows count ~1 M a million I/O). */
static size_t gaps_beyond_count(const double *x, size_t n, double m, int above)
{
	size_t k = 0, i = 0;
#ifdef GEN_GAPS_SSE2
	const __m128d vm = _mm_set1_pd(m);
	__m128i kk = _mm_setzero_si128();
	if (above)
		for (; i + 2 <= n; i += 2)
			kk = _mm_sub_epi64(kk,
					   _mm_castpd_si128(_mm_cmpgt_pd(_mm_loadu_pd(x + i), vm)));
	else
		for (; i + 2 <= n; i += 2)
			kk = _mm_sub_epi64(kk,
					   _mm_castpd_si128(_mm_cmplt_pd(_mm_loadu_pd(x + i), vm)));
	k = (size_t)_mm_cvtsi128_si64(kk) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(kk, kk));
#endif
	for (; i < n; i++)
		k += above ? x[i] > m : x[i] < m;
	return k;
}

/* gen_gaps_beyond's block for K gaps: their places, and the radix
 * sort's scratch of them */
static size_t gaps_beyond_bytes(size_t k) { return (k ? k : 1) * (2 * sizeof(uint32_t)); }

uint32_t *gen_gaps_beyond(const double *x, size_t n, double m, int above, void *keys, size_t *nb)
{
	size_t k = gaps_beyond_count(x, n, m, above);
	*nb = k;
	/* the places (and their scratch) written whole, made present at once
	 * (blktrace's rate-1 gen: 16 K of its 41 K faults as first written).
	 * malloc'd, as malloc's heap hands a block freed before back with its
	 * pages (a mapping of its own each time made blkparse's at x40323
	 * make 14 K pages more).  The keys and their scratch, 16 bytes a gap
	 * (23.6 MB of a stretch of 1.47 M), in the caller's KEYS: a block of
	 * its own for all four was the peak of blktrace's rate-1 gen (47 MB
	 * on top of the window's arrays, freed after) */
	size_t bytes = gaps_beyond_bytes(k);
	uint32_t *at = malloc(bytes);
	if (!at)
		return NULL;
	gen_populate(at, 0, bytes);
	size_t j = 0;
	for (size_t i = 0; i < n; i++)
		if (above ? x[i] > m : x[i] < m) {
			key_set(keys, j, order_key(x[i]));
			at[j++] = (uint32_t)i;
		}
	key_sort_tagged(keys, (char *)keys + k * sizeof(uint64_t), at, at + k, k, 0);
	return at;
}

/* The phase's gap CDF (GD) below gap X of the generated trace (the rate
 * factor undone). */
static double gap_cdf_below(const struct model_gen *g, const struct model_dist *gd, double x)
{
	double below, at;
	model_dist_cdf(gd, x * g->o.rate, &below, &at);
	return at;
}

/* Gaps X (N of them, summing to SUM) whose class mix does not fit the
 * stretch D they must fill: redrawn, one at a time, from the phase's gap
 * CDF GD on the stretch's side of its mean gap D / N, until they sum to
 * D or none is left on the wrong side.  Too long: the longest first, each
 * drawn below the mean; too short: the shortest first, each drawn above
 * the mean and below what is left of D (so the sum never passes D).  A
 * kept window holds its bucket's class mix, drawn as windows of that
 * bucket are, and a bucket mixes tight bursts with steady windows
 * (kernel-src's writeback: windows of 1-4k writes either all gaps under
 * 2.5 us or none): cutting the long gaps of a burst drawn as a steady
 * window to a common cap made gaps the trace does not hold (2.5-8.5 us:
 * ~3,000 against 990, its gap KS out on 13 of seeds 1-128), stretching
 * a steady window drawn as a burst left the burst's short gaps in it.
 * The sum left over is fitted as before (fit_gaps).  S: 2N of scratch
 * (the order's keys).  The new sum. */
static double redraw_gaps(struct model_gen *g, const struct model_dist *gd, double *x, double *s,
			  size_t n, double sum, double d)
{
	if (!gd || gd->nk < 2 || n < 2 || sum == d)
		return sum;
	double m = d / (double)n;
	size_t nb;
	uint32_t *o = gen_gaps_beyond(x, n, m, sum > d, s, &nb);
	if (!o)
		return sum;
	double fm = gap_cdf_below(g, gd, m), inv_rate = 1 / g->o.rate;
	if (sum > d) {
		for (size_t k = nb; k-- > 0 && sum > d;) {
			double v = model_dist_inv(gd, rnd(g) * fm) * inv_rate;
			v = v > 0 ? v : 0;
			sum += v - x[o[k]];
			x[o[k]] = v;
		}
	} else {
		for (size_t k = 0; k < nb && sum < d; k++) {
			double room = d - sum + x[o[k]], fr = gap_cdf_below(g, gd, room);
			if (!(fr > fm))
				break;
			double v = model_dist_inv(gd, fm + rnd(g) * (fr - fm)) * inv_rate;
			v = v < room ? v : room;
			sum += v - x[o[k]];
			x[o[k]] = v;
		}
	}
	free(o);
	return sum;
}

/* Gaps X (N of them) fitted to sum to D as squeeze and stretch fit a
 * window's: redrawn on the side of their mean where the drawn class mix
 * misses D (redraw_gaps, from the phase's gap CDF GD), then cut to a
 * common cap (water filling) when longer, grown in proportion to their
 * 4th power when shorter; S: 2N of scratch (redraw_gaps' keys, then
 * the gaps sorted and the sort's scratch). */
static void fit_gaps(struct model_gen *g, const struct model_dist *gd, double *x, double *s,
		     size_t n, double d)
{
	double sum = 0, top;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	if (!n || sum == d)
		return;
	sum = redraw_gaps(g, gd, x, s, n, sum, d);
	top = gen_gaps_top(x, n);
	if (sum == d)
		return;
	if (sum > d) {
		memcpy(s, x, n * sizeof(*s));
		sort_gaps(s, n, 0, s + n);
		double below = 0, cap = 0;
		for (size_t k = 0; k < n; k++) {
			cap = (d - below) / (double)(n - k);
			if (cap <= s[k])
				break;
			below += s[k];
		}
		for (size_t i = 0; i < n; i++)
			x[i] = x[i] < cap ? x[i] : cap;
		return;
	}
	if (!(top > 0)) { /* all at once: spread evenly */
		for (size_t i = 0; i < n; i++)
			x[i] = d / (double)n;
		return;
	}
	double w = 0;
	for (size_t i = 0; i < n; i++) {
		double y = x[i] / top;
		w += y * y * y * y;
	}
	gen_gaps_grow4(x, n, top, (d - sum) / w);
}

/* A kept window's knots for its C I/O (C0 in the model): the I/O at each
 * (AT[0..n+1], its first and last among them; a knot's own I/O scaled by
 * (C - 1) / (C0 - 1), one that falls on the I/O before it or on the last
 * left out) and the times from the first that each stands for (LO to HI:
 * a knot is rounded to a whole unit, so half a unit either side), for a
 * span KS; the number of anchors, 2 where the knots do not fit C. */
static uint32_t kept_anchors(const struct model_kept_window *kw, uint64_t c, uint64_t c0, double ks,
			     uint64_t *at, double *lo, double *hi)
{
	uint32_t n = c >= 2 && kw->nknot <= c - 2 ? kw->nknot : 0, a = 1;
	at[0] = 0;
	lo[0] = hi[0] = 0;
	for (uint32_t j = 0; j < n; j++) {
		double k = kw->knot[j];
		at[a] =
		    !kw->knot_io[j] ? model_kept_knot_io(c, n, j)
		    : c == c0
			? kw->knot_io[j]
			: (uint64_t)((double)kw->knot_io[j] * (double)(c - 1) / (double)(c0 - 1) +
				     0.5);
		lo[a] = k > 0 ? ks * (k - 0.5) / MODEL_KNOT_UNIT : 0;
		hi[a] = k < MODEL_KNOT_UNIT ? ks * (k + 0.5) / MODEL_KNOT_UNIT : ks;
		a += at[a] > at[a - 1] && at[a] < c - 1;
	}
	at[a] = c - 1;
	lo[a] = hi[a] = ks;
	return a + 1;
}

#define GEN_KEPT_SWAPS 256

/* A kept window's drawn gaps (bt[]: C running sums) moved between the
 * stretches between its anchors (kept_anchors: NA of them) so that each
 * stretch's gaps sum to about its share of the span (the middle of its
 * anchors' times, at the draw's sum), by the fewest swaps: the stretch
 * most over its share gives a gap for the shortest of the one most under,
 * the pair whose swap moves nearest the lesser of the two misses (and
 * less than twice it), up to GEN_KEPT_SWAPS times (windows of up to
 * GEN_KEPT_MAX_GAPS gaps; above, the stretches are fitted alone).  The gaps stay those
 * drawn and nearly all where the draw put them (dealing them all again,
 * longest first, evened them out within a stretch: blktrace's IDC at
 * 1 ms out 10 of 32 seeds, against 3).  A stretch between two anchors in
 * one unit keeps its drawn sum: its share, 0, took the shortest gaps and
 * kept_fit squeezed them to nothing (knots where the curve bends put a
 * short burst's two ends in one unit). */
static void kept_swap(struct model_gen *g, uint64_t c, const uint64_t *at, const double *lo,
		      const double *hi, uint32_t na)
{
	size_t n = c - 1;
	double *x = gen_scratch(g, n);
	if (!x || !(hi[na - 1] > 0))
		return;
	for (size_t i = 0; i < n; i++)
		x[i] = g->bt[i + 1] - g->bt[i];
	double over[MODEL_KEPT_KNOTS + 1], k = g->bt[c - 1] / hi[na - 1];
	for (uint32_t a = 0; a + 1 < na; a++)
		over[a] = g->bt[at[a + 1]] - g->bt[at[a]] -
			  k * ((lo[a + 1] + hi[a + 1]) - (lo[a] + hi[a])) / 2;
	for (int it = 0; it < GEN_KEPT_SWAPS; it++) {
		uint32_t e = na, d = na;
		for (uint32_t a = 0; a + 1 < na; a++) {
			if (hi[a] == hi[a + 1]) /* anchors in one unit: the draw's sum */
				continue;
			e = e == na || over[a] > over[e] ? a : e;
			d = d == na || over[a] < over[d] ? a : d;
		}
		if (e == na)
			break;
		double want = over[e] < -over[d] ? over[e] : -over[d];
		if (!(want > 0))
			break;
		size_t s = at[d];
		for (size_t i = at[d]; i < at[d + 1]; i++)
			s = x[i] < x[s] ? i : s;
		size_t l = n;
		for (size_t i = at[e]; i < at[e + 1]; i++)
			if (x[i] > x[s] && x[i] - x[s] < 2 * want &&
			    (l == n || fabs(x[i] - x[s] - want) < fabs(x[l] - x[s] - want)))
				l = i;
		if (l == n)
			break;
		double dl = x[l] - x[s], t = x[l];
		x[l] = x[s];
		x[s] = t;
		over[e] -= dl;
		over[d] += dl;
	}
	double sum = 0;
	for (uint64_t i = 1; i < c; i++)
		g->bt[i] = sum += x[i - 1];
	g->ranked = 0;
}

/* How far a stretch of D from a drawn S is: the squared log ratio (1 ns
 * added to both, so a stretch fitted to nothing costs much). */
static double kept_cost(double d, double s)
{
	double l = log((d > 0 ? d : 0) + 1) - log(s + 1);
	return l * l;
}

#define GEN_KEPT_SWEEPS 24 /* kept_times: rounds over the anchors */
#define GEN_KEPT_SPLITS 48 /* kept_times: an anchor's search, ternary */

/* The times T[] (NA of them) of a kept window's anchors (kept_anchors:
 * each inside LO to HI, in order) nearest the drawn stretches' sums SA[]
 * (NA - 1 of them): the sum over the stretches of kept_cost, by rounds
 * of each anchor in turn put where its two stretches cost least, from
 * the drawn times clamped.  Every stretch's miss is shared out where an
 * anchor's interval allows (fitting each anchor in turn to the nearest
 * end of its interval left the stretch after it no room where two knots
 * shared a unit: a burst's gaps squeezed to 0, blkparse's gap KS out 4
 * of 32 seeds). */
static void kept_times(const double *sa, const double *lo, const double *hi, uint32_t na, double *t)
{
	t[0] = 0;
	for (uint32_t a = 1; a < na; a++) {
		double x = t[a - 1] + sa[a - 1];
		x = x < lo[a] ? lo[a] : x > hi[a] ? hi[a] : x;
		t[a] = x < t[a - 1] ? t[a - 1] : x;
	}
	t[na - 1] = hi[na - 1];
	for (int r = 0; r < GEN_KEPT_SWEEPS && na > 2; r++) {
		double moved = 0;
		for (uint32_t a = 1; a + 1 < na; a++) {
			double l = lo[a] > t[a - 1] ? lo[a] : t[a - 1];
			double u = hi[a] < t[a + 1] ? hi[a] : t[a + 1];
			if (!(u > l))
				continue;
			for (int k = 0; k < GEN_KEPT_SPLITS; k++) {
				double m1 = l + (u - l) / 3, m2 = u - (u - l) / 3;
				double c1 = kept_cost(m1 - t[a - 1], sa[a - 1]) +
					    kept_cost(t[a + 1] - m1, sa[a]);
				double c2 = kept_cost(m2 - t[a - 1], sa[a - 1]) +
					    kept_cost(t[a + 1] - m2, sa[a]);
				if (c1 < c2)
					u = m2;
				else
					l = m1;
			}
			double x = (l + u) / 2;
			moved += fabs(x - t[a]);
			t[a] = x;
		}
		if (!(moved > 1e-3 * hi[na - 1]))
			break;
	}
}

/* The running sums bt[] (C of them) fitted piecewise to a kept window's
 * anchors (kept_anchors: NA of them): the anchors' times placed together
 * (kept_times), then each stretch whose drawn sum differs fitted to its
 * share (fit_gaps); the sum, the last anchor's time. */
static double kept_fit(struct model_gen *g, const struct model_dist *gd, uint64_t c,
		       const uint64_t *at, const double *lo, const double *hi, uint32_t na)
{
	/* a stretch's scratch: 2N (fit_gaps); the gaps in bt itself (a copy
	 * of them was 20 MB of blktrace's rate-1 gen at its peak) */
	double *s = gen_scratch(g, 2 * c), *x = g->bt + 1;
	if (!s) { /* no memory: the whole span scaled */
		double k = g->bt[c - 1] > 0 ? hi[na - 1] / g->bt[c - 1] : 0;
		for (uint64_t i = 1; i < c; i++)
			g->bt[i] = k > 0 ? g->bt[i] * k : hi[na - 1] * (double)i / (double)(c - 1);
		return hi[na - 1];
	}
	double sa[MODEL_KEPT_KNOTS + 1], ta[MODEL_KEPT_KNOTS + 2];
	for (uint32_t a = 0; a + 1 < na; a++)
		sa[a] = g->bt[at[a + 1]] - g->bt[at[a]];
	gen_gaps_in(g->bt, c - 1);
	kept_times(sa, lo, hi, na, ta);
	for (uint32_t a = 0; a + 1 < na; a++)
		if (ta[a + 1] - ta[a] != sa[a])
			fit_gaps(g, gd, x + at[a], s, (size_t)(at[a + 1] - at[a]),
				 ta[a + 1] - ta[a]);
	double sum = 0; /* x[i - 1] is bt[i]: read, then the sum written */
	for (uint64_t i = 1; i < c; i++) {
		sum += x[i - 1];
		g->bt[i] = sum;
	}
	g->ranked = 0;
	return sum;
}

/* a kept window's gaps are drawn this many times, at most this many */
#define GEN_KEPT_TRIES 32
#define GEN_KEPT_MAX_GAPS 4096

/* How far a draw's running sums (bt[]) miss a kept window's anchors
 * after its first (kept_anchors: NA of them): the sum over them. */
static double kept_miss(const struct model_gen *g, const uint64_t *at, const double *lo,
			const double *hi, uint32_t na)
{
	double e = 0;
	for (uint32_t a = 1; a < na; a++) {
		double t = g->bt[at[a]];
		e += t < lo[a] ? lo[a] - t : t > hi[a] ? t - hi[a] : 0;
	}
	return e;
}

/* A kept window's C - 1 gaps (the first draw in bt[], its sum SUM): the
 * draw of GEN_KEPT_TRIES that misses its anchors least (kept_miss; with
 * none but its last, the sum nearest the window's own span), in bt[]; its
 * sum.  The trace's gaps of that window sum to the span and reach its
 * knots, so what is left to deal, squeeze or stretch is small, and the
 * gaps' distribution holds (forcing the first draw to the span capped
 * git's stragglers and stretched msr's even gaps into a few long ones:
 * gap KS 0.025 -> 0.04, 0.018 -> 0.05).  One draw for a window of more
 * gaps, or without memory. */
static double kept_draws(struct model_gen *g, const struct model_phase *ph, size_t p, uint64_t c,
			 double sum, const uint64_t *at, const double *lo, const double *hi,
			 uint32_t na)
{
	if (c < 3 || c - 1 > GEN_KEPT_MAX_GAPS)
		return sum;
	double *best = malloc(c * sizeof(*best)), miss = kept_miss(g, at, lo, hi, na);
	if (!best)
		return sum;
	memcpy(best, g->bt, c * sizeof(*best));
	for (int k = 1; k < GEN_KEPT_TRIES && miss > 0; k++) {
		double s = draw_gaps(g, ph, p, c), e = kept_miss(g, at, lo, hi, na);
		if (e < miss) {
			sum = s;
			miss = e;
			memcpy(best, g->bt, c * sizeof(*best));
		}
	}
	memcpy(g->bt, best, c * sizeof(*best));
	free(best);
	g->ranked = 0; /* the draw kept may not be the last */
	return sum;
}

/* Model window W's place in the kept windows (model.kept), or NULL. */
static const struct model_kept_window *kept_window(const struct model *m, size_t w)
{
	for (size_t k = 0; k < m->nkept && m->kept[k].w <= w; k++)
		if (m->kept[k].w == w)
			return &m->kept[k];
	return NULL;
}

/* Draw the arrivals of the next window with I/O; 0 when past the end.
 * Every arrival stays inside its window (a cluster longer than the window
 * is squeezed into it), so the window counts are the model's exactly. */
double gen_win_times(const struct model_gen *g, size_t w)
{
	double nw = (double)g->m->nwin, wt = g->end / g->wl;
	double whole = floor(wt + GEN_CUT_EPS), part = wt - whole;
	double k = floor(whole / nw) + ((double)w < fmod(whole, nw));
	return k + (part > GEN_CUT_EPS && (double)w == fmod(whole, nw) ? part : 0);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* fill_window's rounding of the times BT (C) to the quantum Q (IQ = 1 /
 * Q) from START: floor((START + t) IQ + 0.5) Q, WQ below WS, at most TOP,
 * four at a time with AVX2 where the processor has it (vroundpd is
 * IEEE's floor, the compares ordered as the scalar's: the same doubles;
 * 21 instructions an I/O one by one); how many. */
__attribute__((target("avx2"))) static size_t quantize_avx2_4(double *bt, size_t c, double start,
							      double iq, double q, double ws,
							      double wq, double top)
{
	const __m256d vs = _mm256_set1_pd(start), viq = _mm256_set1_pd(iq), vq = _mm256_set1_pd(q),
		      vh = _mm256_set1_pd(0.5), vws = _mm256_set1_pd(ws), vwq = _mm256_set1_pd(wq),
		      vtop = _mm256_set1_pd(top);
	size_t i = 0;
	for (; i + 4 <= c; i += 4) {
		__m256d x = _mm256_add_pd(
		    _mm256_mul_pd(_mm256_add_pd(vs, _mm256_loadu_pd(bt + i)), viq), vh);
		__m256d t = _mm256_mul_pd(_mm256_floor_pd(x), vq);
		t = _mm256_blendv_pd(t, vwq, _mm256_cmp_pd(t, vws, _CMP_LT_OQ));
		t = _mm256_blendv_pd(t, vtop, _mm256_cmp_pd(t, vtop, _CMP_GT_OQ));
		_mm256_storeu_pd(bt + i, t);
	}
	return i;
}
static size_t quantize_avx2(double *bt, size_t c, double start, double iq, double q, double ws,
			    double wq, double top)
{
	return reel_has_avx2() ? quantize_avx2_4(bt, c, start, iq, q, ws, wq, top) : 0;
}
#else
static size_t quantize_avx2(double *bt, size_t c, double start, double iq, double q, double ws,
			    double wq, double top)
{
	return 0;
}
#endif

static int fill_window(struct model_gen *g)
{
	const struct model *m = g->m;
	for (;;) {
		double ws = (double)g->win * g->wl;
		if (ws >= g->end)
			return 0;
		int first = g->win == 0;
		size_t w = g->win++ % m->nwin, p = m->win_phase[w];
		const struct model_phase *ph = &m->phases[p];
		uint64_t cnt[REEL_OP__COUNT], c = window_counts(g, w, cnt);
		/* the window's span: the model's window, cut at the end (--duration
		 * not a whole number of windows), and its I/O with it: the naive
		 * model's one window at --duration 0.5 of 23 s held all its I/O */
		double span = g->end - ws < g->wl ? g->end - ws : g->wl;
		if (span < g->wl * (1 - GEN_CUT_EPS)) {
			c = 0;
			for (int o = 0; o < REEL_OP__COUNT; o++)
				c += cnt[o] = (uint64_t)floor((double)cnt[o] * span / g->wl + 0.5);
		}
		if (!c)
			continue;
		if (c > (1u << 26))
			return -2; /* a window of more than 64 Mi I/O: lower the rate */
		if (buffer_room(g, c))
			return -1;
		buffer_populate(g, c);
		double q = m->quantum_ns > 1 ? (double)m->quantum_ns : 1, room = span - q;
		if (room < 0)
			room = 0;
		double sum = draw_gaps(g, ph, p, c), lead;
		const struct model_kept_window *kw = kept_window(m, w);
		if (kw) { /* a kept window: from its first arrival to its last */
			lead = kw->first_ppm / 1e6 * g->wl;
			double ks = (kw->last_ppm - kw->first_ppm) / 1e6 * g->wl;
			double lo[MODEL_KEPT_KNOTS + 2], hi[MODEL_KEPT_KNOTS + 2];
			uint64_t at[MODEL_KEPT_KNOTS + 2];
			uint64_t c0 = 0;
			for (int o = 0; o < REEL_OP__COUNT; o++)
				c0 += m->win_ops[w * REEL_OP__COUNT + o];
			uint32_t na = kept_anchors(kw, c, c0, ks, at, lo, hi);
			sum = kept_draws(g, ph, p, c, sum, at, lo, hi, na);
			if (na > 2) { /* swapped and fitted to its knots */
				if (c - 1 <= GEN_KEPT_MAX_GAPS) /* the swaps' scans: c each */
					kept_swap(g, c, at, lo, hi, na);
				sum = kept_fit(g, &ph->gap, c, at, lo, hi, na);
			} else if (c > 1 && sum > ks)
				sum = squeeze(g, c, ks);
			else if (c > 1 && sum < ks)
				stretch(g, c, sum = ks);
		} else {
			lead = ph->lead.nk
				   ? model_dist_inv(&ph->lead, sdraw(g, &g->s_lead)) / 1e6 * g->wl
				   : rnd(g) * g->wl;
		}
		if (sum > room) /* squeezed: no spill into the next window */
			sum = squeeze(g, c, room);
		if (first) /* the trace starts with an arrival */
			lead = 0;

		if (lead + sum > room)
			lead = room - sum;
		double start = ws + lead, iq = 1 / q, top = floor((ws + span) * iq - 1e-9) * q;
		double wq = ceil(ws * iq) * q;
		for (uint64_t i = quantize_avx2(g->bt, c, start, iq, q, ws, wq, top); i < c; i++) {
			/* floor(x) as x truncated in [0, 2^52), where it is the same
			 * (above, every double is whole): GCC's floor without SSE4.1
			 * took 21 instructions an I/O */
			double x = (start + g->bt[i]) * iq + 0.5;
			double t = (x >= 0 && x < 0x1p52 ? (double)(int64_t)x : floor(x)) * q;
			if (t < ws)
				t = wq;
			g->bt[i] = t > top ? top : t;
		}
		draw_ops(g, ph, p, cnt, c);
		if (g->npin)
			pin_ops(g, w, c);
		g->phase = p;
		g->nbuf = c;
		g->pos = 0;
		return 1;
	}
}

/* A window with arrivals left (gen_internal.h); inlined in arrival. */
static inline __attribute__((always_inline)) int window(struct model_gen *g)
{
	if (g->o.max_records && g->count >= g->o.max_records)
		return 0;
	if (g->pos >= g->nbuf) {
		int k = fill_window(g);
		if (k <= 0)
			return k == -1 ? REEL_E_NOMEM : k < 0 ? REEL_E_RANGE : 0;
	}
	return 1;
}

int gen_window(struct model_gen *g) { return window(g); }

/* The next arrival (gen_internal.h); inlined in gen_arrivals' loop. */
static inline __attribute__((always_inline)) int arrival(struct model_gen *g, double *t, int *op,
							 size_t *d)
{
	int k = window(g);
	if (k != 1)
		return k;
	*t = g->bt[g->pos];
	*op = g->bop[g->pos++];
	/* one device: pick_device's draw (the stream moves on) and no more */
	*d = g->m->ndevs > 1 ? pick_device(g, *t, *op) : (next64(g), 0);
	g->count++;
	return 1;
}

int gen_arrival(struct model_gen *g, double *t, int *op, size_t *d) { return arrival(g, t, op, d); }

size_t gen_arrivals(struct model_gen *g, struct gen_arr *a, size_t n, int *end)
{
	size_t i = 0;
	int k = 1;
	size_t d;
	while (i < n) {
		/* one device: the rest of the window (up to N, and to
		 * max_records) copied, the stream stepped once each (its draw
		 * unused, as arrival's), the state in registers (46 instructions
		 * an I/O one by one, 17 here) */
		size_t run = g->pos < g->nbuf && g->m->ndevs <= 1 ? g->nbuf - g->pos : 0;
		run = run < n - i ? run : n - i;
		if (g->o.max_records)
			run = g->count >= g->o.max_records	  ? 0
			      : run < g->o.max_records - g->count ? run
								  : g->o.max_records - g->count;
		if (run) {
			uint64_t s[4] = {g->s[0], g->s[1], g->s[2], g->s[3]};
			const double *bt = g->bt + g->pos;
			const uint8_t *bo = g->bop + g->pos;
			uint32_t ph = (uint32_t)g->phase;
			for (size_t j = 0; j < run; j++) {
				a[i + j].t = bt[j];
				a[i + j].phase = ph;
				a[i + j].op = bo[j];
				a[i + j].dev = 0;
				xo_next(s);
			}
			g->s[0] = s[0], g->s[1] = s[1], g->s[2] = s[2], g->s[3] = s[3];
			g->pos += run;
			g->count += run;
			i += run;
			continue;
		}
		int op;
		if ((k = arrival(g, &a[i].t, &op, &d)) != 1)
			break;
		a[i].phase = (uint32_t)g->phase;
		a[i].op = (uint8_t)op;
		a[i].dev = (uint8_t)d;
		i++;
	}
	*end = k;
	return i;
}

/* The next record's fields (model_gen_next's and model_gen_next_q's). */
static inline __attribute__((always_inline)) int next_q(struct model_gen *g, struct reel_rec_q *q)
{
	double t;
	int op;
	size_t d;
	if (g->arr_at < g->arr_end) { /* the thread's batch: no call */
		const struct gen_arr *a = g->arr_at++;
		t = a->t;
		op = a->op;
		d = a->dev;
		g->phase = a->phase;
	} else {
		int k = g->thr ? gen_thread_next(g, &t, &op, &d) : gen_arrival(g, &t, &op, &d);
		if (k != 1)
			return k;
	}
	uint64_t off, len;
	gen_space_place(g, d, op, &off, &len);
	q->queue_ns = (int64_t)t;
	q->offset = off;
	q->length = (uint32_t)len;
	q->dev = g->m->devs[d].id;
	q->op = (uint8_t)op;
	g->count += g->thr != NULL; /* gen_arrival counts it on the arrivals' thread */
	return 1;
}

int model_gen_next_q(struct model_gen *g, struct reel_rec_q *q) { return next_q(g, q); }

int model_gen_next(struct model_gen *g, struct reel_rec *r)
{
	struct reel_rec_q q;
	int k = next_q(g, &q);
	if (k == 1)
		reel_rec_of_q(&q, r);
	return k;
}

/* The IDC of the arrivals of the first NWIN windows (model_idc, one pass
 * over the times: they come in order), in the bins of the windows' span. */
int model_gen_idc(const struct model *m, uint64_t seed, size_t nwin, double *idc, uint64_t *burst)
{
	if (!m->nphases || !m->nwin || m->duration_ns <= 0)
		return REEL_E_ARG;
	struct model_gen *g = calloc(1, sizeof(*g));
	struct model_gen_opts o = {.seed = seed};
	if (!g)
		return REEL_E_NOMEM;
	if (gen_time_init(g, m, &o)) {
		model_gen_destroy(g);
		return REEL_E_NOMEM;
	}
	g->end = (double)(nwin < m->nwin ? nwin : m->nwin) * g->wl;
	struct model_idc a;
	model_idc_init(&a);
	int k;
	double last = -INFINITY;
	uint64_t bn = 0;
	while ((k = fill_window(g)) > 0)
		for (size_t i = 0; i < g->nbuf; i++) {
			if (burst && bn && !(g->bt[i] - last < MODEL_BURST_NS)) {
				burst[bn < MODEL_BURST_HIST ? bn - 1 : MODEL_BURST_HIST - 1]++;
				bn = 0;
			}
			bn++;
			last = g->bt[i];
			model_idc_add_d(&a, g->bt[i]);
		}
	if (burst && bn)
		burst[bn < MODEL_BURST_HIST ? bn - 1 : MODEL_BURST_HIST - 1]++;
	for (int s = 0; s < MODEL_IDC_SCALES; s++)
		idc[s] = model_idc_end(&a, s, ceil(g->end / (double)model_idc_scale_ns[s]));
	model_gen_destroy(g);
	return k < 0 ? (k == -1 ? REEL_E_NOMEM : REEL_E_RANGE) : 0;
}
