#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# related-table.sh [--plots OUTDIR | --rows] DOCDIR [PROPS]: the one table of issue
# 22 (item 6) in Markdown on stdout: per platform (host callgrind
# instructions, Cortex-M4 qemu instructions, ATmega2560 simavr cycles) and
# record size (16, 64, 95, 128 B), each related system's sender cost per
# record, online / total, Diamond2's over it, and what each scheme gives
# and lacks and what it puts on the air per 16-byte reading (PROPS,
# default bench/related-props.txt). Then, when
# DOCDIR/nh.txt exists (make bench-nh-cells), the kernel's nhpoly1305
# against Poly1305 per long record, and its vmac64(aes) against Poly1305
# and GHASH where nh.txt has vmac lines.
#
# Reads DOCDIR/host-callgrind.csv (the b = 1024 rows; online = tx_on, total
# = tx_off + tx_on) and DOCDIR/embedded.csv (online = the seal, total =
# offline + seal + the close shared out), as bench/report-related.sh does.
# --plots OUTDIR also draws OUTDIR/related-{host,m4,avr}.png (gnuplot):
# total per record against record size, one line per scheme, Diamond2's
# online dashed. --rows prints only the figures the table is made of, as
# "platform,scheme,rec,online,total" lines (bench/report-related.sh's
# orderings read them). Exits 1, saying why, on a CSV whose header is not the
# expected one or a measured scheme PROPS does not describe.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
plots='' only_rows=''
if [ "${1:-}" = --plots ]; then
	plots=${2:?--plots needs a directory}
	shift 2
elif [ "${1:-}" = --rows ]; then
	only_rows=1
	shift
fi
D=${1:?usage: related-table.sh [--plots OUTDIR | --rows] DOCDIR [PROPS]}
PROPS=${2:-$TOP/bench/related-props.txt}
HC=$D/host-callgrind.csv EM=$D/embedded.csv NH=$D/nh.txt
RELATED="Diamond1 Diamond2 GCM CCM OCB3 UMAC-64 UMAC-128 AEZ SuperSonic ZMAC-256 ZMAC-192 PMAC1 PMAC2x-256 VMAC-64 VMAC-128 AES-128-GCM AES-128-OCB ChaCha20-Poly1305"

die() { echo "related-table: $*" >&2; exit 1; }

# header FILE EXPECTED: FILE's first line must be EXPECTED.
header() {
	[ -r "$1" ] || die "$1: missing"
	[ "$(head -n1 "$1")" = "$2" ] || die "$1: header is not '$2'"
}
header "$HC" "scheme,rec,b,tx_off,tx_on,rx_off,rx_on"
header "$EM" "platform,scheme,rec,offline,online,close,total"
[ -r "$PROPS" ] || die "$PROPS: missing"

# platform,scheme,rec,online,total per record, sender side, b = 1024,
# related schemes only.
rows() {
	{
		awk -F, 'NR > 1 && $3 == 1024 { printf "host,%s,%s,%s,%s\n", $1, $2, $5, $4 + $5 }' "$HC"
		awk -F, 'NR > 1 { printf "%s,%s,%s,%s,%s\n", $1, $2, $3, $5, $7 }' "$EM"
	} | awk -F, -v list="$RELATED" 'BEGIN { n = split(list, S, " "); for (i = 1; i <= n; i++) keep[S[i]] = 1 }
		$2 in keep'
}

if [ -n "$only_rows" ]; then
	rows
	exit 0
fi
R=$(mktemp)
trap 'rm -f "$R"' EXIT
rows >"$R"

echo "| platform | scheme | 16 B | 64 B | 95 B | 128 B | D2/X online 16, 95 B | D2/X total 16, 95 B | forward security | aggregation | tag per record | precomputation | nonce | on the air per 16-B reading (bytes) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
awk -F'|' -v list="$RELATED" -v rows="$R" '
BEGIN {
	n = split(list, S, " "); split("host m4 avr", P, " ")
	T["host"] = "host (instructions)"; T["m4"] = "Cortex-M4 (instructions)"
	T["avr"] = "ATmega2560 (cycles)"
	while ((getline line < rows) > 0) {
		split(line, f, ",")
		on[f[1], f[2], f[3]] = f[4]; tot[f[1], f[2], f[3]] = f[5]
		have[f[1], f[2]] = 1
	}
}
/^#/ || NF == 0 { next }
NF != 7 { printf "related-table: %s: line %d has %d fields, not 7\n", FILENAME, FNR, NF > "/dev/stderr"; bad = 1; exit 1 }
{ prop[$1] = $2 " | " $3 " | " $4 " | " $5 " | " $6 " | " $7 }
function cell(p, s, r) {
	if (!((p, s, r) in on)) return "-"
	return sprintf("%.0f / %.0f", on[p, s, r], tot[p, s, r])
}
function ratio(a, p, s, r) {
	if (!((p, s, r) in a) || !((p, "Diamond2", r) in a) || a[p, s, r] <= 0) return "-"
	return sprintf("%.2f", a[p, "Diamond2", r] / a[p, s, r])
}
END {
	if (bad) exit 1
	for (i = 1; i <= 3; i++) for (j = 1; j <= n; j++) {
		p = P[i]; s = S[j]
		if (!((p, s) in have)) continue
		if (!(s in prop)) {
			printf "related-table: no line for %s in the properties file\n", s > "/dev/stderr"
			exit 1
		}
		printf "| %s | %s | %s | %s | %s | %s | %s, %s | %s, %s | %s |\n", T[p], s,
			cell(p, s, 16), cell(p, s, 64), cell(p, s, 95), cell(p, s, 128),
			ratio(on, p, s, 16), ratio(on, p, s, 95),
			ratio(tot, p, s, 16), ratio(tot, p, s, 95), prop[s]
	}
}' "$PROPS"

# The kernel's NH against Poly1305 (make bench-nh-cells: "== cell CELL"
# lines, then dmd_floor.ko's nh lines of that cell).
if [ -s "$NH" ]; then
	echo
	echo "| kernel cell | nhpoly1305 driver | record | poly1305 | nhpoly1305, fixed key | nhpoly1305, key per record | fixed / poly1305 | per record / poly1305 | ChaCha20 keystream | fixed key saves, of keystream + poly1305 |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk '
	/^== cell / { cell = $3; drv = "-" }
	/^driver nhpoly1305 / { drv = $3 }
	/^skip nhpoly1305/ { sub(/^skip nhpoly1305: */, ""); printf "| %s | none: %s | - | - | - | - | - | - | - | - |\n", cell, $0 }
	/^nh [0-9]+ poly1305 [0-9]+ nh-fixed [0-9]+ nh-rekeyed [0-9]+ chacha20 [0-9]+$/ {
		printf "| %s | %s | %d B | %d | %d | %d | %.2f | %.2f | %d | %.0f%% |\n", cell, drv,
			$2, $4, $6, $8, $6 / $4, $8 / $4, $10, 100 * ($4 - $6) / ($10 + $4)
		next
	}
	/^nh / { printf "related-table: %s: line %d is not floor_nh.c'"'"'s nh line\n", FILENAME, FNR > "/dev/stderr"; exit 1 }' "$NH"
fi

# The kernel's vmac64(aes) against Poly1305 per record (issue 32; the
# same make bench-nh-cells run: dmd_floor.ko's vmac lines, floor_vmac.c).
if [ -s "$NH" ] && grep -qE '^(vmac|skip vmac64)' "$NH"; then
	echo
	echo "| kernel cell | vmac64(aes), ghash drivers | record | poly1305 | ghash, key per record | vmac64(aes), fixed key | vmac64 / poly1305 | vmac64 / ghash |"
	echo "|---|---|---|---|---|---|---|---|"
	awk '
	/^== cell / { cell = $3; drv = "-" }
	/^driver vmac64 / { drv = $3 ", " $5 }
	/^skip vmac64/ { sub(/^skip vmac64: */, ""); printf "| %s | none: %s | - | - | - | - | - | - |\n", cell, $0 }
	/^vmac [0-9]+ poly1305 [0-9]+ ghash [0-9]+ vmac64 [0-9]+$/ {
		printf "| %s | %s | %d B | %d | %d | %d | %.2f | %.2f |\n", cell, drv, $2, $4, $6, $8, $8 / $4, $8 / $6
		next
	}
	/^vmac / { printf "related-table: %s: line %d is not floor_vmac.c'"'"'s vmac line\n", FILENAME, FNR > "/dev/stderr"; exit 1 }' "$NH"
fi

[ -n "$plots" ] || exit 0
command -v gnuplot >/dev/null || die "--plots: no gnuplot (Debian gnuplot-nox, tools/install-deps.sh)"
mkdir -p "$plots"
for p in host m4 avr; do
	case $p in
	host) t="Host x86-64 (callgrind), instructions per record"; y=instructions ;;
	m4) t="Cortex-M4 (qemu), instructions per record"; y=instructions ;;
	avr) t="ATmega2560 (simavr), cycles per record"; y=cycles ;;
	esac
	# One data block per scheme (gnuplot index), total per record by size.
	dat=$plots/related-$p.dat
	awk -F, -v p="$p" -v list="$RELATED" '
	BEGIN { n = split(list, S, " ") }
	$1 == p { tot[$2, $3] = $5; on[$2, $3] = $4; have[$2] = 1 }
	END {
		for (j = 1; j <= n; j++) {
			s = S[j]
			if (!(s in have)) continue
			printf "\"%s\"\n", s
			split("16 64 95 128", Z, " ")
			for (k = 1; k <= 4; k++) if ((s, Z[k]) in tot)
				printf "%s %s %s\n", Z[k], tot[s, Z[k]], on[s, Z[k]]
			printf "\n\n"
		}
	}' "$R" > "$dat"
	[ -s "$dat" ] || continue
	nblocks=$(grep -c '^"' "$dat")
	d2=$(grep -n '^"Diamond2"$' "$dat" | cut -d: -f1)
	d2=$(( $(head -n "${d2:-1}" "$dat" | grep -c '^"') - 1 ))
	gnuplot <<GP
set terminal pngcairo size 1000,700 font ",10"
set output "$plots/related-$p.png"
set title "$t, sender, b = 1024 (total; Diamond2 online dashed)"
set logscale y
set xlabel "record (bytes)"
set ylabel "$y (log scale)"
set xtics ("16" 16, "64" 64, "95" 95, "128" 128)
set key outside right
set grid ytics
plot for [i=0:$((nblocks - 1))] "$dat" index i using 1:2 with linespoints lw 2 title columnheader(1), \
     "$dat" index $d2 using 1:3 with linespoints dt 2 lw 2 pt 6 lc rgb "#555555" title "Diamond2 online"
GP
	rm -f "$dat"
done
