/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * GF(2^128) multiply by shift-and-add (SP 800-38D Algorithm 1) with every
 * conditional turned into a mask, so timing depends on neither operand.
 * Tables indexed by H or Y would be faster but leak through the cache, and
 * 64-bit or carry-less integer products are slow library calls on AVR; this
 * form needs only 32-bit AND/XOR/shift.
 */
#include "ghash.h"
#include "util.h"

/* R = 11100001 || 0^120: the reduction term for a bit shifted out of x^127. */
#define GHASH_R 0xe1000000u

/* y = y * h. Bit 0 of the GCM bit string is the MSB of y[0]. */
static void gf128_mul(uint32_t y[4], const uint32_t h[4])
{
	uint32_t z0 = 0, z1 = 0, z2 = 0, z3 = 0;
	uint32_t v0 = h[0], v1 = h[1], v2 = h[2], v3 = h[3];
	uint32_t w, m, red;
	unsigned int i, b;

	for (i = 0; i < 4; i++) {
		w = y[i];
		for (b = 0; b < 32; b++) {
			/* Z ^= V when the next bit of Y is set. */
			m = 0 - (w >> 31);
			w <<= 1;
			z0 ^= v0 & m;
			z1 ^= v1 & m;
			z2 ^= v2 & m;
			z3 ^= v3 & m;
			/* V = V * x: shift towards the LSB, fold x^128 back. */
			red = GHASH_R & (0 - (v3 & 1));
			v3 = (v3 >> 1) | (v2 << 31);
			v2 = (v2 >> 1) | (v1 << 31);
			v1 = (v1 >> 1) | (v0 << 31);
			v0 = (v0 >> 1) ^ red;
		}
	}
	y[0] = z0;
	y[1] = z1;
	y[2] = z2;
	y[3] = z3;
}

void dmd_ghash_init(struct dmd_ghash *ctx, const uint8_t h[16])
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		ctx->h[i] = dmd_load32_be(h + 4 * i);
		ctx->y[i] = 0;
	}
}

static void ghash_block(struct dmd_ghash *ctx, const uint8_t b[16])
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		ctx->y[i] ^= dmd_load32_be(b + 4 * i);
	gf128_mul(ctx->y, ctx->h);
}

void dmd_ghash_update_padded(struct dmd_ghash *ctx, const uint8_t *data,
			     size_t len)
{
	uint8_t pad[16];
	size_t i;

	for (; len >= 16; len -= 16, data += 16)
		ghash_block(ctx, data);
	if (len) {
		for (i = 0; i < 16; i++)
			pad[i] = i < len ? data[i] : 0;
		ghash_block(ctx, pad);
		dmd_wipe(pad, sizeof(pad));
	}
}

void dmd_ghash_final(struct dmd_ghash *ctx, uint8_t out[16])
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		dmd_store32_be(out + 4 * i, ctx->y[i]);
	dmd_wipe(ctx, sizeof(*ctx));
}
