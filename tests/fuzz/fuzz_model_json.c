/*
 * fuzz_model_json: the MODEL.json reader (json-c in strict mode, the checks
 * on what it lets through, the schema check); a model it accepts must also
 * generate without fault.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct model m;
	if (model_read_json(&m, (const char *)data, size, err, sizeof(err)))
		return 0;
	uint64_t total = 0;
	for (size_t i = 0; i < m.nwin * REEL_OP__COUNT; i++)
		total += m.win_ops[i];
	struct model_gen *g;
	struct model_gen_opts o = {0, 1, 0, 1, 2000};
	if (total <= 1000000 && !model_gen_create(&g, &m, &o)) {
		struct reel_rec r;
		while (model_gen_next(g, &r) == 1)
			;
		model_gen_destroy(g);
	}
	model_free(&m);
	return 0;
}
