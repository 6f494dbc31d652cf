#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# embedded-packet.sh: the packet sender (spec section 14) beside the
# byte-stream sender on both boards (make bench-embedded-packet; a
# benchmark, not a test). One epoch of 1024 records of 16 bytes with the
# board's window, as embedded-bench.sh:
#   AVR  exact cycles (tools/avr-run regions), per record;
#   M4   executed instructions (tools/m4-run --count, insn-count plugin).
# offline = epoch update + window refills, online = the seal (for packets:
# dmd_psender_seal, the unit's tau* and the tags included), total =
# offline + online (+ the stream's epoch tag), all / 1024. Then flash
# (text + data) and RAM (data + bss) of the sensor firmwares, stream
# (sender-d*) and packet (psender-d*), from avr-size / arm-none-eabi-size.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
E=$BUILD/embedded
MSGS=1024

# avr_sum ELF: "offline online total" cycles per record, and the range of
# one seal "min max".
avr_sum() {
	"$BUILD/tools/avr-run" "$1" 2>&1 >/dev/null | awk -v m=$MSGS '
	/^avr-run: region/ {
		split($4, a, "="); v = a[2]; c[$3] += v
		if ($3 == 3) { if (!mn || v < mn) mn = v; if (v > mx) mx = v }
	}
	END {
		printf "%d %d %d %d %d\n", (c[1] + c[2]) / m + 0.5, c[3] / m + 0.5,
			(c[1] + c[2] + c[3] + c[4]) / m + 0.5, mn, mx
	}'
}
# m4_sum ELF ID: instructions in all regions of that id (one run per id).
m4_sum() {
	local f
	f=$(mktemp)
	BUILD=$BUILD "$TOP/tools/m4-run" --count --plugin-out "$f" "$1" -- \
		-semihosting-config "arg=fw,arg=mark=$2" >/dev/null 2>&1
	awk '/region/ { for (i = 1; i <= NF; i++) if ($i ~ /^insns=/) { split($i, a, "="); s += a[2] } }
		END { printf "%d\n", s }' "$f"
	rm -f "$f"
}

echo "AVR ATmega2560 (simavr, exact cycles per record; b = $MSGS, 16-byte records, window 2048 bytes)"
printf '%-10s %-8s %9s %9s %9s   %s\n' suite framing offline online total "one seal, min..max"
for s in 1 2; do
	for f in stream packet; do
		elf=$E/avr/bench-d$s-16.elf
		[ $f = packet ] && elf=$E/avr/pbench-d$s-16.elf
		read -r off on tot mn mx < <(avr_sum "$elf")
		printf '%-10s %-8s %9d %9d %9d   %d..%d\n' "Diamond$s" $f "$off" "$on" "$tot" "$mn" "$mx"
	done
done
echo
echo "Cortex-M4 mps2-an386 (qemu + insn-count, executed instructions per record; window 16384 bytes)"
printf '%-10s %-8s %9s %9s %9s\n' suite framing offline online total
for s in 1 2; do
	for f in stream packet; do
		elf=$E/m4/bench-d$s-16.elf
		[ $f = packet ] && elf=$E/m4/pbench-d$s-16.elf
		c1=$(m4_sum "$elf" 1) c2=$(m4_sum "$elf" 2) c3=$(m4_sum "$elf" 3) c4=0
		[ $f = stream ] && c4=$(m4_sum "$elf" 4)
		printf '%-10s %-8s %9d %9d %9d\n' "Diamond$s" $f \
			$(( (c1 + c2 + MSGS / 2) / MSGS )) $(( (c3 + MSGS / 2) / MSGS )) \
			$(( (c1 + c2 + c3 + c4 + MSGS / 2) / MSGS ))
	done
done
echo
echo "Sensor firmware size, bytes: flash = text + data, RAM = data + bss (static; the window included)"
printf '%-6s %-10s %8s %8s %8s %8s %8s %8s\n' board suite "flash st" "flash pk" delta "RAM st" "RAM pk" delta
for t in avr m4; do
	size=avr-size
	[ $t = m4 ] && size=arm-none-eabi-size
	for s in 1 2; do
		read -r ft rt < <($size "$E/$t/sender-d$s.elf" | awk 'NR == 2 { print $1 + $2, $2 + $3 }')
		read -r fp rp < <($size "$E/$t/psender-d$s.elf" | awk 'NR == 2 { print $1 + $2, $2 + $3 }')
		printf '%-6s %-10s %8d %8d %+8d %8d %8d %+8d\n' $t "Diamond$s" "$ft" "$fp" $((fp - ft)) "$rt" "$rp" $((rp - rt))
	done
done
