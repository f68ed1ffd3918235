#!/bin/bash
# Every engine, timing, queue-depth, order and point mode, on a loop device
# and on a file: each replay completes without error, and reading the
# target back proves every write landed at its offset with its length
# (the stamps of each 4 KiB piece name offset, length, target and sequence).
. "$TOP/tests/lib.sh"
need_root
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
[ -x "$TOOL" ] || fail "$TOOL not built"

# 1500 disjoint writes and reads of 4-64 KiB at 30k IOPS, 200 us latency (so
# the original queue depth is 6-7), a flush every 100, some discards and
# write-zeroes
"$TOOL" gen "$T/mix.reel" n=1500 iops=30000 bs=4096:32768 rw=mix:70 lat=200000 flush=100 \
	discard=50 zeroes=70 ||
	fail "gen"
# targets live in /dev/shm: the tests check behaviour, not the host's disk
S=$(mktemp -d /dev/shm/ioreel-replay.XXXXXX) || fail "mktemp in /dev/shm"
rm_shm() { rm -rf "$S"; }
at_exit rm_shm # (at_exit takes one word)
make_loop "$S/disk.img" 100
dev=$LOOP
file="$S/target.img"

check() { # label result target
	out=$("$TOOL" verify "$2" "$3") || fail "$1: verify failed"
	get() { echo "$out" | sed -n "s/^$1=//p"; }
	[ "$(get ios)" = 1500 ] || fail "$1: $(get ios) I/Os in the result, wanted 1500"
	[ "$(get errors)" = 0 ] || fail "$1: $(get errors) I/O errors"
	[ "$(get complete)" = 1 ] || fail "$1: result not complete"
	if [ "$4" != null ]; then
		[ "$(get bad_pieces)" = 0 ] || fail "$1: $(get bad_pieces) pieces not where they belong"
		[ "$(get stamped_pieces)" -gt 4000 ] || fail "$1: only $(get stamped_pieces) stamped pieces"
	fi
	echo "ok  $1: $(get writes) writes, $(get stamped_pieces) pieces verified"
}

n=0
run() { # target engine args...
	local tgt=$1 eng=$2
	shift 2
	n=$((n + 1))
	local res="$T/r$n.reel" label="$eng $(basename "$tgt") $*"
	if [ "$tgt" = "$dev" ]; then
		# forget the previous run's data (punches holes in the backing file)
		blkdiscard "$dev" || dd if=/dev/zero of="$dev" bs=1M count=100 oflag=direct status=none
		set -- "$@" --destroy-data="$(basename "$dev")"
	else
		rm -f "$tgt"
	fi
	"$IOREEL" replay "$T/mix.reel" --target "$tgt" --engine "$eng" -o "$res" "$@" >"$T/out" 2>&1 ||
		{ rc=$?; cat "$T/out"; fail "$label: exit $rc"; }
	for op in read write discard flush write-zeroes; do
		grep -q "^$op " "$T/out" || fail "$label: no $op line in the summary"
	done
	check "$label" "$res" "$tgt" "$eng"
}

for eng in libaio io_uring psync; do
	for tgt in "$dev" "$file"; do
		run "$tgt" $eng --timing afap --qd 8
		run "$tgt" $eng --timing original --speed 4 --qd original
	done
done
run "$dev" libaio --timing afap --qd 1 --order strict
run "$dev" io_uring --timing afap --qd 32 --order dependency
run "$dev" libaio --timing original --speed 8 --qd x2 --order dependency --point issue
run "$file" io_uring --timing original --speed 8 --qd x0.5 --order strict --point queue
run "$file" libaio --timing afap --qd original --order none --point issue --data ratio:3
run "$dev" libaio --timing afap --qd 16 --buffered
run "$file" null --timing afap --qd 64
run "$file" null --timing original --speed 10

# queue depth: the trace keeps 7 I/Os in flight at most (202 us at 30k IOPS)
# (on the loop device, whose I/O is asynchronous, so the caps are reached)
for q in original:7 x2:14 x0.5:4 3:3; do
	"$IOREEL" replay "$T/mix.reel" --target "$dev" --destroy-data="$(basename "$dev")" --timing afap \
		--qd ${q%%:*} --json "$T/q.json" >/dev/null || fail "--qd ${q%%:*}"
	max=$(sed -n 's/.*"inflight": {"mean": [0-9.]*, "max": \([0-9]*\)}.*/\1/p' "$T/q.json")
	[ -n "$max" ] && [ "$max" -le ${q##*:} ] || fail "--qd ${q%%:*}: $max in flight, cap ${q##*:}"
	[ "${q%%:*}" != 3 ] || [ "$max" = 3 ] || fail "--qd 3 never had 3 in flight ($max)"
	echo "ok  --qd ${q%%:*}: at most $max in flight (cap ${q##*:})"
done

# dependency: no I/O leaves before those that completed, in the trace,
# before it was queued have completed here (afap, deep queue: the test bites)
for order in dependency none; do
	blkdiscard "$dev" 2>/dev/null
	"$IOREEL" replay "$T/mix.reel" --target "$dev" --destroy-data="$(basename "$dev")" --timing afap \
		--qd 32 --order $order -o "$T/dep.reel" >/dev/null || fail "--order $order"
	v=$("$TOOL" depcheck "$T/mix.reel" "$T/dep.reel" | sed -n 's/^dep_violations=//p')
	[ -n "$v" ] || fail "depcheck failed"
	echo "    --order $order: $v I/Os issued before a parent completed"
	[ $order != dependency ] || [ "$v" = 0 ] || fail "--order dependency: $v violations"
done

# the summary and metadata say what was asked
out=$("$TOOL" verify "$T/r$n.reel" "$file")
echo "$out" | grep -qx "engine=null" || fail "engine metadata"
echo "$out" | grep -qx "order=none" || fail "order metadata"

# read-only: writes become reads, the target is unchanged
sum=$(md5sum <"$dev")
"$IOREEL" replay "$T/mix.reel" --target "$dev" --read-only --timing afap -o "$T/ro.reel" >/dev/null ||
	fail "read-only replay"
[ "$(md5sum <"$dev")" = "$sum" ] || fail "--read-only changed the device"
out=$("$TOOL" verify "$T/ro.reel" "$dev")
echo "$out" | grep -qx "writes=0" || fail "read-only result has writes"
echo "ok  read-only"

# two devices in the trace onto two targets, in order and with --map
"$TOOL" gen "$T/two.reel" n=2000 devs=2 iops=50000 bs=4096:16384 rw=write || fail gen
rm -f "$S/a.img" "$S/b.img"
"$IOREEL" replay "$T/two.reel" --target "$S/a.img,$S/b.img" --timing afap -o "$T/two-r.reel" \
	--buffered >/dev/null || fail "two targets"
out=$("$TOOL" verify "$T/two-r.reel" "$S/a.img,$S/b.img")
echo "$out" | grep -qx "bad_pieces=0" || fail "two targets: $out"
rm -f "$S/a.img" "$S/b.img"
"$IOREEL" replay "$T/two.reel" --map 1="$S/a.img" --timing afap -o "$T/map-r.reel" --buffered \
	>"$T/out" || fail "--map"
grep -q "1000 done.*1000 skipped" "$T/out" || { cat "$T/out"; fail "--map should skip device 0"; }
"$IOREEL" replay "$T/two.reel" --target "$S/c.img" --timing afap >"$T/out" 2>&1 &&
	fail "two trace devices onto one target should be refused"
grep -q "devices" "$T/out" || fail "no useful message: $(cat "$T/out")"
echo "ok  targets and --map"

# fit: a trace larger than the target is refused (saying the size), wraps, or scales
small="$S/small.img"
truncate -s 8M "$small"
"$IOREEL" replay "$T/mix.reel" --target "$small" --read-only --timing afap >"$T/out" 2>&1 &&
	fail "a too-small file target was accepted with --fit fail"
grep -q "needs [0-9]* bytes" "$T/out" || fail "fit message: $(cat "$T/out")"
make_loop "$S/small-dev.img" 8
smalldev=$LOOP
"$IOREEL" replay "$T/mix.reel" --target "$smalldev" --timing afap >"$T/out" 2>&1 &&
	fail "a too-small device was accepted with --fit fail"
grep -q "needs [0-9]* bytes" "$T/out" || fail "fit message: $(cat "$T/out")"
for fit in wrap scale; do
	"$IOREEL" replay "$T/mix.reel" --target "$smalldev" --destroy-data="$(basename "$smalldev")" \
		--fit $fit --timing afap -o "$T/fit.reel" >"$T/out" 2>&1 || { cat "$T/out"; fail "--fit $fit"; }
	grep -q "1500 done, 0 errors" "$T/out" || fail "--fit $fit: $(cat "$T/out")"
done
echo "ok  --fit"

# alignment: a misaligned trace is refused under O_DIRECT unless --align
"$TOOL" gen "$T/mis.reel" n=200 misalign=1 rw=write bs=4096 || fail gen
"$IOREEL" replay "$T/mis.reel" --target "$dev" --destroy-data="$(basename "$dev")" --timing afap \
	>"$T/out" 2>&1 && fail "misaligned trace accepted"
grep -q -- "--align" "$T/out" || fail "alignment message: $(cat "$T/out")"
"$IOREEL" replay "$T/mis.reel" --target "$dev" --destroy-data="$(basename "$dev")" --timing afap \
	--align >/dev/null || fail "--align"
echo "ok  alignment"
