# The Python reader in formats/FORMAT.md (kept identical to
# formats/examples/read_reel.py) decodes a multi-chunk .reel exactly as
# `ioreel dump` does.
. "$TOP/tests/lib.sh"
PY=/usr/bin/python3
$PY -c 'import lz4.frame, msgpack' 2>/dev/null || skip "python3-lz4 / python3-msgpack not installed"
# the example in the spec is the tested file
awk '/^```python$/{f=1;next} /^```$/{f=0} f' "$TOP/formats/FORMAT.md" >"$T/doc.py"
cmp -s "$T/doc.py" "$TOP/formats/examples/read_reel.py" || fail "FORMAT.md example differs from formats/examples/read_reel.py"
[ "$(grep -vc '^\s*$' "$T/doc.py")" -le 35 ] || fail "example longer than 35 lines"
"$TOP/$BUILD/tests/bench/gen_reel" 140000 "$T/g.reel" 7 || fail "gen_reel"
$PY "$T/doc.py" "$T/g.reel" >"$T/py.txt" || fail "python reader failed"
"$IOREEL" dump "$T/g.reel" | awk 'NR>1 {
	op = ($5=="read")?0:($5=="write")?1:($5=="discard")?2:($5=="flush")?3:4
	for (i = 1; i <= 10; i++) if ($i == "-") $i = 0
	print $1, $2, $3, op, $7, $8, $4, $9 }' >"$T/dump.txt"
[ "$(wc -l <"$T/py.txt")" -eq 140000 ] || fail "python read $(wc -l <"$T/py.txt") records, want 140000"
cmp "$T/py.txt" "$T/dump.txt" || { diff "$T/py.txt" "$T/dump.txt" | head; fail "python and dump disagree"; }
echo "python example matches ioreel dump on 140000 records"
# a trace with absent fields (MSR: no issue times, no pid)
src="$SHARED/traces/public/msr/wdev_1.csv"
if [ -e "$src" ]; then
	"$IOREEL" import "$src" -o "$T/m.reel" 2>/dev/null || fail "import $src"
	$PY "$T/doc.py" "$T/m.reel" >"$T/mpy.txt" || fail "python reader failed on msr"
	"$IOREEL" dump "$T/m.reel" | awk 'NR>1 {
		op = ($5=="read")?0:($5=="write")?1:($5=="discard")?2:($5=="flush")?3:4
		for (i = 1; i <= 10; i++) if ($i == "-") $i = 0
		print $1, $2, $3, op, $7, $8, $4, $9 }' >"$T/mdump.txt"
	cmp "$T/mpy.txt" "$T/mdump.txt" || fail "python and dump disagree on the msr import"
	echo "and on $(wc -l <"$T/mpy.txt") records of the msr import (absent issue times)"
fi
