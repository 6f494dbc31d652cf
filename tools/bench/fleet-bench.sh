#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# make bench-fleet (issue 31 item 7): the fleet on a real mosquitto
# (Debian's, started here on 127.0.0.1, a free port, its own config and
# persistence directory, as the fleet tests do: selftests/userspace/
# fleet-lib.sh), measured. One markdown table on stdout: per scenario the
# readings sent, delivered (distinct IDs), the delivered fraction,
# duplicates (deliveries of an ID already delivered), the verifiers' max
# RSS (VmHWM), epochs verified per second (the verifiers' own count over
# the seconds from the first frame sent to the last reading received) and
# the wall time. Every verifier here runs the software path
# (open --software): no diamond.ko, no kernel memory.
#
#  (a) three forwarders (forward --udp) behind independent lossy links
#      (lossy-link --filter) at 1, 5 and 10% loss, Bernoulli and
#      Gilbert-Elliott (mean burst 3), one verifier, b = 32, g = 16.
#      A_DEVICES devices, A_READINGS readings each, interleaved; frame k
#      goes to every forwarder whose link kept it before frame k + 1
#      (fleet.py replay, A_DELAY s apart). "ideal" is what the union of the
#      three links holds in whole groups (fleet.py ideal): the most any
#      verifier can deliver.
#  (b) DEVICES devices (one epoch of b = 32, g = 16 each) heard by three
#      gateways (forward --input, the whole stream each, side by side),
#      two verifiers sharing the shards (open --mqtt --fleet), one killed
#      with SIGKILL once a third of the readings are out.
#  (c) one verifier holding HOLD devices (one epoch of b = 16 each, one
#      device after another, one gateway: forward --input, waiting at its
#      --max-queue): its max RSS once every device's state is loaded, and
#      its backpressure (open --mqtt --max-owed, default 16,384) in the
#      note. Devices are provisioned (provision --devices) and sealed (seal
#      --devices) in one run each, for every part.
#
#   tools/bench/fleet-bench.sh [a] [b] [c]     (default: all three)
#
# Environment: D (diamondctl), LOSSY (lossy-link); BENCH_FLEET_SEED (the
# links' seeds are 3 SEED + 1 .. 3; printed), BENCH_FLEET_DEVICES (b,
# default 10000), BENCH_FLEET_HOLD (c, default 100000),
# BENCH_FLEET_A_DEVICES (10), BENCH_FLEET_A_READINGS (1024),
# BENCH_FLEET_LOSSES ("0.01 0.05 0.10"), BENCH_FLEET_MODELS
# ("bernoulli ge"), BENCH_FLEET_A_DELAY (0.0003), BENCH_FLEET_TMP (where
# the states and the broker's persistence go: /dev/shm by default, a tmpfs
# where fsync costs nothing, so the figures are CPU's: a disk adds its
# fsyncs, and beside a busy disk at ionice's idle class one provision
# took a second), BENCH_FLEET_MIN (fail unless
# every (a) row at 5% loss delivers at least this fraction; the smoke
# check's 0.99).
set -u
D=${D:?}
LOSSY=${LOSSY:?}
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE=$TOP/selftests/userspace
PY=$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
FP="$PY $HERE/fleet.py"
PARTS=${*:-a b c}
SEED=${BENCH_FLEET_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
DEVICES=${BENCH_FLEET_DEVICES:-10000}
HOLD=${BENCH_FLEET_HOLD:-100000}
A_DEVICES=${BENCH_FLEET_A_DEVICES:-10}
A_READINGS=${BENCH_FLEET_A_READINGS:-1024}
LOSSES=${BENCH_FLEET_LOSSES:-0.01 0.05 0.10}
MODELS=${BENCH_FLEET_MODELS:-bernoulli ge}
A_DELAY=${BENCH_FLEET_A_DELAY:-0.0003}
MIN=${BENCH_FLEET_MIN:-}
W=$(mktemp -d "${BENCH_FLEET_TMP:-/dev/shm}/diamond-fleet-bench.XXXXXX")
PIDS=
trap 'for p in $PIDS; do kill -CONT "$p" 2>/dev/null; kill "$p" 2>/dev/null; done; wait 2>/dev/null; [ -n "${BENCH_FLEET_KEEP:-}" ] || rm -rf "$W"' EXIT
. "$HERE/fleet-lib.sh"
cd "$W" || exit 1
MOSQ=$(command -v mosquitto || echo /usr/sbin/mosquitto)
if [ ! -x "$MOSQ" ] || ! command -v mosquitto_sub >/dev/null ||
   ! "$D" forward --help >/dev/null 2>&1; then
	echo "fleet-bench: needs mosquitto, mosquitto-clients and diamondctl with MQTT (libmosquitto-dev): make deps" >&2
	exit 77
fi
say() { echo "fleet-bench: [$(date +%T)] $*" >&2; }
now() { date +%s.%N; }
hwm() { awk '/VmHWM/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
# elapsed T0 T1: the seconds from T0 to T1 (now's format), one decimal.
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# until_count FILE PATTERN N TRIES: until FILE has N lines matching
# PATTERN, TRIES times 0.1 s at most; 1 when they did not come.
until_count() {
	for _ in $(seq "$4"); do
		[ "$(grep -c "$2" "$1")" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}
# published FWD_ERR...: each forwarder's "published+dropped" frames.
published() {
	grep -h 'frames published' "$@" | sed 's/.*: \([0-9]*\) frames published, \([0-9]*\) dropped.*/\1+\2/' | tr '\n' ' '
}
# mib KIB: KiB as MiB, one decimal.
mib() { awk -v k="${1:-0}" 'BEGIN { printf "%.1f", k / 1024 }'; }
# ratio A B [DIGITS]: A / B.
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-4}" 'BEGIN { printf "%.*f", d, b ? a / b : 0 }'; }
# epochs PIDFILE_ERR...: the "epochs verified" of the summaries in the files.
epochs() { cat "$@" | sed -n 's/.* \([0-9]*\) epochs verified.*/\1/p' | awk '{ s += $1 } END { print s + 0 }'; }
# last_ts SUB: the receive time of the last reading in SUB (mosquitto_sub
# -F '%U %t %p' lines).
last_ts() { awk '$2 ~ /\/readings\// { t = $1 } END { print t }' "$1"; }
# plain SUB OUT: SUB without the timestamps, as fleet.py reads it.
plain() { cut -d' ' -f2- "$1" >"$2"; }
# subscriber PREFIX FILE: every reading and event under PREFIX, timestamped.
subscriber() {
	mosquitto_sub -h 127.0.0.1 -p "$PORT" -q 1 -i "sub-$1" -F '%U %t %p' \
		-t "$1/readings/#" -t "$1/events/#" >"$2" 2>"$2.err" &
	SUBP=$!
	PIDS="$PIDS $SUBP"
}
nreadings() { grep -c ' [^ ]*/readings/' "$1"; }
# distinct SUB: the readings of SUB counted once however often delivered.
distinct() {
	awk '$2 ~ /\/readings\// { sub(/^[^ ]* /, ""); if (!seen[$0]++) n++ }
	     END { print n + 0 }' "$1"
}
# settle SUB WANT QUIET: until SUB holds WANT distinct readings, or QUIET
# seconds pass without a new delivery. (Deliveries alone are no measure:
# with three gateways they pass WANT on copies while readings are still
# to come, and (b) stopped 776 readings short.)
settle() {
	local last=-1 same=0 checked=-1 c
	while :; do
		c=$(nreadings "$1")
		if [ "$c" -ge "$2" ] && [ "$c" != "$checked" ]; then
			checked=$c
			[ "$(distinct "$1")" -ge "$2" ] && return 0
		fi
		if [ "$c" = "$last" ]; then
			same=$((same + 1))
			[ $same -ge $(($3 * 5)) ] && return 1
		else
			same=0
		fi
		last=$c
		sleep 0.2
	done
}
# stop_pid PID: SIGTERM, then its status.
stop_pid() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
# provision DIR N B G [SHARDS]: devices 1..N in DIR (blobs DIR/dN.blob,
# the state of device N in DIR/st/(N mod SHARDS), SHARDS 1 by default:
# DIR/st/0), with the root DIR/root; one provision --devices run.
provision() {
	local dir=$1 n=$2 b=$3 g=$4 shards=${5:-1}
	mkdir -p "$dir/st"
	"$D" keygen -o "$dir/root" >/dev/null 2>&1
	"$D" provision --root "$dir/root" --devices "1-$n" --suite 2 --agg xor \
		--b "$b" --group-size "$g" --blob "$dir/d%u.blob" \
		--state-dir "$dir/st/all" >/dev/null || return 1
	# Into the shards' directories: device N's state to st/(N mod SHARDS).
	$PY -c 'import os, sys
top, shards = sys.argv[1], int(sys.argv[2])
for s in range(shards):
    os.makedirs("%s/%d" % (top, s), exist_ok=True)
for f in os.listdir(top + "/all"):
    os.rename("%s/all/%s" % (top, f), "%s/%d/%s" % (top, int(f.split(".")[0]) % shards, f))
os.rmdir(top + "/all")' "$dir/st" "$shards"
}
# seal_all DIR N R OUT [cat]: R readings of each device ("dD rK", one
# seal --devices run), interleaved into OUT (with cat: one device after
# another).
seal_all() {
	local dir=$1 n=$2 r=$3
	awk -v n="$n" -v r="$r" 'BEGIN { for (d = 1; d <= n; d++) for (k = 0; k < r; k++) print d, "d" d " r" k }' |
		"$D" seal --devices "1-$n" --blob "$dir/d%u.blob" >"$dir/bydev.bin" || return 1
	if [ "${5:-}" = cat ]; then	# one device after another
		mv "$dir/bydev.bin" "$4"
	else
		$FP interleave-devices "$4" "$dir/bydev.bin" && rm -f "$dir/bydev.bin"
	fi
}

PORT=$(free_port SOCK_STREAM)
broker_start "$PORT" "allow_anonymous true" || { say "mosquitto did not start"; exit 1; }
say "mosquitto $(dpkg-query -W -f '${Version}' mosquitto 2>/dev/null) on 127.0.0.1:$PORT; seed $SEED (BENCH_FLEET_SEED=$SEED repeats the links); states under $W"
NOTES=
note() { NOTES="$NOTES- $*
"; }
ROWS=
row() { ROWS="$ROWS| $* |
"; }
fail=0

# ---- (a) three lossy links, one verifier ----------------------------------------
part_a() {
	local B=32 G=16 model loss s pfx up fwp sent ideal t0 t1 vp rss ep
	local total distinct dups wrong lbl burst pct kept nframes
	provision a "$A_DEVICES" $B $G && seal_all a "$A_DEVICES" "$A_READINGS" a/sent.bin ||
		{ say "(a): provisioning failed"; return 1; }
	sent=$((A_DEVICES * A_READINGS))
	nframes=$($FP count a/sent.bin)
	for model in $MODELS; do
		for loss in $LOSSES; do
			pct=$(awk -v l="$loss" 'BEGIN { printf "%g", 100 * l }')
			burst=0 lbl="Bernoulli"
			[ "$model" = ge ] && burst=3 lbl="Gilbert-Elliott, burst 3"
			pfx=a-$model-$pct
			kept=
			for s in 1 2 3; do
				"$LOSSY" --filter --loss "$loss" --burst $burst --corrupt 0 --reorder 0 \
					--dup 0 --seed $((3 * SEED + s)) <a/sent.bin >"a/$pfx-link$s.bin" 2>"a/$pfx-link$s.txt"
				kept="$kept $(sed -n 's/.* frames in, \([0-9]*\) out.*/\1/p' "a/$pfx-link$s.txt")"
			done
			read -r ideal _ <<<"$($FP ideal $B $G "a/$pfx-link1.bin" "a/$pfx-link2.bin" "a/$pfx-link3.bin")"
			rm -rf "a/$pfx-st" && cp -r a/st/0 "a/$pfx-st"
			subscriber "$pfx" "a/$pfx-sub.txt"
			"$D" open --software --state-dir "a/$pfx-st" --mqtt "127.0.0.1:$PORT" \
				--topic-prefix "$pfx" --client-id "ver-$pfx" 2>"a/$pfx-ver.err" &
			vp=$!
			PIDS="$PIDS $vp"
			fwp='' up=''
			for s in 1 2 3; do
				eval "local u$s=$(free_port SOCK_DGRAM)"
				eval "up=\"\$up \$u$s=a/$pfx-link$s.bin\""
				eval "\"\$D\" forward --broker 127.0.0.1:$PORT --gateway-id gw$s \
					--topic-prefix $pfx --max-queue 1000000 --udp \$u$s 2>a/$pfx-fwd$s.err &"
				fwp="$fwp $!"
			done
			PIDS="$PIDS $fwp"
			until_count "a/$pfx-ver.err" 'subscribed to the frames' 1 100
			sleep 0.5	# the forwarders' CONNACKs
			t0=$(now)
			# shellcheck disable=SC2086 # PORT=FILE words
			$FP replay a/sent.bin "$A_DELAY" $up
			say "(a) $lbl $pct%: replayed"
			settle "a/$pfx-sub.txt" "$ideal" 5
			say "(a) $lbl $pct%: settled"
			rss=$(hwm $vp)
			for s in $fwp; do stop_pid "$s"; done
			stop_pid $vp
			stop_pid "$SUBP"
			say "(a) $lbl $pct%: stopped"
			t1=$(last_ts "a/$pfx-sub.txt")
			plain "a/$pfx-sub.txt" "a/$pfx-sub.plain"
			read -r _ total _ distinct _ dups _ wrong <<<"$($FP readings "a/$pfx-sub.plain" $B)"
			ep=$(epochs "a/$pfx-ver.err")
			row "(a) $lbl | $pct% | 3 | 1 | $A_DEVICES | $sent | $distinct (ideal $ideal) | $(ratio "$distinct" "$sent") | $dups | $(mib "$rss") | $(ratio "$ep" "$(elapsed "$t0" "$t1")" 1) | $(elapsed "$t0" "$t1")"
			say "(a) $lbl $pct%: frames kept by the links:$kept of $nframes; $distinct of $sent delivered (ideal $ideal), $dups duplicates, $wrong wrong; $(published "a/$pfx"-fwd*.err)(published+dropped per forwarder)"
			[ "$wrong" = 0 ] || { note "(a) $lbl $pct%: $wrong readings with the wrong content"; fail=1; }
			if [ "$distinct" != "$ideal" ]; then
				note "(a) $lbl $pct%: $distinct delivered where the links' union holds $ideal in whole groups"
			fi
			if [ -n "$MIN" ] && [ "$pct" = 5 ] &&
			   ! awk -v d="$distinct" -v s="$sent" -v m="$MIN" 'BEGIN { exit !(d >= m * s) }'; then
				note "(a) $lbl 5%: delivered fraction $(ratio "$distinct" "$sent") under $MIN"
				fail=1
			fi
		done
	done
	note "(a): links seeded 3 x $SEED + 1, 2, 3 (BENCH_FLEET_SEED=$SEED); b = $B, g = $G, frames $A_DELAY s apart; the verifier's lateness horizon is 32 frames of the device"
}

# ---- (b) many devices, three gateways, two verifiers, one SIGKILL -----------------
part_b() {
	local B=16 G=16 S=4 LEASE=3000 sent t0 t1 tk tt s va vb fwp rss_a rss_b
	local total distinct dups wrong held before took n ts tp
	ts=$(now)
	provision b "$DEVICES" $B $G $S || { say "(b): provisioning failed"; return 1; }
	tp=$(now)
	seal_all b "$DEVICES" $B b/sent.bin || { say "(b): sealing failed"; return 1; }
	say "(b): $DEVICES devices provisioned in $(elapsed "$ts" "$tp") s, sealed in $(elapsed "$tp" "$(now)") s"
	sent=$((DEVICES * B))
	subscriber b b/sub.txt
	for s in va vb; do
		"$D" open --software --fleet b/st --client-id "$s" --mqtt "127.0.0.1:$PORT" \
			--topic-prefix b --shards $S --lease-ms $LEASE 2>"b/$s.err" &
		eval "$s=\$!"
		PIDS="$PIDS $!"
	done
	# Until the two share the shards (rebalancing: two each), subscribed
	# (a shard's session is new: frames before it would not be queued).
	until_count b/va.err 'subscribed to the frames' 2 300
	until_count b/vb.err 'subscribed to the frames' 2 300
	held=$(($(grep -c 'fleet: shard [0-9]* taken' b/vb.err) - $(grep -c 'fleet: shard [0-9]* \(dropped\|handed over\|given back\)' b/vb.err)))
	t0=$(now)
	fwp=
	# Each forwarder waits at --max-queue (its default, 10,000) for
	# PUBACKs. Unbounded (--max-queue 16777216), three of them put 510,000
	# frames on mosquitto at once, and on a loaded host its PUBACKs came
	# later than a forwarder's 30 s drain: they gave up frames, and the
	# run stalled with readings missing.
	for s in 1 2 3; do
		"$D" forward --broker "127.0.0.1:$PORT" --gateway-id "gw$s" --shards $S --topic-prefix b \
			--input b/sent.bin 2>"b/fwd$s.err" &
		fwp="$fwp $!"
	done
	PIDS="$PIDS $fwp"
	for _ in $(seq 6000); do	# 10 minutes at most
		[ "$(nreadings b/sub.txt)" -lt $((sent / 3)) ] && kill -0 "$vb" 2>/dev/null || break
		sleep 0.1
	done
	rss_b=$(hwm "$vb")
	before=$(grep -c 'fleet: shard [0-9]* taken' b/va.err)
	n=$(nreadings b/sub.txt)
	kill -KILL "$vb"
	tk=$(now)
	wait "$vb" 2>/dev/null
	took=
	until_count b/va.err 'fleet: shard [0-9]* taken' $((before + held)) 600 &&
		took=$(elapsed "$tk" "$(now)")
	say "(b): verifier B (holding $held of $S shards) killed with SIGKILL after $n readings; A took them in ${took:-(not within 60)} s"
	for s in $fwp; do wait "$s"; done
	say "(b): the three forwarders are done: $(published b/fwd*.err)(published+dropped)"
	settle b/sub.txt "$sent" 20
	rss_a=$(hwm "$va")
	stop_pid "$va"
	stop_pid "$SUBP"
	t1=$(last_ts b/sub.txt)
	tt=$(elapsed "$t0" "$t1")
	plain b/sub.txt b/sub.plain
	read -r _ total _ distinct _ dups _ wrong <<<"$($FP readings b/sub.plain $B)"
	row "(b) 3 gateways hear every frame, verifier B killed (SIGKILL) at $n readings | 0 | 3 | 2 | $DEVICES | $sent | $distinct | $(ratio "$distinct" "$sent") | $dups | A $(mib "$rss_a"), B $(mib "$rss_b") | $(ratio "$((distinct / B))" "$tt" 1) | $tt"
	note "(b): b = g = $B (one epoch, one group a device), $S shards, lease $LEASE ms; B held $held shards, A took them ${took:-never (60 s)} s after the kill; $total deliveries, $wrong wrong; epochs/s: delivered readings / b over the seconds from the first frame to the last reading"
	[ "$wrong" = 0 ] && [ "$distinct" = "$sent" ] || fail=1
}

# ---- (c) one verifier holding many devices -------------------------------------
part_c() {
	local B=16 G=16 sent t0 t1 tt vp rss total distinct dups wrong ts tp prov
	ts=$(now)
	# One device after another: interleaved, every device's epoch would
	# be open at once, past --max-buffer (a 100,000-device run: 73,797
	# epochs rejected).
	provision c "$HOLD" $B $G || { say "(c): provisioning failed"; return 1; }
	tp=$(now)
	seal_all c "$HOLD" $B c/sent.bin cat || { say "(c): sealing failed"; return 1; }
	prov="provisioned in $(elapsed "$ts" "$tp") s, sealed in $(elapsed "$tp" "$(now)") s"
	say "(c): $HOLD devices $prov"
	sent=$((HOLD * B))
	subscriber c c/sub.txt
	"$D" open --software --state-dir c/st/0 --mqtt "127.0.0.1:$PORT" \
		--topic-prefix c --client-id ver-c 2>c/ver.err &
	vp=$!
	PIDS="$PIDS $vp"
	until_count c/ver.err 'subscribed to the frames' 1 100
	t0=$(now)
	# --input waits at --max-queue (its default, 10,000) for PUBACKs.
	"$D" forward --broker "127.0.0.1:$PORT" --gateway-id gw1 --topic-prefix c \
		--input c/sent.bin 2>c/fwd.err
	settle c/sub.txt "$sent" 20
	rss=$(hwm $vp)
	stop_pid $vp
	stop_pid "$SUBP"
	t1=$(last_ts c/sub.txt)
	tt=$(elapsed "$t0" "$t1")
	plain c/sub.txt c/sub.plain
	read -r _ total _ distinct _ dups _ wrong <<<"$($FP readings c/sub.plain $B)"
	row "(c) one verifier holding every device | 0 | 1 | 1 | $HOLD | $sent | $distinct | $(ratio "$distinct" "$sent") | $dups | $(mib "$rss") | $(ratio "$(epochs c/ver.err)" "$tt" 1) | $tt"
	note "(c): b = g = $B, one epoch a device ($prov, one provision --devices and one seal --devices run); $(grep 'open --mqtt:' c/ver.err | tail -1 | sed 's/^diamondctl: //'); max RSS $rss KiB = $(awk -v r="$rss" -v n="$HOLD" 'BEGIN { printf "%.0f", r * 1024 / n }') bytes a device"
	[ "$wrong" = 0 ] && [ "$distinct" = "$sent" ] || fail=1
}

for p in $PARTS; do
	case $p in
	a) part_a || fail=1 ;;
	b) part_b || fail=1 ;;
	c) part_c || fail=1 ;;
	*) say "unknown part $p"; exit 2 ;;
	esac
done

echo "| scenario | loss | gateways | verifiers | devices | readings sent | delivered | fraction | duplicates | verifier max RSS (MiB) | epochs/s | s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s' "$ROWS"
echo
echo "Seed $SEED; software path (open --software), no diamond.ko."
printf '%s' "$NOTES"
exit $fail
