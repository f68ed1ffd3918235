#!/bin/bash
# fio iolog: the shared v3 fixture round-trips; a v2 log with waits; a log
# that fio writes itself is imported with the counts fio reports.
. "$TOP/tests/lib.sh"
. "$TOP/tests/cli/import.inc"
src=$SHARED/traces/public/fio/t0038.iolog
[ -e "$src" ] || skip "$src absent"
n=$(grep -cE ' (read|write|trim|sync|datasync) ' "$src")
roundtrip "$src" fio "$n"

# version 2: no times; "wait" adds microseconds
cat >"$T/v2.log" <<'L'
fio version 2 iolog
/dev/sdz add
/tmp/other add
/dev/sdz open
/dev/sdz read 4096 512
/dev/sdz wait 1500
/tmp/other write 0 8192
/dev/sdz wait 10 0
/dev/sdz trim 1048576 65536
/dev/sdz sync 0 0
/dev/sdz datasync 0 0
/dev/sdz close
L
"$IOREEL" import "$T/v2.log" -o "$T/v2.reel" 2>"$T/v2.err" || { cat "$T/v2.err"; fail "v2 import"; }
grep -q 'looks like fio' "$T/v2.err" || fail "v2 not detected"
"$IOREEL" export --to csv "$T/v2.reel" -o "$T/v2.csv" 2>/dev/null || fail "export"
cat >"$T/v2.want" <<'W'
queue_ns,issue_ns,complete_ns,op,flags,dev,offset,length,pid,comm,cpu,error
0,,,read,,0,4096,512,,,,
1500000,,,write,,1,0,8192,,,,
1510000,,,discard,,0,1048576,65536,,,,
1510000,,,flush,,0,0,0,,,,
1510000,,,flush,,0,0,0,,,,
W
diff "$T/v2.want" "$T/v2.csv" || fail "v2 records"
"$IOREEL" export --to fio "$T/v2.reel" -o "$T/v2.v3" 2>/dev/null || fail "export v2 as v3"
grep -q '^1501 /tmp/other write 0 8192$' "$T/v2.v3" || { cat "$T/v2.v3"; fail "v3 export times"; }

# a log fio writes itself (rate-limited so times are spread), imported
# with fio's own counts
fio --name=w --filename="$T/data" --size=1M --bs=4k --rw=randrw --ioengine=psync \
	--rate_iops=2000 --number_ios=200 --write_iolog="$T/own.log" --output-format=json \
	>"$T/own.json" 2>/dev/null || fail "fio write_iolog run"
"$IOREEL" import "$T/own.log" -o "$T/own.reel" 2>/dev/null || fail "import fio's own log"
"$IOREEL" export --to csv "$T/own.reel" -o "$T/own.csv" 2>/dev/null || fail "export"
[ "$(reel_counts "$T/own.csv")" = "$(fio_counts "$T/own.json")" ] ||
	fail "fio did $(fio_counts "$T/own.json"), imported $(reel_counts "$T/own.csv")"
last=$(tail -n 1 "$T/own.csv" | cut -d, -f1)
[ "$last" -gt 20000000 ] && [ "$last" -lt 5000000000 ] ||
	fail "200 I/Os at 2000 IOPS should span ~0.1 s, got $last ns (time unit?)"
echo ok
