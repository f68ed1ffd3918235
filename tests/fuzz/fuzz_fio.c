/* libFuzzer target: the fio importer (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_fio
#include "tests/fuzz/import_fuzz.inc"
