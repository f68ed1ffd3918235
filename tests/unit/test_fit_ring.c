/*
 * test_fit_ring: fit's ring of slots between two threads (fit_source.c,
 * pass 4's gather on the main thread and touches on the second) hands
 * every slot over once and in order, through rings full and empty and the
 * sleeps of either side (a consumer asleep woken by a quarter of the ring
 * or a flush); fit_ring_peek sees only slots put; an abort ends
 * the waits of a producer on a full ring and of a consumer on an empty one.
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

#define N 40000

struct prod {
	struct fit_ring *r;
	unsigned n, pause_every;
};
static void *producer(void *arg)
{
	struct prod *p = arg;
	for (unsigned i = 0; i < p->n; i++) {
		uint64_t *s = fit_ring_slot(p->r);
		if (!s)
			return NULL;
		s[0] = i;
		s[1] = ~(uint64_t)i;
		fit_ring_put(p->r);
		if (i + 1 == p->n || i % 1000 == 999) /* a sleeping consumer woken */
			fit_ring_flush(p->r);
		if (p->pause_every && i % p->pause_every == 0)
			usleep(200); /* the consumer sleeps on an empty ring */
	}
	return NULL;
}

/* every slot once, in order; the consumer slow now and then (a full ring,
 * the producer asleep) or the producer (an empty one) */
static void test_order(unsigned n_slots, unsigned pause_prod, unsigned pause_cons)
{
	struct fit_ring *r = fit_ring_new(n_slots, 2 * sizeof(uint64_t));
	CHECK(r);
	struct prod p = {r, N, pause_prod};
	pthread_t th;
	CHECK(!pthread_create(&th, NULL, producer, &p));
	for (unsigned i = 0; i < N; i++) {
		const uint64_t *s = fit_ring_get(r), *nx = fit_ring_peek(r, 1);
		CHECK(s);
		CHECK_EQ(s[0], i);
		CHECK_EQ(s[1], ~(uint64_t)i);
		if (nx) /* put already: the next one */
			CHECK_EQ(nx[0], i + 1);
		fit_ring_free(r);
		if (pause_cons && i % pause_cons == 0)
			usleep(200);
	}
	CHECK(!pthread_join(th, NULL));
	CHECK(fit_ring_peek(r, 1) == NULL);
	fit_ring_destroy(r);
}

static void *aborter(void *arg)
{
	usleep(20000); /* past the spin: the other side asleep */
	fit_ring_abort(arg);
	return NULL;
}

/* a consumer on an empty ring, a producer on a full one: NULL once aborted */
static void test_abort(void)
{
	pthread_t th;
	struct fit_ring *r = fit_ring_new(4, 8);
	CHECK(r && !pthread_create(&th, NULL, aborter, r));
	CHECK(fit_ring_get(r) == NULL);
	CHECK(!pthread_join(th, NULL));
	fit_ring_destroy(r);
	r = fit_ring_new(4, 8);
	for (int i = 0; i < 4; i++) {
		CHECK(fit_ring_slot(r));
		fit_ring_put(r);
	}
	CHECK(!pthread_create(&th, NULL, aborter, r));
	CHECK(fit_ring_slot(r) == NULL);
	CHECK(!pthread_join(th, NULL));
	fit_ring_destroy(r);
	fit_ring_destroy(NULL);
}

int main(void)
{
	test_order(64, 0, 0);
	test_order(4, 0, 5000);	 /* full: the producer waits */
	test_order(64, 5000, 0); /* empty: the consumer waits */
	test_order(2, 777, 1000);
	test_abort();
	return 0;
}
