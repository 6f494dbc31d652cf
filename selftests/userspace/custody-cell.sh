#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck disable=SC2016,SC2034 # the checks are eval'ed by t()
#
# custody-cell: issue 20 item 6, the compromised-gateway test, on a matrix
# cell's kernel (make check-custody-cell, run by tools/kernel/run-cell on
# every cell but pi4): the gateway as uid 65534 over real traffic,
# then everything that uid reaches searched for the device keys
# (selftests/userspace/custody-item6.sh, shared with the userspace-vm
# suite), in one VM boot of the cell's kernel (run-vm takes it from
# mk/kernel.mk's environment). In the same boot, issue 34 item 5: the
# crash test on the custody path (test_crash with CRASH_CUSTODY=1: the
# loader and the unprivileged ingest killed with SIGKILL at random points,
# diamond.ko reloaded every 10 runs). Environment: D (the host's
# diamondctl), CP (the host's custody_probe), GUEST_CTL, GUEST_PROBE and
# GUEST_CRASH (static, for the guest's architecture), KMOD_KO, BUILD, TOP;
# CRASH_RUNS (default 60).
set -u
D=${D:?} CP=${CP:?} GUEST_CTL=${GUEST_CTL:?} KO=${KMOD_KO:?}
GUEST_CRASH=${GUEST_CRASH:?} CRASH_RUNS=${CRASH_RUNS:-60}
TOP=${TOP:?} BUILD=${BUILD:?}
export GUEST_PROBE=${GUEST_PROBE:?}

echo "TAP version 13"
W=$(mktemp -d /tmp/diamond-custody.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
. "$TOP/selftests/userspace/custody-item6.sh"
item6_prepare "$D" "$CP" "$W/w/i6" >prep.txt 2>&1
prc=$?
t0=$SECONDS
cp "$GUEST_CRASH" "$W/w/test_crash"
BUILD=$BUILD/vm "$TOP/tools/vm/run-vm" --timeout 900 --module "$KO" \
	--file "$GUEST_CTL:/bin/diamondctl" --file "$W/w:/w" -- \
	"modprobe diamond && sh /w/i6/guest.sh; echo 65534 >/sys/module/diamond/parameters/afalg_gid; DIAMONDCTL=/bin/diamondctl CRASH_CUSTODY=1 CRASH_RUNS=$CRASH_RUNS /w/test_crash /tmp/crash 2>&1 | sed 's/^/@@crash /'; echo \"@@crashrc \$?\"; echo @@done" \
	>console.txt 2>vmerr.txt
vmrc=$?
n=0 fails=0
t "the host's side: devices, traffic, keys (custody_probe keys)" '[ $prc -eq 0 ] && [ -s w/i6/keys.hex ]'
t "VM boot and guest script (run-vm status $vmrc, $((SECONDS - t0)) s)" \
	'[ $vmrc -eq 0 ] && grep -q "^@@done" console.txt'
I6=$W/w/i6 item6_tap
# The crash test's own TAP results, each one of this suite's.
while IFS= read -r line; do
	case $line in
	"ok "*|"not ok "*)
		res=${line%% [0-9]*}; name=${line#* [0-9]* }
		t "custody crash: $name" "[ '$res' = ok ]" ;;
	"# "*) echo "# custody crash: ${line#\# }" ;;
	esac
done < <(sec crash)
t "custody crash: the test ran to its end ($(sec crash | grep -cE '^(ok|not ok)') results)" \
	'sec crash | grep -q "^1\.\.[1-9]"'
# (vmerr.txt: the guest's dmesg lines, and mkinitramfs's depmod warnings)
t "no kernel BUG/WARNING in the guest" \
	'! grep -E "BUG:|WARNING:|Oops" console.txt vmerr.txt | grep -qv "depmod: WARNING"'
echo "1..$n"
[ $fails -eq 0 ] || sed 's/^/# /' prep.txt console.txt vmerr.txt | tail -60
[ $fails -eq 0 ]
