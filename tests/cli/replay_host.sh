#!/bin/bash
# What the replay takes from the host, on a loop device, as behaviour (no
# timing bounds): --cpu pins the issuing thread (and refuses a CPU the
# process may not use); --hipri on a device that cannot poll is refused
# before anything is done, naming the device and what to do; I/Os longer
# than the device's max_sectors_kb, and buffers the kernel did not give
# huge pages, are announced once on stderr.
. "$TOP/tests/lib.sh"
need_root
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
make_loop "$T/disk.img" 64
dev=$(basename "$LOOP")
"$TOOL" gen "$T/t.reel" n=2000 iops=2000 rw=read bs=4096 span=33554432 lat=50000 || fail gen

# --hipri on a loop device (no poll queues): refused early and clearly
poll=$(cat "/sys/class/block/$dev/queue/io_poll" 2>/dev/null || echo 0)
if [ "$poll" = 1 ]; then
	"$IOREEL" replay "$T/t.reel" --target "$LOOP" --read-only --engine io_uring --hipri \
		--timing afap -o "$T/h.reel" >/dev/null 2>"$T/err" || { cat "$T/err"; fail "--hipri on a polling $dev"; }
	echo "--hipri: $dev polls here, replayed"
else
	if "$IOREEL" replay "$T/t.reel" --target "$LOOP" --read-only --engine io_uring --hipri \
		--timing afap -o "$T/h.reel" >"$T/out" 2>"$T/err"; then
		fail "--hipri on $dev (io_poll 0) was accepted"
	fi
	cat "$T/err"
	grep -q -- "--hipri: $LOOP does not support polled I/O" "$T/err" || fail "--hipri refusal does not name $LOOP"
	grep -q "drop --hipri" "$T/err" || fail "--hipri refusal does not say what to do"
	[ ! -e "$T/h.reel" ] || fail "--hipri refused but left a result"
	grep -q "max_sectors_kb\|preconditioning" "$T/err" && fail "--hipri refused only after the setup"
fi

# --cpu N: the issuing thread runs on N only while it replays
ncpu=$(nproc)
last=$((ncpu - 1))
"$IOREEL" replay "$T/t.reel" --target "$LOOP" --read-only --cpu "$last" --no-rt \
	-o "$T/c.reel" >"$T/out" 2>"$T/err" &
pid=$!
seen=""
while kill -0 "$pid" 2>/dev/null; do
	a=$(awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	[ "$a" = "$last" ] && seen=1
	sleep 0.05
done
wait "$pid" || { cat "$T/err"; fail "--cpu $last replay"; }
[ "$ncpu" = 1 ] || [ -n "$seen" ] || fail "--cpu $last: the replay never ran pinned to CPU $last"
echo "--cpu $last: pinned while replaying"
if [ "$ncpu" -gt 1 ]; then
	taskset -c 0 "$IOREEL" replay "$T/t.reel" --target "$LOOP" --read-only --cpu 1 \
		-o "$T/c2.reel" >"$T/out" 2>"$T/err" && fail "--cpu 1 accepted where only CPU 0 is allowed"
	grep -q -- "--cpu 1: this process may not run there; it may use CPU 0" "$T/err" ||
		{ cat "$T/err"; fail "--cpu refusal unclear"; }
fi

# I/Os longer than max_sectors_kb: said once, naming the device and the limit
kb=$(cat "/sys/class/block/$dev/queue/max_sectors_kb")
bs=$(((kb + 1024) / 1024 * 1048576 * 2))
"$TOOL" gen "$T/b.reel" n=40 iops=1000 rw=read bs=$bs span=33554432 lat=50000 || fail "gen big"
"$IOREEL" replay "$T/b.reel" --target "$LOOP" --read-only --timing afap >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "replay of $bs-byte reads"; }
n=$(grep -c "max_sectors_kb ($kb)" "$T/err")
[ "$n" = 1 ] || { cat "$T/err"; fail "longer than max_sectors_kb $kb: said $n times, not once"; }
grep "max_sectors_kb" "$T/err" | grep -q "$dev: the trace has I/Os of up to $((bs / 1024)) KiB" ||
	{ cat "$T/err"; fail "max_sectors_kb notice unclear"; }
# buffers without huge pages (transparent huge pages disabled for the
# process: prctl PR_SET_THP_DISABLE, inherited through exec): said too
if [ "$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)" = 0 ]; then
	python3 -c 'import ctypes, os, sys
if ctypes.CDLL(None).prctl(41, 1, 0, 0, 0): sys.exit("prctl(PR_SET_THP_DISABLE) failed")
os.execv(sys.argv[1], sys.argv[1:])' "$IOREEL" replay "$T/b.reel" --target "$LOOP" --read-only \
		--timing afap >/dev/null 2>"$T/err" || { cat "$T/err"; fail "replay without huge pages"; }
	segs=$(cat "/sys/class/block/$dev/queue/max_segments")
	grep -q "$dev: the I/O buffers are not in huge pages here, so I/Os longer than $((segs * 4)) KiB" \
		"$T/err" || { cat "$T/err"; fail "buffers without huge pages not announced"; }
fi
"$IOREEL" replay "$T/t.reel" --target "$LOOP" --read-only --timing afap >/dev/null 2>"$T/err" ||
	fail "replay of 4 KiB reads"
grep -q "max_sectors_kb" "$T/err" && fail "4 KiB reads announced as longer than max_sectors_kb"
echo "ok"
