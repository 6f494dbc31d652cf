#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Install every Debian 12 package the build, tests, demo and benchmarks need.
# Idempotent: installs only what is missing, so a second run costs one dpkg
# query. Run as root or with sudo. With --check it installs nothing: it
# names what is missing and fails (`make check DEPS=check`, for developers
# who do not want a test run to touch apt).
set -euo pipefail

mode=install
[ "${1:-}" = --check ] && mode=check

PKGS=(
	build-essential pkg-config libssl-dev zlib1g-dev valgrind cpio xxd
	nettle-dev
	libkcapi-dev kcapi-tools
	linux-image-amd64 linux-headers-amd64 busybox-static qemu-system-x86
	sparse linux-source-6.1
	dkms openssl groff-base
	gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm libglib2.0-dev
	gcc-avr avr-libc binutils-avr simavr libsimavr-dev libelf-dev
	arduino-core-avr arduino-builder cmake
	gnuplot-nox python3 python3-docutils python3-cryptography file xz-utils zstd kmod iproute2
	debootstrap mmdebstrap gcc-aarch64-linux-gnu libc6-dev-arm64-cross dwarves strace
	clang libclang-rt-14-dev
	mosquitto mosquitto-clients libmosquitto-dev nats-server
)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$mode" = check ]; then
	echo "install-deps: missing Debian packages: ${missing[*]}" >&2
	echo "install-deps: run 'make deps' (root or sudo) to install them" >&2
	exit 1
fi

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
