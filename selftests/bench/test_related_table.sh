#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# test_related_table.sh: bench/related-table.sh, the generator of issue
# 22's one table (Documentation/performance.md, "Related systems"), on the
# small fixture in selftests/bench/related-table/: the table is the
# expected one, its cells are the CSVs' figures (online, offline + online
# on the host's b = 1024 rows; online and total columns of embedded.csv)
# and Diamond2's ratios over them, rows of other b and schemes are left
# out, the kernel's nh lines become rows, and a wrong header or a scheme
# without properties is refused; and the table in performance.md is what
# the generator makes of the committed CSVs (make bench-related-table
# splices it there). TAP on stdout.
set -uo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
GEN=$TOP/bench/related-table.sh
FIX=$TOP/selftests/bench/related-table
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0

ok() {	# ok COND-STATUS NAME
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
has() { grep -qF -- "$1" "$tmp/out.md"; }

echo "TAP version 13"
echo "1..14"
"$GEN" "$FIX" >"$tmp/out.md" 2>"$tmp/err"
ok $? "the generator runs on the fixture"
cmp -s "$tmp/out.md" "$FIX/expected.md"
ok $? "the table is the expected one (expected.md)"
has "| host (instructions) | Diamond2 | 100 / 400 | - | - | 200 / 800 | 1.00, - | 1.00, - |"
ok $? "host cell: tx_on / tx_off + tx_on of the b = 1024 row"
has "| host (instructions) | GCM | 800 / 800 | - | - | 1600 / 1600 | 0.12, - | 0.50, - |"
ok $? "Diamond2's online and total over the scheme's (100/800, 400/800)"
has "| ATmega2560 (cycles) | OCB3 | 2420 / 2420 | - | 7220 / 7220 | - | 0.08, 0.08 | 0.50, 0.50 | no: one key | no | 16 B | the L table, once |"
ok $? "board cell: online and total of embedded.csv, with the scheme's properties"
! has 9999 && ! has FAAE2
ok $? "rows of b != 1024 and schemes outside the related set are left out"
has "| x86_64-6.12 | nhpoly1305-avx2 | 256 B | 1000 | 500 | 6000 | 0.50 | 6.00 | 1500 | 20% |" &&
	has "| arm64-7.x | none: not in this kernel |"
ok $? "nh.txt: a row per length (500 saved of 1500 + 1000), a kernel without nhpoly1305 said so"

has "| 16 B | the L table, once | 96 bits, never repeated | 32 (44 if the nonce is sent, not counted) |" &&
	has "| none: the position | 16.02: 16 + the 16-B epoch tag over b = 1024 (17 with a group tag per 16) |"
ok $? "each row ends in the bytes it puts on the air per 16-byte reading (issue 32)"
has "| x86_64-6.12 | vmac64(aes-aesni), ghash-clmulni | 16 B | 200 | 400 | 500 | 2.50 | 1.25 |" &&
	has "| arm64-7.x | none: -2 | - | - | - | - | - | - |"
ok $? "nh.txt's vmac lines: vmac64(aes) against Poly1305 and GHASH per record, a kernel without it said so"

mkdir -p "$tmp/bad"
cp "$FIX"/*.csv "$tmp/bad/"
sed -i '1s/tx_on/tx_online/' "$tmp/bad/host-callgrind.csv"
"$GEN" "$tmp/bad" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q "header" "$tmp/err"
ok $? "a CSV with another header is refused"
cp "$FIX/host-callgrind.csv" "$tmp/bad/"
echo "nh 512 poly1305 2000 nh-fixed 1000 nh-rekeyed 7000" >"$tmp/bad/nh.txt"
"$GEN" "$tmp/bad" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q "not floor_nh.c's nh line" "$tmp/err"
ok $? "an nh line of another shape (an older dmd_floor.ko) is refused"
"$GEN" "$FIX" "$FIX/props.txt" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q "no line for GCM" "$tmp/err"
ok $? "a measured scheme without properties is refused"

if command -v gnuplot >/dev/null; then
	"$GEN" --plots "$tmp/plots" "$FIX" >/dev/null 2>"$tmp/err"
	rc=$?
	for p in host m4 avr; do
		file "$tmp/plots/related-$p.png" 2>/dev/null | grep -q "PNG image" || rc=1
	done
	ok $rc "--plots draws related-{host,m4,avr}.png"
else
	n=$((n + 1))
	echo "ok $n - --plots # SKIP no gnuplot (tools/install-deps.sh installs gnuplot-nox)"
fi

# The committed table: the lines between the markers, generated again.
"$GEN" "$TOP/Documentation/performance" >"$tmp/doc.md" 2>"$tmp/err" &&
	sed -n '/^<!-- related-table begin -->$/,/^<!-- related-table end -->$/p' \
		"$TOP/Documentation/performance.md" | sed '1d;$d' >"$tmp/committed.md" &&
	[ -s "$tmp/committed.md" ] && cmp -s "$tmp/doc.md" "$tmp/committed.md"
ok $? "performance.md's table is the generator's on Documentation/performance/ (else: make bench-related-table)"
exit $fail
