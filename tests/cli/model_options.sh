#!/bin/bash
# model_options: `ioreel model fit|gen|compare` refuse bad numbers and
# missing operands with exit 2 and a message naming the option and its
# range; good options still work.
. "$TOP/tests/lib.sh"
tr="$TOP/traces/git.reel"
[ -f "$tr" ] || skip "$tr absent"
"$IOREEL" model fit "$tr" -o "$T/m.json" 2>/dev/null || fail "fit"
usage() { # expected-option args...: exit 2, the message names the option
	local want=$1
	shift
	"$IOREEL" model "$@" >"$T/out" 2>"$T/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "model $* exited $rc, not 2"
	grep -q -- "$want" "$T/err" || { cat "$T/err"; fail "model $*: message does not name $want"; }
}
usage --count gen "$T/m.json" -o "$T/g.reel" --count -1
usage --count gen "$T/m.json" -o "$T/g.reel" --count abc
usage --count gen "$T/m.json" -o "$T/g.reel" --count 0
usage --duration gen "$T/m.json" -o "$T/g.reel" --duration 1e-12
usage --duration gen "$T/m.json" -o "$T/g.reel" --duration nan
usage --rate gen "$T/m.json" -o "$T/g.reel" --rate 0
usage --rate gen "$T/m.json" -o "$T/g.reel" --rate inf
usage --seed gen "$T/m.json" -o "$T/g.reel" --seed -1
usage --seed gen "$T/m.json" -o "$T/g.reel" --seed 99999999999999999999
usage --capacity gen "$T/m.json" -o "$T/g.reel" --capacity 100
usage --phases fit "$tr" -o "$T/x.json" --phases 17
usage --phases fit "$tr" -o "$T/x.json" --phases 1.5
usage "MODEL.json" gen "$T/m.json"
usage "TRACE.reel" fit "$tr"
usage "A.reel B.reel" compare "$tr"
usage "--bogus" compare --bogus "$tr" "$tr"
[ ! -e "$T/g.reel" ] || fail "a refused gen wrote its output"
"$IOREEL" model gen "$T/m.json" -o "$T/g.reel" --count 100 --seed 7 --rate 2 --duration 1 \
	--capacity 1G 2>"$T/err" || { cat "$T/err"; fail "gen with good options"; }
grep -q "100 I/O" "$T/err" || { cat "$T/err"; fail "gen --count 100"; }
# a capacity under a kept size: msr's hot order writes 2 and 3 blocks at
# its kept blocks (hot_order_len), each within the device as any size is
"$IOREEL" model gen "$TOP/tests/fuzz/corpus/model_json/msr_hot_order_len.json" -o "$T/c.reel" \
	--seed 1 --capacity 8192 2>"$T/err" || { cat "$T/err"; fail "gen of msr's hot order at --capacity 8192"; }
# --duration short of a whole window cuts that window's I/O with it: the
# naive model (one window) at half the trace's duration makes half its
# I/O (it made all of them, at twice the rate, before)
"$IOREEL" model fit --naive "$tr" -o "$T/n.json" 2>/dev/null || fail "fit --naive"
dur=$(gzip -dcf "$T/n.json" | sed -n 's/^ *"duration_ns": \([0-9]*\),*$/\1/p' | head -1)
ios=$(gzip -dcf "$T/n.json" | sed -n 's/^ *"count": \([0-9]*\),*$/\1/p' | head -1)
[ -n "$dur" ] && [ -n "$ios" ] || fail "no duration_ns or count in the naive model"
"$IOREEL" model gen "$T/n.json" -o "$T/h.reel" --duration "$(echo "$dur / 2000000000" | bc -l)" \
	2>"$T/err" || { cat "$T/err"; fail "naive gen at half the duration"; }
got=$(sed -n 's/.*: \([0-9]*\) I\/O .*/\1/p' "$T/err")
[ $((2 * got)) -ge $((ios - 2)) ] && [ $((2 * got)) -le $((ios + 2)) ] ||
	fail "naive gen at half the duration: $got I/O, not half of $ios"
echo foreign >"$T/f.reel"
"$IOREEL" model gen "$T/m.json" -o "$T/f.reel" 2>"$T/err" && fail "gen over an existing file"
grep -q -- "--overwrite" "$T/err" || fail "no hint of --overwrite"
"$IOREEL" model compare --json "$tr" "$T/g.reel" >/dev/null || fail "compare --json"
echo ok
