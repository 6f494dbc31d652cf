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
n=0 rc=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; rc=1; fi; }
info() { make -s --no-print-directory -C "$top" kernel-info 2>/dev/null | sed -n "s/^$1=//p"; }

echo "TAP version 13"
echo "1..4"
before=$(info KVER) ko=$(info KMOD_KO)
[ -n "$before" ]; ok $? "a kernel to build for: ${before:-none}"
case $ko in */x86_64-"$before"/diamond.ko|*/arm64-"$before"/diamond.ko) r=0 ;; *) r=1 ;; esac
ok $r "the module's path names its architecture and kernel: ${ko#"$top"/}"
if [ "$(id -u)" != 0 ] || [ -e "$fake" ]; then
	echo "ok 3 # SKIP needs root to plant $fake"
	echo "ok 4 # SKIP needs root to plant $fake"
	exit $rc
fi
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/build" && echo "# fake headers" >"$fake/build/Makefile"
after=$(info KVER)
[ "$after" = "$before" ]; ok $? "newer headers installed meanwhile: still $before (got ${after:-none})"
ko2=$(info KMOD_KO)
[ "$ko2" = "$ko" ]; ok $? "and the same module path"
exit $rc
