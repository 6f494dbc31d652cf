#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-host: libdiamond units, the vectors through the software
# backend, and diamondctl end to end on the host (keygen -> provision ->
# seal -> open --software) with every error path the CLI promises.
# One TAP stream: the programs' results are renumbered into it.
# Environment: US_BUILD (build/userspace), TOP (the tree).
set -u
US_BUILD=${US_BUILD:?}
TOP=${TOP:?}
D=$US_BUILD/diamondctl
W=$(mktemp -d /tmp/diamond-host.XXXXXX)
trap 'rm -rf "$W"' EXIT
RES=$W/results

ok() { echo "ok - $*" >>"$RES"; }
nok() { echo "not ok - $*" >>"$RES"; }
check() { local d=$1; shift; if "$@" >/dev/null 2>&1; then ok "$d"; else nok "$d"; fi; }
diag() { echo "# $*" >>"$RES"; }

# A TAP program: its lines join the stream; a crash or short plan fails.
run_tap() {
	local name=$1 out=$W/tap.out rc plan ran; shift
	"$@" >"$out" 2>&1; rc=$?
	grep -E '^(ok|not ok|#)' "$out" >>"$RES"
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$out" | head -n1)
	ran=$(grep -cE '^(ok|not ok)' "$out")
	if [ "$rc" -gt 1 ] || [ -z "$plan" ] || [ "$ran" -ne "$plan" ]; then
		nok "$name completed (status $rc, plan ${plan:-none}, ran $ran)"
	fi
}

: >"$RES"
run_tap test_units "$US_BUILD/test_units"
mkdir -p "$W/wstate"
run_tap test_wstate "$US_BUILD/test_wstate" "$W/wstate/state"
run_tap test_stage "$US_BUILD/test_stage" "$W/stage"
run_tap test_fence "$US_BUILD/test_fence" "$W/fence"
run_tap test_vectors_sw "$US_BUILD/test_vectors_sw" "$TOP/vectors/diamond.txt"

cd "$W" || exit 1

# --help everywhere
for c in keygen provision seal open state bench keys; do
	check "diamondctl $c --help" sh -c "'$D' $c --help | grep -q '^usage: diamondctl $c'"
done
check "diamondctl --help lists the commands" sh -c "'$D' --help | grep -q provision"
check "unknown command is a usage error" sh -c "'$D' frobnicate; [ \$? -eq 2 ]"

# keygen
check "keygen writes a root secret" "$D" keygen -o root
check "root is 32 bytes, mode 0600" sh -c '[ "$(stat -c %s:%a root)" = "32:600" ]'
check "keygen refuses to overwrite" sh -c "! '$D' keygen -o root 2>/dev/null"

# provision
check "provision device 7 (suite 2, xor, b 4) with header and state" \
	"$D" provision --root root --device 7 --suite 2 --agg xor --b 4 \
	--blob dev7.bin --header dev7.h --state-dir st
check "provision device 9 (suite 1, hash, b 3)" \
	"$D" provision --root root --device 9 --suite 1 --agg hash --b 3 \
	--blob dev9.bin --state-dir st
check "provision device 4294967295 (suite 1, add, b 1)" \
	"$D" provision --root root --device 4294967295 --suite 1 --agg add --b 1 \
	--blob devmax.bin --state-dir st
check "blob sizes 64 and 48 (version 2)" sh -c '[ "$(stat -c %s dev7.bin)" = 64 ] && [ "$(stat -c %s dev9.bin)" = 48 ]'
check "header has the blob array and the device id" sh -c \
	'grep -q "static const uint8_t diamond_device_blob\[\] = {" dev7.h && grep -q "#define DIAMOND_DEVICE_ID 7u" dev7.h'
printf '#include "dev7.h"\nint main(void) { return diamond_device_blob[5] == DIAMOND_DEVICE_SUITE ? 0 : 1; }\n' >hdr.c
check "header compiles and matches the blob" sh -c "${CC:-cc} -std=c11 -Wall -Werror -o hdr hdr.c && ./hdr"
check "provision refuses an existing blob" sh -c "! '$D' provision --root root --device 7 --suite 2 --agg xor --b 4 --blob dev7.bin 2>/dev/null"
check "provision refuses an existing state" sh -c "! '$D' provision --root root --device 7 --suite 2 --agg xor --b 4 --blob other.bin --state-dir st 2>/dev/null"
check "provision rejects b 0 and suite 3" sh -c \
	"! '$D' provision --root root --device 1 --suite 2 --agg xor --b 0 --blob x.bin 2>/dev/null && ! '$D' provision --root root --device 1 --suite 3 --agg xor --b 4 --blob x.bin 2>/dev/null"
check "state: device 7 at epoch 0" sh -c "'$D' state --state-dir st --device 7 | grep -qx 'device=7 epoch=0 index=0 suite=2 agg=xor b=4 generation=0'"

# seal
printf 'hello\nworld "quoted" \\ back\n\001\002bin\nfour\nfive\n' >lines7
check "seal device 7 (5 lines, b 4)" sh -c "'$D' seal --blob dev7.bin <lines7 >f7.bin"
check "blob file reserved epoch 2 (le64 at offset 16)" sh -c '[ "$(od -An -tx1 -j16 -N8 dev7.bin | tr -d " ")" = 0200000000000000 ]'
printf 'a\nb\nc\nd\ne\n' | "$D" seal --blob dev9.bin --ad 0a0b0c --flush 2 >f9.bin
check "seal device 9 with --flush 2 --ad" test -s f9.bin
printf 'x\ny\n' | "$D" seal --blob devmax.bin >fmax.bin
check "frames start with sync DF, type 1, suite 2" sh -c '[ "$(head -c 4 f7.bin | od -An -tx1 | tr -d " ")" = 44460102 ]'

cat >expect.json <<'JSON'
{"device":7,"epoch":0,"index":0,"data":"hello"}
{"device":7,"epoch":0,"index":1,"data":"world \"quoted\" \\ back"}
{"device":7,"epoch":0,"index":2,"data":"010262696e","encoding":"hex"}
{"device":7,"epoch":0,"index":3,"data":"four"}
{"device":7,"epoch":1,"index":0,"data":"five"}
{"device":9,"epoch":0,"index":0,"data":"a","ad":"0a0b0c"}
{"device":9,"epoch":0,"index":1,"data":"b","ad":"0a0b0c"}
{"device":9,"epoch":1,"index":0,"data":"c","ad":"0a0b0c"}
{"device":9,"epoch":1,"index":1,"data":"d","ad":"0a0b0c"}
{"device":9,"epoch":2,"index":0,"data":"e","ad":"0a0b0c"}
{"device":4294967295,"epoch":0,"index":0,"data":"x"}
{"device":4294967295,"epoch":1,"index":0,"data":"y"}
JSON
cp -r st st.orig
cat f7.bin f9.bin fmax.bin >all.bin
"$D" open --state-dir st --software --input all.bin >out.json 2>err.txt; rc=$?
check "open --software --input: exit 0" [ "$rc" -eq 0 ]
check "open --software: JSON output exact, AD as hex (item 17)" cmp -s out.json expect.json
check "open: summary line on stderr" grep -q '3 devices, 7 epochs verified, 0 rejected, 12 records' err.txt
check "state: device 7 now at epoch 2" sh -c "'$D' state --state-dir st --device 7 | grep -q 'epoch=2'"
check "state: device 9 now at epoch 3" sh -c "'$D' state --state-dir st --device 9 | grep -q 'epoch=3'"

# stdin, replay
"$D" open --state-dir st --software <f7.bin >out2.json 2>err2.txt; rc=$?
check "replay from stdin: exit 1, nothing delivered" sh -c "[ $rc -eq 1 ] && [ ! -s out2.json ]"
check "replay: names device 7 epoch 0 and the reason" grep -q 'device 7 epoch 0 rejected: epoch older than the state' err2.txt

# forgery: one bit of record 1's ciphertext, fresh state
rm -rf st && cp -r st.orig st
cp f7.bin forged.bin
printf '\x55' | dd of=forged.bin bs=1 seek=22 conv=notrunc 2>/dev/null
before=$(md5sum st/7.state)
python3 - <<'PY' 2>/dev/null || : >forged0.bin
d = open("forged.bin", "rb").read()
out, i = b"", 0
while i < len(d):
    L = d[i + 18] | d[i + 19] << 8
    if d[i + 8] == 0:
        out += d[i:i + 20 + L]
    i += 20 + L
open("forged0.bin", "wb").write(out)
PY
"$D" open --state-dir st --software --input forged0.bin >/dev/null 2>&1
check "forged epoch alone: state file unchanged" sh -c "[ \"\$(md5sum st/7.state)\" = '$before' ]"
"$D" open --state-dir st --software --input forged.bin >out3.json 2>err3.txt; rc=$?
check "forged epoch: exit 1" [ "$rc" -eq 1 ]
check "forged epoch: bad tag naming device 7 epoch 0" grep -q 'device 7 epoch 0 rejected: bad tag' err3.txt
check "forged epoch: its records not delivered" sh -c '! grep -q "\"epoch\":0" out3.json'
check "forged epoch: state moved past it only by the later epoch" sh -c "'$D' state --state-dir st --device 7 | grep -q 'epoch=2'"
check "forged epoch: the next epoch still verifies (skip)" grep -q '"device":7,"epoch":1,"index":0,"data":"five"' out3.json

# unknown device
mkdir -p empty
"$D" open --state-dir empty --software --input f7.bin >/dev/null 2>err4.txt; rc=$?
check "unknown device: exit 1 and named" sh -c "[ $rc -eq 1 ] && grep -q 'device 7 epoch 0 rejected: unknown device' err4.txt"

# truncated and malformed input
rm -rf st && cp -r st.orig st
head -c $(( $(stat -c %s f7.bin) - 5 )) f7.bin >trunc.bin
"$D" open --state-dir st --software --input trunc.bin >out5.json 2>err5.txt; rc=$?
check "truncated frame: exit 1, reported" sh -c "[ $rc -eq 1 ] && grep -q 'truncated frame' err5.txt"
check "truncated frame: the complete epoch before it verified" grep -q '"epoch":0,"index":3' out5.json
rm -rf st && cp -r st.orig st
{ printf 'noise before the frames D'; cat f9.bin; printf 'DF\x07\x01junkjunkjunkjunkjunk'; cat fmax.bin; } >garbage.bin
"$D" open --state-dir st --software --input garbage.bin >out6.json 2>err6.txt; rc=$?
check "garbage: resynchronised, all 7 records delivered" sh -c "[ \$(wc -l <out6.json) -eq 7 ]"
check "garbage: exit 1, skipped bytes and malformed header reported" sh -c \
	"[ $rc -eq 1 ] && grep -q 'without frame sync skipped' err6.txt && grep -q 'malformed frame header' err6.txt"

# incomplete epoch: drop record frame 1 of device 7's epoch 0
rm -rf st && cp -r st.orig st
python3 - <<'PY' 2>/dev/null || cp f7.bin incomplete.bin
d = open("f7.bin", "rb").read()
out, i, n = b"", 0, 0
while i < len(d):
    L = d[i + 18] | d[i + 19] << 8
    fr = d[i:i + 20 + L]
    if not (fr[2] == 1 and fr[16] == 1 and fr[8] == 0):
        out += fr
    i += 20 + L
open("incomplete.bin", "wb").write(out)
PY
"$D" open --state-dir st --software --input incomplete.bin >out7.json 2>err7.txt; rc=$?
check "missing record: epoch 0 rejected as incomplete" sh -c "[ $rc -eq 1 ] && grep -q 'device 7 epoch 0 rejected: incomplete epoch' err7.txt"
check "missing record: epoch 1 still verified" grep -q '"epoch":1,"index":0,"data":"five"' out7.json

# corrupt and foreign state files
rm -rf st && cp -r st.orig st
printf '\xff' | dd of=st/7.state bs=1 seek=40 conv=notrunc 2>/dev/null
"$D" open --state-dir st --software --input f7.bin >/dev/null 2>err8.txt; rc=$?
check "corrupt state: exit 1, 'corrupt state file' with its path" sh -c "[ $rc -eq 1 ] && grep -q 'corrupt state file: .*7.state' err8.txt"
check "corrupt state: diamondctl state fails clearly" sh -c "! '$D' state --state-dir st --device 7 2>&1 | grep -q epoch= && '$D' state --state-dir st --device 7 2>&1 | grep -q 'corrupt state file'"
rm -rf st && cp -r st.orig st
cp st/9.state st/7.state
"$D" open --state-dir st --software --input f7.bin >/dev/null 2>err9.txt; rc=$?
check "foreign state: exit 1, 'belongs to another device'" sh -c "[ $rc -eq 1 ] && grep -q 'belongs to another device' err9.txt"

# missing kernel module: the host has no AF_ALG (or no diamond module)
rm -rf st && cp -r st.orig st
"$D" open --state-dir st --input f7.bin >/dev/null 2>err10.txt; rc=$?
if grep -q 'modprobe diamond' err10.txt && [ "$rc" -eq 3 ]; then
	ok "kernel path without the module: exit 3, says modprobe diamond"
elif [ "$rc" -eq 0 ]; then
	ok "kernel path: module present on this host # SKIP module loaded"
else
	nok "kernel path without the module: exit 3, says modprobe diamond (rc $rc)"
fi
check "no silent fallback: nothing delivered without --software" sh -c "'$D' open --state-dir st --input f7.bin 2>/dev/null | grep -q . && false || true"
check "state untouched by the refused kernel run" sh -c "'$D' state --state-dir st --device 7 | grep -q 'epoch=0'"

# UDP on loopback
rm -rf st && cp -r st.orig st
port=$(( 20000 + RANDOM % 20000 ))
"$D" open --state-dir st --software --udp "$port" >out11.json 2>err11.txt &
pid=$!
sleep 0.3
check "udp: bound to 127.0.0.1 only" sh -c "ss -uln 2>/dev/null | grep -q '127.0.0.1:$port' || ! command -v ss >/dev/null"
bash -c "cat f9.bin >/dev/udp/127.0.0.1/$port"
sleep 0.3
kill -TERM $pid; wait $pid; rc=$?
check "udp: datagrams verified, exit 0 after SIGTERM" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <out11.json) -eq 5 ]"

# seal: a record over 4096 bytes
cp dev9.bin big.bin 2>/dev/null
{ echo small; head -c 5000 /dev/zero | tr '\0' x; echo; } | "$D" seal --blob big.bin >big.frames 2>err12.txt; rc=$?
check "seal: record over 4096 bytes is an error naming the size" sh -c "[ $rc -ne 0 ] && grep -q '5000 bytes, over the 4096-byte record limit' err12.txt"
check "seal: the records before it are still closed" sh -c "[ -s big.frames ]"

# seal: an open-only blob (spec section 2, byte 7 bit 0: a gateway's key)
python3 - <<'PY' 2>/dev/null || : >ro9.bin
import zlib
b = bytearray(open("dev9.bin", "rb").read())
b[7] |= 1
b[-4:] = zlib.crc32(bytes(b[:-4])).to_bytes(4, "little")
open("ro9.bin", "wb").write(b)
PY
cp ro9.bin ro9.orig 2>/dev/null
echo x | "$D" seal --blob ro9.bin >ro9.frames 2>err13.txt; rc=$?
check "seal: an open-only blob is refused (exit 3, 'open-only'), nothing sealed" \
	sh -c "[ $rc -eq 3 ] && grep -q 'open-only' err13.txt && [ ! -s ro9.frames ] && cmp -s ro9.bin ro9.orig"

# diamondctl bench (make bench-userspace): it provisions, seals and opens
# every epoch, so a gateway option it passes that the library refuses shows
# here, not first in a benchmark run.
for s in 1 2; do
	check "bench --software --suite $s: every epoch sealed and opened" sh -c \
		"'$D' bench --devices 3 --b 64 --size 16 --suite $s --epochs 6 --software --dir . >bench$s.txt && grep -q '^open (software)' bench$s.txt"
done

# custody: the loader (keys load). Its keys are of diamond.ko's own key
# type, so without the module (this host) it refuses with a clear error
# and writes nothing; with it (a host that has it loaded, and the VM
# suites: userspace-vm, custody-cell, the kselftests diamond_keys and
# diamond_wrap) the ingest finds the keys and reads none.
mkdir -p keys && chmod 700 keys && cp st/7.state st/9.state keys/
KP="python3 $TOP/selftests/userspace/keyprobe.py"
"$D" keys load --keys keys --state-dir ist -- $KP diamond:wrap diamond:7 \
	diamond:9 diamond:8 >kp.txt 2>kp.err; rc=$?
check "keys load: wrap.key made, 32 bytes, mode 0600" sh -c \
	'[ "$(stat -c %s:%a keys/wrap.key)" = "32:600" ]'
if grep -q "modprobe diamond" kp.err; then
	check "keys load without diamond.ko: exit 3, says to load it, writes no state" sh -c \
		"[ $rc -eq 3 ] && ! ls ist/*.state >/dev/null 2>&1"
	for t in "the ingest finds the keys and reads none" \
		"the ingest's files are version 4, without a key" \
		"--keyring user"; do
		echo "ok - keys load: $t # SKIP diamond.ko is not loaded on this host (the VM suites check it)" >>"$RES"
	done
	HAVE_DKEYS=0
else
	HAVE_DKEYS=1
check "keys load: exit 0, and it says what it loaded" sh -c \
	"[ $rc -eq 0 ] && grep -q 'custody: 2 devices by reference' kp.err"
check "keys load: the ingest finds diamond:wrap and the device keys" sh -c \
	"grep -q '^find diamond:wrap [1-9]' kp.txt && grep -q '^find diamond:7 [1-9]' kp.txt && grep -q '^find diamond:9 [1-9]' kp.txt"
check "keys load: no key for a device without a state file" \
	grep -q '^find diamond:8 -1 ENOKEY' kp.txt
check "keys load: no key can be read back (type diamond), nor its permissions changed" sh -c \
	"[ \$(grep -cE '^read .* -1 (EOPNOTSUPP|ENOTSUP)' kp.txt) = 3 ] && [ \$(grep -c '^setperm .* -1 EACCES' kp.txt) = 3 ]"
check "keys load: the session keyring is closed (no key added to it)" \
	grep -q '^add-session -1 EACCES' kp.txt
check "keys load: the ingest's files are version 4, mode 0600" sh -c \
	'for d in 7 9; do [ "$(od -An -tu1 -j4 -N1 ist/$d.state | tr -d " ")" = 4 ] && [ "$(stat -c %a ist/$d.state)" = 600 ] || exit 1; done'
python3 - >kp.key <<'PY'
for d in (7, 9):
    f = open("keys/%d.state" % d, "rb").read()
    k = 32 if f[16 + 5] == 2 else 16
    print(d, f[16 + 28:16 + 28 + k].hex())
PY
check "keys load: no 8 bytes of any device's E_e in the ingest's files" bash -c '
	while read -r d k; do
		h=$(od -An -tx1 -v ist/$d.state | tr -d " \n")
		for o in 0 16 32 48; do s=${k:$o:16}; [ -n "$s" ] || continue
			case $h in *$s*) exit 1;; esac; done
	done <kp.key'
check "state and open --software refuse a wrapped state (ENOKEY), exit 3" sh -c \
	"'$D' state --state-dir ist --device 7 2>e.txt; [ \$? -eq 3 ] && grep -q 'key' e.txt"
fi
# --keyring user (systemd's ExecStartPre=+ with KeyringMode=shared): the
# keys in a keyring linked into uid 65534's user keyring, found by a
# process of that uid whose session keyring links its user keyring
if [ "$HAVE_DKEYS" = 1 ] && [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir -p ist2 && chown 65534:65534 ist2
	"$D" keys load --keys keys --state-dir ist2 --user 65534:65534 \
		--keyring user 2>/dev/null
	# uid 65534 may read neither the tree (a clone under /root is 0700)
	# nor this test's directory: the probe goes to a file of its own.
	kpy=$(mktemp /tmp/diamond-keyprobe.XXXXXX)
	cp "$TOP/selftests/userspace/keyprobe.py" "$kpy" && chmod 644 "$kpy"
	(cd / && setpriv --reuid 65534 --regid 65534 --clear-groups \
		/usr/bin/python3 "$kpy" --shared diamond:wrap diamond:7) \
		>kpu.txt 2>&1
	rm -f "$kpy"
	check "keys load --keyring user: uid 65534 finds the keys, reads none" sh -c \
		"grep -q '^find diamond:wrap [1-9]' kpu.txt && grep -q '^find diamond:7 [1-9]' kpu.txt && [ \$(grep -cE '^read .* -1 (EOPNOTSUPP|ENOTSUP)' kpu.txt) = 2 ]"
	check "keys load --keyring user: the files are the ingest's (uid 65534)" sh -c \
		'[ "$(stat -c %u ist2/7.state)" = 65534 ]'
elif [ "$HAVE_DKEYS" = 1 ]; then
	echo "ok - keys load --keyring user # SKIP needs root and setpriv" >>"$RES"
fi
cp keys/wrap.key wrap.first
"$D" keys load --keys keys --state-dir ist >/dev/null 2>&1
check "keys load: again, the same wrap key, the ingest's files kept when ahead" \
	cmp -s keys/wrap.key wrap.first
chmod 644 keys/wrap.key
"$D" keys load --keys keys --state-dir ist 2>e.txt; rc=$?
check "keys load: a wrap.key others may read is refused (exit 3)" sh -c \
	"[ $rc -eq 3 ] && grep -q wrap.key e.txt"
chmod 600 keys/wrap.key

# the pkg-config file and the shared library
check "libdiamond.pc names the library" grep -q -- '-ldiamond' "$US_BUILD/libdiamond.pc"
check "shared library exports only diamond_ symbols" sh -c \
	"nm -D --defined-only '$US_BUILD/libdiamond.so' | awk '\$2 == \"T\" {print \$3}' | grep -v '^diamond_' | grep -q . && false || true"

# Renumber into one stream.
awk 'BEGIN { print "TAP version 13" }
     /^ok/ || /^not ok/ { n++; sub(/^(not )?ok( [0-9]+)?( -)?/, ($0 ~ /^not/ ? "not ok " : "ok ") n " -"); print; next }
     /^#/ { print }
     END { print "1.." n }' "$RES"
! grep -q '^not ok' "$RES"
