#!/bin/bash
# Every trace of a plan is opened and read before anything is written to a
# drive: a plan whose trace is a text file (not .reel), or a .reel with no
# I/O, is refused with the plan's file and line, and the filesystem on a
# drive named by --destroy-data is still there (blkid -p).
. "$TOP/tests/cli/suite_lab.inc"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 absent"
command -v blkid >/dev/null || skip "blkid absent"
make_shm_loop 32; A=$LOOP
make_shm_loop 32; FS=$LOOP
mkfs.ext4 -q -F "$FS" || fail "mkfs"
blkid -p "$FS" | grep -q 'TYPE="ext4"' || fail "no ext4 signature after mkfs"
refused() { # PLAN LINE WHAT: the suite refuses PLAN, naming PLAN:LINE and WHAT
	"$IOREEL" suite "$1" --drive a="$A" --drive b="$FS" --destroy-data="${FS#/dev/}" \
		-o "$T/out" >"$T/stdout" 2>"$T/err"
	rc=$?
	cat "$T/err"
	[ $rc = 2 ] || fail "$1: exit $rc, expected 2 (a bad plan)"
	grep -q "$(basename "$1"):$2: .*$3" "$T/err" || fail "$1: the error does not name $(basename "$1"):$2 and '$3'"
	grep -q "purge\|fill\|run 1/" "$T/err" && fail "$1: the suite began before it checked its traces"
	blkid -p "$FS" | grep -q 'TYPE="ext4"' || fail "$1: the filesystem on $FS was destroyed"
}
printf 'not a trace\n' >"$T/git.txt"
printf '[global]\nqd=1\nrepeats=2\nmin-busy=0\n\n[g]\ntrace=%s\n' "$T/git.txt" >"$T/text.plan"
refused "$T/text.plan" 7 "not a .reel file"
# a .reel holding no I/O: one flush, imported from a fio iolog
printf 'fio version 2 iolog\n/dev/x add\n/dev/x open\n/dev/x sync 0 0\n/dev/x close\n' >"$T/f.log"
"$IOREEL" import "$T/f.log" -o "$T/empty.reel" >/dev/null 2>&1 || fail "import of a one-flush iolog"
printf '[global]\nqd=1\nrepeats=2\nmin-busy=0\n[ok]\ntrace=%s\n[none]\ntrace=%s\n' \
	"$TOP/traces/git.reel" "$T/empty.reel" >"$T/empty.plan"
refused "$T/empty.plan" 8 "no read, write or discard"
# a folder
printf '[global]\nqd=1\n[d]\ntrace=%s\n' "$T" >"$T/dir.plan"
refused "$T/dir.plan" 4 "is a folder"
exit 0
