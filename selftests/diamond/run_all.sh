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
# Each program's TAP ends with a diagnostic of its wall-clock time in the
# guest ("# diamond_fuzz: 41.37 s"): under TCG that is where a run's time
# goes.
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

# The tests, in order, as `make install` lists them (kselftest-list.txt).
list=$dir/kselftest-list.txt
if [ ! -f "$list" ]; then
	echo "run_all.sh: no $list (make -C selftests/diamond install)" >&2
	exit 1
fi
PROGS=$(sed -n 's/^diamond://p' "$list")

# A 1-deep cryptd queue for the whole run (diamond_cryptd checks the
# backlog semantics under it): cryptd_max_cpu_qlen can only be set at load,
# so unload cryptd and its users (loaded by the VM's init) and reload it.
# Whatever holds cryptd (the architecture's SIMD drivers) goes first,
# holders of holders before them.
unload() {
	local h
	for h in /sys/module/$1/holders/*; do
		[ -e "$h" ] && unload "${h##*/}"
	done
	rmmod "$1" 2>/dev/null
}
[ -e /sys/module/cryptd ] && unload cryptd
if [ ! -e /sys/module/cryptd ] && modprobe cryptd cryptd_max_cpu_qlen=1; then
	export DMD_CRYPTD_QLEN=1
fi

# The architecture's accelerated AES, GHASH, ChaCha and Poly1305 drivers
# (those the CPU cannot run refuse to load), then the AF_ALG pieces.
for f in $(find /lib/modules/*/kernel/arch/*/crypto -name '*.ko' 2>/dev/null); do
	m=${f##*/}
	case $m in aes*|ghash*|chacha*|poly1305*) ;; *) continue ;; esac
	modprobe "${m%.ko}" 2>/dev/null || true
done
for m in crypto_user algif_aead; do
	modprobe "$m" 2>/dev/null || true
done

rc=0
echo "@@KSFT-BEGIN module@@"
echo "TAP version 13"
echo "1..1"
# From 7.x, /proc/sys/crypto/af_alg_restrict (default 1) lets type "aead"
# bind only algif_aead's allowlist, which holds no diamond name. The tests
# leave it as the kernel has it: afalg_bind() falls back to the module's
# own type "diamond" (Documentation/kernel-api.rst, "The diamond socket
# type"). Nothing here writes it; the value is printed for the log.
restrict=/proc/sys/crypto/af_alg_restrict
[ -e "$restrict" ] && echo "# af_alg_restrict is $(cat "$restrict") (left as it is)"
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

# Seconds since boot, to the hundredth.
uptime_s() { cut -d' ' -f1 /proc/uptime; }

for p in $PROGS; do
	echo "@@KSFT-BEGIN ${p%.sh}@@"
	t0=$(uptime_s)
	if [ -x "$dir/$p" ]; then
		"$dir/$p" "$vectors"
		s=$?
	else
		echo "TAP version 13"
		echo "1..1"
		echo "not ok 1 $p present in $dir"
		s=1
	fi
	echo "# ${p%.sh}: $(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }') s"
	echo "@@KSFT-END ${p%.sh} $s@@"
	case $s in
	0|4) ;;
	*) rc=1 ;;
	esac
done
exit $rc
