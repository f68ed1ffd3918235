#!/bin/bash
# The joiner is not quadratic (issue 11, item 5): a million blkparse lines of
# I/Os queued at one sector and never completed (half Q only, half Q G D)
# import in seconds, and so do 200,000 bios back-merged into one request.  The bound asserted is only a generous hang guard
# (120 s); the time taken is printed.
. "$TOP/tests/lib.sh"
awk 'BEGIN {
	n = 0
	for (i = 0; i < 500000; i++)
		printf "8,0 0 %d %d.%09d 42 Q W 1000 + 8 [dd]\n", ++n, int(i / 100000), (i % 100000) * 1000
	for (i = 0; i < 166667; i++) {
		t = sprintf("%d.%09d", 5 + int(i / 100000), (i % 100000) * 1000)
		printf "8,0 0 %d %s 42 Q W 2000 + 8 [dd]\n", ++n, t
		printf "8,0 0 %d %s 42 G W 2000 + 8 [dd]\n", ++n, t
		printf "8,0 0 %d %s 42 D W 2000 + 8 [dd]\n", ++n, t
	}
}' >"$T/one-sector.txt"
lines=$(wc -l <"$T/one-sector.txt")
[ "$lines" -ge 1000000 ] || fail "generated $lines lines"
start=$(date +%s.%N)
timeout 120 "$IOREEL" import -q --from blkparse "$T/one-sector.txt" -o "$T/o.reel" ||
	fail "import of $lines lines at one sector failed or took over 120 s (quadratic joiner?)"
secs=$(echo "$(date +%s.%N) - $start" | bc)
n=$("$IOREEL" info --json "$T/o.reel" | grep -o '"ios":[0-9]*' | cut -d: -f2)
[ "$n" = 666667 ] || fail "$n records, want 666667"
echo "joiner: $lines lines at one sector, $n I/Os, imported in $secs s"

# 200,000 bios back-merged into one request that never completes
awk 'BEGIN {
	n = 0
	printf "8,0 0 %d 0.000000001 42 Q W 0 + 8 [dd]\n8,0 0 %d 0.000000001 42 G W 0 + 8 [dd]\n", ++n, ++n
	for (i = 1; i < 200000; i++)
		printf "8,0 0 %d 0.%09d 42 Q W %d + 8 [dd]\n8,0 0 %d 0.%09d 42 M W %d + 8 [dd]\n",
			++n, i * 10, i * 8, ++n, i * 10, i * 8
}' >"$T/merged.txt"
start=$(date +%s.%N)
timeout 120 "$IOREEL" import -q --from blkparse "$T/merged.txt" -o "$T/m.reel" ||
	fail "import of 200,000 bios merged into one request failed or took over 120 s"
secs=$(echo "$(date +%s.%N) - $start" | bc)
n=$("$IOREEL" info --json "$T/m.reel" | grep -o '"ios":[0-9]*' | cut -d: -f2)
[ "$n" = 200000 ] || fail "$n records, want 200000"
echo "joiner: 200,000 bios merged into one request imported in $secs s"
