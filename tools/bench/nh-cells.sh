#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck disable=SC1091,SC2154 # cell.sh's cell_setup sets kver, vm and vars
#
# nh-cells.sh OUT CELL...: make bench-nh (dmd_floor.ko's nh parameter:
# Poly1305 against the kernel's nhpoly1305 per long record, -icount) in
# each cell of the gateway matrix (tools/kernel/cell.sh names them), one
# after the other; OUT gets "== cell CELL", "kernel KVER" and the module's
# lines per cell (bench/related-table.sh reads it). A cell that cannot run leaves a
# "skip" line and makes the exit status 1.
set -uo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
KCACHE=${KCACHE:-$BUILD/kcache}
MAKE=${MAKE:-make}
dst=${1:?usage: nh-cells.sh OUT CELL...}
shift
# shellcheck source=tools/kernel/cell.sh
. "$TOP/tools/kernel/cell.sh"
rc=0
tmp=$(mktemp)
for cell in "$@"; do
	out=$BUILD/bench-nh/$cell
	mkdir -p "$out"
	rm -f "$out/bench-nh.log"
	echo "== cell $cell" >>"$tmp"
	# cell_setup calls cant_run and expects it not to return.
	cant_run() { echo "skip nhpoly1305: cell cannot run: $1"; exit 1; }
	(
		cell_setup "$cell"
		echo "kernel $kver"
		env ${vm[@]+"${vm[@]}"} "$MAKE" --no-print-directory -C "$TOP" bench-nh \
			"${vars[@]}" >"$out/bench-nh.log" 2>&1 ||
			cant_run "make bench-nh failed, $out/bench-nh.log"
		grep -E '^(driver|nh|vmac|skip|error|status) ' "$out/bench-nh.log"
	) >>"$tmp" || rc=1
	# A kernel without nhpoly1305 says so ("skip"): a result, not a failure.
	grep -qE '^(status ok|skip nhpoly1305: not in)' "$out/bench-nh.log" 2>/dev/null || rc=1
done
mv -f "$tmp" "$dst"
exit $rc
