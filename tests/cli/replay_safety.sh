#!/bin/bash
# Safety: a loop device with an ext4 signature, a mounted one, a wrong
# --destroy-data name, and an existing file not made by ioreel are all
# refused, each saying what was found and how to proceed, and nothing on
# them changes (checksums before and after).  The right name is accepted.
. "$TOP/tests/lib.sh"
need_root
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 absent (e2fsprogs)"
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
S=$(mktemp -d /dev/shm/ioreel-safety.XXXXXX) || fail "mktemp in /dev/shm"
rm_shm() { rm -rf "$S"; }
at_exit rm_shm # (at_exit takes one word)
"$TOOL" gen "$T/w.reel" n=200 rw=write bs=4096 iops=100000 || fail gen

make_loop "$S/fs.img" 32
fsdev=$LOOP
fsname=$(basename "$fsdev")
mkfs.ext4 -q -F "$fsdev" >/dev/null 2>&1 || fail "mkfs.ext4"
sum=$(md5sum <"$fsdev")

refused() { # what args...
	local what=$1
	shift
	if "$IOREEL" replay "$T/w.reel" --timing afap "$@" >"$T/out" 2>&1; then
		cat "$T/out"
		fail "$what: not refused"
	fi
	echo "refused ($what): $(tail -n 1 "$T/out")"
}

refused "ext4 signature" --target "$fsdev"
grep -q "ext4" "$T/out" || fail "the refusal should name the ext4 signature"
grep -q -- "--destroy-data=$fsname" "$T/out" || fail "the refusal should say how to proceed"
refused "wrong --destroy-data name" --target "$fsdev" --destroy-data=sdz
refused "--destroy-data names another loop device" --target "$fsdev" --destroy-data="${fsname}9"
[ "$(md5sum <"$fsdev")" = "$sum" ] || fail "the ext4 device changed"

# mounted: refused even with the right name
mnt="$T/mnt"
mkdir -p "$mnt"
mount -o ro,noload "$fsdev" "$mnt" || fail "mount"
umount_mnt() { umount "$mnt"; }
at_exit umount_mnt
refused "mounted" --target "$fsdev" --destroy-data="$fsname"
grep -q "mounted" "$T/out" || fail "the refusal should say it is mounted"
umount "$mnt" || fail "umount"
[ "$(md5sum <"$fsdev")" = "$sum" ] || fail "the ext4 device changed while mounted"

# partition table
make_loop "$S/pt.img" 16
ptdev=$LOOP
# an MBR with one Linux partition (sectors 2048-18431), written by hand
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\x40\x00\x00' |
	dd of="$ptdev" bs=1 seek=446 conv=notrunc status=none || fail "writing the MBR"
printf '\x55\xaa' | dd of="$ptdev" bs=1 seek=510 conv=notrunc status=none || fail "MBR signature"
ptsum=$(md5sum <"$ptdev")
refused "partition table" --target "$ptdev"
grep -q "partition table" "$T/out" || fail "the refusal should name the partition table"
[ "$(md5sum <"$ptdev")" = "$ptsum" ] || fail "the partitioned device changed"

# held by device mapper (a linear map over a blank loop device)
if command -v dmsetup >/dev/null; then
	make_loop "$S/held.img" 16
	helddev=$LOOP
	dmname="ioreel-test-$$"
	if echo "0 $((16 * 2048)) linear $helddev 0" | dmsetup create "$dmname" 2>/dev/null; then
		dm_remove() { dmsetup remove "$dmname"; }
		at_exit dm_remove
		hsum=$(md5sum <"$helddev")
		refused "held by dm" --target "$helddev" --destroy-data="$(basename "$helddev")"
		grep -q "in use by dm-" "$T/out" || fail "the refusal should name the holder"
		[ "$(md5sum <"$helddev")" = "$hsum" ] || fail "the held device changed"
		dmsetup remove "$dmname" || fail "dmsetup remove"
	else
		echo "device mapper unavailable: holder check not exercised"
	fi
fi

# read-only replays are allowed on all of them and change nothing
"$IOREEL" replay "$T/w.reel" --timing afap --target "$fsdev" --read-only >/dev/null ||
	fail "read-only on an ext4 device should be allowed"
[ "$(md5sum <"$fsdev")" = "$sum" ] || fail "read-only changed the device"

# several targets: --destroy-data is repeatable and takes a list; only
# the targets that carry a signature need naming, each of them, and a
# name that matches no target is a usage error
"$TOOL" gen "$T/w2.reel" n=200 rw=write bs=4096 iops=100000 devs=2 || fail "gen devs=2"
make_loop "$S/blank.img" 16
blank=$LOOP
bname=$(basename "$blank")
"$IOREEL" replay "$T/w2.reel" --timing afap --target "$blank,$fsdev" >"$T/out" 2>&1 &&
	{ cat "$T/out"; fail "two targets, the signed one not named: not refused"; }
grep -q -- "--destroy-data=$fsname" "$T/out" || fail "the refusal should name $fsname"
"$IOREEL" replay "$T/w2.reel" --timing afap --target "$blank,$fsdev" --destroy-data="$fsname" \
	--destroy-data=nosuch0 >"$T/out" 2>&1
[ $? = 2 ] || { cat "$T/out"; fail "--destroy-data naming no target: not a usage error"; }
grep -q "destroy-data=nosuch0 names no target" "$T/out" || fail "the usage error should name nosuch0"
[ "$(md5sum <"$fsdev")" = "$sum" ] || fail "the ext4 device changed"
mkfs.ext4 -q -F "$blank" >/dev/null 2>&1 || fail "mkfs.ext4 on $blank"
bsum=$(md5sum <"$blank")
"$IOREEL" replay "$T/w2.reel" --timing afap --target "$blank,$fsdev" --destroy-data="$fsname" \
	>"$T/out" 2>&1 && { cat "$T/out"; fail "two signed targets, one named: not refused"; }
grep -q -- "($bname) carries" "$T/out" || { cat "$T/out"; fail "the refusal should name $bname"; }
[ "$(md5sum <"$fsdev")" = "$sum" ] || fail "the ext4 device changed"
for names in "--destroy-data=$bname --destroy-data=/dev/$fsname" "--destroy-data=$bname,$fsname"; do
	mkfs.ext4 -q -F "$blank" >/dev/null 2>&1 && mkfs.ext4 -q -F "$fsdev" >/dev/null 2>&1 ||
		fail "mkfs.ext4"
	# shellcheck disable=SC2086 # two words on purpose
	"$IOREEL" replay "$T/w2.reel" --timing afap --target "$blank,$fsdev" $names \
		>"$T/out" 2>&1 || { cat "$T/out"; fail "$names refused"; }
	blkid -p "$blank" >/dev/null 2>&1 || blkid -p "$fsdev" >/dev/null 2>&1 &&
		fail "$names: a signature survived the replay"
done
mkfs.ext4 -q -F "$fsdev" >/dev/null 2>&1 || fail "mkfs.ext4"
sum=$(md5sum <"$fsdev")

# the exact name destroys it (that is what the user chose)
"$IOREEL" replay "$T/w.reel" --timing afap --target "$fsdev" --destroy-data="$fsname" >/dev/null ||
	fail "--destroy-data=$fsname refused"
[ "$(md5sum <"$fsdev")" != "$sum" ] || fail "--destroy-data=$fsname wrote nothing"

# files: an existing file needs --overwrite; a file ioreel created does not
echo "precious" >"$S/file.img"
truncate -s 8M "$S/file.img"
fsum=$(md5sum <"$S/file.img")
refused "existing file" --target "$S/file.img"
grep -q -- "--overwrite" "$T/out" || fail "the refusal should mention --overwrite"
[ "$(md5sum <"$S/file.img")" = "$fsum" ] || fail "the file changed"
"$IOREEL" replay "$T/w.reel" --timing afap --target "$S/file.img" --overwrite >/dev/null ||
	fail "--overwrite refused"
"$IOREEL" replay "$T/w.reel" --timing afap --target "$S/new.img" >/dev/null || fail "new file"
"$IOREEL" replay "$T/w.reel" --timing afap --target "$S/new.img" >/dev/null ||
	fail "a file ioreel created should be reusable without --overwrite"

# -o never replaces a file that is not a replay result
cp "$T/w.reel" "$T/trace-copy.reel"
refused "-o over a trace" --target "$S/new.img" -o "$T/trace-copy.reel"
cmp -s "$T/w.reel" "$T/trace-copy.reel" || fail "-o damaged the trace"
echo "ok"
