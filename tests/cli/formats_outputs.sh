#!/bin/bash
# import -o and export -o go through the output policy (issue 11, items 1-3,
# 6, 9 and 12 for the formats commands): never a device, FIFO or symbolic
# link; never the input itself; a failure never removes anything but ioreel's
# own temporary; a signal leaves nothing under the final name; an empty
# input is an error unless --allow-empty; no import waits forever.
. "$TOP/tests/lib.sh"
cd "$T"
printf '128166410318060999,wdev,1,Write,3165323264,4096,1189\n128166410318061023,wdev,1,Read,3165327360,4096,1166\n' >m.csv
printf '128166410318060999,wdev,1,Write,x,4096,1189\n' >bad.csv
"$IOREEL" import -q --from msr m.csv -o g.reel || fail "import"
sum() { md5sum "$@" | cut -d' ' -f1; }
# leftovers: nothing but the files named (no temporaries)
only() { local want="$*" have; have=$(ls -A | sort | tr '\n' ' '); [ "$have" = "$want " ] ||
	fail "files here: $have; want $want"; }

test_failed_import_keeps_device_node() {
	[ "$(id -u)" = 0 ] || { echo "device node: skipped (needs root)"; return; }
	mknod null c 1 3 || fail "mknod"
	"$IOREEL" import -q --from msr bad.csv -o null --overwrite 2>err && fail "import onto a device accepted"
	[ -c null ] || fail "a failed import removed the device node null"
	grep -q "character device" err || { cat err; fail "the refusal does not say why"; }
	"$IOREEL" export --to csv g.reel -o null --overwrite 2>err && fail "export onto a device accepted"
	[ -c null ] || fail "export removed the device node"
	rm null
	echo "device node: refused, still there"
}

test_output_is_input() {
	local a b
	a=$(sum m.csv) b=$(sum g.reel)
	"$IOREEL" import -q --from msr m.csv -o m.csv --overwrite 2>err && fail "import m.csv -o m.csv accepted"
	grep -q "same file as the input" err || { cat err; fail "no reason given"; }
	"$IOREEL" export --to csv g.reel -o g.reel --overwrite 2>err && fail "export g.reel -o g.reel accepted"
	grep -q "same file as the input" err || { cat err; fail "no reason given"; }
	ln -s g.reel link.reel
	"$IOREEL" export --to csv link.reel -o g.reel --overwrite 2>/dev/null && fail "input through a symlink accepted"
	rm link.reel
	[ "$(sum m.csv)" = "$a" ] && [ "$(sum g.reel)" = "$b" ] || fail "an input changed"
	echo "output = input: refused, inputs intact"
}

test_fifo_symlink_refused() {
	mkfifo f.fifo
	timeout 10 "$IOREEL" import -q --from msr m.csv -o f.fifo --overwrite 2>/dev/null && fail "FIFO output accepted"
	timeout 10 "$IOREEL" export --to csv g.reel -o f.fifo --overwrite 2>/dev/null && fail "FIFO output accepted"
	echo kept >target.txt
	ln -s target.txt s.csv
	"$IOREEL" export --to csv g.reel -o s.csv --overwrite 2>/dev/null && fail "symlink output accepted"
	[ "$(cat target.txt)" = kept ] || fail "the symlink's target changed"
	rm f.fifo s.csv target.txt
	echo "FIFO, symlink: refused"
}

test_overwrite_rules() {
	"$IOREEL" export --to csv g.reel -o g.csv 2>/dev/null || fail "export"
	"$IOREEL" export --to csv g.reel -o g.csv 2>err && fail "export replaced a CSV without --overwrite"
	grep -q -- "--overwrite" err || fail "no --overwrite hint"
	"$IOREEL" export --to csv g.reel -o g.csv --overwrite 2>/dev/null || fail "--overwrite"
	# an earlier import's output is replaced; a captured-like other .reel is not
	"$IOREEL" import -q --from msr m.csv -o g.reel || fail "an import's own .reel not replaced"
	rm g.csv
	echo "overwrite: CSV needs --overwrite, an import's .reel does not"
}

test_failure_leaves_old_file() {
	local a
	a=$(sum g.reel)
	"$IOREEL" import -q --from msr bad.csv -o g.reel --overwrite 2>/dev/null && fail "bad input accepted"
	[ "$(sum g.reel)" = "$a" ] || fail "a failed import changed the existing output"
	echo "failed import: old output intact"
}

test_empty_input() {
	: >empty.csv
	"$IOREEL" import -q --from msr empty.csv -o e.reel 2>err && fail "empty input gave exit 0"
	grep -q "no records" err || { cat err; fail "no reason"; }
	[ ! -e e.reel ] || fail "output left behind"
	"$IOREEL" import -q --from msr --allow-empty empty.csv -o e.reel || fail "--allow-empty"
	rm empty.csv e.reel
	echo "empty input: exit 1, --allow-empty writes it"
}

test_no_hang() {
	local f
	for f in msr fio spc blkparse; do
		timeout 30 "$IOREEL" import -q --from $f /dev/zero -o z.reel 2>err
		[ $? = 1 ] || fail "$f /dev/zero: not a prompt error"
		grep -q "no line ending" err || { cat err; fail "$f: no reason"; }
	done
	mkfifo in.fifo
	(printf '128166410318060999,wdev,1,Write,3165323264,4096,1189\n' >in.fifo &)
	timeout 10 "$IOREEL" import -q in.fifo -o z.reel 2>err
	[ $? = 1 ] || fail "FIFO without --from: not refused promptly"
	grep -q -- "--from" err || fail "no --from hint"
	timeout 5 cat in.fifo >/dev/null # unblock the writer
	rm in.fifo
	echo "/dev/zero and FIFO: prompt errors"
}

test_signal_leaves_nothing() {
	local sig pid
	for sig in INT TERM; do
		mkfifo slow.fifo
		"$IOREEL" import -q --from msr slow.fifo -o s.reel &
		pid=$!
		exec 7>slow.fifo
		for i in $(seq 1 5000); do echo "12816641031806$((1000 + i)),wdev,1,Write,4096,4096,10"; done >&7
		sleep 0.5
		kill -$sig $pid
		wait $pid
		exec 7>&-
		rm slow.fifo
		[ ! -e s.reel ] || fail "SIG$sig left s.reel"
	done
	echo "SIGINT, SIGTERM: nothing under the final name"
}

test_failed_import_keeps_device_node
test_output_is_input
test_fifo_symlink_refused
test_overwrite_rules
test_failure_leaves_old_file
test_empty_input
test_no_hang
test_signal_leaves_nothing
only bad.csv err g.reel m.csv
