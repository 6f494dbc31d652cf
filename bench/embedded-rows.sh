#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# embedded-rows.sh: embedded.csv's rows ("platform,scheme,rec,offline,
# online,close,total", no header) for the schemes and record sizes given
# in the environment, from their firmware images (bench/fw/scheme_fw.c):
#   BENCH_FW_SCHEMES  schemes on both boards; BENCH_FW_M4_ONLY on the M4
#   BENCH_FW_RECS     record sizes; BENCH_FW_MSGS messages per image
#   BENCH_OUT, BUILD  where the images and the runners are
# AVR: exact cycles (tools/avr-run regions); Cortex-M4: executed
# instructions (tools/m4-run --count, one run per region id). Region ids:
# 1 begin, 2 refills, 3 seal, 4 close; offline = 1 + 2, online = 3,
# total = 1 + 2 + 3 + 4, each per message. Progress on stderr.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
OUT=${BENCH_OUT:-$BUILD/bench}
SCHEMES=${BENCH_FW_SCHEMES:?}
M4ONLY=${BENCH_FW_M4_ONLY-}
RECS=${BENCH_FW_RECS:-16 64 95 128}
MSGS=${BENCH_FW_MSGS:-1024}

name() {
	case $1 in
	diamond1) echo Diamond1 ;; diamond2) echo Diamond2 ;;
	faae1) echo FAAE1 ;; faae2) echo FAAE2 ;; faae2_128a) echo FAAE2-128a ;;
	graphene1) echo Graphene1 ;; graphene2) echo Graphene2 ;;
	gcm) echo GCM ;; ccm) echo CCM ;; ocb3) echo OCB3 ;;
	umac64) echo UMAC-64 ;; umac128) echo UMAC-128 ;;
	supersonic) echo SuperSonic ;;
	zmac256) echo ZMAC-256 ;; zmac192) echo ZMAC-192 ;; pmac1) echo PMAC1 ;;
	pmac2x256) echo PMAC2x-256 ;; vmac64) echo VMAC-64 ;; vmac128) echo VMAC-128 ;;
	*) echo "embedded-rows: no name for $1" >&2; exit 1 ;;
	esac
}

n=0 total=$(( $(wc -w <<<"$SCHEMES") * $(wc -w <<<"$RECS") ))
for s in $SCHEMES; do
	for r in $RECS; do
		n=$((n + 1))
		f=$(mktemp)
		"$BUILD/tools/avr-run" "$OUT/avr/$s-$r.elf" >/dev/null 2>"$f" ||
			{ echo "avr-run failed: $s-$r" >&2; cat "$f" >&2; exit 1; }
		awk -v m="$MSGS" -v s="$(name "$s")" -v r="$r" '
			/^avr-run: region/ { split($4, a, "="); c[$3] += a[2] }
			END { printf "avr,%s,%d,%.1f,%.1f,%.1f,%.1f\n", s, r,
				(c[1] + c[2]) / m, c[3] / m, c[4] / m,
				(c[1] + c[2] + c[3] + c[4]) / m }' "$f"
		rm -f "$f"
		printf '  avr %2d/%d %s-%s\n' "$n" "$total" "$s" "$r" >&2
	done
done

m4_sum() { BUILD=$BUILD "$TOP/bench/m4-sum.sh" "$@"; }
n=0 total=$(( $(wc -w <<<"$SCHEMES $M4ONLY") * $(wc -w <<<"$RECS") ))
for s in $SCHEMES $M4ONLY; do
	for r in $RECS; do
		n=$((n + 1))
		elf=$OUT/m4/$s-$r.elf
		c1=$(m4_sum "$elf" 1) c2=$(m4_sum "$elf" 2) c3=$(m4_sum "$elf" 3) c4=$(m4_sum "$elf" 4)
		awk -v m="$MSGS" -v s="$(name "$s")" -v r="$r" -v c1="$c1" -v c2="$c2" \
			-v c3="$c3" -v c4="$c4" 'BEGIN { printf "m4,%s,%d,%.1f,%.1f,%.1f,%.1f\n",
			s, r, (c1 + c2) / m, c3 / m, c4 / m, (c1 + c2 + c3 + c4) / m }'
		printf '  m4 %2d/%d %s-%s\n' "$n" "$total" "$s" "$r" >&2
	done
done
