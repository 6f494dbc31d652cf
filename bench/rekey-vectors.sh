#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# rekey-vectors.sh: the known answers of the re-keying PRF F(K, X) =
# E(E(K, X), X), AES-128 (bench/baselines/rekey.h), computed with the
# openssl command line alone, as "K X F" lines. The answers committed in
# selftests/bench/test_bench_kat.c and bench/fw/kat_fw.c come from here;
# bench-kat also recomputes others through OpenSSL's EVP at run time.
set -euo pipefail
ecb() {	# KEY BLOCK (hex) -> E(KEY, BLOCK) (hex)
	printf '%s' "$2" | xxd -r -p |
		openssl enc -aes-128-ecb -nopad -K "$1" | xxd -p
}
while read -r k x; do
	printf '%s %s %s\n' "$k" "$x" "$(ecb "$(ecb "$k" "$x")" "$x")"
done <<'IN'
000102030405060708090a0b0c0d0e0f 00112233445566778899aabbccddeeff
2b7e151628aed2a6abf7158809cf4f3c 6bc1bee22e409f96e93d7e117393172a
00000000000000000000000000000000 00000000000000000000000000000000
ffffffffffffffffffffffffffffffff 80000000000000000000000000000001
IN
