#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# packet-test.sh: the packet-mode sensor firmware (spec section 14,
# embedded/common/psender_main.c) on both boards (make check-fw-packet).
#
# Per suite (Diamond1 at A = 1, address 0x05; Diamond2 at A = 3, address
# 0x0c0b0a; the build's radio configuration, mk/embedded.mk), one test key
# with b = 32 in NV:
#  - two boots of the firmware on the ATmega2560 (simavr) and on the
#    Cortex-M4 (qemu) send, byte for byte, what the same firmware on the
#    host's portable core sends for the same key, address and readings
#    (embedded/host/board.c), and the AVR leaves the host's EEPROM;
#  - pkt-check verifies the packets with the core's unit verifier and
#    finds the sensor's readings in them, each position sent once;
#  - power cuts: AVR_RESETS boots cut at a random cycle (simavr) and
#    M4_RESETS runs cut at a random write (qemu, the board's cut=N), then
#    one whole boot: no position (e, j) is ever sent twice, every unit
#    verifies, at most one epoch lost per cut, one live NV slot;
#  - pkt-check itself fails on a flipped packet byte and on a replayed
#    boot, so the checks above can fail;
#  - a key packet mode refuses (g = 3) stops the AVR firmware at start.
# SEED=n reproduces the cut points.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
H=$BUILD/embedded/host
AVR_RUN=$BUILD/tools/avr-run
AVR_RESETS=${AVR_RESETS:-40}
M4_RESETS=${M4_RESETS:-30}
SEED=${SEED:-$(date +%s)}
RANDOM=$SEED
. "$TOP/selftests/lib/tap.sh"

W=$(mktemp -d /tmp/diamond-pkt.XXXXXX)
[ -n "${KEEP:-}" ] && echo "# keeping $W" || trap 'rm -rf "$W"' EXIT

# The build's radio configuration per suite (FW_PKT_1, FW_PKT_2).
declare -A A=([1]=1 [2]=3) ADDR=([1]=0x05 [2]=0x0c0b0a)
have_m4=0
command -v qemu-system-arm >/dev/null && have_m4=1

# m4 ELF NV OUT [CUT]: one qemu run of ELF, its link output in OUT.
m4() {
	local cut=${4:+,arg=cut=$4}
	timeout -k 5 60 qemu-system-arm -M mps2-an386 -cpu cortex-m4 -display none \
		-serial none -monitor none -chardev null,id=sh0 \
		-semihosting-config "enable=on,target=native,chardev=sh0,arg=fw,arg=nv=$2,arg=out=$3$cut" \
		-kernel "$1"
}

# pcheck SUITE KEY MAXLOST FILE...: pkt-check, its TAP in $W/pc.tap.
pcheck() {
	local s=$1 k=$2 lost=$3
	shift 3
	"$H/pkt-check" --key "$k" --a "${A[$s]}" --addr "${ADDR[$s]}" \
		--rec-len 16 --max-lost "$lost" "$@" >"$W/pc.tap" 2>&1
}
# The failing lines of the last pcheck, for the test name.
pc_why() { grep "^not ok" "$W/pc.tap" | head -1 | sed 's/^not ok [0-9]* - \(.*\)/[\1]/'; }

echo "TAP version 13"
echo "# seed $SEED"

same_bytes() {	# same_bytes SUITE KEY
	local s=$1 k=$2 d=$W/same$1 b
	mkdir -p "$d"
	"$H/fw-nv" image avr "$k" "$d/nv.host" && cp "$d/nv.host" "$d/nv.avr" &&
		"$H/fw-nv" image m4 "$k" "$d/nv.m4" || { ok 1 "d$s: NV images"; return; }
	for b in 1 2; do
		DMD_NV=$d/nv.host "$H/psender-d$s" >"$d/host.$b" &&
			"$AVR_RUN" --eeprom "$d/nv.avr" --uart-out "$d/avr.$b" \
				"$BUILD/embedded/avr/psender-d$s.elf" 2>/dev/null
		ok $? "d$s: boot $b ran on the host's core and on the AVR"
	done
	cmp -s "$d/host.1" "$d/avr.1" && cmp -s "$d/host.2" "$d/avr.2" &&
		cmp -s "$d/nv.host" "$d/nv.avr"
	ok $? "d$s, AVR: both boots' packets ($(cat "$d/avr.1" "$d/avr.2" | wc -c) link bytes) and the EEPROM after are the host core's, byte for byte"
	pcheck "$s" "$k" 0 "$d/avr.1" "$d/avr.2"
	ok $? "d$s, AVR: pkt-check verifies both boots, every reading released, each position once $(pc_why)"
	if [ $have_m4 = 0 ]; then
		skip "d$s, M4: packets are the host core's" "qemu-system-arm not installed"
		return
	fi
	for b in 1 2; do
		m4 "$BUILD/embedded/m4/psender-d$s.elf" "$d/nv.m4" "$d/m4.$b"
		ok $? "d$s: boot $b ran on the M4"
	done
	cmp -s "$d/host.1" "$d/m4.1" && cmp -s "$d/host.2" "$d/m4.2"
	ok $? "d$s, M4: both boots' packets are the host core's, byte for byte"
	pcheck "$s" "$k" 0 "$d/m4.1" "$d/m4.2"
	ok $? "d$s, M4: pkt-check verifies both boots $(pc_why)"
}

# The checker can fail: a flipped byte, a replayed boot (a reused index).
negative() {	# negative SUITE KEY
	local s=$1 k=$2 d=$W/same$1
	cp "$d/avr.1" "$d/flip"
	# Boot preamble, then packet 6's ciphertext (its length byte, A
	# address bytes and its control byte are skipped).
	printf '\xff' | dd of="$d/flip" bs=1 seek=$((256 + 6 * (1 + ${A[$s]} + 17) + 23 + 1 + ${A[$s]} + 1 + 3)) \
		conv=notrunc status=none
	! pcheck "$s" "$k" 0 "$d/flip" && grep -q "^not ok .*each unit verifies" "$W/pc.tap"
	ok $? "d$s: pkt-check fails on one damaged ciphertext byte"
	! pcheck "$s" "$k" 0 "$d/avr.1" "$d/avr.2" "$d/avr.1" &&
		grep -q "^not ok .*never reused" "$W/pc.tap"
	ok $? "d$s: pkt-check fails on a boot sent twice (key indices reused)"
}

avr_cuts() {	# avr_cuts SUITE KEY
	local s=$1 k=$2 d=$W/avrcut$1 i at rc maxcyc cut=0 bad=0 runs=()
	mkdir -p "$d"
	"$H/fw-nv" image avr "$k" "$d/ee.bin"
	cp "$d/ee.bin" "$d/scratch"
	maxcyc=$("$AVR_RUN" --eeprom "$d/scratch" --uart-out /dev/null \
		"$BUILD/embedded/avr/psender-d$s.elf" 2>&1 | sed -n 's/^avr-run: cycles total=//p')
	for ((i = 0; i < AVR_RESETS; i++)); do
		at=$(( (RANDOM << 15 | RANDOM) % maxcyc + 1 ))
		"$AVR_RUN" --eeprom "$d/ee.bin" --reset-at "$at" --uart-out "$d/run$i" \
			"$BUILD/embedded/avr/psender-d$s.elf" 2>/dev/null
		rc=$?
		case $rc in 125) cut=$((cut + 1)) ;; 0) ;; *) bad=$((bad + 1)) ;; esac
		runs+=("$d/run$i")
	done
	"$AVR_RUN" --eeprom "$d/ee.bin" --uart-out "$d/final" \
		"$BUILD/embedded/avr/psender-d$s.elf" 2>/dev/null
	rc=$?
	runs+=("$d/final")
	ok $(( bad || cut < AVR_RESETS / 2 )) "d$s, AVR: $AVR_RESETS boots cut at random cycles in [1, $maxcyc] ($cut cut, $bad failed)"
	ok $rc "d$s, AVR: the boot after the last cut runs to its end"
	"$H/fw-nv" show avr "$d/ee.bin" >"$d/nv.txt"
	[ "$(grep -c live "$d/nv.txt")" = 1 ] && ! grep -q partial "$d/nv.txt"
	ok $? "d$s, AVR: EEPROM holds exactly one live state after the cuts"
	pcheck "$s" "$k" "$cut" "${runs[@]}"
	ok $? "d$s, AVR: after the cuts no position is sent twice, every unit verifies, at most one epoch lost per cut $(pc_why)"
	sed -n 's/^ok [0-9]* - /#   /p' "$W/pc.tap"
}

m4_cuts() {	# m4_cuts SUITE KEY
	local s=$1 k=$2 d=$W/m4cut$1 i rc cut=0 bad=0 runs=()
	if [ $have_m4 = 0 ]; then
		skip "d$s, M4: power cuts" "qemu-system-arm not installed"
		return
	fi
	mkdir -p "$d"
	"$H/fw-nv" image m4 "$k" "$d/nv.bin"
	for ((i = 0; i <= M4_RESETS; i++)); do
		m4 "$BUILD/embedded/m4/psender-d$s.elf" "$d/nv.bin" "$d/run$i" \
			$([ $i -lt "$M4_RESETS" ] && echo $((RANDOM % 60 + 1)))
		rc=$?
		case $rc in 125) cut=$((cut + 1)) ;; 0) ;; *) bad=$((bad + 1)) ;; esac
		[ -e "$d/run$i" ] && runs+=("$d/run$i")
	done
	ok $(( bad || cut < M4_RESETS / 2 )) "d$s, M4: $M4_RESETS runs cut at a random write ($cut cut, $bad failed)"
	ok $rc "d$s, M4: the run after the last cut runs to its end"
	"$H/fw-nv" show m4 "$d/nv.bin" >"$d/nv.txt"
	[ "$(grep -c live "$d/nv.txt")" = 1 ] && ! grep -q partial "$d/nv.txt"
	ok $? "d$s, M4: flash holds exactly one live state after the cuts"
	pcheck "$s" "$k" "$cut" "${runs[@]}"
	ok $? "d$s, M4: after the cuts no position is sent twice, every unit verifies, at most one epoch lost per cut $(pc_why)"
	sed -n 's/^ok [0-9]* - /#   /p' "$W/pc.tap"
}

# A key packet mode refuses (spec 14.2: here a group size, g = 3): the
# preamble, the message, exit 3, nothing sealed, NV untouched.
refused() {
	local d=$W/refused rc
	mkdir -p "$d"
	"$H/fw-nv" testkey 1 0 1024 309 "$d/k.blob" 3 &&
		"$H/fw-nv" image avr "$d/k.blob" "$d/ee" && cp "$d/ee" "$d/ee.ref"
	"$AVR_RUN" --eeprom "$d/ee" --uart-out "$d/out" \
		"$BUILD/embedded/avr/psender-d1.elf" 2>/dev/null
	rc=$?
	[ $rc = 3 ] && [ "$(head -c 256 "$d/out" | tr -d '\0' | wc -c)" = 0 ] &&
		[ "$(tail -c +257 "$d/out")" = "# no packet-mode key in NV: provision the device" ] &&
		cmp -s "$d/ee" "$d/ee.ref"
	ok $? "AVR: a key with g = 3 is refused for packet mode: 256 zero bytes, the message, exit 3 (status $rc), NV untouched"
}
refused

# The gateway's receiver, not the core's checker: both AVR boots of suite
# 1 go to diamondctl open --packet (libdiamond, spec 14.5) with a state
# directory provisioned for the same blob and radio configuration. The
# 256 zero bytes of each boot's preamble are length bytes of no packet.
gateway() {
	local D=${DIAMONDCTL:-$BUILD/userspace/diamondctl} d=$W/gw got
	if [ ! -x "$D" ]; then
		skip "AVR to diamondctl open --packet" "$D not built"
		return
	fi
	mkdir -p "$d" && cd "$d" || return
	"$D" keygen -o root.key >/dev/null &&
		"$D" provision --root root.key --device 7 --suite 1 --agg xor --b 32 \
			--blob dev.blob --state-dir st --packet --addr-width 1 --addr 5 >/dev/null &&
		"$H/fw-nv" image avr dev.blob nv.avr &&
		"$AVR_RUN" --eeprom nv.avr --uart-out avr.1 "$BUILD/embedded/avr/psender-d1.elf" 2>/dev/null &&
		"$AVR_RUN" --eeprom nv.avr --uart-out avr.2 "$BUILD/embedded/avr/psender-d1.elf" 2>/dev/null &&
		cat avr.1 avr.2 >link.bin
	ok $? "AVR to gateway: a key from diamondctl provision --packet (A = 1, address 5), two AVR boots"
	"$D" open --packet --state-dir st --software link.bin >out.json 2>err.txt
	ok $? "AVR to gateway: diamondctl open --packet exits 0 ($(tail -n 1 err.txt))"
	got=$(grep -c '"index"' out.json)
	sed -n 's/.*"epoch":\([0-9]*\),"index":\([0-9]*\),.*/\1 \2/p' out.json | sort | uniq -d >dup.txt
	[ "$got" -ge 64 ] && [ ! -s dup.txt ] && grep -q ' tries [0-9]* (failed 0)' err.txt
	ok $? "AVR to gateway: $got records released, each position once, no failed try"
	"$D" open --packet --state-dir st --software link.bin >again.json 2>/dev/null
	[ "$(grep -c '"index"' again.json)" = 0 ]
	ok $? "AVR to gateway: the same link bytes again release nothing"
	cd "$W" || return
}
gateway

for s in 1 2; do
	k=$W/k$s.blob
	"$H/fw-nv" testkey "$s" 0 32 $((300 + s)) "$k"
	ok $? "d$s: a packet-mode test key (XOR, b = 32)"
	same_bytes "$s" "$k"
	negative "$s" "$k"
	avr_cuts "$s" "$k"
	m4_cuts "$s" "$k"
done
tap_end
