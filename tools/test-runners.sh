#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# TAP checks of the simulator runners: tools/avr-run (libsimavr) and
# tools/m4-run with the insn-count QEMU plugin. Expects the artifacts that
# `make check-runners` builds under $BUILD/tools.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
T=$BUILD/tools
AVR_RUN=$T/avr-run
AVR_FW=$T/avr-run-selftest.elf
AVR_FW_RET=$T/avr-run-selftest-ret.elf
M4_FW=$T/m4-selftest.elf
export INSN_COUNT_SO=$T/insn-count.so

# Expected values, from the self-test firmware sources.
AVR_REGION1=301		# 300-cycle loop + AVR_RUN_REGION_OVERHEAD
M4_LOOP_INSNS=2001	# mov + 1000 * (subs + bne)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0 failed=0
ok() {			# ok <condition-status> <name> [diag...]
	local st=$1 name=$2
	shift 2
	n=$((n + 1))
	if [ "$st" = 0 ]; then
		echo "ok $n $name"
	else
		failed=$((failed + 1))
		echo "not ok $n $name"
		local d
		for d in "$@"; do echo "# $d"; done
	fi
}
check() {		# check <name> <cmd...>
	local name=$1
	shift
	if "$@"; then ok 0 "$name"; else ok 1 "$name"; fi
}
field() {		# field <file> <regex with one group>
	sed -n "s/$2/\\1/p" "$1" | head -n1
}

echo "TAP version 13"
echo "1..15"

# --- avr-run -----------------------------------------------------------
rc=0
"$AVR_RUN" --uart-out "$tmp/u1" --eeprom "$tmp/ee" "$AVR_FW" 2>"$tmp/e1" || rc=$?
ok $([ "$rc" = 3 ]; echo $?) "avr-run: exit code via GPIOR is 3" "rc=$rc"
printf 'hello\n' >"$tmp/want"
check "avr-run: UART0 bytes are exactly 'hello\\n'" cmp -s "$tmp/u1" "$tmp/want"

rc=0
"$AVR_RUN" "$AVR_FW_RET" >"$tmp/u_ret" 2>/dev/null || rc=$?
ok $([ "$rc" = 3 ]; echo $?) "avr-run: exit code via return from main is 3" "rc=$rc"

b1=$(od -An -tu1 -N1 "$tmp/ee" | tr -d ' ')
"$AVR_RUN" --uart-out "$tmp/u2" --eeprom "$tmp/ee" "$AVR_FW" 2>"$tmp/e2" || true
b2=$(od -An -tu1 -N1 "$tmp/ee" | tr -d ' ')
ok $([ "$b1" = 0 ] && [ "$b2" = 1 ]; echo $?) \
	"avr-run: EEPROM counter persists across runs (0 then 1)" "got $b1 then $b2"
ok $([ "$(stat -c %s "$tmp/ee")" = 4096 ]; echo $?) "avr-run: EEPROM file holds 4096 bytes"

c1=$(field "$tmp/e1" '^avr-run: cycles total=\([0-9]*\)$')
c2=$(field "$tmp/e2" '^avr-run: cycles total=\([0-9]*\)$')
r1=$(field "$tmp/e1" '^avr-run: region 1 cycles=\([0-9]*\)$')
r2=$(field "$tmp/e2" '^avr-run: region 1 cycles=\([0-9]*\)$')
ok $([ -n "$c1" ] && [ "$c1" = "$c2" ] && [ "$r1" = "$r2" ]; echo $?) \
	"avr-run: cycle counts repeat exactly (total=$c1)" "total $c1 vs $c2, region $r1 vs $r2"
ok $([ "$r1" = "$AVR_REGION1" ]; echo $?) \
	"avr-run: region 1 measures the 300-cycle loop + 1 ($r1)" "want $AVR_REGION1 got $r1"

cp "$tmp/ee" "$tmp/ee0"
rc=0
"$AVR_RUN" --eeprom "$tmp/ee" --cycles-limit 5000 "$AVR_FW" >/dev/null 2>&1 || rc=$?
ok $([ "$rc" = 124 ] && cmp -s "$tmp/ee" "$tmp/ee0"; echo $?) \
	"avr-run: --cycles-limit exits 124 and keeps EEPROM" "rc=$rc"
rc=0
"$AVR_RUN" --eeprom "$tmp/ee" --reset-at 5000 "$AVR_FW" >/dev/null 2>&1 || rc=$?
ok $([ "$rc" = 125 ]; echo $?) "avr-run: --reset-at exits 125" "rc=$rc"

# --profile: the per-address cycles of region 1 add up to the region's
"$AVR_RUN" --profile "$tmp/prof" --profile-region 1 "$AVR_FW" >/dev/null 2>&1 || true
ps=$(awk '{ s += $2 } END { print s + 0 }' "$tmp/prof" 2>/dev/null)
ok $([ "$ps" = "$AVR_REGION1" ]; echo $?) \
	"avr-run: --profile of region 1 adds up to its $AVR_REGION1 cycles" "got $ps"

# --- m4-run + insn-count ---------------------------------------------
rc=0
"$TOP/tools/m4-run" --timeout 60 "$M4_FW" >"$tmp/m_out" 2>"$tmp/m_err" || rc=$?
ok $([ "$rc" = 3 ]; echo $?) "m4-run: semihosting exit code is 3" "rc=$rc" "$(cat "$tmp/m_err")"
check "m4-run: semihosting output is exactly 'hello\\n'" cmp -s "$tmp/m_out" "$tmp/want"

rc=0
"$TOP/tools/m4-run" --count --timeout 60 --plugin-out "$tmp/p1" "$M4_FW" >/dev/null 2>&1 || rc=$?
"$TOP/tools/m4-run" --count --timeout 60 --plugin-out "$tmp/p2" "$M4_FW" >/dev/null 2>&1 || true
t1=$(field "$tmp/p1" '^insn-count: total insns=\([0-9]*\)$')
ok $([ "$rc" = 3 ] && [ -n "$t1" ]; echo $?) "m4-run --count: exit code 3 with a total ($t1)" "rc=$rc"
ok $([ -s "$tmp/p1" ] && cmp -s "$tmp/p1" "$tmp/p2"; echo $?) \
	"insn-count: counts repeat exactly" "$(cat "$tmp/p1" "$tmp/p2" 2>/dev/null)"
e=$(field "$tmp/p1" '^insn-count: region 1 insns=\([0-9]*\)$')
l=$(field "$tmp/p1" '^insn-count: region 2 insns=\([0-9]*\)$')
ok $([ -n "$e" ] && [ -n "$l" ] && [ $((l - e)) = "$M4_LOOP_INSNS" ]; echo $?) \
	"insn-count: loop region minus empty region = $M4_LOOP_INSNS (overhead ${e:-?})" \
	"empty=$e loop=$l"

[ "$failed" = 0 ]
