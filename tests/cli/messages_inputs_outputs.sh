#!/bin/bash
# The review's items 6, 11, 12 and its polish list, as observable behaviour:
# one rule for existing outputs in every command (replaced only with
# --overwrite, or when ioreel recognises it as that command's own earlier
# output), with a true message either way; --label FILE=NAME with a file not
# given is an error; folders, empty files, .reel files and non-models get
# named as such; usage errors give a reason; compare --json FILE writes FILE;
# plot leaves no folder behind when it fails and prints no "DIR//"; a
# capture whose command cannot run exits 127 and writes nothing; size
# bounds print as sizes; the top-level help shows capture's -o as required.
. "$TOP/tests/lib.sh"
cd "$T"
src=$TOP/traces/git.reel
[ -f "$src" ] || skip "no traces/git.reel"
cp "$src" a.reel
cp "$src" b.reel
printf '128166410318060999,wdev,1,Write,3165323264,4096,1189\n' >m.csv
: >empty.reel
mkdir folder

# expect_err RC PATTERN CMD...: exits RC and stderr matches PATTERN
expect_err() {
	local rc=$1 pat=$2 got
	shift 2
	"$@" >out 2>err
	got=$?
	[ $got = "$rc" ] || { cat err; fail "$*: exit $got, want $rc"; }
	grep -qE -- "$pat" err || { cat err; fail "$*: stderr lacks /$pat/"; }
}

test_output_rule() {
	# export: text carries no mark, so a repeat needs --overwrite, and says only that
	"$IOREEL" export --to fio a.reel -o c.iolog 2>/dev/null || fail "export"
	expect_err 1 "c.iolog exists: pass --overwrite to replace it" \
		"$IOREEL" export --to fio a.reel -o c.iolog
	grep -q "not an ioreel output\|not written by" err && fail "export: untrue reason: $(cat err)"
	"$IOREEL" export --to fio a.reel -o c.iolog --overwrite 2>/dev/null || fail "export --overwrite"
	# import and model gen: their own earlier output is replaced without asking
	"$IOREEL" import -q --from msr m.csv -o i.reel || fail "import"
	"$IOREEL" import -q --from msr m.csv -o i.reel || fail "import over its own output refused"
	"$IOREEL" model fit a.reel -o m.json 2>/dev/null || fail "model fit"
	"$IOREEL" model gen m.json -o g.reel --count 100 2>/dev/null || fail "model gen"
	"$IOREEL" model gen m.json -o g.reel --count 100 2>/dev/null || fail "model gen over its own"
	# ... and anything else is refused with a true reason, then --overwrite
	expect_err 1 "i.reel exists and was not written by this ioreel command.*--overwrite" \
		"$IOREEL" model gen m.json -o i.reel --count 100
	expect_err 1 "c.iolog exists and was not written by this ioreel command" \
		"$IOREEL" import -q --from msr m.csv -o c.iolog
	"$IOREEL" model gen m.json -o i.reel --count 100 --overwrite 2>/dev/null || fail "gen --overwrite"
	# every --help that has --overwrite says when it is needed
	local c
	for c in "export" "import" "capture" "model fit" "model gen" "plot" "compare"; do
		$IOREEL $c --help | grep -A3 -- "--overwrite  " | grep -qiE "needed|not ioreel's" ||
			fail "$c --help does not say when --overwrite is needed"
	done
	echo "outputs: one rule, true messages"
}

test_inputs_named() {
	expect_err 1 "folder: is a folder, not a .reel file" "$IOREEL" info folder
	expect_err 1 "folder: is a folder, not a .reel file" "$IOREEL" dump folder
	expect_err 1 "empty.reel: empty file \(0 bytes\)" "$IOREEL" info empty.reel
	expect_err 1 "folder is a folder" "$IOREEL" import folder -o x.reel
	expect_err 1 "folder is a folder" "$IOREEL" import --from msr folder -o x.reel
	expect_err 1 "a.reel is already a .reel file" "$IOREEL" import a.reel -o x.reel
	expect_err 1 "empty.reel is empty" "$IOREEL" import empty.reel -o x.reel
	expect_err 1 "m.csv: not a MODEL.json" "$IOREEL" model gen m.csv -o x.reel
	expect_err 1 "a.reel: not a MODEL.json \\(a .reel trace" "$IOREEL" model gen a.reel -o x.reel
	[ ! -e x.reel ] || fail "an output was left by a refused input"
	expect_err 2 "name the .reel file to read" "$IOREEL" info
	expect_err 2 "exactly one .reel file \(2 given\)" "$IOREEL" dump a.reel b.reel
	expect_err 2 "from 4k to 1E" "$IOREEL" model gen m.json -o x.reel --capacity 2E
	"$IOREEL" model gen m.json -o x.reel --capacity 1E --count 10 2>/dev/null ||
		fail "--capacity 1E (the bound the help names) refused"
	rm -f x.reel
	"$IOREEL" --help | grep -q "capture  -o OUT.reel" || fail "top-level help: capture -o optional"
	echo "inputs: folders, empty files, .reel and non-models named"
}

test_labels_json() {
	expect_err 2 "nosuch.reel is not one of the result files given" \
		"$IOREEL" compare a.reel b.reel --label a.reel=R --label nosuch.reel=X
	"$IOREEL" compare a.reel b.reel --label qd=32 >out 2>err || { cat err; fail "label qd=32"; }
	grep -q "^qd=32 " out || fail "a label with = but no file is not used as a label"
	"$IOREEL" compare --json out.json a.reel b.reel >out 2>err || { cat err; fail "compare --json FILE"; }
	/usr/bin/python3 -c 'import json; j = json.load(open("out.json")); assert len(j["runs"]) == 2' ||
		fail "--json FILE: not the comparison"
	grep -q "% of best" out || fail "--json FILE: the table is not on stdout"
	"$IOREEL" compare --json=out.json a.reel >/dev/null 2>&1 || fail "compare over its own JSON"
	echo foreign >f.json
	expect_err 1 "f.json exists and was not written by this ioreel command" \
		"$IOREEL" compare --json=f.json a.reel
	[ "$(cat f.json)" = foreign ] || fail "a foreign --json file changed"
	echo "labels: unknown FILE= refused; compare --json FILE"
}

test_plot_folders() {
	command -v gnuplot >/dev/null || { echo "plot folders: skipped (no gnuplot)"; return; }
	"$IOREEL" plot a.reel -o plots/ >out 2>err || { cat err; fail "plot -o plots/"; }
	grep -q "//" out && fail "plot printed DIR//: $(head -1 out)"
	grep -q "^plots/throughput.png" out || fail "plot output paths: $(head -1 out)"
	# gnuplot cannot be run: the new folder goes again
	PATH=/nonexistent "$IOREEL" plot a.reel -o p6 2>/dev/null && fail "plot without gnuplot exit 0"
	[ ! -e p6 ] || { ls -laR p6; fail "a failed plot left its new folder"; }
	# a folder that existed stays, whatever happens
	mkdir p7
	PATH=/nonexistent "$IOREEL" plot a.reel -o p7 2>/dev/null && fail "plot without gnuplot exit 0"
	[ -d p7 ] || fail "a failed plot removed a folder it did not create"
	echo "plot: no DIR//, no folder left by a failure"
}

test_capture_missing_command() {
	expect_err 127 "cannot run /nonexistent/cmd: No such file" \
		"$IOREEL" capture -o c.reel -- /nonexistent/cmd
	expect_err 127 "cannot run no-such-command-ioreel" \
		"$IOREEL" capture -o c.reel -- no-such-command-ioreel
	[ ! -e c.reel ] || fail "capture of a command that cannot run wrote c.reel"
	ls -A | grep -q "ioreel-" && fail "capture left a temporary"
	echo "capture: a command that cannot run: 127, no file"
}

test_output_rule
test_inputs_named
test_labels_json
test_plot_folders
test_capture_missing_command
