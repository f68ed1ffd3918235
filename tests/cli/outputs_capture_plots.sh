#!/bin/bash
# Issue 11 items 1, 2, 3 and 10 for capture, plot, compare and demo: every
# output option pointed at a block device (a loop device, and a private
# node of it), a private character device node (like /dev/null), a FIFO, a
# symbolic link to a file (and to a folder), the input itself, a read-only
# folder and a full tmpfs: each is refused, at once, or gives a complete
# output; checksums show that nothing else changed.  Symbolic links planted
# inside an output folder (DIR/data/, DIR/NAME.png) are refused, never
# followed, with or without --overwrite.
. "$TOP/tests/lib.sh"
need_root
L=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-logs.XXXXXX") # logs: outside what is checked
at_exit "rm -rf '$L'"
src=$TOP/traces/git.reel
[ -f "$src" ] || skip "no traces/git.reel"
have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1
have_capture=0
[ -d /sys/kernel/tracing/events/block/block_rq_issue ] && have_capture=1

make_loop "$L/cap.img" 16
CAPDEV=$LOOP
make_loop "$L/victim.img" 16
VDEV=$LOOP
dd if=/dev/urandom of="$VDEV" bs=1M count=4 oflag=direct status=none || fail "fill $VDEV"
read -r maj min < <(stat -Lc '%t %T' "$VDEV")
mknod "$T/blk" b $((16#$maj)) $((16#$min)) || fail "mknod b"
mknod "$T/null" c 1 3 || fail "mknod c"
mkfifo "$T/fifo"
echo "precious" >"$T/victim"
ln -s "$T/victim" "$T/link"
mkdir "$T/victimdir"
echo "precious too" >"$T/victimdir/file"
ln -s "$T/victimdir" "$T/dlink"
cp "$src" "$T/in.reel"
mkdir "$T/ro" "$T/full"
mount -t tmpfs -o size=1m,ro tmpfs "$T/ro" || skip "cannot mount a tmpfs"
at_exit "umount '$T/ro'"
mount -t tmpfs -o size=64k tmpfs "$T/full" || fail "mount tmpfs"
at_exit "umount '$T/full'"
dd if=/dev/zero of="$T/full/filler" bs=4k status=none 2>/dev/null

# snap: names, types, sizes, link targets, contents (regular files, the
# devices' first 4 MiB) of everything the test owns; $T/full is checked apart
snap() {
	(
		cd "$T" && find . -path ./full -prune -o -printf '%p %y %s %l\n' | sort
		find . -path ./full -prune -o -type f -print0 | sort -z | xargs -0 md5sum
		dd if="$VDEV" bs=1M count=4 iflag=direct status=none | md5sum
		dd if="$CAPDEV" bs=1M count=4 iflag=direct status=none | md5sum
	) | md5sum
}
# full_clean: the full tmpfs holds no temporary and no empty or partial file
full_clean() {
	local f
	for f in $(find "$T/full" -type f ! -name filler); do
		case "$(basename "$f")" in .*.ioreel-*) fail "$1: temporary $f left on the full disk" ;; esac
		[ -s "$f" ] || fail "$1: empty $f left on the full disk"
	done
	find "$T/full" -mindepth 1 -maxdepth 1 ! -name filler -exec rm -rf {} +
}
n=0
# refused WHAT CMD...: exits non-zero within 60 s and changes nothing
refused() {
	local what=$1 before after rc
	shift
	before=$(snap)
	timeout 60 "$@" >"$L/out" 2>&1
	rc=$?
	[ $rc = 124 ] && fail "$what: blocked (killed after 60 s)"
	[ $rc = 0 ] && { cat "$L/out"; fail "$what: accepted (exit 0)"; }
	after=$(snap)
	[ "$before" = "$after" ] || { cat "$L/out"; fail "$what: something else changed"; }
	[ "$(cat "$T/victim")" = precious ] || fail "$what: the victim file changed"
	[ -c "$T/null" ] && [ -b "$T/blk" ] && [ -p "$T/fifo" ] || fail "$what: a node was replaced"
	full_clean "$what"
	n=$((n + 1))
}
BAD="$VDEV $T/blk $T/null $T/fifo $T/link $T/ro/out $T/full/out"

# ---- capture -o FILE
if [ $have_capture = 1 ]; then
	for o in $BAD $CAPDEV $T/in.reel; do
		for ow in "" --overwrite; do
			[ "$o" = "$T/in.reel" ] && [ -n "$ow" ] && continue # replacing a file asked for
			refused "capture -o $o $ow" "$IOREEL" capture -q -d "$CAPDEV" --duration 0.3 -o "$o" $ow
		done
	done
	"$IOREEL" capture -q -d "$CAPDEV" --duration 0.3 -o "$L/ok.reel" || fail "capture to a new file"
	"$TOP/$BUILD/tests/unit/test_capture_rwbs" dump "$L/ok.reel" | grep -q '^complete 1$' ||
		fail "capture to a new file: not complete"
	echo "capture -o: every bad output refused, a new file complete"
else
	echo "capture: skipped (no block tracepoints)"
fi

# ---- plot -o DIR, compare -o DIR, demo -o DIR
DIRS="$BAD $T/dlink $T/in.reel"
for o in $DIRS; do
	for ow in "" --overwrite; do
		refused "plot -o $o $ow" "$IOREEL" plot "$T/in.reel" -o "$o" $ow
		refused "compare -o $o $ow" "$IOREEL" compare "$T/in.reel" -o "$o" $ow
		refused "demo -o $o $ow" env TMPDIR="$L" "$IOREEL" demo --trace "$T/in.reel" -o "$o" $ow
	done
done
# a folder that is not ioreel's: only with --overwrite
refused "plot into a folder of other files" "$IOREEL" plot "$T/in.reel" -o "$T/victimdir"
echo "plot, compare, demo -o: every bad folder refused"

if [ $have_gnuplot = 1 ]; then
	good=$L/good
	"$IOREEL" plot "$T/in.reel" -o "$good" >/dev/null || fail "plot into a new folder"
	"$IOREEL" plot "$T/in.reel" -o "$good" >/dev/null || fail "plot again into its own folder"
	[ -e "$good/.ioreel-output" ] || fail "the folder not marked as ioreel's"
	# planted symbolic links inside the output folder
	for planted in data/tput_1.dat throughput.png .ioreel-output; do
		mv "$good/$planted" "$L/saved"
		ln -s "$T/victim" "$good/$planted"
		for ow in "" --overwrite; do
			# a planted marker does not make the folder ioreel's; with
			# --overwrite it is not needed (nor written): accepted, untouched
			[ $planted = .ioreel-output ] && [ -n "$ow" ] && continue
			refused "plot over a planted $planted $ow" "$IOREEL" plot "$T/in.reel" -o "$good" $ow
		done
		rm "$good/$planted"
		mv "$L/saved" "$good/$planted"
	done
	mv "$good/data" "$L/saved-data"
	ln -s "$T/victimdir" "$good/data"
	refused "plot with a planted data/ link" "$IOREEL" plot "$T/in.reel" -o "$good" --overwrite
	rm "$good/data"
	rm "$good/.ioreel-output"
	ln -s "$T/victim" "$good/.ioreel-output"
	before=$(snap)
	"$IOREEL" plot "$T/in.reel" -o "$good" --overwrite >/dev/null ||
		fail "plot --overwrite with a planted marker"
	[ "$before" = "$(snap)" ] && [ "$(cat "$T/victim")" = precious ] || fail "the planted marker was followed"
	"$IOREEL" compare "$T/in.reel" -o "$L/rep" >/dev/null || fail "compare into a new folder"
	[ -s "$L/rep/report.html" ] && [ -s "$L/rep/report.md" ] || fail "compare: no report"
	echo "plot: planted links refused; new folders complete"
fi
echo "ok: $n refusals, nothing else changed"
