/* libFuzzer target: the msr importer (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_msr
#include "tests/fuzz/import_fuzz.inc"
