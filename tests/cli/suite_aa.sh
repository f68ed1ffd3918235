#!/bin/bash
# A/A: two identical zram devices through the --quick plan: every headline
# metric must be "within noise" (Welch t under Holm), every cell must
# replay the same trace copies on both drives (the same work), and the
# report must carry the drives' identity and state.  Holm keeps the chance
# of a false difference per report at <= 5%, so a failure is retried once
# (a true A/A fails twice in a row <= 0.25% of the time; a bias fails
# both).  Copies sized per drive once made two identical drives replay
# different work for a whole run, and the test then needed up to 3 runs.
. "$TOP/tests/cli/suite_lab.inc"
make_zram 64; A=$ZRAM
make_zram 64; B=$ZRAM
headline="('rate_mbps','iops','lat_mean_us','lat_p99_us','score')"
for attempt in 1 2; do
	rm -rf "$T/out"
	"$IOREEL" suite --quick --min-busy 0.4 --drive first="$A" --drive second="$B" -o "$T/out" \
		>"$T/stdout" 2>"$T/stderr" || { cat "$T/stderr"; fail "suite failed"; }
	cat "$T/stdout"
	k=$(json "sum(1 for c in s['cells'] if len(set(d['trace_copies'] for d in c['drives'])) != 1)" \
		"$T/out/summary.json")
	[ "$k" = 0 ] || fail "$k cells replayed different trace copies on the two drives"
	sig=$(json "sum(1 for c in s['comparisons'] if c['significant'] and c['metric'] in $headline)" \
		"$T/out/summary.json")
	[ "$sig" = 0 ] && break
	echo "attempt $attempt: $sig headline comparisons called significant"
done
[ "$sig" = 0 ] || fail "A/A: $sig headline comparisons called significant, twice in a row"
for f in report.html report.md summary.json bars_rate_mbps.png nines.png qd.png; do
	[ -s "$T/out/$f" ] || fail "$f missing"
done
grep -q "repeat 3/3" "$T/stderr" || fail "no progress with repeats on stderr"
grep -q "ETA" "$T/stderr" || fail "no ETA on stderr"
S="$T/out/summary.json"
[ "$(json "len(s['cells'])" "$S")" = 2 ] || fail "expected 2 cells"
[ "$(json "s['drives'][0]['states']['empty']['method']" "$S")" = BLKDISCARD ] || fail "purge method"
json "s['drives'][1]['model']" "$S" | grep -q zram || fail "no drive identity"
grep -q "within noise" "$T/out/report.md" || fail "no 'within noise' in report.md"
exit 0
