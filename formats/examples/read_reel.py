#!/usr/bin/python3
"""Read a .reel with only the lz4 and msgpack packages; print one I/O per line."""
import struct, sys, lz4.frame, msgpack
COLS = ["has", "queue", "issue", "complete", "offset", "length", "op", "flags",
        "dev", "pid", "comm", "cpu", "error"]
def column(c, n):
    if c is None: return [0] * n
    if c["enc"] == "const": return [c["v"]] * n
    out, v, s, mul = [], 0, 0, c.get("mul", 1)
    for b in c["data"]:
        v |= (b & 0x7F) << s; s += 7
        if not b & 0x80: out.append(((v >> 1) ^ -(v & 1)) * mul); v = s = 0
    assert len(out) == n, "count disagrees"
    return out
data, pos, frames = open(sys.argv[1], "rb").read(), 0, []
while pos < len(data):
    if struct.unpack_from("<I", data, pos)[0] & 0xFFFFFFF0 == 0x184D2A50:   # index
        pos += 8 + struct.unpack_from("<I", data, pos + 4)[0]; continue
    d = lz4.frame.LZ4FrameDecompressor()
    frames.append(msgpack.unpackb(d.decompress(data[pos:]), raw=False, strict_map_key=False))
    pos = len(data) - len(d.unused_data)
assert frames[0]["format"] == "ioreel" and frames[0]["time_unit"] == "ns"
for ch in frames[1:]:
    n = ch["n"]; c = {k: column(ch["cols"].get(k), n) for k in COLS}; q = end = 0
    for i in range(n):
        q += c["queue"][i]; iss = q + c["issue"][i]; cmp = iss + c["complete"][i]
        off = (end + c["offset"][i]) % 2**64; end = off + c["length"][i]
        print(q, iss, cmp, c["op"][i], off, c["length"][i], c["dev"][i], c["pid"][i])
