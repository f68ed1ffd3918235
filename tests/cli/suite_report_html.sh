#!/bin/bash
# The report in headless Chromium: every chart is an inlined PNG that
# decodes to a non-blank image, the verdict rows are present, and a
# screenshot renders.
. "$TOP/tests/cli/suite_lab.inc"
command -v chromium >/dev/null || skip "chromium absent (apt-get install chromium)"
make_shm_loop 32; A=$LOOP
make_shm_loop 32; B=$LOOP
cat >"$T/p.plan" <<PLAN
[global]
qd=1,8
data=random,zero
timing=afap
states=empty
repeats=2
min-busy=0.1
[compile]
trace=$TOP/traces/compile.reel
PLAN
"$IOREEL" suite "$T/p.plan" --drive left="$A" --drive right="$B" -o "$T/out" >"$T/stdout" \
	2>"$T/stderr" || { cat "$T/stderr"; fail "suite failed"; }
chrome() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$(mktemp -d "$T/chrome.XXXXXX")" "$@" 2>>"$T/chrome.err"
}
chrome --dump-dom "file://$T/out/report.html" >"$T/dom.html" || fail "chromium --dump-dom failed"
chrome --screenshot="$T/shot.png" --window-size=1200,3000 "file://$T/out/report.html" >/dev/null ||
	fail "chromium --screenshot failed"
[ -s "$T/shot.png" ] || fail "no screenshot"
python3 - "$T/dom.html" "$T/out/summary.json" <<'PY' || exit 1
import base64, json, re, struct, sys, zlib
dom = open(sys.argv[1]).read()
s = json.load(open(sys.argv[2]))
imgs = re.findall(r'<img class="chart"[^>]*src="data:image/png;base64,([^"]+)"', dom)
want = 8  # 5 headline bars, nines, over time, QD, data modes
if len(imgs) < want:
    sys.exit(f"FAIL: {len(imgs)} charts in the DOM, expected {want}")
for i, b in enumerate(imgs):
    png = base64.b64decode(b)
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"FAIL: chart {i} is not a PNG")
    w, h = struct.unpack(">II", png[16:24])
    # decode the pixels: a chart is not blank when it has many distinct bytes
    idat = b"".join(png[p + 8:p + 8 + struct.unpack(">I", png[p:p + 4])[0]]
                    for p in [m.start() - 4 for m in re.finditer(b"IDAT", png)])
    raw = zlib.decompress(idat)
    if w < 300 or h < 150 or len(set(raw)) < 20:
        sys.exit(f"FAIL: chart {i} ({w}x{h}) looks blank")
rows = re.findall(r'<tr class="verdict">', dom)
cells = len(s["cells"])
if len(rows) != cells or cells != 4:
    sys.exit(f"FAIL: {len(rows)} verdict rows for {cells} cells")
for h in ("Verdicts", "Drives", "Drive states", "Charts", "Results", "Method", "Plan"):
    if f"<h2>{h}" not in dom:
        sys.exit(f"FAIL: no section {h}")
for name in ("left", "right"):
    if name not in dom:
        sys.exit(f"FAIL: drive name {name} absent")
if 'src="data:image/png;base64,' not in dom or "over time" not in dom:
    sys.exit("FAIL: no chart over time")
print(f"{len(imgs)} charts, {len(rows)} verdict rows")
PY
exit 0
