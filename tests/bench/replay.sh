#!/bin/bash
# tests/bench/replay.sh - `ioreel replay` beside fio, same trace, same target,
# same run.  Every figure is the median and range of REPEATS (default 3) runs
# interleaved with fio's (tests/bench/lib.sh).  Parts (PARTS, default all):
#   timing     issue error at 10k and 50k IOPS, --timing original, measured
#              from the kernel (block_rq_issue in a private tracefs instance,
#              mono clock), ioreel (SCHED_FIFO and --no-rt) vs fio read_iolog
#              on `ioreel export --to fio` of the same trace: p50 and p99
#              issue error, jitter p99 (error minus its median), first-I/O
#              lateness; runs whose p99 error exceeds SLIP_US are marked
#   engines    afap IOPS of libaio, io_uring and psync at QD 1, 32 and 128 on
#              a loop device over /dev/shm, beside fio with the same engine
#              and depth; CPU per I/O at QD 32; libaio QD 32 with the
#              issuing thread pinned (--cpu ENGINE_PIN_CPU, default 0) against
#              unpinned; how traces/chromium.reel's reads over 1 MiB reach the
#              device (block_rq_issue), against fio
#   rate       afap, null engine vs fio ioengine=null
#   rss        peak RSS replaying big traces on the null engine, vs fio
#              read_iolog_chunked
#   data       LZ4 ratio achieved per R and size, beside fio's
#              buffer_compress_percentage; generation GB/s vs memcpy
#   roundtrip  each bundled trace (traces/*.reel) replayed onto a loop
#              device while `ioreel capture` records it, the capture from
#              the replay's first I/O on against the original (`ioreel model
#              compare`: counts, read share, size KS, inter-arrival KS) and
#              the extra I/Os attributed (tests/cli/replay_roundtrip.py):
#              ioreel with its defaults and with --qd RT_FIO_QD, fio
#              replaying the exported iolog, all captured the same way
# Environment: PARTS, TIMING_RATES (default "10000 50000"), TIMING_SECS (2),
# SLIP_US (1000), ENGINE_N (100000 I/Os), ENGINE_QDS ("1 32 128"), RATE_N
# (2000000), RSS_SIZES ("10000000 100000000"; above 10M: one run), RT_SERIAL
# ("git chromium": interleaved), RT_PARALLEL ("compile boot": sparse, long,
# ioreel, fio and ioreel --qd RT_FIO_QD for both run at once on six loop
# devices), RT_FIO_QD (128).
set -u
: "${IOREEL:?run through make bench}"
. "$TOP/tests/bench/lib.sh"
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
HELP="$TOP/$BUILD/tests/bench/replay_helper"
[ "$(id -u)" = 0 ] || { echo "   replay bench needs root (loop devices, tracefs)"; exit 0; }
command -v fio >/dev/null || { echo "   fio absent: no anchors"; exit 1; }
S=$(mktemp -d /dev/shm/ioreel-bench-replay.XXXXXX)
INST=""
LOOP=""
LOOPS=""
CAPS=""
cleanup() {
	local p l
	for p in $CAPS; do kill -INT "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	[ -n "$INST" ] && [ -d "$INST" ] && { echo 0 >"$INST/tracing_on"; echo 0 >"$INST/events/enable"; rmdir "$INST"; }
	for l in $LOOP $LOOPS; do losetup -d "$l"; done
	rm -rf "$S"
}
bench_trap cleanup
trap 'exit 130' INT TERM

want() { case " ${PARTS:-timing engines rate rss data roundtrip} " in *" $1 "*) return 0 ;; esac; return 1; }
get() { sed -n "s/^$1=//p" "$2"; }
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
cpu() { awk '{ print $1 + $2 }' "$1"; } # user+sys seconds from /usr/bin/time -f '%U %S'

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
echo "   machine: $(nproc) cores; target $LOOP over /dev/shm; fio $(fio --version)"

# ---- timing: issue error at 10k and 50k IOPS, from the kernel's side ----
SLIP=${SLIP_US:-1000}
# kinst DIR DEVICE BUFFER_KB [CLOCK]: make the private tracefs instance DIR
# recording block_rq_issue of DEVICE alone; 1 when DIR cannot be made
kinst() {
	local maj min
	mkdir "$1" || return 1
	read -r maj min < <(stat -L -c '%t %T' "$2")
	[ -n "${4:-}" ] && echo "$4" >"$1/trace_clock"
	echo "$3" >"$1/buffer_size_kb"
	echo "dev == $(((16#$maj << 20) | 16#$min))" >"$1/events/block/block_rq_issue/filter"
	echo 1 >"$1/events/block/block_rq_issue/enable"
	return 0
}
ktrace() { # DIR OUT command...: the command's events in instance DIR into OUT
	local inst=$1 out=$2
	shift 2
	echo 0 >"$inst/tracing_on"
	: >"$inst/trace"
	echo 1 >"$inst/tracing_on"
	"$@" >/dev/null 2>&1
	echo 0 >"$inst/tracing_on"
	cat "$inst/trace" >"$out"
}
timing_one() { # TAG RATE ROUND command...: one kernel-traced run
	local tag=$1 rate=$2 r=$3 e="$S/e" k
	shift 3
	ktrace "$INST" "$S/k.txt" "$@"
	"$HELP" issueerr "$S/t$rate.reel" "$S/k.txt" 1 >"$e" 2>/dev/null || { echo "     $tag: no I/O matched"; return; }
	for k in p50 p99 jitter_p99 first_late; do bench_put "$tag$rate" "$k" "$(get "${k}_us" "$e")"; done
	printf "     round %s %-12s p50 %7s  p99 %8s  jitter p99 %8s  first I/O late %8s  max %9s us  (%s)%s\n" \
		"$r" "$tag" "$(get p50_us "$e")" "$(get p99_us "$e")" "$(get jitter_p99_us "$e")" \
		"$(get first_late_us "$e")" "$(get max_us "$e")" "$(get matched "$e")" \
		"$(awk -v p="$(get p99_us "$e")" -v l="$SLIP" 'BEGIN { if (p > l) print "  SLIPPED" }')"
}
timing_ioreel() { timing_one ioreel "$RATE" "$1" "$IOREEL" replay "$S/t$RATE.reel" --target "$LOOP" --read-only \
	--qd 128 --engine libaio; }
timing_nort() { timing_one nort "$RATE" "$1" "$IOREEL" replay "$S/t$RATE.reel" --target "$LOOP" --read-only \
	--qd 128 --engine libaio --no-rt; }
timing_fio() { timing_one fio "$RATE" "$1" fio --name=replay --read_iolog="$S/t$RATE.log" --ioengine=libaio \
	--iodepth=128 --direct=1 --readonly; }
if want timing || want issue; then
	INST=/sys/kernel/tracing/instances/ioreel-bench-$$
	if kinst "$INST" "$LOOP" 32768 mono; then
		secs=${TIMING_SECS:-2}
		for RATE in ${TIMING_RATES:-10000 50000}; do
			n=$((RATE * secs))
			"$TOOL" gen "$S/t$RATE.reel" n=$n iops=$RATE rw=read bs=4096 lat=50000 >/dev/null
			fiolog "$S/t$RATE.reel" "$S/t$RATE.log" "$LOOP"
			echo "   timing at $RATE IOPS: $n random 4 KiB reads, --timing original, libaio, qd cap 128;" \
				"kernel block_rq_issue; us; err = (issue - scheduled) - its minimum;" \
				"SLIPPED: p99 above $SLIP us (SLIP_US)"
			bench_load
			bench_interleave timing_ioreel timing_nort timing_fio
			k=$((RATE / 1000))k
			bench_row "issue error p50 at $k IOPS, us" ioreel$RATE p50 fio$RATE p50 lower "fio read_iolog"
			bench_row "issue error p99 at $k IOPS, us" ioreel$RATE p99 fio$RATE p99 lower "fio read_iolog"
			bench_row "jitter p99 at $k IOPS, us" ioreel$RATE jitter_p99 fio$RATE jitter_p99 lower "fio read_iolog"
			bench_row "first-I/O lateness at $k IOPS, us" ioreel$RATE first_late fio$RATE first_late lower \
				"fio read_iolog"
			bench_row "issue error p99 at $k IOPS, --no-rt, us" nort$RATE p99 fio$RATE p99 lower "fio read_iolog"
			bench_row "jitter p99 at $k IOPS, --no-rt, us" nort$RATE jitter_p99 fio$RATE jitter_p99 lower \
				"fio read_iolog"
			bench_row "first-I/O lateness at $k IOPS, --no-rt, us" nort$RATE first_late fio$RATE first_late \
				lower "fio read_iolog"
			bench_load
		done
		echo "   (targets at load <= 4: issue-error p99 <= 100 us at 10k IOPS, first-I/O lateness <= 50 us)"
		echo 0 >"$INST/events/block/block_rq_issue/enable"
		rmdir "$INST" && INST=""
	else
		echo "   no tracefs instances: no timing figures"
		INST=""
	fi
fi

# ---- large reads: how the trace's reads over 1 MiB reach the device -------
# traces/chromium.reel on a 2 GiB loop device over /dev/shm, block_rq_issue in
# a private tracefs instance: reads that arrive whole (possible only up to
# max_sectors_kb) and those split by max_sectors_kb alone (first request at
# the read's sector as long as the device allows), ioreel against fio
# replaying the exported iolog (libaio, iodepth 128).
INST2=""
bench_trap '[ -n "$INST2" ] && [ -d "$INST2" ] && { echo 0 >"$INST2/events/enable"; rmdir "$INST2"; }'
engines_large() {
	local tr="$TOP/traces/chromium.reel" big dev2 lim
	[ -e "$tr" ] || { echo "   large reads: $tr absent"; return; }
	truncate -s 2G "$S/big2.img"
	big=$(losetup -f --show --direct-io=on "$S/big2.img") || return
	LOOPS="$LOOPS $big"
	dev2=$(basename "$big")
	lim=$(($(cat "/sys/class/block/$dev2/queue/max_sectors_kb") * 1024))
	INST2=/sys/kernel/tracing/instances/ioreel-bench-large-$$
	kinst "$INST2" "$big" 65536 || return
	"$IOREEL" dump "$tr" | awk '$5 == "read" && $8 > 1048576 { print $7, $8 }' >"$S/big.txt"
	"$IOREEL" export --to fio "$tr" -o "$S/big.log" >/dev/null 2>&1
	large_one() { # TAG command...
		local tag=$1
		shift
		ktrace "$INST2" "$S/large.txt" "$@"
		# 7,0 R 1048576 () 1050624 + 2048 [comm]
		sed -n 's/.*block_rq_issue: //p' "$S/large.txt" | awk -v lim="$lim" -v out="$BENCH_T" -v tag="$tag" '
			NR == FNR { want[NR] = $1 / 512 " " $2 / 512; n = NR; next }
			$2 ~ /R/ { rq[$5 " " $7]++ }
			END { for (i = 1; i <= n; i++) { split(want[i], w, " ")
				if (rq[want[i]] > 0) { rq[want[i]]--; whole++; first++ }
				else if (w[2] > lim / 512 && rq[w[1] " " lim / 512] > 0) { rq[w[1] " " lim / 512]--; first++ } }
			  print whole + 0 >> (out "/" tag ".whole"); print first + 0 >> (out "/" tag ".first") }' \
			"$S/big.txt" -
	}
	large_ioreel() { large_one l_ioreel "$IOREEL" replay "$tr" --target "$big"; }
	large_fio() { large_one l_fio fio --name=replay --read_iolog="$S/big.log" --replay_redirect="$big" \
		--ioengine=libaio --iodepth=128 --direct=1; }
	echo "   large reads: the $(wc -l <"$S/big.txt") reads over 1 MiB of chromium.reel on $dev2" \
		"(max_sectors_kb $((lim / 1024)); $(awk -v l="$lim" '$2 <= l' "$S/big.txt" | wc -l) can arrive whole)"
	bench_interleave large_ioreel large_fio
	bench_row "large reads arriving whole" l_ioreel whole l_fio whole "" "fio"
	bench_row "large reads split only by max_sectors_kb" l_ioreel first l_fio first "" "fio"
	echo 0 >"$INST2/events/enable"
	rmdir "$INST2" && INST2=""
}

# ---- engines: afap IOPS at QD 1, 32, 128 on the loop device -------------
if want engines; then
	N=${ENGINE_N:-100000}
	"$TOOL" gen "$S/eng.reel" n=$N iops=1000000 rw=read bs=4096 span=400000000 >/dev/null
	fiolog "$S/eng.reel" "$S/eng.log" "$LOOP"
	eng_ioreel() {
		/usr/bin/time -o "$S/c" -f '%U %S' "$IOREEL" replay "$S/eng.reel" --target "$LOOP" --read-only \
			--engine "$ENG" --timing afap --qd "$QD" --json "$S/r.json" >/dev/null 2>&1
		bench_put "i_$ENG$QD" iops "$(json "$S/r.json" "d['ops']['read']['iops']")"
		bench_put "i_$ENG$QD" cpu "$(awk -v c="$(cpu "$S/c")" -v n="$N" 'BEGIN { print c / n * 1e6 }')"
	}
	eng_fio() {
		/usr/bin/time -o "$S/c" -f '%U %S' fio --name=n --ioengine="$ENG" --read_iolog="$S/eng.log" \
			--replay_no_stall=1 --iodepth="$QD" --direct=1 --readonly --output-format=json \
			--output="$S/r-fio.json" >/dev/null 2>&1
		bench_put "f_$ENG$QD" iops "$(json "$S/r-fio.json" "d['jobs'][0]['read']['iops']")"
		bench_put "f_$ENG$QD" cpu "$(awk -v c="$(cpu "$S/c")" -v n="$N" 'BEGIN { print c / n * 1e6 }')"
	}
	echo "   engines, afap, $N random 4 KiB reads on $dev (loop over /dev/shm), IOPS; psync is synchronous" \
		"in both tools (depth 1 whatever the QD asked)"
	bench_load
	# each round runs every engine in both tools, so engines compare within
	# a round too (the load moves between rounds on a shared machine)
	eng_all() { for ENG in libaio io_uring psync; do eng_ioreel; eng_fio; done; }
	for QD in ${ENGINE_QDS:-1 32 128}; do
		bench_interleave eng_all
		for ENG in libaio io_uring psync; do
			bench_row "afap IOPS, $ENG QD $QD" "i_$ENG$QD" iops "f_$ENG$QD" iops "" "fio $ENG"
			[ "$QD" = 32 ] && bench_row "CPU us per I/O, $ENG QD $QD" "i_$ENG$QD" cpu "f_$ENG$QD" cpu lower "fio $ENG"
		done
		bench_row "afap IOPS, io_uring against libaio, QD $QD" "i_io_uring$QD" iops "i_libaio$QD" iops "" \
			"ioreel libaio"
	done
	awk -v u="$(bench_med i_io_uring32 iops)" -v l="$(bench_med i_libaio32 iops)" \
		-v f="$(bench_med f_libaio32 iops)" 'BEGIN { if (u != "nan" && l != "nan")
		printf "   target io_uring >= libaio >= 1.5x fio at QD 32 (medians): io_uring/libaio %.2f, libaio/fio %.2f: %s\n",
			u / l, l / f, (u >= l && l >= 1.5 * f) ? "met" : "MISSED" }'
	# the issuing thread pinned (--cpu) against the same unpinned, at QD 32
	PIN=${ENGINE_PIN_CPU:-0}
	eng_pin() {
		"$IOREEL" replay "$S/eng.reel" --target "$LOOP" --read-only --engine libaio --timing afap \
			--qd 32 --cpu "$PIN" --json "$S/r.json" >/dev/null 2>&1
		bench_put i_pin iops "$(json "$S/r.json" "d['ops']['read']['iops']")"
	}
	eng_free() { ENG=libaio QD=32 eng_ioreel; bench_put i_free iops "$(tail -1 "$BENCH_T/i_libaio32.iops")"; }
	bench_interleave eng_pin eng_free
	bench_row "afap IOPS, libaio QD 32, --cpu $PIN" i_pin iops i_free iops "" "unpinned"
	bench_load
	engines_large
fi

# ---- rate: afap, null engine -------------------------------------------------
if want rate; then
	N=${RATE_N:-2000000}
	"$TOOL" gen "$S/rate.reel" n=$N iops=1000000 rw=read bs=4096 span=400000000 >/dev/null
	fiolog "$S/rate.reel" "$S/rate.log" "$LOOP"
	null_ioreel() {
		/usr/bin/time -o "$S/c" -f '%U %S' "$IOREEL" replay "$S/rate.reel" --target "$LOOP" --read-only \
			--engine null --timing afap --qd 32 --json "$S/r.json" >/dev/null
		bench_put inull iops "$(json "$S/r.json" "d['ops']['read']['iops']")"
		bench_put inull pcs "$(awk -v n=$N -v c="$(cpu "$S/c")" 'BEGIN { print n / c }')"
	}
	null_fio() {
		/usr/bin/time -o "$S/c" -f '%U %S' fio --name=n --ioengine=null --read_iolog="$S/rate.log" \
			--replay_no_stall=1 --iodepth=32 --output-format=json --output="$S/r-fio.json" >/dev/null
		bench_put fnull iops "$(json "$S/r-fio.json" "d['jobs'][0]['read']['iops']")"
		bench_put fnull pcs "$(awk -v n=$N -v c="$(cpu "$S/c")" 'BEGIN { print n / c }')"
	}
	bench_interleave null_ioreel null_fio
	bench_row "afap IOPS, null engine, $N I/Os, qd 32" inull iops fnull iops "" "fio ioengine=null"
	bench_row "I/Os per CPU second (user+sys), null engine" inull pcs fnull pcs "" "fio ioengine=null"
	rm -f "$S/rate.reel" "$S/rate.log"
fi

# ---- rss: memory ---------------------------------------------------------------
if want rss; then
	echo "   peak RSS, null engine, afap, result written to /dev/shm, MiB (target <= 64, flat):"
	rss_ioreel() {
		# --read-only creates no target: the (sparse) file is made here, for
		# both tools (fio's null engine opens it too)
		truncate -s 1G "$S/big.img"
		/usr/bin/time -o "$S/m" -f '%M' "$IOREEL" replay -q "$S/big.reel" --target "$S/big.img" --read-only \
			--engine null --timing afap --qd 32 --fit wrap -o "$S/big-r.reel" >/dev/null
		bench_put "i_rss$n" mib "$(awk '{ print $1 / 1024 }' "$S/m")"
		rm -f "$S/big-r.reel"
	}
	rss_fio() {
		truncate -s 1G "$S/big.img"
		/usr/bin/time -o "$S/m" -f '%M' fio --name=n --ioengine=null --read_iolog="$S/big.log" \
			--read_iolog_chunked=1 --replay_no_stall=1 --iodepth=32 --output="$S/fio.out" >/dev/null
		bench_put "f_rss$n" mib "$(awk '{ print $1 / 1024 }' "$S/m")"
	}
	for n in ${RSS_SIZES:-10000000 100000000}; do
		"$TOOL" gen "$S/big.reel" n=$n iops=1000000 rw=mix:30 bs=4096:65536 >/dev/null
		if [ "$n" -le 10000000 ]; then
			fiolog "$S/big.reel" "$S/big.log" "$S/big.img"
			bench_interleave rss_ioreel rss_fio
			bench_row "peak RSS at $n I/Os, MiB" "i_rss$n" mib "f_rss$n" mib lower "fio read_iolog_chunked"
			rm -f "$S/big.log"
		else
			REPEATS=1 bench_interleave rss_ioreel
			echo "   peak RSS at $n I/Os, MiB: $(bench_stat "i_rss$n" mib) (one run: a flatness check)"
		fi
		rm -f "$S/big.reel"
	done
fi

# ---- data ----------------------------------------------------------------------
if want data; then
	data_run() {
		"$HELP" datagen >"$S/dg"
		bench_put gen gbs "$(get slowest_gen_gbs "$S/dg")"
		bench_put memcpy gbs "$(get memcpy_gbs "$S/dg")"
	}
	bench_interleave data_run
	echo "   data generator: LZ4 ratio at the I/O size (32 blocks each), target +-2% (deterministic: one run):"
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
	bench_det "worst LZ4 ratio error (target <= 2%)" "$(get worst_err_pct "$S/dg")%"
	bench_row "generation, slowest R and size, GB/s per core (CPU time; target >= 4)" gen gbs memcpy gbs "" memcpy
fi

# ---- roundtrip: capture(replay(T)) against T, ioreel and fio ------------------
want roundtrip || exit 0
RTQD=${RT_FIO_QD:-128}
rt_loop() { # -> a new 2 GiB loop device over /dev/shm (the traces' devices are 2 GiB)
	local f
	f=$(mktemp "$S/rt.XXXXXX")
	truncate -s 2G "$f"
	RTL=$(losetup -f --show --direct-io=on "$f")
	LOOPS="$LOOPS $RTL"
}
# rt_run TOOL TRACE LOOP OUT [ARG...]: capture LOOP into OUT while TOOL
# replays TRACE (ARGs: more ioreel replay options)
rt_run() {
	local tool=$1 tr=$2 l=$3 out=$4 p rc
	shift 4
	rm -f "$out"
	: >"$out.err" # emptied before the capture starts: the last run's line is gone
	"$IOREEL" capture --allow-loss -d "$l" -o "$out" 2>"$out.err" &
	p=$!
	CAPS="$CAPS $p"
	bench_capture_ready $p "$out.err" || echo "     (capture of $l not seen recording)"
	if [ "$tool" = ioreel ]; then
		"$IOREEL" replay "$tr" --target "$l" "$@" >/dev/null 2>"$out.replay.err" || echo "     ioreel replay of $tr failed"
	else
		fiolog "$tr" "$out.log" "$l"
		fio --name=rt --read_iolog="$out.log" --ioengine=libaio --iodepth="$RTQD" --direct=1 \
			--output=/dev/null >/dev/null 2>"$out.replay.err" || echo "     fio replay of $tr failed"
	fi
	sleep 0.2 # the last completions
	kill -INT $p
	wait $p
	rc=$?
	CAPS=${CAPS/ $p/}
	[ $rc = 0 ] || echo "     capture of $(basename "$tr") under $tool exited $rc: $(grep -v '^ioreel capture: \(recording\|written as\) ' "$out.err" | head -c 200)"
}
# rt_put TAG TRACE CAPTURE: the capture from the replay's first I/O on (the
# same rule for both tools: replay_roundtrip.py --kv finds it; before it,
# ioreel's safety probe), then model compare against the trace
rt_put() {
	local kv=$3.kv start
	rm -f "$3".*.dump "$3.blk" "$3.from.blk" "$3.from.reel" "$kv"
	"$IOREEL" dump "$2" >"$3.t.dump" && "$IOREEL" dump "$3" >"$3.c.dump" &&
		/usr/bin/python3 "$TOP/tests/cli/replay_roundtrip.py" --kv "$3.t.dump" "$3.c.dump" >"$kv" ||
		{ echo "     attribution failed: $3"; return; }
	start=$(get_kv start_ns "$kv")
	"$IOREEL" export --to blkparse "$3" -o "$3.blk" >/dev/null 2>&1 || { echo "     export failed: $3"; return; }
	awk -v s="$start" '{ split($4, a, "."); if (a[1] * 1000000000 + a[2] >= s) print }' "$3.blk" >"$3.from.blk"
	"$IOREEL" import -q --from blkparse --overwrite "$3.from.blk" -o "$3.from.reel" ||
		{ echo "     import failed: $3"; return; }
	"$IOREEL" model compare --json "$2" "$3.from.reel" >"$S/cmp.json" 2>/dev/null || { echo "     compare failed: $3"; return; }
	/usr/bin/python3 - "$S/cmp.json" >"$S/cmp.kv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("orig", d["a"]["ios"])
print("dios", d["b"]["ios"] - d["a"]["ios"])
print("readpt", abs(d["read_diff_points"]))
print("ks_size", d["ks_size"])
print("ks_ia", d["ks_interarrival"])
PY
	cat "$kv" >>"$S/cmp.kv"
	while read -r k v; do bench_put "$1" "$k" "$v"; done <"$S/cmp.kv"
}
get_kv() { sed -n "s/^$1 //p" "$2"; }
rt_rows() { # NAME
	local i=rt_i_$1 q=rt_q_$1 f=rt_f_$1
	echo "   round trip, $1 ($(bench_med "$i" orig) I/Os); ioreel defaults | fio; then ioreel --qd $RTQD | fio:"
	bench_row "  I/Os before the replay's first I/O (safety probe)" "$i" before "$f" before "" "fio"
	bench_row "  I/Os captured minus original, from the first I/O on" "$i" dios "$f" dios "" "fio"
	bench_row "    of which extra bios of I/Os split at submission" "$i" split_extra "$f" split_extra "" "fio"
	bench_row "    of which flushes" "$i" flush_diff "$f" flush_diff "" "fio"
	bench_row "    of which unexplained" "$i" unexplained "$f" unexplained "" "fio"
	bench_row "    trace I/Os missing" "$i" missing "$f" missing "" "fio"
	bench_row "  read-share error, points" "$i" readpt "$f" readpt lower "fio"
	bench_row "  size KS" "$i" ks_size "$f" ks_size lower "fio"
	bench_row "  inter-arrival KS" "$i" ks_ia "$f" ks_ia lower "fio"
	bench_row "  inter-arrival KS, ioreel --qd $RTQD" "$q" ks_ia "$f" ks_ia lower "fio"
	bench_row "  I/Os captured minus original, ioreel --qd $RTQD" "$q" dios "$f" dios "" "fio"
	bench_row "    of which extra bios of I/Os split at submission, ioreel --qd $RTQD" "$q" split_extra \
		"$f" split_extra "" "fio"
}
echo "   round trip: replay onto a 2 GiB loop device over /dev/shm while \`ioreel capture\` records it;" \
	"ioreel replay (defaults, then --qd $RTQD) vs fio read_iolog of \`ioreel export --to fio\`" \
	"(libaio, iodepth $RTQD); each capture compared from the replay's first I/O on"
bench_load
rt_loop; LA=$RTL
rt_loop; LB=$RTL
for name in ${RT_SERIAL:-git chromium}; do
	tr="$TOP/traces/$name.reel"
	[ -f "$tr" ] || continue
	rt_ioreel() { rt_run ioreel "$tr" "$LA" "$S/cap-i.reel"; rt_put "rt_i_$name" "$tr" "$S/cap-i.reel"; }
	rt_fio() { rt_run fio "$tr" "$LB" "$S/cap-f.reel"; rt_put "rt_f_$name" "$tr" "$S/cap-f.reel"; }
	rt_ioreel_q() {
		rt_run ioreel "$tr" "$LA" "$S/cap-q.reel" --qd "$RTQD"
		rt_put "rt_q_$name" "$tr" "$S/cap-q.reel"
	}
	bench_interleave rt_ioreel rt_fio rt_ioreel_q
	rt_rows "$name"
done
par=""
for name in ${RT_PARALLEL:-compile boot}; do
	case " ${RT_SERIAL:-git chromium} " in *" $name "*) continue ;; esac # measured already
	[ -f "$TOP/traces/$name.reel" ] && par="$par $name"
done
if [ -n "$par" ]; then
	echo "   (sparse traces:$par: the ioreel, fio and ioreel --qd $RTQD replays of each run at once," \
		"each on its own loop device)"
	declare -A L_I L_F L_Q
	for name in $par; do
		rt_loop; L_I[$name]=$RTL
		rt_loop; L_F[$name]=$RTL
		rt_loop; L_Q[$name]=$RTL
	done
	rt_par() {
		local name pids=""
		for name in $par; do
			rt_run ioreel "$TOP/traces/$name.reel" "${L_I[$name]}" "$S/cap-i-$name.reel" &
			pids="$pids $!"
			rt_run fio "$TOP/traces/$name.reel" "${L_F[$name]}" "$S/cap-f-$name.reel" &
			pids="$pids $!"
			rt_run ioreel "$TOP/traces/$name.reel" "${L_Q[$name]}" "$S/cap-q-$name.reel" \
				--qd "$RTQD" &
			pids="$pids $!"
		done
		wait $pids
		for name in $par; do
			rt_put "rt_i_$name" "$TOP/traces/$name.reel" "$S/cap-i-$name.reel"
			rt_put "rt_f_$name" "$TOP/traces/$name.reel" "$S/cap-f-$name.reel"
			rt_put "rt_q_$name" "$TOP/traces/$name.reel" "$S/cap-q-$name.reel"
		done
	}
	bench_interleave rt_par
	for name in $par; do rt_rows "$name"; done
fi
bench_load
