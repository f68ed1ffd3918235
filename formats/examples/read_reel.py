#!/usr/bin/python3
"""Read a .reel with only the lz4 and msgpack packages; print one I/O per line."""
import struct, sys, lz4.frame, msgpack
def leb(d, p):                                     # one unsigned LEB128 varint
    v = s = 0
    while True:
        v |= (d[p] & 0x7F) << s; s += 7; p += 1
        if d[p - 1] < 0x80: return v, p
def column(c, n):                                  # the n stored values (FORMAT.md 3.1)
    if not isinstance(c, (bytes, list)): return [c or 0] * n      # absent or const
    mul, d = (c[0], c[1]) if isinstance(c, list) else (1, c)
    us, p = [], 0
    while len(us) < n:
        if isinstance(c, list) and len(c) == 3: u, p = leb(d, p); us.append(u); continue  # varint
        k = min(128, n - len(us)); lo, p = leb(d, p); w = d[p]; nb = (k * w + 7) // 8    # bitpack
        bits = int.from_bytes(d[p + 1:p + 1 + nb], "little"); p += 1 + nb
        us += [lo + ((bits >> (i * w)) & ((1 << w) - 1)) for i in range(k)]
    return [((u >> 1) ^ -(u & 1)) * mul for u in us]
data, pos, frames = open(sys.argv[1], "rb").read(), 0, []
while pos < len(data):
    if struct.unpack_from("<I", data, pos)[0] & 0xFFFFFFF0 == 0x184D2A50:   # the index
        pos += 8 + struct.unpack_from("<I", data, pos + 4)[0]; continue
    d = lz4.frame.LZ4FrameDecompressor()
    frames.append(msgpack.unpackb(d.decompress(data[pos:]), raw=False, strict_map_key=False))
    pos = len(data) - len(d.unused_data)
assert frames[0]["format"] == "ioreel" and frames[0]["time_unit"] == "ns"
for ch in frames[1:]:
    n, q, end, cols = ch["n"], 0, 0, ("has", "queue", "issue", "complete", "offset", "length", "op", "dev", "pid")
    c = {k: column(ch["cols"].get(k), n) for k in cols}
    for i in range(n):                             # absent times (has bits 1, 2, 4) are 0
        h = c["has"][i]; q += c["queue"][i] if h & 1 else 0; qq = q if h & 1 else 0
        iss = qq + c["issue"][i] if h & 2 else 0; cmp = (iss if h & 2 else qq) + c["complete"][i] if h & 4 else 0
        off = (end + c["offset"][i]) % 2**64; end = off + c["length"][i]
        print(q, iss, cmp, c["op"][i], off, c["length"][i], c["dev"][i], c["pid"][i])
