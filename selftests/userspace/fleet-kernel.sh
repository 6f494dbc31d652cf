#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-fleet-kernel (issue 31 item 2): the fleet's verifier as
# install.rst runs a gateway, in one VM boot of make check's kernel. The
# guest runs Debian's mosquitto on its loopback, the custody loader
# (`diamondctl keys load`, root) puts the device keys into diamond.ko, and
# `diamondctl open --custody --mqtt` runs as uid 65534: frames published
# by `diamondctl forward` are verified through the module, in custody, and
# the readings and events come back from the broker to `mosquitto_sub`.
#
# On the host: three devices (suites 1 and 2, one with group tags) seal
# their telemetry; one byte of one epoch is flipped in transit; `open
# --software --input` on the same frames gives the expected readings and
# the rejected epoch. The frames go in two halves: after the first, the
# verifier is killed with SIGKILL and started again on its persistent
# session and state. Checked: the kernel path in custody was used (no key
# in the ingest), every reading the software path releases arrives with
# its content, nothing else does, and each ID once after dedupe (at least
# once across the kill), and the flipped epoch is reported rejected.
#
# The guest gets the dynamic diamondctl, mosquitto and its clients with
# the shared libraries ldd names for them (the static diamondctl has no
# libmosquitto). Skips (exit 4) without the module or mosquitto.
# Environment: US_BUILD, TOP, BUILD, KMOD_KO (mk/kernel.mk).
set -u
US_BUILD=${US_BUILD:?}
TOP=${TOP:?}
BUILD=${BUILD:?}
KO=${KMOD_KO:?}
D=$US_BUILD/diamondctl
. "$TOP/selftests/lib/tap.sh"

echo "TAP version 13"
MOSQ=$(command -v mosquitto || echo /usr/sbin/mosquitto)
SUB=$(command -v mosquitto_sub || true)
PUB=$(command -v mosquitto_pub || true)
if [ ! -f "$KO" ]; then
	skip "the fleet's verifier through diamond.ko" "kernel module not built (make module)"
	tap_end
	exit 4
fi
if [ ! -x "$MOSQ" ] || [ -z "$SUB" ] || [ -z "$PUB" ] || ! "$D" forward --help >/dev/null 2>&1; then
	skip "the fleet's verifier through diamond.ko" "needs mosquitto, mosquitto-clients and diamondctl with MQTT (make deps)"
	tap_end
	exit 4
fi
W=$(mktemp -d /tmp/diamond-fleet-kernel.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

# ---- host: devices, frames, the expected output -------------------------------
mkdir -p w
"$D" keygen -o root >/dev/null 2>&1
for spec in 21:1:64:64 22:2:64:16 23:2:32:32; do
	IFS=: read -r dev suite b g <<<"$spec"
	"$D" provision --root root --device "$dev" --suite "$suite" --agg xor \
		--b "$b" --group-size "$g" --blob "d$dev.blob" --state-dir w/st >/dev/null 2>&1 &&
		seq -f "d$dev r%05g" 0 $((4 * b - 1)) | "$D" seal --blob "d$dev.blob" >"f$dev.bin" 2>/dev/null ||
		{ ok 1 "host: provision and seal device $dev"; tap_end; exit 1; }
done
# One bit of device 21's second epoch flipped in transit. Its readings
# are all 10 bytes, so each of its 4 epochs is a quarter of its frames, a
# record frame 20 + 10 bytes: byte 5 of record 2's ciphertext.
e1=$(($(stat -c %s f21.bin) / 4))
off=$((e1 + 2 * 30 + 20 + 5))
byte=$(od -An -tu1 -j $off -N1 f21.bin | tr -d ' ')
printf "\\$(printf '%03o' $((byte ^ 0x10)))" | dd of=f21.bin bs=1 seek=$off conv=notrunc 2>/dev/null
# Two halves: the first two epochs of every device, then the rest.
for dev in 21 22 23; do
	size=$(stat -c %s "f$dev.bin")
	head -c $((size / 2)) "f$dev.bin" >>w/half1.bin
	tail -c +$((size / 2 + 1)) "f$dev.bin" >>w/half2.bin
done
cp -r w/st st.soft
cat w/half1.bin w/half2.bin >all.bin
"$D" open --software --state-dir st.soft --input all.bin >soft.json 2>soft.err
# "device epoch index data" of every reading, sorted: what must arrive.
readings() {
	sed -n 's/.*{"device":\([0-9]*\),"epoch":\([0-9]*\),"index":\([0-9]*\),"data":"\([^"]*\)".*/\1 \2 \3 \4/p' "$@" | sort
}
readings soft.json >want.txt
want=$(wc -l <want.txt)
echo "# software path on the same frames: $want readings; $(sed 's/^diamondctl: //' soft.err | tr '\n' ' ')"

# ---- the guest ------------------------------------------------------------------
cat >w/mosquitto.conf <<'CONF'
listener 1883 127.0.0.1
allow_anonymous true
user root
persistence true
persistence_location /w/mosq/
max_queued_messages 0
CONF
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >w/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' >w/group
cat >w/guest.sh <<'SH'
ifconfig lo 127.0.0.1 up || ip link set lo up
modprobe diamond || echo "@@note modprobe diamond failed"
echo 65534 >/sys/module/diamond/parameters/afalg_gid
mkdir -p /w/keys /w/ingest /w/mosq
cp /w/st/*.state /w/keys/ && chmod 700 /w/keys /w/ingest && chown 65534:65534 /w/ingest
chmod 755 /w && chmod 644 /w/half1.bin /w/half2.bin
mosquitto -c /w/mosquitto.conf >/w/mosq.log 2>&1 &
up=1
for i in $(seq 100); do
	mosquitto_pub -h 127.0.0.1 -p 1883 -t probe -m x 2>/dev/null && { up=0; break; }
	sleep 0.2
done
echo "@@mosq $up"
mosquitto_sub -h 127.0.0.1 -p 1883 -q 1 -v -i sub -c -t 'diamond/readings/#' \
	-t 'diamond/events/#' >/w/sub.txt 2>/w/sub.err &
# verifier RUN: start it, and wait (60 s at most) until it has subscribed:
# a frame published before its first subscription reaches no session.
verifier() {
	diamondctl keys load --keys /w/keys --state-dir /w/ingest --user 65534:65534 -- \
		diamondctl open --custody --state-dir /w/ingest --mqtt 127.0.0.1:1883 \
		--client-id verifier >>/w/ver.txt 2>&1 &
	VP=$!
	for i in $(seq 300); do
		[ "$(grep -c 'subscribed to the frames' /w/ver.txt)" -ge "$1" ] && return
		sleep 0.2
	done
}
# until N: until the subscriber holds N readings, or 120 s
until_readings() {
	for i in $(seq 600); do
		[ "$(grep -c '^diamond/readings/' /w/sub.txt)" -ge "$1" ] && return 0
		sleep 0.2
	done
	return 1
}
verifier 1
diamondctl forward --broker 127.0.0.1:1883 --gateway-id gw1 --input /w/half1.bin 2>/w/fwd1.txt
echo "@@fwd1 $?"
until_readings "$(cat /w/want1)"
echo "@@half1 $?"
kill -9 $VP
wait $VP 2>/dev/null
echo "@@killed $?"
diamondctl forward --broker 127.0.0.1:1883 --gateway-id gw1 --input /w/half2.bin 2>/w/fwd2.txt
echo "@@fwd2 $?"
verifier 2
until_readings "$(cat /w/want)"
echo "@@all $?"
sleep 2
kill $VP
wait $VP
echo "@@vrc $?"
sed 's/^/@@sub /' /w/sub.txt
sed 's/^/@@ver /' /w/ver.txt
sed 's/^/@@fwd /' /w/fwd1.txt /w/fwd2.txt
SH
# The readings the first half releases (software path, on a copy).
cp -r w/st st.half
"$D" open --software --state-dir st.half --input w/half1.bin 2>/dev/null | readings >want1.txt
wc -l <want1.txt | tr -d ' ' >w/want1
echo "$want" >w/want

files=(--file "$D:/bin/diamondctl" --file "$MOSQ:/bin/mosquitto" --file "$SUB:/bin/mosquitto_sub"
	--file "$PUB:/bin/mosquitto_pub" --file "$W/w:/w" --file "$W/w/passwd:/etc/passwd"
	--file "$W/w/group:/etc/group")
for lib in $(ldd "$D" "$MOSQ" "$SUB" "$PUB" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u); do
	files+=(--file "$(readlink -f "$lib"):$lib")
done
BUILD=$BUILD/vm "$TOP/tools/vm/run-vm" --timeout 900 --module "$KO" "${files[@]}" \
	-- 'sh /w/guest.sh' >console.txt 2>vmerr.txt
vmrc=$?
sec() { sed -n "s/^@@$1 //p" console.txt | tr -d '\r'; }
sec ver >ver.txt
sec sub >sub.txt
sed 's/^/# verifier: /' ver.txt | grep -v '^# verifier: {' | head -20

check "VM boot and guest script (run-vm status $vmrc)" test "$vmrc" = 0
check "mosquitto $(dpkg-query -W -f '${Version}' mosquitto 2>/dev/null) on the guest's loopback" test "$(sec mosq)" = 0
check "forward published both halves (exit $(sec fwd1), $(sec fwd2))" test "$(sec fwd1)$(sec fwd2)" = 00
check "the first half's $(cat w/want1) readings arrived before the verifier was killed (SIGKILL, status $(sec killed))" \
	test "$(sec half1)" = 0 -a "$(sec killed)" = 137
check "custody: the loader put the 3 device keys into diamond.ko by reference; after the kill, the 3 states the module wrapped are kept" \
	sh -c "grep -q 'custody: 3 devices by reference' ver.txt &&
	       grep -q 'custody: 0 devices by reference, 0 wrapped by the loader, 3 wrapped states kept' ver.txt"
check "the verifier verified through the kernel, and said nothing of a weaker custody" \
	sh -c "grep -q 'open --mqtt: kernel path' ver.txt && ! grep -q 'custody: weaker' ver.txt"
check "the restarted verifier ended cleanly on SIGTERM (status $(sec vrc))" test "$(sec vrc)" = 0
sed -n 's/^diamond\/readings\/[0-9]*\/[0-9]* //p' sub.txt | readings >got.txt
sort -u got.txt >got-u.txt
check "every reading the software path releases arrived with its content, nothing else ($(wc -l <got-u.txt) distinct of $want)" \
	cmp -s got-u.txt want.txt
check "each ID once after dedupe, none with two contents ($(wc -l <got.txt) messages)" \
	test -z "$(cut -d' ' -f1-3 got-u.txt | uniq -d)"
check "device 21's flipped epoch 1 reported rejected on the events topic (bad tag), as the software path rejects it" \
	sh -c "grep -q '^diamond/events/[0-9]*/21 .*\"epoch\":1,.*\"rejected\"' sub.txt &&
	       grep -q 'device 21 epoch 1 rejected' soft.err"
if [ "$vmrc" != 0 ]; then
	tail -20 console.txt | sed 's/^/# console: /'
	tail -5 vmerr.txt | sed 's/^/# run-vm: /'
fi
tap_end
