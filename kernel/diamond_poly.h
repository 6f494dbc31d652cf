/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Suite 2's Poly1305 tag of one slot (Documentation/spec.rst section 4),
 * inline: diamond_tag.c tags with it, and the epoch walk's record loop
 * (diamond_epoch.c) inlines it, so that a record's tag costs no call of
 * the module's own, only the kernel's Poly1305 calls.
 */
#ifndef DIAMOND_POLY_H
#define DIAMOND_POLY_H

#include <crypto/poly1305.h>
#include <linux/string.h>

#include "diamond.h"

#if DMD_POLY1305_CORE
/*
 * Poly1305 on lib/crypto's core (diamond_compat.h) with the one-time key
 * r || s = H || P, straight over the record where it lies; a trailer (@hb
 * set) hashes its header block first. A record is one or two blocks: the
 * core runs them as plain calls, where poly1305_init/update/final() would
 * set up a descriptor and, on arm64, a NEON section around each. The last
 * partial block is padded as RFC 8439 section 2.5 says. The key and the
 * accumulator stay in ctx->poly until the request's end erases them
 * (struct diamond_poly).
 */
static __always_inline void diamond_poly_tag(struct diamond_tfm_ctx *ctx,
					     const u8 *hp, const u8 *hb,
					     const u8 *data, unsigned int len,
					     u8 *tag)
{
	struct diamond_poly *p = &ctx->poly;
	unsigned int full = len / POLY1305_BLOCK_SIZE;
	unsigned int rest = len % POLY1305_BLOCK_SIZE;

	poly1305_core_setkey(&p->key, hp);
	poly1305_core_init(&p->h);
	if (hb)
		poly1305_core_blocks(&p->h, &p->key, hb, 1, 1);
	if (full)
		poly1305_core_blocks(&p->h, &p->key, data, full, 1);
	if (rest) {
		memcpy(p->last, data + len - rest, rest);
		p->last[rest] = 1;
		memset(p->last + rest + 1, 0, POLY1305_BLOCK_SIZE - rest - 1);
		poly1305_core_blocks(&p->h, &p->key, p->last, 1, 0);
	}
#ifdef __LITTLE_ENDIAN
	/* s as the core's four words is the key's bytes where they lie. */
	if (IS_ALIGNED((unsigned long)hp, 4)) {
		poly1305_core_emit(&p->h, (const u32 *)(hp + 16), tag);
		return;
	}
#endif
	p->s[0] = get_unaligned_le32(hp + 16);
	p->s[1] = get_unaligned_le32(hp + 20);
	p->s[2] = get_unaligned_le32(hp + 24);
	p->s[3] = get_unaligned_le32(hp + 28);
	poly1305_core_emit(&p->h, p->s, tag);
}
#else
/*
 * Poly1305 of lib/crypto (poly1305_init/update/final(), the arch code where
 * there is one) with the one-time key r || s = H || P, straight over the
 * record where it lies; a trailer (@hb set) hashes its header block first.
 * poly1305_final() erases the descriptor, key included.
 */
static inline void diamond_poly_tag(struct diamond_tfm_ctx *ctx,
				    const u8 *hp, const u8 *hb,
				    const u8 *data, unsigned int len, u8 *tag)
{
	struct poly1305_desc_ctx desc;

	poly1305_init(&desc, hp);
	if (hb)
		poly1305_update(&desc, hb, 16);
	poly1305_update(&desc, data, len);
	poly1305_final(&desc, tag);
}
#endif

#endif /* DIAMOND_POLY_H */
