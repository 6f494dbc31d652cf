# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# TAP for the shell test scripts (sourced, bash). Each result is numbered
# as it comes; tap_end prints the plan and fails if any result failed.
#
#   ok STATUS NAME       ok when STATUS is 0
#   check NAME CMD...    ok when CMD succeeds (its output is dropped)
#   skip NAME WHY        a loud skip, never a pass

n=0 failed=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
check() { local d=$1; shift; "$@" >/dev/null 2>&1; ok $? "$d"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
tap_end() { echo "1..$n"; [ "$failed" -eq 0 ]; }
