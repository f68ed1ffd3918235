/*
 * model/fidelity.c - what the distributions of compare.c hide, measured on
 * one trace: I/O count and bytes, burstiness at five time scales (index of
 * dispersion of counts), spatial locality over a history, block re-use,
 * read-after-write, working set, sizes of sequential and random I/O, and
 * per device the offsets and inter-arrival times.  compare.c sets two
 * traces' figures side by side.
 *
 * Blocks are 4 KiB.  The set of blocks touched is exact up to
 * FID_EXACT_BLOCKS distinct blocks; beyond, it samples blocks by a hash of
 * their address (spatially hashed sampling, SHARDS: Waldspurger et al.,
 * FAST'15) at a rate halved each time the set fills, so memory stays
 * bounded (32 MiB of table, 16 MiB more while halving) whatever the trace; shares and working sets
 * are then estimates from the sampled blocks (relative error about 1/sqrt(sampled blocks), under
 * 0.1% at the sizes it samples at).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/blockmap.h"
#include "model/model.h"

const int64_t model_idc_scale_ns[MODEL_IDC_SCALES] = {1000000, 10000000, 100000000, 1000000000,
						      10000000000};

void model_idc_init(struct model_idc *a)
{
	memset(a, 0, sizeof(*a));
	for (int s = 0; s < MODEL_IDC_SCALES; s++)
		a->cur[s] = -1;
}

double model_idc_end(struct model_idc *a, int s, double nb)
{
	a->s2[s] += a->c[s] * a->c[s];
	a->c[s] = 0;
	double mean = a->n / nb;
	return nb >= 8 && a->n > 0 ? (a->s2[s] / nb - mean * mean) / mean : -1;
}

#define FID_EXACT_BLOCKS (1u << 20)
#define FID_HIST 100	    /* locality: the last 100 I/O of the device */
#define FID_NEAR (1u << 20) /* within 1 MiB */
#define FID_BLOCK_SHIFT BMAP_BLOCK_SHIFT

/* ---- the pass over the trace ------------------------------------------- */
struct fid_pass {
	struct bmap bm;
	uint64_t hist[MODEL_MAX_DEVS][FID_HIST];
	uint32_t nhist[MODEL_MAX_DEVS], hpos[MODEL_MAX_DEVS];
	uint64_t prev_end[MODEL_MAX_DEVS];
	int64_t prev_t[MODEL_MAX_DEVS];
	uint8_t seen[MODEL_MAX_DEVS];
	uint64_t near, addressed, io_sampled, io_reused, rd_sampled, rd_raw;
};

/* Within 1 MiB of one of the device's last 100 I/O; then remember it. */
static int near_history(struct fid_pass *p, int d, uint64_t off)
{
	int hit = 0;
	const uint64_t *h = p->hist[d];
	for (uint32_t k = 0; k < p->nhist[d] && !hit; k++) {
		uint64_t a = h[k];
		hit = (a > off ? a - off : off - a) <= FID_NEAR;
	}
	p->hist[d][p->hpos[d]] = off;
	p->hpos[d] = (p->hpos[d] + 1) % FID_HIST;
	if (p->nhist[d] < FID_HIST)
		p->nhist[d]++;
	return hit;
}

/* The blocks of one I/O: re-use (the most recent earlier touch of any of
 * its sampled blocks) and read-after-write; then mark them.  The reuse
 * distance (in I/O) goes to f->rdist. */
static int touch_blocks(struct fid_pass *p, struct model_fid *f, int d, size_t i, uint64_t off,
			uint32_t len, int rd)
{
	uint64_t b0 = off >> FID_BLOCK_SHIFT, b1 = (off + (len ? len - 1 : 0)) >> FID_BLOCK_SHIFT;
	uint64_t last = 0;
	int any = 0, reused = 0, written = 0;
	for (uint64_t b = b0; b <= b1; b++) {
		uint64_t li = 0;
		int w = 0, t = bmap_touch(&p->bm, ((uint64_t)d << 52) ^ b, i, rd, &li, &w);
		if (t == REEL_E_NOMEM)
			return t;
		any |= t >= 0;
		if (t == 1) {
			if (!reused || li > last)
				last = li;
			reused = 1;
			written |= w >> 1;
		}
	}
	if (!any)
		return 0;
	p->io_sampled++;
	p->rd_sampled += rd;
	if (reused) {
		p->io_reused++;
		p->rd_raw += rd && written;
		f->rdist[f->nrdist++] = (int64_t)(i - last);
	}
	return 0;
}

static int dev_slot(struct model_fid *f, uint16_t id)
{
	for (size_t k = 0; k < f->ndev; k++)
		if (f->dev[k].id == id)
			return (int)k;
	if (f->ndev == MODEL_MAX_DEVS)
		return -1;
	memset(&f->dev[f->ndev], 0, sizeof(f->dev[0]));
	f->dev[f->ndev].id = id;
	return (int)f->ndev++;
}

/* Per-device arrays sized from a first pass. */
static int fid_alloc(struct model_fid *f, const struct model_trace *tr, int *slot)
{
	size_t n = tr->n;
	for (size_t i = 0; i < n; i++) {
		int d = dev_slot(f, tr->dev[i]);
		slot[i] = d;
		if (d >= 0)
			f->dev[d].n++;
	}
	for (size_t k = 0; k < f->ndev; k++) {
		f->dev[k].off = malloc((f->dev[k].n + 1) * sizeof(int64_t));
		f->dev[k].gap = malloc((f->dev[k].n + 1) * sizeof(int64_t));
		if (!f->dev[k].off || !f->dev[k].gap)
			return REEL_E_NOMEM;
	}
	f->rdist = malloc((n + 1) * sizeof(int64_t));
	f->size_seq = malloc((n + 1) * sizeof(int64_t));
	f->size_rnd = malloc((n + 1) * sizeof(int64_t));
	return f->rdist && f->size_seq && f->size_rnd ? 0 : REEL_E_NOMEM;
}

/* One I/O of device slot d. */
static int fid_one(struct fid_pass *p, struct model_fid *f, const struct model_trace *tr, size_t i,
		   int d)
{
	struct model_fid_dev *fd = &f->dev[d];
	if (p->seen[d] & 2)
		fd->gap[fd->ngap++] = tr->t[i] - p->prev_t[d];
	p->prev_t[d] = tr->t[i];
	p->seen[d] |= 2;
	if (tr->op[i] == REEL_OP_FLUSH)
		return 0;
	uint64_t off = tr->off[i];
	fd->off[fd->noff++] = (int64_t)off;
	int seq = (p->seen[d] & 1) && off == p->prev_end[d];
	if (seq)
		f->size_seq[f->nseq++] = tr->len[i];
	else
		f->size_rnd[f->nrnd++] = tr->len[i];
	p->seen[d] |= 1;
	p->prev_end[d] = off + tr->len[i];
	p->addressed++;
	p->near += near_history(p, d, off);
	return touch_blocks(p, f, d, i, off, tr->len[i], tr->op[i] == REEL_OP_READ);
}

/* Working sets: the sampled blocks read and written, scaled by the rate. */
static void fid_working_set(struct model_fid *f, const struct bmap *bm)
{
	uint64_t r = 0, w = 0;
	for (size_t s = 0; s < bm->cap; s++)
		if (bm->e[s].key) {
			r += bm->e[s].val & 1;
			w += (bm->e[s].val >> 1) & 1;
		}
	double scale = ldexp(1.0, bm->shift);
	f->sample_rate = 1 / scale;
	f->ws_read = (uint64_t)((double)r * scale);
	f->ws_write = (uint64_t)((double)w * scale);
}

static int fid_sort(struct model_fid *f)
{
	int e = 0;
	for (size_t k = 0; k < f->ndev && !e; k++)
		if (!(e = model_sort_i64(f->dev[k].off, f->dev[k].noff)))
			e = model_sort_i64(f->dev[k].gap, f->dev[k].ngap);
	if (!e && !(e = model_sort_i64(f->rdist, f->nrdist)) &&
	    !(e = model_sort_i64(f->size_seq, f->nseq)))
		e = model_sort_i64(f->size_rnd, f->nrnd);
	return e;
}

int model_fid_get(struct model_fid *f, const struct model_trace *tr)
{
	memset(f, 0, sizeof(*f));
	size_t n = tr->n;
	f->n = n;
	for (size_t i = 0; i < n; i++)
		f->bytes += tr->len[i];
	f->t0 = n ? tr->t[0] : 0;
	f->dur = n ? tr->t[n - 1] - tr->t[0] + 1 : 1;
	/* IDC in the ceil(dur / scale) bins from t0 (times sorted: t - t0 >= 0) */
	struct model_idc ia;
	model_idc_init(&ia);
	for (size_t i = 0; i < n; i++)
		model_idc_add(&ia, tr->t[i] - f->t0);
	for (int s = 0; s < MODEL_IDC_SCALES; s++) {
		int64_t sc = model_idc_scale_ns[s];
		f->idc[s] = model_idc_end(&ia, s, (double)(uint64_t)((f->dur + sc - 1) / sc));
	}
	struct fid_pass *p = calloc(1, sizeof(*p));
	int *slot = malloc((n + 1) * sizeof(*slot));
	int e = REEL_E_NOMEM;
	if (!p || !slot || bmap_init(&p->bm, FID_EXACT_BLOCKS) || fid_alloc(f, tr, slot))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (slot[i] >= 0 && fid_one(p, f, tr, i, slot[i]))
			goto out;
	f->locality = p->addressed ? (double)p->near / (double)p->addressed : 0;
	f->reuse = p->io_sampled ? (double)p->io_reused / (double)p->io_sampled : 0;
	f->raw = p->rd_sampled ? (double)p->rd_raw / (double)p->rd_sampled : -1;
	fid_working_set(f, &p->bm);
	e = fid_sort(f);
out:
	if (p)
		bmap_free(&p->bm);
	free(p);
	free(slot);
	if (e)
		model_fid_free(f);
	return e;
}

void model_fid_free(struct model_fid *f)
{
	if (!f)
		return;
	for (size_t k = 0; k < f->ndev; k++) {
		free(f->dev[k].off);
		free(f->dev[k].gap);
	}
	free(f->rdist);
	free(f->size_seq);
	free(f->size_rnd);
	memset(f, 0, sizeof(*f));
}
