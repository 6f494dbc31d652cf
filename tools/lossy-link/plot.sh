#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# plot.sh LOSSY-LINK OUTDIR [options]: the delivered fraction against the
# frame loss rate for g = 1024, 64 and 16 (make lossy-plot), measured by
# the lossy-link simulator with the given options, beside the ideal
# (1-p)^(g+1) (g records and the tag frame). Writes OUTDIR/lossy-link.csv
# and OUTDIR/lossy-link.png (gnuplot).
set -euo pipefail
sim=$1
out=$2
shift 2
csv=$out/lossy-link.csv
mkdir -p "$out"
echo "loss,g,delivered,sent,fraction,ideal" >"$csv"
for g in 1024 64 16; do
	for p in 0 0.0005 0.001 0.002 0.005 0.01 0.02 0.03 0.05; do
		"$sim" "$@" --g "$g" --loss "$p" |
			sed -n 's/.*delivered \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p' |
			awk -v p="$p" -v g="$g" '{ printf "%s,%s,%s,%s,%.6f,%.6f\n",
				p, g, $1, $2, $1 / $2, (1 - p) ^ (g + 1) }' >>"$csv"
	done
done
gnuplot <<GP
set terminal png size 900,560 font ",10"
set output "$out/lossy-link.png"
set datafile separator ","
set title "Records delivered against frame loss, b = 1024 (tools/lossy-link, 500 epochs a point)"
set xlabel "frame loss rate p (%)"
set ylabel "records delivered (%)"
set yrange [0:102]
set key bottom left
set grid
plot for [g in "16 64 1024"] "$csv" using (\$2 == g ? 100 * \$1 : 1/0):(100 * \$5) \
	with linespoints pt 7 title sprintf("g = %s, measured", g), \
	for [g in "16 64 1024"] "$csv" using (\$2 == g ? 100 * \$1 : 1/0):(100 * \$6) \
	with lines dt 2 title sprintf("g = %s, ideal (1-p)^{g+1}", g)
GP
echo "wrote $csv and $out/lossy-link.png"
