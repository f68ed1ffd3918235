/*
 * model/fit_device.c - fit one device's address space: alignment and
 * extent, sequential runs, jumps (local ones as an empirical CDF, remote
 * ones as a Markov chain over regions of equal mass plus each hot block),
 * the hottest 10% of the space, read/write overlap; the re-use of run
 * starts (a stack-distance model: the share of run starts touching a 4 KiB
 * block touched before, and how many I/O of the device back).
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/blockmap.h"
#include "model/fit_internal.h"

#define LOCAL_LIMIT (1u << 20)
/* the alignment: the coarsest grid (a power of two, at most 4 KiB) that
 * holds this share of the device's I/O (offset and length): a few I/O off
 * the 4 KiB grid (msr: 2 of 1,055) do not put every generated one off it,
 * and a device mostly off it keeps its grid (disksim's disk 8, a log of
 * 512-byte aligned writes, 94% off 4 KiB: on 4 KiB its next write's jump
 * of 512 B to 2 KiB became a block's gap, and its re-use, 73% of its I/O
 * a block shared with the write before, fell to 32%) */
#define ALIGN_HOLD 0.8
/* the blocks whose re-use the walk follows: exact up to 2^18 distinct
 * blocks (8 MiB of table), then sampled (SHARDS) */
#define FIT_REUSE_EXACT (1u << 18)
#define SEG_MEMO 256
/* resumes' filter: buckets an op (64 ends in 1024: 6% of the misses scan) */
#define RS_FILTER_BITS 10
#define RS_FILTER (1u << RS_FILTER_BITS)
/* a hot block kept with its own period (MODEL_MAX_CYCLE): touched at
 * least so often; its intervals in bins exact under 64 I/O, then 8 an
 * octave (within 6%) */
#define CYCLE_MIN 9
#define CYCLE_BINS (FIT_BIN_EXACT + 8 * 58)
#define CYCLE_SEQ 8192 /* run starts looked at for the hot blocks' order */
#define NEAR_LOOK 4096 /* fresh remote starts looked at for p_near, about */
struct hot_touch {
	uint64_t first, last, n;
	uint32_t h[CYCLE_BINS];
};
/* the middle of bin K */
static double cycle_value(uint32_t k)
{
	if (k < FIT_BIN_EXACT)
		return k;
	int b = (int)(k - FIT_BIN_EXACT) / 8 + 6; /* its octave: 2^b, 8 bins of 2^(b-3) */
	return round((double)fit_bin_lo(k) + ldexp(1, b - 4));
}

/* a region one block wide holding >= 1% of the offsets: a hot block */
static int regc_hot(const struct model_devspace *d, uint32_t r)
{
	double below, at;
	model_dist_cdf(&d->addr, (double)d->bound[r], &below, &at);
	return at - below >= 0.01;
}

static uint32_t region_search(const struct model_devspace *d, uint64_t a)
{
	/* the last lo with bound[lo] <= a (bound[0] is 0), without branches */
	if (a >= d->bound[d->nregions])
		return d->nregions - 1;
	const uint64_t *b = d->bound;
	uint32_t lo = 0, len = d->nregions;
	while (len > 1) {
		uint32_t half = len / 2;
		lo = b[lo + half] <= a ? lo + half : lo;
		len -= half;
	}
	return lo;
}

/* region lookups through a table of the region at each 1/4096th of the
 * extent: then a search between two neighbouring entries */
#define RLUT 4096
struct region_lut {
	int sh;
	uint16_t at[RLUT + 1];
};
static void region_lut_init(struct region_lut *l, const struct model_devspace *d)
{
	int sh = 0;
	while ((d->extent >> sh) >= RLUT)
		sh++;
	l->sh = sh;
	for (size_t j = 0; j <= RLUT; j++)
		l->at[j] = (uint16_t)region_search(d, (uint64_t)j << sh);
}
static inline uint32_t region_of(const struct model_devspace *d, const struct region_lut *l,
				 uint64_t a)
{
	if (a >= d->bound[d->nregions])
		return d->nregions - 1;
	size_t j = (size_t)(a >> l->sh);		      /* a < extent: j < RLUT */
	uint32_t lo = l->at[j], len = l->at[j + 1] - lo + 1u; /* the region is in there */
	while (len > 1) {
		uint32_t half = len / 2;
		lo = d->bound[lo + half] <= a ? lo + half : lo;
		len -= half;
	}
	return lo;
}

static int u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* a read whose block is also written, or a write whose block is also read
 * (HITS[1], HITS[0]): the I/O's own op marked its block in the first pass,
 * so that is a block of BOTH, the blocks read and written (overlap_both) */
static inline void overlap_count(uint8_t op, uint64_t off, int sh, const uint8_t *both,
				 size_t *hits)
{
	uint64_t b = off >> sh; /* sh >= 20: the 1 MiB block's */
	hits[op == REEL_OP_READ] += (both[b / 8] >> (b % 8)) & 1;
}
static void overlap_set(struct model_devspace *d, const size_t *hits, size_t nr, size_t nw)
{
	d->rw_overlap_read = nr ? (double)hits[1] / (double)nr : 0;
	d->rw_overlap_write = nw ? (double)hits[0] / (double)nw : 0;
}

/* ---- one device ------------------------------------------------------------ */
/* What one I/O counted in its device's re-use odds (reuse_step): a run
 * start (sampled, re-using at DIST) or a run's next I/O in a run starting
 * with a re-use (sampled, re-using; the start's op), in phase PH. */
struct reuse_note {
	uint32_t dist;
	uint8_t ph, what;
};
enum {
	NOTE_START = 1,	  /* a run start */
	NOTE_RUN = 2,	  /* a run's next I/O, the run starting with a re-use */
	NOTE_RUN_W = 4,	  /* that run's start a write */
	NOTE_SAMPLED = 8, /* a block of it sampled */
	NOTE_REUSED = 16  /* and one touched before */
};

/* What the passes over one device's I/O share. */
struct dev_fit {
	struct model_devspace *d;
	const struct dev_pre *pre;
	struct samp addr, jumps, runs, loc; /* offsets; every jump; run lengths; local jumps */
	struct samp rdist;   /* reuse distances of run starts, in I/O of the device */
	struct samp rdist_w; /* the same of writes' starts */
	uint64_t di;	     /* the walk's I/O of the device so far */
	uint64_t starts_sampled, starts_reused;	 /* run starts with a sampled block; re-used */
	uint64_t rrun_sum, rrun_cnt;		 /* runs starting with a re-use: I/O, runs */
	uint64_t rrun_sum_op[2], rrun_cnt_op[2]; /* the same by the start's op: reads, writes */
	int run_op;				 /* the current run's start: a write */
	uint64_t op_sampled[2], op_reused[2];	 /* run starts sampled, re-using: reads, writes */
	uint64_t rd_starts, rd_unread; /* reads' starts sampled; on blocks written, not yet read */
	uint64_t sz_sampled[MODEL_REUSE_SIZES], sz_reused[MODEL_REUSE_SIZES]; /* and by size */
	uint32_t sz_reg[MODEL_REUSE_SIZES][MODEL_MAX_REGIONS]; /* sampled, by size and region */
	uint64_t ph_sampled[MODEL_MAX_PHASES][2], ph_reused[MODEL_MAX_PHASES][2]; /* by phase, op */
	uint64_t rcont, rcont_reused; /* the next I/O of runs starting with a re-use; re-using */
	uint64_t rcont_op[2], rcont_op_reused[2]; /* the same by the I/O's op: reads, writes */
	int run_reused;				  /* the current run started with a re-use */
	/* the re-use pass (pass_add): the last MODEL_PASS_BACK I/O's places;
	 * the I/O taking part so far (re-using or last touched before, twice
	 * or more), re-using ones; too many, or a last touch out of the ring */
	struct model_pass_io *pr, *pc;
	uint32_t npc, nprt;
	uint64_t prt_dist; /* the re-uses' distances, summed */
	int pass_over;
	/* the re-uses going back together so far (pass_burst): the last one's
	 * index, the first's, how many, their distances' range, the range of
	 * the I/O they go back to; the longest burst of MODEL_PASS_BURST or
	 * more: its re-uses, its I/O and those it goes back to (pb, npb) */
	uint64_t bu_at, bu_first, bu_lo, bu_hi, bu_tlo, bu_thi;
	uint32_t bu_n, bb_n, npb;
	struct model_pass_io *pb;
	/* what each I/O of the ring counted in the re-use odds; those of the
	 * longest burst's I/O, beside pb (reuse_net takes them out) */
	struct reuse_note *pn, *pbn;
	int64_t rrun; /* the re-use pass's run so far */
	/* the re-use pass's blocks sampled at the map's rate (smap_shift):
	 * one bit a block of [0, smap_n) (reuse_smap), or NULL; the blocks
	 * gathered so far */
	uint64_t *smap, smap_n, gathered;
	int smap_shift;
	/* or, on a small extent read over and over, every block's entry in
	 * an array of its own beside the block map (reuse_dir): the gather
	 * leaves its I/O to the touches, a block one access, not a probe */
	struct bmap_dir dir;
	uint64_t *tc;	  /* remote jumps: from x to region counts */
	uint8_t *wb, *rb; /* blocks written, read; after the first pass wb: both (overlap_both) */
	size_t nwb;	  /* their bytes */
	int sh;		  /* block = offset >> sh */
	int done;	  /* nothing more to fit (no addressed I/O) */
	size_t k, nr, nw; /* I/O; reads, writes */
	size_t hits[2];	  /* writes, reads in blocks also of the other op (overlap_count) */
	uint64_t nruns, nlocal; /* the first pass's count of runs, of local jumps (at most) */
	uint64_t sl[1024], slo, shi, sc; /* I/O per slice of the extent; the current slice */
	uint64_t *sb;			 /* where each slice starts (slice_bounds) */
	double sinv;			 /* 1024 / extent (slice_near) */
	/* the walk: the end of the I/O before, the run so far, the region */
	uint64_t prev_end;
	int seen;
	int64_t run;
	uint32_t reg;
	size_t nloc, nrem;
	struct region_lut lut;
	uint64_t regc[MODEL_MAX_REGIONS], regr[MODEL_MAX_REGIONS]; /* I/O, reads */
	uint32_t segc[MODEL_SEGS][MODEL_MAX_REGIONS]; /* I/O by MODEL_SEGS-th of the walk */
	uint64_t seg, seg_next; /* the walk's MODEL_SEGS-th so far, the I/O starting the next */
	/* the ends of the device's last MODEL_RESUME_BACK I/O of each op
	 * (reads, the others), a ring each; remote jumps to one of them */
	uint64_t rs_end[2][MODEL_RESUME_BACK], rs_n[2], nresume;
	uint32_t rs_last[2][RS_FILTER]; /* by hash bucket, its latest end's count (rs_push) */
	/* of several devices: the walk's remote jumps that resume, a bit an
	 * I/O (by wi), for near_start in the re-use pass (by di: the same I/O,
	 * the same count), which asked the rings again, built again */
	uint64_t *rsb;
	/* near starts (the re-use pass, near_start): the offsets of the
	 * device's last MODEL_NEAR_BACK I/O, a ring; fresh remote starts seen,
	 * looked at (every nr_stride-th), near one of those I/O; the chance
	 * shares of those looked at, summed; the near ones' I/O back, jumps */
	uint64_t nr_off[MODEL_NEAR_BACK], nr_n, nr_seen, nr_look, nr_near, nr_stride;
	uint32_t nr_at; /* nr_n % MODEL_NEAR_BACK: the ring's next slot */
	double nr_chance;
	struct samp nr_back, nr_jump;
	/* run lengths by the region the run starts in: I/O, runs */
	uint32_t run_reg;
	uint64_t run_sum[MODEL_MAX_REGIONS], run_cnt[MODEL_MAX_REGIONS];
	/* run starts by their op (reads, the others) and the region the
	 * jump leaves (where the I/O before ended): local jumps, all
	 * (regions.p_local) */
	uint64_t locr[2][MODEL_MAX_REGIONS], stcr[2][MODEL_MAX_REGIONS];
	uint8_t hotr[MODEL_MAX_REGIONS];
	/* the hot blocks' touches (I/O starting in each hot region): where
	 * the walk first and last saw one, and the I/O between them */
	struct hot_touch *ht;
	uint8_t hidx[MODEL_MAX_REGIONS]; /* the region's in ht */
	uint64_t nstart;		 /* run starts of the walk */
	uint8_t *cyseq;			 /* the first CYCLE_SEQ starts: hot idx + 1, or 0 */
	uint8_t *cylen;			 /* their sizes in align units (at most 255) */
	/* the longest runs so far (MODEL_MAX_LONG): where and when each
	 * started; the current run's start, the walk's I/O so far */
	struct long_cand {
		uint64_t off, at, bytes, head;
		uint32_t len, reg;
	} lc[MODEL_MAX_LONG];
	uint32_t nlc, lmin; /* how many; once MODEL_MAX_LONG, the shortest's (long_add) */
	uint64_t run_off, run_at, run_bytes, run_head, wi;
};

/* A device's own ops and sizes (device_own), by op (reads, the others),
 * on a trace of several devices: its I/O at their phases' op mix, and its
 * own (op_bias); its run starts' sizes, and the means of their phases'
 * sizes summed (dsize). */
struct own_fit {
	double op_exp[2], sz_exp[2];
	uint64_t op_seen[2];
	struct samp dsz[2];
};

/* Every device at once. */
/* Pass 4's sizes given sequentiality, and the devices' own ops and sizes,
 * counted on the thread of the phases' chain (model_devs_sizes) beside the
 * re-use pass on the second thread (model_devs_seq, the pass's longest
 * part): a state of their own, out of the lines the second thread writes. */
struct seg_count {
	struct own_fit own[MODEL_MAX_DEVS];
	uint64_t end[MODEL_MAX_DEVS]; /* where the device's I/O before ended */
	uint8_t seen[MODEL_MAX_DEVS];
	uint8_t live[MODEL_MAX_DEVS]; /* the device's I/O counted (not done) */
	/* the segments of sizes seen (a few sizes recur): phase, op and size
	 * as a key (+ 1, 0 empty) in a direct-mapped table */
	uint64_t key[SEG_MEMO];
	uint32_t seg[SEG_MEMO];
};

struct devs_fit {
	size_t nd;
	int naive;
	const int8_t *slot;  /* device id -> index */
	struct bmap bm;	     /* blocks touched, of every device (the re-use pass) */
	uint64_t smap_bytes; /* the devices' sample maps (reuse_smap) */
	uint64_t dir_bytes;  /* their direct extents (reuse_dir) */
	struct reuse_batch *rb;
	int near;      /* several devices in the re-use pass: their near starts fitted */
	int hash_avx2; /* the blocks hashed by reuse_hashed_avx2 (the processor has AVX2) */
	/* pass 4's blocks gathered on the main thread (model_devs_pregathers);
	 * the devices whose blocks are (by index, not done); the map's shift
	 * as the re-use pass last published it (atomic: the main thread reads
	 * it while the pass goes on) */
	int pregather;
	uint8_t pre_live[MODEL_MAX_DEVS];
	int shift_pub;
	/* size given sequentiality: per phase, op and segment of the phase's
	 * size CDF, I/O and those that continue a run ([..][0], [..][1]) */
	const struct model *m;
	const int *wphase;
	uint64_t (*sq)[REEL_OP__COUNT][MODEL_DIST_MAXK][2];
	struct seg_count *sz; /* their counting's own state (model_devs_sizes) */
	/* the re-use pass's: where each device's I/O before ended */
	uint64_t sq_end[MODEL_MAX_DEVS];
	uint8_t sq_seen[MODEL_MAX_DEVS];
	struct dev_fit f[MODEL_MAX_DEVS];
};

static void dev_fit_free(struct dev_fit *f)
{
	samp_free(&f->addr);
	samp_free(&f->jumps);
	samp_free(&f->runs);
	samp_free(&f->loc);
	samp_free(&f->rdist);
	samp_free(&f->rdist_w);
	samp_free(&f->nr_back);
	samp_free(&f->nr_jump);
	free(f->pr);
	free(f->pc);
	free(f->pb);
	free(f->pn);
	free(f->pbn);
	reel_free_big(f->smap, (f->smap_n + 63) / 64 * 8);
	bmap_dir_free(&f->dir);
	free(f->tc);
	free(f->rsb);
	free(f->wb);
	free(f->rb);
	free(f->sb);
	free(f->ht);
	free(f->cyseq);
	free(f->cylen);
}

void model_devs_free(struct devs_fit *df)
{
	if (!df)
		return;
	for (size_t k = 0; k < df->nd; k++)
		dev_fit_free(&df->f[k]);
	bmap_free(&df->bm);
	free(df->rb);
	free(df->sq);
	for (size_t k = 0; df->sz && k < df->nd; k++) {
		samp_free(&df->sz->own[k].dsz[0]);
		samp_free(&df->sz->own[k].dsz[1]);
	}
	free(df->sz);
	free(df);
}

/* Alignment, extent and local limit; the one region of a device without
 * addressed I/O (then 1: nothing more to fit) or of the naive model. */
static int device_space(struct model_devspace *d, const struct dev_pre *pre, int naive)
{
	uint64_t maxend = pre->maxend, on = pre->nd; /* the I/O on the grid of 2^k */
	uint32_t align = 1;
	for (int k = 0; k < FIT_ALIGN_BITS && pre->nd; k++) {
		on -= pre->grid[k];
		if ((double)on < ALIGN_HOLD * (double)pre->nd)
			break;
		align <<= 1;
	}
	d->align = align;
	uint64_t ext = (maxend + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
	if (d->capacity >= maxend && d->capacity > 0)
		ext = d->capacity;
	if (!ext)
		ext = 1u << 20;
	d->extent = ext;
	d->local_limit = LOCAL_LIMIT < ext / 4 ? LOCAL_LIMIT : ext / 4;
	if (!pre->nd || naive) {
		d->nregions = 1;
		d->bound[0] = 0;
		d->bound[1] = ext;
		d->weight[0] = 1;
		d->row[0] = d->row[1] = 0;
		d->p_local = 0;
		int64_t one = 1;
		model_dist_fit(&d->run, &one, 1);
		if (!naive)
			return 1;
	}
	return 0;
}

static int dev_fit_init(struct dev_fit *f, struct model_devspace *d, const struct dev_pre *pre,
			uint64_t cap)
{
	size_t nd = pre->nd;
	f->d = d;
	f->pre = pre;
	f->slo = 1;
	if (samp_init(&f->addr, nd, fit_stride(nd, cap)))
		return REEL_E_NOMEM;
	/* read/write overlap at 1 MiB granularity (coarser on huge devices:
	 * at most 2^26 blocks), with one bitmap per direction */
	f->sh = 20;
	while ((d->extent >> f->sh) >= (1u << 26))
		f->sh++;
	f->nwb = (size_t)(d->extent >> f->sh) / 8 + 1;
	f->wb = calloc(f->nwb, 1);
	f->rb = calloc(f->nwb, 1);
	if (!f->wb || !f->rb || !(f->sb = malloc(1025 * sizeof(*f->sb))))
		return REEL_E_NOMEM;
	slice_bounds(d->extent, f->sb);
	f->sinv = 1024 / (double)d->extent;
	return 0;
}

int model_devs_init(struct devs_fit **dfp, struct model *m, const struct fit_scan *sc, uint64_t cap)
{
	struct devs_fit *df = calloc(1, sizeof(*df));
	*dfp = df;
	if (!df)
		return REEL_E_NOMEM;
	df->nd = m->ndevs;
	df->naive = m->naive;
	df->slot = sc->slot;
	for (size_t k = 0; k < df->nd; k++) {
		struct dev_fit *f = &df->f[k];
		if ((f->done = device_space(&m->devs[k], &sc->pre[k], m->naive))) {
			f->d = &m->devs[k];
			continue;
		}
		if (dev_fit_init(f, &m->devs[k], &sc->pre[k], cap))
			return REEL_E_NOMEM;
	}
	return 0;
}

void model_devs_stretches(const struct devs_fit *df, const struct fit_cols *c,
			  struct dev_stretches *out)
{
	uint64_t live = 0; /* the devices not done: a chunk's, not a stretch's */
	for (size_t k = 0; k < df->nd; k++)
		live |= (uint64_t)!df->f[k].done << k;
	for (size_t a = 0, s = 0; a < c->n; a += DEV_STRETCH, s++)
		fit_dev_stretch(df->slot, live, df->nd, c->dev, c->op, a,
				c->n - a < DEV_STRETCH ? c->n : a + DEV_STRETCH, &out->in_chunk[s]);
}

/* Pass 2's part of one device (model_devs_offsets): its records
 * A + IX[0 .. M) of C in order (IX NULL: records A to A + M, flushes
 * passed), its state in locals (the stores of every I/O, the sample's
 * int64_t, the slices' and the bitmaps', made the compiler reload f's
 * fields at each). */
static inline void dev_offsets(struct dev_fit *f, const struct fit_cols *c, size_t a,
			       const uint16_t *ix, size_t m)
{
	const uint8_t *op = c->op;
	const uint64_t *offs = c->off;
	const uint32_t *len = c->len;
	struct samp addr = f->addr;
	uint64_t nk = f->k, slo = f->slo, shi = f->shi, sc = f->sc, pend = f->prev_end,
		 nruns = f->nruns, nlocal = f->nlocal, lim = f->d->local_limit;
	size_t nr = f->nr, nw = f->nw;
	int seen = f->seen, sh = f->sh;
	uint64_t *sl = f->sl;
	const uint64_t *sb = f->sb;
	double sinv = f->sinv;
	uint8_t *rb = f->rb, *wb = f->wb;
	for (size_t x = 0; x < m; x++) {
		size_t i = a + (ix ? ix[x] : x);
		if (!ix && op[i] == REEL_OP_FLUSH)
			continue;
		uint64_t off = offs[i];
		nk++;
		samp_add(&addr, (int64_t)off);
		if (!(off >= slo && off < shi)) {
			sc = slice_near(sb, off, sinv);
			slo = sb[sc];
			shi = sb[sc + 1];
		}
		sl[sc]++;
		uint64_t b = off >> sh; /* sh >= 20: the 1 MiB block's */
		size_t rd = op[i] == REEL_OP_READ;
		uint8_t *bits = rd ? rb : wb;
		bits[b / 8] |= (uint8_t)(1u << (b % 8));
		nr += rd;
		nw += rd ^ 1;
		if (seen) {
			int64_t j = (int64_t)(off - pend);
			uint64_t aj = j < 0 ? (uint64_t)(-j) : (uint64_t)j;
			nruns += j != 0;
			nlocal += j != 0 && aj <= lim;
		} else {
			seen = 1;
			nruns = 1;
		}
		pend = off + len[i];
	}
	f->addr = addr;
	f->k = nk;
	f->slo = slo;
	f->shi = shi;
	f->sc = sc;
	f->prev_end = pend;
	f->nruns = nruns;
	f->nlocal = nlocal;
	f->nr = nr;
	f->nw = nw;
	f->seen = seen;
}

static inline void dev_walk(struct dev_fit *f, const struct fit_cols *c, size_t a,
			    const uint16_t *ix, size_t m, int naive);

/* Pass 2's offsets (WALK 0: dev_offsets) or pass 3's walk (dev_walk) of the
 * devices whose index is in MINE, a device at a time in each stretch of
 * DEV_STRETCH records (c->stretches, which fit_pass makes for several devices;
 * one device: its records in order). */
static void devs_each(struct devs_fit *df, const struct fit_cols *c, uint64_t mine, int walk)
{
	/* without stretches every record is device 0's (fit.c makes them
	 * exactly where the model has several devices) */
	assert(c->stretches || df->nd == 1);
	for (size_t a = 0, s = 0; a < c->n; a += DEV_STRETCH, s++) {
		const struct dev_stretch *st = c->stretches ? &c->stretches->in_chunk[s] : NULL;
		size_t m = c->n - a < DEV_STRETCH ? c->n - a : DEV_STRETCH;
		for (uint32_t j = 0; j < (st ? st->nd : 1); j++) {
			uint32_t d = st ? st->devs[j] : 0;
			const uint16_t *ix = st ? st->ix + st->at[j] : NULL;
			size_t k = st ? (size_t)st->at[j + 1] - st->at[j] : m;
			if (!(mine >> d & 1) || (!st && df->f[0].done))
				continue;
			if (walk)
				dev_walk(&df->f[d], c, a, ix, k, df->naive);
			else
				dev_offsets(&df->f[d], c, a, ix, k);
		}
	}
}

/* Pass 2: the offsets (sampled), the blocks read and written, the I/O
 * per slice of the extent (for the hottest 10%); runs and local jumps
 * counted, to size the walk's samples.  Of the devices whose index is in
 * MINE only (bit k: index k): each device's state its own, two threads
 * may take a part each; a device at a time in each stretch of the chunk
 * (model_devs_stretches). */
void model_devs_offsets(struct devs_fit *df, const struct fit_cols *c, uint64_t mine)
{
	devs_each(df, c, mine, 0);
}

/* The blocks both read and written, in wb (overlap_count); rb's memory
 * goes. */
static void overlap_both(struct dev_fit *f)
{
	for (size_t i = 0; i < f->nwb; i++)
		f->wb[i] &= f->rb[i];
	free(f->rb);
	f->rb = NULL;
}

/* The share of I/O in the hottest 10% of the 1024 slices. */
static void device_hot10(struct dev_fit *f)
{
	qsort(f->sl, 1024, sizeof(f->sl[0]), u64cmp);
	uint64_t top = 0;
	for (size_t s = 1024 - 102; s < 1024; s++)
		top += f->sl[s];
	f->d->hot10 = f->k ? (double)top / (double)f->k : 0;
}

/* Equal-mass bounds, plus each hot block (a point mass of the offsets
 * holding >= 1%) as a region of its own, so that jumps between hot blocks
 * keep their exact source and destination. */
static void device_regions(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	uint64_t ext = d->extent, align = d->align;
	samp_fit(&f->addr, &d->addr);
	samp_free(&f->addr);
	uint32_t R = (uint32_t)(f->k / 32);
	if (R < 1)
		R = 1;
	if (R > MODEL_MAX_REGIONS / 2)
		R = MODEL_MAX_REGIONS / 2;
	uint64_t cand[MODEL_MAX_REGIONS + 2 * MODEL_DIST_POINTS + 2];
	size_t nc = 0;
	for (uint32_t r = 1; r < R; r++)
		cand[nc++] = (uint64_t)model_dist_inv(&d->addr, (double)r / R) / align * align;
	for (uint32_t i = 0; i + 1 < d->addr.nk; i++)
		if (d->addr.v[i] == d->addr.v[i + 1] && d->addr.c[i + 1] - d->addr.c[i] >= 0.01) {
			cand[nc++] = (uint64_t)d->addr.v[i] / align * align;
			cand[nc++] = (uint64_t)d->addr.v[i] / align * align + align;
		}
	model_sort_i64((int64_t *)cand, nc);
	uint32_t nreg = 0;
	d->bound[0] = 0;
	for (size_t i = 0; i < nc && nreg + 1 < MODEL_MAX_REGIONS; i++)
		if (cand[i] > d->bound[nreg] && cand[i] < ext)
			d->bound[++nreg] = cand[i];
	d->bound[++nreg] = ext;
	d->nregions = nreg;
	for (uint32_t r = 0; r < nreg; r++)
		f->hotr[r] = d->bound[r + 1] - d->bound[r] <= align && regc_hot(d, r);
}

/* Of the live devices, those (bit k: index k) whose COST (a device's
 * samples to sort) makes about half of all: the longest first, each to
 * the lighter half (ties to the second thread's).  Between the passes the
 * main thread waited for the second thread's regions and devices' fit
 * (its own part there is short: the b-models, PQRS, the phases' groups;
 * the phases' sizes), so each takes a half (MINE in model_devs_regions,
 * model_devs_finish); each device's state is its own: the same model. */
static uint64_t devs_half(const struct devs_fit *df, const uint64_t *cost)
{
	uint32_t ix[MODEL_MAX_DEVS];
	size_t n = 0;
	for (size_t k = 0; k < df->nd; k++) { /* by cost, descending (insertion) */
		size_t j = n++;
		for (; j > 0 && cost[ix[j - 1]] < cost[k]; j--)
			ix[j] = ix[j - 1];
		ix[j] = (uint32_t)k;
	}
	uint64_t mine = 0, here = 0, there = 0;
	for (size_t j = 0; j < n; j++) {
		uint32_t k = ix[j];
		if (df->f[k].done)
			continue;
		if (here < there) {
			here += cost[k];
			mine |= 1ull << k;
		} else {
			there += cost[k];
		}
	}
	return mine;
}

uint64_t model_devs_half(const struct devs_fit *df, int finish)
{
	uint64_t cost[MODEL_MAX_DEVS];
	for (size_t k = 0; k < df->nd; k++) {
		const struct dev_fit *f = &df->f[k];
		cost[k] = finish ? (uint64_t)f->jumps.k + f->runs.k + f->loc.k + 1
				 : (uint64_t)f->addr.k + 1;
	}
	return devs_half(df, cost);
}

void model_devs_regions(struct devs_fit *df, uint64_t mine)
{
	for (size_t i = 0; i < df->nd; i++) {
		struct dev_fit *f = &df->f[i];
		if (f->done || !(mine >> i & 1))
			continue;
		device_hot10(f);
		overlap_both(f);
		f->seen = 0;
		if (df->naive)
			samp_free(&f->addr);
		else
			device_regions(f);
	}
}

size_t model_devs_region_counts(const struct devs_fit *df, uint64_t *n)
{
	size_t k = 0;
	for (size_t i = 0; i < df->nd && !df->naive; i++) {
		const struct dev_fit *f = &df->f[i];
		if (f->done)
			continue;
		n[k++] = f->pre->nd ? f->pre->nd - 1 : 0;
		n[k++] = f->nruns;
		n[k++] = f->nlocal;
		n[k++] = f->nruns;
	}
	return k;
}

int model_devs_walk_init(struct devs_fit *df, uint64_t cap)
{
	size_t live = 0; /* devs_live's: near starts only among others */
	for (size_t k = 0; k < df->nd; k++)
		live += !df->f[k].done && df->f[k].pre->nd;
	for (size_t i = 0; i < df->nd; i++) {
		struct dev_fit *f = &df->f[i];
		if (f->done || df->naive)
			continue;
		uint32_t nreg = f->d->nregions;
		size_t nd = f->pre->nd;
		region_lut_init(&f->lut, f->d);
		f->seg = 0; /* device_step's segments: none past the first without I/O */
		f->seg_next = f->k ? (f->k + MODEL_SEGS - 1) / MODEL_SEGS : UINT64_MAX;
		/* the jumps' stride as model_dist_fit would take it from all of them */
		if (samp_init(&f->jumps, nd, fit_stride(nd ? nd - 1 : 0, cap)) ||
		    samp_init(&f->runs, f->nruns, fit_stride(f->nruns, cap)) ||
		    samp_init_upto(&f->loc, f->nlocal, fit_stride(f->nlocal, cap)) ||
		    samp_init_upto(&f->rdist, f->nruns, fit_stride(f->nruns, cap)) ||
		    samp_init_upto(&f->rdist_w, f->nruns, fit_stride(f->nruns, cap)) ||
		    !(f->tc = calloc((size_t)nreg * nreg, sizeof(*f->tc))) ||
		    (live > 1 && nd && !(f->rsb = calloc((nd + 63) / 64, sizeof(*f->rsb)))))
			return REEL_E_NOMEM;
		uint32_t nh = 0;
		for (uint32_t r = 0; r < nreg; r++)
			f->hidx[r] = (uint8_t)(f->hotr[r] ? nh++ : 0);
		if (nh && (!(f->ht = calloc(nh, sizeof(*f->ht))) ||
			   !(f->cyseq = malloc(CYCLE_SEQ)) || !(f->cylen = malloc(CYCLE_SEQ))))
			return REEL_E_NOMEM;
	}
	return 0;
}

/* The sampled blocks of a batch of I/O, gathered (hashed, their slots
 * prefetched) before the batch touches them: the block map's lookups are
 * cache misses, and one at a time each waits for the one before. */
#define RB_IO 32    /* I/O a batch */
#define RB_CAP 8192 /* blocks a batch (>= FIT_REUSE_SPAN: one I/O fits) */
struct reuse_batch {
	uint64_t k[RB_CAP], h[RB_CAP];
	uint32_t at[RB_IO + 1]; /* I/O j's blocks: [at[j], at[j + 1]) */
	int8_t dev[RB_IO];	/* I/O j's device (its index), or -1: a flush, a device done */
};

/* The sample map: once the block map samples (its shift > 0), a device's
 * blocks sampled at its rate as bits, so that the pass hashes only those
 * (a sampled block's hash is its slot), not every block of every I/O to
 * know whether it is (a third of the pass's time at 10M I/O, about 9
 * blocks an I/O).  Made from every block of the device's extent (one hash
 * each) once an eighth or less is sampled (SMAP_SHIFT: after the halvings
 * that come soonest, each of which would hash again the half of the bits
 * set) where the blocks still to come are at least twice as many, or
 * sooner, from the first halving, where they are SMAP_EARLY times as many
 * (a small extent read over and over in large I/O: gen's chromium at 10M
 * I/O, ~48 blocks an I/O in 524,288, hashes 238M blocks, not 476M; the
 * 10M gen_reel trace's 16M-block extent keeps the eighth: its map's bits
 * set hashed again at each halving and its words' misses cost more than
 * they saved), within SMAP_MAX bytes for all the devices; when the rate
 * halves again, the bits set are hashed once more and those no longer
 * sampled cleared.  The sample is the same as hashing every block: the
 * map, the same model. */
#define SMAP_MAX (4u << 20)
#define SMAP_SHIFT 3
#define SMAP_EARLY 16
static void reuse_smap(struct devs_fit *df, struct dev_fit *f, uint16_t dev)
{
	int sh = df->bm.shift;
	uint64_t lim = sh < 64 ? UINT64_MAX >> sh : 0, nw = (f->smap_n + 63) / 64;
	f->smap_shift = sh;
	if (f->smap) { /* fewer sampled: those no longer cleared */
		for (uint64_t w = 0; w < nw; w++) {
			uint64_t keep = 0;
			for (uint64_t bits = f->smap[w]; bits; bits &= bits - 1) {
				uint64_t z = (uint64_t)__builtin_ctzll(bits);
				keep |= (uint64_t)(mix64((uint64_t)dev << 52 ^ (w << 6 | z)) <= lim)
					<< z;
			}
			f->smap[w] = keep;
		}
		return;
	}
	uint64_t n = (f->pre->maxend + (1u << BMAP_BLOCK_SHIFT) - 1) >> BMAP_BLOCK_SHIFT,
		 left = f->pre->blocks - f->gathered;
	nw = (n + 63) / 64;
	if (n < 64 || left < 2 * n || (sh < SMAP_SHIFT && left / SMAP_EARLY < n) ||
	    df->smap_bytes + nw * 8 > SMAP_MAX || !(f->smap = reel_malloc_big(nw * 8)))
		return; /* not worth it, or no room: hashed as they come */
	f->smap_n = n;
	df->smap_bytes += nw * 8;
	uint64_t key = (uint64_t)dev << 52;
	for (uint64_t w = 0; w < nw; w++) { /* a tenth of the pass's work at 10M I/O */
		uint64_t bits = 0;
		if (sh <= 33) /* mix64(k) <= lim, one step less */
			for (uint64_t x = 0; x < 64; x++)
				bits |= (uint64_t)(mix64_top(key ^ (w << 6 | x)) <= lim) << x;
		else
			for (uint64_t x = 0; x < 64; x++)
				bits |= (uint64_t)(mix64(key ^ (w << 6 | x)) <= lim) << x;
		f->smap[w] = bits;
	}
	if (n & 63) /* past the extent: none */
		f->smap[nw - 1] &= ~0ull >> (64 - (n & 63));
}

/* The direct extent: on an extent of at most DIR_MAX / 8 blocks (DIR_MAX:
 * bytes of entries for all the devices together) whose I/O touch DIR_PAYS
 * times as many blocks or more, every block's entry (its hash's level and
 * last touch: bmap_dir) in an array, made at the pass's start (one mix64 a
 * block of the extent, against one a block touched).  On gen's chromium at
 * 10M I/O, 476M blocks touched in an extent of 524,288 (4 MiB of entries;
 * the words' ops and last indexes 256 KiB more, not counted in DIR_MAX),
 * the gather of a hash table of the extent and the probes of the block
 * map's 8 MiB were ~1.2 s of the second thread (the re-use pass's
 * instructions 2.9x fewer without them).  The map keeps and answers the
 * same with it or without it (no room: the table). */
#define DIR_MAX (4u << 20)
#define DIR_PAYS 16
static void reuse_dir(struct devs_fit *df, struct dev_fit *f, uint16_t dev)
{
	uint64_t n = (f->pre->maxend + (1u << BMAP_BLOCK_SHIFT) - 1) >> BMAP_BLOCK_SHIFT;
	if (n < 64 || f->pre->blocks / DIR_PAYS < n || df->dir_bytes + n * 8 > DIR_MAX)
		return; /* not worth it, or no room: the table */
	if (bmap_dir_init(&f->dir, n, (uint64_t)dev << 52))
		return; /* no room: the table */
	df->dir_bytes += n * 8;
}

/* The sampled blocks B0..B1 of device F (id DEV), in order, from its
 * sample map into RB from M on: the new count.  Inlined in both copies of
 * the gather (the AVX2 one called it: +168 M instructions on kernel-src's
 * 10M fit). */
static inline __attribute__((always_inline)) uint32_t
smap_gather(const struct dev_fit *f, uint64_t dev, uint64_t b0, uint64_t b1, struct reuse_batch *rb,
	    uint32_t m)
{
	for (uint64_t w = b0 >> 6; w <= b1 >> 6; w++) {
		uint64_t bits = f->smap[w];
		if (w == b0 >> 6)
			bits &= ~0ull << (b0 & 63);
		if (w == b1 >> 6)
			bits &= ~0ull >> (63 - (b1 & 63));
		for (; bits; bits &= bits - 1) {
			uint64_t k = (dev << 52) ^ (w << 6 | (uint64_t)__builtin_ctzll(bits));
			rb->k[m] = k;
			rb->h[m++] = mix64(k);
		}
	}
	return m;
}

/* Gather the sampled blocks of the I/O from A on (flushes and devices done
 * have none) into RB: the end of the batch.  AVX2: the blocks hashed by
 * reuse_hashed_avx2, inlined in reuse_gather_avx2 (called once an I/O it
 * was ~80 instructions a call, 22 of them its frame and constants: no
 * fewer than reuse_hashed's inlined). */
static inline __attribute__((always_inline)) size_t reuse_gather_w(struct devs_fit *df,
								   struct reuse_batch *rb,
								   const struct fit_cols *c,
								   size_t a, int avx2)
{
	uint32_t m = 0;
	size_t j = 0, nj = c->n - a < RB_IO ? c->n - a : RB_IO;
	/* bmap_sampled as one comparison: the top `shift` bits of h are 0 */
	int sh = df->bm.shift;
	uint64_t lim = sh < 64 ? UINT64_MAX >> sh : 0;
	/* the columns and the slots in locals: the stores below (of uint64_t,
	 * as c->n is) would reload them at every I/O */
	const uint64_t *off = c->off + a;
	const uint32_t *len = c->len + a;
	const uint8_t *op = c->op + a;
	const uint16_t *dv = c->dev + a;
	const int8_t *slot = df->slot;
	rb->at[0] = 0;
	/* the sample maps' words of the next batch (of this one too at a
	 * chunk's start): fetched while this one is touched (this batch's,
	 * fetched just before the gather reads them, came late: 5% more
	 * samples of the pass at 10M I/O) */
	for (size_t x = a ? RB_IO : 0, xe = c->n - a < 2 * RB_IO ? c->n - a : 2 * RB_IO; x < xe;
	     x++) {
		const struct dev_fit *f = &df->f[slot[dv[x]]];
		if (f->smap && (off[x] >> BMAP_BLOCK_SHIFT) < f->smap_n)
			__builtin_prefetch(&f->smap[off[x] >> (BMAP_BLOCK_SHIFT + 6)]);
	}
	for (; j < nj; j++) {
		int8_t k = slot[dv[j]];
		struct dev_fit *f = &df->f[k];
		rb->dev[j] = op[j] != REEL_OP_FLUSH && !f->done ? k : -1;
		if (rb->dev[j] >= 0) {
			uint64_t b0, b1, dev = dv[j];
			reuse_blocks(off[j], len[j], &b0, &b1);
			/* room for the blocks it keeps: a direct extent's none */
			if (!f->dir.e && m + (b1 - b0 + 1) > RB_CAP)
				break;
			f->gathered += b1 - b0 + 1;
			if (f->dir.e) { /* none: touched in place (reuse_step) */
				rb->at[j + 1] = m;
				continue;
			}
			if (sh && f->smap_shift != sh)
				reuse_smap(df, f, (uint16_t)dev);
			if (f->smap && b1 < f->smap_n) { /* the sampled ones, in order */
				m = smap_gather(f, dev, b0, b1, rb, m);
				rb->at[j + 1] = m;
				continue;
			}
			m = avx2 ? reuse_hashed_avx2(dev, b0, b1, lim, rb->k, rb->h, m)
				 : reuse_hashed(dev, b0, b1, lim, rb->k, rb->h, m);
		}
		rb->at[j + 1] = m;
	}
	for (uint32_t x = 0; x < m; x++)
		bmap_prefetch(&df->bm, rb->h[x]);
	return a + j;
}
static size_t reuse_gather_plain(struct devs_fit *df, struct reuse_batch *rb,
				 const struct fit_cols *c, size_t a)
{
	return reuse_gather_w(df, rb, c, a, 0);
}
#if FIT_HASH_AVX2
__attribute__((target("avx2"))) static size_t
reuse_gather_avx2(struct devs_fit *df, struct reuse_batch *rb, const struct fit_cols *c, size_t a)
{
	return reuse_gather_w(df, rb, c, a, 1);
}
#else
#define reuse_gather_avx2 reuse_gather_plain
#endif
static size_t reuse_gather(struct devs_fit *df, struct reuse_batch *rb, const struct fit_cols *c,
			   size_t a)
{
	return df->hash_avx2 ? reuse_gather_avx2(df, rb, c, a) : reuse_gather_plain(df, rb, c, a);
}

/* The blocks of one I/O (device F; its sampled blocks, gathered, in KB and
 * HB, or in its direct extent B0..B1) touched: reuse_touch_keys. */
static int reuse_touch(struct bmap *bm, struct dev_fit *f, const uint64_t *kb, const uint64_t *hb,
		       size_t nb, uint64_t b0, uint64_t b1, int rd, uint64_t *dist, int *unread)
{
	uint64_t i = f->di++;
	if (f->dir.e)
		return reuse_touch_dir(bm, &f->dir, b0, b1, i, rd, dist, unread);
	return reuse_touch_keys(bm, kb, hb, nb, i, rd, dist, unread);
}

/* A run of N I/O ends: one of the longest so far (replacing the shortest
 * of them when they are MODEL_MAX_LONG; the earlier of equal ones kept). */
static void long_add(struct dev_fit *f, int64_t n)
{
	uint32_t k = f->nlc;
	if (k == MODEL_MAX_LONG) {
		k = f->lmin;
		if ((int64_t)f->lc[k].len >= n)
			return;
	} else {
		f->nlc++;
	}
	f->lc[k] = (struct long_cand){f->run_off,
				      f->run_at,
				      f->run_bytes,
				      f->run_head,
				      (uint32_t)(n < UINT32_MAX ? n : UINT32_MAX),
				      f->run_reg};
	/* the one to replace next found when the set changes, not at every
	 * long run (the scan of 32 was 5% of the walk's instructions at 10M
	 * I/O: 414,714 runs of 8 or more, a few dozen kept) */
	if (f->nlc == MODEL_MAX_LONG) {
		uint32_t m = 0;
		for (uint32_t i = 1; i < f->nlc; i++)
			m = f->lc[i].len < f->lc[m].len ? i : m;
		f->lmin = m;
	}
}

/* A run of N I/O ends: its length, summed in the region it started in. */
static inline void run_end(struct dev_fit *f, int64_t n)
{
	if (n >= 8)
		long_add(f, n);
	samp_add(&f->runs, n);
	f->run_sum[f->run_reg] += (uint64_t)n;
	f->run_cnt[f->run_reg]++;
}

/* A run of N I/O ends (the re-use pass): the I/O of runs starting with a
 * re-use. */
static inline void reuse_run_end(struct dev_fit *f, int64_t n)
{
	f->rrun_sum += f->run_reused ? (uint64_t)n : 0;
	f->rrun_cnt += (uint64_t)f->run_reused;
	f->rrun_sum_op[f->run_op] += f->run_reused ? (uint64_t)n : 0;
	f->rrun_cnt_op[f->run_op] += (uint64_t)f->run_reused;
}

/* A run start's re-use (in phase P): counted, its distance sampled. */
static inline void reuse_start(struct dev_fit *f, int reuse, uint64_t dist, uint8_t op,
			       uint64_t off, uint32_t len, size_t p)
{
	int c = model_reuse_size(len);
	f->ph_sampled[p][op != REEL_OP_READ] += reuse >= 0;
	f->ph_reused[p][op != REEL_OP_READ] += reuse > 0;
	f->sz_sampled[c] += reuse >= 0;
	f->sz_reg[c][region_of(f->d, &f->lut, off)] += reuse >= 0;
	f->sz_reused[c] += reuse > 0;
	f->starts_sampled += reuse >= 0;
	f->op_sampled[op != REEL_OP_READ] += reuse >= 0;
	f->op_reused[op != REEL_OP_READ] += reuse > 0;
	f->run_reused = reuse > 0;
	f->run_op = op != REEL_OP_READ;
	if (reuse > 0) {
		f->starts_reused++;
		samp_add(&f->rdist, (int64_t)dist);
		if (op != REEL_OP_READ)
			samp_add(&f->rdist_w, (int64_t)dist);
	}
}

/* An I/O of the walk starting in the hot region R: the block touched. */
static void hot_touch(struct dev_fit *f, uint32_t r)
{
	struct hot_touch *t = &f->ht[f->hidx[r]];
	if (t->n)
		t->h[fit_bin(f->wi - t->last)]++;
	else
		t->first = f->wi;
	t->last = f->wi;
	t->n++;
}

/* A run start of the walk, LEN bytes: one more, and, of the first
 * CYCLE_SEQ, its hot block (or 0) and its size in align units. */
static inline void cycle_seq(struct dev_fit *f, uint32_t len)
{
	if (f->cyseq && f->nstart < CYCLE_SEQ) {
		uint64_t u = (len + f->d->align - 1) / f->d->align;
		f->cyseq[f->nstart] = (uint8_t)(f->hotr[f->reg] ? f->hidx[f->reg] + 1 : 0);
		f->cylen[f->nstart] = (uint8_t)(u < 255 ? u : 255);
	}
	f->nstart++;
}

/* The end of an I/O of op K into its ring, its count (mod 2^32) kept in
 * its hash bucket: a filter, so that resumes scans the ring only where
 * one of its ends falls in the bucket (the scan of 64 ends at every remote
 * jump was 40% of the walk's time).  The bucket's latest is all it needs:
 * no count taken out of the bucket of the end replaced (a counting filter
 * did, 9 instructions more an I/O); a count wrapped only scans again. */
static inline size_t rs_bucket(uint64_t x)
{
	return (size_t)((x * 0x9e3779b97f4a7c15ull) >> (64 - RS_FILTER_BITS));
}
static inline void rs_push(struct dev_fit *f, int k, uint64_t end)
{
	uint64_t n = f->rs_n[k]++;
	f->rs_end[k][n % MODEL_RESUME_BACK] = end;
	f->rs_last[k][rs_bucket(end)] = (uint32_t)n;
}

/* Whether OFF is where one of the last MODEL_RESUME_BACK I/O of op K
 * (0 reads, 1 the others) ended. */
static int resumes(const struct dev_fit *f, int k, uint64_t off)
{
	if ((uint32_t)f->rs_n[k] - f->rs_last[k][rs_bucket(off)] > MODEL_RESUME_BACK)
		return 0; /* none of the ring's ends in its bucket */
	uint64_t n = f->rs_n[k] < MODEL_RESUME_BACK ? f->rs_n[k] : MODEL_RESUME_BACK;
	for (uint64_t i = 0; i < n; i++)
		if (f->rs_end[k][i] == off)
			return 1;
	return 0;
}

/* One I/O of the walk, in time order: its jump, the run it ends or
 * extends, its region (weights) and a remote jump counted in a from x to
 * matrix; read/write overlap. */
static inline void device_step(struct dev_fit *f, uint8_t op, uint64_t off, uint32_t len)
{
	struct model_devspace *d = f->d;
	overlap_count(op, off, f->sh, f->wb, f->hits);
	uint32_t pr = f->reg; /* the region of the I/O before */
	/* sequential I/O mostly stays in the region of the one before */
	if (!(off >= d->bound[f->reg] && off < d->bound[f->reg + 1]))
		f->reg = region_of(d, &f->lut, off);
	f->regc[f->reg]++;
	f->regr[f->reg] += op == REEL_OP_READ;
	/* wi * MODEL_SEGS / k, its division out of the loop: the next
	 * segment's first I/O, ceil((seg + 1) * k / MODEL_SEGS) */
	while (f->wi >= f->seg_next) {
		uint64_t e = (++f->seg + 1) * f->k;
		f->seg_next = e / MODEL_SEGS + (e % MODEL_SEGS != 0);
	}
	f->segc[f->seg][f->reg]++;
	if (f->ht && f->hotr[f->reg])
		hot_touch(f, f->reg);
	if (f->seen) {
		int64_t j = (int64_t)(off - f->prev_end);
		samp_add(&f->jumps, j);
		if (j == 0) {
			f->run++;
		} else {
			cycle_seq(f, len);
			run_end(f, f->run);
			f->run = 1;
			f->run_reg = f->reg;
			f->run_off = off;
			f->run_at = f->wi;
			f->run_bytes = 0;
			uint64_t aj = j < 0 ? (uint64_t)(-j) : (uint64_t)j;
			if (!(f->prev_end >= d->bound[pr] && f->prev_end < d->bound[pr + 1]))
				pr = region_of(d, &f->lut, f->prev_end); /* where the jump leaves */
			f->stcr[op != REEL_OP_READ][pr]++;
			if (aj <= d->local_limit && !f->hotr[f->reg]) {
				samp_add(&f->loc, j);
				f->nloc++;
				f->locr[op != REEL_OP_READ][pr]++;
			} else {
				f->tc[(size_t)pr * d->nregions + f->reg]++;
				f->nrem++;
				int r = resumes(f, op != REEL_OP_READ, off);
				f->nresume += (size_t)r;
				if (f->rsb)
					f->rsb[f->wi >> 6] |= (uint64_t)r << (f->wi & 63);
			}
		}
	} else {
		cycle_seq(f, len);
		f->seen = 1;
		f->run = 1;
		f->run_reg = f->reg;
		f->run_off = off;
		f->run_at = f->wi;
		f->run_bytes = 0;
	}
	f->prev_end = off + len;
	f->run_bytes += len;
	if (f->run == MODEL_LONG_HEAD) /* the head of a run that may be kept */
		f->run_head = f->run_bytes;
	f->wi++;
	rs_push(f, op != REEL_OP_READ, off + len);
}

/* Pass 3's walk of one device (model_devs_walk): its records as
 * dev_offsets'. */
static inline void dev_walk(struct dev_fit *f, const struct fit_cols *c, size_t a,
			    const uint16_t *ix, size_t m, int naive)
{
	const uint8_t *op = c->op;
	const uint64_t *off = c->off;
	const uint32_t *len = c->len;
	for (size_t x = 0; x < m; x++) {
		size_t i = a + (ix ? ix[x] : x);
		if (!ix && op[i] == REEL_OP_FLUSH)
			continue;
		if (naive) /* the reads in blocks also written and the converse */
			overlap_count(op[i], off[i], f->sh, f->wb, f->hits);
		else
			device_step(f, op[i], off[i], len[i]);
	}
}

/* Pass 3's walk of the devices whose index is in MINE (as
 * model_devs_offsets', a device at a time in each stretch). */
int model_devs_walk(struct devs_fit *df, const struct fit_cols *c, uint64_t mine)
{
	devs_each(df, c, mine, 1);
	return 0;
}

/* Whether a G statistic G on DF degrees of freedom is above the
 * chi-square's quantile at Z standard normal deviates (Wilson-Hilferty). */
static int g_rejects(double g, double df, double z)
{
	if (!(df > 0))
		return 0;
	double h = 2 / (9 * df), q = 1 - h + z * sqrt(h);
	return g > df * q * q * q;
}

/* Whether the chain of remote jumps (counts TC, NREG x NREG) differs from
 * rows drawn by the regions' weights alone: the G statistic of its rows
 * against the weights above the chi-square's quantile at MODEL_CHAIN_Z
 * (Wilson-Hilferty) for its degrees of freedom, each row's regions of
 * some weight less one.  A chain whose jumps go where the weights do
 * carries only its sampling noise: at 16,384 cells it is as large as the
 * jumps are many. */
static int chain_differs(const struct model_devspace *d, const uint64_t *tc, uint32_t nreg)
{
	double g = 0, df = 0, ws = 0;
	uint32_t nw = 0;
	for (uint32_t x = 0; x < nreg; x++) {
		ws += d->weight[x];
		nw += d->weight[x] > 0;
	}
	for (uint32_t fr = 0; fr < nreg && ws > 0; fr++) {
		const uint64_t *c = &tc[(size_t)fr * nreg];
		uint64_t n = 0;
		for (uint32_t x = 0; x < nreg; x++)
			n += c[x];
		if (!n)
			continue;
		df += nw - 1;
		for (uint32_t x = 0; x < nreg; x++) {
			if (!c[x])
				continue;
			if (!(d->weight[x] > 0))
				return 1; /* a jump where the weights put none */
			g += 2 * (double)c[x] * log((double)c[x] * ws / ((double)n * d->weight[x]));
		}
	}
	return g_rejects(g, df, MODEL_CHAIN_Z);
}

/* The chain TC (NREG x NREG) summed into d->nblk blocks of regions, as
 * many as its jumps support (B * B <= its jumps / MODEL_CHAIN_JUMPS, at
 * least 1), each of equal numbers of regions (d->blk), in TC's first
 * B x B cells; its non-zero cells into *NT (left as they are where the
 * jumps support every region).  0 or REEL_E_NOMEM. */
static int chain_blocks(struct model_devspace *d, uint64_t *tc, uint32_t nreg, size_t *nt)
{
	uint64_t n = 0;
	for (size_t x = 0; x < (size_t)nreg * nreg; x++)
		n += tc[x];
	uint32_t nb = (uint32_t)sqrt((double)n / MODEL_CHAIN_JUMPS);
	if (nb >= nreg)
		return 0;
	nb = nb < 1 ? 1 : nb;
	for (uint32_t k = 0; k <= nb; k++)
		d->blk[k] = (uint16_t)((uint64_t)k * nreg / nb);
	uint64_t *bc = calloc((size_t)nb * nb, sizeof(*bc));
	if (!bc)
		return REEL_E_NOMEM;
	for (uint32_t a = 0, i = 0; a < nb; a++)
		for (; i < d->blk[a + 1]; i++)
			for (uint32_t b = 0, x = 0; b < nb; b++)
				for (; x < d->blk[b + 1]; x++)
					bc[(size_t)a * nb + b] += tc[(size_t)i * nreg + x];
	*nt = 0;
	for (size_t x = 0; x < (size_t)nb * nb; x++)
		*nt += (tc[x] = bc[x]) != 0;
	free(bc);
	d->nblk = nb;
	return 0;
}

/* The remote jumps as a sparse chain: the non-zero cells, row by row, as
 * cumulative shares; none where more than MODEL_CHAIN_FREE cells go as the
 * weights do (chain_differs), else over blocks of regions (chain_blocks). */
static int device_transitions(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	uint32_t nreg = d->nregions;
	uint64_t *tc = f->tc;
	size_t nt = 0;
	for (size_t x = 0; x < (size_t)nreg * nreg; x++)
		nt += tc[x] != 0;
	d->nblk = 0;
	if (nt > MODEL_CHAIN_FREE && !chain_differs(d, tc, nreg)) {
		memset(tc, 0, (size_t)nreg * nreg * sizeof(*tc));
		nt = 0;
	} else if (nt > MODEL_CHAIN_FREE) {
		int e = chain_blocks(d, tc, nreg, &nt);
		if (e)
			return e;
		nreg = d->nblk ? d->nblk : nreg;
	}
	d->tr_to = malloc((nt + 1) * sizeof(*d->tr_to));
	d->tr_p = malloc((nt + 1) * sizeof(*d->tr_p));
	if (!d->tr_to || !d->tr_p)
		return REEL_E_NOMEM;
	size_t t = 0;
	memset(d->row, 0, sizeof(d->row));
	for (uint32_t fr = 0; fr < nreg; fr++)
		for (uint32_t x = 0; x < nreg; x++)
			if (tc[(size_t)fr * nreg + x]) {
				d->tr_to[t] = (uint16_t)x;
				d->tr_p[t] = (double)tc[(size_t)fr * nreg + x];
				d->row[fr + 1]++;
				t++;
			}
	d->ntr = (uint32_t)nt;
	for (uint32_t r = 0; r < nreg; r++)
		d->row[r + 1] += d->row[r];
	for (uint32_t r = 0; r < nreg; r++) { /* counts -> cumulative shares */
		double s = 0;
		for (uint32_t x = d->row[r]; x < d->row[r + 1]; x++)
			s += d->tr_p[x];
		double c = 0;
		for (uint32_t x = d->row[r]; x < d->row[r + 1]; x++) {
			c += d->tr_p[x];
			d->tr_p[x] = c / s;
		}
	}
	return 0;
}

static int long_cmp(const void *a, const void *b)
{
	const struct long_cand *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The long runs kept (those of at least MODEL_LONG_SHARE of the device's
 * I/O, in the order they start), taken out of their region's mean run. */
static void device_long(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	double thr = fmax(8, MODEL_LONG_SHARE * (double)f->wi);
	qsort(f->lc, f->nlc, sizeof(*f->lc), long_cmp);
	d->nlong = 0;
	for (uint32_t i = 0; i < f->nlc; i++) {
		const struct long_cand *c = &f->lc[i];
		if ((double)c->len < thr)
			continue;
		/* its head kept where its bytes are not spread evenly */
		double even = (double)MODEL_LONG_HEAD / c->len, hs = (double)c->head / c->bytes;
		d->longrun[d->nlong++] = (struct model_long_run){
		    c->off, c->bytes, c->len, (float)((double)c->at / (double)f->wi),
		    c->bytes && fabs(hs - even) > MODEL_HEAD_APART * even ? c->head : 0};
		f->run_sum[c->reg] -= c->len;
		f->run_cnt[c->reg]--;
	}
}

/* The share of run starts that are local jumps, the device's and, kept
 * where the regions differ (regions.p_local_read, p_local_write), each
 * region's for each op (reads, the others): of the op's starts whose jump
 * leaves the region, where they are further than MODEL_LOCAL_Z binomial
 * standard deviations (MODEL_LOCAL_Z_FEW on a device of fewer than
 * MODEL_LOCAL_FEW starts) from the device's share (with a prior of
 * MODEL_LOCAL_PRIOR starts at it), else the device's.  Written where they
 * differ from the device's by MODEL_LOCAL_APART on average over the
 * starts.  Boot-nspawn: 90% of the reads leaving its 0.8 MiB band local,
 * 10-17% of those leaving the regions above it, 53% over the device. */
static void local_fill(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	double p = (f->nloc + f->nrem) ? (double)f->nloc / (double)(f->nloc + f->nrem) : 0;
	double apart = 0, n = 0;
	double z = f->nloc + f->nrem < MODEL_LOCAL_FEW ? MODEL_LOCAL_Z_FEW : MODEL_LOCAL_Z;
	d->p_local = p;
	for (int k = 0; k < 2; k++) {
		uint64_t nk = 0;
		for (uint32_t r = 0; r < d->nregions; r++) {
			double nr = (double)f->stcr[k][r], l = (double)f->locr[k][r];
			int apart_r = nr > 0 && fabs(l / nr - p) > z * sqrt(p * (1 - p) / nr);
			d->p_local_r[k][r] =
			    (float)(apart_r ? (l + MODEL_LOCAL_PRIOR * p) / (nr + MODEL_LOCAL_PRIOR)
					    : p);
			apart += nr * fabs(d->p_local_r[k][r] - p);
			n += nr;
			nk += f->stcr[k][r];
		}
		d->p_local_op[k] = nk > 0;
	}
	d->p_local_fitted = n > 0 && apart / n >= MODEL_LOCAL_APART;
}

/* The regions' read shares, kept where the regions hold the ops apart:
 * the mean distance of a region's read share from the device's, over its
 * I/O, at least MODEL_OP_APART of the most it can be, 2p(1-p) for a
 * device reading a share p (its reads and writes in regions of their
 * own), and beyond the noise of where an op's I/O fall: a G-test of
 * regions x op at MODEL_OP_Z.  Relative, as a device of few writes (or
 * reads) can be only a little apart: git's real trace 0.216 of 0.218,
 * its 10M model's output 0.186 (0.85 of it; an absolute 0.2 dropped its
 * read shares, and its model then wrote 1.44x the blocks and read them);
 * boot-nspawn 0.96, chromium 0.95, compile 0.92, boot 0.89, fiu 0.97; the
 * 10M outputs' fiu 0.58, boot-nspawn 0.64.  Off: kernel-src 0.31, compile
 * 10M 0.26 (their regions mix the ops), disksim's disks 0.11-0.19.  The
 * G-test holds off noise where an op has few I/O: disksim's disk 8 (8
 * reads of 150 in 8 regions) is 0.77 of the most at 3.0 deviates, its
 * model's output (14 reads in 26 regions) 0.41 at -0.2; every device kept
 * is at 16 or more.  A device apart by MODEL_OP_APART_ABS (the rule before)
 * is kept whatever the G-test, so the relative rule only adds devices (a
 * device of 80 I/O can be 0.21 apart and under the G-test's 5 deviates:
 * round 30's reviewer). */
static void device_ops(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	uint64_t nr = 0;
	for (uint32_t r = 0; r < d->nregions; r++)
		nr += f->regr[r];
	double all = f->k ? (double)nr / (double)f->k : 0, apart = 0, g = 0, nreg = 0;
	for (uint32_t r = 0; r < d->nregions; r++) {
		double n = (double)f->regc[r], o[2] = {(double)f->regr[r], n - (double)f->regr[r]};
		d->read_share[r] = f->regc[r] ? (float)(o[0] / n) : 0;
		apart += n * fabs(d->read_share[r] - all);
		nreg += f->regc[r] > 0;
		for (int k = 0; k < 2; k++)
			g += o[k] > 0 ? 2 * o[k] * log(o[k] / (n * (k ? 1 - all : all))) : 0;
	}
	double mean = f->k ? apart / (double)f->k : 0;
	d->read_share_fitted =
	    f->k && (mean >= MODEL_OP_APART_ABS || (mean >= MODEL_OP_APART * 2 * all * (1 - all) &&
						    g_rejects(g, nreg - 1, MODEL_OP_Z)));
}

/* The regions' weights by MODEL_SEGS-th of the device's I/O, kept where
 * they drift (MODEL_SEG_Z, MODEL_SEG_APART): the G statistic of the
 * segments' region counts against the weights (a test of homogeneity,
 * (regions of some I/O - 1) x (MODEL_SEGS - 1) degrees of freedom) over
 * the chi-square's quantile (Wilson-Hilferty), and the segments' total
 * variation from the weights, on average, at least MODEL_SEG_APART: a
 * device of many I/O rejects at any level on drift too small to move its
 * offsets' KS, and its model is left as it was.  Not where the regions
 * hold the ops apart (read_share: the phases' op mix moves the draws
 * there; compile's offsets out 3 -> 12 of seeds 1-128 with them) nor on
 * a device of as many remote jumps as regions (its chain's rows carry
 * its drift: blkparse's regions visited in order, out 7 -> 12 of seeds
 * 129-256 with them); disk 8 moves by local jumps (3 remote, 59 local). */
static void device_segs(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	double g = 0, tv = 0, nw = 0, n = (double)f->k;
	d->seg_fitted = 0;
	if (d->nregions < 2 || f->k < 2 * MODEL_SEGS || d->read_share_fitted ||
	    f->nrem >= d->nregions)
		return;
	for (uint32_t r = 0; r < d->nregions; r++)
		nw += f->regc[r] > 0;
	for (int k = 0; k < MODEL_SEGS; k++) {
		double ns = 0, t = 0;
		for (uint32_t r = 0; r < d->nregions; r++)
			ns += f->segc[k][r];
		for (uint32_t r = 0; r < d->nregions && ns > 0; r++) {
			double o = f->segc[k][r], e = ns * d->weight[r];
			g += o > 0 ? 2 * o * log(o / e) : 0;
			t += fabs(o / ns - d->weight[r]);
		}
		tv += t / 2 * ns / n;
	}
	if (!g_rejects(g, (nw - 1) * (MODEL_SEGS - 1), MODEL_SEG_Z) || tv < MODEL_SEG_APART)
		return;
	d->seg_fitted = 1;
	for (int k = 0; k < MODEL_SEGS; k++) {
		double ns = 0;
		for (uint32_t r = 0; r < d->nregions; r++)
			ns += f->segc[k][r];
		for (uint32_t r = 0; r < d->nregions; r++)
			d->seg_w[k][r] = ns > 0 ? (float)(f->segc[k][r] / ns) : (float)d->weight[r];
	}
}

/* The regions' weights, jumps, runs and local jumps from the walk. */
static void device_fill(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	overlap_set(d, f->hits, f->nr, f->nw);
	for (uint32_t r = 0; r < d->nregions; r++)
		d->weight[r] = f->k ? (double)f->regc[r] / (double)f->k : 1.0 / d->nregions;
	device_ops(f);
	device_segs(f);
	samp_fit(&f->jumps, &d->jump);
	/* for people: coarser (0.02, or half the sampling noise if larger) */
	double je = d->jump.n ? 0.5 / sqrt((double)d->jump.n) : 0;
	model_dist_coarsen(&d->jump, je > 0.02 ? je : 0.02);
	samp_fit(&f->runs, &d->run);
	device_long(f);
	d->run_mean_fitted = 1;
	for (uint32_t r = 0; r < d->nregions; r++)
		d->run_mean[r] =
		    f->run_cnt[r] ? (float)((double)f->run_sum[r] / (double)f->run_cnt[r]) : 0;
	samp_fit(&f->loc, &d->local);
	local_fill(f);
	d->p_resume = f->nresume >= 8 ? (double)f->nresume / (double)f->nrem : 0;
}

/* Where the run starts of the sizes mostly fresh start, on a device whose
 * starts mostly re-use (gen draws their regions from it): each region's
 * share of the starts of the size classes of 8 starts or more re-using
 * under half of them. */
static void fresh_share_fill(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	uint64_t n = 0;
	d->fresh_share_fitted = 0;
	if (!(d->p_reuse >= MODEL_REUSE_HOT) || d->nregions < 2)
		return;
	memset(d->fresh_share, 0, sizeof(d->fresh_share));
	for (int k = 0; k < MODEL_REUSE_SIZES; k++) {
		if (f->sz_sampled[k] < 8 || !(d->p_reuse_size[k] < 0.5))
			continue;
		for (uint32_t r = 0; r < d->nregions; r++) {
			d->fresh_share[r] += (float)f->sz_reg[k][r];
			n += f->sz_reg[k][r];
		}
	}
	for (uint32_t r = 0; n >= 8 && r < d->nregions; r++)
		d->fresh_share[r] = (float)((double)d->fresh_share[r] / (double)n);
	d->fresh_share_fitted = n >= 8;
}

/* The re-use of run starts by phase (NPH of them), where the phases' shares
 * of an op differ from the op's by MODEL_REUSE_APART on average over its
 * starts (fiu's writes: 0.21, its journal re-written in one phase, fresh
 * writes in another); else none. */
static void reuse_phase_fill(struct dev_fit *f, size_t nph)
{
	struct model_devspace *d = f->d;
	int apart[2] = {0, 0};
	d->reuse_ph_fitted = 0;
	for (int k = 0; k < 2 && nph >= 2; k++) {
		double dev = 0, n = 0;
		for (size_t p = 0; p < nph; p++) {
			uint64_t s = f->ph_sampled[p][k];
			d->p_reuse_ph[p][k] = s >= MODEL_REUSE_PHASE_MIN
						  ? (float)((double)f->ph_reused[p][k] / (double)s)
						  : -1;
			if (s >= MODEL_REUSE_PHASE_MIN) {
				dev += (double)s * fabs(d->p_reuse_ph[p][k] - d->p_reuse_op[k]);
				n += (double)s;
			}
		}
		apart[k] = n > 0 && dev >= MODEL_REUSE_APART * n;
	}
	for (int k = 0; k < 2 && nph >= 2; k++)
		for (size_t p = 0; p < nph; p++)
			d->p_reuse_ph[p][k] = apart[k] ? d->p_reuse_ph[p][k] : -1;
	d->reuse_ph_fitted = apart[0] || apart[1];
}

/* The re-use of run starts, from the re-use pass. */
static void device_reuse_fill(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	d->reuse_fitted = 1;
	d->p_reuse = f->starts_sampled ? (double)f->starts_reused / (double)f->starts_sampled : 0;
	/* kept from MODEL_UNREAD on, of MODEL_UNREAD_MIN read starts (fewer:
	 * noise), as MODEL.json keeps it: gen from the fit alike */
	d->p_unread =
	    f->rd_starts >= MODEL_UNREAD_MIN ? (double)f->rd_unread / (double)f->rd_starts : 0;
	d->p_unread = d->p_unread >= MODEL_UNREAD ? d->p_unread : 0;
	samp_fit(&f->rdist, &d->reuse_dist);
	memset(&d->reuse_dist_w, 0, sizeof(d->reuse_dist_w));
	/* the writes' own from 32 of them, where they are the fewer re-using
	 * starts (else the device's are mostly theirs: boot) */
	if (f->op_reused[1] >= 32 && 2 * f->op_reused[1] < f->starts_reused)
		samp_fit(&f->rdist_w, &d->reuse_dist_w);
	d->reuse_run = f->rrun_cnt ? (float)((double)f->rrun_sum / (double)f->rrun_cnt) : 0;
	d->reuse_cont = f->rcont ? (float)((double)f->rcont_reused / (double)f->rcont) : 1;
	for (int k = 0; k < 2; k++) /* fewer than 8 runs: the pooled mean */
		d->reuse_run_op[k] =
		    f->rrun_cnt_op[k] >= 8
			? (float)((double)f->rrun_sum_op[k] / (double)f->rrun_cnt_op[k])
			: d->reuse_run;
	for (int k = 0; k < 2; k++) /* fewer than 8: the pooled share */
		d->reuse_cont_op[k] =
		    f->rcont_op[k] >= 8
			? (float)((double)f->rcont_op_reused[k] / (double)f->rcont_op[k])
			: d->reuse_cont;
	for (int k = 0; k < 2; k++)
		d->p_reuse_op[k] = f->op_sampled[k]
				       ? (float)((double)f->op_reused[k] / (double)f->op_sampled[k])
				       : (float)d->p_reuse;
	for (int k = 0; k < MODEL_REUSE_SIZES; k++)
		d->p_reuse_size[k] =
		    f->sz_sampled[k] >= 8
			? (float)((double)f->sz_reused[k] / (double)f->sz_sampled[k])
			: (float)d->p_reuse; /* fewer starts: noise */
	fresh_share_fill(f);
}

/* The quantile C of a hot block's intervals (T: N - 1 of them). */
static float cycle_quantile(const struct hot_touch *t, double c)
{
	double want = c * (double)(t->n - 2), cum = 0;
	uint32_t k = 0, last = 0;
	for (; k < CYCLE_BINS; k++)
		if (t->h[k]) {
			last = k;
			if ((cum += t->h[k]) > want)
				break;
		}
	return (float)cycle_value(k < CYCLE_BINS ? k : last);
}

/*
 * The order the kept blocks are touched in (hot_order): of the trace's own
 * windows of FIT_CYCLE_PMIN to MODEL_MAX_ORDER run starts (the first
 * CYCLE_SEQ), the one whose replay in turn re-uses its blocks at distances
 * (run starts, cyclic) nearest the trace's (least KS; the shorter of equal
 * ones) that wraps from its last start to its first as the trace goes
 * somewhere (fit_cycle_order); with each start's size (hot_order_len).
 * msr's blocks are touched in a fixed order about every 25 I/O
 * (`db.caE.dbZIFJca.dbJcaIFH.`); each block's own period (hot_cycle alone)
 * kept the periods but not the blocks' places relative to one another.
 */
static void cycle_order(struct dev_fit *f, const uint8_t *kept)
{
	struct model_devspace *d = f->d;
	uint32_t n = f->nstart < CYCLE_SEQ ? (uint32_t)f->nstart : CYCLE_SEQ, p, i;
	uint64_t off[MODEL_MAX_CYCLE];
	if (!d->ncycle || n < 2 * MODEL_MAX_ORDER)
		return;
	uint8_t *s = f->cyseq;
	for (uint32_t k = 0; k < n; k++) /* hot idx + 1 -> kept block + 1 */
		s[k] = kept[s[k]];
	for (uint32_t k = 0; k < d->ncycle; k++)
		off[k] = d->cycle[k].off;
	struct fit_cycle_in in = {.s = s, .len = f->cylen, .off = off, .align = d->align, .n = n};
	fit_cycle_order(&in, &p, &i);
	if (!p)
		return;
	d->norder = p;
	memcpy(d->order, s + i, p);
	for (uint32_t k = 0; k < p; k++) /* a fresh place's size is drawn */
		d->order_len[k] = s[i + k] ? f->cylen[i + k] : 0;
}

/*
 * The hot blocks kept with their own period: on a device re-using most
 * starts, those touched at least CYCLE_MIN times (the most touched, at
 * most MODEL_MAX_CYCLE), where their re-uses are at least half the
 * device's re-using starts (else the region chain alone, as before).  A
 * cycle over hot blocks (msr's, each re-written every 5-34 I/O) is each
 * block's own period, which the first-order chain does not keep: it
 * revisited them 2-3 I/O apart, or past 32.
 */
static void device_cycle(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	uint32_t pick[MODEL_MAX_REGIONS], np = 0;
	uint8_t kept[MODEL_MAX_REGIONS + 1] = {0}; /* hot idx + 1 -> kept block + 1 */
	d->ncycle = d->norder = 0;
	if (!f->ht || d->p_reuse < MODEL_REUSE_HOT || !f->wi)
		return;
	for (uint32_t r = 0; r < d->nregions; r++)
		if (f->hotr[r] && f->ht[f->hidx[r]].n >= CYCLE_MIN)
			pick[np++] = r;
	for (uint32_t i = 1; i < np; i++) /* the most touched first (the earlier of equal ones) */
		for (uint32_t k = i;
		     k > 0 && f->ht[f->hidx[pick[k - 1]]].n < f->ht[f->hidx[pick[k]]].n; k--) {
			uint32_t x = pick[k];
			pick[k] = pick[k - 1];
			pick[k - 1] = x;
		}
	np = np < MODEL_MAX_CYCLE ? np : MODEL_MAX_CYCLE;
	double reused = 0;
	for (uint32_t i = 0; i < np; i++)
		reused += (double)(f->ht[f->hidx[pick[i]]].n - 1);
	if (!np || 2 * reused < d->p_reuse * (double)f->nstart)
		return;
	for (uint32_t r = 0; r < d->nregions; r++) { /* in region order */
		uint32_t i = 0;
		while (i < np && pick[i] != r)
			i++;
		if (i == np)
			continue;
		const struct hot_touch *t = &f->ht[f->hidx[r]];
		struct model_cycle *c = &d->cycle[d->ncycle++];
		c->off = d->bound[r];
		c->from = (float)((double)t->first / (double)f->wi);
		c->to = (float)((double)t->last / (double)f->wi);
		for (int q = 0; q < MODEL_CYCLE_Q; q++)
			c->q[q] = cycle_quantile(t, (double)q / (MODEL_CYCLE_Q - 1));
		kept[f->hidx[r] + 1] = (uint8_t)d->ncycle;
	}
	cycle_order(f, kept);
}

int model_devs_finish(struct devs_fit *df, uint64_t mine)
{
	for (size_t i = 0; i < df->nd; i++) {
		struct dev_fit *f = &df->f[i];
		if (f->done || !(mine >> i & 1))
			continue;
		if (df->naive) {
			overlap_set(f->d, f->hits, f->nr, f->nw);
			continue;
		}
		if (f->seen) /* the last run */
			run_end(f, f->run);
		device_fill(f);
		/* the samples are fitted: their memory goes before pass 4 (16
		 * devices' jumps and runs: 16 MiB at 10M I/O), but the local
		 * jumps', which pass_local fits again when it is whole */
		samp_free(&f->jumps);
		samp_free(&f->runs);
		if (f->loc.st != 1 || f->loc.n != f->loc.k)
			samp_free(&f->loc);
		int e = device_transitions(f);
		if (e)
			return e;
	}
	return 0;
}

/* ---- size given sequentiality ---------------------------------------------- */
#define OWN_SAMPLE (1u << 16)
#define OWN_BUDGET (1u << 20)
/* The devices the re-use pass fits (not done, with I/O): a device's own
 * ops, sizes and near starts are fitted only where there are several. */
static size_t devs_live(const struct devs_fit *df)
{
	size_t live = 0;
	for (size_t k = 0; k < df->nd; k++)
		live += !df->f[k].done && df->f[k].pre->nd;
	return live;
}

int model_devs_seq_init(struct devs_fit *df, const struct model *m, const int *wphase)
{
	df->m = m;
	df->wphase = wphase;
	memset(df->sq_seen, 0, sizeof(df->sq_seen));
	df->sq = calloc(m->nphases, sizeof(*df->sq));
	if (!(df->sz = calloc(1, sizeof(*df->sz))))
		return REEL_E_NOMEM;
	for (size_t k = 0; k < df->nd; k++)
		df->sz->live[k] = !df->f[k].done;
	df->rb = malloc(2 * sizeof(*df->rb)); /* one gathered ahead: model_devs_seq */
	/* a device's own run starts' sizes: at most OWN_SAMPLE of them, and
	 * OWN_BUDGET for all the devices (16 at OWN_SAMPLE; 64 devices' would
	 * be 4 Mi values, 32 MiB) */
	uint64_t nds[MODEL_MAX_DEVS];
	size_t live = 0;
	for (size_t k = 0; k < df->nd; k++)
		if (!df->f[k].done && df->f[k].pre->nd)
			nds[live++] = df->f[k].pre->nd;
	uint64_t own = fit_sample_cap(nds, live, OWN_BUDGET);
	own = own < OWN_SAMPLE ? own : OWN_SAMPLE;
	df->near = live > 1;
	for (size_t k = 0; k < df->nd; k++) { /* the re-use pass: none where it cannot help */
		struct dev_fit *f = &df->f[k];
		if (f->done || !f->pre->nd)
			continue;
		/* a device's own ops and sizes: only among others */
		size_t nd = f->pre->nd, st = fit_stride(nd, own);
		struct own_fit *o = &df->sz->own[k];
		if (live > 1 &&
		    (samp_init_upto(&o->dsz[0], nd, st) || samp_init_upto(&o->dsz[1], nd, st)))
			return REEL_E_NOMEM;
		f->pr = malloc(MODEL_PASS_BACK * sizeof(*f->pr));
		f->pc = malloc(2 * MODEL_MAX_PASS * sizeof(*f->pc));
		f->pb = malloc(MODEL_MAX_PASS * sizeof(*f->pb));
		f->pn = malloc(MODEL_PASS_BACK * sizeof(*f->pn));
		f->pbn = malloc(MODEL_MAX_PASS * sizeof(*f->pbn));
		f->nr_stride = 1 + f->nruns / NEAR_LOOK;
		reuse_dir(df, f, df->m->devs[k].id);
		uint64_t nl = f->nruns / f->nr_stride + 1;
		if (!f->pr || !f->pc || !f->pb || !f->pn || !f->pbn ||
		    samp_init_upto(&f->nr_back, nl, 1) || samp_init_upto(&f->nr_jump, nl, 1))
			return REEL_E_NOMEM;
	}
	if (!df->sq || !df->rb || bmap_init(&df->bm, FIT_REUSE_EXACT))
		return REEL_E_NOMEM;
	/* several devices only: msr's one (its map not sampling, every block
	 * kept) took 2.3% more instructions on the second thread with it,
	 * not found why (HISTORY.md, branch fit9); disksim's 16 -5.8% */
	df->hash_avx2 = FIT_HASH_AVX2 && reel_has_avx2() && df->near;
	df->pregather = df->near;
	df->shift_pub = 0;
	for (size_t k = 0; k < df->nd; k++) {
		struct dev_fit *f = &df->f[k];
		if (f->dir.e) {
			f->dir.next = df->bm.dir;
			df->bm.dir = &f->dir;
		}
		df->pre_live[k] = !f->done;
		/* reuse_smap's test: never a sample map where the blocks to come
		 * are fewer than twice the extent's from the start */
		uint64_t n = (f->pre->maxend + (1u << BMAP_BLOCK_SHIFT) - 1) >> BMAP_BLOCK_SHIFT;
		if (!f->done && (f->dir.e || (n >= 64 && f->pre->blocks >= 2 * n)))
			df->pregather = 0;
	}
	return 0;
}

int model_devs_pregathers(const struct devs_fit *df) { return df->pregather; }

static size_t pregather_plain(const struct fit_cols *c, const int8_t *slot, const uint8_t *live,
			      uint64_t lim, struct reuse_pre *p)
{
	return reuse_pregather_w(c, slot, live, lim, 0, p);
}
#if FIT_HASH_AVX2
__attribute__((target("avx2"))) static size_t pregather_avx2(const struct fit_cols *c,
							     const int8_t *slot,
							     const uint8_t *live, uint64_t lim,
							     struct reuse_pre *p)
{
	return reuse_pregather_w(c, slot, live, lim, 1, p);
}
#else
#define pregather_avx2 pregather_plain
#endif

void model_devs_pregather(const struct devs_fit *df, const struct fit_cols *c, struct reuse_pre *p)
{
	int sh = __atomic_load_n(&df->shift_pub, __ATOMIC_RELAXED);
	uint64_t lim = sh < 64 ? UINT64_MAX >> sh : 0;
	if (df->hash_avx2)
		pregather_avx2(c, df->slot, df->pre_live, lim, p);
	else
		pregather_plain(c, df->slot, df->pre_live, lim, p);
}

/* The segment of D (knot k to k + 1) that size X falls in: a point mass
 * (two knots of X) when there is one, else the segment spanning X. */
static uint32_t size_segment(const struct model_dist *d, double x)
{
	uint32_t lo = 0, hi = d->nk - 1; /* the first k with v[k + 1] >= x */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (d->v[mid + 1] >= x)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo + 2 < d->nk && d->v[lo + 1] == x && d->v[lo + 2] == x)
		lo++;
	return lo < d->nk - 1 ? lo : d->nk - 2;
}

/* The re-use of the device's I-th I/O at DIST joins the burst of re-uses
 * going back together (each within 4 I/O of the one before, their
 * distances within an eighth of the shortest: an earlier stretch of I/O
 * touched again in its order) or starts one.  A burst of MODEL_PASS_BURST
 * or more going back further than it spans is a pass however near the
 * device's other re-uses (chromium's closing burst: 12 re-writes 153-161
 * I/O back in 14 I/O); the longest is kept whole, its I/O and every I/O
 * of the stretch it goes back to, out of the ring (the draws put between
 * the re-uses' I/O alone ran on over the blocks the pass places next:
 * chromium's re-uses 69 -> 97 a seed). */
static void pass_burst(struct dev_fit *f, uint64_t i, uint64_t dist)
{
	uint64_t lo = dist < f->bu_lo ? dist : f->bu_lo, hi = dist > f->bu_hi ? dist : f->bu_hi;
	uint64_t t = i - dist;
	if (f->bu_n && i - f->bu_at <= 4 && (hi - lo) * 8 <= lo) {
		f->bu_n++;
		f->bu_lo = lo;
		f->bu_hi = hi;
		f->bu_tlo = t < f->bu_tlo ? t : f->bu_tlo;
		f->bu_thi = t > f->bu_thi ? t : f->bu_thi;
	} else {
		f->bu_n = 1;
		f->bu_first = i;
		f->bu_lo = f->bu_hi = dist;
		f->bu_tlo = f->bu_thi = t;
	}
	f->bu_at = i;
	uint64_t nt = f->bu_thi - f->bu_tlo + 1, nb = i - f->bu_first + 1;
	if (f->bu_n < MODEL_PASS_BURST || f->bu_lo < nb || f->bu_n <= f->bb_n ||
	    nt + nb > MODEL_MAX_PASS)
		return;
	f->bb_n = f->bu_n;
	f->npb = 0;
	for (uint64_t x = f->bu_tlo; x <= f->bu_thi; x++, f->npb++) {
		f->pb[f->npb] = f->pr[x % MODEL_PASS_BACK];
		f->pbn[f->npb] = f->pn[x % MODEL_PASS_BACK];
	}
	for (uint64_t x = f->bu_first; x <= i; x++, f->npb++) {
		f->pb[f->npb] = f->pr[x % MODEL_PASS_BACK];
		f->pbn[f->npb] = f->pn[x % MODEL_PASS_BACK];
	}
}

/* The I/O just touched (the device's f->di - 1st) joins the ring of the
 * pass, with what it counted in the re-use odds (N); with a re-use at DIST
 * (0: none), it and the I/O DIST back are noted as taking part in the
 * re-use pass (sorted and made unique at the end: pass_fill), while they
 * fit. */
static void pass_add(struct dev_fit *f, uint8_t op, uint64_t off, uint32_t len, uint64_t dist,
		     struct reuse_note n)
{
	uint64_t i = f->di - 1;
	if (!f->pr || f->pass_over)
		return;
	f->pr[i % MODEL_PASS_BACK] =
	    (struct model_pass_io){off, len, (uint32_t)i, op != REEL_OP_READ};
	f->pn[i % MODEL_PASS_BACK] = n;
	if (!dist)
		return;
	if (dist >= MODEL_PASS_BACK || i > UINT32_MAX || f->npc + 2 > 2 * MODEL_MAX_PASS) {
		f->pass_over = 1;
		return;
	}
	f->pc[f->npc++] = f->pr[(i - dist) % MODEL_PASS_BACK];
	f->pc[f->npc++] = f->pr[i % MODEL_PASS_BACK];
	f->nprt++;
	f->prt_dist += dist;
	pass_burst(f, i, dist);
}

/* The local jumps between two I/O of the pass next to each other taken
 * out of the local jumps (where the walk kept every one): gen places the
 * pass's I/O as they were, its jumps with them, and the other I/O draw
 * from the rest (boot: the writeback's 110 short steps up drawn again by
 * the reads, whose steps down they crowded out: jump KS 0.03 -> 0.08). */
static void pass_local(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	struct samp *l = &f->loc;
	if (l->st != 1 || l->n != l->k)
		return;
	uint64_t out = 0;
	for (uint32_t i = 0; i + 1 < d->npass; i++) {
		const struct model_pass_io *a = &d->pass[i], *b = a + 1;
		int64_t j = (int64_t)(b->off - (a->off + a->len));
		uint64_t aj = j < 0 ? (uint64_t)(-j) : (uint64_t)j;
		if (b->at != a->at + 1 || !j || aj > d->local_limit || !samp_drop(l, j))
			continue;
		out++;
		uint32_t pr = region_of(d, &f->lut, a->off + a->len);
		f->locr[b->write][pr] -= f->locr[b->write][pr] > 0;
		f->stcr[b->write][pr] -= f->stcr[b->write][pr] > 0;
	}
	if (!out || f->nloc < out)
		return;
	f->nloc -= out;
	samp_fit(l, &d->local);
	local_fill(f);
}

static int pass_cmp(const void *a, const void *b)
{
	const struct model_pass_io *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The re-use pass kept: where the map was exact, the device's re-uses
 * MODEL_PASS_MIN or more (fewer are noise), far on average (a pass over
 * what an earlier one touched: near re-uses, a block read twice, the
 * draws keep; else a burst going back together, pass_burst, kept alone,
 * the other re-uses left to the draws), not hot (its jumps keep its re-use: msr) and all noted,
 * the I/O taking part at most MODEL_MAX_PASS and a third of the
 * device's (more is not a pass: runs re-read at random, whose I/O then
 * leave the other sizes to the rest, a kept run's too) and on a
 * 512-byte grid (MODEL.json's unit). */
static int pass_fill(struct dev_fit *f, int exact)
{
	struct model_devspace *d = f->d;
	d->npass = 0;
	d->pass_burst = 0;
	if (!exact || f->pass_over || !f->pc || f->nprt < MODEL_PASS_MIN ||
	    (f->prt_dist < (uint64_t)MODEL_PASS_FAR * f->nprt && !f->bb_n) ||
	    d->p_reuse >= MODEL_REUSE_HOT)
		return 0;
	d->pass_burst = f->prt_dist < (uint64_t)MODEL_PASS_FAR * f->nprt;
	if (d->pass_burst) { /* the burst alone, whole */
		f->npc = f->npb;
		memcpy(f->pc, f->pb, f->npb * sizeof(*f->pc));
	}
	qsort(f->pc, f->npc, sizeof(*f->pc), pass_cmp);
	uint32_t n = 0;
	for (uint32_t k = 0; k < f->npc; k++) {
		if (n && f->pc[n - 1].at == f->pc[k].at)
			continue;
		if ((f->pc[k].off | f->pc[k].len) & 511 || !f->pc[k].len)
			return 0;
		f->pc[n++] = f->pc[k];
	}
	if (n > MODEL_MAX_PASS || (uint64_t)n * MODEL_PASS_SHARE > f->di)
		return 0;
	if (!(d->pass = malloc(n * sizeof(*d->pass))))
		return REEL_E_NOMEM;
	memcpy(d->pass, f->pc, n * sizeof(*d->pass));
	d->npass = n;
	d->pass_n = f->di;
	pass_local(f);
	return 0;
}

/* The re-use odds, runs and distances net of the kept burst's I/O (its
 * re-uses and the stretch they go back to): gen places them as they were,
 * and draws the device's other re-uses from these; counted in, the pass's
 * re-uses came on top of draws that made them already (chromium: its 4
 * re-using starts 153-161 I/O back and 8 re-writes running on, in 66 and
 * 6; generated re-uses 81 a seed against the trace's 74).  Each I/O takes
 * out what it counted (reuse_note), its run's I/O included. */
static void reuse_net(struct dev_fit *f)
{
	for (uint32_t x = 0; x < f->npb; x++) {
		const struct model_pass_io *io = &f->pb[x];
		const struct reuse_note *n = &f->pbn[x];
		int w = io->write, s = !!(n->what & NOTE_SAMPLED), r = !!(n->what & NOTE_REUSED);
		if (n->what & NOTE_START) {
			int c = model_reuse_size(io->len);
			f->ph_sampled[n->ph][w] -= (uint64_t)s;
			f->ph_reused[n->ph][w] -= (uint64_t)r;
			f->sz_sampled[c] -= (uint64_t)s;
			f->sz_reg[c][region_of(f->d, &f->lut, io->off)] -= (uint32_t)s;
			f->sz_reused[c] -= (uint64_t)r;
			f->starts_sampled -= (uint64_t)s;
			f->op_sampled[w] -= (uint64_t)s;
			f->op_reused[w] -= (uint64_t)r;
			f->starts_reused -= (uint64_t)r;
			if (!r)
				continue;
			f->rrun_sum--;
			f->rrun_cnt--;
			f->rrun_sum_op[w]--;
			f->rrun_cnt_op[w]--;
			samp_drop(&f->rdist, (int64_t)n->dist);
			if (w)
				samp_drop(&f->rdist_w, (int64_t)n->dist);
		} else if (n->what & NOTE_RUN) {
			f->rrun_sum--;
			f->rrun_sum_op[!!(n->what & NOTE_RUN_W)]--;
			f->rcont -= (uint64_t)s;
			f->rcont_reused -= (uint64_t)r;
			f->rcont_op[w] -= (uint64_t)s;
			f->rcont_op_reused[w] -= (uint64_t)r;
		}
	}
}

/* A run start of the re-use pass (not the device's first; PEND: where the
 * I/O before ended; REUSE: reuse_touch's): of the fresh remote ones (no
 * block touched before, the jump past local_limit, not where one of the
 * last MODEL_RESUME_BACK I/O of its op ended: p_resume's), every
 * nr_stride-th is looked at: whether it lands within local_limit of one of
 * the device's last MODEL_NEAR_BACK I/O (offset to offset, as compare's
 * locality), the latest such I/O's distance back and the jump from it, and
 * the share of the offsets CDF near those I/O (where a start drawn from it
 * would land by chance).  disksim's disks: 2-12 of their ~450 starts near
 * one of the 100 I/O before, by chance 0.2%. */
static void near_start(struct dev_fit *f, uint64_t off, uint64_t pend, int reuse)
{
	uint64_t lim = f->d->local_limit, n = f->nr_n < MODEL_NEAR_BACK ? f->nr_n : MODEL_NEAR_BACK;
	uint64_t i = f->di - 1; /* the walk's bit of this I/O (reuse_touch counted it) */
	if (reuse || (off > pend ? off - pend : pend - off) <= lim ||
	    (f->rsb[i >> 6] >> (i & 63) & 1) || f->nr_seen++ % f->nr_stride || !n)
		return;
	uint64_t v[MODEL_NEAR_BACK]; /* v[j - 1]: the I/O j back */
	/* its slot (nr_n - j) % MODEL_NEAR_BACK */
	for (uint64_t j = 1, at = f->nr_at; j <= n; j++)
		v[j - 1] = f->nr_off[at >= j ? at - j : at + MODEL_NEAR_BACK - j];
	f->nr_look++;
	for (uint64_t j = 1; j <= n; j++)
		if ((off > v[j - 1] ? off - v[j - 1] : v[j - 1] - off) <= lim) {
			f->nr_near++;
			samp_add(&f->nr_back, (int64_t)j);
			samp_add(&f->nr_jump, (int64_t)(off - v[j - 1]));
			break;
		}
	f->nr_chance += fit_near_chance(&f->d->addr, f->d->local_limit, v, n);
}

/* p_near and its distances from the near starts looked at: the share of
 * them near one of the last MODEL_NEAR_BACK I/O beyond the chance share c,
 * (p - c) / (1 - c) (gen's fresh remote starts land near by chance too),
 * kept from MODEL_NEAR_MIN near starts at MODEL_NEAR_OVER times c or more
 * (elsewhere the offsets CDF puts them there already), on a device whose
 * starts mostly draw fresh (start_wanted's; hot devices keep their jumps). */
static void device_near_fill(struct dev_fit *f)
{
	struct model_devspace *d = f->d;
	d->p_near = 0;
	if (!f->nr_look || !(d->p_reuse < MODEL_REUSE_HOT))
		return;
	double p = (double)f->nr_near / (double)f->nr_look, c = f->nr_chance / (double)f->nr_look;
	if (f->nr_near < MODEL_NEAR_MIN || p < MODEL_NEAR_OVER * c || !(c < 1))
		return;
	d->p_near = (p - c) / (1 - c);
	samp_fit(&f->nr_back, &d->near_back);
	samp_fit(&f->nr_jump, &d->near_jump);
}

/* The re-use of I/O I of the pass (its sampled blocks' keys and hashes
 * KB, HB, NB of them, gathered; device F, SEQ: it continues the run of
 * the device's I/O before, FIRST: the device's first): the blocks it
 * touches; at a run start, whether one was touched before and how long
 * ago; in a run, whether the run's start re-used and this one does.
 * 0 or REEL_E_NOMEM. */
static int reuse_step(struct devs_fit *df, const uint64_t *kb, const uint64_t *hb, size_t nb,
		      struct dev_fit *f, const struct fit_cols *c, size_t i, int seq, int first,
		      size_t p, uint64_t pend)
{
	uint64_t dist = 0;
	uint8_t op = c->op[i];
	int unread = 0;
	uint64_t b0 = 0, b1 = 0;
	if (f->dir.e)
		reuse_blocks(c->off[i], c->len[i], &b0, &b1);
	int reuse = reuse_touch(&df->bm, f, kb, hb, nb, b0, b1, op == REEL_OP_READ, &dist, &unread);
	if (reuse == REEL_E_NOMEM)
		return reuse;
	struct reuse_note n = {
	    dist < UINT32_MAX ? (uint32_t)dist : UINT32_MAX, (uint8_t)p,
	    (uint8_t)((reuse >= 0 ? NOTE_SAMPLED : 0) | (reuse > 0 ? NOTE_REUSED : 0))};
	if (first) {
		f->rrun = 1;
		n.what = 0;
	} else if (seq) {
		f->rrun++;
		f->rcont += f->run_reused && reuse >= 0;
		f->rcont_reused += f->run_reused && reuse > 0;
		f->rcont_op[op != REEL_OP_READ] += f->run_reused && reuse >= 0;
		f->rcont_op_reused[op != REEL_OP_READ] += f->run_reused && reuse > 0;
		n.what = f->run_reused ? n.what | NOTE_RUN | (f->run_op ? NOTE_RUN_W : 0) : 0;
	} else {
		reuse_run_end(f, f->rrun);
		f->rrun = 1;
		reuse_start(f, reuse, dist, op, c->off[i], c->len[i], p);
		f->rd_starts += op == REEL_OP_READ && reuse >= 0;
		f->rd_unread += op == REEL_OP_READ && unread;
		if (reuse >= 0 && df->near)
			near_start(f, c->off[i], pend, reuse);
		n.what |= NOTE_START;
	}
	pass_add(f, op, c->off[i], c->len[i], reuse > 0 ? dist : 0, n);
	if (df->near) { /* near_start's rings: one device has no near starts fitted */
		f->nr_off[f->nr_at] = c->off[i]; /* not a % at every I/O */
		f->nr_at = f->nr_at + 1 < MODEL_NEAR_BACK ? f->nr_at + 1 : 0;
		f->nr_n++;
	}
	return 0;
}

/* An I/O of OP and LEN in phase PH counted in its device's own ops and
 * sizes against its phase's. */
static inline void own_step(struct own_fit *f, const struct model_phase *ph, uint8_t op,
			    uint32_t len, int seq)
{
	const double *mix = ph->op_mix;
	double rw = 1 - mix[REEL_OP_FLUSH];
	int k = op != REEL_OP_READ;
	if (rw > 0) {
		f->op_exp[0] += mix[REEL_OP_READ] / rw;
		f->op_exp[1] += 1 - mix[REEL_OP_READ] / rw;
	}
	f->op_seen[k]++;
	if (!seq) { /* a run's next I/O: the phase's (its runs' sizes) */
		f->sz_exp[k] += ph->size[op].mean;
		samp_add(&f->dsz[k], (int64_t)len);
	}
}

/* The device's own ops and sizes where they differ from its phases': its
 * I/O of each op over those at its phases' op mix, kept where they differ
 * from it by MODEL_BIAS_APART or more on average over its I/O (disksim's
 * disk 8: 8 reads of 150, its phases' mix 100); the sizes of an op's run
 * starts where their mean is off the phases' by MODEL_SIZE_APART (disk 8's
 * writes: 17 KiB against 8). */
static void device_own(struct model_devspace *d, struct own_fit *f)
{
	double n = (double)(f->op_seen[0] + f->op_seen[1]), apart = 0;
	d->op_bias[0] = d->op_bias[1] = 1;
	d->op_bias_fitted = 0;
	if (!f->dsz[0].v || !(n > 0))
		return;
	for (int k = 0; k < 2; k++)
		apart += fabs((double)f->op_seen[k] - f->op_exp[k]);
	d->op_bias_fitted = apart / n >= MODEL_BIAS_APART;
	for (int k = 0; k < 2 && d->op_bias_fitted; k++)
		d->op_bias[k] =
		    f->op_exp[k] > 0 ? (float)((double)f->op_seen[k] / f->op_exp[k]) : 1;
	for (int k = 0; k < 2; k++) {
		struct samp *z = &f->dsz[k];
		double want = z->n ? f->sz_exp[k] / (double)z->n : 0;
		if (z->n >= MODEL_SIZE_MIN && want > 0 &&
		    fabs(z->sum / (double)z->n / want - 1) >= MODEL_SIZE_APART)
			samp_fit(z, &d->dsize[k]);
	}
}

/* I/O I of device K through reuse_step (its NB blocks' keys KB and
 * hashes HB, gathered), its run's order kept per device: sequential where
 * it starts at the device's last end.  Inline in both passes over the
 * I/O: their locals OFF, LEN, WIN, WPHASE stay in registers. */
static inline __attribute__((always_inline)) int
reuse_io(struct devs_fit *df, const struct fit_cols *c, const uint64_t *off, const uint32_t *len,
	 const uint16_t *win, const int *wphase, size_t i, int k, const uint64_t *kb,
	 const uint64_t *hb, size_t nb)
{
	int seq = df->sq_seen[k] && off[i] == df->sq_end[k], first = !df->sq_seen[k];
	uint64_t pend = df->sq_end[k];
	df->sq_seen[k] = 1;
	df->sq_end[k] = off[i] + len[i];
	return reuse_step(df, kb, hb, nb, &df->f[k], c, i, seq, first, (size_t)wphase[win[i]],
			  pend);
}

/* model_devs_seq's first G I/O of C, their blocks gathered on the main
 * thread (c->gathered): their slots prefetched a batch of RB_IO I/O ahead
 * of their touches, as the pass's own gather does; the map's shift
 * published after each batch (model_devs_pregather reads it). */
static int seq_gathered(struct devs_fit *df, const struct fit_cols *c, size_t g)
{
	const struct reuse_pre *pg = c->gathered;
	const uint64_t *off = c->off;
	const uint32_t *len = c->len;
	const uint16_t *win = c->win;
	const int *wphase = df->wphase;
	for (uint32_t x = 0, xe = pg->at[g < RB_IO ? g : RB_IO]; x < xe; x++)
		bmap_prefetch(&df->bm, pg->h[x]);
	for (size_t a = 0; a < g; a += RB_IO) {
		size_t e = g - a < RB_IO ? g : a + RB_IO, ee = g - e < RB_IO ? g : e + RB_IO;
		for (uint32_t x = pg->at[e]; x < pg->at[ee]; x++) /* the next batch's */
			bmap_prefetch(&df->bm, pg->h[x]);
		for (size_t i = a; i < e; i++) {
			int k = pg->dev[i];
			if (k < 0)
				continue;
			uint32_t x = pg->at[i];
			if (reuse_io(df, c, off, len, win, wphase, i, k, pg->k + x, pg->h + x,
				     pg->at[i + 1] - x))
				return REEL_E_NOMEM;
		}
		__atomic_store_n(&df->shift_pub, df->bm.shift, __ATOMIC_RELAXED);
	}
	return 0;
}

/* One pass in time order: the re-use of run starts (reuse_step); 0 or
 * REEL_E_NOMEM. */
int model_devs_seq(struct devs_fit *df, const struct fit_cols *c)
{
	/* locals: the stores of the steps (of uint64_t, as c->n is) would
	 * reload them at every I/O */
	const uint64_t *off = c->off;
	const uint32_t *len = c->len;
	const uint16_t *win = c->win;
	const int *wphase = df->wphase;
	/* a batch gathered (its blocks' slots prefetched) one batch ahead of
	 * its touches, so that the slots are in cache by then (the pass 7%
	 * fewer samples at 10M I/O).  A gather before the touches of the batch
	 * ahead of it may keep blocks that those touches' halving leaves out
	 * of the sample: bmap_touch_h looks again, the same sample. */
	size_t n = c->n, g = c->gathered ? c->gathered->n : 0;
	if (g && seq_gathered(df, c, g))
		return REEL_E_NOMEM;
	size_t e = g < n ? reuse_gather(df, df->rb, c, g) : n;
	for (size_t a = g, b = 0, ne; a < n; a = e, e = ne, b ^= 1) {
		const struct reuse_batch *rb = &df->rb[b];
		ne = e < n ? reuse_gather(df, &df->rb[b ^ 1], c, e) : n;
		for (size_t i = a; i < e; i++) {
			int k = rb->dev[i - a]; /* the gather's: its device, or none */
			if (k < 0)
				continue;
			uint32_t x = rb->at[i - a];
			if (reuse_io(df, c, off, len, win, wphase, i, k, rb->k + x, rb->h + x,
				     rb->at[i - a + 1] - x))
				return REEL_E_NOMEM;
		}
	}
	if (df->pregather)
		__atomic_store_n(&df->shift_pub, df->bm.shift, __ATOMIC_RELAXED);
	return 0;
}

/* The same pass: each I/O's phase, op, size segment, and whether it starts
 * where its device's previous one ended (compare's definition); a device's
 * own ops and sizes (own_step: here, not in model_devs_seq on the second
 * thread, whose part of the pass is the longer; the same I/O, in order). */
void model_devs_sizes(struct devs_fit *df, const struct fit_cols *c)
{
	/* locals: the stores below could alias df's fields (reloaded at each
	 * I/O, from lines the second thread writes) */
	struct seg_count *z = df->sz;
	const int8_t *slot = df->slot;
	const int *wphase = df->wphase;
	const struct model_phase *ph = df->m->phases;
	uint64_t(*sq)[REEL_OP__COUNT][MODEL_DIST_MAXK][2] = df->sq;
	for (size_t i = 0; i < c->n; i++) {
		uint8_t op = c->op[i];
		int k = slot[c->dev[i]];
		if (op == REEL_OP_FLUSH || !z->live[k])
			continue;
		int seq = z->seen[k] && c->off[i] == z->end[k];
		z->seen[k] = 1;
		z->end[k] = c->off[i] + c->len[i];
		size_t p = (size_t)wphase[c->win[i]];
		if (z->own[k].dsz[0].v)
			own_step(&z->own[k], &ph[p], op, c->len[i], seq);
		const struct model_dist *d = &ph[p].size[op];
		if (d->nk < 2)
			continue;
		/* a pure function of the phase's size CDF and the size: memoised */
		uint64_t key = ((uint64_t)p << 40 | (uint64_t)op << 32 | c->len[i]) + 1;
		size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 56) & (SEG_MEMO - 1);
		if (z->key[h] != key) {
			z->key[h] = key;
			z->seg[h] = size_segment(d, (double)c->len[i]);
		}
		uint64_t *n = sq[p][op][z->seg[h]];
		n[0]++;
		n[1] += (uint64_t)seq;
	}
}

int model_devs_seq_finish(struct devs_fit *df, struct model *m)
{
	size_t live = devs_live(df); /* near starts, as own sizes: only among others */
	for (size_t i = 0; i < df->nd; i++) {
		struct dev_fit *f = &df->f[i];
		if (f->done)
			continue;
		if (df->sq_seen[i]) /* the last run */
			reuse_run_end(f, f->rrun);
		device_reuse_fill(f);
		if (live > 1)
			device_near_fill(f);
		else
			f->d->p_near = 0;
		reuse_phase_fill(f, m->nphases);
		if (pass_fill(f, df->bm.shift == 0))
			return REEL_E_NOMEM;
		if (f->d->pass_burst) { /* the draws' odds: without the pass's */
			reuse_net(f);
			device_reuse_fill(f);
			reuse_phase_fill(f, m->nphases);
		}
		device_cycle(f);
		device_own(f->d, &df->sz->own[i]);
	}
	for (size_t p = 0; p < m->nphases; p++) {
		struct model_phase *ph = &m->phases[p];
		ph->seq_fitted = 1;
		for (int o = 0; o < REEL_OP__COUNT; o++)
			for (uint32_t k = 0; k + 1 < ph->size[o].nk; k++) {
				const uint64_t *n = df->sq[p][o][k];
				ph->seq_share[o][k] = n[0] ? (float)n[1] / (float)n[0] : 0;
			}
	}
	return 0;
}
