/*
 * model/gen_internal.h - what the two halves of model_gen share; not a
 * public header (model.h is the manual of model/).  gen.c draws the
 * arrivals (windows, gaps, ops) and drives the generator; gen_space.c
 * draws where each I/O goes and how large it is (runs, jumps, regions,
 * re-use, sizes given sequentiality).  Arrivals draw from the main random
 * stream (s), addresses and sizes from their own (sp), so what one half
 * draws does not move what the other draws.
 */
#ifndef IOREEL_MODEL_GEN_INTERNAL_H
#define IOREEL_MODEL_GEN_INTERNAL_H
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#endif

/*
 * Stratified draws: each stream hands out, per block of 64 draws, one
 * uniform in each 1/64 stratum in a random order.  The marginals then
 * follow the model's CDFs closely even in short traces (a Latin hypercube
 * over time), with no pattern from one draw to the next.
 */
#define STRATA 64
struct strat {
	uint8_t perm[STRATA];
	uint8_t pos;
};

/*
 * Quota draws (the sizes, per phase and op): a block holds as many strata
 * of the op's size CDF as the phase draws sizes of the op over the whole
 * trace generated (at most QUOTA_MAX; more in equal blocks that tile it),
 * each stratum drawn once, so the sizes' mix is the model's and not a
 * sample of it: a stratified block of 64 drawn 20 times took 20 strata
 * at random, and the few large sizes that carry a small trace's bytes
 * came out 0, 1 or 2 times.  Each stratum is a run start's or a run's
 * next I/O's (as the model's shares of either kind along the CDF say, by
 * one systematic draw), each kind's in a random order; an I/O of a kind
 * whose strata are all drawn takes the other kind's nearest a point of its
 * own kind's CDF.  The quotas draw from a stream of their own (sz).
 */
#define QUOTA_MAX 4096
/* V mod R for 2 <= R <= QUOTA_MAX, M = ceil(2^64 / R): Lemire, Kaser and
 * Kurz's remainder by direct computation ((M a mod 2^64) R / 2^64 is a
 * mod R for a < 2^N where N + log2 R <= 64), taken for V's high 32 bits
 * and then for that remainder times 2^32 plus its low 32 (under R 2^32):
 * exact, with no division (a 64-bit one was a quarter of quota_block's
 * samples). */
static inline uint32_t quota_mod(uint64_t v, uint32_t r, uint64_t m)
{
	uint64_t h = (uint64_t)(((unsigned __int128)(m * (v >> 32)) * r) >> 64);
	uint64_t a = h << 32 | (v & 0xffffffffu);
	return (uint32_t)(((unsigned __int128)(m * a) * r) >> 64);
}
/* The window of the model that held a re-use pass I/O (pass_window). */
struct gen_pass_win {
	double from; /* the model's addressed I/O before it */
	double nop;  /* its I/O of the pass I/O's op (read, or not) */
	uint32_t win;
	uint32_t rem; /* the pass's I/O of the op in it, from this one on */
};

struct quota {
	uint16_t *perm; /* the block: [0, end0) run starts', [end0, n) the others' */
	uint16_t *inv;	/* each stratum's place in perm */
	/* each stratum's knot of the op's size CDF: the last one at or below
	 * its lower end (quota_at's search, done once) */
	uint16_t *knot;
	/* the strata still to draw of each kind, a bit each: [0, nw) run
	 * starts', [nw, 2 nw) the others' (an I/O past its kind's finds the
	 * other kind's nearest a word at a time) */
	uint64_t *left;
	/* i / n for i <= n: the strata's bounds (quota_at, quota_knots), and
	 * each stratum's c n in quota_block (the kinds' shares cumulated to
	 * its upper bound, times n): the same doubles at every block, made
	 * once (their divisions and the shares' walk were a quarter of the
	 * quota's instructions on the bench's 10M model) */
	double *at, *cn;
	uint32_t n, nw, end0, pos[2];
	int uniform; /* quota_at: uniform in a stratum (no shares, or < 2 knots) */
	/* quota_at's draw anywhere (no stratum: an I/O past its kind's
	 * strata, seq_fresh) for each kind, made once (quota_any): the
	 * stretches of the CDF it weighs above 0, in order (any_k their
	 * knots, any_w their weights), and all its weights summed in its
	 * order (boot x7491: 0.8 such draws an I/O, over 55 knots twice) */
	double *any_w[2], any_tot[2];
	uint16_t *any_k[2];
	uint32_t any_n[2];
	/* strata taken at the block's start for the re-use pass's I/O of the
	 * op (quota_reserve): resv_n of them, for resv_want of its I/O */
	uint16_t *resv;
	uint32_t resv_n, resv_want;
};

#define GEN_HIST 4096		       /* offsets of the device's last I/O, for re-use */
#define GEN_WRUN 32		       /* the ring's slots with one write bound (gen_written) */
#define GEN_RESUME MODEL_RESUME_BACK   /* resumed starts: the ring's I/O looked at */
#define GEN_OVER_AHEAD 64	       /* resume_at: over slots passed for so many I/O */
#define GEN_NEAR 64		       /* re-use: the ring's I/O looked at for one of the op */
#define GEN_HOT_NEAR 8		       /* re-use: the ring's I/O looked at for a hot block */
#define GEN_FEW_REUSES 32	       /* distances kept as quartiles: from fewer re-uses */
#define GEN_RES 1024		       /* a uniform sample (reservoir) of all its earlier ones */
#define GEN_TRIES 8		       /* run starts drawn until one re-uses as the model says */
#define GEN_PASS_NEAR 1.1	       /* a re-use pass I/O's size stratum: within this factor */
#define GEN_SCAN 64		       /* then stretches past the last one looked at */
#define GEN_SCAN_FAR 65536	       /* an op never re-using: places up the device */
#define GEN_REUSE_GATE MODEL_REUSE_HOT /* devices re-using more keep their jumps as drawn */
#define GEN_LOCAL_TRIES 4	       /* local jumps drawn until one lands in the extents */
#define GEN_LOCAL_SHUT 8	       /* gen_local_all_shut: regions a jump's reach looked at */
#define GEN_SEQ_OWED 64		       /* run I/O cut short and owed, at most */
#define GEN_PACE_PRIOR 8	       /* re-using starts: the pace's prior */
#define GEN_WRIT_TRIES 4	       /* start_hot's re-using writes: draws onto written blocks */
#define GEN_FULL 32		       /* fresh starts that found no room: the band is full */
#define GEN_ROOM_SCAN 16384	       /* room_up: places up from a region's frontier looked at */
#define GEN_ROOM_FULL 0.875	       /* widen: a region full past this share of misses */
#define GEN_OVER_TOL 0.25	       /* a region over its share by more: over-visited */
#define GEN_OVER_TRIES 4	       /* remote jumps redrawn while they go to one */
#define GEN_POOL 32		       /* sizes drawn and set aside per stream (kept runs') */
#define GEN_PICK_DRAWS 2	       /* sizes a kept run's I/O draws into the pool */
#define GEN_SHORT_EVERY 16	       /* regions' shortfalls refreshed every so many I/O */
#define GEN_SHORT_MIN 32	       /* I/O of the device before its shares are kept */
#define GEN_SHORT_ODDS 3	       /* remote jumps to a short region: odds per drift */
#define GEN_LOCAL_REGION 1.1	       /* a local jump redrawn where its region holds more */
#define GEN_LOCAL_SEG 1.5	       /* or its stretch of the offsets CDF holds more */
#define GEN_DENSE 4		       /* a fresh start covers at most so many of the trace's */
#define GEN_RECENT_SHARE 0.01	       /* re-uses nearer than the trace's 1%, */
#define GEN_RECENT_MAX 32	       /* (at most this many I/O back) drawn again */
#define GEN_FAR_MAX 512		       /* a local re-using start's drawn distance, at most */
#define GEN_CYCLE_EARLY 12	       /* hot blocks kept: early by this times the chain's odds */
#define GEN_CYCLE_LATE 1	       /* and due so many I/O past their drawn interval */
#define GEN_TRF 16		       /* the chain's row table: step bits a word (<= 16) */
#define GEN_TRC 32		       /* and words a row, one each 1/GEN_TRC of [0, 1) */
#define GEN_TRG (GEN_TRC * GEN_TRF)    /* 1/this: where a word's bit F marks the entry's step */
#define GEN_COLDQ 256		       /* cold_region's table: a row's entries at each 1/this */
#define GEN_COLD_ROW (GEN_COLDQ + 1)   /* and its bytes a row */
#define GEN_WG 1024		       /* remote's regions by weight: a table at each 1/this */
#define GEN_RLUT 1024		       /* region lookups: a table of the region at each 1/this */
#define GEN_CUT_EPS 1e-9	   /* a window short of one by this share is cut (fill_window) */
#define GEN_KLUT 1024		   /* offsets CDF's knots: a table of the knot at each 1/this */
#define GEN_UNREAD_BITS (1u << 23) /* a device's map of unread written blocks: 1 MiB at most */
#define GEN_UNREAD_SCAN 1024	   /* words looked at each way for the nearest (p_unread) */
#define GEN_UNREAD_TRIES 8	   /* stretches looked at up from it for a read's length */
#define GEN_UNREAD_RING (1u << 18) /* the granules' last writes a read start can go back to */
#define GEN_UNREAD_NEAR 16	   /* a local read start: live slots looked at around the last's */
#define GEN_UNREAD_FAR 1024	   /* a remote one: those at or older than its distance */
/*
 * A device with p_unread (a tree written, then read back): which of its
 * granules (4 KiB, or coarser where the extent has more than
 * GEN_UNREAD_BITS of them: bounded at any capacity, rate and length) a
 * write wrote and no read has read since.  A read start goes to one of
 * them by the reads' reuse distance (unread_pick), then to the nearest
 * with room for its bytes (unread_snap).
 */
struct unread {
	uint64_t *bits, nw; /* the map, its words */
	uint64_t *nz;	    /* a bit a word: not zero (after bits' words: gen_unread_near) */
	uint64_t n;	    /* granules set */
	int shift;	    /* a granule: 1 << shift bytes */
	/* the last GEN_UNREAD_RING granules written, in write order (a ring
	 * from head: granule, the device's I/O count then), and a Fenwick
	 * tree of those not known read since (a read start by its drawn
	 * reuse distance: gen_unread_back) */
	uint32_t *rg, *rt, *fw;
	uint64_t *live;	 /* a bit a slot: the tree's leaves (after fw's words) */
	uint64_t head;	 /* writes into the ring so far */
	uint32_t last_t; /* the write count of the last read placed (unread_pick) */
	int last_ok;	 /* and it was placed there */
};
struct devstate {
	struct unread *ur; /* p_unread: the blocks written, not yet read (NULL: none) */
	struct strat s_run, s_local, s_plocal, s_trans, s_pos, s_reuse;
	uint64_t ring[GEN_HIST], res[GEN_RES];
	/* the ring's regions and offsets CDF knots (gen_offsets_count's, of
	 * the I/O whose slot remember fills next): history_back's tries ask
	 * a slot's region's share, and a re-use's count its knot first */
	uint8_t rreg[GEN_HIST];
	uint32_t rkn[GEN_HIST];
	uint8_t rop[GEN_HIST];	      /* the ring's ops */
	uint64_t rend[GEN_HIST];      /* and ends */
	uint64_t gone[GEN_HIST / 64]; /* and which a re-use went back to since */
	/* and which are of each op, which start on a hot block (a region one
	 * block wide): back_slot's tests a word at a time (ring_nearest) */
	uint64_t ropm[REEL_OP__COUNT][GEN_HIST / 64];
	uint64_t rhot[GEN_HIST / 64];
	/* the least and the greatest write start of each GEN_WRUN slots of
	 * the ring, those written since its first slot was (or wider: 0, 0
	 * at the start); gen_written looks only in the runs that may hold
	 * one in its stretch, and in the one being filled */
	uint64_t wlo[GEN_HIST / GEN_WRUN], whi[GEN_HIST / GEN_WRUN];
	uint32_t recent;	      /* re-using starts on the last so many I/O drawn again */
	uint32_t far;		      /* a local re-using start: off the last so many (far_of) */
	struct model_dist rdist_r;    /* the reads' reuse distances (reads_dist; nk 0: none) */
	uint64_t nremote, nresumed;   /* fresh remote starts; those resuming a stream */
	uint64_t nfar, nnear;	      /* those not resumed (p_near); those placed near */
	uint64_t nrun;		      /* I/O that continued a run (near too: near_at) */
	uint64_t opn[REEL_OP__COUNT]; /* I/O of each op so far */
	uint64_t hn;		      /* I/O so far (the ring's next slot is hn % GEN_HIST) */
	/* the ring's slots whose end's block is touched, for good (resume_at) */
	uint64_t rtouch[GEN_HIST / 64];
	/* resume_at's look-ups kept: the region of the end E of the slots
	 * its walk looked at (slot K's at K % GEN_RESUME, the walk's slots
	 * all apart there, tagged E + 1: 0 none), and each region's
	 * gen_offsets_over_r with the device's I/O (+ 1) and the region's it
	 * was found at (a function of those alone) */
	uint64_t rs_e[GEN_RESUME];
	uint8_t rs_r[GEN_RESUME];
	uint8_t ov[MODEL_MAX_REGIONS];
	uint32_t ov_rn[MODEL_MAX_REGIONS];
	uint64_t ov_hn[MODEL_MAX_REGIONS];
	/* and the slots whose end's region is over (gen_offsets_over_until)
	 * up to the end of this GEN_OVER_AHEAD I/O of the device (rov_ep:
	 * their index + 1; each region's answer for it in ovu, tagged by
	 * ovu_ep), passed by the walk with the slots known touched */
	uint64_t rover[GEN_HIST / 64];
	uint64_t rov_ep;
	uint64_t ovu_ep[MODEL_MAX_REGIONS];
	uint8_t ovu[MODEL_MAX_REGIONS];
	uint64_t cursor;
	uint64_t touch_pf; /* the touched words asked for up to this block (touch_prefetch) */
	/* the cursor's block at the last I/O placed, and how often of late
	 * (a mean over ~16 I/O, 1 = 2^16) the next one started within
	 * TOUCH_AHEAD of it: touch_prefetch's asks where runs go on
	 * (gen_space.c, placed) */
	uint64_t touch_w0;
	int32_t touch_on;
	int64_t run_left;
	int started;
	int run_reuse;	     /* the run started with a re-use (not extended past its length) */
	uint32_t reuse_owed; /* fresh starts that re-used: re-using starts to skip */
	uint32_t reuse_due;  /* re-using starts made fresh (reuse_hot): starts to re-use */
	uint64_t reused;     /* starts that re-used */
	/* with p_reuse_phase: the re-using starts of reads, writes the trace
	 * makes in as many I/O of the op in their phases; those made */
	double ph_want[2];
	uint64_t ph_reused[2];
	/* a re-using start gone back to the first I/O of a run of its op:
	 * that run's I/O (its length replayed), else 0 */
	uint32_t replay;
	double fresh_due;     /* hot devices: fresh starts owed (the op's share of the starts) */
	uint32_t fresh_fails; /* fresh starts in a row that found no room */
	/* generated above the model's rate (gen --rate > 1): fresh starts
	 * that find no room where the trace's offsets fall go up the device
	 * from their region (gen_space.c, room_up); per region where its last
	 * one went (0: none yet), and the prefix maxima of those (front_upto) */
	int widen;
	uint64_t front[MODEL_MAX_REGIONS];
	uint64_t front_tree[MODEL_MAX_REGIONS + 1];
	/* with widen: per region, the share of its fresh starts of late (an
	 * average over about GEN_FULL) whose draws found no room there; the
	 * last one's region, whether its draws found none (-1: resumed, not
	 * counted); the fresh starts made in a full region */
	float missed[MODEL_MAX_REGIONS];
	uint32_t miss_at;
	int miss;
	uint64_t nfresh;
	/* with widen: fresh starts in a row that ended re-using (run_start;
	 * gen_search_skipped) */
	uint32_t reuse_run;
	/* with widen, a device whose re-use pass is kept: the share of its
	 * starts that may re-use besides the pass, 1 - 1 / rate (run_start) */
	double pass_rest;
	uint32_t seq_owed[REEL_OP__COUNT]; /* runs cut short of touched blocks: I/O to continue */
	double scale;			   /* capacity / model extent */
	double rc[MODEL_MAX_REGIONS + 1];  /* offsets CDF at the region bounds */
	/* the region bounds as doubles (remote's: a u64's conversion ~6
	 * instructions in the base ISA, two a remote jump) */
	double rb[MODEL_MAX_REGIONS + 1];
	double wcum[MODEL_MAX_REGIONS]; /* the weights cumulated in region order (remote) */
	/* of wcum's first nregions - 1, how many are at or below each
	 * 1/GEN_WG of [0, 1] (the last: all of them; remote's search) */
	uint8_t wguide[GEN_WG + 1];
	double lr_lo[MODEL_MAX_LONG];	   /* the long runs' starts, scaled (reserved) */
	double lr_hi[MODEL_MAX_LONG];	   /* and their ends */
	double lr_from_lo[MODEL_MAX_LONG]; /* the hull of runs I on: their least start */
	double lr_from_hi[MODEL_MAX_LONG]; /* and greatest end (reserved) */
	/* per run I, runs I on by start (gen_lr_rows; reserved):
	 * gen_lr_size(n) doubles made once from lr_lo and lr_hi at gen_space_init (which
	 * never change after; made again if they ever do), freed by
	 * gen_space_free */
	double *lr_by;
	/* gen_offsets_dense's "no" by bucket (gen_bucket_init): the device
	 * cut into bk_nb buckets of 2^bk_sh bytes, bk[B] 1 where no stretch
	 * in buckets B and B + 1 is dense.  NULL: none (a device past 2^52
	 * bytes), each asked of gen_offsets_dense */
	uint8_t *bk;
	uint32_t bk_nb, bk_sh;
	/* scan_untouched's places known to hold no room (gen_noroom_init):
	 * the device cut into nr_nc chunks of 2^nr_sh blocks, nr[C] the least
	 * LEN of a scan that found none in chunk C while lnext was nr_lnext
	 * (UINT64_MAX: none known).  NULL: none kept (a device past 2^52
	 * bytes); freed by gen_space_free */
	uint64_t *nr;
	uint32_t nr_nc, nr_sh, nr_lnext;
	uint32_t lr_reg[MODEL_MAX_LONG]; /* the long runs' regions (shortfalls) */
	float run_a[MODEL_MAX_REGIONS];	 /* run draws U^a starting in each region */
	float reuse_a;			 /* and of runs starting with a re-use (0: as above) */
	float reuse_a_op[2];		 /* the same of a read's start, a write's */
	uint32_t rn[MODEL_MAX_REGIONS];	 /* I/O generated in each region */
	double nper;			 /* of addressed I/O per model duration */
	float run_cap;			 /* runs drawn below the long runs: the run CDF's share */
	uint32_t lnext;			 /* the next long run to place (of the model's) */
	uint64_t lcycle;		 /* the model's duration repeated: which time */
	int pinned;			 /* the run is a long run of the model, where it was */
	uint64_t pin_end;		 /* and where it ends (its bytes in the trace) */
	uint64_t pin_left;		 /* its bytes still to come (as in the trace) */
	uint64_t head_left;		 /* of those, its head's (longrun's head) */
	uint32_t head_n;		 /* and the head's I/O still to come */
	int pin_op;			 /* the op it started with: its I/O sized from the pool */
	/* long_due says 0 and changes nothing while hn < ld_quiet and lnext
	 * is ld_lnext (gen_long_quiet_until) */
	uint64_t ld_quiet;
	uint32_t ld_lnext;
	uint64_t extent;
	/* shares kept as they go (gen_offsets.c) */
	uint32_t kn[MODEL_DIST_MAXK];	  /* I/O generated per segment of the offsets CDF */
	float short_c[MODEL_MAX_REGIONS]; /* the regions' shortfalls, cumulated */
	double short_tot;		  /* their sum */
	uint64_t short_at;		  /* the device's I/O when last refreshed */
	uint64_t short_due;		  /* and when due again (0: at once) */
	int short_pick;			  /* this run start drew a short region */
	int reusing;			  /* and wants a re-use (local jumps as drawn) */
	int op;				  /* the op of the run start being placed */
	/* the offsets CDF's knot at each 1/GEN_KLUT of its range, from
	 * (x - v[0]) * klut_r (gen_offsets.c, addr_knot; 0: no table) */
	uint16_t klut[GEN_KLUT + 1];
	double klut_r;
	/* run_length's edges (gen_run_edges): a table per region, then that
	 * of no region (exponent 1), then a re-using read's and write's */
	struct gen_run_edge *run_e;
	/* the run start's draws made before its size (gen_space.c,
	 * start_early): 0 none, 1 the run's and the local draws, 2 and the
	 * place (its region in early_to) */
	int early, early_local;
	double early_u;
	uint64_t early_off;
	int64_t early_to;
	/* the model's re-use pass: the next of its I/O to place, of reads
	 * and of writes; the repeat of the model's duration it is in */
	uint32_t pnext[2];
	uint64_t pcycle;
	const struct gen_pass_win *pass_win; /* each one's window (pass_due) */
	double addressed;		     /* the model's addressed I/O per duration */
	uint32_t pwin[2];		     /* of reads, writes: the window counted + 1 */
	uint64_t pseen[2];		     /* and the device's I/O of the op in it */
	/* the hot blocks kept with their own period (hot_cycle): when each
	 * is next due (the device's I/O), its last touch + 1 (0: none yet),
	 * and per region its block + 1 (0: not one of them) */
	struct strat s_cycle;
	double cy_due[MODEL_MAX_CYCLE];
	uint64_t cy_last[MODEL_MAX_CYCLE];
	uint8_t cy_reg[MODEL_MAX_REGIONS];
	uint32_t cy_pos; /* hot_order: the next start's place in it */
	/* the region at each 1/GEN_RLUT of the model's extent, from offset
	 * >> rlut_sh (gen_space.c, region_of) */
	uint8_t rlut[GEN_RLUT + 1];
	uint8_t rlut_sh;
	/* the offsets below it take gen_region_of's table at once: the last
	 * bound at scale 1 (no --capacity) under 2^53, else 0 (none) */
	uint64_t rtop;
	/* the chain's rows given the op (gen_chain_sums: a read's, then
	 * another op's, row[nregions] each; NULL without read_share) and
	 * whether all of them go up */
	double *tr_cw;
	int tr_cw_up;
	/* and where they go up, each row's table at its total (gen_chain_guide
	 * at the row's last sum; rows without an entry zero): a read's, then
	 * another op's, nregions rows of GEN_TRC words each (NULL: none) */
	uint32_t *tr_cw_guide;
	/* the regions' quotas (gen_offsets.c, quota_over): the device's
	 * addressed I/O in the trace generated, of them the kept runs' per
	 * region and in all; the kept runs' I/O generated, per region and
	 * in all */
	double ntot, kall[MODEL_MAX_REGIONS], kall_tot;
	uint32_t rk[MODEL_MAX_REGIONS];
	uint64_t hk;
	/* cold_region's (gen_space.c) sums of the chain's rows off the kept
	 * blocks' regions (gen_cold_sums, row[nregions] + 1) and whether all
	 * of them go up */
	double *cold_cs;
	int cold_up;
	/* and per row, its entries at the row's total times each 1/GEN_TRG
	 * (gen_cold_guide: gen_chain_steps'; where they go up), GEN_COLD_ROW
	 * bytes a row */
	uint8_t *cold_guide;
	/* per region, its row of the chain searched from (gen_space.c,
	 * chain_find): GEN_TRC words (gen_chain_guide), nregions rows (NULL:
	 * none) */
	uint32_t *tr_guide;
	/* run_length's first edge of each table (run_e's edge 0, nregions + 3
	 * of them) side by side: nearly every run of disksim's is one I/O,
	 * answered there, and run_e's tables are 512 bytes apart (gen_space.c,
	 * run_length) */
	struct gen_run_edge *run_e0;
	/* wide_region's sums (gen_wide_sums, nregions) for the LEN and
	 * segment (wide_k; -2: none yet) they were made for, and whether
	 * they go up (gen_chain_pick's UP) */
	double *wide_c;
	uint64_t wide_len;
	int wide_k, wide_up;
	/* an offset and its region (gen_region_of's answer), kept by
	 * gen_region_keep for gen_region_memo (set at gen_offsets_init): the
	 * cursor's region asked by local_odds then remote, a start's by
	 * run_start then placed */
	uint64_t rm_a;
	uint32_t rm_r;
	/* the offsets CDF's knot of remote's last place (gen_space.c), of a
	 * re-use's slot (history_back: rkn) or of the last I/O counted, which
	 * the I/O's count looks at first (gen_addr_knot_at; any value: it is
	 * checked there) */
	uint32_t kh;

	/* cold_region's (gen_space.c) cursor plus 1 when it last looked up
	 * the cursor's region, and that region: start_hot's retries ask again
	 * at the same cursor (boot at rate 1: 1.06M of 2.03M calls) */
	uint64_t cold_cur1;
	uint32_t cold_from;
	/* per region, the first block of its stretch (gen_space.c,
	 * gen_region_full) not known touched (the direct touched set only grows,
	 * so every block of the stretch before it stays touched), and the
	 * stretch's last block: full where the first is past the last */
	uint32_t full_b[MODEL_MAX_REGIONS], full_e[MODEL_MAX_REGIONS];
	/* short_c's 16ths (gen_short_16ths), for gen_short_search's count: at
	 * the end, the fields before it where they were */
	float short_16[MODEL_MAX_REGIONS / 16];
	/* remote's place in region R is inside it (at or above rb[R], below
	 * rb[R + 1]) exactly where its CDF value V is at or above pv[R] and
	 * below pv[R + 1] (gen_place_init; pv_ok: the device's inverse CDF
	 * does not fall, else 0 and the place made to know) */
	int pv_ok;
	double pv[MODEL_MAX_REGIONS + 1];
	/* chain_op's (gen_space.c) last resort, by weight times the op's
	 * share (a read's, then another op's, nregions each): the sums its
	 * walk had at each region, made once (gen_op_weight_sums; NULL where
	 * the weights move with the segment or the sums do not go up) */
	double *op_wc;
	/* the offsets CDF's segment K's density: the trace's I/O a unit of
	 * offset, (c[K + 1] - c[K]) n / (v[K + 1] - v[K]) (gen_offsets_init;
	 * gen_offsets_dense_cdf) */
	double kd[MODEL_DIST_MAXK];
};

/*
 * A stretch [from, to) of a gap CDF D where its value at X is one
 * expression, c0 + (c1 - c0) (x - v0) / (v1 - v0): between two knots (v0,
 * v1 the knots, c0, c1 their cumulatives), below the first knot (0: v0 0,
 * v1 1, c0 = c1 = 0) or from the last one on (1, likewise).  DC, DV: c1 -
 * c0 and v1 - v0, the same doubles worked out once.  KNOT: the
 * last knot at or below FROM, where a search for a later X starts.
 * pick_device keeps each device's stretch of its tick's two ends, and
 * searches the knots again only when an end has left it (its age grows
 * by the merged stream's gaps, ~1/16 of its own on a model of 16
 * devices: most arrivals leave both ends where they were).
 */
struct cdf_piece {
	double from, to, v0, dv, c0, dc;
	size_t knot;
};

/* D's stretch at X (D->nk > 0, its knots not decreasing), searched from
 * P's knot when that is at or below X, else from knot ALT when that is,
 * else from the first: the last knot with v <= X, found by galloping (1,
 * 2, 4, ... knots on) and then halving, the same knot from any start at
 * or below X. */
static inline void cdf_piece_find(struct cdf_piece *p, const struct model_dist *d, double x,
				  size_t alt)
{
	size_t n = d->nk, lo = p->knot < n && d->v[p->knot] <= x ? p->knot
			       : alt < n && d->v[alt] <= x	 ? alt
								 : 0;
	size_t hi = lo + 1;
	if (x < d->v[0]) {
		*p = (struct cdf_piece){-INFINITY, d->v[0], 0, 1, 0, 0, 0};
		return;
	}
	if (x >= d->v[n - 1]) {
		*p = (struct cdf_piece){d->v[n - 1], INFINITY, 0, 1, 1, 0, n - 1};
		return;
	}
	for (size_t step = 1; hi < n && d->v[hi] <= x; step *= 2) { /* v[hi] > x, or n */
		lo = hi;
		hi += step;
	}
	hi = hi < n ? hi : n;
	while (hi - lo > 1) { /* the last knot with v <= x */
		size_t mid = (lo + hi) / 2;
		if (d->v[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	/* v[lo] <= x < v[lo + 1]: a stretch of its own (the point mass's
	 * c[lo + 1] below stands for knots out of order, refused on reading:
	 * an empty stretch, searched again at the next X) */
	if (d->v[lo + 1] - d->v[lo] > 0)
		*p = (struct cdf_piece){d->v[lo], d->v[lo + 1],
					d->v[lo], d->v[lo + 1] - d->v[lo],
					d->c[lo], d->c[lo + 1] - d->c[lo],
					lo};
	else
		*p = (struct cdf_piece){x, x, 0, 1, d->c[lo + 1], 0, lo};
}

/* D's CDF at X from stretch P, found anew when X is outside it (a search
 * from ALT when P's knot is past X): the same terms in the same expression
 * as a search from the first knot each time. */
static inline double cdf_piece_at(struct cdf_piece *p, const struct model_dist *d, double x,
				  size_t alt)
{
	if (!(x >= p->from && x < p->to))
		cdf_piece_find(p, d, x, alt);
	return p->c0 + p->dc * (x - p->v0) / p->dv;
}

/* A device's own arrival process: when its last I/O arrived.  N and LAST
 * move only through gen_dev_drawn, which keeps pick_device's AVX2 rows
 * (struct devlanes) in step. */
struct devclock {
	double n;    /* I/O given to it so far (whole: exact in a double) */
	double last; /* ns, in the model's clock (times the rate factor) */
	double mean; /* its mean gap, ns (a device without a gap CDF: exponential) */
	/* its gap CDF's stretches at its last look, a tick early and a tick
	 * late (pick_device) */
	struct cdf_piece lo, hi;
	/* op_bias of each arrival's op so far, and those arrivals (pick_device) */
	double bias_sum;
	uint64_t bias_n;
};

/*
 * Device C's hazard at its age A (pick_device): the density of its gaps
 * at A over the share of them not shorter, per ns, measured over one tick
 * DT of the clock (so a point mass at A, such as zero gaps, counts).
 * Past its longest gap, that of an exponential of its mean (a device idle
 * for a phase is not overdue for ever); without a gap CDF the same; 0
 * without a mean.  GP: its gap CDF.
 */
static inline double devclock_hazard(struct devclock *c, const struct model_dist *gp, double a,
				     double dt)
{
	if (!isfinite(c->mean))
		return 0;
	if (!gp->nk)
		return 1 / c->mean;
	/* the late end's search from the early end's knot when its own is
	 * past it (the device's age gone back to 0) */
	double t0 = cdf_piece_at(&c->lo, gp, a - dt / 2, 0);
	double t1 = cdf_piece_at(&c->hi, gp, a + dt / 2, c->lo.knot), surv = 1 - t0;
	return surv <= 1e-9 ? 1 / c->mean : (t1 - t0) / (surv * dt);
}

/* gen.c: pick_device's terms of each device kept in rows for AVX2's
 * lanes (the same doubles as one device at a time), made from clocks DC
 * (M->ndevs); NULL without AVX2 or memory (one device at a time then).
 * free() it. */
struct devlanes;
struct devlanes *gen_dev_lanes(const struct model *m, const struct devclock *dc);
/* gen.c: each device's weight for the I/O arriving at X (model clock; DT:
 * a tick of it) in pick_device's draw: its hazard at its age
 * (devclock_hazard) times its share's push, (its share of COUNT + 4) /
 * (its I/O + 4), times its op's bias where fitted (whose sums it moves
 * on); into H (M->ndevs rounded up to 4).  From L's rows when L is not
 * NULL, else from DC one device at a time. */
void gen_dev_weights(const struct model *m, struct devclock *dc, struct devlanes *l, double x,
		     double dt, double count, int op, double *h);
/* gen.c: device D drawn for the I/O at X: its clock in DC and L (or NULL)
 * moved on. */
void gen_dev_drawn(struct devclock *dc, struct devlanes *l, size_t d, double x);

struct model_gen {
	const struct model *m;
	struct model_gen_opts o;
	uint64_t s[4];	/* xoshiro256** */
	uint64_t sp[4]; /* the same, for addresses (and whether an I/O continues a run) */
	uint64_t sz[4]; /* the same, for the sizes' quotas */
	double end;
	double wl;		       /* window length, ns */
	uint64_t seen[REEL_OP__COUNT]; /* the model's I/O so far (its windows') */
	uint64_t done[REEL_OP__COUNT]; /* I/O generated so far */
	uint64_t count;
	uint64_t win; /* next window to fill (cycles over the model's) */
	size_t phase; /* phase of the buffered window */
	double *bt;   /* buffered arrival times of one window */
	uint8_t *bop;
	size_t nbuf, pos, cap;
	/* bt's and bop's first this many and sc's first sc_pop made present
	 * (gen_populate: written once, they stay) */
	size_t bt_pop, sc_pop;
	int *gap_class;
	int *last_op;
	struct quota *s_size; /* per phase and op */
	/* ceil(2^64 / r) for r in [0, QUOTA_MAX] (0, 1: unused): quota_block's
	 * shuffle takes its draws mod r by multiplies (quota_mod) */
	uint64_t *quota_mul;
	/* per phase and op: the exponent a of the sizes drawn inside a
	 * stretch of their CDF (v0 + (v1 - v0) t^a for t uniform), so that
	 * they have the trace's mean (size_tilt_init) */
	double *size_tilt;
	/* per phase and op: where the largest size is drawn as itself
	 * (size_top, done once; 1: nowhere) */
	double *size_tops;
	/* per phase and op: its CDF's thin stretches (stretch_thin), drawn
	 * at their mean (0: none) */
	double *size_thin;
	/* each re-use pass I/O's phase and window (pass_window), the
	 * devices' in turn */
	uint16_t *pass_ph;
	struct gen_pass_win *pass_win;
	/* the re-use pass's I/O as places in their window's arrivals, sorted
	 * (pass_pins_init): window << 32 | place << 1 | write; read by the
	 * arrivals' side (pin_ops), fixed once built */
	int64_t *pins;
	size_t npin;
	/* per phase, op and kind (run start, run continued), sizes drawn that
	 * a kept run's I/O left (up to GEN_POOL): the stream's other I/O take
	 * them first (size_pick) */
	double *pool;
	uint8_t *npool;
	double *pool_want; /* the size the last kept run's I/O wanted (0: none) */
	/* QUOTA_FRESH (gen_space.c) where a device has sizes of its own, else 0:
	 * or'ed into the runs' next I/O's quota draws (disksim: the run starts'
	 * strata are the other disks' 8 and 16 KiB, not its log's) */
	int seq_fresh;
	/* sizes given the kind of I/O: per phase and op, [0] a run start, [1]
	 * a run's next I/O (no knots: the op's sizes alone) */
	struct model_dist (*csize)[REEL_OP__COUNT][2];
	/* per phase and op: the trace's share of I/O continuing a run; the
	 * runs' proposals so far (I/O, continuing) */
	double (*seq_want)[REEL_OP__COUNT];
	uint64_t (*seq_seen)[REEL_OP__COUNT][2];
	struct strat s_lead;
	double dev_cum[MODEL_MAX_DEVS];
	struct devclock *dc; /* NULL: each I/O's device drawn by share */
	struct devlanes *dl; /* dc's terms for AVX2 (gen_dev_lanes), or NULL */
	struct devstate *ds;
	/* blocks touched, hashed (2^TOUCH_BITS bits: a false "touched" now and
	 * then), when a device has a fitted re-use */
	uint64_t *touched;
	/* the same set kept direct (gen_space.c, touch_direct_init): bit B is
	 * block B of the model's one device, for blocks below touch_nb, where
	 * no two of them share a hashed bit; NULL: the hashed set is used
	 * (then TOUCHED holds it; untouched memory until then) */
	uint64_t *touch_d;
	uint64_t touch_nb;
	/* the touched set kept exact where it would start hashed (many
	 * devices, or one past TOUCH_D0; gen_space.c, touch_exact_init):
	 * bit B of touch_x[ID] is block B of the device whose id is ID, for
	 * blocks below touch_xn[ID] (past it: never marked, untouched);
	 * touch_xon 0: not kept so (TOUCHED then holds the set) */
	uint64_t *touch_x[MODEL_MAX_DEVS];
	uint64_t touch_xn[MODEL_MAX_DEVS];
	int touch_xon;
	/* blocks written, kept as the touched set is (gen_space.c, writ_init):
	 * hashed in WRIT, or direct in WRIT_D (touch_nb blocks) while touch_d
	 * is; only where a device re-uses most starts (start_hot's re-using
	 * writes go to written blocks: writ_steer); both NULL elsewhere */
	uint64_t *writ;
	uint64_t *writ_d;
	struct gen_thread *thr; /* the arrivals drawn on a thread (gen_thread.c) */
	/* the placing side's batch from it: its next arrival and its end
	 * (model_gen_next takes them here, gen_thread_next at the end) */
	const struct gen_arr *arr_at, *arr_end;
	/* scratch of a window's gaps (the cascade, squeeze, kept_fit: their
	 * sorts' and redraw_gaps' keys too) and burst_layout's lengths, kept
	 * from window to window (gen_scratch, gen_keys) */
	double *sc;
	uint64_t *sk;
	size_t sc_cap, sk_cap;
	/* the cascade's places of the gaps (their ranks), kept from window to
	 * window; ranked: those of the window's last cascade are in place for
	 * squeeze (the gaps in bt as the cascade left them) */
	uint32_t *rk;
	size_t rk_cap;
	int ranked;
	/* per phase and op: whether its I/O continue runs (gen_space.c,
	 * continues: seq_want unknown or >= 0.05; set with seq_want, NULL
	 * with it) */
	uint8_t (*seq_cont)[REEL_OP__COUNT];
};
int gen_written(const struct devstate *s, uint64_t off, uint64_t len);
/* A device's unread granules (gen_space.c; tests/unit/test_model_unread.c
 * holds them to a copy of their plain forms): marked by an I/O, the
 * nearest set to a granule, a read start's by its reuse distance. */
void gen_unread_mark(struct unread *u, uint64_t off, uint64_t len, int set, uint64_t now);
int64_t gen_unread_near(const struct unread *u, uint64_t g);
/* The ring's live slots (the Fenwick tree's root: all its leaves). */
static inline uint32_t gen_unread_live(const struct unread *u)
{
	return u->fw[GEN_UNREAD_RING - 1];
}
int64_t gen_unread_back(struct unread *u, uint64_t now, double d, uint64_t want, uint32_t before,
			uint32_t after, uint32_t *t);

/* Of the ring's slots from 64 below slot I + 64 B (B the slot's bit) up to
 * 64 above it, in the 3 words W0, W1, W2 (bit B of W1: the slot, whose
 * bit is clear): the one nearest (NEAR at most either side, the older
 * first where as near) whose bit is set, as I/O back from the slot's K
 * (K + D's slot is D below; the ring's N I/O), or 0.  The words by value:
 * in registers (from an array, ~160 instructions a call: compile's
 * back_slot). */
static inline uint64_t ring_pick(uint64_t w0, uint64_t w1, uint64_t w2, uint64_t b, uint64_t k,
				 uint64_t n, uint64_t near)
{
	uint64_t up = n - k < near ? n - k : near, dn = k - 1 < near ? k - 1 : near;
	/* bit J of A: K + 64 - J back; bit J of C: K - 1 - J */
	uint64_t a = (b ? w0 >> b | w1 << (64 - b) : w0) & (up ? ~0ull << (64 - up) : 0);
	uint64_t c = (b < 63 ? w1 >> (b + 1) | w2 << (63 - b) : w2) & (dn ? ~0ull >> (64 - dn) : 0);
	if (!a && !c)
		return 0;
	uint64_t da = a ? (uint64_t)__builtin_clzll(a) + 1 : 65;
	uint64_t dc = c ? (uint64_t)__builtin_ctzll(c) + 1 : 65;
	return da <= dc ? k + da : k - dc;
}

/* Word Q of the ring's slots back_slot may take: of OP where MINOR, not
 * gone (a re-use went back to it since) where FEW. */
static inline uint64_t ring_ok(const struct devstate *s, uint64_t q, int op, int minor, int few)
{
	return (few ? ~s->gone[q] : ~0ull) & (minor ? s->ropm[op][q] : ~0ull);
}

/* back_slot's search (gen_space.c), 1 <= K <= N (the ring's I/O): the I/O
 * nearest K back, K first, then K + 1, K - 1, K + 2, .. (GEN_NEAR either
 * side), that no re-use went back to since where FEW, of OP where MINOR,
 * and where FEW first one on a hot block (GEN_HOT_NEAR either side); none,
 * K.  The ring's bitmaps a word at a time, the 3 words around K's slot. */
static inline uint64_t ring_nearest(const struct devstate *s, uint64_t k, uint64_t n, int op,
				    int minor, int few)
{
	uint64_t i = (s->hn - k) % GEN_HIST, b = i % 64, q = i / 64;
	uint64_t q0 = (q + GEN_HIST / 64 - 1) % (GEN_HIST / 64), q2 = (q + 1) % (GEN_HIST / 64);
	uint64_t w1 = ring_ok(s, q, op, minor, few), at = 0;
	if (!few && w1 >> b & 1) /* K's own, no hot one looked for */
		return k;
	/* a hot one first: K's own, else the nearest; none in the 3 words
	 * (a device without hot blocks: compile), no search */
	if (few && (s->rhot[q0] | s->rhot[q] | s->rhot[q2])) {
		uint64_t h1 = w1 & s->rhot[q];
		if (h1 >> b & 1)
			return k;
		at = ring_pick(ring_ok(s, q0, op, minor, few) & s->rhot[q0], h1,
			       ring_ok(s, q2, op, minor, few) & s->rhot[q2], b, k, n, GEN_HOT_NEAR);
	}
	if (!at && !(w1 >> b & 1))
		at = ring_pick(ring_ok(s, q0, op, minor, few), w1, ring_ok(s, q2, op, minor, few),
			       b, k, n, GEN_NEAR);
	return at ? at : k;
}

/* resume_at's walk down the ring (gen_space.c): of the slots from slot I
 * down to the first of its word, those not known touched (rtouch) and of
 * OP's kind (a read, or not: rop's bitmap of reads), as bits of the word
 * (bit P: slot I - I % 64 + P).  The walk takes them from the highest
 * bit, a word at a time: one by one, each slot's bits were found again
 * (git: 10 slots looked at a call, ~50 instructions each). */
static inline uint64_t ring_resume_bits(const struct devstate *s, uint64_t i, int op)
{
	uint64_t flip = op != REEL_OP_READ ? ~0ull : 0, q = i / 64;
	return ~s->rtouch[q] & (s->ropm[REEL_OP_READ][q] ^ flip) & (~0ull >> (63 - i % 64));
}

/* An I/O of OP at OFF about to fill the ring's next slot (placed, before
 * remember writes its offset): the slot's op, in rop and in the ops'
 * bitmaps (ring_nearest, gen_written), and its run's write bounds
 * (gen_written), begun anew at the run's first slot. */
static inline void gen_ring_op(struct devstate *s, int op, uint64_t off)
{
	uint64_t i = s->hn % GEN_HIST, bit = 1ull << (i % 64), r = i / GEN_WRUN;
	s->ropm[s->rop[i]][i / 64] &= ~bit;
	s->ropm[op][i / 64] |= bit;
	s->rop[i] = (uint8_t)op;
	if (s->hn % GEN_WRUN == 0) {
		s->wlo[r] = UINT64_MAX;
		s->whi[r] = 0;
	}
	if (op != REEL_OP_READ) {
		s->wlo[r] = off < s->wlo[r] ? off : s->wlo[r];
		s->whi[r] = off > s->whi[r] ? off : s->whi[r];
	}
}
#define TOUCH_BITS 26
#define TOUCH_MAX 4096	/* blocks of one I/O marked (16 MiB) */
#define TOUCH_LOOK 1024 /* blocks of a stretch looked at (evenly spread) */
#define TOUCH_SCAN 64	/* the same, scanning on for a fresh stretch */
/* Where bit K of the touched set is kept: at K * TOUCH_INV (mod 2^TOUCH_BITS),
 * the inverse of the step that the hash's K takes from one block to the
 * next (TOUCH_MUL / 2^(64 - TOUCH_BITS), rounded: 9 steps in 10), so an
 * I/O's blocks fall side by side in memory, not a cache miss each (the
 * same set: only where its bits are kept changes). */
#define TOUCH_MUL 0x9e3779b97f4a7c15ull
#define TOUCH_STEP ((TOUCH_MUL + (1ull << (63 - TOUCH_BITS))) >> (64 - TOUCH_BITS))
#define TOUCH_INV 0x252e5d7ull
_Static_assert(((TOUCH_STEP * TOUCH_INV) & ((1ull << TOUCH_BITS) - 1)) == 1, "TOUCH_INV");
/* The first block distance D > 0 whose hashes' difference, D * TOUCH_MUL
 * mod 2^64, is within 2^(64 - TOUCH_BITS) of 0: blocks of one device less
 * than it apart never share a bit (gen_space.c's direct set). */
#define TOUCH_D0 39088169u
static inline uint64_t touch_slot(uint64_t k)
{
	return (k * TOUCH_INV) & ((1ull << TOUCH_BITS) - 1);
}
/* The blocks from the one of hash X on whose slots follow X's side by side
 * (X's own included: 1-10).  The next block's hash adds TOUCH_MUL, its
 * slot 1 when the low bits below the slot's carry (TOUCH_STEP), else it
 * jumps (TOUCH_STEP - 1); they carry while they are at least TOUCH_DEF,
 * each carry taking TOUCH_DEF off them. */
#define TOUCH_LOW ((1ull << (64 - TOUCH_BITS)) - 1)
#define TOUCH_DEF (TOUCH_LOW + 1 - (TOUCH_MUL & TOUCH_LOW))
_Static_assert(TOUCH_STEP == (TOUCH_MUL >> (64 - TOUCH_BITS)) + 1, "TOUCH_DEF");
static inline uint64_t touch_stretch(uint64_t x) { return (x & TOUCH_LOW) / TOUCH_DEF + 1; }

/* Of N blocks from the one of hash X on, the first ones whose bits lie in
 * one word: their count (1-10, at most N), the word's index in *W and
 * their bits in *BITS. */
static inline uint64_t touch_word(uint64_t x, uint64_t n, uint64_t *w, uint64_t *bits)
{
	uint64_t k = touch_slot(x >> (64 - TOUCH_BITS)), r = k & 63, nb = touch_stretch(x);
	nb = nb < n ? nb : n;
	nb = nb < 64 - r ? nb : 64 - r;
	*w = k >> 6;
	*bits = (~0ull >> (64 - nb)) << r;
	return nb;
}

/* Whether any of N blocks from the one of hash X on (touch_run's) is set
 * in T: a word's bits at once. */
static inline int touch_run_any(const uint64_t *t, uint64_t x, uint64_t n)
{
	for (uint64_t w, bits, nb; n; n -= nb, x += nb * TOUCH_MUL) {
		nb = touch_word(x, n, &w, &bits);
		if (t[w] & bits)
			return 1;
	}
	return 0;
}

/* Mark N blocks in T from the one of hash X on (each next one's hash X +
 * TOUCH_MUL): the bits of blocks side by side set at once. */
static inline void touch_run(uint64_t *t, uint64_t x, uint64_t n)
{
	while (n) {
		uint64_t w, bits, nb = touch_word(x, n, &w, &bits);
		t[w] |= bits;
		x += nb * TOUCH_MUL;
		n -= nb;
	}
}

/* The direct set T's blocks B0 up to B1 (below TOUCH_D0; T holds NB of
 * them, whole words, and those past it are untouched: gen_space.c's
 * touch_direct_init): the first touched among them (FLIP 0; the first
 * untouched: FLIP ~0), else B1 + 1. */
static inline uint64_t touch_d_next(const uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1,
				    uint64_t flip)
{
	uint64_t e = b1 < nb ? b1 : nb - 1; /* the last block kept */
	if (b0 <= e) {
		uint64_t w = b0 >> 6, we = e >> 6;
		uint64_t v = (t[w] ^ flip) & (~0ull << (b0 & 63));
		/* four words passed at once while none of them answers (a band
		 * touched whole: chromium's scans for 1-2.5 MiB up the device
		 * passed 12 M words in 300k I/O, a word a step) */
		for (; !v && w + 4 <= we; w += 4)
			if ((t[w + 1] ^ flip) | (t[w + 2] ^ flip) | (t[w + 3] ^ flip) |
			    (t[w + 4] ^ flip))
				break;
		while (!v && ++w <= we)
			v = t[w] ^ flip;
		uint64_t b = w * 64 + (uint64_t)__builtin_ctzll(v | 1ull << 63);
		if (v && b <= e)
			return b;
	}
	return flip && b1 >= nb ? (b0 > nb ? b0 : nb) : b1 + 1;
}

/*
 * Whether every block region R's fresh starts can begin on is touched in
 * the direct set T (NB blocks; NULL: 0, not known), so that fresh_at at
 * any place remote draws in R (al_down of its offset, the align at most a
 * block: the block the offset is in) and scan_fresh over R's bounds find
 * none (gen_space.c, start_hot and fresh_tries skip them): the blocks of
 * R's stretch, from its low bound's to its high bound's (its end may
 * round up to it at a --capacity), all touched.  The direct set only
 * grows, so the blocks found touched stay so: S's full_b[R] is the first
 * not known touched, full_e[R] the stretch's last, and a look goes on
 * from full_b (gen_region_full_look), each block looked at about once over
 * the run.  Boot's 10M model at rate 1 (its device's 524,288 blocks all
 * touched by the end): 1.2 M scan_fresh calls and 1.5 M fresh tries a 1M
 * I/O, nearly all failing.
 */
int gen_region_full_look(const uint64_t *t, uint64_t nb, struct devstate *s, uint32_t r);
static inline int gen_region_full(const uint64_t *t, uint64_t nb, struct devstate *s, uint32_t r)
{
	uint32_t f = s->full_b[r];
	if (!t)
		return 0;
	if (f > s->full_e[r])
		return 1;
	if (!(t[f >> 6] >> (f & 63) & 1)) /* still untouched: most asks */
		return 0;
	return gen_region_full_look(t, nb, s, r);
}
/* gen_region_full's stretches of device DV's regions (S's rb and scale
 * set), the direct set's NB blocks: a region whose high bound's block is
 * not below NB, or whose align is over a block, gets block NB - 1 (past
 * the extent and its margin: never touched, so never full). */
void gen_region_full_init(const struct model_devspace *dv, struct devstate *s, uint64_t nb);

/* Whether any of the direct set T's blocks B0 to B1 (B0 <= B1; NB as
 * touch_d_next's) is touched: touch_d_next(T, NB, B0, B1, 0) <= B1, the
 * bits at once where B0 and B1 share a word under NB (a block or a few:
 * touched's asks, 30 an I/O on git's model). */
static inline int gen_touch_d_any(const uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1)
{
	if (!((b0 ^ b1) >> 6) && b1 < nb)
		return (t[b0 >> 6] >> (b0 & 63) & ~0ull >> (63 - (b1 - b0))) != 0;
	return touch_d_next(t, nb, b0, b1, 0) <= b1;
}

/* The exact set's look and mark (gen_space.c's direct_any, direct_mark:
 * the touched set a device, where it would start hashed): whether any of
 * T's blocks B0 to B1, STEP apart, is touched (those at or past NB never
 * are); blocks B0 to B1 marked, those at or past NB left out. */
int gen_touch_x_any(const uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1, uint64_t step);
void gen_touch_x_mark(uint64_t *t, uint64_t nb, uint64_t b0, uint64_t b1);

/* The direct set T's (as touch_d_next's, NB blocks, a multiple of 64:
 * touch_direct_init makes it one of 512) first stretch of M
 * untouched blocks (1 <= M <= 64) starting at block B + I, I < K: I, else
 * K.  A word of starts at a time: the untouched bits of its word and the
 * next (128), and'ed with themselves shifted (doubling to M) leave the
 * starts of M untouched in a row (none left: the word passed); a word
 * with none untouched from B on passed at once.  gen_space.c's touch_scan: two touch_d_next a hole
 * before, up to the first that fits (git: 11 holes a scan, its scans 7%
 * of the placing thread). */
/* Inlined always: called from two places (touch_scan's direct set and the
 * exact set's), GCC kept it out of line and boot's placing thread took
 * 0.36% more instructions at 300k I/O. */
__attribute__((always_inline)) static inline uint64_t
gen_touch_d_fit(const uint64_t *t, uint64_t nb, uint64_t b, uint64_t k, uint64_t m)
{
	uint64_t nw = nb / 64, end = b + k, w0 = b >> 6, we = (end - 1) >> 6;
	for (uint64_t w = w0; w <= we && k; w++) {
		uint64_t lo = (w < nw ? ~t[w] : ~0ull) & (w == w0 ? ~0ull << (b & 63) : ~0ull);
		if (!lo) { /* every block from B on touched: no start here */
			for (; w + 4 <= we && w + 4 < nw &&
			       (t[w + 1] & t[w + 2] & t[w + 3] & t[w + 4]) == ~0ull;
			     w += 4)
				; /* nor in the next four, all touched: passed at once */
			continue;
		}
		uint64_t hi = w + 1 < nw ? ~t[w + 1] : ~0ull;
		unsigned __int128 r = (unsigned __int128)hi << 64 | lo;
		for (uint64_t n = 1; n < m && r;) { /* r: the starts of N untouched, N to M */
			uint64_t sh = n < m - n ? n : m - n;
			r &= r >> sh;
			n += sh;
		}
		uint64_t v =
		    (uint64_t)r & (w == we && end & 63 ? ~0ull >> (64 - (end & 63)) : ~0ull);
		if (v)
			return w * 64 + (uint64_t)__builtin_ctzll(v) - b;
	}
	return k;
}

/* The spans of W blocks (1 <= W <= 64) at B0 + J SB, J = 1 to N (SB >= 1;
 * T and NB as gen_touch_d_fit's): the first J whose span is untouched
 * whole, less one; N if none is.  No span starts below the first stretch
 * of W untouched blocks from B0 + SB on, so each search of it (a word of
 * starts at a time) passes every span before it; the span at or after its
 * start is the answer where it starts there, else the next search's first.
 * gen_space.c's scan_steps passed the spans one by one: blktrace's model
 * x88496 7.2 M of them in 1M I/O (5% of its placing thread). */
static inline uint64_t gen_touch_d_steps(const uint64_t *t, uint64_t nb, uint64_t b0, uint64_t w,
					 uint64_t sb, uint64_t n)
{
	uint64_t last = b0 + n * sb; /* the last span's first block */
	for (uint64_t j = 1; j <= n;) {
		uint64_t c = b0 + j * sb, p = c + gen_touch_d_fit(t, nb, c, last - c + 1, w);
		if (p > last)
			return n;
		j = (p - b0) / sb;
		if (b0 + j * sb == p)
			return j - 1;
		j++;
	}
	return n;
}

/* The touched set, zeroed (NULL without memory), a mapping of its own.
 * (On 2 MiB pages until round 20: its probes land anywhere in its 8 MiB;
 * on small pages gen's CPU measured the same, 4.04 s against 4.01 at 10M
 * I/O, and a huge page first written costs 25 ms on this VM.) */
#define TOUCH_BYTES ((size_t)1 << (TOUCH_BITS - 3))
static inline uint64_t *touch_alloc(void) { return reel_calloc_big(1, TOUCH_BYTES); }

/* Ask for the words of the blocks from B0 on (device DEV) to TOUCH_AHEAD
 * past it, as a run's next I/O mark them: a run goes on at the cursor,
 * mostly.  From *PF on (where the last ask stopped, then set) while it is
 * in that stretch: each block asked for a few I/O before it is marked
 * (asked for one I/O ahead, a miss to memory still came in after the mark
 * wanted it).  The block's slots jump every 9 or 10 blocks, so a look
 * every 8th finds each stretch; so the last ask may stop up to 7 blocks
 * past TOUCH_AHEAD (taken as where it stopped: an I/O of under 7 blocks
 * after it, a third of the 10M gen_reel model's, asked for all 16 words
 * again from the cursor, 36% of its I/O did).  Inlined: a call of it GCC
 * would take for one without effect and drop. */
#define TOUCH_AHEAD 128 /* blocks (512 KiB: a few I/O of a run) */
__attribute__((always_inline)) static inline void touch_prefetch(const uint64_t *t, uint16_t dev,
								 uint64_t *pf, uint64_t b0)
{
	uint64_t b = *pf > b0 && *pf <= b0 + TOUCH_AHEAD + 7 ? *pf : b0, end = b0 + TOUCH_AHEAD;
	uint64_t x = (b ^ ((uint64_t)dev << 48)) * TOUCH_MUL;
	for (; b < end && !(end >> 48); b += 8, x += 8 * TOUCH_MUL)
		__builtin_prefetch(&t[touch_slot(x >> (64 - TOUCH_BITS)) >> 6]);
	*pf = b;
}

/* Whether the hashed set's words ahead of the cursor are worth asking
 * for (touch_prefetch, 16 lines to memory) after an I/O at OFF: where
 * more than 1 in 16 of the device's last ~16 I/O started within
 * TOUCH_AHEAD blocks of the cursor before them (touch_on, 2^16 = all).
 * disksim's 16 devices at rate 1: 2.2% of their I/O there, 1.8% of
 * touched_any's looks in the device's last window asked for: the other
 * 98% of its 160M lines a 10M gen asked for pushed the chain's tables
 * and the regions' out of the cache and stalled the placing thread at
 * the prefetch (5% of its samples).  Only asks: the output is the
 * same whatever this answers. */
static inline int gen_touch_goes_on(struct devstate *s, uint64_t off)
{
	int32_t on = (off >> 12) - s->touch_w0 < TOUCH_AHEAD ? 1 << 16 : 0;
	s->touch_on += (on - s->touch_on) / 16;
	s->touch_w0 = s->cursor >> 12;
	return s->touch_on > (1 << 12);
}

/*
 * Whether a widened fresh start skips start_wanted's search and re-uses at
 * once (1; the start counted as a one-draw start that found no room): on
 * a device whose last GEN_FULL fresh starts all ended re-using, but every
 * GEN_FULL-th one-draw turn (nfresh), which makes the full search as
 * before, and a device whose starts never re-use in the trace (p_reuse 0:
 * every re-use there a departure from the trace; an op's own share 0 is
 * skipped all the same, chromium's reads: else it saves nothing).  At the
 * 10M rates most fresh starts drew once into a full region, looked, went
 * up the device (room_up) and re-used: compile's x21979 model, 9.5 M such
 * starts after 32 re-uses in a row, 405 found room.  git's model
 * (p_reuse 0) lost a quarter of its written blocks with the skip: its
 * regions' room comes back now and then.
 */
static inline int gen_search_skipped(const struct model_devspace *dv, struct devstate *s)
{
	if (!s->widen || s->reuse_run < GEN_FULL || !(s->nfresh % GEN_FULL) || !(dv->p_reuse > 0))
		return 0;
	s->nfresh++;
	s->miss = -1; /* no region drawn: none counted */
	s->fresh_fails++;
	return 1;
}

/* Whether a fresh start's look at its I/O's own blocks [OFF, OFF + LEN)
 * is needed after its run's SPAN was looked at (LOOK blocks of it,
 * evenly spread) and found untouched (gen_space.c, fresh_span): where
 * the I/O has LOOK blocks or more (the span's look may have stepped over
 * its blocks), or where the span is longer and was stepped over.  A span
 * of fewer than LOOK + 1 blocks was looked at block by block, the I/O's
 * among them (LEN < SPAN: the same first block), so the I/O's look could
 * only answer "untouched" again: disksim's 10M rate-1 gen asked it 9.2M
 * times of touched_any's 26.9M asks, each a word still in the cache. */
static inline int gen_fresh_own_look(uint64_t off, uint64_t len, uint64_t span, uint64_t look)
{
	uint64_t nb = len ? ((off + len - 1) >> 12) - (off >> 12) : 0;	 /* blocks - 1 */
	uint64_t sb = span ? ((off + span - 1) >> 12) - (off >> 12) : 0; /* the span's */
	return nb >= look || (span > len && sb >= look);
}

/* model_dist_seek(D, U, LO) (LO <= nk - 2), its first two steps' tests
 * made at once: the walk's count of steps (0 to 3 from the guide's knot
 * on boot's offsets, 0 or 1 at 95% of remote's 3.1 M draws a million I/O)
 * missed its branch at nearly every other draw.  The same answer for any
 * cumulatives: the second step is taken where both tests hold, and the
 * walk goes on from there. */
static inline size_t gen_dist_seek(const struct model_dist *d, double u, size_t lo)
{
	size_t n = d->nk, i2 = lo + 3 < n ? lo + 2 : lo + 1; /* a knot inside */
	size_t s1 = (size_t)(lo + 2 < n) & (size_t)(d->c[lo + 1] <= u);
	size_t s2 = (size_t)(lo + 3 < n) & (size_t)(d->c[i2] <= u);
	if (s1 & s2)
		return model_dist_seek(d, u, lo + 2);
	return lo + s1;
}
/* model_dist_inv_at by gen_dist_seek (remote's place in its region). */
static inline double gen_dist_inv_at(const struct model_dist *d, double u, size_t *k)
{
	double v;
	if (model_dist_inv_end(d, u, &v))
		return v;
	*k = gen_dist_seek(d, u, model_dist_guided(d, u));
	return model_dist_lerp(d, u, *k);
}
/* Whether gen_dist_inv_at(D, U) does not fall as U grows over all
 * doubles but NaN (checked, not assumed: its lerp's roundings): at least 2
 * knots, the cumulatives from at most 0 and the values not falling (and
 * not NaN), the guide's knots at or below their 1/MODEL_DIST_GUIDE (so
 * the walk finds the last knot at or below U), and at each knot's
 * cumulative in (0, 1), 0 and 1 the answer just below at most the
 * answer there (inside a stretch between knots the lerp's roundings keep
 * its order; only where the stretch changes could it fall). */
int gen_place_monotone(const struct model_dist *d);
/* The least double V with gen_dist_inv_at(D, V) >= X (D monotone:
 * gen_place_monotone): -infinity where every V is (V at or below 0
 * answers as 0), +infinity where none is (V at or above 1 as 1). */
double gen_place_least(const struct model_dist *d, double x);
/* S's pv and pv_ok for device DV (S's rb made): pv[R] gen_place_least
 * of rb[R], R = 0 .. nregions. */
void gen_place_init(const struct model_devspace *dv, struct devstate *s);
/* Whether remote's place at V, gen_dist_inv_at(&DV->addr, V) (V not NaN),
 * is inside region R (at or above S's rb[R], below rb[R + 1]): where the
 * place is not taken, its draws alone wanted (a full region's: they
 * decide whether one more draw is made), without the inverse's search and
 * division where pv_ok. */
static inline int gen_place_inside(const struct model_devspace *dv, const struct devstate *s,
				   uint32_t r, double v)
{
	if (s->pv_ok)
		return v >= s->pv[r] && v < s->pv[r + 1];
	size_t k = 0;
	double x = gen_dist_inv_at(&dv->addr, v, &k);
	return x >= s->rb[r] && x < s->rb[r + 1];
}
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xo_next_sh's step of the state alone, where the draw is not read (its
 * output is a function of the state before: the state after is the same) */
static inline __attribute__((always_inline)) void xo_step_sh(uint64_t *s, int sh)
{
	uint64_t t = s[1] << sh;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
}
/* xoshiro256**'s step and its draw; SH is 17 (a variable where a caller
 * wants the shift by a register: gen.c's cascade, BMI2's shlx) */
static inline __attribute__((always_inline)) uint64_t xo_next_sh(uint64_t *s, int sh)
{
	uint64_t r = rotl(s[1] * 5, 7) * 9;
	xo_step_sh(s, sh);
	return r;
}
static inline uint64_t xo_next(uint64_t *s) { return xo_next_sh(s, 17); }
static inline uint64_t next64(struct model_gen *g) { return xo_next(g->s); }

static inline double unit(uint64_t x) { return (double)(x >> 11) * (1.0 / 9007199254740992.0); }
static inline double rnd(struct model_gen *g) { return unit(next64(g)); }

/* A new block of ST's strata from the stream S: the identity shuffled
 * (Fisher-Yates from the top, a draw mod i + 1 each), pos at 0.  Out of
 * line and unrolled, each remainder by a constant: a 64-bit division each
 * before (63 a block, one a draw), the loop inlined at each draw. */
void gen_strat_fill(uint64_t *s, struct strat *st);
/* gen.c: keys A (N 64-bit keys, read and written by memcpy: they may be
 * doubles >= 0 as their bits, as sort_gaps sorts gaps in place) in order,
 * largest first when DESC, stable, each tag of TA (or NULL) moved with
 * its key; B, TB: N of scratch (sort_gaps' and gen_gaps_beyond's radix
 * sort, 8- or 11-bit digits by N, N below 2^32: its counts and tags are
 * 32-bit; for tests). */
void gen_key_sort(void *a, void *b, uint32_t *ta, uint32_t *tb, size_t n, int desc);
/* gen.c: N gaps' ranks GP (longest first) into OUT in the order of a
 * b-model cascade of split B, drawing from the stream GS (xoshiro256**'s
 * 4 words, moved on); GP and TMP: N + 1 each, in one array (TMP right
 * after GP: the loop reaches GP from TMP), both scratch after.  The
 * AVX2 and BMI2 build where the processor has them and PLAIN is not 1
 * (reel_codec_plain also asks for the plain one), its draws made ahead in
 * four lanes (gen.c's casc_stream) where N is 1024 or more, or PLAIN is
 * 2 (tests); the same draws and arrangement every way
 * (test_model_cascade_arrange). */
void gen_cascade_arrange(uint64_t *gs, uint32_t *gp, uint32_t *tmp, uint32_t *out, size_t n,
			 double b, int plain);
/* gen.c: draw_gaps' draws (and its cascade's) from the lanes in windows
 * of APART gaps or more not cascaded, CASCADED or more cascaded (1024 and
 * 128 unless set: tests ask for them at any size); the same draws */
void gen_gap_lanes_min(size_t apart, size_t cascaded);
/* the stratified draw from the stream S */
static inline double sdraw_s(uint64_t *s, struct strat *st)
{
	if (st->pos == 0 || st->pos >= STRATA)
		gen_strat_fill(s, st);
	return (st->perm[st->pos++] + unit(xo_next(s))) * (1.0 / STRATA);
}
static inline double sdraw(struct model_gen *g, struct strat *st) { return sdraw_s(g->s, st); }
/* Addresses and sizes draw from a stream of their own (sp): what they
 * draw does not move the arrivals drawn from the main one. */
static inline uint64_t next64_sp(struct model_gen *g) { return xo_next(g->sp); }
static inline double rnd_sp(struct model_gen *g) { return unit(next64_sp(g)); }
static inline double sdraw_sp(struct model_gen *g, struct strat *st) { return sdraw_s(g->sp, st); }
/* The sizes' quotas draw from a third stream: how many sizes a change
 * draws does not move the addresses drawn. */
static inline uint64_t next64_sz(struct model_gen *g) { return xo_next(g->sz); }
static inline double rnd_sz(struct model_gen *g) { return unit(next64_sz(g)); }

/* The weight quota_at gives the stretch of the size CDF D from knot J to
 * J + 1, inside [A, B], for an I/O of kind SEQ: its width there times the
 * kind's share of it (SHARE: of run continuations), 0 where either is
 * none; its ends in [A, B] in *LO and *HI. */
static inline double quota_weight(const struct model_dist *d, const float *share, int seq,
				  uint32_t j, double a, double b, double *lo, double *hi)
{
	*lo = d->c[j] > a ? d->c[j] : a;
	*hi = d->c[j + 1] < b ? d->c[j + 1] : b;
	double w = seq ? share[j] : 1 - share[j];
	return *hi > *lo && w > 0 ? (*hi - *lo) * w : 0;
}

/* quota_at's weights over the whole of D (A = 0, B = 1) for kind SEQ,
 * from knot K0: those above 0 in W, their knots in K (as many as D's
 * knots at most), their count returned, and the sum of all of them in
 * *TOT, added in quota_at's order (its first pass: the weights of 0 add
 * nothing). */
static inline uint32_t quota_any_make(const struct model_dist *d, const float *share, int seq,
				      uint32_t k0, double *w, uint16_t *k, double *tot)
{
	uint32_t m = 0;
	*tot = 0;
	for (uint32_t j = k0; j + 1 < d->nk && d->c[j] < 1; j++) {
		double lo, hi, pw = quota_weight(d, share, seq, j, 0, 1, &lo, &hi);
		*tot += pw;
		if (pw > 0) {
			w[m] = pw;
			k[m++] = (uint16_t)j;
		}
	}
	return m;
}

/* quota_at's second pass over the N weights W (of knots K) quota_any_make
 * kept, for X in [0, its sum): the point of D it gives, 1 past them all.
 * The same as the pass over every weight: X is never below 0 (it goes
 * on only where X >= the weight, then less it), so a weight of 0 neither
 * stops it nor changes X. */
static inline double quota_any_walk(const struct model_dist *d, const double *w, const uint16_t *k,
				    uint32_t n, double x)
{
	for (uint32_t t = 0; t < n; t++) {
		if (x < w[t]) {
			double lo = d->c[k[t]] > 0 ? d->c[k[t]] : 0,
			       hi = d->c[k[t] + 1] < 1 ? d->c[k[t] + 1] : 1;
			return lo + (hi - lo) * x / w[t];
		}
		x -= w[t];
	}
	return 1;
}

/* gen.c: how many times window W of the model is generated: whole repeats
 * of the timeline, then a part, the window cut at the end counted by its
 * share of a window (its I/O are cut in that proportion: fill_window). */
double gen_win_times(const struct model_gen *g, size_t w);

/* gen_space.c: set up the devices' state and the sizes given
 * sequentiality (0 or REEL_E_NOMEM); free what it allocated. */
int gen_space_init(struct model_gen *g);
void gen_space_free(struct model_gen *g);
/* Of gen_space_init, what the arrivals need (the re-use pass's pins,
 * pin_ops): 0 or REEL_E_NOMEM. */
int gen_space_init_arrivals(struct model_gen *g);
/* gen_tilt_for's first GEN_TILT_MEMO_LEVELS levels of bisection, the same for
 * every mean: tilt_mean at each node (by its place in the tree, root 1),
 * worked out once for a device's regions (each region's tilt_for made 24
 * calls of 128 pow; 76-91 M instructions of gen's set-up on git's,
 * compile's, kernel-src's and fiu's rate-1 fits, most of it again for
 * nodes another region had taken). */
#define GEN_TILT_MEMO_LEVELS 12
struct gen_tilt_memo {
	double v[1u << GEN_TILT_MEMO_LEVELS];
	uint8_t ok[1u << GEN_TILT_MEMO_LEVELS];
};
/* run_tilt's: the exponent a whose draws U^a have DV's mean run length
 * MEAN (tilt_mean by S's run_cap; bisection over log a in [2^-20, 2^20]);
 * M: a device's memo (zeroed at first), or NULL (the same answer). */
float gen_tilt_for(const struct model_devspace *dv, const struct devstate *s, double mean,
		   struct gen_tilt_memo *m);
/* gen.c: a generator that draws the arrivals only (gen_window,
 * gen_arrivals: the same ones as model_gen_create's, which it is without
 * the placement's state: the arrivals thread's twin); model_gen_destroy
 * frees it. */
int gen_create_arrivals(struct model_gen **out, const struct model *m,
			const struct model_gen_opts *o);
/* The size and offset of the next I/O, of op OP, on device D (index). */
void gen_space_place(struct model_gen *g, size_t d, int op, uint64_t *off, uint64_t *len);
/* The region of offset A (generated, scaled by S's scale) on device D,
 * through S's table; S NULL: A at scale 1, before the tables are made. */
uint32_t gen_space_region(const struct model_devspace *d, const struct devstate *s, uint64_t a);
/* gen_region_of: gen_space_region with S given, inline: an offset under
 * s->rtop (scale 1, A itself under the last bound) searched between its
 * two neighbouring entries of s->rlut (gen_region_lut, which
 * gen_space_region's table takes too); any other, by gen_space_region.
 * About ten asks an I/O from a dozen places (the cursor's, each try's,
 * the placed I/O's): the call and the scale's tests were a third of
 * each. */
static inline uint32_t gen_region_lut(const struct model_devspace *d, const struct devstate *s,
				      uint64_t xi) /* XI (unscaled) under the last bound */
{
	uint64_t j = xi >> s->rlut_sh;				/* j < GEN_RLUT */
	uint32_t lo = s->rlut[j], n = s->rlut[j + 1] - lo + 1u; /* the region is in there */
	for (uint32_t h; n > 1; n -= h) {
		h = n / 2;
		lo = d->bound[lo + h] <= xi ? lo + h : lo;
	}
	return lo;
}
static inline uint32_t gen_region_of(const struct model_devspace *d, const struct devstate *s,
				     uint64_t a)
{
	if (!(a < s->rtop))
		return gen_space_region(d, s, a);
	return gen_region_lut(d, s, a);
}
/* gen_region_of(D, S, A) where region H (< nregions) is A's by its two
 * bounds (the bounds rise from 0, so A in [bound[H], bound[H + 1]) is in
 * H alone; the last region takes A up to s->rtop, as the search does),
 * else the search.  The cursor is mostly in the region of the start it
 * ran on from: the search's loop missed 1.45 M branches in chromium's 1M
 * I/O (13% of the placing thread's), its asks of the cursor and the
 * start. */
static inline uint32_t gen_region_near(const struct model_devspace *d, const struct devstate *s,
				       uint64_t a, uint32_t h)
{
	if (a < s->rtop && d->bound[h] <= a) {
		if (h + 1 >= d->nregions || a < d->bound[h + 1])
			return h;
		if (h + 2 >= d->nregions || a < d->bound[h + 2]) /* a run over a bound */
			return h + 1;
	}
	return gen_region_of(d, s, a);
}
/* gen_region_of(D, S, A), kept for a later ask of the same A (S's rm_a,
 * rm_r: always a pair gen_region_of gave). */
static inline uint32_t gen_region_keep(const struct model_devspace *d, struct devstate *s,
				       uint64_t a)
{
	s->rm_r = gen_region_of(d, s, a);
	s->rm_a = a;
	return s->rm_r;
}
/* gen_region_keep(D, S, A) with the region kept before tried first
 * (gen_region_near): the cursor's, by the region its run started in (a
 * start's by the region its place was drawn in, remote's or a local
 * jump's landing's, was tried: at ~30% of chromium's starts it cost more
 * than the searches it saved). */
static inline uint32_t gen_region_keep_near(const struct model_devspace *d, struct devstate *s,
					    uint64_t a)
{
	s->rm_r = gen_region_near(d, s, a, s->rm_r);
	s->rm_a = a;
	return s->rm_r;
}
/* gen_region_of(D, S, A): the one kept where A is its offset, else by
 * gen_region_near from it. */
static inline uint32_t gen_region_memo(const struct model_devspace *d, const struct devstate *s,
				       uint64_t a)
{
	return a == s->rm_a ? s->rm_r : gen_region_near(d, s, a, s->rm_r);
}
/*
 * Run lengths (gen_space.c, run_length): the I/O left in a run drawn at
 * U in [0, 1], with the exponent A and the device's run CDF RUN below its
 * share CAP: round(RUN^-1(U^A * CAP)) - 1, at least 0 (gen_run_plain).  A
 * small integer from a continuous draw, U^A and the inverse CDF monotone
 * in U: most draws lie far from where it changes, and a table of where it
 * does (per exponent) answers them with a few comparisons, where pow and
 * the CDF's search were 10-11% of gen's CPU (boot, boot-nspawn, chromium,
 * compile at 10M I/O).  Edge K of a table: HI, where the length is K + 1
 * or more from, and LO, up to where it is K at most, both asked of
 * gen_run_plain itself when the table is made, about the U where it
 * changes (solved from RUN's) less and more a margin (1e-9 of U, and
 * U^A's 1e-12 at least: wider where A < 1e-3 flattens U^A), so that
 * pow's last-bit rounding near the change cannot move them.  A U that
 * reaches edge K (past the HI before) below its LO is K; between LO and
 * HI, or past the table, or above 1: the plain formula (U is never below 0:
 * pow's NaN there).
 */
#define GEN_RUN_EDGES 32
struct gen_run_edge {
	double hi, lo;
};
static inline int64_t gen_run_plain(const struct model_dist *run, double cap, double a, double u)
{
	if (a != 1)
		u = pow(u, a);
	u *= cap;
	double L = run->nk ? model_dist_inv(run, u) : 1;
	int64_t left = (int64_t)(L + 0.5) - 1;
	return left > 0 ? left : 0;
}
/* The edge of table E that U reaches: the first whose HI is above U, else
 * the last (U >= 0).  The edges' HI do not fall (gen_run_edges ends the
 * table where one would), so by halves without a branch: five compares,
 * where the walk from edge 0 took ~30 on kernel-src's long runs (71 M
 * instructions and 0.56 M missed branches of the placing thread's 2,279 M
 * a million I/O at --rate 84). */
static inline int gen_run_edge_at(const struct gen_run_edge *e, double u)
{
	_Static_assert(GEN_RUN_EDGES == 32, "gen_run_edge_at's five halvings");
	/* the halvings written out: GCC kept the loop's count and its
	 * branch (git x2986: 10.6 M instructions a million I/O) */
	int k = e[15].hi <= u ? 16 : 0;
	k += e[k + 7].hi <= u ? 8 : 0;
	k += e[k + 3].hi <= u ? 4 : 0;
	k += e[k + 1].hi <= u ? 2 : 0;
	return k + (e[k].hi <= u);
}
static inline int64_t gen_run_left(const struct model_dist *run, double cap, double a,
				   const struct gen_run_edge *e, double u)
{
	if (u >= 0) {
		int k = gen_run_edge_at(e, u);
		if (u < e[k].hi && u <= e[k].lo)
			return k;
	}
	return gen_run_plain(run, cap, a, u);
}
/* gen_run_left's answer, its first edge E0 (E[0]) asked first, from a
 * table of first edges kept side by side (a run of one I/O: E[0] alone
 * answers; test_model_run_edges holds it to gen_run_left). */
static inline int64_t gen_run_left0(const struct model_dist *run, double cap, double a,
				    const struct gen_run_edge *e, struct gen_run_edge e0, double u)
{
	if (u >= 0 && u < e0.hi)
		return u <= e0.lo ? 0 : gen_run_plain(run, cap, a, u);
	return gen_run_left(run, cap, a, e, u);
}
/* Of RUN below CAP: Y[K], the least U^A * CAP at which the length is
 * more than K (0: everywhere; INFINITY: nowhere below CAP), one table's
 * worth; then the table E of exponent A from them. */
void gen_run_ys(const struct model_dist *run, double cap, double *y);
void gen_run_edges(const struct model_dist *run, double cap, double a, const double *y,
		   struct gen_run_edge *e);
/* Whether region R is a hot block (one block wide). */
static inline int region_hot(const struct model_devspace *d, uint32_t r)
{
	return d->bound[r + 1] - d->bound[r] <= d->align;
}
/* A generated offset A in the model's units (A / S's scale): at scale 1
 * (no --capacity) A itself, the same double without a division (a few an
 * I/O, each in a search's chain of loads). */
static inline double gen_unscale(const struct devstate *s, uint64_t a)
{
	return s->scale == 1 ? (double)a : (double)a / s->scale;
}

/* Kept runs over a stretch (gen_space.c, reserved): run J over [LO[J],
 * HI[J]), the stretch [X, E) over it where X < HI[J] and E > LO[J].  ROWS
 * (gen_lr_size(N) doubles) holds per run I a row of GEN_LR_ROW: the runs
 * I to N - 1 by start, their starts up, padded with +inf to GEN_LR_W
 * slots, then from GEN_LR_W the greatest end of those up to each; a
 * stretch is over a run I on where, of those starting before E, the
 * greatest end is past X.  A search of 6 steps (h = 32 down to 1), where
 * the runs' compares one by one (up to 32, git's and chromium's) were 17%
 * of git's placing thread; unrolled, and with no bound on a step (the
 * padding answers no past the row's runs): with the bound, 35
 * instructions an ask (boot-nspawn's model x10846: 1.47 M asks in 1M
 * I/O). */
_Static_assert(MODEL_MAX_LONG <= 32, "gen_lr_over's search: at most 32 runs");
#define GEN_LR_W 64 /* a row's starts' slots: the search reads up to 62 */
#define GEN_LR_ROW (GEN_LR_W + MODEL_MAX_LONG) /* a row's doubles */
/* ROWS' doubles for N runs. */
static inline size_t gen_lr_size(uint32_t n) { return (size_t)n * GEN_LR_ROW; }
#define GEN_BK_BUCKETS 8192 /* devstate's bk: buckets at most */
int gen_bucket_init(const struct model_devspace *dv, struct devstate *s);

/*
 * scan_untouched's memo of the places without room.  A place (a block's
 * start P) has none for LEN where one of its LEN's blocks is touched, or
 * [P, P + LEN) is over a kept run still to come (reserved) or dense; P +
 * LEN past the extent is no place.  Each holds for every LEN' >= LEN (more
 * blocks; reserved and dense ask whether a stretch overlaps, or how many
 * offsets it holds); touched blocks are never untouched again, dense asks
 * the model's CDF alone, and reserved depends on the state through lnext
 * alone: so a chunk a scan of LEN found no room in has none for any LEN'
 * >= LEN while lnext is the same (gen_noroom_keyed forgets the rest where
 * it moves).  git's model x2986: 84% of its 89k scans in its first 3M I/O
 * passed all GEN_SCAN_FAR places (an eighth of its 2 GiB) and found none,
 * each anew; lnext moved 7 times.
 */
#define GEN_NR_CHUNKS 4096 /* devstate's nr: chunks at most */
#define GEN_NR_SH 10	   /* and of 2^10 blocks at least */
int gen_noroom_init(struct devstate *s);
/* gen_space.c's long_due, for the test. */
int gen_long_due(const struct model_devspace *dv, struct devstate *s);

/* Whether long_due, asked at the device's H-th I/O with the state as it
 * is (lcycle, lnext), would move the state or say due: H in a later
 * repeat of the model's duration, or past the next kept run's start.
 * Both rise with H (a division and a subtraction rounded, each
 * monotone), so once true it stays true. */
static inline int gen_long_moves(const struct model_devspace *dv, const struct devstate *s,
				 uint64_t h)
{
	uint64_t cycle = (uint64_t)((double)h / s->nper);
	if (cycle != s->lcycle)
		return 1;
	double pos = (double)h - (double)cycle * s->nper;
	return s->lnext < dv->nlong && pos >= (double)dv->longrun[s->lnext].at * s->nper;
}

/* The least H past s->hn where gen_long_moves says yes (it says no at
 * hn): near the repeat's end or the run's start as reals, then stepped
 * to the exact one (each side's test the same doubles long_due makes).
 * Past 2^52 I/O not looked for: hn + 1. */
static inline uint64_t gen_long_quiet_until(const struct model_devspace *dv,
					    const struct devstate *s)
{
	double e = ((double)s->lcycle + 1) * s->nper;
	if (s->lnext < dv->nlong) {
		double d = (double)s->lcycle * s->nper + (double)dv->longrun[s->lnext].at * s->nper;
		e = d < e ? d : e;
	}
	if (!(e < 0x1p52))
		return s->hn + 1;
	uint64_t q = e > (double)s->hn + 3 ? (uint64_t)e - 2 : s->hn + 1;
	while (q > s->hn + 1 && gen_long_moves(dv, s, q - 1))
		q--;
	while (!gen_long_moves(dv, s, q))
		q++;
	return q;
}

/* The memo forgotten where lnext moved since it was made. */
static inline void gen_noroom_keyed(struct devstate *s)
{
	if (s->nr && s->nr_lnext != s->lnext) {
		memset(s->nr, 0xff, s->nr_nc * sizeof(*s->nr));
		s->nr_lnext = s->lnext;
	}
}

/* The places from block B to the end of the chunks from its on known to
 * have no room for LEN, else 0 (B's not known so).  The chunks in a row
 * passed in a tight loop: a scan that found none passes 64 of them. */
static inline uint64_t gen_noroom_pass(const struct devstate *s, uint64_t b, uint64_t len)
{
	uint64_t c = b >> s->nr_sh, e = c;
	while (s->nr && e < s->nr_nc && s->nr[e] <= len)
		e++;
	return e > c ? (e << s->nr_sh) - b : 0;
}

/* The places from block B to its chunk's end (a scan's look stops there
 * to ask the next chunk's memo; UINT64_MAX without one). */
static inline uint64_t gen_noroom_chunk(const struct devstate *s, uint64_t b)
{
	return s->nr ? (((b >> s->nr_sh) + 1) << s->nr_sh) - b : UINT64_MAX;
}

/* A scan of LEN found no room at the places of blocks LO up to HI (not
 * HI; UINT64_MAX: up to the extent's end): the chunks wholly in them
 * marked. */
static inline void gen_noroom_mark(struct devstate *s, uint64_t lo, uint64_t hi, uint64_t len)
{
	if (!s->nr)
		return;
	uint64_t c = (lo + (1ull << s->nr_sh) - 1) >> s->nr_sh;
	uint64_t c1 = hi == UINT64_MAX ? s->nr_nc : hi >> s->nr_sh;
	for (c1 = c1 < s->nr_nc ? c1 : s->nr_nc; c < c1; c++)
		s->nr[c] = len < s->nr[c] ? len : s->nr[c];
}

/* scan_untouched (gen_space.c) for tests: the first place of LEN with room
 * up the device from FROM (then from its start), at most FAR places a
 * block apart: 1 and *AT, else 0. */
int gen_scan_untouched(struct model_gen *g, const struct model_devspace *dv, struct devstate *s,
		       uint64_t from, uint64_t len, uint64_t al, uint64_t far, uint64_t *at);
/* A fresh start's scan up the device by STEP (a multiple of a block) from
 * *OFF, whose run's SPAN is over a kept run still to come (reserved): the
 * next steps over it too (short of the greatest end of those over it,
 * reserved_end's), at most LEFT of them and those whose LEN fits the
 * extent, passed at once: *OFF the last, and how many.  Each would fail
 * start_clear as the first did (git's model x2986: its scans' 884k steps
 * in 300k I/O, half of them on a kept run's untouched stretch a span at
 * a time, each asked of reserved).  gen_space.c. */
uint64_t gen_steps_kept(const struct model_devspace *dv, const struct devstate *s, uint64_t *off,
			uint64_t len, uint64_t span, uint64_t step, uint64_t left);
/* scan_steps' steps from *OFF by STEP (whole blocks) whose spans of SPAN
 * bytes hold a touched block in the direct set (gen_space.c's
 * steps_touched, by gen_touch_d_steps), at most LEFT and those whose LEN
 * fits the extent, passed: *OFF the last, and how many.  For the test. */
uint64_t gen_steps_touched(const struct model_gen *g, const struct devstate *s, uint64_t *off,
			   uint64_t len, uint64_t span, uint64_t step, uint64_t left);
void gen_lr_rows(const double *lo, const double *hi, uint32_t n, double *rows);
static inline int gen_lr_over(const double *rows, uint32_t n, uint32_t i, double x, double e)
{
	/* P: past the runs of I on that start before E */
	const double *lo = rows + (size_t)i * GEN_LR_ROW, *p = lo;
#pragma GCC unroll 6
	for (size_t h = 32; h; h >>= 1)
		p += h & -(size_t)(p[h - 1] < e); /* no branch: as likely either way */
	return p > lo && p[GEN_LR_W - 1] > x;
}

/* 1 / AL for AL a power of two, at least 1 (a device's grid: fit makes
 * it one, the reader checks it; any other AL gives a wrong grid, and 0 is
 * undefined), from its exponent: X * gen_al_inv(AL) is X / AL bit
 * for bit (the same real, rounded once; 2^-k is exact), without the
 * division (a local jump's every try, in its chain to the landing). */
static inline double gen_al_inv(uint64_t al)
{
	uint64_t b = (uint64_t)(1023 - __builtin_ctzll(al)) << 52;
	double x;
	memcpy(&x, &b, sizeof(x));
	return x;
}

/* floor(X) and ceil(X) as integers for |X| < 2^52 (X not NaN): X
 * truncated, then one step where that went the wrong way; the same
 * integer as libm's (a call each: gen_local_all_shut's reach, repeat_end
 * at most local jumps). */
static inline int64_t gen_floor_i(double x)
{
	int64_t i = (int64_t)x;
	return i - ((double)i > x);
}
static inline int64_t gen_ceil_i(double x)
{
	int64_t i = (int64_t)x;
	return i + ((double)i < x);
}
/* fmin and fmax where X and Y differ and neither is NaN (the order
 * decides), or they are equal and not 0 (the same bits: either); else
 * libm's (its NaN and signed zeros' rules).  The tie is repeat_end's at
 * rate 1 (the repeat's end is the model's I/O): libm's fmin at each of
 * boot's 4.6 M local jumps' last resorts in 10M I/O. */
static inline double gen_fmin(double x, double y)
{
	return x < y ? x : y < x ? y : x == y && x != 0 ? x : fmin(x, y);
}
static inline double gen_fmax(double x, double y)
{
	return x > y ? x : y > x ? y : x == y && x != 0 ? x : fmax(x, y);
}
/* llround(X): X truncated, then a step away from 0 where the part cut is
 * a half or more (that part is exact: X - trunc(X) for |X| < 2^62; X whole
 * past 2^52); libm's call past 2^62 or for NaN.  A local jump's grid, at
 * every try (27 instructions in libm, a call). */
static inline int64_t gen_lround(double x)
{
	if (!(x < 0x1p62 && x > -0x1p62))
		return llround(x);
	int64_t i = (int64_t)x;
	double f = x - (double)i;
	return i + (f >= 0.5) - (f <= -0.5);
}

/* gen_offsets.c: the regions' shares kept as generation goes. */
/* The share of region R's I/O of op OP (1: the regions do not hold the
 * ops apart). */
static inline double gen_op_share(const struct model_devspace *d, uint32_t r, int op)
{
	if (!d->read_share_fitted)
		return 1;
	return op == REEL_OP_READ ? d->read_share[r] : 1 - d->read_share[r];
}
/* chain_op's (gen_space.c) sums of the chain's rows given the op: for
 * each entry X of row [A, B), the row's shares from A to X each times its
 * destination's share of the op (gen_op_share), added up from A in order:
 * CW[X] the sum chain_op's walk had at X at every draw, the same adds in
 * the same order (CW: a read's, then another op's, row[nregions] each).
 * 1 where every row's sums go up (no NaN), else 0. */
int gen_chain_sums(const struct model_devspace *d, double *cw);
/* chain_op's (gen_space.c) last resort's sums: for each op (a read's,
 * then another's) and region R, the weights times the op's share
 * (gen_op_share) from region 0 to R added up in order into WC (2 x
 * nregions): the sums its walk had, where the weights are the model's
 * (gen_offsets_weight without seg_weights).  1 where they go up (no NaN),
 * else 0. */
int gen_op_weight_sums(const struct model_devspace *d, double *wc);
/* The first of P[A..B) above U, or B (P not decreasing). */
static inline uint32_t gen_upper(const double *p, uint32_t a, uint32_t b, double u)
{
	while (a < b) {
		uint32_t mid = (a + b) / 2;
		if (p[mid] > u)
			b = mid;
		else
			a = mid + 1;
	}
	return a;
}
/* gen_upper's search, the same entries looked at in the same order (so the
 * same answer whatever P holds), its compare's branch made masks that move
 * A or B: a draw's side of the middle is half and half (gen_row_at's
 * searches between a table word's entries, cold_region's and
 * chain_find's: the branch missed about every other step). */
static inline uint32_t gen_upper_masked(const double *p, uint32_t a, uint32_t b, double u)
{
	while (a < b) {
		uint32_t mid = (a + b) / 2, keep = -(uint32_t)(p[mid] > u); /* all 1s: B = MID */
		b = (mid & keep) | (b & ~keep);
		a = (a & keep) | ((mid + 1) & ~keep);
	}
	return a;
}
/* Row [A, B)'s table, GEN_TRC words, for chain_find (gen_space.c; W 1)
 * and cold_region (W the row's total of cold_region's sums): with G[Q]
 * the entry less A that gen_upper(P, A, B - 1, Q / GEN_TRG * W) finds
 * (Q = 0 .. GEN_TRG; it does not fall as Q grows, P not decreasing from
 * A), word C holds G at its GEN_TRF-th Q's first and past its last (bits
 * 16-23, 24-31) and, where G steps by at most 1 at each of its Q, the
 * steps (bit F: G[Q + 1] > G[Q], Q = C * GEN_TRF + F), else 0 (B > A,
 * B - A <= 256). */
void gen_chain_guide(const double *p, uint32_t a, uint32_t b, double w, uint32_t *t);
/* G[Q] for Q = 0 .. NQ (a power of 2; gen_chain_guide's at GEN_TRG), NQ +
 * 1 bytes at G: the entry less A that gen_upper(P, A, B - 1, Q / NQ * W)
 * finds. */
void gen_chain_steps(const double *p, uint32_t a, uint32_t b, double w, uint8_t *g, uint32_t nq);
_Static_assert(GEN_TRF <= 16, "gen_chain_guide: a word's step bits are its low 16");
_Static_assert(MODEL_MAX_REGIONS <= 256, "gen_chain_guide: a row's entries in 8 bits");
/* The first of P[A..B - 1) above U * W, else B - 1, by T (gen_chain_guide's
 * table of the row at W, U in [0, 1)): between G at U's 1/GEN_TRG and the
 * next (Q / GEN_TRG exact, so U * W lies between Q / GEN_TRG * W and
 * (Q + 1) / GEN_TRG * W as doubles too: at or above the first it is found
 * there or after, below the second there or before), mostly the same
 * entry (no load of P); where G steps by more (its bits 0), between its
 * word's first and last.  W 1: U * W is U. */
static inline uint32_t gen_row_at(const double *p, uint32_t a, const uint32_t *t, double u,
				  double w)
{
	uint32_t q = u * GEN_TRG < GEN_TRG - 1 ? (uint32_t)(u * GEN_TRG) : GEN_TRG - 1;
	uint32_t m = t[q / GEN_TRF], f = q % GEN_TRF, lo = m >> 16 & 255, hi = m >> 24;
	uint32_t x = m & ((1u << f) - 1);
	double v = u * w;
	m &= 0xffff;
	if (!m) /* no step (HI = LO), or steps of more than 1 */
		return gen_upper_masked(p, a + lo, a + hi, v);
	x -= x >> 1 & 0x5555; /* the steps below F counted (no popcnt in the base ISA) */
	x = (x & 0x3333) + (x >> 2 & 0x3333);
	x = (x + (x >> 4)) & 0x0f0f;
	lo += a + ((x + (x >> 8)) & 31);
	/* gen_upper(P, LO, LO + 1, V) where G steps at Q, its compare's
	 * branch not taken (a draw's side of the entry: half and half) */
	return m >> f & 1 ? lo + !(p[lo] > v) : lo;
}
/* The chain's row (W 1): the first of P[A..B - 1) above U, else B - 1. */
static inline uint32_t gen_chain_at(const double *p, uint32_t a, const uint32_t *t, double u)
{
	return gen_row_at(p, a, t, u, 1.0);
}
/* The first entry X of row [A, B) whose sum CW[X] is above V, else B:
 * chain_op's walk (v < c), searched where the sums go up (UP). */
static inline uint32_t gen_chain_pick(const double *cw, uint32_t a, uint32_t b, double v, int up)
{
	if (up)
		return gen_upper(cw, a, b, v);
	while (a < b && !(v < cw[a]))
		a++;
	return a;
}
/* wide_region's (gen_space.c) weights of the regions of S at least LEN
 * wide, in segment K (gen_weight_in's), cumulated in C[0..nregions) in
 * the regions' order: its walk's sums, C's last its total; 1 where they
 * go up (no weight below 0: gen_chain_pick may search them). */
int gen_wide_sums(const struct model_devspace *d, const struct devstate *s, int k, uint64_t len,
		  double *c);
/* wide_region's region at the draw U in [0, 1) from those sums (C, N
 * regions, UP gen_wide_sums' answer): the first whose sum is above U times
 * their total, -1 where none is (the total not above 0). */
static inline int64_t gen_wide_pick(const double *c, uint32_t n, int up, double u)
{
	double w = n ? c[n - 1] : 0;
	uint32_t r = w > 0 ? gen_chain_pick(c, 0, n, u * w, up) : n;
	return r < n ? (int64_t)r : -1;
}
/* gen_chain_pick at U * W where the sums go up (U in [0, 1), W the row's
 * total CW[B - 1], > 0), by the row's table T (gen_chain_guide's at W):
 * below W the first above it is in the row, as gen_row_at finds it; at W
 * (U * W rounded up to it) none, B.  chain_op's search of the row given
 * the op (git: gen_upper's steps, their compares' branches half missed,
 * 45 M instructions in 1M I/O). */
static inline uint32_t gen_chain_op_at(const double *cw, const uint32_t *t, uint32_t a, uint32_t b,
				       double u, double w)
{
	if (!(u * w < w))
		return b;
	return gen_row_at(cw, a, t, u, w);
}
/* Each row's table for gen_chain_op_at, the op's sums CW (gen_chain_sums'
 * read's or other op's, going up): gen_chain_guide's at the row's last
 * sum, T + r * GEN_TRC; rows without an entry, or a total not above 0, are
 * left as they are. */
void gen_chain_op_guide(const struct model_devspace *d, const double *cw, uint32_t *t);
/* cold_region's (gen_space.c) sums of the chain's rows off the regions
 * of kept blocks (CY_REG[to] != 0): for each entry X of row [A, B), the
 * row's shares from A to X of the entries not to such a region, added up
 * from A in order (an entry to one keeps the sum before it): CS[X] the sum
 * cold_region's walk had at X, the same adds in the same order.  1 where
 * every row's sums go up (no NaN), else 0. */
int gen_cold_sums(const struct model_devspace *d, const uint8_t *cy_reg, double *cs);
/* The first entry X of row [A, B) not to a kept block's region whose sum
 * CS[X] is above V (>= 0), else B: cold_region's walk (v < c), searched
 * where the sums go up (UP: the first sum above V is not a kept block's,
 * whose sum is the one before it, or 0 at A). */
static inline uint32_t gen_cold_pick(const struct model_devspace *d, const uint8_t *cy_reg,
				     const double *cs, uint32_t a, uint32_t b, double v, int up)
{
	if (up)
		return gen_upper(cs, a, b, v);
	while (a < b && (cy_reg[d->tr_to[a]] || !(v < cs[a])))
		a++;
	return a;
}
/* Each row's table for gen_cold_at (CS going up): gen_chain_steps' at
 * the row's total W (its last sum), T + r * GEN_COLD_ROW; rows without an
 * entry are left as they are. */
void gen_cold_guide(const struct model_devspace *d, const double *cs, uint8_t *t);
/* The first of P[A..B - 1) above U * W, else B - 1, by G (gen_chain_steps'
 * at W for GEN_COLDQ, U in [0, 1)): between G at U's 1/GEN_COLDQ and the
 * next (Q / GEN_COLDQ exact: U * W lies between Q / GEN_COLDQ * W and
 * (Q + 1) / GEN_COLDQ * W as doubles too), the same entry at most Qs (no
 * load of P), one compare at most others.  gen_row_at's packed words for
 * cold_region searched between a word's first and last entries wherever
 * one of its Qs stepped by more than 1 (boot's 10M model at rate 1: 31%
 * of 2 M draws a million I/O, 2 to 28 entries, their loads missed); 256
 * Qs a row (257 bytes, 28 KiB on boot's 110 rows) missed fewer branches
 * and loads than 512 or 128 (callgrind). */
static inline uint32_t gen_row_steps_at(const double *p, uint32_t a, const uint8_t *g, double u,
					double w)
{
	uint32_t q = u * GEN_COLDQ < GEN_COLDQ - 1 ? (uint32_t)(u * GEN_COLDQ) : GEN_COLDQ - 1;
	uint32_t lo = a + g[q], hi = a + g[q + 1];
	double v = u * w;
	if (hi <= lo + 1) /* gen_upper(P, LO, HI, V): HI - LO of 0 or 1 */
		return hi > lo && !(p[lo] > v) ? hi : lo;
	return gen_upper_masked(p, lo, hi, v);
}
/* gen_cold_pick at U * W (U in [0, 1), W the row's total, > 0): where the
 * sums go up, by the row's table (gen_row_steps_at): below W its answer
 * is the whole row's (the row's last sum, W, is above U * W), at W (U * W
 * rounded up to it: W subnormal) none, B. */
static inline uint32_t gen_cold_at(const struct model_devspace *d, const uint8_t *cy_reg,
				   const double *cs, const uint8_t *t, uint32_t from, double u,
				   double w, int up)
{
	uint32_t a = d->row[from], b = d->row[from + 1];
	if (!up)
		return gen_cold_pick(d, cy_reg, cs, a, b, u * w, up);
	if (!(u * w < w))
		return b;
	return gen_row_steps_at(cs, a, t + (size_t)from * GEN_COLD_ROW, u, w);
}
/* The MODEL_SEGS-th of the repeat's I/O the device is in now, where the
 * model has seg_weights and its duration is known; else -1 (the model's
 * weights).  A division: asked once for a walk over the regions, not at
 * each (remote's last resort and cold_region's walks summed 104 regions
 * twice on git x2986, each weight a division: 265 M instructions in 3M
 * I/O). */
int gen_offsets_seg(const struct model_devspace *d, const struct devstate *s);
/* Region R's weight in segment K (gen_offsets_seg's answer). */
static inline double gen_weight_in(const struct model_devspace *d, int k, uint32_t r)
{
	return k < 0 ? d->weight[r] : (double)d->seg_w[k][r];
}
/* Region R's weight where the device is now (its MODEL_SEGS-th of the
 * repeat's I/O, where the model has seg_weights), else the model's. */
static inline double gen_offsets_weight(const struct model_devspace *d, const struct devstate *s,
					uint32_t r)
{
	return gen_weight_in(d, gen_offsets_seg(d, s), r);
}
/* A region short of its share of the device's I/O (less the kept runs
 * not yet due) for a remote jump to make up (drawn by shortfall, at odds
 * growing with the drift; once per run start, not for a re-using one), or
 * -1: the chain's. */
int64_t gen_offsets_region(struct model_gen *g, const struct model_devspace *d, struct devstate *s);
/* The 16ths of C[0..N - 1) for gen_short_search: C16[J] = C[16 J + 15]
 * for the N - 1 entries' (N - 1) / 16 (16 floats; N <= MODEL_MAX_REGIONS;
 * those past them left as they are: gen_short_search reads them but
 * takes none).  Made at each refresh of the shortfalls. */
static inline void gen_short_16ths(const float *c, uint32_t n, float *c16)
{
	for (uint32_t j = 0; j < (n - 1) / 16; j++)
		c16[j] = c[16 * j + 15];
}
/* gen_offsets_region's search: the first of C[0..N - 1) above U, else
 * N - 1 (N >= 2; C the cumulated shortfalls, floats not decreasing: their
 * sum's adds are >= 0; C holds MODEL_MAX_REGIONS floats, as short_c: the
 * 16 loaded may reach past N - 1, never past those; C16 its 16ths,
 * gen_short_16ths').  A float is above U exactly where it is above F, the
 * largest float at or below U; so on x86-64 the entries at each 16th (15,
 * 31, ...: those at or below F a prefix; C16's 16 floats compared at once,
 * the first above F of those before N - 1; counted one by one, ~7 compares
 * and adds a search on boot's 111 regions, 54 M instructions a million
 * I/O) find U's 16, and its 16 floats at once the entry (SSE2: the first
 * above F).  No branch on the data: the bisection over boot's 111 regions
 * missed ~3 branches a search, 969k searches a million I/O at rate 1.
 * Else (U NaN or below 0) the bisection, whose answer it is. */
static inline uint32_t gen_short_search(const float *c, const float *c16, uint32_t n, double u)
{
	uint32_t lo = 0, hi = n - 1;
	(void)c16; /* x86-64's */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	float f = (float)u;
	uint32_t fb, k;
	memcpy(&fb, &f, sizeof(fb));
	fb -= (double)f > u; /* rounded up (U >= 0: F > 0 then): the float below */
	memcpy(&f, &fb, sizeof(f));
	const __m128 vf = _mm_set1_ps(f);
	/* the 16ths at or below F before HI: a prefix (C does not fall), so
	 * the first above F, or HI / 16 where none is (NaN: none) */
	k = 0;
	if (hi >= 16) /* a 16th before N - 1 (16 regions or fewer: none) */
		k = (uint32_t)__builtin_ctz(
		    (uint32_t)_mm_movemask_ps(_mm_cmpgt_ps(_mm_loadu_ps(c16), vf)) |
		    (uint32_t)_mm_movemask_ps(_mm_cmpgt_ps(_mm_loadu_ps(c16 + 4), vf)) << 4 |
		    (uint32_t)_mm_movemask_ps(_mm_cmpgt_ps(_mm_loadu_ps(c16 + 8), vf)) << 8 |
		    (uint32_t)_mm_movemask_ps(_mm_cmpgt_ps(_mm_loadu_ps(c16 + 12), vf)) << 12 |
		    1u << hi / 16);
	if (u >= 0 && 16 * k + 16 <= MODEL_MAX_REGIONS) {
		const float *p = c + 16 * k;
		uint32_t gt =
		    (uint32_t)_mm_movemask_ps(_mm_cmpgt_ps(_mm_loadu_ps(p), vf)) |
		    (uint32_t)_mm_movemask_ps(_mm_cmpgt_ps(_mm_loadu_ps(p + 4), vf)) << 4 |
		    (uint32_t)_mm_movemask_ps(_mm_cmpgt_ps(_mm_loadu_ps(p + 8), vf)) << 8 |
		    (uint32_t)_mm_movemask_ps(_mm_cmpgt_ps(_mm_loadu_ps(p + 12), vf)) << 12;
		/* the entries from P to N - 1 (at 16 or more, P[15] is above F) */
		uint32_t left = hi - 16 * k;
		return 16 * k + (uint32_t)__builtin_ctz(gt | 1u << (left < 16 ? left : 16));
	}
#endif
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (c[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
/* Whether the regions' shares are kept on the device yet: several
 * regions, and GEN_SHORT_MIN of its I/O (gen_offsets_over's guard, and
 * over_kept's in gen_space.c). */
static inline int gen_shares_kept(const struct model_devspace *d, const struct devstate *s)
{
	return d->nregions >= 2 && s->hn >= GEN_SHORT_MIN;
}
/* OFF's region holds more than its share by GEN_OVER_TOL and 2 sqrt + 1:
 * a re-use at a reuse distance drawn again. */
int gen_offsets_over(const struct model_devspace *d, const struct devstate *s, uint64_t off);
/* The same of region R (OFF's): a function of R, the device's I/O so far
 * (s->hn) and R's (s->rn), so one answer holds for every offset of R
 * asked while they stay. */
int gen_offsets_over_r(const struct model_devspace *d, const struct devstate *s, uint32_t r);
/* Whether region R is over (gen_offsets_over_r) at every count of the
 * device's I/O from s->hn up to N and of R's from s->rn[R] up: 1 where it
 * is at N with R's count now, the shares kept now and the want the
 * model's weight times the count (going up with it, the rounded
 * products and sqrt too: the threshold does not fall as the count
 * rises, nor the answer as R's count does); 0: not known. */
int gen_offsets_over_until(const struct model_devspace *d, const struct devstate *s, uint32_t r,
			   uint64_t n);
_Static_assert(MODEL_MAX_REGIONS <= 256, "rs_r: a region in a byte");
/* gen_offsets_over_r(D, S, R), kept with the device's I/O (+ 1) and R's
 * it was found at (ov_hn, ov_rn: the answer a function of those alone),
 * for the next ask while they stay: resume_at's walk and history_back's
 * tries ask the same few regions again and again. */
static inline int gen_over_kept_r(const struct model_devspace *d, struct devstate *s, uint32_t r)
{
	if (s->ov_hn[r] != s->hn + 1 || s->ov_rn[r] != s->rn[r]) {
		s->ov_hn[r] = s->hn + 1;
		s->ov_rn[r] = s->rn[r];
		s->ov[r] = (uint8_t)gen_offsets_over_r(d, s, r);
	}
	return s->ov[r];
}
/* gen_offsets_over(D, S, E), the shares kept, of the end E of ring slot K
 * (gen_space.c's resume_at): E's region and the region's answer kept
 * (rs_e, ov_hn), not looked up again while the slot holds E and the
 * counts stay (the answer a function of the region, s->hn and its
 * s->rn).  A walk's slots lie in a few regions, not in runs of one: git's
 * 198,733 walks in 300k I/O at its 10M rate passed 1.29 M slots over,
 * over_kept's last region asked again for most. */
static inline int gen_resume_over(const struct model_devspace *d, struct devstate *s, uint64_t k,
				  uint64_t e)
{
	uint64_t c = k % GEN_RESUME;
	if (s->rs_e[c] != e + 1) {
		s->rs_e[c] = e + 1;
		s->rs_r[c] = (uint8_t)gen_region_of(d, s, e);
	}
	return gen_over_kept_r(d, s, s->rs_r[c]);
}
/* Region R holds more of the device's I/O so far than its share (the
 * model's weight) by GEN_OVER_TOL and 2 sqrt + 2 (chance), or, in a model
 * of one phase, a draw against its quota says so: the chain's draw is
 * drawn again. */
int gen_offsets_region_over(struct model_gen *g, const struct model_devspace *d,
			    const struct devstate *s, uint32_t r);
/* The table of S's device (DV) that finds a knot of its offsets CDF. */
void gen_offsets_init(const struct model_devspace *dv, struct devstate *s);
/* The regions' quotas of S's device (DV) for the trace generated: its N
 * addressed I/O, the kept runs' I/O per region. */
void gen_offsets_quota_init(const struct model_devspace *dv, struct devstate *s, double n);
/* Offset A (generated, scaled) falls where the trace has offsets: within
 * their range and not in a stretch of the offsets CDF holding none. */
int gen_offsets_in_extents(const struct model_devspace *dv, const struct devstate *s, uint64_t a);
/* OFF's region, or its stretch of the offsets CDF, holds more than its
 * share (GEN_LOCAL_REGION, GEN_LOCAL_SEG) of the device's I/O so far: a
 * local jump drawn again. */
int gen_offsets_local_over(const struct model_devspace *d, const struct devstate *s, uint64_t off);
/* The same held to the device's I/O to the end of this repeat of the
 * model's duration (the region's whole share). */
int gen_offsets_local_full(const struct model_devspace *d, const struct devstate *s, uint64_t off);
/* model_dist_knot(&dv->addr, x, nk - 1) through the table: the knot is
 * between X's entry and the next (a search over the 200-odd knots took
 * 8 dependent loads and as many branches missed, at every I/O).  The
 * entries bracket it as checked, else (a rounding at an entry's edge)
 * the whole search; so the entry is found by a product, not a division
 * (it may differ at an entry's edge, where the check catches it).
 * Inline, as the four below (from gen_offsets.c): gen_offsets_local_at
 * is asked 3-4 times a local jump (compile), and its calls' frames
 * (this one's, the search's, its own, its answers through memory) were
 * 40-odd instructions of each ask's 130. */
static inline size_t gen_addr_knot(const struct model_devspace *dv, const struct devstate *s,
				   double x)
{
	const struct model_dist *d = &dv->addr;
	size_t h = d->nk - 1;
	double f = s->klut_r > 0 ? (x - d->v[0]) * s->klut_r : -1;
	if (f >= 0 && f < GEN_KLUT) {
		size_t j = (size_t)f, lo = s->klut[j], hi = s->klut[j + 1] + 1u;
		hi = hi < h ? hi : h;
		if ((!lo || d->v[lo] <= x) && (hi == h || d->v[hi] > x))
			return model_dist_knot_in(d, x, lo, hi);
	}
	return model_dist_knot(d, x, h);
}
/* gen_addr_knot(DV, S, X) where knot K is it (v[K] <= X, and K + 1 the
 * last knot or above X: the last knot under nk - 1 at or below X, the
 * knots not falling), else the search: remote's draw's knot, given to
 * its I/O's count (an inverse CDF's knot holds its value but where the
 * truncation to an offset, the alignment or a step moves it out). */
static inline size_t gen_addr_knot_at(const struct model_devspace *dv, const struct devstate *s,
				      double x, size_t k)
{
	const struct model_dist *d = &dv->addr;
	size_t h = d->nk - 1;
	if (k < h && d->v[k] <= x && (k + 1 == h || d->v[k + 1] > x))
		return k;
	return gen_addr_knot(dv, s, x);
}
/* The I/O at OFF (its region R) counted (gen_offsets.c's shares).  Inline
 * in placed, at every I/O: its call's frame ~10 instructions an I/O. */
static inline __attribute__((always_inline)) void
gen_offsets_count(const struct model_devspace *d, struct devstate *s, uint32_t r, uint64_t off)
{
	uint64_t i = s->hn % GEN_HIST; /* the slot remember fills next */
	s->rn[r]++;
	s->rreg[i] = (uint8_t)r;
	if (s->pinned) { /* a kept run's I/O: the quotas count the others */
		s->rk[r]++;
		s->hk++;
	}
	if (d->addr.nk >= 2) { /* seg_of's knot, remote's first (its last place's) */
		s->kh = (uint32_t)gen_addr_knot_at(d, s, gen_unscale(s, off), s->kh);
		s->kn[s->kh]++;
	}
	s->rkn[i] = s->kh;
}
/* Segment LO's share of the offsets (knot LO to the next), with a point
 * mass at its low knot. */
static inline double gen_seg_weight(const struct model_dist *d, uint32_t lo)
{
	/* the point mass's test without a branch (local_jump's landings and
	 * last resorts, chromium: 720k missed in 1M I/O): its share, else
	 * c[lo] - c[lo], +0 (a CDF's are finite), the same sum */
	uint32_t q = lo ? lo - 1 : 0;
	uint32_t p = d->v[q] == d->v[lo] ? q : lo;
	return (d->c[lo + 1] - d->c[lo]) + (d->c[lo] - d->c[p]);
}
/* Whether region R holds more than its share of N of the device's I/O. */
static inline int gen_region_over_of(const struct model_devspace *d, const struct devstate *s,
				     uint32_t r, double n)
{
	/* the region's share over the trace, also where the segments' would
	 * do: a local jump in the region the walk is in, over the segment's
	 * want while the walk lags the trace's front, was drawn again and
	 * then sent remote (disk 8's offsets out on 20 of seeds 1-256, 8 with
	 * the trace's share) */
	return d->nregions >= 2 && (double)s->rn[r] + 1 > (d->weight[r] * n + 1) * GEN_LOCAL_REGION;
}
/* Whether segment K (of share W) holds more than its share of N. */
static inline int gen_seg_over_of(const struct devstate *s, double w, uint32_t k, double n)
{
	return (double)s->kn[k] + 1 > (w * n + 1) * GEN_LOCAL_SEG;
}
/* gen_offsets_in_extents, A's knot of the offsets CDF (the last with
 * v <= A unscaled) into *LO when it looks one up (left as it is without
 * two knots). */
static inline __attribute__((always_inline)) int
gen_in_extents_knot(const struct model_devspace *dv, const struct devstate *s, uint64_t a,
		    uint32_t *lo)
{
	const struct model_dist *d = &dv->addr;
	if (d->nk < 2)
		return 1;
	double x = gen_unscale(s, a);
	if (x < d->v[0] || x > d->v[d->nk - 1])
		return 0;
	*lo = (uint32_t)gen_addr_knot(dv, s, x);
	return d->c[*lo + 1] > d->c[*lo] || d->v[*lo] == x;
}
/* Whether gen_offsets_local_over counts the shares yet (its guard):
 * GEN_SHORT_MIN I/O on the device, and not a re-using start. */
static inline int gen_local_counted(const struct devstate *s)
{
	return !(s->hn < GEN_SHORT_MIN || s->reusing);
}
/* Whether region R holds more than its share of the device's I/O so far
 * as gen_offsets_local_over counts it (its region's half: a landing in R
 * is over whatever its segment). */
static inline int gen_local_region_over(const struct model_devspace *dv, const struct devstate *s,
					uint32_t r)
{
	return gen_local_counted(s) &&
	       gen_region_over_of(dv, s, dv->nregions >= 2 ? r : 0, (double)s->hn);
}
/* A local jump's landing A in region R (gen_region_of's):
 * gen_offsets_in_extents (0: out), else 1 with gen_offsets_local_over in
 * *OVER and its knot of the offsets CDF in *K (0 without one), found once
 * for the two (each looked them up); gen_offsets_local_full of that A
 * from R and *K. */
static inline int gen_offsets_local_at(const struct model_devspace *dv, const struct devstate *s,
				       uint64_t a, uint32_t r, int *over, uint32_t *k)
{
	const struct model_dist *d = &dv->addr;
	uint32_t lo = 0;
	if (!gen_in_extents_knot(dv, s, a, &lo))
		return 0;
	*k = lo;
	*over = gen_local_region_over(dv, s, r) ||
		(gen_local_counted(s) && d->nk >= 2 &&
		 gen_seg_over_of(s, gen_seg_weight(d, lo), lo, (double)s->hn));
	return 1;
}
int gen_offsets_local_full_rk(const struct model_devspace *dv, const struct devstate *s, uint32_t r,
			      uint32_t k);
/* The device's I/O to the end of this repeat of the model's duration,
 * at most the model's count and at least the I/O so far (s->hn; without
 * a repeat, s->hn): gen_offsets_local_full's count. */
double gen_offsets_repeat_end(const struct devstate *s);
/* Whether region R takes no landing once gen_space.c's local_jump keeps
 * a last resort: over its share, or holding none of the start's op. */
static inline int gen_local_shut(const struct model_devspace *dv, const struct devstate *s,
				 uint32_t r)
{
	return gen_local_region_over(dv, s, r) || !(gen_op_share(dv, r, s->op) > 0);
}
/* The landings a local jump of LEN aligned to AL from the cursor can
 * draw that fit the extent, in [*A, *B]: the local distribution's least
 * and largest value, two alignments either side for the rounding,
 * clamped to [0, extent - len].  1: so (*A > *B: none fits); 0: not
 * known (sizes past what the integers hold). */
static inline __attribute__((always_inline)) int gen_local_reach(const struct model_devspace *dv,
								 const struct devstate *s,
								 uint64_t len, uint64_t al,
								 int64_t *ap, int64_t *bp)
{
	const struct model_dist *d = &dv->local;
	double lo = d->nk ? d->v[0] : 0, hi = d->nk ? d->v[d->nk - 1] : 0;
	if (len < 1 || len > s->extent || !(lo > -0x1p52 && hi < 0x1p52) ||
	    !(s->cursor < 0x1p61 && al < 0x1p50))
		return 0;
	int64_t c = (int64_t)s->cursor, m = 2 * (int64_t)al;
	int64_t a = c + gen_floor_i(lo) - m, b = c + gen_ceil_i(hi) + m,
		top = (int64_t)(s->extent - len);
	*ap = a > 0 ? a : 0;
	*bp = b < top ? b : top;
	return 1;
}
/* Whether every landing a local jump of LEN aligned to AL from the cursor
 * (s->cursor) can draw that fits the extent lies in regions that take none
 * (gen_local_shut), R one of them: the jump's distribution's least and
 * largest value, two alignments either side for its rounding, and the
 * regions between at most GEN_LOCAL_SHUT (the regions of offsets going up
 * go up; at scale 1 found from R's along the bounds, R a landing's region:
 * another R only makes it say 0 more).  1: local_jump's tries left would
 * each pass at their first check (gen_space.c). */
int gen_local_all_shut(const struct model_devspace *dv, const struct devstate *s, uint64_t len,
		       uint64_t al, uint32_t r);

/* [OFF, OFF + LEN) (generated, scaled) covers more than GEN_DENSE of the
 * trace's I/O starts (its offsets CDF times their count, past OFF): a
 * fresh start drawn again.  By the two CDFs (gen_offsets.c). */
int gen_offsets_dense_cdf(const struct model_devspace *dv, const struct devstate *s, uint64_t off,
			  uint64_t len);

/* The buckets of s->bk (gen_bucket_init) holding the first and the last
 * byte of [OFF, OFF + LEN): 1 and *B0, *B1 where they are one or two of
 * them, else 0 (past them, or its end past 2^64). */
static inline int gen_bk_of(const struct devstate *s, uint64_t off, uint64_t len, uint64_t *b0,
			    uint64_t *b1)
{
	*b0 = off >> s->bk_sh;
	*b1 = (off + (len ? len - 1 : 0)) >> s->bk_sh;
	return s->bk && *b1 < s->bk_nb && *b1 - *b0 <= 1;
}

/* Whether the dense stretches are known to keep off [OFF, OFF + LEN):
 * it lies in buckets B and B + 1 where bk[B] says none is dense. */
static inline int gen_quiet_at(const struct devstate *s, uint64_t off, uint64_t len)
{
	uint64_t b0, b1;
	return gen_bk_of(s, off, len, &b0, &b1) && s->bk[b0];
}

/* gen_offsets_dense_cdf, its no by the bucket's byte first: most
 * stretches asked are nowhere near a dense one (git's model x2986: 806k
 * of a continued read's asks in 1M I/O, 177 M instructions by the CDFs). */
static inline int gen_offsets_dense(const struct model_devspace *dv, const struct devstate *s,
				    uint64_t off, uint64_t len)
{
	return !gen_quiet_at(s, off, len) && gen_offsets_dense_cdf(dv, s, off, len);
}

/* A gap class's stretches of U where draw_gaps' gap is one value without
 * its pow and inverse CDF (gen_gap_flats_make): the gap CDF's inverse at
 * (K + U^gamma) / MODEL_CLASSES is V[J] for every U in [LO[J], HI[J]]
 * (LO rising, the stretches apart; LO 2 past N: never at or below a U).
 * The traces' gap CDFs are staircases (whole ns: blktrace's first 28
 * knots are 14 steps of one value each), so most gaps fall in one. */
#define GEN_GAP_FLATS 16
struct gen_gap_flats {
	double lo[GEN_GAP_FLATS], hi[GEN_GAP_FLATS], v[GEN_GAP_FLATS];
};

/* gen.c: F for gap class K of the gap CDF D with the class's exponent
 * GAMMA (class_gamma's, in (0, 100)): its first GEN_GAP_FLATS stretches
 * between two knots of one finite value, each cut by margins that cover
 * pow's and the class's sum's roundings (an error of 1e-12 in U^gamma,
 * 1e-9 of U: pow's is under 1 ulp), so that at every U inside it the
 * inverse lands in that stretch; none where D's cumulatives fall
 * somewhere (not a CDF).  How many. */
int gen_gap_flats_make(const struct model_dist *d, int k, double gamma, struct gen_gap_flats *f);

/* The gap for U by F (gen_gap_flats_make's), in *V: 1, else 0 (U in no
 * stretch: the inverse asked).  The stretch is the last whose LO is at or
 * below U (0 if none is), found by halves without a branch (16 LOs
 * counted one by one were 35 instructions a gap). */
static inline int gen_gap_flat_at(const struct gen_gap_flats *f, double u, double *v)
{
	_Static_assert(GEN_GAP_FLATS == 16, "four halvings");
	size_t j = 0;
	j += (size_t)(f->lo[j + 8] <= u) * 8;
	j += (size_t)(f->lo[j + 4] <= u) * 4;
	j += (size_t)(f->lo[j + 2] <= u) * 2;
	j += (size_t)(f->lo[j + 1] <= u);
	if (!(f->lo[j] <= u && u <= f->hi[j]))
		return 0;
	*v = f->v[j];
	return 1;
}

/* gen.c: the squeezes' and fits' loops (each the scalar loop's doubles,
 * two gaps at a time on x86-64): BT[i + 1] - BT[i] for i < N into BT[i +
 * 1] (the gaps of running sums in their place, BT[0] kept); the largest
 * of X (N) and 0 as `top = x > top ? x : top` from 0; X[i] += ADD * y * y
 * * y * y for y = X[i] / TOP. */
void gen_gaps_in(double *bt, size_t n);
double gen_gaps_top(const double *x, size_t n);
void gen_gaps_grow4(double *x, size_t n, double top, double add);

/* gen.c: the places of gaps X (N) above M when ABOVE, else below, in the order
 * of (gap, place): the gaps redraw_gaps may redraw, in the order it takes
 * them from the low end (from the high end when ABOVE), as a qsort of
 * all N by (gap, place) puts them (NaN not asked: redraw_gaps reads none
 * when a gap is NaN, its sum then NaN); N below 2^32 (a window's gaps),
 * so 32-bit places.  KEYS: 2N 64-bit keys of scratch (the order's).
 * Their number in *NB; one block to free(), NULL without memory. */
uint32_t *gen_gaps_beyond(const double *x, size_t n, double m, int above, void *keys, size_t *nb);
/* gen.c: bytes [FROM, TO) of P, about to be written whole, made present at
 * once (the pages wholly inside them, from GEN_POPULATE_MIN bytes up) in
 * place of a page fault each as first written; their contents unchanged.
 * 1 when it did, else 0 (fewer bytes, or a kernel before 5.14). */
#define GEN_POPULATE_MIN ((size_t)64 << 10)
int gen_populate(void *p, size_t from, size_t to);

/* gen.c: the next arrival: its time *T (ns), op and device (index), g->phase
 * its phase; 1, 0 at the end or a REEL_E_ code. */
int gen_arrival(struct model_gen *g, double *t, int *op, size_t *d);
/* gen.c: a window with arrivals left: G's, or the next one drawn now (as
 * gen_arrival draws it when it needs it: the same draws); 1, else
 * gen_arrival's end (0) or REEL_E_ code. */
int gen_window(struct model_gen *g);
/* An arrival drawn on the arrivals' thread (gen_thread.c). */
struct gen_arr {
	double t;
	uint32_t phase;
	uint8_t op;
	uint8_t dev;
};
/* gen.c: up to N arrivals into A, as gen_arrival's one by one; how many,
 * *END gen_arrival's last (1: N drawn, more may come). */
size_t gen_arrivals(struct model_gen *g, struct gen_arr *a, size_t n, int *end);
/* gen_thread.c (model_gen_thread): as gen_arrival, from the thread (past
 * g->arr_at .. arr_end, which it sets to its next batch);
 * gen_thread_stop: stop and join it (none: nothing). */
int gen_thread_next(struct model_gen *g, double *t, int *op, size_t *d);
void gen_thread_stop(struct model_gen *g);

#endif
