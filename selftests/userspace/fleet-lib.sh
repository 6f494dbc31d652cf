# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck shell=bash
#
# fleet-lib.sh: what the fleet tests (fleet*.sh) share, sourced after they
# set D (diamondctl), PY (python3), W (their scratch directory, the
# current one) and PIDS (what their exit trap stops); MOSQ (mosquitto)
# comes from fleet_needs.

# fleet_needs NAME: MOSQ, Debian's mosquitto; or, when it, its clients or
# diamondctl's MQTT are missing, NAME as a loud skip, and the test ends.
fleet_needs() {
	MOSQ=$(command -v mosquitto || echo /usr/sbin/mosquitto)
	if [ ! -x "$MOSQ" ] || ! command -v mosquitto_sub >/dev/null ||
	   ! command -v mosquitto_pub >/dev/null || ! "$D" forward --help >/dev/null 2>&1; then
		skip "$1" "needs mosquitto, mosquitto-clients and diamondctl with MQTT (libmosquitto-dev): make deps"
		tap_end
		exit
	fi
}

# free_port [SOCK_STREAM|SOCK_DGRAM]: a port on 127.0.0.1 free right now.
free_port() {
	$PY -c 'import socket, sys
s = socket.socket(socket.AF_INET, getattr(socket, sys.argv[1]))
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' "${1:-SOCK_STREAM}"
}

# broker_start PORT SETTINGS [PROBE...]: Debian's mosquitto on
# 127.0.0.1:PORT with its own config: SETTINGS (the lines of its
# authentication or TLS), persistence in $W/mosq, no limit on the queue of
# a client that is away, a log in $W/mosquitto.log. Its PID in MP and
# PIDS; status 0 once `mosquitto_pub PROBE...` gets a message through.
broker_start() {
	local port=$1 settings=$2
	shift 2
	mkdir -p "$W/mosq"
	cat >"$W/mosquitto.conf" <<CONF
listener $port 127.0.0.1
$settings
user $(id -un)
persistence true
persistence_location $W/mosq/
max_queued_messages 0
log_dest file $W/mosquitto.log
CONF
	"$MOSQ" -c "$W/mosquitto.conf" 2>"$W/mosq.err" &
	MP=$!
	PIDS="$PIDS $MP"
	for _ in $(seq 50); do
		mosquitto_pub -h 127.0.0.1 -p "$port" "$@" -t probe -m x 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# mosquitto_start PORT [VERIFIER_ACL [READER_ACL]]: broker_start with the
# passwords and ACL of Documentation/userspace.rst section 12 (users fwd,
# verifier and reader, password "pw-USER"; forwarders publish frames and
# packets only, the verifier reads them and publishes readings and events,
# applications read those), plus the lines VERIFIER_ACL and READER_ACL
# for those two users.
mosquitto_start() {
	local port=$1 u
	: >"$W/passwd"
	for u in fwd verifier reader; do mosquitto_passwd -b "$W/passwd" $u "pw-$u"; done
	cat >"$W/acl" <<ACL
user fwd
topic write diamond/frames/#
topic write diamond/packets/#

user verifier
topic read diamond/frames/#
topic read diamond/packets/#
topic write diamond/readings/#
topic write diamond/events/#
${2:-}

user reader
topic read diamond/readings/#
topic read diamond/events/#
${3:-}
ACL
	broker_start "$port" "allow_anonymous false
password_file $W/passwd
acl_file $W/acl" -u fwd -P pw-fwd
}
