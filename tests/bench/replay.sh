#!/bin/bash
# tests/bench/replay.sh - `ioreel replay` beside fio, same trace, same target,
# same run.  Prints each figure with its anchor and the ratio.
#   1. issue error at 10k IOPS, --timing original, measured from the kernel
#      (block_rq_issue in a private tracefs instance, mono clock), ioreel vs
#      fio read_iolog on `ioreel export --to fio` of the same trace
#   2. rate, afap: null engine vs fio ioengine=null; libaio and io_uring on a
#      loop device over /dev/shm vs fio with the same engine and depth
#   3. peak RSS replaying big traces on the null engine, vs fio
#      read_iolog_chunked
#   4. data: LZ4 ratio achieved per R and size, beside fio's
#      buffer_compress_percentage; generation GB/s per core vs memcpy
# Environment: PARTS (default "issue rate rss data"), RSS_SIZES (default "10000000 30000000 100000000"), ISSUE_N
# (default 20000 I/Os = 2 s), RATE_N (default 2000000).
set -u
: "${IOREEL:?run through make bench}"
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
HELP="$TOP/$BUILD/tests/bench/replay_helper"
[ "$(id -u)" = 0 ] || { echo "   replay bench needs root (loop devices, tracefs)"; exit 0; }
command -v fio >/dev/null || { echo "   fio absent: no anchors"; exit 1; }
S=$(mktemp -d /dev/shm/ioreel-bench-replay.XXXXXX)
INST=""
LOOP=""
cleanup() {
	[ -n "$INST" ] && [ -d "$INST" ] && { echo 0 >"$INST/tracing_on"; echo 0 >"$INST/events/enable"; rmdir "$INST"; }
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

want() { case " ${PARTS:-issue rate rss data} " in *" $1 "*) return 0 ;; esac; return 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f", a / b }'; }
get() { sed -n "s/^$1=//p" "$2"; }
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# fio iolog v3 of a trace: ioreel's own exporter with the target's name, or
# (before it existed) the bench helper
fiolog() { # TRACE OUT FILENAME
	if "$IOREEL" export --to fio "$1" -o "$2" >/dev/null 2>&1; then
		sed -i "s#^\([0-9]*\) [^ ]* #\1 $3 #" "$2"
	else
		"$HELP" fiolog "$1" "$2" "$3"
	fi
}

truncate -s 512M "$S/disk.img"
LOOP=$(losetup -f --show --direct-io=on "$S/disk.img")
dev=$(basename "$LOOP")
echo "   machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), target $LOOP over /dev/shm"

# ---- 1. issue error at 10k IOPS, from the kernel's side -----------------
N=${ISSUE_N:-20000}
"$TOOL" gen "$S/t10k.reel" n=$N iops=10000 rw=read bs=4096 lat=50000 >/dev/null
fiolog "$S/t10k.reel" "$S/t10k.log" "$LOOP"
INST=/sys/kernel/tracing/instances/ioreel-bench-$$
if want issue; then
	mkdir "$INST" || { echo "   no tracefs instances: skipping the issue-error figure"; INST=""; }
else
	INST=""
fi
ktrace() { # out command...
	local out=$1
	shift
	echo 0 >"$INST/tracing_on"
	: >"$INST/trace"
	echo 1 >"$INST/tracing_on"
	"$@" >/dev/null 2>&1
	echo 0 >"$INST/tracing_on"
	cat "$INST/trace" >"$out"
}
if [ -n "$INST" ]; then
	read -r maj min < <(stat -L -c '%t %T' "$LOOP")
	maj=$((16#$maj)) min=$((16#$min))
	echo mono >"$INST/trace_clock"
	echo 32768 >"$INST/buffer_size_kb"
	echo "dev == $(( (maj << 20) | min ))" >"$INST/events/block/block_rq_issue/filter"
	echo 1 >"$INST/events/block/block_rq_issue/enable"
	ktrace "$S/k-ioreel.txt" "$IOREEL" replay "$S/t10k.reel" --target "$LOOP" --read-only --qd 128 --engine libaio
	ktrace "$S/k-ioreel-nort.txt" "$IOREEL" replay "$S/t10k.reel" --target "$LOOP" --read-only --qd 128 --engine libaio --no-rt
	ktrace "$S/k-fio.txt" fio --name=replay --read_iolog="$S/t10k.log" --ioengine=libaio --iodepth=128 \
		--direct=1 --readonly
	"$HELP" issueerr "$S/t10k.reel" "$S/k-ioreel.txt" 1 >"$S/e-ioreel"
	"$HELP" issueerr "$S/t10k.reel" "$S/k-ioreel-nort.txt" 1 >"$S/e-ioreel-nort"
	"$HELP" issueerr "$S/t10k.reel" "$S/k-fio.txt" 1 >"$S/e-fio"
	echo "   issue error at 10k IOPS, $N random 4 KiB reads, libaio qd cap 128, kernel block_rq_issue"
	echo "   (err = (kernel issue - scheduled) - its minimum; us; matched I/Os):"
	for t in ioreel ioreel-nort fio; do
		printf "     %-12s p50 %7s  p90 %7s  p99 %8s  p99.9 %8s  max %9s  (%s)\n" "$t" \
			"$(get p50_us "$S/e-$t")" "$(get p90_us "$S/e-$t")" "$(get p99_us "$S/e-$t")" \
			"$(get p99.9_us "$S/e-$t")" "$(get max_us "$S/e-$t")" "$(get matched "$S/e-$t")"
	done
	a=$(get p99_us "$S/e-ioreel") b=$(get p99_us "$S/e-fio") c=$(get p99_us "$S/e-ioreel-nort")
	echo "   issue error p99: ioreel $a us vs fio read_iolog $b us: fio/ioreel = $(ratio "$b" "$a") (target >= 10, ioreel <= 20 us)"
	echo "   issue error p99 without SCHED_FIFO (--no-rt): $c us: fio/ioreel = $(ratio "$b" "$c")"
	echo 0 >"$INST/events/block/block_rq_issue/enable"
	rmdir "$INST" && INST=""
fi

# ---- 2. rate, afap -------------------------------------------------------
if want rate; then
N=${RATE_N:-2000000}
"$TOOL" gen "$S/rate.reel" n=$N iops=1000000 rw=read bs=4096 span=400000000 >/dev/null
fiolog "$S/rate.reel" "$S/rate.log" "$LOOP"
cpu() { awk '{ print $1 + $2 }' "$1"; } # user+sys seconds from /usr/bin/time -f '%U %S'
/usr/bin/time -o "$S/c-ioreel" -f '%U %S' "$IOREEL" replay "$S/rate.reel" --target "$LOOP" --read-only \
	--engine null --timing afap --qd 32 --json "$S/r-ioreel.json" >/dev/null
/usr/bin/time -o "$S/c-fio" -f '%U %S' fio --name=n --ioengine=null --read_iolog="$S/rate.log" \
	--replay_no_stall=1 --iodepth=32 --output-format=json --output="$S/r-fio.json" >/dev/null
a=$(json "$S/r-ioreel.json" "d['ops']['read']['iops']") b=$(json "$S/r-fio.json" "d['jobs'][0]['read']['iops']")
ac=$(awk -v n=$N -v c="$(cpu "$S/c-ioreel")" 'BEGIN { printf "%.0f", n / c }')
bc=$(awk -v n=$N -v c="$(cpu "$S/c-fio")" 'BEGIN { printf "%.0f", n / c }')
printf "   rate, afap, null engine, %d I/Os, qd32: ioreel %.0f IOPS vs fio %.0f: ratio %s (target >= 1)\n" \
	$N "$a" "$b" "$(ratio "$a" "$b")"
echo "     per CPU-second (user+sys): ioreel $ac vs fio $bc I/Os: ratio $(ratio "$ac" "$bc")"
N=200000
"$TOOL" gen "$S/rate2.reel" n=$N iops=1000000 rw=read bs=4096 span=400000000 >/dev/null
fiolog "$S/rate2.reel" "$S/rate2.log" "$LOOP"
# best of 3 alternating runs each: the machine is shared
for eng in libaio io_uring; do
	a=0 b=0
	for round in 1 2 3; do
		"$IOREEL" replay "$S/rate2.reel" --target "$LOOP" --read-only --engine $eng --timing afap --qd 32 \
			--json "$S/r-ioreel.json" >/dev/null
		fio --name=n --ioengine=$eng --read_iolog="$S/rate2.log" --replay_no_stall=1 --iodepth=32 --direct=1 \
			--readonly --output-format=json --output="$S/r-fio.json" >/dev/null
		a=$(json "$S/r-ioreel.json" "max($a, d['ops']['read']['iops'])")
		b=$(json "$S/r-fio.json" "max($b, d['jobs'][0]['read']['iops'])")
	done
	printf "   rate, afap, %s qd32 on %s (loop over /dev/shm), %d 4 KiB reads, best of 3: ioreel %.0f IOPS vs fio %.0f: ratio %s (target >= 1)\n" \
		$eng "$dev" $N "$a" "$b" "$(ratio "$a" "$b")"
done

fi

# ---- 3. memory -------------------------------------------------------------
if want rss; then
echo "   peak RSS, null engine, afap, result written to /dev/shm:"
for n in ${RSS_SIZES:-10000000 30000000 100000000}; do
	"$TOOL" gen "$S/big.reel" n=$n iops=1000000 rw=mix:30 bs=4096:65536 >/dev/null
	/usr/bin/time -o "$S/m" -f '%M %e' "$IOREEL" replay "$S/big.reel" --target "$S/big.img" --read-only \
		--engine null --timing afap --qd 32 --fit wrap -o "$S/big-r.reel" >/dev/null
	read -r kb secs <"$S/m"
	printf "     %11d I/Os: ioreel %6.1f MiB (%.0f s)" $n "$(awk -v k=$kb 'BEGIN { print k / 1024 }')" "$secs"
	rm -f "$S/big-r.reel" "$S/big.img"
	if [ $n -le 10000000 ]; then
		fiolog "$S/big.reel" "$S/big.log" "$LOOP"
		/usr/bin/time -o "$S/m" -f '%M' fio --name=n --ioengine=null --read_iolog="$S/big.log" \
			--read_iolog_chunked=1 --replay_no_stall=1 --iodepth=32 --output="$S/fio.out" >/dev/null
		fkb=$(cat "$S/m")
		printf "; fio read_iolog_chunked %.1f MiB: fio/ioreel %s" "$(awk -v k=$fkb 'BEGIN { print k / 1024 }')" \
			"$(ratio "$fkb" "$kb")"
		rm -f "$S/big.log"
	fi
	echo " (target <= 64 MiB, flat)"
	rm -f "$S/big.reel"
done

fi

# ---- 4. data -----------------------------------------------------------------
want data || exit 0
"$HELP" datagen >"$S/dg"
echo "   data generator: LZ4 ratio at the I/O size (32 blocks each), target +-2%:"
echo "     R     4K       16K      64K      256K     1M       | fio buffer_compress_percentage at 4K / 64K"
for R in 1 1.5 2 3 4 5 8 10 15 20; do
	line=$(awk -v R=$R '$2 == "R=" R { split($4, a, "="); printf " %-8s", a[2] }' "$S/dg")
	pct=$(awk -v R=$R 'BEGIN { printf "%d", 100 * (1 - 1 / R) + 0.5 }')
	fr=""
	for bs in 4096 65536; do
		rm -f "$S/fio.dat"
		fio --name=d --filename="$S/fio.dat" --size=32M --bs=$bs --rw=write --ioengine=psync \
			--buffer_compress_percentage=$pct --refill_buffers --output="$S/fio.out" >/dev/null 2>&1
		fr="$fr $("$HELP" lz4ratio "$S/fio.dat" $bs)"
	done
	printf "     %-5s%s | pct %2d:%s\n" "$R" "$line" "$pct" "$fr"
done
rm -f "$S/fio.dat"
echo "   worst LZ4 ratio error: $(get worst_err_pct "$S/dg")% (target <= 2%)"
g=$(get slowest_gen_gbs "$S/dg") m=$(get memcpy_gbs "$S/dg")
echo "   generation, slowest R and size: $g GB/s per core (CPU time) vs memcpy $m GB/s: ratio $(ratio "$g" "$m") (target >= 4 GB/s)"
