#!/bin/bash
# Failures stop every rank cleanly with an error naming rank and host:
# a rank whose target cannot be opened, and a rank interrupted mid-run.
# What the other ranks completed is in the result, marked interrupted, each
# completed I/O once.
. "$TOP/tests/cli/mpi.lib"
make_loops 3
set -- $LOOPS
make_trace4 "$T/t.reel" 10 200
# records in the result == the I/Os the ranks report completed, none on rank 3
check_partial() {
	[ -e "$1" ] || fail "no result written"
	[ "$(meta "$1" replay.interrupted)" = 1 ] || fail "result not marked interrupted"
	local n sum=0 i
	n=$("$IOREEL" dump "$1" | grep -vc '^#')
	for i in 0 1 2 3; do sum=$((sum + $(meta "$1" cluster.rank.$i.ios))); done
	[ "$n" = "$sum" ] || fail "$n records in the result, the ranks completed $sum"
	PARTIAL=$n
}

# 1. rank 3's target is in a directory that does not exist
mpirun_n 4 replay "$T/t.reel" --mpi --map 0:0=$1 --map 1:1=$2 --map 2:2=$3 \
	--map 3:3="$T/no/such/dir" -o "$T/f.reel" >"$T/out" 2>&1 && fail "a missing target did not fail the job"
grep -q "rank 3 on $HOST failed: $T/no/such/dir" "$T/out" || { cat "$T/out"; fail "error does not name rank 3 and $HOST"; }
check_partial "$T/f.reel"
[ "$(meta "$T/f.reel" cluster.failed_rank)" = 3 ] || fail "cluster.failed_rank is not 3"
echo "ok: missing target on rank 3 stopped the job ($PARTIAL I/Os completed before the stop)"

# 2. rank 1 gets SIGINT 0.5 s into a 2 s replay: every rank stops and drains
mpirun_n 4 replay "$T/t.reel" --mpi --map 0:0=$1 --map 1:1=$2 --map 2:2=$3 -o "$T/i.reel" \
	>"$T/out2" 2>&1 &
job=$!
pid=""
for _ in $(seq 100); do
	pid=$(rank_pid 1 "$T/i.reel") && break
	sleep 0.05
done
[ -n "$pid" ] || { kill $job; fail "rank 1's process not found"; }
# once rank 1 catches SIGINT (its MPI_Init done: seconds under AddressSanitizer,
# make asan), 0.3 s start delay, set-up, then about 0.5 s of replay
catches_int() { [ $((0x$(awk '/^SigCgt:/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0) & 2)) != 0 ]; }
for _ in $(seq 200); do catches_int && break; sleep 0.05; done
catches_int || { kill $job; fail "rank 1 does not catch SIGINT after 10 s"; }
sleep 0.9
kill -INT "$pid"
wait $job && fail "an interrupted job exited 0"
grep -q "rank 1 on $HOST failed: interrupted by a signal" "$T/out2" || { cat "$T/out2"; fail "interrupt not named"; }
check_partial "$T/i.reel"
[ "$PARTIAL" -gt 0 ] && [ "$PARTIAL" -lt 150 ] || fail "$PARTIAL I/Os completed: expected some, not all"
echo "ok: interrupt on rank 1 stopped every rank; $PARTIAL completed I/Os kept"
