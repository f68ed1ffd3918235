/*
 * formats/common.c - small helpers every module shares: the one
 * error-formatting helper, large arrays mapped on their own, the replay's
 * buffers on huge pages.  (The heap is
 * inline in reel.h.)
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "formats/reel.h"

int reel_errf(char *buf, size_t len, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	reel_verrf(buf, len, fmt, ap);
	va_end(ap);
	return code;
}

void reel_verrf(char *buf, size_t len, const char *fmt, va_list ap)
{
	if (buf && len)
		vsnprintf(buf, len, fmt, ap);
}

/* ---- error messages (REEL_LIST_ERRORS makes the table), op and flag
 * names, the monotonic clock, JSON strings, sizes ------------------------ */
static const char *const err_msgs[] = {
#define REEL_X_MSG(name, msg) msg,
    REEL_LIST_ERRORS(REEL_X_MSG)
#undef REEL_X_MSG
};

const char *reel_strerror(int err)
{
	if (err == 0)
		return "success";
	if (err > REEL_E__BASE && err < REEL_E__END)
		return err_msgs[err - REEL_E__BASE - 1];
	if (err < 0 && err > -4096)
		return strerror(-err);
	return "unknown error";
}

static const char *const op_names[REEL_OP__COUNT] = {"read", "write", "discard", "flush",
						     "write-zeroes"};

const char *reel_op_name(int op) { return op >= 0 && op < REEL_OP__COUNT ? op_names[op] : "?"; }

int reel_op_parse(const char *name)
{
	for (int i = 0; i < REEL_OP__COUNT; i++)
		if (!strcmp(name, op_names[i]))
			return i;
	return -1;
}

static const char *const flag_names[] = {"sync", "fua", "meta", "preflush", "readahead"};

int reel_flags_format(unsigned flags, char *buf, size_t len)
{
	size_t n = 0;
	if (len)
		buf[0] = 0;
	for (unsigned i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
		if (!(flags & (1u << i)))
			continue;
		int k = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%s",
				 n ? "," : "", flag_names[i]);
		n += (size_t)k;
	}
	return (int)n;
}

int64_t reel_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void reel_json_num(FILE *f, double v, int digits)
{
	if (isfinite(v))
		fprintf(f, "%.*g", digits, v);
	else
		fputs("null", f);
}

void reel_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void reel_fputs_safe(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

int reel_parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s || errno || *s == '-')
		return REEL_E_ARG;
	static const char units[] = "kmgtpe"; /* 2^10 to 2^60, either case */
	uint64_t mul = 1;
	if (*end) {
		const char *u = strchr(units, tolower((unsigned char)*end));
		if (!u)
			return REEL_E_ARG;
		mul = 1ull << (10 * (u - units + 1));
		end++;
	}
	if (*end == 'i' && mul > 1)
		end++;
	if ((*end == 'B' || *end == 'b') && end[1] == 0)
		end++;
	if (*end)
		return REEL_E_ARG;
	if (v > UINT64_MAX / mul)
		return REEL_E_RANGE;
	*out = v * mul;
	return 0;
}

/* ---- large arrays, mappings of their own; huge pages for the replay ---- */
#define BIG_PAGE ((size_t)2 << 20)
/* under AddressSanitizer every array from malloc, where it sees overflows
 * and leaks */
#if defined(__SANITIZE_ADDRESS__)
#define BIG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIG_ASAN 1
#endif
#endif
#ifndef BIG_ASAN
#define BIG_ASAN 0
#endif
static int big_small(size_t n) { return BIG_ASAN || n < BIG_PAGE; }

void *reel_map_huge(size_t len, int *advised)
{
	/* over-mapped by a huge page, PROT_NONE (not populated, even under
	 * mlockall), trimmed to a 2 MiB-aligned start */
	if (len + BIG_PAGE < len)
		return NULL;
	char *b = mmap(NULL, len + BIG_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		return NULL;
	size_t lead = (BIG_PAGE - ((uintptr_t)b & (BIG_PAGE - 1))) & (BIG_PAGE - 1);
	if (lead)
		munmap(b, lead);
	munmap(b + lead + len, BIG_PAGE - lead);
	char *a = b + lead;
	int adv = madvise(a, len, MADV_HUGEPAGE) == 0;
	if (advised)
		*advised = adv;
	if (mprotect(a, len, PROT_READ | PROT_WRITE) < 0) {
		munmap(a, len);
		return NULL;
	}
	return a;
}

int reel_thread_lower(int by)
{
	id_t tid = (id_t)gettid();
	errno = 0;
	int cur = getpriority(PRIO_PROCESS, tid);
	if (cur == -1 && errno)
		return -errno;
	int to = cur + by > 19 ? 19 : cur + by;
	if (to <= cur)
		return 0;
	return setpriority(PRIO_PROCESS, tid, to) ? -errno : 0;
}

/* reel_malloc_big's, its mapping's FLAGS beside MAP_PRIVATE | MAP_ANONYMOUS */
static void *big_map(size_t n, int flags)
{
	if (big_small(n))
		return malloc(n);
	/* mapped on its own: freed, it goes back to the kernel, not to a heap
	 * where it would stay resident under the next pass */
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (n + page - 1) & ~(page - 1);
	if (len < n)
		return NULL;
	void *p =
	    mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void *reel_malloc_big(size_t n) { return big_map(n, 0); }

void *reel_malloc_big_populated(size_t n) { return big_map(n, MAP_POPULATE); }

void *reel_calloc_big(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	if (big_small(n * size))
		return calloc(n, size);
	return reel_malloc_big(n * size); /* a new mapping: zero */
}

void reel_free_big(void *p, size_t n)
{
	if (!p)
		return;
	if (big_small(n)) {
		free(p);
		return;
	}
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	munmap(p, (n + page - 1) & ~(page - 1));
}
