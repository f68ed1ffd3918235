#!/bin/bash
# What the suite says about its own run: a trace that reaches beyond a small
# drive (compile.reel, about 1 GiB, on 32 MiB drives) is wrapped, and stderr,
# report.md, report.html and summary.json say so, per trace and drive; the
# terminal and both reports count the comparisons in the same words and
# numbers, the verdict table holds that many headline comparisons, and the
# title and the verdict rows name the drives in the same order; progress
# lines start "ioreel suite:".
. "$TOP/tests/cli/suite_lab.inc"
make_zram 32; Z=$ZRAM
make_shm_loop 32; L=$LOOP
cat >"$T/p.plan" <<PLAN
[global]
qd=1,8
data=random
timing=afap
states=empty
repeats=2
min-busy=0
[compile]
trace=$TOP/traces/compile.reel
PLAN
# fit=fail: refused before anything is written
sed 's/^states=empty$/states=empty\nfit=fail/' "$T/p.plan" >"$T/fail.plan"
"$IOREEL" suite "$T/fail.plan" --drive zram="$Z" --drive loop="$L" -o "$T/fail" 2>"$T/stderr"
rc=$?
[ $rc = 1 ] || { cat "$T/stderr"; fail "fit=fail with a 1 GiB trace on 32 MiB drives: exit $rc, expected 1"; }
grep -q "reaches 1.0. GiB; --drive zram=.* has 0.03 GiB (plan fit=fail)" "$T/stderr" ||
	{ cat "$T/stderr"; fail "fit=fail: the refusal does not give the sizes"; }
grep -q purge "$T/stderr" && fail "fit=fail: a drive was purged before the refusal"
"$IOREEL" suite "$T/p.plan" --drive zram="$Z" --drive loop="$L" -o "$T/out" >"$T/stdout" \
	2>"$T/stderr" || { cat "$T/stderr"; fail "suite failed"; }
cat "$T/stdout"
# fit, on stderr
for d in zram loop; do
	grep -q "^ioreel suite: \[compile\] the trace reaches 1.0. GiB, drive $d (.*) has 32 MiB: offsets beyond it are wrapped modulo the drive's size (fit=wrap)" "$T/stderr" ||
		{ cat "$T/stderr"; fail "stderr does not say compile is wrapped on $d"; }
done
bad=$(grep -v '^ioreel suite: ' "$T/stderr" | head -n 3)
[ -z "$bad" ] || fail "stderr lines not starting 'ioreel suite:': $bad"
python3 - "$T/out" "$T/stdout" <<'PY' || exit 1
import html, json, re, sys
out, stdout = sys.argv[1], open(sys.argv[2]).read()
md = open(out + "/report.md").read()
ht = open(out + "/report.html").read()
s = json.load(open(out + "/summary.json"))
def fail(m):
    sys.exit("FAIL: " + m)
# fit: the Trace fit table in both reports, and summary.json
sec = md.split("## Trace fit", 1)[1].split("\n## ", 1)[0] if "## Trace fit" in md else ""
rows = [r for r in sec.splitlines() if r.startswith("| compile")]
if len(rows) != 2 or not all("wrapped modulo the drive's size (fit=wrap)" in r and "32 MiB" in r for r in rows):
    fail("report.md: no Trace fit row per drive saying compile was wrapped:\n" + sec)
if "Offsets moved:" not in md or "Offsets moved:" not in ht:
    fail("a report does not say under Verdicts that offsets were moved")
fit = re.search(r'<table id="fit">(.*?)</table>', ht, re.S)
if not fit or html.unescape(fit.group(1)).count("wrapped modulo the drive's size (fit=wrap)") != 2:
    fail("report.html: no Trace fit table saying compile was wrapped on both drives")
t = s["plan"]["traces"][0]
if t["extent_bytes"] < 2**30 * 0.9 or sorted(t["offsets_moved_on"]) != ["loop", "zram"]:
    fail(f"summary.json: trace {t}")
# counts: one sentence everywhere
count_re = r"(\d+) of (\d+) headline comparisons differ significantly \(.*?\); over all \d+ metrics, (\d+) of (\d+) \(.*?\); the rest are within noise\."
term = re.findall(count_re, stdout)
mdc = re.findall(count_re, md)
htc = re.findall(count_re, html.unescape(ht))
if not (term and mdc and htc) or not (term[0] == mdc[0] == htc[0]):
    fail(f"counts differ: terminal {term}, report.md {mdc}, report.html {htc}")
hs, hn, sig, n = map(int, term[0])
st = s["statistics"]
if (st["headline_significant"], st["headline_comparisons"], st["significant"], st["comparisons"]) != (hs, hn, sig, n):
    fail(f"summary.json statistics {st} differ from {term[0]}")
vt = md.split("## Verdicts", 1)[1].split("\n## ", 1)[0]
vrows = [r for r in vt.splitlines() if r.startswith("| compile")]
cells = [c.strip() for r in vrows for c in r.strip("|").split("|")[2:]]
if len(cells) != hn:
    fail(f"the verdict table holds {len(cells)} headline comparisons, the count says {hn}")
if sum(1 for c in cells if c.endswith("better") or c.endswith("worse")) != hs:
    fail(f"the verdict table's differences are not the {hs} counted")
# the drives in one order: title, verdict rows, terminal lines
title = re.search(r"^# (.*)$", md, re.M).group(1)
if title != "ioreel suite: zram vs loop":
    fail("title " + title)
if not vrows or not all(r.split("|")[2].strip() == "zram vs loop" for r in vrows):
    fail("verdict rows do not read 'zram vs loop': " + "\n".join(vrows))
if "loop vs zram" in stdout or "loop vs zram" in ht:
    fail("'loop vs zram' against the title's order")
print(f"counts {term[0]}; {len(vrows)} verdict rows")
PY
exit 0
