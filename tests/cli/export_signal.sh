#!/bin/bash
# Ctrl-C (SIGINT) or SIGTERM during a long export leaves nothing behind:
# no OUT and no hidden temporary beside it (a 75 MB .OUT.ioreel-PID-N was
# left before); a SIGHUP that the caller ignores (nohup) stays ignored, so
# the export finishes.  Import, which shares the handler, likewise.
. "$TOP/tests/lib.sh"
cd "$T"
. "$TOP/tests/cli/interrupt.inc"
for sig in INT TERM; do
	interrupt $sig . "$IOREEL" export --to blkparse in.reel -o out.txt
	[ $RC -gt 128 ] || fail "export, SIG$sig: exit $RC: $(cat err)"
	left=$(ls -A | grep -v -e '^in\.' -e '^err$')
	[ -z "$left" ] || fail "export, SIG$sig: left behind: $left"
done
interrupt INT . "$IOREEL" import -q --from msr in.csv -o out.reel
[ $RC -gt 128 ] || fail "import, SIGINT: exit $RC: $(cat err)"
left=$(ls -A | grep -v -e '^in\.' -e '^err$')
[ -z "$left" ] || fail "import, SIGINT: left behind: $left"
# nohup: an ignored SIGHUP stays ignored
interrupt HUP . nohup "$IOREEL" export --to blkparse in.reel -o out.txt
[ $RC = 0 ] || fail "export under nohup killed by SIGHUP: exit $RC: $(cat err)"
[ -s out.txt ] || fail "export under nohup: no out.txt"
exit 0
