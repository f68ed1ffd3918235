#!/bin/bash
# traces/make-traces.sh - how the traces in traces/ were made: real workloads
# on ext4 over a loop device (backing file on the host disk, direct I/O),
# cold cache (ioreel capture --drop-caches), captured by ioreel itself.
# Run as root from the repository root after `make`:  bash traces/make-traces.sh [NAME...]
# NAMEs: compile chromium git (default: all).  Writes traces/NAME.reel and NAME.md.
set -eu
TOP=$(pwd)
IOREEL=$TOP/build/ioreel
OUT=$TOP/traces
W=$(mktemp -d /var/tmp/ioreel-traces.XXXXXX)
LOOP=""
cleanup() {
	set +e
	mountpoint -q "$W/mnt" && umount "$W/mnt"
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf "$W"
}
trap cleanup EXIT
truncate -s 2G "$W/disk.img"
LOOP=$(losetup -f --show --direct-io=on "$W/disk.img")
# no lazy inode-table / journal init: its zeroing would run during the captures
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
mkdir "$W/mnt"
mount "$LOOP" "$W/mnt"
M=$W/mnt

note() { # NAME COMMAND-TEXT DESCRIPTION
	local n=$1
	local ios
	ios=$("$TOP/build/tests/unit/test_capture_rwbs" dump "$OUT/$n.reel" |
		awk '$1 ~ /^(read|write|discard|flush|write-zeroes)$/ { n++; c[$1]++ }
		     END { printf "%d (", n; s = ""; for (k in c) { printf "%s%s %d", s, k, c[k]; s = ", " } printf ")" }')
	cat >"$OUT/$n.md" <<NOTE
# traces/$n.reel

- What: $3
- Command: \`$2\`
- Captured with: \`ioreel capture --drop-caches -d $LOOP -o $n.reel -- ...\` (cold page cache)
- Kernel: $(uname -r) ($(uname -m)), $(nproc) CPUs
- Device: $LOOP ($(cat /sys/block/$(basename $LOOP)/size) sectors of 512 B), a loop device
  with direct I/O over a file on the host's virtio disk, formatted ext4 (4 KiB blocks)
- Date: $(date -u '+%Y-%m-%d %H:%M UTC')
- I/O count: $ios
- File size: $(stat -c %s "$OUT/$n.reel") bytes
- Made by: traces/make-traces.sh $n
NOTE
}

capture() { # NAME COMMAND...
	local n=$1
	shift
	"$IOREEL" capture --drop-caches --overwrite -q -d "$LOOP" -o "$OUT/$n.reel" -- "$@"
}

want() { [ $# -eq 0 ] || [[ " $* " == *" $1 "* ]]; }
names=" ${*:-compile chromium git} "

if [[ $names == *" compile "* ]]; then
	# a C/C++ build from the fs: ioreel itself and googletest (Debian's
	# /usr/src/googletest), configured beforehand, built with make -j2, then
	# sync so the objects are written back inside the capture
	mkdir "$M/ioreel" "$M/gtest-build"
	git -C "$TOP" archive HEAD | tar -x -C "$M/ioreel"
	cp -a /usr/src/googletest "$M/googletest"
	(cd "$M/gtest-build" && cmake -S "$M/googletest" -B . >/dev/null)
	sync
	capture compile sh -c "make -C $M/ioreel -j2 build/ioreel >/dev/null 2>&1 && make -C $M/gtest-build -j2 >/dev/null 2>&1 && sync"
	note compile "make -j2 build/ioreel (ioreel's sources) && make -j2 (googletest, cmake build) && sync" \
		"a C and C++ build: compilers reading sources from the fs, writing objects, libraries and the binary"
fi
if [[ $names == *" chromium "* ]]; then
	# cold start of a large program run from the fs: chromium headless
	cp -a /usr/lib/chromium "$M/chromium"
	sync
	capture chromium sh -c "$M/chromium/chromium --headless --no-sandbox --disable-gpu --user-data-dir=$M/profile --dump-dom about:blank >/dev/null 2>&1; sync"
	note chromium "chromium --headless --no-sandbox --disable-gpu --user-data-dir=PROFILE --dump-dom about:blank; sync" \
		"cold start of chromium (binary, .pak resources, ICU data, profile creation) from the fs"
fi
if [[ $names == *" git "* ]]; then
	# a git repository of the Python standard library on the fs: cold
	# git status (stats every file, reads the index) and git log --stat
	mkdir "$M/repo"
	cp -a /usr/lib/python3.11/. "$M/repo/"
	(cd "$M/repo" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm import &&
		echo "# change" >>os.py && git -c user.name=t -c user.email=t@t commit -qam change)
	echo "# local edit" >>"$M/repo/json/__init__.py"
	sync
	g="cd $M/repo && git status --porcelain >/dev/null && git log --stat >/dev/null"
	g="$g && { git grep -c -e no-such-string-here >/dev/null; true; } && git gc -q && sync"
	capture git sh -c "$g"
	note git "cd REPO && git status --porcelain && git log --stat && git grep -c -e no-such-string-here; git gc -q && sync" \
		"git over a repository of the Python 3.11 standard library (about 5000 files) on the fs: cold status, log, grep over the work tree (reads every file), gc (repack writes)"
fi
ls -la "$OUT"/*.reel
