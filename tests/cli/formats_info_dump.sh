# ioreel info and dump: counts agree with the writer's; --json parses; a cut
# file reads to its last whole chunk; a corrupt chunk is named and
# --salvage reads around it; bad usage and missing files give clear errors.
. "$TOP/tests/lib.sh"
PY=/usr/bin/python3
G="$TOP/$BUILD/tests/bench/gen_reel"
"$G" 200000 "$T/g.reel" 3 || fail "gen_reel"
"$IOREEL" info "$T/g.reel" >"$T/info.txt" || fail "info failed"
grep -q '^I/Os *200000 ' "$T/info.txt" || { cat "$T/info.txt"; fail "info count"; }
"$IOREEL" info --json "$T/g.reel" >"$T/info.json" || fail "info --json failed"
$PY - "$T/info.json" <<'PYEOF' || fail "info --json content"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["ios"] == 200000, j["ios"]
assert j["complete"] is True
assert j["ops"]["read"]["count"] + j["ops"]["write"]["count"] == 200000
assert j["latency_ns"]["all"]["count"] == 200000
assert 50000 <= j["latency_ns"]["all"]["p50"] <= 2000000
assert j["inflight_max"] >= 2
assert j["devices"][0]["name"] == "synthetic"
PYEOF
n=$("$IOREEL" dump "$T/g.reel" | grep -vc '^#')
[ "$n" -eq 200000 ] || fail "dump printed $n lines"
# reads and writes in dump agree with info's mix
r=$("$IOREEL" dump "$T/g.reel" | awk '$5=="read"' | wc -l)
$PY -c "import json,sys; j=json.load(open('$T/info.json')); sys.exit(j['ops']['read']['count'] != $r)" || fail "dump/info read count"
# cut short: half the file
size=$(stat -c %s "$T/g.reel")
head -c $((size / 2)) "$T/g.reel" >"$T/cut.reel"
"$IOREEL" info --json "$T/cut.reel" >"$T/cut.json" 2>"$T/cut.err" || fail "info on a cut file failed"
grep -q "cut short" "$T/cut.err" || fail "no cut-short warning: $(cat "$T/cut.err")"
$PY -c "import json; j=json.load(open('$T/cut.json')); assert j['ios'] % 65536 == 0 and 0 < j['ios'] < 200000 and not j['complete']" || fail "cut count"
# corrupt a byte in the second chunk
cp "$T/g.reel" "$T/bad.reel"
printf '\377\377\377\377' | dd of="$T/bad.reel" bs=1 seek=$((size / 2)) conv=notrunc status=none
if "$IOREEL" dump "$T/bad.reel" >/dev/null 2>"$T/bad.err"; then fail "corrupt file accepted"; fi
grep -q "chunk [0-9]* at byte [0-9]*" "$T/bad.err" || fail "error does not name chunk and byte: $(cat "$T/bad.err")"
grep -q -- "--salvage" "$T/bad.err" || fail "error does not suggest --salvage"
grep -q -- "ioreel dump --salvage" "$T/bad.err" || fail "dump's error does not name dump --salvage"
"$IOREEL" info --salvage --json "$T/bad.reel" >"$T/salv.json" 2>"$T/salv.err" || fail "salvage failed"
$PY -c "import json; j=json.load(open('$T/salv.json')); assert j['ios'] == 200000 - 65536 and j['skipped_chunks'] == 1, j['ios']" || fail "salvage count"
# errors
"$IOREEL" info "$T/nope.reel" 2>"$T/e" && fail "missing file accepted"
grep -q "nope.reel" "$T/e" || fail "missing-file error lacks the name"
"$IOREEL" info /etc/hostname 2>"$T/e" && fail "non-reel accepted"
grep -q "not a .reel" "$T/e" || fail "non-reel error: $(cat "$T/e")"
"$IOREEL" info --help | grep -q usage || fail "--help"
"$IOREEL" dump 2>/dev/null && fail "dump without a file"
echo ok
