/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * GHASH framing: key setup, zero-padded absorption, output. The GF(2^128)
 * multiply lives in ghash_mul.c (three portable forms) or in a port's own
 * ghash_mul.c (the AVR assembly kernel), behind include/diamond/ghash_mul.h.
 */
#include <diamond/ghash.h>
#include <diamond/ghash_mul.h>
#include <diamond/util.h>

void dmd_ghash_init(struct dmd_ghash *ctx, const uint8_t h[16])
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		ctx->h[i] = dmd_load32_be(h + 4 * i);
		ctx->y[i] = 0;
	}
	dmd_ghash_mul_setup(ctx->h);
}

void dmd_ghash_update_padded(struct dmd_ghash *ctx, const uint8_t *data,
			     size_t len)
{
	uint8_t pad[16];
	size_t i;

	dmd_ghash_blocks(ctx, data, len / 16);
	data += len & ~(size_t)15;
	len &= 15;
	if (len) {
		for (i = 0; i < 16; i++)
			pad[i] = i < len ? data[i] : 0;
		dmd_ghash_blocks(ctx, pad, 1);
		dmd_wipe(pad, sizeof(pad));
	}
}

void dmd_ghash_final(struct dmd_ghash *ctx, uint8_t out[16])
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		dmd_store32_be(out + 4 * i, ctx->y[i]);
	dmd_wipe(ctx, sizeof(*ctx));
	dmd_ghash_mul_wipe();
}
