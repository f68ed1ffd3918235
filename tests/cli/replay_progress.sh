#!/bin/bash
# Progress on stderr when it is not a terminal: a replay lasting 6 s (its
# schedule, original timing: not a machine-speed figure) prints at least
# one line, at most one per 5 s, saying the I/Os done of the total, the
# time elapsed against the schedule's length and whether it is on
# schedule; -q prints none.  A replay shorter than 5 s prints none.
. "$TOP/tests/lib.sh"
cd "$T"
# MSR CSV (FILETIME, 100 ns units): 61 reads 100 ms apart: 6 s
for i in $(seq 0 60); do
	echo "$((128166372000000000 + i * 1000000)),h,0,Read,$((i * 4096)),4096,100"
done >slow.csv
"$IOREEL" import --from msr slow.csv -o slow.reel -q || fail "import"
"$IOREEL" replay slow.reel --engine null --target t.img >out 2>err || { cat err; fail "replay"; }
cat err
# (a warning that the host fell behind may say "N of 61 I/Os went over")
line="^ioreel replay: .*% *[0-9]* of 61 I/Os  "
n=$(grep -c "${line}[0-9.]* of 6.0 s expected, \(on schedule\|[0-9.]* s behind schedule\)" err)
[ "$n" -ge 1 ] || fail "no progress line on stderr in a 6 s replay"
[ "$n" -le 2 ] || fail "$n progress lines in 6 s: more than one per 5 s"
"$IOREEL" replay slow.reel --engine null --target t.img -q >out 2>err || { cat err; fail "replay -q"; }
grep -q "$line" err && { cat err; fail "-q printed progress"; }
"$IOREEL" replay slow.reel --engine null --target t.img --timing afap >out 2>err ||
	{ cat err; fail "replay afap"; }
grep -q "$line" err && { cat err; fail "a replay shorter than 5 s printed progress"; }
echo ok
