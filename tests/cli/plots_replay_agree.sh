#!/bin/bash
# One histogram: `ioreel replay --json` and `ioreel compare --json` on the
# same result give the same latency and issue error percentiles, to the ns
# (both use formats' struct reel_hist).  A read-only trace, so the replay's
# "read" latency is compare's latency of all I/Os.
. "$TOP/tests/lib.sh"
# 3000 random 4 KiB reads, one every 100 us (MSR CSV: Windows filetime, 100 ns)
/usr/bin/python3 - "$T/t.csv" <<'PY' || fail "make the trace"
import sys
with open(sys.argv[1], "w") as f:
    t, x = 128166372000000000, 12345
    for i in range(3000):
        x = (x * 1103515245 + 12345) % 2**31
        f.write(f"{t + i * 1000},host,0,Read,{(x % 8192) * 4096},4096,100\n")
PY
"$IOREEL" import --from msr "$T/t.csv" -o "$T/t.reel" >"$T/imp.log" 2>&1 || { cat "$T/imp.log"; fail import; }
S=$(mktemp -d /dev/shm/ioreel-agree.XXXXXX) || fail "mktemp in /dev/shm"
rm_shm() { rm -rf "$S"; }
at_exit rm_shm
truncate -s 64M "$S/target.img" || fail truncate
"$IOREEL" replay "$T/t.reel" --target "$S/target.img" --overwrite --timing original --qd 8 \
	-o "$T/r.reel" --json "$T/r.json" >"$T/replay.log" 2>&1 || { cat "$T/replay.log"; fail replay; }
"$IOREEL" compare --json "$T/r.reel" >"$T/c.json" || fail "compare --json"
/usr/bin/python3 - "$T/r.json" "$T/c.json" <<'PY' || fail "replay and compare disagree"
import json, sys
r = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))["runs"][0]
lat, ie = r["ops"]["read"]["latency_ns"], r["issue_error_ns"]
ok = True
for name, ns, us in [("latency p50", lat["p50"], c["p50_us"]), ("latency p99", lat["p99"], c["p99_us"]),
                     ("latency p99.9", lat["p99.9"], c["p999_us"]),
                     ("issue error p50", ie["p50"], c["issue_error_us"]["p50"]),
                     ("issue error p99", ie["p99"], c["issue_error_us"]["p99"]),
                     ("issue error max", ie["max"], c["issue_error_us"]["max"])]:
    same = round(us * 1000) == ns
    print(f"{name}: replay {ns} ns, compare {us} us{'' if same else '  MISMATCH'}")
    ok &= same
if r["ops"]["read"]["count"] != c["ios"] or ie["count"] != c["ios"]:
    print("counts differ:", r["ops"]["read"]["count"], ie["count"], c["ios"]); ok = False
sys.exit(0 if ok else 1)
PY
echo ok
