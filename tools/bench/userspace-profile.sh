#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-profile.sh [SUITE [TOP]]: where the guest's kernel instructions
# of a steady-state epoch at 10,000 devices go (make profile-userspace; a
# development tool, not a test). Boots the run-vm guest twice under the
# pc-histogram plugin (nokaslr, so addresses repeat), running diamondctl
# bench --devices 10000 --b 1024 --size 16 with 512 and then 384 epochs,
# kernel path with clear keys; the difference of the two histograms is the
# 128 epochs 385 to 512, all past the first LRU eviction (the 257th), so
# each re-keys an evicted tfm. Per epoch, the TOP (default 40) kernel
# functions; userspace (both paths) is not counted.
set -euo pipefail

TOP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP_DIR/build}
SUITE=${1:-2}
SHOW=${2:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {	# run EPOCHS OUT: histogram of one boot; kallsyms on the console
	RUN_VM_MEM=2048 BUILD=$BUILD/vm "$TOP_DIR/tools/vm/run-vm" --icount \
		--timeout 5000 --plugin "$BUILD/tools/pc-histogram.so,out=$2" \
		--module "${KMOD_KO:?}" --file "${US_GUEST_CTL:?}:/bin/diamondctl" -- \
		"modprobe diamond; mkdir -p /b;
		 diamondctl bench --devices 10000 --b 1024 --size 16 --suite $SUITE \
			--epochs $1 --dir /b | grep '^open';
		 grep -i ' t ' /proc/kallsyms | sed 's/^/SYM /'"
}

echo "userspace-profile: suite $SUITE, 10,000 devices, 512 and 384 epochs (two boots)" >&2
run 512 "$tmp/a" | tee "$tmp/log" | sed -n 's/^SYM //p' >"$tmp/syms"
grep '^open' "$tmp/log" >&2 || true
run 384 "$tmp/b" >/dev/null
[ -s "$tmp/syms" ] || { echo "userspace-profile: no symbols from the guest" >&2; exit 1; }

python3 "$TOP_DIR/tools/bench/pc-diff.py" "$tmp/a" "$tmp/b" "$tmp/syms" "$SHOW" 128 \
	"epoch (epochs 385 to 512)"
