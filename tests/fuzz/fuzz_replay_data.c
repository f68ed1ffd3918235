/* Fuzz the replay module's parsers: --data specs (replay_data_parse) and
 * on-disk stamps (replay_stamp_read); a parsed spec also drives the
 * generator on a small block. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= sizeof(struct replay_stamp)) {
		struct replay_stamp st;
		(void)replay_stamp_read(data, &st);
	}
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	struct replay_data_spec spec;
	char err[256];
	if (replay_data_parse(s, &spec, err, sizeof(err)) == 0) {
		struct replay_datagen *g;
		if (spec.mode == REPLAY_DATA_RATIO && spec.ratio > 20)
			spec.ratio = 20; /* keep calibration quick */
		spec.dedupe_pct = size % 101;
		if (replay_datagen_create(&g, &spec) == 0) {
			unsigned char buf[8192];
			replay_datagen_fill(g, buf, (size % 8192) + 1, size, 0, size);
			replay_datagen_destroy(g);
		}
	}
	free(s);
	return 0;
}
