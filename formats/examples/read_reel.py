#!/usr/bin/python3
"""Read a .reel with only the lz4 and msgpack packages; print one I/O per line."""
import struct, sys, lz4.frame, msgpack
def column(c, n):                                  # the n stored values (FORMAT.md 3.1)
    if c is None or c["enc"] == "const": return [c["v"] if c else 0] * n
    d, out, p, mul = c["data"], [], 0, c.get("mul", 1)
    while len(out) < n:                            # bitpack: mini-blocks of 128
        k, lo, s = min(128, n - len(out)), 0, 0
        while d[p] & 0x80: lo |= (d[p] & 0x7F) << s; s += 7; p += 1
        lo |= d[p] << s; w = d[p + 1]; nb = (k * w + 7) // 8
        bits = int.from_bytes(d[p + 2:p + 2 + nb], "little"); p += 2 + nb
        for i in range(k):
            u = lo + ((bits >> (i * w)) & ((1 << w) - 1)); out.append(((u >> 1) ^ -(u & 1)) * mul)
    return out
data, pos, frames = open(sys.argv[1], "rb").read(), 0, []
while pos < len(data):
    if struct.unpack_from("<I", data, pos)[0] & 0xFFFFFFF0 == 0x184D2A50:   # the index
        pos += 8 + struct.unpack_from("<I", data, pos + 4)[0]; continue
    d = lz4.frame.LZ4FrameDecompressor()
    frames.append(msgpack.unpackb(d.decompress(data[pos:]), raw=False, strict_map_key=False))
    pos = len(data) - len(d.unused_data)
assert frames[0]["format"] == "ioreel" and frames[0]["time_unit"] == "ns"
for ch in frames[1:]:
    n, q, end, cols = ch["n"], 0, 0, ("queue", "issue", "complete", "offset", "length", "op", "dev", "pid")
    c = {k: column(ch["cols"].get(k), n) for k in cols}
    for i in range(n):
        q += c["queue"][i]; iss = q + c["issue"][i]; cmp = iss + c["complete"][i]
        off = (end + c["offset"][i]) % 2**64; end = off + c["length"][i]
        print(q, iss, cmp, c["op"][i], off, c["length"][i], c["dev"][i], c["pid"][i])
