#!/bin/bash
# Ctrl-C (SIGINT) or SIGTERM during plot or compare -o DIR leaves no
# hidden temporary (.NAME.ioreel-PID-N) in DIR or DIR/data.
. "$TOP/tests/lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot absent"
cd "$T"
awk 'BEGIN { for (i = 0; i < 600000; i++)
	printf "1281664103%08d,wdev,1,%s,%d,4096,100\n", i * 10, i % 3 ? "Read" : "Write", i * 4096 }' \
	>in.csv
"$IOREEL" import -q --from msr in.csv -o in.reel || fail "import"
# stopped once a temporary exists in DIR, signalled, continued
interrupt() { # SIG DIR CMD...: sets RC
	local sig=$1 dir=$2
	shift 2
	set -m # else a background job ignores SIGINT
	"$@" >/dev/null 2>err &
	set +m
	local pid=$! seen=0
	for _ in $(seq 2000); do
		find "$dir" -name '.*.ioreel-*' 2>/dev/null | grep -q . && { seen=1; break; }
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
