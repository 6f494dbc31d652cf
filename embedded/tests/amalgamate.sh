#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# amalgamate.sh: the two-file sender (dist/sender/) against the core
# (make check-amalgamate; its known answers are kat.sh's).
#
#  - dist/sender/ is what tools/amalgamate/amalgamate.py generates now;
#  - its header compiles as C++ (host and AVR), as a sketch includes it;
#  - the sensor firmware built on it alone (embedded/host/board.c on the
#    host, the ATmega2560 under simavr) sends, boot after boot, the very
#    bytes the firmware on the core's archive sends, and leaves the same
#    EEPROM: Diamond1 with g = b, Diamond2 with group tags (g = 3);
#  - frame-check verifies what the AVR build sent with the core's receiver;
#  - the packet-mode firmware (psender_main.c, spec section 14) on it sends
#    the core's firmware's packets too, and pkt-check verifies them.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
A=$BUILD/amalg
H=$BUILD/embedded/host
. "$TOP/selftests/lib/tap.sh"

W=$(mktemp -d /tmp/diamond-amalg.XXXXXX)
trap 'rm -rf "$W"' EXIT

echo "TAP version 13"
check "dist/sender/ is what amalgamate.py generates (else: make amalgamate)" \
	python3 "$TOP/tools/amalgamate/amalgamate.py" --check "$TOP/dist/sender"
for cxx in g++ avr-g++; do
	flags=(-std=gnu++11 -fsyntax-only -Wall -Wextra -Werror)
	[ $cxx = avr-g++ ] && flags+=(-mmcu=atmega2560)
	check "diamond-sender.h compiles as C++ ($cxx)" \
		$cxx "${flags[@]}" -x c++ "$TOP/dist/sender/diamond-sender.h"
done

# boots NAME RUNNER NV OUT: two boots of one device on one NV image.
boots() {
	local b
	for b in 1 2; do
		case $1 in
		core|avr) "$BUILD/tools/avr-run" --eeprom "$3" --uart-out "$4.$b" \
				"$2" 2>/dev/null || return 1 ;;
		host) DMD_NV=$3 "$2" >"$4.$b" || return 1 ;;
		esac
	done
}

# suite, aggregation, group size (0: g = b), device id
for cfg in "1 1 0 11" "2 0 3 12"; do
	read -r s agg g id <<<"$cfg"
	d="Diamond$s$([ "$g" = 0 ] && echo ", g = b" || echo ", g = $g")"
	"$H/fw-nv" testkey "$s" "$agg" 1024 "$id" "$W/k$s.blob" "$g" &&
		"$H/fw-nv" image avr "$W/k$s.blob" "$W/nv$s.orig" || { ok 1 "$d: test key"; continue; }
	for r in core avr host; do
		cp "$W/nv$s.orig" "$W/nv$s.$r"
	done
	boots core "$BUILD/embedded/avr/sender-d$s.elf" "$W/nv$s.core" "$W/core$s"
	ok $? "$d: the core's AVR sensor firmware ran two boots"
	for r in host avr; do
		elf=$A/$r/sender-d$s.elf
		boots $r "$elf" "$W/nv$s.$r" "$W/$r$s"
		ok $? "$d: the sensor firmware on diamond-sender.c ($r) ran two boots"
		cmp -s "$W/core$s.1" "$W/$r$s.1" && cmp -s "$W/core$s.2" "$W/$r$s.2" &&
			cmp -s "$W/nv$s.core" "$W/nv$s.$r"
		ok $? "$d, $r: link bytes of both boots and the EEPROM after are the core firmware's"
	done
	bytes=$(cat "$W/avr$s.1" "$W/avr$s.2" | wc -c)
	"$H/frame-check" --key "$W/k$s.blob" "$W/avr$s.1" "$W/avr$s.2" >"$W/fc$s" 2>&1
	ok $? "$d: frame-check verifies the AVR build's $bytes bytes ($(sed -n 's/^# \([0-9]* epochs.*verified\).*/\1/p' "$W/fc$s"))"
done

# Packet mode: the radio configuration the build gives (FW_PKT_1, _2).
declare -A PA=([1]=1 [2]=3) PADDR=([1]=0x05 [2]=0x0c0b0a)
for s in 1 2; do
	d="Diamond$s packets, A = ${PA[$s]}"
	"$H/fw-nv" testkey "$s" 0 32 $((310 + s)) "$W/pk$s.blob" &&
		"$H/fw-nv" image avr "$W/pk$s.blob" "$W/pnv$s.orig" || { ok 1 "$d: test key"; continue; }
	for r in core avr host; do
		cp "$W/pnv$s.orig" "$W/pnv$s.$r"
	done
	boots core "$BUILD/embedded/avr/psender-d$s.elf" "$W/pnv$s.core" "$W/pcore$s"
	ok $? "$d: the core's AVR packet firmware ran two boots"
	for r in host avr; do
		boots $r "$A/$r/psender-d$s.elf" "$W/pnv$s.$r" "$W/p$r$s"
		ok $? "$d: the packet firmware on diamond-sender.c ($r) ran two boots"
		cmp -s "$W/pcore$s.1" "$W/p$r$s.1" && cmp -s "$W/pcore$s.2" "$W/p$r$s.2" &&
			cmp -s "$W/pnv$s.core" "$W/pnv$s.$r"
		ok $? "$d, $r: packets of both boots and the EEPROM after are the core firmware's"
	done
	"$H/pkt-check" --key "$W/pk$s.blob" --a "${PA[$s]}" --addr "${PADDR[$s]}" \
		--rec-len 16 --max-lost 0 "$W/pavr$s.1" "$W/pavr$s.2" >"$W/pc$s" 2>&1
	ok $? "$d: pkt-check verifies the AVR build's packets and finds the readings"
done

# An unprovisioned device: the preamble, the message, exit 3, and nothing
# sealed or written (the host build; device.c's start refuses).
head -c 4096 /dev/zero | tr '\0' '\377' >"$W/blank.nv"
cp "$W/blank.nv" "$W/blank.ref"
DMD_NV=$W/blank.nv "$A/host/sender-d2.elf" >"$W/blank.out"
rc=$?
[ $rc = 3 ] && [ "$(head -c 64 "$W/blank.out" | tr -d '\0' | wc -c)" = 0 ] &&
	[ "$(tail -c +65 "$W/blank.out")" = "# no reservation blob in NV: provision the device" ] &&
	cmp -s "$W/blank.nv" "$W/blank.ref"
ok $? "blank NV: 64 zero bytes, the unprovisioned message, exit 3 (status $rc), NV untouched"
tap_end
