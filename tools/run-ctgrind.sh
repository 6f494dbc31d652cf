#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# run-ctgrind.sh PROGRAM: run a ctgrind test under valgrind memcheck and
# report, as TAP, its own results plus one more: that memcheck found no use
# of an undefined (secret) value in a branch or an address.
set -uo pipefail
prog=$1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
out=$(valgrind -q --error-exitcode=99 --log-file="$log" "$prog")
rc=$?
plan=$(grep -m1 -E '^1\.\.[0-9]+' <<<"$out" | cut -d. -f3)
echo "TAP version 13"
echo "1..$((plan + 1))"
grep -E '^(ok|not ok) ' <<<"$out"
if [ "$rc" -eq 99 ]; then
	sed 's/^/# /' "$log" | head -40
	echo "not ok $((plan + 1)) memcheck: secret-dependent branch or index"
elif [ "$rc" -ne 0 ]; then
	echo "not ok $((plan + 1)) memcheck run failed (exit $rc)"
else
	echo "ok $((plan + 1)) memcheck: no secret-dependent branch or index"
fi
