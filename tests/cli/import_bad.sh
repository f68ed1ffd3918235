#!/bin/bash
# Bad input: each importer names the file, the line and the reason, leaves
# no output behind, and with --skip-bad counts and skips the line.
. "$TOP/tests/lib.sh"

# check FMT FILE LINE REASON_REGEX GOOD_RECORDS
check() {
	local fmt=$1 f=$2 line=$3 why=$4 good=$5
	if "$IOREEL" import --from "$fmt" "$f" -o "$T/out.reel" 2>"$T/err"; then
		fail "$fmt: malformed line $line accepted"
	fi
	grep -qE "^ioreel import: $f:$line: $why; use --skip-bad to skip such lines$" "$T/err" ||
		{ cat "$T/err"; fail "$fmt: message lacks '$f:$line: $why'"; }
	[ ! -e "$T/out.reel" ] || fail "$fmt: partial output left behind"
	"$IOREEL" import --from "$fmt" --skip-bad "$f" -o "$T/out.reel" 2>"$T/err" ||
		{ cat "$T/err"; fail "$fmt: --skip-bad failed"; }
	grep -qE "import: $good records? .*; 1 bad line skipped" "$T/err" ||
		{ cat "$T/err"; fail "$fmt: --skip-bad summary"; }
	n=$("$IOREEL" export --to csv "$T/out.reel" -o - 2>/dev/null | tail -n +2 | wc -l)
	[ "$n" = "$good" ] || fail "$fmt: $n records after --skip-bad, want $good"
	rm -f "$T/out.reel"
	echo "$fmt: line $line reported and skipped"
}

cd "$T" # messages name the file as given: keep it short
printf '128166410318060999,wdev,1,Write,3165323264,4096,1189\n128166410318061023,wdev,1,Write,x12,4096,1166\n128166410318061026,wdev,1,Write,3154137088,4096,1163\n' >wdev_1.csv
check msr wdev_1.csv 2 "offset 'x12' is not a number" 2
printf '128166410318060999,wdev,1,Write,3165323264,4096,1189\n128166410318061023,wdev,1,Trim,1,4096,1166\n' >t.csv
check msr t.csv 2 "type 'Trim' is neither Read nor Write" 1
printf '0,1,512,r,0.1\n0,1,512,r\n' >a.spc
check spc a.spc 2 "4 fields, expected at least 5 .*" 1
printf '0,1,512,r,0.1\n0,1,512,x,0.2\n0,1,512,w,0.3\n' >b.spc
check spc b.spc 2 "opcode 'x' is neither r nor w" 2
printf '1 2 comm 8 8 W 6 0 2c4787c7671c2f638777c4ab72859ce1\n1 2 comm 8 8 Q 6 0 2c4787c7671c2f638777c4ab72859ce1\n' >f.txt
check fiu f.txt 2 "operation 'Q' is neither R nor W" 1
printf '1 2 comm 8 8 W 6 0 2c4787c7671c2f638777c4ab72859ce1\n\n1 2 comm 99999999999999999999 8 W 6 0 x\n' >f2.txt
check fiu f2.txt 3 "lba '99999999999999999999' is out of range" 1
printf '0.5 0 100 8 1\n0.6 0 abc 8 1\n' >d.trace
check disksim d.trace 2 "lba 'abc' is not a number" 1
printf '0.5 0 100 8 1\n0.6 0 100 8\n' >d2.trace
check disksim d2.trace 2 "4 fields, expected 5 .*" 1
printf '1,W,0,4096,1577808000000147\n1,W,0,4096\n1,R,0,4096,1577808000000148\n' >ali.csv
check alibaba ali.csv 2 "4 fields, expected 5 .*" 2
printf '1538323200,12345,8,1,1283\n1538323200,12345,8,2,1283\n' >cbs.csv
check tencent cbs.csv 2 "I/O type '2' is neither 0 \(read\) nor 1 \(write\)" 1
printf 'fio version 3 iolog\n1 /dev/x add\n2 /dev/x open\n3 /dev/x read 0 4096\n4 /dev/x frobnicate 0 4096\n5 /dev/x close\n' >f.log
check fio f.log 5 "action 'frobnicate' is not read, write, trim, sync, datasync or wait" 1
printf 'fio version 2 iolog\n/dev/x add\n/dev/x write 0 4096\n/dev/x write 4096\n' >f2.log
check fio f2.log 4 "3 fields, expected 'FILE ACTION \[OFFSET LENGTH\]'" 1
# a line longer than the line buffer
{ printf '0,1,512,r,0.1\n'; head -c 10000 /dev/zero | tr '\0' 9; printf '\n0,2,512,w,0.2\n'; } >long.spc
check spc long.spc 2 "line longer than 4096 bytes .*" 2

# not a fio log at all: a clear error, not a crash
printf 'hello\n' >nf.log
"$IOREEL" import --from fio nf.log -o out.reel 2>err && fail "fio accepted a non-log"
grep -q "nf.log:1: not a fio iolog" err || { cat err; fail "fio header message"; }
# an undetectable input names the way out
printf 'what is this\n' >unknown.txt
"$IOREEL" import unknown.txt -o out.reel 2>err && fail "unknown format accepted"
grep -q "cannot tell the format of unknown.txt; name it with --from" err || { cat err; fail "detect message"; }
# a missing input
"$IOREEL" import --from msr nosuch.csv -o out.reel 2>err && fail "missing input accepted"
grep -q "nosuch.csv" err || fail "missing input not named"
# the output is not overwritten without --overwrite, unless it is an
# earlier import's output (issue 11: ioreel's own output of the same kind)
printf '0,1,512,r,0.1\n' >ok.spc
echo "someone's notes" >out.reel
"$IOREEL" import --from spc ok.spc -o out.reel 2>err && fail "overwrote without --overwrite"
grep -q "pass --overwrite" err || { cat err; fail "overwrite message"; }
grep -q "someone's notes" out.reel || fail "a refused import changed the file"
"$IOREEL" import --from spc --overwrite ok.spc -o out.reel 2>/dev/null || fail "--overwrite"
"$IOREEL" import --from spc ok.spc -o out.reel 2>err || { cat err; fail "an import's own output not replaced"; }
echo ok
