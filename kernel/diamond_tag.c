// SPDX-License-Identifier: GPL-2.0
/*
 * Diamond tags (Documentation/spec.rst sections 4 and 5): one Carter-Wegman
 * tag per record and one for the epoch trailer, each under its own slot's
 * hash key, and their aggregation into the epoch tag.
 *
 *	sigma = GHASH_H(HB || pad16(X)) xor P		suite 1 (ghash spawn)
 *	sigma = Poly1305_{H || P}(X)			suite 2 record
 *	tau   = Poly1305_{H || P}(HB || X)		suite 2 trailer
 *	HB    = le64(e) || le32(index field) || le32(|X|)
 *
 * GHASH's header block comes first so that a sender can compute its term
 * ahead; Poly1305 pads injectively and its one-time key binds the slot, so
 * only the trailer needs the header (for the count and |AD|).
 *
 * Aggregation: XOR, addition mod 2^128 of little-endian integers, or the
 * SHA-256 accumulator A = SHA-256(A || sigma)[0:16] (lib/crypto sha256()).
 *
 * Poly1305 is our own radix-2^44 code where the compiler has 128-bit
 * integers (every 64-bit kernel), the lib/crypto descriptor API elsewhere.
 */
#include <crypto/algapi.h>
#include <crypto/poly1305.h>
#include <crypto/sha2.h>
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/string.h>
#include <asm/unaligned.h>

#include "diamond.h"

static void header_block(u8 hb[16], u64 epoch, u32 index_field,
			 unsigned int len)
{
	put_unaligned_le64(epoch, hb);
	put_unaligned_le32(index_field, hb + 8);
	put_unaligned_le32(len, hb + 12);
}

/*
 * GHASH through the ahash spawn, which takes a scatterlist: HB || pad16(X)
 * is laid out in ctx->hbuf (linear kmalloc memory, public data only) so
 * each tag is one setkey and one digest.
 */
static int __must_check ghash_tag(struct diamond_tfm_ctx *ctx, const u8 *hp,
				  const u8 *data, unsigned int len,
				  const u8 hb[16], u8 *tag)
{
	unsigned int padded = round_up(len, 16), inlen = padded + 16;
	struct scatterlist sg;
	int err;

	memcpy(ctx->hbuf, hb, 16);
	if (len)
		memcpy(ctx->hbuf + 16, data, len);
	memset(ctx->hbuf + 16 + len, 0, padded - len);

	err = crypto_ahash_setkey(ctx->ghash, hp, 16);
	if (unlikely(err))
		return err;
	sg_init_one(&sg, ctx->hbuf, inlen);
	ahash_request_set_callback(ctx->hreq, ctx->req_flags, crypto_req_done,
				   &ctx->wait);
	ahash_request_set_crypt(ctx->hreq, &sg, ctx->digest, inlen);
	err = crypto_wait_req(crypto_ahash_digest(ctx->hreq), &ctx->wait);
	if (likely(!err))
		crypto_xor_cpy(tag, ctx->digest, hp + 16, DMD_TAG_SIZE);
	return err;
}

#ifdef CONFIG_ARCH_SUPPORTS_INT128
/*
 * Poly1305 (RFC 8439) in radix 2^44, as poly1305-donna-64: the one-time key
 * r || s = H || P, the accumulator in three limbs, 64 x 64 -> 128-bit
 * products, no data-dependent branch. For 16-byte records this is one
 * block; inlined here it costs far fewer instructions than the lib/crypto
 * descriptor API (three calls, key table setup, descriptor wipe).
 */
struct dmd_poly {
	u64 r0, r1, r2, s1, s2, h0, h1, h2;
};

#define DMD_M44 0xfffffffffffULL
#define DMD_M42 0x3ffffffffffULL

static __always_inline void dmd_poly_block(struct dmd_poly *p, const u8 *m,
					   u64 hibit)
{
	unsigned __int128 d0, d1, d2;
	u64 t0 = get_unaligned_le64(m), t1 = get_unaligned_le64(m + 8);
	u64 h0 = p->h0, h1 = p->h1, h2 = p->h2, c;

	h0 += t0 & DMD_M44;
	h1 += ((t0 >> 44) | (t1 << 20)) & DMD_M44;
	h2 += ((t1 >> 24) & DMD_M42) | hibit;

	d0 = (unsigned __int128)h0 * p->r0 + (unsigned __int128)h1 * p->s2 +
	     (unsigned __int128)h2 * p->s1;
	d1 = (unsigned __int128)h0 * p->r1 + (unsigned __int128)h1 * p->r0 +
	     (unsigned __int128)h2 * p->s2;
	d2 = (unsigned __int128)h0 * p->r2 + (unsigned __int128)h1 * p->r1 +
	     (unsigned __int128)h2 * p->r0;

	c = (u64)(d0 >> 44);
	h0 = (u64)d0 & DMD_M44;
	d1 += c;
	c = (u64)(d1 >> 44);
	h1 = (u64)d1 & DMD_M44;
	d2 += c;
	c = (u64)(d2 >> 42);
	h2 = (u64)d2 & DMD_M42;
	h0 += c * 5;
	c = h0 >> 44;
	h0 &= DMD_M44;
	h1 += c;
	p->h0 = h0;
	p->h1 = h1;
	p->h2 = h2;
}

static void poly_tag(const u8 *hp, const u8 *hb, const u8 *data,
		     unsigned int len, u8 *tag)
{
	struct dmd_poly p;
	u64 t0 = get_unaligned_le64(hp), t1 = get_unaligned_le64(hp + 8);
	u64 h0, h1, h2, g0, g1, g2, c;
	u8 blk[POLY1305_BLOCK_SIZE];
	unsigned int rem;

	/* r clamped (RFC 8439 section 2.5), s1 and s2 = 20 r1, 20 r2. */
	p.r0 = t0 & 0xffc0fffffffULL;
	p.r1 = ((t0 >> 44) | (t1 << 20)) & 0xfffffc0ffffULL;
	p.r2 = (t1 >> 24) & 0x00ffffffc0fULL;
	p.s1 = p.r1 * (5 << 2);
	p.s2 = p.r2 * (5 << 2);
	p.h0 = 0;
	p.h1 = 0;
	p.h2 = 0;

	if (hb)
		dmd_poly_block(&p, hb, 1ULL << 40);
	for (; len >= POLY1305_BLOCK_SIZE; len -= POLY1305_BLOCK_SIZE) {
		dmd_poly_block(&p, data, 1ULL << 40);
		data += POLY1305_BLOCK_SIZE;
	}
	if (len) {
		/* Public input (ciphertext or AD): blk needs no wipe. */
		rem = len;
		memcpy(blk, data, rem);
		blk[rem] = 1;
		memset(blk + rem + 1, 0, POLY1305_BLOCK_SIZE - rem - 1);
		dmd_poly_block(&p, blk, 0);
	}

	/* Full carry, then h mod 2^130 - 5, then + s mod 2^128. */
	h0 = p.h0;
	h1 = p.h1;
	h2 = p.h2;
	c = h1 >> 44;
	h1 &= DMD_M44;
	h2 += c;
	c = h2 >> 42;
	h2 &= DMD_M42;
	h0 += c * 5;
	c = h0 >> 44;
	h0 &= DMD_M44;
	h1 += c;
	c = h1 >> 44;
	h1 &= DMD_M44;
	h2 += c;
	c = h2 >> 42;
	h2 &= DMD_M42;
	h0 += c * 5;
	c = h0 >> 44;
	h0 &= DMD_M44;
	h1 += c;

	g0 = h0 + 5;
	c = g0 >> 44;
	g0 &= DMD_M44;
	g1 = h1 + c;
	c = g1 >> 44;
	g1 &= DMD_M44;
	g2 = h2 + c - (1ULL << 42);

	c = (g2 >> 63) - 1;	/* all ones when h >= p */
	g0 &= c;
	g1 &= c;
	g2 &= c;
	c = ~c;
	h0 = (h0 & c) | g0;
	h1 = (h1 & c) | g1;
	h2 = (h2 & c) | g2;

	t0 = get_unaligned_le64(hp + 16);
	t1 = get_unaligned_le64(hp + 24);
	h0 += t0 & DMD_M44;
	c = h0 >> 44;
	h0 &= DMD_M44;
	h1 += (((t0 >> 44) | (t1 << 20)) & DMD_M44) + c;
	c = h1 >> 44;
	h1 &= DMD_M44;
	h2 += ((t1 >> 24) & DMD_M42) + c;
	h2 &= DMD_M42;

	put_unaligned_le64(h0 | (h1 << 44), tag);
	put_unaligned_le64((h1 >> 20) | (h2 << 24), tag + 8);
	memzero_explicit(&p, sizeof(p));
}
#else
/*
 * lib/crypto Poly1305 (the arch code where there is one) with the one-time
 * key r || s = H || P, straight over the record where it lies; a trailer
 * (@hb set) hashes its header block first. poly1305_final() erases the
 * descriptor.
 */
static void poly_tag(const u8 *hp, const u8 *hb, const u8 *data,
		     unsigned int len, u8 *tag)
{
	struct poly1305_desc_ctx desc;

	poly1305_init(&desc, hp);
	if (hb)
		poly1305_update(&desc, hb, 16);
	if (len)
		poly1305_update(&desc, data, len);
	poly1305_final(&desc, tag);
}
#endif

/* The tag of one slot over @data (a ciphertext record or the AD). */
int diamond_uh_tag(struct diamond_tfm_ctx *ctx, const u8 hp[32],
		   const u8 *data, unsigned int len, u64 epoch, u32 index_field,
		   u8 tag[DMD_TAG_SIZE])
{
	u8 hb[16];

	header_block(hb, epoch, index_field, len);
	if (ctx->suite == DMD_SUITE_AES_GHASH)
		return ghash_tag(ctx, hp, data, len, hb, tag);
	poly_tag(hp, index_field & DMD_TRAILER_FLAG ? hb : NULL, data, len,
		 tag);
	return 0;
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

void diamond_agg_add(struct diamond_agg *a, const u8 tag[DMD_TAG_SIZE])
{
	switch (a->mode) {
	case DMD_AGG_ADD:
		add_mod128(a->acc, tag);
		break;
	case DMD_AGG_HASH:
		hash_chain(a->acc, tag);
		break;
	default:
		crypto_xor(a->acc, tag, DMD_TAG_SIZE);
		break;
	}
}

/* Fold in the trailer tag @tau last, write the epoch tag, wipe @a. */
void diamond_agg_final(struct diamond_agg *a, const u8 tau[DMD_TAG_SIZE],
		       u8 out[DMD_TAG_SIZE])
{
	diamond_agg_add(a, tau);
	memcpy(out, a->acc, DMD_TAG_SIZE);
	memzero_explicit(a, sizeof(*a));
}
