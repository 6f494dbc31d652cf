#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# deb.sh HOST_TAP KAT_TAP: the Debian packages end to end, on this host.
# Builds them (tools/deb/build-debs) and runs lintian (no tag allowed,
# down to pedantic and info; overrides are in debian/*.lintian-overrides).
# Installs all four with apt-get install, as the README does (diamond-dkms's postinst has dkms build
# the module for the kernel headers installed here), checks
# what each installed, builds a program against the installed
# libdiamond-dev, runs the installed diamondctl (provision, seal, open
# --software), then boots KVER in the VM with the module dkms installed and
# the installed diamondctl with its shared libraries: the kernel KATs
# (KAT_TAP) and open through the kernel must give what the software path
# gave. Finally dpkg --purge, and the host is left as it was (the dkms MOK
# key pair and the _diamond user are removed if this run created them).
# Needs root. Minutes: not part of make check (make check-deb).
# Environment: TOP, BUILD, KVER, US_VERSION, KAT_PROBE, KAT_DRIVER1/2.
set -u
TOP=${TOP:?} BUILD=${BUILD:?} KVER=${KVER:-} US_VERSION=${US_VERSION:?}
HOST_TAP=${1:?} KAT_TAP=${2:?}
. "$TOP/selftests/install/lib.sh"
W=$(mktemp -d /tmp/diamond-deb.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
PKGS=(diamond-dkms libdiamond1 libdiamond-dev diamondctl)
V=$US_VERSION
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

purge() { dpkg --purge "${PKGS[@]}" >purge.log 2>&1; }

run() {
	echo "TAP version 13"
	if [ "$(id -u)" -ne 0 ]; then
		skip "Debian packages" "dpkg -i needs root"
		return
	fi
	local changes debs=() d
	changes=$(BUILD=$BUILD "$TOP/tools/deb/build-debs" 2>build.err)
	ok $? "dpkg-buildpackage -us -uc -b ($BUILD/deb/build.log)"
	diag <build.err
	for d in "${PKGS[@]}"; do
		d=$(ls "$BUILD"/deb/"${d}"_"${V}"_*.deb 2>/dev/null) && debs+=("$d")
	done
	check "four packages: ${PKGS[*]}" [ ${#debs[@]} -eq 4 ]
	lintian --pedantic --display-info "$changes" >lintian.log 2>&1
	check "lintian --pedantic --display-info: no tag (one justified override)" \
		sh -c "! grep -q '^[EWIPX]:' lintian.log"
	diag <lintian.log

	# What was there before, to leave it so.
	local had_mok=0 had_user=0
	[ -e /var/lib/dkms/mok.key ] && had_mok=1
	getent passwd _diamond >/dev/null && had_user=1
	purge
	# As the README says: apt installs what the packages depend on.
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		"${debs[@]}" >dpkg.log 2>&1
	ok $? "apt-get install ./${PKGS[*]}"
	grep -E 'Building|Signing|Installing|Error|error' dpkg.log | diag
	check "dkms status: diamond/$V installed for $KVER" \
		sh -c "dkms status -m diamond -v $V -k $KVER | grep -q ': installed'"
	local ko=/lib/modules/$KVER/updates/dkms/diamond.ko
	check "$ko has vermagic $KVER" sh -c "/sbin/modinfo -F vermagic $ko | grep -q '^$KVER '"
	check "it is signed with the dkms MOK key, /var/lib/dkms/mok.pub" sigcheck "$ko" /var/lib/dkms/mok.pub
	check "modprobe finds it (modules.dep)" /sbin/modprobe -n -S "$KVER" diamond
	check "modules-load.d: diamond and algif_aead at boot" \
		sh -c "grep -v '^#' /usr/lib/modules-load.d/diamond.conf | tr '\n' ' ' | grep -qx 'diamond algif_aead '"
	check "the _diamond system user exists (sysusers)" getent passwd _diamond
	check "diamond-ingest.service installed, not enabled" \
		sh -c "[ -f /lib/systemd/system/diamond-ingest.service ] &&
		       ! ls /etc/systemd/system/*.wants/diamond-ingest.service 2>/dev/null"
	check "libdiamond.so.1 is in the linker cache" sh -c "ldconfig -p | grep -q 'libdiamond.so.1 .*$MA'"

	# shellcheck disable=SC2046
	probe_all $(pkg-config --cflags --libs libdiamond) >probe.out 2>&1
	ok $? "a program built with the installed libdiamond.pc runs on the installed library"
	diag <probe.out
	check "it loads the packaged /usr/lib/$MA/libdiamond.so.1" \
		sh -c "ldd ./probe | grep -Eq '=> (/usr)?/lib/$MA/libdiamond.so.1 '"
	mkdir rt
	(cd rt && roundtrip /usr/bin/diamondctl) >rt.log 2>&1
	ok $? "installed diamondctl: keygen, provision, seal, open --software round trip"
	diag <rt.log

	# The VM: dkms's module, and /usr/bin/diamondctl with the libraries it
	# loads here, at the same paths.
	local files=(--file /usr/bin/diamondctl:/usr/bin/diamondctl
		     --file "$W/rt/st.orig:/w/st" --file "$W/rt/frames.bin:/w/frames.bin") lib
	for lib in $(ldd /usr/bin/diamondctl | grep -o '/[^ ]*'); do
		files+=(--file "$(readlink -f "$lib"):$lib")
	done
	vm_kat "$ko" "$KAT_TAP" "${files[@]}" -- \
		'diamondctl open --state-dir /w/st --input /w/frames.bin >/w/o.json 2>/w/e.txt;
		 echo "rc=$?"; cat /w/e.txt; cat /w/o.json'
	ok $? "VM on $KVER: the installed module loads and is named in /proc/crypto (KATs: deb-kat)"
	grep '^{' guest.out >got.json
	check "VM: installed diamondctl opens through the kernel (exit 0, 'open (kernel)')" \
		sh -c "grep -qx 'rc=0' guest.out && grep -q 'open (kernel)' guest.out"
	check "VM: the kernel path gives every record the software path gave" \
		sh -c "[ -s got.json ] && cmp -s got.json rt/expect.json"
	grep -v '^{' guest.out | diag

	purge
	ok $? "dpkg --purge ${PKGS[*]}"
	check "dkms knows diamond no more" sh -c "! dkms status -m diamond | grep -q ."
	check "no diamond.ko left under /lib/modules/$KVER" \
		sh -c "! find /lib/modules/$KVER -name 'diamond.ko*' | grep -q ."
	check "/usr/src/diamond-$V, the library, diamondctl and the unit are gone" \
		sh -c "[ ! -e /usr/src/diamond-$V ] && [ ! -e /usr/lib/$MA/libdiamond.so.1 ] &&
		       [ ! -e /usr/bin/diamondctl ] && [ ! -e /lib/systemd/system/diamond-ingest.service ]"
	[ $had_user = 1 ] || { userdel _diamond; groupdel _diamond; } 2>/dev/null
	[ $had_mok = 1 ] || rm -f /var/lib/dkms/mok.key /var/lib/dkms/mok.pub
	check "host as before: the _diamond user and dkms key pair only if they were there" \
		sh -c "[ \$(getent passwd _diamond >/dev/null && echo 1 || echo 0) = $had_user ] &&
		       [ \$([ -e /var/lib/dkms/mok.key ] && echo 1 || echo 0) = $had_mok ]"
}
rm -f "$KAT_TAP"
run >"$HOST_TAP"
tap_end >>"$HOST_TAP" || exit 1
[ ! -f "$KAT_TAP" ] || ! grep -q '^not ok' "$KAT_TAP"
