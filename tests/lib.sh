# tests/lib.sh - sourced by command-line tests.
# Gives: $IOREEL, $SHARED, $TOP, a scratch dir $T removed on exit, loop device
# helpers that detach on exit (even on failure), skip/fail helpers.
set -u
: "${IOREEL:?run through make check}"
T=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-t.XXXXXX")
_loops=""
_cleanups=""
_cleanup() {
	local IFS='
'
	for c in $_cleanups; do eval "$c" >/dev/null 2>&1; done
	unset IFS
	for l in $_loops; do umount "$l" >/dev/null 2>&1; losetup -d "$l" >/dev/null 2>&1; done
	rm -rf "$T"
}
trap _cleanup EXIT
trap 'exit 130' INT TERM

skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# at_exit 'command': run at exit (before loop devices are detached)
at_exit() { _cleanups="$_cleanups
$1"; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
# make_loop FILE SIZE_MB: attaches a loop device over FILE and sets $LOOP
# (not in a subshell: the device must be remembered for the cleanup).
make_loop() {
	need_root
	truncate -s "${2}M" "$1" || fail "truncate $1"
	LOOP=$(losetup -f --show --direct-io=on "$1" 2>/dev/null || losetup -f --show "$1") ||
		skip "losetup failed: no loop device support"
	_loops="$_loops $LOOP"
}
# shared_trace REL VAR: set VAR to the path of the public trace REL, or skip
# the test (exit 77, saying which file is absent).  Not $(shared_trace ...):
# a skip in a command substitution would only leave the subshell.
shared_trace() {
	[ -e "$SHARED/traces/public/$1" ] ||
		skip "$SHARED/traces/public/$1 absent (SHARED=DIR names the shared folder)"
	eval "$2=\$SHARED/traces/public/\$1"
}
# model_fit_csv NAME: $T/NAME.csv (MSR format) imported into $T/NAME.reel
# and fitted into $T/NAME.json.
model_fit_csv() {
	"$IOREEL" import -q --from msr "$T/$1.csv" -o "$T/$1.reel" || fail "import $1.csv"
	"$IOREEL" model fit "$T/$1.reel" -o "$T/$1.json" 2>/dev/null || fail "fit $1.reel"
}
# model_gen_compare NAME SEED: $T/NAME.json generated with SEED into
# $T/syn.reel, compared with $T/NAME.reel into $T/c.json.
model_gen_compare() {
	"$IOREEL" model gen "$T/$1.json" --seed "$2" --overwrite -o "$T/syn.reel" 2>/dev/null ||
		fail "gen seed $2"
	"$IOREEL" model compare --json "$T/$1.reel" "$T/syn.reel" >"$T/c.json" || fail "compare"
}
