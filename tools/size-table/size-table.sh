#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# size-table.sh ROW...: the sizes table of Documentation/embedded.rst
# ("Sizes", make size-table). Each ROW is TARGET:ELF:WINDOW:LABEL (TARGET
# avr or m4, WINDOW the precompute window in bytes, LABEL the row's text);
# prints one reStructuredText table: flash = .text + .data, static RAM =
# .data + .bss (the window included; the stack is not), from the
# toolchain's size tool in its Berkeley format.
set -euo pipefail

row() {
	local t=$1 elf=$2 win=$3 label=$4 text data bss
	read -r text data bss < <("$t-size" "$elf" | awk 'NR == 2 { print $1, $2, $3 }')
	[ "$t" = avr ] && [ $((data + bss)) -gt 8192 ] && echo "size-table: $elf: over 8 KiB SRAM" >&2
	printf '%-46s  %7d  %7d  %7d\n' "$label" $((text + data)) $((data + bss)) "$win"
}

rule='==============================================  =======  =======  ======='
echo "$rule"
printf '%-46s  %7s  %7s  %7s\n' "firmware" "flash" "RAM" "window"
echo "$rule"
for r in "$@"; do
	IFS=: read -r t elf win label <<<"$r"
	case $t in avr) tool=avr ;; m4) tool=arm-none-eabi ;; *) echo "bad row $r" >&2; exit 2 ;; esac
	row "$tool" "$elf" "$win" "$label"
done
echo "$rule"
