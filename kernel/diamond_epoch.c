// SPDX-License-Identifier: GPL-2.0
/*
 * Epoch verification (Documentation/spec.rst sections 7 and 9): an
 * ungrouped epoch, sealed or opened in the tfm's bounce buffer, where
 * diamond_request.c has copied the request:
 *
 *	encrypt	AD || le16(len_0) || M_0 || ...	-> AD || body || T
 *	decrypt	AD || le16(len_0) || C_0 || ... || T	-> AD || body
 *
 * The epoch number and the body are checked first (diamond_parse.c), then
 * every record is tagged and en- or decrypted in place on the slots of the
 * key chain (diamond_chain.c, diamond_tag.c), and the epoch tag sealed or
 * compared. Decrypted records stay in the buffer, for the caller to release
 * or erase; the state advances only on an accepted epoch.
 */
#include <crypto/algapi.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "diamond.h"
#include "diamond_ghash.h"
#include "diamond_poly.h"
#include "diamond_walk.h"

/* Yield every 64 records: a record's work is far below a tick. */
#define DMD_RESCHED_MASK	63

/*
 * Record @j's slot when the cursor cannot take it from the table in place
 * (diamond_cursor_slot_gen()): the walk's record loops keep the slot index
 * in a register and hand it to the cursor only here.
 */
static int __must_check slot_gen(struct diamond_tfm_ctx *ctx,
				 struct diamond_cursor *cur, u32 j,
				 const u8 **hp, const u8 **ks, unsigned int len)
{
	struct diamond_slot slot;
	int err;

	cur->next = j;
	err = diamond_cursor_slot_gen(ctx, cur, &slot, ks, len);
	if (likely(!err))
		*hp = slot.hp;
	return err;
}

/* Up to 65535 records: yield every 64 where the caller lets us. */
static __always_inline void records_resched(const struct diamond_tfm_ctx *ctx,
					    u32 j)
{
	if (!(~j & DMD_RESCHED_MASK) &&
	    (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP))
		cond_resched();
}

/*
 * One record with XOR aggregation, in place: tagged over its ciphertext
 * (encrypt: after body ^= KS, decrypt: before), the tag (in @sigma, the
 * caller's, so that it is not cleared per record) XORed into @acc. A
 * decrypt's plaintext is in the buffer only. Suite 2's tag is inline, the
 * 16-byte record of telemetry with its own copy, one Poly1305 block
 * straight; suite 1's is inline too, on the spawn (its request begun by
 * xor_records()) or on the library (its stack state @gs, the caller's).
 */
static __always_inline int xor_record(struct diamond_tfm_ctx *ctx,
				      const u8 *hp, const u8 *ks, u8 *rec,
				      unsigned int len, u64 epoch, u32 j,
				      u64 sigma[2], u64 acc[2],
				      struct diamond_ghash_lib *gs,
				      const bool enc, const u8 suite)
{
	int err = 0;

	if (enc)
		diamond_xor_record(rec, ks, len);
	if (suite == DMD_SUITE_AES_GHASH && diamond_ghash_spawned(ctx)) {
		err = diamond_ghash_digest(ctx, hp, rec, len, epoch, j,
					   (u8 *)sigma);
	} else if (suite == DMD_SUITE_AES_GHASH) {
		diamond_header_block(ctx->hbuf, epoch, j, len);
		diamond_ghash_lib(gs, hp, ctx->hbuf, rec, len, (u8 *)sigma);
	} else if (len == POLY1305_BLOCK_SIZE) {
		diamond_poly_tag(ctx, hp, NULL, rec, POLY1305_BLOCK_SIZE,
				 (u8 *)sigma);
	} else {
		diamond_poly_tag(ctx, hp, NULL, rec, len, (u8 *)sigma);
	}
	if (unlikely(err))
		return err;
	if (!enc)
		diamond_xor_record(rec, ks, len);
	acc[0] ^= sigma[0];
	acc[1] ^= sigma[1];
	return 0;
}

/*
 * The records past the table, in a run of slots generated in place in
 * ctx->sbuf (diamond_walk.h), up to the first longer than the run takes:
 * @pos and @j move on over the records done.
 */
static __always_inline int walk_records(struct diamond_tfm_ctx *ctx,
					const struct diamond_epoch *ep,
					struct diamond_cursor *cur, u8 **pos,
					u32 *j, u64 sigma[2], u64 acc[2],
					struct diamond_ghash_lib *gs,
					const bool enc, const u8 suite)
{
	const unsigned int k = suite == DMD_SUITE_AES_GHASH ? DMD_KEY1_SIZE :
							       DMD_KEY2_SIZE;
	const unsigned int o = DMD_SLOT_KS(k);
	const u32 n = ep->n;
	const u8 *y = ctx->sbuf;
	unsigned int len;
	u8 *p = *pos;
	u32 i = *j;
	int err = 0;

	diamond_walk_begin(ctx, cur->r, suite);
	cur->r = y;
	for (; i < n; i++) {
		len = get_unaligned_le16(p);
		if (unlikely(o + len > DMD_WALK_MAX))
			break;
		err = diamond_walk_slot(ctx, o + len, suite) ?:
		      xor_record(ctx, y + DMD_SLOT_HKEY(k), y + o,
				 p + DMD_BODY_LEN_SIZE, len, ep->epoch, i,
				 sigma, acc, gs, enc, suite);
		if (unlikely(err))
			break;
		p += DMD_BODY_LEN_SIZE + len;
		records_resched(ctx, i);
	}
	*pos = p;
	*j = i;
	return err;
}

/*
 * XOR aggregation, the telemetry case: the records whose slot the table
 * holds with enough keystream run in an inner loop, the slot index and the
 * body position in registers, the XOR inline, so such a record costs the
 * module no call of its own but suite 1's tag; the records past the table
 * run the same way on slots generated one by one (walk_records()); any
 * other record (longer than the table's keystream or than the walk takes)
 * takes the cursor's slot. @enc and @suite are constants: each gets its
 * own loops.
 */
static __always_inline int xor_records(struct diamond_tfm_ctx *ctx,
				       const struct diamond_epoch *ep,
				       struct diamond_cursor *cur,
				       struct diamond_agg *agg,
				       const bool enc, const u8 suite)
{
	const unsigned int k = suite == DMD_SUITE_AES_GHASH ? DMD_KEY1_SIZE :
							       DMD_KEY2_SIZE;
	const struct diamond_pre *pre = cur->pre;
	const u32 n = ep->n, m = min(n, cur->ready);
	u64 acc[2] = { }, sigma[2];
	struct diamond_ghash_lib gs;
	const u8 *hp, *ks;
	unsigned int len;
	u8 *p = ep->body;
	u32 j = 0;
	int err = 0;

	if (suite == DMD_SUITE_AES_GHASH && diamond_ghash_spawned(ctx))
		diamond_ghash_begin(ctx);
	for (;;) {
		for (; j < m; j++) {
			const u8 *s = pre->slots + (size_t)j * pre->slot_size;

			/* The length prefix stays in clear. */
			len = get_unaligned_le16(p);
			if (unlikely(len > pre->ks_len))
				break;
			err = xor_record(ctx, s + DMD_SLOT_HKEY(k),
					 s + DMD_SLOT_KS(k),
					 p + DMD_BODY_LEN_SIZE, len, ep->epoch,
					 j, sigma, acc, &gs, enc, suite);
			if (unlikely(err))
				goto out;
			p += DMD_BODY_LEN_SIZE + len;
			records_resched(ctx, j);
		}
		if (j >= n)
			break;
		if (j >= cur->ready) {
			err = walk_records(ctx, ep, cur, &p, &j, sigma, acc,
					   &gs, enc, suite);
			if (unlikely(err))
				goto out;
			if (j >= n)
				break;
		}
		/* Longer than its keystream, or than the walk takes. */
		len = get_unaligned_le16(p);
		err = slot_gen(ctx, cur, j, &hp, &ks, len) ?:
		      xor_record(ctx, hp, ks, p + DMD_BODY_LEN_SIZE, len,
				 ep->epoch, j, sigma, acc, &gs, enc, suite);
		if (unlikely(err))
			goto out;
		p += DMD_BODY_LEN_SIZE + len;
		records_resched(ctx, j);
		j++;
	}
	cur->next = j;
	memcpy(agg->acc, acc, sizeof(acc));
out:
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(sigma, sizeof(sigma));
	if (suite == DMD_SUITE_AES_GHASH && !diamond_ghash_spawned(ctx))
		memzero_explicit(&gs, sizeof(gs));
	return err;
}

/* Any suite and aggregation: the cursor's slots, diamond_uh_tag(). */
static int __must_check uh_records(struct diamond_tfm_ctx *ctx,
				   const struct diamond_epoch *ep,
				   struct diamond_cursor *cur,
				   struct diamond_agg *agg,
				   u8 sigma[DMD_TAG_SIZE])
{
	struct diamond_slot slot;
	unsigned int pos = 0, len;
	const u8 *ks;
	u8 *rec;
	u32 j;
	int err;

	for (j = 0; j < ep->n; j++) {
		/* The length prefix stays in clear. */
		len = get_unaligned_le16(ep->body + pos);
		pos += DMD_BODY_LEN_SIZE;
		rec = ep->body + pos;
		err = diamond_cursor_slot(ctx, cur, &slot, &ks, len);
		if (unlikely(err))
			return err;
		if (ep->enc)
			diamond_xor_record(rec, ks, len);
		err = diamond_uh_tag(ctx, &slot, rec, len, ep->epoch, j, sigma);
		if (unlikely(err))
			return err;
		if (!ep->enc)
			diamond_xor_record(rec, ks, len);
		diamond_agg_add(agg, sigma);
		pos += len;
		records_resched(ctx, j);
	}
	return 0;
}

/*
 * One pass over the records, in place, then the trailer. Leaves the epoch
 * tag in @tag; a decrypt's plaintext is in the buffer only, for the caller
 * to release or erase.
 */
static int __must_check epoch_tag(struct diamond_tfm_ctx *ctx,
				  struct diamond_epoch *ep,
				  struct diamond_cursor *cur,
				  u8 sigma[DMD_TAG_SIZE], u8 tag[DMD_TAG_SIZE])
{
	struct diamond_slot slot;
	struct diamond_agg agg;
	int err;

	diamond_agg_init(&agg, ctx->agg);
	if (ctx->agg != DMD_AGG_XOR)
		err = uh_records(ctx, ep, cur, &agg, sigma);
	else if (ctx->suite == DMD_SUITE_AES_GHASH)
		err = ep->enc ? xor_records(ctx, ep, cur, &agg, true,
					    DMD_SUITE_AES_GHASH) :
				xor_records(ctx, ep, cur, &agg, false,
					    DMD_SUITE_AES_GHASH);
	else
		err = ep->enc ? xor_records(ctx, ep, cur, &agg, true,
					    DMD_SUITE_CHACHA_POLY) :
				xor_records(ctx, ep, cur, &agg, false,
					    DMD_SUITE_CHACHA_POLY);
	if (unlikely(err))
		goto out;

	err = diamond_cursor_slot(ctx, cur, &slot, NULL, 0) ?:
	      diamond_uh_tag(ctx, &slot, ep->ad, ep->adlen, ep->epoch,
			     DMD_TRAILER_FLAG | ep->n, sigma);
	if (likely(!err))
		diamond_agg_final(&agg, sigma, tag);
out:
	memzero_explicit(&agg, sizeof(agg));
	return err;
}

/*
 * An ungrouped epoch, sealed or opened in place in the bounce buffer, with
 * the tfm's DMD_BUSY bit owned: on success the state moves to e + 1.
 */
int diamond_epoch_run(struct diamond_tfm_ctx *ctx, struct diamond_epoch *ep)
{
	struct diamond_cursor cur;
	u8 sigma[DMD_TAG_SIZE], tag[DMD_TAG_SIZE];
	int err;

	/* Spec 9.2: the epoch before the body (lengths came first). */
	err = diamond_check_epoch(ctx, ep->epoch) ?:
	      diamond_body_parse(ep->body, ep->body_len, ctx->b, &ep->n);
	if (err)
		return err;

	err = diamond_cursor_open(ctx, &cur, ep->epoch);
	if (unlikely(err))
		goto out_wipe;
	err = epoch_tag(ctx, ep, &cur, sigma, tag);
	if (unlikely(err))
		goto out;

	if (ep->enc) {
		memcpy(ep->body + ep->body_len, tag, DMD_TAG_SIZE);
	} else if (crypto_memneq(tag, ep->body + ep->body_len, DMD_TAG_SIZE)) {
		err = -EBADMSG;
		goto out;
	}

	/* Accept: (e + 1, E_{e+1}); E_e and every slot key of e are gone. */
	ctx->epoch = ep->epoch + 1;
	memcpy(ctx->ekey, cur.e_next, ctx->k);
	diamond_pre_erase(&ctx->pre);
out:
	diamond_children_wipe(ctx);
out_wipe:
	memzero_explicit(&cur, sizeof(cur));
	memzero_explicit(sigma, sizeof(sigma));
	memzero_explicit(tag, sizeof(tag));
	return err;
}
