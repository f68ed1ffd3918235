#!/bin/bash
# ioreel replay's option table: every bad option value is a usage error
# (exit 2, a message naming the option) before anything is opened, and
# --options-table lists every option with its range.
. "$TOP/tests/lib.sh"
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
"$TOOL" gen "$T/t.reel" n=100 >/dev/null || fail "gen"
bad() { # OPTION VALUE: must exit 2 naming OPTION
	"$IOREEL" replay "$T/t.reel" --target "$T/x.img" --buffered --engine null "$1" "$2" \
		>"$T/out" 2>&1
	rc=$?
	[ $rc = 2 ] || { cat "$T/out"; fail "$1 $2: exit $rc, wanted 2"; }
	grep -q -- "$1" "$T/out" || { cat "$T/out"; fail "$1 $2: the message does not name $1"; }
	[ ! -e "$T/x.img" ] || fail "$1 $2: the target was created"
}
for v in abc -1 0 8x 99999999999; do bad --window "$v"; done
bad --engine spdk
for v in 0 -2 nan inf 1e300 x; do bad --speed "$v"; done
for v in 0 4097 x0 x-1 foo; do bad --qd "$v"; done
for v in -1 101 5x; do bad --dedupe "$v"; done
for o in --timing --order --point --fit; do bad "$o" nope; done
bad --map 1
bad --data ratio:0
"$IOREEL" replay "$T/t.reel" --target "$T/x.img" --buffered --engine null --timing afap \
	--window 8 --qd 3 --dedupe 50% --speed 2 --target "$T/z.img" -o "$T/r.reel" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "good values refused"; }
"$IOREEL" replay --options-table >"$T/tab" || fail "--options-table"
for o in target map fit align buffered read-only destroy-data overwrite precondition no-rt \
	timing speed qd order point window engine data dedupe output json; do
	grep -q -- "^--$o " "$T/tab" || fail "--options-table lacks --$o"
done
grep -qx -- "--window uint 1 1048576" "$T/tab" || fail "--window range: $(grep window "$T/tab")"
echo ok
