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
