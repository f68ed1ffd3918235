/*
 * model/json.c - a small strict JSON parser (RFC 8259) for MODEL.json.
 * Bounded: input size, nesting depth and node count are capped; anything
 * outside the grammar (comments, trailing commas, NaN, leading zeros,
 * control characters, \u0000, lone surrogates, trailing garbage) is refused
 * with the line and column.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

struct parser {
	const char *s, *end, *p;
	size_t nodes;
	char *err;
	size_t errlen;
	int failed;
};

static void perr(struct parser *ps, const char *fmt, ...)
{
	if (ps->failed)
		return;
	ps->failed = 1;
	size_t line = 1, col = 1;
	for (const char *q = ps->s; q < ps->p && q < ps->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (!ps->errlen)
		return;
	int k = snprintf(ps->err, ps->errlen, "line %zu col %zu: ", line, col);
	if (k < 0 || (size_t)k >= ps->errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err + k, ps->errlen - (size_t)k, fmt, ap);
	va_end(ap);
}

void model_json_free(struct model_json *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++)
		model_json_free(j->kids[i]);
	free(j->kids);
	free(j->str);
	free(j->key);
	free(j);
}

static void ws(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static struct model_json *node(struct parser *ps, enum model_json_type t)
{
	if (++ps->nodes > MODEL_JSON_MAX_NODES) {
		perr(ps, "more than %u values", MODEL_JSON_MAX_NODES);
		return NULL;
	}
	struct model_json *j = calloc(1, sizeof(*j));
	if (!j)
		perr(ps, "out of memory");
	else
		j->type = t;
	return j;
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static char *parse_string(struct parser *ps)
{
	/* at the opening quote */
	ps->p++;
	const char *q = ps->p;
	size_t cap = 16, n = 0;
	char *out = malloc(cap);
	if (!out) {
		perr(ps, "out of memory");
		return NULL;
	}
	while (q < ps->end && *q != '"') {
		unsigned char c = (unsigned char)*q;
		char buf[4];
		size_t k = 0;
		if (c < 0x20) {
			ps->p = q;
			perr(ps, "control character in a string");
			goto bad;
		}
		if (c != '\\') {
			buf[k++] = (char)c;
			q++;
		} else {
			if (q + 1 >= ps->end) {
				ps->p = q;
				perr(ps, "unfinished escape");
				goto bad;
			}
			char e = q[1];
			q += 2;
			switch (e) {
			case '"': buf[k++] = '"'; break;
			case '\\': buf[k++] = '\\'; break;
			case '/': buf[k++] = '/'; break;
			case 'b': buf[k++] = '\b'; break;
			case 'f': buf[k++] = '\f'; break;
			case 'n': buf[k++] = '\n'; break;
			case 'r': buf[k++] = '\r'; break;
			case 't': buf[k++] = '\t'; break;
			case 'u': {
				unsigned cp;
				if (ps->end - q < 4 || hex4(q, &cp)) {
					ps->p = q;
					perr(ps, "bad \\u escape");
					goto bad;
				}
				q += 4;
				if (cp >= 0xd800 && cp <= 0xdbff) {
					unsigned lo;
					if (ps->end - q < 6 || q[0] != '\\' || q[1] != 'u' ||
					    hex4(q + 2, &lo) || lo < 0xdc00 || lo > 0xdfff) {
						ps->p = q;
						perr(ps, "lone surrogate in \\u escape");
						goto bad;
					}
					q += 6;
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				} else if (cp >= 0xdc00 && cp <= 0xdfff) {
					ps->p = q;
					perr(ps, "lone surrogate in \\u escape");
					goto bad;
				}
				if (cp == 0) {
					ps->p = q;
					perr(ps, "\\u0000 is not allowed");
					goto bad;
				}
				if (cp < 0x80) {
					buf[k++] = (char)cp;
				} else if (cp < 0x800) {
					buf[k++] = (char)(0xc0 | (cp >> 6));
					buf[k++] = (char)(0x80 | (cp & 0x3f));
				} else if (cp < 0x10000) {
					buf[k++] = (char)(0xe0 | (cp >> 12));
					buf[k++] = (char)(0x80 | ((cp >> 6) & 0x3f));
					buf[k++] = (char)(0x80 | (cp & 0x3f));
				} else {
					buf[k++] = (char)(0xf0 | (cp >> 18));
					buf[k++] = (char)(0x80 | ((cp >> 12) & 0x3f));
					buf[k++] = (char)(0x80 | ((cp >> 6) & 0x3f));
					buf[k++] = (char)(0x80 | (cp & 0x3f));
				}
				break;
			}
			default:
				ps->p = q - 1;
				perr(ps, "unknown escape \\%c", e);
				goto bad;
			}
		}
		if (n + k + 1 > cap) {
			cap = cap * 2 + k;
			char *np = realloc(out, cap);
			if (!np) {
				perr(ps, "out of memory");
				goto bad;
			}
			out = np;
		}
		memcpy(out + n, buf, k);
		n += k;
	}
	if (q >= ps->end) {
		perr(ps, "unterminated string");
		goto bad;
	}
	out[n] = 0;
	ps->p = q + 1;
	return out;
bad:
	free(out);
	return NULL;
}

static int parse_number(struct parser *ps, double *out)
{
	const char *q = ps->p, *st = q;
	if (q < ps->end && *q == '-')
		q++;
	if (q >= ps->end)
		goto bad;
	if (*q == '0') {
		q++;
	} else if (*q >= '1' && *q <= '9') {
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	} else {
		goto bad;
	}
	if (q < ps->end && *q == '.') {
		q++;
		if (q >= ps->end || *q < '0' || *q > '9')
			goto bad;
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= ps->end || *q < '0' || *q > '9')
			goto bad;
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q - st > 64) {
		perr(ps, "number too long");
		return -1;
	}
	char buf[72];
	memcpy(buf, st, (size_t)(q - st));
	buf[q - st] = 0;
	*out = strtod(buf, NULL);
	if (*out > 1.7e308 || *out < -1.7e308) {
		perr(ps, "number out of range");
		return -1;
	}
	ps->p = q;
	return 0;
bad:
	ps->p = q;
	perr(ps, "malformed number");
	return -1;
}

static int add_kid(struct parser *ps, struct model_json *j, struct model_json *k, size_t *cap)
{
	if (j->n == *cap) {
		size_t c = *cap ? *cap * 2 : 4;
		struct model_json **p = realloc(j->kids, c * sizeof(*p));
		if (!p) {
			perr(ps, "out of memory");
			return -1;
		}
		j->kids = p;
		*cap = c;
	}
	j->kids[j->n++] = k;
	return 0;
}

static struct model_json *parse_value(struct parser *ps, int depth)
{
	ws(ps);
	if (ps->p >= ps->end) {
		perr(ps, "unexpected end of input");
		return NULL;
	}
	if (depth > MODEL_JSON_MAX_DEPTH) {
		perr(ps, "nesting deeper than %d", MODEL_JSON_MAX_DEPTH);
		return NULL;
	}
	char c = *ps->p;
	struct model_json *j = NULL;
	if (c == '{' || c == '[') {
		int obj = c == '{';
		j = node(ps, obj ? MJ_OBJ : MJ_ARR);
		if (!j)
			return NULL;
		size_t cap = 0;
		ps->p++;
		ws(ps);
		if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
			ps->p++;
			return j;
		}
		for (;;) {
			char *key = NULL;
			ws(ps);
			if (obj) {
				if (ps->p >= ps->end || *ps->p != '"') {
					perr(ps, "expected a member name in quotes");
					goto bad;
				}
				if (!(key = parse_string(ps)))
					goto bad;
				ws(ps);
				if (ps->p >= ps->end || *ps->p != ':') {
					free(key);
					perr(ps, "expected ':'");
					goto bad;
				}
				ps->p++;
			}
			struct model_json *k = parse_value(ps, depth + 1);
			if (!k) {
				free(key);
				goto bad;
			}
			k->key = key;
			if (add_kid(ps, j, k, &cap)) {
				model_json_free(k);
				goto bad;
			}
			ws(ps);
			if (ps->p < ps->end && *ps->p == ',') {
				ps->p++;
				continue;
			}
			if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
				ps->p++;
				return j;
			}
			perr(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
			goto bad;
		}
	}
	if (c == '"') {
		j = node(ps, MJ_STR);
		if (!j || !(j->str = parse_string(ps)))
			goto bad;
		return j;
	}
	static const struct {
		const char *w;
		enum model_json_type t;
		int b;
	} lits[] = {{"true", MJ_BOOL, 1}, {"false", MJ_BOOL, 0}, {"null", MJ_NULL, 0}};
	for (size_t i = 0; i < 3; i++) {
		size_t l = strlen(lits[i].w);
		if ((size_t)(ps->end - ps->p) >= l && !memcmp(ps->p, lits[i].w, l)) {
			j = node(ps, lits[i].t);
			if (!j)
				return NULL;
			j->boolean = lits[i].b;
			ps->p += l;
			return j;
		}
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		j = node(ps, MJ_NUM);
		if (!j || parse_number(ps, &j->num))
			goto bad;
		return j;
	}
	perr(ps, "unexpected character '%c'", c >= 0x20 && c < 0x7f ? c : '?');
	return NULL;
bad:
	model_json_free(j);
	return NULL;
}

struct model_json *model_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser ps = {text, text + len, text, 0, err, errlen, 0};
	if (errlen)
		err[0] = 0;
	if (len > MODEL_JSON_MAX_BYTES) {
		perr(&ps, "input larger than %u bytes", MODEL_JSON_MAX_BYTES);
		return NULL;
	}
	struct model_json *j = parse_value(&ps, 0);
	if (!j)
		return NULL;
	ws(&ps);
	if (ps.p != ps.end) {
		perr(&ps, "trailing characters after the JSON value");
		model_json_free(j);
		return NULL;
	}
	return j;
}

const struct model_json *model_json_get(const struct model_json *obj, const char *key)
{
	if (!obj || obj->type != MJ_OBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (obj->kids[i]->key && !strcmp(obj->kids[i]->key, key))
			return obj->kids[i];
	return NULL;
}
