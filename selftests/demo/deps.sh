#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# deps.sh: `make demo` on a fresh clone builds everything the demo runs.
# From an empty build directory, make's rule database (make -p -q, nothing
# is built) must list every file of `tools/demo.sh --needs` as a
# prerequisite of demo-build, and make must have a rule for each of them.
# And the targets that need the Debian packages do nothing but deps and a
# sub-make: a recipe of their own would expand KVER and pkg-config flags
# from before deps installed them (on a fresh machine, KVER empty).
set -u
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
MAKE=${MAKE:-make}
T=$(mktemp -d /tmp/diamond-demo-deps.XXXXXX)
trap 'rm -rf "$T"' EXIT

echo "TAP version 13"
if ! needs=$(BUILD=$T/build timeout 20 "$TOP/tools/demo.sh" --needs 2>/dev/null) ||
   [ -z "$needs" ]; then
	echo "1..1"
	echo "not ok 1 - tools/demo.sh --needs lists the demo's build outputs"
	exit 1
fi
AFTER_DEPS="demo check bench bench-host"
db=$T/db
$MAKE --no-print-directory -C "$TOP" -p -q -r BUILD="$T/build" demo-build $AFTER_DEPS \
	>"$db" 2>/dev/null
prereq=" $(sed -n 's/^demo-build: *//p' "$db" | head -n 1) "

set -- $needs
echo "1..$(($# * 2 + $(echo $AFTER_DEPS | wc -w)))"
n=0 fail=0
for f in "$@"; do
	n=$((n + 1))
	case "$prereq" in
	*" $f "*) echo "ok $n - demo builds ${f#$T/}" ;;
	*) echo "not ok $n - demo builds ${f#$T/}"; fail=1 ;;
	esac
	n=$((n + 1))
	# make -q: 1 means "out of date, and a rule would build it"; 2 means
	# make knows no rule. Nothing is built.
	timeout 60 $MAKE -q -r -C "$TOP" BUILD="$T/build" "$f" >/dev/null 2>&1
	if [ $? -eq 1 ]; then
		echo "ok $n - make has a rule for ${f#$T/}"
	else
		echo "not ok $n - make has a rule for ${f#$T/}"; fail=1
	fi
done

# rule_of TARGET: its prerequisites line and its recipe lines, from the db.
rule_of() {
	awk -v t="$1:" '$1 == t { f = 1; print; next }
		f && /^$/ { exit } f && /^\t/ { print }' "$db"
}
for t in $AFTER_DEPS; do
	n=$((n + 1))
	rule=$(rule_of "$t")
	if [ "$(echo "$rule" | head -n 1)" = "$t: deps" ] &&
	   [ "$(echo "$rule" | sed 1d | grep -vc '$(MAKE) ')" = 0 ] &&
	   [ "$(echo "$rule" | wc -l)" -gt 1 ]; then
		echo "ok $n - make $t: deps, then a sub-make resolves KVER"
	else
		echo "not ok $n - make $t: deps, then a sub-make resolves KVER"
		echo "$rule" | sed 's/^/# /'; fail=1
	fi
done
exit $fail
