#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# demo.sh [--tap]: the end-to-end job (make demo).
#
#  1. provision four sensors (diamondctl keygen/provision): ATmega2560 and
#     Cortex-M4, each with Diamond1 and Diamond2, b = 1024;
#  2. write each key into its device's NV (EEPROM / flash image) and run the
#     sensor firmware in its emulator (avr-run, qemu mps2-an386); the AVR
#     Diamond2 sensor loses power in the middle of an epoch and boots again;
#  3. corrupt one byte of one record frame "in transit";
#  4. boot the gateway VM, load the diamond kernel module and verify and
#     decrypt everything with `diamondctl open` (kernel path), run as
#     install.rst recommends: the custody loader (`diamondctl keys load`,
#     root) puts the device keys into diamond.ko, the ingest runs as an
#     unprivileged user (uid 65534) that never holds a key (`--custody`);
#  5. print the decrypted readings and a summary;
#  6. a lossy link next to these clean ones: two more sensors, b = 1024,
#     one with a tag per epoch as the devices above (g = b), one with a
#     group tag per 16 records (provision --group-size 16), each sealing
#     20 epochs with `diamondctl seal`; their frames cross
#     `lossy-link --filter` (1% loss, 1% reordered, 1% duplicated, seeded)
#     and the same gateway VM opens what arrives;
#  7. a packet radio (spec section 14): the packet-mode firmware on the
#     ATmega2560 (Diamond1, a 1-byte address) and the Cortex-M4 (Diamond2,
#     3 bytes), 5 boots of 40 readings each, one packet a reading with the
#     grid's tags riding in the records' packets, through `lossy-link
#     --packets` at 5% loss (seeded); in the same gateway VM, `diamondctl
#     open --packet` releases the readings a verified row or column tag
#     covers, the tags checked by diamond.ko (kernel path; packet mode
#     reads its keys from its state directory: the custody loader does
#     not serve it yet).
#
# --tap prints TAP instead (make check-fw-interop): the same run, checked,
# with two more devices on the same gateway VM, the senders for other
# firmware (Documentation/embedded.rst, "The sender in your firmware"):
# the Arduino library's Telemetry example (arduino/Diamond, a key header
# from provision --header), built by arduino-builder ($ARDUINO_BUILDER,
# mk/sketch.mk) and run in simavr, the CMake package's M4 example
# (dist/sender/examples/sensor) under qemu, and the sensor firmware on
# the two-file sender (dist/sender/) on the host; their frames through
# lossy-link --filter, opened in a state directory of their own.
# Expects the artifacts of `make module firmware userspace
# $BUILD/userspace/diamondctl-static`; mk/demo.mk builds them first.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
H=$BUILD/embedded/host
E=$BUILD/embedded
D=$BUILD/userspace/diamondctl
DS=$BUILD/userspace/diamondctl-static
# The module of the kernel this run boots, kept per arch and kernel as
# mk/kernel.mk does (make passes KMOD_KO when it knows it). Never ask make
# here: mk/demo.mk runs this script while make reads its rules.
KO=${KMOD_KO:-$BUILD/kernel/x86_64-${KVER:-$("$TOP/tools/kernel/default-kver")}/diamond.ko}
# Every build output this script runs; mk/demo.mk builds exactly these
# (`demo.sh --needs` prints them), so a fresh clone needs nothing else.
NEEDS="$H/fw-nv $E/avr/sender-d1.elf $E/avr/sender-d2.elf $E/m4/sender-d1.elf
$E/m4/sender-d2.elf $D $DS $KO $BUILD/tools/avr-run"
NEEDS="$NEEDS $BUILD/host/lossy-link $BUILD/arduino/Diamond.stamp
$BUILD/amalg/host/sender-d1.elf $E/avr/psender-d1.elf $E/m4/psender-d2.elf
$H/frame-check"
if [ "${1:-}" = --needs ]; then
	echo $NEEDS
	exit 0
fi
tap=0
[ "${1:-}" = --tap ] && tap=1

say() { [ $tap = 1 ] && echo "# $*" || echo "$*"; }
step() { [ $tap = 1 ] && echo "# $*" || printf '\n== %s\n' "$*"; }

for f in $NEEDS; do
	if [ ! -e "$f" ]; then
		if [ $tap = 1 ]; then
			echo "TAP version 13"; echo "1..1"
			echo "not ok 1 - firmware to kernel gateway: missing $f"
			exit 1
		fi
		echo "demo: missing $f (run make demo)" >&2
		exit 1
	fi
done

W=$(mktemp -d /tmp/diamond-demo.XXXXXX)
[ -n "${KEEP:-}" ] && echo "# keeping $W" || trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

# device id, board, suite, aggregation
DEVICES="1001:avr:2:xor 1002:avr:1:add 2001:m4:2:hash 2002:m4:1:xor"

step "provisioning four sensors (diamondctl keygen, provision; b = 1024)"
"$D" keygen -o root >/dev/null || exit 1
for d in $DEVICES; do
	IFS=: read -r id board suite agg <<<"$d"
	"$D" provision --root root --device "$id" --suite "$suite" --agg "$agg" \
		--b 1024 --blob "$id.blob" --state-dir gw >/dev/null || exit 1
	"$H/fw-nv" image "$board" "$id.blob" "$id.nv" || exit 1
	say "  device $id: $board, Diamond$suite, $agg aggregation -> key written to its $([ "$board" = avr ] && echo EEPROM || echo flash)"
done

# The lossy link's two sensors (step 6) keep their own gateway state.
for g in 1024 16; do
	"$D" provision --root root --device "3$g" --suite 2 --agg xor --b 1024 \
		--group-size $g --blob "3$g.blob" --state-dir gwl >/dev/null || exit 1
done

m4_run() {	# m4_run ID SUITE OUT [ELF]
	qemu-system-arm -M mps2-an386 -cpu cortex-m4 -display none -serial none \
		-monitor none -chardev null,id=sh0 \
		-semihosting-config "enable=on,target=native,chardev=sh0,arg=fw,arg=nv=$1.nv,arg=out=$3" \
		-kernel "${4:-$E/m4/sender-d$2.elf}"
}

# mid_epoch_cut ID SUITE: a cycle at which a power loss leaves an epoch
# with records sent but no tag. The simulation is exact, so trial runs on a
# copy of the EEPROM tell where a cut lands: after the 64-byte boot preamble
# every whole epoch is 340 bytes (8 records of 20 + 16, a tag of 20 + 32).
mid_epoch_cut() {
	local full pct at sz
	full=$(sed -n 's/^avr-run: cycles total=//p' "$1.err1")
	for pct in 55 60 65 50 70 45 75 40; do
		at=$((full * pct / 100))
		cp "$1.nv" "$1.nv.try"
		"$BUILD/tools/avr-run" --eeprom "$1.nv.try" --uart-out "$1.try" \
			--reset-at "$at" "$E/avr/sender-d$2.elf" 2>/dev/null
		sz=$(stat -c %s "$1.try")
		rm -f "$1.nv.try" "$1.try"
		if [ "$sz" -gt 64 ] && [ $(((sz - 64) % 340)) -ne 0 ]; then
			echo "$at"
			return
		fi
	done
	echo $((full / 2))
}

# --tap: the drop-in senders (see the top) into dropin.bin (empty: none
# ran). ard and cm: empty when it ran, else "skip: WHY" (a tool missing)
# or "fail: WHY".
: >dropin.bin
ard= cm= two=
dropin() {	# dropin ID LINK: a clean link into dropin.bin
	"$BUILD/host/lossy-link" --filter --loss 0 --corrupt 0 --reorder 0 \
		--dup 0 --seed "$1" <"$2" >>dropin.bin 2>/dev/null
}
if [ $tap = 1 ]; then
	if [ -z "${ARDUINO_BUILDER:-}" ] || ! command -v arduino-builder >/dev/null; then
		ard="skip: arduino-builder not installed (make deps)"
	else
		"$D" provision --root root --device 4001 --suite 1 --agg add --b 1024 \
			--blob 4001.blob --header diamond_key.h --state-dir gwd >/dev/null &&
		cp -r "$BUILD/arduino/libraries/Diamond/examples/Telemetry" . &&
		mv diamond_key.h Telemetry/ && mkdir ard &&
		$ARDUINO_BUILDER -libraries "$BUILD/arduino/libraries" -build-path "$W/ard" \
			-prefs=build.extra_flags=-DSAMPLE_MS=5 Telemetry/Telemetry.ino \
			>ard.log 2>&1 || ard="fail: Telemetry did not build"
		if [ -z "$ard" ]; then
			head -c 4096 /dev/zero | tr '\0' '\377' >4001.nv
			"$BUILD/tools/avr-run" --eeprom 4001.nv --uart-out 4001.link \
				--cycles-limit 20000000 ard/Telemetry.ino.elf 2>/dev/null
			dropin 4001 4001.link
		fi
	fi
	if ! command -v cmake >/dev/null; then
		cm="skip: cmake not installed (make deps)"
	else
		"$D" provision --root root --device 4002 --suite 2 --agg xor --b 1024 \
			--blob 4002.blob --state-dir gwd >/dev/null &&
		"$H/fw-nv" image m4 4002.blob 4002.nv &&
		cmake -S "$TOP/dist/sender/examples/sensor" -B cm -DDIAMOND_FROM_SOURCE=ON \
			-DCMAKE_BUILD_TYPE=Release \
			-DCMAKE_TOOLCHAIN_FILE="$TOP/dist/sender/cmake/arm-none-eabi.cmake" \
			>cm.log 2>&1 && cmake --build cm >>cm.log 2>&1 ||
			cm="fail: the CMake M4 example did not build"
		if [ -z "$cm" ]; then
			m4_run 4002 2 4002.link cm/sensor.elf
			dropin 4002 4002.link
		fi
	fi
	"$D" provision --root root --device 4003 --suite 1 --agg xor --b 1024 \
		--blob 4003.blob --state-dir gwd >/dev/null &&
		"$H/fw-nv" image avr 4003.blob 4003.nv &&
		DMD_NV=4003.nv "$BUILD/amalg/host/sender-d1.elf" >4003.link ||
		two="fail: the sensor firmware on diamond-sender.c did not run"
	[ -n "$two" ] || dropin 4003 4003.link
fi

step "running the sensor firmware (4 epochs of 8 records per boot)"
for d in $DEVICES; do
	IFS=: read -r id board suite agg <<<"$d"
	: >"$id.link"
	if [ "$board" = avr ]; then
		boots=1
		[ "$suite" = 2 ] && boots=3
		for ((b = 1; b <= boots; b++)); do
			cut=()
			# Boot 2 of device 1001 loses power mid-epoch.
			[ "$b" = 2 ] && cut=(--reset-at "$(mid_epoch_cut "$id" "$suite")")
			"$BUILD/tools/avr-run" --eeprom "$id.nv" --uart-out "$id.boot$b" \
				"${cut[@]}" "$E/avr/sender-d$suite.elf" 2>"$id.err$b"
			rc=$?
			cat "$id.boot$b" >>"$id.link"
			cyc=$(sed -n 's/^avr-run: cycles total=//p' "$id.err$b")
			if [ $rc = 125 ]; then
				say "  device $id (ATmega2560, simavr) boot $b: power lost at cycle $cyc, $(stat -c %s "$id.boot$b") bytes sent"
			else
				say "  device $id (ATmega2560, simavr) boot $b: exit $rc, $cyc cycles, $(stat -c %s "$id.boot$b") bytes on UART0"
			fi
		done
	else
		m4_run "$id" "$suite" "$id.link"
		say "  device $id (Cortex-M4, qemu mps2-an386): exit $?, $(stat -c %s "$id.link") bytes over semihosting"
	fi
done

# One byte of device 2001's epoch 1, record 3 flipped in transit. The link
# of this firmware: a 64-byte boot preamble, then per epoch 8 records of
# 20 + 16 bytes and a tag of 20 + 16 (AD) + 16 bytes: 340 bytes.
off=$((64 + 340 + 3 * 36 + 20 + 5))
byte=$(od -An -tu1 -j $off -N1 2001.link | tr -d ' ')
printf "\\$(printf '%03o' $((byte ^ 0x40)))" | dd of=2001.link bs=1 seek=$off conv=notrunc 2>/dev/null
step "transit: flipped one bit in device 2001, epoch 1, record 3 (link byte $off)"
cat 1001.link 1002.link 2001.link 2002.link >frames.bin
say "  gateway input: $(stat -c %s frames.bin) bytes from 4 devices"

step "a lossy link: two more sensors (diamondctl seal, b = 1024), 1% of frames lost"
seq -f 'reading %g' 0 20479 >lines.txt
for g in 1024 16; do
	"$D" seal --blob "3$g.blob" <lines.txt >"3$g.sent" || exit 1
	"$BUILD/host/lossy-link" --filter --loss 0.01 --corrupt 0 --reorder 0.01 \
		--dup 0.01 --depth 4 --seed $g <"3$g.sent" >>lossy.bin 2>"3$g.link" || exit 1
	say "  device 3$g: g = $g, 20480 records in 20 epochs; $(sed 's/^lossy-link: //; s/ (seed.*//' "3$g.link")"
done

# Step 7, packet radio (spec section 14, the radio configuration the
# firmware was built with, mk/embedded.mk FW_PKT_*): device id, board,
# suite, address width, address. Each boot of the firmware seals 40
# readings, one packet each, and abandons its epoch (b = 1024).
PDEVICES="5001:avr:1:1:05 5002:m4:2:3:0c0b0a"
PBOOTS=5
step "a packet radio: two sensors in packet mode, $PBOOTS boots of 40 readings each, through a 5% lossy link"
for d in $PDEVICES; do
	IFS=: read -r id board suite a addr <<<"$d"
	"$D" provision --root root --device "$id" --suite "$suite" --agg xor \
		--b 1024 --blob "$id.blob" --state-dir gwp --packet \
		--addr-width "$a" --addr "$addr" >/dev/null &&
		"$H/fw-nv" image "$board" "$id.blob" "$id.nv" || exit 1
	: >"$id.plink"
	for ((b = 1; b <= PBOOTS; b++)); do
		if [ "$board" = avr ]; then
			"$BUILD/tools/avr-run" --eeprom "$id.nv" --uart-out "$id.pboot" \
				"$E/avr/psender-d$suite.elf" 2>/dev/null
		else
			m4_run "$id" "$suite" "$id.pboot" "$E/m4/psender-d$suite.elf"
		fi
		cat "$id.pboot" >>"$id.plink"
	done
	# The stand-in link: 256 idle length bytes per boot, a length byte
	# per packet; what is left went on the air.
	air=$(( $(stat -c %s "$id.plink") - PBOOTS * (256 + 40) ))
	"$BUILD/host/lossy-link" --packets --loss 0.05 --seed "$id" <"$id.plink" \
		>>packets.bin 2>"$id.ploss" || exit 1
	say "  device $id: $([ "$board" = avr ] && echo ATmega2560 || echo Cortex-M4), Diamond$suite, a $a-byte address: $((PBOOTS * 40)) readings, $air bytes on the air ($(awk -v n="$air" -v r=$((PBOOTS * 40)) 'BEGIN { printf "%.1f", n / r }') a reading); $(sed 's/^lossy-link: //; s/ (seed.*//' "$id.ploss")"
done
say "  a stream frame of a 16-byte reading costs 36 bytes, LoRaWAN 29, per-message AES-GCM 41"
cp -r gwp gwp0	# for the clean link, opened after the VM (--tap)

step "booting the gateway VM: diamond.ko, keys loaded into it, diamondctl open as uid 65534 (kernel path, custody), about 15-30 s"
mkdir -p w && cp -r gw gwl gwp w/ && cp frames.bin lossy.bin dropin.bin packets.bin w/
[ -s dropin.bin ] && cp -r gwd w/
# The gateway as install.rst section 4 sets it up: the clear states in a
# root-only key directory, the loader as root, the ingest as an
# unprivileged user in the group that may bind the module's AF_ALG type
# (afalg_gid), its state directory its own.
cat >w/guest.sh <<'SH'
modprobe diamond || echo "@@err modprobe diamond failed"
echo 65534 >/sys/module/diamond/parameters/afalg_gid
for g in gw gwl gwd; do
	[ -d /w/$g ] || continue
	mkdir -p /w/keys-$g /w/ingest-$g && cp /w/$g/*.state /w/keys-$g/ &&
		chmod 700 /w/keys-$g /w/ingest-$g && chown 65534:65534 /w/ingest-$g
done
chmod 755 /w && chmod 644 /w/frames.bin /w/lossy.bin /w/dropin.bin
ingest() {
	g=$1
	shift
	diamondctl keys load --keys /w/keys-$g --state-dir /w/ingest-$g \
		--user 65534:65534 -- diamondctl open --custody "$@"
}
ingest gw --state-dir /w/ingest-gw --input /w/frames.bin >/w/out.json 2>/w/err.txt
echo "@@rc $?"
ingest gwl --log-rate 0 --state-dir /w/ingest-gwl --input /w/lossy.bin >/w/lossy.json 2>/w/lossy.txt
echo "@@lrc $?"
if [ -s /w/dropin.bin ]; then
	ingest gwd --state-dir /w/ingest-gwd --input /w/dropin.bin >/w/dropin.json 2>/w/dropin.txt
	echo "@@drc $?"
	sed 's/^/@@djson /' /w/dropin.json
	sed 's/^/@@derr /' /w/dropin.txt
fi
sed 's/^/@@json /' /w/out.json
sed 's/^/@@err /' /w/err.txt
sed 's/^/@@ljson /' /w/lossy.json
sed 's/^/@@lerr /' /w/lossy.txt
diamondctl open --packet --state-dir /w/gwp /w/packets.bin >/w/packet.json 2>/w/packet.txt
echo "@@prc $?"
sed 's/^/@@pjson /' /w/packet.json
sed 's/^/@@perr /' /w/packet.txt
SH
start=$(date +%s)
BUILD=$BUILD/vm "$TOP/tools/vm/run-vm" --timeout 600 --module "$KO" \
	--file "$DS:/bin/diamondctl" --file "$W/w:/w" -- 'sh /w/guest.sh' \
	>console.txt 2>vmerr.txt &
vm=$!
while kill -0 $vm 2>/dev/null; do
	sleep 5
	kill -0 $vm 2>/dev/null && [ $tap = 0 ] && echo "  ... VM running, $(( $(date +%s) - start )) s"
done
wait $vm
vmrc=$?
sec() { sed -n "s/^@@$1 //p" console.txt | tr -d '\r'; }

# Step 7's report: what the packet receiver released of each device.
packet_report() {
	local d id n
	step "the packet radio at the gateway (diamondctl open --packet, $(grep -q 'open --packet (kernel)' packet.txt && echo "kernel path: diamond.ko's tag grid" || echo "software path"))"
	for d in $PDEVICES; do
		id=${d%%:*}
		n=$(grep -c "\"device\":$id,.*\"data\"" packet.json)
		say "  device $id: $n of $((PBOOTS * 40)) readings released ($(awk -v n="$n" -v r=$((PBOOTS * 40)) 'BEGIN { printf "%.1f%%", 100 * n / r }')), each under a verified row or column tag"
	done
	say "  a reading needs its row's 4 packets or its column's; with one tag per epoch, as above, a"
	say "  lost packet would cost the boot's whole epoch"
}

# Step 6's report: what the gateway released of each lossy device.
lossy_report() {
	local g n
	step "the lossy link at the gateway ($(grep -q '(kernel)' lossy.txt && echo "kernel path" || echo "software path"))"
	for g in 1024 16; do
		n=$(grep -c "\"device\":3$g," lossy.json)
		say "  device 3$g (g = $g): $n of 20480 records released ($(awk -v n="$n" 'BEGIN { printf "%.1f%%", 100 * n / 20480 }'))"
	done
	say "  g = 1024 is one tag per epoch, as the devices above: at 1% loss almost no epoch"
	say "  arrives whole. g = 16 loses only the groups a lost frame hit: (0.99)^16 = 85.1%."
}
sec json >out.json
sec err >err.txt
sec ljson >lossy.json
sec lerr >lossy.txt
sec djson >dropin.json
sec derr >dropin.txt
sec pjson >packet.json
sec perr >packet.txt
prc=$(sec prc)
rc=$(sec rc)
lrc=$(sec lrc)
drc=$(sec drc)

if [ $tap = 0 ]; then
	step "decrypted readings (verified by the kernel module)"
	awk -F'"' '
	function hx(s, i) { return index("0123456789abcdef", substr(s, i, 1)) - 1 }
	function byte(s, k) { return hx(s, 2 * k + 1) * 16 + hx(s, 2 * k + 2) }
	function le(s, k, n,   v, i) { v = 0; for (i = n - 1; i >= 0; i--) v = v * 256 + byte(s, k + i); return v }
	{
		dev = $3; ep = $5; idx = $7; gsub(/[^0-9]/, "", dev); gsub(/[^0-9]/, "", ep); gsub(/[^0-9]/, "", idx)
		for (i = 1; i <= NF; i++) if ($i == "data") d = $(i + 2)
		t = le(d, 8, 2); if (t >= 32768) t -= 65536
		printf "  device %-4s epoch %-2s #%s  sample %-3d  %6.2f C  %5.2f %%RH  %6d Pa%s\n",
			dev, ep, idx, le(d, 4, 4), t / 100, le(d, 10, 2) / 100, le(d, 12, 4),
			byte(d, 1) % 2 ? "  (first after boot)" : ""
	}' out.json
	step "gateway report (diamondctl keys load and open on stderr)"
	sed 's/^/  /' err.txt
	say "  custody: the loader (root) put the device keys into diamond.ko as keys of its own"
	say "  type; the ingest ran as uid 65534, read no key and can use none outside the module"
	step "summary"
	awk -F'[:,]' '{ dev[$2] = 1; ep[$2 "/" $4] = 1; n++ }
		END { printf "  devices %d, epochs verified %d, records %d\n", length(dev), length(ep), n }' out.json
	echo "  epochs rejected: $(grep -c 'epoch [0-9]* rejected' err.txt): device 2001's epoch with the corrupted frame (bad tag)"
	echo "  and device 1001's epoch cut by the power loss (incomplete: no tag); every other epoch verified"
	[ "$vmrc" = 0 ] || { echo "demo: VM exited $vmrc"; tail -20 console.txt vmerr.txt; exit 1; }
	lossy_report
	packet_report
	exit 0
fi

# --tap, with the one shell TAP helper
. "$TOP/selftests/lib/tap.sh"
t() { check "$1" eval "$2"; }	# t NAME EXPR
echo "TAP version 13"
sed 's/^/# /' err.txt
records() { grep -c "\"device\":$1," "${2:-out.json}"; }	# records ID [JSON]
t "gateway VM ran (run-vm status $vmrc)" '[ "$vmrc" = 0 ]'
t "diamondctl open through the kernel: exit 1 (epochs rejected)" '[ "$rc" = 1 ]'
t "the kernel path was used" 'grep -q "(kernel)" err.txt'
t "custody: the loader put every device's key into diamond.ko (4 by reference)" \
	'grep -q "custody: 4 devices by reference" err.txt && grep -q "custody: 2 devices by reference" lossy.txt'
t "custody: no line about a weaker custody (the ingest holds no key)" \
	'! grep -q "custody: weaker" err.txt lossy.txt'
t "device 2001 epoch 1 (corrupted in transit) rejected, bad tag" 'grep -q "device 2001 epoch 1 rejected: bad tag" err.txt'
t "rejected: only the corrupted epoch and the AVR epoch cut by the power loss (incomplete)" \
	'[ "$(grep -c "epoch [0-9]* rejected" err.txt)" = 2 ] && grep -q "device 1001 epoch [0-9]* rejected: incomplete" err.txt'
t "AVR Diamond1 (1002): 32 records" '[ "$(records 1002)" = 32 ]'
t "AVR Diamond2 (1001): 3 boots, one cut by a power loss, the completed epochs verify ($(records 1001) records)" '[ "$(records 1001)" -ge 64 ]'
t "M4 Diamond2 (2001): the other 3 epochs verify (24 records)" '[ "$(records 2001)" = 24 ]'
t "M4 Diamond1 (2002): 32 records" '[ "$(records 2002)" = 32 ]'
"$D" open --state-dir gw --software --input frames.bin >sw.json 2>/dev/null
t "software open on the host agrees with the kernel" 'cmp -s sw.json out.json'
t "lossy link: the gateway ran, exit 1 (groups and epochs rejected)" '[ "$lrc" = 1 ]'
t "lossy link: the kernel path opened the grouped device" 'grep -q "(kernel)" lossy.txt'
t "lossy link, g = 16: at least 84% of 20480 records released ($(records 316 lossy.json))" \
	'[ $((100 * $(records 316 lossy.json))) -ge $((84 * 20480)) ]'
t "lossy link, g = 1024: fewer released than with g = 16 ($(records 31024 lossy.json))" \
	'[ "$(records 31024 lossy.json)" -lt "$(records 316 lossy.json)" ]'
"$D" open --state-dir gwl --software --log-rate 0 --input lossy.bin >lsw.json 2>/dev/null
t "lossy link: software open on the host agrees with the gateway VM" 'cmp -s lsw.json lossy.json'
# Step 7: every reading the packet receiver released is the firmware's at
# its position (the clean link's, opened from the same state), once; the
# seeds are fixed, so the counts are too (about 90% expected at 5% loss:
# the last 8 readings of each boot have rows but no columns).
for d in $PDEVICES; do
	IFS=: read -r id board suite a addr <<<"$d"
	cat "$id.plink"
done >pclean.bin
"$D" open --packet --state-dir gwp0 --software pclean.bin 2>/dev/null | grep '"data"' | sort >pclean.json
grep '"data"' packet.json | sort >psorted.json
t "packet radio: open --packet in the gateway VM exits 0, kernel path ($(sed 's/^diamondctl: //' packet.txt | tail -1))" \
	'[ "$prc" = 0 ] && grep -q "open --packet (kernel)" packet.txt'
# gwp is as provisioned: the VM had a copy of it.
"$D" open --packet --state-dir gwp --software packets.bin >psw.json 2>/dev/null
t "packet radio: software open on the host agrees with the gateway VM" 'cmp -s psw.json packet.json'
t "packet radio: the clean link releases all $((2 * PBOOTS * 40)) readings of both firmwares" \
	'[ "$(wc -l <pclean.json)" = $((2 * PBOOTS * 40)) ]'
t "packet radio: every reading released through the lossy link is the firmware's at its position, once" \
	'[ -z "$(comm -23 psorted.json pclean.json)" ] && [ -z "$(cut -d, -f1-3 psorted.json | uniq -d)" ]'
for d in $PDEVICES; do
	id=${d%%:*}
	t "packet radio, device $id: at least 80% of $((PBOOTS * 40)) released at 5% loss ($(records "$id" psorted.json))" \
		'[ $((100 * $(records "$id" psorted.json))) -ge $((80 * PBOOTS * 40)) ]'
done
# The drop-in senders: ard and cm say whether each ran.
ran() {	# ran NAME STATE: 0 when it ran; else its skip or failure, reported
	case $2 in
	"") return 0 ;;
	skip:*) skip "$1" "${2#skip: }" ;;
	*) ok 1 "$1: ${2#fail: }" ;;
	esac
	return 1
}
devs=0
[ -z "$ard" ] && devs=$((devs + 1))
[ -z "$cm" ] && devs=$((devs + 1))
[ -z "$two" ] && devs=$((devs + 1))
if [ $devs -gt 0 ]; then
	sed 's/^/# /' dropin.txt
	t "drop-in senders: the kernel path opened them, $devs keys by reference, exit 0, nothing rejected (an epoch a run's end cut waits for its tag)" \
		'grep -q "(kernel)" dropin.txt && grep -q "custody: $devs devices\{0,1\} by reference" dropin.txt &&
		 [ "$drc" = 0 ] && ! grep -q "epoch [0-9]* rejected" dropin.txt'
	"$D" open --state-dir gwd --software --input dropin.bin >dsw.json 2>/dev/null
	t "drop-in senders: software open on the host agrees with the kernel" 'cmp -s dsw.json dropin.json'
fi
if ran "Arduino Telemetry (arduino-builder, simavr) through the kernel gateway" "$ard"; then
	# Expected: every reading of an epoch whose tag frame was sent, each the
	# sketch's (format 2, sample epoch * 8 + index).
	want=$("$H/frame-check" --list 4001.link | awk '$1 == "frame" && $2 == 2 { n += $6 } END { print n + 0 }')
	grep '"device":4001,' dropin.json >ard.json
	bad=$(awk -F'"' '
	function hx(s, i) { return index("0123456789abcdef", substr(s, i, 1)) - 1 }
	function byte(s, k) { return hx(s, 2 * k + 1) * 16 + hx(s, 2 * k + 2) }
	{
		split($0, f, /[:,]/)
		for (i = 1; i <= NF; i++) if ($i == "data") d = $(i + 2)
		sample = ((byte(d, 7) * 256 + byte(d, 6)) * 256 + byte(d, 5)) * 256 + byte(d, 4)
		if (byte(d, 0) != 2 || sample != f[4] * 8 + f[6]) n++
	}
	END { print n + 0 }' ard.json)
	t "Arduino Telemetry (arduino-builder, simavr): all $want readings of its completed epochs released ($(records 4001 ard.json)), each the sketch's ($bad wrong)" \
		'[ "$want" -gt 0 ] && [ "$(records 4001 ard.json)" = "$want" ] && [ "$bad" = 0 ]'
fi
if ran "CMake M4 example (qemu) through the kernel gateway" "$cm"; then
	t "CMake M4 example (diamond::sender, qemu mps2-an386): 32 readings released ($(records 4002 dropin.json))" \
		'[ "$(records 4002 dropin.json)" = 32 ]'
fi
if ran "the two-file sender on the host through the kernel gateway" "$two"; then
	t "the sensor firmware on diamond-sender.c (host): 32 readings released ($(records 4003 dropin.json))" \
		'[ "$(records 4003 dropin.json)" = 32 ]'
fi
tap_end
