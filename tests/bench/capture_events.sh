#!/bin/bash
# tests/bench/capture_events.sh - what one traced event costs the program
# that fires it, under the settings the capture could choose: a proxy event
# (raw_syscalls:sys_enter, 64 bytes like block_rq_issue, fired by getppid()
# in a loop: tests/bench/capture_evcost.c) recorded in a private instance on
# the mono clock.  Measured as the thread's CPU time per call, so the
# machine's other load changes it little; the anchor is the same loop with
# no event.  Each setting against the capture's (filter "id == getppid", 8 MiB,
# 64 KiB sub-buffers): with no filter, with a filter that matches nothing of
# the loop's, with a 1 MiB or a 64 MiB buffer, with 4 KiB sub-buffers.
# A block I/O fires 4 events (Q, G, D, C) when nothing merges or splits.
# Env: CAPTURE_EVENTS_N (calls per run, default 2000000).
. "$TOP/tests/lib.sh"
. "$TOP/tests/bench/lib.sh"
need_root
TRACEFS=/sys/kernel/tracing
[ -d $TRACEFS/instances ] || mount -t tracefs nodev $TRACEFS 2>/dev/null || skip "no tracefs"
[ -d $TRACEFS/events/raw_syscalls/sys_enter ] || skip "no raw_syscalls:sys_enter event"
EV="$TOP/$BUILD/tests/bench/capture_evcost"
[ -x "$EV" ] || skip "$EV missing (make bench builds it)"
N=${CAPTURE_EVENTS_N:-2000000}
NR=$("$EV" --nr)
INST=$TRACEFS/instances/ioreel-evcost-$$
ev_cleanup() {
	[ -d "$INST" ] && { echo 0 >"$INST/tracing_on"; echo 0 >"$INST/events/enable"; rmdir "$INST"; }
	return 0
}
at_exit ev_cleanup
# one TAG [KEY=VALUE...]: a run with the event set up so (filter=capture|none|other,
# kb=N, sb=N); TAG none: no event at all
one() {
	local tag=$1 filter=capture kb=8192 sb=64 kv
	shift
	for kv in "$@"; do local "$kv"; done
	if [ "$tag" != none ]; then
		mkdir "$INST" && echo 0 >"$INST/tracing_on" || fail "cannot make $INST"
		echo mono >"$INST/trace_clock"
		echo "$kb" >"$INST/buffer_size_kb"
		echo "$sb" >"$INST/buffer_subbuf_size_kb" 2>/dev/null
		case $filter in
		capture) echo "id == $NR" >"$INST/events/raw_syscalls/sys_enter/filter" ;;
		other) echo "id == 99999" >"$INST/events/raw_syscalls/sys_enter/filter" ;;
		esac
		echo 1 >"$INST/events/raw_syscalls/sys_enter/enable"
		echo 1 >"$INST/tracing_on"
	fi
	bench_put "$tag" ns "$("$EV" "$N" 0)"
	[ "$tag" = none ] || ev_cleanup
}
round() {
	one none
	one capture
	one nofilter filter=none
	one othdev filter=other
	one buf1m kb=1024
	one buf64m kb=65536
	one sub4k sb=4
}
echo "   ns per getppid() on CPU 0, $N calls, thread CPU time; event raw_syscalls:sys_enter in a private instance (overwrite on, nothing reading)"
bench_interleave round
bench_row "event set up as the capture's (filter matching, 8 MiB, 64 KiB sub-buffers)" capture ns none ns lower "no event"
bench_row "  no filter" nofilter ns capture ns lower "as the capture's"
bench_row "  a filter matching nothing of the loop's (another device's I/O)" othdev ns capture ns lower "as the capture's"
bench_row "  1 MiB buffer per CPU" buf1m ns capture ns lower "as the capture's"
bench_row "  64 MiB buffer per CPU" buf64m ns capture ns lower "as the capture's"
bench_row "  4 KiB sub-buffers" sub4k ns capture ns lower "as the capture's"
echo "   per event (capture's settings minus no event): $(awk "BEGIN { printf \"%.0f\", $(bench_med capture ns) - $(bench_med none ns) }") ns"
