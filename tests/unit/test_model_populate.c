/*
 * test_model_populate: gen_populate (gen.c: the arrivals thread's arrays
 * made present before they are first written, in place of a page fault
 * each) makes present exactly the pages wholly inside the bytes asked
 * (mincore), from GEN_POPULATE_MIN bytes up, and changes no byte: pages
 * written before keep what they hold, the others stay zero.  Fewer bytes
 * than GEN_POPULATE_MIN, or none, are left as they are.  On a kernel
 * without MADV_POPULATE_WRITE (before 5.14) it answers 0 and changes
 * nothing: skipped.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#define PAGES 1024

static int present(const unsigned char *v, size_t i) { return v[i] & 1; }

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p =
	    mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED);
	madvise(p, PAGES * page, MADV_NOHUGEPAGE); /* a page is a page */
	p[3 * page + 7] = 0x5a;			   /* written before: kept */
	p[100 * page] = 0xa5;
	/* pages 3 to 399 wholly inside; 2 and 400 in part */
	int r = gen_populate(p, 2 * page + 100, 400 * page + 50);
	unsigned char v[PAGES];
	CHECK(mincore(p, PAGES * page, v) == 0);
	if (!r) {
		for (size_t i = 0; i < PAGES; i++)
			CHECK_EQ(present(v, i), i == 3 || i == 100);
		SKIP("MADV_POPULATE_WRITE not taken (a kernel before 5.14)");
	}
	for (size_t i = 0; i < PAGES; i++)
		CHECK_EQ(present(v, i), i >= 3 && i < 400);
	for (size_t i = 0; i < 400 * page; i++)
		CHECK_EQ(p[i], i == 3 * page + 7 ? 0x5a : i == 100 * page ? 0xa5 : 0);
	/* GEN_POPULATE_MIN bytes on a page's bound: all their pages */
	size_t n = GEN_POPULATE_MIN / page;
	CHECK_EQ(gen_populate(p, 500 * page, 500 * page + GEN_POPULATE_MIN), 1);
	/* one byte fewer, none, or backwards: nothing */
	CHECK_EQ(gen_populate(p, 700 * page, 700 * page + GEN_POPULATE_MIN - 1), 0);
	CHECK_EQ(gen_populate(p, 900 * page, 900 * page), 0);
	CHECK_EQ(gen_populate(p, 950 * page, 900 * page), 0);
	CHECK(mincore(p, PAGES * page, v) == 0);
	for (size_t i = 400; i < PAGES; i++)
		CHECK_EQ(present(v, i), i >= 500 && i < 500 + n);
	munmap(p, PAGES * page);
	printf("gen_populate: pages 3-399 and %zu from 500 made present, bytes kept\n", n);
	return 0;
}
