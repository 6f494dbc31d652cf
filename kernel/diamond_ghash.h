/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Suite 1's tag (Documentation/spec.rst section 4) on the ghash spawn or
 * on the library, inline: diamond_tag.c tags with it, and the epoch walk's
 * record loop (diamond_epoch.c) inlines it with what stays set up once per
 * epoch: the spawn's request, the library's stack state (erased once, at
 * the epoch's end). A record costs the module HB, its copy or its blocks,
 * and the kernel's calls.
 *
 *	sigma = GHASH_H(HB || pad16(X)) xor P
 *	HB    = le64(e) || le32(index field) || le32(|X|)
 */
#ifndef DIAMOND_GHASH_H
#define DIAMOND_GHASH_H

#include <crypto/algapi.h>
#include <crypto/gf128mul.h>
#include <crypto/hash.h>
#include <linux/string.h>

#include "diamond.h"

static __always_inline void diamond_header_block(u8 hb[16], u64 epoch,
						 u32 index_field,
						 unsigned int len)
{
	put_unaligned_le64(epoch, hb);
	put_unaligned_le32(index_field, hb + 8);
	put_unaligned_le32(len, hb + 12);
}

/* The ghash spawn runs the tags: from 7.1 there is none to run them. */
static __always_inline bool
diamond_ghash_spawned(const struct diamond_tfm_ctx *ctx)
{
	return !DMD_GHASH_IS_LIB && ctx->ghash;
}

/*
 * The request's fields that stay: the callback, ctx->hsg (all of
 * ctx->hbuf) in, ctx->digest out. A digest leaves them as they were set:
 * the drivers and the API keep their own state in the request's context
 * (and ahash's own saved fields are restored before it returns). The
 * kernel KAT's epochs of many records check it on every matrix kernel.
 */
static __always_inline void diamond_ghash_begin(struct diamond_tfm_ctx *ctx)
{
	ahash_request_set_callback(ctx->hreq, ctx->req_flags, crypto_req_done,
				   &ctx->wait);
	ahash_request_set_crypt(ctx->hreq, &ctx->hsg, ctx->digest, 0);
}

/*
 * One tag on the spawn, its request begun: HB || pad16(@data) laid out in
 * ctx->hbuf (linear kmalloc memory, public data only), then one setkey and
 * one digest of the first 16 + padded bytes.
 */
static __always_inline int diamond_ghash_digest(struct diamond_tfm_ctx *ctx,
						const u8 *hp, const u8 *data,
						unsigned int len, u64 epoch,
						u32 index_field, u8 *tag)
{
	unsigned int padded = round_up(len, 16);
	int err;

	/* A record or an AD; diamond_crypt() checked it under the lock. */
	if (unlikely(len > DMD_MAX_RECORD))
		return -EMSGSIZE;
	diamond_header_block(ctx->hbuf, epoch, index_field, len);
	if (len == 16)
		memcpy(ctx->hbuf + 16, data, 16);	/* inline */
	else if (len)
		memcpy(ctx->hbuf + 16, data, len);
	if (padded != len)
		memset(ctx->hbuf + 16 + len, 0, padded - len);

	err = crypto_ahash_setkey(ctx->ghash, hp, 16);
	if (unlikely(err))
		return err;
	ctx->hreq->nbytes = padded + 16;
	err = diamond_child_wait(ctx, crypto_ahash_digest(ctx->hreq));
	if (likely(!err))
		crypto_xor_cpy(tag, ctx->digest, hp + 16, DMD_TAG_SIZE);
	return err;
}

/*
 * What a GHASH on the library leaves on the stack, for its caller to erase:
 * from 7.1 the library's key and context, before it the accumulator, H and
 * the last block for gf128mul_lle(). Kept by the caller, it is not
 * initialized again (-ftrivial-auto-var-init) for every record.
 */
struct diamond_ghash_lib {
	struct dmd_lib_ghash_state lib;
	be128 acc;
	be128 h;
	u8 last[16];
};

/*
 * GHASH on the library: from 7.1 the kernel's GHASH (diamond_compat.h);
 * before it, for an instance whose ghash is ghash-generic, lib/crypto's
 * gf128mul_lle(). That driver's setkey allocates and fills a 4 KiB table
 * (gf128mul_init_4k_lle(), GFP_KERNEL), which for a one-time key is both
 * the dominant cost and a sleeping allocation on the atomic path; this is
 * the same field arithmetic without the table, acc = (acc ^ X_i) * H in
 * the "lle" convention ghash-generic uses, so the digest is bit-identical.
 * The timing is gf128mul_lle()'s: time invariant since Linux 6.3, and on
 * older kernels no weaker than ghash-generic's own table lookups.
 */
static __always_inline void diamond_ghash_lib(struct diamond_ghash_lib *s,
					      const u8 *hp, const u8 hb[16],
					      const u8 *data, unsigned int len,
					      u8 *tag)
{
	unsigned int rest = len % 16;

	if (DMD_GHASH_IS_LIB) {
		dmd_lib_ghash(&s->lib, hp, hb, data, len, s->last);
		crypto_xor_cpy(tag, s->last, hp + 16, DMD_TAG_SIZE);
		return;
	}
	memcpy(&s->h, hp, 16);
	memcpy(&s->acc, hb, 16);
	gf128mul_lle(&s->acc, &s->h);
	if (len == 16) {
		/*
		 * The 16-byte record of telemetry: one block, no loop, and
		 * no third crypto_xor() that would tip the compiler into an
		 * out-of-line copy of it for every caller in the file.
		 */
		s->acc.a ^= get_unaligned((const __be64 *)data);
		s->acc.b ^= get_unaligned((const __be64 *)(data + 8));
		gf128mul_lle(&s->acc, &s->h);
		len = 0;
	}
	for (; len >= 16; len -= 16, data += 16) {
		crypto_xor((u8 *)&s->acc, data, 16);
		gf128mul_lle(&s->acc, &s->h);
	}
	if (rest) {
		memcpy(s->last, data, rest);
		memset(s->last + rest, 0, 16 - rest);
		crypto_xor((u8 *)&s->acc, s->last, 16);
		gf128mul_lle(&s->acc, &s->h);
	}
	crypto_xor_cpy(tag, (u8 *)&s->acc, hp + 16, DMD_TAG_SIZE);
}

#endif /* DIAMOND_GHASH_H */
