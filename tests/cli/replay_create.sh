#!/bin/bash
# Target files: a path that does not exist on the /dev filesystem (a
# mistyped device, /dev/sdz) is refused, saying "no such device", and
# nothing is created there; a file ioreel does create (elsewhere, /dev/shm
# included: its own filesystem) is announced on stderr with its size.
. "$TOP/tests/lib.sh"
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
"$TOOL" gen "$T/w.reel" n=200 rw=write bs=4096 iops=100000 || fail gen
[ -d /dev ] && [ -w /dev ] || skip "/dev is not writable here: nothing could be created there"
dev=/dev/ioreel-nosuch-$$
rm_dev() { [ -f "$dev" ] && rm -f "$dev"; true; }
at_exit rm_dev
if "$IOREEL" replay "$T/w.reel" --target "$dev" --timing afap --engine null >"$T/out" 2>&1; then
	cat "$T/out"
	fail "replay onto $dev (no such device) was not refused"
fi
cat "$T/out"
grep -q "no such device: $dev" "$T/out" || fail "the refusal should say 'no such device: $dev'"
[ -e "$dev" ] && fail "a file $dev was created"

# elsewhere: created, and said with its size (the trace reaches 200 x 4 KiB)
"$IOREEL" replay "$T/w.reel" --target "$T/new.img" --timing afap --engine null >/dev/null \
	2>"$T/err" || { cat "$T/err"; fail "replay onto a new file"; }
cat "$T/err"
grep -q "creating $T/new.img: 1 MiB sparse" "$T/err" || fail "the new file was not announced with its size"
[ "$(stat -c %s "$T/new.img")" = 1048576 ] || fail "the new file is not 1 MiB"
# an existing file of ours is not created again: nothing said
"$IOREEL" replay "$T/w.reel" --target "$T/new.img" --timing afap --engine null >/dev/null \
	2>"$T/err" || { cat "$T/err"; fail "replay onto the file made before"; }
grep -q "creating" "$T/err" && fail "an existing file was announced as created"
if [ -d /dev/shm ] && [ "$(stat -c %d /dev/shm)" != "$(stat -c %d /dev)" ]; then
	shm=/dev/shm/ioreel-create-$$.img
	rm_shm() { rm -f "$shm"; }
	at_exit rm_shm
	"$IOREEL" replay "$T/w.reel" --target "$shm" --timing afap --engine null --buffered \
		>/dev/null 2>"$T/err" || { cat "$T/err"; fail "replay onto a new file in /dev/shm"; }
	grep -q "creating $shm" "$T/err" || fail "the new file in /dev/shm was not announced"
fi
echo ok
