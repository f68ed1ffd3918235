#!/bin/bash
# model_reuse_reads: reads that never touch a block touched before, among
# writes that land anywhere.  A synthetic MSR trace over 2 GiB: 4 KiB
# writes at random, and reads of 256 KiB-2 MiB each on blocks no I/O has
# touched (read-after-write 0 in the trace, as chromium's reads).  Fitted
# and generated (seeds 1, 2, 3), the generated reads must not read after
# writes (target: within 1 point of 0), nor the re-use share move out of
# its target.  A generator that samples 64 blocks of a large read while
# scanning for a fresh stretch steps over written blocks, and one whose
# reads, finding no room, re-read an earlier read's offset at their own
# length reads written blocks: 10% of the reads here with the old build.
. "$TOP/tests/lib.sh"
/usr/bin/python3 - "$T/rw.csv" <<'PY'
import random, sys
r = random.Random(13)
t, out, touched = 128166410318060000, [], set()
BL, n = 1 << 19, 0  # 2 GiB of 4 KiB blocks
while n < 3000:
    t += r.randrange(1000, 50000)
    if r.random() < 0.7:
        b = r.randrange(BL)
        touched.add(b)
        out.append("%d,synth,0,Write,%d,4096,100" % (t, b << 12))
        n += 1
        continue
    k = r.choice((64, 128, 256, 512))
    for _ in range(200):
        b = r.randrange(BL - k)
        if touched.isdisjoint(range(b, b + k)):
            touched.update(range(b, b + k))
            out.append("%d,synth,0,Read,%d,%d,100" % (t, b << 12, k * 4096))
            n += 1
            break
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
model_fit_csv rw
for seed in 1 2 3; do
	model_gen_compare rw $seed
	/usr/bin/python3 - "$T/c.json" $seed <<'PY' || exit 1
import json, sys
c = json.load(open(sys.argv[1]))["checks"]
raw, ru = c["read_after_write"], c["reuse"]
print("seed %s: read-after-write %.4f vs %.4f, re-use %.3f vs %.3f"
      % (sys.argv[2], raw["a"], raw["b"], ru["a"], ru["b"]))
bad = [k for k in ("read_after_write", "reuse") if c[k]["ok"] is not True]
if raw["a"] != 0:
    bad.append("the trace's reads read after writes")
if bad:
    print("FAIL: seed %s: %s" % (sys.argv[2], bad), file=sys.stderr)
    sys.exit(1)
PY
done
