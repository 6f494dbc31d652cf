#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# bench-host.sh HOST_BENCH_BINARY: callgrind instruction counts per message
# for the portable core's offline precompute, online seal and verify, at
# b = 1024, for 16- and 128-byte records and both suites. Prints a Markdown
# table. Instruction counts are deterministic: the same binary gives the
# same figures on any load.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() {	# suite size function [group size]
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
		--toggle-collect="$3" "$bin" "$1" "$2" ${4:-} >/dev/null 2>&1
	awk '/^(summary|totals):/ { print $2; exit }' "$tmp/out"
}

echo "| suite | record | offline precompute | online seal | verify (open) | seal total |"
echo "|---|---|---|---|---|---|"
for suite in 1 2; do
	for size in 16 128; do
		off=$(count $suite $size bench_offline)
		on=$(count $suite $size bench_online)
		ver=$(count $suite $size bench_verify)
		printf '| Diamond%d | %d B | %d | %d | %d | %d |\n' "$suite" "$size" \
			$((off / 1024)) $((on / 1024)) $((ver / 1024)) \
			$(((off + on) / 1024))
	done
done
echo
echo "Instructions per message (callgrind Ir / 1024), b = 1024, XOR aggregation."
echo
echo "| suite | record | g | online seal | verify | seal added | verify added |"
echo "|---|---|---|---|---|---|---|"
for suite in 1 2; do
	on0=$(count $suite 16 bench_online)
	ver0=$(count $suite 16 bench_verify)
	for g in 64 16; do
		on=$(count $suite 16 bench_online $g)
		ver=$(count $suite 16 bench_verify $g)
		printf '| Diamond%d | 16 B | %d | %d | %d | %d | %d |\n' "$suite" \
			"$g" $((on / 1024)) $((ver / 1024)) \
			$(((on - on0) / 1024)) $(((ver - ver0) / 1024))
	done
done
echo
echo "Group tags (spec 5.1): instructions per message against g = b above."
