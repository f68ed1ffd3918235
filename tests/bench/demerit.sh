#!/bin/bash
# make bench: ioreel demerit (BENCH=demerit).  The replay demerit of the fiu
# trace's synthetic twins (DESIGN.md, model fidelity: demerit <= 10% of the
# mean latency): the trace, the same trace again (the noise floor), the
# model's twin (seed 1) and the naive model's, replayed in that order
# REPEATS times (orig again twin naive orig ...), each replay's latencies
# compared with its round's first (`model compare --json`: RMS horizontal
# distance between the latency CDFs).  Figures: median [range] of each
# demerit, the floor as the anchor, the ratio per round.  A round with a
# failed replay is left out, and the group then exits 1.
#
# The target (DEMERIT_TARGET):
#   zram (default): a 512 MiB zram device filled with random data.  Every
#     replay starts from the same state: the same incompressible blocks in
#     memory (the replays write random data too), no page cache of the
#     guest or the host in the path, no other process's disk I/O.
#   disk: a loop device (direct I/O) over a 512 MiB file in $T, on this
#     VM's virtual disk; the guest's page cache is not used, but the host's
#     cache and every other process's I/O on the same disk are, and set the
#     tail (a write stall of 100-250 ms in one replay and not the next).
# DEMERIT_FIT: wrap (default) or scale.  fiu spans 277 GiB; scale divides
# its offsets by 554, so a sequential run of 4 KiB I/Os becomes the same
# 4 KiB read again and again (91% of fiu's I/Os hit the previous one's
# block), which is not what the model reproduces; wrap (offset modulo the
# target) keeps runs, re-use and sizes, and aliases far regions only.
# DEMERIT_SPEED: --speed (default 4: 5.8 s a replay, 12 replays at REPEATS=3).
. "$TOP/tests/lib.sh"
. "$TOP/tests/bench/lib.sh"
P="$SHARED/traces/public"
fit=${DEMERIT_FIT:-wrap} speed=${DEMERIT_SPEED:-4} target=${DEMERIT_TARGET:-zram}
if [ "$(id -u)" != 0 ] || ! "$IOREEL" replay --help >/dev/null 2>&1 ||
	! "$IOREEL" import -q --from fiu "$P"/fiu/*.blkparse -o "$T/fiu.reel" 2>/dev/null; then
	echo "   demerit: not measured (needs root, ioreel replay, the fiu importer and $P/fiu)"
	exit 0
fi
if ! { "$IOREEL" model fit "$T/fiu.reel" -o "$T/m.json" 2>/dev/null &&
	"$IOREEL" model fit --naive "$T/fiu.reel" -o "$T/n.json" 2>/dev/null &&
	"$IOREEL" model gen "$T/m.json" --seed 1 -o "$T/twin.reel" 2>/dev/null &&
	"$IOREEL" model gen "$T/n.json" --seed 1 -o "$T/naive.reel" 2>/dev/null; }; then
	echo "   demerit: fit or gen failed"
	exit 1
fi
cp "$T/fiu.reel" "$T/again.reel"
case $target in
zram)
	[ -w /sys/class/zram-control/hot_add ] || skip "no zram (modprobe zram), or DEMERIT_TARGET=disk"
	id=$(cat /sys/class/zram-control/hot_add) || skip "zram hot_add failed"
	at_exit "echo 1 > /sys/block/zram$id/reset; echo $id > /sys/class/zram-control/hot_remove"
	echo 512M >"/sys/block/zram$id/disksize" || fail "zram$id: disksize"
	DEV=/dev/zram$id
	;;
disk)
	make_loop "$T/loop.img" 512
	DEV=$LOOP
	;;
*) fail "DEMERIT_TARGET=$target: zram or disk" ;;
esac
dd if=/dev/urandom of="$DEV" bs=1M count=512 oflag=direct status=none || fail "filling $DEV"
echo "demerit (fiu trace, $target target $DEV, 512 MiB of random data, --fit $fit --speed $speed; target <= 10% of the mean latency)"
bench_load before
# replay KIND ROUND: 1 when it fails, its result removed (a replay stopped
# half way leaves the I/O it did: not a figure)
replay() {
	local rc=0
	"$IOREEL" replay "$T/$1.reel" --target "$DEV" --fit "$fit" --speed "$speed" -q \
		--overwrite -o "$T/res.$1.$2.reel" >/dev/null 2>"$T/replay.log" || rc=$?
	[ "$rc" = 0 ] && return 0
	rm -f "$T/res.$1.$2.reel"
	echo "   replay of $1 (round $2) failed (exit $rc): $(grep -v ' went over ' "$T/replay.log" | tail -n 1)"
	return 1
}
# the round's demerits: model compare's figure (% of the mean latency), and
# the same sum over the quantiles below p99 only (the body of the CDFs:
# where the tail, set by the host, leaves the workload's own latencies)
judge() { # judge ROUND
	local k
	for k in fiu again twin naive; do
		"$IOREEL" export --to csv --overwrite "$T/res.$k.$1.reel" -o "$T/res.$k.csv" 2>/dev/null
	done
	for k in again twin naive; do
		"$IOREEL" model compare --json "$T/res.fiu.$1.reel" "$T/res.$k.$1.reel" >"$T/d.json" || continue
		/usr/bin/python3 - "$T" "$k" <<'PY' >>"$BENCH_T/lines"
import csv, json, math, sys
t, k = sys.argv[1:]
def lat(p):
    return sorted(int(r["complete_ns"]) - int(r["issue_ns"]) for r in csv.DictReader(open(p)))
def q(v, p):  # model/measures.c quantile_sorted
    pos = p * (len(v) - 1); i = int(pos)
    return v[-1] if i >= len(v) - 1 else v[i] + (pos - i) * (v[i + 1] - v[i])
a, b = lat("%s/res.fiu.csv" % t), lat("%s/res.%s.csv" % (t, k))
body = sum((q(a, (i + .5) / 1e4) - q(b, (i + .5) / 1e4)) ** 2 for i in range(9900))
r = json.load(open("%s/d.json" % t))
print(k, r["demerit_pct"], 100 * math.sqrt(body / 1e4) / (sum(a) / len(a)), r["mean_latency_a_us"],
      r["mean_latency_b_us"])
PY
	done
	rm -f "$T/res."*".$1.reel" "$T/res."*.csv
}
# round R: the four replays, then their demerits; a round with a failed
# replay is left out whole (bench_row pairs the figures by round)
round() {
	local k ok=1
	for k in fiu again twin naive; do replay "$k" "$1" || ok=0; done
	if [ $ok = 1 ]; then
		judge "$1"
	else
		echo "   round $1 left out"
		rm -f "$T/res."*".$1.reel"
		failed=1
	fi
	bench_load "after round $1"
}
: >"$BENCH_T/lines"
failed=0
for r in $(seq "$REPEATS"); do round "$r"; done
while read -r k pct body mean_a mean_b; do
	bench_put "$k" pct "$pct"
	bench_put "$k" body "$body"
	bench_put "$k" mean "$mean_b"
	[ "$k" = again ] && bench_put fiu mean "$mean_a"
done <"$BENCH_T/lines"
bench_fig "mean latency of the trace's replay, us" fiu mean
bench_fig "mean latency, the twin's replay, us" twin mean
bench_fig "mean latency, the naive model's replay, us" naive mean
bench_fig "noise floor (the trace again), demerit % of mean latency" again pct
bench_row "twin (model, seed 1), demerit %" twin pct again pct "" "floor"
bench_row "naive model, demerit %" naive pct again pct "" "floor"
bench_row "twin, body below p99 only, %" twin body again body "" "floor"
bench_row "naive, body below p99 only, %" naive body again body "" "floor"
[ $failed = 0 ] || { echo "   demerit: a replay failed (above): its round left out"; exit 1; }
