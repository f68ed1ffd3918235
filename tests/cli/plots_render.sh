#!/bin/bash
# ioreel plot: every gnuplot script (plots/*.gp) renders, to png (non-empty,
# 1000x600) and to the dumb terminal (axis labels and run legends in the
# text), from results of a real replay on a loop device; a plain trace gets
# the plots it has data for; missing scripts give a helpful error.
. "$TOP/tests/lib.sh"
. "$TOP/tests/cli/plots_lib.bash"
need_root
command -v gnuplot >/dev/null || skip "gnuplot not installed (apt-get install gnuplot-nox)"
plots_trace
make_loop "$T/disk.img" 64
plots_replay "$T/a.reel" --qd 4 --data ratio:2
# b keeps the trace's timing (sped up): the issue error means something
plots_replay "$T/b.reel" --qd 1 --data random --timing original --speed 40
label_b=$("$IOREEL" info --json "$T/b.reel" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["replay.label"])')
label_a=$("$IOREEL" info --json "$T/a.reel" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["replay.label"])')
[ -n "$label_a" ] || fail "no replay.label in the result"

scripts=$(cd "$TOP/plots" && ls *.gp | grep -Ev '^(palette|legend).gp$' | sed 's/\.gp$//')
[ "$(echo "$scripts" | wc -w)" -ge 7 ] || fail "expected 7 scripts, found: $scripts"

# png: each script's output exists, is a PNG of 1000x600
"$IOREEL" plot "$T/a.reel" "$T/b.reel" -o "$T/png" --format png >"$T/png.out" || fail "ioreel plot png"
for s in $scripts; do
	f="$T/png/$s.png"
	[ -s "$f" ] || fail "$s.gp: $f missing or empty"
	dims=$(od -An -tu1 -j12 -N12 "$f" | tr -s ' ' | sed 's/^ //')
	# "I H D R" then width and height, big endian
	[ "$dims" = "73 72 68 82 0 0 3 232 0 0 2 88" ] || fail "$s.png: not a 1000x600 PNG (IHDR bytes: $dims)"
	[ "$(stat -c %s "$f")" -gt 5000 ] || fail "$s.png: only $(stat -c %s "$f") bytes"
	grep -q "$f" "$T/png.out" || fail "$s.png not listed on stdout"
done

# dumb terminal: axis labels of each plot and the run legends, in text
"$IOREEL" plot "$T/a.reel" "$T/b.reel" -o "$T/dumb" --format dumb >/dev/null || fail "ioreel plot dumb"
expect() { # script text...
	local f="$T/dumb/$1.txt"
	shift
	[ -s "$f" ] || fail "$f missing or empty"
	for w in "$@"; do
		grep -qF -- "$w" "$f" || { cat "$f"; fail "$f lacks '$w'"; }
	done
}
expect throughput "Throughput" "solid: read, dashed: write" "by completion time" "$label_a"
expect inflight "I/Os in flight" "$label_a"
expect latency_cdf "percentile of I/Os (nines axis)" "99.9" "$label_a"
expect latency_time "by completion time" "p99" "$label_a"
expect access_map "time since start" "read" "write"
expect sizes "request size" "read" "write"
expect issue_error "Replay issue error" "<1us" "$label_b"
grep -qF -- "$label_a" "$T/dumb/issue_error.txt" && fail "issue error drawn for an afap run"
for s in $scripts; do
	[ -s "$T/dumb/$s.txt" ] || fail "$s.gp did not render to the dumb terminal"
done
# the plotted data adds up: sum over buckets of IOPS x interval = the I/Os
ios=$("$IOREEL" info --json "$T/a.reel" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["ios"])')
/usr/bin/python3 - "$T/dumb/data/tput_1.dat" "$ios" <<'PY' || fail "throughput data does not add up to the run's I/Os"
import sys
rows = [l.split() for l in open(sys.argv[1]) if not l.startswith('#')]
# each row: time at the middle of its bucket; the bucket width is twice the
# distance from the previous bucket's end (first bucket starts at 0)
total, start = 0.0, 0.0
for r in rows:
    t = float(r[0]); w = 2 * (t - start); start += w
    total += (float(r[3]) + float(r[4])) * w
ios = int(sys.argv[2])
print("I/Os from the plotted rates", round(total), "of", ios)
sys.exit(0 if abs(total - ios) <= max(2, 0.02 * ios) else 1)
PY

# a plain trace (not a replay): no issue-error plot, the rest it has data for
"$IOREEL" plot "$TRACE" -o "$T/trace" --format svg >"$T/trace.out" || fail "ioreel plot on a trace"
for s in throughput access_map sizes; do
	[ -s "$T/trace/$s.svg" ] || fail "trace: $s.svg missing"
done
[ -e "$T/trace/issue_error.svg" ] && fail "trace: an issue error plot for a trace that was not replayed"

# a trace with arrival times only (public FIU trace, imported): arrival
# rate, access map and sizes; no latency plots; compare prints '-' for latency
fiu=$SHARED/traces/public/fiu/cheetah.cs.fiu.edu-110108-113008.1.head.blkparse
if [ -e "$fiu" ]; then
	"$IOREEL" import "$fiu" -o "$T/fiu.reel" >/dev/null 2>&1 || fail "import $fiu"
	"$IOREEL" plot "$T/fiu.reel" -o "$T/fiu" --format png >"$T/fiu.out" || fail "plot of an arrival-only trace"
	grep -q "Arrival rate over time" "$T/fiu.out" || fail "arrival-only trace: no arrival rate plot"
	for s in throughput access_map sizes; do
		[ -s "$T/fiu/$s.png" ] || fail "arrival-only trace: $s.png missing"
	done
	for s in latency_cdf latency_time inflight issue_error; do
		[ -e "$T/fiu/$s.png" ] && fail "arrival-only trace: $s.png drawn without the data for it"
	done
	"$IOREEL" compare "$T/fiu.reel" | awk 'NR == 2 && $6 == "-" && $7 == "-" && $8 == "-" {ok = 1} END {exit !ok}' ||
		fail "compare: unknown latency not shown as '-'"
else
	echo "note: $fiu absent, arrival-only trace not checked"
fi

# scripts not found: the error names IOREEL_PLOTS
if IOREEL_PLOTS=/nonexistent "$IOREEL" plot "$T/a.reel" -o "$T/none" 2>"$T/err"; then
	fail "plot without scripts succeeded"
fi
grep -q IOREEL_PLOTS "$T/err" || { cat "$T/err"; fail "missing scripts: unhelpful error"; }
echo "ok: $(echo $scripts | wc -w) scripts rendered to png and dumb from replays of $(basename "$TRACE")"
