#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# telemetry.sh (make check-arduino): the Arduino library's Telemetry
# example as a firmware engineer uses it, end to end.
#
#  1. diamondctl provision --header writes the key header; the sketch is
#     built with it by Debian's arduino-builder for the Mega 2560, Arduino
#     core and all ($ARDUINO_BUILDER, mk/sketch.mk), without a warning from
#     the library or the sketch;
#  2. the ELF runs in simavr (avr-run) on a blank EEPROM: boot 1 loses
#     power in the middle of an epoch, boot 2 runs on; the key header is
#     taken into EEPROM once (a second install would restart epoch 0,
#     which frame-check's "never sealed twice" catches);
#  3. frame-check: no key index reused, every completed epoch verifies, the
#     power loss cost at most one epoch; EEPROM holds one live state;
#  4. the UART bytes go through lossy-link --filter into the gateway,
#     `diamondctl open --software`: clean, every reading of every completed
#     epoch is released with the plaintext the sketch made (format 2,
#     sample number epoch * 8 + index, the first-after-boot flag exactly on
#     each boot's first reading); over a lossy link only such readings;
#  5. the deployment path of embedded.rst: the Provision example takes a
#     second device's key header into a blank EEPROM, leaves a used one
#     alone, and Telemetry built without a header sends from that EEPROM
#     what the gateway verifies.
#
# The gateway here is libdiamond's software path over the core's receiver:
# diamond.ko needs a VM, and make check-fw-interop runs the Telemetry
# example through it on the gateway VM it boots anyway (tools/demo.sh).
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
H=$BUILD/embedded/host
D=$BUILD/userspace/diamondctl
LIBS=$BUILD/arduino/libraries
. "$TOP/selftests/lib/tap.sh"

echo "TAP version 13"
if ! command -v arduino-builder >/dev/null ||
   [ ! -e /usr/share/arduino/hardware/arduino/avr/boards.txt ]; then
	skip "Telemetry example for the Mega 2560" \
		"arduino-builder or arduino-core-avr not installed (make deps)"
	tap_end
	exit
fi

W=$(mktemp -d /tmp/diamond-arduino.XXXXXX)
[ -n "${KEEP:-}" ] && echo "# keeping $W" || trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

# 1. provision, build
"$D" keygen -o root >/dev/null &&
	"$D" provision --root root --device 33 --suite 2 --agg xor --b 1024 \
		--blob dev33.bin --header diamond_key.h --state-dir gw >/dev/null
ok $? "diamondctl provision --header writes the key header"
cp -r "$LIBS/Diamond/examples/Telemetry" . && cp diamond_key.h Telemetry/
# sketch INO DIR: build it into DIR (log DIR.log); SAMPLE_MS: a reading
# every 5 ms of simulated time instead of 1 s.
sketch() {
	mkdir -p "$2" && $ARDUINO_BUILDER -libraries "$LIBS" -build-path "$W/$2" \
		-prefs=build.extra_flags=-DSAMPLE_MS=5 "$1" >"$2.log" 2>&1
}
sketch Telemetry/Telemetry.ino build
ok $? "arduino-builder builds the Telemetry example for the Mega 2560"
elf=build/Telemetry.ino.elf
sed -n 's/^\(Sketch uses\|Global variables use\)/# &/p' build.log
! grep -A2 "warning:" build.log | grep -q "libraries/Diamond\|Telemetry"
ok $? "no compiler warning (-Wall -Wextra) from the library or the sketch"

# 2. two boots on a blank EEPROM, the first cut mid-epoch: the first cut
# whose link ends in a record frame (the simulation is exact).
head -c 4096 /dev/zero | tr '\0' '\377' >ee.blank
cut=
for at in 9000000 11000000 13000000 15000000 17000000 19000000; do
	cp ee.blank ee.try
	"$BUILD/tools/avr-run" --eeprom ee.try --uart-out try --reset-at "$at" \
		"$elf" 2>/dev/null
	last=$("$H/frame-check" --list try | grep '^frame' | tail -n 1)
	if [ "${last#frame 1 }" != "$last" ]; then
		cut=$at
		break
	fi
done
cp ee.blank ee.bin
"$BUILD/tools/avr-run" --eeprom ee.bin --uart-out boot1 --reset-at "${cut:-13000000}" \
	"$elf" 2>/dev/null
rc=$?
[ -n "$cut" ] && [ $rc = 125 ]
ok $? "boot 1 in simavr: power lost mid-epoch at cycle ${cut:-none found} (status $rc)"
"$BUILD/tools/avr-run" --eeprom ee.bin --uart-out boot2 --cycles-limit 30000000 \
	"$elf" 2>/dev/null
rc=$?
[ $rc = 124 ] && [ -s boot2 ]
ok $? "boot 2 in simavr: runs on for 30M cycles ($(stat -c %s boot2) bytes on UART0)"

# 3. the device's own checks
# Two cuts: the power loss, and the end of boot 2 (the cycle limit).
"$H/frame-check" --key dev33.bin --max-lost 2 --readings boot1 boot2 >fc.tap
ok $? "frame-check: no index sealed twice, completed epochs verify, one epoch lost per cut at most ($(sed -n 's/^# \([0-9]* epochs\) and.*/\1 verified/p' fc.tap))"
"$H/fw-nv" show avr ee.bin >nv.txt
[ "$(grep -c live nv.txt)" = 1 ] && ! grep -q partial nv.txt
ok $? "EEPROM holds exactly one live state ($(grep live nv.txt | sed 's/.*epoch /epoch /; s/ group.*//'))"

# Expected: every record frame of an epoch whose tag frame was sent.
cat boot1 boot2 >link.bin
"$H/frame-check" --list boot1 boot2 | awk '
	$1 == "frame" && $2 == 1 { rec[$5]++ }
	$1 == "frame" && $2 == 2 { tag[$5] = $6 }
	END { for (e in tag) n += tag[e]; print n + 0 }' >expected
want=$(cat expected)

# verify ID JSON: every line a reading the sketch made; prints the count
verify() {
	awk -F'"' -v first="$2" '
	function hx(s, i) { return index("0123456789abcdef", substr(s, i, 1)) - 1 }
	function byte(s, k) { return hx(s, 2 * k + 1) * 16 + hx(s, 2 * k + 2) }
	function le(s, k, n,   v, i) { v = 0; for (i = n - 1; i >= 0; i--) v = v * 256 + byte(s, k + i); return v }
	{
		split($0, f, /[:,]/); ep = f[4]; idx = f[6]
		for (i = 1; i <= NF; i++) if ($i == "data") d = $(i + 2)
		isfirst = index(" " first " ", " " ep "/" idx " ") > 0
		if (length(d) != 32 || byte(d, 0) != 2 || le(d, 4, 4) != ep * 8 + idx ||
		    byte(d, 1) != isfirst || $2 != "device" || f[2] != 33) bad++
		n++
	}
	END { print n + 0; exit bad > 0 }' "$1"
}
# Each boot's first reading: the first record frame of each file.
firsts=$(for b in boot1 boot2; do
	"$H/frame-check" --list $b | awk '$1 == "frame" && $2 == 1 { print $5 "/" $6; exit }'
done | tr '\n' ' ')

# 4. the gateway, clean and lossy
"$BUILD/host/lossy-link" --filter --loss 0 --corrupt 0 --reorder 0 --dup 0 \
	--seed 33 <link.bin >clean.bin 2>/dev/null
cp -r gw gw-clean
"$D" open --software --state-dir gw-clean --input clean.bin >clean.json 2>clean.err
got=$(verify clean.json "$firsts")
ok $? "clean link: every released reading has the sketch's plaintext (first after boot: $firsts)"
[ "$got" = "$want" ] && [ "$want" -gt 0 ]
ok $? "clean link: the gateway released all $want readings of the completed epochs ($got)"
grep -q "rejected: incomplete" clean.err
ok $? "clean link: the epoch cut by the power loss is rejected as incomplete"
"$BUILD/host/lossy-link" --filter --loss 0.03 --corrupt 0.01 --reorder 0.01 \
	--dup 0.01 --depth 4 --seed 33 <link.bin >lossy.bin 2>lossy.err
cp -r gw gw-lossy
"$D" open --software --state-dir gw-lossy --input lossy.bin >lossy.json 2>/dev/null
m=$(verify lossy.json "$firsts")
ok $? "lossy link ($(sed 's/^lossy-link: //; s/ (seed.*//' lossy.err)): every released reading is one the sketch made"
[ "$m" -gt 0 ] && [ "$m" -lt "$want" ]
ok $? "lossy link: $m of $want readings released, the epochs a lost or damaged frame hit are not"

# 5. Provision, then Telemetry without a header
"$D" provision --root root --device 34 --suite 1 --agg add --b 1024 \
	--blob dev34.bin --header key34.h --state-dir gw34 >/dev/null &&
	cp -r "$LIBS/Diamond/examples/Provision" . && cp key34.h Provision/diamond_key.h &&
	rm -r Telemetry/diamond_key.h && sketch Provision/Provision.ino prov &&
	sketch Telemetry/Telemetry.ino nokey
ok $? "Provision (with a Diamond1 key header) and Telemetry without one build"
cp ee.blank ee34.bin
"$BUILD/tools/avr-run" --eeprom ee34.bin --uart-out p1 --cycles-limit 4000000 \
	prov/Provision.ino.elf 2>/dev/null
grep -q "key stored in EEPROM" p1 && "$H/fw-nv" show avr ee34.bin | grep -q "live, suite 1 device 34"
ok $? "Provision on a blank EEPROM: $(tr -d '\r' <p1 | head -n 1)"
cp ee.bin ee33.before
"$BUILD/tools/avr-run" --eeprom ee.bin --uart-out p2 --cycles-limit 4000000 \
	prov/Provision.ino.elf 2>/dev/null
grep -q "EEPROM in use, left alone" p2 && cmp -s ee33.before ee.bin
ok $? "Provision on device 33's used EEPROM changes no byte: $(tr -d '\r' <p2 | head -n 1)"
"$BUILD/tools/avr-run" --eeprom ee34.bin --uart-out t34 --cycles-limit 20000000 \
	nokey/Telemetry.ino.elf 2>/dev/null
"$BUILD/host/lossy-link" --filter --loss 0 --corrupt 0 --reorder 0 --dup 0 \
	--seed 34 <t34 >t34.bin 2>/dev/null
"$D" open --software --state-dir gw34 --input t34.bin >t34.json 2>/dev/null
want34=$("$H/frame-check" --list t34 | awk '$1 == "frame" && $2 == 2 { n += $6 } END { print n + 0 }')
got34=$(awk -F'[:,]' '$2 == 34' t34.json | wc -l)
[ "$want34" -gt 0 ] && [ "$got34" = "$want34" ]
ok $? "Telemetry without a header sends from the provisioned EEPROM: the gateway releases $got34 of $want34 readings"
tap_end
