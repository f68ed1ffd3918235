/* libFuzzer target: the spc importer alone, parse only (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_spc
#define FUZZ_PARSE_ONLY
#include "tests/fuzz/import_fuzz.inc"
