#!/bin/bash
# make bench: .reel size and text import speed on the shared public traces.
#  size: bytes per I/O of the .reel against `xz -9` and `zstd -19` of the
#        CSV export holding the same records (and xz -9 of the source file);
#        target: .reel <= 1.0x xz -9 of the CSV.
#  speed: import MB/s of each text format (the source repeated to >= 64 MB)
#        against a minimal text parse of the same bytes (mawk summing a
#        column), as a ratio: REPEATS interleaved runs, median and range
#        (tests/bench/lib.sh).  Sizes are deterministic: one run.
set -u
: "${IOREEL:?run through make bench}"
P=$SHARED/traces/public
[ -d "$P" ] || { echo "skipped: $P absent"; exit 0; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-bench.XXXXXX")
. "$TOP/tests/bench/lib.sh"
bench_trap 'rm -rf "$T"'

size() { stat -c %s "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

echo "size (bytes per I/O; ratio = .reel / anchor; deterministic: one run):"
printf "  %-28s %8s %8s %8s %8s %8s %10s %10s\n" trace I/Os reel xz-csv zstd-csv xz-src "reel/xz" "reel/zstd"
# name:path:import options
set -- msr:msr/wdev_1.csv: \
	fiu:fiu/cheetah.cs.fiu.edu-110108-113008.1.head.blkparse: \
	disksim:disksim/tpcc-small.trace:--time-unit=ns \
	fio:fio/t0038.iolog: \
	blkparse:blkparse/nvme0n1.blktrace.txt: \
	blktrace:blktrace/sda.blktrace.0:
for spec in "$@"; do
	IFS=: read -r name rel opt <<<"$spec"
	src=$P/$rel
	[ -e "$src" ] || continue
	in=("$src")
	[ "$name" = blktrace ] && in=("$P/blktrace/sda.blktrace.0" "$P/blktrace/sda.blktrace.1")
	if ! "$IOREEL" import -q --from "$name" ${opt:+"$opt"} "${in[@]}" -o "$T/$name.reel" 2>"$T/err"; then
		printf "  %-28s (no %s importer in this build, or it failed: %s)\n" "$name" "$name" \
			"$(head -n 1 "$T/err" | cut -c 1-80)"
		continue
	fi
	"$IOREEL" export --to csv "$T/$name.reel" -o "$T/$name.csv" 2>/dev/null || continue
	n=$(($(wc -l <"$T/$name.csv") - 1))
	[ "$n" -gt 0 ] || continue
	xz -9 -k -c "$T/$name.csv" >"$T/$name.csv.xz"
	zstd -q -19 -c "$T/$name.csv" >"$T/$name.csv.zst"
	cat "${in[@]}" | xz -9 -c >"$T/$name.src.xz"
	r=$(size "$T/$name.reel") x=$(size "$T/$name.csv.xz") z=$(size "$T/$name.csv.zst") s=$(size "$T/$name.src.xz")
	printf "  %-28s %8d %8.2f %8.2f %8.2f %8.2f %9sx %9sx\n" "$name" "$n" \
		"$(ratio "$r" "$n")" "$(ratio "$x" "$n")" "$(ratio "$z" "$n")" "$(ratio "$s" "$n")" \
		"$(ratio "$r" "$x")" "$(ratio "$r" "$z")"
done

echo
echo "import speed, MB per CPU second (source repeated to >= 64 MB; anchor: mawk summing a column of the same file):"
AWK=$(command -v mawk || command -v awk)
# CPU seconds (user + sys) -> MB/s: other jobs share the machine
mbps() { awk -v m="$mb" -v t="$1" 'BEGIN { split(t, a, " "); printf "%.2f", m / (a[1] + a[2] + 1e-9) }'; }
run_import() {
	local t
	TIMEFORMAT='%3U %3S'
	t=$( { time "$IOREEL" import -q --from "$name" $opt --skip-bad "$big" -o "$T/big.reel" \
		--overwrite 2>/dev/null; } 2>&1 ) || { echo "  $name: import failed"; return; }
	bench_put "imp_$name" mbs "$(mbps "$t")"
}
run_mawk() {
	local t
	TIMEFORMAT='%3U %3S'
	if [ "$sep" = "," ]; then
		t=$( { time "$AWK" -F, '{ s += $5 } END { print s }' "$big" >/dev/null; } 2>&1 )
	else
		t=$( { time "$AWK" '{ s += $4 } END { print s }' "$big" >/dev/null; } 2>&1 )
	fi
	bench_put "awk_$name" mbs "$(mbps "$t")"
}
for spec in msr:msr/wdev_1.csv:, fiu:fiu/cheetah.cs.fiu.edu-110108-113008.1.head.blkparse:' ' \
	disksim:disksim/tpcc-small.trace:' ' blkparse:blkparse/nvme0n1.blktrace.txt:' '; do
	IFS=: read -r name rel sep <<<"$spec"
	src=$P/$rel
	[ -e "$src" ] || continue
	"$IOREEL" import --from list | grep -q "^$name " || continue
	big=$T/big.$name
	: >"$big"
	one=$T/one.$name
	# blkparse text: the event lines only (its summary ends the events)
	if [ "$name" = blkparse ]; then grep -E '^ *[0-9]+,[0-9]+ ' "$src" >"$one"; else cp "$src" "$one"; fi
	while [ "$(size "$big")" -lt $((64 << 20)) ]; do cat "$one" >>"$big"; done
	mb=$(awk -v b="$(size "$big")" 'BEGIN { print b / 1e6 }')
	cat "$big" >/dev/null # warm the page cache for both
	opt=
	[ "$name" = disksim ] && opt=--time-unit=ns
	bench_interleave run_import run_mawk
	bench_row "import $name ($(printf %.0f "$mb") MB), MB/s" "imp_$name" mbs "awk_$name" mbs "" "mawk"
	rm -f "$big" "$T/big.reel"
done
