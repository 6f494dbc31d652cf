// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Carter-Wegman tags (spec sections 4 and 5). GHASH hashes a header block
 * that binds epoch, position and length first, then the zero-padded data:
 * zero padding alone would let C and C || 00 collide, and with the header
 * first its term HB * H^(m+1) depends on nothing secret but H, so a sender
 * can compute it ahead. Poly1305 pads injectively by itself and its
 * one-time key already binds device, epoch and position, so a record is
 * hashed as it is; a trailer's header (epoch or group) binds the count and
 * |AD|.
 */
#include <diamond/tag.h>

#include <diamond/ghash.h>
#include <diamond/poly1305.h>
#include <diamond/util.h>

/* HB, written into the tag buffer, which the hash reads first (below). */
static void header_block(uint8_t hb[16], uint64_t epoch, uint32_t index_field,
			 size_t len)
{
	dmd_store64_le(hb, epoch);
	dmd_store32_le(hb + 8, index_field);
	dmd_store32_le(hb + 12, (uint32_t)len);
}

/*
 * The tags with a header block take it in @tag, read it before anything
 * else and write the tag last. Out of line with four register arguments,
 * so that dmd_uh_tag() keeps no context or header in its own frame and
 * ends in a jump to the hash: what an online seal leaves on the stack is
 * the hash's frame, not a context nobody used (its stack wipe, util.h).
 */
static __attribute__((noinline)) void ghash_tag(uint8_t tag[16],
						 const uint8_t hp[32],
						 const uint8_t *data,
						 size_t len)
{
	struct dmd_ghash g;
	size_t i;

	dmd_ghash_init(&g, hp);
	dmd_ghash_update_padded(&g, tag, 16);
	dmd_ghash_update_padded(&g, data, len);
	dmd_ghash_final(&g, tag);
	for (i = 0; i < 16; i++)
		tag[i] ^= hp[16 + i];
}

/* H || P is already the RFC 8439 one-time key r || s. */
static __attribute__((noinline)) void poly1305_trailer_tag(uint8_t tag[16],
							    const uint8_t hp[32],
							    const uint8_t *data,
							    size_t len)
{
	struct dmd_poly1305 p;

	dmd_poly1305_init(&p, hp);
	dmd_poly1305_update(&p, tag, 16);
	dmd_poly1305_update(&p, data, len);
	dmd_poly1305_final(&p, tag);
}

/*
 * HB is public (epoch, position, length), so @tag may carry it; @tag must
 * not overlap @hp or @data (no caller does).
 */
void dmd_uh_tag(unsigned int suite, const uint8_t hp[32], const uint8_t *data,
		size_t len, uint64_t epoch, uint32_t index_field,
		uint8_t tag[16])
{
	if (suite == DMD_SUITE_AES_GHASH) {
		header_block(tag, epoch, index_field, len);
		ghash_tag(tag, hp, data, len);
	} else if (index_field &
		   (DMD_TRAILER_FLAG | DMD_GROUP_FLAG | DMD_GRID_FLAG)) {
		header_block(tag, epoch, index_field, len);
		poly1305_trailer_tag(tag, hp, data, len);
	} else {
		/* A Poly1305 record has no header block: one call. */
		dmd_poly1305(hp, data, len, tag);
	}
}
