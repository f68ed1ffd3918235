#!/bin/bash
# export of a .reel cut short (a crash during capture): the whole chunks
# before the cut are exported, with a warning naming where it stopped; the
# exporters refuse a missing input and an existing output without
# --overwrite, and write to stdout with -o -.
. "$TOP/tests/lib.sh"
# 140k records: three chunks (64Ki records each at most)
/usr/bin/python3 -c '
for i in range(140000):
    print("%d,%d,4096,%s,%d" % (i % 3, i * 8, "r" if i % 4 else "w", i))' >"$T/big.spc"
"$IOREEL" import -q --from spc "$T/big.spc" -o "$T/a.reel" || fail "import"
size=$(stat -c %s "$T/a.reel")
head -c $((size * 2 / 3)) "$T/a.reel" >"$T/cut.reel"
for fmt in csv fio blkparse; do
	"$IOREEL" export --to $fmt "$T/cut.reel" -o "$T/cut.$fmt" 2>"$T/err" || { cat "$T/err"; fail "$fmt export of a cut file"; }
	grep -q "warning: .*cut short" "$T/err" || { cat "$T/err"; fail "$fmt: no warning"; }
	n=$(sed -n 's/.*export: \([0-9]*\) records written.*/\1/p' "$T/err")
	[ "$n" -gt 0 ] && [ "$n" -lt 140000 ] && [ $((n % 65536)) = 0 ] || fail "$fmt: $n records from the cut file"
done
[ "$(($(wc -l <"$T/cut.csv") - 1))" = "$n" ] || fail "csv line count"
# the exported prefix is the trace's prefix
"$IOREEL" export --to csv "$T/a.reel" -o - 2>/dev/null | head -n $((n + 1)) | cmp -s - "$T/cut.csv" ||
	fail "cut export is not a prefix of the full one"
"$IOREEL" export --to csv "$T/nosuch.reel" -o "$T/x.csv" 2>"$T/err" && fail "missing input"
[ ! -e "$T/x.csv" ] || fail "output created for a missing input"
"$IOREEL" export --to csv "$T/a.reel" -o "$T/cut.csv" 2>"$T/err" && fail "overwrote without --overwrite"
grep -q -- "--overwrite" "$T/err" || fail "overwrite message"
"$IOREEL" export --to csv "$T/a.reel" -o "$T/cut.csv" --overwrite 2>/dev/null || fail "--overwrite"
"$IOREEL" export --to nosuch "$T/a.reel" -o - 2>/dev/null && fail "unknown format accepted"
echo ok
