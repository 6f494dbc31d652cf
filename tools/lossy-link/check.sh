#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# TAP checks of the lossy-link simulator (tools/lossy-link/lossy-link.c):
#   check.sh LOSSY-LINK [common options]
# Deterministic: every run has a fixed seed. Exit status: 0 when all pass.
sim=$1
shift
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../../selftests/lib" && pwd)/tap.sh"

# delivered records of one run, from its "delivered D/S" field
run() {
	"$sim" "$@" | sed -n 's/.*delivered \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p'
}

echo "TAP version 13"
for g in 1024 64 16 1; do
	set -- $(run "$@" --epochs 20 --loss 0 --corrupt 0 --g $g) "$@"
	d=$1 s=$2
	shift 2
	[ -n "$d" ] && [ "$d" = "$s" ] && r=0 || r=1
	ok $r "0% loss, duplicates and reorders, g = $g: $d of $s delivered"
done
set -- $(run "$@" --loss 0.01 --corrupt 0 --g 16) "$@"
d=$1 s=$2
shift 2
# at least 84%: 100 * d >= 84 * s
[ -n "$d" ] && [ $((100 * d)) -ge $((84 * s)) ] && r=0 || r=1
ok $r "1% loss, b = 1024, g = 16: $d of $s delivered (at least 84%)"
set -- $(run "$@" --loss 0.01 --corrupt 0.001 --g 16) "$@"
d=$1 s=$2
shift 2
# damaged frames cost their group and nothing else: 80% or more
[ -n "$d" ] && [ $((100 * d)) -ge $((80 * s)) ] && r=0 || r=1
ok $r "1% loss and 0.1% damaged frames, g = 16: $d of $s delivered"

# --filter: the link alone over a stream of 1000 frames (a 25-byte record
# frame of vectors/frames.txt), frames and bytes counted at both ends.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
frame=44460101070000000300000000000000000005000b02e536a1
i=0
while [ $i -lt 1000 ]; do echo $frame; i=$((i + 1)); done | xxd -r -p >"$tmp/in"
link() {
	"$sim" --filter --loss 0 --corrupt 0 --reorder 0 --dup 0 --depth 4 \
		"$@" <"$tmp/in" 2>"$tmp/err"
}
frames_out() { sed -n 's/.* frames in, \([0-9]*\) out .*/\1/p' "$tmp/err"; }
link >"$tmp/out" && cmp -s "$tmp/in" "$tmp/out" && r=0 || r=1
ok $r "filter, a perfect link: the stream comes out byte for byte"
link --loss 1 >"$tmp/out" && [ ! -s "$tmp/out" ] && r=0 || r=1
ok $r "filter, loss 1: nothing comes out"
link --loss 0.5 --seed 7 >"$tmp/a" && got=$(frames_out) &&
	link --loss 0.5 --seed 7 >"$tmp/b" && cmp -s "$tmp/a" "$tmp/b" &&
	[ $((25 * got)) = "$(stat -c %s "$tmp/a")" ] &&
	[ "$got" -gt 400 ] && [ "$got" -lt 600 ] && r=0 || r=1
ok $r "filter, loss 0.5: $got of 1000 frames, whole, the same for the same seed"
# Gilbert-Elliott over 20,000 frames (that frame with epochs 0 to
# 19,999): the long-run loss near --loss, in runs of mean length near
# --burst (between 2 and 4).
python3 -c 'import sys
f = bytes.fromhex(sys.argv[1])
sys.stdout.buffer.write(b"".join(f[:8] + e.to_bytes(8, "little") + f[16:]
                                 for e in range(20000)))' $frame >"$tmp/in20"
"$sim" --filter --loss 0.1 --burst 3 --corrupt 0 --reorder 0 --dup 0 --seed 5 \
	<"$tmp/in20" >"$tmp/ge" 2>"$tmp/err" && got=$(frames_out) &&
	runs=$(python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
kept = {int.from_bytes(d[i + 8:i + 16], "little") for i in range(0, len(d), 25)}
print(sum(e not in kept and (e == 0 or e - 1 in kept) for e in range(20000)))' "$tmp/ge") &&
	[ "$got" -gt 17600 ] && [ "$got" -lt 18400 ] &&
	[ $((runs * 4)) -gt $((20000 - got)) ] && [ $((runs * 2)) -lt $((20000 - got)) ] &&
	grep -q 'Gilbert-Elliott mean burst 3' "$tmp/err" && r=0 || r=1
ok $r "filter, Gilbert-Elliott loss 0.1 burst 3 (seed 5): $got of 20000 frames, $((20000 - got)) lost in $runs runs"
link --dup 1 >"$tmp/out" && [ "$(frames_out)" = 2000 ] && r=0 || r=1
ok $r "filter, dup 1: every frame twice"
{ printf 'boot\n'; cat "$tmp/in"; printf 'DF'; } >"$tmp/junk"
"$sim" --filter --loss 0 --corrupt 0 --reorder 0 --dup 0 <"$tmp/junk" \
	>"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/in" "$tmp/out" &&
	grep -q '7 other bytes not passed on' "$tmp/err" && r=0 || r=1
ok $r "filter: bytes between frames and a cut frame are not passed on"
tap_end
