#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# report-related.sh DOCDIR: the related-systems part of comparison.md
# (issue 22), printed to stdout for bench/report.sh: Diamond against the
# plain AEADs of the CCM / GCM / OCB study, UMAC and the host's OpenSSL
# AEADs, per platform and record size; the study's ordering on each
# platform; the re-keying PRF against Diamond1's key-chain AES calls; the
# Sonikku primitives and SuperSonic per call.
# Reads host-callgrind.csv (b = 1024) and embedded.csv through
# bench/related-table.sh, rekey.csv and sonikku.csv.
set -euo pipefail
D=$1
RK=$D/rekey.csv SK=$D/sonikku.csv

# platform,scheme,rec,online,total per record, sender side, b = 1024.
rows() { "$(dirname "$0")/related-table.sh" --rows "$D"; }

echo "## Related systems: per record, online / total (issue 22)"
echo
echo "Sender, b = 1024 records per epoch, per record: *online* = seal plus the"
echo "epoch's close shared out, *total* = online + offline (begin, precompute)."
echo "Host: callgrind instructions (\`bench-compare callgrind\`); Cortex-M4: qemu"
echo "instructions; ATmega2560: simavr cycles. D2/X: Diamond2's figure over the"
echo "scheme's at 16 and 95 B (below 1: Diamond2 is cheaper). GCM, CCM, OCB3,"
echo "UMAC and AEZ are our C on the core's AES; AES-128-GCM/OCB and"
echo "ChaCha20-Poly1305 are OpenSSL (host only, AES-NI); AEZ runs on the host"
echo "only; OCB3 here is the sender's half (no inverse AES). The table is"
echo "\`bench/related-table.sh\` (what each gives and lacks:"
echo "\`bench/related-props.txt\`); the kernel rows are \`make bench-nh-cells\`."
echo
"$(dirname "$0")/related-table.sh" "$D"
echo

echo "## The CCM / GCM / OCB study's ordering on our platforms"
echo
echo "Total per record, cheapest first, from the tables above. The host row"
echo "uses our portable code (GCM, CCM, OCB3), not OpenSSL's."
echo
echo "| platform | rec | ordering (total per record) |"
echo "|---|---|---|"
rows | awk -F, '
$2 == "GCM" || $2 == "CCM" || $2 == "OCB3" { v[$1, $3, $2] = $5; seen[$1, $3] = 1 }
END {
	split("host m4 avr", P, " "); split("16 64 95 128", R, " ")
	for (i = 1; i <= 3; i++) for (j = 1; j <= 4; j++) {
		p = P[i]; r = R[j]
		if (!((p, r) in seen)) continue
		a[1] = "GCM"; a[2] = "CCM"; a[3] = "OCB3"
		for (x = 1; x <= 3; x++) for (y = x + 1; y <= 3; y++)
			if (v[p, r, a[y]] < v[p, r, a[x]]) { t = a[x]; a[x] = a[y]; a[y] = t }
		printf "| %s | %d | %s %.0f < %s %.0f < %s %.0f |\n", p, r,
			a[1], v[p, r, a[1]], a[2], v[p, r, a[2]], a[3], v[p, r, a[3]]
	}
}'
echo

if [ -s "$RK" ]; then
	echo "## Data-dependent re-keying: F(K, X) = E(E(K, X), X) against Diamond1's key chain"
	echo
	echo "Per call, mean of 64 (\`bench/fw/rekey_fw.c\`; AVR cycles, M4 instructions)."
	echo "Diamond1's chain step is R_{j+1} = E(R_j, 0^16) after the key schedule of"
	echo "R_j; its slot without keystream adds H and P (3 CTR blocks in all)."
	echo
	echo "| platform | F(K, X) | key schedule | one block | D1 chain step | D1 slot, 48 B | chain step with F | F step / D1 step |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %d | %d | %d | %d | %d | %d | %.2f |\n",
		$1, $2, $3, $4, $5, $6, $7, $7 / $5 }' "$RK"
	echo
fi

if [ -s "$SK" ]; then
	echo "## Sonikku: SKINNY, ForkSkinny and SuperSonic per call"
	echo
	echo "Per call, mean of 8 (\`bench/fw/sonikku_fw.c\`; AVR cycles, M4 instructions),"
	echo "portable constant-time C (bench/baselines/skinny128.c, forkskinny.c,"
	echo "supersonic.c). FS = ForkSkinny, C1 = the right branch only; SuperSonic"
	echo "with K' and L set up, both output halves."
	echo
	echo "| platform | SKINNY-128-384 | FS-128-384 C1 | FS-128-384 both | SuperSonic-384 set-up | SuperSonic-384 16 / 64 / 95 / 128 B | SuperSonic-256 16 / 64 / 95 / 128 B | SKINNY-128-256 | FS-128-256 C1 |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %d | %d | %d | %d | %d / %d / %d / %d | %d / %d / %d / %d | %d | %d |\n",
		$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15 }' "$SK"
	echo
fi
