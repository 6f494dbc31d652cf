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
