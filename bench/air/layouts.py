# SPDX-License-Identifier: GPL-2.0 OR MIT
"""What each scheme puts on the air for a stream of readings, and which
packets a reading needs to be delivered.

A layout is a *unit*: the packets sent for `records` consecutive readings,
in order, and the tags over them. A tag covers some records and rides in
one or more *carrier* packets (copies). A reading is delivered when its
packet arrived and, for at least one tag covering it, every record of that
tag and one of its carriers arrived: then the tag verifies and the reading
is released under it. Units repeat; an epoch of EPOCH_RECORDS readings is
EPOCH_RECORDS / records units, and the packet framing adds an epoch anchor
to the first packet of each epoch.
"""

import math

READING = 16            # bytes of one reading (issue 30)
EPOCH_RECORDS = 1024    # b
ANCHOR = 4              # packet framing: low 32 bits of the epoch, on record 0
CONTROL = 1             # packet framing: type, anchor flag, j mod 64
STREAM_HEADER = 20      # spec section 8: sync, type, suite, device, epoch, index, length
LORAWAN_HEADER = 13     # MHDR 1, DevAddr 4, FCtrl 1, FCnt 2, FPort 1, MIC 4
LORAWAN_MIC = 4
# IEEE 802.15.4-2015 data frame with short addresses and PAN ID compression:
# frame control 2, sequence number 1, destination PAN 2, destination 2,
# source 2; auxiliary security header: security control 1, frame counter 4
# (key identifier mode 0); MIC 8 (ENC-MIC-64); FCS 2.
IEEE802154_MHR = 9
IEEE802154_AUX = 5
IEEE802154_MIC = 8
IEEE802154_FCS = 2


class Layout:
    def __init__(self, key, name, records, packets, tags, *, framing,
                 tag_bytes=None, anchor=0, candidates=1):
        self.key = key
        self.name = name
        self.records = records          # readings per unit
        self.packets = packets          # [(bytes, record or None)] in send order
        self.tags = tags                # [(records covered, carrier packets)]
        self.framing = framing          # "stream", "packet" or "baseline"
        self.tag_bytes = tag_bytes
        self.anchor = anchor            # bytes added to an epoch's first packet
        self.candidates = candidates    # position reconstructions per tag
        self.record_packet = {r: i for i, (_, r) in enumerate(packets) if r is not None}
        assert sorted(self.record_packet) == list(range(records))
        assert EPOCH_RECORDS % records == 0 or records == 1

    def units_per_epoch(self):
        return EPOCH_RECORDS // self.records

    def events(self, r):
        """Packet sets, each of which delivers record r when all arrive."""
        if not hasattr(self, "_events"):
            per_record = [[] for _ in range(self.records)]
            for covered, carriers in self.tags:
                need = frozenset(self.record_packet[x] for x in covered)
                sets = [need | {c} for c in carriers]
                for x in covered:
                    per_record[x] += sets
            self._events = [tuple(e) for e in per_record]
        return self._events[r]

    def tags_per_record(self):
        return max(sum(1 for covered, _ in self.tags if r in covered)
                   for r in range(self.records))

    def max_packet(self):
        return max(size for size, _ in self.packets) + self.anchor


def per_message(key, name, size, tag_bytes):
    return Layout(key, name, 1, [(size, 0)], [((0,), (0,))],
                  framing="baseline", tag_bytes=tag_bytes)


def lorawan():
    return per_message("lorawan", "LoRaWAN 1.0.4 (4-B MIC)",
                       LORAWAN_HEADER + READING, LORAWAN_MIC)


def gcm():
    return per_message("gcm", "AES-GCM, 16-B tag, LoRaWAN header",
                       LORAWAN_HEADER - LORAWAN_MIC + READING + 16, 16)


def ccm_star():
    return per_message("ccm", "802.15.4 AES-CCM* (8-B MIC)",
                       IEEE802154_MHR + IEEE802154_AUX + READING
                       + IEEE802154_MIC + IEEE802154_FCS, 8)


def stream(g):
    """Today's byte-stream frames, one per packet (spec section 8): g
    record frames, then the group's (or epoch's) tag frame."""
    frame = STREAM_HEADER + READING
    packets = [(frame, r) for r in range(g)] + [(STREAM_HEADER + 16, None)]
    gname = "b" if g == EPOCH_RECORDS else str(g)
    return Layout("stream-g%s" % gname, "Diamond today, stream frames, g = %s" % gname,
                  g, packets, [(tuple(range(g)), (g,))], framing="stream", tag_bytes=16)


def _packet_base(addr):
    return addr + CONTROL + READING


def piggybacked(g, t, addr):
    """One aggregate per g records, riding in the last record's packet."""
    base = _packet_base(addr)
    packets = [(base + (t if r == g - 1 else 0), r) for r in range(g)]
    gname = "b" if g == EPOCH_RECORDS else str(g)
    return Layout("pig-g%s-t%d-a%d" % (gname, t, addr),
                  "packet, one %d-B tag per %s, piggybacked" % (t, gname),
                  g, packets, [(tuple(range(g)), (g - 1,))], framing="packet",
                  tag_bytes=t, anchor=ANCHOR, candidates=4)


def separate(g, t, addr, copies=1):
    """One aggregate per g records in packets of its own (A + 1 + t bytes)."""
    base = _packet_base(addr)
    packets = [(base, r) for r in range(g)] + [(addr + CONTROL + t, None)] * copies
    what = "in its own packet" if copies == 1 else "in %d packets of its own" % copies
    return Layout("sep-g%d-t%d-c%d-a%d" % (g, t, copies, addr),
                  "packet, one %d-B tag per %d, %s" % (t, g, what),
                  g, packets, [(tuple(range(g)), tuple(range(g, g + copies)))],
                  framing="packet", tag_bytes=t, anchor=ANCHOR, candidates=4)


def grid(rows, cols, t, addr):
    """A rows x cols grid of records (row-major), a tag per row and per
    column, each riding in the packet of the last record it covers."""
    base = _packet_base(addr)
    n = rows * cols
    row_tags = [(tuple(i * cols + c for c in range(cols)), (i * cols + cols - 1,))
                for i in range(rows)]
    col_tags = [(tuple(i * cols + c for i in range(rows)), ((rows - 1) * cols + c,))
                for c in range(cols)]
    tags = row_tags + col_tags
    carried = [sum(1 for _, car in tags if car[0] == r) for r in range(n)]
    packets = [(base + t * carried[r], r) for r in range(n)]
    return Layout("grid%dx%d-t%d-a%d" % (rows, cols, t, addr),
                  "packet, %dx%d grid of %d-B row and column tags" % (rows, cols, t),
                  n, packets, tags, framing="packet", tag_bytes=t,
                  anchor=ANCHOR, candidates=4)


def baselines():
    return [lorawan(), gcm(), ccm_star()]


def today():
    return [stream(16), stream(EPOCH_RECORDS)]


def candidates(addr):
    """The packet-framing layouts the choice is made among."""
    return [
        piggybacked(EPOCH_RECORDS, 16, addr),
        separate(16, 16, addr),
        separate(16, 16, addr, copies=2),
        piggybacked(16, 16, addr),
        piggybacked(16, 12, addr),
        piggybacked(8, 12, addr),
        piggybacked(4, 12, addr),
        piggybacked(1, 12, addr),
        grid(4, 4, 16, addr),
        grid(4, 4, 13, addr),
        grid(4, 4, 12, addr),
        grid(4, 4, 8, addr),
        grid(4, 8, 12, addr),
        grid(8, 8, 12, addr),
    ]


def chosen(addr):
    """What Documentation/packet-radio.rst specifies."""
    return grid(4, 4, 12, addr)
