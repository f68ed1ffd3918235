#!/bin/bash
# Round trip (issue 12 item 8): capture(replay(T)) ~ T for each bundled
# trace.  Each is replayed as fast as possible (timing is `make bench`'s
# business) onto a loop device over /dev/shm while `ioreel capture` records
# that device; replay_roundtrip.py then matches the two by extent, prints
# where every extra or missing I/O came from (the safety probe's reads
# before the replay's first I/O, large I/Os that arrived as several bios,
# flushes) and fails on any it cannot explain, on an op mix more than 0.5
# points off, a size KS above 0.02 or fewer than 99% of extents matched.
. "$TOP/tests/lib.sh"
need_root
command -v python3 >/dev/null || skip "python3 absent"
S=$(mktemp -d /dev/shm/ioreel-rt.XXXXXX) || fail "mktemp in /dev/shm"
rm_shm() { rm -rf "$S"; }
at_exit rm_shm # (at_exit takes one word)
make_loop "$S/disk.img" 2048
for tr in git compile chromium boot; do
	trace="$TOP/traces/$tr.reel"
	[ -e "$trace" ] || fail "$trace absent"
	"$IOREEL" capture -q -d "$LOOP" -o "$T/cap.reel" --overwrite -- \
		"$IOREEL" replay "$trace" --target "$LOOP" --destroy-data="$(basename "$LOOP")" \
		--timing afap -o "$T/res.reel" >"$T/out" 2>&1 || { cat "$T/out"; fail "$tr: capture of the replay"; }
	"$IOREEL" dump "$trace" >"$T/t.dump" || fail "$tr: dump"
	"$IOREEL" dump "$T/cap.reel" >"$T/c.dump" || fail "$tr: dump of the capture"
	"$IOREEL" model compare "$trace" "$T/cap.reel" --json >"$T/cmp.json" || fail "$tr: model compare"
	echo "== $tr"
	python3 "$TOP/tests/cli/replay_roundtrip.py" "$T/t.dump" "$T/c.dump" "$T/cmp.json" "$LOOP" ||
		fail "$tr: the capture of its replay is not the trace"
done
