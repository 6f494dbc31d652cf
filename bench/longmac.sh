#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# longmac.sh ELF CSV: run bench/fw/longmac_fw.c on the Cortex-M4 (qemu,
# tools/m4-run --count: executed instructions, one region per MAC and
# length in the firmware's order) and write CSV "mac,len,insns" to CSV;
# then print the Markdown table of SuperSonic against ZMAC (issue 32):
# instructions per byte and ZMAC / SuperSonic per length.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
elf=${1:?usage: longmac.sh ELF CSV}
csv=${2:?usage: longmac.sh ELF CSV}
MACS="ZMAC-256 ZMAC-192 PMAC1 PMAC2x-256 PMAC2x-192 SuperSonic-384 SuperSonic-256 VMAC-64 VMAC-128"
LENS="16 64 256 1024 4096 16384 65536"
f=$(mktemp)
trap 'rm -f "$f"' EXIT
BUILD=${BUILD:-$TOP/build} "$TOP/tools/m4-run" --count --timeout 600 --plugin-out "$f" "$elf" >/dev/null
want=$(( $(wc -w <<<"$MACS") * $(wc -w <<<"$LENS") ))
got=$(grep -c 'insn-count: region [0-9]* insns=' "$f" || true)
[ "$got" = "$want" ] || { echo "longmac: $got regions, expected $want" >&2; cat "$f" >&2; exit 1; }
awk -v macs="$MACS" -v lens="$LENS" '
BEGIN { nm = split(macs, M, " "); nl = split(lens, L, " "); print "mac,len,insns" }
/insn-count: region [0-9]+ insns=/ {
	r = $3 - 1; split($4, a, "=")
	printf "%s,%s,%s\n", M[int(r / nl) + 1], L[r % nl + 1], a[2]
}' "$f" >"$csv.tmp"
mv "$csv.tmp" "$csv"

echo "| length | ZMAC-256 | ZMAC-192 | SuperSonic-384 | SuperSonic-256 | PMAC1 | PMAC2x-256 | PMAC2x-192 | VMAC-64 | VMAC-128 | ZMAC-256 / SuperSonic-384 | ZMAC-256 / SuperSonic-256 | ZMAC-192 / SuperSonic-256 |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
awk -F, -v lens="$LENS" '
NR > 1 { c[$1, $2] = $3 }
function cell(m, l) { return sprintf("%d (%.1f/B)", c[m, l], c[m, l] / l) }
END {
	n = split(lens, L, " ")
	for (i = 1; i <= n; i++) {
		l = L[i]
		printf "| %d B | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %.2f | %.2f |\n", l,
			cell("ZMAC-256", l), cell("ZMAC-192", l), cell("SuperSonic-384", l),
			cell("SuperSonic-256", l), cell("PMAC1", l), cell("PMAC2x-256", l),
			cell("PMAC2x-192", l), cell("VMAC-64", l), cell("VMAC-128", l),
			c["ZMAC-256", l] / c["SuperSonic-384", l], c["ZMAC-256", l] / c["SuperSonic-256", l],
			c["ZMAC-192", l] / c["SuperSonic-256", l]
	}
}' "$csv"
