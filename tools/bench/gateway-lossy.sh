#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The delivered fraction through `diamondctl open --software` over a lossy
# link: one device provisioned with b and g, EPOCHS full epochs of 16-byte
# records sealed by `diamondctl seal`, each frame dropped with probability
# LOSS by `lossy-link --filter` (seeded; no duplicates, reorders or
# damage), the rest opened by the gateway.
#
#   tools/bench/gateway-lossy.sh [LOSS [G [B [EPOCHS [SEED]]]]]
#   (defaults 0.01 16 1024 50 1; D and LL name diamondctl and lossy-link)
#
# Prints: loss, b, g, records sent, frames kept (of all sent), records delivered,
# the delivered fraction and the ideal (1 - LOSS)^(g + 1) (a group needs
# its g record frames and its tag frame).
set -eu
LOSS=${1:-0.01} G=${2:-16} B=${3:-1024} EPOCHS=${4:-50} SEED=${5:-1}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
D=${D:-$TOP/build/userspace/diamondctl}
LL=${LL:-$TOP/build/host/lossy-link}
dir=$(mktemp -d "${TMPDIR:-/dev/shm}/gwlossy.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$D" -q keygen -o root
"$D" -q provision --root root --device 1 --suite 2 --agg xor --b "$B" \
	--group-size "$G" --blob dev.bin --state-dir st
awk -v n=$((B * EPOCHS)) 'BEGIN { for (i = 0; i < n; i++) printf "reading-%08d\n", i }' |
	"$D" seal --blob dev.bin >frames.bin
"$LL" --filter --loss "$LOSS" --corrupt 0 --reorder 0 --dup 0 --seed "$SEED" \
	<frames.bin >lossy.bin 2>kept.txt
"$D" -q open --state-dir st --software --input lossy.bin >out.json 2>/dev/null || true
sent=$((B * EPOCHS))
kept=$(sed -n 's/.* frames in, \([0-9]*\) out .*/\1/p' kept.txt)
got=$(grep -c '"index"' out.json || true)
# Each delivered record once, and the true plaintext.
bad=$(grep '"index"' out.json | sed -n 's/.*"index":\([0-9]*\),"data":"reading-\([0-9]*\)".*/\1 \2/p' |
	awk -v b="$B" '{ if ($2 % b != $1) n++ } END { print n + 0 }')
dups=$(grep '"index"' out.json | sed 's/"data".*//' | sort | uniq -d | wc -l)
awk -v p="$LOSS" -v b="$B" -v g="$G" -v s="$sent" -v k="$kept" -v d="$got" \
    -v bad="$bad" -v dups="$dups" 'BEGIN {
	printf "loss %g b %d g %d: records sent %d, frames kept %d, delivered %d (%.1f%%), ideal (1-p)^(g+1) %.1f%%, wrong %d, twice %d\n",
		p, b, g, s, k, d, 100 * d / s, 100 * (1 - p) ^ (g + 1), bad, dups }'
