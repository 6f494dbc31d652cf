/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SKINNY-128 with 256- and 384-bit tweakeys (Beierle et al., CRYPTO 2016),
 * in constant time: the 8-bit S-box is its NOR/XOR circuit evaluated on
 * four cells at once (no table), the tweakey schedule and the round
 * constants are computed on the fly, and nothing indexes memory or
 * branches on a secret. The round is exposed for ForkSkinny
 * (forkskinny.h), which runs the same rounds with a 7-bit constant and
 * forks the state; ZMAC's SKINNY-128-384 uses skinny128_encrypt().
 *
 * State and tweakey words are the rows of the 4x4 cell matrix, cell 4r + c
 * in byte c of row r (little-endian), loaded from the byte strings in the
 * specification's cell order: state = in[0..15], TKz = tweakey[16z..16z+15].
 */
#ifndef DIAMOND_BENCH_SKINNY128_H
#define DIAMOND_BENCH_SKINNY128_H

#include <stdint.h>

#define SKINNY128_256_ROUNDS	48
#define SKINNY128_384_ROUNDS	56

struct skinny128 {
	uint32_t s[4];
	uint32_t tk[3][4];	/* TK1, TK2, TK3 (rows); TK3 unused if ntk = 2 */
	unsigned int ntk;	/* 2 (256-bit tweakey) or 3 (384-bit) */
};

/* Load @ntk * 16 bytes of tweakey and one block. */
void skinny128_load(struct skinny128 *c, const uint8_t *tweakey,
		    unsigned int ntk, const uint8_t in[16]);
void skinny128_store(const struct skinny128 *c, uint8_t out[16]);
/*
 * One round: SubCells, AddConstants, AddRoundTweakey with the tweakey
 * schedule moved on, ShiftRows, MixColumns. AddConstants XORs @k0 into row
 * 0, @k1 into row 1 and 0x2 into cell 8: SKINNY's k0 = rc & 0xf, k1 =
 * rc >> 4 from its 6-bit constant; ForkSkinny's from a 7-bit one, with its
 * tweak indicator 0x2 in cell 2 on top (forkskinny.c).
 */
void skinny128_round(struct skinny128 *c, uint32_t k0, uint32_t k1);
/* Move the tweakey schedule on by one round without touching the state. */
void skinny128_tk_skip(struct skinny128 *c);
/* SKINNY-128-256 (ntk = 2, 48 rounds) or SKINNY-128-384 (ntk = 3, 56). */
void skinny128_encrypt(const uint8_t *tweakey, unsigned int ntk,
		       const uint8_t in[16], uint8_t out[16]);

#endif
