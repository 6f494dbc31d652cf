#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-fleet (issue 31 items 1 and 2): the fleet on a real mosquitto
# (Debian's, started here on 127.0.0.1, a free port, its own config and
# persistence directory). Ten devices (suite 2, b = 32, g = 16, 128
# readings each: 1,280) send through three lossy links at 5% independent
# loss (lossy-link --filter, seeds 1, 2 and 3: fixed, so the frames each
# link delivers are the same in every run), each into its own
# `diamondctl forward --udp`; one `diamondctl open --mqtt` verifies.
#
# The documented outcome: every group that the union of the three links
# delivers whole (records and tag) is delivered, and nothing else: with
# these seeds that is at least 99% of the 1,280 readings, where the first
# link alone (open --input, no broker) gives what its own complete groups
# hold. The replay sends frame k to every link that has it before frame
# k + 1 (4 ms apart), so the forwarders run side by side: a unit past a
# gap waits 32 frames of its device (about 1.3 s here) for a late copy.
# Every reading delivered exactly once by ID, with the content sealed.
#
# Then hostile input on the frames topics: junk messages, an envelope
# whose frame lies about its length, a frame on another shard's topic,
# one device's frames duplicated and reordered (lossy-link --dup 0.3
# --reorder 0.3) from two forwarders at once, while the verifier is killed
# with SIGKILL and restarted on its persistent session: the junk is
# counted and dropped, memory stays bounded, and every reading of that
# device is delivered with its content (at least once; dedupe by ID).
#
# Also: the broker with passwords and an ACL (forwarders publish frames
# only), a LoRa gateway's Semtech packet forwarder into forward
# --semtech, and a serial line (a FIFO) that goes away and comes back.
#
# Environment: D (diamondctl), LOSSY (lossy-link).
set -u
D=${D:?}
LOSSY=${LOSSY:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Debian's python3 (tools/install-deps.sh), not a version manager's shim,
# which costs more CPU per start than the helper's work.
PY=$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
FP="$PY $HERE/fleet.py"
W=$(mktemp -d /tmp/diamond-fleet.XXXXXX)
PIDS=
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$W"' EXIT
. "$HERE/../lib/tap.sh"
. "$HERE/fleet-lib.sh"

echo "TAP version 13"
cd "$W" || exit 1
fleet_needs "the fleet on mosquitto"

B=32 G=16 NDEV=10
PORT=$(free_port SOCK_STREAM)
# Passwords and ACLs as Documentation/userspace.rst section 12 gives them.
mosquitto_start "$PORT"
up=$?
ok $up "mosquitto $(dpkg-query -W -f '${Version}' mosquitto 2>/dev/null) on 127.0.0.1:$PORT, its own config, passwords, ACL and persistence directory"
check "the broker refuses a client without a password, and one with a wrong password" \
	sh -c "! mosquitto_pub -h 127.0.0.1 -p $PORT -t diamond/frames/0/x -m x &&
	       ! mosquitto_pub -h 127.0.0.1 -p $PORT -u fwd -P wrong -t diamond/frames/0/x -m x"
# Every program of the fleet with its own user; the password from the
# environment, never on a command line.
FWD_PW=pw-fwd VER_PW=pw-verifier
PUBF="-h 127.0.0.1 -p $PORT -u fwd -P $FWD_PW"

# ---- ten devices, three lossy links ------------------------------------------
"$D" keygen -o root >/dev/null 2>&1
for dev in $(seq 1 $NDEV) 11 12 13; do
	"$D" provision --root root --device $dev --suite 2 --agg xor --b $B \
		--group-size $G --blob d$dev.blob --state-dir st >/dev/null 2>&1
	seq -f "d$dev r%g" 0 127 | "$D" seal --blob d$dev.blob >f$dev.bin 2>/dev/null
done
cp -r st st.orig
$FP interleave sent.bin $(seq -f 'f%g.bin' 1 $NDEV)
nsent=$((NDEV * 128))
for s in 1 2 3; do
	"$LOSSY" --filter --loss 0.05 --corrupt 0 --reorder 0 --dup 0 --seed $s \
		<sent.bin >link$s.bin 2>link$s.txt
done
echo "# $(cat link1.txt link2.txt link3.txt | sed 's/^lossy-link: //; s/ (seed \([0-9]*\).*/ (seed \1)/' | tr '\n' ';')"
read -r one_ideal _ <<<"$($FP ideal $B $G link1.bin)"
read -r union _ lost_groups <<<"$($FP ideal $B $G link1.bin link2.bin link3.bin)"
echo "# union of the three links: $union of $nsent readings in whole groups; lost groups (device:epoch:group): ${lost_groups:-none}"
check "the three links together deliver at least 99% of the readings in whole groups (fixed seeds)" \
	test $((union * 100)) -ge $((nsent * 99))

# One gateway today: the first link alone, opened from a file.
"$D" open --software --state-dir st --input link1.bin >one.json 2>one.err
one=$(grep -c '"index"' one.json)
echo "# one gateway (link 1 alone, open --input): $one of $nsent readings ($((one * 100 / nsent))%)"
check "one gateway: exactly the readings of its whole groups ($one_ideal), under 99%" \
	test "$one" = "$one_ideal" -a $((one * 100)) -lt $((nsent * 99))
rm -rf st && cp -r st.orig st

# ---- the fleet ---------------------------------------------------------------
mosquitto_sub -h 127.0.0.1 -p "$PORT" -u reader -P pw-reader -q 1 -v -i fleet-test-sub \
	-t 'diamond/readings/#' -t 'diamond/events/#' >sub.txt 2>sub.err &
SP=$!
PIDS="$PIDS $SP"
start_verifier() {
	DIAMOND_MQTT_PASSWORD=$VER_PW "$D" open --software --state-dir st \
		--mqtt 127.0.0.1:$PORT --shards 2 --client-id verifier-1 \
		--user verifier 2>>verifier.err &
	VP=$!
	PIDS="$PIDS $VP"
}
start_verifier
FWP=
for s in 1 2 3; do
	eval "UPORT$s=$(free_port SOCK_DGRAM)"
	eval "up=\$UPORT$s"
	DIAMOND_MQTT_PASSWORD=$FWD_PW "$D" forward --user fwd --broker 127.0.0.1:$PORT --gateway-id gw$s --shards 2 \
		--udp "$up" 2>fwd$s.err &
	FWP="$FWP $!"
done
PIDS="$PIDS $FWP"
sleep 1
$FP replay sent.bin 0.004 "$UPORT1=link1.bin" "$UPORT2=link2.bin" "$UPORT3=link3.bin"
ok $? "replay: $(wc -c <sent.bin) bytes of frames, each to the forwarders whose link delivers it"

# Wait for the readings to settle: the union's count, or 5 s without news.
count() { grep -c '^diamond/readings/' sub.txt; }
# wait_readings SHARD DEVICE: until the subscriber holds 128 readings of
# DEVICE (or 20 s have passed; the checks after it say what arrived).
wait_readings() {
	for _ in $(seq 100); do
		[ "$(grep -c "^diamond/readings/$1/$2 " sub.txt)" -ge 128 ] && break
		sleep 0.2
	done
}
last=-1 same=0
for _ in $(seq 150); do
	c=$(count)
	[ "$c" = "$union" ] && break
	if [ "$c" = "$last" ]; then same=$((same + 1)); [ $same -ge 25 ] && break; else same=0; fi
	last=$c
	sleep 0.2
done
read -r _ delivered _ distinct _ dups _ wrong <<<"$($FP readings sub.txt $B)"
echo "# three gateways at 5% loss each, g = $G: $distinct of $nsent readings delivered ($((distinct * 1000 / nsent / 10)).$((distinct * 1000 / nsent % 10))%), one gateway $one"
check "three gateways: at least 99% of the $nsent readings delivered" \
	test $((distinct * 100)) -ge $((nsent * 99))
check "three gateways: every reading of every whole group in the union ($union), no other" \
	test "$distinct" = "$union"
check "every reading delivered exactly once by ID (no duplicates: $dups)" test "$dups" = 0
check "every reading with the content sealed, on its device's topic ($wrong wrong)" test "$wrong" = 0
nlost=$(echo $lost_groups | wc -w)
nrej=$(grep -c '"reason":"incomplete"' sub.txt)
check "every lost group named on the events topic as incomplete ($nlost lost, $nrej named)" \
	test "$nrej" -ge "$nlost"

# ---- a LoRa gateway's Semtech packet forwarder -------------------------------
# Device 12 (shard 0) heard by a stock gateway: its frames in PUSH_DATA
# datagrams, 4 rxpk each, to forward --semtech.
SPORT=$(free_port SOCK_DGRAM)
DIAMOND_MQTT_PASSWORD=$FWD_PW "$D" forward --user fwd --broker 127.0.0.1:$PORT --gateway-id lora1 --shards 2 \
	--semtech "$SPORT" 2>fwd-lora.err &
LP=$!
PIDS="$PIDS $LP"
mosquitto_sub -h 127.0.0.1 -p "$PORT" -u verifier -P $VER_PW -i lora-peek -C 1 -W 30 -F '%t %p' \
	-t diamond/frames/0/lora1 >lora-msg.txt 2>/dev/null &
LS=$!
sleep 0.5
sem=$($FP semtech "$SPORT" f12.bin)
echo "# semtech: $sem"
check "semtech: every PUSH_DATA answered by PUSH_ACK with its token, PULL_DATA by PULL_ACK" \
	sh -c "echo '$sem' | grep -q 'push_acks 34 of 34 pull_ack 1'"
check "semtech: broken JSON acknowledged all the same (never resent), a version 1 datagram not answered" \
	sh -c "echo '$sem' | grep -q 'broken_json_acked 1 version1_silent 1'"
wait_readings 0 12
read -r _ _ _ s_distinct _ _ _ s_wrong <<<"$($FP readings sub.txt $B 12)"
check "semtech: all 128 readings of device 12 delivered, with their content ($s_distinct, $s_wrong wrong)" \
	test "$s_distinct" = 128 -a "$s_wrong" = 0
wait $LS
check "semtech: the envelope carries the gateway EUI and the rxpk's rssi, lsnr and tmst" \
	grep -aq '"src":"semtech","eui":"aa555a0000000012","tmst":1000,.*"rssi":-57,"lsnr":9.5' lora-msg.txt
kill $LP
wait $LP

# ---- a serial line ----------------------------------------------------------
# Device 13 (shard 1) on a FIFO standing in for a serial port: the first
# 60 frames, the writer goes away (forward reconnects), then the rest.
mkfifo serial.fifo
DIAMOND_MQTT_PASSWORD=$FWD_PW "$D" forward --user fwd --broker 127.0.0.1:$PORT --gateway-id uart1 --shards 2 \
	--serial serial.fifo 2>fwd-serial.err &
UP=$!
PIDS="$PIDS $UP"
$PY -c "import sys; sys.path.insert(0, '$HERE'); import fleet
f = fleet.frames('f13.bin'); open('f13a.bin', 'wb').write(b''.join(f[:60]))
open('f13b.bin', 'wb').write(b''.join(f[60:]))"
cat f13a.bin >serial.fifo
sleep 0.5
cat f13b.bin >serial.fifo
wait_readings 1 13
read -r _ _ _ u_distinct _ _ _ u_wrong <<<"$($FP readings sub.txt $B 13)"
check "serial: all 128 readings of device 13 delivered across a reconnect ($u_distinct, $u_wrong wrong)" \
	test "$u_distinct" = 128 -a "$u_wrong" = 0
kill $UP
wait $UP

# ---- hostile input on the frames topics --------------------------------------
hwm() { awk '/VmHWM/ { print $2 }' /proc/$VP/status 2>/dev/null; }
rss_before=$(hwm)
head -c 300000 /dev/urandom | base64 -w 100 >junk.txt	# 4,000 junk messages
mosquitto_pub $PUBF -q 1 -t diamond/frames/0/evil -l <junk.txt
# A frame that claims 4,096 payload bytes it does not have, in an envelope.
{ printf 'DQ\001\000\004evil\000\000'; head -c 18 f2.bin; printf '\000\020'; head -c 30 /dev/zero; } >liar.bin
mosquitto_pub $PUBF -q 1 -t diamond/frames/0/evil -f liar.bin
# A genuine frame of device 2 (shard 0) on shard 1's topic.
{ printf 'DQ\001\000\004evil\000\000'; $FP frame f2.bin 0; } >misfiled.bin
mosquitto_pub $PUBF -q 1 -t diamond/frames/1/evil -f misfiled.bin
# A forwarder's credentials cannot forge a reading (the ACL drops it).
mosquitto_pub $PUBF -q 1 -t diamond/readings/0/2 \
	-m '{"device":2,"epoch":0,"index":0,"data":"forged"}'
# Then a stale copy of device 2's first frame: its event comes once the
# verifier has read everything before it (one session, in order).
cp misfiled.bin stale.bin
mosquitto_pub $PUBF -q 1 -t diamond/frames/0/evil -f stale.bin
for _ in $(seq 150); do
	grep -q '^diamond/events/0/2 .*"event":"rejected"' sub.txt && break
	sleep 0.2
done
rss_after=$(hwm)
echo "# verifier max RSS: ${rss_before:-?} KiB before the hostile input, ${rss_after:-?} KiB after it"
check "junk on the frames topics costs bounded memory (max RSS $rss_after KiB, under 64 MiB)" \
	test -n "$rss_after" -a "${rss_after:-0}" -lt 65536
kill $VP 2>/dev/null
wait $VP
ok $? "verifier: SIGTERM ends it with status 0"
summ=$(grep 'open --mqtt:' verifier.err | tail -1)
echo "# ${summ#diamondctl: }"
check "dropped and counted: the 4,000 junk messages (envelope), the lying frame (frame), the misfiled one" \
	sh -c "echo '$summ' | grep -q '4002 dropped (0 topic, 4000 envelope, 1 frame, 1 misfiled)'"
check "a reading published with a forwarder's credentials never reaches the readings topic" \
	sh -c "! grep -q forged sub.txt"
check "the outbox is empty once the broker has acknowledged everything" \
	test ! -s st/mqtt/outbox

# ---- duplicates, reordering, a SIGKILL ---------------------------------------
# Device 11's frames duplicated and reordered through forwarder 1 and
# clean through forwarder 2, 10 ms apart; the verifier is killed with
# SIGKILL once it has published 16 of its readings, and started again
# 0.7 s later on its persistent
# session: what came meanwhile waits there, what it had not acknowledged
# comes again, what its outbox owed is published again.
"$LOSSY" --filter --loss 0 --corrupt 0 --reorder 0.3 --dup 0.3 --depth 4 --seed 7 \
	<f11.bin >dup11.bin 2>dup11.txt
echo "# device 11: $(sed 's/^lossy-link: //' dup11.txt)"
start_verifier
sleep 0.5
$FP send "$UPORT1" dup11.bin 0.01 &
S1=$!
$FP send "$UPORT2" f11.bin 0.01 &
S2=$!
for _ in $(seq 200); do	# some of it verified: the kill lands mid-run
	[ "$(grep -c '^diamond/readings/1/11 ' sub.txt)" -ge 16 ] && break
	sleep 0.1
done
early=$(grep -c '^diamond/readings/1/11 ' sub.txt)
kill -KILL $VP
wait $VP 2>/dev/null
echo "# verifier killed with SIGKILL after $early of device 11's readings; $(stat -c %s st/mqtt/outbox) bytes owed in its outbox"
sleep 0.7
start_verifier
wait $S1 $S2
wait_readings 1 11
read -r _ h_total _ h_distinct _ h_dups _ h_wrong <<<"$($FP readings sub.txt $B 11)"
echo "# device 11: $h_distinct distinct readings, $h_total deliveries ($h_dups again after the restart)"
check "duplicated, reordered frames from two gateways and a SIGKILL: all 128 readings of device 11 delivered" \
	test "$h_distinct" = 128
check "... each with the content sealed" test "$h_wrong" = 0

for p in $FWP; do kill "$p" 2>/dev/null; done
for p in $FWP; do wait "$p" 2>/dev/null; done
for s in 1 2 3; do
	pub=$(sed -n 's/.*: \([0-9]*\) frames published, \([0-9]*\) dropped.*/\1 \2/p' fwd$s.err)
	want=$(($($FP count link$s.bin) + (s == 1 ? $($FP count dup11.bin) : 0) + (s == 2 ? 136 : 0)))
	check "forwarder $s published every frame it heard ($pub dropped; $want sent to it)" \
		test "$pub" = "$want 0"
done
kill $VP 2>/dev/null
wait $VP
ok $? "restarted verifier: SIGTERM ends it with status 0"
echo "# $(grep 'open --mqtt:' verifier.err | tail -1 | sed 's/^diamondctl: //')"
# An outbox left owing a reading and holding a torn record, as a crash
# after its fsync and before the broker's PUBACK leaves it: the next run
# publishes the reading first, ignores the torn bytes, then empties it.
$PY -c "import struct
t, p = b'diamond/readings/1/99', b'{\"device\":99,\"epoch\":0,\"index\":0,\"data\":\"owed\"}'
open('st/mqtt/outbox', 'wb').write(struct.pack('<II', len(t), len(p)) + t + p + b'\x07\x00')"
start_verifier
for _ in $(seq 100); do
	grep -q '^diamond/readings/1/99 .*"owed"' sub.txt && break
	sleep 0.2
done
kill $VP 2>/dev/null
wait $VP
check "an outbox owing a reading at start: published by the next run, torn bytes ignored, then emptied" \
	sh -c "grep -q '^diamond/readings/1/99 .*\"owed\"' sub.txt && test ! -s st/mqtt/outbox"
check "mosquitto saw no protocol errors" sh -c "! grep -qi 'protocol error\|malformed' mosquitto.log"
echo "# elapsed ${SECONDS} s"
tap_end
