#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# diamond_atomic.sh: TAP for dmd_atomic.ko (atomic/dmd_atomic.c), which at
# load drives both suites from a timer softirq with requests that may not
# sleep and counts, with the kmem tracepoints and kprobes, allocations (any
# gfp: a request on the diamond-prealloc instance, which its tfms are,
# allocates nothing), mutex calls, vfree and
# cond_resched/wait_for_completion on that path. Every count must be 0,
# the two instances of each name must be the ones kernel-api.rst (Memory)
# describes,
# and each suite must have completed seals and refused forged opens. A
# count whose probe point this kernel lacks is a SKIP naming the probe.
# Exit 4 (skip) when the module is not next to this script, or diamond.ko
# is not loaded.

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/ksft_module.sh"
ksft_module_load dmd_atomic
missing=$(cat "$p/missing")
[ -n "$missing" ] && echo "# probe points missing on $(uname -r): $missing"
skipped() { # counter -> the probes it lacks, space separated
	for m in $missing; do
		[ "${m%%:*}" = "$1" ] && printf '%s ' "${m#*:}"
	done
}
if [ -n "$(skipped allocs)" ]; then
	n=$((n + 1))
	echo "ok $n allocation probes see a kmalloc made while armed # SKIP no probe point $(skipped allocs)"
else
	cal=$(field allocs 3)
	result "$([ "$cal" -ge 1 ] && echo 1)" "allocation probes see a kmalloc made while armed ($cal counted)"
fi
for s in 1 2; do
	ok=$(field ok $s) bad=$(field badmsg $s) again=$(field eagain $s)
	other=$(field other_err $s)
	echo "# suite$s from softirq: $ok sealed, $bad forged opens refused, $again busy retries, $other other errors"
	result "$([ "$ok" -ge 10 ] && [ "$bad" -ge 5 ] && [ "$other" = 0 ] && echo 1)" \
		"suite$s: requests without MAY_SLEEP complete from softirq ($ok sealed, $bad EBADMSG, $other other)"
	result "$([ "$(field variants $s)" = 1 ] && echo 1)" \
		"suite$s: with CRYPTO_ALG_ALLOCATES_MEMORY masked the tfm is diamond-prealloc(...) without the flag; without, diamond(...) with it"
	for c in allocs mutex_calls vfree_calls resched; do
		v=$(field $c $s) lack=$(skipped $c)
		if [ -n "$lack" ]; then
			n=$((n + 1))
			echo "ok $n suite$s: $c from softirq # SKIP no probe point ${lack% } on this kernel"
			continue
		fi
		result "$([ "$v" = 0 ] && echo 1)" "suite$s: $c from softirq = $v"
	done
done
dmesg 2>/dev/null | grep 'dmd_atomic: .*allocations' | sed 's/^/# /'
rmmod dmd_atomic
echo "1..$n"
exit $fail
