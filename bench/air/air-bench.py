#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""make bench-air (issue 30 item 5): bytes, LoRa airtime and AVR energy
per DELIVERED 16-byte reading, measured end to end.

Diamond: the sensor firmware on the ATmega2560 (tools/avr-run, simavr)
seals N readings with a key from diamondctl provision, in the packet
framing with the 4x4 grid (psender-air, A = 1) and in the byte-stream
framing with g = b = 1024 (sender-air, one frame a packet); its link
bytes go through lossy-link (--packets, or --filter for frames) and the
gateway, diamondctl open (--packet), releases what verifies. A reading is
delivered when the gateway released it. The baselines (baseline.py) are
sealed and opened with real crypto through the same lossy-link --packets.
Every condition uses the same seed, so at equal packet counts every scheme
sees the same loss pattern.

Airtime per packet is airtime.py's (SX127x formula, 125 kHz, CR 4/5,
explicit header, CRC on, 8-symbol preamble, LDRO at SF11/12); bytes and
airtime per delivered reading are the totals sent over the readings
delivered. Energy per delivered reading: the AVR's cycles (the whole
firmware run for Diamond; the comparison firmware's AES-GCM and AES-CCM
runs for the baselines) at 16 MHz times the ATmega2560's active current,
plus the airtime times the SX1276's transmit current (DATASHEET below).

    python3 -B bench/air/air-bench.py --n N --seed S --work DIR
    (BUILD, AIR_GATEWAY=software|kernel and the tools' paths, DIAMONDCTL,
    LOSSY, AVR_RUN, FW_NV, from the environment; make passes them)
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import airtime      # noqa: E402
import baseline     # noqa: E402
from kernel_gateway import KernelGateway    # noqa: E402

B = 1024                                # records an epoch (the model's b)
BURST = 3
CONDITIONS = [("0%", 0.0, 0), ("1%", 0.01, 0), ("5%", 0.05, 0), ("10%", 0.10, 0),
              ("1% bursty", 0.01, BURST), ("5% bursty", 0.05, BURST),
              ("10% bursty", 0.10, BURST)]
SFS = (7, 12)

# Datasheet figures (Documentation/performance.md, "On the air, measured",
# cites each).
AVR_HZ = 16e6
AVR_V, AVR_MA_8MHZ = 5.0, 10.0          # ATmega2560 ICC active, 8 MHz, 5 V, typ.
AVR_MA = AVR_MA_8MHZ * AVR_HZ / 8e6     # scaled to 16 MHz (current ~ clock)
RADIO_V, RADIO_MA = 3.3, 87.0           # SX1276 IDDT, +17 dBm on PA_BOOST, typ.

PREAMBLE = 256                          # avr-run's boot preamble: zero bytes
DEVICE, ADDR = 7, 5


class Scheme:
    def __init__(self, key, name, packets, cycles, framing, deliver):
        self.key = key
        self.name = name
        self.packets = packets          # PHY payloads sent, in order
        self.cycles = cycles            # AVR cycles for all N readings
        self.framing = framing          # "packets" or "frames"
        self.deliver = deliver          # (arrived file, run dir) -> delivered


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def split_packets(data):
    """The packets of a link file, each after a 1-byte length."""
    packets, at = [], 0
    while at < len(data):
        packets.append(data[at + 1:at + 1 + data[at]])
        at += 1 + data[at]
    return packets


class Bench:
    def __init__(self, n, seed, work, build, gateway):
        if n % B:
            raise SystemExit("air-bench: N must be a multiple of %d" % B)
        self.n, self.seed, self.work = n, seed, work
        self.build, self.gateway = build, gateway
        tool = lambda var, *path: os.environ.get(var) or os.path.join(build, *path)  # noqa: E731
        self.ctl = tool("DIAMONDCTL", "userspace", "diamondctl")
        self.lossy = tool("LOSSY", "host", "lossy-link")
        self.avr_run = tool("AVR_RUN", "tools", "avr-run")
        self.fw_nv = tool("FW_NV", "embedded", "host", "fw-nv")
        # The kernel gateway repeats every run in a VM (kernel_gateway.py).
        self.kernel = KernelGateway(work) if gateway == "kernel" else None

    # ---- the AVR ----

    def avr(self, elf, eeprom, out):
        """Run ELF to its end: its link bytes into OUT, its cycles."""
        r = subprocess.run([self.avr_run, "--eeprom", eeprom, "--uart-out", out, elf],
                           stderr=subprocess.PIPE, text=True)
        if r.returncode:
            raise SystemExit("air-bench: %s exited %d: %s" % (elf, r.returncode, r.stderr[-300:]))
        for line in r.stderr.splitlines():
            if line.startswith("avr-run: cycles total="):
                return int(line.split("=")[1])
        raise SystemExit("air-bench: no cycle count from %s" % elf)

    def provision(self, d, suite, packet):
        os.makedirs(d)
        sh([self.ctl, "keygen", "-o", os.path.join(d, "root.key")], stdout=subprocess.DEVNULL)
        cmd = [self.ctl, "provision", "--root", os.path.join(d, "root.key"),
               "--device", str(DEVICE), "--suite", str(suite), "--agg", "xor",
               "--b", str(B), "--blob", os.path.join(d, "dev.blob"),
               "--state-dir", os.path.join(d, "st0"), "--generation", "0"]
        if packet:
            cmd += ["--packet", "--addr-width", "1", "--addr", str(ADDR)]
        sh(cmd, stdout=subprocess.DEVNULL)
        sh([self.fw_nv, "image", "avr", os.path.join(d, "dev.blob"), os.path.join(d, "nv.avr")])

    def firmware(self, name, suite):
        return os.path.join(self.build, "embedded", "avr",
                            "%s-air-d%d-n%d.elf" % (name, suite, self.n))

    # ---- the gateway ----

    def open(self, d, arrived, run, packet):
        """diamondctl open --software on ARRIVED with a fresh copy of the
        state: the positions released, each once (a second release is an
        error). With the kernel gateway the run is queued to be repeated
        through diamond.ko, which must give the same output."""
        st = os.path.join(run, "st")
        shutil.copytree(os.path.join(d, "st0"), st)
        cmd = [self.ctl, "open"] + (["--packet"] if packet else [])
        cmd += ["--state-dir", st, "--software"]
        with open(arrived, "rb") as f, open(os.path.join(run, "out.json"), "w") as out, \
                open(os.path.join(run, "open.txt"), "w") as err:
            rc = subprocess.run(cmd, stdin=f, stdout=out, stderr=err).returncode
        # 1: an epoch or frame was rejected, which loss does to g = b.
        if rc > 1 or (rc and packet):
            raise SystemExit("air-bench: %s exited %d: %s" % (
                " ".join(cmd), rc, open(os.path.join(run, "open.txt")).read()[-400:]))
        if self.kernel:
            self.kernel.add(os.path.join(d, "st0"), arrived, packet, rc,
                            os.path.join(run, "out.json"))
        released = {}
        for line in open(os.path.join(run, "out.json")):
            rec = json.loads(line)
            if "index" not in rec:
                continue
            pos = (rec["epoch"], rec["index"])
            if pos in released:
                raise SystemExit("air-bench: %s: %s released twice" % (run, pos))
            released[pos] = rec["data"]
        return released

    # ---- the schemes ----

    def boot(self, suite, kind, packet):
        """Provision a device, run its firmware once: its directory, link
        file, cycles and link bytes."""
        d = os.path.join(self.work, "d%d-%s" % (suite, kind))
        self.provision(d, suite, packet)
        raw = os.path.join(d, "link.raw")
        cycles = self.avr(self.firmware("psender" if packet else "sender", suite),
                          os.path.join(d, "nv.avr"), raw)
        return d, raw, cycles, open(raw, "rb").read()

    def grid(self, suite):
        d, raw, cycles, data = self.boot(suite, "grid", True)
        if data[:PREAMBLE] != bytes(PREAMBLE):
            raise SystemExit("air-bench: %s: no boot preamble" % raw)
        data = data[PREAMBLE:]
        link = os.path.join(d, "link.bin")
        open(link, "wb").write(data)
        packets = split_packets(data)
        if len(packets) != self.n:
            raise SystemExit("air-bench: %s sent %d packets, not %d" % (raw, len(packets), self.n))
        return self._diamond(d, suite, "grid", "Diamond%d, 4x4 grid (packet)" % suite,
                             packets, cycles, "packets", link, True)

    def stream(self, suite):
        d, raw, cycles, data = self.boot(suite, "stream", False)
        frames, at = [], data.find(b"DF")
        while 0 <= at < len(data):
            size = 20 + int.from_bytes(data[at + 18:at + 20], "little")
            frames.append(data[at:at + size])
            at = data.find(b"DF", at + size) if at + size < len(data) else -1
        if len(frames) != self.n + self.n // B:
            raise SystemExit("air-bench: %s: %d frames, not %d" % (raw, len(frames), self.n + self.n // B))
        return self._diamond(d, suite, "stream", "Diamond%d, g = b (stream)" % suite,
                             frames, cycles, "frames", raw, False)

    def _diamond(self, d, suite, kind, name, packets, cycles, framing, link, packet):
        def deliver(arrived, run):
            released = self.open(d, arrived, run, packet)
            ref = self.reference.setdefault((suite, kind), released)
            wrong = [p for p in released if ref.get(p) != released[p]]
            if wrong:
                raise SystemExit("air-bench: %s: %d readings differ from the lossless run's"
                                 % (run, len(wrong)))
            return len(released)
        s = Scheme("d%d-%s" % (suite, kind), name, packets, cycles, framing, deliver)
        s.link = link
        return s

    def per_message(self, kind, name, cycles):
        d = os.path.join(self.work, kind)
        os.makedirs(d)
        packets = [baseline.seal(kind, i) for i in range(self.n)]
        link = os.path.join(d, "link.bin")
        with open(link, "wb") as f:
            for p in packets:
                f.write(bytes([len(p)]) + p)

        def deliver(arrived, run):
            rx = baseline.Receiver(kind)
            for p in split_packets(open(arrived, "rb").read()):
                rx.feed(p)
            return len(rx.delivered)
        s = Scheme(kind, name, packets, cycles, "packets", deliver)
        s.link = link
        return s

    def baseline_cycles(self, scheme):
        """AVR cycles per reading of the comparison firmware (bench/fw/
        scheme_fw.c, 1024 readings of 16 bytes, key setup and all)."""
        elf = os.path.join(self.build, "bench", "avr", "%s-16.elf" % scheme)
        # Scratch files, never /dev/null: avr-run writes its EEPROM back.
        scratch = os.path.join(self.work, "scheme-%s" % scheme)
        open(scratch + ".eeprom", "wb").close()
        return self.avr(elf, scratch + ".eeprom", scratch + ".uart") / 1024.0

    def schemes(self):
        self.reference = {}
        gcm = self.baseline_cycles("gcm")
        ccm = self.baseline_cycles("ccm")
        out = [self.grid(1), self.grid(2), self.stream(1), self.stream(2),
               # LoRaWAN's CMAC and CTR take 4 AES blocks a reading, as
               # CCM's 16-byte CBC-MAC and CTR do: CCM's cycles stand in.
               self.per_message("lorawan", "LoRaWAN 1.0.4 (29 B)", ccm * self.n),
               self.per_message("gcm", "AES-GCM, 16-B tag (41 B)", gcm * self.n),
               self.per_message("ccm", "802.15.4 AES-CCM* (40 B)", ccm * self.n)]
        return out

    # ---- the link ----

    def run(self, s, cond):
        label, p, burst = cond
        run = os.path.join(self.work, "%s-%s" % (s.key, label.replace("% ", "-").replace("%", "")))
        os.makedirs(run)
        arrived = os.path.join(run, "arrived")
        cmd = [self.lossy, "--packets" if s.framing == "packets" else "--filter",
               "--loss", repr(p), "--seed", str(self.seed)]
        if s.framing == "frames":   # --filter also damages, delays and copies unless told
            cmd += ["--corrupt", "0", "--reorder", "0", "--dup", "0"]
        if burst:
            cmd += ["--burst", str(burst)]
        with open(s.link, "rb") as f, open(arrived, "wb") as out:
            sh(cmd, stdin=f, stdout=out, stderr=subprocess.DEVNULL)
        return s.deliver(arrived, run)


def per_delivered(s, delivered):
    """Bytes, {sf: ms}, {sf: mJ} and cycles per delivered reading."""
    if not delivered:
        inf = float("inf")
        return inf, {sf: inf for sf in SFS}, {sf: inf for sf in SFS}, inf
    nbytes = sum(len(p) for p in s.packets) / delivered
    ms = {sf: sum(airtime.airtime_ms(len(p), sf) for p in s.packets) / delivered for sf in SFS}
    cyc = s.cycles / delivered
    cpu_mj = cyc / AVR_HZ * AVR_MA * AVR_V          # s * mA * V = mJ
    mj = {sf: cpu_mj + ms[sf] / 1000.0 * RADIO_MA * RADIO_V for sf in SFS}
    return nbytes, ms, mj, cyc


def fmt(x, spec):
    return "-" if x == float("inf") else format(x, spec)


def measure(bench):
    """{(scheme key, condition label): delivered}, and the schemes."""
    schemes = bench.schemes()
    got = {}
    for cond in CONDITIONS:
        for s in schemes:
            got[s.key, cond[0]] = bench.run(s, cond)
    return schemes, got


def ratio(a, b):
    return a / b if b not in (0, float("inf")) else float("inf")


def report(bench, schemes, got, command):
    n = bench.n
    by = {s.key: s for s in schemes}
    print("Measured by `%s` (%s):" % (command, "python3 -B bench/air/air-bench.py --n %d --seed %d"
                                          % (n, bench.seed)))
    print()
    print("N = %d readings of 16 bytes a scheme, b = 1024, seed %d (AIR_SEED), gateway: "
          "diamondctl open %s. LoRa: 125 kHz, CR 4/5, explicit header, CRC on, 8-symbol "
          "preamble, LDRO at SF12. Energy: AVR cycles at 16 MHz x %.0f mA x %.1f V plus "
          "airtime x %.0f mA x %.1f V (SX1276 at +17 dBm on PA_BOOST). Gilbert-Elliott "
          "bursts of mean %d packets." % (
              n, bench.seed, "--software" if bench.gateway == "software" else
              "through diamond.ko in a VM of make check's kernel (every run also opened "
              "--software on the host: the same output, byte for byte)",
              AVR_MA, AVR_V, RADIO_MA, RADIO_V, BURST))
    print()
    for label, _, _ in CONDITIONS:
        print("#### %s loss" % label)
        print()
        print("| scheme | delivered | bytes | SF7 ms | SF12 ms | SF7 / GCM, / LoRaWAN "
              "| SF12 / GCM, / LoRaWAN | AVR cycles | mJ SF7 | mJ SF12 |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        base = {k: per_delivered(by[k], got[k, label]) for k in ("gcm", "lorawan")}
        for s in schemes:
            dl = got[s.key, label]
            nbytes, ms, mj, cyc = per_delivered(s, dl)
            rel = ["%s, %s" % (fmt(ratio(ms[sf], base["gcm"][1][sf]), ".3f"),
                               fmt(ratio(ms[sf], base["lorawan"][1][sf]), ".3f")) for sf in SFS]
            print("| %s | %d (%.2f%%) | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                s.name, dl, 100.0 * dl / n, fmt(nbytes, ".2f"), fmt(ms[7], ".1f"),
                fmt(ms[12], ".1f"), rel[0], rel[1], fmt(cyc, ".0f"), fmt(mj[7], ".2f"),
                fmt(mj[12], ".1f")))
        print()
    print("#### Against issue 30's targets (the grid, worse of Diamond1 and Diamond2)")
    print()
    print("| target | measured | met |")
    print("|---|---|---|")
    for line in targets(schemes, got, n):
        print("| %s | %s | %s |" % line)
    print()


def worst(schemes, got, labels, against):
    """The largest airtime ratio of a grid row to AGAINST over LABELS."""
    by = {s.key: s for s in schemes}
    w = 0.0
    for label in labels:
        for k in ("d1-grid", "d2-grid"):
            ms = per_delivered(by[k], got[k, label])[1]
            base = per_delivered(by[against], got[against, label])[1]
            w = max([w] + [ratio(ms[sf], base[sf]) for sf in SFS])
    return w


def targets(schemes, got, n):
    low = [c[0] for c in CONDITIONS if c[1] <= 0.05]
    high = [c[0] for c in CONDITIONS if c[1] == 0.10]
    g = worst(schemes, got, low, "gcm")
    lw = worst(schemes, got, low, "lorawan")
    g10 = worst(schemes, got, high, "gcm")
    d5 = min(got[k, "5%"] for k in ("d1-grid", "d2-grid")) / n
    return [("airtime at most 0.8x AES-GCM at 0, 1, 5% (both models, SF7 and SF12)",
             "worst %.3fx" % g, "yes" if g <= 0.8 else "no"),
            ("airtime at most 1.0x LoRaWAN at 0, 1, 5%",
             "worst %.3fx" % lw, "yes" if lw <= 1.0 else "no"),
            ("airtime at most 1.0x AES-GCM at 10%", "worst %.3fx" % g10,
             "yes" if g10 <= 1.0 else "no"),
            ("at least 90% delivered at 5% independent loss",
             "%.2f%% (lower of the two suites)" % (100 * d5), "yes" if d5 >= 0.9 else "no")]


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", required=True)
    ap.add_argument("--json", help="also write the measured counts here")
    a = ap.parse_args(argv)
    build = os.environ.get("BUILD", "build")
    gateway = os.environ.get("AIR_GATEWAY", "software")
    if gateway not in ("software", "kernel"):
        raise SystemExit("air-bench: AIR_GATEWAY is software or kernel")
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    bench = Bench(a.n, a.seed, a.work, build, gateway)
    print("air-bench: N = %d, seed %d, gateway %s" % (a.n, a.seed, gateway), file=sys.stderr)
    schemes, got = measure(bench)
    if bench.kernel:
        runs = bench.kernel.run()
        print("air-bench: %d gateway runs repeated through diamond.ko in one VM, each "
              "output as the software path's" % runs, file=sys.stderr)
    command = "make bench-air AIR_N=%d AIR_SEED=%d%s" % (
        a.n, a.seed, "" if gateway == "software" else " AIR_GATEWAY=kernel")
    report(bench, schemes, got, command)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"n": a.n, "seed": a.seed,
                       "schemes": {s.key: {"name": s.name, "bytes": [len(p) for p in s.packets],
                                           "cycles": s.cycles} for s in schemes},
                       "delivered": {"%s|%s" % k: v for k, v in got.items()},
                       "targets": targets(schemes, got, a.n)}, f)


if __name__ == "__main__":
    main(sys.argv[1:])
