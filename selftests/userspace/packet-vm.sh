#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-packet-vm: the packet receiver through diamond.ko's tag grid
# (kernel-api.rst, "Packet radio: the tag grid"; userspace.rst section 13)
# in one VM boot. On the host: seeded runs of diamondctl seal --packet
# through lossy-link --packets, each opened with open --packet --software
# for the expected output. In the VM (static diamondctl, the module
# loaded): each run opened through the kernel (open --packet, no
# --software) must print byte for byte the same JSON, name the kernel path
# and leave the same state file. Four runs are also killed (SIGKILL) once
# the receiver has taken a prefix of the packets and sits waiting for
# more, then reopened on the packets from the stored cursor's unit on (a
# link that keeps what it sent since; the packets before the cursor are
# behind it, and replaying them all would fill the copy slots of spec
# 14.5's candidates, DLIB_PRX_COPIES): each process prints what the
# software path prints on the same packets from the same state, no record
# is released twice across the two, and together they release exactly
# what the uninterrupted software path releases. Last,
# two devices interleaved on one link are opened with one tfm at a time
# (--max-tfms 1: keyed again from the receiver's state at every try);
# test_packet's library tests run with every receiver on the kernel
# backend (PRX_KERNEL=1). Skips (exit 4) when the module or the static
# programs are not built, or when the module's source has no tag grid.
# Environment: US_BUILD, TOP, BUILD, KMOD_KO, LOSSY (lossy-link).
set -u
US_BUILD=${US_BUILD:?}
TOP=${TOP:?}
BUILD=${BUILD:?}
KO=${KMOD_KO:?}
LOSSY=${LOSSY:?}
D=$US_BUILD/diamondctl
DS=$US_BUILD/diamondctl-static
TP=$US_BUILD/test_packet-static

echo "TAP version 13"
skip() {
	echo "1..1"
	echo "ok 1 packet-vm # SKIP $1"
	exit 4
}
[ -f "$KO" ] && [ -x "$DS" ] && [ -x "$TP" ] ||
	skip "kernel module or static programs not built (make module)"
grep -q 'DMD_GRID_TABLE_SIZE' "$TOP/include/diamond/spec.h" ||
	skip "diamond.ko has no tag grid in this tree yet (kernel-api.rst, \"Packet radio: the tag grid\")"
W=$(mktemp -d /tmp/diamond-pvm.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
mkdir -p w

# run NAME SUITE B EPOCHS LINK-OPTIONS...: sealed, through the link, and
# the software path's output and state (the expectation) on the host.
RUNS=
run() {
	name=$1 suite=$2 b=$3 ep=$4
	shift 4
	mkdir -p "$name" "w/$name" || return
	"$D" keygen -o "$name/root.bin" &&
	"$D" provision --root "$name/root.bin" --device 9 --suite "$suite" \
		--agg xor --b "$b" --blob "$name/dev.bin" --state-dir "w/$name/st" \
		--generation 0 --packet --addr-width 1 --addr 9 >/dev/null || return
	seq 0 $((ep * b - 1)) | sed "s/^/$name /" | "$D" seal --packet \
		--blob "$name/dev.bin" --addr-width 1 --addr 9 >"$name/sealed" || return
	"$LOSSY" --packets "$@" --drop-log "$name/drops" <"$name/sealed" \
		>"w/$name/in" 2>"$name/link.txt" || return
	echo "$b $b" >"$name/b"
	cp -r "w/$name/st" "$name/sw"
	"$D" open --packet --state-dir "$name/sw" --software "w/$name/in" \
		>"$name/expect.json" 2>"$name/expect.txt"
	RUNS="$RUNS $name"
}
run s1-b64-bern5 1 64 20 --loss 0.05 --seed 1
run s2-b64-ge10 2 64 20 --loss 0.1 --burst 3 --seed 1
run s2-b32-bern10 2 32 40 --loss 0.1 --seed 3
run s1-b96-bern20 1 96 30 --loss 0.2 --seed 5
run s1-b1024-ge5 1 1024 2 --loss 0.05 --burst 3 --seed 1
# A sender that resets: three boots of 40 readings at b = 1024, each after
# idle bytes (check-packet-link's resets): anchors, later epochs.
mkdir -p resets w/resets
"$D" keygen -o resets/root.bin &&
"$D" provision --root resets/root.bin --device 9 --suite 2 --agg xor --b 1024 \
	--blob resets/dev.bin --state-dir w/resets/st --generation 0 --packet \
	--addr-width 1 --addr 9 >/dev/null &&
for boot in 1 2 3; do
	head -c 64 /dev/zero
	seq 0 39 | sed "s/^/boot$boot /" | "$D" seal --packet \
		--blob resets/dev.bin --addr-width 1 --addr 9 || exit 1
done >resets/sealed &&
"$LOSSY" --packets --loss 0.05 --seed 2 --drop-log resets/drops <resets/sealed \
	>w/resets/in 2>resets/link.txt && echo "1024 40" >resets/b &&
cp -r w/resets/st resets/sw &&
"$D" open --packet --state-dir resets/sw --software w/resets/in \
	>resets/expect.json 2>resets/expect.txt && RUNS="$RUNS resets"

# Two devices on one link, their packets interleaved one for one, opened
# with --max-tfms 1 in the guest: each try of the other device closes
# the tfm and the next keys it again from the receiver's state.
mkdir -p two w/two
"$D" keygen -o two/root.bin &&
for dev in 9 10; do
	"$D" provision --root two/root.bin --device $dev --suite $((dev - 8)) \
		--agg xor --b 64 --blob two/d$dev.bin --state-dir w/two/st \
		--generation 0 --packet --addr-width 1 --addr $dev >/dev/null &&
	seq 0 639 | sed "s/^/d$dev /" | "$D" seal --packet --blob two/d$dev.bin \
		--addr-width 1 --addr $dev >two/s$dev || exit 1
done &&
python3 - two/s9 two/s10 >two/sealed <<'PY' &&
import sys
def packets(f):
    d, i, out = open(f, "rb").read(), 0, []
    while i < len(d):
        out.append(d[i:i + 1 + d[i]])
        i += 1 + d[i]
    return out
a, b = packets(sys.argv[1]), packets(sys.argv[2])
sys.stdout.buffer.write(b"".join(x + y for x, y in zip(a, b)))
PY
"$LOSSY" --packets --loss 0.05 --seed 4 <two/sealed >w/two/in 2>two/link.txt &&
cp -r w/two/st two/sw &&
"$D" open --packet --state-dir two/sw --software w/two/in >two/expect.json \
	2>two/expect.txt && cp two/expect.json w/two/

# prefix FILE K: the first K packets (a length byte and its bytes each).
prefix() {
	python3 - "$1" "$2" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
i = k = 0
while i < len(d) and k < int(sys.argv[2]):
    if d[i]:
        k += 1
    i += 1 + d[i]
sys.stdout.buffer.write(d[:i])
PY
}
# resume IN DROPS STATE B PER: the packets of IN from the first one at or
# after the first record of the stored cursor's unit; the position of the
# s-th packet sealed is (s / PER, s % PER) (PER = B, or a boot's readings).
resume() {
	python3 - "$@" <<'PY'
import struct, sys
inp, drops, state = sys.argv[1:4]
b, per = int(sys.argv[4]), int(sys.argv[5])
d = open(inp, "rb").read()
dropped = set(int(x) for x in open(drops).read().split())
s = open(state, "rb").read()
blen = struct.unpack_from("<I", s, 12)[0]
ec, uc = struct.unpack_from("<QI", s, 16 + blen)
i = ordinal = 0
while i < len(d):
    if d[i]:
        while ordinal in dropped:
            ordinal += 1
        if (ordinal // per) * b + ordinal % per >= ec * b + 16 * uc:
            break
        ordinal += 1
    i += 1 + d[i]
sys.stdout.buffer.write(d[i:])
PY
}
# The restart runs, killed after K packets: the software path on the same
# prefix (to its end) and then on the packets from its stored cursor on.
KILLS="s1-b64-bern5:400 s2-b32-bern10:777 s1-b1024-ge5:1300 resets:57"
for k in $KILLS; do
	name=${k%%:*}
	prefix "w/$name/in" "${k#*:}" >"w/$name/prefix"
	cp -r "w/$name/st" "$name/swk"
	"$D" open --packet --state-dir "$name/swk" --software "w/$name/prefix" \
		>"w/$name/sw1.json" 2>/dev/null
	md5sum <"$name/swk/9.state" | cut -d' ' -f1 >"$name/swk.md5"
	resume "w/$name/in" "$name/drops" "$name/swk/9.state" $(cat "$name/b") \
		>"w/$name/suffix"
	"$D" open --packet --state-dir "$name/swk" --software "w/$name/suffix" \
		>"w/$name/sw2.json" 2>/dev/null
done

cat >w/guest.sh <<'SH'
modprobe diamond || echo "@@nomodule"
# The records of a JSON file, sorted: "epoch index data".
recs() { sed -n 's/^{"device":9,"epoch":\([0-9]*\),"index":\([0-9]*\),"data":"\([^"]*\)"}$/\1 \2 \3/p' "$@" | sort; }
for r in RUNS_HERE; do
	cp -r /w/$r/st /w/$r/k
	diamondctl open --packet --state-dir /w/$r/k /w/$r/in >/w/$r/out 2>/w/$r/err
	echo "@@rc $r $?"
	sed "s/^/@@err $r /" /w/$r/err
	# The output itself only when it differs (the console is slow).
	if cmp -s /w/$r/out /w/$r/expect.json; then echo "@@same $r"
	else awk -v p="@@J $r " '{ print p $0 }' /w/$r/out; fi
	echo "@@md5 $r $(md5sum </w/$r/k/9.state | cut -d' ' -f1)"
done
# Kill once the prefix is read and the receiver waits for more: all of
# it read (rchar), sleeping, and so for a second more.
waits() {
	pid=$1 size=$2 i=0 last=
	while [ $i -lt 600 ]; do
		rc=$(sed -n 's/^rchar: //p' /proc/$pid/io 2>/dev/null)
		s=$(awk '{ print $3 }' /proc/$pid/stat 2>/dev/null)
		now="$rc $s $(wc -c </w/$r/o1)"
		[ "$rc" -ge "$size" ] 2>/dev/null && [ "$s" = S ] &&
			[ "$now" = "$last" ] && return 0
		last=$now
		sleep 1
		i=$((i + 1))
	done
	return 1
}
for k in KILLS_HERE; do
	r=${k%%:*}
	cp -r /w/$r/st /w/$r/r
	mkfifo /w/$r/fifo
	diamondctl open --packet --state-dir /w/$r/r /w/$r/fifo >/w/$r/o1 2>/w/$r/e1 &
	pid=$!
	exec 3>/w/$r/fifo
	cat /w/$r/prefix >&3
	waits $pid $(wc -c </w/$r/prefix) || echo "@@nowait $r"
	kill -9 $pid
	wait $pid 2>/dev/null
	echo "@@killed $r $?"
	exec 3>&-
	echo "@@md5k $r $(md5sum </w/$r/r/9.state | cut -d' ' -f1)"
	diamondctl open --packet --state-dir /w/$r/r /w/$r/suffix >/w/$r/o2 2>/w/$r/e2
	echo "@@rc2 $r $?"
	sed "s/^/@@e2 $r /" /w/$r/e2
	cmp -s /w/$r/o1 /w/$r/sw1.json && echo "@@same1 $r"
	cmp -s /w/$r/o2 /w/$r/sw2.json && echo "@@same2 $r"
	recs /w/$r/o1 >/w/$r/k1
	recs /w/$r/o2 >/w/$r/k2
	recs /w/$r/expect.json >/w/$r/sw
	echo "@@counts $r $(wc -l </w/$r/k1) $(wc -l </w/$r/k2) $(wc -l </w/$r/sw)"
	echo "@@twice $r $(sort /w/$r/k1 /w/$r/k2 | uniq -d | wc -l)"
	sort /w/$r/k1 /w/$r/k2 | cmp -s - /w/$r/sw && echo "@@union $r same"
done
cp -r /w/two/st /w/two/k
diamondctl open --packet --max-tfms 1 --state-dir /w/two/k /w/two/in >/w/two/out 2>/w/two/err
echo "@@rc two $?"
sed "s/^/@@err two /" /w/two/err
cmp -s /w/two/out /w/two/expect.json && echo "@@same two"
echo "@@md5 two $(cat /w/two/k/9.state /w/two/k/10.state | md5sum | cut -d' ' -f1)"
PRX_KERNEL=1 test_packet /w/packet.txt /tmp/tp-state >/w/tp.tap 2>/w/tp.err
echo "@@tprc $?"
sed 's/^/@@tp /' /w/tp.tap
sed 's/^/@@tperr /' /w/tp.err
SH
sed -i -e "s/RUNS_HERE/$RUNS/" -e "s/KILLS_HERE/$KILLS/" w/guest.sh
cp "$TOP/vectors/packet.txt" w/
for r in $RUNS; do cp "$r/expect.json" "w/$r/"; done
BUILD=$BUILD/vm "$TOP/tools/vm/run-vm" --timeout 2400 --module "$KO" \
	--file "$DS:/bin/diamondctl" --file "$TP:/bin/test_packet" \
	--file "$W/w:/w" -- 'sh /w/guest.sh' >console.txt 2>vmerr.txt
vmrc=$?

n=0 fails=0
t() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fails=$((fails + 1)); return 1; fi
}
sec() { sed -n "s/^@@$1 //p" console.txt | tr -d '\r'; }
t "VM boot and guest script (run-vm status $vmrc)" '[ $vmrc -eq 0 ]'
t "the module loads" '! sec nomodule | grep -q .'
for r in $RUNS; do
	released=$(grep -c '"data"' "$r/expect.json")
	lost=$(grep -c '"lost"' "$r/expect.json")
	t "$r: open --packet through the kernel exits 0 and names it ($(sec "err $r" | sed 's/^diamondctl: //' | tail -n 1))" \
		'[ "$(sec "rc $r")" = 0 ] && sec "err $r" | grep -q "open --packet (kernel)"'
	t "$r: JSON byte for byte the software path's ($released records, $lost runs lost; $(sed 's/^lossy-link: //' "$r/link.txt"))" \
		'[ "$released" -gt 0 ] && sec same | grep -qx "$r"' ||
		{ sec "J $r" | diff "$r/expect.json" - | head -20 | sed 's/^/# /'; }
	t "$r: the state file equals the software path's" \
		'[ "$(sec "md5 $r")" = "$(md5sum <"$r/sw/9.state" | cut -d" " -f1)" ]'
done
released=$(grep -c '"data"' two/expect.json)
t "two devices interleaved, --max-tfms 1 (a tfm keyed again at every try of the other device): exit 0, JSON byte for byte the software path's ($released records; $(sed 's/^lossy-link: //' two/link.txt))" \
	'[ "$(sec "rc two")" = 0 ] && [ "$released" -gt 1000 ] && sec same | grep -qx two'
t "two devices, --max-tfms 1: both state files equal the software path's" \
	'[ "$(sec "md5 two")" = "$(cat two/sw/9.state two/sw/10.state | md5sum | cut -d" " -f1)" ]'
for k in $KILLS; do
	r=${k%%:*}
	read -r c1 c2 c3 <<-COUNTS
	$(sec "counts $r")
	COUNTS
	t "$r: killed after ${k#*:} packets while it waited for more (status $(sec "killed $r")); its state is the software path's after them" \
		'! sec nowait | grep -qx "$r" && [ "$(sec "killed $r")" = 137 ] && [ "$(sec "md5k $r")" = "$(cat "$r/swk.md5")" ]'
	t "$r: what it printed before the kill is the software path's on those packets (${c1:-?} records)" \
		'[ "${c1:-0}" -gt 0 ] && sec same1 | grep -qx "$r"'
	t "$r: reopened on the packets from the stored cursor's unit on ($(wc -c <"w/$r/suffix") bytes): exit 0, the software path's JSON on them (${c2:-?} records)" \
		'[ "$(sec "rc2 $r")" = 0 ] && sec same2 | grep -qx "$r"'
	t "$r: nothing released twice across the two processes" \
		'[ "$(sec "twice $r")" = 0 ]'
	t "$r: together exactly what the uninterrupted software path releases (${c3:-?})" \
		'sec union | grep -qx "$r same"'
done
t "test_packet with every receiver on diamond.ko: ran to its plan, not skipped" \
	'sec tp | grep -q "^1\.\.[1-9]" && ! sec tp | grep -q "# SKIP" && sec tp | grep -q "# backend: kernel"'
while IFS= read -r line; do
	case $line in
	"ok "*) t "test_packet (kernel): ${line#ok * }" true ;;
	"not ok "*) t "test_packet (kernel): ${line#not ok * }" false ;;
	esac
done <<EOF
$(sec tp)
EOF
t "no kernel BUG/WARNING in the guest" '! grep -qE "BUG:|WARNING:|Oops" console.txt vmerr.txt'
echo "1..$n"
if [ $fails -ne 0 ]; then
	sed 's/^/# /' vmerr.txt | tail -20
	grep -v '^@@J' console.txt | sed 's/^/# /' | tail -60
fi
[ $fails -eq 0 ]
