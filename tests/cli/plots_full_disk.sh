#!/bin/bash
# Issue 11 item 8: a full disk.  plot and compare write onto a small tmpfs
# that fills up part way: they exit 1 naming the failure, list nothing as
# produced, and every file left under a final name is complete (each PNG
# with its signature and IEND chunk, each SVG closed, no empty file); no
# temporary is left behind.
. "$TOP/tests/lib.sh"
need_root
command -v gnuplot >/dev/null || skip "gnuplot not installed (apt-get install gnuplot-nox)"
src=$TOP/traces/git.reel
[ -f "$src" ] || skip "no traces/git.reel"
mnt=$T/small
mkdir "$mnt"
mount -t tmpfs -o size=256k tmpfs "$mnt" || skip "cannot mount a tmpfs"
at_exit "umount '$mnt'"
whole() { # FOLDER: every file under a final name is complete
	local f
	for f in $(find "$1" -type f); do
		[ -s "$f" ] || fail "$f: an empty file under a final name"
		case "$f" in
		*.png)
			[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$f: no PNG signature"
			[ "$(tail -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ] || fail "$f: no IEND chunk (cut short)"
			;;
		*.svg) tail -c 16 "$f" | grep -q '</svg>' || fail "$f: not closed (cut short)" ;;
		esac
		case "$(basename "$f")" in .*.ioreel-*) fail "temporary $f left behind" ;; esac
	done
}
for fmt in png svg; do
	rm -rf "${mnt:?}"/*
	"$IOREEL" plot "$src" -o "$mnt/plots" --format $fmt >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 1 ] || { cat "$T/out" "$T/err"; df "$mnt"; fail "plot $fmt on a full disk exited $rc, not 1"; }
	grep -qi 'no space\|write failed' "$T/err" || { cat "$T/err"; fail "plot $fmt: the failure not named"; }
	[ -s "$T/out" ] && { cat "$T/out"; fail "plot $fmt listed plots as produced"; }
	whole "$mnt"
	echo "plot --format $fmt on a full disk: exit 1, $(find "$mnt" -type f | wc -l) complete files left, no half file"
done
rm -rf "${mnt:?}"/*
"$IOREEL" compare "$src" -o "$mnt/rep" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || { cat "$T/err"; fail "compare -o on a full disk exited $rc, not 1"; }
whole "$mnt"
[ -e "$mnt/rep/report.html" ] && fail "report.html written though the plots failed"
echo "compare -o on a full disk: exit 1, no half file"
