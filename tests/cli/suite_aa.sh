#!/bin/bash
# A/A: two identical zram devices through the --quick plan: every headline
# metric must be "within noise" (Welch t under Holm), and the report must
# carry the drives' identity and state.  Holm keeps the chance of a false
# difference per report at <= 5%, but the repeats of one suite run share
# its drive state (one purge, one fill): two zram devices then differ by a
# few percent for the whole run, either way (seen: first +5.9% on QD 1 in
# one run, -5.7% on QD 32 in the next, same devices), and Welch on the
# repeats calls it.  So a run with headline differences is retried, up to
# 3 runs, and the test fails when one passes no run and the same
# difference (cell, metric, direction) was called in every run: a bias of
# the tool (the drive given first favoured, say) fails so; a drive state
# that differs from run to run does not.
. "$TOP/tests/cli/suite_lab.inc"
make_zram 64; A=$ZRAM
make_zram 64; B=$ZRAM
headline="('rate_mbps','iops','lat_mean_us','lat_p99_us','score')"
: >"$T/seen"
for attempt in 1 2 3; do
	rm -rf "$T/out"
	"$IOREEL" suite --quick --min-busy 0.4 --drive first="$A" --drive second="$B" -o "$T/out" \
		>"$T/stdout" 2>"$T/stderr" || { cat "$T/stderr"; fail "suite failed"; }
	cat "$T/stdout"
	sig=$(json "sum(1 for c in s['comparisons'] if c['significant'] and c['metric'] in $headline)" \
		"$T/out/summary.json")
	[ "$sig" = 0 ] && break
	echo "attempt $attempt: $sig headline comparisons called significant"
	json "'\\n'.join('%d %s %s' % (c['cell'], c['metric'], '+' if c['diff_pct'] > 0 else '-')
		for c in s['comparisons'] if c['significant'] and c['metric'] in $headline)" \
		"$T/out/summary.json" | sort >"$T/sig.$attempt"
	if [ "$attempt" = 1 ]; then cp "$T/sig.1" "$T/seen"; else
		comm -12 "$T/seen" "$T/sig.$attempt" >"$T/both" && mv "$T/both" "$T/seen"; fi
done
if [ "$sig" != 0 ]; then
	[ -s "$T/seen" ] && { cat "$T/seen"; fail "A/A: the same difference called in 3 runs of 3"; }
	echo "note: headline differences called in each of 3 runs, none the same way in all"
fi
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
