#!/bin/bash
# model fit and model gen write through the output policy: never over their
# input, never over a file that is not their own without --overwrite, never
# a half file on a full disk or after a signal.
. "$TOP/tests/lib.sh"
cd "$T"
cp "$TOP/traces/git.reel" in.reel
sum0=$(sha256sum in.reel)

test_fit_refuses_its_input() {
	"$IOREEL" model fit in.reel -o in.reel --overwrite 2>err && fail "fit -o its input accepted"
	grep -q "same file as the input" err || { cat err; fail "fit: message"; }
	ln -s in.reel link.reel
	"$IOREEL" model fit link.reel -o in.reel --overwrite 2>err && fail "fit -o its input via a link accepted"
	[ "$(sha256sum in.reel)" = "$sum0" ] || fail "fit changed its input"
}

test_fit_replaces_only_its_own() {
	"$IOREEL" model fit in.reel -o m.json 2>/dev/null || fail "fit"
	"$IOREEL" model fit in.reel -o m.json 2>/dev/null || fail "fit over its own MODEL.json refused"
	echo keep >other.json
	"$IOREEL" model fit in.reel -o other.json 2>err && fail "fit over a foreign file accepted"
	grep -q -- "--overwrite" err || fail "fit: no hint of --overwrite"
	[ "$(cat other.json)" = keep ] || fail "foreign file changed"
	"$IOREEL" model fit in.reel -o other.json --overwrite 2>/dev/null || fail "fit --overwrite"
}

test_gen_refuses_its_input_and_foreign_files() {
	"$IOREEL" model gen m.json -o m.json --overwrite 2>err && fail "gen -o its input accepted"
	"$IOREEL" model gen m.json -o in.reel 2>err && fail "gen over a captured trace accepted"
	[ "$(sha256sum in.reel)" = "$sum0" ] || fail "gen changed a trace"
	"$IOREEL" model gen m.json -o g.reel --count 1000 2>/dev/null || fail "gen"
	"$IOREEL" model gen m.json -o g.reel --count 1000 2>/dev/null || fail "gen over its own output refused"
}

test_full_disk_leaves_nothing() {
	mkdir full
	mount -t tmpfs -o size=4k tmpfs full || skip "cannot mount a tmpfs"
	at_exit "umount '$T/full'"
	"$IOREEL" model fit in.reel -o full/m.json 2>err && fail "fit on a full disk exit 0"
	"$IOREEL" model gen m.json -o full/g.reel --rate 50 2>err && fail "gen on a full disk exit 0"
	[ -z "$(ls -A full)" ] || { ls -la full; fail "files left on the full disk"; }
}

test_signal_leaves_nothing() {
	"$IOREEL" model gen m.json -o big.reel --rate 1000 --duration 100000 2>/dev/null &
	pid=$!
	sleep 1
	kill -INT $pid
	wait $pid && fail "gen interrupted exit 0"
	ls -A | grep -q "big.reel" && { ls -A; fail "interrupted gen left a file"; }
	return 0
}

test_fit_refuses_its_input
test_fit_replaces_only_its_own
test_gen_refuses_its_input_and_foreign_files
test_full_disk_leaves_nothing
test_signal_leaves_nothing
echo ok
