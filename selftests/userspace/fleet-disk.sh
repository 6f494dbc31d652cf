#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-fleet-disk: the verifier (open --mqtt) and open on a real full
# filesystem, a small tmpfs mounted here (root, in a private mount
# namespace of its own: it goes away with the test). A frame is
# acknowledged only once what it brought is durable (Documentation/
# userspace.rst section 12, "At least once"), so when the spool, the
# outbox or a state file cannot be written the program must say so and
# exit non-zero, and the broker must get no PUBACK for what is not on disk:
#
#   spool    the disk is full when the frames come: no PUBACK at all
#            (mosquitto's own log), exit 3, the spool named;
#   outbox   the outbox's filesystem (a second tmpfs on DIR/mqtt) is full
#            when a unit verifies: exit 3, the outbox named, and every frame
#            the broker got a PUBACK for is in the spool;
#   open     open --input with its state directory full: exit 3, the state
#            file named, no reading printed; then, with room again, every
#            reading once.
#
# After each failure the next run, with room again, gets from the broker
# the frames it did not acknowledge; every reading is delivered exactly
# once by ID, with the content sealed. One device, b = 32, g = 16, two
# epochs (64 readings, 68 frames).
#
# Environment: D (diamondctl).
set -u
D=${D:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib/tap.sh"
. "$HERE/fleet-lib.sh"

if [ "$(id -u)" = 0 ] && [ -z "${FLEET_DISK_NS:-}" ] && command -v unshare >/dev/null &&
   unshare -m true 2>/dev/null; then
	FLEET_DISK_NS=1 exec unshare -m --propagation private "$BASH" "$0" "$@"
fi
echo "TAP version 13"
MOSQ=$(command -v mosquitto || echo /usr/sbin/mosquitto)
why=
[ -n "${FLEET_DISK_NS:-}" ] || why="needs root and unshare -m to mount a small tmpfs"
{ [ -x "$MOSQ" ] && command -v mosquitto_sub >/dev/null; } || why="needs mosquitto and mosquitto-clients: make deps"
"$D" forward --help >/dev/null 2>&1 || why="needs diamondctl with MQTT (libmosquitto-dev): make deps"
if [ -n "$why" ]; then
	for t in "spool full: exit 3, the spool named" "spool full: no PUBACK" \
		 "spool full: the next run delivers" "outbox full: exit 3, the outbox named" \
		 "outbox full: every frame acknowledged is in the spool" \
		 "outbox full: the next run delivers" "open: state full" "open: the next run"; do
		skip "$t" "$why"
	done
	tap_end
	exit
fi

PY=$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
FP="$PY $HERE/fleet.py"
W=$(mktemp -d /tmp/diamond-fleet-disk.XXXXXX)
PIDS=
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	umount "$W/full/st/mqtt" "$W/full" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
cd "$W" || exit 1

PORT=$(free_port)
broker_start "$PORT" "allow_anonymous true
log_type all"
mosquitto_sub -h 127.0.0.1 -p "$PORT" -q 1 -v -i disk-test-sub -t 'diamond/readings/#' >sub.txt 2>sub.err &
PIDS="$PIDS $!"

"$D" keygen -o root >/dev/null 2>&1
"$D" provision --root root --device 1 --suite 2 --agg xor --b 32 --group-size 16 \
	--blob d1.blob --state-dir st.orig >/dev/null 2>&1
seq -f "d1 r%g" 0 63 | "$D" seal --blob d1.blob >f1.bin 2>/dev/null
$FP slice f1.bin 0 10 a.bin	# 10 records of group 0: no unit completes
$FP slice f1.bin 10 34 b.bin	# the rest of epoch 0
$FP slice f1.bin 34 68 c.bin	# epoch 1

mkdir full
mount -t tmpfs -o size=512k,mode=0700 tmpfs full
cp -r st.orig full/st
fill() { cat /dev/zero >"$1/fill" 2>/dev/null; sync; }
VERR=
verifier() {	# verifier LOG: open --mqtt on full/st, in the background
	VERR=$1
	"$D" open --software --state-dir full/st --mqtt 127.0.0.1:$PORT \
		--client-id disk-verifier 2>"$VERR" &
	VP=$!
	PIDS="$PIDS $VP"
}
# until_exit PID: its exit status, or 124 after 20 s (then it is killed).
until_exit() {
	for _ in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$1" 2>/dev/null && { kill "$1"; wait "$1"; return 124; }
	wait "$1"
}
readings() { grep -c '^diamond/readings/' sub.txt; }
wait_readings() {	# wait_readings N: until the subscriber holds N
	for _ in $(seq 100); do
		[ "$(readings)" -ge "$1" ] && break
		sleep 0.2
	done
}
# The broker's log lines from line $1 on, of the verifier's session.
log_from() { tail -n +"$1" mosquitto.log; }
puback_count() { log_from "$1" | grep -c 'Received PUBACK from disk-verifier'; }
sent_count() { log_from "$1" | grep -c "Sending PUBLISH to disk-verifier .*'diamond/frames/"; }
publish() {	# publish FILE: its frames to the broker, QoS 1 (forward waits for PUBACKs)
	"$D" forward --broker 127.0.0.1:$PORT --gateway-id gw1 --input "$1" 2>>fwd.err
}

# The verifier's persistent session: subscribed once, then away.
verifier v0.err
for _ in $(seq 100); do
	grep -q 'Received SUBSCRIBE from disk-verifier' mosquitto.log && break
	sleep 0.1
done
kill "$VP"
wait "$VP"

# ---- the spool: the disk is full when the frames come ------------------------
publish a.bin
fill full
mark=$(($(wc -l <mosquitto.log) + 1))
verifier va.err
until_exit "$VP"
st=$?
msg=$(grep 'frames not acknowledged' va.err)
echo "# ${msg#diamondctl: }"
check "spool full: open --mqtt stops with exit 3, naming the spool and the error ($st)" \
	sh -c "[ $st = 3 ] && echo '$msg' | grep -q 'spool full/st/spool/frames: No space left on device'"
echo "# the broker sent the verifier $(sent_count $mark) frames and got $(puback_count $mark) PUBACKs"
check "spool full: the broker got no PUBACK for the frames it sent" \
	test "$(sent_count $mark)" -ge 1 -a "$(puback_count $mark)" = 0
rm full/fill
verifier vb.err
sleep 0.5
publish b.bin
wait_readings 32
kill "$VP"
wait "$VP"
vb=$?
read -r _ _ _ distinct _ dups _ wrong <<<"$($FP readings sub.txt 32 1)"
check "spool full: with room again the broker gives the frames again; epoch 0's 32 readings once each, sealed content ($distinct, $dups twice, $wrong wrong; exit $vb)" \
	test "$distinct" = 32 -a "$dups" = 0 -a "$wrong" = 0 -a "$vb" = 0

# ---- the outbox: its filesystem full when a unit verifies --------------------
mount -t tmpfs -o size=64k,mode=0700 tmpfs full/st/mqtt
fill full/st/mqtt
publish c.bin
mark=$(($(wc -l <mosquitto.log) + 1))
verifier vc.err
until_exit "$VP"
st=$?
msg=$(grep 'frames not acknowledged' vc.err)
echo "# ${msg#diamondctl: }"
check "outbox full: open --mqtt stops with exit 3, naming the outbox and the error ($st)" \
	sh -c "[ $st = 3 ] && echo '$msg' | grep -q 'outbox full/st/mqtt/outbox: No space left on device'"
acked=$(puback_count $mark)
spooled=$($FP count full/st/spool/frames)
echo "# the broker sent $(sent_count $mark) frames, got $acked PUBACKs; $spooled frames in the spool"
check "outbox full: every frame the broker got a PUBACK for is in the spool ($acked acknowledged, $spooled spooled, none verified)" \
	test "$acked" -le "$spooled" -a "$(readings)" = 32
rm full/st/mqtt/fill
verifier vd.err
wait_readings 64
kill "$VP"
wait "$VP"
vd=$?
read -r _ _ _ distinct _ dups _ wrong <<<"$($FP readings sub.txt 32 1)"
check "outbox full: the next run delivers all 64 readings once each by ID, sealed content ($distinct, $dups twice, $wrong wrong; exit $vd)" \
	test "$distinct" = 64 -a "$dups" = 0 -a "$wrong" = 0 -a "$vd" = 0
umount full/st/mqtt

# ---- open: the state directory full ------------------------------------------
rm -rf full/st && cp -r st.orig full/st
fill full
"$D" open --software --state-dir full/st --input f1.bin >o1.json 2>o1.err
st=$?
echo "# $(sed 's/^diamondctl: //' o1.err | grep durable)"
check "open, state directory full: exit 3, the state file and the error named, no reading out ($st)" \
	sh -c "[ $st = 3 ] && grep -q 'cannot make durable: state full/st/1.state: No space left on device' o1.err &&
	       ! grep -q index o1.json"
rm full/fill
"$D" open --software --state-dir full/st --input f1.bin >o2.json 2>o2.err
st=$?
check "open, with room again: all 64 readings, once each (exit $st)" \
	sh -c "[ $st = 0 ] && [ \$(grep -c '\"index\"' o2.json) = 64 ] && [ \$(sort -u o2.json | grep -c '\"index\"') = 64 ]"
echo "# elapsed ${SECONDS} s"
tap_end
