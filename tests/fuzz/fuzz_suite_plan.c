/* Fuzz the suite's plan parser (suite_plan_parse_string: libinih and the
 * key checks). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	struct suite_plan p;
	char err[512];
	(void)suite_plan_parse_string(&p, s, "fuzz.plan", err, sizeof(err));
	suite_plan_free(&p);
	free(s);
	return 0;
}
