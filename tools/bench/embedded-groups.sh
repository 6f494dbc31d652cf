#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# embedded-groups.sh: what group tags (spec section 5.1) cost the AVR sender
# (make bench-embedded-groups; a benchmark, not a test). One epoch of 1024
# 16-byte records per firmware (embedded/common/bench_main.c with
# BENCH_GROUP = g), exact simavr cycles per record: the online seal, the
# group tags (region 5) spread over the records, and everything (offline,
# online, group tags, the epoch's trailer); flash and RAM from avr-size.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
E=$BUILD/embedded/avr
MSGS=1024

echo "| suite | g | online seal | group tag (each) | group tags per record | total per record | text | data + bss |"
echo "|---|---|---|---|---|---|---|---|"
for s in 1 2; do
	for g in 1024 64 16; do
		elf=$E/bench-d$s-16-g$g.elf
		f=$(mktemp)
		"$BUILD/tools/avr-run" "$elf" >/dev/null 2>"$f"
		read -r seal each per tot < <(awk -v m=$MSGS '
		/^avr-run: region/ {
			for (i = 1; i <= NF; i++) if ($i ~ /^cycles=/) { split($i, a, "="); v = a[2] }
			id = $(NF - 1); c[id] += v; n[id]++
		}
		END {
			printf "%d %d %d %d\n", c[3] / m + 0.5, n[5] ? c[5] / n[5] + 0.5 : 0,
				c[5] / m + 0.5, (c[1] + c[2] + c[3] + c[4] + c[5]) / m + 0.5
		}' "$f")
		rm -f "$f"
		read -r text data bss _ < <(avr-size "$elf" | tail -n 1)
		printf '| Diamond%d | %d | %d | %d | %d | %d | %d | %d |\n' "$s" "$g" \
			"$seal" "$each" "$per" "$tot" "$text" $((data + bss))
	done
done
echo
echo "AVR ATmega2560 (simavr, exact cycles), b = $MSGS, 16-byte records, window 2048 bytes, no AD."

# The sensor firmware itself (embedded/common/sender_main.c), g from its
# blob: one boot of one whole epoch of b = 1024 records (sender-full-d*:
# reserve, seal, frames out of UART0, group tag frames, epoch tag), and the
# shipped build (8-record epochs, 4 a boot) for its size.
H=$BUILD/embedded/host
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo
echo "| suite | g | cycles per record | added per record | link bytes per record | group tag frames |"
echo "|---|---|---|---|---|---|"
for s in 1 2; do
	base=
	for g in 1024 64 16; do
		"$H/fw-nv" testkey "$s" 0 $MSGS 7 "$tmp/k.blob" "$g"
		"$H/fw-nv" image avr "$tmp/k.blob" "$tmp/ee.bin"
		cyc=$("$BUILD/tools/avr-run" --eeprom "$tmp/ee.bin" --uart-out "$tmp/out.bin" \
			"$E/sender-full-d$s.elf" 2>&1 | sed -n 's/^avr-run: cycles total=//p')
		bytes=$(stat -c %s "$tmp/out.bin")
		base=${base:-$cyc}
		awk -v s="$s" -v g="$g" -v c="$cyc" -v b0="$base" -v n="$bytes" -v m=$MSGS 'BEGIN {
			printf "| Diamond%d | %d | %d | %d | %.2f | %d |\n", s, g, c / m + 0.5,
				(c - b0) / m + 0.5, (n - 64) / m, g < m ? int((m - 1) / g) : 0 }'
	done
done
echo
echo "Whole boot (reserve, 1024 seals and frames at the UART's pace, tags) / 1024; link bytes"
echo "without the 64-byte boot preamble; the firmware sends its 16-byte AD with every tag frame."
echo
echo "| firmware | text | data | bss |"
echo "|---|---|---|---|"
for s in 1 2; do
	read -r text data bss _ < <(avr-size "$E/sender-d$s.elf" | tail -n 1)
	printf '| sender-d%d.elf (shipped) | %d | %d | %d |\n' "$s" "$text" "$data" "$bss"
done
