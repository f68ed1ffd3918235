#!/bin/bash
# traces/make-traces.sh - how the traces in traces/ were made: real workloads
# on ext4 over a loop device (backing file on the host disk, direct I/O),
# cold cache (ioreel capture --drop-caches), captured by ioreel itself.
# Run as root from the repository root after `make`:  bash traces/make-traces.sh [NAME...]
# NAMEs: compile chromium git kernel-src boot boot-nspawn (default: all).
# Writes traces/NAME.reel and NAME.md.  kernel-src, the one of 100k I/O or
# more (issue 13's model-size target is judged on it), unpacks Debian's
# linux-source-6.1 (`apt-get download`: the only network it needs) onto an
# ext4 of its own.  boot and boot-nspawn boot a Debian 12 image
# (tests/cli/boot.lib: built by mmdebstrap once, cached in $IOREEL_BOOT_CACHE,
# default /var/cache/ioreel-boot) under QEMU and systemd-nspawn.
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
names=" ${*:-compile chromium git kernel-src boot boot-nspawn} "
mkdir "$W/mnt"
M=$W/mnt
if [[ $names == *" compile "* || $names == *" chromium "* || $names == *" git "* ]]; then
	truncate -s 2G "$W/disk.img"
	LOOP=$(losetup -f --show --direct-io=on "$W/disk.img")
	# no lazy inode-table / journal init: its zeroing would run during the captures
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
	mount "$LOOP" "$W/mnt"
fi

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
- Kernel: $(uname -r) ($(uname -m)), $(nproc) CPUs${NOTE_KERNEL:-}
- Device: $LOOP ($(cat /sys/block/$(basename $LOOP)/size) sectors of 512 B), a loop device
  with direct I/O over a file on the host's virtio disk, ${NOTE_FS:-formatted ext4 (4 KiB blocks)}
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
if [[ $names == *" kernel-src "* ]]; then
	# a large tree written, then read cold: the Linux 6.1 sources of
	# Debian's linux-source-6.1 less drivers/ unpacked with tar onto a fresh
	# 4 GiB ext4 and synced (ext4's writeback), the page cache dropped, then
	# grep -r over the tree (reads every file, its directories and inodes).
	# drivers/ (33,600 of the 78,600 files) is left out to keep the file
	# near 1 MB: the whole tree is 204k I/O, 1.68 MB (8.2 bytes per I/O at
	# LZ4 level 1 or 9 alike).  The .tar.xz is unpacked to a plain .tar on
	# the host's disk first, outside the capture (xz's CPU would pace it)
	if mountpoint -q "$M"; then umount "$M"; fi
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	(cd "$W" && apt-get download -q linux-source-6.1 >/dev/null)
	deb=$(ls "$W"/linux-source-6.1_*.deb)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -O ./usr/src/linux-source-6.1.tar.xz | xz -dc >"$W/linux.tar"
	truncate -s 4G "$W/src.img"
	LOOP=$(losetup -f --show --direct-io=on "$W/src.img")
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
	mount "$LOOP" "$M"
	mkdir "$M/src"
	sync
	k="tar -x -f $W/linux.tar -C $M/src --exclude=linux-source-6.1/drivers && sync && echo 3 >/proc/sys/vm/drop_caches"
	k="$k && { grep -r -c -e no-such-string-here $M/src >/dev/null; true; } && sync"
	capture kernel-src sh -c "$k"
	NOTE_FS="formatted ext4 (4 KiB blocks), 4 GiB"
	note kernel-src "tar -x -f linux-source-6.1.tar -C DIR --exclude=linux-source-6.1/drivers && sync && echo 3 >/proc/sys/vm/drop_caches && grep -r -c -e no-such-string-here DIR; sync" \
		"the Linux 6.1 source tree of Debian's $(basename "$deb" .deb | sed 's/_all$//') less drivers/ (390 MB in about 47,000 files; the .tar.xz unpacked to .tar beforehand, off the device) written onto the fs with tar and synced, the page cache dropped, then a cold grep -r over it (reads every file, its directories and inodes)"
	NOTE_FS=""
	umount "$M"
fi
if [[ $names == *" boot "* || $names == *" boot-nspawn "* ]]; then
	# the image: a Debian 12 minimal system whose root fs is the whole disk
	# (/dev/vda), powering itself off once the boot has finished
	. "$TOP/tests/cli/boot.lib"
	boot_need_tools
	boot_image
	if mountpoint -q "$M"; then umount "$M"; fi
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	boot_copy "$W/boot.img"
	LOOP=$(losetup -f --show --direct-io=on "$W/boot.img")
	NOTE_FS="the guest's whole disk: a copy of the image, ext4 (4 KiB blocks), no partition table"
fi
if [[ $names == *" boot "* ]]; then
	# a cold VM boot: QEMU (TCG) boots the image from the loop device with
	# cache=none, so each guest request is an O_DIRECT request on the loop
	# device; from QEMU's start to the guest's poweroff
	boot_qemu_args "$LOOP"
	capture boot "${BOOT_QEMU[@]}" >"$W/console" 2>&1 </dev/null
	grep -q "$BOOT_MARKER" "$W/console" || { tail -n 20 "$W/console"; echo "the guest did not finish its boot" >&2; exit 1; }
	gk=$(grep -o 'Linux version [^ ]*' "$W/console" | head -1 | cut -d' ' -f3)
	NOTE_KERNEL="; guest kernel $gk (Debian 12), QEMU $(qemu-system-x86_64 --version | head -1 | awk '{ print $4 }')"
	note boot "$(boot_cmdline "${BOOT_QEMU[@]}")" \
		"cold boot of a Debian 12 minimal system (mmdebstrap --variant=minbase: systemd, udev, dbus; tests/cli/boot.lib) under QEMU (TCG, 2 vCPUs, 1 GiB), virtio disk with cache=none, from QEMU's start to the guest's poweroff (a unit powers off once systemctl is-system-running --wait returns). Includes QEMU's own probe reads at offset 0 (3 queued and never issued)"
	# the image is now booted once: boot-nspawn gets a fresh copy
	losetup -d "$LOOP"
	boot_copy "$W/boot.img"
	LOOP=$(losetup -f --show --direct-io=on "$W/boot.img")
fi
if [[ $names == *" boot-nspawn "* ]]; then
	# the same tree booted as a container: systemd and its units, no kernel,
	# no initramfs, no udev coldplug of real devices
	mount "$LOOP" "$M"
	boot_nspawn_args "$M"
	capture boot-nspawn "${BOOT_NSPAWN[@]}" >"$W/console" 2>&1 </dev/null
	grep -q "$BOOT_MARKER" "$W/console" || { tail -n 20 "$W/console"; echo "the container did not finish its boot" >&2; exit 1; }
	NOTE_KERNEL="; the container runs on the host kernel, systemd-nspawn $(systemd-nspawn --version | head -1 | awk '{ print $2 }')"
	note boot-nspawn "systemd-nspawn -q --register=no --keep-unit --boot -D MOUNTPOINT" \
		"boot of the same Debian 12 tree (tests/cli/boot.lib) as a systemd-nspawn container, mounted from the loop device: systemd's units from start to poweroff (a unit powers off once systemctl is-system-running --wait returns); no kernel or initramfs"
	umount "$M"
fi
ls -la "$OUT"/*.reel
