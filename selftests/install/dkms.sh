#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dkms.sh HOST_TAP KAT_TAP: the dkms path without touching the host. `make
# install-dkms` puts the module source in a private source tree; dkms add,
# build and install run on it with private --dkmstree and --installtree
# (and a private MOK key pair, signing as on a Secure Boot machine) for
# every kernel whose headers and image are installed (KVER first). For
# each, the module is the one for that kernel and its signature verifies
# against the MOK certificate. Then the VM boots KVER with exactly that
# module: it loads, passes its self-test and every kernel KAT (KAT_TAP,
# kat-probe's own TAP), and dkms remove takes it away again. HOST_TAP
# gets the host-side steps.
# Environment: TOP, BUILD, MAKE, KVER, US_VERSION, KAT_PROBE, KAT_DRIVER1/2.
set -u
TOP=${TOP:?} BUILD=${BUILD:?} MAKE=${MAKE:-make} KVER=${KVER:-} US_VERSION=${US_VERSION:?}
HOST_TAP=${1:?} KAT_TAP=${2:?}
S= M=diamond V=$US_VERSION
. "$TOP/selftests/install/lib.sh"
W=$(mktemp -d /tmp/diamond-dkms.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

# Kernel versions with headers (build/Makefile) and an image in /boot: the
# ones dkms on this host builds for and the VM can boot.
host_kernels() {
	local d v
	for d in /lib/modules/*/build/Makefile; do
		v=${d#/lib/modules/}
		v=${v%/build/Makefile}
		[ -e "/boot/vmlinuz-$v" ] && echo "$v"
	done
}

# one_kernel K: dkms build and install for K, and what that must give.
one_kernel() {
	local k=$1 ko=$W/modules/$1/updates/dkms/diamond.ko rc
	mkdir -p "$W/modules/$k"
	dk build -m $M -v "$V" -k "$k" >build.log 2>&1
	rc=$?
	ok $rc "dkms build for $k (dkms.conf's MAKE: Kbuild with M=)"
	[ $rc -eq 0 ] || diag <build.log
	dk install -m $M -v "$V" -k "$k" --no-depmod >dkinstall.log 2>&1
	ok $? "dkms install for $k"
	check "dkms status: installed for $k" \
		sh -c "dkms --dkmstree '$W/tree' status -m $M -v $V -k $k | grep -q ': installed'"
	check "$k: the module is at updates/dkms/diamond.ko with vermagic $k" \
		sh -c "/sbin/modinfo -F vermagic '$ko' | grep -q '^$k '"
	check "$k: dkms signed it with its MOK key (signer: DKMS module signing key)" \
		sh -c "/sbin/modinfo -F signer '$ko' | grep -qx 'DKMS module signing key'"
	check "$k: the signature verifies over the module against the MOK certificate" \
		sigcheck "$ko" "$W/mok.pub"
}

run() {
	echo "TAP version 13"
	if ! command -v dkms >/dev/null; then
		skip "dkms add/build/install" "dkms not installed (tools/install-deps.sh)"
		return
	fi
	if [ -z "$KVER" ] || [ ! -f "/lib/modules/$KVER/build/Makefile" ]; then
		skip "dkms add/build/install" "no kernel headers for '$KVER'"
		return
	fi
	local ko
	mkdir -p "$W/tree"
	$MAKE -s --no-print-directory -C "$TOP" install-dkms DESTDIR="$W/root" >install.log 2>&1
	ok $? "make install-dkms DESTDIR=... (the source dkms builds)"
	S=$W/src
	ln -s "$W/root/usr/src" "$S"
	# dkms reads the key pair's paths from the environment when its
	# framework.conf does not set them; --no-depmod leaves the host's
	# modules.dep alone.
	export mok_signing_key=$W/mok.key mok_certificate=$W/mok.pub
	dk() { dkms --dkmstree "$W/tree" --sourcetree "$S" --installtree "$W/modules" "$@"; }
	dk add -m $M -v "$V" >add.log 2>&1
	ok $? "dkms add -m $M -v $V"
	# Every header set installed for this architecture: KVER, then the others.
	local k
	for k in "$KVER" $(host_kernels | grep -vxF "$KVER"); do
		one_kernel "$k"
	done
	ko=$W/modules/$KVER/updates/dkms/diamond.ko
	cp "$ko" tampered.ko
	printf 'X' | dd of=tampered.ko bs=1 seek=4096 conv=notrunc 2>/dev/null
	! sigcheck tampered.ko "$W/mok.pub" >/dev/null 2>&1
	ok $? "and the signature fails once one byte of the module changes"
	vm_kat "$ko" "$KAT_TAP"
	ok $? "VM on $KVER: the dkms-built module loads and is named in /proc/crypto (KATs: dkms-kat)"
	dk remove -m $M -v "$V" --all --no-depmod >remove.log 2>&1
	ok $? "dkms remove --all"
	check "no module left in the install tree" sh -c "! find '$W/modules' -name 'diamond.ko*' | grep -q ."
}
rm -f "$KAT_TAP"
run >"$HOST_TAP"
tap_end >>"$HOST_TAP" || exit 1
[ ! -f "$KAT_TAP" ] || ! grep -q '^not ok' "$KAT_TAP"
