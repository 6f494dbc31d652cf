#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The kernel a run builds and boots is fixed when make starts (issue 10
# item 2): another kernel's headers appearing mid-run, even newer ones,
# change neither KVER nor the module path, and the module's path names the
# architecture and kernel it was built for. Needs root to plant a fake
# /lib/modules/V/build; removed again on exit. TAP on stdout.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fake=/lib/modules/99.99.0-0-kbuild-test-amd64
. "$top/selftests/lib/tap.sh"
info() { make -s --no-print-directory -C "$top" kernel-info 2>/dev/null | sed -n "s/^$1=//p"; }

echo "TAP version 13"
before=$(info KVER) ko=$(info KMOD_KO)
[ -n "$before" ]; ok $? "a kernel to build for: ${before:-none}"
case $ko in */x86_64-"$before"/diamond.ko|*/arm64-"$before"/diamond.ko) r=0 ;; *) r=1 ;; esac
ok $r "the module's path names its architecture and kernel: ${ko#"$top"/}"
if [ "$(id -u)" != 0 ] || [ -e "$fake" ]; then
	skip "newer headers installed meanwhile" "needs root to plant $fake"
	skip "and the same module path" "needs root to plant $fake"
	tap_end
	exit
fi
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/build" && echo "# fake headers" >"$fake/build/Makefile"
after=$(info KVER)
[ "$after" = "$before" ]; ok $? "newer headers installed meanwhile: still $before (got ${after:-none})"
ko2=$(info KMOD_KO)
[ "$ko2" = "$ko" ]; ok $? "and the same module path"
tap_end
