#!/bin/bash
# Command mode on a real filesystem: a cold `cat` of a file on ext4 over a
# loop device.  The reads that fall inside the file's extents (filefrag)
# must add up to exactly the file's size; everything else read is filesystem
# metadata (inode table, extent tree, directory), allowed up to 1 MiB.  The
# capture also uses --drop-caches and --pid-tree and returns cat's status.
. "$TOP/tests/cli/capture.lib"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"
command -v filefrag >/dev/null || skip "filefrag (e2fsprogs) not installed"
make_loop "$T/disk" 128
mkfs.ext4 -q -F -b 4096 "$LOOP" || fail "mkfs.ext4"
mkdir "$T/mnt"
mount "$LOOP" "$T/mnt" || skip "cannot mount ext4"
# (the loop cleanup of lib.sh unmounts it)
SIZE=$((6 * 1024 * 1024 + 12288))
head -c $SIZE /dev/urandom >"$T/mnt/file"
sync
# extents in 4k blocks: "  0:   0..  1023:   34816..  35839:  1024:"
filefrag -v -b4096 "$T/mnt/file" | awk -F'[:. ]+' '/^ *[0-9]+:/ { print $5, $6 }' >"$T/extents"
[ -s "$T/extents" ] || fail "filefrag gave no extents"
"$IOREEL" capture --drop-caches --pid-tree -d "$LOOP" -o "$T/cat.reel" -- \
	sh -c 'cat "$1" >/dev/null; exit 7' sh "$T/mnt/file" 2>"$T/capture.err"
rc=$?
cat "$T/capture.err"
[ $rc = 7 ] || fail "capture returned $rc, the command's status was 7"
"$DUMP" dump "$T/cat.reel" >"$T/dump" || fail "cannot read the capture"
grep -q '^complete 1$' "$T/dump" || fail "no trailer"
grep -q '^meta capture.exit_status 7$' "$T/dump" || fail "exit status not in the metadata"
grep -q '^meta capture.lost_events 0$' "$T/dump" || fail "lost events"
# split the reads: inside the file's extents (data) or not (metadata)
awk 'NR == FNR { s[NR] = $1 * 4096; e[NR] = ($2 + 1) * 4096; n = NR; next }
	$1 == "read" { data = 0
		for (i = 1; i <= n; i++) if ($2 >= s[i] && $2 + $3 <= e[i]) data = 1
		if (data) d += $3; else m += $3 }
	$1 == "write" { w += $3 }
	END { printf "%d %d %d\n", d, m, w }' "$T/extents" "$T/dump" >"$T/sums"
read -r data meta writes <"$T/sums"
echo "file $SIZE bytes; data reads $data bytes; metadata reads $meta bytes; writes $writes bytes"
cat "$T/sums" >&2; [ "$data" = "$SIZE" ] || fail "data reads total $data bytes, the file has $SIZE"
[ "$meta" -le $((1024 * 1024)) ] || fail "metadata reads $meta bytes > 1 MiB"
awk '$1 == "read" && $11 != "cat" && $11 != "sh" { bad++ } END { exit bad > 0 }' "$T/dump" ||
	fail "--pid-tree kept a read of another process"
