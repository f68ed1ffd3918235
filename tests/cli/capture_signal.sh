#!/bin/bash
# Ctrl-C (SIGINT) mid-capture leaves a complete, valid file and no tracing
# instance; kill -9 leaves the recording under its temporary name
# (.NAME.ioreel-PID-N: nothing half-written under the final name), readable
# up to its last flushed chunk (flushed every second), and a stale instance
# that the next capture removes, naming where that recording is.
. "$TOP/tests/cli/capture.lib"
command -v fio >/dev/null || skip "fio not installed"
make_loop "$T/disk" 64
load() { # SECONDS: direct random reads on the loop device
	fio --name=load --filename="$LOOP" --direct=1 --rw=randread --bs=4k --size=64M \
		--ioengine=psync --time_based --runtime="$1" >/dev/null 2>&1 || fail "fio"
}

# 1. SIGINT while I/O is running
start_capture -d "$LOOP" -o "$T/int.reel"
fio --name=pre --filename="$LOOP" --direct=1 --rw=randread --bs=4k --size=64M \
	--ioengine=psync --number_ios=300 >/dev/null 2>&1 || fail "fio"
load 2 &
fiopid=$!
sleep 0.5
kill -INT $CAP
wait_capture
wait $fiopid
[ $CAPRC = 0 ] || { cat "$T/capture.err"; fail "SIGINT: capture exited $CAPRC"; }
no_instance_left $CAP
"$DUMP" dump "$T/int.reel" >"$T/dump" || fail "SIGINT: unreadable file"
grep -q '^complete 1$' "$T/dump" || fail "SIGINT: file has no trailer"
grep -q '^meta capture.interrupted 1$' "$T/dump" || fail "SIGINT: not marked interrupted"
n=$(grep -c '^read ' "$T/dump")
[ "$n" -ge 300 ] || fail "SIGINT: only $n reads captured"
echo "SIGINT: $n reads, file complete"

# 2. kill -9: the recording stays readable up to the last flushed chunk
kill9() {
	start_capture -d "$LOOP" -o "$T/kill.reel"
	tmp=$(sed -n 's/^ioreel capture: written as \(.*\) until the capture ends$/\1/p' "$T/capture.err")
	case "$tmp" in "$T"/.kill.reel.ioreel-$CAP-*) ;; *) cat "$T/capture.err"; fail "kill -9: temporary name '$tmp'";; esac
	load 1.5
	# wait (bounded) until a flushed chunk holds the reads: the machine may be slow
	for i in $(seq 40); do
		"$DUMP" dump "$tmp" >"$T/dump" 2>/dev/null && [ "$(grep -c '^read ' "$T/dump")" -gt 100 ] && break
		sleep 0.5
	done
	kill -9 $CAP
	wait "$CAP" 2>/dev/null
	[ -d $TRACEFS/instances/ioreel-$CAP ] || fail "kill -9: expected the instance to survive"
	[ -e "$T/kill.reel" ] && fail "kill -9: a file under the final name"
	"$DUMP" dump "$tmp" >"$T/dump" || fail "kill -9: unreadable file"
	grep -q '^complete 0$' "$T/dump" || fail "kill -9: file claims a trailer"
	n=$(grep -c '^read ' "$T/dump")
	[ "$n" -gt 100 ] || fail "kill -9: only $n reads readable"
	echo "kill -9: $n reads readable without a trailer"
}

# 3. the next capture removes the stale instance.  Any capture on this host
# removes stale instances: when another one (another checkout's make check)
# got there first, the instance is gone and ours reports nothing; then
# kill -9 is done again (3 tries) so that ours is seen doing it.
for try in 1 2 3; do
	kill9
	"$IOREEL" capture -d "$LOOP" -o "$T/next.reel" --duration 0.2 2>"$T/next.err" ||
		{ cat "$T/next.err"; fail "capture after kill -9"; }
	grep -q 'removed [0-9]* stale' "$T/next.err" && break
	[ -d $TRACEFS/instances/ioreel-$CAP ] || [ $try = 3 ] ||
		{ echo "stale instance ioreel-$CAP removed by another capture on this host: again"; continue; }
	cat "$T/next.err"; fail "no stale instance removal reported"
done
grep -qF "ioreel-$CAP (its recording, readable up to its last second: $tmp)" "$T/next.err" ||
	{ cat "$T/next.err"; fail "the stale instance's recording not named"; }
[ -e /run/ioreel/ioreel-$CAP.lock ] && fail "the stale instance's lock file left behind"
no_instance_left $CAP
echo "stale instance ioreel-$CAP removed"
