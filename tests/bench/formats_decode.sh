#!/bin/bash
# Decode speed: records per CPU second into struct reel_rec (and as the
# columns of reel_read_cols, what model fit reads), .reel against
# the anchor `zstd -dc` of a text export of the same records plus a minimal
# parser (tests/bench/decode.c text), CPU time of both pipeline processes
# counted; REPEATS interleaved runs of each (tests/bench/lib.sh).
# Target: >= 50 M I/O per second per core.  DECODE_N sets the size.
set -u
: "${IOREEL:?run through make bench}"
N=${DECODE_N:-5000000}
B="$TOP/$BUILD/tests/bench"
T=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-bench.XXXXXX")
. "$TOP/tests/bench/lib.sh"
bench_trap 'rm -rf "$T"'
"$B/gen_reel" "$N" "$T/g.reel" 11 || exit 1
if "$IOREEL" export --to csv "$T/g.reel" -o "$T/g.txt" 2>/dev/null; then kind=csv
else "$IOREEL" dump "$T/g.reel" >"$T/g.txt"; kind="dump text"; fi
zstd -q -3 -T1 "$T/g.txt" -o "$T/g.txt.zst" || exit 1
run_reel() { bench_put reel mps "$("$B/decode" reel "$T/g.reel" | awk '{ print $3 / 1e6 }')"; }
run_cols() { bench_put cols mps "$("$B/decode" cols "$T/g.reel" | awk '{ print $3 / 1e6 }')"; }
run_anchor() {
	local cpu n
	TIMEFORMAT='%U %S'
	cpu=$( { time zstd -dc "$T/g.txt.zst" | "$B/decode" text >"$T/out"; } 2>&1 | tail -n 1 | awk '{print $1 + $2}')
	n=$(awk '{print $1}' "$T/out")
	bench_put anchor mps "$(awk -v n="$n" -v c="$cpu" 'BEGIN { print (c > 0) ? n / c / 1e6 : 0 }')"
}
bench_interleave run_reel run_cols run_anchor
echo "   decode, $N synthetic I/Os, M I/O per CPU second (target >= 50):"
bench_row "decode .reel -> struct reel_rec, M I/O/s" reel mps anchor mps "" "zstd -dc $kind + minimal parse"
bench_row "decode .reel -> columns (reel_read_cols), M I/O/s" cols mps anchor mps "" "zstd -dc $kind + minimal parse"
bench_det "size, bytes per I/O" "$(awk -v a="$(stat -c %s "$T/g.reel")" -v b="$(stat -c %s "$T/g.txt.zst")" -v n="$N" \
	'BEGIN { printf ".reel %.2f | %s.zst %.2f | ratio %.2f", a / n, "'"$kind"'", b / n, a / b }')"
