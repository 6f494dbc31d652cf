/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Poly1305 in radix 2^8 with 32-bit accumulators.
 *
 * h holds a number below about 2^131 as 16 bytes plus a small top limb.
 * Limb i + 17 of a product sits at 2^(8i + 136) = 2^(8i) * 2^6 * 2^130, and
 * 2^130 = 5 mod p, so it folds into limb i times 320. Bounds per block:
 * limbs of h + m are < 2^8 (top limb < 8), r limbs < 2^8, so an output limb
 * is < 16 * 2^16 + 320 * 15 * 2^16 < 2^29: no uint32 overflows.
 *
 * All loops have fixed trip counts and the final reduction selects with a
 * mask; no branch or index depends on the key or the message.
 */
#include "poly1305.h"
#include "util.h"

void dmd_poly1305_init(struct dmd_poly1305 *ctx, const uint8_t key[32])
{
	unsigned int i;

	for (i = 0; i < 16; i++) {
		ctx->r[i] = key[i];
		ctx->s[i] = key[16 + i];
		ctx->h[i] = 0;
	}
	ctx->h[16] = 0;
	ctx->buf_len = 0;
	/* Clamp: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff (little endian). */
	ctx->r[3] &= 15;
	ctx->r[7] &= 15;
	ctx->r[11] &= 15;
	ctx->r[15] &= 15;
	ctx->r[4] &= 252;
	ctx->r[8] &= 252;
	ctx->r[12] &= 252;
}

/* 8x8->16 product; the uint16_t casts keep AVR's 16-bit int unsigned. */
static inline uint32_t mul8(uint8_t a, uint8_t b)
{
	return (uint32_t)(uint16_t)((uint16_t)a * (uint16_t)b);
}

/* h = (h + m + hibit * 2^128) * r, partially reduced mod 2^130 - 5. */
static void poly1305_block(struct dmd_poly1305 *ctx, const uint8_t m[16],
			   uint8_t hibit)
{
	uint8_t a[17];
	uint32_t x[17], lo, hi, c;
	unsigned int i, j;

	c = 0;
	for (i = 0; i < 16; i++) {
		c += (uint32_t)ctx->h[i] + m[i];
		a[i] = (uint8_t)c;
		c >>= 8;
	}
	a[16] = (uint8_t)(c + ctx->h[16] + hibit);

	/* Schoolbook product; r has no limb 16, which trims both sums. */
	for (i = 0; i < 17; i++) {
		lo = 0;
		for (j = i < 16 ? 0 : i - 15; j <= i; j++)
			lo += mul8(a[j], ctx->r[i - j]);
		hi = 0;
		for (j = i + 2; j < 17; j++)
			hi += mul8(a[j], ctx->r[i + 17 - j]);
		x[i] = lo + (hi << 8) + (hi << 6);
	}

	/* Carry into bytes, then fold bits 130 and up back in times 5. */
	c = 0;
	for (i = 0; i < 16; i++) {
		c += x[i];
		x[i] = c & 0xff;
		c >>= 8;
	}
	c += x[16];
	x[16] = c & 3;
	c = (c >> 2) + (c & ~(uint32_t)3);
	for (i = 0; i < 16; i++) {
		c += x[i];
		ctx->h[i] = (uint8_t)c;
		c >>= 8;
	}
	ctx->h[16] = (uint8_t)(x[16] + c);

	dmd_wipe(a, sizeof(a));
	dmd_wipe(x, sizeof(x));
}

void dmd_poly1305_update(struct dmd_poly1305 *ctx, const uint8_t *m,
			 size_t len)
{
	while (len) {
		if (ctx->buf_len == 0 && len >= 16) {
			poly1305_block(ctx, m, 1);
			m += 16;
			len -= 16;
			continue;
		}
		ctx->buf[ctx->buf_len++] = *m++;
		len--;
		if (ctx->buf_len == 16) {
			poly1305_block(ctx, ctx->buf, 1);
			ctx->buf_len = 0;
		}
	}
}

void dmd_poly1305_final(struct dmd_poly1305 *ctx, uint8_t tag[16])
{
	uint8_t g[17];
	uint32_t c, mask;
	unsigned int i;

	/* A final partial block gets a 0x01 byte and no 2^128 bit. */
	if (ctx->buf_len) {
		ctx->buf[ctx->buf_len] = 1;
		for (i = ctx->buf_len + 1; i < 16; i++)
			ctx->buf[i] = 0;
		poly1305_block(ctx, ctx->buf, 0);
	}

	/* Fold bits 130+ once more: h <= 2^130 + 4 < 2p afterwards. */
	c = (uint32_t)(ctx->h[16] >> 2) * 5;
	ctx->h[16] &= 3;
	for (i = 0; i < 16; i++) {
		c += ctx->h[i];
		ctx->h[i] = (uint8_t)c;
		c >>= 8;
	}
	ctx->h[16] = (uint8_t)(ctx->h[16] + c);

	/* g = h + 5 reaches 2^130 exactly when h >= p; then use g - 2^130. */
	c = 5;
	for (i = 0; i < 16; i++) {
		c += ctx->h[i];
		g[i] = (uint8_t)c;
		c >>= 8;
	}
	c += ctx->h[16];
	mask = 0 - (c >> 2);
	for (i = 0; i < 16; i++)
		ctx->h[i] = (uint8_t)((ctx->h[i] & ~mask) | (g[i] & mask));

	/* tag = (h + s) mod 2^128 */
	c = 0;
	for (i = 0; i < 16; i++) {
		c += (uint32_t)ctx->h[i] + ctx->s[i];
		tag[i] = (uint8_t)c;
		c >>= 8;
	}
	dmd_wipe(g, sizeof(g));
	dmd_wipe(ctx, sizeof(*ctx));
}
