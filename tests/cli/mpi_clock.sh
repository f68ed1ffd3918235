#!/bin/bash
# Rank 2's clock is shifted by 300 ms (--clock-offset-test): the ping-pong
# measurement finds the offset, the start and the merged times are
# corrected, so the cross-rank order of the result's I/Os is the trace's;
# the measured start skew is reported.  Without the correction rank 2 would
# start 300 ms off and its I/Os would land out of order.
. "$TOP/tests/cli/mpi.lib"
make_loops 4
# 32 I/Os 25 ms apart, round-robin over the 4 ranks' devices
make_trace4 "$T/t.reel" 25 32
# the cross-rank order holds only where the schedule held: 4 ranks on a
# 2-core machine under load can issue an I/O more than the 25 ms between
# them late; such a run (lateness above 20 ms) is run again, at most 3 times
run() {
	mpirun_n 4 replay "$T/t.reel" --mpi --target "${LOOPS// /,}" --clock-offset-test 2:300000000 \
		-o "$T/r.reel" --json "$T/r.json" >"$T/out" 2>&1 || { rc=$?; cat "$T/out"; fail "replay --mpi exited $rc"; }
}
late_ms() { "$IOREEL" dump "$T/r.reel" | awk '!/^#/ { l = $2 - $1; if (l > m) m = l } END { printf "%d", m / 1000000 }'; }
order() {
	"$IOREEL" dump "$T/r.reel" | grep -v '^#' | sort -n -k2,2 | awk '{ print $4 }' >"$T/devs"
	got=$(while read -r d; do printf '%s ' "${td[$d]}"; done <"$T/devs")
}
run
cat "$T/out"
off=$(meta "$T/r.reel" cluster.rank.2.offset_ns)
awk -v o="$off" 'BEGIN { exit !(o > 299000000 && o < 301000000) }' ||
	fail "rank 2's offset measured as $off ns, injected 300000000"
for r in 0 1 3; do
	o=$(meta "$T/r.reel" cluster.rank.$r.offset_ns)
	awk -v o="$o" 'BEGIN { exit !(o > -1000000 && o < 1000000) }' || fail "rank $r's offset is $o ns"
done
skew=$(meta "$T/r.reel" cluster.start_skew_ns)
[ -n "$skew" ] || fail "no start skew reported"
grep -q "start skew" "$T/out" || fail "start skew not printed"
# cross-rank order: the result's records by issue time name the trace
# devices in the trace's order (0 1 2 3 0 1 ...)
declare -A td
for i in 0 1 2 3; do td[$i]=$(meta "$T/r.reel" cluster.dev.$i.trace_dev); done
want=$("$IOREEL" dump "$T/t.reel" | grep -v '^#' | awk '{ printf "%s ", $4 }')
order
tries=1
while [ "$got" != "$want" ] && [ "$(late_ms)" -gt 20 ] && [ $tries -lt 3 ]; do
	echo "order differs in a run whose latest I/O was $(late_ms) ms late (the host's load): again"
	run
	order
	tries=$((tries + 1))
done
if [ "$got" != "$want" ] && [ "$(late_ms)" -gt 20 ]; then
	echo "cross-rank order not judged: every run had an I/O over 20 ms late (load $(cut -d' ' -f1 /proc/loadavg))"
else
	[ "$got" = "$want" ] || fail "cross-rank order differs from the trace's:
  got  $got
  want $want"
fi
echo "ok: offset of rank 2 measured as $off ns; start skew $skew ns"
