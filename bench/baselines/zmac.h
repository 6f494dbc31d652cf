/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ZMAC (Iwata, Minematsu, Peyrin, Seurin: "ZMAC: A Fast Tweakable Block
 * Cipher Mode for Highly Secure Message Authentication", CRYPTO 2017) on
 * SKINNY-128-256 or SKINNY-64-192 (skinny_tbc.h), the baseline the
 * Sonikku MACs are measured against, as the PMAC-variants reference code
 * (n0900/MAC__PMAC-Variants, source/zmac.c) computes it:
 *
 *  - masks L = E(tweak 0..0 09, 0^n), R = E(tweak 0..0 01 09, 0^n);
 *  - the message goes in chunks of n + t - 1 bytes (31 or 15): n as the
 *    block, t - 1 in the tweak, whose last byte is the domain 08; block
 *    and tweak part are masked with L and R, both doubled after each call;
 *  - chains: U = 2(U ^ C), V ^= C ^ tweak part (its first t - 1 bytes);
 *  - the last chunk, padded with 0x80 when short (or empty), takes the
 *    same call; then with D = 4 (padded) or 0 (full) and tweak V || D:
 *    tag = E(V||D, U) ^ E(V||D+1, U) || E(V||D+2, U) ^ E(V||D+3, U),
 *    2n bytes.
 *
 * Where the reference departs from the paper, ZMAC_AS_REFERENCE keeps it
 * for the answers: of a full last chunk it absorbs only the first n bytes
 * and zeros for the tweak part, so those t - 1 bytes of a message whose
 * length is a multiple of n + t - 1 never reach the tag (a forgery);
 * ZMAC_AS_PAPER absorbs the whole chunk. An empty message is one padded
 * chunk (the reference's count underflows and reads far out of bounds).
 * The doubling is tbc_double(). Constant time: branches only on the
 * public length.
 */
#ifndef DIAMOND_BENCH_ZMAC_H
#define DIAMOND_BENCH_ZMAC_H

#include <stddef.h>
#include <stdint.h>

#include "skinny_tbc.h"

enum zmac_mode { ZMAC_AS_REFERENCE, ZMAC_AS_PAPER };

/*
 * @tag: @taglen bytes, 2 * e->n (the whole tag) or e->n (its first half,
 * Y1: the finalisation then makes two calls, not four).
 */
void zmac(const struct skinny_tbc *e, enum zmac_mode mode,
	  const uint8_t key[TBC_KEY_BYTES], const uint8_t *m, size_t len,
	  uint8_t *tag, size_t taglen);

#endif
