#!/bin/bash
# Output that standard output cannot take (a full disk: /dev/full) fails
# the command with a message naming the cause, never exit 0 over a cut-short
# dump, table or help; a reader closing the pipe (head) stays quiet.
. "$TOP/tests/lib.sh"
[ -c /dev/full ] || skip "/dev/full absent"
R="$TOP/traces/git.reel"
check() { # ARGS...: exit 1 into /dev/full, saying why
	"$IOREEL" "$@" >/dev/full 2>"$T/err"
	local rc=$?
	[ $rc = 1 ] || fail "ioreel $*: exit $rc into /dev/full, not 1: $(cat "$T/err")"
	grep -q 'No space left on device' "$T/err" || fail "ioreel $*: no cause: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "ioreel $*: more than one message: $(cat "$T/err")"
}
check dump "$R"
check info "$R"
check info --json "$R"
check compare "$R"
check --help
check dump --help
check --version
check export --to csv "$R" -o -
"$IOREEL" dump "$R" 2>"$T/err" | head -n 1 >/dev/null
[ -s "$T/err" ] && fail "dump | head: a message: $(cat "$T/err")"
"$IOREEL" dump "$R" >"$T/d" || fail "dump into a file failed"
[ "$(wc -l <"$T/d")" = 3350 ] || fail "dump: $(wc -l <"$T/d") lines, not 3350"
exit 0
