/*
 * model/model_json_syntax.c - MODEL.json's syntax: what json-c parses
 * (strict mode, bounded depth, bounded size and value count) and what it
 * lets through that a model refuses (NUL bytes, control characters in
 * strings, single quotes, numbers that are not finite, \u0000 in a
 * string), each refusal with the line and column or the JSON path of the
 * value.  The fields are model_json_read.c's.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

static void line_col(const char *s, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (s[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

/*
 * Before json-c allocates anything: at most MODEL_JSON_MAX_NODES values
 * (every value but the first follows a '[', ',' or ':'), no NUL byte
 * (json-c would stop there), and what json-c's strict mode lets through:
 * control characters inside a string, single-quoted names.
 */
static int prescan(char *err, size_t errlen, const char *s, size_t len)
{
	size_t nodes = 1, line, col;
	int in = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *why = NULL;
		if (c == 0)
			why = "a NUL byte";
		else if (in && c < 0x20)
			why = "control character in a string";
		else if (!in && c == '\'')
			why = "a single quote (strings take double quotes)";
		if (why) {
			line_col(s, i, &line, &col);
			return reel_errf(err, errlen, REEL_E_PARSE, "line %zu col %zu: %s", line,
					 col, why);
		}
		if (in) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in = 0;
		} else if (c == '"') {
			in = 1;
		} else if (c == '[' || c == ',' || c == ':') {
			nodes++;
		}
	}
	if (nodes > MODEL_JSON_MAX_NODES)
		return reel_errf(err, errlen, REEL_E_PARSE, "more than %u values",
				 MODEL_JSON_MAX_NODES);
	return 0;
}

static struct json_object *parse(char *err, size_t errlen, const char *text, size_t len)
{
	size_t line, col, end;
	if (len > MODEL_JSON_MAX_BYTES) {
		reel_errf(err, errlen, REEL_E_PARSE, "input larger than %u bytes",
			  MODEL_JSON_MAX_BYTES);
		return NULL;
	}
	if (prescan(err, errlen, text, len))
		return NULL;
	struct json_tokener *tok = json_tokener_new_ex(MODEL_JSON_MAX_DEPTH);
	if (!tok) {
		reel_errf(err, errlen, REEL_E_NOMEM, "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	struct json_object *root = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (root && end == len)
		return root;
	json_object_put(root);
	line_col(text, end < len ? end : len, &line, &col);
	reel_errf(err, errlen, REEL_E_PARSE, "not a MODEL.json: bad JSON at line %zu col %zu: %s",
		  line, col,
		  root			       ? "trailing characters after the JSON value"
		  : e == json_tokener_continue ? "unexpected end of input"
					       : json_tokener_error_desc(e));
	return NULL;
}

/*
 * What json-c lets through and a model refuses, with the value's path:
 * numbers that are not finite (NaN, Infinity, 1e400) and strings holding
 * \u0000.
 */
static int check_values(char *err, size_t errlen, struct json_object *j, char *path, size_t cap)
{
	size_t pl = strlen(path);
	const char *p = pl ? path : "model";
	switch (json_object_get_type(j)) {
	case json_type_double:
		if (!isfinite(json_object_get_double(j)))
			return reel_errf(err, errlen, REEL_E_PARSE, "%s: not a finite number", p);
		return 0;
	case json_type_string:
		if (strlen(json_object_get_string(j)) != (size_t)json_object_get_string_len(j))
			return reel_errf(err, errlen, REEL_E_PARSE, "%s: \\u0000 in a string", p);
		return 0;
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(j); i++) {
			snprintf(path + pl, cap - pl, "[%zu]", i);
			if (check_values(err, errlen, json_object_array_get_idx(j, i), path, cap))
				return REEL_E_PARSE;
		}
		break;
	case json_type_object: {
		json_object_object_foreach(j, key, v)
		{
			snprintf(path + pl, cap - pl, "%s%s", pl ? "." : "", key);
			if (check_values(err, errlen, v, path, cap))
				return REEL_E_PARSE;
		}
		break;
	}
	default:
		break;
	}
	path[pl] = 0;
	return 0;
}

struct json_object *model_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	char path[256] = "";
	struct json_object *root = parse(err, errlen, text, len);
	if (root && check_values(err, errlen, root, path, sizeof(path))) {
		json_object_put(root);
		return NULL;
	}
	return root;
}
