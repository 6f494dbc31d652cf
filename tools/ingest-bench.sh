#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# bench-ingest (Documentation/userspace.rst section 9): the gateway under
# hostile input, as figures rather than pass/fail.
#  1. Maximum RSS of "diamondctl open --software" at 10,000 devices
#     (b = 65535, so every record index is allowed) for the frame mixes
#     that cost it the most memory (frametool mix N B EPOCHS IDX LEN TAG).
#  2. The UDP flood: 100,000 junk datagrams with 100 valid epochs spread
#     among them, sent over loopback as fast as sendto() goes and at fixed
#     rates; how many valid epochs were delivered.
# Environment: D (diamondctl), FT (frametool), PART (rss, flood, all),
# DEVICES (10000). Deterministic inputs; the
# flood's outcome depends on the machine's speed and load.
set -u
D=${D:?}
FT=${FT:?}
W=$(mktemp -d /tmp/diamond-ingest-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
N=${DEVICES:-10000}

PART=${PART:-all}	# rss, flood or all
if [ "$PART" != flood ]; then
echo "== max RSS of open at $N devices (b = 65535), default options"
"$FT" states st0 "$N" 65535 || exit 1
printf '%-16s %-52s %10s %12s\n' "mix" "what" "input" "max RSS"
while IFS=$'\t' read -r mix what; do
	rm -rf st && cp -r st0 st
	# shellcheck disable=SC2086
	"$FT" mix "$N" 65535 $mix >m.bin
	rss=$("$FT" rss "$D" open --state-dir st --software --input m.bin 2>/dev/null)
	printf '%-16s %-52s %7d MB %8d KiB\n' "${mix// /,}" "$what" \
		$(( $(stat -c %s m.bin) / 1000000 )) "$rss"
done <<'MIXES'
5 65534 4096 0	5 epochs/device, one 4 KiB record at index 65534
5 65534 0 1	5 epochs/device, empty record at 65534 + 1 KiB-AD tag
5 0 0 1	5 epochs/device, empty record at 0 + 1 KiB-AD tag
1 0-7 4096 0	1 epoch/device, records 0-7 of 4 KiB (320 MB)
5 0-3 1000 0	5 epochs/device, records 0-3 of 1000 B
4 0-1 3000 1	4 epochs/device, records 0-1 of 3000 B + tag
MIXES
fi
[ "$PART" = rss ] && exit 0

echo "== UDP flood: 100,000 junk datagrams, 100 valid epochs (b = 4)"
"$D" keygen -o root >/dev/null 2>&1
"$D" provision --root root --device 7 --suite 2 --agg xor --b 4 \
	--blob d7.bin --state-dir fl0 >/dev/null 2>&1
seq 1 400 | sed 's/^/rec-/' | "$D" seal --blob d7.bin >f.bin 2>/dev/null
for rate in 0 60000 40000 20000; do
	rm -rf fl && cp -r fl0 fl
	P=$(( 20000 + RANDOM % 30000 ))
	"$D" open --state-dir fl --software --udp "$P" >o.json 2>o.err &
	gw=$!
	sleep 0.5
	"$FT" flood 127.0.0.1 "$P" f.bin 100000 "$rate" 2>fl.err
	sleep 1
	kill -TERM "$gw"
	wait "$gw"
	echo "rate ${rate/#0/max} datagrams/s: $(( $(grep -c '"index"' o.json) / 4 )) of 100 epochs delivered; $(cat fl.err | sed 's/^frametool: //'); stderr $(wc -l <o.err) lines"
done
