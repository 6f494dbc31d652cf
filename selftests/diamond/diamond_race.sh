#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# diamond_race.sh: TAP for dmd_race.ko (race/dmd_race.c), which at load
# races setkey against decrypts on one tfm per suite: a keyer thread swaps
# a grouped key (AD limit 66,562 bytes) and an ungrouped one (1,024) while
# requests with a 6,000-byte AD run. Each request must end as -EINVAL
# (grouped key: empty unit table) or -EMSGSIZE (ungrouped key: AD over its
# limit, checked under the tfm lock); one that was hashed under the
# ungrouped key (-EBADMSG) ran past that key's buffers. Both outcomes must
# have been seen, or the race did not interleave and proves nothing.
# Exit 4 (skip) when the module is not next to this script, or diamond.ko
# is not loaded.

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/ksft_module.sh"
ksft_module_load dmd_race
for s in 1 2; do
	req=$(field requests $s) inv=$(field einval $s) big=$(field emsgsize $s)
	done_=$(field processed $s) other=$(field other $s)
	sw=$(field swaps $s) skerr=$(field setkey_err $s)
	echo "# suite$s: $sw setkeys ($skerr refused), $req requests: $inv EINVAL (grouped key), $big EMSGSIZE (ungrouped key), $done_ processed past the limit, $other other"
	result "$([ "$sw" -ge 200 ] && [ "$skerr" = 0 ] && echo 1)" \
		"suite$s: $sw key swaps, $skerr refused"
	result "$([ "$done_" = 0 ] && [ "$other" = 0 ] && echo 1)" \
		"suite$s: no request ran past its key's AD limit ($done_ processed, $other other errors)"
	result "$([ "$inv" -ge 1 ] && [ "$big" -ge 1 ] && echo 1)" \
		"suite$s: requests met both keys ($inv grouped, $big ungrouped)"
done
rmmod dmd_race
echo "1..$n"
exit $fail
