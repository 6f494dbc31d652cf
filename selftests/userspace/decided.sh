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


# ---- issue 34 item 7: reports that say what happened ---------------------------
# status DIR OUT FRAMES...: open() with its exit status in $rc.
status() { open "$@"; rc=$?; }
# Device 4: b = 4, g = 2; an epoch is r0 r1 G0 r2 r3 T (frames 6e .. 6e+5).
"$D" provision --root root --device 4 --suite 2 --agg xor --b 4 \
	--group-size 2 --blob dev4.bin --state-dir st4 >/dev/null 2>&1
seq 0 7 | sed 's/^/s/' | "$D" seal --blob dev4.bin >f4.bin 2>/dev/null
S=f4.bin
# Epoch 0 is r0 r1 G0 only; epoch 1 comes whole, its r0 damaged. Group 0
# of epoch 1 was tried (every frame of it came) while the cursor was in
# epoch 0, and failed: lost as bad_tag, not incomplete, once epoch 1's
# final group verifies.
status st4 bt.json 0 1 2 6~ 7 8 9 10 11
check "damaged unit past the cursor's epoch: epoch 1 closes, group 0 rejected bad_tag" \
	grep -qx '{"device":4,"epoch":1,"closed":true,"count":4,"released":\[1\],"rejected":\[{"group":0,"reason":"bad_tag"}\]}' bt.json
check "damaged unit past the cursor's epoch: stderr says bad tag for group 0 (records 0-1)" \
	grep -q 'device 4 epoch 1 group 0 (records 0-1) rejected: bad tag' bt.json.err
check "damaged unit past the cursor's epoch: exit 1 (a group rejected)" test $rc = 1

# Device 6: b = 8, g = 3; an epoch is r0 r1 r2 G0 r3 r4 r5 G1 r6 r7 T.
# Epoch 0's group 0, then epoch 1's groups 0 (r0 damaged) and 1: group 1
# verifies at the end of the input, so the cursor stores group 0 of
# epoch 1 decided, and the next run's line must say what this one said.
"$D" provision --root root --device 6 --suite 2 --agg xor --b 8 \
	--group-size 3 --blob dev6.bin --state-dir st6 >/dev/null 2>&1
seq 0 15 | sed 's/^/t/' | "$D" seal --blob dev6.bin >f6.bin 2>/dev/null
S=f6.bin
status st6 bt6a.json 0 1 2 3 11~ 12 13 14 15 16 17 18
check "the same decided with the cursor inside epoch 1: group 0 bad_tag" \
	grep -qx '{"device":6,"epoch":1,"closed":false,"released":\[1\],"rejected":\[{"group":0,"reason":"bad_tag"}\]}' bt6a.json
status st6 bt6b.json 19 20 21
check "... and the next run, from the state file, still says bad_tag" \
	grep -qx '{"device":6,"epoch":1,"closed":true,"count":8,"released":\[1,2\],"rejected":\[{"group":0,"reason":"bad_tag"}\]}' bt6b.json
check "... the summary lines of both runs agree" agree bt6a.json bt6b.json 1

# Device 5: b = 8, g = 2, one epoch of n = 5 records: r0 r1 G0 r2 r3 G1
# r4 T. The final group is record 4 alone. With its tag damaged, the
# input ends with it tried and undecided: its keys stay, no "rejected",
# exit 0; the genuine copy opens it in the next run.
"$D" provision --root root --device 5 --suite 1 --agg xor --b 8 \
	--group-size 2 --blob dev5.bin --state-dir st5 >/dev/null 2>&1
seq 0 4 | sed 's/^/u/' | "$D" seal --blob dev5.bin >f5.bin 2>/dev/null
S=f5.bin
layout=$("$FT" list f5.bin | awk '{ print $2 ":" $4 }' | tr '\n' ' ')
check "n = 5, g = 2: frames r0 r1 G0 r2 r3 G1 r4 T" \
	test "$layout" = "1:0 1:1 3:0 1:2 1:3 3:1 1:4 2:5 "
status st5 und1.json 0 1 2 3 4 5 6 7~
check "damaged epoch tag at the end: groups 0 1 released, nothing rejected" \
	grep -qx '{"device":5,"epoch":0,"closed":false,"released":\[0,1\],"rejected":\[\]}' und1.json
check "damaged epoch tag at the end: stderr says group 2 (record 4) undecided" \
	grep -q 'device 5 epoch 0 group 2 (record 4) undecided: bad tag' und1.json.err
check "damaged epoch tag at the end: no line says rejected: REASON" \
	sh -c "! grep -q 'rejected:' und1.json.err"
check "damaged epoch tag at the end: exit 0 (nothing rejected)" test $rc = 0
status st5 und2.json 6 7
check "the genuine copy in the next run: record 4 released, epoch 0 closes with n = 5" \
	grep -qx '{"device":5,"epoch":0,"closed":true,"count":5,"released":\[0,1,2\],"rejected":\[\]}' und2.json
check "the genuine copy in the next run: exit 0" test $rc = 0
check "the summary lines of both runs agree" agree und1.json und2.json 0

tap_end
