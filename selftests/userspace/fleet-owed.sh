#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-fleet (issue 31 item 5, and item 7's part (c)): the verifier's
# backpressure on a real mosquitto (Debian's, started here on 127.0.0.1,
# a free port, its own config and persistence directory). Four devices,
# b = g = 1024 (one tag a 1,024-reading epoch), two epochs each, one
# device after another: 8,192 readings in 8,200 frames, published by one
# `forward --input --max-queue 100` (it waits at 100 frames awaiting
# their PUBACK, dropping none) into one `open --mqtt --max-owed 8`.
# Then a restart owing more than --max-owed (see restart_owing below).
#
# Each epoch tag releases 1,024 readings at once, past --max-owed 8, and
# the outbox has 256 of them in flight at a time on the verifier's
# readings session (<ID>-out): the verifier pauses, reading no frames
# (the broker keeps them) while it reads the PUBACKs of its readings, and
# goes on once it owes fewer than 8. The documented outcome: the
# forwarder published every frame and dropped none; every one of the
# 8,192 readings is delivered, with the content sealed (duplicates by ID
# are allowed: at least once); the verifier paused (at least once an
# epoch, 8); it never owed more than --max-owed plus the one epoch a
# round of 64 frames can release (8 + 1,024); and it ends owing nothing.
#
# Environment: D (diamondctl).
set -u
D=${D:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PY=$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
FP="$PY $HERE/fleet.py"
W=$(mktemp -d /tmp/diamond-fleet-owed.XXXXXX)
PIDS=
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$W"' EXIT
. "$HERE/../lib/tap.sh"
. "$HERE/fleet-lib.sh"

echo "TAP version 13"
cd "$W" || exit 1
fleet_needs "the verifier's backpressure on mosquitto"

B=1024 NDEV=4 EPOCHS=2 OWED=8
SENT=$((NDEV * EPOCHS * B))
PORT=$(free_port SOCK_STREAM)
# A second listener taking one connection at a time: a verifier there has
# its frames session and no readings' session (the restart test below).
PORT1=$(free_port SOCK_STREAM)
broker_start "$PORT" "allow_anonymous true
listener $PORT1 127.0.0.1
max_connections 1"
ok $? "mosquitto on 127.0.0.1:$PORT and :$PORT1 (one connection), its own config and persistence directory"

"$D" keygen -o root >/dev/null 2>&1
"$D" provision --root root --devices 1-$NDEV --suite 2 --agg xor --b $B \
	--blob 'd%u.blob' --state-dir st >/dev/null 2>&1
awk -v n=$NDEV -v r=$((EPOCHS * B)) 'BEGIN { for (d = 1; d <= n; d++) for (k = 0; k < r; k++) print d, "d" d " r" k }' |
	"$D" seal --devices 1-$NDEV --blob 'd%u.blob' >sent.bin 2>/dev/null
NFRAMES=$($FP count sent.bin)
check "$NDEV devices x $EPOCHS epochs of b = $B sealed: $NFRAMES frames" test "$NFRAMES" = $((SENT + NDEV * EPOCHS))

mosquitto_sub -h 127.0.0.1 -p "$PORT" -q 1 -i sub-owed -v -t 'diamond/readings/#' \
	>sub.txt 2>sub.err &
PIDS="$PIDS $!"
"$D" open --software --state-dir st --mqtt "127.0.0.1:$PORT" --client-id ver-owed \
	--max-owed $OWED 2>ver.err &
VP=$!
PIDS="$PIDS $VP"
for _ in $(seq 100); do
	grep -q 'subscribed to the frames' ver.err && break
	sleep 0.1
done
"$D" forward --broker "127.0.0.1:$PORT" --gateway-id gw1 --max-queue 100 \
	--input sent.bin 2>fwd.err
ok $? "forward --input --max-queue 100: exit 0, every frame acknowledged by the broker"
check "the forwarder published all $NFRAMES frames and dropped none (it waits at --max-queue)" \
	grep -q "forward (gw1): $NFRAMES frames published, 0 dropped (queue full)" fwd.err
distinct=0
for _ in $(seq 600); do
	read -r _ _ _ distinct _ _ _ _ <<<"$($FP readings sub.txt $B)"
	[ "$distinct" -ge $SENT ] && break
	sleep 0.1
done
kill "$VP" 2>/dev/null
wait "$VP"
vrc=$?
sleep 0.3
read -r _ total _ distinct _ dups _ wrong <<<"$($FP readings sub.txt $B)"
echo "# $distinct distinct readings of $SENT, $dups duplicates, $wrong wrong ($total deliveries)"
sed -n 's/^diamondctl: open --mqtt: /# /p' ver.err
check "every one of the $SENT readings delivered ($distinct), each with its sealed content ($wrong wrong)" \
	sh -c "[ $distinct = $SENT ] && [ $wrong = 0 ]"
ok $vrc "the verifier ends on SIGTERM with exit 0"
summary=$(grep 'open --mqtt:' ver.err)
pauses=$(echo "$summary" | sed -n 's/.* \([0-9]*\) pauses at --max-owed.*/\1/p')
peak=$(echo "$summary" | sed -n 's/.*at most \([0-9]*\) owed.*/\1/p')
owed=$(echo "$summary" | sed -n 's/.* \([0-9]*\) not yet acknowledged.*/\1/p')
check "the verifier paused at --max-owed $OWED, at least once an epoch (${pauses:-?} pauses)" \
	test "${pauses:-0}" -ge $((NDEV * EPOCHS))
check "it never owed more than --max-owed + one epoch's release, $((OWED + B)) (at most ${peak:-?})" \
	sh -c "[ -n '$peak' ] && [ '$peak' -le $((OWED + B)) ]"
check "it ends owing nothing (${owed:-?} not yet acknowledged)" test "${owed:-1}" = 0

# restart_owing: a verifier that starts owing more than --max-owed must
# read its frames session's CONNACK anyway, or its readings' session
# (which connects after that one) never drains the outbox: a fleet
# verifier taking a shard from one killed while paused waited for ever
# (bench-fleet (b)). One device, one epoch of b = 1,024, prefix "again":
# the first run is on the one-connection listener, so its readings'
# session is refused and the epoch's 1,024 readings stay owed; SIGTERM
# (its 5 s drain) leaves them in the outbox. The second run, on the
# other listener with the same client ID and --max-owed 8, must deliver
# all 1,024 and end owing nothing.
restart_owing() {
	local got owed2 t vp
	mkdir -p again
	"$D" provision --root root --devices 9-9 --suite 2 --agg xor --b $B \
		--blob 'again/d%u.blob' --state-dir again/st >/dev/null 2>&1
	awk -v r=$B 'BEGIN { for (k = 0; k < r; k++) print 9, "again r" k }' |
		"$D" seal --devices 9-9 --blob 'again/d%u.blob' >again/sent.bin 2>/dev/null
	mosquitto_sub -h 127.0.0.1 -p "$PORT" -q 1 -i sub-again -v -t 'again/readings/#' \
		>again/sub.txt 2>again/sub.err &
	PIDS="$PIDS $!"
	"$D" open --software --state-dir again/st --mqtt "127.0.0.1:$PORT1" \
		--client-id ver-again --topic-prefix again --max-owed $OWED 2>again/v1.err &
	vp=$!
	PIDS="$PIDS $vp"
	for _ in $(seq 100); do
		grep -q 'subscribed to the frames' again/v1.err && break
		sleep 0.1
	done
	"$D" forward --broker "127.0.0.1:$PORT" --gateway-id gw1 --topic-prefix again \
		--input again/sent.bin 2>again/fwd.err
	for t in $(seq 100); do
		[ -s again/st/mqtt/outbox ] && break
		sleep 0.1
	done
	kill "$vp" 2>/dev/null
	wait "$vp"
	owed2=$(sed -n 's/.* \([0-9]*\) not yet acknowledged.*/\1/p' again/v1.err)
	check "first run without its readings' session: the epoch's $B readings owed at exit (${owed2:-?}, after ${t}0 ms)" \
		test "${owed2:-0}" = $B
	"$D" open --software --state-dir again/st --mqtt "127.0.0.1:$PORT" \
		--client-id ver-again --topic-prefix again --max-owed $OWED 2>again/v2.err &
	vp=$!
	PIDS="$PIDS $vp"
	for _ in $(seq 300); do
		got=$(grep -c 'again/readings/' again/sub.txt)
		[ "$got" -ge $B ] && break
		sleep 0.1
	done
	kill "$vp" 2>/dev/null
	wait "$vp"
	check "restarted owing $B at --max-owed $OWED: all $B readings delivered (${got:-0})" \
		test "${got:-0}" -ge $B
	owed2=$(sed -n 's/.* \([0-9]*\) not yet acknowledged.*/\1/p' again/v2.err)
	check "and it ends owing nothing (${owed2:-?} not yet acknowledged)" test "${owed2:-1}" = 0
}
restart_owing
tap_end
