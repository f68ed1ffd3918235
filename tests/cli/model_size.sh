#!/bin/bash
# model_size: MODEL.json (as `model fit` writes it: gzip-compressed JSON) is
# never larger than its trace's .reel -- the project's traces and every
# public trace this build imports -- and at most 10% of it for traces of
# 100k I/O or more: the project's real ones (traces/kernel-src.reel, 119,956
# I/O captured by ioreel: 2.3%), a 100k-I/O gen_reel trace, the fiu trace's
# model generated at 10 times its rate (100k I/O) and disksim's (16
# devices) at 15 and 20 times (105k and 140k I/O).  --plain writes the
# same model as text.
. "$TOP/tests/lib.sh"
P="$SHARED/traces/public"
fmts=$("$IOREEL" import --from list 2>/dev/null | awk '{print $1}')
ratio() { # trace model max%: fit, print, check
	"$IOREEL" model fit "$1" -o "$2" 2>/dev/null || fail "fit $1"
	local t m
	t=$(stat -c %s "$1")
	m=$(stat -c %s "$2")
	printf "%-22s trace %9d B  model %7d B  %6.2f%%\n" "$(basename "$1")" "$t" "$m" \
		"$(echo "100 * $m / $t" | bc -l)"
	[ $((m * 100)) -le $((t * $3)) ] || fail "$(basename "$1"): model $m B > $3% of the trace's $t B"
}
big=0
for f in "$TOP"/traces/*.reel; do
	n=$("$IOREEL" info --json "$f" | grep -o '"ios":[0-9]*' | head -1 | cut -d: -f2)
	[ -n "$n" ] || fail "info $f"
	if [ "$n" -ge 100000 ]; then
		ratio "$f" "$T/m.json" 10
		big=$((big + 1))
	else
		ratio "$f" "$T/m.json" 100
	fi
done
# the target is for real traces: one of them at least is that long
[ $big -gt 0 ] || fail "no trace of 100k I/O or more in traces/ (make-traces.sh kernel-src)"
while read -r fmt rel extra; do
	files=$(ls "$P"/$rel 2>/dev/null) || continue
	grep -qx "$fmt" <<<"$fmts" || { echo "skip $rel: no $fmt importer"; continue; }
	# shellcheck disable=SC2086
	"$IOREEL" import -q --from "$fmt" $extra $files -o "$T/$fmt.reel" || fail "import $rel"
	ratio "$T/$fmt.reel" "$T/$fmt.json" 100
done < <(grep -v '^#' "$TOP/tests/public_traces.list")
"$TOP/$BUILD/tests/bench/gen_reel" 100000 "$T/g100k.reel" 5 >/dev/null || fail "gen_reel"
ratio "$T/g100k.reel" "$T/g.json" 10
if [ -f "$T/fiu.json" ]; then
	"$IOREEL" model gen "$T/fiu.json" --rate 10 -o "$T/fiu10.reel" 2>/dev/null || fail "gen x10"
	ratio "$T/fiu10.reel" "$T/f.json" 10
fi
# many devices: disksim's model (16 devices) at 15 and 20 times its rate
# (105k and 140k I/O; 49% and 44% of the trace before): at 15 its chains
# of remote jumps go where the weights do and are left out, at 20 they are
# kept over blocks of regions (regions.chain_blocks), which gen reads
if [ -f "$T/disksim.json" ]; then
	for x in 15 20; do
		"$IOREEL" model gen "$T/disksim.json" --rate $x -o "$T/ds.reel" 2>/dev/null ||
			fail "gen disksim x$x"
		ratio "$T/ds.reel" "$T/ds$x.json" 10
	done
	zcat "$T/ds20.json" | grep -q '"chain_blocks"' || fail "x20: no chain_blocks"
	"$IOREEL" model gen "$T/ds20.json" --count 2000 -o "$T/ds.reel" 2>/dev/null ||
		fail "gen from chain_blocks"
	zcat "$T/ds20.json" | sed '0,/"chain_blocks": \[0,/s//"chain_blocks": [1,/' >"$T/bad.json"
	if "$IOREEL" model gen "$T/bad.json" --count 10 -o "$T/bad.reel" 2>"$T/err"; then
		fail "a chain_blocks not from 0 read"
	fi
	grep -q "chain_blocks: increasing region indices" "$T/err" || fail "chain_blocks: $(cat "$T/err")"
fi
# --plain: the same model as text
"$IOREEL" model fit "$T/g100k.reel" --plain -o "$T/plain.json" 2>/dev/null || fail "fit --plain"
head -c 1 "$T/plain.json" | grep -q '{' || fail "--plain did not write text"
cmp -s <(zcat "$T/g.json") "$T/plain.json" || fail "--plain and gzip differ"
"$IOREEL" model gen "$T/plain.json" --count 100 -o "$T/p.reel" 2>/dev/null || fail "gen from --plain"
