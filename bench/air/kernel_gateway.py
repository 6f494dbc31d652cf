# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The gateway of make bench-air AIR_GATEWAY=kernel: every run's
`diamondctl open` (--packet for the grid) again inside one VM of make
check's kernel (tools/vm/run-vm), with diamond.ko loaded, so the tags are
checked by the module (its tag grid for packets, the epoch tags for the
stream). The host's software run of the same state and the same arrived
bytes is the reference: each kernel run must exit as it did and print the
same JSON, byte for byte (sha256), and say it took the kernel path. One
boot for all runs: a boot costs far more than the runs under TCG.

Environment: TOP, BUILD, KMOD_KO (the module), DIAMONDCTL_STATIC (the
guest's diamondctl), as mk/bench-air.mk passes them.
"""

import hashlib
import os
import shutil
import subprocess

GUEST = """modprobe diamond || echo "@@note modprobe diamond failed"
for j in /w/j*; do
	k=${j#/w/}
	diamondctl open $(cat $j/args) --state-dir $j/st <$j/in >$j/out 2>$j/err
	echo "@@$k $? $(sha256sum <$j/out | cut -d' ' -f1) $(grep -c '' <$j/err)"
	sed "s/^/@@err$k /" $j/err
done
"""


class KernelGateway:
    def __init__(self, work):
        self.dir = os.path.join(work, "kernel-gateway")
        self.jobs = []
        env = os.environ
        self.top = env.get("TOP") or os.path.dirname(os.path.dirname(
            os.path.dirname(os.path.abspath(__file__))))
        self.build = env.get("BUILD", os.path.join(self.top, "build"))
        self.ko = env.get("KMOD_KO", "")
        self.ctl = env.get("DIAMONDCTL_STATIC", "")
        for what, path in (("KMOD_KO", self.ko), ("DIAMONDCTL_STATIC", self.ctl)):
            if not os.path.isfile(path):
                raise SystemExit("air-bench: AIR_GATEWAY=kernel needs %s (%r): make passes it"
                                 % (what, path))

    def add(self, state, arrived, packet, rc, out):
        """Queue a run: the state directory as provisioned, the bytes that
        arrived, and the host's software exit status and JSON output."""
        j = os.path.join(self.dir, "j%d" % len(self.jobs))
        shutil.copytree(state, os.path.join(j, "st"))
        shutil.copyfile(arrived, os.path.join(j, "in"))
        with open(os.path.join(j, "args"), "w") as f:
            f.write("--packet\n" if packet else "\n")
        want = hashlib.sha256(open(out, "rb").read()).hexdigest()
        self.jobs.append((rc, want, out))

    def run(self):
        """Boot once, run every queued job; a SystemExit naming the first
        run that differs from the software path. Returns the runs' count."""
        open(os.path.join(self.dir, "guest.sh"), "w").write(GUEST)
        r = subprocess.run([os.path.join(self.top, "tools", "vm", "run-vm"), "--timeout", "1800",
                            "--module", self.ko, "--file", self.ctl + ":/bin/diamondctl",
                            "--file", self.dir + ":/w", "--", "sh /w/guest.sh"],
                           env=dict(os.environ, BUILD=os.path.join(self.build, "vm")),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = [line.rstrip("\r") for line in r.stdout.splitlines()]
        if r.returncode:
            raise SystemExit("air-bench: the gateway VM exited %d: %s" % (
                r.returncode, "\n".join((lines + r.stderr.splitlines())[-15:])))
        got = {}
        for line in lines:
            if line.startswith("@@j"):
                k, rc, digest, _ = line[2:].split(" ", 3)
                got[k] = (int(rc), digest)
        for i, (rc, want, out) in enumerate(self.jobs):
            k = "j%d" % i
            err = [line.split(" ", 1)[1] for line in lines
                   if line.startswith("@@err%s " % k)]
            if got.get(k) != (rc, want) or not any("(kernel)" in e for e in err):
                raise SystemExit("air-bench: kernel run %s (%s) differs from the software "
                                 "path: %s, want exit %d sha256 %s; %s"
                                 % (k, out, got.get(k), rc, want, " | ".join(err)))
        return len(self.jobs)
