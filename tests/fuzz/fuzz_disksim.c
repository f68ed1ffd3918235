/* libFuzzer target: the disksim importer (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_disksim
#include "tests/fuzz/import_fuzz.inc"
