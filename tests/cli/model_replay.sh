#!/bin/bash
# model_replay: a real trace and its synthetic twin are replayed on the same
# loop device; `ioreel model compare` of the two results must give the
# demerit figure (RMS horizontal distance of the latency CDFs) and the mean
# latencies.  The demerit target (<= 10% of the mean) is a timing figure: it
# is measured by `make bench` (tests/bench/model.sh) beside the noise of
# replaying the same trace twice, not asserted here.
. "$TOP/tests/lib.sh"
need_root
"$IOREEL" replay --help >/dev/null 2>&1 || skip "the replay command is not in this build"
"$IOREEL" import --from list 2>/dev/null | grep -q '^fiu ' || skip "the fiu importer is not in this build"
shared_trace fiu/cheetah.cs.fiu.edu-110108-113008.1.head.blkparse src
"$IOREEL" import -q --from fiu "$src" -o "$T/orig.reel" || fail "import"
"$IOREEL" model fit "$T/orig.reel" -o "$T/m.json" 2>/dev/null || fail "fit"
"$IOREEL" model gen "$T/m.json" --seed 1 -o "$T/syn.reel" 2>/dev/null || fail "gen"
make_loop "$T/loop.img" 256
for k in orig syn; do
	"$IOREEL" replay "$T/$k.reel" --target "$LOOP" --fit scale --timing afap --qd 4 \
		-o "$T/res.$k.reel" >"$T/replay.log" 2>&1 || { cat "$T/replay.log"; fail "replay $k"; }
done
"$IOREEL" model compare --json "$T/res.orig.reel" "$T/res.syn.reel" >"$T/c.json" || fail "compare"
cat "$T/c.json"
/usr/bin/python3 - "$T/c.json" <<'PY' || exit 1
import json, math, sys
r = json.load(open(sys.argv[1]))
for k in ("demerit_us", "demerit_pct", "mean_latency_a_us", "mean_latency_b_us"):
    if k not in r or not math.isfinite(r[k]) or r[k] < 0:
        sys.exit("FAIL: %s missing or not a number" % k)
if not r["mean_latency_a_us"] > 0 or not r["mean_latency_b_us"] > 0:
    sys.exit("FAIL: no latency measured")
# the figures are printed to 1 ns: the ratio's rounding grows with it
tol = 0.01 + r["demerit_pct"] * 0.001 / r["mean_latency_a_us"]
if abs(r["demerit_pct"] - 100 * r["demerit_us"] / r["mean_latency_a_us"]) > tol:
    sys.exit("FAIL: demerit %% does not match demerit / mean latency")
if r["a"]["ios"] < 9000 or r["b"]["ios"] < 9000:
    sys.exit("FAIL: results hold %d and %d I/O" % (r["a"]["ios"], r["b"]["ios"]))
print("demerit %.1f us = %.1f%% of %.1f us mean latency" % (r["demerit_us"], r["demerit_pct"], r["mean_latency_a_us"]))
PY
