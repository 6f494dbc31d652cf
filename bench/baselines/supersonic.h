/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SuperSonic, the Sonikku MAC for long messages (Bhati, Andreeva, Mueller,
 * Vizar: "Sonikku: Gotta Speed, Keed! A Family of Fast and Secure MACs",
 * ePrint 2024/1980), on ForkSkinny-128-384 (ntk = 3) or -128-256 (ntk = 2),
 * as the authors' reference code computes it:
 *
 *  - set-up: (K', L) = (C0, C1) of FC(TK1 = K, TK2 = TK3 = 0, 0^128);
 *  - the message goes in chunks of 16 * ntk + 14 bytes (62 or 46): 16 as
 *    the input block (masked with L), 16 as TK1 (masked with K'), the rest
 *    as TK2 || TK3 followed by a 12-bit call counter (from 1, low byte then
 *    high nibble in the top of the last byte); each call keeps only the
 *    right branch C1. The last chunk is padded with 0x80 (none if full);
 *  - three chains: a key chain (XOR of the unmasked TK1 parts), a tweak
 *    chain (XOR of C1 with the tweak parts) and a block chain (XOR of C1,
 *    doubled after every call);
 *  - finalisation: one full ForkSkinny call with tweakey = key chain ^ K'
 *    || tweak chain || domain byte (1 full last chunk, 3 padded) on the
 *    block chain ^ L; the outputs C0 || C1 are the 256-bit result.
 *
 * Two details are the reference's and kept for its known answers: the
 * doubling (see supersonic.c) and, with ntk = 3, the tweak chain's last 15
 * bytes, which take the running XOR of the tweak parts' last 15 bytes.
 * Nothing branches on or indexes by the key or message (constant time),
 * only on the public length. Messages of 0 .. SUPERSONIC_MAX_LEN bytes: the
 * reference reads out of bounds on an empty one (its call count
 * underflows); here it is one padded chunk.
 */
#ifndef DIAMOND_BENCH_SUPERSONIC_H
#define DIAMOND_BENCH_SUPERSONIC_H

#include <stddef.h>
#include <stdint.h>

#define SUPERSONIC_MAX_LEN	((size_t)4094 * 46)	/* the 12-bit counter */

struct supersonic_key {
	uint8_t kprime[16], mask[16];
	unsigned int ntk;
};

void supersonic_init(struct supersonic_key *k, const uint8_t key[16],
		     unsigned int ntk);
/* @left or @right may be NULL when that half is not wanted. */
void supersonic_mac(const struct supersonic_key *k, const uint8_t *m,
		    size_t len, uint8_t *left, uint8_t *right);
void supersonic_wipe(struct supersonic_key *k);

#endif
