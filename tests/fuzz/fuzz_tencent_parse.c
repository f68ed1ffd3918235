/* libFuzzer target: the tencent importer alone, parse only (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_tencent
#define FUZZ_PARSE_ONLY
#include "tests/fuzz/import_fuzz.inc"
