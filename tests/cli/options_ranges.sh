#!/bin/bash
# Every command's option table range-checks its numbers: each numeric
# option is fed a non-number, a negative, and a huge value, and must exit 2
# with a message that names the option.  The list of options comes from the
# commands themselves (--options-table), so a new option is covered too.
. "$TOP/tests/lib.sh"
cmds=(capture import export info dump replay "model fit" "model gen" "model compare" plot compare
	demo)
"$IOREEL" suite --help >/dev/null 2>&1 && cmds+=(suite)
checked=0
for c in "${cmds[@]}"; do
	# shellcheck disable=SC2086
	"$IOREEL" $c --options-table >"$T/table" 2>"$T/err" ||
		{ cat "$T/err"; fail "ioreel $c --options-table: the command has no option table"; }
	while read -r name kind min max; do
		case $kind in int | uint | u64 | size | dbl | callnum) ;; *) continue ;; esac
		bad=(abc nan -1 1e999 99999999999999999999999)
		# a value below the minimum when the minimum is above -1
		for v in "${bad[@]}"; do
			[ "$v" = -1 ] && awk "BEGIN{exit !($min <= -1)}" && continue
			# shellcheck disable=SC2086
			"$IOREEL" $c "$name" "$v" >"$T/out" 2>&1 </dev/null
			rc=$?
			[ $rc = 2 ] || { cat "$T/out"; fail "ioreel $c $name $v: exit $rc, want 2"; }
			grep -q -- "$name" "$T/out" || { cat "$T/out"; fail "ioreel $c $name $v: message does not name $name"; }
			checked=$((checked + 1))
		done
	done <"$T/table"
done
[ $checked -gt 40 ] || fail "only $checked bad values checked: option tables missing numeric options?"
echo "ok: $checked bad numeric values refused with exit 2"
