// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Carter-Wegman tags (spec sections 4 and 5). GHASH hashes a header block
 * that binds epoch, position and length first, then the zero-padded data:
 * zero padding alone would let C and C || 00 collide, and with the header
 * first its term HB * H^(m+1) depends on nothing secret but H, so a sender
 * can compute it ahead. Poly1305 pads injectively by itself and its
 * one-time key already binds device, epoch and position, so a record is
 * hashed as it is; the trailer's header binds the count and |AD|.
 */
#include "tag.h"

#include "ghash.h"
#include "poly1305.h"
#include "util.h"

static void header_block(uint8_t hb[16], uint64_t epoch, uint32_t index_field,
			 size_t len)
{
	dmd_store64_le(hb, epoch);
	dmd_store32_le(hb + 8, index_field);
	dmd_store32_le(hb + 12, (uint32_t)len);
}

static void ghash_tag(const uint8_t hp[32], const uint8_t hdr[16],
		      const uint8_t *data, size_t len, uint8_t tag[16])
{
	struct dmd_ghash g;
	size_t i;

	dmd_ghash_init(&g, hp);
	dmd_ghash_update_padded(&g, hdr, 16);
	dmd_ghash_update_padded(&g, data, len);
	dmd_ghash_final(&g, tag);
	for (i = 0; i < 16; i++)
		tag[i] ^= hp[16 + i];
}

/* H || P is already the RFC 8439 one-time key r || s. */
static void poly1305_tag(const uint8_t hp[32], const uint8_t *hdr,
			 const uint8_t *data, size_t len, uint8_t tag[16])
{
	struct dmd_poly1305 p;

	dmd_poly1305_init(&p, hp);
	if (hdr)
		dmd_poly1305_update(&p, hdr, 16);
	dmd_poly1305_update(&p, data, len);
	dmd_poly1305_final(&p, tag);
}

void dmd_uh_tag(unsigned int suite, const uint8_t hp[32], const uint8_t *data,
		size_t len, uint64_t epoch, uint32_t index_field,
		uint8_t tag[16])
{
	uint8_t hdr[16];

	/* A Poly1305 record has no header block: build none. */
	if (suite != DMD_SUITE_AES_GHASH && !(index_field & DMD_TRAILER_FLAG)) {
		poly1305_tag(hp, NULL, data, len, tag);
		return;
	}
	header_block(hdr, epoch, index_field, len);
	if (suite == DMD_SUITE_AES_GHASH)
		ghash_tag(hp, hdr, data, len, tag);
	else
		poly1305_tag(hp, hdr, data, len, tag);
}
