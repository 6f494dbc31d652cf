#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-vm: diamondctl end to end through the kernel module in one VM
# boot. On the host: keygen, provision two devices (suites 1 and 2), seal
# their telemetry, and open it with --software for the expected output. In
# the VM (static diamondctl): open without the module (must fail and say
# modprobe diamond), load it, open through the kernel and compare with the
# host's output, then a forged epoch, a replay, an incomplete epoch, the
# state files, and a grouped device (g < b) against the software path. Skips (exit 4) when the module is not built.
# Then the suites of forgery.sh and copies.sh (issue 23) against the kernel
# backend (backend.sh): each is run on the host to record its opens, the
# guest runs them through the module with kprobes counting the module's
# chain steps, and each is run again on the guest's results; its TAP lines
# become this suite's, named "forgery (kernel): ..." and "copies (kernel): ...".
# Issue 20 item 6, the compromised-gateway test, comes from custody-item6.sh,
# which the matrix cells' custody suite (custody-cell.sh) shares.
# Environment: US_BUILD, TOP, BUILD, KMOD_KO (the module, mk/kernel.mk), FT
# (frametool).
set -u
US_BUILD=${US_BUILD:?}
TOP=${TOP:?}
BUILD=${BUILD:?}
KO=${KMOD_KO:?}
FT=${FT:?}
CP=${CP:?}
D=$US_BUILD/diamondctl
DS=$US_BUILD/diamondctl-static

echo "TAP version 13"
if [ ! -f "$KO" ] || [ ! -x "$DS" ]; then
	echo "1..1"
	echo "ok 1 userspace-vm # SKIP kernel module not built (make module)"
	exit 4
fi
W=$(mktemp -d /tmp/diamond-vm.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

"$D" keygen -o root
"$D" provision --root root --device 5 --suite 1 --agg xor --b 8 --blob d5.bin --state-dir st >/dev/null
"$D" provision --root root --device 6 --suite 2 --agg hash --b 4 --blob d6.bin --state-dir st >/dev/null
"$D" provision --root root --device 70000 --suite 2 --agg add --b 16 --blob d7.bin --state-dir st >/dev/null
cp -r st st.orig
for i in $(seq 1 20); do echo "temp=$i.5 C"; done | "$D" seal --blob d5.bin --ad 6761746577617931 >f5.bin
for i in $(seq 1 10); do printf 'binary\001%d\n' "$i"; done | "$D" seal --blob d6.bin --flush 3 >f6.bin
for i in $(seq 1 40); do echo "reading $i"; done | "$D" seal --blob d7.bin >f7.bin
cat f5.bin f6.bin f7.bin >frames.bin
# A grouped device (g < b, 3 epochs of 12 frames: r r G r r G r r G r r T):
# the kernel's grouped request gives the software path's JSON and state, with
# a lost record (epoch 0 group 1), a damaged one (epoch 1 record 5), and a
# restart mid-epoch (the cursor through the state file into setkey).
"$D" provision --root root --device 11 --suite 2 --agg xor --b 8 --group-size 2 --blob d11.bin --state-dir stg >/dev/null
cp -r stg stg.orig
for i in $(seq 1 24); do echo "g $i"; done | "$D" seal --blob d11.bin >fg.bin
python3 - <<'PY'
d = open("fg.bin", "rb").read()
fr, i = [], 0
while i < len(d):
    L = d[i + 18] | d[i + 19] << 8
    fr.append(bytearray(d[i:i + 20 + L]))
    i += 20 + L
del fr[3]                      # epoch 0 record 2: group 1 lost
fr[18][21] ^= 1                # epoch 1 record 5 (frame 19 before): damaged
open("fgl.bin", "wb").write(b"".join(fr))
open("fgl1.bin", "wb").write(b"".join(fr[:17]))   # to epoch 1's G1
open("fgl2.bin", "wb").write(b"".join(fr[17:]))
PY
for v in stgs stgs2; do cp -r stg.orig $v; done
"$D" open --software --state-dir stgs --input fgl.bin >expectg.json 2>/dev/null
{ "$D" open --software --state-dir stgs2 --input fgl1.bin
  "$D" open --software --state-dir stgs2 --input fgl2.bin; } >expectg2.json 2>/dev/null
"$D" open --state-dir st --software --input frames.bin >expect.json 2>/dev/null
for d in 5 6 70000; do "$D" state --state-dir st --device $d; done >expect.state
# A forgery of device 5's first epoch (one ciphertext bit) and a replay.
cp f5.bin forged.bin
printf '\x01' | dd of=forged.bin bs=1 seek=21 conv=notrunc 2>/dev/null
python3 - <<'PY' || cp f6.bin incomplete.bin
d = open("f6.bin", "rb").read()
out, i = b"", 0
while i < len(d):
    L = d[i + 18] | d[i + 19] << 8
    fr = d[i:i + 20 + L]
    if not (fr[2] == 1 and fr[8] == 0 and fr[16] == 1):
        out += fr
    i += 20 + L
open("incomplete.bin", "wb").write(out)
PY

# The kernel-backend passes of forgery.sh and copies.sh: record their opens.
SUITES="forgery copies"
for s in $SUITES; do
	mkdir -p w/jobs/$s
	BACKEND=kernel VM_PHASE=record VM_JOBS=$W/w/jobs/$s D=$D FT=$FT \
		"$TOP/selftests/userspace/$s.sh" >/dev/null 2>&1
done

cat >guest.sh <<'SH'
st=/w/st
# Without the module: hide it from request_module's autoload first.
mv /lib/modules/*/extra/diamond.ko /w/diamond.ko
diamondctl open --state-dir $st --input /w/frames.bin >/w/o0.json 2>/w/e0.txt
echo "@@rc0 $?"
sed 's/^/@@e0 /' /w/e0.txt
insmod /w/diamond.ko || echo "@@insmod failed"
grep -c '^name *: diamond' /proc/crypto | sed 's/^/@@algs /'
# Forged epoch first, on a fresh state: rejected, state unchanged.
md5sum $st/5.state | cut -d' ' -f1 | sed 's/^/@@md5a /'
diamondctl open --state-dir $st --input /w/forged.bin >/w/o2.json 2>/w/e2.txt
echo "@@rc2 $?"
sed 's/^/@@e2 /' /w/e2.txt
cp -r /w/st.orig /w/st2
diamondctl open --state-dir /w/st2 --input /w/incomplete.bin >/w/o3.json 2>/w/e3.txt
echo "@@rc3 $?"
sed 's/^/@@e3 /' /w/e3.txt
sed 's/^/@@o3 /' /w/o3.json
rm -rf $st && cp -r /w/st.orig $st
diamondctl open --state-dir $st --input /w/frames.bin >/w/o1.json 2>/w/e1.txt
echo "@@rc1 $?"
sed 's/^/@@e1 /' /w/e1.txt
sed 's/^/@@o1 /' /w/o1.json
for d in 5 6 70000; do diamondctl state --state-dir $st --device $d; done | sed 's/^/@@state /'
cp -r /w/stg.orig /w/stg2
diamondctl open --state-dir /w/stg --input /w/fgl.bin >/w/o6.json 2>/w/e6.txt
echo "@@rc6 $?"
sed 's/^/@@e6 /' /w/e6.txt
sed 's/^/@@o6 /' /w/o6.json
md5sum </w/stg/11.state | cut -d' ' -f1 | sed 's/^/@@md5g /'
{ diamondctl open --state-dir /w/stg2 --input /w/fgl1.bin
  diamondctl open --state-dir /w/stg2 --input /w/fgl2.bin; } >/w/o7.json 2>/w/e7.txt
sed 's/^/@@o7 /' /w/o7.json
md5sum </w/stg2/11.state | cut -d' ' -f1 | sed 's/^/@@md5g2 /'
diamondctl open --state-dir $st --input /w/f5.bin >/dev/null 2>/w/e4.txt
echo "@@rc4 $?"
sed 's/^/@@e4 /' /w/e4.txt
cat /w/frames.bin /w/frames.bin | diamondctl open --state-dir $st >/dev/null 2>/w/e5.txt
echo "@@rc5 $?"
sed 's/^/@@e5 /' /w/e5.txt
# Custody (issue 20 items 2-3): the loader as root over a root-only
# directory of clear states, the ingest as uid 65534 (its group may bind
# the "diamond" type); every device keyed by reference to its key of the
# module's key type, on 6.1 as on later kernels. Then a restart (replays
# only), and the grouped device across a restart mid-epoch.
echo 65534 >/sys/module/diamond/parameters/afalg_gid || echo "@@noafalg"
mkdir -p /w/ck /w/cst && cp /w/st.orig/*.state /w/stg.orig/11.state /w/ck/
chmod 700 /w/ck /w/cst && chown 65534:65534 /w/cst
kl() { diamondctl keys load --keys /w/ck --state-dir /w/cst --user 65534:65534 "$@"; }
kl -- diamondctl open --custody --state-dir /w/cst --input /w/frames.bin \
	>/w/oc1.json 2>/w/ec1.txt
echo "@@rcc1 $?"
sed 's/^/@@ec1 /' /w/ec1.txt
sed 's/^/@@oc1 /' /w/oc1.json
for d in 5 6 70000 11; do
	echo "@@cst $d $(od -An -tx1 -v /w/cst/$d.state | tr -d ' \n')"
	echo "@@cown $d $(stat -c %u:%a /w/cst/$d.state)"
done
kl -- diamondctl open --custody --state-dir /w/cst --input /w/frames.bin \
	>/dev/null 2>/w/ec2.txt
echo "@@rcc2 $?"
sed 's/^/@@ec2 /' /w/ec2.txt
{ kl -- diamondctl open --custody --state-dir /w/cst --input /w/fgl1.bin
  kl -- diamondctl open --custody --state-dir /w/cst --input /w/fgl2.bin; } \
	>/w/oc3.json 2>/w/ec3.txt
sed 's/^/@@oc3 /' /w/oc3.json
sed 's/^/@@ec3 /' /w/ec3.txt
diamondctl open --custody --state-dir /w/cst --input /w/frames.bin \
	>/dev/null 2>/w/ec4.txt
echo "@@rcc4 $?"
sed 's/^/@@ec4 /' /w/ec4.txt
# Issue 20 item 6: the compromised-gateway test (custody-item6.sh).
sh /w/i6/guest.sh
# The recorded jobs of the kernel-backend suites (backend.sh), each from its
# own state; kprobes count the module's work: kprobe_profile's hits of
# each probe before (k0) and after (k1) the job; every result file goes
# back line by line as "@@J SUITE/N/FILE LINE".
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
for p in slot:diamond_cursor_slot upd:epoch_update req:diamond_decrypt \
	 key:diamond_setkey stream:stream; do
	echo "p:dmd_${p%%:*} diamond:${p#*:}" >>$T/kprobe_events 2>/dev/null ||
		echo "@@noprobe ${p%%:*}"
done
echo 0 >$T/tracing_on 2>/dev/null
echo 1 >$T/events/kprobes/enable 2>/dev/null
hits() { awk '$1 ~ /^dmd_/ { printf "%s %s ", $1, $2 } END { print "" }' \
	$T/kprobe_profile 2>/dev/null || echo; }
for s in $(ls /w/jobs); do
	for n in $(ls /w/jobs/$s | sort -n); do
		j=/w/jobs/$s/$n
		m=
		[ -f $j/metrics ] && m="--metrics $j/m.prom"
		hits >$j/k0
		diamondctl open --state-dir $j/st $m --input $j/in.bin \
			>$j/out 2>$j/err
		echo $? >$j/rc
		hits >$j/k1
		for f in out err m.prom rc k0 k1; do
			[ -f $j/$f ] && awk -v p="@@J $s/$n/$f " '{ print p $0 }' $j/$f
		done
	done
done
echo "@@jobs done"
SH
mkdir -p w
. "$TOP/selftests/userspace/custody-item6.sh"
item6_prepare "$D" "$CP" "$W/w/i6" || echo "# item 6: the host's side failed"
cp -r st.orig w/st && cp -r st.orig w/st.orig && \
	cp -r stg w/stg && cp -r stg.orig w/stg.orig && \
	cp frames.bin forged.bin incomplete.bin f5.bin fgl.bin fgl1.bin \
	fgl2.bin guest.sh w/
BUILD=$BUILD/vm "$TOP/tools/vm/run-vm" --timeout 1500 --module "$KO" \
	--file "$DS:/bin/diamondctl" --file "$W/w:/w" -- 'sh /w/guest.sh' \
	>console.txt 2>vmerr.txt
vmrc=$?

n=0 fails=0
t "VM boot and guest script (run-vm status $vmrc)" '[ $vmrc -eq 0 ]'
t "without the module: exit 3" '[ "$(sec rc0)" = 3 ]'
t "without the module: says modprobe diamond" 'sec e0 | grep -q "modprobe diamond"'
t "without the module: no silent fallback (nothing opened)" '[ -z "$(sec o0)" ]'
t "module loaded: /proc/crypto lists diamond instances" '[ "$(sec algs)" -ge 1 ] 2>/dev/null'
t "kernel open: exit 0" '[ "$(sec rc1)" = 0 ]'
sec o1 >kernel.json
t "kernel open: JSON identical to the host's software open ($(wc -l <expect.json) lines)" 'cmp -s kernel.json expect.json'
t "kernel open: summary names the kernel path" 'sec e1 | grep -q "open (kernel): 3 devices"'
sec state >kernel.state
t "state files after the kernel run equal the software run's" 'cmp -s kernel.state expect.state'
t "forged epoch through the kernel: exit 1, bad tag, device 5 epoch 0" '[ "$(sec rc2)" = 1 ] && sec e2 | grep -q "device 5 epoch 0 rejected: bad tag"'
t "forged epoch: the later epochs of device 5 verify (skip in the kernel)" 'sec e2 | grep -q "2 epochs verified, 1 rejected"'
t "incomplete epoch: rejected, later epochs verified" '[ "$(sec rc3)" = 1 ] && sec e3 | grep -q "device 6 epoch 0 rejected: incomplete" && sec o3 | grep -q "\"device\":6,\"epoch\":1"'
t "replay through the kernel: EKEYEXPIRED reported, exit 1" '[ "$(sec rc4)" = 1 ] && sec e4 | grep -q "device 5 epoch 0 rejected: epoch older"'
t "stdin, frames twice: all rejected as replays, exit 1" '[ "$(sec rc5)" = 1 ] && sec e5 | grep -q "0 epochs verified"'
sec o6 >kernelg.json
sec o7 >kernelg2.json
t "grouped device through the kernel: JSON identical to the software open ($(wc -l <expectg.json) lines, a lost and a damaged record)" '[ -s expectg.json ] && cmp -s kernelg.json expectg.json'
t "grouped device: groups released and rejected, as the software path" 'grep -q "\"group\":1" expectg.json && sec e6 | grep -q "open (kernel)"'
t "grouped device: the state file (cursor) equals the software run's" '[ "$(sec md5g)" = "$(md5sum <stgs/11.state | cut -d" " -f1)" ]'
t "grouped device, restart mid-epoch: JSON and state as the software path" 'cmp -s kernelg2.json expectg2.json && [ "$(sec md5g2)" = "$(md5sum <stgs2/11.state | cut -d" " -f1)" ]'
sec oc1 >custody.json
sec oc3 >custodyg.json
t "custody: loader as root, ingest as uid 65534: exit 0, JSON identical to the software open" '[ "$(sec rcc1)" = 0 ] && cmp -s custody.json expect.json'
t "custody: the loader gave every device a key by reference (type diamond, every kernel)" 'sec ec1 | grep -q "4 devices by reference, 0 wrapped by the loader, 0 wrapped states kept"'
echo "# custody loader: $(sec ec1 | grep -o 'custody: .*')"
t "custody: no line about a weaker custody" '! sec ec1 | grep -q "custody: weaker"'
t "custody: the ingest's state files are version 4, uid 65534, 0600; with the module's DMDW blob once the device moved" '
	for d in 5 6 70000 11; do h=$(sec cst | sed -n "s/^$d //p")
		[ "${h:8:2}" = 04 ] && [ "${h:48:8}" = 444d4457 ] &&
		{ [ $d = 11 ] || [ "${h:112:8}" = 444d4457 ]; } &&
		[ "$(sec cown | sed -n "s/^$d //p")" = "65534:600" ] || exit 1; done'
# E_e at the start and after the software run (the state the ingest's
# files stand for): no 8 bytes of either in the ingest's files.
for f in st.orig/*.state st/*.state stgs2/11.state; do
	python3 -c 'import sys; f=open(sys.argv[1],"rb").read(); k=32 if f[21]==2 else 16; print(f[16+28:16+28+k].hex())' "$f"
done >custody.keys
t "custody: state files hold no 8 bytes of any device's first or current E_e ($(wc -l <custody.keys) keys)" '
	[ -s custody.keys ] && all=$(sec cst | tr -d " ") && [ -n "$all" ] && while read -r k; do
		for o in 0 16 32 48; do p=${k:$o:16}; [ -n "$p" ] || continue
			case $all in *$p*) exit 1;; esac; done; done <custody.keys'
t "custody, restart: the keys loaded again, the moved devices' wrapped states kept, every epoch a replay" '[ "$(sec rcc2)" = 1 ] && sec ec2 | grep -qE "0 devices by reference, 0 wrapped by the loader, 4 wrapped states kept|1 device by reference, 0 wrapped by the loader, 3 wrapped states kept" && sec ec2 | grep -q "0 epochs verified"'
t "custody, grouped device across a restart mid-epoch: JSON as the software path" '[ -s expectg2.json ] && cmp -s custodyg.json expectg2.json'
t "custody: --custody without the keys stops (exit 3), naming diamond:wrap" '[ "$(sec rcc4)" = 3 ] && sec ec4 | grep -q "diamond:wrap"'
I6=$W/w/i6 item6_tap
t "no kernel BUG/WARNING in the guest" '! grep -qE "BUG:|WARNING:|Oops" console.txt vmerr.txt'

# The kernel-backend suites: the guest's results back into job directories,
# the suites run again on them, their results folded in here.
tr -d '\r' <console.txt | awk -v dir="$W/res" '
	substr($0, 1, 4) == "@@J " {
		rest = substr($0, 5); sp = index(rest, " ")
		if (!sp) next
		f = dir "/" substr(rest, 1, sp - 1); d = f
		sub(/\/[^\/]*$/, "", d)
		if (!(d in made)) { system("mkdir -p \"" d "\""); made[d] = 1 }
		if (f != last) { if (last != "") close(last); last = f }
		print substr(rest, sp + 1) >> f
	}'
t "kernel-backend jobs: the guest ran them all" 'sec jobs | grep -q done'
for s in $SUITES; do
	BACKEND=kernel VM_PHASE=replay VM_JOBS=$W/res/$s D=$D FT=$FT \
		"$TOP/selftests/userspace/$s.sh" >$s.tap 2>$s.err
	t "$s (kernel): the suite ran to its plan" 'grep -q "^1\.\.[1-9]" $s.tap'
	t "$s (kernel): every job it recorded ran in the guest ($(ls w/jobs/$s | wc -l) jobs)" \
		'[ -n "$(ls w/jobs/$s)" ] && (for j in $(ls w/jobs/$s); do [ -s res/$s/$j/rc ] || exit 1; done)'
	while IFS= read -r line; do
		case $line in
		"ok "*"# SKIP"*)
			n=$((n + 1)); echo "ok $n - $s (kernel): ${line#ok * - }" ;;
		"ok "*) t "$s (kernel): ${line#ok * - }" true ;;
		"not ok "*) t "$s (kernel): ${line#not ok * - }" false ;;
		"#"*) echo "$line" ;;
		esac
	done <$s.tap
done
echo "1..$n"
[ $fails -eq 0 ] || sed 's/^/# /' console.txt vmerr.txt | tail -60
[ $fails -eq 0 ]
