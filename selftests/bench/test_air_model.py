#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""test_air_model.py: the air model of issue 30 (bench/air/), TAP on stdout.

The airtime formula against published figures, the exact loss
probabilities against closed forms, against enumeration of every loss
pattern and against Monte Carlo (seeded; the seed is printed), the chosen
layout's properties (Documentation/packet-radio.rst), the candidate rule,
and that performance.md holds the model's current tables.

    python3 selftests/bench/test_air_model.py [--no-doc]    (make check-air-model)
"""

import math
import os
import random
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(TOP, "bench", "air"))

import airtime      # noqa: E402
import bound        # noqa: E402
import layouts      # noqa: E402
import loss         # noqa: E402
import model        # noqa: E402
import reconstruct  # noqa: E402

SEED = 30
N_UNITS = 10000
MAX_RECORD = 222

results = []


def check(cond, name, note=None):
    results.append((bool(cond), name, note))


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(b))


# Exact: probability of each receive pattern, by enumeration -------------

def enumerate_delivered(layout, chain):
    """Expected delivered records per unit, summed over all 2^n patterns."""
    n = len(layout.packets)
    tags = []       # (packets needed, carrier packets, records covered), as bit masks
    for cov, car in layout.tags:
        need = sum(1 << layout.record_packet[x] for x in cov)
        tags.append((need, sum(1 << c for c in car), sum(1 << x for x in cov)))
    total = 0.0

    def walk(i, v, got):
        nonlocal total
        if i == n:
            released = 0
            for need, car, cov in tags:
                if got & need == need and got & car:
                    released |= cov
            total += sum(v) * bin(released).count("1")
            return
        for arrived in (1, 0):
            w = [v[s] * ((1 - chain.loss[s]) if arrived else chain.loss[s])
                 for s in range(len(v))]
            if sum(w) > 0:
                walk(i + 1, chain.step(w) if i + 1 < n else w, got | arrived << i)

    walk(0, list(chain.start), 0)
    return total


def monte_carlo(layout, chain, rng):
    """Mean and standard error of the delivered fraction over N_UNITS
    units sent back to back on one continuing link."""
    n = len(layout.packets)
    tags = [({layout.record_packet[x] for x in cov}, car, cov) for cov, car in layout.tags]
    state, xs = None, []
    for _ in range(N_UNITS):
        got, state = loss.sample(chain, n, rng, state)
        released = set()
        for need, car, cov in tags:
            if all(got[k] for k in need) and any(got[c] for c in car):
                released.update(cov)
        xs.append(len(released) / layout.records)
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    return mean, sd / math.sqrt(len(xs))


def exact_fraction(layout, chain):
    return model.expected_delivered(layout, chain) / layout.records


# 1. Airtime ----------------------------------------------------------------

def airtime_checks():
    # Published figures for the same formula and settings (CR 4/5, explicit
    # header, CRC on, 8-symbol preamble, 125 kHz):
    # https://www.rfwireless-world.com/calculators/LoRaWAN-Airtime-calculator.html
    # (its examples 1 and 2), and the "LoRa airtime calculator" sheets after
    # AN1200.13 (docs.google.com/spreadsheets/d/1voGAtQAjC1qBmaVuP1ApNKs1ekgUjavHuVQIXyYSvNc:
    # 13 B at SF9; .../1eL1nHxMidIcIdDE_l-DoY3kmE2e8b0YpOBW64WnYxj8: 24 + 13 B
    # at SF7..SF12, low-data-rate optimisation "auto").
    check(close(airtime.airtime_ms(10, 7), 41.216),
          "airtime: 10 B at SF7 is 41.216 ms (published calculator example)")
    check(close(airtime.airtime_ms(10, 11), 577.536),
          "airtime: 10 B at SF11 with low-data-rate optimisation is 577.536 ms")
    # AN1200.13 calculator sheets: 13 B at SF9; 37 B (24 + 13) at SF7..SF12.
    check(close(airtime.airtime_ms(13, 9), 164.864),
          "airtime: 13 B at SF9 is 164.864 ms (AN1200.13 sheet)")
    want = [82.176, 143.872, 267.264, 493.568, 1069.056, 1974.272]
    got = [airtime.airtime_ms(37, sf) for sf in range(7, 13)]
    check(all(close(g, w) for g, w in zip(got, want)),
          "airtime: 37 B at SF7..SF12 match the AN1200.13 sheet", repr(got))
    ok = [round(airtime.airtime_ms(pl, 7) * 17 / 16 if pl == 36 else airtime.airtime_ms(pl, 7), 1)
          for pl in (36, 29, 41)]
    check(ok == [81.9, 66.8, 87.3],
          "airtime: issue 30's 0% figures (81.9, 66.8, 87.3 ms at SF7)", repr(ok))
    try:
        airtime.airtime_ms(256, 7)
        refused = False
    except ValueError:
        refused = True
    check(refused, "airtime: a 256-byte PHY payload is refused")


# 2. Exact probabilities ------------------------------------------------------

def exact_checks(rng):
    for p in (0.01, 0.05):
        got = exact_fraction(layouts.stream(16), loss.bernoulli(p))
        check(close(got, (1 - p) ** 17, 1e-12),
              "exact: g = 16 stream frames deliver (1-p)^17 at %g%%" % (100 * p))
    q = 0.95
    got = exact_fraction(layouts.grid(4, 4, 12, 1), loss.bernoulli(0.05))
    check(close(got, q * (1 - (1 - q ** 3) ** 2), 1e-12),
          "exact: the 4x4 grid delivers q(1-(1-q^3)^2) under Bernoulli 5%", "%.6f" % got)
    ge = loss.gilbert_elliott(0.05, 3.0)
    pi = ge.start
    stationary = all(close(sum(pi[s] * ge.trans[s][t] for s in range(2)), pi[t], 1e-12)
                     for t in range(2))
    check(stationary and close(pi[1], 0.05, 1e-12) and close(1 / ge.trans[1][0], 3.0, 1e-12),
          "exact: Gilbert-Elliott 5% starts stationary, loses 5%, bursts of mean 3")
    for L, ch in ((layouts.grid(4, 4, 12, 1), loss.gilbert_elliott(0.05, 3.0)),
                  (layouts.stream(16), loss.gilbert_elliott(0.10, 3.0)),
                  (layouts.separate(4, 16, 1, copies=2), loss.gilbert_elliott(0.10, 3.0))):
        a, b = model.expected_delivered(L, ch), enumerate_delivered(L, ch)
        check(close(a, b, 1e-12), "exact: inclusion-exclusion equals all %d loss patterns: %s, %s"
              % (2 ** len(L.packets), L.name, ch.name), "%.12f %.12f" % (a, b))
    for L, ch in ((layouts.grid(4, 4, 12, 1), loss.bernoulli(0.05)),
                  (layouts.grid(4, 4, 12, 1), loss.gilbert_elliott(0.05, 3.0)),
                  (layouts.stream(16), loss.gilbert_elliott(0.10, 3.0))):
        mean, se = monte_carlo(L, ch, rng)
        want = exact_fraction(L, ch)
        check(abs(mean - want) <= 4 * se,
              "Monte Carlo within 4 standard errors of exact: %s, %s" % (L.name, ch.name),
              "mc %.5f +- %.5f, exact %.5f" % (mean, se, want))


# 3. The chosen layout --------------------------------------------------------

def layout_checks():
    L = layouts.chosen(1)
    rows = [set(c) for c, _ in L.tags[:4]]
    cols = [set(c) for c, _ in L.tags[4:]]
    two = all(sum(r in c for c in rows) == 1 and sum(r in c for c in cols) == 1
              for r in range(16))
    meet = all(len(a & b) == 1 for a in rows for b in cols)
    check(len(L.tags) == 8 and two and meet,
          "grid: 8 tags, each record in one row and one column, which share only it")
    last = all(car == (max(cov),) for cov, car in L.tags)
    for a in (1, 4):
        sizes = sorted(size for size, _ in layouts.chosen(a).packets)
        base = a + 17
        last = last and sizes == [base] * 9 + [base + 12] * 6 + [base + 24]
    worst = 4 + 1 + 4 + MAX_RECORD + 24
    check(last and worst == airtime.MAX_PAYLOAD,
          "grid: each tag rides its last record's packet; 9, 6, 1 packets of A+17, A+29, "
          "A+41 B; the longest record fits 255 B at A = 4")
    bits = [bound.bits(bound.per_record(s, 12, MAX_RECORD, 4, 2)) for s in (1, 2)]
    bits8 = [bound.bits(bound.per_record(s, 8, MAX_RECORD, 4, 2)) for s in (1, 2)]
    check(min(bits) >= 64 and max(bits8) < 64,
          "bound: 12-byte tags keep >= 64 bits per forged record (4 candidates, 2 tags), "
          "8-byte ones do not", "suite 1 %.2f, suite 2 %.2f bits" % tuple(bits))


def candidate_checks():
    most = 0
    for b in (16, 48, 64, 1024, 1040):
        for u in range(0, b // 16, max(1, b // 160)):
            for jlow in range(64):
                for na in (None, 7, 9):
                    most = max(most, len(reconstruct.candidates((7, u), b, jlow, newest_anchor=na)))
                    most = max(most, len(reconstruct.candidates((7, u), b, jlow, anchor=8)))
    check(most <= reconstruct.MAX_CANDIDATES,
          "candidates: never more than 4 (b = 16, 48, 64, 1024, 1040)", "most %d" % most)
    found = True
    b = 1024
    for u in range(0, 64, 5):
        start = 16 * u
        for d in range(192):
            e, j = (3, start + d) if start + d < b else (4, start + d - b)
            found = found and (e, j) in reconstruct.candidates((3, u), b, j % 64)
    for j in range(192):
        found = found and (9, j) in reconstruct.candidates((3, 5), b, j % 64, anchor=9)
    check(found, "candidates: the true position is tried for every gap under 192 records "
          "from the cursor, and in an anchored epoch for j < 192")
    wrap = reconstruct.candidates((2 ** 32 - 2, 0), b, 0, anchor=1)
    old = reconstruct.candidates((100, 0), b, 0, anchor=99)
    far = reconstruct.candidates((100, 0), b, 0, anchor=100 + 4097)
    check(wrap and wrap[0] == (2 ** 32 + 1, 0) and old == [] and far == [],
          "candidates: the anchor's low 32 bits wrap; an earlier or past-max_skip epoch "
          "gives none")


def target_checks():
    lw, gcm = layouts.lorawan(), layouts.gcm()
    per_a = {}
    for a in (1, 2, 3, 4):
        L, ok = layouts.chosen(a), True
        for kind in ("b", "ge"):
            for p in (0.0, 0.01, 0.05, 0.10):
                ch = loss.bernoulli(p) if kind == "b" else loss.gilbert_elliott(p, 3.0)
                r, x, g = (model.evaluate(y, ch) for y in (L, lw, gcm))
                for sf in (7, 12):
                    if p <= 0.05:
                        ok = ok and r.ms_per[sf] <= 0.8 * g.ms_per[sf] and r.ms_per[sf] <= x.ms_per[sf]
                    else:
                        ok = ok and r.ms_per[sf] <= g.ms_per[sf]
                if kind == "b" and p == 0.05:
                    ok = ok and r.delivered >= 0.90
        per_a[a] = ok
    check(per_a[1] and per_a[2] and per_a[3] and not per_a[4],
          "targets: issue 30's met at A = 1, 2, 3 and missed at A = 4 (SF12 against LoRaWAN), "
          "as packet-radio.rst says", repr(per_a))


def doc_check():
    out = subprocess.run([sys.executable, "-B", os.path.join(TOP, "bench", "air", "air-model.py")],
                         capture_output=True, text=True, check=False)
    with open(os.path.join(TOP, "Documentation", "performance.md")) as f:
        doc = f.read()
    begin, end = "<!-- air-model begin -->\n", "<!-- air-model end -->"
    held = doc[doc.find(begin) + len(begin):doc.find(end)] if begin in doc else None
    check(out.returncode == 0 and held == out.stdout,
          "performance.md holds the model's current output (make bench-air-model)")


def main(argv):
    rng = random.Random(SEED)
    print("TAP version 13")
    airtime_checks()
    exact_checks(rng)
    layout_checks()
    candidate_checks()
    target_checks()
    if "--no-doc" not in argv:
        doc_check()
    print("1..%d" % len(results))
    print("# Monte Carlo seed %d, %d units a run" % (SEED, N_UNITS))
    failed = 0
    for i, (ok, name, note) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if note and not ok:
            print("# %s" % note)
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
