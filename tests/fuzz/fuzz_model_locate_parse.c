/*
 * fuzz_model_locate_parse: model_json_locate, the scanner that finds a
 * JSON path's value in MODEL.json's text so that a refusal names its
 * line.  Input: the path, a newline, then the text.  On any text it stays
 * inside it; on text that model_json_parse accepts and an ASCII path, it
 * agrees with json-c's tree: it resolves as much of the path as the tree
 * holds (keys as json-c decodes them, the last of repeated keys), and the
 * value it points at, read from there, equals the tree's.
 */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* The tree's value at the longest prefix of PATH it holds; *DONE: that
 * prefix's length.  The path's grammar is model_json_locate's: "[i]" an
 * element, a key after '.' (or at the start, or after ']') a member. */
static struct json_object *walk(struct json_object *j, const char *path, size_t *done)
{
	size_t p = 0;
	*done = 0;
	while (path[p]) {
		size_t s = p + (path[p] == '.'), e = s;
		struct json_object *v = NULL;
		if (path[s] == '[') {
			size_t idx = 0, digits = 0;
			for (e = s + 1; path[e] >= '0' && path[e] <= '9'; e++, digits++)
				idx = idx > (SIZE_MAX - 9) / 10
					  ? SIZE_MAX
					  : idx * 10 + (size_t)(path[e] - '0');
			if (!digits || path[e] != ']' || !json_object_is_type(j, json_type_array) ||
			    idx >= json_object_array_length(j))
				break;
			v = json_object_array_get_idx(j, idx);
			e++;
		} else {
			while (path[e] && path[e] != '.' && path[e] != '[')
				e++;
			char key[256];
			if (e - s >= sizeof(key))
				break;
			memcpy(key, path + s, e - s);
			key[e - s] = 0;
			if (!json_object_is_type(j, json_type_object) ||
			    !json_object_object_get_ex(j, key, &v))
				break;
		}
		j = v;
		*done = p = e;
	}
	return j;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	if (!nl)
		return 0;
	size_t pl = (size_t)(nl - data), len = size - pl - 1;
	char *path = malloc(pl + 1), *text = malloc(len + 1);
	if (!path || !text) {
		free(path);
		free(text);
		return 0;
	}
	memcpy(path, data, pl);
	path[pl] = 0;
	memcpy(text, nl + 1, len);
	text[len] = 0; /* for the tokener below; the scanner gets LEN */
	size_t found, at = model_json_locate(text, len, path, &found);
	if (at > len || found > strlen(path))
		abort();
	int ascii = 1;
	for (size_t i = 0; path[i]; i++)
		ascii &= (unsigned char)path[i] < 0x80 && i < 255; /* walk's keys */
	char err[512];
	struct json_object *root = ascii ? model_json_parse(text, len, err, sizeof(err)) : NULL;
	if (root) {
		size_t done;
		struct json_object *want = walk(root, path, &done);
		/* the value from AT: not strict, so that it stops after the value
		 * (the text passed the strict parse); the NUL ends a number */
		struct json_tokener *tok = json_tokener_new_ex(MODEL_JSON_MAX_DEPTH);
		struct json_object *got =
		    tok ? json_tokener_parse_ex(tok, text + at, (int)(len - at + 1)) : NULL;
		if (done != found || (tok && !json_object_equal(want, got))) {
			fprintf(stderr, "path '%s': resolved %zu, the tree %zu; at %zu: %s\n", path,
				found, done, at, got ? json_object_to_json_string(got) : "(none)");
			abort();
		}
		json_object_put(got);
		json_tokener_free(tok);
		json_object_put(root);
	}
	free(path);
	free(text);
	return 0;
}
