#!/bin/bash
# tests/bench/capture.sh - the cost of `ioreel capture` beside its anchor,
# measured in the same run: fio at its top rate (4k random reads, io_uring,
# QD64) on a loop device over a file in /dev/shm, with no capture, with
# `ioreel capture`, with the capture's events alone (enabled and filtered in
# an instance that nothing reads: what the tracepoints cost, whoever reads
# them) and with `trace-cmd record` of the same events (or, when
# trace-cmd cannot run on this kernel, the same per-CPU raw-page recorder
# built on libtracefs: tests/bench/capture_rawrec.c).  Runs interleave, ROUNDS
# times; figures are medians and ranges (tests/bench/lib.sh).
# Env: CAPTURE_BENCH_SECS (default 10), CAPTURE_BENCH_ROUNDS (default 3),
#      CAPTURE_BENCH_BUFKB (per-CPU buffer, default 8192).
. "$TOP/tests/lib.sh"
. "$TOP/tests/bench/lib.sh"
need_root
command -v fio >/dev/null || skip "fio not installed"
[ -d /dev/shm ] || skip "no /dev/shm"
TRACEFS=/sys/kernel/tracing
[ -d $TRACEFS/instances ] || mount -t tracefs nodev $TRACEFS 2>/dev/null || skip "no tracefs"
SECS=${CAPTURE_BENCH_SECS:-10}
ROUNDS=${CAPTURE_BENCH_ROUNDS:-$REPEATS}
BUFKB=${CAPTURE_BENCH_BUFKB:-8192}
DUMP="$TOP/$BUILD/tests/unit/test_capture_rwbs"
RAWREC="$TOP/$BUILD/tests/bench/capture_rawrec"
PY=/usr/bin/python3
SHMF=$(mktemp /dev/shm/ioreel-bench-capture.XXXXXX)
bg_pids=""
# (at_exit takes one word: a function)
bench_cleanup() {
	for p in $bg_pids; do kill -TERM $p 2>/dev/null; wait $p 2>/dev/null; done
	for d in $TRACEFS/instances/ioreel-rawrec-* $TRACEFS/instances/ioreel-tc-$$ \
		$TRACEFS/instances/ioreel-bare-$$; do
		[ -d "$d" ] && { echo 0 >"$d/tracing_on"; echo 0 >"$d/events/enable"; rmdir "$d"; }
	done
	[ -n "${LOOP:-}" ] && losetup -d "$LOOP" 2>/dev/null
	rm -f "$SHMF"
	return 0
}
at_exit bench_cleanup
make_loop "$SHMF" 1024
ST=$(stat -c '%t %T' "$LOOP")
DEVT=$(( (0x${ST% *} << 20) | 0x${ST#* } ))
EVENTS="block_bio_queue block_bio_backmerge block_bio_frontmerge block_split block_bio_remap
	block_rq_remap block_getrq block_rq_issue block_rq_complete block_rq_requeue"
EVENTS=$(for e in $EVENTS; do [ -d $TRACEFS/events/block/$e ] && echo $e; done)

# rusage OUT CMD...: run CMD, pass SIGINT/SIGTERM on, write its CPU seconds
# (user + system, with its reaped children) to OUT, exit with its status.
cat >"$T/rusage.py" <<'EOF'
import os, signal, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
fwd = lambda s, f: os.kill(pid, s)
signal.signal(signal.SIGINT, fwd)
signal.signal(signal.SIGTERM, fwd)
_, st, ru = os.wait4(pid, 0)
open(sys.argv[1], "w").write("%.3f\n" % (ru.ru_utime + ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(st) & 0xff)
EOF

fio_run() { # -> "IOPS IOS"
	fio --name=bench --filename="$LOOP" --direct=1 --rw=randread --bs=4k --ioengine=io_uring \
		--iodepth=64 --runtime="$SECS" --time_based --size=1G --norandommap \
		--output-format=json 2>/dev/null |
		$PY -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]["read"]; print(int(j["iops"]), j["total_ios"])'
}

# trace-cmd writes /proc/sys/kernel/ftrace_enabled; where that is refused it
# cannot record at all, and the raw recorder stands in for it.
ANCHOR=trace-cmd
if ! command -v trace-cmd >/dev/null; then
	ANCHOR=rawrec; why="trace-cmd not installed"
elif ! (cat /proc/sys/kernel/ftrace_enabled >/proc/sys/kernel/ftrace_enabled) 2>/dev/null; then
	ANCHOR=rawrec; why="trace-cmd record cannot run here: writing /proc/sys/kernel/ftrace_enabled is refused (EPERM)"
fi
[ $ANCHOR = rawrec ] && [ ! -x "$RAWREC" ] && skip "$RAWREC missing (make bench builds it)"

ioreel_run() { # round -> sets i_iops i_ios i_cpu i_lost i_recs i_bytes
	rm -f "$T/c.reel"
	: >"$T/c.err" # emptied before the capture starts: its last "recording" line is gone
	$PY "$T/rusage.py" "$T/cpu" "$IOREEL" capture --buffer-kb "$BUFKB" -d "$LOOP" \
		-o "$T/c.reel" 2>"$T/c.err" &
	local p=$! cp=""
	bg_pids="$bg_pids $p"
	# the capture is rusage.py's child: wait until its instance records
	for _ in $(seq 100); do cp=$(pgrep -P $p) && break; sleep 0.02; done
	[ -n "$cp" ] && bench_capture_ready "$cp" "$T/c.err" || echo "   (capture not seen recording before fio started)"
	read -r i_iops i_ios < <(fio_run)
	kill -INT $p
	wait $p
	local rc=$?
	[ $rc = 0 ] || [ $rc = 3 ] || { cat "$T/c.err"; fail "ioreel capture exited $rc"; }
	i_cpu=$(cat "$T/cpu")
	"$DUMP" dump "$T/c.reel" | grep '^meta capture\.' >"$T/meta"
	i_lost=$(awk '$2 == "capture.lost_events" { print $3 }' "$T/meta")
	i_recs=$(awk '$2 == "capture.join.records" { print $3 }' "$T/meta")
	i_bytes=$(stat -c %s "$T/c.reel")
}
# bare_run -> e_iops: the capture's events, with its device filter, enabled in
# an instance of their own that nothing reads (overwrite on, so the kernel
# keeps writing every event): what the tracepoints cost fio, whoever reads
BARE=$TRACEFS/instances/ioreel-bare-$$
bare_run() {
	mkdir "$BARE" && echo 0 >"$BARE/tracing_on" || fail "cannot make $BARE"
	echo mono >"$BARE/trace_clock"
	echo "$BUFKB" >"$BARE/buffer_size_kb"
	echo 64 >"$BARE/buffer_subbuf_size_kb" 2>/dev/null # as the capture (kernel 6.8+)
	for e in $EVENTS; do
		case $e in *remap) echo "dev == $DEVT || old_dev == $DEVT" ;; *) echo "dev == $DEVT" ;; esac \
			>"$BARE/events/block/$e/filter"
		echo 1 >"$BARE/events/block/$e/enable"
	done
	echo 1 >"$BARE/tracing_on"
	read -r e_iops _ < <(fio_run)
	echo 0 >"$BARE/tracing_on"
	echo 0 >"$BARE/events/enable"
	rmdir "$BARE"
}
anchor_run() { # -> a_iops a_ios a_cpu a_lost a_bytes
	rm -f "$T"/a.dat*
	if [ $ANCHOR = rawrec ]; then
		$PY "$T/rusage.py" "$T/cpu" "$RAWREC" "$T/a.dat" "$BUFKB" "dev == $DEVT" $EVENTS \
			>"$T/a.out" 2>&1 &
	else
		local ev=""
		for e in $EVENTS; do ev="$ev -e block:$e -f dev==$DEVT"; done
		$PY "$T/rusage.py" "$T/cpu" trace-cmd record -q -B ioreel-tc-$$ -b "$BUFKB" $ev \
			-o "$T/a.dat" >"$T/a.out" 2>&1 &
	fi
	local p=$!
	bg_pids="$bg_pids $p"
	sleep 1
	read -r a_iops a_ios < <(fio_run)
	kill -INT $p
	wait $p || { rc=$?; cat "$T/a.out"; fail "$ANCHOR exited $rc"; }
	a_cpu=$(cat "$T/cpu")
	a_bytes=$(cat "$T"/a.dat* | wc -c)
	a_lost=$(awk '$1 == "bytes" { print $4 }' "$T/a.out")
	: "${a_lost:=n/a}"
}

echo "   fio 4k randread io_uring QD64 on $LOOP (1 GiB file in /dev/shm), ${SECS} s, $ROUNDS rounds; anchor: $ANCHOR${why:+ ($why; anchor = the raw per-CPU page recorder trace-cmd record uses, on libtracefs)}"
round() {
	local r=$1
	read -r b_iops b_ios < <(fio_run)
	ioreel_run
	bare_run
	anchor_run
	echo "   round $r: no capture $b_iops IOPS; events alone $e_iops IOPS; ioreel $i_iops IOPS, $i_recs records, ${i_cpu}s CPU, $i_bytes B, lost $i_lost; $ANCHOR $a_iops IOPS, ${a_cpu}s CPU, $a_bytes B, lost $a_lost"
	bench_put none iops "$b_iops"
	bench_put ioreel iops "$i_iops"
	bench_put anchor iops "$a_iops"
	bench_put bare iops "$e_iops"
	bench_put ioreel rel "$(calc "$i_iops / $b_iops")"
	bench_put anchor rel "$(calc "$a_iops / $b_iops")"
	bench_put ioreel lost "$i_lost"
	[ "$a_lost" = n/a ] || bench_put anchor lost "$a_lost"
	bench_put ioreel cpu "$(calc "$i_cpu / $i_ios * 1e5")"
	bench_put anchor cpu "$(calc "$a_cpu / $a_ios * 1e5")"
	bench_put ioreel bpi "$(calc "$i_bytes / ($i_recs > 0 ? $i_recs : 1)")"
	bench_put anchor bpi "$(calc "$a_bytes / ($a_ios > 0 ? $a_ios : 1)")"
	bench_put ioreel cover "$(calc "$i_recs / $i_ios")"
}
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }
REPEATS=$ROUNDS bench_interleave round
bench_row "capture: fio IOPS while capturing" ioreel iops none iops "" "no capture"
bench_row "capture: fio IOPS while capturing ($ANCHOR)" anchor iops none iops "" "no capture"
bench_row "capture: fio rate while capturing, x no capture" ioreel rel anchor rel "" "$ANCHOR"
bench_row "capture: fio IOPS with the events alone (enabled, filtered, nothing reading)" \
	bare iops none iops "" "no capture"
bench_row "capture: fio IOPS while capturing, against the events alone" ioreel iops bare iops "" \
	"events alone"
bench_row "capture: events lost" ioreel lost anchor lost "" "$ANCHOR"
bench_row "capture: CPU s per 100k I/Os" ioreel cpu anchor cpu "" "$ANCHOR"
bench_row "capture: bytes per I/O" ioreel bpi anchor bpi lower "$ANCHOR"
bench_fig "capture: I/Os recorded / fio I/Os" ioreel cover
li=$(awk '{ s += $1 } END { print s + 0 }' "$BENCH_T/ioreel.lost")
di=$(calc "1 - $(bench_med ioreel rel)") da=$(calc "1 - $(bench_med anchor rel)")
bi=$(bench_med ioreel bpi) ba=$(bench_med anchor bpi)
ok() { if awk "BEGIN { exit !($1) }"; then echo met; else echo MISSED; fi; }
de=$(calc "1 - $(bench_med bare iops) / $(bench_med none iops)")
echo "   targets (medians): no event lost [$(ok "$li == 0")]; slowdown <= 10% [$(ok "$di <= 0.10")]" \
	"(the events alone: $(awk "BEGIN { printf \"%.0f\", 100 * $de }")%);" \
	"slowdown below $ANCHOR's [$(ok "$di < $da")]; file >= 10x smaller [$(ok "$ba >= 10 * $bi")]"
