/*
 * model/model_json_syntax.c - MODEL.json's syntax: what json-c parses
 * (strict mode, bounded depth, bounded size and value count) and what it
 * lets through that a model refuses (NUL bytes, control characters in
 * strings, single quotes, numbers that are not finite, \u0000 in a
 * string), each refusal with the line and column ("LINE:COL: ...");
 * and where a JSON path's value is in the text, so that a refusal of a
 * value (here, or the schema's in model_json_read.c) names its line and
 * column too ("LINE:COL: field PATH: ...").
 */
#include <ctype.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
			return reel_errf(err, errlen, REEL_E_PARSE, "%zu:%zu: %s", line, col, why);
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
	reel_errf(err, errlen, REEL_E_PARSE, "%zu:%zu: bad JSON: %s", line, col,
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

/* ---- where a path's value is in the text ---------------------------------
 * json-c's tree keeps no positions, so a schema refusal, which names the
 * value's path, finds its line by scanning the text again along the path.
 * The scanner reads JSON that json-c accepted; on anything else it stops
 * where it can go no further, never reading past LEN. */
static size_t skip_ws(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i;
}

/* Past the closing quote of the string opening at I (or LEN). */
static size_t string_end(const char *s, size_t len, size_t i)
{
	for (i++; i < len; i++)
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	return len;
}

/* Past the value at I: a string, an object or array (brackets counted,
 * strings skipped), or a number or literal up to the next delimiter. */
static size_t value_end(const char *s, size_t len, size_t i)
{
	if (i < len && s[i] == '"')
		return string_end(s, len, i);
	if (i < len && (s[i] == '{' || s[i] == '[')) {
		size_t depth = 0;
		while (i < len) {
			if (s[i] == '"') {
				i = string_end(s, len, i);
				continue;
			}
			if (s[i] == '{' || s[i] == '[')
				depth++;
			else if ((s[i] == '}' || s[i] == ']') && !--depth)
				return i + 1;
			i++;
		}
		return len;
	}
	while (i < len && !strchr(",:]} \t\r\n", s[i]))
		i++;
	return i;
}

/* The 4 hex digits at I (before END) into *U: 0, or -1 if they are not. */
static int hex4(const char *s, size_t i, size_t end, unsigned *u)
{
	char h[5] = "";
	for (size_t k = 0; k < 4; k++)
		if (i + k >= end || !isxdigit((unsigned char)(h[k] = s[i + k])))
			return -1;
	*u = (unsigned)strtoul(h, NULL, 16);
	return 0;
}

/* Whether the key string opening at I (END: past its closing quote) is
 * SEG (N bytes) as json-c reads it: escapes decoded (\u as UTF-8, a
 * surrogate pair as one character), cut at a \u0000 (json-c keeps keys as
 * C strings).  A lone surrogate matches nothing. */
static int key_is(const char *s, size_t end, size_t i, const char *seg, size_t n)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	size_t k = 0;
	for (i++; i + 1 < end; i++) {
		unsigned char b[4];
		size_t nb = 1;
		unsigned u, lo;
		b[0] = (unsigned char)s[i];
		if (s[i] == '\\' && s[i + 1] != 'u') {
			const char *e = s[++i] ? strchr(esc, s[i]) : NULL;
			if (!e || (e - esc) % 2)
				return 0;
			b[0] = (unsigned char)e[1];
		} else if (s[i] == '\\') {
			if (hex4(s, i + 2, end, &u))
				return 0;
			i += 5;
			if (u >= 0xd800 && u < 0xdc00) { /* a pair: the low half follows */
				if (i + 6 >= end || s[i + 1] != '\\' || s[i + 2] != 'u' ||
				    hex4(s, i + 3, end, &lo) || lo < 0xdc00 || lo >= 0xe000)
					return 0;
				i += 6;
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			} else if (u >= 0xdc00 && u < 0xe000) {
				return 0;
			}
			if (!u)
				break;
			nb = u < 0x80 ? 1 : u < 0x800 ? 2 : u < 0x10000 ? 3 : 4;
			for (size_t q = nb - 1; q > 0; q--, u >>= 6)
				b[q] = (unsigned char)(0x80 | (u & 0x3f));
			b[0] = (unsigned char)(nb == 1 ? u : (0xf00u >> nb & 0xff) | u);
		}
		for (size_t q = 0; q < nb; q++)
			if (k >= n || (unsigned char)seg[k++] != b[q])
				return 0;
	}
	return k == n;
}

/* Where the value starts that SEG (N bytes: a key, or "[i]") names in the
 * object or array at AT, as json-c picks it (of repeated keys, the last);
 * LEN when it has none. */
static size_t member_at(const char *s, size_t len, size_t at, const char *seg, size_t n)
{
	size_t idx = 0, found = len, i = skip_ws(s, len, at + 1);
	int arr = seg[0] == '[';
	for (size_t q = 1; arr && q + 1 < n; q++) {
		if (seg[q] < '0' || seg[q] > '9' || idx > (SIZE_MAX - 9) / 10)
			return len;
		idx = idx * 10 + (size_t)(seg[q] - '0');
	}
	if (at >= len || s[at] != (arr ? '[' : '{') || (arr && (n < 3 || seg[n - 1] != ']')))
		return len;
	for (size_t k = 0; i < len && s[i] != (arr ? ']' : '}'); k++) {
		if (arr && k == idx)
			return i;
		if (!arr) {
			if (s[i] != '"')
				return found;
			size_t ke = string_end(s, len, i);
			int match = key_is(s, ke, i, seg, n);
			i = skip_ws(s, len, ke);
			if (i >= len || s[i] != ':')
				return found;
			i = skip_ws(s, len, i + 1);
			if (match)
				found = i;
		}
		i = skip_ws(s, len, value_end(s, len, i));
		if (i >= len || s[i] != ',')
			break;
		i = skip_ws(s, len, i + 1);
	}
	return found;
}

size_t model_json_locate(const char *text, size_t len, const char *path, size_t *found)
{
	size_t at = skip_ws(text, len, 0), p = 0;
	*found = 0;
	while (path[p]) {
		size_t s = p + (path[p] == '.'), e = s;
		if (path[s] == '[')
			while (path[e] && path[e++] != ']')
				;
		else
			while (path[e] && path[e] != '.' && path[e] != '[')
				e++;
		size_t v = member_at(text, len, at, path + s, e - s);
		if (v >= len)
			break;
		at = v;
		*found = p = e;
	}
	return at;
}

/*
 * ERR holds a refusal "PATH: what", PATH as the reader writes it
 * ("devices[3].regions.weights[2]"; "model" is the top level, so
 * "model.count" its count); it becomes "LINE:COL: field PATH: what",
 * LINE:COL the place of PATH's value in TEXT or, where the text stops
 * short of it (a field missing), of the deepest value on the path that
 * the text has: the object that lacks the field.  Other messages stay.
 */
void model_json_place(char *err, size_t errlen, const char *text, size_t len)
{
	char msg[512];
	size_t n = 0, line, col, found;
	if (!errlen || !isalpha((unsigned char)err[0]))
		return;
	while (isalnum((unsigned char)err[n]) || (err[n] && strchr("_.[]", err[n])))
		n++;
	if (strncmp(err + n, ": ", 2) || n >= sizeof(msg))
		return;
	snprintf(msg, sizeof(msg), "%s", err);
	msg[n] = 0;
	const char *rel = msg;
	if (!strncmp(msg, "model", 5) && (!msg[5] || msg[5] == '.' || msg[5] == '['))
		rel += 5; /* the top level */
	line_col(text, model_json_locate(text, len, rel, &found), &line, &col);
	snprintf(err, errlen, "%zu:%zu: field %s: %s", line, col, msg, msg + n + 2);
}

/*
 * Whether every value under J passes check_values: the same tests without
 * the path, which check_values writes with snprintf at every value
 * (round 29: 0.43 G of disksim's 10M fit's 1.81 G to load).  Only on a
 * refusal does check_values walk again, for its message.
 */
static int values_ok(struct json_object *j)
{
	switch (json_object_get_type(j)) {
	case json_type_double:
		return isfinite(json_object_get_double(j));
	case json_type_string:
		return strlen(json_object_get_string(j)) == (size_t)json_object_get_string_len(j);
	case json_type_array: { /* json-c's array list read as it is (arraylist.h) */
		const struct array_list *a = json_object_get_array(j);
		for (size_t i = 0; i < a->length; i++)
			if (!values_ok(a->array[i]))
				return 0;
		return 1;
	}
	case json_type_object: {
		json_object_object_foreach(j, key, v)
		{
			(void)key;
			if (!values_ok(v))
				return 0;
		}
		return 1;
	}
	default:
		return 1;
	}
}

struct json_object *model_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	char path[256] = "";
	struct json_object *root = parse(err, errlen, text, len);
	if (root && !values_ok(root) && check_values(err, errlen, root, path, sizeof(path))) {
		model_json_place(err, errlen, text, len);
		json_object_put(root);
		return NULL;
	}
	return root;
}
