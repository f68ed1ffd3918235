#!/bin/bash
# FIU iodedup text: the shared mail-trace head round-trips (see import.inc).
. "$TOP/tests/lib.sh"
. "$TOP/tests/cli/import.inc"
src=$SHARED/traces/public/fiu/cheetah.cs.fiu.edu-110108-113008.1.head.blkparse
[ -e "$src" ] || skip "$src absent"
roundtrip "$src" fiu "$(wc -l <"$src")"
