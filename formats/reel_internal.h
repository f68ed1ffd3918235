/*
 * formats/reel_internal.h - what the .reel writer (reel_write.c), reader
 * (reel_read.c), column codec (column_codec.c) and metadata list
 * (reel_meta.c) share.  Internal to formats/: include it nowhere else.
 * formats/FORMAT.md is the normative description of the file.
 *
 * A file is: a header LZ4 frame (msgpack map), data chunk LZ4 frames (one
 * msgpack map each, columns as zigzag LEB128 varints or bitpacked blocks in
 * msgpack bin), and a trailer in an LZ4 skippable frame whose payload ends
 * with its own length and the tag "RLIX", so a reader finds it from the end.
 */
#ifndef IOREEL_REEL_INTERNAL_H
#define IOREEL_REEL_INTERNAL_H

#include <msgpack.h>

#include "formats/reel.h"

#define LZ4F_MAGIC 0x184D2204u
#define SKIP_MAGIC 0x184D2A5Eu
#define TRAILER_TAG "RLIX"
#define MAX_FRAME (64u << 20) /* no chunk or header frame is larger */
#define NAME_MAX_LEN 256

static inline void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- metadata lists, writer and reader (reel_meta.c) -------------------- */
struct meta_list {
	struct reel_meta *v;
	size_t n, cap;
};

void reel_meta_list_free(struct meta_list *m);
struct reel_meta *reel_meta_list_find(const struct meta_list *m, const char *key);
/* Set key (copied); s (slen bytes) is copied when t is STR. */
int reel_meta_list_set(struct meta_list *m, const char *key, enum reel_meta_type t, const char *s,
		       size_t slen, int64_t i, double d);
/* Pack entries [from, n) as a msgpack map. */
void reel_meta_list_pack(msgpack_packer *pk, const struct meta_list *m, size_t from);
/* Merge a msgpack map of metadata into m; REEL_E_CORRUPT when it is not one. */
int reel_meta_list_read(struct meta_list *m, const msgpack_object *o);

/* ---- msgpack helpers (reel_meta.c) -------------------------------------- */
void reel_mp_pack_str(msgpack_packer *pk, const char *s);
/* 1 when p holds one well-formed object whose counts fit in its bytes:
 * checked before msgpack-c allocates room for them (it trusts the counts). */
int reel_mp_sane(const unsigned char *p, size_t len);
/* Value of the string key in map m, or NULL. */
const msgpack_object *reel_mp_get(const msgpack_object *m, const char *key);
/* 0 and *v for an integer that fits int64_t, else -1. */
int reel_mp_int(const msgpack_object *o, int64_t *v);
int64_t reel_mp_int_or(const msgpack_object *o, int64_t dflt);
/* Copy of a string object ("" for anything else); NULL when out of memory. */
char *reel_mp_strdup(const msgpack_object *o);

/* ---- column layout and codec (column_codec.c) --------------------------- */
/* Decode and encode with the plain C paths only, not AVX2 or BMI2 (for
 * tests: the fallbacks of a processor without them); gen's rounding too
 * (it asks reel_has_avx2, reel.h). */
void reel_codec_plain(int on);
enum col_id {
	C_HAS,
	C_QUEUE,
	C_ISSUE,
	C_COMPLETE,
	C_OFFSET,
	C_LENGTH,
	C_OP,
	C_FLAGS,
	C_DEV,
	C_PID,
	C_COMM,
	C_CPU,
	C_ERROR,
	C__COUNT
};
extern const char *const reel_col_names[C__COUNT];

/* Room reel_col_pack() needs in vbuf for n records. */
#define REEL_COL_VBUF(n) ((size_t)(n)*10 + 1024)
/*
 * Pack column c of recs[0, n) (n <= REEL_CHUNK_MAX: a chunk's) as "name":
 * value into pk, or nothing when the column is all zero; *packed says
 * which.  vals (n) and vbuf (REEL_COL_VBUF(n)) are scratch.
 */
void reel_col_pack(msgpack_packer *pk, int c, const struct reel_rec *recs, size_t n, int64_t *vals,
		   unsigned char *vbuf, int *packed);

/* The bytes of the n values u written as varints (LEB128), as
 * reel_col_pack counts them to choose its encoding (for tests: AVX2's
 * way and, under reel_codec_plain, the plain one). */
size_t reel_col_varint_bytes(const uint64_t *u, size_t n);

/* The columns of recs[0, n) that are all zero for want of their field (no
 * record has its has bit, or the field is 0 in every record), as bits
 * 1 << C_*: one pass over the records, where reel_col_pack would take one
 * per column to find them so (a generated trace has 6 of 13).  In *same,
 * those of the columns stored as they are (not deltas: has, length, op,
 * flags, dev, pid, comm, cpu, error) whose field is the same in every
 * record (a generated trace's has). */
unsigned reel_col_zero(const struct reel_rec *recs, size_t n, unsigned *same);
/* Pack column c, one of *same's of reel_col_zero and not all zero, as
 * reel_col_pack would: "name": its value (recs[0]'s), with no pass over
 * the records. */
void reel_col_pack_same(msgpack_packer *pk, int c, const struct reel_rec *recs);

/* One column being decoded, a block of records at a time. */
enum { K_ZERO, K_CONST, K_BP, K_VARINT };
struct colstate {
	int kind;
	int64_t base, mul;
	const unsigned char *p, *end;
};
/*
 * Set *cs up to decode column value col (NULL: an absent, all-zero column).
 * Returns 0, or REEL_E_CORRUPT with *unknown_enc set when the encoding is
 * one this reader does not know.  cs points into col's bin data.
 */
int reel_col_open(struct colstate *cs, const msgpack_object *col, int *unknown_enc);
/* Decode the next m values (a multiple of 128 but for the last block);
 * 0, or -1 on a bad or short stream. */
int reel_col_decode(struct colstate *cs, int64_t *out, size_t m);
/* 1 when t is outside [-REEL_TIME_LIMIT, REEL_TIME_LIMIT) */
static inline uint64_t reel_time_out(int64_t t)
{
	return ((uint64_t)t + (uint64_t)REEL_TIME_LIMIT) >> 63;
}

static inline uint64_t reel_rec_out(const struct reel_rec *y)
{
	return reel_time_out(y->queue_ns) | reel_time_out(y->issue_ns) |
	       reel_time_out(y->complete_ns) | (y->offset > REEL_END_LIMIT - y->length);
}

/* Records decoded at a time: a multiple of the 128 values of a bitpack
 * mini-block.  The decoded columns of a block are REEL_TSTRIDE values apart,
 * not a multiple of 4 KiB, so the 13 column streams of a block do not all
 * fall in the same L1 cache sets. */
#define REEL_BLOCK 1024
#define REEL_TSTRIDE (REEL_BLOCK + 40)

/* The arrays of reel_read_cols (struct reel_cols): one buffer of
 * REEL_COLS_SIZE bytes, each array at a fixed place in it, so that the
 * loop that fills them keeps one pointer for all */
enum {
	REEL_COLS_QUEUE = 0,
	REEL_COLS_ISSUE = REEL_BLOCK * 8,
	REEL_COLS_COMPLETE = REEL_BLOCK * 16,
	REEL_COLS_OFFSET = REEL_BLOCK * 24,
	REEL_COLS_LENGTH = REEL_BLOCK * 32,
	REEL_COLS_HAS = REEL_BLOCK * 36,
	REEL_COLS_DEV = REEL_BLOCK * 38,
	REEL_COLS_OP = REEL_BLOCK * 40,
	REEL_COLS_SIZE = REEL_BLOCK * 41
};

/*
 * Undo the column transforms (see col_values) of the BM records of a block
 * decoded into TMP (column c at tmp + c * REEL_TSTRIDE), from the running queue
 * time *Q and end offset *END (updated), into records X, or into the
 * columns of C (has, times, offset, length, op, dev: the others need not be
 * decoded), whose arrays are those of the buffer COLBUF laid out as
 * REEL_COLS_*; counted in S (ops, bytes, first and last).  Non-zero when a
 * record is out of the bounds of FORMAT.md 3.2.  IC 0 (reel_block_cols):
 * the block's every record has its queue time (reel_block_queued) and
 * its issue and completion times were stepped over, not decoded: their
 * columns are not written and their bounds not checked.  OPS 0
 * (reel_block_cols; a file read again, its every record checked on its
 * first read): the ops and bytes not counted in S, the bounds not checked.
 */
uint64_t reel_block_recs(const int64_t *tmp, size_t bm, struct reel_rec *x, uint64_t *q,
			 uint64_t *end, struct reel_summary *s);
uint64_t reel_block_cols(const int64_t *tmp, size_t bm, void *colbuf, struct reel_cols *c,
			 uint64_t *q, uint64_t *end, struct reel_summary *s, int ic, int ops);
/* 1 when every record of the block (its has column decoded in TMP) has a
 * queue time. */
int reel_block_queued(const int64_t *tmp, size_t bm);
/* Step over the next m values without decoding them (as reel_col_decode
 * would leave the stream); 0, or -1 on a bad or short stream. */
int reel_col_skip(struct colstate *cs, size_t m);

#endif
