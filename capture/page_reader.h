/*
 * capture/page_reader.h - internal to capture/: a thread that moves raw
 * ring-buffer pages out of the kernel into a queue in memory, and does
 * nothing else.
 *
 * Why a thread: parsing, joining and compressing cost several times what
 * reading costs, and while one thread did it all, a busy machine (or a
 * second of compression) held the reads back until the kernel's buffers
 * were full and events were dropped.  The reader is cheap (the cost of
 * trace-cmd record's recorders), so it keeps up whenever it gets the CPU
 * at all; the parser catches up from the queue, which can hold several
 * times the kernel's buffers.
 *
 * Each item is a page of one CPU, or a mark saying how far that CPU has
 * been read (see struct page_item); items of one CPU come out in the order
 * read, so the parser knows, for each CPU, up to what time it has every
 * event.  The queue is bounded: when it is full the reader leaves the pages
 * in the kernel, whose buffers then fill and drop events (counted there).
 */
#ifndef IOREEL_CAPTURE_PAGE_READER_H
#define IOREEL_CAPTURE_PAGE_READER_H
#include <stddef.h>
#include <stdint.h>

#include <tracefs/tracefs.h>

enum page_mark {
	PAGE_MARK_NONE,
	/* every event of the CPU up to this page is read, but the page the
	 * kernel is still filling is not: the CPU is read up to the last event
	 * parsed from it */
	PAGE_MARK_PARTIAL,
	/* every event of the CPU committed before all_before (trace clock,
	 * relative to time zero) is read */
	PAGE_MARK_ALL,
};

struct page_item {
	struct page_item *next;
	int cpu;
	enum page_mark mark; /* applies after the page's events (if any) */
	int64_t all_before;  /* PAGE_MARK_ALL */
	size_t len;	     /* bytes of data; 0: a mark alone */
	char data[];	     /* page_size bytes */
};

struct page_reader;

/* The queue's bound for ncpus buffers of buffer_kb: 4 times what the kernel
 * holds, from 128 MiB to 1 GiB (a second or more of fio's top rate). */
size_t page_reader_queue_bytes(int ncpus, unsigned buffer_kb);
/*
 * Start the thread reading tcpu[0..ncpus) (NULL entries: offline CPUs) in
 * pages of page_size bytes; t0_mono is time zero (CLOCK_MONOTONIC, ns).
 * max_bytes bounds the queue.  The tracefs_cpu handles stay the caller's
 * (close them after page_reader_stop()).  Returns 0 or -errno.
 */
int page_reader_start(struct page_reader **out, struct tracefs_cpu **tcpu, int ncpus, int page_size,
		      int64_t t0_mono, size_t max_bytes);
/*
 * Take up to max items queued so far, oldest first (a list through ->next;
 * NULL when none).  Give them back with page_reader_give().
 */
struct page_item *page_reader_take(struct page_reader *r, size_t max);
void page_reader_give(struct page_reader *r, struct page_item *list);
/* Wait up to timeout_ns for an item to be queued (returns at once when one
 * is there, or once the reader has stopped). */
void page_reader_wait(struct page_reader *r, int64_t timeout_ns);
/*
 * Read every CPU to the end, the pages still being filled included, queue
 * it all (unbounded), and end the thread.  Call after tracing is turned off.
 */
void page_reader_stop(struct page_reader *r);
/* Reader rounds cut short by a full queue; the largest queue (bytes). */
void page_reader_counts(struct page_reader *r, uint64_t *full, uint64_t *peak_bytes);
/* End the thread (if running) and free the queue.  Accepts NULL. */
void page_reader_free(struct page_reader *r);

#endif
