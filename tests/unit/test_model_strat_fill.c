/*
 * test_model_strat_fill: the stratified draws (model/gen_internal.h
 * sdraw_s, its block of strata from gen_strat_fill, unrolled, each
 * remainder by a constant) as round 24's inline form (copied below: the
 * loop with a 64-bit division each): the same permutations, the same
 * doubles bit for bit and the stream left in the same state, from many
 * seeds over many blocks, a block started at every position (pos 0, a
 * stray pos past STRATA).
 */
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* round 24's sdraw_s */
static double ref_sdraw(uint64_t *s, struct strat *st)
{
	if (st->pos == 0 || st->pos >= STRATA) {
		for (int i = 0; i < STRATA; i++)
			st->perm[i] = (uint8_t)i;
		for (int i = STRATA - 1; i > 0; i--) {
			int j = (int)(xo_next(s) % (uint64_t)(i + 1));
			uint8_t t = st->perm[i];
			st->perm[i] = st->perm[j];
			st->perm[j] = t;
		}
		st->pos = 0;
	}
	return (st->perm[st->pos++] + unit(xo_next(s))) * (1.0 / STRATA);
}

int main(void)
{
	uint64_t rs = 0x5eed5eedull, draws = 0;
	for (int seed = 0; seed < 2000; seed++) {
		uint64_t a[4], b[4];
		for (int i = 0; i < 4; i++)
			a[i] = b[i] = (uint64_t)(unit_urand(&rs) * 0x1p53) * 2048 + (uint64_t)i + 1;
		struct strat sa, sb;
		memset(&sa, 0, sizeof(sa));
		memset(&sb, 0, sizeof(sb));
		if (seed % 7 == 3) /* a position past the strata: a new block */
			sa.pos = sb.pos = (uint8_t)(STRATA + seed % 100);
		int n = 64 * (1 + seed % 9) + seed % 64;
		for (int k = 0; k < n; k++, draws++) {
			double x = sdraw_s(a, &sa), y = ref_sdraw(b, &sb);
			CHECK(memcmp(&x, &y, sizeof(x)) == 0);
			CHECK_EQ(sa.pos, sb.pos);
			CHECK(memcmp(sa.perm, sb.perm, STRATA) == 0);
			CHECK(memcmp(a, b, sizeof(a)) == 0);
		}
	}
	printf("%llu stratified draws: the same\n", (unsigned long long)draws);
	return 0;
}
