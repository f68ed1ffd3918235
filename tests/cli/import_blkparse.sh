#!/bin/bash
# ioreel import of the shared blkparse text (NVMe under dm-crypt, with
# flushes and merges): as many I/Os as Q lines (counted with awk), every
# one with issue and completion as blkparse's summary implies; a bad line
# fails naming file:line, --skip-bad counts it; export and re-import agree.
. "$TOP/tests/lib.sh"
shared_trace blkparse/nvme0n1.blktrace.txt txt
"$IOREEL" import --help >/dev/null 2>&1 || skip "ioreel import is not built in this tree"
{ "$IOREEL" import --help; "$IOREEL" import --from list; } 2>&1 | grep -q blkparse ||
	fail "ioreel import does not offer blkparse: formats/cmd_import.c must reference reel_imp_blkparse"

q=$(awk '$1 ~ /^[0-9]+,[0-9]+$/ && $6 == "Q"' "$txt" | wc -l)
"$IOREEL" import -q "$txt" -o "$T/a.reel" || fail "import (auto-detected)"
"$IOREEL" dump "$T/a.reel" | grep -v '^#' > "$T/a.txt"
n=$(wc -l < "$T/a.txt")
[ "$n" = "$q" ] || fail "$n records for $q Q lines"
# the summary says how many were queued
queued=$(awk '/^Total/ {t=1} t && /Queued:/ {gsub(",", ""); print $3 + $7; exit}' "$txt")
[ "$n" = "$queued" ] || fail "$n records, blkparse's summary says $queued queued"

# a bad line in the middle
{ head -n 300 "$txt"; echo "259,0 3 999 0.5 1867 Q W not-a-sector + 8 [x]"; tail -n +301 "$txt"; } > "$T/bad.txt"
if "$IOREEL" import -q --from blkparse "$T/bad.txt" -o "$T/b.reel" 2> "$T/err"; then
	fail "a bad line was accepted"
fi
grep -q "bad.txt:301:" "$T/err" || fail "the error does not name file:line: $(cat "$T/err")"
"$IOREEL" import -q --skip-bad --from blkparse "$T/bad.txt" -o "$T/b.reel" || fail "--skip-bad"
"$IOREEL" dump "$T/b.reel" | grep -v '^#' | cmp -s - "$T/a.txt" || fail "--skip-bad changed the other records"

# export and re-import
"$IOREEL" export --to blkparse "$T/a.reel" -o "$T/x.txt" || fail "export --to blkparse"
"$IOREEL" import -q --from blkparse "$T/x.txt" -o "$T/x.reel" || fail "re-import of the export"
"$IOREEL" dump "$T/x.reel" | grep -v '^#' | cmp -s - "$T/a.txt" || {
	diff <("$IOREEL" dump "$T/x.reel" | grep -v '^#') "$T/a.txt" | head -6
	fail "export --to blkparse and re-import changed the records"
}
echo "nvme0n1: $n I/Os = $q Q lines = summary's $queued queued; export round trip agrees"
