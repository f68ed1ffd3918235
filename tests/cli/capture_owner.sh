#!/bin/bash
# Issue 11 item 4: one capture never blinds another.  An instance belongs
# to the capture holding its lock (/run/ioreel/<instance>.lock), whatever
# the binary is called: a capture started through a symbolic link ("rec")
# records every I/O while a second capture starts (and cleans up stale
# instances) beside it, and says nothing was lost.  A capture whose own
# instance another program changes (tracing_on turned off, an event
# disabled) notices, puts it back and reports the loss (exit 3,
# capture.disturbed in the trace).
. "$TOP/tests/cli/capture.lib"
make_loop "$T/disk" 64
ln -s "$IOREEL" "$T/rec"
cp "$IOREEL" "$T/renamed-copy"
reads() { # N: N direct 4 KiB reads from the loop device
	dd if="$LOOP" of=/dev/null bs=4k count="$1" iflag=direct status=none || fail "dd"
}
# bg_capture NAME BINARY ARGS...: starts a capture, waits until it traces; sets PID_NAME
bg_capture() {
	local name=$1 bin=$2
	shift 2
	"$bin" capture "$@" 2>"$T/$name.err" &
	local pid=$!
	_cap_pids="$_cap_pids $pid"
	eval "PID_$name=$pid"
	for _ in $(seq 100); do
		[ "$(cat $TRACEFS/instances/ioreel-$pid/tracing_on 2>/dev/null)" = 1 ] && return 0
		kill -0 $pid 2>/dev/null || { cat "$T/$name.err" >&2; fail "$name exited early"; }
		sleep 0.05
	done
	fail "$name did not start tracing within 5 s"
}
count_reads() { # FILE: 4 KiB reads recorded
	"$DUMP" dump "$1" >"$T/dump" || fail "$1 unreadable"
	grep -c '^read .* 4096' "$T/dump"
}

for order in "symlink-first" "copy-second"; do
	if [ $order = symlink-first ]; then first=$T/rec second=$IOREEL; else first=$IOREEL second=$T/renamed-copy; fi
	rm -f "$T/one.reel" "$T/two.reel"
	bg_capture one "$first" -d "$LOOP" -o "$T/one.reel"
	# the second capture's start removes stale instances: not the first's
	bg_capture two "$second" -d "$LOOP" -o "$T/two.reel" --duration 3
	reads 1000
	wait $PID_two || { cat "$T/two.err"; fail "$order: second capture failed"; }
	kill -INT $PID_one
	wait $PID_one
	rc=$?
	[ $rc = 0 ] || { cat "$T/one.err"; fail "$order: first capture exited $rc"; }
	n=$(count_reads "$T/one.reel")
	[ "$n" -ge 1000 ] || { cat "$T/one.err"; fail "$order: the first capture recorded $n of 1000 reads"; }
	grep -q 'no events lost' "$T/one.err" || { cat "$T/one.err"; fail "$order: first capture did not say 'no events lost'"; }
	grep -q 'DISTURBED' "$T/one.err" && { cat "$T/one.err"; fail "$order: first capture reported a disturbance"; }
	m=$(count_reads "$T/two.reel")
	[ "$m" -ge 1000 ] || fail "$order: the second capture recorded $m of 1000 reads"
	no_instance_left $PID_one
	no_instance_left $PID_two
	[ -e /run/ioreel/ioreel-$PID_one.lock ] && fail "$order: lock file left behind"
	echo "$order: both captures recorded the 1000 reads ($n, $m), nothing disturbed"
done

# Disturbed on purpose: tracing turned off, an event disabled
bg_capture three "$IOREEL" -d "$LOOP" -o "$T/three.reel"
inst=$TRACEFS/instances/ioreel-$PID_three
echo 0 >"$inst/tracing_on"
echo 0 >"$inst/events/block/block_rq_complete/enable"
sleep 1.5 # the watch runs each second
[ "$(cat "$inst/tracing_on")" = 1 ] || fail "tracing not put back on"
[ "$(cat "$inst/events/block/block_rq_complete/enable")" = 1 ] || fail "event not re-enabled"
reads 200
kill -INT $PID_three
wait $PID_three
rc=$?
[ $rc = 3 ] || { cat "$T/three.err"; fail "a disturbed capture exited $rc, not 3"; }
grep -q 'INSTANCE DISTURBED.*tracing was turned off.*event block_rq_complete was disabled' "$T/three.err" ||
	{ cat "$T/three.err"; fail "the disturbance not described"; }
grep -q 'no events lost' "$T/three.err" && fail "a disturbed capture said 'no events lost'"
n=$(count_reads "$T/three.reel")
grep -q '^meta capture.disturbed .*tracing was turned off' "$T/dump" || fail "capture.disturbed not in the trace"
[ "$n" -ge 200 ] || fail "after the repair: $n of 200 reads"
echo "disturbed capture: exit 3, described, put back ($n reads after)"
