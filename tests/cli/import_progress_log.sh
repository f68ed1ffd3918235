#!/bin/bash
# Import's progress, when stderr is a log (not a terminal), comes as whole
# lines: no carriage return glued into the log, and the summary on its own
# line.  The input is a pipe that stalls 5.5 s, so progress is due at least
# once whatever the machine's speed.
. "$TOP/tests/lib.sh"
rec() { # N: N MSR CSV lines from record 0
	awk -v n="$1" -v s="$2" 'BEGIN { for (i = s; i < s + n; i++)
		printf "1281664103180%05d,wdev,1,Read,%d,4096,100\n", i, i * 4096 }'
}
{ rec 1000 0; sleep 5.5; rec 1000 1000; } | "$IOREEL" import --from msr - -o "$T/out.reel" \
	2>"$T/err" || fail "import: $(cat "$T/err")"
grep -q $'\r' "$T/err" && fail "carriage return in a non-terminal stderr: $(cat -A "$T/err")"
grep -Eq '^ioreel import: [0-9]+ MB, [0-9.]+ MB/s$' "$T/err" ||
	fail "no progress line while the input stalled: $(cat "$T/err")"
grep -q '^ioreel import: 2000 records from 1 file' "$T/err" ||
	fail "no summary line of its own: $(cat "$T/err")"
exit 0
