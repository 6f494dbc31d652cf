#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# splice-md.sh FILE NAME: replace what lies between the lines
# "<!-- NAME begin -->" and "<!-- NAME end -->" of FILE with stdin, so a
# generated table stays generated inside hand-written prose (bench/
# related-table.sh into Documentation/performance.md). Exits 1, FILE
# untouched, unless FILE has each marker exactly once, begin first.
set -euo pipefail
f=${1:?usage: splice-md.sh FILE NAME <CONTENT}
name=${2:?usage: splice-md.sh FILE NAME <CONTENT}
b="<!-- $name begin -->" e="<!-- $name end -->"
nb=$(grep -cxF -- "$b" "$f" || true)
ne=$(grep -cxF -- "$e" "$f" || true)
lb=$(grep -nxF -- "$b" "$f" | cut -d: -f1 || true)
le=$(grep -nxF -- "$e" "$f" | cut -d: -f1 || true)
if [ "$nb" != 1 ] || [ "$ne" != 1 ] || [ "$lb" -ge "$le" ]; then
	echo "splice-md: $f: needs one '$b' before one '$e'" >&2
	exit 1
fi
new=$(mktemp "$f.XXXXXX")
{
	head -n "$lb" "$f"
	cat
	tail -n "+$le" "$f"
} >"$new"
mv -f "$new" "$f"
