/* libFuzzer target: the blktrace importer and the joiner behind it (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_blktrace
#include "tests/fuzz/import_fuzz.inc"
