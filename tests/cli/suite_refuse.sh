#!/bin/bash
# Safety: a drive carrying a filesystem is refused without --destroy-data
# naming it, and left unchanged (checksum); bad plans and options are usage
# errors naming the file, line and key.
. "$TOP/tests/cli/suite_lab.inc"
make_shm_loop 32; FS=$LOOP
make_shm_loop 32; OTHER=$LOOP
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 absent"
mkfs.ext4 -q -F "$FS" || fail "mkfs"
before=$(md5sum <"$FS")
"$IOREEL" suite --quick --drive fs="$FS" --drive other="$OTHER" -o "$T/out" 2>"$T/err"
rc=$?
cat "$T/err"
[ $rc = 1 ] || fail "exit $rc, expected 1 (refused)"
grep -q "destroy-data" "$T/err" || fail "the refusal does not say how to proceed"
grep -q "fs=" "$T/err" || fail "the refusal does not name the drive"
[ "$(md5sum <"$FS")" = "$before" ] || fail "the device changed"
# naming the other device does not unlock this one
"$IOREEL" suite --quick --destroy-data="${OTHER#/dev/}" --drive fs="$FS" --drive other="$OTHER" \
	-o "$T/out" 2>/dev/null && fail "accepted with --destroy-data naming another device"
[ "$(md5sum <"$FS")" = "$before" ] || fail "the device changed"
# a plan error names file, line and key; nothing is written
printf '[global]\nqd=1\nbogus=2\n[a]\ntrace=a.reel\n' >"$T/bad.plan"
"$IOREEL" suite "$T/bad.plan" --drive fs="$FS" --drive other="$OTHER" -o "$T/out" 2>"$T/err"
[ $? = 2 ] || fail "bad plan: exit not 2"
grep -q "bad.plan:3:.*bogus" "$T/err" || { cat "$T/err"; fail "bad plan: no file:line:key"; }
"$IOREEL" suite --drive a="$FS" -o "$T/out" 2>/dev/null; [ $? = 2 ] || fail "one drive accepted"
"$IOREEL" suite --drive a="$FS" --drive a="$OTHER" -o "$T/out" 2>/dev/null
[ $? = 2 ] || fail "a name given twice accepted"
"$IOREEL" suite --repeats 1 --drive a="$FS" --drive b="$OTHER" -o "$T/out" 2>/dev/null
[ $? = 2 ] || fail "--repeats 1 accepted"
[ "$(md5sum <"$FS")" = "$before" ] || fail "the device changed"
exit 0
