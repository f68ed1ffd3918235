#!/bin/sh
# make bench: runs every tests/bench/*.sh; each prints its figures beside the
# anchor measured in the same run: the median and range of REPEATS (default
# 3) interleaved runs of each (tests/bench/lib.sh), and the ratio.  The load
# average is printed before and after each group.  BENCH=glob limits the run
# (BENCH=replay, BENCH='formats_*'); REPEATS=N sets the repeats.
BUILD=${BUILD:-build}
TOP=$(pwd)
REPEATS=${REPEATS:-3}
export TOP BUILD REPEATS
export IOREEL="$TOP/$BUILD/ioreel"
export SHARED="${SHARED:-$TOP/../shared}"
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "make bench: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -r), REPEATS=$REPEATS," \
	"$("$IOREEL" --version 2>/dev/null | head -n 1)"
rc=0
for b in tests/bench/*.sh; do
	case "$b" in tests/bench/run.sh | tests/bench/lib.sh) continue ;; esac
	case "$(basename "$b" .sh)" in ${BENCH:-*}) ;; *) continue ;; esac
	t0=$(date +%s)
	echo "== $(basename "$b" .sh)   (load average 1/5/15 min at start: $(load))"
	bash "$b" || { echo "   (bench $(basename "$b") exited $?)"; rc=1; }
	echo "== end $(basename "$b" .sh): $(($(date +%s) - t0)) s   (load average at end: $(load))"
	echo
done
exit $rc
