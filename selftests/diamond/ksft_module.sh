# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# ksft_module.sh: sourced by the tests that load a test module of their own
# (diamond_atomic.sh, diamond_race.sh) and report its read-only parameters
# as TAP. Set dir, then call ksft_module_load NAME: prints the TAP header,
# exits 4 (skip) when NAME.ko is not in $dir or diamond.ko is not loaded,
# exits 1 when NAME.ko does not load, and sets p to its parameters.
# result OK DESCRIPTION prints the next TAP line (OK is 1 for a pass) and
# field PARAM INDEX reads one element of an array parameter.

ksft_module_load() {
	echo "TAP version 13"
	if [ ! -f "$dir/$1.ko" ]; then
		echo "1..0 # SKIP $1.ko not built"
		exit 4
	fi
	if [ ! -d /sys/module/diamond ]; then
		echo "1..0 # SKIP diamond.ko not loaded"
		exit 4
	fi
	if ! insmod "$dir/$1.ko"; then
		echo "1..1"
		echo "not ok 1 insmod $1.ko"
		exit 1
	fi
	p=/sys/module/$1/parameters
	fail=0 n=0
}

result() { # ok? description
	n=$((n + 1))
	if [ "$1" = 1 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fail=1; fi
}

field() { # param index -> value
	cut -d, -f$(($2 + 1)) "$p/$1"
}
