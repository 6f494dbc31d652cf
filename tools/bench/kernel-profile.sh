#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# kernel-profile.sh [WHAT [TOP]]: where the guest instructions of one
# kernel-bench phase go, per kernel function (make profile-kernel; a
# development tool, not a test).
#
# Boots the run-vm guest twice under the pc-histogram plugin (nokaslr, so
# addresses repeat), running `kernel-bench VEC 21 WHAT` and then
# `kernel-bench VEC 1 WHAT`; the difference of the two histograms is 20
# repetitions of WHAT (default d2-online; see kernel-bench.c) without the
# boot. Addresses are named from the guest's /proc/kallsyms. Prints the TOP
# (default 30) functions, instructions per repetition. With FLOOR_KO set
# (make profile-kernel does) dmd_floor.ko is loaded too, so WHAT = floor
# profiles the floor of tools/bench/floor/.
set -euo pipefail

TOP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP_DIR/build}
WHAT=${1:-d2-online}
SHOW=${2:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

floor=()
[ -z "${FLOOR_KO:-}" ] || floor=(--module "$FLOOR_KO")

run() {	# run REPS OUT: histogram of one boot; kallsyms on the console
	BUILD=$BUILD/vm "$TOP_DIR/tools/vm/run-vm" --icount --timeout 1200 \
		--plugin "$BUILD/tools/pc-histogram.so,out=$2" \
		--module "${KMOD_KO:?}" ${floor[@]+"${floor[@]}"} \
		--file "${KBENCH:?}:/bin/kernel-bench" \
		--file "$TOP_DIR/vectors/diamond.txt:/diamond.txt" -- \
		"modprobe diamond; ${floor[*]:+modprobe dmd_floor;}
		 kernel-bench /diamond.txt $1 $WHAT >/dev/null;
		 grep -i ' t ' /proc/kallsyms | sed 's/^/SYM /'"
}

echo "kernel-profile: $WHAT, 21 and 1 repetitions (two boots)" >&2
run 21 "$tmp/a" | sed -n 's/^SYM //p' >"$tmp/syms"
run 1 "$tmp/b" >/dev/null
[ -s "$tmp/syms" ] || { echo "kernel-profile: no symbols from the guest" >&2; exit 1; }

python3 "$TOP_DIR/tools/bench/pc-diff.py" "$tmp/a" "$tmp/b" "$tmp/syms" "$SHOW" 20 repetition
