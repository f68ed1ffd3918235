#!/bin/bash
# Issue 11 item 6 (plots): plot, compare and demo read each run twice from
# the start, so an input that is not a regular file (a FIFO, a device, a
# folder) is refused at once with a clear message, never waited on.
. "$TOP/tests/lib.sh"
mkfifo "$T/fifo"
check() { # WHAT ARGS...: refused within 10 s, exit 1, naming why
	local what=$1
	shift
	timeout 10 "$IOREEL" "$@" >"$T/out" 2>&1
	local rc=$?
	[ $rc = 124 ] && fail "$what: blocked (killed after 10 s)"
	[ $rc = 1 ] || { cat "$T/out"; fail "$what: exit $rc, not 1"; }
	grep -q "not a regular file" "$T/out" || { cat "$T/out"; fail "$what: no clear message"; }
}
check "plot FIFO" plot "$T/fifo" -o "$T/p"
check "compare FIFO" compare "$T/fifo"
check "compare -o FIFO" compare "$T/fifo" -o "$T/c"
check "demo --trace FIFO" demo --trace "$T/fifo" -o "$T/d"
check "plot /dev/zero" plot /dev/zero -o "$T/p"
check "compare folder" compare "$T"
for d in p c d; do [ -e "$T/$d" ] && fail "a refused input left the output folder $d"; done
echo "ok: FIFO, character device and folder inputs refused at once"
