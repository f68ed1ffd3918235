#!/bin/bash
# model_log_band: a log's band of writes, appended in order, keeps its
# I/O.  A synthetic MSR trace over 1 GiB: reads of 64-256 KiB at random
# below 512 MiB, 4 KiB metadata writes at random in 256-272 MiB, and runs
# of 2-40 4 KiB writes appended one after the other from 768 MiB (a
# journal; the regions hold the ops apart, the band's are writes alone,
# its longest runs kept where they are).  Fitted and generated (seeds
# 1-8), the band must hold at least 80% of the trace's writes there on
# average.  A run the walk drew into the band runs into the kept runs and
# the runs drawn before it; cut there, with the rest of its I/O given to
# the op's later runs elsewhere, the band held 78.1% (1,704 a seed of the
# trace's 2,183); going on past what is in its way (run_past), 81.8%.
# Chromium's ext4 journal at 1,025-1,030 MiB is such a band (model/HISTORY.md,
# "Chromium's log band").
. "$TOP/tests/lib.sh"
/usr/bin/python3 - "$T/log.csv" <<'PY'
import random, sys
r = random.Random(17)
t, out = 128166410318060000, []
BAND = 3 << 28  # 768 MiB: the log
front, n = BAND, 0
while n < 3000:
    t += r.randrange(1000, 50000)
    u = r.random()
    if u < 0.5:
        k = r.choice((16, 32, 64))
        out.append("%d,synth,0,Read,%d,%d,100" % (t, r.randrange(1 << 17) << 12, k * 4096))
        n += 1
    elif u < 0.8:
        out.append("%d,synth,0,Write,%d,4096,100" % (t, (1 << 28) + (r.randrange(1 << 12) << 12)))
        n += 1
    else:
        for _ in range(r.choice((2, 3, 4, 6, 8, 12, 24, 40))):
            t += r.randrange(100, 500)
            out.append("%d,synth,0,Write,%d,4096,100" % (t, front))
            n += 1
            front += 4096
        front += 4096 * r.randrange(0, 3)
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
model_fit_csv log
band() { # the writes at 768 MiB and up of a .reel
	"$IOREEL" export --to csv "$1" -o - 2>/dev/null |
		awk -F, -v lo=$((768 << 20)) '$4 == "write" && $7 >= lo { n++ } END { print n + 0 }'
}
want=$(band "$T/log.reel")
sum=0
for seed in 1 2 3 4 5 6 7 8; do
	"$IOREEL" model gen "$T/log.json" --seed $seed --overwrite -o "$T/syn.reel" 2>/dev/null ||
		fail "gen seed $seed"
	n=$(band "$T/syn.reel")
	echo "seed $seed: the band's writes $n of the trace's $want"
	sum=$((sum + n))
done
echo "mean $((sum / 8)) of $want"
[ $((sum * 10)) -ge $((want * 8 * 8)) ] || fail "the band holds $((sum / 8)) a seed, under 80% of $want"
