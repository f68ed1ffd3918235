#!/bin/bash
# model_fidelity: every public real trace is imported, fitted,
# generated at the same length (seeds 1, 2, 3) and compared with the
# original, and so is each of the project's own traces (traces/*.reel):
# on every seed, `model compare`'s own verdict, `within_targets`, must be
# true: every check within its target as compare judges it (its KS checks
# widened to the two-sample 5% critical value where that is larger, 0.18
# for the 113-I/O blktrace trace; model/MODEL.md, "Fidelity checks"): the
# distributions (KS of sizes, inter-arrival times and jump distances, read
# share within 1 point, b-model within 0.02) and every check of issue 13
# (I/O count and bytes, IDC, the window series, locality, re-use, reuse
# distances, read-after-write, working set read and written, sizes given
# sequentiality, offsets and gaps per device; model/HISTORY.md, pass by
# pass).  The naive model (Poisson, uniform, mean sizes) must be outside
# targets, on at least three of the issue-13 checks.
# Traces whose importer is not in this build are skipped, saying so.
#
# Known out, issue 13 still open (model/MODEL.md, "Where the model
# stands"), printed on every run as such; every other check of the trace
# must hold, and a known-out check that comes back in is said so:
# none today.  kernel-src's reuse distance (out on every seed until
# ksrd's placement of read starts by reuse distance) and its inter-arrival
# times on seed 2 (KS 0.0547 until redraw_gaps) were the last.
# TRACE:CHECK on every seed, TRACE:CHECK@SEED on that seed.
KNOWN_OUT=""
. "$TOP/tests/lib.sh"
P="$SHARED/traces/public"
fmts=$("$IOREEL" import --from list 2>/dev/null | awk '{print $1}')
tested=0
check() { # name compare.json want(pass|fail) [seed]
	/usr/bin/python3 - "$1" "$2" "$3" "${4:-0}" "$KNOWN_OUT" <<'PY'
import json, sys
name, path, want, seed, known = sys.argv[1:]
r = json.load(open(path))
c = r["checks"]
ISSUE13 = ("ios", "bytes", "idc_", "window_", "locality", "reuse", "read_after", "ks_reuse",
           "working_set", "ks_size_", "ks_offset", "ks_gap.")
new13 = [k for k in c if k.startswith(ISSUE13)]
off = [k for k in c if c[k]["ok"] is False]
off13 = [k for k in off if k in new13]
print("%-9s %-6s ks size %.4f gap %.4f jump %.4f run %.4f  read diff %.2f pt  b-model diff %.4f" %
      (name, want == "fail" and "naive" or "model", r["ks_size"], r["ks_interarrival"], r["ks_jump"],
       r["ks_run"], r["read_diff_points"], r["bmodel_diff"]))
def fmt(x):
    return "-" if x is None else "%.3g" % x
print("          checks outside target: %d of %d (issue 13: %d of %d): %s" % (
      len(off), len(c), len(off13), len(new13), " ".join(
      "%s=%s(%s; %s vs %s)" % (k, fmt(c[k]["value"]), c[k]["target"], fmt(c[k]["a"]), fmt(c[k]["b"]))
      for k in off)))
known = {k.split("@")[0].split(":", 1)[1] for k in known.split()
         if k.split(":", 1)[0] == name and ("@" not in k or k.split("@")[1] == seed)}
if want == "pass" and known:
    print("          known out (issue 13 open): %s; back in: %s" % (
          " ".join(sorted(k for k in known if k in off)) or "-",
          " ".join(sorted(k for k in known if k not in off)) or "-"))
    off = [k for k in off if k not in known]
if want == "pass" and off:
    print("FAIL: %s outside targets: %s" % (name, off), file=sys.stderr)
    sys.exit(1)
if want == "fail" and r["within_targets"]:
    print("FAIL: %s: the naive model passes: the metrics cannot tell" % name, file=sys.stderr)
    sys.exit(1)
if want == "fail" and len(off13) < 3:
    print("FAIL: %s: the naive model fails only %d issue-13 checks" % (name, len(off13)), file=sys.stderr)
    sys.exit(1)
PY
}
fidelity() { # name trace.reel: fit, gen (3 seeds), compare, the naive model
	local n=$1 rel=$2
	"$IOREEL" model fit "$T/$n.reel" -o "$T/$n.json" 2>"$T/fit.log" || { cat "$T/fit.log"; fail "fit $rel"; }
	for seed in 1 2 3; do
		"$IOREEL" model gen "$T/$n.json" --seed $seed --overwrite -o "$T/$n.syn.reel" \
			2>/dev/null || fail "gen $rel"
		"$IOREEL" model compare --json "$T/$n.reel" "$T/$n.syn.reel" >"$T/c.json" ||
			fail "compare $rel"
		check "$n" "$T/c.json" pass $seed || exit 1
	done
	"$IOREEL" model fit --naive "$T/$n.reel" -o "$T/$n.naive.json" 2>/dev/null || fail "fit --naive $rel"
	"$IOREEL" model gen "$T/$n.naive.json" --seed 1 -o "$T/$n.naive.reel" 2>/dev/null || fail "gen naive $rel"
	"$IOREEL" model compare --json "$T/$n.reel" "$T/$n.naive.reel" >"$T/c.json" || fail "compare $rel"
	check "$n" "$T/c.json" fail || exit 1
	# MODEL.json stays small: a fixed budget, whatever the trace length
	sz=$(stat -c %s "$T/$n.json")
	[ "$sz" -le 400000 ] || fail "$n.json is $sz bytes"
	tested=$((tested + 1))
}
[ -d "$P" ] || echo "skip the public traces: $P absent (SHARED=DIR names the shared folder); the project's own traces still run"
while read -r fmt rel extra; do
	[ -d "$P" ] || break
	files=$(ls "$P"/$rel 2>/dev/null) || true
	[ -n "$files" ] || { echo "skip $rel: absent"; continue; }
	if ! grep -qx "$fmt" <<<"$fmts"; then
		echo "skip $rel: the $fmt importer is not in this build"
		continue
	fi
	# shellcheck disable=SC2086
	"$IOREEL" import -q --from "$fmt" $extra $files -o "$T/$fmt.reel" || fail "import $rel"
	fidelity "$fmt" "$rel"
done < <(grep -v '^#' "$TOP/tests/public_traces.list")
for f in "$TOP"/traces/*.reel; do
	n=$(basename "$f" .reel)
	cp "$f" "$T/$n.reel"
	fidelity "$n" "traces/$n.reel"
done
[ $tested -gt 0 ] || skip "no trace could be imported (importers not in this build)"
echo "$tested traces within targets, but for the known-out checks printed above; the naive model failed on each"
