/* libFuzzer target: the alibaba importer (see import_fuzz.inc). */
#define FUZZ_IMPORTER reel_imp_alibaba
#include "tests/fuzz/import_fuzz.inc"
