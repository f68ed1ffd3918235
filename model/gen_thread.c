/*
 * model/gen_thread.c - a generator's arrivals (times, ops, devices: what
 * gen.c draws from the main random stream) drawn on a thread of their own,
 * a few batches ahead of the placement (gen_space.c, its own stream), so
 * the two halves run on two cores.  The thread draws from a twin of the
 * generator made as it was (the same model, options and seed: the same
 * arrivals in the same order), so the records are those of one thread.
 */
#include <pthread.h>
#include <stdlib.h>

#include "model/gen_internal.h"

#define GT_BATCH 4096 /* arrivals handed over at once */
/* batches drawn ahead, at most: with 4 (16 Ki arrivals, a few ms of
 * placing) the placing side waited 1.5 s of a 10 s run at load 11 for the
 * thread (off its core a few ms at a time), with 32 (2 MiB) 0.04-0.71 s */
#define GT_SLOTS 32

struct gen_batch {
	struct gen_arr a[GT_BATCH];
	size_t n;
	int end; /* after these: 1 more to come, else gen_arrival's last (0, REEL_E_) */
};

struct gen_thread {
	struct model_gen *twin; /* draws the arrivals, on the thread */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t filled, taken; /* batches drawn, and placed (slot: % GT_SLOTS) */
	int stop;
	int have; /* the placing side holds batch `taken` (no lock to read it) */
	struct gen_batch b[GT_SLOTS];
};

static void *gt_main(void *arg)
{
	struct gen_thread *t = arg;
	reel_thread_lower(MODEL_GEN_ARRIVALS_NICE); /* the placing thread first */
	for (int k = 1; k == 1;) {
		pthread_mutex_lock(&t->mu);
		while (t->filled - t->taken >= GT_SLOTS && !t->stop)
			pthread_cond_wait(&t->cv, &t->mu);
		int stop = t->stop;
		pthread_mutex_unlock(&t->mu);
		if (stop)
			break;
		struct gen_batch *b = &t->b[t->filled % GT_SLOTS];
		b->n = gen_arrivals(t->twin, b->a, GT_BATCH, &k);
		b->end = k;
		pthread_mutex_lock(&t->mu);
		t->filled++;
		pthread_cond_broadcast(&t->cv);
		pthread_mutex_unlock(&t->mu);
	}
	return NULL;
}

int model_gen_thread(struct model_gen *g)
{
	if (g->thr || g->count || g->win)
		return g->thr ? 0 : REEL_E_ARG;
	struct gen_thread *t = calloc(1, sizeof(*t));
	if (!t || model_gen_create(&t->twin, g->m, &g->o)) {
		free(t);
		return REEL_E_NOMEM;
	}
	reel_free_big(t->twin->touched, TOUCH_BYTES); /* the twin places nothing */
	t->twin->touched = NULL;
	reel_free_big(t->twin->touch_d, t->twin->touch_nb / 8);
	t->twin->touch_d = NULL;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	if (pthread_create(&t->th, NULL, gt_main, t)) { /* G draws them itself */
		pthread_mutex_destroy(&t->mu);
		pthread_cond_destroy(&t->cv);
		model_gen_destroy(t->twin);
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
		if (t->have) { /* batch `taken` placed */
			const struct gen_batch *b = &t->b[t->taken % GT_SLOTS];
			if (b->end != 1)
				return b->end; /* and again on each call, as gen_arrival */
			pthread_mutex_lock(&t->mu);
			t->taken++;
			pthread_cond_broadcast(&t->cv);
			pthread_mutex_unlock(&t->mu);
			t->have = 0;
		}
		pthread_mutex_lock(&t->mu);
		while (t->filled == t->taken)
			pthread_cond_wait(&t->cv, &t->mu);
		pthread_mutex_unlock(&t->mu);
		t->have = 1;
		const struct gen_batch *b = &t->b[t->taken % GT_SLOTS];
		g->arr_at = b->a;
		g->arr_end = b->a + b->n;
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
	free(t);
	g->thr = NULL;
	g->arr_at = g->arr_end = NULL;
}
