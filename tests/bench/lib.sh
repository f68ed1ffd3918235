# tests/bench/lib.sh - sourced by the bench groups (tests/bench/*.sh).
# shellcheck shell=bash disable=SC2089,SC2090
#
# A figure on this shared, noisy machine is the median and range of REPEATS
# (default 3) runs, interleaved with its anchor's runs (A B A B A B), next
# to the anchor measured in the same run.  A group:
#
#   . "$TOP/tests/bench/lib.sh"
#   run_ioreel() { ...; bench_put ioreel iops "$n"; }   # one run, any keys
#   run_fio()    { ...; bench_put fio iops "$n"; }
#   bench_interleave run_ioreel run_fio                  # A B A B A B
#   bench_row "rate, libaio qd32, IOPS" ioreel iops fio iops
#
# prints
#   rate, libaio qd32, IOPS: 285750 [270001..290112] | fio: 146413 [...] |
#       ratio of medians 1.95 (per pair 1.80..2.10)
#
# bench_put TAG KEY VALUE records one value (one per run, in run order);
# bench_row LABEL TAG KEY ATAG AKEY [lower] prints figure, anchor and ratio
# ("lower": lower is better, the ratio printed is anchor/figure; no ratio
# where a value is <= 0);
# bench_fig LABEL TAG KEY prints a figure without an anchor;
# bench_det LABEL TEXT prints a deterministic figure (same every run: one run);
# bench_load prints the load average.  run.sh prints the load before and
# after each group.  Values are kept in $BENCH_T (removed with the group's $T
# or at exit).
REPEATS=${REPEATS:-3}
case "$REPEATS" in '' | *[!0-9]* | 0) echo "REPEATS=$REPEATS: give a whole number >= 1" >&2; exit 2 ;; esac
# under tests/lib.sh's $T when the group uses it (its trap removes it);
# else our own, removed by our EXIT trap: a group adds its cleanup to that
# trap with bench_trap CMD, not with trap
_bench_traps=""
if [ -n "${T:-}" ] && [ -d "$T" ]; then
	BENCH_T=$T/bench-vals
	mkdir -p "$BENCH_T"
else
	BENCH_T=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-bench-vals.XXXXXX")
	_bench_traps="rm -rf '$BENCH_T'"
	trap 'eval "$_bench_traps"' EXIT
	trap 'exit 130' INT TERM
fi
# bench_trap CMD: run CMD at exit (before the values are removed)
bench_trap() { _bench_traps="$1${_bench_traps:+; $_bench_traps}"; trap 'eval "$_bench_traps"' EXIT; }

bench_load() { echo "   load average (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg)${1:+ ($1)}"; }

bench_put() { echo "$3" >>"$BENCH_T/$1.$2"; }
bench_reset() { rm -f "$BENCH_T"/*; } # before the next row's runs

# bench_interleave FUNC... : REPEATS rounds, each calling every FUNC once in
# order, with the round number as argument
bench_interleave() {
	local r f
	for r in $(seq "$REPEATS"); do
		for f in "$@"; do "$f" "$r"; done
	done
}

# a number for people: 3 significant digits below 1000, whole numbers above
_bench_awk_fmt='function f(x) { a = x < 0 ? -x : x
	if (a >= 1000) return sprintf("%.0f", x)
	if (a >= 100) return sprintf("%.0f", x)
	if (a == 0) return "0"
	return sprintf("%.3g", x) }
function med(v, n,   i, j, t, w) { for (i = 1; i <= n; i++) w[i] = v[i]
	for (i = 2; i <= n; i++) { t = w[i]; for (j = i - 1; j >= 1 && w[j] > t; j--) w[j + 1] = w[j]; w[j + 1] = t }
	lo = w[1]; hi = w[n]
	return n % 2 ? w[(n + 1) / 2] : (w[n / 2] + w[n / 2 + 1]) / 2 }'

# bench_stat TAG KEY: "median [min..max]" of the values (n/a when none)
bench_stat() {
	[ -s "$BENCH_T/$1.$2" ] || { echo "n/a"; return; }
	awk "$_bench_awk_fmt"'{ v[NR] = $1 } END { m = med(v, NR); printf "%s [%s..%s]", f(m), f(lo), f(hi) }' \
		"$BENCH_T/$1.$2"
}
# bench_med TAG KEY: the median alone (raw)
bench_med() {
	[ -s "$BENCH_T/$1.$2" ] || { echo "nan"; return; }
	awk "$_bench_awk_fmt"'{ v[NR] = $1 } END { printf "%.9g", med(v, NR) }' "$BENCH_T/$1.$2"
}

# bench_row LABEL TAG KEY ATAG AKEY [lower] [ANCHOR-NAME]
bench_row() {
	local label=$1 a="$BENCH_T/$2.$3" b="$BENCH_T/$4.$5" lower=${6:-} an=${7:-$4}
	if [ ! -s "$a" ] || [ ! -s "$b" ]; then
		echo "   $label: $(bench_stat "$2" "$3") | $an: $(bench_stat "$4" "$5") | ratio n/a"
		return
	fi
	paste "$a" "$b" | awk -v label="$label" -v an="$an" -v lower="$lower" "$_bench_awk_fmt"'
	{ x[NR] = $1; y[NR] = $2
	  r[NR] = ($1 <= 0 || $2 <= 0) ? "inf" : lower == "lower" ? $2 / $1 : $1 / $2 }
	END { n = NR; mx = med(x, n); xl = lo; xh = hi; my = med(y, n); yl = lo; yh = hi
	  rm = (mx <= 0 || my <= 0) ? "n/a" : lower == "lower" ? my / mx : mx / my
	  rl = rh = ""; for (i = 1; i <= n; i++) if (r[i] != "inf") {
		if (rl == "" || r[i] < rl) rl = r[i]; if (rh == "" || r[i] > rh) rh = r[i] }
	  printf "   %s: %s [%s..%s] | %s: %s [%s..%s] | %s %s (per pair %s..%s)%s\n", label,
		f(mx), f(xl), f(xh), an, f(my), f(yl), f(yh),
		lower == "lower" ? "anchor/figure, medians" : "ratio of medians",
		rm == "n/a" ? "n/a (a median <= 0)" : sprintf("%.2f", rm), rl == "" ? "-" : sprintf("%.2f", rl),
		rh == "" ? "-" : sprintf("%.2f", rh), n < 3 ? "  [fewer than 3 runs: not a figure]" : "" }'
}
# bench_fig LABEL TAG KEY [NOTE]: a figure with no anchor of its own
bench_fig() { echo "   $1: $(bench_stat "$2" "$3")${4:+ $4} (median [range] of $(wc -l 2>/dev/null <"$BENCH_T/$2.$3" || echo 0) runs)"; }
# bench_det LABEL TEXT: a deterministic figure (every run gives the same)
bench_det() { echo "   $1: $2 (deterministic: one run)"; }

# bench_capture_ready PID ERRFILE: wait (up to 10 s) until `ioreel capture`
# running as PID (not -q, stderr in ERRFILE) says it is recording; 1 if it
# never does.  Not the instance's tracing_on: an instance is born with
# tracing on, before its capture turns it off to set it up (I/O done then
# is not recorded; one boot round trip of `make bench` lost its start so).
bench_capture_ready() {
	for _ in $(seq 200); do
		grep -q '^ioreel capture: recording ' "$2" 2>/dev/null && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
