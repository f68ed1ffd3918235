/*
 * model/gen_thread.c - a generator's arrivals (times, ops, devices: what
 * gen.c draws from the main random stream) drawn on a thread of their own,
 * a window or more ahead of the placement (gen_space.c, its own stream),
 * so the two halves run on two cores.  The thread draws from a twin of the
 * generator made as it was (the same model, options and seed: the same
 * arrivals in the same order), so the records are those of one thread.
 */
#include <pthread.h>
#include <stdlib.h>

#include "model/gen_internal.h"

#define GT_BATCH 4096 /* arrivals handed over at once */
/* the fewest batches ahead the thread waits for before it hands its next
 * window over (GT_AHEAD_MAX below: the most): with 4 (16 Ki arrivals, a few
 * ms of placing) the placing side waited 1.5 s of a 10 s run at load 11
 * for the thread (off its core a few ms at a time), with 32 (2 MiB)
 * 0.04-0.71 s */
#define GT_SLOTS 32
/* Before it hands a window over, the thread waits until fewer batches are
 * ahead than the largest window it has drawn (GT_SLOTS at least, this at
 * most: 4 Mi arrivals, 64 MiB).  Ahead by one window alone, a large window
 * after a small one was drawn while the placing side placed the small one
 * and then waited (blkparse's model at --rate 40323: 10 windows of 1-1.5 M
 * arrivals between windows of 40 K; wall 4.24 s, 3.43 with at most 256
 * batches ahead, 3.06 with 1024, against 4.77 handed over 32 batches at a
 * time; peak RSS 101, 109, 115 MB against 77). */
#define GT_AHEAD_MAX 1024
/* Batches handed over and not placed, at most, within a window too (8 Mi
 * arrivals, 128 MiB): with GT_AHEAD_MAX ahead and a window handed over
 * whole, the batches held grew with --rate (blktrace's model at x88496:
 * a window of 4.07 M arrivals, 2018 batches at most, under this; at
 * x265488, 14M I/O, peak RSS 706 MB without it, 638 with it, 509 with
 * 32 batches ahead at most, round 22).  Past it the thread waits inside
 * the window, and the threads take turns again on windows that large. */
#define GT_HELD_MAX 2048

struct gen_batch {
	struct gen_batch *next; /* handed over after this one (NULL: none yet) */
	size_t n;
	int end; /* after these: 1 more to come, else gen_arrival's last (0, REEL_E_) */
	struct gen_arr a[GT_BATCH];
};

/*
 * The thread hands a window over whole, then draws the next one at once,
 * while the placing side places the last: pick_device's draws of a
 * window's arrivals (as they are handed over) come before the next
 * window's on the same stream, so a window cannot be drawn before the
 * last one's arrivals are all out.  Handed over GT_SLOTS batches at a time
 * (the thread waiting for room, as it once did), a window of more
 * arrivals than those was drawn only when the placing side had its last
 * 128 Ki left: the two threads took turns (blkparse's model at --rate
 * 40323, a window of ~1 M arrivals: 4.45 s of wall for 2.65 s of
 * placing).  The thread now waits for room before a window (fewer
 * batches ahead than its largest window, GT_AHEAD_MAX at most) and within
 * one only at GT_HELD_MAX; the batches placed are kept for the next large
 * window (16 bytes an arrival held: up to about twice the largest window,
 * 128 MiB at most, until the generator stops).
 */
struct gen_thread {
	struct model_gen *twin; /* draws the arrivals, on the thread */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t filled, taken; /* batches handed over, and placed */
	uint64_t ahead;		/* batches ahead at most before a window (GT_AHEAD_MAX) */
	int stop;
	/* under mu: the batches handed over and not taken by the placing
	 * side, first to last, and those placed, for the thread to fill */
	struct gen_batch *head, *tail, *spare;
	struct gen_batch *cur; /* the placing side's batch (no lock to read it) */
};

/* A batch for the thread to fill, with mu held (and held again when it
 * returns): a spare one, a new one, or (no memory) one placed; NULL when
 * stopped. */
static struct gen_batch *gt_batch(struct gen_thread *t)
{
	while (!t->stop) {
		struct gen_batch *b = t->spare;
		if (b) {
			t->spare = b->next;
			return b;
		}
		pthread_mutex_unlock(&t->mu);
		/* written whole as soon as made (a window's last in part): made
		 * present at once, not 16 page faults (gen_populate: blktrace's
		 * rate-1 gen made 684 for a window of 2.8 M arrivals, 11 K
		 * faults; malloc'd one by one, not in blocks of their own, as the
		 * heap gives them blocks the window's scratch freed: blkparse's
		 * peak RSS 92 MB, 97-103 made 32 at a time) */
		b = malloc(sizeof(*b));
		if (b)
			gen_populate(b, 0, sizeof(*b));
		pthread_mutex_lock(&t->mu);
		if (b)
			return b;
		/* every batch is handed over (one at least, made with the
		 * thread): the placing side gives one back, or stops */
		while (!t->spare && !t->stop)
			pthread_cond_wait(&t->cv, &t->mu);
	}
	return NULL;
}

static void *gt_main(void *arg)
{
	struct gen_thread *t = arg;
	struct model_gen *w = t->twin;
	reel_thread_lower(MODEL_GEN_ARRIVALS_NICE); /* the placing thread first */
	pthread_mutex_lock(&t->mu);
	for (int k = 1; k == 1;) {
		pthread_mutex_unlock(&t->mu);
		k = gen_window(w); /* the next window, while the last is placed */
		pthread_mutex_lock(&t->mu);
		uint64_t nb = (w->nbuf + GT_BATCH - 1) / GT_BATCH;
		if (nb > t->ahead)
			t->ahead = nb < GT_AHEAD_MAX ? nb : GT_AHEAD_MAX;
		while (t->filled - t->taken >= t->ahead && !t->stop)
			pthread_cond_wait(&t->cv, &t->mu);
		/* the window handed over whole (its end: a batch of none) */
		do {
			while (t->filled - t->taken >= GT_HELD_MAX && !t->stop)
				pthread_cond_wait(&t->cv, &t->mu);
			struct gen_batch *b = gt_batch(t);
			if (!b)
				break;
			pthread_mutex_unlock(&t->mu);
			size_t n = w->nbuf - w->pos;
			b->n = k == 1 ? gen_arrivals(w, b->a, n < GT_BATCH ? n : GT_BATCH, &k) : 0;
			b->end = k;
			b->next = NULL;
			pthread_mutex_lock(&t->mu);
			if (t->tail)
				t->tail->next = b;
			else
				t->head = b;
			t->tail = b;
			t->filled++;
			pthread_cond_broadcast(&t->cv);
		} while (k == 1 && w->pos < w->nbuf);
		if (t->stop)
			break;
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

int model_gen_thread(struct model_gen *g)
{
	if (g->thr || g->count || g->win)
		return g->thr ? 0 : REEL_E_ARG;
	struct gen_thread *t = calloc(1, sizeof(*t));
	if (t) {
		t->spare = calloc(1, sizeof(*t->spare));
		t->ahead = GT_SLOTS;
	}
	/* the twin places nothing: none of the placement's state (disksim's
	 * rate-1 fit: 56 M instructions to set it up, round 29) */
	if (!t || !t->spare || gen_create_arrivals(&t->twin, g->m, &g->o)) {
		if (t)
			free(t->spare);
		free(t);
		return REEL_E_NOMEM;
	}
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	if (pthread_create(&t->th, NULL, gt_main, t)) { /* G draws them itself */
		pthread_mutex_destroy(&t->mu);
		pthread_cond_destroy(&t->cv);
		model_gen_destroy(t->twin);
		free(t->spare);
		free(t);
		return 0;
	}
	g->thr = t;
	return 0;
}

int gen_thread_next(struct model_gen *g, double *tp, int *op, size_t *d)
{
	struct gen_thread *t = g->thr;
	for (;;) {
		if (g->arr_at < g->arr_end) {
			const struct gen_arr *a = g->arr_at++;
			*tp = a->t;
			*op = a->op;
			*d = a->dev;
			g->phase = a->phase;
			return 1;
		}
		struct gen_batch *b = t->cur;
		if (b && b->end != 1)
			return b->end; /* and again on each call, as gen_arrival */
		pthread_mutex_lock(&t->mu);
		if (b) { /* placed: back to the thread */
			t->taken++;
			b->next = t->spare;
			t->spare = b;
			pthread_cond_broadcast(&t->cv);
		}
		while (!t->head)
			pthread_cond_wait(&t->cv, &t->mu);
		b = t->cur = t->head;
		t->head = b->next;
		if (!t->head)
			t->tail = NULL;
		pthread_mutex_unlock(&t->mu);
		g->arr_at = b->a;
		g->arr_end = b->a + b->n;
	}
}

static void gt_free(struct gen_batch *b)
{
	while (b) {
		struct gen_batch *n = b->next;
		free(b);
		b = n;
	}
}

void gen_thread_stop(struct model_gen *g)
{
	struct gen_thread *t = g->thr;
	if (!t)
		return;
	pthread_mutex_lock(&t->mu);
	t->stop = 1;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->th, NULL);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	model_gen_destroy(t->twin);
	free(t->cur);
	gt_free(t->head);
	gt_free(t->spare);
	free(t);
	g->thr = NULL;
	g->arr_at = g->arr_end = NULL;
}
