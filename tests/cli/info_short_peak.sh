#!/bin/bash
# info on a trace under 1 s long gives no "peak 1 s window" (it would be
# the trace's count, below its mean rate); a longer trace gives one.
. "$TOP/tests/lib.sh"
cd "$T"
msr() { # N STEP: N MSR lines STEP filetime units (100 ns) apart
	awk -v n="$1" -v d="$2" 'BEGIN { for (i = 1; i <= n; i++)
		printf "1281664103%08d,wdev,1,Read,%d,4096,100\n", i * d, i * 4096 }'
}
msr 100 10000 >short.csv # 100 I/Os over 99 ms
msr 30 1000000 >long.csv # 30 I/Os over 2.9 s
for t in short long; do
	"$IOREEL" import -q --from msr $t.csv -o $t.reel || fail "import $t.csv"
	"$IOREEL" info $t.reel >$t.txt || fail "info $t.reel"
done
grep -q '^rate .*mean 1010\.1 IOPS.*no peak (under 1 s' short.txt ||
	fail "short trace: $(grep ^rate short.txt)"
grep -q 'peak 1 s window' short.txt && fail "short trace has a 1 s peak: $(grep ^rate short.txt)"
grep -q '^rate .*; peak 1 s window 10 IOPS' long.txt || fail "long trace: $(grep ^rate long.txt)"
exit 0
