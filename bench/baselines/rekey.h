/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The data-dependent re-keying PRF F(K, X) = E(E(K, X), X) with AES-128:
 * the block cipher under a key derived from the input itself, so no key
 * ever enciphers more than one block of the adversary's choosing and the
 * PRP-PRF switching term (the birthday bound) of plain E(K, .) goes away.
 * Cost: two AES blocks and one extra key schedule per call.
 * Documentation/performance.md "Data-dependent re-keying" compares it with
 * the AES calls of Diamond1's key chain.
 */
#ifndef DIAMOND_BENCH_REKEY_H
#define DIAMOND_BENCH_REKEY_H

#include <stdint.h>

#include <diamond/aes128.h>

/* @k is E(K, .)'s schedule, set up once; the derived key is wiped. */
void rekey_prf(const struct dmd_aes128 *k, const uint8_t x[16],
	       uint8_t out[16]);

#endif
