#!/bin/bash
# fio issues a known number of direct 4k random reads, then writes, on a loop
# device; the capture must hold exactly those I/Os: same count, op, size, and
# the offsets fio's own write_iolog recorded.
. "$TOP/tests/cli/capture.lib"
command -v fio >/dev/null || skip "fio not installed"
N=500
make_loop "$T/disk" 64
start_capture -d "$LOOP" -o "$T/fio.reel"
for rw in randread randwrite; do
	fio --name=cap --filename="$LOOP" --direct=1 --rw=$rw --bs=4k --size=64M \
		--number_ios=$N --ioengine=psync --iodepth=1 --randrepeat=0 \
		--write_iolog="$T/$rw.iolog" >"$T/fio.out" 2>&1 || { cat "$T/fio.out"; fail "fio $rw"; }
done
kill -INT $CAP
wait_capture
cat "$T/capture.err"
[ $CAPRC = 0 ] || fail "capture exited $CAPRC"
no_instance_left $CAP
"$DUMP" dump "$T/fio.reel" >"$T/dump" || fail "cannot read the capture"
grep -q '^complete 1$' "$T/dump" || fail "capture file has no trailer"
grep -q '^meta capture.lost_events 0$' "$T/dump" || fail "lost events"
grep -q '^meta capture.interrupted 1$' "$T/dump" || fail "capture.interrupted not recorded"
grep -q "^meta capture.join.no_issue 0$" "$T/dump" || fail "I/Os without issue"
grep -q "^meta capture.join.no_complete 0$" "$T/dump" || fail "I/Os without completion"
grep -q "^device 0 $(basename $LOOP) 7:" "$T/dump" || fail "device metadata missing"
# records: op offset length has queue issue complete dev pid error comm
for op in read write; do
	rw=rand$op
	n=$(grep -c "^$op " "$T/dump")
	[ "$n" = $N ] || fail "$n ${op}s captured, fio issued $N"
	awk -v op=$op '$1 == op && $3 != 4096 { bad++ } END { exit bad > 0 }' "$T/dump" ||
		fail "a $op is not 4096 bytes"
	# queue <= issue <= complete, all three present (has bits 1|2|4)
	awk -v op=$op '$1 == op && (int($4 / 1) % 8 != 7 || $5 > $6 || $6 > $7) { bad++ }
		END { exit bad > 0 }' "$T/dump" || fail "a $op lacks ordered queue/issue/complete times"
	awk -v op=$op '$1 == op { print $2 }' "$T/dump" | sort -n >"$T/cap.$op"
	# fio iolog v3: "TIME FILE read|write OFFSET LENGTH"
	awk -v op=$op '$3 == op { print $4 }' "$T/$rw.iolog" | sort -n >"$T/fio.$op"
	[ "$(wc -l <"$T/fio.$op")" = $N ] || fail "fio's iolog has $(wc -l <"$T/fio.$op") ${op}s"
	cmp -s "$T/cap.$op" "$T/fio.$op" || { diff "$T/cap.$op" "$T/fio.$op" | head; fail "$op offsets differ from fio's iolog"; }
	# and in the same order
	awk -v op=$op '$1 == op { print $2 }' "$T/dump" >"$T/cap.order.$op"
	awk -v op=$op '$3 == op { print $4 }' "$T/$rw.iolog" >"$T/fio.order.$op"
	cmp -s "$T/cap.order.$op" "$T/fio.order.$op" || fail "$op order differs from fio's iolog"
done
echo "ok: $N reads and $N writes match fio's iolog"
