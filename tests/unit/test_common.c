/*
 * What every module shares from formats/: the heap, the error helper, the
 * option table (ranges, choices, junk), and the metadata-key table in
 * FORMAT.md.  One named function per behaviour.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "formats/reel.h"
#include "tests/unit/unit.h"

struct item {
	int64_t key;
	int seq;
};
/* ties come out in any order; the key order is what is checked */
#define ITEM_BEFORE(a, b) ((a)->key < (b)->key)
REEL_HEAP(item_heap, struct item, ITEM_BEFORE)

static int test_heap_orders_keys(void)
{
	struct item_heap h = {0};
	unsigned s = 12345;
	for (int i = 0; i < 10000; i++) {
		s = s * 1103515245u + 12345u;
		CHECK(item_heap_push(&h, (struct item){(int64_t)(s >> 8) % 1000 - 500, i}) == 0);
	}
	int64_t last = INT64_MIN;
	CHECK(item_heap_top(&h)->key >= -500);
	for (int i = 0; i < 10000; i++) {
		struct item x = item_heap_pop(&h);
		CHECK(x.key >= last);
		last = x.key;
	}
	CHECK(h.n == 0 && item_heap_top(&h) == NULL);
	item_heap_free(&h);
	item_heap_free(&h); /* twice is fine */
	return 0;
}

static int test_errf_formats_and_returns(void)
{
	char buf[16];
	CHECK(reel_errf(buf, sizeof(buf), REEL_E_PARSE, "%s:%d: bad", "file.csv", 12) ==
	      REEL_E_PARSE);
	CHECK(!strcmp(buf, "file.csv:12: ba")); /* cut, terminated */
	CHECK(reel_errf(NULL, 0, REEL_E_ARG, "x") == REEL_E_ARG);
	return 0;
}

static int parse_xk(const char *arg, void *dest, char *err, size_t errlen)
{
	if (arg[0] != 'x')
		return reel_errf(err, errlen, REEL_E_ARG, "--qd '%s': use xK", arg);
	*(double *)dest = atof(arg + 1);
	return 0;
}

static int run_opts(int argc, char **argv, int *window, double *speed, int *mode, double *xk,
		    uint64_t *size, int *flag)
{
	static const char *const modes[] = {"none", "strict", NULL};
	const struct reel_opt opts[] = {
	    OPT_INT('w', "window", "N", window, 1, 1 << 20, "window"),
	    OPT_DBL(0, "speed", "F", speed, 1e-6, 1e6, "speed"),
	    OPT_CHOICE(0, "order", "MODE", mode, modes, "order"),
	    OPT_CALLNUM(0, "qd", "xK", parse_xk, xk, "qd"),
	    OPT_SIZE(0, "bs", "SIZE", size, 512, 1 << 30, "block size"),
	    OPT_FLAG('q', "quiet", flag, "quiet"),
	    OPT_END,
	};
	static const struct reel_cmd_doc doc = {.name = "test", .usage = "[options] FILE"};
	return reel_opt_parse(&doc, opts, argc, argv);
}

static int test_opt_table_parses_and_checks(void)
{
	int window = 4096, mode = 0, flag = 0;
	double speed = 1, xk = 0;
	uint64_t size = 0;
	char *ok[] = {"test", "--window", "8",	  "--speed=0.5", "--order", "strict", "--qd",
		      "x2",   "FILE",	  "--bs", "4k",		 "-q",	    NULL};
	int i = run_opts(12, ok, &window, &speed, &mode, &xk, &size, &flag);
	CHECK(i == 11 && !strcmp(ok[i], "FILE")); /* operands are permuted last */
	CHECK(window == 8 && speed == 0.5 && mode == 1 && xk == 2 && size == 4096 && flag == 1);
	const char *bad[][2] = {{"--window", "abc"}, {"--window", "-1"},
				{"--window", "0"},   {"--window", "99999999999999999999"},
				{"--speed", "nan"},  {"--speed", "1e300"},
				{"--speed", "-2"},   {"--order", "random"},
				{"--qd", "32"},	     {"--bs", "-4k"},
				{"--bs", "2G"},	     {"--window", "8x"}};
	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		char *argv[] = {"test", (char *)bad[b][0], (char *)bad[b][1], NULL};
		CHECK(run_opts(3, argv, &window, &speed, &mode, &xk, &size, &flag) ==
		      REEL_OPT_EXIT_USAGE);
	}
	char *unknown[] = {"test", "--nope", NULL};
	CHECK(run_opts(2, unknown, &window, &speed, &mode, &xk, &size, &flag) ==
	      REEL_OPT_EXIT_USAGE);
	char *missing[] = {"test", "--window", NULL};
	CHECK(run_opts(2, missing, &window, &speed, &mode, &xk, &size, &flag) ==
	      REEL_OPT_EXIT_USAGE);
	CHECK(window == 8); /* refused values leave the destination alone */
	return 0;
}

/* Every key in REEL_META_KEYS has its row in FORMAT.md's table. */
static int test_meta_keys_documented(void)
{
	FILE *f = fopen("formats/FORMAT.md", "r");
	if (!f)
		SKIP("formats/FORMAT.md not found (run from the source tree)");
	static char doc[1 << 17];
	size_t n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = 0;
	int missing = 0;
#define CHECK_ROW(id, key, type, writer, meaning)                                                  \
	if (!strstr(doc, "| `" key "` | " #type " | " writer " |")) {                              \
		fprintf(stderr, "FORMAT.md lacks the row for %s (%s)\n", key, #type);              \
		missing++;                                                                         \
	}
	REEL_META_KEYS(CHECK_ROW)
#undef CHECK_ROW
	CHECK(missing == 0);
	return 0;
}

static int nice_of(void)
{
	errno = 0;
	int n = getpriority(PRIO_PROCESS, (id_t)gettid());
	CHECK(!(n == -1 && errno));
	return n;
}

static void *lower_here(void *arg)
{
	int *out = arg, before = nice_of();
	CHECK(reel_thread_lower(3) == 0);
	out[0] = before;
	out[1] = nice_of();
	CHECK(reel_thread_lower(100) == 0); /* at most 19 */
	out[2] = nice_of();
	CHECK(reel_thread_lower(0) == 0); /* nothing to do */
	CHECK_EQ(nice_of(), out[2]);
	return NULL;
}

/* reel_thread_lower: the calling thread's nice raised by the steps asked,
 * up to 19, and only its own (the thread that made it keeps its own) */
static int test_thread_lower_own_thread(void)
{
	int mine = nice_of(), seen[3];
	pthread_t th;
	CHECK(pthread_create(&th, NULL, lower_here, seen) == 0);
	CHECK(pthread_join(th, NULL) == 0);
	CHECK_EQ(seen[0], mine); /* a new thread starts at its maker's */
	CHECK_EQ(seen[1], mine + 3 > 19 ? 19 : mine + 3);
	CHECK_EQ(seen[2], 19);
	CHECK_EQ(nice_of(), mine);
	return 0;
}

int main(void)
{
	test_heap_orders_keys();
	test_errf_formats_and_returns();
	test_opt_table_parses_and_checks();
	test_meta_keys_documented();
	test_thread_lower_own_thread();
	return 0;
}
