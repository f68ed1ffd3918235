/* libFuzzer target: the spc importer (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_spc
#include "tests/fuzz/import_fuzz.inc"
