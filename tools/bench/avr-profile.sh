#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# avr-profile.sh ELF REGION [DIVISOR]: where the cycles of one runner region
# go, per function (a benchmark aid, not a test). Runs the firmware under
# tools/avr-run --profile (exact simavr cycles per flash word while region
# REGION is open), maps each address to the text symbol that contains it
# (avr-nm), and prints cycles per function divided by DIVISOR (default 1;
# the embedded benchmark firmware uses 1024, one epoch of records), largest
# first, with the region's total. Example, Diamond2's online seal at 16 B:
#   tools/bench/avr-profile.sh build/embedded/avr/bench-d2-16.elf 3 1024
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
[ $# -ge 2 ] || { echo "usage: $0 ELF REGION [DIVISOR]" >&2; exit 2; }
elf=$1 region=$2 div=${3:-1}

prof=$(mktemp)
syms=$(mktemp)
trap 'rm -f "$prof" "$syms"' EXIT
"$BUILD/tools/avr-run" --profile "$prof" --profile-region "$region" "$elf" \
	>/dev/null 2>&1 || true
# Function and object symbols in flash, by address (t/T text, local or not).
avr-nm -n -t d "$elf" | awk '$2 ~ /^[tT]$/ { print $1, $3 }' >"$syms"

awk -v div="$div" '
function hex(s,   i, v) {	# "0x1f2" -> 498 (mawk has no strtonum)
	v = 0
	for (i = 3; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
FNR == NR { addr[n] = $1 + 0; name[n] = $2; n++; next }
{
	a = hex($1); c = $2
	# last symbol at or below a (both lists are sorted by address)
	while (i + 1 < n && addr[i + 1] <= a) i++
	f = (n && addr[i] <= a) ? name[i] : "?"
	sum[f] += c; total += c
}
END {
	for (f in sum)
		printf "%12.1f %6.2f%%  %s\n", sum[f] / div, 100 * sum[f] / total, f
	printf "%12.1f %6.2f%%  %s\n", total / div, 100, "(region total)" > "/dev/stderr"
}' "$syms" "$prof" | sort -rn
