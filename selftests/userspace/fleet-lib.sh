# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck shell=bash
#
# fleet-lib.sh: what the fleet tests (fleet*.sh) share, sourced after they
# set PY (python3), W (their scratch directory, the current one), MOSQ
# (mosquitto) and PIDS (what their exit trap stops).

# free_port [SOCK_STREAM|SOCK_DGRAM]: a port on 127.0.0.1 free right now.
free_port() {
	$PY -c 'import socket, sys
s = socket.socket(socket.AF_INET, getattr(socket, sys.argv[1]))
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' "${1:-SOCK_STREAM}"
}

# mosquitto_start PORT [VERIFIER_ACL [READER_ACL]]: Debian's mosquitto on
# 127.0.0.1:PORT with its own config, persistence directory, log
# ($W/mosquitto.log) and the passwords and ACL of Documentation/
# userspace.rst section 12 (users fwd, verifier and reader, password
# "pw-USER"; forwarders publish frames only, the verifier reads frames and
# publishes readings and events, applications read those), plus the
# lines VERIFIER_ACL and READER_ACL for those two users. Its PID in MP
# and PIDS; status 0 once it takes a message.
mosquitto_start() {
	local port=$1 u
	mkdir -p "$W/mosq"
	: >"$W/passwd"
	for u in fwd verifier reader; do mosquitto_passwd -b "$W/passwd" $u "pw-$u"; done
	cat >"$W/acl" <<ACL
user fwd
topic write diamond/frames/#

user verifier
topic read diamond/frames/#
topic write diamond/readings/#
topic write diamond/events/#
${2:-}

user reader
topic read diamond/readings/#
topic read diamond/events/#
${3:-}
ACL
	cat >"$W/mosquitto.conf" <<CONF
listener $port 127.0.0.1
allow_anonymous false
password_file $W/passwd
acl_file $W/acl
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
		mosquitto_pub -h 127.0.0.1 -p "$port" -u fwd -P pw-fwd -t probe -m x 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
