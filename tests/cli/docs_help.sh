# Every command answers --help (exit 0, a usage line), has a README section,
# and the committed man page ioreel.1 is what scripts/gen-man.sh makes from
# the current --help texts.
. "$TOP/tests/lib.sh"
for c in capture import export info dump replay model plot compare demo; do
	"$IOREEL" $c --help >"$T/h" 2>&1 || fail "ioreel $c --help exited non-zero"
	grep -q "usage: ioreel $c" "$T/h" || fail "ioreel $c --help has no usage line"
	grep -q "^### ioreel $c\$" "$TOP/README.md" || fail "README.md has no section for ioreel $c"
done
for s in fit gen compare; do
	"$IOREEL" model $s --help >/dev/null 2>&1 || fail "ioreel model $s --help"
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
