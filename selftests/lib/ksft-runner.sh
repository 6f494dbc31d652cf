#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# ksft-runner.sh COLLECTION TEST...: run each TEST (a program or script in
# the current directory) as the kernel's kselftest runner does, and print
# one TAP 13 result per test: exit 0 passes, 4 (KSFT_SKIP) is a skip,
# anything else fails. A test's own output is kept, as "# " comments.
# KSFT_TIMEOUT (seconds, default 300) bounds each test where timeout(1)
# exists. Exit status 1 when any test failed.

collection=$1
shift
timeout=${KSFT_TIMEOUT:-300}
run() {
	if command -v timeout >/dev/null; then
		timeout "$timeout" "./$1"
	else
		"./$1"
	fi
}
echo "TAP version 13"
echo "1..$#"
n=0 rc=0
for t in "$@"; do
	n=$((n + 1))
	echo "# selftests: $collection: $t"
	if [ ! -x "./$t" ]; then
		echo "not ok $n selftests: $collection: $t # not found"
		rc=1
		continue
	fi
	out=$(run "$t" 2>&1)
	s=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	case $s in
	0) echo "ok $n selftests: $collection: $t" ;;
	4) echo "ok $n selftests: $collection: $t # SKIP" ;;
	*) echo "not ok $n selftests: $collection: $t # exit=$s"; rc=1 ;;
	esac
done
exit $rc
