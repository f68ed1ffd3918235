/*
 * model/model.h - workload models: fit a model from a trace, generate
 * synthetic traces from a model, compare two traces.  This header is the
 * manual of model/ (MODEL.md documents the MODEL.json file field by field).
 *
 * Conventions: functions return 0 (or a count) on success and a negative
 * REEL_E_* code on failure, with a message in the caller's errmsg buffer.
 * Library code never prints nor exits.  Create/destroy pairs; destroy
 * functions accept NULL.  model/ depends on formats/ only.
 */
#ifndef IOREEL_MODEL_H
#define IOREEL_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/reel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- a trace in memory, column by column (trace_load.c) --------------- */
/*
 * t is the arrival time (queue_ns when the source has it, else issue_ns),
 * sorted ascending once loaded.  issue/complete are NULL when the trace
 * lacks them; a record lacking them inside a trace that has them holds -1.
 */
struct model_trace {
	size_t n, cap;
	int64_t *t;
	int64_t *issue;	   /* NULL when absent */
	int64_t *complete; /* NULL when absent */
	uint64_t *off;
	uint32_t *len;
	uint8_t *op;
	uint16_t *dev;
	size_t ndev;
	struct reel_device devs[64]; /* as declared in the header (id order) */
	char source[64];	     /* header source: "replay", "captured", ... */
};

/* Read every record of PATH (a .reel file).  The caller frees with
 * model_trace_free().  Traces are sorted by arrival time. */
int model_trace_load(struct model_trace *tr, const char *path, char *err, size_t errlen);
/* Append one record (used by the loader and by tests). */
int model_trace_push(struct model_trace *tr, const struct reel_rec *r);
/* Sort by arrival time (stable); call after pushing. */
int model_trace_sort(struct model_trace *tr);
void model_trace_free(struct model_trace *tr);

/* ---- an empirical distribution: a piecewise-linear CDF (distribution.c) */
/*
 * Knots (v[i], c[i]) with v and c non-decreasing, c[0] = 0, c[nk-1] = 1.
 * Between knots the CDF is linear in v; two knots with the same value make
 * a point mass (a vertical step), so frequent exact values (4 KiB requests,
 * zero gaps) are kept exactly.
 */
#define MODEL_DIST_Q 200     /* quantile knots of the body */
#define MODEL_DIST_POINTS 32 /* point masses kept exactly */
#define MODEL_DIST_MAXK (MODEL_DIST_Q + 1 + 2 * MODEL_DIST_POINTS + 2)
#define MODEL_DIST_GUIDE 256
struct model_dist {
	uint64_t n; /* observations it was fitted on */
	double mean;
	uint32_t nk; /* 0: empty (never observed) */
	double v[MODEL_DIST_MAXK];
	double c[MODEL_DIST_MAXK];
	/* guide[k]: the last knot with c <= k / GUIDE (model_dist_prepare) */
	uint16_t guide[MODEL_DIST_GUIDE + 1];
};

/* Fit from values (reordered in place).  Beyond MODEL_DIST_SAMPLE values the
 * knots come from a fixed-stride sample of that many (the mean from all). */
#define MODEL_DIST_SAMPLE (1u << 20)
void model_dist_fit(struct model_dist *d, int64_t *vals, size_t n);
/* The stride model_dist_fit samples N values with (1: all of them). */
size_t model_dist_stride(uint64_t n);
/* Fit from a sample taken as model_dist_fit takes it: vals[i] is value
 * i * model_dist_stride(NALL) of the NALL values, whose sum (in order, as
 * doubles) is SUM.  Streaming callers need not keep every value; the
 * result equals model_dist_fit's.  vals is reordered in place. */
void model_dist_fit_sample(struct model_dist *d, int64_t *vals, size_t n, uint64_t nall,
			   double sum);
/* Fewer knots: the CDF through them within EPS of the one through d's
 * (for distributions written for people only). */
void model_dist_coarsen(struct model_dist *d, double eps);
/* Fill the guide table after setting knots by hand (fit and read do it). */
void model_dist_prepare(struct model_dist *d);
/* The first knot LO (at most nk - 2) with c[LO + 1] > U, forward from LO:
 * the same from any LO with c[LO] <= U (c does not decrease). */
static inline size_t model_dist_seek(const struct model_dist *d, double u, size_t lo)
{
	while (lo + 2 < d->nk && d->c[lo + 1] <= u)
		lo++;
	return lo;
}
/* The CDF's value at U in its stretch from knot LO (model_dist_seek's):
 * linear between the two knots, or the upper one's value at a step. */
static inline double model_dist_lerp(const struct model_dist *d, double u, size_t lo)
{
	double c0 = d->c[lo], c1 = d->c[lo + 1];
	if (c1 <= c0)
		return d->v[lo + 1];
	return d->v[lo] + (d->v[lo + 1] - d->v[lo]) * (u - c0) / (c1 - c0);
}
/* The guide's knot for U in (0, 1) of D (knots: at or below the one
 * sought, c[lo] <= u): where model_dist_inv's and model_dist_inv_pow's
 * searches start. */
static inline size_t model_dist_guided(const struct model_dist *d, double u)
{
	size_t lo = d->guide[(size_t)(u * MODEL_DIST_GUIDE)];
	return lo > d->nk - 2 ? 0 : lo;
}
/* Inverse CDF at u in [0,1), and the knot it found in *K where it
 * searched (U inside (0, 1); else *K as it was: gen's remote keeps it for
 * the I/O's count).  Inline: every draw of every model asks it (boot at
 * --rate 7491: 1.5 M asks per 150k I/O, a call and a call through
 * model_dist_inv_pow each time before). */
/* The inverse CDF's answer in *V where no knot is searched for: no
 * knots, U at or below 0, at or above 1 (1; else 0). */
static inline int model_dist_inv_end(const struct model_dist *d, double u, double *v)
{
	if (!d->nk)
		*v = 0;
	else if (u <= 0)
		*v = d->v[0];
	else if (u >= 1)
		*v = d->v[d->nk - 1];
	else
		return 0;
	return 1;
}
static inline double model_dist_inv_at(const struct model_dist *d, double u, size_t *k)
{
	double v;
	if (model_dist_inv_end(d, u, &v))
		return v;
	*k = model_dist_seek(d, u, model_dist_guided(d, u));
	return model_dist_lerp(d, u, *k);
}
static inline double model_dist_inv(const struct model_dist *d, double u)
{
	size_t k;
	return model_dist_inv_at(d, u, &k);
}
/* As model_dist_inv, but inside the stretch between two knots at
 * v0 + (v1 - v0) t^A for the share t of the stretch below U (A = 1:
 * linear, model_dist_inv). */
double model_dist_inv_pow(const struct model_dist *d, double u, double a);
/* model_dist_inv_pow for U in (0,1), the knots searched from LO on (LO at
 * most nk - 2, c[LO] <= U; nk >= 2): a caller that knows a knot at or
 * below U (a stratum's lower end's) skips the guide. */
double model_dist_inv_from(const struct model_dist *d, double u, double a, size_t lo);
/* CDF just below x and at x. */
void model_dist_cdf(const struct model_dist *d, double x, double *below, double *at);
/* The last knot i < HI with v[i] <= x (0 when x is below every knot), by
 * bisection: the one search of a distribution's knots. */
size_t model_dist_knot(const struct model_dist *d, double x, size_t hi);
/* The same search between LO and HI (the last i in [LO, HI) with v[i] <= x),
 * where v[LO] <= x and v[HI] > x (or HI = nk): a caller that narrowed
 * the range (a table of the knots) finds the knot model_dist_knot finds.
 * Inline: gen's local jumps ask it 3-4 times a start through addr_knot
 * (compile: 1.2 M calls in 300k I/O, a call each). */
static inline size_t model_dist_knot_in(const struct model_dist *d, double x, size_t lo, size_t hi)
{
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (d->v[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
/* model_dist_cdf once its knot is found: LO = model_dist_knot(d, x, nk),
 * for x in [v[0], v[nk - 1]]; the same *below and *at, bit for bit.
 * Inline: fit's gap chain calls it at every gap (its results in
 * registers, not through memory). */
static inline void model_dist_cdf_at(const struct model_dist *d, double x, size_t lo, double *below,
				     double *at)
{
	size_t n = d->nk; /* at: from knot lo, the largest i with v[i] <= x */
	if (lo == n - 1 || d->v[lo + 1] <= d->v[lo])
		*at = d->c[lo];
	else
		*at = d->c[lo] +
		      (d->c[lo + 1] - d->c[lo]) * (x - d->v[lo]) / (d->v[lo + 1] - d->v[lo]);
	if (d->v[lo] < x) { /* inside segment lo: the search below would find
			     * it again, and the same sum */
		*below = *at;
		return;
	}
	/* below: smallest j with v[j] >= x */
	lo = 0;
	size_t hi = n - 1;
	if (d->v[0] >= x) {
		*below = d->v[0] == x ? d->c[0] : 0;
		return;
	}
	while (hi - lo > 1) { /* v[lo] < x <= v[hi] */
		size_t mid = (lo + hi) / 2;
		if (d->v[mid] < x)
			lo = mid;
		else
			hi = mid;
	}
	if (d->v[hi] == x)
		*below = d->c[hi];
	else
		*below = d->c[lo] + (d->c[hi] - d->c[lo]) * (x - d->v[lo]) / (d->v[hi] - d->v[lo]);
}
/* Check the knots (monotone, c in [0,1], ends at 0 and 1); 0 or REEL_E_PARSE. */
int model_dist_valid(const struct model_dist *d);
/* Sort int64 ascending in place (radix sort); 0 or REEL_E_NOMEM. */
int model_sort_i64(int64_t *v, size_t n);
/* The least x in [lo, hi] where the monotone AT_LEAST(x, ctx) holds, when
 * it holds at hi (the bounds of a binning by doubles: fit's slices,
 * PQRS's rows). */
uint64_t model_first_u64(uint64_t lo, uint64_t hi, int (*at_least)(uint64_t x, const void *ctx),
			 const void *ctx);

/* ---- the model ---------------------------------------------------------- */
#define MODEL_CLASSES 8	     /* inter-arrival classes of the gap Markov chain */
#define MODEL_CNT_BUCKETS 27 /* windows by floor(log2(I/O in the window)), 2 .. 2^26 */
#define MODEL_MAX_PHASES 16
#define MODEL_MAX_REGIONS 256
#define MODEL_RESUME_BACK 64   /* p_resume: the I/O of the same op looked back at */
#define MODEL_NEAR_BACK 100    /* p_near: the I/O looked back at (compare's locality's) */
#define MODEL_NEAR_MIN 2       /* p_near: kept from so many near starts, */
#define MODEL_NEAR_OVER 2      /* at this many times the chance share or more */
#define MODEL_MAX_LONG 32      /* long runs kept per device */
#define MODEL_LONG_SHARE 0.005 /* a kept run holds at least this share of the I/O */
/* a kept run's head: the bytes of its first MODEL_LONG_HEAD I/O, kept where
 * their share of its bytes is off MODEL_LONG_HEAD / its length by
 * MODEL_HEAD_APART of it (disksim's disk 8: its 25-I/O run writes 66% of
 * its 406 KiB in its first 8, 54-60 KiB each) */
#define MODEL_LONG_HEAD 8
#define MODEL_HEAD_APART 0.25
#define MODEL_MAX_CYCLE 32 /* hot blocks kept with their own period, per device */
#define MODEL_CYCLE_Q 9	   /* their intervals' quantiles: 0, 1/8, .. 1 */
#define MODEL_MAX_ORDER 64 /* the hot blocks' order (hot_order): at most so many starts */
#define MODEL_MAX_DEVS 64
#define MODEL_MAX_PASS 1024  /* I/O of a device's re-use pass kept, at most */
#define MODEL_PASS_BACK 4096 /* a kept re-use's last touch at most so many I/O back */
#define MODEL_PASS_MIN 16    /* re-using I/O of a device before its pass is kept */
#define MODEL_PASS_FAR 128   /* and their mean reuse distance (I/O), at least */
#define MODEL_PASS_SHARE 3   /* the pass's I/O at most 1 / this of the device's */
#define MODEL_PASS_BURST 8   /* or so many going back together, nearer on average */
#define MODEL_MAX_WINDOWS 4096
#define MODEL_MAX_KEPT 16   /* densest windows whose first and last arrivals are kept */
#define MODEL_KEPT_KNOTS 4  /* knots of a kept window's arrival curve, at most */
#define MODEL_KNOT_UNIT 100 /* a knot's place: in hundredths of the window's span */
/* The I/O (0 its first) of a kept window of C I/O whose arrival knot J of
 * N falls: (J + 1) / (N + 1) of the way from its first I/O to its last,
 * rounded (distinct for N <= C - 2). */
static inline uint64_t model_kept_knot_io(uint64_t c, uint32_t n, uint32_t j)
{
	return ((uint64_t)(j + 1) * (c - 1) * 2 + n + 1) / (2 * (uint64_t)(n + 1));
}
/* regions.read_share is kept where the regions' read shares differ from
 * the device's, on average over its I/O, by this share of the most they
 * can, 2p(1-p) for a device reading a share p (a device of few writes
 * holds its ops fully apart at 0.22: git), and a G-test of regions x op
 * rejects at MODEL_OP_Z standard normal deviates (device_ops) */
#define MODEL_OP_APART 0.4
#define MODEL_OP_Z 5
/* ... or, as before round 30, where they differ by this much (absolute),
 * whatever the G-test: so the relative rule only adds devices */
#define MODEL_OP_APART_ABS 0.2
/* op_bias is kept where the device's ops differ from its phases' mix by
 * this much, on average over its I/O (device_own) */
#define MODEL_BIAS_APART 0.2
/* a device's own run-start sizes of an op (dsize) are kept where their
 * mean is off its phases' mean for them by this share or more */
#define MODEL_SIZE_APART 0.25
#define MODEL_SIZE_MIN 32 /* and of at least so many I/O */
/* regions.p_local_read and p_local_write: a region's share of local
 * jumps is its own where it is further than MODEL_LOCAL_Z binomial
 * standard deviations from the device's (with a prior of
 * MODEL_LOCAL_PRIOR starts at the device's), else the device's; written
 * where they differ from the device's by MODEL_LOCAL_APART on average
 * over its run starts (boot 0.076: a band of an eighth of its I/O;
 * blktrace 0.053).  On a device of fewer than MODEL_LOCAL_FEW starts the
 * test is at MODEL_LOCAL_Z_FEW: there a region holds a few dozen starts,
 * and 3 deviations are a difference of a quarter in its share, more than
 * the bands' own (blktrace's region 1: 13 of its 29 starts local, the
 * device's 24 of 93, 2.3 deviations; at the device's odds it came out 3.5
 * of its 37 I/O short, offsets KS out on 6 seeds of 256, 1 with its own);
 * on larger ones 3 deviations are a few hundredths already */
#define MODEL_LOCAL_Z 3
#define MODEL_LOCAL_Z_FEW 2
#define MODEL_LOCAL_FEW 1000
#define MODEL_LOCAL_PRIOR 4
#define MODEL_LOCAL_APART 0.05
/* regions.transitions: a device's chain of remote jumps of more than
 * MODEL_CHAIN_FREE cells is kept only where its rows differ from the
 * regions' weights (what gen draws a row without transitions from) by a
 * G-test at MODEL_CHAIN_Z standard normal deviates (else every row is
 * left empty), and then over blocks of regions, as many as its jumps
 * support: B blocks of equal numbers of regions, B * B cells at most one
 * per MODEL_CHAIN_JUMPS remote jumps (regions.chain_blocks).  Disksim's
 * model at 15 times its rate: 16 devices, 14 of them of jumps spread as
 * the weights, 5,200 cells each, 97% of a MODEL.json of 49% of its trace;
 * at 20 and 100 times, chains carrying its own model's 14 regions' rows
 * under the noise of 6,500 to 16,000 cells.  The ten traces' chains, 3 to
 * 310 cells, are kept whole: tested at 3.09 sd their chains went on
 * blkparse, boot-nspawn, chromium and 4 more, and seeds 1-32 had 50
 * checks out for 19 */
#define MODEL_CHAIN_FREE 1024
/* regions.seg_weights: the regions' weights in each MODEL_SEGS-th of the
 * device's I/O, kept where the region mix drifts between them by a
 * G-test of homogeneity at MODEL_SEG_Z standard normal deviates and by a
 * total variation of MODEL_SEG_APART on average over its I/O (disksim's
 * disk 8, a log written up the device: from 1.70 MiB 0, 0, 0, 9, 28 of
 * its I/O by fifth), on a device without regions.read_share and of fewer
 * remote jumps than regions (device_segs) */
#define MODEL_SEGS 5
#define MODEL_SEG_Z 5
#define MODEL_SEG_APART 0.2
#define MODEL_CHAIN_Z 5
#define MODEL_CHAIN_JUMPS 64

struct model_family { /* a fitted parametric family of inter-arrival times */
	double loglik, aic;
	double p[3]; /* exp: rate/ns; lognormal: mu, sigma; hyperexp: p, rate1, rate2 */
};

struct model_phase {
	uint64_t ios, windows;
	double rate; /* I/O per second */
	double op_mix[REEL_OP__COUNT];
	double op_next[REEL_OP__COUNT][REEL_OP__COUNT]; /* P(next op | op) */
	struct model_dist size[REEL_OP__COUNT];		/* bytes, per op */
	struct model_dist gap;				/* ns between arrivals in a window */
	struct model_dist lead;				/* first arrival in a window, ppm */
	/* I/O per burst (arrivals less than MODEL_BURST_NS apart) of the
	 * bursts that start in the phase's windows; nk 0: left out (the
	 * chain's lengths pass, or a model before it): fit, burst_gate */
	struct model_dist burst;
	double gap_next[MODEL_CLASSES][MODEL_CLASSES]; /* class chain */
	/* share of each gap class in windows of 2^b .. 2^(b+1) - 1 I/O (all 0:
	 * no such window); dense windows hold the short gaps */
	double class_by_count[MODEL_CNT_BUCKETS][MODEL_CLASSES];
	/* how much the class mix varies from window to window beyond chance:
	 * the intra-window correlation rho of a Dirichlet-multinomial, 0 (every
	 * window the bucket's shares) to 1 (each window one class) */
	double class_disp;
	/* where a window's gaps of each class fall inside the class, by count
	 * bucket: the mean of (gap's CDF value x 8 - class), in [0, 1] (0.5: as
	 * the phase's gaps; models before it: 0.5) */
	double class_pos[MODEL_CNT_BUCKETS][MODEL_CLASSES];
	/* per count bucket: the share of its windows without a gap of the top
	 * class (compact bursts; -1: not known, models before it) and the top
	 * class's share of the gaps of the others */
	double compact[MODEL_CNT_BUCKETS], top_rest[MODEL_CNT_BUCKETS];
	struct model_family fam[3]; /* exp, lognormal, hyperexp */
	int best_family;
	double gap_zero;		   /* fraction of 0 gaps */
	double bmodel[REEL_OP__COUNT + 1]; /* [0] all, [1+op]; -1 none */
	/* size given sequentiality: per op, the share of the I/O whose size
	 * falls in each segment of size[op] (knot k to k + 1) that continue
	 * a run (start where the device's previous I/O ended); gen draws a
	 * run's next I/O and a run start from the two conditional CDFs */
	int seq_fitted; /* models before it: 0, sizes drawn per op alone */
	float seq_share[REEL_OP__COUNT][MODEL_DIST_MAXK];
};

/* devices re-using at least this share of run starts keep their jumps as
 * drawn (hot blocks); only they use p_reuse_size */
#define MODEL_REUSE_HOT 0.5
/* p_unread is kept from this share on, of MODEL_UNREAD_MIN read starts
 * or more */
#define MODEL_UNREAD 0.5
#define MODEL_UNREAD_MIN 256
#define MODEL_REUSE_SIZES 5 /* run starts' size classes for re-use: 1, 2-3, ... 16+ blocks */
/* p_reuse_phase: a phase's share from so many run starts of the op; kept
 * where the phases' shares differ from the op's by this much on average
 * over its starts */
#define MODEL_REUSE_PHASE_MIN 8
#define MODEL_REUSE_APART 0.15
/* The size class of an I/O of LEN bytes: log2 of its 4 KiB blocks, at most 4.
 * B | 1 has B's top bit where B > 1 and 1's (class 0) for 0 and 1: no
 * branch on B > 1 (gen's start_hot: one-block sizes and larger drawn at
 * random, its branch missed at every other run start on git). */
static inline int model_reuse_size(uint64_t len)
{
	uint64_t b = (len + 4095) >> 12;
	int c = 63 - __builtin_clzll(b | 1);
	return c < MODEL_REUSE_SIZES - 1 ? c : MODEL_REUSE_SIZES - 1;
}

struct model_devspace { /* spatial behaviour of one device */
	uint16_t id;
	char name[64];
	uint64_t capacity; /* header capacity (0 unknown) */
	uint64_t extent;   /* address space used by the model: capacity or max end */
	uint32_t align;
	double share; /* fraction of I/Os on this device */
	/* its own arrivals: gaps between its consecutive I/O, ns (empty: not
	 * fitted, one device or a model before it; gen then draws each I/O's
	 * device by share) */
	struct model_dist gap;
	struct model_dist run;	 /* sequential run lengths, in I/Os */
	struct model_dist jump;	 /* every jump, for people and compare */
	struct model_dist local; /* non-zero jumps with |d| <= local_limit */
	double p_local;		 /* fraction of run starts that are local jumps */
	/* of the remote jumps, the share that land where one of the
	 * device's last MODEL_RESUME_BACK I/O of the same op (read, or not)
	 * ended: a stream resumed after other I/O (a log written in order
	 * among reads); 0 where under 8 do, and in models before it */
	double p_resume;
	/* per op (reads, the others): the device's I/O of the op over those
	 * at the op mix of the phases its I/O fall in; op_bias_fitted where
	 * the ops differ from that mix by MODEL_BIAS_APART or more on average
	 * over its I/O (disksim's disk 8, a log: 8 reads of 150 where its
	 * phases' mix has 100), else 1 and 0; gen weights the device's
	 * hazard for an arrival of the op by it */
	float op_bias[2];
	int op_bias_fitted;
	/* per op (reads, the others): the sizes of the device's run starts,
	 * where their mean differs from their phases' by MODEL_SIZE_APART or
	 * more (disk 8's writes: 17 KiB against the phases' 8); empty: the
	 * phase's.  gen draws the device's run starts of the op from it and
	 * takes the phase's size nearest out of the phase's quota; a run's
	 * next I/O takes the phase's (its runs' sizes) */
	struct model_dist dsize[2];
	/* of the fresh remote starts (no block touched before, not a resumed
	 * stream), the share landing within local_limit of one of the
	 * device's last MODEL_NEAR_BACK I/O (offset to offset) beyond the
	 * share its offsets CDF puts there by chance; how many I/O back the
	 * latest such I/O is and how far from it they land (empty: uniform
	 * over those I/O and within local_limit); 0 where not kept (the
	 * chance share holds, or under MODEL_NEAR_MIN), and in models before it */
	double p_near;
	struct model_dist near_back, near_jump;
	/* re-use (a stack-distance model of run starts): the share of run
	 * starts touching a 4 KiB block touched before, and how many I/O of
	 * the device back it was last touched (0 and empty: none) */
	double p_reuse;
	struct model_dist reuse_dist;
	/* the reuse distances of the re-using starts of writes alone, where
	 * they are the fewer (fiu: median 23 I/O, a file's blocks re-written;
	 * its reads' 1, a block read twice); empty: reuse_dist */
	struct model_dist reuse_dist_w;
	int reuse_fitted; /* p_reuse was fitted (models before it: no) */
	/* the share of the reads' run starts landing on a block written and
	 * not read since (a tree unpacked, then read back: kernel-src 0.9999),
	 * kept from MODEL_UNREAD on (0: not kept, and in models before it) */
	double p_unread;
	/* the mean length (I/O) of the runs whose start re-uses a block (a
	 * block re-read or re-written, seldom a file read again whole); 0:
	 * not fitted, or like the device's runs: gen draws them as the others */
	float reuse_run;
	/* the same of the runs whose start is a read, a write (fiu: 1.7, a
	 * block re-read; 2.6, re-written on); reuse_run of both in models
	 * before it */
	float reuse_run_op[2];
	/* the share of the next I/O of those runs that re-use a block too
	 * (fiu: 17%, a block re-read then the file read on; disksim: 79%,
	 * rewritten); 1 in models before it */
	float reuse_cont;
	/* the same of reads and of writes (fiu: a re-read runs on fresh, 0%;
	 * a re-write runs on over what it wrote, 88%); reuse_cont of both in
	 * models before it */
	float reuse_cont_op[2];
	/* the share of run starts re-using a block, of reads and of writes
	 * (chromium: no read re-reads, a quarter of the write starts re-write);
	 * p_reuse of both in models before it */
	float p_reuse_op[2];
	/* the share of run starts re-using a block, by the start's size in
	 * 4 KiB blocks: 1, 2-3, 4-7, 8-15, 16 or more (msr: its 15-block
	 * writes are all fresh, its 1-block ones 84% re-writes); p_reuse of
	 * each in models before it, and where they say nothing (or p_reuse is
	 * under MODEL_REUSE_HOT: gen does not use them) */
	float p_reuse_size[MODEL_REUSE_SIZES];
	/* the same by phase, of reads and of writes (fiu: its writes re-write
	 * 67% of their starts in the phase of its journal's re-writes, 4% in
	 * the phase of its fresh writes, 22% over the trace); -1 where the
	 * phase holds under MODEL_REUSE_PHASE_MIN starts of the op (the op's
	 * p_reuse_op); reuse_ph_fitted 0 where the phases do not differ
	 * (MODEL_REUSE_APART) and in models before it */
	int reuse_ph_fitted;
	float p_reuse_ph[MODEL_MAX_PHASES][2];
	uint64_t local_limit;
	struct model_dist addr; /* offsets: where remote jumps land within a region */
	uint32_t nregions;
	uint64_t bound[MODEL_MAX_REGIONS + 1]; /* equal-mass region bounds */
	double weight[MODEL_MAX_REGIONS];      /* share of I/Os per region */
	/* the same by MODEL_SEGS-th of the device's I/O (each row sums to 1),
	 * where they drift; seg_fitted 0 where they do not and in models
	 * before it (gen draws from weight alone) */
	int seg_fitted;
	float seg_w[MODEL_SEGS][MODEL_MAX_REGIONS];
	/* run lengths by where the run starts: per region, the mean length
	 * (I/O) of the runs starting there (0: none start there);
	 * run_mean_fitted 0 in models before it */
	int run_mean_fitted;
	float run_mean[MODEL_MAX_REGIONS];
	/* per region, the share of its I/O that are reads: the chain's
	 * draws are given the op (compile reads in 5 regions, writes in 9
	 * others); read_share_fitted 0 where the ops share the regions
	 * alike (MODEL_OP_APART, MODEL_OP_Z) and in models before it */
	int read_share_fitted;
	float read_share[MODEL_MAX_REGIONS];
	/* per op (reads, the others) and region, the share of the op's run
	 * starts leaving the region (the I/O before ended there) that are
	 * local jumps: boot-nspawn reads a band of 0.8 MiB block by block,
	 * 90% of the starts there local, 31% elsewhere; p_local_fitted 0
	 * where the regions share the device's (MODEL_LOCAL_APART) and in
	 * models before it; p_local_op[k] 0 where op k starts no run (the
	 * device's p_local then) */
	int p_local_fitted, p_local_op[2];
	float p_local_r[2][MODEL_MAX_REGIONS];
	/* per region, the share of the device's run starts of the sizes
	 * mostly fresh (p_reuse_size under 0.5) starting there: msr's 15-block
	 * writes, all in one band of region 0, drawn to the 36-block regions
	 * of its cold 1-block writes by the chain, filled them and landed on
	 * written blocks; fresh_share_fitted 0 where no such size has 8
	 * starts, on devices under MODEL_REUSE_HOT, and in models before it */
	int fresh_share_fitted;
	float fresh_share[MODEL_MAX_REGIONS];
	/* the device's longest sequential runs, kept where they are (each
	 * at least MODEL_LONG_SHARE of the device's I/O and 8 I/O long, at
	 * most MODEL_MAX_LONG, in the order they start): the offset, length
	 * (I/O), bytes and where the run starts (the share of the device's I/O before
	 * it); nlong 0 in models before it */
	uint32_t nlong;
	struct model_long_run {
		uint64_t off, bytes;
		uint32_t len;
		float at;
		uint64_t head; /* its first MODEL_LONG_HEAD I/O's bytes; 0: even */
	} longrun[MODEL_MAX_LONG];
	/* the device's re-use pass, kept where it is (a writeback re-writing
	 * what an earlier pass wrote, a probe read twice): where every I/O
	 * that touches a 4 KiB block touched before takes part, at most
	 * MODEL_MAX_PASS, each of them and the I/O that touched its block
	 * last, in the device's order: its index among the device's pass_n
	 * addressed I/O of the trace, op and place (bytes); npass 0: none
	 * (and in models before it).  gen places each at its index (per
	 * repeat of the model's duration), by the next I/O of its op, and
	 * draws no other re-use on the device, but where pass_burst: the pass
	 * is a burst of re-uses going back together alone, the device's
	 * other re-uses drawn as on a device without one.  Owned by the model
	 * (malloc). */
	uint32_t npass;
	uint8_t pass_burst;
	uint64_t pass_n;
	struct model_pass_io {
		uint64_t off;
		uint32_t len, at;
		uint8_t write;
	} * pass;
	/* the hot blocks of a device re-using most starts (p_reuse >=
	 * MODEL_REUSE_HOT), kept where they carry most of its re-uses, each
	 * with its own period (a renewal process; Tarasov et al.'s per-chunk
	 * features, FAST'12): its offset, where its touches begin and end
	 * (shares of the device's I/O before them) and the quantiles of the
	 * I/O of the device between its touches (msr: 11 blocks, re-written
	 * in turn every 5-34 I/O, 870 of its 873 re-uses); ncycle 0: none */
	uint32_t ncycle;
	struct model_cycle {
		uint64_t off;
		float from, to;
		float q[MODEL_CYCLE_Q];
	} cycle[MODEL_MAX_CYCLE];
	/* with hot_cycle, the order its blocks are touched in (hot_order):
	 * norder run starts replayed in turn, each a kept block + 1 or 0 (a
	 * fresh start); msr: 26, `db.caE.dbZIFJca.dbJcaIFH.`; norder 0: none */
	uint32_t norder;
	uint8_t order[MODEL_MAX_ORDER];
	/* each place's size in align units (hot_order_len; 0: drawn): the
	 * trace's start there, so a block's write covers the blocks the
	 * trace's did (msr's 3-block write at its 6th block, 1 elsewhere) */
	uint8_t order_len[MODEL_MAX_ORDER];
	/* sparse region transitions (CSR): row r is tr_to/tr_p[row[r]..row[r+1]).
	 * Fit: with nblk > 0, the chain of blocks of regions (blk[k] to
	 * blk[k + 1]), rows and tr_to blocks (regions.chain_blocks); read, it is
	 * spread over the blocks' regions by their weights and nblk is 0 */
	uint32_t nblk;
	uint16_t blk[MODEL_MAX_REGIONS + 1];
	uint32_t row[MODEL_MAX_REGIONS + 1];
	uint32_t ntr;
	uint16_t *tr_to;
	double *tr_p;		 /* cumulative within the row */
	double rw_overlap_read;	 /* share of read bytes in 1 MiB blocks also written */
	double rw_overlap_write; /* share of written bytes in blocks also read */
	double hot10;		 /* share of I/Os in the hottest 10% of the space */
};

/* The device's re-uses all in its kept pass (gen draws no other): a pass
 * kept, not a burst alone (pass_burst). */
static inline int model_pass_alone(const struct model_devspace *d)
{
	return d->npass && !d->pass_burst;
}

struct model_inflight { /* where the trace has issue and completion */
	int known;
	double mean, max;
	struct model_dist depth;   /* in-flight count seen by each arrival */
	struct model_dist latency; /* complete - issue, ns */
};

struct model {
	int naive;
	char source[256];
	uint64_t count;
	int64_t duration_ns;
	int64_t quantum_ns;  /* every arrival time is a multiple of it (1: ns) */
	size_t nwin;	     /* windows of duration_ns / nwin each */
	uint16_t *win_phase; /* phase of each window */
	uint32_t *win_ops;   /* I/O per window and op: [w * REEL_OP__COUNT + op] */
	size_t nphases;
	struct model_phase *phases;
	size_t ndevs;
	struct model_devspace *devs;
	struct model_inflight inflight;
	double bmodel[REEL_OP__COUNT + 1]; /* whole trace */
	double pqrs[4];
	/* the order of the gaps inside windows of a gap budget: 0 the class
	 * chain's, else a b-model cascade of this split (0.5 .. 1), which the
	 * fit calibrates against the trace's IDC (model_gen_idc) */
	double gap_cascade;
	/* the densest windows (by their squared counts, up to 3/4 of the sum
	 * over all windows, at most MODEL_MAX_KEPT; in window order): where
	 * their first and last arrivals fall, in millionths of the window, and
	 * the knots of their arrival curve between: knot j the arrival of the
	 * window's I/O knot_io[j] (increasing, 1 to c - 2 for its count c;
	 * models before them: all 0, the I/O model_kept_knot_io(c, nknot, j)),
	 * in MODEL_KNOT_UNIT-ths of the span from first to last
	 * (nondecreasing) */
	size_t nkept;
	struct model_kept_window {
		uint32_t w, first_ppm, last_ppm;
		uint32_t nknot;
		uint16_t knot[MODEL_KEPT_KNOTS];
		uint32_t knot_io[MODEL_KEPT_KNOTS];
	} kept[MODEL_MAX_KEPT];
};

struct model_fit_opts {
	int naive;	     /* uniform addresses, Poisson arrivals, same means */
	unsigned max_phases; /* 0: default 8 */
};

/* Fit from a trace in memory (sorted by arrival time). */
int model_fit(struct model *m, const struct model_trace *tr, const struct model_fit_opts *o,
	      char *err, size_t errlen);
/* Fit from a .reel file read in passes, chunk by chunk: memory does not
 * grow with the trace (distributions are fitted on bounded samples; see
 * MODEL.md).  A file not in arrival-time order is loaded and sorted. */
int model_fit_file(struct model *m, const char *path, const struct model_fit_opts *o, char *err,
		   size_t errlen);
void model_free(struct model *m);

/* MODEL.json: write (human-readable) and read (strict, bounded). */
/* Op names in MODEL.json ("write_zeroes", where reel_op_name() says
 * "write-zeroes") and inter-arrival family names, in enum order. */
extern const char *const model_op_key[REEL_OP__COUNT];
extern const char *const model_family_key[3];
int model_write_json(const struct model *m, FILE *f);
/* A b-model object as MODEL.json writes it: {"all": 0.8306, "read": ...},
 * the biases that are known (>= 0) of all I/O and per op. */
void model_write_bmodel(FILE *f, const double *b);
/* The same gzip-compressed (what `model fit` writes by default): a text of
 * MODEL_GZ_SPLIT bytes or more as one gzip member of two halves deflated
 * at MODEL_GZ_LEVEL, on two threads when a core is spare (disksim's 10M model: 0.6% larger than
 * at level 9 in one stream, deflated in an eighth of its wall time), a
 * smaller one at level 9 in one stream (the bytes fit wrote before). */
#define MODEL_GZ_SPLIT (64u << 10)
#define MODEL_GZ_LEVEL 7
int model_write_json_gz(const struct model *m, FILE *f);
/* TEXT[0, LEN) gzip-compressed to F as the above: 0 or REEL_E_NOMEM /
 * REEL_E_IO, REEL_E_RANGE past MODEL_JSON_MAX_BYTES. */
int model_json_deflate(const char *text, size_t len, FILE *f);
/* TEXT: MODEL.json, plain or gzip-compressed (told apart by the magic). */
int model_read_json(struct model *m, const char *text, size_t len, char *err, size_t errlen);
/* Parse MODEL.json's text (json-c, strict) and refuse what a model may
 * not hold (model_json_syntax.c); NULL with err set ("LINE:COL: ...", or
 * "LINE:COL: field PATH: ..." naming the value). */
struct json_object;
struct json_object *model_json_parse(const char *text, size_t len, char *err, size_t errlen);
/* The offset in TEXT (JSON that json-c accepts) of the value at PATH
 * ("devices[3].regions.weights[2]", "" the top level; keys compared as
 * json-c decodes them, the last of repeated keys), or where the text
 * stops short of it, of the deepest value on the path it has; *FOUND: the
 * bytes of PATH resolved (strlen(PATH) when all).  On other text it stops
 * where it can go no further; never past LEN. */
size_t model_json_locate(const char *text, size_t len, const char *path, size_t *found);
/* ERR, a refusal "PATH: what" (PATH: "model" the top level, else as for
 * model_json_locate), becomes "LINE:COL: field PATH: what", LINE:COL the
 * value's place in TEXT (or the object's that lacks it); other messages
 * stay as they are. */
void model_json_place(char *err, size_t errlen, const char *text, size_t len);
/* gzip (model_json_gz.c): is DATA gzip; inflate it into *OUT (malloc'ed,
 * at most MODEL_JSON_MAX_BYTES): 0 or REEL_E_PARSE / REEL_E_NOMEM. */
int model_json_is_gzip(const char *data, size_t len);
int model_json_inflate(const char *data, size_t len, char **out, size_t *outlen, char *err,
		       size_t errlen);
int model_load_file(struct model *m, const char *path, char *err, size_t errlen);

/* ---- generation ---------------------------------------------------------- */
struct model_gen_opts {
	int64_t duration_ns; /* 0: the model's duration */
	double rate;	     /* arrival rate factor, 0: 1 */
	uint64_t capacity;   /* bytes per device, 0: the model's */
	uint64_t seed;
	uint64_t max_records; /* 0: unbounded */
};
struct model_gen;
int model_gen_create(struct model_gen **g, const struct model *m, const struct model_gen_opts *o);
/* Next record (queue_ns, op, offset, length, dev): 1, or 0 at the end, or
 * REEL_E_NOMEM, or REEL_E_RANGE when one window would hold more than 64 Mi
 * I/O (a lower --rate or a model with more windows). */
int model_gen_next(struct model_gen *g, struct reel_rec *r);
/* The same record in 24 bytes (reel_rec_q), for gen's writer pipe
 * (cmd_model.c): the placing thread stores these, not 56-byte reel_recs
 * zeroed first. */
int model_gen_next_q(struct model_gen *g, struct reel_rec_q *q);
void model_gen_destroy(struct model_gen *g);
/* Devices of the generated trace (capacity as scaled). */
size_t model_gen_devices(const struct model_gen *g, struct reel_device *out, size_t max);
/* Draw G's arrivals (times, ops, devices) on a second thread, a few
 * batches ahead of the addresses and sizes drawn in model_gen_next: the
 * same records, on two cores.  Before the first model_gen_next: 0,
 * REEL_E_NOMEM, or REEL_E_ARG (G has begun); without a thread to be had,
 * 0 and G draws them itself.  model_gen_destroy stops it. */
int model_gen_thread(struct model_gen *g);
/* Nice steps below the placing thread (model_gen_next's) that gen's
 * helper threads run at (reel_thread_lower): at equal weights the placing
 * thread, the critical path, was preempted 0.22-0.26 s of a 1.6 s 10M-I/O
 * run by them, at +10 0.00-0.04 s.  The arrivals, which it waits for,
 * above the writer, which has 8 batches of slack. */
#define MODEL_GEN_ARRIVALS_NICE 5
#define MODEL_GEN_WRITER_NICE 10

/* ---- statistics shared by fit and compare (measures.c) ----------------- */
/* Two-sample Kolmogorov-Smirnov distance of sorted samples. */
double model_ks(const int64_t *a, size_t na, const int64_t *b, size_t nb);
/* b-model bias of sorted arrival times over [t0, t1): 0.5 = smooth,
 * towards 1 = bursty; -1 when too few events. */
double model_bmodel(const int64_t *t, size_t n, int64_t t0, int64_t t1);
/* The same, streaming: init with the event count N the caller will add
 * (0 or REEL_E_NOMEM; with too few events adding is a no-op), add each
 * time in any order, finish (frees; the bias or -1). */
struct model_bm {
	int L;
	size_t nb;
	uint64_t *c; /* NULL: too few events */
	int64_t t0, t1;
	double span;
	/* every t in [lo, hi) falls in bin k: the binning is monotone in t, so
	 * times in order rarely need the division */
	int64_t lo, hi;
	size_t k;
};
int model_bm_init(struct model_bm *bm, size_t n, int64_t t0, int64_t t1);
/* The same with at most 2^MAXL bins (model_bm_init: 2^20). */
int model_bm_init_max(struct model_bm *bm, size_t n, int64_t t0, int64_t t1, int maxl);
void model_bm_add_slow(struct model_bm *bm, int64_t t);
static inline void model_bm_add(struct model_bm *bm, int64_t t)
{
	if (t >= bm->lo && t < bm->hi) {
		bm->c[bm->k]++;
		return;
	}
	model_bm_add_slow(bm, t);
}
/* Add n times (runs of times in one bin are counted at once). */
void model_bm_add_all(struct model_bm *bm, const int64_t *t, size_t n);
double model_bm_finish(struct model_bm *bm);
/* PQRS-style quadrant shares (sorted, p >= q >= r >= s) of (time, address). */
void model_pqrs(const int64_t *t, const uint64_t *addr, size_t n, int64_t t0, int64_t t1,
		uint64_t a0, uint64_t a1, double out[4]);
/* The same, streaming: init with the event count N the caller will add (0
 * or REEL_E_NOMEM), add (t, address) pairs, finish (frees; -1s with too
 * few events). */
struct model_pqrs {
	uint64_t *c; /* side x side cells; NULL: too few events */
	size_t side, x, y;
	int64_t t0, t1, tlo, thi;
	uint64_t a0, a1, alo, ahi;
	uint64_t *ab; /* each row's least address (side + 1, after c's cells) */
	int rsh;      /* the row table's (after ab) 4096ths of [a0, a1): 1 << rsh each */
};
int model_pqrs_init(struct model_pqrs *p, size_t n, int64_t t0, int64_t t1, uint64_t a0,
		    uint64_t a1);
/* Add N events (times T, addresses A). */
void model_pqrs_add_n(struct model_pqrs *p, const int64_t *t, const uint64_t *a, size_t n);
void model_pqrs_finish(struct model_pqrs *p, double out[4]);
/* RMS horizontal distance of two latency CDFs at 10,000 quantiles (sorted). */
double model_demerit(const int64_t *a, size_t na, const int64_t *b, size_t nb);

/* ---- compare two traces (compare.c) ------------------------------------- */
/* Per-dimension samples of a trace (arrays owned; model_samples_free). */
struct model_samples {
	int64_t *size, *gap, *jump, *run, *lat;
	size_t nsize, ngap, njump, nrun, nlat;
	int64_t *burst; /* I/O per burst (arrivals less than MODEL_BURST_NS apart) */
	size_t nburst;
	double op_frac[REEL_OP__COUNT];
	double bmodel[REEL_OP__COUNT + 1];
	double pqrs[4];
	double mean_lat;
};
int model_samples_get(struct model_samples *s, const struct model_trace *tr);
void model_samples_free(struct model_samples *s);

/* What the distributions hide, measured on one trace (fidelity.c).  Arrays
 * are owned and sorted; model_fid_free frees them. */
#define MODEL_IDC_SCALES 5
extern const int64_t model_idc_scale_ns[MODEL_IDC_SCALES]; /* 1 ms .. 10 s */
/* The index of dispersion of counts (var / mean of the counts of events in
 * the bins of a scale) at each scale, of events added in time order: per
 * scale the bin being counted, its count and the sum of the squared counts
 * before it (one pass, no array of bins).  The one way IDC is counted: the
 * trace's (model_fid_get, compare's idc_*), the target of fit's gap order
 * (the calibration's windows of the trace) and the generator's
 * (model_gen_idc).  Init, add each event, then model_idc_end per scale. */
struct model_idc {
	int64_t cur[MODEL_IDC_SCALES]; /* the bin being counted (-1: none yet) */
	/* model_idc_add: every time in [lo, hi) is in bin cur (empty: none) */
	int64_t lo[MODEL_IDC_SCALES], hi[MODEL_IDC_SCALES];
	double c[MODEL_IDC_SCALES];  /* cur's events */
	double s2[MODEL_IDC_SCALES]; /* the sum of the squared counts before cur */
	double n;		     /* events */
};
void model_idc_init(struct model_idc *a);
/* An event in bin B of scale S (a scale's bins in order; not counted in
 * a->n: model_idc_add and model_idc_add_d do that). */
static inline void model_idc_bin(struct model_idc *a, int s, int64_t b)
{
	if (b != a->cur[s]) {
		a->s2[s] += a->c[s] * a->c[s];
		a->cur[s] = b;
		a->c[s] = 0;
	}
	a->c[s]++;
}
/* An event at T ns from the start (integer times: the trace's), in bin
 * T / scale at each scale.  A time in the bin of the one before costs no
 * division: one a scale only at a new bin (five an I/O otherwise). */
static inline void model_idc_add(struct model_idc *a, int64_t t)
{
	for (int s = 0; s < MODEL_IDC_SCALES; s++) {
		if (t >= a->lo[s] && t < a->hi[s]) {
			a->c[s]++;
			continue;
		}
		int64_t sc = model_idc_scale_ns[s], b = t / sc;
		model_idc_bin(a, s, b);
		/* [b sc, (b + 1) sc): bin b of a time >= 0 (none else cached) */
		a->lo[s] = t < 0 ? 0 : b * sc;
		a->hi[s] = t < 0 ? 0 : a->lo[s] > INT64_MAX - sc ? INT64_MAX : a->lo[s] + sc;
	}
	a->n++;
}
/* An event at T ns from the start (double times: the generator's), in bin
 * (int64_t)(T / scale) at each scale. */
static inline void model_idc_add_d(struct model_idc *a, double t)
{
	for (int s = 0; s < MODEL_IDC_SCALES; s++)
		model_idc_bin(a, s, (int64_t)(t / (double)model_idc_scale_ns[s]));
	a->n++;
}
/* The IDC at scale S over NB bins (the span's, empty ones too; the caller
 * says how many, each its own way): -1 with fewer than 8 bins or no
 * events.  It closes S's last bin: once a scale, after the last add. */
double model_idc_end(struct model_idc *a, int s, double nb);
/* The IDC at each scale (-1: fewer than 8 bins) of the arrival times M
 * generates for SEED over its first NWIN windows (times only: no device,
 * address or size), and, BURST not NULL, its bursts' lengths added to
 * BURST (MODEL_BURST_HIST counts); 0 or an error. */
int model_gen_idc(const struct model *m, uint64_t seed, size_t nwin, double *idc, uint64_t *burst);
/* A burst: arrivals less than this apart (fiu's ten 4 KiB reads 38 us
 * apart, its bursts 1 ms and more apart); model_gen_idc counts bursts of
 * each length in MODEL_BURST_HIST bins, the last one for that many I/O
 * and more. */
#define MODEL_BURST_NS 100000
#define MODEL_BURST_HIST 4096
struct model_fid_dev {
	uint16_t id;
	uint64_t n;
	int64_t *off, *gap; /* offsets of addressed I/O; gaps between arrivals */
	size_t noff, ngap;
};
struct model_fid {
	uint64_t n, bytes;
	int64_t t0, dur;
	double idc[MODEL_IDC_SCALES]; /* index of dispersion of counts; -1: < 8 bins */
	double locality;	      /* share within 1 MiB of one of the device's last 100 I/O */
	double reuse;		      /* share of I/O touching a 4 KiB block touched before */
	double raw;		      /* share of reads on blocks written before; -1: none */
	uint64_t ws_read, ws_write;   /* unique 4 KiB blocks read, written */
	double sample_rate;	      /* of the block set: 1 exact, else SHARDS */
	int64_t *rdist;		      /* reuse distances, in I/O since the last touch */
	int64_t *size_seq, *size_rnd;
	size_t nrdist, nseq, nrnd;
	size_t ndev;
	struct model_fid_dev dev[MODEL_MAX_DEVS];
};
int model_fid_get(struct model_fid *f, const struct model_trace *tr);
void model_fid_free(struct model_fid *f);

/* One figure of a comparison, its target and whether it holds. */
struct model_check {
	char name[48];
	double a, b;	 /* the two traces' figures (NAN: not per trace) */
	double value;	 /* what the target is about (KS, ratio, difference) */
	char target[32]; /* for people: "<= 0.05", "within 20%" */
	int ok;		 /* 1 holds, 0 not, -1 not measurable (not counted) */
};
#define MODEL_MAX_CHECKS (40 + 2 * MODEL_MAX_DEVS)

struct model_cmp {
	double ks_size, ks_gap, ks_jump, ks_run;
	double op_diff;	       /* max |read fraction diff| over ops */
	double read_a, read_b; /* read fractions */
	double bmodel_a[REEL_OP__COUNT + 1], bmodel_b[REEL_OP__COUNT + 1];
	double bmodel_diff; /* max over all/read/write present in both */
	double pqrs_diff;
	int latency; /* both have latencies */
	double demerit_us, demerit_pct, mean_lat_a_us, mean_lat_b_us;
	uint64_t na, nb;
	/* the window series: 256 windows of A's duration, each trace from its
	 * first arrival */
	double win_corr, win_moved;
	size_t nchecks;
	struct model_check check[MODEL_MAX_CHECKS];
	int ok; /* every measurable check holds */
};
int model_compare(const struct model_trace *a, const struct model_trace *b, struct model_cmp *c);

/* ---- MODEL.json bounds (the reader refuses beyond them) --------------- */
#define MODEL_JSON_MAX_DEPTH 16
#define MODEL_JSON_MAX_BYTES (64u << 20)
#define MODEL_JSON_MAX_NODES (4u << 20)

int cmd_model(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
