/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * GHASH (NIST SP 800-38D, section 6.4): Y_i = (Y_{i-1} ^ X_i) * H in
 * GF(2^128) with the bit-reflected GCM convention. Constant time.
 */
#ifndef DIAMOND_CORE_GHASH_H
#define DIAMOND_CORE_GHASH_H

#include <stddef.h>
#include <stdint.h>

#define DMD_GHASH_BLOCK_SIZE	16

/*
 * Multiplier, chosen at compile time (a build may force it with
 * -DDMD_GHASH_MUL=1|32|64; the host tests build all three):
 *   1   bit-serial shift and mask, 32-bit AND/XOR/shift only (AVR);
 *   32  carry-less products from 32x32->64 integer multiplies of operands
 *       with holes (one UMULL each on Cortex-M4), Karatsuba to 128 bits;
 *   64  the same idea with 64x64->128 multiplies, for 64-bit hosts whose
 *       compiler inlines unsigned __int128 multiplies.
 * Only the multiplier changes: the context layout and results are shared.
 */
#ifndef DMD_GHASH_MUL
#if defined(__AVR__)
#define DMD_GHASH_MUL 1
#elif defined(__SIZEOF_INT128__) && (defined(__x86_64__) || defined(__aarch64__))
#define DMD_GHASH_MUL 64
#else
#define DMD_GHASH_MUL 32
#endif
#endif

/* H and Y as big-endian 32-bit words: word 0 holds bytes 0..3. */
struct dmd_ghash {
	uint32_t h[4];
	uint32_t y[4];
};

void dmd_ghash_init(struct dmd_ghash *ctx, const uint8_t h[16]);
/*
 * Absorb data as 16-byte blocks; a final partial block is zero-padded, as
 * GCM pads A and C. Each call pads its own tail, so only splits on 16-byte
 * boundaries are invisible.
 */
void dmd_ghash_update_padded(struct dmd_ghash *ctx, const uint8_t *data,
			     size_t len);
/* Write Y and wipe ctx. */
void dmd_ghash_final(struct dmd_ghash *ctx, uint8_t out[16]);

#endif
