#!/bin/bash
# replay --max-idle S: at original timing, a stretch with nothing arriving
# longer than S is cut to S (the Storage Bench's idle cut); the rest of the
# schedule keeps its gaps, and the result records the setting.
. "$TOP/tests/lib.sh"
cd "$T"
# MSR CSV (FILETIME, 100 ns units): 10 reads 1 ms apart, 3 s of nothing,
# 10 more 1 ms apart
{
	for i in $(seq 0 9); do echo "$((128166372000000000 + i * 10000)),h,0,Read,$((i * 4096)),4096,100"; done
	for i in $(seq 0 9); do echo "$((128166372000000000 + 30000000 + i * 10000)),h,0,Read,$((i * 4096)),4096,100"; done
} >idle.csv
"$IOREEL" import --from msr idle.csv -o idle.reel -q || fail "import"
dur() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['duration_ns'])" "$1"; }
"$IOREEL" replay idle.reel --engine null --target t.img --max-idle 0.005 --json cut.json -o cut.reel \
	2>err || { cat err; fail "replay --max-idle"; }
"$IOREEL" replay idle.reel --engine null --target t.img --json full.json 2>err ||
	{ cat err; fail "replay"; }
cut=$(dur cut.json) full=$(dur full.json)
# the schedule's length after the cut, and the cut, are said (not timed:
# from the trace): the 3 s idle stretch after 9 ms is cut to 5 ms, so the
# 3.009 s trace is expected to last 23 ms, of which 2.986 s were cut
js() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$@"; }
[ "$(js cut.json idle_cut_ns)" = 2986000000 ] || fail "idle_cut_ns $(js cut.json idle_cut_ns), not 2986000000"
[ "$(js cut.json expected_ns)" = 23000000 ] || fail "expected_ns $(js cut.json expected_ns), not 23000000"
[ "$(js full.json idle_cut_ns)" = 0 ] || fail "idle_cut_ns without --max-idle"
[ "$(js full.json expected_ns)" = 3009000000 ] || fail "expected_ns without --max-idle"
"$IOREEL" replay idle.reel --engine null --target t.img --max-idle 0.005 --speed 0.5 >out 2>err ||
	{ cat err; fail "replay --max-idle --speed 0.5"; }
grep duration out
grep -q "trace 3.009 s, 2.986 s of idle cut by --max-idle; expected 0.046 s at speed 0.5" out ||
	fail "the summary should say the idle cut and the expected time after it"
"$IOREEL" replay idle.reel --engine null --target t.img >out 2>err || { cat err; fail "replay"; }
grep -q "(trace 3.009 s; expected 3.009 s at speed 1)" out || { cat out; fail "summary without --max-idle"; }
echo "duration: $full ns without, $cut ns with --max-idle 0.005"
# without: ~3.019 s; with: 9 ms + 5 ms + 9 ms = ~23 ms (plus the last I/O)
[ "$full" -gt 3000000000 ] || fail "the idle stretch was not replayed without --max-idle ($full ns)"
[ "$cut" -lt 1000000000 ] || fail "--max-idle did not cut the idle stretch ($cut ns)"
[ "$cut" -gt 20000000 ] || fail "--max-idle cut the gaps it should keep ($cut ns)"
"$IOREEL" info --json cut.reel | grep -Eq '"replay.max_idle_ns": ?5000000' ||
	fail "replay.max_idle_ns not in the result"
"$IOREEL" replay idle.reel --engine null --target t.img --max-idle abc 2>/dev/null; [ $? = 2 ] ||
	fail "--max-idle abc accepted"
echo ok
