/* libFuzzer target: the fiu importer (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_fiu
#include "tests/fuzz/import_fuzz.inc"
