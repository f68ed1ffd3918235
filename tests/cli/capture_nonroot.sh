#!/bin/bash
# A user other than root who runs capture is told that it needs root, not
# to remove /run/ioreel (root's folder of the locks of live captures), and
# nothing is written.
. "$TOP/tests/lib.sh"
need_root
command -v setpriv >/dev/null || skip "setpriv (util-linux) absent"
if [ ! -d /run/ioreel ]; then
	mkdir -m 700 /run/ioreel || fail "mkdir /run/ioreel"
	at_exit 'rmdir /run/ioreel'
fi
mkdir -m 777 "$T/u"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
nobody test -x "$IOREEL" || skip "$IOREEL not executable by uid 65534"
for args in "--duration 1" "-- true"; do
	(cd "$T/u" && nobody "$IOREEL" capture -o out.reel $args) 2>"$T/err"
	rc=$?
	[ $rc = 1 ] || fail "capture $args as uid 65534: exit $rc, not 1: $(cat "$T/err")"
	grep -q 'capture needs root' "$T/err" || fail "capture $args: no 'needs root': $(cat "$T/err")"
	grep -q 'remove it' "$T/err" && fail "capture $args: tells the user to remove /run/ioreel"
	[ -z "$(ls -A "$T/u")" ] || fail "capture $args as uid 65534 left files: $(ls -A "$T/u")"
done
[ -d /run/ioreel ] || fail "/run/ioreel removed"
exit 0
