#!/usr/bin/python3
"""Independent reference for the import tests: reads a source trace the
simple way and prints the CSV that `ioreel export --to csv` must produce
after `ioreel import` (same header, same field conventions).  Deliberately
written without sharing anything with formats/import_*.c.

usage: import_ref.py FMT FILE [TIME_UNIT_NS] [LBA_SIZE]
"""
import sys
from decimal import Decimal

fmt, path = sys.argv[1], sys.argv[2]
unit = int(sys.argv[3]) if len(sys.argv) > 3 else 1000000
lbs = int(sys.argv[4]) if len(sys.argv) > 4 else 512
rows = []  # (time_ns, fields...)
devs = {}  # source device key -> id, assigned like the importers do


def dev_pref(key, num):
    """id = the number when free, else the lowest free id."""
    if key not in devs:
        used = set(devs.values())
        i = num if num < 65536 and num not in used else 0
        while i in used:
            i += 1
        devs[key] = i
    return devs[key]


def dev_order(key):
    if key not in devs:
        used = set(devs.values())
        i = 0
        while i in used:
            i += 1
        devs[key] = i
    return devs[key]


def row(q, c, op, dev, off, ln, pid="", comm=""):
    """q, c: raw times in ns; time zero (the earliest) is subtracted at the end"""
    rows.append((q, c, [op, "", str(dev), str(off), str(ln), str(pid), comm, "", ""]))


lines = [l.rstrip("\r\n") for l in open(path)]
t0 = None
if fmt == "msr":
    for l in lines:
        f = [x.strip() for x in l.split(",")]
        if not f[0].isdigit():
            continue
        ts, host, disk, typ, off, size, rt = f
        ts = int(ts)
        t0 = ts if t0 is None else t0
        q = (ts - t0) * 100
        row(q, q + int(rt) * 100, typ.lower(), dev_pref((host, int(disk)), int(disk)),
            int(off), int(size))
elif fmt == "fiu":
    for l in lines:
        f = l.split()
        ts, pid, comm, lba, size, rw, ma, mi = f[:8]
        t0 = int(ts) if t0 is None else t0
        row(int(ts) - t0, None, "read" if rw == "R" else "write",
            dev_order((int(ma), int(mi))), int(lba) * 512, int(size) * 512, pid, comm)
elif fmt == "disksim":
    for l in lines:
        t, devno, lba, size, flags = l.split()
        t = int(Decimal(t) * unit)
        t0 = t if t0 is None else t0
        row(t - t0, None, "read" if int(flags) & 1 else "write",
            dev_pref(int(devno), int(devno)), int(lba) * 512, int(size) * 512)
elif fmt == "fio":
    v3 = lines[0].startswith("fio version 3")
    now = 0
    ops = {"read": "read", "write": "write", "trim": "discard",
           "sync": "flush", "datasync": "flush"}
    for l in lines[1:]:
        f = l.split()
        if not f:
            continue
        if v3:
            now = int(f[0]) * 1000
            f = f[1:]
        if f[1] == "wait":
            now += int(f[2]) * 1000
            continue
        if f[1] == "add":
            dev_order(f[0])
        if f[1] not in ops:
            continue
        t0 = now if t0 is None else t0
        off, ln = (0, 0) if ops[f[1]] == "flush" else (int(f[2]), int(f[3]))
        row(now - t0, None, ops[f[1]], dev_order(f[0]), off, ln)
elif fmt == "spc":
    for l in lines:
        f = [x.strip() for x in l.split(",")]
        if not f[0].isdigit():
            continue
        t = int(Decimal(f[4]) * 1000000000)
        t0 = t if t0 is None else t0
        row(t - t0, None, "read" if f[3].lower() == "r" else "write",
            dev_pref(int(f[0]), int(f[0])), int(f[1]) * lbs, int(f[2]))
elif fmt == "alibaba":
    for l in lines:
        f = [x.strip() for x in l.split(",")]
        if not f[0].isdigit():
            continue
        t = int(f[4]) * 1000
        t0 = t if t0 is None else t0
        row(t - t0, None, "read" if f[1].upper() == "R" else "write",
            dev_pref(int(f[0]), int(f[0])), int(f[2]), int(f[3]))
elif fmt == "tencent":
    for l in lines:
        f = [x.strip() for x in l.split(",")]
        if not f[0][:1].isdigit():
            continue
        t = int(Decimal(f[0]) * 1000000000)
        t0 = t if t0 is None else t0
        row(t - t0, None, "read" if f[3] == "0" else "write",
            dev_pref(int(f[4]), int(f[4])), int(f[1]) * 512, int(f[2]) * 512)
else:
    sys.exit("unknown format " + fmt)

rows.sort(key=lambda r: r[0])  # stable: ties keep the file's order
print("queue_ns,issue_ns,complete_ns,op,flags,dev,offset,length,pid,comm,cpu,error")
z = rows[0][0] if rows else 0
for q, c, f in rows:
    print(",".join([str(q - z), "", "" if c is None else str(c - z)] + f))
