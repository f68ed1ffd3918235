#!/bin/bash
# ioreel import of the shared blktrace binary (v7, two per-CPU files):
# as many I/Os as blkparse counts Q events; the base name, the files and
# auto-detection agree; blkparse's text of the same trace gives the same
# records; a corrupt file fails naming the file and byte offset, and
# --skip-bad imports around it; export --to blkparse and back is lossless.
. "$TOP/tests/lib.sh"
shared_trace blktrace/sda.blktrace.0 f0
base=${f0%.blktrace.0}
command -v blkparse >/dev/null || skip "blkparse not installed (Debian package blktrace)"
"$IOREEL" import --help >/dev/null 2>&1 || skip "ioreel import is not built in this tree"
{ "$IOREEL" import --help; "$IOREEL" import --from list; } 2>&1 | grep -q blktrace ||
	fail "ioreel import does not offer blktrace: formats/cmd_import.c must reference reel_imp_blktrace"

q=$(blkparse -q -i "$base" -f '%a\n' 2>/dev/null | grep -c '^Q$')
[ "$q" -gt 0 ] || fail "blkparse found no Q events in $base"

"$IOREEL" import -q --from blktrace "$base" -o "$T/a.reel" || fail "import of the base name"
"$IOREEL" dump "$T/a.reel" | grep -v '^#' > "$T/a.txt"
n=$(wc -l < "$T/a.txt")
[ "$n" = "$q" ] || fail "$n records, blkparse counts $q Q events"

"$IOREEL" import -q "$base.blktrace.1" "$base.blktrace.0" -o "$T/b.reel" || fail "import of the files (auto-detected)"
"$IOREEL" dump "$T/b.reel" | grep -v '^#' | cmp -s - "$T/a.txt" || fail "the files give other records than the base name"

blkparse -i "$base" > "$T/sda.txt" 2>/dev/null || fail "blkparse"
"$IOREEL" import -q "$T/sda.txt" -o "$T/c.reel" || fail "import of blkparse's text (auto-detected)"
"$IOREEL" dump "$T/c.reel" | grep -v '^#' | cmp -s - "$T/a.txt" || fail "blkparse's text gives other records than the binary"

# a corrupt record: file and byte offset named; --skip-bad goes on
cp "$base.blktrace.0" "$T/bad.blktrace.0"
off=0 # the 10th record: walk the headers (48 bytes, pdu_len at 46, little endian)
for _ in 1 2 3 4 5 6 7 8 9; do
	pdu=$(od -An -tu2 -j $((off + 46)) -N2 "$base.blktrace.0" | tr -d ' ')
	off=$((off + 48 + pdu))
done
printf '\x00\x00\x00\x00' | dd of="$T/bad.blktrace.0" bs=1 seek=$off conv=notrunc 2>/dev/null
if "$IOREEL" import -q --from blktrace "$T/bad.blktrace.0" -o "$T/d.reel" 2> "$T/err"; then
	fail "a corrupt record was accepted"
fi
grep -q "bad.blktrace.0: byte $off:" "$T/err" || fail "the error does not name file and byte: $(cat "$T/err")"
"$IOREEL" import --skip-bad --from blktrace "$T/bad.blktrace.0" -o "$T/d.reel" 2> "$T/err" ||
	fail "--skip-bad: $(cat "$T/err")"
grep -q "1 bad" "$T/err" || echo "note: the summary does not say 1 bad record: $(cat "$T/err")"

# the I/Os without issue or completion are reported
"$IOREEL" import --from blktrace "$base" -o "$T/e.reel" --overwrite 2> "$T/err" || fail "import"
grep -q "without issue" "$T/err" || fail "import does not report I/Os without issue: $(cat "$T/err")"

# export to blkparse text and back
"$IOREEL" export --to blkparse "$T/a.reel" -o "$T/x.txt" || fail "export --to blkparse"
"$IOREEL" import -q --from blkparse "$T/x.txt" -o "$T/x.reel" || fail "re-import of the export"
"$IOREEL" dump "$T/x.reel" | grep -v '^#' | cmp -s - "$T/a.txt" || {
	diff <("$IOREEL" dump "$T/x.reel") "$T/a.txt" | head -5
	fail "export --to blkparse and re-import changed the records"
}
echo "sda: $n I/Os = blkparse's $q Q events; files, text, export round trip agree"
