#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# userspace-groups: `diamondctl open --software` with a device provisioned
# with group tags (provision --group-size, spec sections 5.1 and 9.1): lost
# and damaged records cost only their group, a short last group, a dropped
# final group (the epoch is reported unclosed), groups swapped between
# epochs and replayed, a restart mid-epoch (spool and cursor), the state
# file's cursor, the JSON lines and metrics. Every case asserts the exact
# set of records delivered. Environment: D (diamondctl), FT (frametool).
set -u
D=${D:?}
FT=${FT:?}
W=$(mktemp -d /tmp/diamond-groups.XXXXXX)
PIDS=
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$W"' EXIT
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../lib" && pwd)/tap.sh"

echo "TAP version 13"
cd "$W" || exit 1

# Device 8: b = 8, g = 3. A full epoch is 11 frames: r0 r1 r2 G0 r3 r4 r5
# G1 r6 r7 T (groups 0 and 1, the final group 2 holds records 6 and 7).
"$D" keygen -o root >/dev/null 2>&1
"$D" provision --root root --device 8 --suite 2 --agg xor --b 8 \
	--group-size 3 --blob dev8.bin --state-dir st >/dev/null 2>&1
cp -r st st.orig
cp dev8.bin dev8.orig
fresh() { rm -rf st && cp -r st.orig st; }
# 40 records "r0".."r39": epochs 0..4, record j of epoch e is r(8e+j).
seq 0 39 | sed 's/^/r/' | "$D" seal --blob dev8.bin >f.bin 2>/dev/null
layout=$("$FT" list f.bin | head -11 | awk '{ print $2 ":" $4 }' | tr '\n' ' ')
check "seal gives the frames r0 r1 r2 G0 r3 r4 r5 G1 r6 r7 T (g = 3, b = 8)" \
	test "$layout" = "1:0 1:1 1:2 3:0 1:3 1:4 1:5 3:1 1:6 1:7 2:8 "

# Frame number of frame k (0..10) of epoch e.
fr() { echo $((11 * $1 + $2)); }
# All frames except the ones named, in order.
without() { local i s=""; for i in $(seq 0 54); do
	case " $* " in *" $i "*) ;; *) s="$s $i" ;; esac; done; echo $s; }
run() {	# run NAME FRAMES...: open them, out.json/err.txt, status in rc
	"$FT" pick f.bin "${@:2}" >"$1.bin"
	"$D" open --state-dir st --software --input "$1.bin" >out.json 2>err.txt
	rc=$?
}
# The records delivered, "E J DATA" sorted, and the expected ones: every
# record of epochs 0..4 except the "E J" pairs given.
got() { sed -n 's/.*"epoch":\([0-9]*\),"index":\([0-9]*\),"data":"\([^"]*\)".*/\1 \2 \3/p' out.json | sort; }
want() { local e j; for e in 0 1 2 3 4; do for j in 0 1 2 3 4 5 6 7; do
	case " $* " in *" $e:$j "*) ;; *) echo "$e $j r$((8 * e + j))" ;; esac
	done; done | sort; }
same() { [ "$(got)" = "$(want "$@")" ]; }
summary() { grep "\"epoch\":$1,\"closed\"" out.json; }

# ---- clean -----------------------------------------------------------------
fresh
run clean $(seq 0 54)
check "clean: all 40 records, each once, in their epochs" same
check "clean: exit 0" test $rc = 0
check "clean: epoch 2 closed with n = 8, groups 0 1 2 released" \
	test "$(summary 2)" = '{"device":8,"epoch":2,"closed":true,"count":8,"released":[0,1,2],"rejected":[]}'
check "clean: the state file has no cursor (version 1) at an epoch boundary" \
	test "$(od -An -tx1 -j4 -N1 st/8.state | tr -d ' ')" = 01

# ---- a lost record costs its group ------------------------------------------
fresh
run lost $(without $(fr 1 5))
check "lost record 4 of epoch 1: exactly records 3-5 of epoch 1 missing" \
	same 1:3 1:4 1:5
check "lost record: epoch 1 closed, group 1 rejected as incomplete" \
	test "$(summary 1)" = '{"device":8,"epoch":1,"closed":true,"count":8,"released":[0,2],"rejected":[{"group":1,"reason":"incomplete"}]}'
check "lost record: stderr names device, epoch, group and its records" \
	grep -q 'device 8 epoch 1 group 1 (records 3-5) rejected: incomplete' err.txt
check "lost record: exit 1 (a group rejected)" test $rc = 1
q=$(ls st/quarantine/*-8-1-incomplete.frames 2>/dev/null | head -1)
check "lost record: epoch 1's frames quarantined, group 1's tag frame among them" \
	sh -c "[ -n '$q' ] && '$FT' list '$q' | grep -q '^[0-9]* 3 1 1 '"

# A lost group tag frame costs its group, too.
fresh
run lostg $(without $(fr 3 3))
check "lost group tag G0 of epoch 3: exactly records 0-2 of epoch 3 missing" \
	same 3:0 3:1 3:2

# A record lost from every group of the device's first epoch: not one unit
# of it verifies, so it is reported like an incomplete epoch without groups.
fresh
run lostall $(without $(fr 0 1) $(fr 0 5) $(fr 0 9))
check "a record lost in every group of epoch 0: exactly epoch 0 missing" \
	same 0:0 0:1 0:2 0:3 0:4 0:5 0:6 0:7
check "epoch 0 without one unit verified: rejected as incomplete, quarantined" \
	sh -c "grep -q 'device 8 epoch 0 rejected: incomplete' err.txt && ls st/quarantine/*-8-0-incomplete.frames"

# Issue 23: an epoch of which nothing verified is no fact about the device:
# no line on stdout, its groups on stderr and in the metrics. Lost groups
# next to each other are one run, on stdout and on stderr.
fresh
run alldamaged $(without $(fr 1 3) $(fr 1 7) $(fr 1 10)) $(fr 1 3)~ $(fr 1 7)~ $(fr 1 10)~
check "every unit of epoch 1 damaged: no summary line for epoch 1" \
	sh -c "! grep -q '\"epoch\":1,' out.json"
check "every unit of epoch 1 damaged: one stderr line for its groups 0-2" \
	grep -q 'device 8 epoch 1 groups 0-2 (records 0-7) rejected: bad tag' err.txt
fresh
run tworuns $(without $(fr 1 1) $(fr 1 5))
check "records lost in groups 0 and 1 of epoch 1: the summary gives one run" \
	test "$(summary 1)" = '{"device":8,"epoch":1,"closed":true,"count":8,"released":[2],"rejected":[{"group":0,"last":1,"reason":"incomplete"}]}'

# ---- a damaged record --------------------------------------------------------
fresh
run damaged $(without $(fr 2 1) | sed "s/ $(fr 2 2) / $(fr 2 1)~ $(fr 2 2) /")
check "damaged record 1 of epoch 2: exactly records 0-2 of epoch 2 missing" \
	same 2:0 2:1 2:2
check "damaged record: group 0 of epoch 2 rejected with bad_tag" \
	grep -q '"epoch":2,"closed":true,"count":8,"released":\[1,2\],"rejected":\[{"group":0,"reason":"bad_tag"}\]' out.json
# A genuine copy after the damaged one still verifies (nothing changed).
fresh
run recopy $(seq 0 22) $(fr 2 1)~ $(fr 2 1) $(seq 23 54)
check "damaged copy then the genuine one: all 40 records" same

# ---- the short last group, an empty final group -----------------------------
rm -rf st7 && mkdir st7
"$D" provision --root root --device 9 --suite 1 --agg add --b 8 \
	--group-size 3 --blob dev9.bin --state-dir st7 >/dev/null 2>&1
seq 0 12 | sed 's/^/s/' | "$D" seal --blob dev9.bin --flush 7 >short.bin 2>/dev/null
"$D" open --state-dir st7 --software --input short.bin >out.json 2>err.txt
check "short epochs (n = 7 and 6, suite 1, ADD): all 13 records" \
	test "$(grep -c '"index"' out.json)" = 13
check "n = 7: the final group is record 6 alone, count 7" \
	grep -q '"epoch":0,"closed":true,"count":7,"released":\[0,1,2\]' out.json
check "n = 6: an empty final group closes the epoch, count 6" \
	grep -q '"epoch":1,"closed":true,"count":6,"released":\[0,1,2\]' out.json

# ---- a dropped final group ---------------------------------------------------
fresh
run nofinal $(without $(fr 3 8) $(fr 3 9) $(fr 3 10))
check "final group of epoch 3 dropped: exactly records 6-7 of epoch 3 missing" \
	same 3:6 3:7
check "dropped final group: epoch 3 reported unclosed, no count" \
	test "$(summary 3)" = '{"device":8,"epoch":3,"closed":false,"released":[0,1],"rejected":[]}'
check "dropped final group: epoch 4 after it verifies" \
	grep -q '"epoch":4,"closed":true' out.json
# Its frames arriving once the gateway moved on (here: the next run) find
# no keys. Within a run they may still complete it: a unit past a gap waits
# 32 frames of the device (userspace.rst section 10).
"$FT" pick f.bin $(fr 3 8) $(fr 3 9) $(fr 3 10) >late.bin
"$D" open --state-dir st --software --input late.bin >out.json 2>err.txt
check "the final group arriving after epoch 4: nothing released, a replay" \
	sh -c "! grep -q index out.json && grep -q 'epoch 3 rejected: epoch older' err.txt"
fresh
run latefinal $(without $(fr 3 8) $(fr 3 9) $(fr 3 10)) $(fr 3 8) $(fr 3 9) $(fr 3 10)
check "the final group late but within the wait: all 40 records" same

# ---- groups swapped between epochs --------------------------------------------
fresh
g1=$(for k in 0 1 2 3; do printf '%s@2 ' $(fr 1 $k); done)
g2=$(for k in 0 1 2 3; do printf '%s@1 ' $(fr 2 $k); done)
run swap $(seq 0 10) $g2 $(seq 15 21) $g1 $(seq 26 54)
check "group 0 of epochs 1 and 2 swapped: exactly those 6 records missing" \
	same 1:0 1:1 1:2 2:0 2:1 2:2
check "swapped groups: both rejected with bad_tag" \
	test "$(grep -c '"rejected":\[{"group":0,"reason":"bad_tag"}\]' out.json)" = 2

# ---- a group moved within its epoch ----------------------------------------------
fresh
# The two group tags of epoch 0 trade their group indexes.
run moved $(seq 0 2) $(fr 0 7)#0 $(seq 4 6) $(fr 0 3)#1 $(seq 8 54)
check "group tags of epoch 0 traded: exactly records 0-5 of epoch 0 missing" \
	same 0:0 0:1 0:2 0:3 0:4 0:5

# ---- replayed groups ----------------------------------------------------------------
fresh
run replay $(seq 0 21) 0 1 2 3 $(seq 22 54)
check "group 0 of epoch 0 replayed after epoch 1: every record once" same
check "replayed group: reported as replay, with its group" \
	grep -q 'device 8 epoch 0 group 0 (records 0-2) rejected: epoch older' err.txt
"$D" open --state-dir st --software --input f.bin >out2.json 2>err2.txt
check "the whole stream again: nothing delivered" \
	test "$(grep -c '"index"' out2.json)" = 0

# ---- restart mid-epoch: the cursor and the spool -----------------------------------
fresh
"$FT" pick f.bin $(seq 0 19) >part1.bin
"$FT" pick f.bin $(seq 20 54) >part2.bin
# Feed part1.bin on a pipe that stays open, SIGKILL the gateway once it
# delivered records 0-5 of epoch 1 (out1.json); options in "$@".
killed_run() {
	# Emptied first: the wait below must not count the records of the
	# call before, left there until the shell child opens out1.json.
	: >out1.json
	{ cat part1.bin; sleep 8; } | "$D" open --state-dir st --software "$@" >out1.json 2>err1.txt &
	GW=$!
	PIDS="$PIDS $GW"
	for _ in $(seq 100); do
		[ "$(grep -c '"epoch":1,"index"' out1.json)" = 6 ] && break
		sleep 0.05
	done
	kill -KILL $GW 2>/dev/null
	wait $GW 2>/dev/null
}
killed_run
check "killed after groups 0 and 1 of epoch 1: state file version 3 (cursor)" \
	test "$(od -An -tx1 -j4 -N1 st/8.state | tr -d ' ')" = 03
check "a version 3 state file reads: state names the next whole epoch" \
	sh -c "'$D' state --state-dir st --device 8 | grep -q 'epoch=2 '"
check "the spool holds record 6 of epoch 1" test -s st/spool/frames
"$D" open --state-dir st --software --input part2.bin >out2.json 2>err2.txt
cat out1.json out2.json >out.json
check "restart: every record exactly once across both runs" same
# Groups 0 and 1 were released before the kill: the second run says so
# too (the state file keeps how each group below its cursor was decided).
check "restart: epoch 1 closes in the second run, groups 0 1 2 released" \
	grep -qx '{"device":8,"epoch":1,"closed":true,"count":8,"released":\[0,1,2\],"rejected":\[\]}' out2.json
# Without the spool the record kept in it is gone: its group only.
fresh
killed_run --no-spool
"$D" open --state-dir st --software --no-spool --input part2.bin >out2.json 2>/dev/null
cat out1.json out2.json >out.json
check "restart without spool: only the final group of epoch 1 lost" same 1:6 1:7

# ---- killed at random times: never twice, never wrong, nothing else lost ---------------
seed=${DMD_SEED:-$(( $(date +%s) ^ $$ ))}
RANDOM=$seed
echo "# seed $seed (set DMD_SEED to repeat the sleeps before the kills)"
rm -rf stk0 && mkdir stk0
"$D" provision --root root --device 12 --suite 1 --agg hash --b 64 \
	--group-size 8 --blob dev12.bin --state-dir stk0 >/dev/null 2>&1
seq 0 1279 | sed 's/^/k/' | "$D" seal --blob dev12.bin >fk.bin 2>/dev/null
"$FT" list fk.bin | awk '$2 == 2 { print $1 }' >ktags	# epoch ends
# feed TAGS PAUSE: fk.bin's epochs that end at the frames listed in TAGS,
# one by one, PAUSE seconds apart (a gateway reading a pipe).
feed() {
	local p=0 t
	while read -r t; do "$FT" pick fk.bin $(seq $p "$t"); p=$((t + 1)); sleep "$2"; done <"$1"
}
# both_runs: the killed run's and the second run's records (k1.json,
# k2.json) as "epoch index n" lines in k.txt, n from the data "k<n>".
both_runs() {
	cat k1.json k2.json | sed -n 's/.*"epoch":\([0-9]*\),"index":\([0-9]*\),"data":"k\([0-9]*\)".*/\1 \2 \3/p' >k.txt
}
# The epochs one by one down a pipe, the gateway killed after $1 seconds:
# its records in k1.json, their count in k.
kill_after() {
	rm -rf stk && cp -r stk0 stk
	# Emptied here, not only by the gateway's own ">k1.json": a kill that
	# comes before the forked shell has made that redirection (sleep 0.00,
	# or a busy machine) left the run before's output in k1.json, counted
	# again as this run's (the one failure seen: 32 records "twice").
	: >k1.json
	: >k1.err
	feed ktags 0.02 | "$D" open --state-dir stk --software >k1.json 2>k1.err &
	GW=$!
	PIDS="$PIDS $GW"
	# 0: no sleep(1) either, whose fork gives the child time to start.
	[ "$1" = 0 ] || sleep "$1"
	kill -KILL $GW 2>/dev/null
	wait $GW 2>/dev/null
	k=$(grep -c '"index"' k1.json)
}
bad=0 lost=0 mid=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	s=0.$((RANDOM % 4))$((RANDOM % 10))
	kill_after $s
	[ "$k" -gt 0 ] && [ "$k" -lt 1280 ] && mid=$((mid + 1))
	rm -rf stk.killed && cp -r stk stk.killed
	"$D" open --state-dir stk --software --input fk.bin >k2.json 2>k2.err
	both_runs
	# Record j of epoch e is k(64e + j); each at most once.
	wrong=$(awk '$3 != 64 * $1 + $2' k.txt)
	twice=$(cut -d' ' -f1,2 k.txt | sort | uniq -d)
	got=$(wc -l <k.txt)
	[ -z "$wrong" ] || bad=$((bad + 1))
	[ -z "$twice" ] || bad=$((bad + 1))
	# At most the group in flight at the kill is lost (delivery is at most once).
	[ "$got" -ge $((1280 - 8)) ] || lost=$((lost + 1))
	# Every run is told, so a failure names its run: the kill's time, what
	# the first run delivered, and what went wrong. DMD_KEEP=DIR keeps a
	# failing run's outputs and its state directory as the kill left it.
	echo "# run $i: killed after ${s}s, $k records before the kill, $got of 1280 in all"
	[ -z "$wrong$twice" ] && [ "$got" -ge $((1280 - 8)) ] && continue
	[ -z "$wrong" ] || echo "$wrong" | head -5 | sed 's/^/#   wrong (epoch index data): /'
	[ -z "$twice" ] || echo "$twice" | head -5 | sed 's/^/#   delivered twice (epoch index): /'
	if [ -n "${DMD_KEEP:-}" ]; then
		mkdir -p "$DMD_KEEP/run$i" &&
			cp -r k1.json k1.err k2.json k2.err k.txt stk.killed "$DMD_KEEP/run$i/" &&
			echo "#   kept in $DMD_KEEP/run$i"
	fi
done
check "10 runs killed at random: at least 3 mid-stream ($mid)" test $mid -ge 3
check "10 runs killed at random: no record wrong or delivered twice" test $bad = 0
check "10 runs killed at random: at most one group lost per kill" test $lost = 0

# ---- killed at once, after a run that delivered: this run's output only ---------------
# The harness case behind the one failure of the check above: a run whose
# gateway delivered records, then one killed at once, mostly before its
# shell child has opened k1.json (without kill_after's emptying, 9 of 9
# such runs here counted the run before's records again).
for s in 0.2 0.5 1; do kill_after $s; [ "$k" -gt 0 ] && break; done
k_first=$k
kill_after 0
"$D" open --state-dir stk --software --input fk.bin >k2.json 2>/dev/null
both_runs
echo "# killed after ${s} s: $k_first records; then killed at once: $k"
check "killed at once after a run that delivered ($k_first): 1280 records in all, none twice" \
	sh -c "[ $k_first -gt 0 ] && [ \$(wc -l <k.txt) -ge 1272 ] && [ -z \"\$(cut -d' ' -f1,2 k.txt | sort | uniq -d)\" ]"

# ---- killed at exact points: each state replacement and each stdout write -------------
# strace's fault injection kills the gateway on entry to its Nth rename()
# (the state file named, or not yet) or Nth write() (state, spool or
# stdout), for every N of a two-epoch pipe run: every crash point between
# "state durable" and "records out" is hit, not only where a sleep lands.
# At most once: no record twice, at most the group in flight (8) lost.
if command -v strace >/dev/null 2>&1 &&
	strace -o /dev/null -e inject=getpid:retval=1 true 2>/dev/null; then
	head -2 ktags >ktE
	"$FT" pick fk.bin $(seq 0 "$(tail -1 ktE)") >fkE.bin
	for sc in rename write; do
		pts=0 badp=
		for pt in $(seq 80); do
			rm -rf stk && cp -r stk0 stk
			: >k1.json
			: >k1.err
			# In a subshell with stderr to /dev/null: the shell's "Killed".
			( feed ktE 0.01 |
				strace -f -o /dev/null -e trace=$sc -e inject="$sc:signal=KILL:when=$pt" \
				"$D" open --state-dir stk --software >k1.json 2>k1.err ) 2>/dev/null
			"$D" open --state-dir stk --software --input fkE.bin >k2.json 2>/dev/null
			both_runs
			if [ -n "$(awk '$3 != 64 * $1 + $2' k.txt)$(cut -d' ' -f1,2 k.txt | sort | uniq -d)" ] ||
				[ "$(wc -l <k.txt)" -lt $((128 - 8)) ]; then
				badp="$badp $pt"
			fi
			pts=$pt
			# Not killed: the summary came, N is past the last call.
			grep -q 'open (software)' k1.err && break
		done
		echo "# $sc: $pts kill points${badp:+, failing at$badp}"
		check "killed at each $sc ($pts points): none twice, at most one group lost" \
			test -z "$badp" -a "$pts" -ge 10 -a "$pts" -lt 80
	done
else
	skip "killed at each rename" "strace with fault injection (-e inject) not found"
	skip "killed at each write" "strace with fault injection (-e inject) not found"
fi

# ---- the cursor is state: a damaged cursor is refused ---------------------------------
cp st/8.state good.state
printf '\x01\x00\x00\x00' | dd of=st/8.state bs=1 seek=$((16 + 64 + 8)) conv=notrunc 2>/dev/null
"$D" open --state-dir st --software --input part2.bin >out.json 2>err.txt
check "a state file with a damaged cursor: corrupt state file, nothing delivered" \
	sh -c "grep -q 'corrupt state file' err.txt && ! grep -q index out.json"

# ---- JSON errors and metrics --------------------------------------------------------
fresh
"$FT" pick f.bin $(without $(fr 1 5)) >lost.bin
"$D" --json-errors open --state-dir st --software --input lost.bin \
	--metrics m.prom >out.json 2>err.txt
check "--json-errors: the group rejection carries device, epoch, group, reason" \
	grep -q '"kind":"rejected","device":8,"epoch":1,"group":1,"reason":"incomplete"' err.txt
check "metrics: diamond_groups_verified_total 14" grep -qx 'diamond_groups_verified_total 14' m.prom
check "metrics: diamond_groups_rejected_total 1" grep -qx 'diamond_groups_rejected_total 1' m.prom
check "metrics: per device" grep -qx 'diamond_device_groups_rejected_total{device="8"} 1' m.prom

# ---- g = b: type 3 frames of a device without groups are dropped -----------------------
rm -rf stb && mkdir stb
"$D" provision --root root --device 10 --suite 2 --agg xor --b 8 \
	--blob dev10.bin --state-dir stb >/dev/null 2>&1
seq 0 7 | "$D" seal --blob dev10.bin >fb.bin 2>/dev/null
# A group tag frame of device 8 relabelled as device 10's: dropped.
"$FT" pick f.bin 3 >g3.bin
printf '\x0a' | dd of=g3.bin bs=1 seek=4 conv=notrunc 2>/dev/null
cat g3.bin fb.bin >mixb.bin
"$D" open --state-dir stb --software --input mixb.bin >out.json 2>err.txt
check "g = b: a type 3 frame is dropped, the epoch verifies as before" \
	sh -c "[ \$(grep -c index out.json) = 8 ] && grep -q '1 frames dropped' err.txt"

tap_end
