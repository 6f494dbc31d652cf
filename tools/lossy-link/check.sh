#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# TAP checks of the lossy-link simulator (tools/lossy-link/lossy-link.c):
#   check.sh LOSSY-LINK [common options]
# Deterministic: every run has a fixed seed. Exit status: failures.
sim=$1
shift
n=0
fail=0

# delivered records of one run, from its "delivered D/S" field
run() {
	"$sim" "$@" | sed -n 's/.*delivered \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p'
}

check() {
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fail=$((fail + 1))
	fi
}

echo "TAP version 13"
echo "1..6"
for g in 1024 64 16 1; do
	set -- $(run "$@" --epochs 20 --loss 0 --corrupt 0 --g $g) "$@"
	d=$1 s=$2
	shift 2
	[ -n "$d" ] && [ "$d" = "$s" ] && r=ok || r=fail
	check $r "0% loss, duplicates and reorders, g = $g: $d of $s delivered"
done
set -- $(run "$@" --loss 0.01 --corrupt 0 --g 16) "$@"
d=$1 s=$2
shift 2
# at least 84%: 100 * d >= 84 * s
[ -n "$d" ] && [ $((100 * d)) -ge $((84 * s)) ] && r=ok || r=fail
check $r "1% loss, b = 1024, g = 16: $d of $s delivered (at least 84%)"
set -- $(run "$@" --loss 0.01 --corrupt 0.001 --g 16) "$@"
d=$1 s=$2
shift 2
# damaged frames cost their group and nothing else: 80% or more
[ -n "$d" ] && [ $((100 * d)) -ge $((80 * s)) ] && r=ok || r=fail
check $r "1% loss and 0.1% damaged frames, g = 16: $d of $s delivered"
exit $fail
