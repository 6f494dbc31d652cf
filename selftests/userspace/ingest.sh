#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-ingest: the gateway (diamondctl open --software) under the
# input a network and its operators give it: lying datagrams, duplicated
# and reordered frames, memory floods, restarts, junk floods, IPv6, a
# serial port that goes away. Each test names the item of issue 10 it
# covers. Environment: D (diamondctl), FT (build/userspace/frametool).
set -u
D=${D:?}
FT=${FT:?}
W=$(mktemp -d /tmp/diamond-ingest.XXXXXX)
PIDS=
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$W"' EXIT
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../lib" && pwd)/tap.sh"
port() { echo $(( 20000 + RANDOM % 30000 )); }
records() { grep -c '"index"' "$1" 2>/dev/null || true; }

echo "TAP version 13"
cd "$W" || exit 1

"$D" keygen -o root >/dev/null 2>&1
"$D" provision --root root --device 7 --suite 2 --agg xor --b 4 \
	--blob dev7.bin --state-dir st >/dev/null 2>&1
cp -r st st.orig
fresh() { rm -rf st && cp -r st.orig st; }
# 40 records, b = 4: epochs 0..9, frames 5k..5k+3 records, 5k+4 tag.
seq 1 40 | sed 's/^/rec-/' | "$D" seal --blob dev7.bin >f7.bin 2>/dev/null

# Start a UDP gateway on @1 (address) with the rest as options; wait for it.
start_udp() {
	local addr=$1; shift
	P=$(port)
	# 127.0.0.1 is the default: no --bind, so older gateways run too.
	[ "$addr" = 127.0.0.1 ] || set -- --bind "$addr" "$@"
	"$D" open --state-dir st --software --udp "$P" "$@" \
		>udp.json 2>udp.err &
	GW=$!
	PIDS="$PIDS $GW"
	for _ in $(seq 50); do
		ss -uln 2>/dev/null | grep -q ":$P " && return 0
		sleep 0.05
	done
	sleep 0.3
}
stop_gw() { kill -TERM "$GW" 2>/dev/null; wait "$GW" 2>/dev/null; }
epochs() { local e s=""; for e in $(seq "$1" "$2"); do
	s="$s $((5 * e)),$((5 * e + 1)),$((5 * e + 2)),$((5 * e + 3)),$((5 * e + 4))"; done; echo $s; }

# ---- item 6: each datagram parsed on its own -------------------------
fresh
start_udp 127.0.0.1
"$FT" send 127.0.0.1 "$P" f7.bin L $(epochs 0 9)
sleep 0.5
stop_gw
check "item 6: a 20-byte datagram claiming L=4096 swallows nothing: 40 of 40 records" \
	[ "$(records udp.json)" -eq 40 ]
check "item 6: the lying datagram is reported as a truncated frame" grep -q 'truncated frame' udp.err
fresh
start_udp 127.0.0.1
# A lying header in front of valid frames in the same datagram, then more.
"$FT" send 127.0.0.1 "$P" f7.bin "0,1,2,3,4,L" $(epochs 1 9)
sleep 0.5
stop_gw
check "item 6: a lying tail of one datagram costs the next datagrams nothing" \
	[ "$(records udp.json)" -eq 40 ]

# ---- item 7: a window for duplicates, reordering and a late tag ------
order_test() {
	local what=$1; shift
	fresh
	"$FT" pick f7.bin "$@" >ord.bin
	"$D" open --state-dir st --software --input ord.bin >ord.json 2>ord.err
	local rc=$?
	if [ "$(records ord.json)" -eq 8 ] && [ $rc -eq 0 ]; then
		ok 0 "item 7: $what: 8 of 8 records, exit 0"
	else
		ok 1 "item 7: $what: 8 of 8 records, exit 0 (got $(records ord.json), exit $rc)"
		sed 's/^/# /' ord.err
	fi
}
order_test "late duplicate of verified epoch 0's tag while epoch 1 assembles" \
	0 1 2 3 4 5 6 4 7 8 9
order_test "epoch 0's tag after epoch 1's records began" 0 1 2 3 5 6 4 7 8 9
order_test "tag frames before their records" 4 0 1 2 3 9 5 6 7 8
order_test "every frame twice, records reversed" 3 3 2 2 1 1 0 0 4 4 8 7 6 5 9 9
order_test "records of epochs 0 and 1 interleaved" 0 5 1 6 2 7 3 8 4 9
fresh
# A copy of the last verified epoch's tag is a duplicate, counted as a
# dropped frame; an older epoch again is a replay and reported.
"$FT" pick f7.bin 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 >replay.bin
"$D" open --state-dir st --software --input replay.bin >rp.json 2>rp.err; rc=$?
check "item 7: a replay of an older verified epoch is still reported (exit 1)" \
	sh -c "[ $rc -eq 1 ] && [ \$(grep -c '\"index\"' rp.json) -eq 8 ] && grep -q 'epoch 0 rejected: epoch older' rp.err"

# ---- item 8: bounded memory, dropped frames counted ------------------
"$FT" states big 200 65535 2>/dev/null
"$FT" mix 200 65535 5 65534 4096 0 >mix.bin
rss=$("$FT" rss "$D" open --state-dir big --software --input mix.bin 2>mix.err)
check "item 8: 200 devices x 5 epochs of one frame at index 65534: max RSS ${rss} KiB < 64 MiB" \
	[ "${rss:-999999}" -lt 65536 ]
"$D" open --state-dir big --software --input mix.bin --metrics big.prom >/dev/null 2>&1
check "item 8: evicted epochs counted as dropped frames in the metrics" \
	sh -c "grep -q '^diamond_frames_dropped_total [1-9]' big.prom && grep -q 'diamond_epochs_rejected_total{reason=\"evicted\"} [1-9]' big.prom"
check "item 8: the buffer is back to empty at the end" grep -q '^diamond_buffered_bytes 0$' big.prom
rss=$("$FT" rss "$D" open --state-dir big --software --input mix.bin \
	--max-buffer 4 --no-spool 2>/dev/null); rc=$?
check "item 8: --max-buffer 4: max RSS ${rss} KiB < 16 MiB" \
	sh -c "[ $rc -ne 2 ] && [ ${rss:-999999} -lt 16384 ]"
# The issue's other case, scaled to 1,000 devices so that the unbounded
# gateway of old needs about 512 MB and not the 1 GB of 2,000.
"$FT" states many 1000 65535 2>/dev/null
"$FT" mix 1000 65535 1 65534 0 0 >many.bin
rss=$("$FT" rss "$D" open --state-dir many --software --input many.bin 2>/dev/null)
check "item 8: 1,000 devices, one header-only frame each at index 65534: max RSS ${rss} KiB < 64 MiB" \
	[ "${rss:-999999}" -lt 65536 ]

# ---- item 10: spool across a restart, quarantine ---------------------
fresh
start_udp 127.0.0.1
"$FT" send 127.0.0.1 "$P" f7.bin 0 1
sleep 0.3
stop_gw
check "item 10: the open epoch's frames are in the spool after SIGTERM" test -s st/spool/frames
"$FT" pick f7.bin 2 3 4 >rest.bin
"$D" open --state-dir st --software --input rest.bin >sp.json 2>sp.err; rc=$?
check "item 10: a restarted open takes them up: 4 of 4 records, exit 0" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c '\"index\"' sp.json) -eq 4 ]"
check "item 10: it says so" grep -q 'taken up from the spool' sp.err
check "item 10: the spool is empty once nothing is open" sh -c '[ -e st/spool/frames ] && [ ! -s st/spool/frames ]'
# The same after SIGKILL: the spool was fsync'd after each datagram.
fresh
start_udp 127.0.0.1
"$FT" send 127.0.0.1 "$P" f7.bin 0 1 2
sleep 0.3
kill -KILL "$GW"; wait "$GW" 2>/dev/null
"$FT" pick f7.bin 3 4 >rest.bin
"$D" open --state-dir st --software --input rest.bin >sk.json 2>/dev/null; rc=$?
check "item 10: after SIGKILL a restarted open still has them: 4 of 4 records" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c '\"index\"' sk.json) -eq 4 ]"
# An epoch with record 1 missing: rejected at the end, quarantined; fed
# again with the missing frame, it verifies.
fresh
"$FT" pick f7.bin 0 2 3 4 >hole.bin
"$D" open --state-dir st --software --input hole.bin >/dev/null 2>&1
q=$(ls st/quarantine/*-7-0-incomplete.frames 2>/dev/null | head -n1)
check "item 10: the incomplete epoch is in the quarantine" test -s "$q"
"$FT" pick f7.bin 1 >missing.bin
cat missing.bin "$q" >refeed.bin
"$D" open --state-dir st --software --input refeed.bin >rq.json 2>/dev/null
check "item 10: the quarantined frames fed again with the missing one: 4 records" \
	[ "$(records rq.json)" -eq 4 ]
fresh
"$D" open --state-dir st --software --quarantine-max 0 --input hole.bin >/dev/null 2>&1; rc=$?
check "item 10: --quarantine-max 0 keeps none" sh -c "[ $rc -eq 1 ] && [ -z \"\$(ls st/quarantine 2>/dev/null)\" ]"

# ---- item 15: rate-limited messages ----------------------------------
fresh
"$FT" pick f7.bin 0 >one.bin
for i in $(seq 1000); do printf 'zz'; cat one.bin; done >junk.bin
"$D" open --state-dir st --software --input junk.bin >/dev/null 2>junk.err
lines=$(wc -l <junk.err)
check "item 15: 1000 junk segments give $lines stderr lines (< 30)" [ "$lines" -lt 30 ]
check "item 15: the suppressed lines are counted" grep -q 'suppressed' junk.err
"$D" open --state-dir st --software --log-rate 0 --input junk.bin >/dev/null 2>junk0.err
check "item 15: --log-rate 0 shows all 1000" [ "$(grep -c 'without frame sync' junk0.err)" -eq 1000 ]

# ---- item 18: --bind, IPv4 and IPv6 ----------------------------------
for addr in 127.0.0.1 ::1; do
	fresh
	if ! start_udp "$addr"; then :; fi
	if ! kill -0 "$GW" 2>/dev/null && grep -q 'Address family\|Cannot assign' udp.err; then
		skip "item 18: --bind $addr" "no such address here"
		continue
	fi
	"$FT" send "$addr" "$P" f7.bin $(epochs 0 1)
	sleep 0.3
	stop_gw
	check "item 18: --bind $addr: 8 records received" [ "$(records udp.json)" -eq 8 ]
done
check "item 18: a bad --bind is a setup error naming it" \
	sh -c "'$D' open --state-dir st --software --udp 1 --bind 'not-an-address' 2>&1 | grep -q -- \"--bind 'not-an-address'\""

# ---- item 19: the serial reader reconnects ---------------------------
fresh
mkfifo tty0
"$D" open --state-dir st --software --serial tty0 >ser.json 2>ser.err &
GW=$!
PIDS="$PIDS $GW"
"$FT" pick f7.bin 0 1 2 3 4 >e0.bin
"$FT" pick f7.bin 5 6 7 8 9 >e1.bin
timeout 5 sh -c 'cat e0.bin >tty0'
sleep 0.3
rm -f tty0
sleep 0.3
mkfifo tty0
timeout 5 sh -c 'cat e1.bin >tty0'
sleep 0.5
stop_gw
check "item 19: frames before and after the port went away: 8 records" \
	[ "$(records ser.json)" -eq 8 ]
check "item 19: the reconnect is reported" grep -q 'reconnected' ser.err

# ---- metrics and JSON errors -----------------------------------------
fresh
"$FT" pick f7.bin 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 >m.bin
"$D" open --state-dir st --software --input m.bin --metrics m.prom >/dev/null 2>&1
check "metrics: totals in Prometheus text format" sh -c \
	"grep -q '^# TYPE diamond_epochs_verified_total counter' m.prom && grep -q '^diamond_epochs_verified_total 2$' m.prom && grep -q '^diamond_records_total 8$' m.prom"
check "metrics: per device: verified, last epoch, rejected by reason, bytes" sh -c \
	"grep -q '^diamond_device_epochs_verified_total{device=\"7\"} 2$' m.prom && grep -q '^diamond_device_last_epoch{device=\"7\"} 1$' m.prom && grep -q '^diamond_device_epochs_rejected_total{device=\"7\",reason=\"replay\"} 1$' m.prom && grep -q '^diamond_device_bytes_total{device=\"7\"} [1-9]' m.prom"
check "metrics: frames dropped counted (the replayed records)" grep -q '^diamond_frames_dropped_total 5$' m.prom
fresh
start_udp 127.0.0.1 --metrics-socket "$W/m.sock"
"$FT" send 127.0.0.1 "$P" f7.bin $(epochs 0 0)
sleep 0.3
"$FT" scrape "$W/m.sock" >scrape.txt 2>/dev/null
stop_gw
check "metrics: served on a unix socket" grep -q '^diamond_device_epochs_verified_total{device="7"} 1$' scrape.txt
fresh
cp f7.bin forged.bin
printf '\x55' | dd of=forged.bin bs=1 seek=22 conv=notrunc 2>/dev/null
"$D" open --state-dir st --software --json-errors --input forged.bin >/dev/null 2>je.err
check "--json-errors: the rejection as a JSON line with device, epoch, reason" \
	grep -q '^{"error":"device 7 epoch 0 rejected: bad tag[^"]*","command":"open","kind":"rejected","device":7,"epoch":0,"reason":"bad_tag"}$' je.err
check "--json-errors: every stderr line is a JSON object" sh -c "! grep -v '^{.*}$' je.err"
"$D" --json-errors open --state-dir nowhere/st --software --input forged.bin >/dev/null 2>je2.err
check "--json-errors before the command: setup errors too" \
	grep -q '^{"error":"state directory nowhere/st: [^"]*","command":"open","kind":"setup"}$' je2.err

tap_end
