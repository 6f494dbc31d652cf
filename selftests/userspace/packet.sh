#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-packet, diamondctl part: provision --packet, radio, seal
# --packet, open --packet --software (spec section 14). TAP on stdout,
# numbered from $1 + 1 (after test_packet's), no plan line.
#   D=diamondctl packet.sh N
set -u
n=${1:-0}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi; }
cd "$t" || exit 1
"$D" keygen -o root.bin 2>/dev/null
"$D" provision --root root.bin --device 10 --suite 2 --agg xor --b 32 \
	--blob d10.bin --state-dir st --generation 0 --packet --addr-width 1 --addr 2b
ok $? "provision --packet: device 10 at A = 1, address 2b"
"$D" provision --root root.bin --device 11 --suite 1 --agg xor --b 64 \
	--blob d11.bin --state-dir st --generation 0 --packet --addr-width 2 --addr 012b 2>/dev/null
[ $? = 3 ] && [ ! -e st/11.radio ] && [ ! -e d11.bin ] && [ ! -e st/11.state ]
ok $? "an address begun by another device's (2b of 2b 01) is refused, before any key is made"
"$D" provision --root root.bin --device 12 --suite 1 --agg add --b 64 \
	--blob d12.bin --state-dir st --generation 0 --packet --addr-width 2 --addr 0130 2>/dev/null
[ $? = 2 ] && [ ! -e st/12.radio ] && [ ! -e d12.bin ]
ok $? "a key packet mode refuses (ADD) is refused as usage, before any key is made"
"$D" provision --root root.bin --device 11 --suite 1 --agg xor --b 64 \
	--blob d11.bin --state-dir st --generation 0
ok $? "the refused provisioning used no generation: device 11 takes generation 0"
"$D" radio --state-dir st --device 11 --addr-width 2 --addr 0130
[ $? = 0 ] && [ "$("$D" radio --state-dir st --list | wc -l)" = 2 ]
ok $? "radio sets device 11's address; --list shows two devices"
seq 1 100 | sed 's/^/reading /' >in.txt
"$D" seal --packet --blob d10.bin --addr-width 1 --addr 2b <in.txt >p10.bin
ok $? "seal --packet: 100 packets"
"$D" open --packet --state-dir st --software p10.bin >out.json 2>err.txt
rc=$?
got=$(grep -c '"data"' out.json)
[ $rc = 0 ] && [ "$got" = 100 ] && grep -q '"index":31,"data":"reading 32"' out.json
ok $? "open --packet releases all 100 records, in place ($got)"
"$D" open --packet --state-dir st --software p10.bin >out2.json 2>/dev/null
[ $? = 0 ] && [ ! -s out2.json ]
ok $? "the same packets again release nothing"
if [ -e /sys/module/diamond ]; then
	n=$((n + 1)); echo "ok $n # SKIP diamond.ko is loaded here: the kernel path is check-userspace-vm's"
else
	"$D" open --packet --state-dir st p10.bin >out3.json 2>err.txt
	[ $? = 3 ] && [ ! -s out3.json ] && grep -q "or verify in software with --software" err.txt
	ok $? "without --software and without diamond.ko: exit 3 before any packet, naming --software"
fi
seq 1 5 | "$D" seal --blob d10.bin >frames.bin 2>/dev/null
"$D" open --state-dir st --software --input frames.bin >sout.json 2>serr.txt
[ ! -s sout.json ] && grep -q "packet-mode device" serr.txt
ok $? "stream frames naming a packet-mode device are dropped (one framing per chain)"
