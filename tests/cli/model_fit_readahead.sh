#!/bin/bash
# model fit reads a .reel on one thread or, when a core is to spare, ahead on
# a second (IOREEL_FIT_READAHEAD forces either): the same MODEL.json either
# way, over many slots of the read-ahead ring, and the same error for a
# corrupt chunk; a file cut short is fitted up to its last whole chunk.
. "$TOP/tests/lib.sh"
cd "$T"
"$TOP/$BUILD/tests/bench/gen_reel" 300000 g.reel 5 || fail "gen_reel"

# fit_both_ways FILE NAME: FILE fitted on one thread and read ahead on two,
# the same MODEL.json (NAME.0.json, NAME.1.json).
fit_both_ways() {
	for ra in 0 1; do
		IOREEL_FIT_READAHEAD=$ra "$IOREEL" model fit "$1" -o "$2.$ra.json" 2>/dev/null ||
			fail "fit $2 (readahead $ra)"
	done
	cmp -s "$2.0.json" "$2.1.json" || fail "the models of $2 differ"
}

test_same_model_both_ways() {
	fit_both_ways g.reel gen_reel
	fit_both_ways "$TOP/traces/git.reel" git.reel
}

test_same_error_both_ways() {
	cp g.reel bad.reel
	size=$(stat -c %s g.reel)
	printf '\377\377\377\377' | dd of=bad.reel bs=1 seek=$((size / 2)) conv=notrunc status=none
	for ra in 0 1; do
		IOREEL_FIT_READAHEAD=$ra "$IOREEL" model fit bad.reel -o bad$ra.json 2>err$ra &&
			fail "a corrupt chunk fitted (readahead $ra)"
		grep -q "chunk .* at byte" err$ra || { cat err$ra; fail "message (readahead $ra)"; }
	done
	cmp -s err0 err1 || { cat err0 err1; fail "the errors differ"; }
	head -c $((size / 2)) g.reel >cut.reel
	for ra in 0 1; do
		IOREEL_FIT_READAHEAD=$ra "$IOREEL" model fit cut.reel -o cut$ra.json 2>/dev/null ||
			fail "fit of a file cut short (readahead $ra)"
	done
	cmp -s cut0.json cut1.json || fail "the models of the file cut short differ"
}

# A trace of several devices without issue and completion times (gen's
# output of disksim's model, 16 disks): on two threads the main one takes the
# phases' scan and some devices' offsets and walk (devs_split), and half of
# the devices' regions and of their fit after pass 3 (model_devs_half), so
# each device's part runs on either thread: the same model as on one.
test_devices_split_same_model() {
	local src=$SHARED/traces/public/disksim/tpcc-small.trace
	if [ ! -e "$src" ]; then
		echo "not checked: the devices' split ($src absent)"
		return 0
	fi
	"$IOREEL" import -q --from disksim --time-unit ns "$src" -o d.reel || fail "import disksim"
	"$IOREEL" model fit d.reel -o d.json 2>/dev/null || fail "fit disksim"
	"$IOREEL" model gen d.json --rate 100 --count 400000 -o dg.reel 2>/dev/null || fail "gen disksim"
	fit_both_ways dg.reel gen_disksim
}

# A small extent read over and over in large I/O (gen's output of
# chromium.reel's model at --rate 300: 497,100 I/O, ~48 blocks each, in a
# 2 GiB extent): the re-use pass's sample map is made at the block map's
# first halving (fit_device.c, SMAP_EARLY; a build printing there showed it
# taken, 23.4M blocks still to come), on either thread the same model.
test_early_sample_map() {
	"$IOREEL" model fit "$TOP/traces/chromium.reel" -o c.json 2>/dev/null || fail "fit chromium.reel"
	"$IOREEL" model gen c.json --rate 300 -o cg.reel 2>/dev/null || fail "gen chromium x300"
	fit_both_ways cg.reel gen_chromium
}

test_same_model_both_ways
test_same_error_both_ways
test_devices_split_same_model
test_early_sample_map
