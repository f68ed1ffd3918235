#!/bin/bash
# 4 ranks capture 4 loop devices while each runs its own fio (-- CMD on every
# rank, told its device through IOREEL_MPI_DEVICES): the merged trace counts
# exactly what each fio issued, on that rank's device, nothing lost.
. "$TOP/tests/cli/mpi.lib"
[ -d /sys/kernel/tracing/events/block/block_rq_issue ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -d /sys/kernel/tracing/events/block/block_rq_issue ] || skip "no block tracepoints in tracefs"
command -v fio >/dev/null || skip "fio not installed"
make_loops 4
set -- $LOOPS
# rank r issues 100 + 20 r reads and 50 + 10 r writes (4 KiB, direct, psync)
cat >"$T/job.sh" <<'SH'
#!/bin/sh
r=$IOREEL_MPI_RANK
for rw in randread:$((100 + 20 * r)) randwrite:$((50 + 10 * r)); do
	fio --name=c --filename="$IOREEL_MPI_DEVICES" --direct=1 --rw=${rw%:*} --bs=4k --size=16M \
		--number_ios=${rw#*:} --ioengine=psync --randrepeat=0 >/dev/null || exit 1
done
SH
chmod +x "$T/job.sh"
mpirun_n 4 capture --mpi -d 0:$1 -d 1:$2 -d 2:$3 -d 3:$4 -o "$T/c.reel" -- "$T/job.sh" \
	>"$T/out" 2>&1 || { rc=$?; cat "$T/out"; fail "capture --mpi exited $rc"; }
cat "$T/out"
for p in $(ls /sys/kernel/tracing/instances/ 2>/dev/null | grep -E '^ioreel-[0-9]+$'); do
	kill -0 "${p#ioreel-}" 2>/dev/null || fail "tracing instance $p left behind"
done
[ "$(meta "$T/c.reel" capture.lost_events)" = 0 ] || fail "events lost"
"$IOREEL" dump "$T/c.reel" | grep -v '^#' >"$T/dump"
for r in 0 1 2 3; do
	[ "$(meta "$T/c.reel" cluster.rank.$r.lost_events)" = 0 ] || fail "rank $r lost events"
	loop=$(echo $LOOPS | cut -d' ' -f$((r + 1)))
	# the device of rank r, named host:loopN
	line=$("$IOREEL" info "$T/c.reel" | grep "^device [0-9]*  *$HOST:$(basename $loop) ") ||
		fail "no device $HOST:$(basename $loop) in the result"
	id=$(echo "$line" | awk '{ print $2 }')
	[ "$(meta "$T/c.reel" cluster.dev.$id.rank)" = $r ] || fail "device $id is not rank $r's"
	nr=$(awk -v d=$id '$4 == d && $5 == "read" && $8 == 4096' "$T/dump" | wc -l)
	nw=$(awk -v d=$id '$4 == d && $5 == "write" && $8 == 4096' "$T/dump" | wc -l)
	[ "$nr" = $((100 + 20 * r)) ] || fail "rank $r: $nr reads captured, fio issued $((100 + 20 * r))"
	[ "$nw" = $((50 + 10 * r)) ] || fail "rank $r: $nw writes captured, fio issued $((50 + 10 * r))"
done
n=$(wc -l <"$T/dump")
[ "$n" = $((4 * 150 + 30 * 6)) ] || fail "$n I/Os in all, fio issued $((4 * 150 + 30 * 6))"
# on one clock: the merged records come in time order
awk 'NR > 1 && $1 < last { bad++ } { last = $1 } END { exit bad > 0 }' "$T/dump" ||
	fail "merged records are not in time order"
echo "ok: each rank's fio I/Os captured exactly on its own device; $n in all, none lost"
