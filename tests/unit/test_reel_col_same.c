/* The writer's columns of one value (reel_col_zero's *same): found for each
 * field stored as it is when every record holds the same value (negative
 * errors and the top bits included), never when two records differ in a
 * single bit, and packed by reel_col_pack_same into the bytes that
 * reel_col_pack gives the column; a column of deltas (queue, offset) is
 * never one of them. */
#include <string.h>

#include "formats/reel.h"
#include "formats/reel_internal.h"
#include "tests/unit/unit.h"

#define N 1000

static struct reel_rec recs[N];
static int64_t vals[N];
static unsigned char vbuf[REEL_COL_VBUF(N)];

/* Set field C of record R to V (the fields stored as they are). */
static void set(struct reel_rec *r, int c, uint64_t v)
{
	switch (c) {
	case C_HAS:
		r->has = (uint16_t)v;
		break;
	case C_LENGTH:
		r->length = (uint32_t)v;
		break;
	case C_OP:
		r->op = (uint8_t)v;
		break;
	case C_FLAGS:
		r->flags = (uint8_t)v;
		break;
	case C_DEV:
		r->dev = (uint16_t)v;
		break;
	case C_PID:
		r->pid = (uint32_t)v;
		break;
	case C_COMM:
		r->comm = (uint32_t)v;
		break;
	case C_CPU:
		r->cpu = (uint16_t)v;
		break;
	case C_ERROR:
		r->error = (int32_t)(uint32_t)v;
		break;
	}
}

static const int absolute[] = {C_HAS, C_LENGTH, C_OP,  C_FLAGS, C_DEV,
			       C_PID, C_COMM,	C_CPU, C_ERROR};
#define NABS (sizeof(absolute) / sizeof(absolute[0]))

/* The records: queue times and offsets that move, each field stored as it
 * is set to V in all of them. */
static void fill(uint64_t v)
{
	memset(recs, 0, sizeof(recs));
	for (size_t i = 0; i < N; i++) {
		recs[i].queue_ns = (int64_t)(i * 1000 + i % 7);
		recs[i].offset = i * 8192;
		for (size_t k = 0; k < NABS; k++)
			set(&recs[i], absolute[k], v);
		recs[i].has |= REEL_HAS_QUEUE;
	}
}

/* Column C packed both ways: the same bytes. */
static void same_bytes(int c)
{
	msgpack_sbuffer a, b;
	msgpack_packer pa, pb;
	int packed = 0;
	msgpack_sbuffer_init(&a);
	msgpack_sbuffer_init(&b);
	msgpack_packer_init(&pa, &a, msgpack_sbuffer_write);
	msgpack_packer_init(&pb, &b, msgpack_sbuffer_write);
	reel_col_pack(&pa, c, recs, N, vals, vbuf, &packed);
	reel_col_pack_same(&pb, c, recs);
	CHECK_EQ(packed, 1);
	CHECK_EQ(a.size, b.size);
	CHECK(!memcmp(a.data, b.data, a.size));
	msgpack_sbuffer_destroy(&a);
	msgpack_sbuffer_destroy(&b);
}

static void test_one_value(void)
{
	/* small, the top bit of each field, all bits set (error -1) */
	const uint64_t vs[] = {1, 3, 0x80, 0x8000, 0x80000000u, 0xffffffffu, 0x5a5a5a5a};
	for (size_t j = 0; j < sizeof(vs) / sizeof(vs[0]); j++) {
		fill(vs[j]);
		unsigned same = 0, zero = reel_col_zero(recs, N, &same);
		CHECK(!((same >> C_QUEUE) & 1) && !((same >> C_OFFSET) & 1));
		for (size_t k = 0; k < NABS; k++) {
			int c = absolute[k];
			if ((zero >> c) & 1)
				continue; /* a narrow field cut to 0 */
			CHECK((same >> c) & 1);
			same_bytes(c);
		}
	}
}

static void test_one_bit_apart(void)
{
	for (size_t k = 0; k < NABS; k++) {
		int c = absolute[k];
		for (unsigned b = 0; b < 8; b++) { /* one record differs in bit b */
			fill(0x10);
			set(&recs[N / 2], c, 0x10 ^ (1u << b));
			recs[N / 2].has |= REEL_HAS_QUEUE;
			unsigned same = 0;
			reel_col_zero(recs, N, &same);
			if (c == C_HAS && (1u << b) == REEL_HAS_QUEUE) /* set again */
				continue;
			CHECK(!((same >> c) & 1));
		}
	}
}

int main(void)
{
	test_one_value();
	test_one_bit_apart();
	unsigned same = 1;
	reel_col_zero(recs, 0, &same);
	CHECK_EQ(same, 0);
	return 0;
}
