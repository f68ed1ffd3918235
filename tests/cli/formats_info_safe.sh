#!/bin/bash
# info and dump escape control bytes from a crafted trace (issue 11, item
# 11): an escape sequence in a file name (source_detail), a host name
# (device name) or a process name (comm) comes out as \x1b, never raw.
# And info on a cut-short file (item 9): exit 0 with a warning, exit 1
# with --strict (docs/ioreel-info.md).
. "$TOP/tests/lib.sh"
cd "$T"
esc=$'\e'
f="x${esc}]0;pwned${esc}\\${esc}[2J.csv"
printf '128166410318060999,h%s[31m,1,Write,4096,4096,1189\n' "$esc" >"$f"
"$IOREEL" import -q --from msr "$f" -o a.reel || fail "import msr"
printf '8,0 0 1 0.000000001 42 Q W 8 + 8 [dd]\n8,0 0 2 0.000000002 42 D W 8 + 8 [dd]\n8,0 0 3 0.000000003 42 C W 8 + 8 [0]\n' >b.txt
"$IOREEL" import -q --from blkparse b.txt -o b.reel || fail "import blkparse"

test_info_escapes() {
	"$IOREEL" info a.reel >out || fail "info"
	grep -q "$esc" out && fail "info printed a raw escape byte: $(cat -v out)"
	grep -qF 'x\x1b]0;pwned\x1b\\x1b[2J.csv' out || fail "source_detail not shown escaped: $(cat -v out)"
	grep -qF 'h\x1b[31m' out || fail "device name not shown escaped: $(cat -v out)"
	echo "info: escapes shown as \\x1b"
}

# a crafted trace (the reel fuzz corpus): escapes in the source, a device
# name, a process name and a metadata key and value
test_dump_escapes() {
	local x=$TOP/tests/fuzz/corpus/reel/escapes.reel
	"$IOREEL" dump "$x" >out || fail "dump"
	grep -q "$esc" out && fail "dump printed a raw escape byte: $(cat -v out)"
	grep -qF 'ev\x1b[5mil' out || fail "comm not shown escaped: $(cat -v out)"
	"$IOREEL" info "$x" >out || fail "info"
	grep -q "$esc" out && fail "info printed a raw escape byte: $(cat -v out)"
	grep -qF 'captured\x1b[2J: crafted \x1b]0;title\x07 escapes' out || fail "source: $(cat -v out)"
	grep -qF 'note\x1b[1m' out && grep -qF 'value\x1b[41m here' out || fail "metadata: $(cat -v out)"
	echo "dump, info of a crafted trace: escapes shown as \\x1b"
}

test_info_strict_on_cut_short() {
	"$IOREEL" export --to csv a.reel -o - >/dev/null 2>&1 || fail "export"
	head -c $(( $(stat -c %s b.reel) - 20 )) b.reel >cut.reel
	"$IOREEL" info cut.reel >/dev/null 2>err || fail "info on a cut-short file: exit $? (0 expected)"
	grep -q "warning: .*cut short" err || { cat err; fail "no warning"; }
	"$IOREEL" info --strict cut.reel >/dev/null 2>err && fail "--strict: exit 0 on a cut-short file"
	grep -q "error: .*cut short" err || { cat err; fail "--strict: no error message"; }
	"$IOREEL" info --strict b.reel >/dev/null || fail "--strict on a whole file"
	echo "info: cut short exit 0 with a warning, --strict exit 1"
}

test_info_escapes
test_dump_escapes
test_info_strict_on_cut_short
