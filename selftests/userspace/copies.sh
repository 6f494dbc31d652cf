#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-copies: copies never delete a genuine unit (issue 23, item 3;
# spec section 8.1). Someone on the radio link repeats frames and damages
# the copies (frametool's N~: the last payload byte's low bit flipped;
# N%1: the suite byte says suite 1 for these suite 2 devices).
# For a grouped device (b = 8, g = 3), a device with g = b and one without
# groups, a damaged copy of a record or of a tag (group tag or epoch tag)
# is put before or after the genuine frame; every case asserts that every
# record of every epoch is delivered, each once. Before issue 23 the later
# copy replaced the earlier one: a damaged record copy after the genuine
# one cost its whole group or epoch, and so did a damaged tag copy.
# Environment: D (diamondctl), FT (frametool), BACKEND (backend.sh: the
# kernel backend runs the same cases through diamond.ko in vm.sh's VM).
set -u
D=${D:?}
FT=${FT:?}
W=$(mktemp -d /tmp/diamond-copies.XXXXXX)
trap 'rm -rf "$W"' EXIT
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../lib" && pwd)/tap.sh"
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/backend.sh"

echo "TAP version 13"
cd "$W" || exit 1
"$D" keygen -o root >/dev/null 2>&1

# setup NAME ID ARGS...: device ID provisioned with b = 8 and ARGS, 3
# epochs of 8 records "r0".."r23" sealed into NAME.bin; its state in
# NAME.st.
setup() {
	"$D" provision --root root --device "$2" --suite 2 --agg xor --b 8 \
		"${@:3}" --blob "$1.blob" --state-dir "$1.st" >/dev/null 2>&1
	seq 0 23 | sed 's/^/r/' | "$D" seal --blob "$1.blob" >"$1.bin" 2>/dev/null
}
# run NAME SPEC...: open those frames of NAME.bin from NAME's fresh state.
run() {
	rm -rf st && cp -r "$1.st" st
	"$FT" pick "$1.bin" "${@:2}" >in.bin
	gw_open st in.bin out.json err.txt
}
got() { sed -n 's/.*"epoch":\([0-9]*\),"index":\([0-9]*\),"data":"\([^"]*\)".*/\1 \2 \3/p' out.json | sort; }
want() { local e j; for e in 0 1 2; do for j in 0 1 2 3 4 5 6 7; do
	echo "$e $j r$((8 * e + j))"; done; done | sort; }
# Every record delivered, each once; exit 0, or exit 1 with nothing on
# stderr but the summary, the kernel path's startup line on its custody
# (userspace.rst section 1) and copies of a unit already released (their
# keys are gone: reported as a replay).
late_only() { ! grep -v 'older than the state\|: open ([a-z]*):\|custody: weaker' err.txt | grep -q .; }
all() { [ "$(got)" = "$(want)" ] && { [ $rc = 0 ] || late_only; }; }
# ... and a frame of another suite is a damaged frame, not a rejected epoch.
sall() { [ "$(got)" = "$(want)" ] && ! grep -q 'rejected:' err.txt &&
	{ [ $rc = 0 ] || ! grep -v ': open ([a-z]*):\|malformed frame header\|custody: weaker' err.txt | grep -q .; }; }
# Frames 0..N-1 with frame K preceded (before) or followed (after) by its
# damaged copy K~.
before() { local i s=""; for i in $(seq 0 $(($1 - 1))); do
	[ "$i" = "$2" ] && s="$s $i~"; s="$s $i"; done; echo $s; }
after() { local i s=""; for i in $(seq 0 $(($1 - 1))); do
	s="$s $i"; [ "$i" = "$2" ] && s="$s $i~"; done; echo $s; }
# The same with a copy of frame K whose suite byte says suite 1 (spec 8.1:
# no tag covers the byte; the receiver drops such a frame and nothing else).
sbefore() { before "$@" | sed "s/\b$2~/$2%1/"; }
safter() { after "$@" | sed "s/\b$2~/$2%1/"; }

# ---- grouped: b = 8, g = 3 --------------------------------------------------
# An epoch is 11 frames: r0 r1 r2 G0 r3 r4 r5 G1 r6 r7 T; 33 in all.
setup grp 8 --group-size 3
layout=$("$FT" list grp.bin | head -11 | awk '{ print $2 ":" $4 }' | tr '\n' ' ')
check "grouped: frames r0 r1 r2 G0 r3 r4 r5 G1 r6 r7 T" \
	test "$layout" = "1:0 1:1 1:2 3:0 1:3 1:4 1:5 3:1 1:6 1:7 2:8 "
run grp $(seq 0 32)
check "grouped clean: all 24 records" all
for k in 16 12 20; do	# records 4, 1 and 7 of epoch 1
	run grp $(before 33 $k)
	check "grouped: damaged copy before record frame $k: all 24 records" all
	run grp $(after 33 $k)
	check "grouped: damaged copy after record frame $k: all 24 records" all
done
for k in 14 18 21; do	# G0, G1 and T of epoch 1
	run grp $(before 33 $k)
	check "grouped: damaged copy before tag frame $k: all 24 records" all
	run grp $(after 33 $k)
	check "grouped: damaged copy after tag frame $k: all 24 records" all
done
for k in 16 18 21; do	# record 4, G1 and T of epoch 1
	run grp $(sbefore 33 $k)
	check "grouped: suite-1 copy before frame $k: all 24 records, no epoch rejected" sall
	run grp $(safter 33 $k)
	check "grouped: suite-1 copy after frame $k: all 24 records, no epoch rejected" sall
done
# Two records of one group damaged, one copy before, one after.
run grp 0 1 2 3 4 5 6 7 8 9 10 11 12~ 12 13 13~ 14 $(seq 15 32)
check "grouped: damaged copies of two records of a group: all 24 records" all
# Every frame repeated, the damaged copy first: twice the frames.
s=; for i in $(seq 0 32); do s="$s $i~ $i"; done
run grp $s
check "grouped: every frame after its damaged copy: all 24 records" all
s=; for i in $(seq 0 32); do s="$s $i $i~"; done
run grp $s
check "grouped: every frame before its damaged copy: all 24 records" all
# A lost record in group 0 of epoch 1: the later groups wait; each later
# tag's genuine copy is followed by a damaged one (the issue's case).
run grp $(seq 0 11) $(seq 13 17) 18 18~ 19 20 21 21~ $(seq 22 32)
got1=$(got | awk '$1 == 1 { print $2 }' | tr '\n' ' ')
check "grouped: lost record 1 of epoch 1, damaged tag copies after: records 3-7 of epoch 1" \
	test "$got1" = "3 4 5 6 7 "
check "grouped: ... and epochs 0 and 2 whole" \
	test "$(got | awk '$1 != 1' | wc -l)" = 16

# ---- g = b: one group, the epoch tag --------------------------------------
setup gb 9 --group-size 8
nf=$("$FT" list gb.bin | wc -l)
check "g = b: 27 frames (8 records and the tag, 3 epochs)" test "$nf" = 27
run gb $(seq 0 26)
check "g = b clean: all 24 records" all
for k in 12 17; do	# record 3 of epoch 1; its tag
	run gb $(before 27 $k)
	check "g = b: damaged copy before frame $k: all 24 records" all
	run gb $(after 27 $k)
	check "g = b: damaged copy after frame $k: all 24 records" all
done

# ---- no groups --------------------------------------------------------------
setup flat 10
nf=$("$FT" list flat.bin | wc -l)
check "no groups: 27 frames (8 records and the tag, 3 epochs)" test "$nf" = 27
run flat $(seq 0 26)
check "no groups clean: all 24 records" all
for k in 9 14 17; do	# records 0 and 5 of epoch 1; its tag
	run flat $(before 27 $k)
	check "no groups: damaged copy before frame $k: all 24 records" all
	run flat $(after 27 $k)
	check "no groups: damaged copy after frame $k: all 24 records" all
done
for k in 14 17; do	# record 5 of epoch 1; its tag
	run flat $(sbefore 27 $k)
	check "no groups: suite-1 copy before frame $k: all 24 records, no epoch rejected" sall
	run flat $(safter 27 $k)
	check "no groups: suite-1 copy after frame $k: all 24 records, no epoch rejected" sall
done
# Damaged copies of two records, one before and one after the genuine.
run flat $(seq 0 10) 11~ 11 12 12~ $(seq 13 26)
check "no groups: damaged copies of two records: all 24 records" all

tap_end
