#!/bin/bash
# Issue 11 item 4: one capture never blinds another.  An instance belongs
# to the capture holding its lock (/run/ioreel/<instance>.lock), whatever
# the binary is called: a capture started through a symbolic link ("rec")
# records every I/O while a second capture starts (and cleans up stale
# instances), records and stops beside it, and says nothing was lost.  A capture whose own
# instance another program changes (tracing_on turned off, an event
# disabled) notices, puts it back and reports the loss (exit 3,
# capture.disturbed in the trace).  For older ioreel, which judged by the
# process name, a capture started under another name names itself
# "ioreel-NAME".
. "$TOP/tests/cli/capture.lib"
make_loop "$T/disk" 64
ln -s "$IOREEL" "$T/rec"
cp "$IOREEL" "$T/renamed-copy"
reads() { # N: N direct 4 KiB reads from the loop device
	dd if="$LOOP" of=/dev/null bs=4k count="$1" iflag=direct status=none || fail "dd"
}
# bg_capture NAME BINARY ARGS...: starts a capture, waits until it records; sets PID_NAME
bg_capture() {
	local name=$1 bin=$2
	shift 2
	: >"$T/$name.err" # emptied here: not when the capture opens it, later
	"$bin" capture "$@" 2>"$T/$name.err" &
	local pid=$!
	_cap_pids="$_cap_pids $pid"
	eval "PID_$name=$pid"
	wait_recording $pid "$T/$name.err" "$name"
}
count_reads() { # FILE: 4 KiB reads recorded
	"$DUMP" dump "$1" >"$T/dump" || fail "$1 unreadable"
	grep -c '^read .* 4096' "$T/dump"
}

# stop NAME: stops capture NAME with SIGINT, sets RC to its exit status
stop() {
	eval "local pid=\$PID_$1"
	kill -INT $pid
	wait $pid
	RC=$?
}
for order in "symlink-first" "copy-second"; do
	if [ $order = symlink-first ]; then first=$T/rec second=$IOREEL; else first=$IOREEL second=$T/renamed-copy; fi
	rm -f "$T/one.reel" "$T/two.reel"
	bg_capture one "$first" -d "$LOOP" -o "$T/one.reel"
	# the second capture's start removes stale instances: not the first's
	bg_capture two "$second" -d "$LOOP" -o "$T/two.reel"
	# an older ioreel beside it judges by the process name: it must read "ioreel..."
	for p in $PID_one $PID_two; do
		case $(cat /proc/$p/comm) in ioreel*) ;; *) fail "$order: capture $p named $(cat /proc/$p/comm)" ;; esac
	done
	# both record; the second stops (its instance removed), the first goes on.
	# Stopped by the test, not by a --duration: under load 1000 reads can
	# take longer than any fixed duration.
	reads 1000
	stop two
	[ $RC = 0 ] || { cat "$T/two.err"; fail "$order: second capture exited $RC"; }
	reads 100
	stop one
	[ $RC = 0 ] || { cat "$T/one.err"; fail "$order: first capture exited $RC"; }
	n=$(count_reads "$T/one.reel")
	[ "$n" -ge 1100 ] || { cat "$T/one.err"; fail "$order: the first capture recorded $n of 1100 reads"; }
	grep -q 'no events lost' "$T/one.err" || { cat "$T/one.err"; fail "$order: first capture did not say 'no events lost'"; }
	grep -q 'DISTURBED' "$T/one.err" && { cat "$T/one.err"; fail "$order: first capture reported a disturbance"; }
	m=$(count_reads "$T/two.reel")
	[ "$m" -ge 1000 ] || { cat "$T/two.err"; fail "$order: the second capture recorded $m of 1000 reads"; }
	grep -q 'no events lost' "$T/two.err" || { cat "$T/two.err"; fail "$order: second capture did not say 'no events lost'"; }
	no_instance_left $PID_one
	no_instance_left $PID_two
	[ -e /run/ioreel/ioreel-$PID_one.lock ] && fail "$order: lock file left behind"
	echo "$order: the first capture recorded all 1100 reads ($n), the second its 1000 ($m), nothing disturbed"
done

# Disturbed on purpose: tracing turned off, an event disabled
bg_capture three "$IOREEL" -d "$LOOP" -o "$T/three.reel"
inst=$TRACEFS/instances/ioreel-$PID_three
echo 0 >"$inst/tracing_on"
echo 0 >"$inst/events/block/block_rq_complete/enable"
# the watch looks at tracing_on at each poll, at the events each second;
# under load the capture may wait its turn for the CPU: up to 10 s
for _ in $(seq 100); do
	[ "$(cat "$inst/tracing_on")$(cat "$inst/events/block/block_rq_complete/enable")" = 11 ] && break
	sleep 0.1
done
[ "$(cat "$inst/tracing_on")" = 1 ] || fail "tracing not put back on"
[ "$(cat "$inst/events/block/block_rq_complete/enable")" = 1 ] || fail "event not re-enabled"
reads 200
stop three
[ $RC = 3 ] || { cat "$T/three.err"; fail "a disturbed capture exited $RC, not 3"; }
# both described, in the order the watch found them (a check running
# between the two writes sees the event disabled first)
for what in 'tracing was turned off' 'event block_rq_complete was disabled'; do
	grep -q "INSTANCE DISTURBED.*$what" "$T/three.err" ||
		{ cat "$T/three.err"; fail "the disturbance not described: $what"; }
done
grep -q 'no events lost' "$T/three.err" && fail "a disturbed capture said 'no events lost'"
n=$(count_reads "$T/three.reel")
grep -q '^meta capture.disturbed .*tracing was turned off' "$T/dump" || fail "capture.disturbed not in the trace"
[ "$n" -ge 200 ] || fail "after the repair: $n of 200 reads"
echo "disturbed capture: exit 3, described, put back ($n reads after)"
