# SPDX-License-Identifier: GPL-2.0 OR MIT
# shellcheck shell=bash disable=SC2034,SC2154 # sets and reads its caller's variables
#
# cell.sh: what a cell of the gateway matrix is, for the scripts that run
# one (tools/kernel/run-cell, tools/kernel/run-matrix,
# selftests/install/dkms-cell.sh), which source it. cell_setup needs TOP,
# KCACHE, an existing $out and a cant_run MESSAGE function of the caller.

# cell_kernel CELL: the kernel CELL runs, as ARCH-LINE; pi4-L runs arm64-L's.
cell_kernel() {
	case $1 in
	pi4-*) echo "arm64-${1#pi4-}" ;;
	*) echo "$1" ;;
	esac
}

# cell_setup CELL [KCELL_OPTION...]: make the cell's kernel available
# (tools/kernel/kcell) and set arch and line, kver, vm (the VM's
# environment) and vars (kcell's description as make variables, with
# ARCH=arm64 for mk/kernel.mk and, on pi4, VMLINUZ= an image with the EL2
# stub ahead of the kernel, in $out).
cell_setup() {
	local cell=$1 desc l k v vmlinuz=
	shift
	case $cell in
	x86_64-*|arm64-*|pi4-*) ;;
	*) cant_run "unknown cell name" ;;
	esac
	k=$(cell_kernel "$cell")
	arch=${k%%-*} line=${k#*-} vm=() vars=()
	# The EL2 stub hides AES, PMULL and SHA (tools/vm/el2stub) and lives
	# in the top MiB of the 512 MiB guest, which mem= keeps away.
	# shellcheck disable=SC2054 # the commas are qemu -M's
	[ "$cell" = "${cell#pi4-}" ] ||
		vm=(RUN_VM_MACHINE=virt,virtualization=on RUN_VM_MEM=512 RUN_VM_APPEND=mem=511M)
	desc=$("$TOP/tools/kernel/kcell" "$@" "$KCACHE" "$arch" "$line" 2>"$out/kcell.log") ||
		cant_run "kernel not available ($(tail -n1 "$out/kcell.log"))"
	while IFS= read -r l; do
		k=${l%% := *} v=${l#* := }
		vars+=("$k=$v")
		[ "$k" = KVER ] && kver=$v
		[ "$k" = KARCH ] && [ "$v" = arm64 ] && vars+=(ARCH=arm64)
		[ "$k" = VMLINUZ ] && vmlinuz=$v
	done <<<"$desc"
	[ ${#vm[@]} -eq 0 ] && return
	"$TOP/tools/vm/el2stub/mkimage" "$vmlinuz" "$out/pi4.img" >"$out/el2stub.log" 2>&1 ||
		cant_run "EL2 stub image ($(tail -n1 "$out/el2stub.log"))"
	vars+=("VMLINUZ=$out/pi4.img")
}

# tap_verdict TAP...: sum, tools/tap-summary's last line over TAP, and
# verdict, PASS or FAIL.
tap_verdict() {
	sum=$("$TOP/tools/tap-summary" "$@" 2>/dev/null | tail -n1)
	verdict=PASS
	"$TOP/tools/tap-summary" "$@" >/dev/null 2>&1 || verdict=FAIL
}
