/* libFuzzer target: the blkparse importer and the joiner behind it (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_blkparse
#include "tests/fuzz/import_fuzz.inc"
