/*
 * test_model_dev_stretch: fit_dev_stretch (fit_internal.h), which puts a stretch
 * of a chunk's records in order of device for passes 2 and 3 (each device's
 * offsets and walk a device at a time, HISTORY.md "Fit on 16 devices, the
 * devices' records by device"), gives each device exactly the records the
 * walk in record order gave it, in that order: those of its device id, not
 * flushes, of a device whose bit is in LIVE; the devices with records
 * ascending, none without.  Against the walk in order, on stretches of 0 to
 * DEV_STRETCH records at any start in a chunk, 1 to MODEL_MAX_DEVS devices
 * (index 63 too) behind scattered device ids, every mix of live devices,
 * flushes none to all, one device's records alone, runs of a device and
 * records switching device at each.
 */
#include <stdlib.h>
#include <string.h>

#include "model/fit_internal.h"
#include "tests/unit/unit.h"

static uint64_t rs = 0x2545f4914f6cdd1dull;
static double urand(void) { return unit_urand(&rs); }
static uint64_t below(uint64_t n) { return (uint64_t)(urand() * (double)n) % n; }

#define N (FIT_CHUNK + 100)
static uint16_t dev[N];
static uint8_t op[N];
static int8_t slot[65536];
static uint16_t ids[MODEL_MAX_DEVS]; /* index k's device id */

static void one(size_t nd, uint64_t live, size_t a, size_t e)
{
	static struct dev_stretch st;
	memset(&st, 0xa5, sizeof(st));
	fit_dev_stretch(slot, live, nd, dev, op, a, e, &st);
	/* the reference: each device's records in record order */
	uint32_t want[MODEL_MAX_DEVS] = {0};
	for (size_t i = a; i < e; i++)
		if (op[i] != REEL_OP_FLUSH && live >> slot[dev[i]] & 1)
			want[slot[dev[i]]]++;
	size_t j = 0;
	CHECK_EQ(st.at[0], 0);
	for (size_t k = 0; k < nd; k++) {
		if (!want[k])
			continue;
		CHECK(j < st.nd);
		CHECK_EQ(st.devs[j], k);
		CHECK_EQ(st.at[j + 1] - st.at[j], want[k]);
		const uint16_t *ix = st.ix + st.at[j];
		size_t x = 0;
		for (size_t i = a; i < e; i++)
			if (op[i] != REEL_OP_FLUSH && slot[dev[i]] == (int)k && live >> k & 1)
				CHECK_EQ(ix[x++], i - a);
		j++;
	}
	CHECK_EQ(st.nd, j);
}

int main(void)
{
	for (int r = 0; r < 20000; r++) {
		size_t nd = r % 7 == 0	 ? MODEL_MAX_DEVS
			    : r % 5 == 0 ? 1
					 : 1 + below(MODEL_MAX_DEVS);
		memset(slot, -1, sizeof(slot));
		for (size_t k = 0; k < nd; k++) {
			uint16_t id;
			do
				id = (uint16_t)below(65536);
			while (slot[id] >= 0);
			slot[id] = (int8_t)k;
			ids[k] = id;
		}
		uint64_t live = 0;
		int how = (int)below(4);
		size_t only = below(nd); /* how == 1: one device's records alone */
		for (size_t k = 0; k < nd; k++)
			live |= (uint64_t)(how == 0 || (how == 1 ? k == only : urand() < 0.7)) << k;
		double pf = r % 9 == 0 ? 1 : r % 3 == 0 ? 0 : urand() * 0.3; /* flushes */
		double ps = urand(); /* a record on the device before */
		size_t m = r % 4 == 0 ? DEV_STRETCH : below(DEV_STRETCH + 1);
		size_t a =
		    r % 2 ? below(N - m + 1) : (below(FIT_CHUNK / DEV_STRETCH) * DEV_STRETCH);
		for (size_t i = a, k = 0; i < a + m; i++) {
			if (how == 1)
				k = only;
			else if (i == a || urand() >= ps)
				k = below(nd);
			dev[i] = ids[k];
			op[i] = urand() < pf ? REEL_OP_FLUSH : (uint8_t)below(2);
		}
		one(nd, live, a, a + m);
	}
	return 0;
}
