#!/bin/bash
# Large I/Os reach the device as the trace had them (issue 12, item 6): a
# trace I/O that the replay submits as one request must not arrive as
# several bios (the block layer's max_sectors_kb splits are joined back by
# the capture).  The direct-I/O path puts one bio_vec per physically
# contiguous run of a buffer and at most 256 in a bio (BIO_MAX_VECS): a
# buffer of scattered 4 KiB pages leaves a 2.5 MiB read as bios of 1 MiB,
# 1 MiB and 512 KiB; a buffer in 2 MiB huge pages leaves it whole.
#
# On a loop device over /dev/shm, `ioreel capture` records
#   - a trace of reads and writes of 1.5 to 9 MiB replayed at its default
#     depth (32: the arena's slices are 8 MiB, the 9 MiB I/Os get buffers
#     of their own, made during the replay) and at --qd 128 (slices of
#     2 MiB: every I/O over 2 MiB gets its own),
#   - traces/chromium.reel at --qd 128 (63 reads of 2.5 MiB, own buffers),
# and fio replaying the same (read_iolog of `ioreel export --to fio`,
# libaio, its buffers in 4 KiB pages).  Fails when the replay splits an
# I/O that fio does not, and, where the kernel gave transparent huge pages
# throughout (thp_fault_fallback unchanged), when it splits any at all.
. "$TOP/tests/lib.sh"
need_root
PY=/usr/bin/python3 # not a pyenv shim: 2 s a start
[ -x "$PY" ] || PY=$(command -v python3) || skip "python3 absent"
# the second check needs transparent huge pages (a reserved hugetlb pool
# may be smaller than the replay's buffers, and its refusals are not counted)
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo "[never]")
huge=1
case "$thp" in *"[never]"*) huge="" ;; esac
havefio=""
command -v fio >/dev/null && havefio=1
[ -n "$huge$havefio" ] || skip "no transparent huge pages (enabled: never) and no fio to compare with"
S=$(mktemp -d /dev/shm/ioreel-split.XXXXXX) || fail "mktemp in /dev/shm"
rm_shm() { rm -rf "$S"; }
at_exit rm_shm # (at_exit takes one word)
make_loop "$S/disk.img" 2048
dev=$(basename "$LOOP")

# the synthetic trace: fio iolog v2, reads and writes, 1 MiB apart
{
	echo "fio version 2 iolog"
	echo "$LOOP add"
	echo "$LOOP open"
	off=0
	for i in $(seq 0 27); do
		case $((i % 7)) in 0) kb=1536 ;; 1) kb=2560 ;; 2) kb=3072 ;; 3) kb=4096 ;; 4) kb=2560 ;; 5) kb=3584 ;; 6) kb=9216 ;; esac
		op=read
		[ $((i % 3)) = 0 ] && op=write
		echo "$LOOP $op $off $((kb * 1024))"
		off=$((off + kb * 1024 + 1048576))
	done
	echo "$LOOP close"
} >"$T/syn.log"
"$IOREEL" import -q --from fio "$T/syn.log" -o "$T/syn.reel" || fail "import of the synthetic iolog"

fallback() { awk '$1 ~ /^thp_fault_fallback/ { n += $2 } END { print n + 0 }' /proc/vmstat; }
# splits TAG TRACE command...: capture $LOOP while the command runs; the
# trace I/Os that arrived as several bios into $T/TAG.splits
splits() {
	local tag=$1 tr=$2
	shift 2
	"$IOREEL" capture -q -d "$LOOP" -o "$T/$tag.cap" --overwrite -- "$@" >"$T/$tag.out" 2>&1 ||
		{ cat "$T/$tag.out"; fail "$tag: capture of the replay"; }
	"$IOREEL" dump "$tr" >"$T/$tag.t" && "$IOREEL" dump "$T/$tag.cap" >"$T/$tag.c" || fail "$tag: dump"
	"$PY" "$TOP/tests/cli/replay_roundtrip.py" --splits "$T/$tag.t" "$T/$tag.c" | sort >"$T/$tag.splits" ||
		fail "$tag: attribution"
}
fio_splits() { # TAG TRACE DEPTH
	"$IOREEL" export --to fio "$2" -o "$T/$1.log" >/dev/null 2>&1 || fail "$1: export --to fio"
	sed -i "s#^\([0-9]*\) [^ ]* #\1 $LOOP #" "$T/$1.log"
	splits "$1" "$2" fio --name=split --read_iolog="$T/$1.log" --replay_no_stall=1 --ioengine=libaio \
		--iodepth="$3" --direct=1 --output=/dev/null
}
bad=0
# check TAG FIOTAG: ioreel's run TAG against fio's run FIOTAG
check() {
	local n nf only
	n=$(wc -l <"$T/$1.splits")
	echo "$1: $n trace I/Os arrived as several bios (ops and pieces: $(awk '{ print $1 "/" $4 }' "$T/$1.splits" | sort | uniq -c | tr -s ' \n' ' '))"
	if [ -n "$havefio" ]; then
		nf=$(wc -l <"$T/$2.splits")
		only=$(comm -23 "$T/$1.splits" "$T/$2.splits" | wc -l)
		echo "   fio: $nf; split by ioreel and not by fio: $only"
		[ "$only" = 0 ] || { echo "FAIL: $1: $only I/Os split by ioreel and not by fio, e.g.:" \
			"$(comm -23 "$T/$1.splits" "$T/$2.splits" | head -3 | tr '\n' ';')"; bad=1; }
	fi
	if [ -n "$huge" ] && [ "$n" != 0 ]; then
		if [ "$(cat "$T/$1.fb")" = 0 ]; then
			echo "FAIL: $1: $n I/Os split though the kernel refused no huge page meanwhile" \
				"(thp_fault_fallback unchanged): the replay's buffers are not in huge pages"
			bad=1
		else
			echo "   (huge pages refused meanwhile: thp_fault_fallback +$(cat "$T/$1.fb"))"
		fi
	fi
}
run_ioreel() { # TAG TRACE ARG...
	local tag=$1 tr=$2 f0
	shift 2
	f0=$(fallback)
	splits "$tag" "$tr" "$IOREEL" replay "$tr" --target "$LOOP" --destroy-data="$dev" --timing afap "$@"
	echo $(($(fallback) - f0)) >"$T/$tag.fb"
}

[ -z "$havefio" ] || fio_splits fio-syn "$T/syn.reel" 32
run_ioreel syn "$T/syn.reel"
run_ioreel syn-qd128 "$T/syn.reel" --qd 128
check syn fio-syn
check syn-qd128 fio-syn
chromium="$TOP/traces/chromium.reel"
[ -e "$chromium" ] || fail "$chromium absent"
[ -z "$havefio" ] || fio_splits fio-chromium "$chromium" 128
run_ioreel chromium-qd128 "$chromium" --qd 128
check chromium-qd128 fio-chromium
[ "$bad" = 0 ] || fail "the replay split trace I/Os at submission"
echo "ok"
