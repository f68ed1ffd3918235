#!/bin/bash
# DiskSim ASCII: the shared MQSim trace (times in ns) round-trips, and the
# time unit option scales times.
. "$TOP/tests/lib.sh"
. "$TOP/tests/cli/import.inc"
src=$SHARED/traces/public/disksim/tpcc-small.trace
[ -e "$src" ] || skip "$src absent"
roundtrip "$src" disksim "$(wc -l <"$src")" --time-unit=ns

# the default unit is ms: the same lines read as ms are 1e6 times longer
printf '0.5 0 100 8 1\n2.25 1 200 16 0\n' >"$T/ms.trace"
"$IOREEL" import --from disksim "$T/ms.trace" -o "$T/ms.reel" 2>/dev/null || fail "import ms"
"$IOREEL" export --to csv "$T/ms.reel" -o "$T/ms.csv" 2>/dev/null || fail "export"
cat >"$T/ms.want" <<'W'
queue_ns,issue_ns,complete_ns,op,flags,dev,offset,length,pid,comm,cpu,error
0,,,read,,0,51200,4096,,,,
1750000,,,write,,1,102400,8192,,,,
W
diff "$T/ms.want" "$T/ms.csv" || fail "ms time unit"
"$IOREEL" import --from disksim --time-unit us "$T/ms.trace" -o "$T/us.reel" 2>/dev/null || fail "import us"
"$IOREEL" export --to csv "$T/us.reel" -o - 2>/dev/null | grep -q '^1750,,,write' || fail "us time unit"
"$IOREEL" import --from disksim --time-unit weeks "$T/ms.trace" -o "$T/w.reel" 2>/dev/null &&
	fail "a bad --time-unit was accepted"
[ ! -e "$T/w.reel" ] || fail "output left after a usage error"
echo ok
