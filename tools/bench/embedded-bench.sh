#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# embedded-bench.sh: per-message cost of the sender firmware (make
# bench-embedded; a benchmark, not a test). One epoch of 1024 records with
# the board's precompute window, for Diamond1/Diamond2 at 16 and 128 bytes:
#   AVR  exact cycles (tools/avr-run regions), beside the paper's ATmega2560
#        figures (ms for 1024 messages x 16000 = cycles per message);
#   M4   executed instructions (tools/m4-run --count, insn-count plugin).
# offline = epoch update + window refills, online = dmd_sender_seal,
# total = offline + online + the epoch's trailer tag, all / 1024.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
E=$BUILD/embedded
MSGS=1024

# paper[suite-len] = "total online" cycles per message (ms * 16000 / 1024)
declare -A paper=(
	[1-16]="45800 19700" [2-16]="32800 4400"
	[1-128]="197700 154700" [2-128]="56300 23400"
)

# sum_regions FILE PREFIX: "offline online total" per message
sum_regions() {
	awk -v m=$MSGS -v pat="$2" '
	$0 ~ pat {
		for (i = 1; i <= NF; i++) if ($i ~ /^(cycles|insns)=/) { split($i, a, "="); v = a[2] }
		id = $(NF - 1); c[id] += v
	}
	END {
		off = c[1] + c[2]; on = c[3]; tot = off + on + c[4]
		printf "%d %d %d\n", off / m + 0.5, on / m + 0.5, tot / m + 0.5
	}' "$1"
}

printf '%s\n' "AVR ATmega2560 (simavr, exact cycles per message; b = $MSGS, window $(( 2048 )) bytes)"
printf '%-10s %5s  %9s %9s %9s   %12s %12s   %s\n' suite bytes offline online total "paper total" "paper online" "vs paper (total, online)"
for s in 1 2; do
	for l in 16 128; do
		f=$(mktemp)
		"$BUILD/tools/avr-run" "$E/avr/bench-d$s-$l.elf" >/dev/null 2>"$f"
		read -r off on tot < <(sum_regions "$f" "^avr-run: region")
		read -r pt po <<<"${paper[$s-$l]}"
		printf '%-10s %5d  %9d %9d %9d   %12d %12d   %s %s\n' "Diamond$s" "$l" \
			"$off" "$on" "$tot" "$pt" "$po" \
			"$(awk -v a=$tot -v b=$pt 'BEGIN { printf "%.2fx%s", b / a, a < b ? "" : " (slower)" }')" \
			"$(awk -v a=$on -v b=$po 'BEGIN { printf "%.2fx%s", b / a, a < b ? "" : " (slower)" }')"
		rm -f "$f"
	done
done
echo
echo "Cortex-M4 mps2-an386 (qemu + insn-count, executed instructions per message; window 16384 bytes)"
printf '%-10s %5s  %9s %9s %9s\n' suite bytes offline online total
# The plugin cannot tell region ids apart: one run per id (mark=ID).
m4_sum() {	# m4_sum ELF ID -> instructions in all regions of that id
	local f
	f=$(mktemp)
	BUILD=$BUILD "$TOP/tools/m4-run" --count --plugin-out "$f" "$1" -- \
		-semihosting-config "arg=fw,arg=mark=$2" >/dev/null 2>&1
	awk '/region/ { for (i = 1; i <= NF; i++) if ($i ~ /^insns=/) { split($i, a, "="); s += a[2] } }
		END { printf "%d\n", s }' "$f"
	rm -f "$f"
}
for s in 1 2; do
	for l in 16 128; do
		elf=$E/m4/bench-d$s-$l.elf
		c1=$(m4_sum "$elf" 1) c2=$(m4_sum "$elf" 2) c3=$(m4_sum "$elf" 3) c4=$(m4_sum "$elf" 4)
		printf '%-10s %5d  %9d %9d %9d\n' "Diamond$s" "$l" \
			$(( (c1 + c2 + MSGS / 2) / MSGS )) $(( (c3 + MSGS / 2) / MSGS )) \
			$(( (c1 + c2 + c3 + c4 + MSGS / 2) / MSGS ))
	done
done
