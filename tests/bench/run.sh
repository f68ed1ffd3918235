#!/bin/sh
# make bench: runs every tests/bench/*.sh; each prints its figures beside the
# anchor measured in the same run, as ratios.  BENCH=glob limits the run.
BUILD=${BUILD:-build}
TOP=$(pwd)
export TOP BUILD
export IOREEL="$TOP/$BUILD/ioreel"
export SHARED="${SHARED:-$TOP/../shared}"
rc=0
for b in tests/bench/*.sh; do
	[ "$b" = tests/bench/run.sh ] && continue
	case "$(basename "$b" .sh)" in ${BENCH:-*}) ;; *) continue ;; esac
	echo "== $(basename "$b" .sh)"
	bash "$b" || { echo "   (bench $(basename "$b") exited $?)"; rc=1; }
	echo
done
exit $rc
