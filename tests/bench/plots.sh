#!/bin/bash
# make bench, plots module: each figure beside its anchor measured here.
#  - compare's analysis rate (two streaming passes + histograms + buckets)
#    against `ioreel info` (one pass, the formats module's statistics)
#  - compare's peak memory on 2M I/Os against 200k (constant memory)
#  - plot: wall time of `ioreel plot` against gnuplot alone on the same data
#  - demo: wall time against the 60 s target, and against the time its 12
#    replays took themselves (replay.duration_ns)
# Each is the median and range of REPEATS runs interleaved with its anchor's
# (tests/bench/lib.sh).
set -u
: "${IOREEL:?run through make bench}"
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-bench-plots.XXXXXX")
. "$TOP/tests/bench/lib.sh"
bench_trap 'rm -rf "$T"'
gen="$TOP/$BUILD/tests/bench/gen_reel"
[ -x "$gen" ] || { echo "   gen_reel not built"; exit 1; }
N=1000000
"$gen" $N "$T/big.reel" >/dev/null || exit 1
"$gen" 200000 "$T/small.reel" >/dev/null || exit 1
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.9f\", $1 }"; }
wall() { # wall seconds of one run of a command
	local t0 t1
	t0=$(now); "$@" >/dev/null 2>&1 || return 1; t1=$(now)
	calc "$t1 - $t0"
}
run_info() { bench_put info mios "$(calc "$N / $(wall "$IOREEL" info "$T/big.reel") / 1000000")"; }
run_compare() { bench_put compare mios "$(calc "$N / $(wall "$IOREEL" compare "$T/big.reel") / 1000000")"; }
bench_interleave run_compare run_info
bench_row "compare analysis, $N I/Os, M I/O/s" compare mios info mios "" "ioreel info"
if [ -x /usr/bin/time ]; then
	rss() { /usr/bin/time -f %M "$IOREEL" "$@" 2>&1 >/dev/null | tail -1; }
	run_rss() {
		bench_put cmp_big kib "$(rss compare "$T/big.reel")"
		bench_put cmp_small kib "$(rss compare "$T/small.reel")"
		bench_put info_big kib "$(rss info "$T/big.reel")"
	}
	bench_interleave run_rss
	bench_row "compare peak RSS at 1M I/Os, KiB" cmp_big kib cmp_small kib "" "compare at 200k"
	bench_row "compare peak RSS at 1M I/Os, KiB" cmp_big kib info_big kib "" "ioreel info at 1M"
else
	echo "   compare peak RSS: not measured (/usr/bin/time absent: apt-get install time)"
fi
if command -v gnuplot >/dev/null; then
	run_plot() { rm -rf "$T/plots"; bench_put plot s "$(wall "$IOREEL" plot "$T/big.reel" "$T/small.reel" -o "$T/plots")"; }
	# gnuplot alone on the data files ioreel wrote, with the same scripts and
	# arguments (ARG6 is the scripts' "extra": empty here, as plot passes it)
	gp() {
		cd "$T/plots" || return 1
		local s="$TOP/plots"
		gnuplot -c "$s/throughput.gp" png g1.png '"data/tput_1.dat" "data/tput_2.dat"' '"a" "b"' t completion &&
		gnuplot -c "$s/inflight.gp" png g2.png '"data/tput_1.dat" "data/tput_2.dat"' '"a" "b"' t "" &&
		gnuplot -c "$s/latency_cdf.gp" png g3.png '"data/latcdf_1.dat" "data/latcdf_2.dat"' '"a" "b"' t &&
		gnuplot -c "$s/latency_time.gp" png g4.png '"data/lattime_1.dat" "data/lattime_2.dat"' '"a" "b"' t "" &&
		gnuplot -c "$s/access_map.gp" png g5.png '"data/map_1.dat"' '"a"' t "" &&
		gnuplot -c "$s/access_map.gp" png g7.png '"data/map_2.dat"' '"b"' t "" &&
		gnuplot -c "$s/sizes.gp" png g6.png '"data/sizes.dat"' '"a r" "a w" "b r" "b w"' t
	}
	run_gp() { bench_put gnuplot s "$(wall gp)"; }
	bench_interleave run_plot run_gp
	bench_row "plot (2 runs, 1.2M I/Os, $(ls "$T/plots"/*.png | grep -vc '/g[0-9].png') plots), s" \
		plot s gnuplot s "" "gnuplot alone on the same data"
fi
if ls "$TOP"/traces/*.reel >/dev/null 2>&1 && command -v gnuplot >/dev/null; then
	mkdir -p "$T/tmp"
	run_demo() {
		local t0 td rep=0 r d
		rm -rf "$T/demo"
		t0=$(now)
		TMPDIR=$T/tmp "$IOREEL" demo -o "$T/demo" >"$T/demo.out" 2>&1 || { tail "$T/demo.out"; return; }
		td=$(calc "$(now) - $t0")
		for r in "$T/demo"/*.reel; do
			d=$("$IOREEL" info --json "$r" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["replay.duration_ns"])')
			rep=$((rep + d))
		done
		bench_put demo s "$td"
		bench_put replays s "$(calc "$rep / 1000000000")"
	}
	bench_interleave run_demo
	echo "   demo ($(sed -n 's/^ioreel demo: trace \([^ ]*\) .*/\1/p' "$T/demo.out" | head -n 1 | xargs -r basename);" \
		"$(sed -n 's/.*each run replays it \([0-9]*\) times.*/looped \1 times/p' "$T/demo.out" | head -n 1)), target <= 60 s:"
	bench_row "demo wall time, s" demo s replays s "" "its 12 replays themselves (same run)"
else
	echo "   demo: skipped (no bundled trace in traces/ or no gnuplot)"
fi
