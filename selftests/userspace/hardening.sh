#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-hardening: operator mistakes and hostile input at the sender
# and in provisioning (issue 10), each checked end to end with diamondctl
# on the host (open --software). Its library units are test_hardening.c
# (suite userspace-hardening-units).
# Environment: US_BUILD (build/userspace), TOP (the tree).
set -u
US_BUILD=${US_BUILD:?}
TOP=${TOP:?}
D=$US_BUILD/diamondctl
W=$(mktemp -d /tmp/diamond-hardening.XXXXXX)
trap 'rm -rf "$W"' EXIT
. "$TOP/selftests/lib/tap.sh"

echo "TAP version 13"
cd "$W" || exit 1
"$D" keygen -o root >/dev/null 2>&1
prov() {	# prov ID B BLOB [more options]: suite 2, xor, state in st
	local id=$1 b=$2 blob=$3
	shift 3
	"$D" provision --root root --device "$id" --suite 2 --agg xor --b "$b" \
		--blob "$blob" --state-dir st "$@"
}

# Item 3: a seal is exclusive.
prov 3 4 d3.bin
printf 'a\nb\n' >two
flock d3.bin.lock sh -c "'$D' seal --blob d3.bin <two >f3a.bin 2>err3.txt"
rc=$?
check "lock: a second sealer of one blob is refused (exit 3)" [ $rc -eq 3 ]
check "lock: its message names the other seal and the lock file" \
	grep -q 'another seal is running on this blob (it holds d3.bin.lock)' err3.txt
check "lock: and it sealed nothing" test ! -s f3a.bin
check "lock: once free, seal runs" sh -c "'$D' seal --blob d3.bin <two >f3b.bin && test -s f3b.bin"

# Item 4: re-provisioning never reuses a key.
prov 4 4 d4.bin
cp d4.bin d4.first
printf 'old1\nold2\n' | "$D" seal --blob d4.bin >old.bin
rm -f d4.bin st/4.state
prov 4 4 d4.bin 2>err4.txt
check "re-provision after blob and state were deleted: a new generation" \
	sh -c "'$D' state --state-dir st --device 4 | grep -qx 'device=4 epoch=4294967296 index=0 suite=2 agg=xor b=4 generation=1'"
check "re-provision: the new blob differs from the first" sh -c "! cmp -s d4.bin d4.first"
check "re-provision: the ledger holds both generations" grep -Eqx '4 1 [0-9a-f]{32}' root.generations
"$D" open --state-dir st --software --input old.bin >o4.json 2>e4.txt
rc=$?
check "old generation's traffic: rejected (exit 1), nothing delivered" sh -c "[ $rc -eq 1 ] && [ ! -s o4.json ]"
check "old generation's traffic: reported as such" \
	grep -q 'device 4 epoch 0 rejected: epoch of an older provisioning generation' e4.txt
printf 'new\n' | "$D" seal --blob d4.bin >new.bin
"$D" open --state-dir st --software --input new.bin >o4b.json 2>/dev/null
check "new generation's traffic verifies" grep -q '"epoch":4294967296,"index":0,"data":"new"' o4b.json
check "provision --generation 1 again is refused (used)" sh -c \
	"! '$D' provision --root root --device 4 --suite 2 --agg xor --b 4 --blob x.bin --generation 1 2>/dev/null && test ! -e x.bin"
check "provision onto an existing state needs --replace-state" sh -c \
	"! '$D' provision --root root --device 4 --suite 2 --agg xor --b 4 --blob y.bin --state-dir st 2>/dev/null"
cp root oldroot
check "a root without a ledger needs --generation" sh -c \
	"! '$D' provision --root oldroot --device 4 --suite 2 --agg xor --b 4 --blob z.bin 2>/dev/null && test ! -e z.bin"

# Item 4: state export/import only moves a device forward.
mkdir -p bk bk2
check "state export writes ID.blob" sh -c "'$D' state export --state-dir st --device 4 bk && test -s bk/4.blob"
printf 'later\n' | "$D" seal --blob d4.bin >later.bin
"$D" open --state-dir st --software --input later.bin >/dev/null 2>&1
before=$(md5sum st/4.state)
"$D" state import --state-dir st bk/4.blob 2>ei.txt
rc=$?
check "import of an older backup is refused (exit 1)" [ $rc -eq 1 ]
check "import refusal says why" grep -q 'would not move the device forward' ei.txt
check "refused import left the state alone" sh -c "[ \"\$(md5sum st/4.state)\" = '$before' ]"
"$D" open --state-dir st --software --input later.bin >o4c.json 2>/dev/null
check "the epoch after the backup is still not accepted twice" test ! -s o4c.json
check "export of every device" sh -c "'$D' state export --state-dir st bk2 && test -s bk2/3.blob && test -s bk2/4.blob"
check "import moves the state to a new gateway" sh -c "'$D' state import --state-dir st2 bk2/3.blob bk2/4.blob"
check "moved state equals the original" sh -c "[ \"\$('$D' state --state-dir st2 --device 4)\" = \"\$('$D' state --state-dir st --device 4)\" ]"
check "import --advance 5 moves a restored device 5 epochs on" sh -c \
	"'$D' state import --state-dir st3 --advance 5 bk2/4.blob && '$D' state --state-dir st3 --device 4 | grep -q 'epoch=4294967303 '"
check "import of a blob from another root is refused" sh -c \
	"'$D' keygen -o root2 && '$D' provision --root root2 --device 4 --suite 2 --agg xor --b 4 --blob r2.bin --generation 1 && ! '$D' state import --state-dir st r2.bin 2>/dev/null"

# Item 5: a damaged blob is refused before anything is sealed.
prov 5 4 d5.bin
cp d5.bin d5.orig
v=$(od -An -tu1 -j40 -N1 d5.bin | tr -d ' ')
printf "\\x$(printf %02x $((v ^ 8)))" | dd of=d5.bin bs=1 seek=40 conv=notrunc status=none
printf 'x\n' | "$D" seal --blob d5.bin >f5.bin 2>e5.txt
rc=$?
check "blob with one flipped key bit: seal exits 3" [ $rc -eq 3 ]
check "damaged blob: message says so" grep -q 'malformed or damaged key blob' e5.txt
check "damaged blob: no frame emitted, blob untouched" sh -c "test ! -s f5.bin && ! cmp -s d5.bin d5.orig && [ \$(stat -c %s d5.bin) = 64 ]"

# Item 9: one limit; what seal produces, open opens.
prov 9 1024 d9.bin
head -c 4096 /dev/zero | tr '\0' r >rec
for i in $(seq 300); do cat rec; echo; done >big.txt
"$D" seal --blob d9.bin <big.txt >f9.bin 2>e9.txt
check "seal: 300 records of 4096 B at b = 1024, exit 0" test $? -eq 0
"$D" open --state-dir st --software --input f9.bin >o9.json 2>e9o.txt
check "open: all 300 delivered (epochs closed at the 1 MiB body limit)" sh -c "[ \$(wc -l <o9.json) -eq 300 ]"
check "provision --max-record 4096 at b = 1024 is refused" sh -c \
	"! '$D' provision --root root --device 90 --suite 2 --agg xor --b 1024 --blob m.bin --max-record 4096 2>em.txt && grep -q 'at most 255 records' em.txt"
check "provision --max-record 1000 at b = 1024 is accepted" \
	"$D" provision --root root --device 91 --suite 2 --agg xor --b 1024 --blob m91.bin --max-record 1000

# Item 11: an over-long line costs only itself.
prov 11 16 d11.bin
{ echo first; head -c 4097 /dev/zero | tr '\0' L; echo; echo last; } >l11
"$D" seal --blob d11.bin <l11 >f11.bin 2>e11.txt
rc=$?
check "seal: 4097-byte line -> exit 1, message with line number" sh -c "[ $rc -eq 1 ] && grep -q 'line 2: 4097 bytes, over the 4096-byte record limit: skipped' e11.txt"
"$D" open --state-dir st --software --input f11.bin >o11.json 2>/dev/null
check "seal: the lines before and after it are delivered" sh -c \
	"grep -q '\"index\":0,\"data\":\"first\"' o11.json && grep -q '\"index\":1,\"data\":\"last\"' o11.json"

# Item 12: numbers are decimal, never octal.
"$D" provision --root root --device 010 --suite 2 --agg xor --b 4 --blob oct.bin 2>e12.txt
rc=$?
check "--device 010 is refused (exit 2), not taken as 8" sh -c "[ $rc -eq 2 ] && test ! -e oct.bin && grep -q 'leading zeros' e12.txt"
check "--device 10 is device 10" sh -c "'$D' provision --root root --device 10 --suite 2 --agg xor --b 4 --blob dec.bin --state-dir st && '$D' state --state-dir st --device 10 | grep -q '^device=10 '"
check "--b 0x10 is refused" sh -c "! '$D' provision --root root --device 12 --suite 2 --agg xor --b 0x10 --blob hex.bin 2>/dev/null"

# Item 13: --version, -q, -v.
check "--version" sh -c "'$D' --version | grep -q '^diamondctl [0-9]'"
check "-v: provision says the generation" sh -c \
	"'$D' -v provision --root root --device 13 --suite 2 --agg xor --b 4 --blob v.bin 2>&1 | grep -q 'device 13: generation 0, first epoch 0'"
check "-q: seal -v notes are gone, errors stay" sh -c \
	"printf 'a\n' | '$D' -q seal --blob v.bin >/dev/null 2>q.txt && test ! -s q.txt && ! '$D' -q seal --blob nothere.bin </dev/null 2>q2.txt && test -s q2.txt"
check "unknown global option is a usage error" sh -c "'$D' --frob 2>/dev/null; [ \$? -eq 2 ]"

# Item 14: honest words, and errors as JSON lines.
"$D" seal --blob nothere.bin </dev/null 2>e14.txt
check "missing blob path: 'No such file or directory', not 'unknown device'" sh -c \
	"grep -q 'nothere.bin: No such file or directory' e14.txt && ! grep -q 'unknown device' e14.txt"
"$D" --json-errors seal --blob nothere.bin </dev/null 2>j14.txt
check "--json-errors: one JSON line on stderr" sh -c \
	"[ \$(wc -l <j14.txt) -eq 1 ] && grep -qx '{\"error\":\"nothere.bin: No such file or directory\",\"command\":\"seal\"}' j14.txt"
"$D" --json-errors provision --root root --device 010 --suite 2 --agg xor --b 4 --blob j.bin 2>j14b.txt
check "--json-errors: provision's error is JSON, quotes escaped" \
	grep -q "^{\"error\":\"bad value '010' (numbers are decimal, without leading zeros)\",\"command\":\"provision\"}$" j14b.txt
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
   unshare -m true 2>/dev/null; then
	mkdir -p full
	prov 14 4 d14.bin
	unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs full && cp d14.bin full/ &&
		(cat /dev/zero >full/fill 2>/dev/null; true) &&
		printf 'x\n' | '$D' seal --blob full/d14.bin >/dev/null 2>e14f.txt" 2>/dev/null
	check "disk full: 'No space left on device', not 'index space exhausted'" sh -c \
		"grep -q 'line 1: No space left on device' e14f.txt && ! grep -q exhausted e14f.txt"
	check "disk full: one message, no second 'Input/output error' about closing" sh -c \
		"[ \$(wc -l <e14f.txt) -eq 1 ]"
else
	skip "disk full: 'No space left on device'" "needs root and unshare -m for a full tmpfs"
	skip "disk full: one message" "needs root and unshare -m for a full tmpfs"
fi

# Item 16: a failed --header leaves no blob behind.
"$D" provision --root root --device 16 --suite 2 --agg xor --b 4 --blob d16.bin \
	--header nodir/d16.h --state-dir st 2>e16.txt
rc=$?
check "failed --header write: exit 3, no blob, no state left" sh -c \
	"[ $rc -eq 3 ] && test ! -e d16.bin && test ! -e st/16.state && ! ls d16.bin.tmp.* 2>/dev/null"
check "retry with a good --header succeeds" "$D" provision --root root --device 16 \
	--suite 2 --agg xor --b 4 --blob d16.bin --header d16.h --state-dir st

# Issue 23 item 5: a lost, restored or copied ledger orders generations,
# but never repeats a key: each provisioning draws a fresh N into E_0.
"$D" keygen -o lroot >/dev/null 2>&1
lprov() {	# lprov ROOT ID BLOB [more options]: suite 2, xor, b 4
	local root=$1 id=$2 blob=$3
	shift 3
	"$D" provision --root "$root" --device "$id" --suite 2 --agg xor --b 4 \
		--blob "$blob" "$@"
}
hexof() { od -An -v -tx1 "$@" | tr -d ' \n'; }
sealed() {	# sealed BLOB OUT: seal one fixed reading with a copy of BLOB
	cp "$1" "$1.seal" && printf 'reading 21.5C\n' | "$D" seal --blob "$1.seal" >"$2"
}
cp lroot.generations ledger.bak
lprov lroot 50 lr1.bin
cp ledger.bak lroot.generations
lprov lroot 50 lr2.bin --state-dir lst
check "restored ledger: generation 0 is handed out again" sh -c \
	"[ \$(grep -c '^50 0 ' lroot.generations) -eq 1 ] && [ '$(hexof -j24 -N4 lr1.bin)' = 00000000 ] && [ '$(hexof -j24 -N4 lr2.bin)' = 00000000 ]"
check "restored ledger: the two blobs differ" sh -c "test -s lr1.bin && test -s lr2.bin && ! cmp -s lr1.bin lr2.bin"
sealed lr1.bin ls1.bin
sealed lr2.bin ls2.bin
check "restored ledger: one reading sealed under each: the ciphertexts differ" sh -c \
	"test -s ls1.bin && test -s ls2.bin && [ \$(stat -c %s ls1.bin) = \$(stat -c %s ls2.bin) ] && ! cmp -s ls1.bin ls2.bin"
"$D" open --state-dir lst --software --input ls1.bin >o50a.json 2>/dev/null
"$D" open --state-dir lst --software --input ls2.bin >o50b.json 2>/dev/null
check "restored ledger: the first provisioning's traffic does not verify under the second" \
	sh -c "test -s ls1.bin && test ! -s o50a.json && grep -q '\"data\":\"reading 21.5C\"' o50b.json"
cp ledger.bak lroot.generations
lprov lroot 50 lr4.bin --state-dir lst --replace-state 2>e50.txt
rc=$?
check "restored ledger: a gateway holding that generation refuses it (exit 3, no blob)" \
	sh -c "[ $rc -eq 3 ] && test ! -e lr4.bin && grep -q 'a state of this or a newer generation exists' e50.txt"
check "restored ledger: --generation above the gateway's replaces its state" sh -c \
	"'$D' provision --root lroot --device 50 --suite 2 --agg xor --b 4 --blob lr5.bin --state-dir lst --replace-state --generation 1"
: >lroot.generations
lprov lroot 50 lr3.bin
check "emptied ledger: generation 0 again, epoch 0" sh -c \
	"[ '$(hexof -j16 -N12 lr3.bin)' = 000000000000000000000000 ] && grep -Eqx '50 0 [0-9a-f]{32}' lroot.generations"
check "emptied ledger: a key of its own" sh -c "test -s lr3.bin && ! cmp -s lr3.bin lr1.bin && ! cmp -s lr3.bin lr2.bin"
mkdir -p host2
cp lroot lroot.generations host2/
lprov lroot 51 lh1.bin
lprov host2/lroot 51 lh2.bin
check "copied root on a second host: the same generation" sh -c \
	"grep -q '^51 0 ' lroot.generations && grep -q '^51 0 ' host2/lroot.generations"
check "copied root on a second host: different keys" sh -c "test -s lh1.bin && test -s lh2.bin && ! cmp -s lh1.bin lh2.bin"
sealed lh1.bin lt1.bin
sealed lh2.bin lt2.bin
check "copied root on a second host: the ciphertexts differ" sh -c "test -s lt1.bin && test -s lt2.bin && ! cmp -s lt1.bin lt2.bin"
# Spec section 2, recomputed here from ROOT and the ledger line's N.
n51=$(awk '$1 == 51 { print $3 }' lroot.generations)
e0=$( { printf 'DIAMOND/3 E0\x02\x00\x04\x00\x00\x00\x33\x00\x00\x00\x00\x00\x00\x00'
	printf "$(echo "$n51" | sed 's/../\\x&/g')"; cat lroot; } | sha256sum | cut -c1-64)
check "the ledger records N, and SHA-256(\"DIAMOND/3 E0\" .. N || R) is the blob's E_0" \
	sh -c "[ ${#n51} -eq 32 ] && [ '$e0' = '$(hexof -j28 -N32 lh1.bin)' ]"

# provision --devices FIRST-LAST: a range in one run, the ledger read once.
"$D" keygen -o rroot >/dev/null 2>&1
rprov() {	# rprov RANGE PATTERN [more options]: suite 2, xor, b 4, state in rst
	local range=$1 pat=$2
	shift 2
	"$D" provision --root rroot --devices "$range" --suite 2 --agg xor --b 4 \
		--blob "$pat" --state-dir rst "$@"
}
check "--devices 60-63: four blobs, four states, four ledger lines of generation 0" sh -c \
	"'$D' provision --root rroot --devices 60-63 --suite 2 --agg xor --b 4 --blob 'r%u.bin' --state-dir rst && ls r60.bin r61.bin r62.bin r63.bin rst/60.state rst/63.state >/dev/null && [ \$(grep -Ec '^6[0-3] 0 [0-9a-f]{32}\$' rroot.generations) -eq 4 ] && [ \$(wc -l <rroot.generations) -eq 4 ]"
check "--devices: each device's own key (no two blobs alike)" sh -c \
	"[ \$(for i in 60 61 62 63; do od -An -v -tx1 -j28 -N32 r\$i.bin | tr -d ' \\n'; echo; done | sort -u | wc -l) -eq 4 ]"
printf 'range reading\n' | "$D" seal --blob r62.bin >rs62.bin 2>/dev/null
"$D" open --state-dir rst --software --input rs62.bin >o62.json 2>/dev/null
check "--devices: device 62's reading verifies against its state" grep -q '"device":62,.*"data":"range reading"' o62.json
rprov 63-65 'r%u.bin' 2>er.txt
rc=$?
check "--devices 63-65 over a provisioned 63: exit 3, nothing taken, no blob made" sh -c \
	"[ $rc -eq 3 ] && grep -q 'r63.bin: exists' er.txt && [ \$(wc -l <rroot.generations) -eq 4 ] && test ! -e r64.bin && test ! -e r65.bin"
rprov 63-65 's%u.bin' 2>er.txt
rc=$?
check "--devices over a device with a state: exit 3 (--replace-state), nothing taken" sh -c \
	"[ $rc -eq 3 ] && grep -q 'device 63 has a state' er.txt && [ \$(wc -l <rroot.generations) -eq 4 ] && test ! -e s64.bin"
check "--devices 63-65 --replace-state: 63 takes generation 1, 64 and 65 generation 0" sh -c \
	"'$D' provision --root rroot --devices 63-65 --suite 2 --agg xor --b 4 --blob 's%u.bin' --state-dir rst --replace-state && grep -q '^63 1 ' rroot.generations && grep -q '^64 0 ' rroot.generations && grep -q '^65 0 ' rroot.generations"
check "--devices --generation 1 where 63 holds 1: refused (exit 3), the ledger unchanged" sh -c \
	"n=\$(wc -l <rroot.generations); '$D' provision --root rroot --devices 62-63 --suite 2 --agg xor --b 4 --blob 'g%u.bin' --generation 1 2>&1 | grep -q 'generation 1 of device 63 is used already' && [ \$(wc -l <rroot.generations) -eq \$n ] && test ! -e g62.bin"
for bad in 'r.bin' 'r%u%u.bin' 'r%s.bin' 'r%d.bin'; do
	check "--devices with --blob '$bad': refused (exit 2)" sh -c \
		"'$D' provision --root rroot --devices 70-71 --suite 2 --agg xor --b 4 --blob '$bad' 2>/dev/null; [ \$? -eq 2 ]"
done
for bad in 71-70 7-x 070-71 0-1048576; do
	check "--devices $bad: refused (exit 2)" sh -c \
		"'$D' provision --root rroot --devices $bad --suite 2 --agg xor --b 4 --blob 'q%u.bin' 2>/dev/null; [ \$? -eq 2 ]"
done
check "--devices with --header or --packet: refused (exit 2)" sh -c \
	"'$D' provision --root rroot --devices 70-71 --suite 2 --agg xor --b 4 --blob 'h%u.bin' --header h.h 2>/dev/null; [ \$? -eq 2 ] && '$D' provision --root rroot --devices 70-71 --suite 2 --agg xor --b 16 --blob 'h%u.bin' --state-dir rst --packet --addr-width 1 --addr 7 2>/dev/null; [ \$? -eq 2 ] && test ! -e h70.bin"

# seal --devices: lines "ID RECORD" routed to each device's blob.
printf '64 a0\n64 a1\n65 b0\nx junk\n99 out of range\n64 a2\n' |
	"$D" seal --devices 64-65 --blob 's%u.bin' >rs.bin 2>ers.txt
rc=$?
"$D" open --state-dir rst --software --input rs.bin >ors.json 2>/dev/null
check "seal --devices: bad lines skipped (exit 1), each named" sh -c \
	"[ $rc -eq 1 ] && grep -q 'line 4: not \"ID RECORD\"' ers.txt && grep -q 'line 5: not' ers.txt"
check "seal --devices: every good line verifies as its device's, in order" sh -c \
	"[ \"\$(sed 's/.*\"device\":\\([0-9]*\\),\"epoch\":[0-9]*,\"index\":\\([0-9]*\\),\"data\":\"\\([^\"]*\\)\".*/\\1 \\2 \\3/' ors.json | tr '\\n' ,)\" = '64 0 a0,64 1 a1,65 0 b0,64 0 a2,' ]"
check "seal --devices: a pattern without %u is refused (exit 2)" sh -c \
	"printf '64 x\\n' | '$D' seal --devices 64-65 --blob s64.bin >/dev/null 2>&1; [ \$? -eq 2 ]"

tap_end
