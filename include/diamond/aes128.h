/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * AES-128 (FIPS-197), encryption only, bitsliced and constant time: no table
 * lookups and no branches on key or data. Two blocks are processed at once
 * in eight 32-bit words, which CTR mode uses fully.
 */
#ifndef DIAMOND_CORE_AES128_H
#define DIAMOND_CORE_AES128_H

#include <stddef.h>
#include <stdint.h>

#define DMD_AES128_KEY_SIZE	16
#define DMD_AES128_BLOCK_SIZE	16
#define DMD_AES128_ROUNDS	10

/*
 * Round keys in bitsliced form: rk[i][j] holds bit j of every byte of round
 * key i, replicated for both block lanes, so AddRoundKey is eight XORs.
 */
struct dmd_aes128 {
	uint32_t rk[DMD_AES128_ROUNDS + 1][8];
};

void dmd_aes128_init(struct dmd_aes128 *ctx, const uint8_t key[16]);
void dmd_aes128_encrypt(const struct dmd_aes128 *ctx, uint8_t out[16],
			const uint8_t in[16]);
/*
 * Two independent blocks in one call (ECB of two): the bitsliced AES fills
 * both of its lanes, so a parallel mode (OCB) pays one block's time for
 * two. out0/out1 may alias in0/in1. On the AVR it is two block calls.
 */
void dmd_aes128_encrypt2(const struct dmd_aes128 *ctx, uint8_t out0[16],
			 uint8_t out1[16], const uint8_t in0[16],
			 const uint8_t in1[16]);
/*
 * Write len bytes of CTR keystream (not XORed with anything) to out,
 * starting at counter block ctr: a 128-bit big-endian counter incremented
 * with full carry once per block (SP 800-38A, Linux ctr(aes)). On return ctr
 * is the next unused counter block; the unused tail of a final partial block
 * is discarded.
 */
void dmd_aes128_ctr(const struct dmd_aes128 *ctx, uint8_t ctr[16],
		    uint8_t *out, size_t len);
void dmd_aes128_wipe(struct dmd_aes128 *ctx);

/*
 * Bare AES rounds for constructions built on the round function rather than
 * on AES-128 (AEZ's AES4 and AES10). A round is SubBytes, ShiftRows,
 * MixColumns, then AddRoundKey (the AES-NI aesenc step); no initial key
 * addition, no shortened last round. Round keys come in the bitsliced form
 * of dmd_aes_slice_key, so a fixed key is sliced once. Portable core only
 * (host, Cortex-M4): the AVR's own AES (embedded/avr/prims) lacks them.
 */
void dmd_aes_slice_key(uint32_t rk[8], const uint8_t key[16]);
/*
 * @nr rounds, round r keyed by rk[r] (NULL: the all-zero key), on two
 * independent blocks at once; out0/out1 may alias in0/in1.
 */
void dmd_aes_rounds2(const uint32_t *const rk[], unsigned int nr,
		     uint8_t out0[16], uint8_t out1[16],
		     const uint8_t in0[16], const uint8_t in1[16]);

#endif
