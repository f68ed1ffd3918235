#!/bin/bash
# model_compare_table: `model compare`'s table prints "-" where there is no
# figure (the JSON's null), never "nan"; a trace without reads has no
# read-after-write share, so that check is not measurable ("-", ok null)
# rather than "ok"; and a small trace's KS checks are held to the two-sample
# 5% critical value, the old ones (ks_size, ks_interarrival, ks_jump) as
# the new, so a model compare calls "within targets" is what the tests pass.
. "$TOP/tests/lib.sh"
/usr/bin/python3 - "$T/w.csv" <<'PY'
import random, sys
r = random.Random(5)
t, out = 128166410318060000, []
for i in range(150):  # 150 writes: nothing read
    out.append("%d,synth,0,Write,%d,4096,100" % (t, r.randrange(1 << 16) << 12))
    t += r.randrange(1000, 500000)
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
model_fit_csv w
model_gen_compare w 1
"$IOREEL" model compare "$T/w.reel" "$T/syn.reel" >"$T/table" || fail "compare (table)"
grep -qi nan "$T/table" && { cat "$T/table"; fail "the table prints nan"; }
grep -Eq '^read_after_write +- +- +- .* -$' "$T/table" ||
	{ cat "$T/table"; fail "read_after_write of a trace without reads is not '-'"; }
/usr/bin/python3 - "$T/c.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
c = r["checks"]
if c["read_after_write"]["ok"] is not None:
    sys.exit("FAIL: read_after_write without reads: ok %s, not null" % c["read_after_write"]["ok"])
for k in ("ks_size", "ks_interarrival", "ks_jump"):
    na, nb = c[k]["a"], c[k]["b"]
    lim = max(0.05, 1.358 * ((na + nb) / (na * nb)) ** 0.5)
    if c[k]["target"] != "<= %.3g" % lim or c[k]["ok"] != (c[k]["value"] <= lim):
        sys.exit("FAIL: %s of %d and %d I/O: target %s, ok %s (want <= %.3g)" %
                 (k, na, nb, c[k]["target"], c[k]["ok"], lim))
bad = [k for k in c if c[k]["ok"] is False]
if r["within_targets"] != (not bad):
    sys.exit("FAIL: within_targets %s with %s outside" % (r["within_targets"], bad))
print("150 writes: read_after_write -, ks_size %s, ks_jump %s; %s" % (
      c["ks_size"]["target"], c["ks_jump"]["target"],
      "within targets" if r["within_targets"] else "outside: %s" % bad))
PY
grep -q 'ioreel/model/MODEL.md' <("$IOREEL" model --help) || fail "model --help does not name the installed MODEL.md"
echo ok
