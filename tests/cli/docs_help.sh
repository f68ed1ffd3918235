# Every command answers --help (exit 0, a usage line) and has its page
# docs/ioreel-<cmd>.md, titled "# ioreel <cmd>", that names every option its
# --help lists (model: those of fit, gen and compare too); README.md links
# each page; the committed man page ioreel.1 is what scripts/gen-man.sh makes
# from the current --help texts.
. "$TOP/tests/lib.sh"
# the long options of a --help text: the first --word of each option line,
# and every --word of the usage lines
options() {
	{
		sed -n 's/^ \{1,\}\(-[A-Za-z0-9], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' "$1"
		grep -E '^(usage: | +ioreel | +\[)' "$1" | grep -o -- '--[a-z][a-z0-9-]*'
	} | grep -vx -- --help | sort -u
}
for c in capture import export info dump replay model plot compare demo; do
	"$IOREEL" $c --help >"$T/h" 2>&1 || fail "ioreel $c --help exited non-zero"
	grep -q "usage: ioreel $c" "$T/h" || fail "ioreel $c --help has no usage line"
	page="$TOP/docs/ioreel-$c.md"
	[ -f "$page" ] || fail "docs/ioreel-$c.md is missing"
	head -n 1 "$page" | grep -qx "# ioreel $c" || fail "docs/ioreel-$c.md does not start with '# ioreel $c'"
	grep -q "(docs/ioreel-$c.md)" "$TOP/README.md" || fail "README.md does not link docs/ioreel-$c.md"
	if [ "$c" = model ]; then
		for s in fit gen compare; do "$IOREEL" model $s --help >>"$T/h" 2>&1 || fail "ioreel model $s --help"; done
	fi
	for o in $(options "$T/h"); do
		grep -q -- "$o" "$page" || fail "docs/ioreel-$c.md does not describe $o (listed by ioreel $c --help)"
	done
done
"$IOREEL" --help | grep -q "ioreel replay" || fail "ioreel --help lists no commands"
"$IOREEL" no-such-command 2>"$T/e" && fail "unknown command accepted"
grep -q "not a command" "$T/e" || fail "unknown command message"
sh "$TOP/scripts/gen-man.sh" "$IOREEL" >"$T/ioreel.1" || fail "gen-man.sh failed"
diff -u "$TOP/ioreel.1" "$T/ioreel.1" >"$T/d" || { head -20 "$T/d"; fail "ioreel.1 is stale: run scripts/gen-man.sh build/ioreel > ioreel.1"; }
if command -v nroff >/dev/null; then
	nroff -man "$TOP/ioreel.1" 2>"$T/w" | grep -q "ioreel replay" || fail "man page does not render"
	[ ! -s "$T/w" ] || { cat "$T/w"; fail "nroff warnings"; }
fi
echo ok
