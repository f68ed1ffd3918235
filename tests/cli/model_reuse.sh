#!/bin/bash
# model_reuse: re-use where a run's I/O share 4 KiB blocks.  A synthetic
# MSR trace of sequential runs of 1 KiB writes (as in disksim's tpcc trace,
# 8 KiB at 1 KiB past a 4 KiB boundary: an I/O of a run touches the last
# block of the one before) is fitted and generated (seeds 1, 2, 3): the
# re-use share, the reuse distances, the jumps and the working set written
# must hold.  A generator that takes a run's own last block for a block
# touched before cuts every run there (here re-use 0% against 57%, jump KS
# 0.27; on disksim 0.8% against 1.6%).
. "$TOP/tests/lib.sh"
/usr/bin/python3 - "$T/runs.csv" <<'PY'
import random, sys
r = random.Random(13)
t, out, n = 128166410318060000, [], 0
while n < 3000:
    off = (r.randrange(1 << 16) << 12) + 1024  # 256 MiB of 4 KiB slots, 1 KiB in
    for _ in range(1 + int(r.expovariate(1 / 3.0))):
        out.append("%d,synth,0,Write,%d,1024,100" % (t, off))
        t += r.randrange(1000, 50000)
        off += 1024
        n += 1
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
model_fit_csv runs
for seed in 1 2 3; do
	model_gen_compare runs $seed
	/usr/bin/python3 - "$T/c.json" $seed <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
c = r["checks"]
keys = ("reuse", "ks_reuse_distance", "working_set_write")
f = lambda x: "-" if x is None else "%.3f" % x
print("seed %s: re-use %s vs %s, reuse-distance KS %s, working set written %s, jump KS %s"
      % (sys.argv[2], f(c["reuse"]["a"]), f(c["reuse"]["b"]), f(c["ks_reuse_distance"]["value"]),
         f(c["working_set_write"]["value"]), f(r["ks_jump"])))
bad = [k for k in keys + ("ks_jump",) if c[k]["ok"] is not True]
if bad:
    print("FAIL: seed %s outside targets: %s" % (sys.argv[2], bad), file=sys.stderr)
    sys.exit(1)
PY
done
