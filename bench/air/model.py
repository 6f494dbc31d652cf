# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Bytes and LoRa airtime per delivered reading: a layout under a loss
model, computed exactly (expected values, no sampling)."""

import airtime
import loss


class Result:
    def __init__(self, layout, chain, delivered, bytes_per, ms_per):
        self.layout = layout
        self.chain = chain
        self.delivered = delivered      # fraction of readings sent
        self.bytes_per = bytes_per      # PHY payload bytes per delivered reading
        self.ms_per = ms_per            # {sf: ms on air per delivered reading}


def expected_delivered(layout, chain):
    """Expected readings delivered per unit."""
    cache, seen = {}, {}
    n = len(layout.packets)
    total = 0.0
    for r in range(layout.records):
        ev = layout.events(r)
        if ev not in seen:      # records of one tag set share their events
            seen[ev] = loss.any_event(chain, n, ev, cache)
        total += seen[ev]
    return total


def epoch_sent(layout, cost):
    """cost(PL) summed over one epoch's packets, anchor included."""
    per_unit = sum(cost(size) for size, _ in layout.packets)
    first = layout.packets[0][0]
    return (layout.units_per_epoch() * per_unit
            + cost(first + layout.anchor) - cost(first))


def evaluate(layout, chain, sfs=(7, 12)):
    got = expected_delivered(layout, chain)
    delivered = layout.units_per_epoch() * got
    fraction = got / layout.records
    if delivered == 0:
        inf = float("inf")
        return Result(layout, chain, 0.0, inf, {sf: inf for sf in sfs})
    nbytes = epoch_sent(layout, lambda pl: pl)
    ms = {sf: epoch_sent(layout, lambda pl, sf=sf: airtime.airtime_ms(pl, sf)) / delivered
          for sf in sfs}
    return Result(layout, chain, fraction, nbytes / delivered, ms)
