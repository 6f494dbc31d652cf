#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Helpers of fleet-packet.sh (check-fleet): packet files (each packet
after a 1-byte length, as seal --packet writes them and lossy-link
--packets passes them on), their lockstep replay into forward --packet
--udp, and what the readings and events topics received.

  fleet_packets.py interleave OUT FILE...  the packets of the FILEs
                                      round-robin (one file per device)
  fleet_packets.py replay SENT DELAY PORT=FILE...  for each packet of
                                      SENT in order, one datagram to every
                                      PORT whose FILE (SENT through a
                                      link with loss only) has it next;
                                      DELAY seconds between packets
  fleet_packets.py semtech PORT FILE   FILE's packets to a packet
                                      forwarder port as a LoRa gateway
                                      sends them (Semtech GWMP v2
                                      PUSH_DATA, 4 rxpk each); prints
                                      "push_acks N of M"
  fleet_packets.py model SENT BASE FILE...  the records of SENT (each
                                      device's first at position BASE of
                                      its stream) that the grid releases
                                      from the union of the FILEs (spec
                                      14.3: a row's or a column's tag with
                                      its four records): "released N of M"
  fleet_packets.py check SUB B BASE D:AA,... SENT SHARDS FILE...
                                      mosquitto_sub -v output against the
                                      model over the FILEs (devices D at
                                      addresses AA, hex): "distinct N
                                      dups N wrong N extra N missing N
                                      topic N lostrel N" (data must be
                                      "dD rK", K = epoch * B + index; topic
                                      counts readings not on
                                      P/readings/<addr mod SHARDS>/<dev>;
                                      lostrel records both released and
                                      named lost)
"""
import json
import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fleet  # noqa: E402  (its lockstep replay)


def packets(path):
    data = open(path, 'rb').read()
    out, at = [], 0
    while at < len(data):
        n = data[at]
        if n:
            out.append(data[at + 1:at + 1 + n])
        at += 1 + n
    return out


def interleave(out, paths):
    lists = [packets(p) for p in paths]
    with open(out, 'wb') as o:
        for i in range(max(len(x) for x in lists)):
            for x in lists:
                if i < len(x):
                    o.write(bytes([len(x[i])]) + x[i])


def semtech(port, path):
    import base64
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(5)
    eui = bytes.fromhex('aa555a0000000034')
    pl = packets(path)
    acks = 0
    for i in range(0, len(pl), 4):
        rxpk = [{'tmst': 2000 + k, 'freq': 868.3, 'chan': 1, 'rfch': 0,
                 'stat': 1, 'modu': 'LORA', 'datr': 'SF7BW125',
                 'codr': '4/5', 'rssi': -61, 'lsnr': 7.5, 'size': len(p),
                 'data': base64.b64encode(p).decode()}
                for k, p in enumerate(pl[i:i + 4])]
        token = (i // 4 % 65536).to_bytes(2, 'little')
        body = json.dumps({'rxpk': rxpk}).encode()
        s.sendto(b'\x02' + token + b'\x00' + eui + body, ('127.0.0.1', port))
        try:
            ack = s.recv(64)
        except socket.timeout:
            continue
        acks += ack == b'\x02' + token + b'\x01'
    print('push_acks', acks, 'of', (len(pl) + 3) // 4)


def positions(sent):
    """Each packet of SENT: (address byte, its position k in its device)."""
    pos, seen = {}, {}
    for p in packets(sent):
        k = seen.get(p[0], 0)
        seen[p[0]] = k + 1
        pos[p] = (p[0], k)
    return pos


def released(sent, base, paths):
    pos = positions(sent)
    got = set()
    for path in paths:
        for p in packets(path):
            got.add(pos[p])
    rel = set()
    addrs = {a for a, _ in pos.values()}
    n = max(k for _, k in pos.values()) + 1
    for addr in addrs:
        for u0 in range(0, n, 16):
            have = {r for r in range(16) if (addr, u0 + r) in got}
            for t in range(8):
                cov = range(4 * t, 4 * t + 4) if t < 4 else \
                    range(t - 4, 16, 4)
                car = 4 * t + 3 if t < 4 else t + 8
                if car in have and all(r in have for r in cov):
                    rel |= {(addr, base + u0 + r) for r in cov}
    return rel, len(addrs) * n, base + n


def check(sub, b, lo, devmap, sent, shards, paths):
    rel, _, hi = released(sent, lo, paths)
    addr_of = {}
    for pair in devmap.split(','):
        d, a = pair.split(':')
        addr_of[int(d)] = int(a, 16)
    want = {(d, k) for d, a in addr_of.items() for (a2, k) in rel if a2 == a}
    seen, lost = {}, set()
    dups = wrong = topic_bad = 0
    for line in open(sub, encoding='utf-8', errors='replace'):
        topic, _, payload = line.rstrip('\n').partition(' ')
        try:
            r = json.loads(payload)
        except ValueError:
            if '/readings/' in topic:
                wrong += 1
            continue
        if r.get('device') not in addr_of:
            continue
        if '/events/' in topic and r.get('event') == 'lost':
            for i in range(r['count']):
                lost.add((r['device'], r['epoch'] * b + r['first'] + i))
            continue
        if '/readings/' not in topic:
            continue
        k = r['epoch'] * b + r['index']
        if k < lo or k >= hi:
            continue
        if r.get('data') != 'd%d r%d' % (r['device'], k):
            wrong += 1
        parts = topic.split('/')
        if parts[-1] != str(r['device']) or \
                parts[-2] != str(addr_of[r['device']] % shards):
            topic_bad += 1
        if (r['device'], k) in seen:
            dups += 1
        seen[(r['device'], k)] = 1
    got = set(seen)
    print('distinct', len(got), 'dups', dups, 'wrong', wrong,
          'extra', len(got - want), 'missing', len(want - got),
          'topic', topic_bad, 'lostrel', len(lost & got))


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    cmd, a = argv[1], argv[2:]
    if cmd == 'interleave':
        interleave(a[0], a[1:])
    elif cmd == 'replay':
        fleet.replay(a[0], float(a[1]), a[2:], packets)
    elif cmd == 'semtech':
        semtech(int(a[0]), a[1])
    elif cmd == 'model':
        rel, n, _ = released(a[0], int(a[1]), a[2:])
        print('released', len(rel), 'of', n)
    elif cmd == 'check':
        check(a[0], int(a[1]), int(a[2]), a[3], a[4], int(a[5]), a[6:])
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
