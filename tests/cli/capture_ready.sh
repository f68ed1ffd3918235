#!/bin/bash
# I/O issued as soon as the capture says it is recording is recorded, and so
# is I/O done just before it is stopped.  "ioreel capture: recording" is the
# capture's word that tracing runs with every event enabled and the reader
# started; the instance's tracing_on is not (an instance is born with tracing
# on, before its capture turns it off to set it up: a bench that waited for
# it lost the start of a round trip).  A start race shows only sometimes, so
# the check is repeated; it is not timed: the reads follow the line at once
# and the stop follows the reads, whatever the machine's speed.
. "$TOP/tests/cli/capture.lib"
RUNS=10 N=16
make_loop "$T/disk" 16
for run in $(seq $RUNS); do
	start_capture -d "$LOOP" -o "$T/r$run.reel"
	for k in $(seq 0 $((N - 1))); do
		dd if="$LOOP" of=/dev/null bs=4k count=1 skip=$((k * 3)) iflag=direct status=none ||
			fail "run $run: dd read $k failed"
	done
	kill -INT $CAP
	wait_capture
	[ $CAPRC = 0 ] || { cat "$T/capture.err"; fail "run $run: capture exited $CAPRC"; }
	# dump: queue issue complete dev op flags offset length pid comm cpu error
	"$IOREEL" dump "$T/r$run.reel" | awk '$10 == "dd" && $5 == "read" { print $7 }' |
		sort -n >"$T/got" || fail "run $run: cannot read the capture"
	for k in $(seq 0 $((N - 1))); do echo $((k * 3 * 4096)); done >"$T/want"
	cmp -s "$T/got" "$T/want" ||
		fail "run $run: $(wc -l <"$T/got") of dd's $N reads recorded" \
			"(missing offsets: $(comm -13 "$T/got" "$T/want" | tr '\n' ' '))"
	no_instance_left $CAP
done
echo "ok: $RUNS captures each recorded all $N reads issued from the moment it said it was recording"
