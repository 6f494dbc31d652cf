# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Shared by install.sh, dkms.sh and deb.sh (sourced, bash): the checks each
# install path repeats on what it installed, over selftests/lib/tap.sh.
# Needs TOP.

. "$TOP/selftests/lib/tap.sh"
diag() { sed 's/^/# /'; }

# probe_all CFLAGS_AND_LIBS...: build selftests/install/probe.c with exactly
# these flags into ./probe and run it on every provisioning vector with
# expect = ok in vectors/blob.txt. Prints its lines; fails on any miss.
probe_all() {
	cc -std=c11 -Wall -Wextra -Werror -o probe "$TOP/selftests/install/probe.c" "$@" || return 1
	awk '$1 == "name" { name = $3 } $1 == "root" { root = $3 }
	     $1 == "params" { params = $3 " " $4 " " $5 " " $6 " " $7 }
	     $1 == "blob" { blob = $3 }
	     $1 == "expect" && name ~ /^prov-/ && $3 == "ok" { print root "|" params "|" blob }' \
		"$TOP/vectors/blob.txt" >probe.vec
	[ -s probe.vec ] || return 1
	while IFS='|' read -r root params blob; do
		./probe "$root" "$params" "$blob" || return 1
	done <probe.vec
}

# roundtrip DIAMONDCTL: keygen, provision a suite 1 and a suite 2 device,
# seal telemetry, open it with --software; every record comes back, in
# order, as sealed. Leaves frames.bin, st/ and expect.json in the cwd.
roundtrip() {
	local d=$1 i
	"$d" keygen -o root &&
	"$d" provision --root root --device 5 --suite 1 --agg xor --b 8 --blob d5.bin --state-dir st &&
	"$d" provision --root root --device 6 --suite 2 --agg hash --b 4 --blob d6.bin --state-dir st ||
		return 1
	cp -r st st.orig
	for i in $(seq 1 12); do echo "temp=$i.5 C"; done >in5.txt
	for i in $(seq 1 9); do echo "door $i open"; done >in6.txt
	"$d" seal --blob d5.bin --flush 5 <in5.txt >f5.bin &&
	"$d" seal --blob d6.bin <in6.txt >f6.bin || return 1
	cat f5.bin f6.bin >frames.bin
	"$d" open --state-dir st --software --input frames.bin >expect.json || return 1
	records 5 <expect.json | cmp -s - in5.txt && records 6 <expect.json | cmp -s - in6.txt
}

# records ID: the data fields of device ID's records, one per line.
records() {
	sed -n "s/^{\"device\":$1,.*\"data\":\"\\([^\"]*\\)\".*/\\1/p"
}

# sigcheck KO CERT_DER: KO carries an appended PKCS#7 signature (the
# kernel's module_signature trailer) that verifies over the module's
# bytes against CERT_DER, the key dkms signs with (the MOK).
sigcheck() {
	local ko=$1 cert=$2 size siglen t
	[ "$(tail -c 28 "$ko")" = "~Module signature appended~" ] || return 1
	size=$(stat -c %s "$ko")
	# struct module_signature ends in a big-endian sig_len, just before the magic.
	siglen=$(tail -c 32 "$ko" | head -c 4 | od -An -tu1 |
		awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
	[ "$siglen" -gt 0 ] && [ "$siglen" -lt "$size" ] || return 1
	t=$(mktemp -d) || return 1
	head -c $((size - 40 - siglen)) "$ko" >"$t/data"
	tail -c $((siglen + 40)) "$ko" | head -c "$siglen" >"$t/sig"
	openssl x509 -inform DER -in "$cert" -out "$t/cert.pem" &&
	openssl cms -verify -binary -inform DER -in "$t/sig" -content "$t/data" \
		-certfile "$t/cert.pem" -CAfile "$t/cert.pem" -purpose any -out /dev/null
	local rc=$?
	rm -rf "$t"
	return $rc
}

# vm_kat KO TAPFILE [run-vm options...] [-- GUEST_SH]: boot KVER with KO
# as the only extra module; the guest loads it, names it in /proc/crypto,
# then runs the kernel KATs (kat-probe, as check-kernel-kat does) into
# TAPFILE, and finally GUEST_SH, whose output is left in ./guest.out.
# Needs KVER, BUILD, KAT_PROBE, KAT_DRIVER1, KAT_DRIVER2, and KVM_AFALG
# (mk/kernel.mk: prints 7.x's af_alg_restrict, as check-kernel-kat does).
vm_kat() {
	local ko=$1 tap=$2 guest= rc=0
	shift 2
	local args=()
	while [ $# -gt 0 ]; do
		[ "$1" = -- ] && { guest=$2; break; }
		args+=("$1"); shift
	done
	KVER=$KVER BUILD=$BUILD/vm "$TOP/tools/vm/run-vm" --timeout 600 --module "$ko" \
		--file "$KAT_PROBE:/bin/kat-probe" --file "$TOP/vectors/diamond.txt:/diamond.txt" \
		${args[@]+"${args[@]}"} -- \
		"${KVM_AFALG:+$KVM_AFALG; }modprobe diamond && grep -q '^module *: diamond' /proc/crypto &&
		 echo '@@LOADED@@'; kat-probe /diamond.txt '$KAT_DRIVER1' '$KAT_DRIVER2';
		 echo '@@GUEST@@'; $guest" >vm.out 2>vm.err || rc=$?
	sed -n '/^@@LOADED@@$/,/^@@GUEST@@$/p' vm.out | sed '1d;$d' >"$tap"
	sed -n '/^@@GUEST@@$/,$p' vm.out | sed 1d >guest.out
	grep -q '^@@LOADED@@$' vm.out || { diag <vm.out; diag <vm.err; return 1; }
	# A guest that dies before the KATs end leaves a short plan: tap-summary counts it.
	[ "$rc" -lt 124 ] || { echo "not ok - run-vm failed with status $rc" >>"$tap"; return 1; }
	return 0
}
