/* libFuzzer target: the tencent importer (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_tencent
#include "tests/fuzz/import_fuzz.inc"
