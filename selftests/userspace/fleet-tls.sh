#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-fleet-tls (issue 31 item 4): the fleet over TLS with a test CA.
# openssl makes a throwaway CA, a server certificate for 127.0.0.1 (its
# subjectAltName, which libmosquitto checks against --broker's host), a
# client certificate, and a second CA that signed nothing here; nothing
# is committed. Debian's mosquitto, started here on 127.0.0.1, has one TLS
# listener that requires a client certificate (require_certificate).
#
#   - forward --cafile --cert --key and open --mqtt with the same: one
#     device's 64 readings delivered, each once by ID, content sealed;
#   - the wrong CA (forward, open --mqtt): the broker's certificate does
#     not verify; exit 3, "certificate verify failed", no summary line;
#   - no client certificate: the broker refuses the handshake, exit 3;
#   - plaintext (forward, mosquitto_pub) against the TLS listener: no
#     connection; forward exits 3 and says the broker closed the
#     connection before its CONNACK;
#   - forward to a port where nothing listens: exit 3, "Connection
#     refused", no summary line.
#
# Environment: D (diamondctl).
set -u
D=${D:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib/tap.sh"
. "$HERE/fleet-lib.sh"
echo "TAP version 13"
MOSQ=$(command -v mosquitto || echo /usr/sbin/mosquitto)
why=
command -v openssl >/dev/null || why="needs openssl"
{ [ -x "$MOSQ" ] && command -v mosquitto_sub >/dev/null; } || why="needs mosquitto and mosquitto-clients: make deps"
"$D" forward --help >/dev/null 2>&1 || why="needs diamondctl with MQTT (libmosquitto-dev): make deps"
if [ -n "$why" ]; then
	for t in "TLS: the fleet" "TLS: wrong CA, forward" "TLS: wrong CA, open --mqtt" \
		 "TLS: no client certificate" "TLS: plaintext forward" "TLS: plaintext mosquitto_pub" \
		 "no broker" "TLS: only clients with certificates connected"; do
		skip "$t" "$why"
	done
	tap_end
	exit
fi

PY=$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
FP="$PY $HERE/fleet.py"
W=$(mktemp -d /tmp/diamond-fleet-tls.XXXXXX)
PIDS=
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$W"' EXIT
cd "$W" || exit 1

# The test CA and its certificates (P-256: quick to make).
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
for k in ca other server client; do key $k.key; done
openssl req -x509 -new -key ca.key -out ca.crt -days 1 -subj /CN=diamond-test-ca 2>/dev/null
openssl req -x509 -new -key other.key -out other.crt -days 1 -subj /CN=diamond-other-ca 2>/dev/null
sign() {	# sign NAME SUBJECT EXTENSIONS
	openssl req -new -key "$1.key" -out "$1.csr" -subj "$2" 2>/dev/null
	printf '%s\n' "$3" >"$1.ext"
	openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial \
		-out "$1.crt" -days 1 -extfile "$1.ext" 2>/dev/null
}
sign server /CN=127.0.0.1 "subjectAltName=IP:127.0.0.1"
sign client /CN=diamond-fleet "extendedKeyUsage=clientAuth"
TLS="--cafile $W/ca.crt --cert $W/client.crt --key $W/client.key"

PORT=$(free_port)
# shellcheck disable=SC2086 # $TLS is the clients' options, split on purpose
broker_start "$PORT" "cafile $W/ca.crt
certfile $W/server.crt
keyfile $W/server.key
require_certificate true
allow_anonymous true
log_type all" $TLS

"$D" keygen -o root >/dev/null 2>&1
"$D" provision --root root --device 1 --suite 2 --agg xor --b 32 --group-size 16 \
	--blob d1.blob --state-dir st >/dev/null 2>&1
seq -f "d1 r%g" 0 63 | "$D" seal --blob d1.blob >f1.bin 2>/dev/null

# ---- the fleet over TLS ------------------------------------------------------
mosquitto_sub -h 127.0.0.1 -p "$PORT" $TLS -q 1 -v -i tls-test-sub -t 'diamond/readings/#' >sub.txt 2>sub.err &
PIDS="$PIDS $!"
"$D" open --software --state-dir st --mqtt 127.0.0.1:$PORT $TLS --client-id tls-verifier 2>verifier.err &
VP=$!
PIDS="$PIDS $VP"
# Its first session: frames published before its SUBSCRIBE would not wait.
for _ in $(seq 100); do
	grep -q 'Received SUBSCRIBE from tls-verifier' mosquitto.log &&
		grep -q 'Received SUBSCRIBE from tls-test-sub' mosquitto.log && break
	sleep 0.1
done
"$D" forward --broker 127.0.0.1:$PORT $TLS --gateway-id gw1 --input f1.bin 2>fwd.err
fst=$?
for _ in $(seq 100); do
	[ "$(grep -c '^diamond/readings/' sub.txt)" -ge 64 ] && break
	sleep 0.2
done
kill $VP
wait $VP
vst=$?
read -r _ _ _ distinct _ dups _ wrong <<<"$($FP readings sub.txt 32 1)"
check "TLS with client certificates: forward and open --mqtt deliver all 64 readings once each by ID, sealed content ($distinct, $dups twice, $wrong wrong; exit $fst and $vst)" \
	test "$distinct" = 64 -a "$dups" = 0 -a "$wrong" = 0 -a "$fst" = 0 -a "$vst" = 0

# ---- refused -----------------------------------------------------------------
# refused NAME CMD...: exit 3 with an "mqtt: broker" message, no summary.
refused() {
	local name=$1 st
	shift
	timeout 30 "$@" </dev/null >/dev/null 2>"$name.err"
	st=$?
	[ $st = 3 ] && grep -q 'mqtt: broker 127.0.0.1 port' "$name.err" &&
		! grep -q 'frames published\|messages,' "$name.err"
}
check "TLS, the wrong CA: forward exits 3, the broker's certificate does not verify, no summary" \
	sh -c "$(declare -f refused); refused wrongca-fwd '$D' forward --broker 127.0.0.1:$PORT \
		--cafile $W/other.crt --cert $W/client.crt --key $W/client.key --gateway-id gw2 --input f1.bin &&
		grep -q 'certificate verify failed' wrongca-fwd.err"
check "TLS, the wrong CA: open --mqtt exits 3, the broker's certificate does not verify" \
	sh -c "$(declare -f refused); refused wrongca-open '$D' open --software --state-dir st \
		--mqtt 127.0.0.1:$PORT --cafile $W/other.crt --cert $W/client.crt --key $W/client.key &&
		grep -q 'certificate verify failed' wrongca-open.err"
check "TLS without a client certificate: the broker refuses the handshake, forward exits 3" \
	sh -c "$(declare -f refused); refused nocert '$D' forward --broker 127.0.0.1:$PORT \
		--cafile $W/ca.crt --gateway-id gw3 --input f1.bin"
check "plaintext forward against the TLS listener: exit 3, closed before the CONNACK" \
	sh -c "$(declare -f refused); refused plain '$D' forward --broker 127.0.0.1:$PORT \
		--gateway-id gw4 --input f1.bin && grep -q 'closed the connection before its CONNACK' plain.err"
check "plaintext mosquitto_pub against the TLS listener cannot publish" \
	sh -c "! timeout 10 mosquitto_pub -h 127.0.0.1 -p $PORT -q 1 -t diamond/frames/0/x -m x"
NOPORT=$(free_port)
check "forward to a port where nothing listens: exit 3, Connection refused, no summary" \
	sh -c "$(declare -f refused); refused noport '$D' forward --broker 127.0.0.1:$NOPORT \
		--gateway-id gw5 --input f1.bin && grep -q 'Connection refused' noport.err"
check "mosquitto connected none of the refused clients (its own log)" \
	sh -c "grep -q 'New client connected.* as tls-verifier ' mosquitto.log &&
	       ! grep -q 'New client connected.* as \(diamond-fwd-gw[2-5]\|diamond-verifier-all-of-1\) ' mosquitto.log"
for f in wrongca-fwd wrongca-open nocert plain noport; do
	echo "# $f: $(sed 's/^diamondctl: //' $f.err 2>/dev/null | head -n 1)"
done
echo "# elapsed ${SECONDS} s"
tap_end
