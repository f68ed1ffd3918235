#!/bin/bash
# MSR Cambridge CSV: the shared wdev_1 trace round-trips (see import.inc).
. "$TOP/tests/lib.sh"
. "$TOP/tests/cli/import.inc"
src=$SHARED/traces/public/msr/wdev_1.csv
[ -e "$src" ] || skip "$src absent"
roundtrip "$src" msr "$(wc -l <"$src")"

# wall clock of time zero: filetime 128166410318060999 (100 ns units since
# 1601) is Unix 1172167431.8060999 s; kept as metadata import.start_unix_ns
"$IOREEL" info --json "$T/rt_msr.reel" >"$T/info.json" || fail "info"
/usr/bin/python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
v = j["meta"]["import.start_unix_ns"]
sys.exit(0 if v == 1172167431806099900 else "start %d" % v)' "$T/info.json" || fail "start time"

# two hosts, same disk number: two devices, the first keeps its number
head -3 "$src" >"$T/a.csv"
head -2 "$src" | sed 's/,wdev,1,/,hm,1,/; s/,Write,/,Read,/' >"$T/b.csv"
"$IOREEL" import "$T/a.csv" "$T/b.csv" -o "$T/two.reel" 2>/dev/null || fail "two inputs"
"$IOREEL" export --to fio "$T/two.reel" -o "$T/two.log" 2>/dev/null || fail "export"
grep -q '^0 wdev_1 add$' "$T/two.log" && grep -q '^0 hm_1 add$' "$T/two.log" || { cat "$T/two.log"; fail "device names"; }
"$IOREEL" export --to csv "$T/two.reel" -o - 2>/dev/null | tail -n +2 | cut -d, -f4,6 | sort | uniq -c |
	awk '{print $1, $2}' >"$T/two.out"
printf '2 read,0\n3 write,1\n' | diff - "$T/two.out" || fail "device ids of two hosts"
# standard input needs --from
cat "$src" | "$IOREEL" import --from msr - -o "$T/stdin.reel" 2>"$T/err" || fail "stdin"
grep -q "import: $(wc -l <"$src") records" "$T/err" || fail "stdin count"
cat "$src" | "$IOREEL" import - -o "$T/stdin2.reel" 2>"$T/err" && fail "stdin without --from"
grep -q -- "--from" "$T/err" || fail "stdin message"
echo ok
