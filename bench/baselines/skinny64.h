/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SKINNY-64-192 (Beierle et al., CRYPTO 2016): 64-bit block, three 64-bit
 * tweakey words TK1 || TK2 || TK3, 40 rounds. ZMAC and PMAC2x on it
 * (zmac.h, pmac.h) put their 128-bit key in TK1 || TK2 and the tweak in
 * TK3.
 *
 * Constant time: the 4-bit S-box is its NOR/XOR circuit on the four cells
 * of a row at once (no table), the tweakey schedule and the round
 * constants are computed on the fly, nothing branches on or indexes by a
 * secret. Cells are nibbles in the specification's order: cell 0 is the
 * high nibble of byte 0, and row r is bytes 2r, 2r + 1 read big-endian.
 */
#ifndef DIAMOND_BENCH_SKINNY64_H
#define DIAMOND_BENCH_SKINNY64_H

#include <stdint.h>

#define SKINNY64_192_ROUNDS	40

/* @tweakey: 24 bytes, TK1 || TK2 || TK3. @in may alias @out. */
void skinny64_192_encrypt(const uint8_t tweakey[24], const uint8_t in[8],
			  uint8_t out[8]);
/*
 * The same cipher with every 16-bit row read and written little-endian
 * (bytes 2r + 1, 2r swapped in the tweakey, block and output): how the
 * PMAC-variants reference code (n0900/MAC__PMAC-Variants, skinny.c) loads
 * SKINNY-64, so its ZMAC and PMAC2x answers are made of this one. It fails
 * the SKINNY paper's vector; skinny64_192_encrypt() passes it.
 */
void skinny64_192_encrypt_swapped(const uint8_t tweakey[24],
				  const uint8_t in[8], uint8_t out[8]);

#endif
