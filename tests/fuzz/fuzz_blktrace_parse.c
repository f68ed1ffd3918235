/* libFuzzer target: the blktrace importer alone, parse only (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_blktrace
#define FUZZ_PARSE_ONLY
#include "tests/fuzz/import_fuzz.inc"
