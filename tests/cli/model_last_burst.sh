#!/bin/bash
# model_last_burst: a trace whose busiest burst is its last window (1,000
# I/O over 10 s, then 5,000 in the last 10 ms) loses no I/O in `model gen`:
# the generated trace holds exactly the model's count, also with --rate
# 0.5, 2 and 10 (round(rate x count), also with odd counts of two ops on
# two disks at 0.5, 0.3, 1.7 and 3.3); and `model compare --json` reports
# every fidelity check of issue 13.
. "$TOP/tests/lib.sh"
"$IOREEL" import --from list 2>/dev/null | grep -q '^msr ' || skip "the msr importer is not in this build"
/usr/bin/python3 - "$T/burst.csv" <<'PY'
import sys
t0 = 128166410318060999  # Windows filetime, 100 ns ticks
with open(sys.argv[1], "w") as f:
    for i in range(1000):
        f.write("%d,h,0,Read,%d,4096,100\n" % (t0 + i * 100000, (i * 7919 % 100000) * 4096))
    for i in range(5000):
        f.write("%d,h,0,Write,%d,4096,100\n" % (t0 + 100000000 + i * 20, 409600000 + i * 4096))
PY
"$IOREEL" import -q --from msr "$T/burst.csv" -o "$T/burst.reel" || fail "import"
"$IOREEL" model fit "$T/burst.reel" -o "$T/m.json" 2>/dev/null || fail "fit"
count() { "$IOREEL" info --json "$1" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["ios"])'; }
[ "$(count "$T/burst.reel")" = 6000 ] || fail "the crafted trace holds $(count "$T/burst.reel") I/O"
for rate in 1 0.5 2 10; do
	for seed in 1 2 3; do
		"$IOREEL" model gen "$T/m.json" --rate $rate --seed $seed --overwrite -o "$T/g.reel" \
			2>/dev/null || fail "gen --rate $rate --seed $seed"
		want=$(/usr/bin/python3 -c "print(int(6000 * $rate + 0.5))")
		got=$(count "$T/g.reel")
		[ "$got" = "$want" ] || fail "--rate $rate --seed $seed: $got I/O, not $want"
	done
done
# the same with odd counts of two ops on two disks (1,667 reads, 4,333
# writes; the last burst 4,999 I/O in 5 ms): the whole trace holds
# round(rate x count), not each op's count rounded and summed (3,001 at
# rate 0.5 before)
/usr/bin/python3 - "$T/burst2.csv" <<'PY'
import sys
t0 = 128166410318060999
rows = [(t0 + i * 200000, i % 2, "Read" if i % 3 else "Write", (i * 7919 % 100000) * 4096, 4096 * (1 + i % 4))
        for i in range(1001)]
rows += [(t0 + 200000000 + i * 10, i % 2, "Write" if i % 5 else "Read", 409600000 + i * 8192, 8192)
         for i in range(4999)]
with open(sys.argv[1], "w") as f:
    for r in sorted(rows):
        f.write("%d,h,%d,%s,%d,%d,100\n" % r)
PY
"$IOREEL" import -q --from msr "$T/burst2.csv" -o "$T/burst2.reel" || fail "import burst2"
"$IOREEL" model fit "$T/burst2.reel" -o "$T/m2.json" 2>/dev/null || fail "fit burst2"
for rate in 0.5 0.3 1.7 3.3; do
	"$IOREEL" model gen "$T/m2.json" --rate $rate --seed 1 --overwrite -o "$T/g.reel" \
		2>/dev/null || fail "gen burst2 --rate $rate"
	want=$(/usr/bin/python3 -c "print(int(6000 * $rate + 0.5))")
	got=$(count "$T/g.reel")
	[ "$got" = "$want" ] || fail "burst2 --rate $rate: $got I/O, not $want"
done
"$IOREEL" model gen "$T/m.json" --seed 1 --overwrite -o "$T/g.reel" 2>/dev/null || fail "gen"
"$IOREEL" model compare --json "$T/burst.reel" "$T/g.reel" >"$T/c.json" || fail "compare"
/usr/bin/python3 - "$T/c.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
need = ["ios", "bytes", "idc_1ms", "idc_10ms", "idc_100ms", "idc_1s", "idc_10s", "window_corr",
        "window_moved", "locality", "reuse", "read_after_write", "ks_reuse_distance",
        "working_set_read", "working_set_write", "ks_size_sequential", "ks_size_random",
        "ks_offset.dev0", "ks_gap.dev0", "ks_size", "ks_interarrival", "ks_jump"]
miss = [k for k in need if k not in r["checks"]]
if miss:
    sys.exit("FAIL: compare --json lacks %s" % miss)
c = r["checks"]
if c["ios"]["value"] != 1 or c["window_moved"]["value"] > 0.01:
    sys.exit("FAIL: ios ratio %s, window_moved %s" % (c["ios"]["value"], c["window_moved"]["value"]))
print("no I/O lost at rates 1, 0.5, 2, 10 (3 seeds each); window_moved %.4f" % c["window_moved"]["value"])
PY
