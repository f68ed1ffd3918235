#!/bin/bash
# Drive states write what they say: after the full state (and no I/O: the
# null engine) sampled blocks read back as random data (incompressible, not
# zero); after the empty state (purge: BLKDISCARD) they read back as zeros.
. "$TOP/tests/cli/suite_lab.inc"
make_shm_loop 16; A=$LOOP
make_shm_loop 16; B=$LOOP
plan() { # STATE
	printf '[global]\nqd=1\nstates=%s\nrepeats=2\nmin-busy=0\nengine=null\n[c]\ntrace=%s\n' \
		"$1" "$TOP/traces/compile.reel" >"$T/$1.plan"
}
sample() { # DEV: prints "zero random other" counts over 200 random 4 KiB blocks
	python3 - "$1" <<'PY'
import os, random, sys, zlib
fd = os.open(sys.argv[1], os.O_RDONLY)
size = os.lseek(fd, 0, os.SEEK_END)
random.seed(7)
z = r = o = 0
for _ in range(200):
    off = random.randrange(size // 4096) * 4096
    b = os.pread(fd, 4096, off)
    if b == bytes(4096): z += 1
    elif len(zlib.compress(b, 6)) > 4000: r += 1
    else: o += 1
print(z, r, o)
PY
}
dd if=/dev/zero of="$A" bs=1M count=16 status=none
plan full
"$IOREEL" suite "$T/full.plan" --drive a="$A" --drive b="$B" -o "$T/full" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "suite (full) failed"; }
read -r z r o <<<"$(sample "$A")"
echo "full: $z zero, $r random, $o other"
[ "$r" = 200 ] || fail "full state: $r of 200 sampled blocks random"
grep -q "sequential 128 KiB random-data writes, 0.03 GiB (2x capacity)" "$T/full/report.md" ||
	fail "the report does not state the preconditioning"
plan empty
"$IOREEL" suite "$T/empty.plan" --drive a="$A" --drive b="$B" -o "$T/empty" >/dev/null 2>"$T/err" ||
	{ cat "$T/err"; fail "suite (empty) failed"; }
read -r z r o <<<"$(sample "$A")"
echo "empty: $z zero, $r random, $o other"
[ "$z" = 200 ] || fail "empty state: $z of 200 sampled blocks zero after the purge"
grep -q "| a | empty | BLKDISCARD |" "$T/empty/report.md" || fail "purge method not reported"
exit 0
