/* libFuzzer target: the option tables' argument parsers (reel_opt_apply:
 * whole numbers, unsigned and 64-bit numbers, sizes with suffixes through
 * reel_parse_size, finite doubles, choices), each at its widest range.
 * Input: a byte choosing the option, then the argument text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const choices[] = {"a", "bb", "original", NULL};
	int i = 0, c = 0;
	unsigned u = 0;
	uint64_t u64 = 0, sz = 0;
	double d = 0;
	const struct reel_opt opts[] = {
	    OPT_INT('i', "int", "N", &i, -2147483648.0, 2147483647.0, "int"),
	    OPT_UINT('u', "uint", "N", &u, 0, 4294967295.0, "unsigned"),
	    OPT_U64(0, "u64", "N", &u64, 0, 18446744073709551615.0, "u64"),
	    OPT_SIZE(0, "size", "SIZE", &sz, 0, 18446744073709551615.0, "size"),
	    OPT_SIZE(0, "block", "SIZE", &sz, 512, 1 << 20, "size"),
	    OPT_DBL(0, "dbl", "X", &d, -1e300, 1e300, "double"),
	    OPT_DBL(0, "speed", "X", &d, 1e-9, 1e6, "double"),
	    OPT_CHOICE(0, "choice", "C", &c, choices, "choice"),
	};
	if (!size)
		return 0;
	char *arg = malloc(size);
	if (!arg)
		return 0;
	memcpy(arg, data + 1, size - 1);
	arg[size - 1] = 0;
	char err[256];
	(void)reel_opt_apply(&opts[data[0] % (sizeof(opts) / sizeof(opts[0]))], arg, err,
			     sizeof(err));
	free(arg);
	return 0;
}
