#!/bin/bash
# model_reuse_phase: re-use by phase, and re-writes that replay the run
# they re-write.  The public FIU trace (10,000 I/O, 90% reads) re-writes
# 205 of its 1,095 writes, most of them in the phase of its journal's
# re-writes (67% of that phase's write run starts re-write, 4% in the
# phase of its fresh writes), each run re-writing 3-7 blocks from the
# first block of the run that wrote them.  The fitted model must keep the
# writes' share by phase (p_reuse_phase), and the generated traces (seeds
# 1, 2, 3) must re-write at least 45% as many writes as the trace and
# keep the working set written within 15%.  Drawn at the device's share
# at the I/O a distance back, 50-84 writes re-wrote (1.12-1.17x the
# working set written on seeds 1-32).
. "$TOP/tests/lib.sh"
shared_trace "fiu/cheetah.cs.fiu.edu-110108-113008.1.head.blkparse" SRC
"$IOREEL" import -q --from fiu "$SRC" -o "$T/fiu.reel" || fail "import"
"$IOREEL" model fit "$T/fiu.reel" -o "$T/fiu.json" 2>/dev/null || fail "fit"
"$IOREEL" export --to csv "$T/fiu.reel" -o "$T/fiu.csv" --overwrite 2>/dev/null || fail "export"
rewrites() { # CSV: the writes touching a 4 KiB block written before
	/usr/bin/python3 - "$1" <<'PY'
import csv, sys
w, n = set(), 0
for r in csv.DictReader(open(sys.argv[1])):
    if r["op"] != "write":
        continue
    b = range(int(r["offset"]) >> 12, (int(r["offset"]) + int(r["length"]) - 1 >> 12) + 1)
    n += any(x in w for x in b)
    w.update(b)
print(n)
PY
}
/usr/bin/python3 - "$T/fiu.json" <<'PY' || exit 1
import gzip, json, sys
raw = open(sys.argv[1], "rb").read()
m = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
d = m["devices"][0]
ph = d.get("p_reuse_phase")
if not ph or len(ph) != len(m["phases"]):
    sys.exit("FAIL: no p_reuse_phase, one pair a phase: %r" % ph)
w = [p[1] for p in ph if p[1] >= 0]
print("writes' re-using starts by phase: %s" % w)
if not (max(w) >= 0.5 and min(w) <= 0.1):
    sys.exit("FAIL: the writes' phases do not keep their shares apart")
PY
want=$(rewrites "$T/fiu.csv")
for seed in 1 2 3; do
	"$IOREEL" model gen "$T/fiu.json" --seed $seed --overwrite -o "$T/syn.reel" 2>/dev/null ||
		fail "gen seed $seed"
	"$IOREEL" export --to csv "$T/syn.reel" -o "$T/syn.csv" --overwrite 2>/dev/null || fail "export"
	"$IOREEL" model compare --json "$T/fiu.reel" "$T/syn.reel" >"$T/c.json" || fail "compare"
	got=$(rewrites "$T/syn.csv")
	/usr/bin/python3 - "$T/c.json" $seed "$want" "$got" <<'PY' || exit 1
import json, sys
c = json.load(open(sys.argv[1]))["checks"]["working_set_write"]
seed, want, got = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
print("seed %s: re-writes %d (trace %d), working set written %.3f" % (seed, got, want, c["value"]))
if got < 0.45 * want or c["ok"] is not True:
    sys.exit("FAIL: seed %s: re-writes %d of the trace's %d, working set written %.3f"
             % (seed, got, want, c["value"]))
PY
done
