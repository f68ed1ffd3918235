#!/bin/bash
# ioreel demo: replays the bundled trace (the boot) in four settings, three
# times each, onto scratch files in $TMPDIR (never a device), prints the
# comparison (repeats and verdicts) and the report path, keeps the report,
# removes the scratch files (also when interrupted).
. "$TOP/tests/lib.sh"
need_root
command -v gnuplot >/dev/null || skip "gnuplot not installed (apt-get install gnuplot-nox)"
ls "$TOP"/traces/*.reel >/dev/null 2>&1 || skip "no bundled trace in traces/"
mkdir -p "$T/tmp"
start=$(date +%s)
TMPDIR=$T/tmp "$IOREEL" demo -o "$T/rep" >"$T/out" 2>&1 || { cat "$T/out"; fail "ioreel demo"; }
secs=$(( $(date +%s) - start ))
cat "$T/out"
for i in $(seq 12); do
	grep -q "^replay $i/12: " "$T/out" || fail "no replay $i/12 line"
done
grep -q "trace .*boot.reel" "$T/out" || fail "the demo did not replay the boot"
grep -q "^Repeats" "$T/out" || fail "no repeats table"
grep -q "^Verdicts .* 24 comparisons" "$T/out" || fail "no verdicts (4 settings: 6 pairs x 4)"
grep -qF "report: $T/rep/report.html" "$T/out" || fail "report path not printed"
[ "$(ls "$T/rep"/*.reel | wc -l)" -eq 12 ] || fail "expected 12 results in $T/rep"
[ -s "$T/rep/report.html" ] && [ -s "$T/rep/report.md" ] || fail "report missing"
[ "$(grep -c '<svg' "$T/rep/report.html")" -ge 6 ] || fail "report.html lacks its plots"
# scratch files gone, nothing else left in TMPDIR
left=$(ls -A "$T/tmp")
[ -z "$left" ] || fail "demo left $left in TMPDIR"
# each result: replayed onto a file in TMPDIR (not a device), with the
# queue depth and data mode of its name, and the data it asked for
for r in "$T/rep"/*.reel; do
	"$IOREEL" info --json "$r" | /usr/bin/python3 -c '
import json, sys
m = json.load(sys.stdin)["meta"]
name, tmp = sys.argv[1], sys.argv[2]
want_qd = "1" if "qd1-" in name else "original"
want_data = "ratio:2" if "ratio2" in name else "random"
errs = []
if not m["target.0.path"].startswith(tmp + "/"): errs.append("target " + m["target.0.path"])
if m.get("target.0.model") != "file": errs.append("target model %s" % m.get("target.0.model"))
if m["replay.qd"] != want_qd: errs.append("qd " + m["replay.qd"])
if m["replay.data"] != want_data: errs.append("data " + m["replay.data"])
ach = m.get("replay.ratio_achieved")
if ach is not None:
    want = 2.0 if want_data == "ratio:2" else 1.0
    if abs(ach - want) > 0.1 * want: errs.append("ratio achieved %s" % ach)
if errs:
    print(name, errs); sys.exit(1)
' "$(basename "$r")" "$T/tmp" || fail "$r: not what the demo should have replayed"
done
# runs under 1 s of busy time are too short to compare: the demo loops the
# trace (afap) so that each run is busy about 2 s, and every result holds
# the looped trace's I/Os
loop=$(sed -n 's/.*each run replays it \([0-9]*\) times (\([0-9]*\) I\/Os).*/\1 \2/p' "$T/out")
[ -n "$loop" ] || fail "the demo did not loop the trace (one pass of the boot is well under 1 s busy)"
set -- $loop
[ "$1" -ge 2 ] || fail "looped $1 times"
for r in "$T/rep"/*.reel; do
	n=$("$IOREEL" info --json "$r" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["ios"])')
	[ "$n" = "$2" ] || fail "$r holds $n I/Os, not the looped trace's $2"
done
looped=$1
# --min-busy 0: one pass of the trace per run, nothing looped
TMPDIR=$T/tmp "$IOREEL" demo -o "$T/rep1" --min-busy 0 >"$T/out1" 2>&1 || { cat "$T/out1"; fail "demo --min-busy 0"; }
! grep -q "each run replays it" "$T/out1" || fail "--min-busy 0 looped the trace"
n=$("$IOREEL" info --json "$T/rep1/qd1-random-1.reel" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["ios"])')
[ "$n" -gt 0 ] && [ "$n" -lt "$2" ] || fail "--min-busy 0: $n I/Os in a run (looped: $2)"
echo "demo took ${secs}s (the trace looped $looped times)"

# interrupted: scratch files still removed, exit status says it failed
TMPDIR=$T/tmp "$IOREEL" demo -o "$T/rep2" --timing original >"$T/out2" 2>&1 &
pid=$!
for _ in $(seq 100); do
	grep -q "^replay 1/12" "$T/out2" && break
	sleep 0.05
done
kill -INT $pid 2>/dev/null
if wait $pid; then
	grep -q "^replay 12/12.* s$" "$T/out2" && skip "all but the interrupt check passed: the trace replays too fast to interrupt"
	fail "interrupted demo exited 0"
fi
left=$(ls -A "$T/tmp")
[ -z "$left" ] || fail "interrupted demo left $left in TMPDIR"
grep -q "interrupted" "$T/out2" || { cat "$T/out2"; fail "interrupted demo did not say so"; }
echo "ok: demo in ${secs}s; interrupted demo cleaned up"
