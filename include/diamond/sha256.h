/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* SHA-256 (FIPS 180-4). */
#ifndef DIAMOND_CORE_SHA256_H
#define DIAMOND_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define DMD_SHA256_DIGEST_SIZE	32
#define DMD_SHA256_BLOCK_SIZE	64

struct dmd_sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes absorbed so far */
	uint8_t buf[64];
	uint8_t buf_len;
};

void dmd_sha256_init(struct dmd_sha256 *ctx);
void dmd_sha256_update(struct dmd_sha256 *ctx, const uint8_t *data,
		       size_t len);
/* Write the digest and wipe ctx. */
void dmd_sha256_final(struct dmd_sha256 *ctx, uint8_t out[32]);
void dmd_sha256(uint8_t out[32], const uint8_t *data, size_t len);

#endif
