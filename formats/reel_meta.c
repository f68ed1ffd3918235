/*
 * formats/reel_meta.c - the metadata list of a .reel file (flat dotted keys
 * with a string, integer or double value): kept by the writer, packed into
 * the header, chunks and trailer, and merged back by the reader.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/reel_internal.h"

void reel_meta_list_free(struct meta_list *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free((char *)m->v[i].key);
		free((char *)m->v[i].s);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

struct reel_meta *reel_meta_list_find(const struct meta_list *m, const char *key)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].key, key))
			return &m->v[i];
	return NULL;
}

int reel_meta_list_set(struct meta_list *m, const char *key, enum reel_meta_type t, const char *s,
		       size_t slen, int64_t i, double d)
{
	struct reel_meta *e = reel_meta_list_find(m, key);
	if (!e) {
		if (REEL_VEC_RESERVE(m->v, m->n, m->cap, 16))
			return REEL_E_NOMEM;
		e = &m->v[m->n];
		memset(e, 0, sizeof(*e));
		e->key = strdup(key);
		if (!e->key)
			return REEL_E_NOMEM;
		m->n++;
	}
	free((char *)e->s);
	e->s = NULL;
	e->type = t;
	e->i = i;
	e->d = d;
	if (t == REEL_META_STR) {
		char *c = malloc(slen + 1);
		if (!c)
			return REEL_E_NOMEM;
		memcpy(c, s, slen);
		c[slen] = 0;
		e->s = c;
	}
	return 0;
}

void reel_meta_list_pack(msgpack_packer *pk, const struct meta_list *m, size_t from)
{
	msgpack_pack_map(pk, m->n - from);
	for (size_t i = from; i < m->n; i++) {
		reel_mp_pack_str(pk, m->v[i].key);
		switch (m->v[i].type) {
		case REEL_META_STR:
			reel_mp_pack_str(pk, m->v[i].s);
			break;
		case REEL_META_INT:
			msgpack_pack_int64(pk, m->v[i].i);
			break;
		case REEL_META_DBL:
			msgpack_pack_double(pk, m->v[i].d);
			break;
		}
	}
}

int reel_meta_list_read(struct meta_list *list, const msgpack_object *m)
{
	if (!m)
		return 0;
	if (m->type != MSGPACK_OBJECT_MAP)
		return REEL_E_CORRUPT;
	for (uint32_t i = 0; i < m->via.map.size; i++) {
		const msgpack_object *k = &m->via.map.ptr[i].key, *v = &m->via.map.ptr[i].val;
		if (k->type != MSGPACK_OBJECT_STR || k->via.str.size > 255)
			return REEL_E_CORRUPT;
		char key[256];
		memcpy(key, k->via.str.ptr, k->via.str.size);
		key[k->via.str.size] = 0;
		int rc;
		int64_t iv;
		if (v->type == MSGPACK_OBJECT_STR)
			rc = reel_meta_list_set(list, key, REEL_META_STR, v->via.str.ptr,
						v->via.str.size, 0, 0);
		else if (!reel_mp_int(v, &iv))
			rc = reel_meta_list_set(list, key, REEL_META_INT, NULL, 0, iv, 0);
		else if (v->type == MSGPACK_OBJECT_FLOAT64 || v->type == MSGPACK_OBJECT_FLOAT32)
			rc = reel_meta_list_set(list, key, REEL_META_DBL, NULL, 0, 0, v->via.f64);
		else
			continue; /* later versions may add types: ignore */
		if (rc)
			return rc;
	}
	return 0;
}
