#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# check-packet-link: packet mode (spec section 14) end to end. diamondctl
# seal --packet seals EPOCHS epochs of b = 64 readings (and one run of 4
# epochs of b = 1024: 64 units an epoch, so the receiver's cursor must give
# up units within an epoch and keep up with the link), lossy-link
# --packets drops packets (seeded; Bernoulli or Gilbert-Elliott), and
# diamondctl open --packet --software opens what arrives. For every run
# the records released are exactly those the grid releases given the
# packets that arrived (a record goes when its row's or its column's tag
# arrived with all the records it covers; the model below, from the drop
# log), each with the plaintext sealed at its position: nothing released
# that was not sealed, nothing released twice. The runs are seeded, so
# each outcome is exact and fixed (Documentation/performance.md, "Packet
# mode through lossy-link"); the expectation 2(1-p)^4 - (1-p)^7 of a
# record under independent loss is printed beside it, as a diagnostic.
#
#   packet-check.sh DIAMONDCTL LOSSY-LINK
set -u
D=$1
L=$2
EPOCHS=${EPOCHS:-40}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0
fail=0
echo "TAP version 13"
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fail=1; fi
}

# run NAME SUITE LINK-OPTIONS...: EP epochs of B readings (40 of 64
# unless set).
run() {
	name=$1 suite=$2 B=${B:-64} EP=${EP:-$EPOCHS}
	shift 2
	d=$t/$name
	mkdir -p "$d"
	seq 0 $((EP * B - 1)) | sed 's/^/r/' >"$d/lines"
	"$D" keygen -o "$d/root.bin" || { ok 1 "$name: keygen"; return; }
	"$D" provision --root "$d/root.bin" --device 5 --suite "$suite" --agg xor \
		--b $B --blob "$d/dev.bin" --state-dir "$d/st" --generation 0 \
		--packet --addr-width 1 --addr 5 >/dev/null || { ok 1 "$name: provision"; return; }
	"$D" seal --packet --blob "$d/dev.bin" --addr-width 1 --addr 5 \
		<"$d/lines" >"$d/sealed" || { ok 1 "$name: seal"; return; }
	"$L" --packets "$@" --drop-log "$d/drops" <"$d/sealed" >"$d/arrived" \
		2>"$d/link.txt"
	"$D" open --packet --state-dir "$d/st" --software "$d/arrived" \
		>"$d/out.json" 2>"$d/open.txt"
	rc=$?
	# Released positions and their data: "k data", k = epoch * b + index.
	sed -n 's/^{"device":5,"epoch":\([0-9]*\),"index":\([0-9]*\),"data":"\([^"]*\)"}$/\1 \2 \3/p' \
		"$d/out.json" | awk -v b=$B '{ print $1 * b + $2, $3 }' >"$d/released"
	# The grid's model on the packets that arrived.
	awk -v b=$B -v n=$((EP * B)) '
		FNR == NR { drop[$1] = 1; next }
		END {
			for (u = 0; u < n / 16; u++) {
				for (r = 0; r < 16; r++)
					p[r] = !((16 * u + r) in drop)
				for (r = 0; r < 16; r++) rel[r] = 0
				for (t = 0; t < 4; t++) {	# rows
					if (p[4*t] && p[4*t+1] && p[4*t+2] && p[4*t+3])
						for (r = 4*t; r < 4*t+4; r++) rel[r] = 1
				}
				for (t = 0; t < 4; t++) {	# columns
					if (p[t] && p[t+4] && p[t+8] && p[t+12])
						for (r = t; r < 16; r += 4) rel[r] = 1
				}
				for (r = 0; r < 16; r++)
					if (rel[r]) print 16 * u + r, "r" (16 * u + r)
			}
		}' "$d/drops" /dev/null >"$d/model"
	sort -n "$d/released" >"$d/released.s"
	sort -n "$d/model" >"$d/model.s"
	got=$(wc -l <"$d/released.s")
	want=$(wc -l <"$d/model.s")
	cmp -s "$d/released.s" "$d/model.s"
	ok $? "$name: $got of $((EP * B)) released, exactly the grid's $want, each its sealed reading, once ($(cat "$d/link.txt" | sed 's/^lossy-link: //'))"
	[ $rc = 0 ]
	ok $? "$name: open --packet exits 0 ($(sed 's/^diamondctl: //' "$d/open.txt"))"
	awk -v got=$got -v all=$((EP * B)) -v p="$LOSS" -v name="$name" 'BEGIN {
		q = 1 - p
		printf "# %s: delivered %.4f; independent-loss expectation %.4f\n",
		       name, got / all, 2 * q^4 - q^7 }'
}

# A sender that resets (diamondctl seal --packet run again abandons its open
# epoch, as a firmware boot does, spec 14.3): three boots of 40 readings at
# b = 1024, each boot's packets after 256 idle length bytes of 0 as the
# firmware's link starts (embedded.rst). Every reading is released, at
# (boot - 1, n), and the rest of each abandoned epoch is reported lost:
# the new epoch's anchor moves the gateway, though the cursor's own
# candidates of the same packets are nearer in stream order.
resets() {
	d=$t/resets
	mkdir -p "$d"
	"$D" keygen -o "$d/root.bin" &&
	"$D" provision --root "$d/root.bin" --device 5 --suite 1 --agg xor \
		--b 1024 --blob "$d/dev.bin" --state-dir "$d/st" --generation 0 \
		--packet --addr-width 1 --addr 5 >/dev/null || { ok 1 "resets: provision"; return; }
	for boot in 1 2 3; do
		head -c 256 /dev/zero
		seq 0 39 | sed "s/^/boot$boot /" | "$D" seal --packet \
			--blob "$d/dev.bin" --addr-width 1 --addr 5 || return
	done >"$d/sealed" || { ok 1 "resets: seal"; return; }
	"$L" --packets --loss 0 --seed 1 <"$d/sealed" >"$d/arrived" 2>"$d/link.txt"
	"$D" open --packet --state-dir "$d/st" --software "$d/arrived" \
		>"$d/out.json" 2>"$d/open.txt"
	rc=$?
	sed -n 's/^{"device":5,"epoch":\([0-9]*\),"index":\([0-9]*\),"data":"boot\([0-9]\) \([0-9]*\)"}$/\1 \2 \3 \4/p' \
		"$d/out.json" | awk '$1 == $3 - 1 && $2 == $4' | sort -u | wc -l >"$d/good"
	[ "$rc" = 0 ] && [ "$(cat "$d/good")" = 120 ] &&
		[ "$(grep -c '"data"' "$d/out.json")" = 120 ]
	ok $? "resets: 3 boots of 40 at b = 1024, 256 idle bytes before each: $(cat "$d/good") of 120 released at (boot - 1, n), once ($(sed 's/^diamondctl: //' "$d/open.txt"))"
	[ "$(grep -c '"event":"lost","first":40,"count":984}' "$d/out.json")" = 2 ] &&
		grep -q ': 120 packets in, 120 out' "$d/link.txt"
	ok $? "resets: the rest of epochs 0 and 1 reported lost, once each; lossy-link counts 120 packets, the idle bytes passed on ($(sed 's/^lossy-link: //' "$d/link.txt"))"
}

resets
LOSS=0 run none 2 --loss 0 --seed 1
LOSS=0.01 run bern-1 2 --loss 0.01 --seed 1
LOSS=0.05 run bern-5 2 --loss 0.05 --seed 1
LOSS=0.05 run bern-5-d1 1 --loss 0.05 --seed 2
LOSS=0.10 run bern-10 2 --loss 0.10 --seed 1
LOSS=0.05 run ge-5-burst3 2 --loss 0.05 --burst 3 --seed 1
LOSS=0.10 run ge-10-burst3 2 --loss 0.10 --burst 3 --seed 1
# One epoch is 64 units: the cursor gives up units inside the epoch, each
# after DLIB_PRX_WAIT packets, and must not fall behind the link (it holds
# DLIB_PRX_UNITS units).
B=1024 EP=4 LOSS=0.05 run bern-5-b1024 2 --loss 0.05 --seed 1
B=1024 EP=4 LOSS=0.05 run ge-5-b1024 1 --loss 0.05 --burst 3 --seed 1
unset B EP
echo "1..$n"
exit $fail
