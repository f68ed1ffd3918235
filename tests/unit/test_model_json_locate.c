/*
 * test_model_json_locate: a MODEL.json refusal names the line and column
 * of the value it refuses.  model_json_locate finds a path's value in the
 * text: at the top level, in nested objects, in arrays (of arrays), under
 * keys written with escapes (decoded as json-c decodes them, the last of
 * repeated keys as json-c keeps it); where the text stops short of the
 * path, the deepest value on it; on text that is not JSON, somewhere
 * inside it.  model_json_place and the reader put "LINE:COL: field PATH:"
 * in front of a refusal, over plain and gzip-compressed text.
 */
#include <string.h>

#include "model/model.h"
#include "tests/unit/unit.h"
#include "tests/unit/unit_model.h"

/* PATH's value in TEXT starts at the first WANT (FOUND: bytes of PATH
 * resolved, -1: all of it). */
static void check_at(const char *text, const char *path, const char *want, long found)
{
	size_t f, at = model_json_locate(text, strlen(text), path, &f);
	const char *w = strstr(text, want);
	CHECK(w != NULL);
	if (at != (size_t)(w - text) || f != (found < 0 ? strlen(path) : (size_t)found)) {
		fprintf(stderr, "'%s': at %zu (%.12s), %zu resolved; want %zu (%s), %ld\n", path,
			at, text + at, f, (size_t)(w - text), want, found);
		exit(1);
	}
}

static void test_top_level(void)
{
	check_at("  \n{\"a\": 1}", "", "{", -1);
	check_at("[1, 2]", "", "[", -1);
	check_at("{\"a\": 1, \"b\": true}", "b", "true", -1);
	check_at("{\"a\": 1, \"b\": true}", ".b", "true", -1); /* "model.b" less "model" */
	check_at("{\"a\": 1, \"b\": true}", "c", "{", 0);
}

static void test_nested_objects(void)
{
	const char *t = "{\n  \"a\": {\"x\": 1, \"b\": {\"x\": 22}},\n  \"x\": 333\n}";
	check_at(t, "a.b.x", "22", -1);
	check_at(t, "a.x", "1,", -1);
	check_at(t, "x", "333", -1);
	check_at(t, "a.b.y", "{\"x\": 22", 3); /* missing: the object that lacks it */
	check_at(t, "a.c.x", "{\"x\": 1", 1);
	check_at(t, "a[0]", "{\"x\": 1", 1); /* an index into an object: no */
	/* a key's name inside a string value, and strings holding brackets */
	check_at("{\"s\": \"\\\"x\\\": [{\", \"x\": 4}", "x", "4", -1);
}

static void test_arrays(void)
{
	const char *t = "{\"d\": [{\"w\": [0.5, 0.25]}, {\"w\": [[1, 2], [3, 44], []]}]}";
	check_at(t, "d[0].w[1]", "0.25", -1);
	check_at(t, "d[1].w[1][1]", "44", -1);
	check_at(t, "d[1].w[2]", "[]", -1);
	check_at(t, "d[1].w[2][0]", "[]", 9);
	check_at(t, "d[1].w[3]", "[[1", 6);
	check_at(t, "d[2]", "[{", 1);
	check_at(t, "d[1]x", "{\"w\": [[", 4); /* read as d[1].x */
	check_at(t, "d[]", "[{", 1);
	check_at(t, "d[99999999999999999999999]", "[{", 1);
	check_at("[10, [20, 30]]", "[1][0]", "20", -1);
}

/* keys compared as json-c decodes them */
static void test_escaped_keys(void)
{
	check_at("{\"op\\u005fmix\": 1, \"x\": 2}", "op_mix", "1", -1);
	check_at("{\"a\\\"b\": 1, \"a\\\\b\": 2, \"a/b\": 3, \"a\\/\": 4}", "a\\b", "2", -1);
	check_at("{\"a\\\"b\": 1, \"a\\\\b\": 2}", "a\"b", "1", -1);
	check_at("{\"a\\/\": 4}", "a/", "4", -1);
	check_at("{\"t\\tb\": 5}", "t\tb", "5", -1);
	check_at("{\"\\u00e9\": 6}", "\xc3\xa9", "6", -1);		  /* UTF-8 */
	check_at("{\"\\u20ac\": 6}", "\xe2\x82\xac", "6", -1);		  /* 3 bytes */
	check_at("{\"\\ud83d\\ude00\": 7}", "\xf0\x9f\x98\x80", "7", -1); /* a pair */
	check_at("{\"\\ud83d\": 7}", "\xed\xa0\xbd", "{", 0);		  /* a lone half */
	check_at("{\"k\\u0000z\": 8}", "k", "8", -1); /* json-c cuts a key at \u0000 */
	check_at("{\"k\\u0000z\": 8}", "kz", "{", 0);
	check_at("{\"k\\q\": 9}", "k", "{", 0);
	/* repeated keys: json-c keeps the last */
	check_at("{\"a\": 1, \"b\": 2, \"a\": {\"c\": 3}}", "a.c", "3", -1);
}

/* text json-c would refuse: no crash, no read past the end, an offset in
 * the text */
static void test_not_json(void)
{
	static const char *const bad[] = {
	    "",
	    "   ",
	    "{",
	    "[",
	    "{\"",
	    "{\"a",
	    "{\"a\"",
	    "{\"a\":",
	    "{\"a\": [",
	    "{\"a\": \"",
	    "{\"a\\",
	    "{\"\\u12",
	    "{\"\\ud800\\u",
	    "[1,",
	    "[1 2]",
	    "{1: 2}",
	    "{\"a\" 1}",
	    "]]]",
	    "{\"a\": {]]]]}",
	    "{\"a\": 1,,}",
	    "nul",
	};
	const char *paths[] = {"", "a", "a[0]", "[0]", "a.b", "[1]", "\\u12"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (size_t p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
			size_t len = strlen(bad[i]), f;
			/* a copy of just LEN bytes: AddressSanitizer sees a read past it */
			char *t = malloc(len ? len : 1);
			CHECK(t);
			memcpy(t, bad[i], len);
			size_t at = model_json_locate(t, len, paths[p], &f);
			CHECK(at <= len && f <= strlen(paths[p]));
			free(t);
		}
}

/* "PATH: what" becomes "LINE:COL: field PATH: what"; others stay */
static void test_place(void)
{
	const char *t = "{\n  \"version\": 2,\n  \"d\": [\n    {\"w\": [0.5, 7]}\n  ]\n}\n";
	static const struct {
		const char *msg, *want;
	} cases[] = {
	    {"model.version: 2 is outside [1, 1]",
	     "2:14: field model.version: 2 is outside [1, 1]"},
	    {"d[0].w[1]: a share in [0, 1]", "4:17: field d[0].w[1]: a share in [0, 1]"},
	    {"d[0].align: missing", "4:5: field d[0].align: missing"},
	    {"model.count: missing", "1:1: field model.count: missing"},
	    {"model: x", "1:1: field model: x"},
	    {"out of memory", "out of memory"},
	    {"3:4: bad JSON: x", "3:4: bad JSON: x"},
	    {"d[0] no colon", "d[0] no colon"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[128];
		snprintf(err, sizeof(err), "%s", cases[i].msg);
		model_json_place(err, sizeof(err), t, strlen(t));
		if (strcmp(err, cases[i].want)) {
			fprintf(stderr, "'%s' -> '%s', not '%s'\n", cases[i].msg, err,
				cases[i].want);
			exit(1);
		}
	}
}

/* the line and column of AT in TEXT */
static void place_of(const char *text, const char *at, size_t *line, size_t *col)
{
	CHECK(at != NULL);
	*line = *col = 1;
	for (const char *p = text; p < at; p++, ++*col)
		if (*p == '\n')
			++*line, *col = 0;
}

/* A model's damaged field named with its line and column, over plain text
 * and gzip-compressed (the inflated text's place): a share of the
 * regions' weights out of range, then a missing field (the line of the
 * object that lacks it). */
static void test_reader_lines(void)
{
	struct model_trace tr;
	struct model m, r;
	char err[512], want[128], *j, *gz = NULL;
	size_t l, lg = 0, line, col;
	unit_model_trace_one(&tr, "sda");
	for (int i = 0; i < 400; i++) /* two bands: regions with weights */
		unit_model_push(&tr, i * 100000LL, 0,
				(i % 2 ? 1ull << 29 : 0) + (uint64_t)i * 4096);
	unit_model_fit(&m, &tr);
	CHECK(m.ndevs == 1 && m.devs[0].nregions >= 2);
	m.devs[0].weight[1] = 7; /* written as it is, refused when read */
	unit_model_json(&m, &j, &l);
	FILE *mem = open_memstream(&gz, &lg);
	CHECK(mem && model_write_json_gz(&m, mem) == 0 && fclose(mem) == 0);
	place_of(j, strchr(strstr(j, "\"weights\": ["), ',') + 1, &line, &col);
	snprintf(want, sizeof(want), "%zu:%zu: field devices[0].regions.weights[1]: ", line, col);
	for (int z = 0; z < 2; z++) {
		CHECK(model_read_json(&r, z ? gz : j, z ? lg : l, err, sizeof(err)) != 0);
		printf("%s\n", err);
		CHECK(!strncmp(err, want, strlen(want)));
	}
	char *al = strstr(j, "\"align\": "); /* "align" -> "alig_": missing */
	CHECK(al != NULL);
	al[5] = '_';
	place_of(j, strstr(j, "\"devices\": [\n    {") + strlen("\"devices\": [\n    "), &line,
		 &col);
	snprintf(want, sizeof(want), "%zu:%zu: field devices[0].align: missing", line, col);
	CHECK(model_read_json(&r, j, l, err, sizeof(err)) != 0);
	printf("%s\n", err);
	CHECK(!strcmp(err, want));
	free(gz);
	free(j);
	model_free(&m);
	model_trace_free(&tr);
}

int main(void)
{
	test_top_level();
	test_nested_objects();
	test_arrays();
	test_escaped_keys();
	test_not_json();
	test_place();
	test_reader_lines();
	return 0;
}
