#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-vm.sh: make bench-userspace-vm's guest side (issue 20 item 5).
# Runs in the VM under qemu -icount shift=0, where guest time is the
# instruction count: diamondctl bench's "ns/epoch" is instructions per
# epoch. For each suite, at 1 device and at 10,000, the same frames are
# opened by the software path and the kernel path (clear keys, then
# custody: keys in the keyring, wrapped states), and one line per case
# prints both and their ratio.
#
# 10,000 devices: every epoch goes to the next device round robin, so from
# the 257th on each one re-keys a tfm evicted by the LRU cap (256): the
# worst case. 512 epochs reach that steady state at a fifth of the cost
# of one epoch per device.
set -u
modprobe diamond || { echo "userspace-vm: modprobe diamond failed"; exit 1; }
mkdir -p /b
out=/b/rows
: >"$out"
rc=0
for s in 1 2; do
	for n in 1 10000; do
		e=64
		[ "$n" -gt 1 ] && e=512
		for mode in clear custody; do
			flag=
			[ "$mode" = custody ] && flag=--custody
			echo "== suite $s, $n devices, $e epochs, kernel path $mode"
			# Each case on a fresh module: the precompute's votes
			# (diamond_chain.c) start even, as at a gateway's start.
			rmmod diamond && modprobe diamond || rc=1
			diamondctl bench --devices "$n" --b 1024 --size 16 --suite "$s" \
				--epochs "$e" --dir /b $flag >/b/log 2>&1 || rc=1
			cat /b/log
			awk -v s="$s" -v n="$n" -v m="$mode" '
				/^open \(software\)/ { sub(/.*, /, ""); sw = $1 }
				/^open \(kernel\)/ { sub(/.*, /, ""); k = $1 }
				END { if (sw && k) printf "%s %s %s %s %s %.2f\n", s, n, m, sw, k, sw / k }' \
				/b/log >>"$out"
		done
	done
done
echo
echo "Instructions per epoch (b = 1024, 16-byte records; guest ns under -icount shift=0)"
printf '%-6s %-8s %-8s %14s %14s %18s\n' suite devices kernel software kernel "software / kernel"
while read -r s n m sw k r; do
	printf '%-6s %-8s %-8s %14s %14s %18s\n' "$s" "$n" "$m" "$sw" "$k" "$r"
done <"$out"
[ "$(wc -l <"$out")" -eq 8 ] || { echo "userspace-vm: $(wc -l <"$out") of 8 cases measured"; rc=1; }
exit $rc
