#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# seal-groups: diamondctl provision --group-size and seal's group tag frames
# (spec section 5.1), checked by the portable core's group receiver through
# frame-check (a check independent of the gateway, diamondctl open).
# With FW-NV AVR-RUN SENDER-ELF as well, a blob provisioned with
# --group-size goes into an AVR image and the sensor firmware's frames
# are checked the same way.
# Usage: seal-groups.sh DIAMONDCTL FRAME-CHECK [FW-NV AVR-RUN SENDER-ELF];
# prints TAP.
set -u
D=$(realpath "${1:?diamondctl}")
FC=$(realpath "${2:?frame-check}")
FWNV=${3:+$(realpath "$3")}
AVR_RUN=${4:+$(realpath "$4")}
ELF=${5:+$(realpath "$5")}
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../lib" && pwd)/tap.sh"
W=$(mktemp -d /tmp/diamond-seal-groups.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

le16() { od -An -tu2 -j "$2" -N2 --endian=little "$1" | tr -d ' '; }
# The frames frame-check parses, as "TYPE INDEX" lines of epoch $2.
frames() { "$FC" --list "$1" | awk -v e="$2" '$1 == "frame" && $5 == e { print $2, $6 }' | tr '\n' ' '; }
flip() {	# flip FILE OFFSET
	local v
	v=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "\\$(printf '%03o' $((v ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

echo "TAP version 13"
check "keygen" "$D" keygen -o root
prov() { "$D" provision --root root --suite 2 --agg xor "$@"; }

# provision
prov --device 1 --b 16 --group-size 4 --blob g4.bin --header g4.h >/dev/null 2>&1
check "provision --group-size 4 (b 16) writes g = 4 into blob offset 26 and the header" \
	sh -c "[ '$(le16 g4.bin 26)' = 4 ] && grep -q '^#define DIAMOND_DEVICE_GROUP_SIZE 4u$' g4.h"
prov --device 2 --b 16 --group-size 16 --blob gb.bin >/dev/null 2>&1
check "provision --group-size b stores 0 (g = b: the blob of a device without groups)" \
	[ "$(le16 gb.bin 26)" = 0 ]
prov --device 3 --b 16 --group-size 17 --blob bad.bin 2>err17; rc=$?
check "provision --group-size 17 with b 16 is refused (exit 2, message), no blob" \
	sh -c "[ $rc = 2 ] && grep -q 'group holds 1 to b = 16' err17 && [ ! -e bad.bin ]"
prov --device 3 --b 16 --group-size 0 --blob bad.bin 2>/dev/null; rc=$?
check "provision --group-size 0 is refused (exit 2)" sh -c "[ $rc = 2 ] && [ ! -e bad.bin ]"
prov --device 3 --b 16 --group-size 4 --v1 --blob bad.bin 2>errv1; rc=$?
check "provision --v1 --group-size 4 is refused: version 1 has no group size" \
	sh -c "[ $rc = 2 ] && grep -q 'version 1 blob has no group size' errv1 && [ ! -e bad.bin ]"
prov --device 4 --b 16 --group-size 16 --v1 --blob v1.bin >/dev/null 2>&1; rc=$?
check "provision --v1 --group-size b is accepted (a 56-byte version 1 blob)" \
	sh -c "[ $rc = 0 ] && [ \$(stat -c %s v1.bin) = 56 ]"

# seal: 10 records then 1 (--flush 10), b 16, g 4: group tags after
# records 3 and 7 (8 < 16), the final group holds records 8 and 9.
cp g4.bin g4.init
seq 1 11 | sed 's/^/reading /' | "$D" seal --blob g4.bin --flush 10 --ad 6869 >f.bin
check "seal with g = 4 exits 0" [ $? = 0 ]
check "epoch 0: group tag frames 0 and 1 right after records 3 and 7, then the epoch tag (n = 10)" \
	[ "$(frames f.bin 0)" = "1 0 1 1 1 2 1 3 3 0 1 4 1 5 1 6 1 7 3 1 1 8 1 9 2 10 " ]
check "epoch 1 (1 record, below g): no group tag frame" [ "$(frames f.bin 1)" = "1 0 2 1 " ]
"$FC" --key g4.init f.bin >check.tap
check "frame-check passes on seal's grouped output" [ $? = 0 ]
check "the core's group receiver verifies both epochs and both groups" \
	grep -q '^# 2 epochs and 2 groups verified, 0 units rejected, 0 incomplete' check.tap

# One damaged record (record 5, in group 1) costs group 1 only.
cp f.bin d.bin
# Records are 20 + 9 bytes ("reading N"), group tags 20 + 2 + 16.
flip d.bin $((5 * 29 + 38 + 20 + 4))
"$FC" --key g4.init d.bin >damage.tap
check "a damaged record costs its group: group 1 rejected, 2 epochs and group 0 verify" \
	sh -c "grep -q 'epoch 0 group 1: rejected' damage.tap &&
	grep -q '^# 2 epochs and 1 groups verified, 1 units rejected' damage.tap"

# A whole epoch of b = 16: groups 0, 1, 2 (12 < 16), the final group 12..15.
prov --device 5 --b 16 --group-size 4 --blob full.bin >/dev/null 2>&1
cp full.bin full.init
seq 1 16 | "$D" seal --blob full.bin >full.frames
check "a full epoch (16 records, g = 4): group tags 0, 1, 2, never one for the last group" \
	[ "$("$FC" --list full.frames | awk '$2 == 3 { print $6 }' | tr '\n' ' ')" = "0 1 2 " ]
"$FC" --key full.init full.frames >full.tap
check "the core's group receiver verifies its 3 groups and the final group" \
	grep -q '^# 1 epochs and 3 groups verified, 0 units rejected, 0 incomplete' full.tap

# g = b: the frames are what they are without groups.
cp gb.bin gb.init
seq 1 11 | "$D" seal --blob gb.bin --flush 10 >gb.frames
check "g = b: no group tag frame" sh -c "! '$FC' --list gb.frames | grep -q '^frame 3 '"
"$FC" --key gb.init gb.frames >gb.tap
check "g = b: both epochs verify" grep -q '^# 2 epochs and 0 groups verified, 0 units rejected' gb.tap

# The firmware path: provision --group-size 3 -> fw-nv image -> AVR sensor
# firmware (Diamond2, 4 epochs of 8 records) -> the core's group receiver.
if [ -n "$ELF" ]; then
	prov --device 9 --b 1024 --group-size 3 --blob fw.bin >/dev/null 2>&1
	"$FWNV" image avr fw.bin ee.bin && "$FWNV" show avr ee.bin >nv.txt
	check "fw-nv image keeps the blob's group size (slot shows group 3)" grep -q 'live, suite 2 device 9 epoch 0 group 3$' nv.txt
	"$AVR_RUN" --eeprom ee.bin --uart-out fw.link "$ELF" 2>/dev/null
	check "the AVR sensor firmware runs on the provisioned g = 3 image" [ $? = 0 ]
	"$FC" --key fw.bin fw.link >fw.tap
	check "its frames: 4 epochs and 8 group tags verify with the group receiver" \
		sh -c "[ $? = 0 ] && grep -q '^# 4 epochs and 8 groups verified, 0 units rejected, 0 incomplete' fw.tap"
else
	skip "provisioned firmware image with groups" "no fw-nv, avr-run or firmware given"
fi

# An open-only blob (spec section 2: a gateway's key) never becomes a
# device image: the device would refuse it at its first seal.
if [ -n "$FWNV" ]; then
	prov --device 10 --b 4 --blob ro.bin >/dev/null 2>&1
	python3 - <<'PY' 2>/dev/null || : >ro.bin
import zlib
b = bytearray(open("ro.bin", "rb").read())
b[7] |= 1
b[-4:] = zlib.crc32(bytes(b[:-4])).to_bytes(4, "little")
open("ro.bin", "wb").write(b)
PY
	"$FWNV" image avr ro.bin ro.ee 2>ro.err
	check "fw-nv image refuses an open-only blob, writes no image" \
		sh -c "[ $? = 1 ] && grep -q 'open-only' ro.err && [ ! -e ro.ee ]"
else
	skip "fw-nv refuses an open-only blob" "no fw-nv given"
fi

tap_end
