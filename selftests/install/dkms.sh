#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dkms.sh HOST_TAP KAT_TAP: the dkms path without touching the host. `make
# install-dkms` puts the module source in a private source tree; dkms add,
# build and install run on it with private --dkmstree and --installtree
# (and a private MOK key pair, signing as on a Secure Boot machine) for
# KVER and, when KVER is a kernel installed on this host, every other
# kernel whose headers and image are installed. For each, the module is
# the one for that kernel and architecture, and its signature verifies
# against the MOK certificate. Then the VM boots KVER with exactly that
# module: it loads, passes its self-test and every kernel KAT (KAT_TAP,
# kat-probe's own TAP), and dkms remove takes it away again. HOST_TAP
# gets the host-side steps.
#
# KVER need not be installed (make check-dkms-matrix: a cell's kernel from
# tools/kernel/kcell): KDIR names its headers (dkms --kernelsourcedir),
# DKMS_ARCH its architecture (x86_64 or arm64: dkms -a aarch64, and the
# cross build's ARCH= and CROSS_COMPILE= from DKMS_KBUILD go to dkms's
# make through the environment, as dkms itself passes neither), and KROOT
# a chroot that dkms runs in (trixie kernels: trixie's dkms and toolchain,
# as on a trixie gateway; kcell --dkms installs it there).
# Environment: TOP, BUILD, MAKE, KVER, KDIR, KROOT, DKMS_ARCH, DKMS_KBUILD,
# US_VERSION, KAT_PROBE, KAT_DRIVER1/2 (the VM: RUN_VM_*, mk/kernel.mk).
set -u
TOP=${TOP:?} BUILD=${BUILD:?} MAKE=${MAKE:-make} KVER=${KVER:-} US_VERSION=${US_VERSION:?}
KDIR=${KDIR:-/lib/modules/$KVER/build} KROOT=${KROOT:-}
DKMS_ARCH=${DKMS_ARCH:-x86_64} DKMS_KBUILD=${DKMS_KBUILD:-}
HOST_TAP=${1:?} KAT_TAP=${2:?}
S= M=diamond V=$US_VERSION
. "$TOP/selftests/install/lib.sh"
# W is the work directory as this script sees it, w as dkms sees it
# (inside KROOT).
if [ -n "$KROOT" ]; then
	W=$(mktemp -d "$KROOT/tmp/diamond-dkms.XXXXXX") || exit 1
	in_root=(chroot "$KROOT")
else
	W=$(mktemp -d /tmp/diamond-dkms.XXXXXX) || exit 1
	in_root=()
fi
w=${W#"$KROOT"} proc_mounted=0
trap 'rm -rf "$W"; [ "$proc_mounted" = 0 ] || umount "$KROOT/proc"' EXIT
cd "$W" || exit 1
# dkms -a and the ELF machine of its module: uname -m's names.
case $DKMS_ARCH in
arm64) uarch=aarch64 machine=AArch64 ;;
*) uarch=x86_64 machine=X86-64 ;;
esac
# A kernel of this host: dkms finds its headers and sign-file by itself.
host_kernel=0
[ -z "$KROOT" ] && [ "$KDIR" = "/lib/modules/$KVER/build" ] && [ "$uarch" = "$(uname -m)" ] &&
	host_kernel=1

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

# one_kernel K [DKMS_OPTION...]: dkms build and install for K, and what
# that must give.
one_kernel() {
	local k=$1 ko=$W/modules/$1/updates/dkms/diamond.ko rc
	shift
	mkdir -p "$W/modules/$k"
	dk build -m $M -v "$V" -k "$k" "$@" >build.log 2>&1
	rc=$?
	ok $rc "dkms build for $k ($uarch; dkms.conf's MAKE: Kbuild with M=)"
	[ $rc -eq 0 ] || diag <build.log
	dk install -m $M -v "$V" -k "$k" "$@" --no-depmod >dkinstall.log 2>&1
	ok $? "dkms install for $k"
	check "dkms status: installed for $k" installed "$k"
	check "$k: the module is at updates/dkms/diamond.ko with vermagic $k" \
		sh -c "/sbin/modinfo -F vermagic '$ko' | grep -q '^$k '"
	check "$k: it is an $machine module" \
		sh -c "readelf -h '$ko' | grep -q 'Machine: *.*$machine'"
	check "$k: dkms signed it with its MOK key (signer: DKMS module signing key)" \
		sh -c "/sbin/modinfo -F signer '$ko' | grep -qx 'DKMS module signing key'"
	check "$k: the signature verifies over the module against the MOK certificate" \
		sigcheck "$ko" "$W/mok.pub"
}

# dkms on the private trees, in KROOT, with the cross build's variables
# (DKMS_KBUILD: NAME=VALUE words, split on purpose).
dk() {
	# shellcheck disable=SC2086
	"${in_root[@]}" env $DKMS_KBUILD dkms --dkmstree "$w/tree" --sourcetree "$S" \
		--installtree "$w/modules" "$@"
}
installed() { dk status -m $M -v "$V" -k "$1" | grep -q ': installed'; }

# The kernel's tools for a chroot'ed dkms: objtool reads /proc.
mount_proc() {
	[ -n "$KROOT" ] && ! mountpoint -q "$KROOT/proc" || return 0
	mount -t proc proc "$KROOT/proc" && proc_mounted=1
}

run() {
	echo "TAP version 13"
	if ! "${in_root[@]}" sh -c 'command -v dkms' >/dev/null; then
		skip "dkms add/build/install" "dkms not installed${KROOT:+ in $KROOT (tools/kernel/kcell --dkms)} (tools/install-deps.sh)"
		return
	fi
	if [ -z "$KVER" ] || [ ! -f "$KROOT$KDIR/Makefile" ]; then
		skip "dkms add/build/install" "no kernel headers for '$KVER' at $KROOT$KDIR"
		return
	fi
	local ko
	mkdir -p "$W/tree"
	$MAKE -s --no-print-directory -C "$TOP" install-dkms DESTDIR="$W/root" >install.log 2>&1
	ok $? "make install-dkms DESTDIR=... (the source dkms builds)"
	S=$w/src
	ln -s "$w/root/usr/src" "$W/src"
	# dkms reads the key pair's paths from the environment when its
	# framework.conf does not set them; --no-depmod leaves the host's
	# modules.dep alone.
	export mok_signing_key=$w/mok.key mok_certificate=$w/mok.pub
	mount_proc
	dk add -m $M -v "$V" >add.log 2>&1
	ok $? "dkms add -m $M -v $V"
	# On this host's kernel: every header set installed for this
	# architecture, KVER first. Else KVER alone, whose headers and
	# sign-file dkms is told (it looks for them below /lib/modules/KVER,
	# 3.2 below --installtree).
	local k
	if [ "$host_kernel" = 1 ]; then
		for k in "$KVER" $(host_kernels | grep -vxF "$KVER"); do
			one_kernel "$k"
		done
	else
		export sign_file=$KDIR/scripts/sign-file
		one_kernel "$KVER" --kernelsourcedir "$KDIR" -a "$uarch"
	fi
	ko=$W/modules/$KVER/updates/dkms/diamond.ko
	cp "$ko" tampered.ko
	printf 'X' | dd of=tampered.ko bs=1 seek=4096 conv=notrunc 2>/dev/null
	! sigcheck tampered.ko "$W/mok.pub" >/dev/null 2>&1
	ok $? "and the signature fails once one byte of the module changes"
	vm_kat "$ko" "$KAT_TAP"
	ok $? "VM on $KVER ($DKMS_ARCH): the dkms-built module loads and is named in /proc/crypto (KATs: $(basename "$KAT_TAP" .tap))"
	dk remove -m $M -v "$V" --all --no-depmod >remove.log 2>&1
	ok $? "dkms remove --all"
	check "no module left in the install tree" sh -c "! find '$W/modules' -name 'diamond.ko*' | grep -q ."
}
rm -f "$KAT_TAP"
run >"$HOST_TAP"
tap_end >>"$HOST_TAP" || exit 1
[ ! -f "$KAT_TAP" ] || ! grep -q '^not ok' "$KAT_TAP"
