#!/bin/bash
# make bench: ioreel model.  Fit and generate speed (I/O per second of CPU
# time, beside the .reel writer and reader on the same records), model size,
# and the fidelity table for each public trace beside the naive model's.  The
# replay demerit of a trace's synthetic twin is BENCH=demerit.
. "$TOP/tests/lib.sh"
B="$TOP/$BUILD/tests/bench/model_speed"
P="$SHARED/traces/public"
fmts=$("$IOREEL" import --from list 2>/dev/null | awk '{print $1}')
has_fmt() { grep -qx "$1" <<<"$fmts"; }

# ---- speed: a 20-million-I/O synthetic trace from a real trace's model
model="$TOP/tests/fuzz/corpus/model_json/fiu_2phases.json"
if has_fmt fiu && [ -d "$P/fiu" ]; then
	"$IOREEL" import -q --from fiu "$P"/fiu/*.blkparse -o "$T/speed.reel" &&
		"$IOREEL" model fit "$T/speed.reel" -o "$T/speed.json" 2>/dev/null && model="$T/speed.json"
fi
echo "speed (model of the fiu trace, generated x2000; per core: CPU time of the thread):"
"$B" "$model" 2000 "$T/big.reel" || echo "   model_speed failed"
rm -f "$T/big.reel"

# ---- the commands as people run them: fit and gen on gen_reel traces, wall
# time including reading the trace and writing the output, CPU time (user +
# sys: the fairer figure on a shared machine), peak RSS; 3 runs each, median
# and range.  Sizes: MODEL_BENCH_SIZES (default 10M and 100M I/O: fit
# streams the trace, its peak RSS should be the same at both; the 100M trace
# takes about 1 GiB of /tmp and a few minutes to write).  MODEL_BENCH_BEFORE=
# another ioreel binary (an older build): measured too, runs interleaved
# (before, this, before, this, ...), the anchor of this build's figures.
echo
echo "fit and gen on gen_reel traces (wall and CPU time incl. reading and writing; 3 runs: median [min-max])"
echo "   targets: fit >= 5 M I/O/s, gen >= 5 M I/O/s with its output written, peak RSS of fit < 64 MiB and flat (10M vs 100M within 10%)"
echo "   load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
G="$TOP/$BUILD/tests/bench/gen_reel"
stats() { # values... -> "median [min-max]"
	printf "%s\n" "$@" | sort -g | awk '{v[NR]=$1} END {printf "%.3g [%.3g-%.3g]", v[int((NR+1)/2)], v[1], v[NR]}'
}
bins="this"
[ -n "${MODEL_BENCH_BEFORE:-}" ] && bins="before this"
declare -A fw fc fr gw gc gr ow oc or
# timed BIN N KIND SUBCOMMAND ARGS...: appends wall and CPU M I/O/s and RSS MiB to fw/fc/fr (KIND
# fit), gw/gc/gr (gen) or ow/oc/or (own: gen at a 10M-I/O trace's own rate)
timed() {
	local b=$1 n=$2 k=$3 exe=$IOREEL
	shift 3
	[ "$b" = before ] && exe=$MODEL_BENCH_BEFORE
	/usr/bin/time -f "%e %U %S %M" -o "$T/time" "$exe" model "$@" --overwrite 2>/dev/null || return 1
	read -r secs us ss kb <"$T/time"
	local w c
	w=$(echo "$n / $secs / 1000000" | bc -l) c=$(echo "$n / ($us + $ss) / 1000000" | bc -l)
	if [ "$k" = fit ]; then
		fw[$b]="${fw[$b]} $w" fc[$b]="${fc[$b]} $c" fr[$b]="${fr[$b]} $((kb / 1024))"
	elif [ "$k" = own ]; then
		ow[$b]="${ow[$b]} $w" oc[$b]="${oc[$b]} $c" or[$b]="${or[$b]} $((kb / 1024))"
	else
		gw[$b]="${gw[$b]} $w" gc[$b]="${gc[$b]} $c" gr[$b]="${gr[$b]} $((kb / 1024))"
	fi
}
for n in ${MODEL_BENCH_SIZES:-10000000 100000000}; do
	"$G" "$n" "$T/big.reel" 1 >/dev/null || { echo "   gen_reel $n failed"; continue; }
	for b in $bins; do fw[$b]="" fc[$b]="" fr[$b]="" gw[$b]="" gc[$b]="" gr[$b]=""; done
	for run in 1 2 3; do
		for b in $bins; do
			timed "$b" "$n" fit fit "$T/big.reel" -o "$T/big.$b.json" || { echo "   fit ($b) failed"; break 2; }
			timed "$b" "$n" gen gen "$T/big.$b.json" -o "$T/gen.reel" || { echo "   gen ($b) failed"; break 2; }
		done
	done
	for b in $bins; do
		# shellcheck disable=SC2086
		printf "   %4d M I/O %-6s fit %s M I/O/s wall, %s per CPU s, peak RSS %s MiB\n" \
			$((n / 1000000)) "$b" "$(stats ${fw[$b]})" "$(stats ${fc[$b]})" "$(stats ${fr[$b]})"
		# shellcheck disable=SC2086
		printf "   %4d M I/O %-6s gen %s M I/O/s wall, %s per CPU s, peak RSS %s MiB\n" \
			$((n / 1000000)) "$b" "$(stats ${gw[$b]})" "$(stats ${gc[$b]})" "$(stats ${gr[$b]})"
	done
	echo "        (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
	rm -f "$T/big.reel" "$T/gen.reel"
done
# fit's peak RSS on many devices: a 10M-I/O trace generated from disksim's
# model (16 devices; x1429), one fit each (the per-device samples, block
# sets and bins must stay within the same 64 MiB)
if has_fmt disksim && [ -f "$P/disksim/tpcc-small.trace" ] &&
	"$IOREEL" import -q --from disksim --time-unit ns "$P/disksim/tpcc-small.trace" -o "$T/ds.reel" &&
	"$IOREEL" model fit "$T/ds.reel" -o "$T/ds.json" 2>/dev/null &&
	"$IOREEL" model gen "$T/ds.json" --rate 1429 -o "$T/big.reel" 2>"$T/gen.log"; then
	n=$(sed -n 's/.*gen: \([0-9]*\) I\/O.*/\1/p' "$T/gen.log")
	for b in $bins; do
		fr[$b]=""
		timed "$b" "${n:-10000000}" fit fit "$T/big.reel" -o "$T/big.$b.json" || { echo "   fit ($b) failed"; continue; }
		printf "   disksim x1429 (16 devices, 10M I/O) %-6s fit peak RSS %s MiB\n" "$b" "${fr[$b]# }"
	done
	rm -f "$T/big.reel"
fi
# the same, on a real trace's model scaled: fiu's model x2000 (20M I/O), the
# command as people run it, output written (issue 13: "not only on the most
# favourable model"); MODEL_BENCH_BEFORE runs interleaved on the same model
if [ "$model" = "$T/speed.json" ]; then
	for b in $bins; do gw[$b]="" gc[$b]="" gr[$b]=""; done
	for run in 1 2 3; do
		for b in $bins; do
			timed "$b" 20000000 gen gen "$model" --rate 2000 -o "$T/gen.reel" ||
				{ echo "   gen x2000 ($b) failed"; break 2; }
		done
	done
	for b in $bins; do
		# shellcheck disable=SC2086
		printf "   fiu x2000 %-6s gen %s M I/O/s wall, %s per CPU s, peak RSS %s MiB\n" \
			"$b" "$(stats ${gw[$b]})" "$(stats ${gc[$b]})" "$(stats ${gr[$b]})"
	done
	rm -f "$T/gen.reel"
fi
# gen on every real trace's model, each scaled to about 10M I/O (--rate
# ceil(10M / its I/O)), and fit of what it wrote: the project's own
# captures (traces/*.reel) and the public traces that import here, each
# fitted by the binary that generates from it; 3 interleaved runs each.  The per-I/O cost differs by model (the
# rules a model's device takes: re-use, the unread ring, a device that fills
# at a high rate), so the summary is the median and the slowest model.
# Then gen from that fit at its own rate (rate 1): issue 13's "gen on a
# 10M-I/O trace", the output standing for a real trace of 10M I/O (the
# public traces and captures are 1k-90k I/O); its I/O count is the output's.
# MODEL_BENCH_REAL_IOS: the size (default 10M I/O).
rn=${MODEL_BENCH_REAL_IOS:-10000000}
echo "   gen of each real trace's model at about $rn I/O, then fit of its output, then gen from that fit at rate 1 (load average now: $(cut -d' ' -f1-3 /proc/loadavg)):"
real=()
for f in "$TOP"/traces/*.reel; do
	[ -f "$f" ] && real+=("$(basename "$f" .reel)=$f")
done
while read -r fmt rel extra; do
	files=$(ls "$P"/$rel 2>/dev/null) || true
	if [ -z "$files" ] || ! has_fmt "$fmt"; then continue; fi
	# shellcheck disable=SC2086
	"$IOREEL" import -q --from "$fmt" $extra $files -o "$T/real-$fmt.reel" && real+=("$fmt=$T/real-$fmt.reel")
done < <(grep -v '^#' "$TOP/tests/public_traces.list")
declare -A rmed rfmed romed
for nf in "${real[@]}"; do
	name=${nf%%=*} f=${nf#*=} n1=""
	for b in $bins; do
		exe=$IOREEL
		[ "$b" = before ] && exe=$MODEL_BENCH_BEFORE
		"$exe" model fit "$f" -o "$T/real.$b.json" --overwrite 2>"$T/fit.log" || continue 2
		fw[$b]="" fc[$b]="" fr[$b]="" gw[$b]="" gc[$b]="" gr[$b]="" ow[$b]="" oc[$b]="" or[$b]=""
	done
	ios=$(sed -n 's/.*fit: \([0-9]*\) I\/O.*/\1/p' "$T/fit.log")
	rate=$(((rn + ios - 1) / ios))
	n=$((rate * ios))
	for run in 1 2 3; do
		for b in $bins; do
			timed "$b" "$n" gen gen "$T/real.$b.json" --rate "$rate" -o "$T/gen.reel" &&
				timed "$b" "$n" fit fit "$T/gen.reel" -o "$T/real.fit.json" ||
				{ echo "   $name x$rate ($b) failed"; continue 3; }
			[ -n "${n1:-}" ] || n1=$("$IOREEL" info "$T/gen.reel" | awk '$1 == "I/Os" {print $2}')
			timed "$b" "${n1:-$n}" own gen "$T/real.fit.json" -o "$T/gen1.reel" ||
				{ echo "   $name x$rate's own model ($b) failed"; continue 3; }
		done
	done
	for b in $bins; do
		# shellcheck disable=SC2086
		printf "   %-11s x%-6d %-6s gen %s M I/O/s wall, %s per CPU s, peak RSS %s MiB\n" \
			"$name" "$rate" "$b" "$(stats ${gw[$b]})" "$(stats ${gc[$b]})" "$(stats ${gr[$b]})"
		# shellcheck disable=SC2086
		printf "   %-11s x%-6d %-6s fit %s M I/O/s wall, %s per CPU s, peak RSS %s MiB (of that output)\n" \
			"$name" "$rate" "$b" "$(stats ${fw[$b]})" "$(stats ${fc[$b]})" "$(stats ${fr[$b]})"
		# shellcheck disable=SC2086
		printf "   %-11s x1      %-6s gen %s M I/O/s wall, %s per CPU s, peak RSS %s MiB (from that output's fit, at its rate)\n" \
			"$name" "$b" "$(stats ${ow[$b]})" "$(stats ${oc[$b]})" "$(stats ${or[$b]})"
		# shellcheck disable=SC2086
		romed[$b]="${romed[$b]:-} $(printf "%s\n" ${ow[$b]} | sort -g | sed -n 2p)"
		# shellcheck disable=SC2086
		rmed[$b]="${rmed[$b]:-} $(printf "%s\n" ${gw[$b]} | sort -g | sed -n 2p)"
		# shellcheck disable=SC2086
		rfmed[$b]="${rfmed[$b]:-} $(printf "%s\n" ${fw[$b]} | sort -g | sed -n 2p)"
	done
	rm -f "$T/gen.reel" "$T/gen1.reel"
done
rm -f "$T"/real-*.reel "$T"/real.*.json "$T/real.fit.json"
for b in $bins; do
	# shellcheck disable=SC2086
	[ -n "${rmed[$b]:-}" ] && printf "   real models %-6s gen: median over %d models %s M I/O/s wall (their medians: median [slowest-fastest])\n" \
		"$b" "$(wc -w <<<"${rmed[$b]}")" "$(stats ${rmed[$b]})"
	# shellcheck disable=SC2086
	[ -n "${rfmed[$b]:-}" ] && printf "   real models %-6s fit: median over %d models %s M I/O/s wall (of gen's output)\n" \
		"$b" "$(wc -w <<<"${rfmed[$b]}")" "$(stats ${rfmed[$b]})"
	# shellcheck disable=SC2086
	[ -n "${romed[$b]:-}" ] && printf "   real models %-6s gen at rate 1 from the fit of its %s-I/O output: median over %d models %s M I/O/s wall\n" \
		"$b" "$rn" "$(wc -w <<<"${romed[$b]}")" "$(stats ${romed[$b]})"
done
echo "   load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- fidelity per public trace, beside the naive model
echo
echo "fidelity (targets: KS <= 0.05 size/gap/jump, read share within 1 pt, b-model within 0.02)"
printf "   %-10s %-6s %7s %7s %7s %7s %8s %8s  %s\n" trace model "KSsize" "KSgap" "KSjump" "KSrun" "read pt" "b diff" verdict
while read -r fmt rel extra; do
	files=$(ls "$P"/$rel 2>/dev/null) || true
	[ -n "$files" ] || continue
	if ! has_fmt "$fmt"; then
		printf "   %-10s (the %s importer is not in this build)\n" "$fmt" "$fmt"
		continue
	fi
	# shellcheck disable=SC2086
	"$IOREEL" import -q --from "$fmt" $extra $files -o "$T/$fmt.reel" || continue
	for kind in model naive; do
		flag=""
		[ $kind = naive ] && flag=--naive
		"$IOREEL" model fit $flag "$T/$fmt.reel" -o "$T/$fmt.$kind.json" 2>"$T/fit.log" || continue
		ios=$(sed -n 's/.*fit: \([0-9]*\) I\/O.*/\1/p' "$T/fit.log")
		if [ "${ios:-0}" -lt 1000 ]; then
			printf "   %-10s (%s I/O: too few)\n" "$fmt" "$ios"
			break
		fi
		"$IOREEL" model gen "$T/$fmt.$kind.json" --seed 1 -o "$T/$fmt.$kind.reel" 2>/dev/null || continue
		"$IOREEL" model compare --json "$T/$fmt.reel" "$T/$fmt.$kind.reel" >"$T/c.json" || continue
		/usr/bin/python3 - "$fmt" "$kind" "$T/c.json" <<'PY'
import json, sys
f, k, p = sys.argv[1:]
r = json.load(open(p))
print("   %-10s %-6s %7.4f %7.4f %7.4f %7.4f %8.2f %8.4f  %s" % (f, k, r["ks_size"], r["ks_interarrival"],
      r["ks_jump"], r["ks_run"], r["read_diff_points"], r["bmodel_diff"],
      "within targets" if r["within_targets"] else "outside"))
PY
	done
done < <(grep -v '^#' "$TOP/tests/public_traces.list")

# ---- demerit: its own group, BENCH=demerit (tests/bench/demerit.sh):
# interleaved repetitions on a target that starts every replay alike
