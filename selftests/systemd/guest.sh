#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# guest.sh: the guest's side of make check-systemd (selftests/systemd/
# systemd.sh), run as root by diamond-systemd-test.service after every boot
# of the Debian 12 VM whose PID 1 is systemd. /root/t/stage says which boot
# this is; each boot ends in `systemctl reboot`, the last in poweroff.
# Every result goes to ttyS1 (a file on the host) as
#   @@ok 0|1 DESCRIPTION      one TAP result (0: passed)
#   @@skip DESCRIPTION        one TAP result, a SKIP (with its reason)
#   @@diag TEXT               a comment
#   @@j JSON                  (last boot) a record the ingest delivered
#   @@end                     (last boot) the guest got to the end
# /root/t holds: the frame files P1.bin P2a.bin P2b.bin P3.bin .. P6.bin,
# expect (the cumulative record count after each phase, "PHASE N" lines),
# conf (MODE=dkms|prebuilt, V1, V2, KEYFILES), debs2/ (the bumped .debs).
# shellcheck disable=SC2016,SC1091,SC2086 # ok's checks are eval'ed; conf is written per cell
T=/root/t
exec >>/dev/ttyS1 2>&1
. $T/conf
stage=$(cat $T/stage 2>/dev/null || echo 1)
PORT=9741

ok() { # ok DESCRIPTION SHELL-CODE (eval'ed here, so functions work)
	if eval "$2" >$T/last.out 2>&1; then echo "@@ok 0 $1"; else
		echo "@@ok 1 $1"; sed 's/^/@@diag   /' $T/last.out | tail -n 15; fi
}
diag() { echo "@@diag $*"; }
skip() { echo "@@skip $*"; }
# Seconds since this boot's kernel started (where a boot's time goes).
uptime_s() { cut -d. -f1 /proc/uptime; }

# As the ingest's user, what the unit's KeyringMode=shared gives it: a
# session keyring of its own with its user keyring linked in. No sandbox:
# a stronger attacker than the sandboxed ingest. (setpriv and keyctl, not
# systemd-run: systemd-run --wait needs D-Bus, which minbase has not.)
as_diamond() {
	setpriv --reuid=_diamond --regid=_diamond --clear-groups \
		keyctl session - sh -c 'keyctl link @u @s >/dev/null && exec "$@"' sh "$@"
}

delivered() { journalctl -u diamond-ingest -o cat --no-pager 2>/dev/null | grep -c '"index"'; }
want() { sed -n "s/^$1 //p" $T/expect; }
# wait_count PHASE: until the journal holds the cumulative count of PHASE.
wait_count() {
	w=$(want "$1") i=0
	while [ "$(delivered)" -lt "$w" ] && [ $i -lt 120 ]; do sleep 1; i=$((i + 1)); done
	sleep 2	# anything more (delivered twice) would show now
	[ "$(delivered)" -eq "$w" ] || { echo "delivered $(delivered), want $w"; return 1; }
}
wait_active() {
	i=0
	until systemctl is-active -q diamond-ingest && ss -Huln "sport = :$PORT" | grep -q .; do
		i=$((i + 1)); [ $i -lt 120 ] || { systemctl status diamond-ingest --no-pager; return 1; }
		sleep 1
	done
}
# send PHASE: each frame of PHASE.bin as one datagram to the ingest.
send() {
	n=$(frametool list $T/$1.bin | wc -l)
	frametool send 127.0.0.1 $PORT $T/$1.bin $(seq 0 $((n - 1)))
}
# The journal lines of the ingest's current invocation.
this_run() {
	inv=$(systemctl show -p InvocationID --value diamond-ingest)
	journalctl -o cat --no-pager _SYSTEMD_INVOCATION_ID="$inv" + INVOCATION_ID="$inv"
}
custody_ok() { # the ingest runs in custody: never the "weaker" line
	systemctl is-active -q diamond-ingest && ! this_run | grep -q 'custody: weaker'
}
loader_ran() { # the unit's ExecStartPre loader exited 0 in this start
	systemctl show -p ExecStartPre diamond-ingest | grep 'keys load' | grep -q 'status=0'
}
# Key serials the ingest's user sees in /proc/keys, keyrings left out
# (its own keyrings list their links; KEYCTL_READ on one is not a secret).
diamond_keys() { as_diamond sh -c "awk '\$8 != \"keyring\" { print \$1 \" \" \$8 \" \" \$9 }' /proc/keys"; }

phase() { # phase NAME: send it, then wait for every record
	send "$1" && wait_count "$1"
}

case $stage in
1)
	echo "@@boot 1 $(uname -r)"
	diag "boot 1: the guest script starts $(uptime_s) s after the kernel did"
	ok "boot 1: PID 1 is systemd" '[ "$(cat /proc/1/comm)" = systemd ]'
	ok "boot 1: the system reached multi-user.target" 'systemctl is-active -q multi-user.target'
	ok "boot 1: modules-load.d loaded diamond and algif_aead" 'grep -q "^diamond " /proc/modules && grep -q "^algif_aead " /proc/modules'
	if [ "$MODE" = dkms ]; then
		ok "boot 1: dkms status: diamond/$V1 installed for $(uname -r) (apt install's postinst built it)" \
			'dkms status -m diamond -v $V1 -k $(uname -r) | grep -q ": installed"'
	else
		ok "boot 1: modprobe finds the matrix's prebuilt diamond.ko (updates/)" \
			'modinfo -n diamond | grep -q /updates/diamond.ko'
	fi
	ok "boot 1: diamondctl $V1 is installed (dpkg)" '[ "$(dpkg-query -W -f "\${Version}" diamondctl)" = "$V1" ]'
	ok "boot 1: the _diamond user exists (sysusers), the unit is installed and disabled" \
		'getent passwd _diamond && [ "$(systemctl is-enabled diamond-ingest)" = disabled ]'
	ok "boot 1: systemctl enable --now diamond-ingest" 'systemctl enable --now diamond-ingest'
	ok "boot 1: the ingest is active and listens on 127.0.0.1:$PORT" wait_active
	ok "boot 1: the loader (ExecStartPre keys load) ran and exited 0" loader_ran
	ok "boot 1: the ingest runs in custody (no 'custody: weaker' line)" custody_ok
	ok "boot 1: /var/lib/diamond is _diamond's, mode 0700" '[ "$(stat -c %U:%a /var/lib/diamond)" = _diamond:700 ]'
	ok "boot 1: phase P1 (whole epochs): every record delivered once" 'phase P1'
	# Half of an epoch, a restart, the rest: the spool keeps the half.
	ok "boot 1: phase P2: the first half of an epoch sent" 'send P2a'
	sleep 3
	ok "boot 1: systemctl restart diamond-ingest mid-epoch" 'systemctl restart diamond-ingest'
	ok "boot 1: after the restart: active, listening, the loader ran, in custody" 'wait_active && loader_ran && custody_ok'
	ok "boot 1: phase P2: the epoch's second half and tag after the restart: every record once" 'phase P2b'
	# The keys come back only through the loader: drop them; the ingest's
	# own command without the unit's ExecStartPre then fails in custody;
	# a start through the unit has them again.
	ok "boot 1: _diamond sees the loader's keys in /proc/keys (ingest running)" '[ -n "$(diamond_keys)" ]'
	ok "boot 1: systemctl stop diamond-ingest" 'systemctl stop diamond-ingest'
	ok "boot 1: as _diamond: keyctl clear @u (drops the link to the loader's keyring)" 'as_diamond keyctl clear @u'
	ok "boot 1: _diamond now sees no key in /proc/keys" '[ -z "$(diamond_keys)" ]'
	ok "boot 1: the ingest's command as _diamond without the loader stops: exit 3 (--custody, no keys)" \
		'as_diamond diamondctl open --custody --no-spool --state-dir /var/lib/diamond --input - <$T/P3.bin; [ $? -eq 3 ]'
	ok "boot 1: ... and delivered nothing" '[ "$(delivered)" -eq "$(want P2b)" ]'
	ok "boot 1: systemctl start: the loader puts the keys back, custody" \
		'systemctl start diamond-ingest && wait_active && loader_ran && custody_ok'
	ok "boot 1: phase P3 delivered after the keys came back" 'phase P3'
	diag "boot 1: done at $(uptime_s) s"
	echo 2 >$T/stage
	sync
	systemctl reboot
	;;
2|3)
	echo "@@boot $stage $(uname -r)"
	diag "boot $stage: the guest script starts $(uptime_s) s after the kernel did"
	ok "boot $stage: PID 1 is systemd, multi-user.target reached" \
		'[ "$(cat /proc/1/comm)" = systemd ] && systemctl is-active -q multi-user.target'
	ok "boot $stage: diamond-ingest started at boot (enabled), listening" wait_active
	ok "boot $stage: after the reboot (no key survives one) the loader (ExecStartPre) ran and exited 0" loader_ran
	ok "boot $stage: in custody" custody_ok
	if [ "$stage" = 2 ]; then
		ok "boot 2: phase P4 delivered" 'phase P4'
		diag "boot 2: done at $(uptime_s) s"
		echo 3 >$T/stage
		sync
		systemctl reboot
		exit 0
	fi
	ok "boot 3: phase P5 delivered" 'phase P5'
	# The upgrade, while the ingest runs.
	pid=$(systemctl show -p MainPID --value diamond-ingest)
	t0=$(date +%s)
	ok "boot 3: apt-get install of the $V2 packages while the ingest runs" \
		'DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $T/debs2/diamond-dkms_*.deb $T/debs2/libdiamond1_*.deb $T/debs2/diamondctl_*.deb'
	cp $T/last.out $T/upgrade.log
	diag "the upgrade took $(( $(date +%s) - t0 )) s"
	grep -iE 'dkms|Building|Installing|Signing|error' $T/upgrade.log | sed 's/^/@@diag   /' | tail -n 20
	# The package's postinst try-restarts a running ingest (debian/rules:
	# --restart-after-upgrade); it must not be left stopped.
	npid=$(systemctl show -p MainPID --value diamond-ingest)
	diag "ingest PID before the upgrade $pid, after $npid"
	ok "boot 3: the ingest is running after the upgrade, listening, in custody" 'wait_active && custody_ok'
	ok "boot 3: ... and runs the upgraded diamondctl (its /proc/PID/exe is not a deleted file)" \
		'e=$(readlink /proc/$npid/exe) && [ "$e" = /usr/bin/diamondctl ]'
	if [ "$MODE" = dkms ]; then
		ok "boot 3: dkms rebuilt the module in the VM: diamond/$V2 installed for $(uname -r), $V1 gone" \
			'dkms status -m diamond -v $V2 -k $(uname -r) | grep -q ": installed" && ! dkms status -m diamond -v $V1 | grep -q .'
		ok "boot 3: the module on disk is $V2's (modinfo -F version)" '[ "$(modinfo -F version diamond)" = "$V2" ]'
	else
		skip "boot 3: dkms rebuild for $(uname -r) # SKIP no headers for this kernel in the bookworm root (its kbuild tools need trixie's glibc): the prebuilt module stays"
	fi
	ok "boot 3: stop, module reload (modprobe -r diamond; modprobe diamond), start" \
		'systemctl stop diamond-ingest && modprobe -r diamond && modprobe diamond && systemctl start diamond-ingest && wait_active'
	if [ "$MODE" = dkms ]; then
		ok "boot 3: the loaded module is $V2's (/sys/module/diamond/version)" \
			'[ "$(cat /sys/module/diamond/version)" = "$V2" ]'
	fi
	ok "boot 3: diamondctl $V2 is installed (dpkg)" '[ "$(dpkg-query -W -f "\${Version}" diamondctl)" = "$V2" ]'
	ok "boot 3: after the upgrade: the loader ran, in custody" 'loader_ran && custody_ok'
	ok "boot 3: phase P6 delivered after the upgrade" 'phase P6'

	# The compromised gateway: what the ingest's user reaches.
	keys=$(diamond_keys)
	diag "keys _diamond sees in /proc/keys: $(echo "$keys" | tr '\n' ';')"
	ok "probe: as _diamond, keyctl show @us walks its keyrings" 'as_diamond keyctl show @us'
	# (The device keys are loaded only when a device's wrapped state is
	# behind the key directory's; diamond:wrap is always there.)
	ok "probe: _diamond sees the loader's keys in /proc/keys (diamond:wrap among them)" \
		'echo "$keys" | grep -q " diamond:wrap"'
	for s in $(echo "$keys" | awk '{ print $1 }'); do
		ok "probe: as _diamond, KEYCTL_READ of key $s ($(echo "$keys" | awk -v s=$s '$1 == s { print $2 " " $3 }')) fails" \
			'! as_diamond keyctl read $((0x$s))'
	done
	ok "probe: as _diamond, keyctl search finds diamond:wrap and cannot read it" \
		'k=$(as_diamond sh -c "for t in logon diamond user; do keyctl search @us \$t diamond:wrap 2>/dev/null && break; done") && [ -n "$k" ] && ! as_diamond keyctl read "$k"'
	ok "probe: as _diamond, listing /var/lib/diamond-keys fails" '! as_diamond ls /var/lib/diamond-keys'
	for f in $KEYFILES wrap.key; do
		ok "probe: as _diamond, reading /var/lib/diamond-keys/$f fails" \
			'[ -e /var/lib/diamond-keys/$f ] && ! as_diamond cat /var/lib/diamond-keys/$f'
	done
	# The by-serial attack (selftests/userspace/custody_probe.c, issue 34
	# item 2): every key _diamond reaches tried on every /proc/crypto
	# algorithm by serial, every state of /var/lib/diamond unwrapped
	# with what chacha20 took. It must see keys, accept none, unwrap none.
	if [ -x /usr/local/bin/custody_probe ] && /usr/local/bin/custody_probe 2>&1 | grep -q serial; then
		t0=$(date +%s)
		as_diamond /usr/local/bin/custody_probe serial /var/lib/diamond >$T/serial.txt 2>&1
		diag "the serial probe took $(( $(date +%s) - t0 )) s"
		sed 's/^/@@diag probe: /' $T/serial.txt
		ok "probe: as _diamond, custody_probe serial: keys seen, none accepted by any algorithm, no state unwrapped" \
			'grep -qE "^serial keys [1-9][0-9]* .* tried [1-9][0-9]* accepted 0$" $T/serial.txt && grep -qE "unwrapped 0 of [1-9][0-9]* blobs hits 0" $T/serial.txt'
	else
		skip "probe: custody_probe serial as _diamond # SKIP this custody_probe has no 'serial' attack yet"
	fi
	journalctl -u diamond-ingest -o cat --no-pager | grep '"index"' | sed 's/^/@@j /'
	journalctl -u diamond-ingest -o cat --no-pager | grep -v '"index"' | tail -n 30 | sed 's/^/@@diag ingest: /'
	diag "boot 3: done at $(uptime_s) s"
	echo 4 >$T/stage
	echo "@@end"
	sync
	systemctl poweroff
	;;
*)
	systemctl poweroff
	;;
esac
