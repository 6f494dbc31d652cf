# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The gateway a suite opens frames with (sourced by forgery.sh and
# copies.sh): BACKEND=software (the default) runs `diamondctl open
# --software` here; BACKEND=kernel is diamond.ko through AF_ALG in the VM of
# vm.sh, which runs the same script twice around one boot:
#   VM_PHASE=record  each open is stored as job N of $VM_JOBS (its state
#                    directory and input); its results are empty and the
#                    pass's TAP is thrown away;
#   VM_PHASE=replay  each open takes job N's results as the guest left them
#                    in $VM_JOBS/N: out, err, m.prom, rc, and the module's
#                    counters k0 and k1 (kprobe hits before and after).
# The jobs are numbered in the order the script opens them, so both passes
# must take the same path (no result steers what a suite opens).
#
#   gw_open STATE INPUT OUT ERR [METRICS]  sets rc, and with the kernel
#       backend k_slot (record chain slots the module walked or opened:
#       diamond_cursor_slot), k_upd (epoch chain updates: epoch_update),
#       k_req (decrypt requests: verifications), k_key (setkeys),
#       k_stream (stream calls, the precompute's included); empty when the
#       guest could not count them.
#   gw_kernel                             0 when BACKEND=kernel

gw_job=0
k_slot= k_upd= k_req= k_key= k_stream=
gw_kernel() { [ "${BACKEND:-software}" = kernel ]; }

# gw_hits JOB NAME: kprobe hits of dmd_NAME during JOB (k1 - k0).
gw_hits() {
	local a b
	a=$(awk -v p="dmd_$2" '{ for (i = 1; i < NF; i += 2) if ($i == p) print $(i + 1) }' "$1/k0" 2>/dev/null)
	b=$(awk -v p="dmd_$2" '{ for (i = 1; i < NF; i += 2) if ($i == p) print $(i + 1) }' "$1/k1" 2>/dev/null)
	[ -n "$a" ] && [ -n "$b" ] && echo $((b - a))
}

gw_open() {
	local j
	gw_job=$((gw_job + 1))
	if ! gw_kernel; then
		"$D" open --state-dir "$1" --software ${5:+--metrics "$5"} \
			--input "$2" >"$3" 2>"$4"
		rc=$?
		return
	fi
	j=${VM_JOBS:?}/$gw_job
	if [ "${VM_PHASE:?}" = record ]; then
		mkdir -p "$j" && cp -r "$1" "$j/st" && cp "$2" "$j/in.bin"
		[ -n "${5:-}" ] && : >"$j/metrics"
		: >"$3"
		: >"$4"
		[ -n "${5:-}" ] && : >"$5"
		rc=0
		return
	fi
	cp "$j/out" "$3" 2>/dev/null || : >"$3"
	cp "$j/err" "$4" 2>/dev/null || : >"$4"
	[ -n "${5:-}" ] && { cp "$j/m.prom" "$5" 2>/dev/null || : >"$5"; }
	rc=$(cat "$j/rc" 2>/dev/null || echo missing)
	k_slot=$(gw_hits "$j" slot)
	k_upd=$(gw_hits "$j" upd)
	k_req=$(gw_hits "$j" req)
	k_key=$(gw_hits "$j" key)
	k_stream=$(gw_hits "$j" stream)
}
