// SPDX-License-Identifier: GPL-2.0
/*
 * Diamond tags (Documentation/spec.rst sections 4 and 5): one Carter-Wegman
 * tag per record and one for the epoch trailer, each under its own slot's
 * hash key, and their aggregation into the epoch tag.
 *
 *	sigma = GHASH_H(HB || pad16(X)) xor P		suite 1 (ghash spawn or
 *							lib gf128mul_lle())
 *	sigma = Poly1305_{H || P}(X)			suite 2 record (lib/crypto
 *							core or poly1305_init)
 *	tau   = Poly1305_{H || P}(HB || X)		suite 2 trailer
 *	HB    = le64(e) || le32(index field) || le32(|X|)
 *
 * GHASH's header block comes first so that a sender can compute its term
 * ahead; Poly1305 pads injectively and its one-time key binds the slot, so
 * only the trailer needs the header (for the count and |AD|).
 *
 * Aggregation: XOR, addition mod 2^128 of little-endian integers, or the
 * SHA-256 accumulator A = SHA-256(A || sigma)[0:16] (lib/crypto sha256()).
 */
#include <crypto/algapi.h>
#include <crypto/poly1305.h>
#include <crypto/sha2.h>
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/string.h>

#include "diamond.h"
#include "diamond_ghash.h"
#include "diamond_poly.h"

/*
 * Out of line: its stack buffers would give the spawn's path in
 * diamond_ghash_tag() a stack canary and more saved registers.
 */
static noinline void ghash_lib_tag(const u8 *hp, const u8 *data,
				   unsigned int len, const u8 hb[16], u8 *tag)
{
	struct diamond_ghash_lib s;

	diamond_ghash_lib(&s, hp, hb, data, len, tag);
	memzero_explicit(&s, sizeof(s));
}

/*
 * Suite 1's tag, over HB || pad16(@data): the trailer's and any record's
 * under a non-XOR aggregation (the XOR record loop of diamond_epoch.c
 * inlines both kinds). HB goes at the head of ctx->hbuf (public, like all
 * of the GHASH input there), where the spawn's digest and the library's
 * GHASH read it.
 */
int diamond_ghash_tag(struct diamond_tfm_ctx *ctx, const u8 *hp,
		      const u8 *data, unsigned int len, u64 epoch,
		      u32 index_field, u8 tag[DMD_TAG_SIZE])
{
	if (!diamond_ghash_spawned(ctx)) {
		diamond_header_block(ctx->hbuf, epoch, index_field, len);
		ghash_lib_tag(hp, data, len, ctx->hbuf, tag);
		return 0;
	}
	diamond_ghash_begin(ctx);
	return diamond_ghash_digest(ctx, hp, data, len, epoch, index_field,
				    tag);
}

/* Suite 2's trailer tag, over HB || @data. */
static noinline void poly_trailer_tag(struct diamond_tfm_ctx *ctx,
				      const u8 *hp, const u8 *data,
				      unsigned int len, u64 epoch,
				      u32 index_field, u8 tag[DMD_TAG_SIZE])
{
	u8 hb[16];

	diamond_header_block(hb, epoch, index_field, len);
	diamond_poly_tag(ctx, hp, hb, data, len, tag);
}

/* The tag of one slot over @data (a ciphertext record or the AD). */
int diamond_uh_tag(struct diamond_tfm_ctx *ctx,
		   const struct diamond_slot *slot, const u8 *data,
		   unsigned int len, u64 epoch, u32 index_field,
		   u8 tag[DMD_TAG_SIZE])
{
	bool trailer = index_field & (DMD_TRAILER_FLAG | DMD_GROUP_FLAG |
				      DMD_GRID_FLAG);

	/*
	 * Suite 2 records go without HB (see the top of this file); an epoch,
	 * a group (spec 5.1) or a grid trailer (spec 14.3) hashes its header.
	 */
	if (likely(ctx->suite == DMD_SUITE_CHACHA_POLY && !trailer)) {
		diamond_poly_tag(ctx, slot->hp, NULL, data, len, tag);
		return 0;
	}
	if (ctx->suite == DMD_SUITE_CHACHA_POLY) {
		poly_trailer_tag(ctx, slot->hp, data, len, epoch, index_field,
				 tag);
		return 0;
	}
	return diamond_ghash_tag(ctx, slot->hp, data, len, epoch, index_field,
				 tag);
}

void diamond_agg_init(struct diamond_agg *a, u8 mode)
{
	memset(a->acc, 0, sizeof(a->acc));
	a->mode = mode;
}

/* acc = (acc + t) mod 2^128, both little-endian. */
static void add_mod128(u8 acc[16], const u8 t[16])
{
	u64 lo = get_unaligned_le64(acc), hi = get_unaligned_le64(acc + 8);
	u64 tlo = get_unaligned_le64(t);

	lo += tlo;
	hi += get_unaligned_le64(t + 8) + (lo < tlo);
	put_unaligned_le64(lo, acc);
	put_unaligned_le64(hi, acc + 8);
}

/* acc = SHA-256(acc || t)[0:16]. */
static void hash_chain(u8 acc[16], const u8 t[16])
{
	u8 in[32], out[SHA256_DIGEST_SIZE];

	memcpy(in, acc, 16);
	memcpy(in + 16, t, 16);
	sha256(in, sizeof(in), out);
	memcpy(acc, out, 16);
	memzero_explicit(in, sizeof(in));
	memzero_explicit(out, sizeof(out));
}

/* The ADD and HASH aggregation steps; diamond_agg_add() inlines XOR. */
void diamond_agg_fold(struct diamond_agg *a, const u8 tag[DMD_TAG_SIZE])
{
	if (a->mode == DMD_AGG_ADD)
		add_mod128(a->acc, tag);
	else
		hash_chain(a->acc, tag);
}

/* Fold in the trailer tag @tau last, write the epoch tag, wipe @a. */
void diamond_agg_final(struct diamond_agg *a, const u8 tau[DMD_TAG_SIZE],
		       u8 out[DMD_TAG_SIZE])
{
	diamond_agg_add(a, tau);
	memcpy(out, a->acc, DMD_TAG_SIZE);
	memzero_explicit(a, sizeof(*a));
}
