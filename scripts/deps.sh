#!/bin/sh
# Checks the Debian packages ioreel needs; installs the missing ones when run
# as root (apt-get update first), otherwise prints the one apt-get line.
# deps.sh [check]: "check" adds what the tests and benchmarks use besides.
PKGS="build-essential pkg-config liblz4-dev libxxhash-dev zlib1g-dev libmsgpack-dev libaio-dev liburing-dev
libtracefs-dev libtraceevent-dev libblkid-dev libjson-c-dev libinih-dev gnuplot-nox fio xz-utils zstd lz4 util-linux"
[ "${1:-}" = check ] && PKGS="$PKGS clang python3 python3-lz4 python3-msgpack trace-cmd blktrace
e2fsprogs bc procps time chromium clang-format libopenmpi-dev openmpi-bin"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "ioreel: installing missing packages:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 && apt-get install -y -qq $missing >&2 && exit 0
	echo "ioreel: apt-get failed; install by hand:" >&2
else
	echo "ioreel: missing packages; run as root:" >&2
fi
echo "  apt-get update && apt-get install -y$missing" >&2
exit 1
