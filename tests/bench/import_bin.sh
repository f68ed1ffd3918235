#!/bin/bash
# Import speed of blktrace binaries and of blkparse text, beside blkparse
# itself reading the same binary trace (the anchor), as ratios of events per
# second.  The trace is synthesized here (per-CPU v7 files: remap, queue,
# get-request, insert, issue, completion, some back merges; N I/Os, default
# 300000), then blkparse turns it into the text the blkparse importer reads.
# Speeds are per CPU second (user + system, from /usr/bin/time), so that a
# busy machine does not skew the ratios; each figure is the median and range
# of REPEATS runs interleaved with the anchor's (tests/bench/lib.sh).
set -u
: "${TOP:?run through make bench}"
BUILD=${BUILD:-build}
RUN="$TOP/$BUILD/tests/bench/import_bin_run"
N=${IMPORT_BIN_IOS:-300000}
command -v blkparse >/dev/null || { echo "   skipped: blkparse not installed"; exit 0; }
[ -x "$RUN" ] || { echo "   $RUN missing (make bench builds it)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-bench-imp.XXXXXX")
. "$TOP/tests/bench/lib.sh"
bench_trap 'rm -rf "$T"'

/usr/bin/python3 - "$T/syn" "$N" <<'PY' || exit 1
import struct, sys, random
base, n = sys.argv[1], int(sys.argv[2])
random.seed(7)
MAGIC = 0x65617407
QUEUE, BM, GETRQ, ISSUE, COMPLETE, INSERT, REMAP = 1, 2, 4, 7, 8, 12, 15
TC = lambda c: c << 16
TCQ, TCI, TCC, W, R, S = TC(0x10), TC(0x40), TC(0x80), TC(2), TC(1), TC(8)
DEV, PART = (8 << 20), (8 << 20) | 2
ev = [[], []]
def rec(cpu, t, sec, nb, act, pid, dev=DEV, err=0, pdu=b''):
    ev[cpu].append((t, struct.pack('<IIQQIIIIIHH', MAGIC, 0, t, sec, nb, act, pid, dev, cpu, err, len(pdu)) + pdu))
for cpu in (0, 1):
    ev[cpu].append((0, struct.pack('<IIQQIIIIIHH', MAGIC, 0, 0, 0, 0, TC(0x400), 1000 + cpu, DEV, cpu, 0, 8) + b'bench%d\0\0' % cpu))
t = 1000
sector = 2048
i = 0
while i < n:
    cpu = (i // 64) % 2
    pid = 1000 + cpu
    rw = W if i % 3 else R
    nb = 4096 * random.choice((1, 1, 2, 4, 8))
    nsec = nb // 512
    if random.random() < 0.2:
        sector = random.randrange(0, 1 << 30) * 8
    rec(cpu, t, sector, nb, TC(0x10) | rw | REMAP, pid, DEV, pdu=struct.pack('>IIQ', PART, DEV, sector - 2048))
    rec(cpu, t + 100, sector, nb, TCQ | rw | QUEUE, pid)
    rec(cpu, t + 200, sector, nb, TCQ | rw | GETRQ, pid)
    total = nb
    i += 1
    if i < n and i % 4 == 0:
        rec(cpu, t + 250, sector + nsec, nb, TCQ | rw | QUEUE, pid)
        rec(cpu, t + 260, sector + nsec, nb, TCQ | rw | BM, pid)
        total += nb
        i += 1
    rec(cpu, t + 300, sector, total, TCQ | rw | INSERT, pid)
    rec(cpu, t + 400, sector, total, TCI | rw | ISSUE, pid)
    rec(1 - cpu, t + 400 + random.randrange(20000, 200000), sector, total, TCC | rw | COMPLETE, 0)
    sector += total // 512
    t += random.randrange(500, 5000)
for cpu in (0, 1):
    ev[cpu].sort(key=lambda x: x[0])
    with open('%s.blktrace.%d' % (base, cpu), 'wb') as f:
        seq = 0
        for _, b in ev[cpu]:
            seq += 1
            f.write(b[:4] + struct.pack('<I', seq) + b[8:])
PY

bytes_bin=$(cat "$T"/syn.blktrace.* | wc -c)
[ -x /usr/bin/time ] || { echo "   skipped: /usr/bin/time (Debian package time) missing"; exit 0; }
cpu() { # command...: user+system seconds of one run
	/usr/bin/time -f '%U %S' -o "$T/time" "$@" >"$T/out" 2>/dev/null || return 1
	awk '{ s = $1 + $2; print (s > 0 ? s : 0.001) }' "$T/time"
}
blkparse -i "$T/syn" >"$T/syn.txt" 2>/dev/null
events=$(blkparse -q -i "$T/syn" -f '%a\n' 2>/dev/null | wc -l)
bytes_txt=$(wc -c <"$T/syn.txt")
put() { # TAG SECONDS BYTES: MB/s and M events/s
	bench_put "$1" mbs "$(awk -v b="$3" -v s="$2" 'BEGIN { print b / 1e6 / s }')"
	bench_put "$1" evs "$(awk -v e="$events" -v s="$2" 'BEGIN { print e / 1e6 / s }')"
}
# anchor: blkparse reading the binary trace (its text to /dev/null)
run_blkparse() { put blkparse "$(cpu blkparse -q -i "$T/syn" -o /dev/null)" "$bytes_bin" || echo "   blkparse failed"; }
run_bin() {
	local s
	s=$(cpu "$RUN" blktrace "$T/syn") || { echo "   import blktrace failed"; return; }
	read -r rec_b _ _ _ <"$T/out"
	put bin "$s" "$bytes_bin"
}
run_txt() {
	local s
	s=$(cpu "$RUN" blkparse "$T/syn.txt") || { echo "   import blkparse failed"; return; }
	read -r rec_t _ _ _ <"$T/out"
	put txt "$s" "$bytes_txt"
}
bench_interleave run_blkparse run_bin run_txt
[ "$rec_b" = "$rec_t" ] || echo "   note: binary gave $rec_b records, text $rec_t"
[ "$rec_b" = "$N" ] || echo "   note: $rec_b records for $N I/Os"
awk -v n="$N" -v bb="$bytes_bin" -v bt="$bytes_txt" -v ev="$events" 'BEGIN {
	printf "   synthetic trace: %d I/Os, %d events; binary %.1f MB, blkparse text %.1f MB; per CPU second\n", n, ev, bb / 1e6, bt / 1e6 }'
bench_fig "anchor blkparse (binary -> text), MB/s" blkparse mbs
bench_row "import blktrace (binary), M events/s" bin evs blkparse evs "" blkparse
bench_row "import blkparse (text), M events/s" txt evs blkparse evs "" "blkparse (binary)"
bench_fig "import blktrace (binary), MB/s" bin mbs
bench_fig "import blkparse (text), MB/s" txt mbs
