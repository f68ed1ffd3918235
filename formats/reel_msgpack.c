/*
 * formats/reel_msgpack.c - msgpack helpers of the .reel writer and reader:
 * packing strings, checking untrusted input before msgpack-c unpacks it,
 * and reading map values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel_internal.h"

void reel_mp_pack_str(msgpack_packer *pk, const char *s)
{
	size_t n = strlen(s);
	msgpack_pack_str(pk, n);
	msgpack_pack_str_body(pk, s, n);
}

/* n big-endian bytes at *p, for reel_mp_sane(); *ok 0 when they are not there */
static uint64_t rd_be(const unsigned char **p, size_t *left, size_t n, int *ok)
{
	uint64_t v = 0;
	*ok = *left >= n;
	if (!*ok)
		return 0;
	for (size_t i = 0; i < n; i++)
		v = v << 8 | (*p)[i];
	*p += n;
	*left -= n;
	return v;
}

/*
 * Check that buf holds one well-formed msgpack object whose containers
 * never claim more elements than there are bytes left, before msgpack-c
 * allocates room for them (it trusts the counts).
 */
int reel_mp_sane(const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;
	uint64_t need = 1;
	while (need) {
		if (p >= end)
			return 0;
		unsigned c = *p++;
		uint64_t skip = 0, items = 0;
		int ok = 1;
		size_t left = (size_t)(end - p);
#define RD(n) rd_be(&p, &left, (n), &ok)
		need--;
		if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3) {
		} else if ((c & 0xf0) == 0x80) {
			items = 2 * (uint64_t)(c & 0x0f);
		} else if ((c & 0xf0) == 0x90) {
			items = c & 0x0f;
		} else if ((c & 0xe0) == 0xa0) {
			skip = c & 0x1f;
		} else {
			switch (c) {
			case 0xc4:
			case 0xd9:
				skip = RD(1);
				break;
			case 0xc5:
			case 0xda:
				skip = RD(2);
				break;
			case 0xc6:
			case 0xdb:
				skip = RD(4);
				break;
			case 0xc7:
				skip = RD(1) + 1;
				break;
			case 0xc8:
				skip = RD(2) + 1;
				break;
			case 0xc9:
				skip = RD(4) + 1;
				break;
			case 0xca:
				skip = 4;
				break;
			case 0xcb:
				skip = 8;
				break;
			case 0xcc:
			case 0xd0:
				skip = 1;
				break;
			case 0xcd:
			case 0xd1:
				skip = 2;
				break;
			case 0xce:
			case 0xd2:
				skip = 4;
				break;
			case 0xcf:
			case 0xd3:
				skip = 8;
				break;
			case 0xd4:
				skip = 2;
				break;
			case 0xd5:
				skip = 3;
				break;
			case 0xd6:
				skip = 5;
				break;
			case 0xd7:
				skip = 9;
				break;
			case 0xd8:
				skip = 17;
				break;
			case 0xdc:
				items = RD(2);
				break;
			case 0xdd:
				items = RD(4);
				break;
			case 0xde:
				items = 2 * RD(2);
				break;
			case 0xdf:
				items = 2 * RD(4);
				break;
			default:
				return 0;
			}
		}
#undef RD
		if (!ok)
			return 0;
		if (skip > (uint64_t)(end - p))
			return 0;
		p += skip;
		need += items;
		if (need > (uint64_t)(end - p))
			return 0;
	}
	return 1;
}

const msgpack_object *reel_mp_get(const msgpack_object *m, const char *key)
{
	if (!m || m->type != MSGPACK_OBJECT_MAP)
		return NULL;
	size_t kl = strlen(key);
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object *k = &m->via.map.ptr[i].key;
		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == kl &&
		    !memcmp(k->via.str.ptr, key, kl))
			return &m->via.map.ptr[i].val;
	}
	return NULL;
}

int reel_mp_int(const msgpack_object *o, int64_t *v)
{
	if (!o)
		return -1;
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
		if (o->via.u64 > INT64_MAX)
			return -1;
		*v = (int64_t)o->via.u64;
		return 0;
	}
	if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		*v = o->via.i64;
		return 0;
	}
	return -1;
}

int64_t reel_mp_int_or(const msgpack_object *o, int64_t dflt)
{
	int64_t v;
	return reel_mp_int(o, &v) ? dflt : v;
}

char *reel_mp_strdup(const msgpack_object *o)
{
	if (!o || o->type != MSGPACK_OBJECT_STR)
		return strdup("");
	char *s = malloc(o->via.str.size + 1);
	if (s) {
		memcpy(s, o->via.str.ptr, o->via.str.size);
		s[o->via.str.size] = 0;
	}
	return s;
}
