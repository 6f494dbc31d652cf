/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record chain past the precomputed table, inline in the epoch walk's
 * record loop (diamond_epoch.c): slot after slot,
 *
 *	Y_j = G(R_j, 0)[0 : O + len_j]		(spec section 3)
 *
 * in place in ctx->sbuf, whose head is R_j before and R_{j+1} after (G reads
 * its key before it writes a byte). What stays the same from slot to slot
 * is set once by diamond_walk_begin(): the ChaCha20 constants and nonce,
 * the ctr(aes) request. A slot then costs the module its key,
 * the counter block and the kernel's call. diamond_chain.c's stream() is
 * the general G (any domain, any length, any buffer) and shares the pieces
 * below.
 */
#ifndef DIAMOND_WALK_H
#define DIAMOND_WALK_H

#include <crypto/aes.h>
#include <crypto/chacha.h>
#include <crypto/internal/skcipher.h>
#include <linux/string.h>

#include "diamond.h"

/* The longest O + len the walk takes: one call of G on the zero page. */
#define DMD_WALK_MAX	PAGE_SIZE

/*
 * ChaCha20's key words from @key, where the state holds them: its bytes as
 * they lie on a little-endian CPU (two load-store pairs on arm64, not
 * eight).
 */
static __always_inline void diamond_chacha_key(struct chacha_state *st,
					       const u8 *key)
{
#ifdef __LITTLE_ENDIAN
	memcpy(&st->x[4], key, CHACHA_KEY_SIZE);
#else
	u32 *x = st->x;

	x[4] = get_unaligned_le32(key);
	x[5] = get_unaligned_le32(key + 4);
	x[6] = get_unaligned_le32(key + 8);
	x[7] = get_unaligned_le32(key + 12);
	x[8] = get_unaligned_le32(key + 16);
	x[9] = get_unaligned_le32(key + 20);
	x[10] = get_unaligned_le32(key + 24);
	x[11] = get_unaligned_le32(key + 28);
#endif
}

/* Suite 1's first counter block for G in @domain (spec section 1). */
static __always_inline void diamond_stream_iv(u8 iv[AES_BLOCK_SIZE],
					      u8 domain)
{
	memset(iv, 0, AES_BLOCK_SIZE);
	if (domain == DMD_DOM_EPOCH)
		iv[0] = 0x80;	/* counter 2^127 */
	else if (domain == DMD_DOM_GROUP)
		iv[0] = 0x40;	/* counter 2^126 */
	else if (domain == DMD_DOM_GRID)
		iv[0] = 0xc0;	/* counter 3 * 2^126 */
}

/*
 * Start a run of record slots at key @r (a table key, the cursor's R_0, or
 * ctx->sbuf's head already); @suite is a constant of the caller's loop.
 */
static __always_inline void diamond_walk_begin(struct diamond_tfm_ctx *ctx,
					       const u8 *r, const u8 suite)
{
	const unsigned int k = suite == DMD_SUITE_AES_GHASH ? DMD_KEY1_SIZE :
							       DMD_KEY2_SIZE;

	if (r != ctx->sbuf)
		memcpy(ctx->sbuf, r, k);
	ctx->sbuf_used = max(ctx->sbuf_used, k);
	if (suite == DMD_SUITE_CHACHA_POLY) {
		u32 *x = ctx->chacha.x;

		/* The record domain's nonce: all zero. */
		dmd_chacha_init_consts(&ctx->chacha);
		x[13] = 0;
		x[14] = 0;
		x[15] = 0;
	} else if (!DMD_AES_CTR_IS_LIB) {
		/*
		 * An encrypt leaves the request's fields as they were set
		 * (the walk and the driver's state live in its context; only
		 * the IV's bytes move on), as diamond_ghash_begin() relies
		 * on for ghash: a slot sets its length alone.
		 */
		skcipher_request_set_callback(ctx->sreq, ctx->req_flags,
					      crypto_req_done, &ctx->wait);
		skcipher_request_set_crypt(ctx->sreq, ctx->zsg, &ctx->ssg, 0,
					   ctx->iv);
	}
}

/*
 * The next slot of the run: Y = G(R, 0)[0 : @olen] over ctx->sbuf, R its
 * head; @olen <= DMD_WALK_MAX. The record domain's counter block is zero,
 * so only the key and the counter change per slot.
 */
static __always_inline int diamond_walk_slot(struct diamond_tfm_ctx *ctx,
					     unsigned int olen, const u8 suite)
{
	const bool blocks = suite == DMD_SUITE_CHACHA_POLY &&
			    DMD_CHACHA_BLOCKS_MAX && olen <= DMD_CHACHA_BLOCKS_MAX;
	u8 *y = ctx->sbuf;
	int err;

	/*
	 * Short ChaCha20 streams where DMD_CHACHA_BLOCKS_MAX says so: whole
	 * blocks straight into the scratch, past @olen too (it has room, and
	 * the request's end erases them with the rest), no tail through the
	 * stack.
	 */
	BUILD_BUG_ON(DMD_CHACHA_BLOCKS_MAX > DMD_STREAM_BUF);
	if (blocks)
		olen = round_up(olen, CHACHA_BLOCK_SIZE);
	if (olen > ctx->sbuf_used)
		ctx->sbuf_used = olen;
	if (suite == DMD_SUITE_CHACHA_POLY) {
		diamond_chacha_key(&ctx->chacha, y);
		ctx->chacha.x[12] = 0;
		if (!blocks) {
			dmd_chacha_crypt(&ctx->chacha, y, ctx->zero, olen, 20);
			return 0;
		}
		for (; olen; olen -= CHACHA_BLOCK_SIZE, y += CHACHA_BLOCK_SIZE)
			dmd_chacha_block(&ctx->chacha, y);
		return 0;
	}
	diamond_stream_iv(ctx->iv, DMD_DOM_RECORD);
	if (DMD_AES_CTR_IS_LIB) {
		err = dmd_aes_lib_setkey(&ctx->aes, y, DMD_KEY1_SIZE);
		if (likely(!err))
			dmd_aes_lib_ctr(&ctx->aes, y, ctx->zero, olen, ctx->iv);
		return err;
	}
	err = crypto_skcipher_setkey(ctx->stream, y, DMD_KEY1_SIZE);
	if (unlikely(err))
		return err;
	ctx->sreq->cryptlen = olen;
	return diamond_child_wait(ctx, crypto_skcipher_encrypt(ctx->sreq));
}

#endif /* DIAMOND_WALK_H */
