#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-decided: one decision per group, kept across restarts (issue 23
# item 4, spec 9.1 "Persistence"). An epoch of a grouped device is fed to
# `diamondctl open --software` in two runs on one state directory; the
# JSON summary lines of both runs must agree on every group they name, a
# group lost in the first run stays lost (its late frames release nothing),
# the state file never holds a key of a group decided lost, the end of the
# input decides nothing, and a version 2 state file (written before) is
# still read.
# Environment: D (diamondctl), FT (frametool).
set -u
D=${D:?}
FT=${FT:?}
W=$(mktemp -d /tmp/diamond-decided.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../lib" && pwd)/tap.sh"

echo "TAP version 13"
cd "$W" || exit 1

"$D" keygen -o root >/dev/null 2>&1
# Device 8: b = 8, g = 3; epoch 0 is r0 r1 r2 G0 r3 r4 r5 G1 r6 r7 T.
"$D" provision --root root --device 8 --suite 2 --agg xor --b 8 \
	--group-size 3 --blob dev8.bin --state-dir st8 >/dev/null 2>&1
seq 0 15 | sed 's/^/r/' | "$D" seal --blob dev8.bin >f8.bin 2>/dev/null
# Device 12: b = 64, g = 8; group i < 7 of epoch 0 is frames 9i .. 9i+8
# (8 records and G_i), the final group 7 frames 63 .. 71.
"$D" provision --root root --device 12 --suite 1 --agg hash --b 64 \
	--group-size 8 --blob dev12.bin --state-dir st12 >/dev/null 2>&1
seq 0 63 | sed 's/^/k/' | "$D" seal --blob dev12.bin >f12.bin 2>/dev/null
cp -r st12 st12.orig
group() { seq $((9 * $1)) $((9 * $1 + 8)); }

# open DIR OUT FRAMES...: one run on those frames of the stream $S.
open() {
	local dir=$1 out=$2
	shift 2
	"$FT" pick "$S" "$@" >in.bin
	"$D" open --state-dir "$dir" --software --input in.bin >"$out" 2>"$out.err"
}
# verdicts FILE EPOCH: "group verdict" per group its summary lines of
# EPOCH name (released, or the reason of a rejected run).
verdicts() {
	grep "\"epoch\":$2,\"closed\"" "$1" | while read -r l; do
		r=${l#*\"released\":[}
		r=${r%%]*}
		for g in ${r//,/ }; do echo "$g released"; done
		echo "$l" | grep -o '{"group":[0-9]*\(,"last":[0-9]*\)\?,"reason":"[a-z_]*"}' |
			sed 's/[^0-9a-z_:,]//g; s/group://; s/last://; s/reason://' |
			while IFS=, read -r a b c; do
				[ -z "$c" ] && { c=$b; b=$a; }
				for g in $(seq "$a" "$b"); do echo "$g $c"; done
			done
	done | sort -n
}
# agree A B EPOCH: both runs summed EPOCH up, B names every group A
# named, each with A's verdict, and no group twice.
agree() {
	local a b
	a=$(verdicts "$1" "$3")
	b=$(verdicts "$2" "$3")
	[ -n "$a" ] && [ -n "$b" ] &&
	[ -z "$(echo "$b" | cut -d' ' -f1 | uniq -d)" ] &&
	[ -z "$(comm -23 <(echo "$a" | sort) <(echo "$b" | sort))" ]
}
records() { grep -c '"index"' "$1"; }
hex() { od -An -tx1 -v "$1" | tr -d ' \n'; }

# ---- groups 0-1 in one run, the final group in the next (d01cf24) ----------
S=f8.bin
open st8 out1.json $(seq 0 7)
open st8 out2.json 8 9 10
check "split: the first run releases groups 0 and 1 (6 records)" \
	test "$(records out1.json)" = 6
check "split: the second run releases the final group (2 records)" \
	test "$(records out2.json)" = 2
check "split: the first run sums epoch 0 up unclosed, groups 0 1 released" \
	grep -qx '{"device":8,"epoch":0,"closed":false,"released":\[0,1\],"rejected":\[\]}' out1.json
check "split: the second run closes epoch 0 with groups 0 1 2 released" \
	grep -qx '{"device":8,"epoch":0,"closed":true,"count":8,"released":\[0,1,2\],"rejected":\[\]}' out2.json
check "split: the summary lines of both runs agree" agree out1.json out2.json 0
check "split: nothing rejected on stderr in the second run" \
	sh -c "! grep -q 'rejected:' out2.json.err"

# ---- a group lost in the first run stays lost --------------------------------
S=f12.bin
# The key of group 1, R_{0,8}, as a cursor at group 1 stores it: k bytes
# after the header, the 48-byte blob, le64(e) and le32(c), then (version
# 3) le32(m) and one run, and the CRC.
open st12 ref.json $(group 0)
k=$(($(stat -c %s st12/12.state) - 16 - 48 - 12 - 4))
[ "$(od -An -tx1 -j4 -N1 st12/12.state | tr -d ' ')" = 03 ] && k=$((k - 8))
key=$(hex st12/12.state | cut -c$((2 * (16 + 48 + 12) + 1))-$((2 * (16 + 48 + 12 + k))))
check "the state file after group 0 holds the cursor of group 1 (version 3)" \
	test "$(od -An -tx1 -j4 -N1 st12/12.state | tr -d ' ')" = 03
rm -rf st12 && cp -r st12.orig st12
# Run 1: groups 0, 2 and 3; group 1 never came: lost once group 2 opens.
open st12 run1.json $(group 0) $(group 2) $(group 3)
check "lost: the first run releases groups 0, 2, 3 (24 records)" \
	test "$(records run1.json)" = 24
check "lost: the first run reports group 1 lost, incomplete" \
	grep -q '"rejected":\[{"group":1,"reason":"incomplete"}\]' run1.json
check "lost: the state file holds no key of group 1 (R_{0,8})" \
	sh -c "[ ${#key} -ge 32 ] && ! od -An -tx1 -v st12/12.state | tr -d ' \n' | grep -q $key"
# Run 2: group 1 late, then the rest of the epoch.
open st12 run2.json $(group 1) $(seq 36 71)
check "lost: group 1 arriving in the next run releases nothing of it" \
	sh -c "! grep -q '\"index\":[89],\|\"index\":1[0-5],' run2.json"
check "lost: the next run releases groups 4-7 (32 records)" \
	test "$(records run2.json)" = 32
check "lost: the next run closes epoch 0, group 1 still lost, incomplete" \
	grep -qx '{"device":12,"epoch":0,"closed":true,"count":64,"released":\[0,2,3,4,5,6,7\],"rejected":\[{"group":1,"reason":"incomplete"}\]}' run2.json
check "lost: the summary lines of both runs agree" agree run1.json run2.json 0

# ---- the end of the input decides nothing --------------------------------------
rm -rf st12 && cp -r st12.orig st12
# Group 1 half there at the end of run 1: neither released nor lost.
open st12 end1.json $(group 0) 9 10 11
check "end of input: group 1 is not reported lost" \
	sh -c "! grep -q '\"group\":1\\|group 1 ' end1.json end1.json.err"
# The end of a run ends its open epochs' frames (the spool is for crashes),
# not group 1's keys: sent again, group 1 still verifies.
open st12 end2.json $(seq 9 71)
check "end of input: group 1 sent again and the rest release 56 records" \
	test "$(records end2.json)" = 56
check "end of input: the summary lines of both runs agree" \
	agree end1.json end2.json 0

# ---- a version 2 state file (before issue 23) is still read -------------------
rm -rf st12 && cp -r st12.orig st12
open st12 v2a.json $(group 0) $(group 1)
# The same cursor as version 2: without le32(m) and the run, a new CRC.
f=st12/12.state
len=$(($(stat -c %s $f) - 4 - 8))
head -c $len $f >v2.tmp
printf '\002' | dd of=v2.tmp bs=1 seek=4 conv=notrunc 2>/dev/null
gzip -c v2.tmp | tail -c8 | head -c4 >>v2.tmp
cp v2.tmp $f
check "version 2: the file written like one before issue 23 (CRC intact)" \
	sh -c "'$D' state --state-dir st12 --device 12 | grep -q 'epoch=1 '"
open st12 v2b.json $(seq 18 71)
check "version 2: the rest of the epoch releases groups 2-7 (48 records)" \
	test "$(records v2b.json)" = 48
check "version 2: groups 0-1 decided before, reported with reason replay" \
	grep -qx '{"device":12,"epoch":0,"closed":true,"count":64,"released":\[2,3,4,5,6,7\],"rejected":\[{"group":0,"last":1,"reason":"replay"}\]}' v2b.json
check "version 2: the next write is version 1 (the epoch closed)" \
	test "$(od -An -tx1 -j4 -N1 $f | tr -d ' ')" = 01

tap_end
