#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-fleet-bench: make bench-fleet's parts (a) and (c) small, as a
# smoke check. (a) at one cell: three gateways at 5% Bernoulli loss each,
# g = 16, 10 devices x
# 1,024 readings, one verifier (tools/bench/fleet-bench.sh, seeded at
# random; the seed printed, FLEET_SEED repeats it). The documented
# outcome: the table has its header and one row of 12 columns, the
# verifier delivers exactly what the three links' union holds in whole
# groups, none twice, and at least 99% of the 10,240 readings (a group
# lost costs 16; 1% is 6.4 groups, where the union loses 1.1 on average).
# (c) with 200 devices (provision --devices, seal --devices, one verifier
# holding them all): every one of the 3,200 readings delivered (the
# script's exit status also says none had other content).
#
# Environment: D (diamondctl), LOSSY (lossy-link).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib/tap.sh"
echo "TAP version 13"
SEED=${FLEET_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "# seed $SEED (FLEET_SEED=$SEED repeats this run)"
out=$(mktemp)
trap 'rm -f "$out" "$out.err"' EXIT
BENCH_FLEET_SEED=$SEED BENCH_FLEET_MODELS=bernoulli BENCH_FLEET_LOSSES=0.05 \
	BENCH_FLEET_MIN=0.99 BENCH_FLEET_HOLD=200 \
	"$HERE/../../tools/bench/fleet-bench.sh" a c >"$out" 2>"$out.err"
rc=$?
if [ $rc = 77 ]; then
	skip "make bench-fleet's smoke cell" "$(tail -1 "$out.err")"
	tap_end
	exit
fi
sed 's/^/# /' "$out"
ok $rc "fleet-bench.sh a c, Bernoulli 5%: exit status 0 (delivered fraction at least 0.99, no wrong content; (c) all delivered)"
row=$(grep '^| (a) Bernoulli | 5% |' "$out")
check "the table: its header, its rule and two rows, 12 columns each" \
	sh -c "[ \"\$(grep -c '^|' '$out')\" = 4 ] && grep '^|' '$out' | awk -F'|' 'NF != 14 { bad = 1 } END { exit bad }'"
read -r delivered ideal frac dups <<<"$(echo "$row" | awk -F'|' '{ d = $8; sub(/ *\(ideal /, " ", d); sub(/\) */, "", d); print d, $9, $10 }')"
check "every reading of the union's whole groups delivered, no other ($delivered, ideal $ideal)" test "$delivered" = "$ideal"
check "at least 99% of the 10240 readings ($frac)" awk -v f="$frac" 'BEGIN { exit !(f >= 0.99) }'
check "no duplicates ($dups)" test "$dups" = 0
read -r cdev csent cdelivered <<<"$(grep '^| (c) ' "$out" | awk -F'|' '{ print $6, $7, $8 }')"
check "(c) one verifier holding 200 devices: all $csent readings delivered ($cdelivered)" \
	sh -c "[ '$cdev' = 200 ] && [ '$csent' = 3200 ] && [ '$cdelivered' = 3200 ]"
tap_end
