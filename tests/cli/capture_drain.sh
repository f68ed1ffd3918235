#!/bin/bash
# The final drain: a capture stopped right after a burst of I/O (SIGINT as
# soon as the last read returned) hands out every event still in the ring
# buffers: the full sub-buffers (spliced) and the partial one the kernel was
# still filling (read at the end), on every CPU.
. "$TOP/tests/cli/capture.lib"
make_loop "$T/disk" 16
for n in 1 7 300 1000 1; do
	start_capture -d "$LOOP" -o "$T/drain.reel"
	dd if="$LOOP" of=/dev/null bs=4k count=$n iflag=direct status=none || fail "dd"
	kill -INT $CAP
	wait_capture
	[ $CAPRC = 0 ] || { cat "$T/capture.err"; fail "$n reads: capture exited $CAPRC"; }
	"$DUMP" dump "$T/drain.reel" >"$T/dump" || fail "$n reads: unreadable file"
	got=$(grep -c '^read .* 4096' "$T/dump")
	[ "$got" = $n ] || { cat "$T/capture.err"; fail "stopped right after $n reads: $got recorded"; }
	grep -q 'no events lost' "$T/capture.err" || { cat "$T/capture.err"; fail "$n reads: events lost"; }
	rm -f "$T/drain.reel"
done
echo "stopped right after 1, 7, 300 and 1000 reads: every read recorded"
