#!/bin/bash
# Compressibility: replay writes of 4 KiB to 1 MiB with --data ratio:R,
# read back what was written, and check its LZ4 ratio (at the I/O size) is
# within 2% of R; the result records the ratio it measured.  Dedupe and
# zero are checked too.
. "$TOP/tests/lib.sh"
need_root
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
S=$(mktemp -d /dev/shm/ioreel-data.XXXXXX) || fail "mktemp in /dev/shm"
rm_shm() { rm -rf "$S"; }
at_exit rm_shm # (at_exit takes one word)
"$TOOL" gen "$T/w.reel" n=80 iops=100000 rw=write bs=4096:1048576 || fail gen
for R in 1 2 3.5 8 20; do
	rm -f "$S/f.img"
	"$IOREEL" replay "$T/w.reel" --target "$S/f.img" --timing afap --data ratio:$R \
		-o "$T/r.reel" >"$T/out" || { cat "$T/out"; fail "ratio:$R replay"; }
	out=$("$TOOL" verify "$T/r.reel" "$S/f.img")
	rb=$(echo "$out" | sed -n 's/^ratio_readback=//p')
	ach=$(echo "$out" | sed -n 's/^ratio_achieved=//p')
	echo "ratio:$R read back $rb, recorded $ach"
	awk -v r="$rb" -v R="$R" 'BEGIN { d = r / R - 1; exit !(d < 0.02 && d > -0.02) }' ||
		fail "ratio:$R: read back $rb"
	awk -v r="$ach" -v R="$R" 'BEGIN { d = r / R - 1; exit !(d < 0.02 && d > -0.02) }' ||
		fail "ratio:$R: recorded $ach"
	echo "$out" | grep -qx "bad_pieces=0" || fail "ratio:$R: stamps"
	grep -q "achieved LZ4 ratio" "$T/out" || fail "summary lacks the achieved ratio"
done
# zero: all zero bytes on the target
rm -f "$S/f.img"
"$IOREEL" replay "$T/w.reel" --target "$S/f.img" --timing afap --data zero >/dev/null || fail zero
[ "$(tr -d '\0' <"$S/f.img" | wc -c)" = 0 ] || fail "--data zero wrote non-zero bytes"
# pattern
rm -f "$S/f.img"
"$IOREEL" replay "$T/w.reel" --target "$S/f.img" --timing afap --data pattern:c0ffee >/dev/null ||
	fail pattern
head -c 3 "$S/f.img" | od -An -tx1 | grep -q "c0 ff ee" || fail "pattern not written"
# dedupe 50: about half the 4 KiB pieces repeat (few distinct among them)
rm -f "$S/f.img"
"$IOREEL" replay "$T/w.reel" --target "$S/f.img" --timing afap --data ratio:2 --dedupe 50 >/dev/null ||
	fail dedupe
out=$("$TOOL" distinct "$S/f.img")
pieces=$(echo "$out" | sed -n 's/^pieces=//p')
distinct=$(echo "$out" | sed -n 's/^distinct=//p')
echo "dedupe 50: $distinct distinct of $pieces written 4 KiB pieces"
[ "$distinct" -gt $((pieces * 40 / 100)) ] && [ "$distinct" -lt $((pieces * 60 / 100)) ] ||
	fail "dedupe 50: $distinct distinct of $pieces"
"$IOREEL" replay "$T/w.reel" --target "$S/g.img" --timing afap --data bogus >"$T/out" 2>&1 &&
	fail "--data bogus accepted"
grep -q "ratio:R" "$T/out" || fail "bad --data message"
# --precondition fills the whole target before the replay
rm -f "$S/p.img"
"$TOOL" gen "$T/small.reel" n=20 iops=100000 rw=write bs=4096 || fail gen
"$IOREEL" replay "$T/small.reel" --target "$S/p.img" --timing afap --data ratio:2 --precondition \
	>/dev/null || fail "--precondition"
size=$(stat -c %s "$S/p.img")
pieces=$("$TOOL" distinct "$S/p.img" | sed -n 's/^pieces=//p')
[ "$pieces" = $((size / 4096)) ] || fail "--precondition: $pieces of $((size / 4096)) pieces written"
echo "precondition: all $pieces pieces of $size bytes written"
