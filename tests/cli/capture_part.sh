#!/bin/bash
# Partitions: fio writes and reads a known set of 4k blocks on a partition
# (added with addpart: this kernel may lack partition-table parsers).  Two
# captures run at once in their own instances: one of the partition (offsets
# must equal fio's iolog) and one of the whole disk (fio's offsets plus the
# partition start, from /sys/class/block/P/start).
. "$TOP/tests/cli/capture.lib"
command -v fio >/dev/null || skip "fio not installed"
command -v addpart >/dev/null || skip "addpart (util-linux) not installed"
make_loop "$T/disk" 64
# the partition outlives the loop device's detach unless deleted: delete it
# (at exit, before lib.sh detaches the device)
# (number 5: a partition 1 left on a loop device by an earlier user of it
# would collide)
PN=5
part_cleanup() { delpart "$LOOP" $PN 2>/dev/null; return 0; }
at_exit part_cleanup
addpart "$LOOP" $PN 2048 65536 2>"$T/addpart.err" ||
	skip "cannot add a partition to $LOOP: $(cat "$T/addpart.err")"
P=${LOOP}p$PN
for _ in $(seq 50); do [ -b "$P" ] && break; sleep 0.1; done
[ -b "$P" ] || skip "$P did not appear"
start=$(cat /sys/class/block/$(basename $P)/start)
[ "$start" = 2048 ] || fail "partition start $start, expected 2048"
start_capture -d "$P" -o "$T/part.reel"
CAP1=$CAP
start_capture -d "$LOOP" -o "$T/disk.reel"
CAP2=$CAP
N=300
fio --name=p --filename="$P" --direct=1 --rw=randrw --bs=4k --size=32M --number_ios=$N \
	--ioengine=psync --randrepeat=0 --write_iolog="$T/iolog" >"$T/fio.out" 2>&1 ||
	{ cat "$T/fio.out"; fail "fio"; }
kill -INT $CAP1 $CAP2
CAP=$CAP1 wait_capture; rc1=$CAPRC
CAP=$CAP2 wait_capture; rc2=$CAPRC
[ $rc1 = 0 ] && [ $rc2 = 0 ] || fail "captures exited $rc1 / $rc2"
no_instance_left $CAP1
no_instance_left $CAP2
awk '$3 == "read" || $3 == "write" { print $3, $4 }' "$T/iolog" | sort >"$T/fio"
[ "$(wc -l <"$T/fio")" = $N ] || fail "fio's iolog has $(wc -l <"$T/fio") I/Os"
"$DUMP" dump "$T/part.reel" | awk '$1 == "read" || $1 == "write" { print $1, $2 }' | sort >"$T/part"
"$DUMP" dump "$T/disk.reel" | awk -v s=$((start * 512)) \
	'$1 == "read" || $1 == "write" { print $1, $2 - s }' | sort >"$T/disk"
cmp -s "$T/fio" "$T/part" || { diff "$T/fio" "$T/part" | head; fail "partition capture differs from fio"; }
cmp -s "$T/fio" "$T/disk" || { diff "$T/fio" "$T/disk" | head; fail "disk capture differs from fio + start"; }
"$DUMP" dump "$T/part.reel" | grep -q "^device 0 $(basename $P) 259:" || fail "partition device metadata"
echo "ok: $N I/Os in partition space and in disk space (start $start)"
