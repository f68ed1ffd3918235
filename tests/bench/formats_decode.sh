# Decode speed: records per CPU second into struct reel_rec, .reel against
# the anchor `zstd -dc` of a text export of the same records plus a minimal
# parser (tests/bench/decode.c text), CPU time of both pipeline processes
# counted.  Target: >= 50 M I/O per second per core.  DECODE_N sets the size.
set -u
N=${DECODE_N:-5000000}
B="$TOP/$BUILD/tests/bench"
T=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$B/gen_reel" "$N" "$T/g.reel" 11 || exit 1
if "$IOREEL" export --to csv "$T/g.reel" -o "$T/g.txt" 2>/dev/null; then kind=csv
else "$IOREEL" dump "$T/g.reel" >"$T/g.txt"; kind="dump text"; fi
zstd -q -3 -T1 "$T/g.txt" -o "$T/g.txt.zst" || exit 1
best_reel=0
for i in 1 2 3; do
	r=$("$B/decode" reel "$T/g.reel" | awk '{print $3}')
	[ "${r%.*}" -gt "$best_reel" ] && best_reel=${r%.*}
done
best_anchor=0
for i in 1 2 3; do
	TIMEFORMAT='%U %S'
	cpu=$( { time zstd -dc "$T/g.txt.zst" | "$B/decode" text >"$T/out"; } 2>&1 | tail -n 1 | awk '{print $1 + $2}')
	n=$(awk '{print $1}' "$T/out")
	r=$(awk -v n="$n" -v c="$cpu" 'BEGIN { printf "%d", (c > 0) ? n / c : 0 }')
	[ "$r" -gt "$best_anchor" ] && best_anchor=$r
done
printf "decode, %d synthetic I/Os (best of 3, CPU time; machine load %s)\n" "$N" "$(cut -d' ' -f1 /proc/loadavg)"
printf "  %-44s %8.1f M I/O per s\n" ".reel -> struct reel_rec" "$(echo "$best_reel / 1000000" | bc -l)"
printf "  %-44s %8.1f M I/O per s\n" "anchor: zstd -dc $kind + minimal parse" "$(echo "$best_anchor / 1000000" | bc -l)"
printf "  %-44s %8.1fx   (target: >= 50 M/s per core)\n" "ratio .reel / anchor" "$(echo "$best_reel / $best_anchor" | bc -l)"
printf "  sizes: .reel %.2f bytes/I/O, %s.zst %.2f bytes/I/O\n" \
	"$(echo "$(stat -c %s "$T/g.reel") / $N" | bc -l)" "$kind" "$(echo "$(stat -c %s "$T/g.txt.zst") / $N" | bc -l)"
