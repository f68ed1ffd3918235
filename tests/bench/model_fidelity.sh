#!/bin/bash
# make bench: the issue-13 fidelity checks on every real trace at hand, seeds
# 1-3: the project's own traces/*.reel always, and the public traces of the
# shared folder ($SHARED/traces/public) when it is there; each trace left out
# is named with the reason (folder or file absent, importer not built, import
# failed).  For each trace and seed, how many of `model compare`'s checks
# beyond the distributions (count, bytes, IDC, window series, locality,
# re-use, read-after-write, reuse distance, working set, size given
# sequentiality, per-device offsets and gaps) are outside their targets,
# with ks_jump / ks_size / ks_interarrival.  Deterministic (seeded), so one
# run.  FIDELITY_BEFORE=another ioreel binary (an older build) fits and
# generates too, compared by this build's `model compare`, so both are
# judged by the same checks.  FIDELITY_SEEDS=N (default 3) generates with
# seeds 1-N: a small trace's count moves by a few checks from seed to seed,
# so comparing two builds wants more seeds (64 gives the per-trace sums).
# FIDELITY_SEED0=S (default 1) starts at seed S instead: seeds no pass was
# judged on (65 and up) show what a user with other seeds would see.  The
# summary adds, per build, the seeds with any check out on any trace and
# the checks out most often.
. "$TOP/tests/lib.sh"
P="$SHARED/traces/public"
BEFORE=${FIDELITY_BEFORE:-}
NSEEDS=${FIDELITY_SEEDS:-3}
S0=${FIDELITY_SEED0:-1}
case $NSEEDS in '' | *[!0-9]* | 0) fail "FIDELITY_SEEDS=$NSEEDS: give a whole number of seeds, 1 or more" ;; esac
case $S0 in '' | *[!0-9]* | 0) fail "FIDELITY_SEED0=$S0: give the first seed, a whole number 1 or more" ;; esac
S1=$((S0 + NSEEDS - 1))
fmts=$("$IOREEL" import --from list 2>/dev/null | awk '{print $1}')
: >"$T/names"
left_out() { echo "   $1: left out, $2"; }
imp() { # name format files... [options]: a public trace into $T/name.reel
	local n=$1 f=$2 a
	shift 2
	grep -qx "$f" <<<"$fmts" || { left_out "$n" "this build has no $f importer"; return; }
	for a in "$@"; do
		case "$a" in -*) break ;; esac
		[ -e "$a" ] || { left_out "$n" "$a absent"; return; }
	done
	if "$IOREEL" import -q --from "$f" "$@" -o "$T/$n.reel" 2>"$T/$n.err"; then
		echo "$n" >>"$T/names"
	else
		left_out "$n" "import failed: $(head -n 1 "$T/$n.err")"
	fi
}
if [ -d "$P" ]; then
	while read -r fmt rel extra; do
		# shellcheck disable=SC2086
		imp "$fmt" "$fmt" "$P"/$rel $extra
	done < <(grep -v '^#' "$TOP/tests/public_traces.list")
else
	left_out "the public traces (msr disksim fiu blkparse blktrace)" \
		"$P absent (SHARED=DIR names the shared folder)"
fi
for t in "$TOP"/traces/*.reel; do
	[ -e "$t" ] || { left_out "the project's traces" "no $TOP/traces/*.reel"; break; }
	n=$(basename "$t" .reel)
	cp "$t" "$T/$n.reel" && echo "$n" >>"$T/names"
done
one() { # bin tag name
	"$1" model fit "$T/$3.reel" -o "$T/$3.$2.json" 2>/dev/null || return 1
	for s in $(seq "$S0" "$S1"); do
		"$1" model gen "$T/$3.$2.json" --seed $s -o "$T/$3.$2.$s.reel" 2>/dev/null &&
			"$IOREEL" model compare --json "$T/$3.reel" "$T/$3.$2.$s.reel" >"$T/$3.$2.$s.json" ||
			return 1
	done
}
echo "   issue-13 checks outside target per seed $S0..$S1, then their sum (deterministic:" \
	"one run); ks_* the largest over the seeds"
: >"$T/totals"
while read -r n; do
	one "$IOREEL" new "$n" || { echo "   $n: fit/gen/compare failed"; continue; }
	[ -n "$BEFORE" ] && { one "$BEFORE" old "$n" || echo "   $n: the before binary failed"; }
	/usr/bin/python3 - "$T" "$n" "${BEFORE:+old}" "$S0" "$S1" <<'PY'
import json, sys
T, n, old, s0, s1 = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
PFX = ("ios", "bytes", "idc_", "window_", "locality", "reuse", "read_after", "ks_reuse",
       "working_set", "ks_size_", "ks_offset", "ks_gap.")
def summary(tag):
    f, kj, ks, kg, out = [], [], [], [], set()
    for s in range(s0, s1 + 1):
        r = json.load(open("%s/%s.%s.%d.json" % (T, n, tag, s)))
        c = r["checks"]
        bad = [k for k in c if k.startswith(PFX) and c[k]["ok"] is False]
        f.append(len(bad)); out.update(bad)
        with open("%s/out.%s" % (T, tag), "a") as o:  # seed trace check, one a line
            o.writelines("%d %s %s\n" % (s, n, k) for k in bad)
        kj.append(r["ks_jump"]); ks.append(r["ks_size"]); kg.append(r["ks_interarrival"])
        ios = r["checks"]["ios"]["a"]
    return "/".join(map(str, f)) + " = %d" % sum(f), max(kj), max(ks), max(kg), sorted(out), ios, sum(f)
new = summary("new")
line = "   %-12s %7d I/O  failing %-12s" % (n, new[5], new[0])
tot = [new[6]]
if old:
    o = summary("old")
    line += " (before %-12s)" % o[0]
    tot.append(o[6])
open(T + "/totals", "a").write(" ".join(map(str, tot)) + "\n")
line += "  ks_jump %.3f size %.3f gap %.3f  outside: %s" % (new[1], new[2], new[3], " ".join(new[4]) or "-")
print(line)
PY
done <"$T/names"
awk -v old="$BEFORE" '{ n += $1; o += $2 } END {
	printf "   all traces, seeds %d-%d: %d checks outside target", s0, s1, n
	if (old != "") printf " (before %d)", o
	printf "\n" }' s0="$S0" s1="$S1" "$T/totals"
/usr/bin/python3 - "$T" "$NSEEDS" "${BEFORE:+old}" <<'PY'
import collections, os, sys
T, ns, old = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for tag, what in (("new", "this build"), ("old", "before")):
    if tag == "old" and not old:
        continue
    rows = [l.split() for l in open(T + "/out." + tag)] if os.path.exists(T + "/out." + tag) else []
    seeds = len({r[0] for r in rows})
    top = collections.Counter("%s %s" % (r[1], r[2]) for r in rows).most_common(6)
    print("   %s: seeds with any check out %d of %d; most often: %s" % (
        what, seeds, ns, ", ".join("%s %d" % kv for kv in top) or "-"))
PY
