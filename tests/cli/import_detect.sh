#!/bin/bash
# Detection does not confuse the formats: each shared trace is detected as
# its own format, and blktrace binaries and blkparse text are never taken
# for one of the text formats (they go to their own importers when those
# are built, else detection says it cannot tell).
. "$TOP/tests/lib.sh"
P=$SHARED/traces/public
[ -d "$P" ] || skip "$P absent"
detected() { "$IOREEL" import "$1" -o "$T/d.reel" --overwrite 2>&1 | sed -n 's/.* looks like \([a-z0-9]*\) .*/\1/p'; }
for pair in msr/wdev_1.csv:msr fiu/cheetah.cs.fiu.edu-110108-113008.1.head.blkparse:fiu \
	disksim/tpcc-small.trace:disksim fio/t0038.iolog:fio; do
	f=${pair%%:*} want=${pair##*:}
	[ -e "$P/$f" ] || continue
	got=$(detected "$P/$f")
	[ "$got" = "$want" ] || fail "$f detected as '$got', want $want"
	echo "$f -> $got"
done
for f in blkparse/nvme0n1.blktrace.txt blktrace/sda.blktrace.0 blktrace/sda.blktrace.1; do
	[ -e "$P/$f" ] || continue
	got=$(detected "$P/$f")
	case "$got" in
	"" | blktrace | blkparse) echo "$f -> ${got:-(none)}" ;;
	*) fail "$f taken for $got" ;;
	esac
done
# the CSV formats that look alike are told apart by column shapes
printf '0,303567,3584,w,0.000000\n1,55590,3072,r,0.000026\n' >"$T/a"
printf '419,W,307560448,16384,1577808000000147\n419,R,4096,4096,1577808000000200\n' >"$T/b"
printf '1538323200,12345,8,1,1283\n1538323200,800,16,0,1283\n' >"$T/c"
printf '0.5 0 100 8 1\n2.25 1 200 16 0\n' >"$T/d"
for pair in a:spc b:alibaba c:tencent d:disksim; do
	got=$(detected "$T/${pair%%:*}")
	[ "$got" = "${pair##*:}" ] || fail "${pair##*:} sample detected as '$got'"
done
echo ok
