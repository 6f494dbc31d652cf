#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-fleet-nats (issue 31 item 4): the fleet on a clustered broker.
# Three nats-server nodes (Debian's, started here on 127.0.0.1: free
# ports, their own store directories, JetStream, cluster routes, an MQTT
# listener each, MQTT state in streams and consumers of 3 replicas), two
# `diamondctl forward --udp` and one `diamondctl open --mqtt --software`,
# each given all three nodes (--broker / --mqtt A,B,C), and an
# application's subscriber (mosquitto_sub, QoS 1, a persistent session).
#
# Six devices (suite 2, b = 32, g = 16, 128 readings each: 768); their
# frames, interleaved, dealt round-robin to the two forwarders, so each
# frame is heard by one gateway only and a frame lost anywhere loses its
# group. Node 2 serves the verifier and forwarder 1; node 3 forwarder 2;
# node 1 the subscriber. The first part of the frames is replayed, then
# the rest starts and node 2 is killed with SIGKILL after a random delay
# (0 to 0.5 s, seeded; the seed is printed, DMD_SEED repeats it): frames,
# their PUBACKs, readings and theirs are in flight. The verifier and
# forwarder 1 fail over to node 3 with their sessions, the cluster moves
# the leaders of node 2's streams and consumers to the others.
#
# The documented outcome (Documentation/userspace.rst section 12): every
# one of the 768 readings is delivered, with the content sealed, on its
# device's topic; a reading may come more than once (at least once: the
# cluster stored it but its PUBACK died with node 2, so the verifier's
# outbox publishes it again, or the subscriber's PUBACK died with the
# consumer's leader), always with the same content, and consumers dedupe
# on (device, epoch, index). Nothing else is delivered, every frame is
# acknowledged by the cluster, and the verifier's outbox ends empty.
#
# Environment: D (diamondctl).
# The nodes' ports (cport, CPORT1 ...) are assigned through eval.
# shellcheck disable=SC2153,SC2154
set -u
D=${D:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; else PY=$(command -v python3); fi
FP="$PY $HERE/fleet.py"
W=$(mktemp -d /tmp/diamond-fleet-nats.XXXXXX)
PIDS=
trap 'for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done; wait 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
# shellcheck source=SCRIPTDIR/../lib/tap.sh
. "$HERE/../lib/tap.sh"
# shellcheck source=SCRIPTDIR/fleet-lib.sh
. "$HERE/fleet-lib.sh"

echo "TAP version 13"
cd "$W" || exit 1
NATS=$(command -v nats-server || echo /usr/sbin/nats-server)
if [ ! -x "$NATS" ] || ! command -v mosquitto_sub >/dev/null ||
   ! command -v mosquitto_pub >/dev/null || ! "$D" forward --help >/dev/null 2>&1; then
	skip "the fleet on a three-node NATS cluster" "needs nats-server, mosquitto-clients and diamondctl with MQTT (libmosquitto-dev): make deps"
	tap_end
	exit
fi

# The broker lists: a malformed entry is a usage error (exit 2).
bad_list() {
	"$D" forward --broker "$1" --gateway-id g --udp 1 2>/dev/null; [ $? = 2 ] || return 1
	"$D" open --state-dir . --mqtt "$1" 2>/dev/null; [ $? = 2 ]
}
check "forward --broker and open --mqtt refuse a malformed broker list (exit 2)" \
	sh -c "$(declare -f bad_list); D='$D'; bad_list 'a:1,,b' && bad_list 'a:1,b:0' && bad_list '[::1]x' && bad_list 'a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q'"
seed=${DMD_SEED:-$(( ($(date +%s) ^ $$) % 1000000 ))}
echo "# seed $seed (set DMD_SEED to repeat the delay before the kill)"
RANDOM=$seed
B=32 G=16 NDEV=6
ACK_WAIT=5	# s: the cluster delivers an unacknowledged message again

# ---- the cluster -------------------------------------------------------------
# One config per node. stream_replicas and consumer_replicas 3: the MQTT
# sessions, messages and each subscription's consumer live on every node,
# so any two of the three serve them. Users with passwords and the roles
# of Documentation/userspace.rst section 12 as NATS permissions (an MQTT
# topic a/b/c is the subject a.b.c): forwarders publish frames only and
# subscribe to nothing; verifiers publish readings, events, leases and
# alive only and subscribe to frames (and a fleet's leases and alive);
# readers publish nothing and subscribe to readings and events. In NATS
# an empty list is no restriction, so "nothing" is {deny: [">"]}; a QoS 1
# subscription is delivered through $MQTT.sub.<id>, which nats-server 2.9
# checks against the user's subscribe permissions too; a/# is both a and
# a.>, so a reader needs both.
for i in 1 2 3; do
	eval "CPORT$i=$(free_port SOCK_STREAM) RPORT$i=$(free_port SOCK_STREAM) MPORT$i=$(free_port SOCK_STREAM)"
done
for i in 1 2 3; do
	eval "cport=\$CPORT$i rport=\$RPORT$i"
	eval "mport=\$MPORT$i"
	mkdir -p "n$i"
	cat >"n$i.conf" <<CONF
server_name: n$i
listen: 127.0.0.1:$cport
jetstream {
	store_dir: "$W/n$i"
	max_memory_store: 64MB
	max_file_store: 256MB
}
cluster {
	name: diamond-test
	listen: 127.0.0.1:$rport
	routes: [
		nats-route://127.0.0.1:$RPORT1
		nats-route://127.0.0.1:$RPORT2
		nats-route://127.0.0.1:$RPORT3
	]
}
authorization {
	users: [
		{ user: fwd, password: "pw-fwd", permissions: {
			publish: { allow: ["diamond.frames.>"] }
			subscribe: { deny: [">"] } } }
		{ user: verifier, password: "pw-verifier", permissions: {
			publish: { allow: ["diamond.readings.>", "diamond.events.>",
					   "diamond.lease.>", "diamond.alive.>"] }
			subscribe: { allow: ["diamond.frames.>", "diamond.lease.>",
					     "diamond.alive.>", "\$MQTT.sub.>"] } } }
		{ user: reader, password: "pw-reader", permissions: {
			publish: { deny: [">"] }
			subscribe: { allow: ["diamond.readings", "diamond.readings.>",
					     "diamond.events", "diamond.events.>",
					     "\$MQTT.sub.>"] } } }
	]
}
mqtt {
	listen: 127.0.0.1:$mport
	ack_wait: "${ACK_WAIT}s"
	stream_replicas: 3
	consumer_replicas: 3
}
CONF
	"$NATS" -c "n$i.conf" >"n$i.log" 2>&1 &
	eval "NP$i=$!"
	PIDS="$PIDS $!"
done
N1=127.0.0.1:$MPORT1 N2=127.0.0.1:$MPORT2 N3=127.0.0.1:$MPORT3
FWD=(-u fwd -P pw-fwd)
# Up once each node takes a QoS 1 message (stored in JetStream: the
# cluster has a meta leader and the MQTT streams exist).
up=1
for _ in $(seq 120); do
	mosquitto_pub -h 127.0.0.1 -p "$MPORT1" "${FWD[@]}" -q 1 -t diamond/frames/probe/x -m x 2>/dev/null &&
	mosquitto_pub -h 127.0.0.1 -p "$MPORT2" "${FWD[@]}" -q 1 -t diamond/frames/probe/x -m x 2>/dev/null &&
	mosquitto_pub -h 127.0.0.1 -p "$MPORT3" "${FWD[@]}" -q 1 -t diamond/frames/probe/x -m x 2>/dev/null && { up=0; break; }
	sleep 0.5
done
ok $up "three nats-server $("$NATS" --version | sed 's/.*v//') nodes, JetStream cluster, MQTT on $N1, $N2, $N3 ($SECONDS s)"
[ $up = 0 ] || { tap_end; exit; }
# NATS maps topic levels to subject tokens: '.' and ' ' are refused
# (nats-server 2.9's server/mqtt.go, mqttToNATSSubjectConversion), so a
# gateway ID with a dot cannot publish through it.
check "NATS 2.9 refuses a topic with '.' in a level (a gateway ID must have none)" \
	sh -c "! mosquitto_pub -h 127.0.0.1 -p $MPORT3 ${FWD[*]} -q 1 -t diamond/frames/0/gw.1 -m x"
check "the cluster refuses a client without a password, and a wrong one" \
	sh -c "! mosquitto_pub -h 127.0.0.1 -p $MPORT3 -q 1 -t diamond/frames/0/g -m x 2>/dev/null &&
	       ! mosquitto_pub -h 127.0.0.1 -p $MPORT3 -u fwd -P pw-reader -q 1 -t diamond/frames/0/g -m x 2>/dev/null"

# ---- devices and frames ------------------------------------------------------
"$D" keygen -o root >/dev/null 2>&1
for dev in $(seq 1 $NDEV); do
	"$D" provision --root root --device "$dev" --suite 2 --agg xor --b $B \
		--group-size $G --blob "d$dev.blob" --state-dir st >/dev/null 2>&1
	seq -f "d$dev r%g" 0 127 | "$D" seal --blob "d$dev.blob" >"f$dev.bin" 2>/dev/null
done
# shellcheck disable=SC2046 # one file name a line, no spaces
$FP interleave sent.bin $(seq -f 'f%g.bin' 1 $NDEV)
nframes=$($FP count sent.bin)
nsent=$((NDEV * 128))
cut=$((nframes * 2 / 5))
$FP deal sent.bin 0 $cut a1.bin a2.bin
$FP deal sent.bin "$cut" "$nframes" b1.bin b2.bin

# ---- the fleet ---------------------------------------------------------------
mosquitto_sub -h 127.0.0.1 -p "$MPORT1" -u reader -P pw-reader -q 1 -c -i fleet-nats-sub -v \
	-t 'diamond/readings/#' -t 'diamond/events/#' >sub.txt 2>sub.err &
PIDS="$PIDS $!"
# The subscriber's consumers exist once a probe on its topics comes back
# (what is published before reaches no session: nothing was subscribed).
for _ in $(seq 100); do
	mosquitto_pub -h 127.0.0.1 -p "$MPORT1" -u verifier -P pw-verifier -q 1 \
		-t diamond/events/probe -m probe 2>/dev/null
	sleep 0.2
	grep -q '^diamond/events/probe probe' sub.txt && break
done
check "the reader's subscriptions are granted (a probe on its topics came back)" \
	grep -q '^diamond/events/probe probe' sub.txt
# A forwarder (a radio gateway: hostile ground) forging a reading: the
# cluster refuses the publish; the subscriber never sees it.
mosquitto_pub -h 127.0.0.1 -p "$MPORT1" "${FWD[@]}" -q 1 -t diamond/readings/1/1 \
	-m '{"device":1,"epoch":0,"index":0,"data":"forged"}' 2>/dev/null
sleep 1
check "a forwarder publishing to a readings topic is refused (NATS: $(grep -o 'Publish Violation.*' n1.log | head -1))" \
	sh -c "grep -q 'Publish Violation - User \"fwd\", Subject \"diamond.readings.1.1\"' n1.log && ! grep -q forged sub.txt"
DIAMOND_MQTT_PASSWORD=pw-verifier "$D" open --software --state-dir st --mqtt "$N2,$N3,$N1" --shards 2 \
	--user verifier --client-id verifier-1 2>verifier.err &
VP=$!
PIDS="$PIDS $VP"
UPORT1=$(free_port SOCK_DGRAM) UPORT2=$(free_port SOCK_DGRAM)
DIAMOND_MQTT_PASSWORD=pw-fwd "$D" forward --user fwd --broker "$N2,$N3,$N1" --gateway-id gw1 --shards 2 --udp "$UPORT1" 2>fwd1.err &
F1=$!
DIAMOND_MQTT_PASSWORD=pw-fwd "$D" forward --user fwd --broker "$N3,$N1,$N2" --gateway-id gw2 --shards 2 --udp "$UPORT2" 2>fwd2.err &
F2=$!
PIDS="$PIDS $F1 $F2"
for _ in $(seq 300); do	# the verifier's subscriptions, before any frame
	grep -q 'subscribed to the frames' verifier.err && break
	sleep 0.1
done
check "the verifier holds its subscriptions at node 2 (SUBACK, QoS 1)" \
	grep -q "subscribed to the frames of its 2 shards at $N2" verifier.err
sleep 0.3	# the forwarders' CONNACKs
$FP replay sent.bin 0.004 "$UPORT1=a1.bin" "$UPORT2=a2.bin"
ok $? "replay: $cut of $nframes frames, dealt to the two forwarders"
$FP replay sent.bin 0.004 "$UPORT1=b1.bin" "$UPORT2=b2.bin" &
RP=$!
delay=$((RANDOM % 6))
sleep "0.$delay"
have=$(grep -c '^diamond/readings/' sub.txt)
{ kill -KILL "$NP2"; wait "$NP2"; } 2>/dev/null	# no "Killed" notice
killed_at=$SECONDS
echo "# node 2 killed with SIGKILL 0.${delay} s into the rest of the replay, $have readings delivered by then"
wait $RP
ok $? "replay: the other $((nframes - cut)) frames, sent while node 2 dies"

# Every reading delivered (or 60 s without news): the subscriber's lines
# are counted, the distinct IDs only once the lines are enough.
distinct=0 last=-1 same=0
for _ in $(seq 300); do
	c=$(grep -c '^diamond/readings/' sub.txt)
	if [ "$c" -ge "$nsent" ]; then
		read -r _ _ _ distinct _ <<<"$($FP readings sub.txt $B)"
		[ "$distinct" -ge "$nsent" ] && break
	fi
	if [ "$c" = "$last" ]; then same=$((same + 1)); [ $same -ge 300 ] && break; else same=0; fi
	last=$c
	sleep 0.2
done
echo "# all readings in $((SECONDS - killed_at)) s after the kill"

# Then stop the fleet: forwarders wait for every PUBACK, the verifier for
# its outbox's; the subscriber gets what the cluster still owes it (a
# message whose PUBACK died with a consumer leader comes again after
# ack_wait).
kill $F1 $F2
wait $F1
r1=$?
wait $F2
ok $((r1 | $?)) "forwarders: SIGTERM ends them with status 0"
for s in 1 2; do
	pub=$(sed -n 's/.*: \([0-9]*\) frames published, \([0-9]*\) dropped.*/\1 \2/p' fwd$s.err)
	want=$(( $($FP count a$s.bin) + $($FP count b$s.bin) ))
	check "forwarder $s published every frame it heard ($pub dropped; $want sent to it), all acknowledged by the cluster" \
		sh -c "test '$pub' = '$want 0' && ! grep -q 'not acknowledged' fwd$s.err"
done
check "forwarder 1 lost node 2 and went on at another node" \
	grep -q 'broker connection lost' fwd1.err
kill $VP
wait $VP
ok $? "verifier: SIGTERM ends it with status 0"
check "the verifier's outbox is empty: the cluster acknowledged every reading and event" \
	test ! -s st/mqtt/outbox
# Node 3 first; node 1 when node 3 could not load the session yet (its
# stream's new leader not elected within NATS's 4 s: seen under load).
took=$(sed -n 's/.*connected to the broker at \(.*\) (session present)$/\1/p' verifier.err | tail -1)
check "the verifier lost node 2 and took its session over at another node (session present: ${took:-none})" \
	test -n "$took" -a "$took" != "$N2"
echo "# fleet stopped at $SECONDS s"
last=$(wc -l <sub.txt) quiet=0
for _ in $(seq $((ACK_WAIT * 5 + 10))); do
	sleep 0.2
	now=$(wc -l <sub.txt)
	if [ "$now" = "$last" ]; then quiet=$((quiet + 1)); [ $quiet -ge $((ACK_WAIT * 5 + 5)) ] && break; else quiet=0; fi
	last=$now
done

read -r _ total _ distinct _ dups _ wrong <<<"$($FP readings sub.txt $B)"
echo "# $distinct distinct readings of $nsent, $total deliveries ($dups again, same ID), $wrong wrong"
echo "# $(grep 'open --mqtt:' verifier.err | tail -1 | sed 's/^diamondctl: //')"
check "one NATS node killed mid-run: every one of the $nsent readings delivered (by ID: $distinct)" \
	test "$distinct" = "$nsent"
check "... every delivery with the content sealed, on its device's topic ($wrong wrong)" \
	test "$wrong" = 0
read -r _ missing _ extra <<<"$($FP expect sub.txt $B $NDEV 128)"
check "... and no other: the IDs are exactly devices 1 to $NDEV, readings 0 to 127 ($missing missing, $extra extra)" \
	test "$missing" = 0 -a "$extra" = 0
# A frame the cluster delivers again once the verifier has used it (its
# PUBACK died with node 2) is a stale copy: an event with reason replay.
reasons=$(grep '^diamond/events/' sub.txt | grep -o '"reason":"[a-z_]*"' | sort | uniq -c | tr -s ' \n' ' ')
echo "# events with a reason: ${reasons:-none}"
check "no group lost or rejected: the only events with a reason are replays (stale copies delivered again)" \
	sh -c "! grep '^diamond/events/' sub.txt | grep -o '\"reason\":\"[a-z_]*\"' | grep -vq '\"reason\":\"replay\"'"
check "the surviving nodes logged no panic" \
	sh -c "! grep -qi 'panic' n1.log n3.log"
echo "# elapsed ${SECONDS} s"
tap_end
