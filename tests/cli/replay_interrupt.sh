#!/bin/bash
# Ctrl-C (SIGINT) and SIGTERM during a replay: issuing stops, in-flight I/O
# drains, and the result is a valid, complete .reel (ioreel info reads it)
# with replay.interrupted=1 and only I/Os that were really done, each
# landed where it belongs.
. "$TOP/tests/lib.sh"
need_root
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
S=$(mktemp -d /dev/shm/ioreel-intr.XXXXXX) || fail "mktemp in /dev/shm"
rm_shm() { rm -rf "$S"; }
at_exit rm_shm # (at_exit takes one word)
make_loop "$S/disk.img" 64
# 100000 writes at 10k IOPS: 10 s if left alone
"$TOOL" gen "$T/t.reel" n=100000 iops=10000 rw=mix:50 bs=4096 lat=100000 || fail gen
for sig in INT TERM; do
	"$IOREEL" replay "$T/t.reel" --target "$LOOP" --destroy-data="$(basename "$LOOP")" --qd 8 --fit wrap \
		-o "$T/r.reel" >"$T/out" 2>&1 &
	pid=$!
	# signal once the device has seen 2,000 I/Os (the kernel's count, not a
	# sleep: a sanitizer build on a loaded host takes longer than 1 s to
	# reach time zero), at most 60 s
	dev=$(basename "$LOOP")
	base=$(awk '{print $1 + $5}' "/sys/block/$dev/stat")
	for _ in $(seq 600); do
		n=$(awk '{print $1 + $5}' "/sys/block/$dev/stat")
		[ $((n - base)) -ge 2000 ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc = 130 ] || { cat "$T/out"; fail "SIG$sig: exit $rc, wanted 130"; }
	grep -q INTERRUPTED "$T/out" || fail "SIG$sig: the summary does not say it was interrupted"
	out=$("$TOOL" verify "$T/r.reel" "$LOOP") || fail "SIG$sig: result unreadable"
	get() { echo "$out" | sed -n "s/^$1=//p"; }
	[ "$(get interrupted)" = 1 ] || fail "SIG$sig: replay.interrupted=$(get interrupted)"
	[ "$(get complete)" = 1 ] || fail "SIG$sig: result has no trailer"
	ios=$(get ios)
	[ "$ios" -gt 1000 ] && [ "$ios" -lt 100000 ] || fail "SIG$sig: $ios I/Os in the result"
	[ "$(get errors)" = 0 ] || fail "SIG$sig: errors"
	[ "$(get bad_pieces)" = 0 ] || fail "SIG$sig: $(get bad_pieces) pieces misplaced"
	"$IOREEL" info "$T/r.reel" >"$T/info" 2>&1 || { cat "$T/info"; fail "ioreel info cannot read it"; }
	echo "SIG$sig: $ios I/Os recorded, result valid"
done
