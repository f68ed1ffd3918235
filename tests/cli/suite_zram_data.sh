#!/bin/bash
# Data modes on zram (a compressing device): the suite reports both data
# modes (the rates are printed, not asserted: a timed assertion on a shared
# machine is noise; docs/ioreel-suite.md has the measured difference), the
# replay's LZ4 ratio is about 4, and zram's own mm_stat confirms that what
# was stored compressed about 4x (ratio:4 is the plan's last data mode, so
# it overwrote every block the trace writes).
. "$TOP/tests/cli/suite_lab.inc"
make_zram 64; A=$ZRAM
make_zram 64; B=$ZRAM
cat >"$T/z.plan" <<PLAN
[global]
qd=32
data=random,ratio:4
states=empty
repeats=3
min-busy=0.3
[compile]
trace=$TOP/traces/compile.reel
PLAN
"$IOREEL" suite "$T/z.plan" --drive a="$A" --drive b="$B" -o "$T/out" >"$T/stdout" 2>"$T/stderr" ||
	{ cat "$T/stderr"; fail "suite failed"; }
[ -s "$T/out/data.png" ] || fail "no data-mode chart"
python3 - "$T/out/summary.json" "/sys/block/${A#/dev/}/mm_stat" <<'PY' || exit 1
import json, sys
s = json.load(open(sys.argv[1]))
rate = {}
for c in s["cells"]:
    rate[c["data"]] = sum(d["metrics"]["rate_mbps"]["mean"] for d in c["drives"]) / len(c["drives"])
    if c["data"] == "ratio:4":
        for d in c["drives"]:
            if not 3.8 <= d["lz4_ratio"] <= 4.2:
                sys.exit(f"FAIL: LZ4 ratio achieved {d['lz4_ratio']}, wanted about 4")
print(f"zram data rate: random {rate['random']:.0f} MB/s, ratio:4 {rate['ratio:4']:.0f} MB/s")
orig, compr = (int(x) for x in open(sys.argv[2]).read().split()[:2])
print(f"mm_stat: {orig} bytes stored in {compr}: {orig / compr:.2f}x")
if not 3.4 <= orig / compr <= 4.6:
    sys.exit("FAIL: zram compressed the data %.2fx, not about 4x" % (orig / compr))
PY
exit 0
