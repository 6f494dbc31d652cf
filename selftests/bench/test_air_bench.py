#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""test_air_bench.py: make bench-air's smoke run (make check-air-bench), TAP.

Runs bench/air/air-bench.py end to end on N readings (the AVR firmware
under simavr, lossy-link, diamondctl open; the baselines with real
crypto) with a random seed (printed; AIR_SEED=n reproduces it) and checks
what it measured:

- at 0% loss every scheme delivers all N readings, and the grid's and the
  baselines' airtime ratios are exactly the air model's (fixed sizes);
- the bytes sent are exact: LoRaWAN 29, AES-GCM 41, 802.15.4 40 a
  packet; the grid's N / 16 units of 9 packets of A + 17 bytes, 6 of
  A + 29 and 1 of A + 41, plus a 4-byte anchor an epoch; the stream's
  N record frames of 36 bytes and an epoch tag frame of 52 (20 + the
  firmware's 16 bytes of AD + 16) an epoch;
- the three baselines deliver the same count under every loss (the same
  packets lost, every other one verified), Diamond1's and Diamond2's
  grids deliver the same count (the same packets lost, one rule), and
  g = b delivers whole epochs only;
- at 5% independent loss the grid delivers at least 86% (the model's
  93.07% less 5 standard deviations at N = 1024: 1.27%, by simulation);
  its airtime is at most 0.8x AES-GCM's at 0, 1 and 5% loss (the model's
  0.72x), at most LoRaWAN's at 0 and 1% (0.92x), at most AES-GCM's at
  10% (0.76x), in both loss models, at SF7 and SF12;
- the report has a table for each of the 7 conditions and the targets.

    python3 -B selftests/bench/test_air_bench.py N
"""

import json
import os
import random
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(TOP, "bench", "air"))

import airtime      # noqa: E402
import layouts      # noqa: E402
import loss         # noqa: E402
import model        # noqa: E402

results = []


def check(cond, name):
    results.append((bool(cond), name))


def ms(sizes, sf):
    return sum(airtime.airtime_ms(s, sf) for s in sizes)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    try:
        import cryptography  # noqa: F401  (the baselines' real crypto)
    except ImportError:
        print("TAP version 13")
        print("1..0 # SKIP python3-cryptography not installed (make deps)")
        return 0
    seed = int(os.environ.get("AIR_SEED") or random.SystemRandom().randrange(1, 1 << 31))
    print("TAP version 13")
    print("# seed %d (AIR_SEED=%d reproduces it), N = %d" % (seed, seed, n))
    with tempfile.TemporaryDirectory() as t:
        js = os.path.join(t, "air.json")
        r = subprocess.run([sys.executable, "-B", os.path.join(TOP, "bench", "air", "air-bench.py"),
                            "--n", str(n), "--seed", str(seed), "--work", os.path.join(t, "w"),
                            "--json", js], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        check(r.returncode == 0, "air-bench.py ran to its end (%s)" % (
            r.stderr.strip().splitlines() or ["no message"])[-1])
        if r.returncode:
            return finish()
        out = r.stdout
        got = json.load(open(js))
    sch, dl = got["schemes"], got["delivered"]
    conds = sorted({k.split("|")[1] for k in dl})
    d = lambda key, c: dl["%s|%s" % (key, c)]  # noqa: E731

    check(all(d(k, "0%") == n for k in sch), "0%% loss: every scheme delivers all %d readings" % n)
    for k, size in (("lorawan", 29), ("gcm", 41), ("ccm", 40)):
        check(sch[k]["bytes"] == [size] * n, "%s: %d packets of exactly %d bytes" % (k, n, size))
    # A = 1: 18 bytes, 30 with a tag, 42 with two; 4 more with an anchor,
    # on record 0 of every epoch and, after the boot, on its records 4, 8
    # and 12 (the firmware's PDEV_BOOT_ANCHORS; one boot sends them all).
    unit = [18] * 3 + [30] + [18] * 3 + [30] + [18] * 3 + [30] * 4 + [42]
    want = [unit[j % 16] + 4 * (j % 1024 == 0 or j in (4, 8, 12)) for j in range(n)]
    for s in (1, 2):
        b = sch["d%d-grid" % s]["bytes"]
        check(b == want,
              "Diamond%d grid: %d packets, %d bytes (A = 1: 18, 30, 42; anchors +4 on "
              "record 0 of each epoch and records 4, 8, 12 of the boot), got %d"
              % (s, n, sum(want), sum(b)))
        b = sch["d%d-stream" % s]["bytes"]
        check(b == ([36] * 1024 + [52]) * (n // 1024),
              "Diamond%d g = b: %d record frames of 36 bytes, an epoch tag frame of 52 "
              "(AD \"board=atmega2560\") every 1024" % (s, n))
    # At 0% the ratios are the sizes' alone: those of the packets above,
    # which are the air model's but for the boot's 3 extra anchors.
    c0 = loss.bernoulli(0.0)
    model_ms = {k: model.evaluate(lay, c0).ms_per for k, lay in
                (("grid", layouts.chosen(1)), ("gcm", layouts.gcm()), ("lorawan", layouts.lorawan()))}
    zero = out.split("#### 1% loss")[0]
    for sf in (7, 12):
        got_g = ms(sch["d1-grid"]["bytes"], sf) / ms(sch["gcm"]["bytes"], sf)
        got_l = ms(sch["d1-grid"]["bytes"], sf) / ms(sch["lorawan"]["bytes"], sf)
        want_g = ms(want, sf) / ms(sch["gcm"]["bytes"], sf)
        want_l = ms(want, sf) / ms(sch["lorawan"]["bytes"], sf)
        model_g = model_ms["grid"][sf] / model_ms["gcm"][sf]
        model_l = model_ms["grid"][sf] / model_ms["lorawan"][sf]
        check(abs(got_g - want_g) < 1e-9 and abs(got_l - want_l) < 1e-9 and
              abs(got_g - model_g) < 0.002 and abs(got_l - model_l) < 0.002 and
              "%.3f, %.3f" % (got_g, got_l) in zero,
              "0%% loss, SF%d: the grid's airtime %.3fx AES-GCM's and %.3fx LoRaWAN's, in "
              "the report (the air model: %.3fx, %.3fx)" % (sf, got_g, got_l, model_g, model_l))
    check(len(conds) == 7 and all(d("lorawan", c) == d("gcm", c) == d("ccm", c) for c in conds),
          "the three baselines deliver the same count under every condition (%s)"
          % ", ".join("%s %d" % (c, d("gcm", c)) for c in conds))
    check(all(d("d1-grid", c) == d("d2-grid", c) for c in conds),
          "Diamond1's and Diamond2's grids deliver the same count under every condition")
    check(all(d("d%d-stream" % s, c) % 1024 == 0 for s in (1, 2) for c in conds),
          "g = b delivers whole epochs only")
    f5 = d("d1-grid", "5%") / n
    check(f5 >= 0.86, "5%% independent loss: the grid delivers %.4f >= 0.86" % f5)

    def ratio(key, base, c, sf):
        return (ms(sch[key]["bytes"], sf) / d(key, c)) / (ms(sch[base]["bytes"], sf) / d(base, c))
    both = lambda pcts: [c for c in conds if c.split("%")[0] in pcts]  # noqa: E731
    worst = lambda base, pcts: max(ratio(k, base, c, sf) for k in ("d1-grid", "d2-grid")  # noqa: E731
                                   for c in both(pcts) for sf in (7, 12))
    w = worst("gcm", ("0", "1", "5"))
    check(w <= 0.8, "0, 1, 5%% loss: the grid's airtime at most 0.8x AES-GCM's (worst %.3f)" % w)
    w = worst("lorawan", ("0", "1"))
    check(w <= 1.0, "0, 1%% loss: the grid's airtime at most LoRaWAN's (worst %.3f)" % w)
    w = worst("gcm", ("10",))
    check(w <= 1.0, "10%% loss: the grid's airtime at most AES-GCM's (worst %.3f)" % w)
    check(out.count("#### ") == 8 and "| at least 90% delivered" in out,
          "the report has 7 condition tables and the targets")
    cyc = [sch[k]["cycles"] for k in sch]
    check(all(c > 0 for c in cyc), "AVR cycles measured for every scheme")
    return finish()


def finish():
    for i, (ok, name) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    print("1..%d" % len(results))
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
