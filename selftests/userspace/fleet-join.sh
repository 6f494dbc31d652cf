#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-fleet, part 3: rebalancing when a verifier joins (Documentation/
# userspace.rst, "Rebalancing"). Eight shards, devices 1 to 8 (one per
# shard), a real mosquitto (Debian's, started here on 127.0.0.1, a free
# port, the passwords and ACL of userspace.rst section 12).
#
# Verifier A starts alone and takes all eight shards. Frames stream in;
# mid-run verifier B starts. A hands B its share (four shards): each
# session's last round is fed and made durable before it is
# acknowledged, then nothing is fed, the lease is given back, and B
# claims it with a larger token. Every reading of the first half is
# delivered exactly once by ID, with its content.
#
# Then the stale writer: B is stopped (SIGSTOP) and a group of every
# device is published, so B's sockets hold frames it never
# acknowledged; A takes B's shards back once their leases expire, with
# tokens above B's. B continued must refuse: frames not fed, its shards
# dropped, nothing written in their directories. B, live again, gets its
# share back from A, and the rest streams in: every reading of all
# 256 per device delivered by ID with its content.
#
# Environment: D (diamondctl).
set -u
D=${D:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; else PY=$(command -v python3); fi
FP="$PY $HERE/fleet.py"
W=$(mktemp -d /tmp/diamond-join.XXXXXX)
PIDS=
trap 'for p in $PIDS; do kill -CONT "$p" 2>/dev/null; kill "$p" 2>/dev/null; done; wait 2>/dev/null; [ -n "${FLEET_KEEP:-}" ] || rm -rf "$W"' EXIT
# shellcheck source=SCRIPTDIR/../lib/tap.sh
. "$HERE/../lib/tap.sh"
# shellcheck source=SCRIPTDIR/fleet-lib.sh
. "$HERE/fleet-lib.sh"

echo "TAP version 13"
cd "$W" || exit 1
fleet_needs "fleet rebalancing on mosquitto"
B=32 G=16 LEASE=3000 N=8

PORT=$(free_port SOCK_STREAM)
mosquitto_start "$PORT" 'topic readwrite diamond/lease/#
topic readwrite diamond/alive/#' 'topic read diamond/lease/#'
ok $? "mosquitto on 127.0.0.1:$PORT with passwords and an ACL"

# 256 readings a device: 272 frames, 34 an epoch. Part 1: epochs 0-3
# (136 frames); part 2: epoch 4's first group and its tag (17); part 3:
# the rest.
"$D" keygen -o root >/dev/null 2>&1
mkdir -p fleet
for dev in $(seq $N); do
	"$D" provision --root root --device "$dev" --suite 2 --agg xor --b $B \
		--group-size $G --blob "d$dev.blob" --state-dir "fleet/$((dev % N))" >/dev/null 2>&1
	seq -f "d$dev r%g" 0 255 | "$D" seal --blob "d$dev.blob" >"f$dev.bin" 2>/dev/null
	$FP slice "f$dev.bin" 0 136 "p1-$dev.bin"
	$FP slice "f$dev.bin" 136 153 "p2-$dev.bin"
	$FP slice "f$dev.bin" 153 272 "p3-$dev.bin"
done
for p in 1 2 3; do
	# shellcheck disable=SC2046
	$FP interleave "p$p.bin" $(for dev in $(seq $N); do echo "p$p-$dev.bin"; done)
done

mosquitto_sub -h 127.0.0.1 -p "$PORT" -u reader -P pw-reader -q 1 -v -i join-sub \
	-t 'diamond/readings/#' -t 'diamond/events/#' >sub.txt 2>sub.err &
PIDS="$PIDS $!"
UPORT=$(free_port SOCK_DGRAM)
DIAMOND_MQTT_PASSWORD=pw-fwd "$D" forward --user fwd --broker "127.0.0.1:$PORT" \
	--gateway-id gw1 --shards $N --udp "$UPORT" 2>fwd.err &
PIDS="$PIDS $!"
verifier() {	# verifier NAME: started in the background, its pid in VP
	DIAMOND_MQTT_PASSWORD=pw-verifier "$D" open --software --fleet fleet \
		--client-id "$1" --mqtt "127.0.0.1:$PORT" --shards $N --lease-ms $LEASE \
		--user verifier 2>>"$1.err" &
	VP=$!
	PIDS="$PIDS $VP"
}
# wait_for SECONDS COMMAND...: until COMMAND succeeds; its status.
wait_for() {
	local n=$(($1 * 10))
	shift
	while [ $n -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	"$@"
}
taken() { grep -c "fleet: shard [0-9]* taken" "$1.err"; }
given() { grep -c "fleet: shard [0-9]* given back" "$1.err"; }
has() { [ "$("$1" "$2")" -ge "$3" ]; }
# The shards whose fence NAME holds, and the lowest token there.
fenced() { grep -l " $1\$" fleet/*/fence 2>/dev/null | sed 's|fleet/\([0-9]*\)/fence|\1|' | sort -n | tr '\n' ' '; }
missing() { $FP expect sub.txt $B $N "$1" | awk '{ print $2 }'; }
none_missing() { [ "$(missing "$1")" = 0 ]; }

# ---- the join ----------------------------------------------------------------
verifier va
VA=$VP
wait_for 15 has taken va $N
ok $? "verifier A alone takes all $N shards"
tokens_a=$(cat fleet/*/fence | awk '{ print $1 }' | tr '\n' ' ')
$FP send "$UPORT" p1.bin 0.008 &
SP=$!
sleep 1.5
verifier vb
VB=$VP
wait_for 30 has given va $((N / 2))
wait_for 10 has taken vb $((N / 2))
wait "$SP"
wait_for 30 none_missing 128
sleep 0.5
echo "# A: $(grep 'handed over' va.err | sed 's/.*\(shard [0-9]*\) handed over to [a-z]*: \([0-9]*\) frames.*/\1: \2 fed in its last round/' | tr '\n' ';')"
echo "# A: $(grep 'given back' va.err | sed 's/.*\(shard [0-9]*\) given back for \([a-z]*\) (token \([0-9]*\)); \([0-9]*\) frames.*/\1 to \2 at token \3 (\4 left)/' | tr '\n' ';')"
echo "# B: $(grep 'fleet: shard [0-9]* taken' vb.err | sed 's/.*\(shard [0-9]*\) taken with token \([0-9]*\).*/\1 token \2/' | tr '\n' ';')"
b_shards=$(fenced vb)
a_shards=$(fenced va)
check "B, joining mid-stream, ends with half the shards ($b_shards; A: $a_shards)" \
	test "$(echo "$b_shards" | wc -w)" = $((N / 2)) -a "$(echo "$a_shards" | wc -w)" = $((N / 2))
# Liveness, not safety: on a machine so loaded that a verifier stalls
# for a whole lease, the other takes its shards (the fence refusing the
# stalled one) and the shards may move more than once; every check here
# holds either way, so the churn is reported, not judged.
echo "# churn: B took $(taken vb) shards, A gave back $(given va); $(cat va.err vb.err | grep -c 'fleet: shard [0-9]* dropped') dropped"
ok_tokens=1
for s in $b_shards; do
	a_tok=$(echo "$tokens_a" | cut -d' ' -f$((s + 1)))
	b_tok=$(awk '{ print $1 }' "fleet/$s/fence")
	[ "$b_tok" -gt "$a_tok" ] || ok_tokens=0
done
check "... each with a token above A's (A: $tokens_a; now: $(cat fleet/*/fence | awk '{ print $1 }' | tr '\n' ' '))" test $ok_tokens = 1
read -r _ total _ distinct _ dups _ wrong <<<"$($FP readings sub.txt $B)"
check "join: every reading of the first half exactly once by ID ($distinct distinct of $((N * 128)), $total delivered, $dups duplicates)" \
	test "$distinct" = $((N * 128)) -a "$dups" = 0
check "join: each with the content sealed ($wrong wrong)" test "$wrong" = 0

# ---- the stale writer ----------------------------------------------------------
# B's shards at rest first (outboxes acknowledged), then B stopped, and a
# group of every device published: B's four go to B's sockets. A is
# stopped too until the broker has passed them on (a peek subscriber has
# them all), so that on a loaded machine A cannot take B's sessions first.
wait_for 10 sh -c "! cat fleet/*/mqtt/outbox 2>/dev/null | grep -q ."
mosquitto_sub -h 127.0.0.1 -p "$PORT" -u verifier -P pw-verifier -i join-peek \
	-t 'diamond/frames/#' -C $((N * 17)) -W 60 -F '%t' >peek.txt 2>/dev/null &
PEEK=$!
sleep 0.3
taken_a=$(taken va)
kill -STOP "$VA" "$VB"
t_stop=$(date +%s.%N)
$FP send "$UPORT" p2.bin 0.002
wait $PEEK
kill -CONT "$VA"
wait_for 30 has taken va $((taken_a + N / 2))
ok $? "A takes B's shards back from the stopped B in $($PY -c "print('%.1f' % ($(date +%s.%N) - $t_stop))") s (lease $LEASE ms): $(fenced va | wc -w) fences hold A's token"
wait_for 20 sh -c "! cat fleet/*/mqtt/outbox 2>/dev/null | grep -q ."
hashes() {
	local s
	for s in $b_shards; do
		(cd "fleet/$s" && sha256sum ./*.state fence spool/frames mqtt/outbox 2>/dev/null)
	done | sha256sum
}
before=$(hashes)
kill -CONT "$VB"
drops() { [ "$(grep -c 'fleet: shard [0-9]* dropped' vb.err)" -ge $((N / 2)) ]; }
wait_for 15 drops
sleep 0.3
after=$(hashes)
refused=$(sed -n 's/.*shard [0-9]* dropped.* \([0-9]*\) frames refused.*/\1/p' vb.err | awk '{ n += $1 } END { print n + 0 }')
echo "# B: $(grep 'fleet: shard [0-9]*: the store\|dropped' vb.err | sed 's/^diamondctl: //' | tr '\n' ';')"
check "B, continued, drops its $((N / 2)) shards: their fences hold A's newer tokens" drops
check "... the fence refuses it: no frame of its sockets fed ($refused refused in all)" \
	sh -c "[ '${refused:-0}' -gt 0 ] && grep -q 'the store holds token [0-9]*, ours is [0-9]*: refused\|the fence holds a newer token' vb.err"
check "... and nothing written in their directories (states, fence, spool, outbox unchanged)" \
	test "$before" = "$after"

# ---- B live again: its share back, the rest ---------------------------------
given_a=$(given va)
wait_for 30 has given va $((given_a + N / 2))
wait_for 10 has taken vb $N
check "B, live again, gets its share back ($(fenced vb))" test "$(fenced vb | wc -w)" = $((N / 2))
$FP send "$UPORT" p3.bin 0.004
wait_for 30 none_missing 256
read -r _ total _ distinct _ dups _ wrong <<<"$($FP readings sub.txt $B)"
check "all: every reading delivered by ID ($distinct distinct of $((N * 256)), $total delivered, $dups again)" \
	test "$distinct" = $((N * 256))
check "all: each with the content sealed ($wrong wrong)" test "$wrong" = 0
kill "$VA" "$VB"
wait "$VA"
ra=$?
wait "$VB"
ok $((ra | $?)) "A and B: SIGTERM ends them with status 0, their leases given back"
check "mosquitto saw no protocol errors" sh -c "! grep -qi 'protocol error\|malformed' mosquitto.log"
echo "# elapsed ${SECONDS} s"
tap_end
