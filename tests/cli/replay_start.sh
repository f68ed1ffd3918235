#!/bin/bash
# The replay's time zero and its engines' options, as behaviour (no timing
# bounds: those are in make bench): the result records time zero on the
# monotonic clock and whether the schedule slipped; --sqpoll replays every
# I/O; --hipri is refused where the target cannot poll; large I/Os come
# back intact through the huge-page buffers.
. "$TOP/tests/lib.sh"
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
S=$(mktemp -d /dev/shm/ioreel-start.XXXXXX) || fail "mktemp in /dev/shm"
rm_shm() { rm -rf "$S"; }
at_exit rm_shm
meta() { "$IOREEL" info "$1" | awk -v k="$2" '$1 == k { print $2 }'; }
"$TOOL" gen "$T/t.reel" n=400 iops=20000 rw=read bs=4096 lat=50000 || fail gen
before=$(awk '{ printf "%d", $1 * 1e9 }' /proc/uptime)
"$IOREEL" replay "$T/t.reel" --target "$S/t.img" -o "$T/r.reel" >"$T/out" 2>"$T/err" ||
	{ cat "$T/out" "$T/err"; fail "timed replay"; }
t0=$(meta "$T/r.reel" replay.t0_mono_ns)
[ -n "$t0" ] && [ "$t0" -gt 0 ] || fail "no replay.t0_mono_ns in the result"
slip=$(meta "$T/r.reel" replay.schedule_slipped)
[ "$slip" = 0 ] || [ "$slip" = 1 ] || fail "replay.schedule_slipped missing or odd: '$slip'"
[ "$slip" = 0 ] || grep -q "schedule slipped" "$T/err" || fail "slipped without a warning"
echo "time zero $t0 ns (mono), slipped $slip"
# afap: no issue error, so never marked slipped
"$IOREEL" replay "$T/t.reel" --target "$S/t.img" --timing afap -o "$T/a.reel" >/dev/null ||
	fail "afap replay"
[ "$(meta "$T/a.reel" replay.schedule_slipped)" = "" ] || fail "afap marked as slipped"
# io_uring with a submitting kernel thread: every I/O done
if "$IOREEL" replay "$T/t.reel" --target "$S/t.img" --engine io_uring --sqpoll --timing afap \
	--qd 8 -o "$T/s.reel" >"$T/out" 2>"$T/err"; then
	n=$(meta "$T/s.reel" replay.ios)
	[ "$n" = 400 ] || fail "--sqpoll replayed $n of 400 I/Os"
	echo "--sqpoll: $n I/Os"
else
	grep -q "io_uring" "$T/err" || { cat "$T/err"; fail "--sqpoll failed without saying why"; }
	echo "--sqpoll: io_uring unavailable here ($(head -1 "$T/err"))"
fi
# --hipri needs a polling block device: a file is refused, naming it
if "$IOREEL" replay "$T/t.reel" --target "$S/t.img" --engine io_uring --hipri >"$T/out" 2>"$T/err"; then
	fail "--hipri on a file was accepted"
fi
grep -q "hipri" "$T/err" && grep -q "t.img" "$T/err" || { cat "$T/err"; fail "--hipri refusal unclear"; }
"$IOREEL" replay "$T/t.reel" --target "$S/t.img" --hipri >"$T/out" 2>"$T/err" && fail "--hipri on libaio accepted"
grep -q "io_uring" "$T/err" || fail "--hipri on libaio: no hint"
# 2 MiB writes then reads of them (longer than the 4 KiB pages): written
# data verifies, every I/O complete
"$TOOL" gen "$T/b.reel" n=64 iops=2000 rw=write bs=2097152 lat=50000 || fail "gen big"
for eng in libaio io_uring psync; do
	"$IOREEL" replay "$T/b.reel" --target "$S/b.img" --engine $eng --timing afap -o "$T/b-r.reel" \
		>/dev/null 2>"$T/err" || { cat "$T/err"; fail "$eng: 2 MiB writes"; }
	"$TOOL" verify "$T/b-r.reel" "$S/b.img" >"$T/v" || { cat "$T/v"; fail "$eng: 2 MiB writes do not verify"; }
	rm -f "$S/b.img"
done
echo "ok"
