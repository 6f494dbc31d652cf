#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# systemd.sh CELL...: make check-systemd (issue 34 item 3), the gateway
# under a real systemd, on the kernel of each x86_64 matrix CELL
# (x86_64-6.12, x86_64-newest; kernels from tools/kernel/kcell in KCACHE).
# TAP on stdout, one block per cell.
#
# Per cell: a Debian 12 root with systemd (tools/systemd/mkroot, cached
# tarball) gets the cell's kernel modules and the project's .debs, which
# apt-get installs in a chroot of it; on a bookworm kernel (6.12) with the
# kernel's headers, so diamond-dkms's postinst has dkms build the module;
# on a trixie kernel (newest), whose kbuild tools need trixie's glibc,
# without them, and the module the matrix builds goes to updates/.
# Devices are provisioned on the host with diamondctl provision into the
# root's /var/lib/diamond-keys (root, 0700); their traffic is sealed on the
# host (diamondctl seal) and cut into phases. The root becomes an ext4
# image (mkfs.ext4 -d) that qemu (TCG) boots with the cell's kernel, a
# small busybox initramfs (virtio disk and ext4 modules, then switch_root)
# and /lib/systemd/systemd as PID 1. diamond-systemd-test.service runs
# selftests/systemd/guest.sh after each of three boots (the guest's reboot
# ends its qemu, -no-reboot, and a new one boots the same disk):
# enable --now, traffic, a restart mid-epoch, the keys dropped and put back
# only by the loader, two reboots, an upgrade to a second set of .debs
# with a bumped version (dkms rebuild in the VM, module reload), and the
# compromised-gateway probe as _diamond. Here every delivered record (the
# journal's JSON lines) is checked against the software open of the same
# frames: each (device, epoch, index) exactly once, with its data.
#
# Needs root. Environment: TOP, BUILD, KCACHE, D (the host's diamondctl),
# FT (frametool), CP (custody_probe, static; optional), SYSTEMD_TIMEOUT
# (qemu's wall-clock limit per cell, default 3600 s: the 6.12 cell's three
# boots took 198 s on an idle machine once its modules were stored
# uncompressed, and 27 minutes were seen before that on a loaded one; the
# limit is for a guest that hangs, not a slow one).
# shellcheck disable=SC2046,SC2016,SC2030,SC2031 # frame lists split on purpose; the chroot's script is single-quoted; each cell counts its results in a subshell, renumber() counts them here
set -u
TOP=${TOP:?} BUILD=${BUILD:?} KCACHE=${KCACHE:?} D=${D:?} FT=${FT:?} CP=${CP:-}
SD=$BUILD/systemd
TIMEOUT=${SYSTEMD_TIMEOUT:-3600}
n=0 fails=0
res() { # res RC DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi
}
skipres() { n=$((n + 1)); echo "ok $n - $1"; }
diag() { sed 's/^/# /'; }
t0=$SECONDS
secs() { echo "$((SECONDS - t0)) s"; }

# One function, read whole before it runs: the run takes many minutes and
# the tree's copy may be edited meanwhile (as tools/check-fresh does).
main() {
echo "TAP version 13"
[ $# -gt 0 ] || set -- x86_64-6.12 x86_64-newest
if [ "$(id -u)" -ne 0 ]; then
	echo "1..1"
	echo "ok 1 - check-systemd # SKIP needs root (debootstrap, chroot, mkfs.ext4 -d with owners)"
	exit 0
fi
mkdir -p "$SD"

# ---- once: the root tarball and the two sets of .debs ------------------
# At the priority of make check's suites, not below it as the VMs are:
# in make check the root and the packages are the start of its longest
# path (at nice 10 beside the suites they took 9.5 of 30 minutes).
TARBALL=$("$TOP/tools/systemd/mkroot" "$SD" 2>"$SD/mkroot.err")
res $? "the Debian 12 systemd root tarball ($(secs); cached: ${TARBALL##*/})"
diag <"$SD/mkroot.err"

V1=$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version)
V2=$V1+sd1
# The first set: the tree as it is. The second: a copy with the version
# bumped (changelog, US_VERSION, dkms.conf) and MODULE_VERSION set, so
# the VM can tell the rebuilt module from the old one.
build_v2_tree() {
	local src=$SD/v2src
	rm -rf "$src" && "$TOP/tools/deb/copy-tree" "$TOP" "$src" || return 1
	{
		printf 'diamond (%s) bookworm; urgency=medium\n\n' "$V2"
		printf '  * Test upgrade for make check-systemd (not a release).\n\n'
		printf ' -- Diamond maintainers <maintainers@users.noreply.a-seed-204be96b.example>  %s\n\n' \
			"$(date -R)"
		cat "$TOP/debian/changelog"
	} >"$src/debian/changelog"
	sed -i "s/^US_VERSION  *:= .*/US_VERSION  := $V2/" "$src/mk/userspace.mk"
	sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$V2\"/" "$src/dkms.conf"
	if grep -q 'MODULE_VERSION(' "$src/kernel/diamond_main.c"; then
		sed -i "s/MODULE_VERSION(\"[^\"]*\")/MODULE_VERSION(\"$V2\")/" "$src/kernel/diamond_main.c"
	else
		echo "MODULE_VERSION(\"$V2\");" >>"$src/kernel/diamond_main.c"
	fi
}
build_debs() { # build_debs TREE OUT [ENV...]
	local tree=$1 out=$2
	shift 2
	rm -rf "$out" && mkdir -p "$out" &&
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL BUILD="$out" "$@" \
			"$tree/tools/deb/build-debs" >"$out.log" 2>&1
}
# Both sets are kept for the next run while the tree (HEAD, the changes
# to it and its new files) is the same.
tree_key() {
	(cd "$TOP" && { git rev-parse HEAD; git diff HEAD; git ls-files -z --others --exclude-standard |
		xargs -0 -r sha256sum; } 2>/dev/null | sha256sum | cut -c1-16)
}
key=$(tree_key)
if [ "$(cat "$SD/debs.key" 2>/dev/null)" = "$key" ] &&
   ls "$SD"/debs1/deb/diamondctl_*.deb "$SD"/debs2/deb/diamondctl_*.deb >/dev/null 2>&1; then
	res 0 "make deb: the $V1 packages (cached for this tree, $key)"
	res 0 "the $V2 packages from a copy with the version bumped (cached for this tree)"
else
	rm -f "$SD/debs.key"
	t=$SECONDS
	build_debs "$TOP" "$SD/debs1"
	r1=$?
	res $r1 "make deb: the $V1 packages ($((SECONDS - t)) s)"
	t=$SECONDS
	# (The copy lies inside this checkout: build-debs must not take it
	# for a git tree, whose ls-files would list nothing of it.)
	build_v2_tree && build_debs "$SD/v2src" "$SD/debs2" GIT_DIR=/nonexistent
	r2=$?
	res $r2 "the $V2 packages from a copy with the version bumped ($((SECONDS - t)) s)"
	tail -n 5 "$SD/debs2.log" | diag
	[ $r1 -ne 0 ] || [ $r2 -ne 0 ] || echo "$key" >"$SD/debs.key"
fi

# ---- the traffic, sealed on the host ------------------------------------
# Devices 7 (suite 2, b 4) and 5 (suite 1, b 8). Phases (each one epoch of
# each device unless said): P1 two epochs each, P2a the first half of
# device 5's next epoch, P2b its second half and tag plus one epoch of 7,
# P3, P4, P5, P6 one epoch each.
W=$SD/work
rm -rf "$W" && mkdir -p "$W/keys" "$W/t" && cd "$W" || exit 1
prep() {
	set -e
	"$D" keygen -o root
	"$D" provision --root root --device 5 --suite 1 --agg xor --b 8 --blob d5.bin --state-dir keys >/dev/null
	"$D" provision --root root --device 7 --suite 2 --agg hash --b 4 --blob d7.bin --state-dir keys >/dev/null
	cp -r keys keys.orig
	seq 1 56 | sed 's/^/d5 temp=/' | "$D" seal --blob d5.bin >f5.bin
	seq 1 28 | sed 's/^/d7 door /' | "$D" seal --blob d7.bin >f7.bin
	# frame numbers: device 5 epoch e is frames 9e..9e+8 (8 records, a
	# tag); device 7 epoch e is 5e..5e+4.
	e5() { seq $((9 * $1)) $((9 * $1 + 8)); }
	e7() { seq $((5 * $1)) $((5 * $1 + 4)); }
	pick() { "$FT" pick "$@"; }
	{ pick f5.bin $(e5 0) $(e5 1); pick f7.bin $(e7 0) $(e7 1); } >t/P1.bin
	pick f5.bin $(seq 18 21) >t/P2a.bin
	{ pick f5.bin $(seq 22 26); pick f7.bin $(e7 2); } >t/P2b.bin
	local p e=3
	for p in P3 P4 P5 P6; do
		{ pick f5.bin $(e5 $e); pick f7.bin $(e7 $e); } >t/$p.bin
		e=$((e + 1))
	done
	# What the software path opens of all phases, in order: the expected
	# records, and the cumulative count after each phase.
	local c=0 p all=
	: >t/expect
	for p in P1 P2a P2b P3 P4 P5 P6; do
		all="$all t/$p.bin"
		rm -rf sw && cp -r keys.orig sw
		# shellcheck disable=SC2086
		cat $all >all.bin
		"$D" open --software --no-spool --state-dir sw --input all.bin >expect.json 2>/dev/null || :
		c=$(grep -c '"index"' expect.json)
		[ $p = P2a ] || echo "$p $c" >>t/expect
	done
	[ "$c" -eq $((56 + 28)) ]
}
(prep) >prep.log 2>&1
res $? "devices provisioned and traffic sealed on the host ($(sed -n 's/^P6 //p' t/expect) records in 7 phases)"
diag <prep.log

# ---- per cell -------------------------------------------------------------
# initramfs MODROOT KVER OUT: busybox, the modules that mount the virtio
# disk's ext4, and an init that loads them and switches to systemd.
initramfs() {
	local mr=$1 kv=$2 out=$3 r m
	r=$(mktemp -d) || return 1
	mkdir -p "$r/bin" "$r/dev" "$r/proc" "$r/sys" "$r/newroot" "$r/lib/modules"
	cp "${BUSYBOX:-/bin/busybox}" "$r/bin/busybox"
	: >"$r/mods"
	for m in $(/sbin/modprobe -d "$mr" -S "$kv" --show-depends \
			-a virtio_pci virtio_blk ext4 2>/dev/null | awk '$1 == "insmod" { print $2 }'); do
		# uncompressed, whatever busybox's insmod and the kernel take
		case $m in
		*.xz) xz -dc "$m" >"$r/lib/modules/$(basename "$m" .xz)" ;;
		*.zst) zstd -qdc "$m" >"$r/lib/modules/$(basename "$m" .zst)" ;;
		*) cp "$m" "$r/lib/modules/" ;;
		esac && echo "/lib/modules/$(basename "${m%.xz}" .zst)" >>"$r/mods"
	done
	cat >"$r/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t devtmpfs devtmpfs /dev
for m in $(/bin/busybox cat /mods); do /bin/busybox insmod $m 2>/dev/null; done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do /bin/busybox sleep 0.1; i=$((i + 1)); done
/bin/busybox mount -t ext4 -o rw /dev/vda /newroot || { echo "initramfs: cannot mount /dev/vda"; /bin/busybox poweroff -f; }
/bin/busybox umount /proc
/bin/busybox mount --move /dev /newroot/dev
exec /bin/busybox switch_root /newroot /lib/systemd/systemd
INIT
	chmod 755 "$r/init"
	(cd "$r" && find . | cpio -o -H newc --quiet) >"$out"
	local rc=$?
	rm -rf "$r"
	return $rc
}

in_chroot() { # in_chroot ROOT CMD: with /proc, /sys, /dev, in a private mount namespace
	unshare --mount --propagation private sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && mount -t sysfs sysfs "$r/sys" &&
		mount --rbind /dev "$r/dev" && mount -t tmpfs tmpfs "$r/run" &&
		chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
			DEBIAN_FRONTEND=noninteractive sh -c "$1"' sh "$@"
}

cell() {
	local cell=$1 line=${1#x86_64-} desc KVER='' VMLINUZ='' MODROOT='' KDIR='' KROOT='' mode tc=$SECONDS
	local C=$SD/$cell R rc
	C=$SD/$cell R=$C/root
	rm -rf "$C" && mkdir -p "$C"
	echo "# cell $cell"
	desc=$(nice -n 10 "$TOP/tools/kernel/kcell" "$KCACHE" x86_64 "$line" 2>"$C/kcell.log")
	rc=$?
	res $rc "$cell: kernel from the matrix cache ($KCACHE)"
	[ $rc -eq 0 ] || { tail -n 3 "$C/kcell.log" | diag; return 1; }
	desc=${desc// := /=}
	eval "$desc"
	local desc_vars
	read -ra desc_vars <<<"$(tr '\n' ' ' <<<"$desc")"
	echo "# $cell: $KVER"
	mode=dkms
	[ -z "$KROOT" ] || mode=prebuilt

	# The root: the cached tarball, the kernel's modules, and for dkms its
	# headers (as linux-headers-KVER installs them: /usr/src and the
	# build link).
	mkdir -p "$R" && tar -C "$R" -xf "$TARBALL" && chmod 755 "$R" &&
		mkdir -p "$R/lib/modules" && cp -a "$MODROOT/lib/modules/$KVER" "$R/lib/modules/" &&
		decompress_modules "$R/lib/modules/$KVER"
	res $? "$cell: root unpacked with $KVER's modules (uncompressed)"
	if [ $mode = dkms ]; then
		copy_headers "$KDIR" "$R" "$KVER"
		res $? "$cell: $KVER's headers in the root (/lib/modules/$KVER/build)"
	else
		local ko
		ko=$(make --no-print-directory -s -C "$TOP" kernel-info "${desc_vars[@]}" | sed -n 's/^KMOD_KO=//p')
		nice -n 10 make --no-print-directory -s -C "$TOP" module "${desc_vars[@]}" >"$C/module.log" 2>&1 &&
			mkdir -p "$R/lib/modules/$KVER/updates" && cp "$ko" "$R/lib/modules/$KVER/updates/diamond.ko"
		res $? "$cell: the matrix's diamond.ko for $KVER in updates/ (no dkms: a trixie kernel's kbuild needs trixie's glibc)"
	fi
	mkdir -p "$R/root/t/debs1" "$R/root/t/debs2"
	cp "$SD"/debs1/deb/{diamond-dkms,libdiamond1,diamondctl}_*.deb "$R/root/t/debs1/" &&
		cp "$SD"/debs2/deb/{diamond-dkms,libdiamond1,diamondctl}_*.deb "$R/root/t/debs2/"
	t=$SECONDS
	in_chroot "$R" 'apt-get install -y --no-install-recommends /root/t/debs1/*.deb' >"$C/apt1.log" 2>&1
	res $? "$cell: apt-get install ./diamond-dkms ./libdiamond1 ./diamondctl ($V1) in the root ($((SECONDS - t)) s)"
	grep -iE 'dkms|Building|Signing|error' "$C/apt1.log" | tail -n 12 | diag
	[ $mode = prebuilt ] || {
		ls "$R/lib/modules/$KVER/updates/dkms/"diamond.ko* >/dev/null 2>&1
		res $? "$cell: dkms (diamond-dkms's postinst, in the chroot) built diamond.ko for $KVER"
	}
	depmod -b "$R" "$KVER" 2>/dev/null

	# Keys, traffic, the guest's programs and its test unit.
	install -d -m 0700 "$R/var/lib/diamond-keys" && cp "$W"/keys.orig/*.state "$R/var/lib/diamond-keys/" &&
		chmod 0600 "$R"/var/lib/diamond-keys/*
	cp "$W"/t/* "$R/root/t/" 2>/dev/null
	cp "$TOP/selftests/systemd/guest.sh" "$R/root/t/guest.sh"
	cp "$FT" "$R/usr/local/bin/frametool"
	[ -z "$CP" ] || [ ! -x "$CP" ] || cp "$CP" "$R/usr/local/bin/custody_probe"
	{
		echo "MODE=$mode V1=$V1 V2=$V2"
		echo "KEYFILES=\"$(cd "$W/keys.orig" && echo *.state)\""
	} >"$R/root/t/conf"
	# Custody is a requirement: the administrator's options file.
	echo 'DIAMOND_INGEST_OPTS="--udp 9741 --bind 127.0.0.1 --custody"' >"$R/etc/default/diamond-ingest"
	cat >"$R/etc/systemd/system/diamond-systemd-test.service" <<'UNIT'
[Unit]
Description=make check-systemd: the guest's side (selftests/systemd/guest.sh)
After=multi-user.target
[Service]
Type=oneshot
ExecStart=/bin/sh /root/t/guest.sh
[Install]
WantedBy=default.target
UNIT
	mkdir -p "$R/etc/systemd/system/default.target.wants"
	ln -sf ../diamond-systemd-test.service "$R/etc/systemd/system/default.target.wants/"

	# The disk image and the initramfs.
	local size
	size=$(( $(du -sm "$R" | cut -f1) + 1024 ))
	rm -f "$C/root.img"
	mkfs.ext4 -q -F -L root -d "$R" "$C/root.img" "${size}M" >"$C/mkfs.log" 2>&1 &&
		initramfs "$MODROOT" "$KVER" "$C/initrd.cpio"
	res $? "$cell: ext4 image (${size} MiB, mkfs.ext4 -d) and initramfs"
	# Beside the VM: deleting the 1.7 GB tree took a minute of the longest
	# path of make check.
	ionice -c3 rm -rf "$R" &

	# Three boots. The guest's `systemctl reboot` ends its qemu
	# (-no-reboot) and a new one boots the same disk: a warm reset inside
	# one qemu stalled the next boot's start for three to seven minutes
	# under TCG on a loaded host (soft lockups of 25 and 50 s in the
	# guest's page clearing, before systemd ran); a cold start (every
	# run's first boot) never did.
	# -nodefaults: no VGA, IDE CD-ROM or floppy for udev to load drivers
	# for at every boot; the two serial ports and the disk are all the
	# test uses. Two vCPUs, unlike the project's other VMs: the upgrade's
	# dkms build (make -j on the guest's CPUs) is the longest step of the
	# guest's script.
	t=$SECONDS
	rc=0
	: >"$C/console.log"
	: >"$C/out.log"
	: >"$C/qemu.log"
	local left
	for _ in 1 2 3; do
		left=$((TIMEOUT - (SECONDS - t)))
		[ "$left" -gt 0 ] || { rc=124; break; }
		timeout -k 10 "$left" nice -n 10 qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m 1536 \
			-nodefaults -display none -no-user-config -nic none -no-reboot \
			-kernel "$VMLINUZ" -initrd "$C/initrd.cpio" \
			-drive file="$C/root.img",if=virtio,format=raw \
			-chardev file,id=con,path="$C/console.log",append=on -serial chardev:con \
			-chardev file,id=out,path="$C/out.log",append=on -serial chardev:out \
			-append "console=ttyS0 root=/dev/vda rw quiet panic=-1 systemd.show_status=0" \
			</dev/null >>"$C/qemu.log" 2>&1
		rc=$?
		# qemu exits 0 on SIGTERM: a kill from outside is no pass.
		! grep -q 'terminating on signal' "$C/qemu.log" || { rc=1; diag <"$C/qemu.log"; }
		[ $rc -eq 0 ] || break
		! tr -d '\r' <"$C/out.log" | grep -q '^@@end$' || break
	done
	tr -d '\r' <"$C/out.log" >"$C/out.txt"
	local boots
	boots=$(grep -c '^@@boot ' "$C/out.txt")
	res $rc "$cell: qemu ran $boots boots of systemd, each ended by the guest ($((SECONDS - t)) s, status $rc)"
	[ $rc -eq 0 ] || tail -n 30 "$C/console.log" | tr -d '\r' | diag
	res "$([ "$boots" -eq 3 ] && grep -q '^@@end$' "$C/out.txt"; echo $?)" \
		"$cell: the guest script ran after each of the three boots and got to its end"
	local l
	while IFS= read -r l; do
		case $l in
		"@@ok "*) l=${l#@@ok }; res "${l%% *}" "$cell: ${l#* }" ;;
		"@@skip "*) skipres "$cell: ${l#@@skip }" ;;
		"@@diag "*) echo "# ${l#@@diag }" ;;
		"@@boot "*) echo "# $cell: boot ${l#@@boot }" ;;
		esac
	done <"$C/out.txt"
	# Every record exactly once, with the data the software path gave.
	sed -n 's/^@@j //p' "$C/out.txt" >"$C/got.json"
	local dup
	dup=$(sed 's/"data".*//' "$C/got.json" | sort | uniq -d | wc -l)
	res "$([ "$dup" -eq 0 ] && [ -s "$C/got.json" ]; echo $?)" \
		"$cell: no record delivered twice over restart, reboots and upgrade (by device, epoch, index; $dup duplicates)"
	sort "$W/expect.json" >"$C/want.sorted"
	sort "$C/got.json" >"$C/got.sorted"
	cmp -s "$C/want.sorted" "$C/got.sorted"
	res $? "$cell: every record delivered: $(wc -l <"$C/got.json") of $(wc -l <"$W/expect.json"), each as the software open of the same frames gives it"
	diff "$C/want.sorted" "$C/got.sorted" | head -n 10 | diag
	wait
	echo "# $cell: $((SECONDS - tc)) s (kernel, root, debs, image, VM)"
}

renumber() { # a cell's TAP lines on stdin, its results as the next of this run's
	local l
	while IFS= read -r l; do
		case $l in
		"ok "[0-9]*" - "*) res 0 "${l#* - }" ;;
		"not ok "[0-9]*" - "*) res 1 "${l#* - }" ;;
		*) printf '%s\n' "$l" ;;
		esac
	done
}

# decompress_modules DIR: every .ko.xz and .ko.zst of DIR stored as .ko,
# as bookworm's own 6.1 kernel ships them. dkms runs depmod when it
# installs a module and when it removes one, and depmod reads every
# module of the kernel: 4,230 .ko.xz for 6.12 took it 5.4 s here against
# 0.5 s uncompressed, and under TCG the xz decoding was most of the
# upgrade's minutes. The modules' content is the same; only the guest's
# depmod and modprobe decode nothing.
decompress_modules() {
	find "$1" -name '*.ko.xz' -print0 | xargs -0 -r -P 2 -n 200 xz -d &&
		find "$1" -name '*.ko.zst' -print0 | xargs -0 -r -P 2 -n 200 zstd -q -d --rm
}

copy_headers() { # copy_headers KDIR ROOT KVER: as linux-headers-KVER installs them
	local kdir=$1 r=$2 kv=$3 top
	# kcell unpacks the headers packages under the kernel's directory
	# (usr/src/linux-headers-*, usr/lib/linux-kbuild-*) and points the
	# flavour's Makefile at its own copy: point it back at /usr/src.
	top=${kdir%/usr/src/*}
	[ "$top" != "$kdir" ] || return 1
	mkdir -p "$r/usr/src" "$r/usr/lib" &&
		cp -a "$top"/usr/src/* "$r/usr/src/" &&
		cp -a "$top"/usr/lib/linux-kbuild-* "$r/usr/lib/" &&
		sed -i "s,^include .*/usr/src/,include /usr/src/," "$r/usr/src/linux-headers-$kv/Makefile" &&
		ln -sfn "/usr/src/linux-headers-$kv" "$r/lib/modules/$kv/build" &&
		[ -f "$r/usr/src/linux-headers-$kv/Makefile" ]
}

# The cells run side by side, each into a file of its own, numbered here
# in order. Each is mostly one single-vCPU TCG VM: one after the other, the
# last cell (x86_64-newest, about four minutes) ran alone at the end of
# make check with the other core idle.
local c
for c in "$@"; do
	case $c in
	x86_64-*) (n=0 fails=0 && cell "$c") >"$SD/$c.part" 2>"$SD/$c.err" & ;;
	esac
done
wait
for c in "$@"; do
	case $c in
	x86_64-*) renumber <"$SD/$c.part"; cat "$SD/$c.err" >&2 ;;
	*) res 1 "$c: not an x86_64 cell (make check-systemd boots x86_64 only) # SKIP" ;;
	esac
done
echo "1..$n"
echo "# check-systemd: $(secs) in all"
[ $fails -eq 0 ]
}

main "$@"; exit
