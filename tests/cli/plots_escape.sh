#!/bin/bash
# Issue 11 item 11 (plots): text from a trace never acts.  A replay whose
# replay.trace and replay.targets hold HTML (<img src=x onerror=...>) and
# an escape sequence: report.md and report.html show the HTML as text
# (entities), and the terminal output of compare and plot has no raw
# control characters.
. "$TOP/tests/lib.sh"
command -v gnuplot >/dev/null || skip "gnuplot not installed (apt-get install gnuplot-nox)"
src=$TOP/traces/git.reel
[ -f "$src" ] || skip "no traces/git.reel"
evil='<img src=x onerror=alert(1)>'
cp "$src" "$T/$evil.reel"
tgt="$T/"$'\e[31m'"<svg onload=alert(2)>.img"
for d in random ratio:2; do
	"$IOREEL" replay "$T/$evil.reel" --target "$tgt" --timing afap --fit scale --data $d \
		-o "$T/r-${d%%:*}.reel" >"$T/replay.log" 2>&1 || { cat "$T/replay.log"; fail "replay"; }
done
"$IOREEL" compare "$T/r-random.reel" "$T/r-ratio.reel" -o "$T/rep" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "compare"; }
"$IOREEL" plot "$T/r-random.reel" "$T/r-ratio.reel" -o "$T/plots" --format svg >>"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "plot"; }
"$IOREEL" compare --json "$T/r-random.reel" >/dev/null || fail "compare --json"
export LC_ALL=C
grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/out" && { cat -v "$T/out"; fail "raw control characters on the terminal"; }
for f in report.md report.html; do
	grep -q '<img src=x' "$T/rep/$f" && fail "$f embeds the raw <img> from replay.trace"
	grep -q '<svg onload' "$T/rep/$f" && fail "$f embeds the raw <svg> from replay.targets"
	grep -q '&lt;img src=x onerror=alert(1)&gt;' "$T/rep/$f" || fail "$f: the trace's name not shown escaped"
	grep -q $'\e' "$T/rep/$f" && fail "$f holds a raw escape character"
done
echo "ok: HTML in metadata shown as text in report.md and report.html; no control characters on the terminal"
