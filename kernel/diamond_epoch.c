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

/* Yield every 64 records: a record's work is far below a tick. */
#define DMD_RESCHED_MASK	63

/*
 * One pass over the records, in place: a tag per record over the
 * ciphertext (encrypt: after body ^= KS, decrypt: before), then the
 * trailer. Leaves the epoch tag in @tag; a decrypt's plaintext is in the
 * buffer only, for the caller to release or erase.
 */
static int __must_check epoch_tag(struct diamond_tfm_ctx *ctx,
				  struct diamond_epoch *ep,
				  struct diamond_cursor *cur,
				  u8 sigma[DMD_TAG_SIZE], u8 tag[DMD_TAG_SIZE])
{
	struct diamond_slot slot;
	struct diamond_agg agg;
	unsigned int pos = 0, len;
	const u8 *ks;
	u8 *rec;
	u32 j;
	int err = 0;

	diamond_agg_init(&agg, ctx->agg);
	for (j = 0; j < ep->n; j++) {
		/* The length prefix stays in clear. */
		len = get_unaligned_le16(ep->body + pos);
		pos += DMD_BODY_LEN_SIZE;
		rec = ep->body + pos;
		err = diamond_cursor_slot(ctx, cur, &slot, &ks, len);
		if (unlikely(err))
			goto out;
		if (ep->enc)
			diamond_xor_record(rec, ks, len);
		err = diamond_uh_tag(ctx, &slot, rec, len, ep->epoch, j, sigma);
		if (unlikely(err))
			goto out;
		if (!ep->enc)
			diamond_xor_record(rec, ks, len);
		diamond_agg_add(&agg, sigma);
		pos += len;
		/* Up to 65535 records: yield where the caller lets us. */
		if (!(~j & DMD_RESCHED_MASK) &&
		    (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP))
			cond_resched();
	}

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
