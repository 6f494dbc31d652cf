#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dkms-cell.sh CELL: make check-dkms (dkms.sh) on the kernel of one cell of
# the gateway matrix (make check-dkms-matrix): x86_64-LINE, arm64-LINE or
# pi4-LINE, LINE 6.1, 6.12 or newest. tools/kernel/kcell --dkms describes
# the kernel (headers, chroot, image, modules), and check-dkms gets that
# description as make variables, as tools/kernel/run-cell passes it to the
# kernel suites: dkms builds for that kernel and the VM boots it. TAP goes
# to $TAPDIR/dkms-CELL.tap and dkms-CELL-kat.tap, and one line is printed:
#   cell arm64-6.12     6.12.117+deb12-arm64     107 passed, 0 failed, 0 skipped  PASS  49 s
# A cell that cannot run, or whose dkms steps skip, prints a loud SKIP and
# fails. A pi4 cell runs the arm64 kernel, so dkms builds the same module
# as for arm64-LINE; only the VM differs: the Cortex-A72 without the Crypto
# Extensions (tools/kernel/cell.sh).
# Environment: TOP, BUILD, TAPDIR, KCACHE (default $BUILD/kcache), MAKE.
set -uo pipefail

cell=${1:?usage: dkms-cell.sh CELL}
TOP=${TOP:?} BUILD=${BUILD:?} TAPDIR=${TAPDIR:?}
KCACHE=${KCACHE:-$BUILD/kcache} MAKE=${MAKE:-make}
out=$BUILD/dkms-matrix/$cell tap=$TAPDIR/dkms-$cell
rm -rf "$out"
mkdir -p "$out" "$TAPDIR"
rm -f "$tap.tap" "$tap-kat.tap"
start=$SECONDS kver=

cant_run() {
	printf 'TAP version 13\n1..1\nnot ok 1 dkms cell %s cannot run: %s\n' "$cell" "$1" >"$tap.tap"
	printf 'cell %-14s %-24s SKIP (counts as failed): %s\n' "$cell" "${kver:--}" "$1"
	exit 1
}

. "$TOP/tools/kernel/cell.sh"
cell_setup "$cell" --dkms

env ${vm[@]+"${vm[@]}"} "$MAKE" --no-print-directory -C "$TOP" check-dkms "${vars[@]}" \
	TAPDIR="$TAPDIR" DKMS_TAP="dkms-$cell" >"$out/check-dkms.log" 2>&1
why=$(sed -n 's/^ok [0-9]* - .*# SKIP //p' "$tap.tap" 2>/dev/null | head -n1)
[ -z "$why" ] || cant_run "$why"
tap_verdict "$tap.tap" "$tap-kat.tap"
[ -f "$tap.tap" ] && [ -f "$tap-kat.tap" ] || verdict=FAIL
printf 'cell %-14s %-24s %s  %s  %d s\n' "$cell" "$kver" "${sum:-no results}" "$verdict" \
	$((SECONDS - start))
[ "$verdict" = PASS ]
