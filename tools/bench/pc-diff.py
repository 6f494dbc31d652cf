#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# pc-diff.py A B SYMS SHOW REPS WHAT: the per-function difference of two
# pc-histogram.so histograms (A minus B, REPS repetitions of WHAT apart),
# functions named from the guest's /proc/kallsyms lines in SYMS; prints
# the SHOW costliest, instructions per repetition. kernel-profile.sh and
# userspace-profile.sh share it.
import bisect, collections, sys

a_path, b_path, sym_path = sys.argv[1], sys.argv[2], sys.argv[3]
show, reps, what = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]


def hist(path):
    h = collections.Counter()
    for line in open(path):
        pc, n = line.split()
        h[int(pc, 16)] += int(n)
    return h


syms = sorted((int(p[0], 16), p[2] + (' ' + p[3] if len(p) > 3 else ''))
              for p in (l.split() for l in open(sym_path)) if len(p) >= 3)
starts = [s for s, _ in syms]
a, b = hist(a_path), hist(b_path)
per_fn = collections.Counter()
for pc in a:
    d = a[pc] - b.get(pc, 0)
    if d > 0:
        i = bisect.bisect_right(starts, pc) - 1
        per_fn[syms[i][1] if i >= 0 else '?'] += d
total = sum(per_fn.values())
print('instructions per %s (%d of them): %d' % (what, reps, total // reps))
for name, n in per_fn.most_common(show):
    print('%10d  %5.1f%%  %s' % (n // reps, 100.0 * n / total, name))
