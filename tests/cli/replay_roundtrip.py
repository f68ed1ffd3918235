#!/usr/bin/env python3
"""capture(replay(T)) ~ T, counted:
    replay_roundtrip.py TRACE.dump CAPTURE.dump COMPARE.json DEVICE_BYTES

Matches the captured records to the trace's by (op, offset, length).  What is
left over must be explained, or the check fails:
  - a trace I/O the replay submitted as one request arrives as several bios
    when it is larger than one bio can carry (pieces that tile it exactly,
    same op): counted as matched, "split at submission";
  - reads by ioreel within 8 MiB of either end of the device: the safety
    probe (libblkid, buffered) looking for signatures on a device the
    replay will write (the matching may pair the replay's own read of such
    an extent with the probe's, so the probe's may be the one matched);
  - flushes: each trace flush is one fdatasync, which the block layer may
    send as a flush or not at all (nothing dirty): counted, not required.
Then, on the capture with the probe's reads removed and split pieces
rejoined: op mix within 0.5 points, size KS <= 0.02, extents matched >= 99%.
model compare's figures on the raw capture are printed (what the device
saw, splits and probe included), not checked: the splits are issue 12 item 6.
"""
import collections, json, sys

def load(path):
    out = []
    for line in open(path):
        if line.startswith('#'):
            continue
        f = line.split()
        out.append((f[4], int(f[6]), int(f[7]), f[9], int(f[0])))
    return out

trace, cap = load(sys.argv[1]), load(sys.argv[2])
cmp = json.load(open(sys.argv[3]))
want = collections.Counter((o, off, n) for o, off, n, _, _ in trace if o != 'flush')
extra = []
for rec in cap:
    k = rec[:3]
    if rec[0] == 'flush':
        continue
    if want[k] > 0:
        want[k] -= 1
    else:
        extra.append(rec)
# reassemble trace I/Os split into several bios
pieces = collections.defaultdict(list)
for rec in extra:
    pieces[(rec[0], rec[1])].append(rec)
split = 0
used = set()
for (op, off, n), left in list(want.items()):
    for _ in range(left):
        pos, got = off, []
        while pos < off + n:
            cand = [p for p in pieces.get((op, pos), []) if id(p) not in used]
            if not cand:
                break
            got.append(cand[0])
            used.add(id(cand[0]))
            pos += cand[0][2]
        if pos == off + n:
            want[(op, off, n)] -= 1
            split += 1
        else:
            for p in got:
                used.discard(id(p))
extra = [p for p in extra if id(p) not in used]
dev = int(sys.argv[4])
zone = 8 << 20
probe = [e for e in extra if e[0] == 'read' and e[3] == 'ioreel' and
         (e[1] < zone or e[1] + e[2] > dev - zone)]
pid = {id(e) for e in probe}
other = [e for e in extra if id(e) not in pid]
missing = sum(want.values())
ndata = sum(1 for r in trace if r[0] != 'flush')
matched = (ndata - missing) / ndata
tf = sum(1 for r in trace if r[0] == 'flush')
cf = sum(1 for r in cap if r[0] == 'flush')

# the replay's own I/O as the capture saw it: probe out, splits rejoined
def mix_sizes(recs):
    n = len(recs)
    reads = sum(1 for r in recs if r[0] == 'read')
    return 100.0 * reads / n, sorted(r[2] for r in recs if r[0] != 'flush')
drop = pid | used
# rejoined pieces count as the trace I/O they tile (sizes as in the trace)
rej = []
tc = collections.Counter((o, f, l) for o, f, l, _, _ in trace if o != 'flush')
mc = collections.Counter(r[:3] for r in cap if id(r) not in drop and r[0] != 'flush')
for k, v in tc.items():
    for _ in range(max(0, v - mc.get(k, 0) - want.get(k, 0))):
        rej.append(k + ('', 0))
mine = [r for r in cap if id(r) not in drop] + rej
def ks(a, b):
    import bisect
    xs = sorted(set(a) | set(b))
    return max(abs(bisect.bisect_right(a, x) / len(a) - bisect.bisect_right(b, x) / len(b))
               for x in xs)
rt, st = mix_sizes(trace)
rm, sm = mix_sizes(mine)
print(f"trace {len(trace)} I/Os ({tf} flushes), capture {len(cap)} ({cf} flushes): "
      f"{ndata - missing} of {ndata} data I/Os matched ({100 * matched:.2f}%), "
      f"{split} of them split at submission into several bios, {len(probe)} safety-probe "
      f"reads, {len(other)} unexplained extra, {missing} missing")
ksz = ks(st, sm)
print(f"replay's own I/O: read share {rm:.2f}% vs {rt:.2f}% ({rm - rt:+.3f} points), size KS "
      f"{ksz:.4f}")
print(f"raw capture (model compare): read share diff {cmp['read_diff_points']:.3f} points, "
      f"size KS {cmp['ks_size']:.4f}, inter-arrival KS {cmp['ks_interarrival']:.3f} "
      f"(not checked here: make bench)")
bad = []
if other:
    bad.append(f"{len(other)} unexplained extra I/Os, e.g. {other[:3]}")
if matched < 0.99:
    bad.append(f"extents matched {100 * matched:.2f}% < 99%")
if abs(rm - rt) > 0.5:
    bad.append(f"read share differs by {rm - rt:.3f} points > 0.5")
if ksz > 0.02:
    bad.append(f"size KS {ksz:.4f} > 0.02")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
