#!/bin/bash
# SPC / UMass, Alibaba and Tencent CBS (no public copy in the shared
# traces): small synthesized samples with known contents; every field is
# checked, each format is detected as itself, and each round-trips through
# the reference reader and the fio and blkparse exports (see import.inc).
. "$TOP/tests/lib.sh"
. "$TOP/tests/cli/import.inc"
H=queue_ns,issue_ns,complete_ns,op,flags,dev,offset,length,pid,comm,cpu,error

# --- SPC: ASU,LBA,Size(bytes),Opcode,Timestamp(s); ASU -> device id
cat >"$T/fin.spc" <<'S'
0,303567,3584,w,0.000000
1,55590,3072,r,0.000026
0,303574,3584,W,0.012327
2,10,512,R,1.5
1,55600,4096,w,1.500000001
S
"$IOREEL" import "$T/fin.spc" -o "$T/spc.reel" 2>"$T/err" || { cat "$T/err"; fail "spc import"; }
grep -q 'looks like spc ' "$T/err" || { cat "$T/err"; fail "spc not detected"; }
"$IOREEL" export --to csv "$T/spc.reel" -o "$T/spc.csv" 2>/dev/null || fail "export"
cat >"$T/want" <<W
$H
0,,,write,,0,155426304,3584,,,,
26000,,,read,,1,28462080,3072,,,,
12327000,,,write,,0,155429888,3584,,,,
1500000000,,,read,,2,5120,512,,,,
1500000001,,,write,,1,28467200,4096,,,,
W
diff "$T/want" "$T/spc.csv" || fail "spc records"
# --lba-size scales LBAs
"$IOREEL" import --from spc --lba-size 4096 "$T/fin.spc" -o "$T/spc4k.reel" 2>/dev/null || fail "lba-size"
"$IOREEL" export --to csv "$T/spc4k.reel" -o - 2>/dev/null | sed -n 2p | grep -q '^0,,,write,,0,1243410432,3584,' ||
	fail "--lba-size 4096"
roundtrip "$T/fin.spc" spc 5

# --- Alibaba: device_id,opcode,offset,length,timestamp(us, Unix time)
cat >"$T/ali.csv" <<'S'
419,W,307560448,16384,1577808000000147
419,R,4096,4096,1577808000000200
12,W,0,65536,1577808000000200
419,W,307576832,512,1577808001000000
S
"$IOREEL" import "$T/ali.csv" -o "$T/ali.reel" 2>"$T/err" || { cat "$T/err"; fail "alibaba import"; }
grep -q 'looks like alibaba ' "$T/err" || { cat "$T/err"; fail "alibaba not detected"; }
"$IOREEL" export --to csv "$T/ali.reel" -o "$T/ali.csv.out" 2>/dev/null || fail "export"
cat >"$T/want" <<W
$H
0,,,write,,419,307560448,16384,,,,
53000,,,read,,419,4096,4096,,,,
53000,,,write,,12,0,65536,,,,
999853000,,,write,,419,307576832,512,,,,
W
diff "$T/want" "$T/ali.csv.out" || fail "alibaba records"
roundtrip "$T/ali.csv" alibaba 4

# --- Tencent CBS: Timestamp(s),Offset(sectors),Size(sectors),IOType(0 r/1 w),VolumeID
cat >"$T/cbs.csv" <<'S'
1538323200,12345,8,1,1283
1538323200,800,16,0,1283
1538323201,0,256,0,7
1538323260,99,1,1,1283
S
"$IOREEL" import "$T/cbs.csv" -o "$T/cbs.reel" 2>"$T/err" || { cat "$T/err"; fail "tencent import"; }
grep -q 'looks like tencent ' "$T/err" || { cat "$T/err"; fail "tencent not detected"; }
"$IOREEL" export --to csv "$T/cbs.reel" -o "$T/cbs.out" 2>/dev/null || fail "export"
cat >"$T/want" <<W
$H
0,,,write,,1283,6320640,4096,,,,
0,,,read,,1283,409600,8192,,,,
1000000000,,,read,,7,0,131072,,,,
60000000000,,,write,,1283,50688,512,,,,
W
diff "$T/want" "$T/cbs.out" || fail "tencent records"
roundtrip "$T/cbs.csv" tencent 4

# --- headers naming the columns are read as headers, not data
{ echo "Timestamp,Offset,Size,IOType,VolumeID"; cat "$T/cbs.csv"; } >"$T/cbs_h.csv"
"$IOREEL" import --from tencent "$T/cbs_h.csv" -o "$T/cbs_h.reel" 2>"$T/err" || { cat "$T/err"; fail "header"; }
grep -q 'import: 4 records' "$T/err" || fail "header line counted as a record"

# --- out-of-order input is sorted by queue time (within the window)
printf '0,10,512,r,2.0\n0,20,512,r,1.0\n0,30,512,w,3.0\n' >"$T/ooo.spc"
"$IOREEL" import --from spc "$T/ooo.spc" -o "$T/ooo.reel" 2>/dev/null || fail "ooo import"
"$IOREEL" export --to csv "$T/ooo.reel" -o - 2>/dev/null | tail -n +2 | cut -d, -f1,7 >"$T/ooo.out"
printf '0,10240\n1000000000,5120\n2000000000,15360\n' >"$T/ooo.want"
diff "$T/ooo.want" "$T/ooo.out" || fail "out-of-order records not sorted"
echo ok
