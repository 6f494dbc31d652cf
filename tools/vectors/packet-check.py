#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Recompute the sealed epochs of vectors/packet.txt in Python.

A third computation of Documentation/spec.rst section 14, beside the C
generator (tools/vectors/packet-vectors.c on OpenSSL) and the portable core:
pyca/cryptography's AES-128-CTR, ChaCha20 and Poly1305, and a GHASH written
here bit by bit from SP 800-38D. For every d1-... and d2-... record it
rebuilds each packet, Z_u, tau*_{u,t}, S_{u,t} and the reservation blob from
the key blob and the plaintexts alone, and prints TAP.

    packet-check.py vectors/packet.txt

Exit 4 (a loud skip) when the cryptography package is missing.
"""
import struct
import sys
import zlib

try:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.poly1305 import Poly1305
except ImportError:
    print("TAP version 13\n1..0 # SKIP python3-cryptography is not installed")
    sys.exit(4)

GRID_FLAG = 0x20000000


def keystream(suite, key, domain, n):
    """G(key, IV_domain)[0:n], spec sections 1 and 14.3."""
    if suite == 1:
        iv = bytes([(0x00, 0x80, 0x40, 0xC0)[domain]]) + bytes(15)
        c = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
    else:
        iv = bytes(4) + bytes([domain]) + bytes(11)
        c = Cipher(algorithms.ChaCha20(key, iv), mode=None).encryptor()
    return c.update(bytes(n))


DOMAIN_RECORD, DOMAIN_EPOCH, DOMAIN_GRID = 0, 1, 3


def gf_mul(x, y):
    """GF(2^128) product in GCM's bit order (SP 800-38D, Algorithm 1)."""
    z, v = 0, y
    for i in range(127, -1, -1):
        if x >> i & 1:
            z ^= v
        v = (v >> 1) ^ (0xE1 << 120) if v & 1 else v >> 1
    return z


def ghash(h, data):
    hi, y = int.from_bytes(h, "big"), 0
    data += bytes(-len(data) % 16)
    for i in range(0, len(data), 16):
        y = gf_mul(y ^ int.from_bytes(data[i:i + 16], "big"), hi)
    return y.to_bytes(16, "big")


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def poly1305(key, msg):
    p = Poly1305(key)
    p.update(msg)
    return p.finalize()


def header(e, field, n):
    return struct.pack("<QII", e, field, n)


def record_sigma(suite, hp, e, j, c):
    if suite == 1:
        return xor(ghash(hp[:16], header(e, j, len(c)) + c), hp[16:])
    return poly1305(hp, c)


def grid_tau(suite, hp, e, t, u):
    gtb = header(e, GRID_FLAG | t << 16 | 16 * u, 0)
    if suite == 1:
        return xor(ghash(hp[:16], gtb), hp[16:])
    return poly1305(hp, gtb)


def covers(t, r):
    return r // 4 == t if t < 4 else r % 4 == t - 4


def tags_riding(r):
    return {3: [0], 7: [1], 11: [2], 12: [4], 13: [5], 14: [6], 15: [3, 7]}.get(r, [])


def blob2(b, epoch, key):
    out = bytearray(b)
    out[16:24] = struct.pack("<Q", epoch)
    out[28:28 + len(key)] = key
    out[28 + len(key):] = struct.pack("<I", zlib.crc32(bytes(out[:28 + len(key)])))
    return bytes(out)


def seal(rec):
    blob = bytes.fromhex(rec["key"][0])
    suite, bb, e = blob[5], struct.unpack_from("<I", blob, 8)[0], struct.unpack_from("<Q", blob, 16)[0]
    k = 16 if suite == 1 else 32
    a, addr = int(rec["a"][0]), int(rec["addr"][0], 16)
    x = keystream(suite, blob[28:28 + k], DOMAIN_EPOCH, 2 * k)
    nxt, r = x[:k], x[k:]
    pkts, units = [], []
    acc = None
    for line in rec["rec"]:
        j, n, pt = line.split(" ") if line.count(" ") == 2 else line.split(" ") + [""]
        j, n, pt = int(j), int(n), bytes.fromhex(pt)
        u, rr = divmod(j, 16)
        if rr == 0:
            z = keystream(suite, r, DOMAIN_GRID, 256)
            tau = [grid_tau(suite, z[32 * t:32 * t + 32], e, t, u) for t in range(8)]
            acc = list(tau)
            units.append((z, tau, acc))
        y = keystream(suite, r, DOMAIN_RECORD, k + 32 + len(pt))
        r, hp, ks = y[:k], y[k:k + 32], y[k + 32:]
        c = xor(pt, ks)
        sigma = record_sigma(suite, hp, e, j, c)
        for t in range(8):
            if covers(t, rr):
                acc[t] = xor(acc[t], sigma)
        p = addr.to_bytes(a, "little") + bytes([(0x40 if n else 0) | j % 64])
        if n:
            p += struct.pack("<I", e & 0xFFFFFFFF)
        p += c + b"".join(acc[t][:12] for t in tags_riding(rr))
        pkts.append(p)
    return pkts, units, blob2(blob, e + 1, nxt), bb


def read_records(path):
    rec = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line:
                if rec:
                    yield rec
                rec = {}
                continue
            name, _, value = line.partition("=")
            rec.setdefault(name.strip(), []).append(value.strip())
    if rec:
        yield rec


def main():
    if len(sys.argv) != 2:
        print("usage: packet-check.py vectors/packet.txt", file=sys.stderr)
        return 2
    results = []
    for rec in read_records(sys.argv[1]):
        name = rec["name"][0]
        if not (name.startswith("d1-") or name.startswith("d2-")):
            continue
        pkts, units, nxt, b = seal(rec)
        ok = [bytes.fromhex(p) for p in rec["pkt"]] == pkts and len(pkts) == b
        ok = ok and bytes.fromhex(rec["next"][0]) == nxt
        for u, (z, tau, s) in enumerate(units):
            ok = ok and rec["z"][u] == "%d %s" % (u, z.hex())
            ok = ok and rec["tau"][u] == "%d %s" % (u, b"".join(tau).hex())
            ok = ok and rec["tags"][u] == "%d %s" % (u, b"".join(s).hex())
        results.append((ok, "%s: %d packets, Z_u, tau*, S and next recomputed" % (name, len(pkts))))
    print("TAP version 13\n1..%d" % len(results))
    for i, (ok, what) in enumerate(results, 1):
        print("%sok %d %s" % ("" if ok else "not ", i, what))
    return 0 if results and all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
