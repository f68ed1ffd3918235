#!/bin/bash
# ioreel compare on real replays (loop device) that differ only in data mode
# and in queue depth: the "% of max" column and the QD scaling table, with
# values recomputed here from each run's own records (ioreel dump) and
# summary (ioreel info --json); the self-contained HTML report rendered by
# headless Chromium shows its tables and every plot (no broken image, no
# blank page, nothing fetched from the network).
. "$TOP/tests/lib.sh"
. "$TOP/tests/cli/plots_lib.bash"
need_root
command -v gnuplot >/dev/null || skip "gnuplot not installed (apt-get install gnuplot-nox)"
plots_trace
make_loop "$T/disk.img" 64
plots_replay "$T/q4-ratio.reel" --qd 4 --data ratio:2
plots_replay "$T/q4-random.reel" --qd 4 --data random
plots_replay "$T/q1-ratio.reel" --qd 1 --data ratio:2
runs="$T/q4-ratio.reel $T/q4-random.reel $T/q1-ratio.reel"

"$IOREEL" compare $runs >"$T/table.txt" || fail "ioreel compare"
"$IOREEL" compare --json $runs >"$T/cmp.json" || fail "ioreel compare --json"
for r in $runs; do
	"$IOREEL" dump "$r" >"$r.dump" || fail "dump $r"
	"$IOREEL" info --json "$r" >"$r.info" || fail "info $r"
done
cat "$T/table.txt"
/usr/bin/python3 - "$T/cmp.json" "$T/table.txt" $runs <<'PY' || fail "compare's figures disagree with the runs' own"
import json, re, sys
cmp = json.load(open(sys.argv[1]))
table = open(sys.argv[2]).read()
paths = sys.argv[3:]
ok = True
def bad(msg):
    global ok
    ok = False
    print("MISMATCH:", msg)

# each run, recomputed from its records: bytes per op over first issue ->
# last completion
mine = []
for i, p in enumerate(paths):
    rb = wb = rn = wn = 0
    t0, t1 = None, None
    for line in open(p + ".dump"):
        if line.startswith('#'):
            continue
        q, iss, c, dev, op, fl, off, ln = line.split()[:8]
        iss, c, ln = int(iss), int(c), int(ln)
        t0 = iss if t0 is None else min(t0, iss)
        t1 = c if t1 is None else max(t1, c)
        if op == 'read':
            rb += ln; rn += 1
        elif op in ('write', 'write-zeroes'):
            wb += ln; wn += 1
    span = (t1 - t0) / 1e9
    info = json.load(open(p + ".info"))
    if info["ops"]["read"]["bytes"] != rb or info["ops"]["write"]["bytes"] != wb:
        bad(f"{p}: dump bytes {rb}/{wb} vs info summary {info['ops']}")
    run = cmp["runs"][i]
    if run["read_bytes"] != rb or run["write_bytes"] != wb:
        bad(f"{p}: compare bytes {run['read_bytes']}/{run['write_bytes']} vs {rb}/{wb}")
    m = {"read_mbps": rb / 1e6 / span, "write_mbps": wb / 1e6 / span,
         "mbps": (rb + wb) / 1e6 / span, "iops": (rn + wn) / span}
    for k, v in m.items():
        if abs(run[k] - v) > 1e-4 * max(v, 1e-9):
            bad(f"{p}: {k} {run[k]} vs recomputed {v}")
    # latency percentiles: the same histograms as ioreel info
    if abs(run["p99_us"] * 1e3 - info["latency_ns"]["all"]["p99"]) > 1 + 1e-6 * info["latency_ns"]["all"]["p99"]:
        bad(f"{p}: p99 {run['p99_us']} us vs info {info['latency_ns']['all']['p99']} ns")
    mine.append(m)

# data mode: one group (qd 4: ratio:2, random), values and % of max
dm = cmp["data_mode"]
if len(dm) != 1:
    bad(f"expected one data-mode group, got {len(dm)}")
else:
    for metric in dm[0]["metrics"]:
        k = metric["metric"]
        modes = metric["modes"]
        if [x["mode"] for x in modes] != ["ratio:2", "random"]:
            bad(f"modes {modes}")
        vals = [mine[x["run"]][k] for x in modes]
        mx = max(vals)
        for x, v in zip(modes, vals):
            if abs(x["value"] - v) > 1e-4 * v or abs(x["pct_of_max"] - 100 * v / mx) > 1e-3:
                bad(f"{k} {x} vs recomputed {v} ({100 * v / mx:.3f}% of max)")
        print(f"data mode {k}: " + ", ".join(f"{x['mode']} {x['value']:.1f} = {x['pct_of_max']:.1f}% of max" for x in modes))
    # the printed table: header and the MB/s row as recomputed, to 0.1
    blk = table.split("Data mode")[1].split("\n\n")[0]
    if "ratio:2 % of max" not in blk or "random % of max" not in blk:
        bad("no '% of max' columns in the printed table")
    row = [l for l in blk.splitlines() if l.startswith("MB/s")][0].split()
    v = [mine[x["run"]]["mbps"] for x in dm[0]["metrics"][0]["modes"]]
    want = [v[0], v[1], 100 * v[0] / max(v), 100 * v[1] / max(v)]
    got = [float(x.rstrip('%')) for x in row[1:5]]
    for g, w in zip(got, want):
        if abs(g - w) > 0.051:
            bad(f"printed MB/s row {row} vs recomputed {want}")
# QD scaling: one group (ratio:2: qd 1, 4), rows in QD order
qs = cmp["qd_scaling"]
if len(qs) != 1 or [r["qd"] for r in qs[0]["rows"]] != ["1", "4"]:
    bad(f"qd scaling groups {qs}")
else:
    r1, r4 = qs[0]["rows"]
    x = mine[r4["run"]]["mbps"] / mine[r1["run"]]["mbps"]
    if abs(r4["x_first"] - x) > 1e-4 * x:
        bad(f"qd scaling {r4['x_first']} vs {x}")
    print(f"qd scaling: qd 4 = {x:.2f}x qd 1")
if "Queue depth scaling" not in table:
    bad("no QD scaling table printed")
# % of best: the best run is 100%
best = max(m["mbps"] for m in mine)
for run, m in zip(cmp["runs"], mine):
    if abs(run["pct_of_best"] - 100 * m["mbps"] / best) > 1e-3:
        bad(f"pct_of_best {run['pct_of_best']} vs {100 * m['mbps'] / best}")
sys.exit(0 if ok else 1)
PY

# the report
"$IOREEL" compare $runs -o "$T/rep" >/dev/null || fail "ioreel compare -o"
for f in report.md report.html; do
	[ -s "$T/rep/$f" ] || fail "$f missing"
done
nsvg=$(ls "$T/rep"/*.svg | wc -l)
# 6: as fast as possible, there is no schedule, so no issue-error plot
[ "$nsvg" -eq 6 ] || fail "expected 6 plots, got $nsvg"
for s in "$T/rep"/*.svg; do
	grep -qF "]($(basename "$s"))" "$T/rep/report.md" || fail "report.md does not show $(basename "$s")"
done
grep -q "% of max" "$T/rep/report.md" || fail "report.md lacks the data mode table"
# self-contained: nothing to fetch (the only URLs are XML namespaces)
if grep -Eo '(src|href)="[^"#][^"]*"' "$T/rep/report.html" | grep -v '^href="http://www.w3.org' | grep -q .; then
	fail "report.html refers to outside resources: $(grep -Eo '(src|href)="[^"#][^"]*"' "$T/rep/report.html" | head -3)"
fi
grep -qi "<script" "$T/rep/report.html" && fail "report.html carries scripts"

[ -x /usr/bin/chromium ] || skip "all but the browser check passed: /usr/bin/chromium absent (apt-get install chromium)"
chrome() {
	local u
	u=$(mktemp -d "$T/chrome.XXXXXX")
	timeout 90 /usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$u" "$@" "file://$T/rep/report.html" 2>>"$T/chrome.log"
}
chrome --dump-dom >"$T/dom.html" || { tail "$T/chrome.log"; fail "chromium --dump-dom"; }
chrome --screenshot="$T/shot.png" --window-size=1280,2400 --force-device-scale-factor=0.5 >/dev/null || { tail "$T/chrome.log"; fail "chromium --screenshot"; }
/usr/bin/python3 - "$T/dom.html" "$T/shot.png" 3 "$nsvg" <<'PY' || fail "the rendered report is incomplete"
import re, struct, sys, zlib
from html.parser import HTMLParser
dom, shot, nruns, nsvg = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.stack = []; s.tables = []; s.svgs = []; s.imgs = 0
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == 'table':
            s.tables.append({'class': a.get('class'), 'rows': 0, 'cells': []})
        elif tag == 'tr' and s.tables:
            s.tables[-1]['rows'] += 1
        elif tag == 'svg':
            s.svgs.append({'w': a.get('width'), 'h': a.get('height'), 'shapes': 0, 'text': 0})
        elif tag in ('path', 'polyline', 'polygon', 'rect', 'line', 'circle', 'use') and s.svgs:
            s.svgs[-1]['shapes'] += 1
        elif tag == 'img':
            s.imgs += 1
    def handle_data(s, d):
        if s.svgs and d.strip():
            s.svgs[-1]['text'] += 1
p = P(); p.feed(open(dom).read())
ok = True
runs = [t for t in p.tables if t['class'] == 'runs']
if not runs or runs[0]['rows'] != nruns + 1:
    print("runs table rows:", runs); ok = False
if not any(t['class'] == 'datamode' for t in p.tables):
    print("no data mode table in the DOM"); ok = False
if len(p.svgs) < nsvg:
    print(f"{len(p.svgs)} inline svg of {nsvg}"); ok = False
for i, s in enumerate(p.svgs):
    if s['shapes'] < 20 or s['text'] < 5:
        print("empty svg", i, s); ok = False
if p.imgs:
    print(p.imgs, "<img> elements (could be broken)"); ok = False

# the screenshot: a real PNG, not one flat colour
b = open(shot, 'rb').read()
assert b[:8] == b'\x89PNG\r\n\x1a\n'
w, h, depth, ctype = struct.unpack('>IIBB', b[16:26])
pos, idat = 8, b''
while pos < len(b):
    n, t = struct.unpack('>I4s', b[pos:pos + 8])
    if t == b'IDAT':
        idat += b[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
bpp = {2: 3, 6: 4}.get(ctype, 1)
stride = w * bpp + 1
# unfilter enough rows to count colours (filters 0-4)
prev = bytearray(stride - 1); colours = set(); rows_nonwhite = 0
for y in range(h):
    f = raw[y * stride]; line = bytearray(raw[y * stride + 1:(y + 1) * stride])
    for x in range(len(line)):
        a = line[x - bpp] if x >= bpp else 0; up = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + up) & 255
        elif f == 3: line[x] = (line[x] + (a + up) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(up - c), abs(a - c), abs(a + up - 2 * c)
            pr = a if pa <= pb and pa <= pc else (up if pb <= pc else c)
            line[x] = (line[x] + pr) & 255
    prev = line
    if y % 8 == 0:
        px = {bytes(line[i:i + 3]) for i in range(0, len(line), bpp * 4)}
        colours |= px
        if len(px) > 1:
            rows_nonwhite += 1
print(f"screenshot {w}x{h}: {len(colours)} colours, {rows_nonwhite} of {h // 8 + 1} sampled rows not flat")
if len(colours) < 10 or rows_nonwhite < (h // 8) // 4:
    print("screenshot looks blank"); ok = False
print(f"DOM: runs table {runs[0]['rows'] if runs else 0} rows, {len(p.svgs)} inline svg, each with shapes and text")
sys.exit(0 if ok else 1)
PY
echo "ok: compare figures match the runs' records; report rendered with its tables and $nsvg plots"
