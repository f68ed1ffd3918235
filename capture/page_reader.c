/*
 * capture/page_reader.c - the thread that moves raw ring-buffer pages into
 * a queue in memory (see page_reader.h for why).
 *
 * Full sub-buffers are moved out by splice (no copying under the ring
 * buffer's reader lock, no forced page switch for the writers); the page the
 * kernel is still filling is read (copied) only once a second, or at the end,
 * so that a quiet CPU's events still reach the file within about a second;
 * and every 50 ms while the CPU fills no sub-buffer, because the merge
 * holds every CPU's events back to the time up to which the quietest CPU
 * has been read (with a second, the queues held a second of events:
 * 500,000 at fio's top rate, a cold 44 MB that the parser wrote through).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "capture/page_reader.h"

#define ROUND_NS 10000000LL	      /* a round of reads every 10 ms */
#define PARTIAL_EVERY_NS 1000000000LL /* the page being filled: once a second */
#define QUIET_PARTIAL_NS 50000000LL   /* ... or after 50 ms without a full one */
#define SLACK_NS 5000000LL	      /* commit latency allowance (tracefs_reader.c) */

struct page_reader {
	struct tracefs_cpu **tcpu; /* not owned */
	int ncpus, page_size;
	int64_t t0_mono;
	int64_t *last_partial; /* per CPU: CLOCK_MONOTONIC of the last partial read */
	int no_splice;	       /* splice refused: read() does it all */
	pthread_t th;
	int running;
	pthread_mutex_t mu;
	pthread_cond_t queued, wake; /* an item queued; the reader to stop */
	/* under mu: */
	struct page_item *head, *tail, *spare;
	size_t nspare, bytes, max_bytes, peak;
	uint64_t full; /* rounds cut short by a full queue */
	int stop;      /* 1: read to the end, then exit */
	int done;      /* the thread has exited */
};

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A free item, or NULL when the queue is full (never when final) or out
 * of memory. */
static struct page_item *get_item(struct page_reader *r, int final)
{
	struct page_item *it = NULL;
	size_t sz = sizeof(*it) + (size_t)r->page_size;
	pthread_mutex_lock(&r->mu);
	int room = final || r->bytes + sz <= r->max_bytes;
	if (room && r->spare) {
		it = r->spare;
		r->spare = it->next;
		r->nspare--;
	}
	pthread_mutex_unlock(&r->mu);
	if (!it && room)
		it = malloc(sz);
	return it;
}

static void drop_item(struct page_reader *r, struct page_item *it)
{
	pthread_mutex_lock(&r->mu);
	it->next = r->spare;
	r->spare = it;
	r->nspare++;
	pthread_mutex_unlock(&r->mu);
}

static void push(struct page_reader *r, struct page_item *it)
{
	it->next = NULL;
	pthread_mutex_lock(&r->mu);
	if (r->tail)
		r->tail->next = it;
	else
		r->head = it;
	r->tail = it;
	r->bytes += sizeof(*it) + (size_t)r->page_size;
	if (r->bytes > r->peak)
		r->peak = r->bytes;
	pthread_mutex_unlock(&r->mu);
}

/* A mark alone (a CPU with nothing new to read). */
static void push_mark(struct page_reader *r, int cpu, enum page_mark m, int64_t all_before)
{
	struct page_item *it = get_item(r, 1);
	if (!it)
		return; /* out of memory: the CPU's mark waits for the next round */
	it->cpu = cpu;
	it->mark = m;
	it->all_before = all_before;
	it->len = 0;
	push(r, it);
}

/* Read pages of one CPU until it has none (or the queue is full); the last
 * one read is returned unqueued in *last, for its mark.  splice: full
 * sub-buffers only.  Returns 1 when the queue filled, -1 when splice is
 * refused, else 0. */
static int read_pages(struct page_reader *r, int cpu, int splice, int final,
		      struct page_item **last)
{
	for (;;) {
		struct page_item *it = get_item(r, final);
		if (!it)
			return 1;
		int n = splice ? tracefs_cpu_buffered_read(r->tcpu[cpu], it->data, true)
			       : tracefs_cpu_read(r->tcpu[cpu], it->data, true);
		if (n <= 0) {
			int refused = splice && n < 0 && errno != EAGAIN && errno != EWOULDBLOCK;
			drop_item(r, it);
			return refused ? -1 : 0;
		}
		it->cpu = cpu;
		it->mark = PAGE_MARK_NONE;
		it->len = (size_t)n;
		if (*last)
			push(r, *last);
		*last = it;
	}
}

/* One CPU: what it has, and how far that reaches.  Returns 1 when the
 * queue was full. */
static int read_cpu(struct page_reader *r, int cpu, int final)
{
	struct page_item *last = NULL;
	int64_t now = mono_ns();
	int64_t all_before = now - SLACK_NS - r->t0_mono;
	int full = 0;
	if (!r->no_splice) {
		int rc = read_pages(r, cpu, 1, final, &last);
		if (rc < 0)
			r->no_splice = 1;
		full = rc > 0;
		int64_t since = now - r->last_partial[cpu];
		int due =
		    final || since >= PARTIAL_EVERY_NS || (!last && since >= QUIET_PARTIAL_NS);
		if (!r->no_splice && (full || !due)) {
			if (last) {
				last->mark = PAGE_MARK_PARTIAL;
				push(r, last);
			}
			return full;
		}
		r->last_partial[cpu] = now;
	}
	if (read_pages(r, cpu, 0, final, &last) > 0) {
		if (last) {
			last->mark = PAGE_MARK_PARTIAL; /* the rest is still there */
			push(r, last);
		}
		return 1;
	}
	if (last) {
		last->mark = PAGE_MARK_ALL;
		last->all_before = all_before;
		push(r, last);
	} else {
		push_mark(r, cpu, PAGE_MARK_ALL, all_before);
	}
	return 0;
}

/*
 * The reader runs at nice -20 where allowed (root): it needs little CPU but
 * needs it within a few buffer-lengths of time.  With the kernel's autogroups
 * the capture shares one group's CPU with everything of its session, fio at
 * full speed included; at nice 0 the reader waited up to 760 ms for a CPU
 * (measured, on 2 busy cores), long enough for 8 MiB buffers to fill.
 */
#define READER_NICE (-20)

static void *reader_main(void *arg)
{
	struct page_reader *r = arg;
	int final = 0;
	if (setpriority(PRIO_PROCESS, (id_t)gettid(), READER_NICE) < 0) {
		/* not permitted: the reader keeps the process's priority */
	}
	for (;;) {
		pthread_mutex_lock(&r->mu);
		final = r->stop;
		pthread_mutex_unlock(&r->mu);
		int full = 0;
		for (int i = 0; i < r->ncpus; i++)
			if (r->tcpu[i])
				full |= read_cpu(r, i, final);
		pthread_mutex_lock(&r->mu);
		r->full += (uint64_t)full;
		pthread_cond_broadcast(&r->queued);
		if (final) {
			r->done = 1;
			pthread_cond_broadcast(&r->queued);
			pthread_mutex_unlock(&r->mu);
			return NULL;
		}
		if (!r->stop) {
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			ts.tv_nsec += ROUND_NS;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&r->wake, &r->mu, &ts);
		}
		pthread_mutex_unlock(&r->mu);
	}
}

size_t page_reader_queue_bytes(int ncpus, unsigned buffer_kb)
{
	size_t b = (size_t)4 * (size_t)ncpus * buffer_kb * 1024;
	const size_t lo = (size_t)128 << 20, hi = (size_t)1024 << 20;
	return b < lo ? lo : b > hi ? hi : b;
}

int page_reader_start(struct page_reader **out, struct tracefs_cpu **tcpu, int ncpus, int page_size,
		      int64_t t0_mono, size_t max_bytes)
{
	struct page_reader *r = calloc(1, sizeof(*r));
	pthread_condattr_t ca;
	*out = NULL;
	if (!r)
		return -ENOMEM;
	r->last_partial = calloc((size_t)ncpus, sizeof(*r->last_partial));
	if (!r->last_partial) {
		free(r);
		return -ENOMEM;
	}
	r->tcpu = tcpu;
	r->ncpus = ncpus;
	r->page_size = page_size;
	r->t0_mono = t0_mono;
	r->max_bytes = max_bytes;
	pthread_mutex_init(&r->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->queued, &ca);
	pthread_cond_init(&r->wake, &ca);
	pthread_condattr_destroy(&ca);
	/* signals stay with the thread that handles them */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = pthread_create(&r->th, NULL, reader_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		page_reader_free(r);
		return -rc;
	}
	r->running = 1;
	*out = r;
	return 0;
}

struct page_item *page_reader_take(struct page_reader *r, size_t max)
{
	pthread_mutex_lock(&r->mu);
	struct page_item *first = r->head, *it = first;
	size_t n = 0;
	for (; it && ++n < max; it = it->next)
		;
	if (it) { /* the max-th item: cut after it */
		r->head = it->next;
		it->next = NULL;
	} else {
		r->head = NULL;
	}
	if (!r->head)
		r->tail = NULL;
	r->bytes -= n * (sizeof(*first) + (size_t)r->page_size);
	pthread_mutex_unlock(&r->mu);
	return first;
}

/* Pages are kept for reuse, never freed while the capture runs: freeing a
 * chunk this large makes malloc consolidate its small free chunks each
 * time, which slowed the joiner's allocations more than the parsing cost.
 * The memory kept is what the queue once held, at most max_bytes. */
void page_reader_give(struct page_reader *r, struct page_item *list)
{
	if (!list)
		return;
	struct page_item *last = list;
	size_t n = 1;
	for (; last->next; last = last->next)
		n++;
	pthread_mutex_lock(&r->mu);
	last->next = r->spare;
	r->spare = list;
	r->nspare += n;
	pthread_mutex_unlock(&r->mu);
}

void page_reader_wait(struct page_reader *r, int64_t timeout_ns)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += timeout_ns / 1000000000LL;
	ts.tv_nsec += timeout_ns % 1000000000LL;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->mu);
	if (!r->head && !r->done)
		pthread_cond_timedwait(&r->queued, &r->mu, &ts);
	pthread_mutex_unlock(&r->mu);
}

void page_reader_stop(struct page_reader *r)
{
	if (!r || !r->running)
		return;
	pthread_mutex_lock(&r->mu);
	r->stop = 1;
	pthread_cond_broadcast(&r->wake);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->th, NULL);
	r->running = 0;
}

void page_reader_counts(struct page_reader *r, uint64_t *full, uint64_t *peak_bytes)
{
	pthread_mutex_lock(&r->mu);
	*full = r->full;
	*peak_bytes = r->peak;
	pthread_mutex_unlock(&r->mu);
}

static void free_list(struct page_item *it)
{
	while (it) {
		struct page_item *next = it->next;
		free(it);
		it = next;
	}
}

void page_reader_free(struct page_reader *r)
{
	if (!r)
		return;
	page_reader_stop(r);
	free_list(r->head);
	free_list(r->spare);
	pthread_cond_destroy(&r->queued);
	pthread_cond_destroy(&r->wake);
	pthread_mutex_destroy(&r->mu);
	free(r->last_partial);
	free(r);
}
