#!/usr/bin/env python3
"""capture(replay(T)) ~ T, counted and attributed:
    replay_roundtrip.py TRACE.dump CAPTURE.dump COMPARE.json [DEVICE]
    replay_roundtrip.py --kv TRACE.dump CAPTURE.dump

Every captured I/O beyond the trace's, and every trace I/O not captured, is
put in one of these classes, or the check fails:
  - before the replay's first I/O (the first captured record with the op,
    offset and length of the trace's first data I/O and followed by the
    trace's next ones: see replay_start): nothing of the replay
    is issued then, so these are the safety probe's reads (libblkid,
    buffered, start and end of a device the replay will write; ioreel
    replay only), its warm-up read (4 KiB at offset 0 of each target, just
    before time zero) or anything else on the device before the replay
    began;
  - a trace I/O the replay submitted as one request that arrived as several
    bios (pieces that tile it exactly, same op): the kernel's direct-I/O path
    puts at most 256 segments in a bio (BIO_MAX_VECS), so a buffer of
    scattered 4 KiB pages makes bios of at most 1 MiB (fio's buffers;
    ioreel's are in 2 MiB huge pages and make none: cli/replay_split); the
    block layer's own splits (max_sectors_kb, max_segments) are joined back
    by the capture;
  - flushes: each trace flush is one fdatasync, which the block layer may
    send as a flush or not at all (nothing dirty): counted, not required.
Then, on the capture from the replay's first I/O on, split pieces rejoined:
op mix within 0.5 points, size KS <= 0.02, extents matched >= 99%.
model compare's figures on the raw capture are printed (what the device
saw, probe and splits included), not checked.

--kv prints the counts as "key value" lines (for tests/bench/replay.sh):
start_ns (queue time of the replay's first I/O in the capture, -1 if not
found), before, split_ios, split_extra, flush_diff, unexplained, missing.

--splits prints the trace I/Os that arrived as several bios, one a line:
"op offset length pieces" (for tests/cli/replay_split.sh).
"""
import bisect, collections, json, os, sys

def load(path):
    out = []
    for line in open(path):
        if line.startswith('#'):
            continue
        f = line.split()
        out.append((f[4], int(f[6]), int(f[7]), f[9], int(f[0])))
    out.sort(key=lambda r: r[4])
    return out

def replay_start(data, cap, k=8):
    """Queue time of the replay's first I/O in the capture: the first record
    with the op, offset and length of the trace's first data I/O that the
    trace's next ones follow (at least 3/4 of the K captured records from it
    are among the trace's first 2K; the safety probe may read the same
    extent first, as on a trace that begins by reading sector 0), or None."""
    if not data:
        return None
    head = collections.Counter(r[:3] for r in data[:2 * k])
    n = min(k, len(data))
    for i, r in enumerate(cap):
        if r[:3] != data[0][:3]:
            continue
        got = head.copy()
        hit = 0
        for q in cap[i:i + n]:
            if got[q[:3]] > 0:
                got[q[:3]] -= 1
                hit += 1
        if 4 * hit >= 3 * n:
            # the trace's first extent read once more just before the replay
            # (its warm-up read; the probe may read it too): the replay's
            # own copies are the last as many as the trace begins with
            m = next((j for j, q in enumerate(data) if q[:3] != r[:3]), len(data))
            c = next((j for j, q in enumerate(cap[i:]) if q[:3] != r[:3]), len(cap) - i)
            return cap[i + max(c - m, 0)][4]
    return None

def attribute(trace, cap):
    """The classes above, as a dict."""
    data = [r for r in trace if r[0] != 'flush']
    start = replay_start(data, [r for r in cap if r[0] != 'flush'])
    before = [r for r in cap if start is not None and r[4] < start]
    after = [r for r in cap if start is None or r[4] >= start]
    want = collections.Counter(r[:3] for r in data)
    extra = []
    for rec in after:
        if rec[0] == 'flush':
            continue
        if want[rec[:3]] > 0:
            want[rec[:3]] -= 1
        else:
            extra.append(rec)
    pieces = collections.defaultdict(list)
    for rec in extra:
        pieces[(rec[0], rec[1])].append(rec)
    used, splits = set(), []
    for (op, off, n), left in sorted(want.items()):
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
                splits.append(((op, off, n), got))
            else:
                for p in got:
                    used.discard(id(p))
    return {
        'start': start, 'before': before, 'after': after, 'splits': splits, 'used': used,
        'other': [p for p in extra if id(p) not in used], 'missing': sum(want.values()),
        'ndata': len(data), 'flush_diff': sum(1 for r in after if r[0] == 'flush') -
        sum(1 for r in trace if r[0] == 'flush')
    }

def ks(a, b):
    xs = sorted(set(a) | set(b))
    return max(abs(bisect.bisect_right(a, x) / len(a) - bisect.bisect_right(b, x) / len(b))
               for x in xs)

def mix_sizes(recs):
    reads = sum(1 for r in recs if r[0] == 'read')
    return 100.0 * reads / len(recs), sorted(r[2] for r in recs if r[0] != 'flush')

def limits(dev):
    q = f"/sys/class/block/{os.path.basename(dev)}/queue/"
    out = []
    for k in ('max_sectors_kb', 'max_segments', 'max_segment_size'):
        try:
            out.append(f"{k} {open(q + k).read().strip()}")
        except OSError:
            pass
    return ", ".join(out)

def describe(a, trace, cap, dev):
    extra = len(cap) - len(trace)
    sx = sum(len(g) - 1 for _, g in a['splits'])
    print(f"trace {len(trace)} I/Os, capture {len(cap)}: {extra:+d} =")
    b = a['before']
    if b:
        kib = sum(r[2] for r in b) >> 10
        lead = (a['start'] - b[0][4]) / 1e6
        who = collections.Counter(r[3] for r in b)
        ops = collections.Counter(r[0] for r in b)
        print(f"  {len(b):+d} before the replay's first I/O ({dict(ops)}, {kib} KiB, by "
              f"{dict(who)}, from {lead:.1f} ms before it): the safety probe (libblkid) "
              f"and the warm-up read")
    else:
        print("  +0 before the replay's first I/O")
    if a['splits']:
        big = collections.Counter(len(g) for _, g in a['splits'])
        top = max(p[2] for _, g in a['splits'] for p in g) >> 10
        mib = sum(1 for _, g in a['splits'] for p in g if p[2] == 1 << 20)
        print(f"  {sx:+d} from {len(a['splits'])} I/Os that arrived as several bios "
              f"(pieces per I/O: {dict(sorted(big.items()))}; largest piece {top} KiB, "
              f"{mib} of exactly 1 MiB = 256 x 4 KiB pages, BIO_MAX_VECS); device {limits(dev)}")
    else:
        print("  +0 from I/Os split at submission")
    print(f"  {a['flush_diff']:+d} flushes (captured minus trace)")
    print(f"  {len(a['other']):+d} unexplained, {-a['missing']:+d} missing")

def check(a, trace, cap, cmp):
    drop = a['used'] | {id(r) for r in a['before']}
    mine = [r for r in cap if id(r) not in drop] + [k + ('', 0) for k, _ in a['splits']]
    rt, st = mix_sizes(trace)
    rm, sm = mix_sizes(mine)
    matched = (a['ndata'] - a['missing']) / a['ndata']
    ksz = ks(st, sm)
    print(f"replay's own I/O: {a['ndata'] - a['missing']} of {a['ndata']} data I/Os matched "
          f"({100 * matched:.2f}%), read share {rm:.2f}% vs {rt:.2f}% ({rm - rt:+.3f} points), "
          f"size KS {ksz:.4f}")
    print(f"raw capture (model compare): read share diff {cmp['read_diff_points']:.3f} points, "
          f"size KS {cmp['ks_size']:.4f}, inter-arrival KS {cmp['ks_interarrival']:.3f} "
          f"(not checked here: make bench)")
    bad = []
    if a['start'] is None:
        bad.append("the trace's first I/O is not in the capture")
    if a['other']:
        bad.append(f"{len(a['other'])} unexplained extra I/Os, e.g. {a['other'][:3]}")
    if any(r[0] != 'read' for r in a['before']):
        bad.append("I/O other than reads before the replay's first I/O")
    if matched < 0.99:
        bad.append(f"extents matched {100 * matched:.2f}% < 99%")
    if abs(rm - rt) > 0.5:
        bad.append(f"read share differs by {rm - rt:.3f} points > 0.5")
    if ksz > 0.02:
        bad.append(f"size KS {ksz:.4f} > 0.02")
    for b in bad:
        print("FAIL:", b)
    return bad

def main(argv):
    if argv[1] == '--kv':
        trace, cap = load(argv[2]), load(argv[3])
        a = attribute(trace, cap)
        print("start_ns", a['start'] if a['start'] is not None else -1)
        print("before", len(a['before']))
        print("split_ios", len(a['splits']))
        print("split_extra", sum(len(g) - 1 for _, g in a['splits']))
        print("flush_diff", a['flush_diff'])
        print("unexplained", len(a['other']))
        print("missing", a['missing'])
        return 0
    if argv[1] == '--splits':
        for (op, off, n), g in attribute(load(argv[2]), load(argv[3]))['splits']:
            print(op, off, n, len(g))
        return 0
    trace, cap = load(argv[1]), load(argv[2])
    cmp = json.load(open(argv[3]))
    a = attribute(trace, cap)
    describe(a, trace, cap, argv[4] if len(argv) > 4 else '')
    return 1 if check(a, trace, cap, cmp) else 0

sys.exit(main(sys.argv))
