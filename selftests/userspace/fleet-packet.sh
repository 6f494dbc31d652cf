#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-fleet, packet mode (issue 31 item 1's "packet-radio frames"): the
# fleet on a real mosquitto (Debian's, started here) carrying packet-radio
# packets (spec section 14). Eight packet-mode devices (A = 1, suites 1
# and 2, b = 64, 128 readings each: 1,024) send through three lossy links
# at 5% independent loss (lossy-link --packets, seeds 1, 2 and 3: fixed,
# so the packets each link delivers are the same in every run), each into
# its own `diamondctl forward --packet --udp`; one `diamondctl open
# --mqtt --software` verifies them with its packet receiver.
#
# The documented outcome: exactly the records the grid releases from the
# union of the three links (a row's or a column's tag with its four
# records: a packet is lost only when all three links lose it, so about
# 99.99%), at least 99% of the 1,024, each once (no ID twice on the
# readings topic), with the content sealed, on the topic of its device's
# shard (its address's low byte mod 2). The replay sends packet k to
# every link that has it before packet k + 1, so the forwarders run side
# by side.
#
# Hostile input on the packets topics (junk, an empty and an overlong
# packet, a misfiled one, a copy of a released one): counted and dropped,
# nothing released again.
#
# Then 128 more readings a device through the same links, the verifier
# killed with SIGKILL 1 s into the replay and started again on its
# persistent session: after dedupe by ID exactly the grid's records,
# each with its content; copies allowed only by the at-least-once rule.
#
# Then a fleet verifier (open --mqtt --fleet) on four more devices, each
# in the directory of its address's shard; a LoRa gateway's Semtech packet
# forwarder into forward --packet --semtech; a packet file with idle zeros
# into forward --packet --input.
#
# Environment: D (diamondctl), LOSSY (lossy-link).
set -u
D=${D:?}
LOSSY=${LOSSY:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PY=$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
FP="$PY $HERE/fleet_packets.py"
W=$(mktemp -d /tmp/diamond-fleet-packet.XXXXXX)
PIDS=
# FLEET_KEEP=1 keeps the scratch directory (its path on stderr).
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; wait 2>/dev/null
      if [ -n "${FLEET_KEEP:-}" ]; then echo "kept $W" >&2; else rm -rf "$W"; fi' EXIT
. "$HERE/../lib/tap.sh"
. "$HERE/fleet-lib.sh"

echo "TAP version 13"
cd "$W" || exit 1
fleet_needs "the fleet on mosquitto, packet mode"

B=64 NDEV=8 NREC=128 SHARDS=2
PORT=$(free_port SOCK_STREAM)
mosquitto_start "$PORT" 'topic readwrite diamond/lease/#
topic readwrite diamond/alive/#'
ok $? "mosquitto on 127.0.0.1:$PORT, passwords and the ACL (forwarders publish frames and packets only)"

# ---- eight packet-mode devices, three lossy links -----------------------------
# Addresses 0x21, 0x26, ...: prefix-free at A = 1, their low bytes' shards
# not their IDs' (device 1 at 0x21 is in shard 1, device 2 at 0x26 in 0).
"$D" keygen -o root >/dev/null 2>&1
MAP=
for dev in $(seq 1 $NDEV); do
	addr=$(printf '%02x' $((0x1c + 5 * dev)))
	MAP="$MAP${MAP:+,}$dev:$addr"
	"$D" provision --root root --device $dev --suite $((1 + dev % 2)) --agg xor \
		--b $B --blob d$dev.blob --state-dir st --generation 0 \
		--packet --addr-width 1 --addr "$addr" >/dev/null 2>&1
	seq -f "d$dev r%g" 0 $((2 * NREC - 1)) >lines$dev
	head -n $NREC lines$dev | "$D" seal --packet --blob d$dev.blob \
		--addr-width 1 --addr "$addr" >p$dev.bin 2>/dev/null
	tail -n $NREC lines$dev | "$D" seal --packet --blob d$dev.blob \
		--addr-width 1 --addr "$addr" >q$dev.bin 2>/dev/null
done
$FP interleave sent.bin $(seq -f 'p%g.bin' 1 $NDEV)
$FP interleave sent2.bin $(seq -f 'q%g.bin' 1 $NDEV)
nsent=$((NDEV * NREC))
for s in 1 2 3; do
	"$LOSSY" --packets --loss 0.05 --seed $s <sent.bin >link$s.bin 2>link$s.txt
	"$LOSSY" --packets --loss 0.05 --seed $((s + 10)) <sent2.bin >link2$s.bin 2>/dev/null
done
echo "# $(cat link1.txt link2.txt link3.txt | sed 's/^lossy-link: //' | tr '\n' ';')"
read -r _ one _ _ <<<"$($FP model sent.bin 0 link1.bin)"
read -r _ union _ _ <<<"$($FP model sent.bin 0 link1.bin link2.bin link3.bin)"
read -r _ union2 _ _ <<<"$($FP model sent2.bin $NREC link21.bin link22.bin link23.bin)"
echo "# the grid releases $one of $nsent readings from link 1 alone, $union from the union of the three ($union2 of the second run's)"
check "the three links together: at least 99% of the readings releasable (fixed seeds)" \
	test $((union * 100)) -ge $((nsent * 99)) -a $((union2 * 100)) -ge $((nsent * 99))

# ---- the fleet ----------------------------------------------------------------
mosquitto_sub -h 127.0.0.1 -p "$PORT" -u reader -P pw-reader -q 1 -v -i pkt-sub \
	-t 'diamond/readings/#' -t 'diamond/events/#' >sub.txt 2>sub.err &
PIDS="$PIDS $!"
start_verifier() {
	DIAMOND_MQTT_PASSWORD=pw-verifier "$D" open --software --state-dir st \
		--mqtt 127.0.0.1:$PORT --shards $SHARDS --client-id pkt-verifier \
		--user verifier 2>>verifier.err &
	VP=$!
	PIDS="$PIDS $VP"
}
start_verifier
FWP=
for s in 1 2 3; do
	eval "UPORT$s=$(free_port SOCK_DGRAM)"
	eval "up=\$UPORT$s"
	DIAMOND_MQTT_PASSWORD=pw-fwd "$D" forward --packet --user fwd \
		--broker 127.0.0.1:$PORT --gateway-id gw$s --shards $SHARDS \
		--udp "$up" 2>fwd$s.err &
	FWP="$FWP $!"
done
PIDS="$PIDS $FWP"
sleep 1
$FP replay sent.bin 0.002 "$UPORT1=link1.bin" "$UPORT2=link2.bin" "$UPORT3=link3.bin"
ok $? "replay: $(wc -c <sent.bin) bytes of packets, each to the forwarders whose link delivers it"

# distinct: the readings topic's messages, copies counted once (a copy is
# the same line: same topic, same JSON).
distinct() { grep '^diamond/readings/' sub.txt | sort -u | wc -l; }
# settle WANT: until distinct gives WANT, or 5 s pass without news.
settle() {
	local last=-1 same=0 c
	for _ in $(seq 150); do
		c=$(distinct)
		[ "$c" -ge "$1" ] && break
		if [ "$c" = "$last" ]; then same=$((same + 1)); [ $same -ge 25 ] && break; else same=0; fi
		last=$c
		sleep 0.2
	done
}
settle "$union"
read -r _ distinct _ dups _ wrong _ extra _ missing _ topic _ lostrel <<<"$($FP check sub.txt $B 0 "$MAP" sent.bin $SHARDS link1.bin link2.bin link3.bin)"
echo "# three gateways at 5% loss each: $distinct of $nsent readings delivered ($((distinct * 1000 / nsent / 10)).$((distinct * 1000 / nsent % 10))%), link 1 alone would give $one"
check "three gateways: at least 99% of the $nsent readings delivered" \
	test $((distinct * 100)) -ge $((nsent * 99))
check "exactly the grid's records of the union ($union): $missing missing, $extra not releasable" \
	test "$distinct" = "$union" -a "$missing" = 0 -a "$extra" = 0
check "every reading once on the readings topic (no duplicates: $dups)" test "$dups" = 0
check "every reading with the content sealed ($wrong wrong)" test "$wrong" = 0
check "every reading on its device's shard's topic, the shard of its address's low byte ($topic not)" \
	test "$topic" = 0
check "no record both released and named lost ($lostrel)" test "$lostrel" = 0

# Hostile input on the packets topics, with a forwarder's credentials:
# 1,000 junk messages (no envelope), an empty packet and one of 300
# bytes in envelopes, device 1's first packet on shard 0's topic (its
# address 0x21 is shard 1's), then the same packet on its own shard's
# topic: a copy of a released record, a duplicate.
PUBF="-h 127.0.0.1 -p $PORT -u fwd -P pw-fwd -q 1"
head -c 75000 /dev/urandom | base64 -w 100 >junk.txt
mosquitto_pub $PUBF -t diamond/packets/1/evil -l <junk.txt
printf 'DQ\001\000\004evil\000\000' >empty.bin
mosquitto_pub $PUBF -t diamond/packets/1/evil -f empty.bin
{ printf 'DQ\001\000\004evil\000\000'; head -c 300 /dev/zero; } >long.bin
mosquitto_pub $PUBF -t diamond/packets/1/evil -f long.bin
{ printf 'DQ\001\000\004evil\000\000'; $PY -c "import sys; sys.path.insert(0, '$HERE'); import fleet_packets as f
sys.stdout.buffer.write(f.packets('p1.bin')[0])"; } >first.bin
mosquitto_pub $PUBF -t diamond/packets/0/evil -f first.bin
mosquitto_pub $PUBF -t diamond/packets/1/evil -f first.bin
sleep 2
kill $VP
wait $VP
ok $? "verifier: SIGTERM ends it with status 0"
summ=$(grep 'open --mqtt:.*messages' verifier.err | tail -1)
echo "# ${summ#diamondctl: }"
check "junk, an empty and an overlong packet, a misfiled one: dropped and counted (1000 envelope, 2 frame, 1 misfiled)" \
	sh -c "echo '$summ' | grep -q ' dropped (0 topic, 1000 envelope, 2 frame, 1 misfiled)'"
read -r _ _ _ dups _ <<<"$($FP check sub.txt $B 0 "$MAP" sent.bin $SHARDS link1.bin link2.bin link3.bin)"
check "... and a copy of a released record's packet released nothing again ($dups duplicates)" \
	test "$dups" = 0
summ=$(grep 'packet-mode devices:' verifier.err | tail -1)
echo "# ${summ#diamondctl: }"
check "the outbox is empty once the broker has acknowledged everything" \
	test ! -s st/mqtt/outbox

# ---- a SIGKILL mid-run ---------------------------------------------------------
before=$(distinct)
start_verifier
sleep 0.5
$FP replay sent2.bin 0.002 "$UPORT1=link21.bin" "$UPORT2=link22.bin" "$UPORT3=link23.bin" &
RP=$!
sleep 1	# about a third of the replay: the kill lands mid-run
c=$(($(distinct) - before))
kill -KILL $VP
wait $VP 2>/dev/null
echo "# verifier killed with SIGKILL after $c of the second run's readings were out; $(stat -c %s st/mqtt/outbox) bytes owed in its outbox"
sleep 0.5
start_verifier
wait $RP
settle $((before + union2))
read -r _ distinct _ dups _ wrong _ extra _ missing _ topic _ lostrel <<<"$($FP check sub.txt $B $NREC "$MAP" sent2.bin $SHARDS link21.bin link22.bin link23.bin)"
echo "# after the SIGKILL: $distinct distinct readings, $dups copies again (at least once)"
check "SIGKILL and restart: after dedupe exactly the grid's records ($union2): $missing missing, $extra not releasable" \
	test "$distinct" = "$union2" -a "$missing" = 0 -a "$extra" = 0
check "... each with the content sealed ($wrong wrong) on its shard's topic ($topic not)" \
	test "$wrong" = 0 -a "$topic" = 0
check "... no record both released and named lost ($lostrel)" test "$lostrel" = 0
kill $VP
wait $VP
ok $? "restarted verifier: SIGTERM ends it with status 0"
summ=$(grep 'packet-mode devices:' verifier.err | tail -1)
echo "# ${summ#diamondctl: }"
fed=$(echo "$summ" | sed -n 's/.*devices: \([0-9]*\) packets fed.*/\1/p')
check "the restarted verifier took the packets the killed one had not acknowledged ($fed)" \
	test "${fed:-0}" -gt 0
# ---- a fleet verifier --------------------------------------------------------
# Four more devices (64 readings each) in a two-shard fleet store, each in
# the directory of its address's shard (0x60 and 0x62 in fleet/0, 0x61
# and 0x63 in fleet/1), through the same three forwarders and new lossy
# links (seeds 21, 22, 23); one `open --mqtt --fleet` takes both shards.
mkdir -p fleet
FMAP=
for dev in 21 22 23 24; do
	addr=$(printf '%02x' $((0x60 + dev - 21)))
	FMAP="$FMAP${FMAP:+,}$dev:$addr"
	"$D" provision --root root --device $dev --suite 2 --agg xor --b $B \
		--blob d$dev.blob --state-dir fleet/$((0x$addr % SHARDS)) --generation 0 \
		--packet --addr-width 1 --addr "$addr" >/dev/null 2>&1
	seq -f "d$dev r%g" 0 63 | "$D" seal --packet --blob d$dev.blob \
		--addr-width 1 --addr "$addr" >f$dev.bin 2>/dev/null
done
$FP interleave sent3.bin f21.bin f22.bin f23.bin f24.bin
for s in 1 2 3; do
	"$LOSSY" --packets --loss 0.05 --seed $((s + 20)) <sent3.bin >link3$s.bin 2>/dev/null
done
read -r _ union3 _ _ <<<"$($FP model sent3.bin 0 link31.bin link32.bin link33.bin)"
DIAMOND_MQTT_PASSWORD=pw-verifier "$D" open --software --fleet fleet --client-id fa \
	--mqtt 127.0.0.1:$PORT --shards $SHARDS --user verifier 2>fa.err &
FA=$!
PIDS="$PIDS $FA"
for _ in $(seq 100); do
	[ "$(grep -c 'subscribed to the frames and packets of its 1 shards' fa.err)" = 2 ] && break
	sleep 0.1
done
before=$(distinct)
$FP replay sent3.bin 0.002 "$UPORT1=link31.bin" "$UPORT2=link32.bin" "$UPORT3=link33.bin"
settle $((before + union3))
read -r _ distinct _ dups _ wrong _ extra _ missing _ topic _ lostrel <<<"$($FP check sub.txt $B 0 "$FMAP" sent3.bin $SHARDS link31.bin link32.bin link33.bin)"
check "a fleet verifier holding both shards: exactly the grid's records ($union3 of 256): $missing missing, $extra not releasable, $dups twice" \
	test "$distinct" = "$union3" -a "$missing" = 0 -a "$extra" = 0 -a "$dups" = 0
check "... each with the content sealed ($wrong wrong) on its address's shard's topic ($topic not)" \
	test "$wrong" = 0 -a "$topic" = 0
kill $FA
wait $FA
ok $? "the fleet verifier: SIGTERM ends it with status 0"
echo "# $(grep 'packet-mode devices:' fa.err | sed 's/^diamondctl: //' | tr '\n' ';')"

# A LoRa gateway's Semtech packet forwarder into forward --packet
# --semtech: device 5's packets again (all released: duplicates now), 4
# rxpk a PUSH_DATA; each rxpk's data is one packet, on its shard's topic.
SPORT=$(free_port SOCK_DGRAM)
DIAMOND_MQTT_PASSWORD=pw-fwd "$D" forward --packet --user fwd --broker 127.0.0.1:$PORT \
	--gateway-id lora1 --shards $SHARDS --semtech "$SPORT" 2>fwd-lora.err &
LP=$!
PIDS="$PIDS $LP"
mosquitto_sub -h 127.0.0.1 -p "$PORT" -u verifier -P pw-verifier -i lora-peek -C $NREC -W 30 -F '%t %p' \
	-t 'diamond/packets/+/lora1' >lora-msg.txt 2>/dev/null &
LS=$!
sleep 0.5
sem=$($FP semtech "$SPORT" p5.bin)
wait $LS
kill $LP
wait $LP
got=$(grep -ac "^diamond/packets/$((0x35 % SHARDS))/lora1 " lora-msg.txt)
check "semtech: every PUSH_DATA acknowledged ($sem), each rxpk one packet on its shard's topic ($got of $NREC)" \
	test "$sem" = "push_acks $((NREC / 4)) of $((NREC / 4))" -a "$got" = $NREC
check "semtech: the envelope carries the gateway EUI and the rxpk's rssi, lsnr and tmst" \
	grep -aq '"src":"semtech","eui":"aa555a0000000034","tmst":2000,.*"rssi":-61,"lsnr":7.5' lora-msg.txt

for p in $FWP; do kill "$p" 2>/dev/null; done
for p in $FWP; do wait "$p" 2>/dev/null; done
for s in 1 2 3; do
	pub=$(sed -n 's/.*: \([0-9]*\) packets published, \([0-9]*\) dropped.*/\1 \2/p' fwd$s.err)
	want=$($PY -c "import sys; sys.path.insert(0, '$HERE'); import fleet_packets as f
print(sum(len(f.packets(p)) for p in sys.argv[1:]))" link$s.bin link2$s.bin link3$s.bin)
	check "forwarder $s published every packet it heard ($pub: published, dropped; $want sent to it)" \
		test "$pub" = "$want 0"
done
# A file (a serial line's framing): each packet after its length byte,
# zeros between them (the firmware's idle link), a packet cut short at
# the end; every whole packet published on its address's shard's topic.
$PY -c "import sys; sys.path.insert(0, '$HERE'); import fleet_packets as f
p = f.packets('p3.bin')
open('idle.bin', 'wb').write(b''.join(b'\\0\\0' + bytes([len(x)]) + x for x in p) + bytes([40]) + p[0][:10])"
mosquitto_sub -h 127.0.0.1 -p "$PORT" -u verifier -P pw-verifier -i pkt-peek -C $NREC -W 30 -F '%t' \
	-t 'diamond/packets/#' >peek.txt 2>/dev/null &
PK=$!
sleep 0.3
DIAMOND_MQTT_PASSWORD=pw-fwd "$D" forward --packet --user fwd --broker 127.0.0.1:$PORT \
	--gateway-id file1 --shards $SHARDS --input idle.bin 2>fwd-file.err
rc=$?
wait $PK
got=$(grep -c "^diamond/packets/$((0x2b % SHARDS))/file1\$" peek.txt)
check "forward --packet --input: a length byte before each packet, zeros idle, a packet cut short dropped: $NREC published, acknowledged ($got on shard $((0x2b % SHARDS)), exit $rc)" \
	test "$rc" = 0 -a "$got" = $NREC
check "mosquitto saw no protocol errors" sh -c "! grep -qi 'protocol error\|malformed' mosquitto.log"
echo "# elapsed ${SECONDS} s"
tap_end
