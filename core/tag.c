// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Carter-Wegman tags (spec sections 4 and 5). The hash input always ends in
 * a 16-byte block that binds epoch, position and length, which closes the
 * paper's zero-padding collision (C and C || 00 hash alike without it).
 */
#include "tag.h"

#include "ghash.h"
#include "poly1305.h"
#include "util.h"

static const uint8_t zeros[16];

static void length_block(uint8_t lb[16], uint64_t epoch, uint32_t index_field,
			 size_t len)
{
	dmd_store64_le(lb, epoch);
	dmd_store32_le(lb + 8, index_field);
	dmd_store32_le(lb + 12, (uint32_t)len);
}

static void ghash_tag(const uint8_t hp[32], const uint8_t *data, size_t len,
		      const uint8_t lb[16], uint8_t tag[16])
{
	struct dmd_ghash g;
	size_t i;

	dmd_ghash_init(&g, hp);
	dmd_ghash_update_padded(&g, data, len);
	dmd_ghash_update_padded(&g, lb, 16);
	dmd_ghash_final(&g, tag);
	for (i = 0; i < 16; i++)
		tag[i] ^= hp[16 + i];
}

/* H || P is already the RFC 8439 one-time key r || s. */
static void poly1305_tag(const uint8_t hp[32], const uint8_t *data,
			 size_t len, const uint8_t lb[16], uint8_t tag[16])
{
	struct dmd_poly1305 p;

	dmd_poly1305_init(&p, hp);
	dmd_poly1305_update(&p, data, len);
	dmd_poly1305_update(&p, zeros, (16 - (len & 15)) & 15);
	dmd_poly1305_update(&p, lb, 16);
	dmd_poly1305_final(&p, tag);
}

void dmd_uh_tag(unsigned int suite, const uint8_t hp[32], const uint8_t *data,
		size_t len, uint64_t epoch, uint32_t index_field,
		uint8_t tag[16])
{
	uint8_t lb[16];

	length_block(lb, epoch, index_field, len);
	if (suite == DMD_SUITE_AES_GHASH)
		ghash_tag(hp, data, len, lb, tag);
	else
		poly1305_tag(hp, data, len, lb, tag);
}
