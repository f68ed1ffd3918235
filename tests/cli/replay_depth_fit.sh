#!/bin/bash
# Issue 12 item 5 and the new user's findings:
# - the default queue depth is the original wherever the trace has
#   completion times (traces/chromium.reel: 7 of 1,657 records lack an
#   issue time; it reached 95 in flight), and stderr says what was chosen
#   and why; without completion times it is 32, said too;
# - --fit scale (and wrap) fit offsets into an existing file, never grow it;
# - --precondition prints a line on stderr when stderr is not a terminal;
# - info prints the in-flight mean over the whole span and while busy,
#   each labelled.
. "$TOP/tests/lib.sh"
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
tr="$TOP/traces/chromium.reel"
"$IOREEL" replay "$tr" --target "$T/c.img" --buffered --timing afap --engine null \
	--json "$T/c.json" >/dev/null 2>"$T/err" || { cat "$T/err"; fail "replay chromium"; }
grep -q '"qd": "original"' "$T/c.json" || { grep '"qd"' "$T/c.json"; fail "default depth is not the original"; }
grep -q "queue depth.*original.*at most 95" "$T/err" || { cat "$T/err"; fail "stderr does not say the depth chosen and why"; }
echo "default depth on chromium.reel: $(cat "$T/err")"
"$TOOL" gen "$T/nc.reel" n=500 iops=100000 bs=4096 rw=read nocomplete=1 || fail gen
"$IOREEL" replay "$T/nc.reel" --target "$T/c.img" --buffered --timing afap --engine null \
	--json "$T/nc.json" >/dev/null 2>"$T/err" || { cat "$T/err"; fail "replay without completions"; }
grep -q '"qd": "32"' "$T/nc.json" || fail "without completion times the default should be 32"
grep -q "queue depth 32: the trace has no completion times" "$T/err" || { cat "$T/err"; fail "32 not explained"; }

# --fit scale into an existing 100 MB file (the trace needs about 1 GiB)
"$TOOL" gen "$T/w.reel" n=2000 iops=100000 bs=4096 rw=write base=1000000000 || fail "gen w"
truncate -s 100M "$T/s.img"
for fit in scale wrap; do
	"$IOREEL" replay "$T/w.reel" --target "$T/s.img" --fit $fit --overwrite --buffered --timing afap \
		>"$T/out" 2>&1 || { cat "$T/out"; fail "--fit $fit"; }
	sz=$(stat -c %s "$T/s.img")
	[ "$sz" = 104857600 ] || fail "--fit $fit changed the file's size to $sz bytes"
done

# --precondition, stderr not a terminal: it says so
"$IOREEL" replay "$T/w.reel" --target "$T/s.img" --fit scale --overwrite --buffered --timing afap \
	--precondition >/dev/null 2>"$T/err" || { cat "$T/err"; fail "--precondition"; }
grep -q "preconditioning .*s.img" "$T/err" || { cat "$T/err"; fail "--precondition printed nothing"; }

# info: both in-flight means, each labelled
"$IOREEL" info "$tr" >"$T/info" || fail info
grep -q "in flight    max 95, mean [0-9.]* over the whole span, [0-9.]* while busy" "$T/info" ||
	{ grep "in flight" "$T/info"; fail "info: in-flight means not both labelled"; }
echo ok
