#!/bin/bash
# Ctrl-C (SIGINT) or SIGTERM during a long export leaves nothing behind:
# no OUT and no hidden temporary beside it (a 75 MB .OUT.ioreel-PID-N was
# left before); a SIGHUP that the caller ignores (nohup) stays ignored, so
# the export finishes.  Import, which shares the handler, likewise.
. "$TOP/tests/lib.sh"
cd "$T"
awk 'BEGIN { for (i = 0; i < 600000; i++)
	printf "1281664103%08d,wdev,1,%s,%d,4096,100\n", i * 10, i % 3 ? "Read" : "Write", i * 4096 }' \
	>in.csv
"$IOREEL" import -q --from msr in.csv -o in.reel || fail "import"
# stopped once its temporary exists, signalled, continued: the signal lands
# mid-export whatever the machine's speed
interrupt() { # SIG OUT CMD...: runs CMD, sends SIG mid-write; sets RC
	local sig=$1 out=$2
	shift 2
	set -m # else a background job ignores SIGINT, as a shell sets it up
	"$@" 2>err &
	set +m
	local pid=$! seen=0
	for _ in $(seq 1000); do
		ls -A | grep -q "^\.$out\.ioreel-" && { seen=1; break; }
		kill -0 $pid 2>/dev/null || break
		sleep 0.005
	done
	kill -STOP $pid 2>/dev/null
	[ $seen = 1 ] || { kill -CONT $pid; wait $pid; fail "$*: no temporary seen (done too soon)"; }
	kill -$sig $pid
	kill -CONT $pid
	wait $pid
	RC=$?
}
for sig in INT TERM; do
	interrupt $sig out.txt "$IOREEL" export --to blkparse in.reel -o out.txt
	[ $RC -gt 128 ] || fail "export, SIG$sig: exit $RC: $(cat err)"
	left=$(ls -A | grep -v -e '^in\.' -e '^err$')
	[ -z "$left" ] || fail "export, SIG$sig: left behind: $left"
done
interrupt INT out.reel "$IOREEL" import -q --from msr in.csv -o out.reel
[ $RC -gt 128 ] || fail "import, SIGINT: exit $RC: $(cat err)"
left=$(ls -A | grep -v -e '^in\.' -e '^err$')
[ -z "$left" ] || fail "import, SIGINT: left behind: $left"
# nohup: an ignored SIGHUP stays ignored
interrupt HUP out.txt nohup "$IOREEL" export --to blkparse in.reel -o out.txt
[ $RC = 0 ] || fail "export under nohup killed by SIGHUP: exit $RC: $(cat err)"
[ -s out.txt ] || fail "export under nohup: no out.txt"
exit 0
