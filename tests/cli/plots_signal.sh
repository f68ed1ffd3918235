#!/bin/bash
# Ctrl-C (SIGINT) or SIGTERM during plot or compare -o DIR leaves no
# hidden temporary (.NAME.ioreel-PID-N) in DIR or DIR/data.
. "$TOP/tests/lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot absent"
cd "$T"
. "$TOP/tests/cli/interrupt.inc"
for sig in INT TERM; do
	rm -rf p c
	interrupt $sig p "$IOREEL" plot in.reel -o p
	[ $RC -gt 128 ] || fail "plot, SIG$sig: exit $RC: $(cat err)"
	left=$(find p -name '.*.ioreel-*')
	[ -z "$left" ] || fail "plot, SIG$sig: left behind: $left"
	interrupt $sig c "$IOREEL" compare in.reel -o c
	[ $RC -gt 128 ] || fail "compare, SIG$sig: exit $RC: $(cat err)"
	left=$(find c -name '.*.ioreel-*')
	[ -z "$left" ] || fail "compare, SIG$sig: left behind: $left"
done
exit 0
