#!/bin/bash
# Runs of different lengths are drawn against the share of each run's
# length: no point of the latency-over-time or throughput data lies past
# the end of its run (share_pct above 100), as the last, cut-short bucket's
# middle once did (git.reel at 112% beside compile.reel).
. "$TOP/tests/lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot absent"
"$IOREEL" plot "$TOP/traces/compile.reel" "$TOP/traces/git.reel" -o "$T/p" --format dumb \
	>"$T/out" 2>&1 || fail "plot: $(cat "$T/out")"
n=0
for f in "$T"/p/data/lattime_*.dat "$T"/p/data/tput_*.dat; do
	[ -f "$f" ] || fail "$f missing: $(ls "$T/p/data")"
	n=$((n + 1))
	awk '!/^#/ && NF { if ($NF > 100.0001) { print FILENAME ": " $0; bad = 1 } }
	     END { exit bad }' "$f" || fail "a point past its run's end"
done
[ $n = 4 ] || fail "$n data files, not 4"
exit 0
