#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# run_all.sh [--require-module] [--dir DIR] [--vectors FILE] [--module NAME]
#
# Guest-side driver of the diamond selftests (busybox sh). Loads the
# accelerated crypto drivers and crypto_user, loads the diamond module, then
# runs every test program in DIR (default: this script's directory), each
# framed by markers so the host can split the TAP per program:
#
#   @@KSFT-BEGIN <name>@@
#   ...the program's TAP 13...
#   @@KSFT-END <name> <exit status>@@
#
# The module load is reported as its own TAP program, "module". Without
# --require-module a module that does not load is a skip and every program
# skips (exit 4); with it (make check) it is a failure. Exit status: 0 when
# every program passed or skipped, 1 otherwise.

dir=$(cd "$(dirname "$0")" && pwd)
vectors=/diamond/vectors/diamond.txt
module=diamond
require=0
while [ $# -gt 0 ]; do
	case $1 in
	--require-module) require=1; shift ;;
	--dir) dir=$2; shift 2 ;;
	--vectors) vectors=$2; shift 2 ;;
	--module) module=$2; shift 2 ;;
	*) echo "run_all.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

PROGS="diamond_vectors diamond_badinput diamond_tamper diamond_interop
diamond_threads diamond_kcapi diamond_kcapi_enc diamond_fuzz"

for m in aesni_intel ghash_clmulni_intel chacha_x86_64 poly1305_x86_64 \
	 crypto_user algif_aead; do
	modprobe "$m" 2>/dev/null || true
done

rc=0
echo "@@KSFT-BEGIN module@@"
echo "TAP version 13"
echo "1..1"
if out=$(modprobe "$module" 2>&1); then
	echo "ok 1 modprobe $module"
else
	echo "# $out"
	if [ "$require" = 1 ]; then
		echo "not ok 1 modprobe $module"
		rc=1
	else
		echo "ok 1 modprobe $module # SKIP module not available"
	fi
fi
echo "@@KSFT-END module $rc@@"

for p in $PROGS; do
	echo "@@KSFT-BEGIN $p@@"
	if [ -x "$dir/$p" ]; then
		"$dir/$p" "$vectors"
		s=$?
	else
		echo "TAP version 13"
		echo "1..1"
		echo "not ok 1 $p present in $dir"
		s=1
	fi
	echo "@@KSFT-END $p $s@@"
	case $s in
	0|4) ;;
	*) rc=1 ;;
	esac
done
exit $rc
