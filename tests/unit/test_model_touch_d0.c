/*
 * test_model_touch_d0: TOUCH_D0 (gen_internal.h) is the first block
 * distance whose hashes' difference falls within 2^(64 - TOUCH_BITS) of 0,
 * and the blocks below it of one device (device 0, 1 and the largest id)
 * each get a bit of the touched set no other of them gets: the direct set
 * of gen_space.c answers as the hashed one.
 */
#include "model/gen_internal.h"
#include "tests/unit/unit.h"

#include <stdlib.h>
#include <string.h>

static int near_zero(uint64_t d)
{
	int64_t v = (int64_t)(d * TOUCH_MUL);
	return v > -(1ll << (64 - TOUCH_BITS)) && v < (1ll << (64 - TOUCH_BITS));
}

static void test_first_distance(void)
{
	uint64_t d = 1;
	while (!near_zero(d))
		d++;
	CHECK(d == TOUCH_D0);
}

static void test_no_shared_bit(uint64_t *set, uint16_t dev)
{
	memset(set, 0, (size_t)1 << (TOUCH_BITS - 3));
	uint64_t shared = 0;
	for (uint64_t b = 0; b < TOUCH_D0; b++) {
		uint64_t k =
		    touch_slot(((b ^ ((uint64_t)dev << 48)) * TOUCH_MUL) >> (64 - TOUCH_BITS));
		shared += (set[k >> 6] >> (k & 63)) & 1;
		set[k >> 6] |= 1ull << (k & 63);
	}
	CHECK(shared == 0);
}

int main(void)
{
	test_first_distance();
	uint64_t *set = malloc((size_t)1 << (TOUCH_BITS - 3));
	CHECK(set != NULL);
	uint16_t devs[] = {0, 1, UINT16_MAX};
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		test_no_shared_bit(set, devs[i]);
	free(set);
	return 0;
}
