#!/bin/bash
# compare and plot on a merged multi-host result (replay --mpi): 2 ranks
# replay a 4-device trace on 4 loop devices; compare gives the aggregate
# and a row per rank ("@HOST#0", "@HOST#1": both ranks run on this host),
# the ranks' I/Os add up to the aggregate's, and plot draws them.
. "$TOP/tests/cli/mpi.lib"
make_loops 4
make_trace4 "$T/t.reel" 1 2000
mpirun_n 2 replay "$T/t.reel" --mpi --target "${LOOPS// /,}" --timing afap -o "$T/r.reel" \
	>"$T/out" 2>&1 || { rc=$?; cat "$T/out"; fail "replay --mpi exited $rc"; }
"$IOREEL" compare "$T/r.reel" --label cluster >"$T/table.txt" || fail "compare"
cat "$T/table.txt"
grep -q "^  cluster @$HOST#0 " "$T/table.txt" || fail "no row for rank 0"
grep -q "^  cluster @$HOST#1 " "$T/table.txt" || fail "no row for rank 1"
"$IOREEL" compare --json - "$T/r.reel" >"$T/cmp.json" 2>/dev/null || fail "compare --json"
python3 - "$T/cmp.json" <<'PY' || fail "per-rank I/Os do not add up to the aggregate's"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
agg = [r for r in runs if "host_of" not in r]
parts = [r for r in runs if r.get("host_of") == 0]
assert len(agg) == 1 and agg[0]["hosts"] == 2 and len(parts) == 2, runs
assert sum(p["ios"] for p in parts) == agg[0]["ios"] == 2000, (agg, parts)
assert all(p["ios"] > 0 for p in parts)
PY
"$IOREEL" plot "$T/r.reel" --label cluster -o "$T/plots" >"$T/plot.txt" || fail "plot"
grep -q throughput "$T/plot.txt" || fail "plot drew no throughput"
grep -q "^# cluster @$HOST#1:" "$T/plots/data/tput_3.dat" || fail "plot: no per-rank data"
exit 0
