#!/bin/bash
# Real public traces, imported, replayed onto a loop device: the MSR
# Cambridge volume (1055 writes over days of trace time) as fast as
# possible at queue depth 1, every write's stamps checked on the device;
# the blkparse NVMe trace with its original timing (50x) and its own queue
# depth, scaled onto the small device.
. "$TOP/tests/lib.sh"
need_root
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
shared_trace msr/wdev_1.csv msr
shared_trace blkparse/nvme0n1.blktrace.txt blk
S=$(mktemp -d /dev/shm/ioreel-public.XXXXXX) || fail "mktemp in /dev/shm"
rm_shm() { rm -rf "$S"; }
at_exit rm_shm
"$IOREEL" import "$msr" -o "$T/msr.reel" 2>/dev/null || fail "import $msr"
"$IOREEL" import "$blk" -o "$T/blk.reel" 2>/dev/null || fail "import $blk"
make_loop "$S/disk.img" 64
name=$(basename "$LOOP")

"$IOREEL" replay "$T/msr.reel" --target "$LOOP" --destroy-data="$name" --timing afap --qd 1 \
	--fit scale -o "$T/msr-r.reel" >"$T/out" || { cat "$T/out"; fail "msr replay"; }
out=$("$TOOL" verify "$T/msr-r.reel" "$LOOP")
echo "$out" | grep -qx "ios=1055" || fail "msr: $(echo "$out" | grep ios=)"
echo "$out" | grep -qx "errors=0" || fail "msr: errors"
echo "$out" | grep -qx "bad_pieces=0" || fail "msr: misplaced pieces"
echo "msr: 1055 writes replayed and verified ($(echo "$out" | grep stamped_pieces))"

"$IOREEL" replay "$T/blk.reel" --target "$LOOP" --destroy-data="$name" --speed 50 --fit scale \
	-o "$T/blk-r.reel" >"$T/out" || { cat "$T/out"; fail "blkparse replay"; }
grep -q "qd original" "$T/out" || fail "a trace with issue and completion times replays at its own depth"
out=$("$TOOL" verify "$T/blk-r.reel" "$LOOP")
echo "$out" | grep -qx "ios=248" || fail "blkparse: $(echo "$out" | grep ios=)"
echo "$out" | grep -qx "errors=0" || fail "blkparse: errors"
dur=$(echo "$out" | sed -n 's/^duration_ns=//p')
[ "$dur" -ge 490000000 ] && [ "$dur" -lt 1500000000 ] || fail "blkparse at 50x: $dur ns for a 25 s trace"
echo "blkparse: 248 I/Os (225 writes, 23 flushes) in $dur ns at 50x"
