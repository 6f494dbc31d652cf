/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Poly1305 one-time authenticator, exactly RFC 8439 section 2.5: key is
 * r || s, r is clamped by init. Incremental: any split of the message gives
 * the same tag.
 */
#ifndef DIAMOND_CORE_POLY1305_H
#define DIAMOND_CORE_POLY1305_H

#include <stddef.h>
#include <stdint.h>

#define DMD_POLY1305_KEY_SIZE	32
#define DMD_POLY1305_TAG_SIZE	16

/*
 * Radix 2^8: h[0..15] are bytes and h[16] holds bits 128 and up (a few
 * bits), so the inner products are 8x8->16 multiplies that AVR does in
 * hardware.
 */
struct dmd_poly1305 {
	uint8_t r[16];
	uint8_t s[16];
	uint8_t h[17];
	uint8_t buf[16];
	uint8_t buf_len;
};

void dmd_poly1305_init(struct dmd_poly1305 *ctx, const uint8_t key[32]);
void dmd_poly1305_update(struct dmd_poly1305 *ctx, const uint8_t *m,
			 size_t len);
/* Write the tag and wipe ctx. */
void dmd_poly1305_final(struct dmd_poly1305 *ctx, uint8_t tag[16]);

#endif
