#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-forgery: what forged units cost the gateway (issue 23, items 1
# and 2). Device 9 has b = 65535 and g = 1; the attacker sends 300 forged
# (record, group tag) pairs, record frame 0 and group tag frame 0 of a
# genuine epoch moved to group i = 65534, 65334, ... 5734 of the epoch the
# gateway waits for. Before issue 23 each pair made the gateway walk i
# chain steps (3.6 s of CPU in all) and the run wrote 2.4 MB. Asserted:
# the instructions `open --software` executes (callgrind: deterministic,
# 0.2 s of CPU is about 6e8), the chain steps it walked to reach units
# (its metrics), the bytes it writes, and that the genuine epochs sent
# after the forgeries are all delivered. Environment: D, FT, and BACKEND
# (backend.sh): with the kernel backend (vm.sh) the same opens run through
# diamond.ko in a VM under TCG, where CPU is no figure: instead of the
# instructions the module's own work is asserted, counted by kprobes: the
# record chain slots it walks and the epoch updates, within the same budget
# as libdiamond's chain steps.
set -u
D=${D:?}
FT=${FT:?}
W=$(mktemp -d /tmp/diamond-forgery.XXXXXX)
trap 'rm -rf "$W"' EXIT
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../lib" && pwd)/tap.sh"
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/backend.sh"

# Budgets: instructions of the whole run (process start included), chain
# steps walked to reach units (one walk of the epoch, 65535 steps, then at
# most 256 per forged unit), bytes of stdout and stderr together.
IR_MAX=400000000
IR_EPOCHS_MAX=1000000000
STEPS_MAX=$((65535 + 300 * 256))
OUT_MAX=65536

echo "TAP version 13"
cd "$W" || exit 1
"$D" keygen -o root >/dev/null 2>&1
"$D" provision --root root --device 9 --suite 2 --agg xor --b 65535 \
	--group-size 1 --blob dev9.bin --state-dir st >/dev/null 2>&1
cp -r st st.orig
# Two epochs of 4 records: r0 G0 r1 G1 r2 G2 r3 G3 T, twice.
seq 0 7 | sed 's/^/r/' | "$D" seal --blob dev9.bin --flush 4 >f.bin 2>/dev/null
specs=
for k in $(seq 0 299); do
	i=$((65534 - 200 * k))
	specs="$specs 0#$i 1#$i"
done
"$FT" pick f.bin $specs >forged.bin
"$FT" pick f.bin $specs $(seq 0 17) >attack.bin
check "300 forged pairs are 600 frames of at most 36 bytes" \
	test "$(stat -c %s forged.bin)" -le $((600 * 36))

run() {	# run INPUT: open it from a fresh state, out.json err.txt m.prom
	rm -rf st && cp -r st.orig st
	gw_open st "$1" out.json err.txt m.prom
}
metric() { sed -n "s/^$1 //p" m.prom; }
# kernel_work WHAT SLOTS UPDATES: the module walked at most SLOTS record
# chain slots and UPDATES epoch updates for the last run (kernel backend).
kernel_work() {
	gw_kernel || return 0
	if [ -z "$k_slot" ] || [ -z "$k_upd" ]; then
		skip "$1: the module's chain steps" "the guest has no kprobes"
		return 0
	fi
	echo "# $1, in the module: $k_slot record slots, $k_upd epoch updates, $k_stream stream calls, $k_req requests (verifications), $k_key setkeys"
	ok $([ "$k_slot" -le "$2" ]; echo $?) \
		"$1: record slots the module walked $k_slot <= $2"
	ok $([ "$k_upd" -le "$3" ]; echo $?) \
		"$1: epoch updates in the module $k_upd <= $3"
}

run attack.bin
got=$(sed -n 's/.*"index":\([0-9]*\),"data":"\([^"]*\)".*/\1 \2/p' out.json | tr '\n' ' ')
check "genuine epochs after the forgeries: all 8 records, each once" \
	test "$got" = "0 r0 1 r1 2 r2 3 r3 0 r4 1 r5 2 r6 3 r7 "
steps=$(metric diamond_chain_steps_total)
ok $([ -n "$steps" ] && [ "$steps" -le $STEPS_MAX ]; echo $?) \
	"chain steps to reach units: ${steps:-?} <= $STEPS_MAX"
bytes=$(cat out.json err.txt | wc -c)
ok $([ "$bytes" -lt $OUT_MAX ]; echo $?) \
	"output for 300 forged pairs and 2 epochs: $bytes bytes < $OUT_MAX"
kernel_work "300 forged pairs and 2 epochs" $STEPS_MAX 302

# The same pairs, each in an epoch of its own (2 .. 301, at group 65533,
# the last non-final one) after genuine epoch 0: every forged unit names a
# fresh epoch, whose walk no checkpoint can shorten. A long walk into an epoch is paid with one of
# the device's 4 credits, and a verified unit gives one back: at most 4
# paid walks (65,535 steps and the epoch updates), the rest at most 256.
specs=
for k in $(seq 0 299); do
	specs="$specs 0@$((k + 2))#65533 1@$((k + 2))#65533"
done
"$FT" pick f.bin $(seq 0 8) $specs >epochs.bin
run epochs.bin
steps=$(metric diamond_chain_steps_total)
max=$((4 * (65535 + 302) + 300 * 256))
ok $([ -n "$steps" ] && [ "$steps" -le $max ]; echo $?) \
	"forged units in 300 fresh epochs: chain steps ${steps:-?} <= $max"
got=$(sed -n 's/.*"index":\([0-9]*\),"data":"\([^"]*\)".*/\1 \2/p' out.json | tr '\n' ' ')
check "forged units in 300 fresh epochs: genuine epoch 0 delivered" \
	test "$got" = "0 r0 1 r1 2 r2 3 r3 "
bytes=$(cat out.json err.txt | wc -c)
ok $([ "$bytes" -lt $OUT_MAX ]; echo $?) \
	"output for forged units in 300 fresh epochs: $bytes bytes < $OUT_MAX"
kernel_work "forged units in 300 fresh epochs" $max $((4 * 302 + 300))

run forged.bin
check "forgeries alone: nothing on stdout (no epoch verified)" \
	test ! -s out.json
bytes=$(cat out.json err.txt | wc -c)
ok $([ "$bytes" -lt $OUT_MAX ]; echo $?) \
	"output for 300 forged pairs alone: $bytes bytes < $OUT_MAX"
# The input ends with the forged units tried and undecided (issue 34 item
# 7): reported as such on stderr, not counted as rejected groups.
check "forgeries alone: reported undecided (bad tag), none counted as a rejected group" \
	sh -c "grep -q 'undecided: bad tag' err.txt && [ '$(metric diamond_groups_rejected_total)' = 0 ]"
kernel_work "300 forged pairs alone" $STEPS_MAX 302

# instructions INPUT: what `open --software` executes for INPUT (callgrind).
instructions() {
	gw_kernel && return
	rm -rf st && cp -r st.orig st
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$D" open --state-dir st --software --input "$1" 2>&1 \
		>/dev/null | sed -n 's/.*Collected : *//p'
}
for input in forged:"300 forged pairs alone" \
	     attack:"300 forged pairs and 2 epochs"; do
	if gw_kernel; then
		skip "instructions of open for ${input#*:}" "kernel backend: CPU under TCG is no figure (the module's counters above)"
		continue
	elif ! command -v valgrind >/dev/null 2>&1; then
		skip "instructions of open for ${input#*:}" "no valgrind"
		continue
	fi
	ir=$(instructions "${input%%:*}.bin")
	ok $([ -n "$ir" ] && [ "$ir" -lt $IR_MAX ]; echo $?) \
		"instructions of open for ${input#*:}: ${ir:-?} < $IR_MAX"
done
# Fresh epochs: the 4 paid walks of 65,535 steps are about 550 million
# instructions of the budget (0.1 s of CPU here).
if gw_kernel; then
	skip "instructions of open for 300 forged pairs in fresh epochs" "kernel backend: CPU under TCG is no figure (the module's counters above)"
elif command -v valgrind >/dev/null 2>&1; then
	ir=$(instructions epochs.bin)
	ok $([ -n "$ir" ] && [ "$ir" -lt $IR_EPOCHS_MAX ]; echo $?) \
		"instructions of open for 300 forged pairs in fresh epochs: ${ir:-?} < $IR_EPOCHS_MAX"
else
	skip "instructions of open for 300 forged pairs in fresh epochs" "no valgrind"
fi
tap_end
