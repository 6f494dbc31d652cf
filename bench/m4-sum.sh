#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# m4-sum.sh ELF ID: the Cortex-M4 instructions executed in all regions of
# id ID of a benchmark firmware (tools/m4-run --count with mark=ID, so
# only that id's markers open regions), on stdout.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
f=$(mktemp)
trap 'rm -f "$f"' EXIT
BUILD=${BUILD:-$TOP/build} "$TOP/tools/m4-run" --count --plugin-out "$f" "$1" -- \
	-semihosting-config "arg=fw,arg=mark=$2" >/dev/null 2>&1 ||
	{ echo "m4-run failed: $1" >&2; exit 1; }
awk '/region/ { for (i = 1; i <= NF; i++) if ($i ~ /^insns=/) { split($i, a, "="); s += a[2] } }
	END { printf "%d\n", s }' "$f"
