#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Power-loss test of the reservation store (spec section 10).
#
# AVR: the sensor firmware boots again and again from one persisted EEPROM
# file; AVR_RESETS boots (default 110) are cut at a random cycle (within
# the length of a whole boot, measured first) by avr-run --reset-at (a power loss: no shutdown code runs), then one boot
# runs to its end. M4: the same with M4_RESETS qemu runs (default 100) whose
# board cuts the power at a random write (cut=N, see embedded/m4/board.c),
# the NV file standing in for flash.
# Every boot's link output is kept in its own file; frame-check then shows
# that no (epoch, index) was sealed twice, that every completed epoch
# verifies with the core's receiver, and that a reset costs at most one
# epoch. Group tags (spec section 5.1): one device of each board is
# provisioned with g < b (AVR_GROUP_RESETS, M4_GROUP_RESETS boots), and
# frame-check opens its groups with the core's group receiver; a damaged
# record costs exactly its group. SEED=n reproduces the run (the cut
# points come from it).
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
H=$BUILD/embedded/host
AVR_RUN=$BUILD/tools/avr-run
AVR_RESETS=${AVR_RESETS:-110}
AVR_D1_RESETS=${AVR_D1_RESETS:-20}
M4_RESETS=${M4_RESETS:-100}
SEED=${SEED:-$(date +%s)}
RANDOM=$SEED

tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "# keeping $tmp" || trap 'rm -rf "$tmp"' EXIT

n=0 failed=0
ok() {		# ok STATUS NAME
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
# Fold a frame-check TAP stream into ours, prefixing its test names.
fold() {	# fold PREFIX FILE
	while IFS= read -r line; do
		case $line in
		"ok "*) ok 0 "$1: ${line#ok * - }" ;;
		"not ok "*) ok 1 "$1: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$2"
}

rand32() { echo $(( (RANDOM << 15 | RANDOM) )); }

echo "TAP version 13"
echo "# seed $SEED"

# avr_case SUITE RESETS MAXCYC [G]
avr_case() {
	local suite=$1 resets=$2 maxcyc=$3 g=${4:-0} d=$tmp/avr-d$1-g${4:-0} i rc cut=0 bad=0 runs=()
	local name="avr d$suite${4:+ g$4}"
	mkdir -p "$d"
	"$H/fw-nv" testkey "$suite" 0 1024 $((100 + suite)) "$d/key.blob" "$g"
	"$H/fw-nv" image avr "$d/key.blob" "$d/ee.bin"
	# Calibrate: one whole boot on a scratch copy gives the cut range.
	cp "$d/ee.bin" "$d/scratch.bin"
	maxcyc=$("$AVR_RUN" --eeprom "$d/scratch.bin" --uart-out /dev/null \
		"$BUILD/embedded/avr/sender-d$suite.elf" 2>&1 | sed -n 's/^avr-run: cycles total=//p')
	maxcyc=${maxcyc:-$3}
	echo "# AVR Diamond$suite: $resets boots cut at random cycles in [1, $maxcyc]" >&2
	for ((i = 0; i < resets; i++)); do
		at=$(( $(rand32) % maxcyc + 1 ))
		"$AVR_RUN" --eeprom "$d/ee.bin" --reset-at "$at" \
			--uart-out "$d/run$i.bin" "$BUILD/embedded/avr/sender-d$suite.elf" 2>/dev/null
		rc=$?
		case $rc in
		125) cut=$((cut + 1)) ;;
		0) ;;
		*) bad=$((bad + 1)); echo "# boot $i (reset at $at) exited $rc" ;;
		esac
		runs+=("$d/run$i.bin")
	done
	"$AVR_RUN" --eeprom "$d/ee.bin" --uart-out "$d/final.bin" \
		"$BUILD/embedded/avr/sender-d$suite.elf" 2>/dev/null
	rc=$?
	runs+=("$d/final.bin")
	ok $bad "$name: every boot ran or was cut by the reset ($cut of $resets cut)"
	ok $(( cut < resets / 2 )) "$name: at least half the boots were cut by a power loss"
	ok $rc "$name: the boot after the last reset runs to its end"
	"$H/fw-nv" show avr "$d/ee.bin" >"$d/nv.txt"
	[ "$(grep -c live "$d/nv.txt")" = 1 ] && ! grep -q partial "$d/nv.txt"
	ok $? "$name: EEPROM holds exactly one live state, superseded slots zeroed"
	"$H/frame-check" --key "$d/key.blob" --max-lost "$cut" "${runs[@]}" >"$d/check.tap"
	fold "$name" "$d/check.tap"
}

# Flip bit BIT of byte OFF of FILE in place.
flip() {	# flip FILE OFF BIT
	local v
	v=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "\\x$(printf %02x $((v ^ (1 << $3))))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# Blob version 2 on the device (spec section 2, Documentation/embedded.rst).
# A device in the field kept a version 1 blob in the old 64-byte slots:
# the updated firmware boots from it, seals, and leaves exactly one live
# version 2 slot. A version 2 slot with one flipped key bit is refused
# before anything is sealed (exit 3, no frames).
nv_update_case() {
	local d=$tmp/avr-update rc
	mkdir -p "$d"
	"$H/fw-nv" testkey 2 0 1024 150 "$d/key.blob"
	"$H/fw-nv" image-v1 avr "$d/key.blob" "$d/ee.bin"
	"$AVR_RUN" --eeprom "$d/ee.bin" --uart-out "$d/run.bin" \
		"$BUILD/embedded/avr/sender-d2.elf" 2>/dev/null
	ok $? "avr update: firmware boots from a version 1 NV slot (field layout)"
	"$H/fw-nv" show avr "$d/ee.bin" >"$d/nv.txt"
	[ "$(grep -c live "$d/nv.txt")" = 1 ] && ! grep -q partial "$d/nv.txt"
	ok $? "avr update: then NV holds one live version 2 slot, the v1 slot zeroed"
	"$H/frame-check" --key "$d/key.blob" --max-lost 0 "$d/run.bin" >"$d/check.tap"
	fold "avr update" "$d/check.tap"

	"$H/fw-nv" image avr "$d/key.blob" "$d/bad.bin"
	flip "$d/bad.bin" $((28 + 5)) 2
	"$AVR_RUN" --eeprom "$d/bad.bin" --uart-out "$d/bad.out" \
		"$BUILD/embedded/avr/sender-d2.elf" 2>/dev/null
	rc=$?
	# Only the boot message: no frame sync ("DF") anywhere.
	[ $rc = 3 ] && grep -aq "no reservation blob" "$d/bad.out" &&
		! LC_ALL=C grep -aq DF "$d/bad.out"
	ok $? "avr: one flipped key bit in NV -> refused, nothing sealed (exit $rc)"
}

# Group tags on the AVR, no power loss: g = 3 over epochs of 8 records
# sends group tags after records 2 and 5 and a final group of 2; one
# damaged record costs its group (3 records), never its epoch.
group_damage_case() {
	local d=$tmp/avr-groups out
	mkdir -p "$d"
	"$H/fw-nv" testkey 2 1 1024 160 "$d/key.blob" 3
	"$H/fw-nv" image avr "$d/key.blob" "$d/ee.bin"
	"$AVR_RUN" --eeprom "$d/ee.bin" --uart-out "$d/run.bin" \
		"$BUILD/embedded/avr/sender-d2.elf" 2>/dev/null
	ok $? "avr g3: firmware with g = 3 from its blob runs"
	"$H/frame-check" --key "$d/key.blob" --max-lost 0 "$d/run.bin" >"$d/check.tap"
	fold "avr g3" "$d/check.tap"
	grep -q "^# 1 runs, 32 record frames, 4 tag frames, 8 group tag frames" "$d/check.tap"
	ok $? "avr g3: 8 records an epoch give exactly 2 group tag frames each"
	# Epoch 1, record 4 (group 1): 64-byte preamble, epoch 0 is 8 records
	# and 2 group tags (20 + 16 + 16 each) and an epoch tag (the same).
	flip "$d/run.bin" $((64 + 8 * 36 + 3 * 52 + 4 * 36 + 52 + 20 + 3)) 5
	out=$("$H/frame-check" --key "$d/key.blob" "$d/run.bin")
	grep -q "^# 4 epochs and 7 groups verified, 1 units rejected" <<<"$out" &&
		grep -q "epoch 1 group 1: rejected" <<<"$out"
	ok $? "avr g3: a damaged record in epoch 1 costs its group 1 only (4 epochs, 7 of 8 groups verify)"
}

nv_update_case
group_damage_case
avr_case 2 "$AVR_RESETS" 16000000
avr_case 1 "$AVR_D1_RESETS" 33000000
avr_case 2 "${AVR_GROUP_RESETS:-20}" 16000000 3

# M4: the board cuts the power at its N-th link write, flash program or
# erase step (cut=N), leaving that write torn; N is random.
m4_case() {	# m4_case SUITE RESETS [G]
	local suite=$1 resets=$2 g=${3:-0} d=$tmp/m4-d$1-g${3:-0} i rc cut=0 bad=0 runs=()
	local name="m4 d$suite${3:+ g$3}"
	mkdir -p "$d"
	"$H/fw-nv" testkey "$suite" 0 1024 $((200 + suite)) "$d/key.blob" "$g"
	"$H/fw-nv" image m4 "$d/key.blob" "$d/nv.bin"
	echo "# M4 Diamond$suite: $resets runs cut at a random write (torn)" >&2
	for ((i = 0; i <= resets; i++)); do
		local at=""
		[ $i -lt "$resets" ] && at=",arg=cut=$(( RANDOM % 100 + 1 ))"
		timeout -k 5 60 qemu-system-arm -M mps2-an386 -cpu cortex-m4 -display none \
			-serial none -monitor none -chardev null,id=sh0 \
			-semihosting-config "enable=on,target=native,chardev=sh0,arg=fw,arg=nv=$d/nv.bin,arg=out=$d/run$i.bin$at" \
			-kernel "$BUILD/embedded/m4/sender-d$suite.elf"
		rc=$?
		case $rc in
		125) cut=$((cut + 1)) ;;
		0) ;;
		*) bad=$((bad + 1)); echo "# run $i exited $rc" ;;
		esac
		[ -e "$d/run$i.bin" ] && runs+=("$d/run$i.bin")
	done
	ok $bad "$name: every run ran or lost power ($cut of $resets cut)"
	ok $rc "$name: the run after the last power loss runs to its end"
	"$H/fw-nv" show m4 "$d/nv.bin" >"$d/nv.txt"
	[ "$(grep -c live "$d/nv.txt")" = 1 ] && ! grep -q partial "$d/nv.txt"
	ok $? "$name: flash holds exactly one live state, superseded slots zeroed"
	"$H/frame-check" --key "$d/key.blob" --max-lost "$cut" "${runs[@]}" >"$d/check.tap"
	fold "$name" "$d/check.tap"
}

if command -v qemu-system-arm >/dev/null; then
	m4_case 2 "$M4_RESETS"
	m4_case 1 "${M4_D1_RESETS:-30}"
	m4_case 1 "${M4_GROUP_RESETS:-15}" 4
fi

echo "1..$n"
[ $failed = 0 ]
