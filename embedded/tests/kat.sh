#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# kat.sh avr|m4|host ELF...: run the known-answer firmware on its emulator
# (host: the program itself, for dist/sender/) and fold the TAP each device
# prints into one stream, plus one test per firmware for its exit status
# (the device's failure count).
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
target=$1
shift

n=0 failed=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

echo "TAP version 13"
for elf in "$@"; do
	name=$target/$(basename "$elf" .elf)
	out=$(mktemp)
	case $target in
	avr) "$BUILD/tools/avr-run" --cycles-limit 4000000000 "$elf" >"$out" 2>/dev/null ;;
	m4) BUILD=$BUILD "$TOP/tools/m4-run" --timeout 120 "$elf" >"$out" 2>/dev/null ;;
	host) timeout 120 "$elf" >"$out" 2>/dev/null ;;
	esac
	rc=$?
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out")
	seen=0
	while IFS= read -r line; do
		case $line in
		"ok "*) ok 0 "$name: ${line#ok * - }"; seen=$((seen + 1)) ;;
		"not ok "*) ok 1 "$name: ${line#not ok * - }"; seen=$((seen + 1)) ;;
		"# "*) echo "$line" ;;
		esac
	done <"$out"
	[ -n "$plan" ] && [ "$plan" = "$seen" ]
	ok $? "$name: device ran its whole plan ($seen of ${plan:-?})"
	ok $rc "$name: device exited 0 (status $rc)"
	rm -f "$out"
done
echo "1..$n"
[ $failed = 0 ]
