#!/bin/bash
# Importer validation (issue 11, item 12): an offset that makes offset +
# length pass 2^63 is a bad line naming file:line (msr, fio, alibaba,
# blkparse); a blkparse line with a malformed '+ LENGTH' is a bad line, not
# a skipped "passthrough"; a length of exactly 4 GiB is refused saying the
# largest is 4 GiB - 1, and 4 GiB - 1 imports; the RWBS letter B (barrier,
# kernels before 2.6.36: "WBS") imports as a write with a preflush.
. "$TOP/tests/lib.sh"
cd "$T"

# refused FMT FILE LINE REASON
refused() {
	"$IOREEL" import -q --from "$1" "$2" -o out.reel 2>err && fail "$1: $2 accepted"
	grep -qE "$2:$3: $4" err || { cat err; fail "$1: message lacks '$2:$3: $4'"; }
	[ ! -e out.reel ] || fail "$1: output left behind"
}

test_offset_wrap_refused() {
	printf '128166410318060999,wdev,1,Write,4096,4096,1189\n128166410318061023,wdev,1,Write,18446744073709551615,4096,1166\n' >w.csv
	refused msr w.csv 2 "offset 18446744073709551615 \+ length 4096 is beyond 2\^63 bytes"
	printf 'fio version 2 iolog\n/dev/x add\n/dev/x write 18446744073709547520 4096\n' >f.log
	refused fio f.log 3 "offset 18446744073709547520 \+ length 4096 is beyond 2\^63"
	printf '1,W,9223372036854775807,4096,1577808000000000\n' >a.csv
	refused alibaba a.csv 1 "offset 9223372036854775807 \+ length 4096 is beyond 2\^63"
	printf '8,0 0 1 0.000000001 42 Q W 18014398509481983 + 8 [dd]\n' >s.txt
	refused blkparse s.txt 1 "sector and length beyond 2\^63 bytes"
	echo "offset + length beyond 2^63: refused with file:line"
}

test_blkparse_bad_length() {
	printf '8,0 0 1 0.000000001 42 Q W 8 + 8 [dd]\n8,0 0 2 0.000000002 42 Q W 16 x 8 [dd]\n' >b.txt
	refused blkparse b.txt 2 "expected '\+ LENGTH' after the sector"
	echo "blkparse: malformed '+ LENGTH' is a bad line"
}

test_4gib_boundary() {
	printf '128166410318060999,wdev,1,Write,0,4294967296,1189\n' >big.csv
	refused msr big.csv 1 "size 4294967296 is over the largest, 4 GiB - 1 \(4294967295 bytes\)"
	printf '128166410318060999,wdev,1,Write,0,4294967295,1189\n' >max.csv
	"$IOREEL" import -q --from msr max.csv -o max.reel || fail "4 GiB - 1 refused"
	"$IOREEL" dump max.reel | grep -q " 4294967295 " || fail "4 GiB - 1 not kept"
	echo "4 GiB: refused saying 4 GiB - 1 is the largest; 4 GiB - 1 imports"
}

test_barrier_rwbs() {
	printf '8,0 0 1 0.000000001 42 Q WBS 8 + 8 [jbd2]\n8,0 0 2 0.000000002 42 D WBS 8 + 8 [jbd2]\n8,0 0 3 0.000000003 42 C WBS 8 + 8 [0]\n' >old.txt
	"$IOREEL" import -q --from blkparse old.txt -o old.reel 2>err || { cat err; fail "WBS refused"; }
	"$IOREEL" dump old.reel | grep -v '^#' >d.txt
	grep -q " write sync,preflush 4096 4096 " d.txt || fail "WBS not a write with preflush: $(cat d.txt)"
	echo "RWBS B (barrier): a write with a preflush"
}

test_offset_wrap_refused
test_blkparse_bad_length
test_4gib_boundary
test_barrier_rwbs
