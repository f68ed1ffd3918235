#!/bin/bash
# make bench, plots module: each figure beside its anchor measured here.
#  - compare's analysis rate (two streaming passes + histograms + buckets)
#    against `ioreel info` (one pass, the formats module's statistics)
#  - compare's peak memory on 2M I/Os against 200k (constant memory)
#  - plot: wall time of `ioreel plot` against gnuplot alone on the same data
#  - demo: wall time against the 60 s target, and against the time its four
#    replays took themselves (replay.duration_ns)
set -u
: "${IOREEL:?run through make bench}"
BUILD=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-bench-plots.XXXXXX")
trap 'rm -rf "$T"' EXIT
gen="$TOP/$BUILD/tests/bench/gen_reel"
[ -x "$gen" ] || { echo "   gen_reel not built"; exit 1; }
N=1000000
"$gen" $N "$T/big.reel" >/dev/null || exit 1
"$gen" 200000 "$T/small.reel" >/dev/null || exit 1
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.9f\", $1 }"; }
best() { # best of 3 wall seconds of a command
	local b=999999 t0 t1 d
	for _ in 1 2 3; do
		t0=$(now); "$@" >/dev/null 2>&1 || return 1; t1=$(now)
		d=$(calc "$t1 - $t0")
		b=$(calc "($d < $b) ? $d : $b")
	done
	echo "$b"
}
ti=$(best "$IOREEL" info "$T/big.reel")
tc=$(best "$IOREEL" compare "$T/big.reel")
printf "   compare analysis: %.1f M I/O/s (%.2f s for %d I/Os); anchor ioreel info: %.1f M I/O/s; ratio %.2f\n" \
	"$(calc "$N / $tc / 1000000")" "$tc" $N "$(calc "$N / $ti / 1000000")" \
	"$(calc "$ti / $tc")"
if [ -x /usr/bin/time ]; then
	mb=$(/usr/bin/time -f %M "$IOREEL" compare "$T/big.reel" 2>&1 >/dev/null | tail -1)
	ms=$(/usr/bin/time -f %M "$IOREEL" compare "$T/small.reel" 2>&1 >/dev/null | tail -1)
	mi=$(/usr/bin/time -f %M "$IOREEL" info "$T/big.reel" 2>&1 >/dev/null | tail -1)
	printf "   compare peak RSS: %d KiB at 1M I/Os, %d KiB at 200k (ratio %.2f); anchor ioreel info at 1M: %d KiB (ratio %.2f)\n" \
		"$mb" "$ms" "$(calc "$mb / $ms")" "$mi" "$(calc "$mb / $mi")"
else
	echo "   compare peak RSS: not measured (/usr/bin/time absent: apt-get install time)"
fi
if command -v gnuplot >/dev/null; then
	tp=$(best "$IOREEL" plot "$T/big.reel" "$T/small.reel" -o "$T/plots")
	# gnuplot alone on the data files ioreel wrote, with the same scripts
	gp() {
		cd "$T/plots" || return 1
		local s="$TOP/plots"
		gnuplot -c "$s/throughput.gp" png g1.png '"data/tput_1.dat" "data/tput_2.dat"' '"a" "b"' t completion &&
		gnuplot -c "$s/inflight.gp" png g2.png '"data/tput_1.dat" "data/tput_2.dat"' '"a" "b"' t &&
		gnuplot -c "$s/latency_cdf.gp" png g3.png '"data/latcdf_1.dat" "data/latcdf_2.dat"' '"a" "b"' t &&
		gnuplot -c "$s/latency_time.gp" png g4.png '"data/lattime_1.dat" "data/lattime_2.dat"' '"a" "b"' t &&
		gnuplot -c "$s/access_map.gp" png g5.png '"data/map_1.dat"' '"a"' t &&
		gnuplot -c "$s/access_map.gp" png g7.png '"data/map_2.dat"' '"b"' t &&
		gnuplot -c "$s/sizes.gp" png g6.png '"data/sizes.dat"' '"a r" "a w" "b r" "b w"' t
	}
	tg=$(best gp)
	printf "   plot (2 runs, 1.2M I/Os, %d plots): %.2f s; anchor gnuplot alone on the same data: %.2f s; ratio %.2f\n" \
		"$(ls "$T/plots"/*.png | grep -vc '/g[0-9].png')" "$tp" "$tg" "$(calc "$tp / $tg")"
fi
if ls "$TOP"/traces/*.reel >/dev/null 2>&1 && command -v gnuplot >/dev/null; then
	mkdir -p "$T/tmp"
	t0=$(now)
	TMPDIR=$T/tmp "$IOREEL" demo -o "$T/demo" >"$T/demo.out" 2>&1 || { tail "$T/demo.out"; exit 1; }
	td=$(calc "$(now) - $t0")
	rep=0
	for r in "$T/demo"/*.reel; do
		d=$("$IOREEL" info --json "$r" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["replay.duration_ns"])')
		rep=$((rep + d))
	done
	printf "   demo (%s): %.1f s wall; target <= 60 s (ratio %.2f); its four replays took %.1f s themselves (demo / replays %.2f)\n" \
		"$(sed -n '1s/^ioreel demo: trace \([^ ]*\) .*/\1/p' "$T/demo.out" | xargs basename)" "$td" "$(calc "$td / 60")" \
		"$(calc "$rep / 1000000000")" "$(calc "$td * 1000000000 / $rep")"
else
	echo "   demo: skipped (no bundled trace in traces/ or no gnuplot)"
fi
