#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# package.sh (make check-cmake): dist/sender/ as a CMake package.
#
#  - diamond::sender builds with -Werror and installs for the host and
#    for arm-none-eabi (cmake/arm-none-eabi.cmake);
#  - examples/sensor (the sensor firmware of embedded/) builds against
#    each through find_package(diamond), and for the M4 also through
#    add_subdirectory();
#  - the M4 build runs under qemu (mps2-an386) on a key from diamondctl
#    provision and sends byte for byte what the make-built M4 firmware
#    sends; its frames go through lossy-link --filter into the gateway
#    (diamondctl open --software: the kernel path needs a VM boot), which
#    releases all 32 readings; the host build likewise, against the
#    make-built AVR firmware (embedded/host/board.c keeps the same EEPROM).
#    make check-fw-interop opens the M4 example with diamond.ko, on the
#    gateway VM it boots anyway (tools/demo.sh).
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
H=$BUILD/embedded/host
D=$BUILD/userspace/diamondctl
S=$TOP/dist/sender
. "$TOP/selftests/lib/tap.sh"

echo "TAP version 13"
if ! command -v cmake >/dev/null; then
	skip "CMake package diamond::sender" "cmake not installed (make deps)"
	tap_end
	exit
fi
W=$BUILD/cmake
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1
M4=(-DCMAKE_TOOLCHAIN_FILE="$S/cmake/arm-none-eabi.cmake")

# package TARGET ARGS...: configure, build and install diamond::sender
package() {
	local t=$1
	shift
	cmake -S "$S" -B "pkg-$t" -DDIAMOND_WERROR=ON -DCMAKE_BUILD_TYPE=Release "$@" &&
		cmake --build "pkg-$t" && cmake --install "pkg-$t" --prefix "$W/inst-$t"
}
# example NAME ARGS...: examples/sensor, configured and built
example() {
	local t=$1
	shift
	cmake -S "$S/examples/sensor" -B "ex-$t" -DCMAKE_BUILD_TYPE=Release "$@" &&
		cmake --build "ex-$t"
}
package host >pkg-host.log 2>&1
ok $? "diamond::sender builds (-Werror) and installs for the host"
package m4 "${M4[@]}" >pkg-m4.log 2>&1
ok $? "diamond::sender builds (-Werror) and installs for arm-none-eabi (Cortex-M4)"
example host -DCMAKE_PREFIX_PATH="$W/inst-host" >ex-host.log 2>&1
ok $? "the sensor example builds for the host with find_package(diamond)"
example m4 "${M4[@]}" -DCMAKE_PREFIX_PATH="$W/inst-m4" >ex-m4.log 2>&1
ok $? "the sensor example builds for the M4 with find_package(diamond)"
example m4-src "${M4[@]}" -DDIAMOND_FROM_SOURCE=ON >ex-m4-src.log 2>&1
ok $? "the sensor example builds for the M4 with add_subdirectory(dist/sender)"
arm-none-eabi-size ex-m4/sensor.elf 2>/dev/null |
	awk 'NR == 2 { printf "# M4 sensor: text %s, data %s, bss %s bytes\n", $1, $2, $3 }'

"$D" keygen -o root >/dev/null &&
	"$D" provision --root root --device 2101 --suite 2 --agg xor --b 1024 \
		--blob m4.blob --state-dir gw >/dev/null &&
	"$D" provision --root root --device 2102 --suite 2 --agg xor --b 1024 \
		--blob host.blob --state-dir gw >/dev/null &&
	"$H/fw-nv" image m4 m4.blob m4.nv && "$H/fw-nv" image avr host.blob host.nv
ok $? "diamondctl provision: two devices; fw-nv: their NV images"

m4_run() {	# m4_run ELF NV OUT
	timeout -k 5 120 qemu-system-arm -M mps2-an386 -cpu cortex-m4 -display none \
		-serial none -monitor none -chardev null,id=sh0 \
		-semihosting-config "enable=on,target=native,chardev=sh0,arg=fw,arg=nv=$2,arg=out=$3" \
		-kernel "$1"
}
cp m4.nv m4.nv.ref
m4_run ex-m4/sensor.elf m4.nv m4.link
ok $? "the CMake M4 firmware runs under qemu mps2-an386 ($(stat -c %s m4.link 2>/dev/null) bytes sent)"
m4_run "$BUILD/embedded/m4/sender-d2.elf" m4.nv.ref m4.ref
cmp -s m4.link m4.ref && cmp -s m4.nv m4.nv.ref
ok $? "its link bytes and flash after are the make-built M4 firmware's"
cp host.nv host.nv.ref
DMD_NV=host.nv ex-host/sensor >host.link
ok $? "the CMake host firmware runs ($(stat -c %s host.link) bytes sent)"
"$BUILD/tools/avr-run" --eeprom host.nv.ref --uart-out host.ref \
	"$BUILD/embedded/avr/sender-d2.elf" 2>/dev/null
cmp -s host.link host.ref && cmp -s host.nv host.nv.ref
ok $? "its link bytes and EEPROM after are the make-built AVR firmware's"

cat m4.link host.link | "$BUILD/host/lossy-link" --filter --loss 0 --corrupt 0 \
	--reorder 0 --dup 0 --seed 1 >frames.bin 2>/dev/null
"$D" open --software --state-dir gw --input frames.bin >out.json 2>err.txt
ok $? "the gateway (diamondctl open --software) verifies every epoch of both"
for id in 2101 2102; do
	[ "$(grep -c "\"device\":$id," out.json)" = 32 ]
	ok $? "device $id: 32 readings released ($(grep -c "\"device\":$id," out.json))"
done
tap_end
