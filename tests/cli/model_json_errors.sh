#!/bin/bash
# model_json_errors: a MODEL.json refused by `model gen` is named with the
# line and column of what is wrong, FILE:LINE:COL, plain or gzip-compressed
# (the place in the inflated text): git.reel's fitted model with one share
# of its regions' weights out of range (the value's place), a required
# field removed (the place of the object that lacks it), a syntax error
# (where json-c stopped).  Nothing is written.
. "$TOP/tests/lib.sh"
tr="$TOP/traces/git.reel"
[ -f "$tr" ] || skip "$tr absent"
"$IOREEL" model fit "$tr" -o "$T/m.json" 2>/dev/null || fail "fit"
zcat "$T/m.json" >"$T/plain.json" || fail "zcat"
refused() { # model want: gen refuses MODEL with exactly the message WANT
	"$IOREEL" model gen "$1" -o "$T/out.reel" 2>"$T/err" && fail "gen read $1"
	[ ! -e "$T/out.reel" ] || fail "a refused model left $T/out.reel"
	grep -qxF "ioreel model gen: $2" "$T/err" || { cat "$T/err"; fail "not '$2'"; }
}
# devices[0].regions.weights[1] (the second weight: after the first ',')
line=$(grep -n -m1 '"weights": \[' "$T/plain.json" | cut -d: -f1)
[ -n "$line" ] || fail "no weights in the model"
col=$(awk -v l="$line" 'NR == l { print index($0, ",") + 1 }' "$T/plain.json")
awk -v l="$line" 'NR == l { sub(/,[^,]*/, ",7") } { print }' "$T/plain.json" >"$T/w.json"
refused "$T/w.json" "$T/w.json:$line:$col: field devices[0].regions.weights[1]: a share in [0, 1]"
gzip -c "$T/w.json" >"$T/w.gz"
refused "$T/w.gz" "$T/w.gz:$line:$col: field devices[0].regions.weights[1]: a share in [0, 1]"
echo "weights[1]: $line:$col"
# devices[0].align removed: the place of devices[0]'s '{'
line=$(grep -n -m1 '"devices": \[' "$T/plain.json" | cut -d: -f1)
grep -v '^      "align": ' "$T/plain.json" >"$T/a.json"
refused "$T/a.json" "$T/a.json:$((line + 1)):5: field devices[0].align: missing"
# bad JSON: a ',' doubled on the line of "version"
sed 's/^  "version": 1,$/  "version": 1,,/' "$T/plain.json" >"$T/s.json"
refused "$T/s.json" "$T/s.json:3:16: bad JSON: quoted object property name expected"
# a row of seg_weights (disksim's disk 8) summing to 0.925, not 1
sw="$TOP/tests/fuzz/corpus/model_json/disksim_seg_weights.json"
line=$(grep -n -m1 '"seg_weights": \[' "$sw" | cut -d: -f1)
[ -n "$line" ] || fail "no seg_weights in $sw"
awk -v l="$line" 'NR == l + 1 { sub(/\[[^]]*\]/, "[0.925,0,0,0,0,0,0,0]") } { print }' "$sw" >"$T/sw.json"
"$IOREEL" model gen "$T/sw.json" -o "$T/out.reel" 2>"$T/err" && fail "gen read a row summing to 0.925"
grep -q "seg_weights\[0\]: shares summing to 1" "$T/err" || { cat "$T/err"; fail "not named"; }
# a burst length of 0 I/O (fiu's phase 2, its first knot)
bl="$TOP/tests/fuzz/corpus/model_json/bad_burst_len.json"
line=$(grep -n -m1 '"burst_len": ' "$bl" | cut -d: -f1)
[ -n "$line" ] || fail "no burst_len in $bl"
refused "$bl" "$bl:$line:22: field phases[2].interarrival.burst_len: bursts of 1 I/O or more"
echo "weights[1], a missing field, bad JSON and a burst of 0 I/O named with their places"
