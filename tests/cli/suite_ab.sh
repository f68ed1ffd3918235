#!/bin/bash
# A/B: zram against the same kind of device capped at 1,500 IOPS by a
# cgroup v1 blkio throttle (the suite runs inside the cgroup; only the
# capped device is throttled).  The report must find the difference with the
# right sign: the capped drive slower in data rate and IOPS, higher in
# average latency.
. "$TOP/tests/cli/suite_lab.inc"
make_zram 64; FAST=$ZRAM
make_zram 64; SLOW=$ZRAM
in_cgroup ab "$SLOW" 1500
cat >"$T/ab.plan" <<PLAN
[global]
qd=1
data=random
timing=afap
states=empty
repeats=5
min-busy=0.3
[compile]
trace=$TOP/traces/compile.reel
PLAN
# both drives replay the copies that the free drive needs for min-busy, so
# the capped drive's runs last longer (1.5-2 s of busy time here)
( echo $BASHPID >"$CGROUP/cgroup.procs" && exec "$IOREEL" suite "$T/ab.plan" \
	--drive capped="$SLOW" --drive free="$FAST" -o "$T/out" ) >"$T/stdout" 2>"$T/stderr" ||
	{ cat "$T/stderr"; fail "suite failed"; }
cat "$T/stdout"
S="$T/out/summary.json"
# a comparison is "b vs a", b the drive given first: capped vs free
check() { # metric expected-verdict
	v=$(json "[c['b']+' vs '+c['a']+': '+c['verdict'] for c in s['comparisons'] if c['metric']=='$1'][0]" "$S")
	[ "$v" = "capped vs free: $2" ] || fail "$1: '$v', expected 'capped vs free: $2'"
}
check rate_mbps "b worse"
check iops "b worse"
check lat_mean_us "b worse"
d=$(json "[c['diff_pct'] for c in s['comparisons'] if c['metric']=='lat_mean_us'][0]" "$S")
python3 -c "import sys; sys.exit(0 if float('$d') > 0 else 1)" || fail "capped's latency difference $d% not positive"
exit 0
