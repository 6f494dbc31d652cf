#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Helpers of fleet.sh (check-fleet): frame files, the lockstep replay
into the forwarders, and what the readings topic received.

  fleet.py interleave OUT FILE...     the frames of the FILEs round-robin
  fleet.py interleave-devices OUT FILE  FILE's frames, device by device
                                      (seal --devices), round-robin
                                      over the devices
  fleet.py deal SENT FROM TO OUT...   frames FROM to TO - 1 of SENT dealt
                                      round-robin into the OUT files
  fleet.py ideal B G FILE...          records whose group is complete in
                                      the union of the FILEs (one line:
                                      count, then "lost D:E:GROUP ...")
  fleet.py replay SENT DELAY PORT=FILE...  for each frame of SENT in
                                      order, one datagram to every PORT
                                      whose FILE (a subsequence of SENT:
                                      a link with loss only) has it next;
                                      DELAY seconds between frames
  fleet.py send PORT FILE DELAY       each frame of FILE as a datagram,
                                      DELAY seconds apart
  fleet.py count FILE                 the number of frames in FILE
  fleet.py frame FILE K               frame K of FILE, on stdout
  fleet.py slice FILE A B OUT         frames A .. B - 1 of FILE, to OUT
  fleet.py semtech PORT FILE          FILE's frames to a packet forwarder
                                      port as a LoRa gateway sends them
                                      (Semtech GWMP v2 PUSH_DATA, 4 rxpk
                                      each), then PULL_DATA, a PUSH_DATA
                                      with broken JSON and a version 1
                                      datagram; prints what came back
  fleet.py readings SUB B [DEV]       from mosquitto_sub -v output:
                                      "delivered N distinct N dups N
                                      wrong N" (data must be "dD rK",
                                      K = epoch * B + index)
  fleet.py expect SUB B NDEV NREC     the IDs on the readings topics against
                                      devices 1 to NDEV, NREC readings
                                      each: "missing N extra N"
"""
import socket
import struct
import sys
import time

HDR = 20


def frames(path):
    data = open(path, 'rb').read()
    out, at = [], 0
    while at + HDR <= len(data):
        if data[at:at + 2] != b'DF':
            raise SystemExit('%s: no frame at byte %d' % (path, at))
        n = HDR + struct.unpack_from('<H', data, at + 18)[0]
        out.append(data[at:at + n])
        at += n
    return out


def header(f):
    typ, dev, epoch, index = f[2], *struct.unpack_from('<IQH', f, 4)
    return typ, dev, epoch, index


def interleave(out, paths):
    round_robin(out, [frames(p) for p in paths])


def interleave_devices(out, path):
    by_dev = {}
    for f in frames(path):
        by_dev.setdefault(header(f)[1], []).append(f)
    round_robin(out, list(by_dev.values()))


def round_robin(out, lists):
    with open(out, 'wb') as o:
        for i in range(max(len(x) for x in lists)):
            for x in lists:
                if i < len(x):
                    o.write(x[i])


def deal(sent, lo, hi, outs):
    fl = frames(sent)[lo:hi]
    for i, out in enumerate(outs):
        with open(out, 'wb') as o:
            o.write(b''.join(fl[i::len(outs)]))


def ideal(b, g, paths):
    have = set()
    for p in paths:
        for f in frames(p):
            have.add(header(f))
    devs = sorted({h[1] for h in have})
    epochs = sorted({(h[1], h[2]) for h in have})
    count, lost = 0, []
    for dev, epoch in epochs:
        ngroups = (b + g - 1) // g
        for grp in range(ngroups):
            recs = range(grp * g, min(b, grp * g + g))
            tag = (2, dev, epoch, b) if grp == ngroups - 1 else (3, dev, epoch, grp)
            if tag in have and all((1, dev, epoch, j) in have for j in recs):
                count += len(recs)
            else:
                lost.append('%d:%d:%d' % (dev, epoch, grp))
    del devs
    print(count, 'lost', *lost)


def replay(sent, delay, targets, split=frames):
    """@split: a file's datagrams (frames; fleet_packets.py: packets)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    links = []
    for t in targets:
        port, path = t.split('=', 1)
        links.append([int(port), split(path), 0])
    for f in split(sent):
        for link in links:
            port, fl, at = link
            if at < len(fl) and fl[at] == f:
                s.sendto(f, ('127.0.0.1', port))
                link[2] += 1
        time.sleep(delay)
    left = sum(len(l[1]) - l[2] for l in links)
    if left:
        raise SystemExit('replay: %d datagrams of the links not in SENT' % left)


def send(port, path, delay):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for f in frames(path):
        s.sendto(f, ('127.0.0.1', port))
        time.sleep(delay)


def semtech(port, path):
    import base64
    import json
    import random
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(5)
    rng = random.Random(12)
    eui = bytes.fromhex('aa555a0000000012')

    def ask(version, ident, body):
        token = rng.getrandbits(16).to_bytes(2, 'little')
        s.sendto(bytes([version]) + token + bytes([ident]) + eui + body,
                 ('127.0.0.1', port))
        try:
            ack = s.recv(64)
        except socket.timeout:
            return 'none'
        ok = len(ack) == 4 and ack[0] == 2 and ack[1:3] == token
        return ack[3] if ok else 'bad'

    fl = frames(path)
    acks = 0
    for i in range(0, len(fl), 4):
        rxpk = [{'tmst': 1000 + k, 'freq': 868.1, 'chan': 0, 'rfch': 0,
                 'stat': 1, 'modu': 'LORA', 'datr': 'SF7BW125',
                 'codr': '4/5', 'rssi': -57, 'lsnr': 9.5, 'size': len(f),
                 'data': base64.b64encode(f).decode()}
                for k, f in enumerate(fl[i:i + 4])]
        body = json.dumps({'rxpk': rxpk, 'stat': {'rxnb': 4}}).encode()
        acks += ask(2, 0, body) == 1
    pull = ask(2, 2, b'') == 4
    broken = ask(2, 0, b'{"rxpk":[{"data":"RE') == 1
    v1 = ask(1, 0, b'{}') == 'none'
    print('push_acks', acks, 'of', (len(fl) + 3) // 4, 'pull_ack', int(pull),
          'broken_json_acked', int(broken), 'version1_silent', int(v1))


def readings(sub, b, dev=None):
    import json
    seen, dups, wrong = {}, 0, 0
    for line in open(sub, encoding='utf-8', errors='replace'):
        topic, _, payload = line.rstrip('\n').partition(' ')
        if '/readings/' not in topic:
            continue
        try:
            r = json.loads(payload)
            key = (r['device'], r['epoch'], r['index'])
        except (ValueError, KeyError):
            wrong += 1
            continue
        if dev is not None and r['device'] != dev:
            continue
        want = 'd%d r%d' % (r['device'], r['epoch'] * b + r['index'])
        if r.get('data') != want or topic.rsplit('/', 1)[1] != str(r['device']):
            wrong += 1
        if key in seen:
            dups += 1
        seen[key] = 1
    total = len(seen) + dups
    print('delivered', total, 'distinct', len(seen), 'dups', dups, 'wrong', wrong)


def expect(sub, b, ndev, nrec):
    import json
    want = {(d, k // b, k % b) for d in range(1, ndev + 1) for k in range(nrec)}
    got = set()
    for line in open(sub, encoding='utf-8', errors='replace'):
        topic, _, payload = line.rstrip('\n').partition(' ')
        if '/readings/' not in topic:
            continue
        try:
            r = json.loads(payload)
            got.add((r['device'], r['epoch'], r['index']))
        except (ValueError, KeyError, TypeError):
            got.add(('unparsed', payload))
    print('missing', len(want - got), 'extra', len(got - want))


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == 'interleave':
        interleave(args[0], args[1:])
    elif cmd == 'interleave-devices':
        interleave_devices(args[0], args[1])
    elif cmd == 'deal':
        deal(args[0], int(args[1]), int(args[2]), args[3:])
    elif cmd == 'ideal':
        ideal(int(args[0]), int(args[1]), args[2:])
    elif cmd == 'replay':
        replay(args[0], float(args[1]), args[2:])
    elif cmd == 'send':
        send(int(args[0]), args[1], float(args[2]))
    elif cmd == 'frame':
        sys.stdout.buffer.write(frames(args[0])[int(args[1])])
    elif cmd == 'slice':
        with open(args[3], 'wb') as o:
            o.write(b''.join(frames(args[0])[int(args[1]):int(args[2])]))
    elif cmd == 'count':
        print(len(frames(args[0])))
    elif cmd == 'semtech':
        semtech(int(args[0]), args[1])
    elif cmd == 'expect':
        expect(args[0], int(args[1]), int(args[2]), int(args[3]))
    elif cmd == 'readings':
        readings(args[0], int(args[1]), int(args[2]) if len(args) > 2 else None)
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
