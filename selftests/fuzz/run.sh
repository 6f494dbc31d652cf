#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Run the fuzz targets (mk/fuzz.mk) as TAP: first the inputs of fixed
# findings (seeds/../regress), each must run clean; then every target for
# FUZZ_TIME seconds on a copy of its seed corpus (new inputs it finds stay
# in $FUZZ_BUILD/corpus/<target> for the next run). A finding is a failed
# test that names the reproducer libFuzzer wrote ($FUZZ_BUILD/crash-*).
# Environment: FUZZ_BUILD, FUZZ_TIME, FUZZ_TARGETS, FUZZ_OK (empty: clang
# cannot link libFuzzer here, every test skips).
set -u
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../lib" && pwd)/tap.sh"
B=${FUZZ_BUILD:?}
T=${FUZZ_TIME:-5}

echo "TAP version 13"
if [ -z "${FUZZ_OK:-}" ]; then
	for t in regress $FUZZ_TARGETS; do
		skip "fuzz $t" "clang cannot link libFuzzer (apt-get install clang libclang-rt-14-dev)"
	done
	tap_end
	exit
fi

for r in "$B"/seeds/regress/*; do
	"$B/fuzz_gw" "$r" >"$B/regress.log" 2>&1
	rc=$?
	[ $rc = 0 ] || grep -E '^(SUMMARY|.*runtime error)' "$B/regress.log" | sed 's/^/# /'
	ok $rc "fuzz_gw replays fixed finding $(basename "$r") clean"
done

for t in $FUZZ_TARGETS; do
	c=$B/corpus/$t
	mkdir -p "$c"
	cp -n "$B/seeds/$t"/* "$c"/ 2>/dev/null
	rm -f "$B"/crash-* "$B"/leak-* "$B"/timeout-* "$B"/oom-*
	(cd "$B" && "./fuzz_$t" -max_total_time="$T" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 "corpus/$t" \
		>"$B/fuzz_$t.log" 2>&1)
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/fuzz_$t.log")
	if [ $rc != 0 ]; then
		grep -E '^(==|SUMMARY|.*runtime error)' "$B/fuzz_$t.log" | head -20 | sed 's/^/# /'
		ls "$B"/crash-* "$B"/leak-* "$B"/timeout-* "$B"/oom-* 2>/dev/null | sed 's/^/# reproducer: /'
	fi
	ok $rc "fuzz_$t: ${T} s, ${runs:-?} inputs, ASan and UBSan clean"
done
tap_end
