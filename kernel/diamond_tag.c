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
 * Poly1305 is our own radix-2^64 code where the compiler has 128-bit
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
 * Poly1305 (RFC 8439) in radix 2^64: r in two limbs, the accumulator in
 * two limbs and a few bits, 64 x 64 -> 128-bit products, no data-dependent
 * branch (the reduction of OpenSSL's 64-bit C code). For 16-byte records
 * this is one block; inlined here it costs far fewer instructions than the
 * lib/crypto descriptor API (three calls, key table setup, descriptor wipe).
 */
struct dmd_poly {
	u64 r0, r1, s1, h0, h1, h2;
};

/* Carry of a sum @a = x + @b, without a branch: (@a < @b) as 0 or 1. */
static __always_inline u64 dmd_carry(u64 a, u64 b)
{
	return (a ^ ((a ^ b) | ((a - b) ^ b))) >> 63;
}

static __always_inline void dmd_poly_block(struct dmd_poly *p, const u8 *m,
					   u64 padbit)
{
	unsigned __int128 d0, d1;
	u64 h0, h1, h2, c;

	d0 = (unsigned __int128)p->h0 + get_unaligned_le64(m);
	d1 = (unsigned __int128)p->h1 + (u64)(d0 >> 64) +
	     get_unaligned_le64(m + 8);
	h0 = (u64)d0;
	h1 = (u64)d1;
	h2 = p->h2 + (u64)(d1 >> 64) + padbit;

	/* h *= r mod 2^130 - 5, s1 = 5 r1 / 4 (r1 is a multiple of 4). */
	d0 = (unsigned __int128)h0 * p->r0 + (unsigned __int128)h1 * p->s1;
	d1 = (unsigned __int128)h0 * p->r1 + (unsigned __int128)h1 * p->r0 +
	     h2 * p->s1;
	h2 = h2 * p->r0;

	h0 = (u64)d0;
	d1 += (u64)(d0 >> 64);
	h1 = (u64)d1;
	h2 += (u64)(d1 >> 64);

	c = (h2 >> 2) + (h2 & ~3ULL);
	h2 &= 3;
	h0 += c;
	c = dmd_carry(h0, c);
	h1 += c;
	c = dmd_carry(h1, c);
	h2 += c;
	p->h0 = h0;
	p->h1 = h1;
	p->h2 = h2;
}

static void poly_tag(const u8 *hp, const u8 *hb, const u8 *data,
		     unsigned int len, u8 *tag)
{
	unsigned __int128 t;
	struct dmd_poly p;
	u64 h0, h1, g0, g1, g2, mask;
	u8 blk[POLY1305_BLOCK_SIZE];
	unsigned int rem;

	/* r clamped (RFC 8439 section 2.5). */
	p.r0 = get_unaligned_le64(hp) & 0x0ffffffc0fffffffULL;
	p.r1 = get_unaligned_le64(hp + 8) & 0x0ffffffc0ffffffcULL;
	p.s1 = p.r1 + (p.r1 >> 2);
	p.h0 = 0;
	p.h1 = 0;
	p.h2 = 0;

	if (hb)
		dmd_poly_block(&p, hb, 1);
	for (; len >= POLY1305_BLOCK_SIZE; len -= POLY1305_BLOCK_SIZE) {
		dmd_poly_block(&p, data, 1);
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

	/* h mod 2^130 - 5: h + 5 carries into bit 130 iff h >= p. */
	t = (unsigned __int128)p.h0 + 5;
	g0 = (u64)t;
	t = (unsigned __int128)p.h1 + (u64)(t >> 64);
	g1 = (u64)t;
	g2 = p.h2 + (u64)(t >> 64);
	mask = 0 - (g2 >> 2);
	h0 = (p.h0 & ~mask) | (g0 & mask);
	h1 = (p.h1 & ~mask) | (g1 & mask);

	/* + s mod 2^128 */
	t = (unsigned __int128)h0 + get_unaligned_le64(hp + 16);
	h0 = (u64)t;
	h1 += (u64)(t >> 64) + get_unaligned_le64(hp + 24);
	put_unaligned_le64(h0, tag);
	put_unaligned_le64(h1, tag + 8);
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
