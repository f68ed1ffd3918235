#!/bin/bash
# MSR Cambridge CSV: the shared wdev_1 trace round-trips (see import.inc).
. "$TOP/tests/lib.sh"
. "$TOP/tests/cli/import.inc"
src=$(shared_trace msr/wdev_1.csv)
roundtrip "$src" msr "$(wc -l <"$src")"
