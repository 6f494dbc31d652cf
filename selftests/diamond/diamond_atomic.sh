#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# diamond_atomic.sh: TAP for dmd_atomic.ko (atomic/dmd_atomic.c), which at
# load drives both suites from a timer softirq with requests that may not
# sleep and counts, with kprobes, sleeping allocations, mutex calls, vfree
# and cond_resched/wait_for_completion on that path. Every count must be 0,
# and each suite must have completed seals and refused forged opens.
# Exit 4 (skip) when the module is not next to this script, or diamond.ko
# is not loaded.

dir=$(cd "$(dirname "$0")" && pwd)
ko=$dir/dmd_atomic.ko
p=/sys/module/dmd_atomic/parameters
echo "TAP version 13"
if [ ! -f "$ko" ]; then
	echo "1..0 # SKIP dmd_atomic.ko not built"
	exit 4
fi
if [ ! -d /sys/module/diamond ]; then
	echo "1..0 # SKIP diamond.ko not loaded"
	exit 4
fi
if ! insmod "$ko"; then
	echo "1..1"
	echo "not ok 1 insmod dmd_atomic.ko"
	exit 1
fi
fail=0 n=0
result() { # ok? description
	n=$((n + 1))
	if [ "$1" = 1 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fail=1; fi
}
field() { # param suite -> value
	cut -d, -f$(($2 + 1)) "$p/$1"
}
missing=$(cat "$p/probes_missing")
result "$([ "$missing" = 0 ] && echo 1)" "all kprobes registered ($missing missing)"
for s in 1 2; do
	ok=$(field ok $s) bad=$(field badmsg $s) again=$(field eagain $s)
	other=$(field other_err $s)
	echo "# suite$s from softirq: $ok sealed, $bad forged opens refused, $again busy retries, $other other errors"
	result "$([ "$ok" -ge 10 ] && [ "$bad" -ge 5 ] && [ "$other" = 0 ] && echo 1)" \
		"suite$s: requests without MAY_SLEEP complete from softirq ($ok sealed, $bad EBADMSG, $other other)"
	for c in sleeping_alloc mutex_calls vfree_calls resched; do
		v=$(field $c $s)
		result "$([ "$v" = 0 ] && echo 1)" "suite$s: $c from softirq = $v"
	done
done
rmmod dmd_atomic
echo "1..$n"
exit $fail
