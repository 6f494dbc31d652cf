# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The packet receiver's candidate positions (Documentation/packet-radio.rst
section 4): where a packet that carries only j mod 64, and perhaps the low
32 bits of its epoch, may sit in the device's stream of (epoch, index)
positions. A wrong candidate fails verification; there are never more
than MAX_CANDIDATES, so a forged packet buys bounded work.
"""

INDEX_MOD = 64          # the control byte carries j mod 64
ANCHOR_MOD = 2 ** 32    # the anchor carries e mod 2^32
UNIT = 16               # records per grid unit
NEAR = 3                # candidates counted from the reference position
MAX_CANDIDATES = 4      # NEAR, and one in the newest anchored epoch held


def after(e, j, jlow, b, count, last_epoch=None):
    """The first `count` positions at or after (e, j), in stream order,
    whose index is jlow modulo 64 (in epochs up to last_epoch)."""
    if jlow >= b:
        return []           # no index of any epoch is jlow modulo 64
    out = []
    while len(out) < count and (last_epoch is None or e <= last_epoch):
        k = j + (jlow - j) % INDEX_MOD
        while k < b and len(out) < count:
            out.append((e, k))
            k += INDEX_MOD
        e, j = e + 1, 0
    return out


def anchored_epoch(e_cursor, anchor, max_skip):
    """The epoch an anchor names: the one at or after the cursor's epoch
    with those low 32 bits; None past max_skip (never an earlier epoch)."""
    e = e_cursor + (anchor - e_cursor) % ANCHOR_MOD
    return e if e - e_cursor <= max_skip else None


def candidates(cursor, b, jlow, anchor=None, newest_anchor=None, max_skip=4096):
    """Candidate positions of a packet, in the order they are tried.

    cursor: (e_c, u_c), the first undecided unit; positions before its
    first record are decided and never candidates. anchor: the packet's
    own anchor (low 32 bits of its epoch) or None. newest_anchor: the
    newest epoch beyond the cursor's named by an anchored packet held
    (verified or not), or None."""
    e_c, u_c = cursor
    start = (e_c, UNIT * u_c)
    if anchor is not None:
        e_a = anchored_epoch(e_c, anchor, max_skip)
        if e_a is None:
            return []
        ref = start if e_a == e_c else (e_a, 0)
        return after(ref[0], ref[1], jlow, b, NEAR, last_epoch=e_a)
    out = after(start[0], start[1], jlow, b, NEAR)
    if newest_anchor is not None and newest_anchor > e_c:
        extra = after(newest_anchor, 0, jlow, b, 1, last_epoch=newest_anchor)
        out += [p for p in extra if p not in out]
    return out[:MAX_CANDIDATES]
