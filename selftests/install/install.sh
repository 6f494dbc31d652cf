#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# install: `make install` and `make uninstall` into a DESTDIR, twice (PREFIX
# /usr/local, then the layout debian/rules asks for). Checks the exact file
# list and modes, the soname, that a program built with nothing but the
# installed libdiamond.pc links against the installed library and runs,
# the installed diamondctl, the man page, the unit and the dkms source;
# then that uninstall leaves no file behind. TAP on stdout.
# Environment: TOP, BUILD, MAKE, KVER, US_VERSION.
set -u
TOP=${TOP:?} BUILD=${BUILD:?} MAKE=${MAKE:-make} KVER=${KVER:-} US_VERSION=${US_VERSION:?}
. "$TOP/selftests/install/lib.sh"
W=$(mktemp -d /tmp/diamond-install.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
mk() { $MAKE -s --no-print-directory -C "$TOP" "$@"; }
# Every file and link under a root, with its mode ("l" for links).
listing() { (cd "$1" && find . ! -type d -printf '%y %m %P\n' | sed 's/^l 777/l/' | LC_ALL=C sort); }

echo "TAP version 13"

# 1. PREFIX=/usr/local: the default a user gets from `sudo make install`.
D=$W/root
module=
[ -n "$KVER" ] && [ -f "/lib/modules/$KVER/build/Makefile" ] && module=1
mk install DESTDIR="$D" >install.log 2>&1
ok $? "make install DESTDIR=... (PREFIX=/usr/local)"
{
	echo "f 755 usr/local/bin/diamondctl"
	echo "f 644 usr/local/include/diamond/libdiamond.h"
	echo "f 644 usr/local/include/diamond-sender/diamond-sender.h"
	echo "f 644 usr/local/lib/cmake/diamond/diamondConfig.cmake"
	echo "f 644 usr/local/lib/cmake/diamond/diamondConfigVersion.cmake"
	echo "f 644 usr/local/lib/cmake/diamond/diamondTargets-release.cmake"
	echo "f 644 usr/local/lib/cmake/diamond/diamondTargets.cmake"
	echo "f 644 usr/local/lib/libdiamond-sender.a"
	echo "f 644 usr/local/lib/libdiamond.a"
	echo "l usr/local/lib/libdiamond.so"
	echo "f 755 usr/local/lib/libdiamond.so.1"
	echo "f 644 usr/local/lib/modules-load.d/diamond.conf"
	echo "f 644 usr/local/lib/pkgconfig/libdiamond.pc"
	echo "f 644 usr/local/lib/systemd/system/diamond-ingest.service"
	echo "f 644 usr/local/lib/sysusers.d/diamond.conf"
	echo "f 644 usr/local/share/man/man1/diamondctl.1"
	[ -n "$module" ] && echo "f 644 lib/modules/$KVER/extra/diamond.ko"
} | LC_ALL=C sort >want.list
listing "$D" >got.list
diff want.list got.list >list.diff
ok $? "installed files and modes are exactly the expected list"
diag <list.diff
[ -n "$module" ] || skip "diamond.ko installed" "no kernel headers for '$KVER'"
check "libdiamond.so links to libdiamond.so.1" [ "$(readlink "$D/usr/local/lib/libdiamond.so")" = libdiamond.so.1 ]
check "the library's soname is libdiamond.so.1" \
	sh -c "readelf -d '$D/usr/local/lib/libdiamond.so.1' | grep -q 'SONAME.*\[libdiamond.so.1\]'"
check "it exports only the public diamond_ API" \
	sh -c "! nm -D --defined-only '$D/usr/local/lib/libdiamond.so.1' | awk '\$2 == \"T\" && \$3 !~ /^diamond_/' | grep -q ."
check "the header compiles on its own (C11 and C++)" \
	sh -c "echo '#include <diamond/libdiamond.h>' | cc -std=c11 -Wall -Werror -fsyntax-only -I'$D/usr/local/include' -x c - &&
	       echo '#include <diamond/libdiamond.h>' | { ! command -v c++ >/dev/null || c++ -Wall -Werror -fsyntax-only -I'$D/usr/local/include' -x c++ -; }"

# The .pc as a user reads it: prefix, then paths below it.
export PKG_CONFIG_PATH=$D/usr/local/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
pc=$D/usr/local/lib/pkgconfig/libdiamond.pc
check "libdiamond.pc: prefix=/usr/local, libdir and includedir below it, version $US_VERSION" \
	sh -c "grep -qx 'prefix=/usr/local' '$pc' && grep -qx 'libdir=\${prefix}/lib' '$pc' &&
	       grep -qx 'includedir=\${prefix}/include' '$pc' && pkg-config --modversion libdiamond | grep -qx '$US_VERSION'"
flags=$(pkg-config --cflags --libs libdiamond)
check "pkg-config --cflags --libs name the installed tree, not the build tree" \
	sh -c "echo ' $flags ' | grep -q -- ' -I$D/usr/local/include .* -L$D/usr/local/lib -ldiamond ' &&
	       ! echo '$flags' | grep -q -e '$TOP' -e '$BUILD'"
export LD_LIBRARY_PATH=$D/usr/local/lib
# shellcheck disable=SC2086
probe_all $flags >probe.out 2>&1
ok $? "a program built from the installed .pc alone derives the known-answer blobs ($(grep -c '^probe: device' probe.out) vectors)"
diag <probe.out
check "it needs libdiamond.so.1 and loads the installed one" \
	sh -c "readelf -d probe | grep -q 'NEEDED.*\[libdiamond.so.1\]' &&
	       ldd ./probe | grep -q '=> $D/usr/local/lib/libdiamond.so.1'"
unset LD_LIBRARY_PATH
# shellcheck disable=SC2046
probe_all -static $(pkg-config --static --cflags --libs libdiamond) >probe-static.out 2>&1
ok $? "pkg-config --static: the static library and libkcapi link too"
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

# The sender's CMake package as a CMake project finds it (dist/sender/).
cmake -S "$TOP/dist/sender/examples/sensor" -B sensor \
	-DCMAKE_PREFIX_PATH="$D/usr/local" >cmake.log 2>&1 &&
	cmake --build sensor >>cmake.log 2>&1 &&
	grep -q "$D/usr/local/lib/libdiamond-sender.a" sensor/CMakeFiles/sensor.dir/link.txt
rc=$?
ok $rc "find_package(diamond) finds the installed diamond::sender; the sensor example links it"
[ $rc = 0 ] || tail -n 20 cmake.log | diag

mkdir rt && (cd rt && roundtrip "$D/usr/local/bin/diamondctl") >rt.log 2>&1
ok $? "installed diamondctl: keygen, provision, seal, open --software round trip"
check "installed diamondctl --version says $US_VERSION" \
	sh -c "'$D/usr/local/bin/diamondctl' --version | grep -q '$US_VERSION'"
check "man page renders without warnings" \
	sh -c "LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z '$D/usr/local/share/man/man1/diamondctl.1' 2>&1 | { ! grep -q .; }"
unit=$D/usr/local/lib/systemd/system/diamond-ingest.service
check "unit runs the installed diamondctl open with its state in /var/lib/diamond" \
	grep -q '^ExecStart=/usr/local/bin/diamondctl open --state-dir /var/lib/diamond ' "$unit"
check "unit: hardened (system user, StateDirectory, ProtectSystem=strict, no capabilities)" \
	sh -c "grep -qx 'User=_diamond' '$unit' && grep -qx 'StateDirectory=diamond' '$unit' &&
	       grep -qx 'ProtectSystem=strict' '$unit' && grep -qx 'CapabilityBoundingSet=' '$unit' &&
	       grep -qx 'NoNewPrivileges=yes' '$unit'"
check "unit: the custody loader as root before the ingest, keys shared through _diamond's user keyring" \
	sh -c "grep -qx 'ExecStartPre=+/usr/local/bin/diamondctl keys load --keys /var/lib/diamond-keys --state-dir /var/lib/diamond --user _diamond --keyring user' '$unit' &&
	       grep -qx 'KeyringMode=shared' '$unit'"
check "sysusers.d creates the unit's user" \
	grep -q '^u _diamond ' "$D/usr/local/lib/sysusers.d/diamond.conf"
if command -v systemd-analyze >/dev/null; then
	# verify resolves ExecStart= on the host: point it at the installed binary.
	mkdir -p unit
	sed "s|/usr/local/bin/diamondctl|$D/usr/local/bin/diamondctl|" "$unit" >unit/diamond-ingest.service
	SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no unit/diamond-ingest.service >verify.log 2>&1
	rc=$?
	grep -v -e 'network-online.target' -e 'systemd-modules-load.service' -e 'No such file' verify.log >verify.rest
	check "systemd-analyze verify: unit file is valid" sh -c "[ $rc -eq 0 ] || [ ! -s verify.rest ]"
	diag <verify.log
	lvl=$(systemd-analyze security --offline=true unit/diamond-ingest.service 2>/dev/null |
		sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p')
	check "systemd-analyze security: exposure ${lvl:-?} is at most 2.0 (OK or better)" \
		awk -v l="${lvl:-99}" 'BEGIN { exit !(l <= 2.0) }'
else
	skip "systemd-analyze verify" "systemd-analyze not installed"
	skip "systemd-analyze security" "systemd-analyze not installed"
fi
check "modules-load.d loads diamond and algif_aead" \
	sh -c "grep -v '^#' '$D/usr/local/lib/modules-load.d/diamond.conf' | tr '\n' ' ' | grep -qx 'diamond algif_aead '"

mk uninstall DESTDIR="$D" >uninstall.log 2>&1
ok $? "make uninstall DESTDIR=..."
listing "$D" >left.list
check "uninstall leaves no file or link" test ! -s left.list
diag <left.list

# 2. The layout debian/rules installs (multiarch libdir, /lib/systemd).
D2=$W/deb
V2=(PREFIX=/usr LIBDIR=/usr/lib/x86_64-linux-gnu SYSTEMDUNITDIR=/lib/systemd/system
    MODULESLOADDIR=/usr/lib/modules-load.d SYSUSERSDIR=/usr/lib/sysusers.d)
mk install-userspace install-system DESTDIR="$D2" "${V2[@]}" >install2.log 2>&1
ok $? "make install-userspace install-system with the Debian directories"
pc2=$D2/usr/lib/x86_64-linux-gnu/pkgconfig/libdiamond.pc
check "its .pc: libdir=\${prefix}/lib/x86_64-linux-gnu, includedir=\${prefix}/include" \
	sh -c "grep -qx 'prefix=/usr' '$pc2' && grep -qx 'libdir=\${prefix}/lib/x86_64-linux-gnu' '$pc2' &&
	       grep -qx 'includedir=\${prefix}/include' '$pc2'"
check "its unit runs /usr/bin/diamondctl" \
	grep -q '^ExecStart=/usr/bin/diamondctl open ' "$D2/lib/systemd/system/diamond-ingest.service"
check "the sender's CMake package in lib/x86_64-linux-gnu/cmake/diamond, its header in include" \
	sh -c "[ -f '$D2/usr/lib/x86_64-linux-gnu/cmake/diamond/diamondConfig.cmake' ] &&
	       [ -f '$D2/usr/lib/x86_64-linux-gnu/libdiamond-sender.a' ] &&
	       [ -f '$D2/usr/include/diamond-sender/diamond-sender.h' ]"
mk uninstall DESTDIR="$D2" "${V2[@]}" >uninstall2.log 2>&1
listing "$D2" >left2.list
check "uninstall with the same directories leaves no file" test ! -s left2.list

# 3. The dkms source: what dkms.conf builds from, at the version it names.
D3=$W/dkms
mk install-dkms DESTDIR="$D3" >dkms.log 2>&1
ok $? "make install-dkms DESTDIR=..."
S=$D3/usr/src/diamond-$US_VERSION
(cd "$TOP" && { echo dkms.conf; echo Kbuild; echo include/diamond/spec.h;
	echo include/diamond/epoch.h;
	git ls-files kernel 2>/dev/null || ls kernel/Kbuild kernel/*.[ch]; } | LC_ALL=C sort) >want.dkms
(cd "$S" && find . -type f -printf '%P\n' | LC_ALL=C sort) >got.dkms
diff want.dkms got.dkms >dkms.diff
ok $? "/usr/src/diamond-$US_VERSION holds dkms.conf, Kbuild, kernel/, spec.h and epoch.h, nothing else"
diag <dkms.diff
check "dkms.conf: PACKAGE_VERSION is the project's version ($US_VERSION)" \
	grep -qx "PACKAGE_VERSION=\"$US_VERSION\"" "$S/dkms.conf"
check "debian/changelog is at the same version" \
	sh -c "head -1 '$TOP/debian/changelog' | grep -q '^diamond ($US_VERSION)'"
check "dkms.conf builds diamond.ko in kernel/, where Kbuild puts it" \
	sh -c "grep -qx 'BUILT_MODULE_NAME\[0\]=\"diamond\"' '$S/dkms.conf' &&
	       grep -qx 'BUILT_MODULE_LOCATION\[0\]=\"kernel/\"' '$S/dkms.conf' &&
	       grep -qx 'obj-m += kernel/' '$S/Kbuild' && grep -q '^obj-m += diamond.o' '$S/kernel/Kbuild'"
mk uninstall-dkms DESTDIR="$D3" >undkms.log 2>&1
check "make uninstall-dkms removes the source" test ! -e "$S"

tap_end
