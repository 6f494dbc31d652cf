// SPDX-License-Identifier: GPL-2.0
/*
 * Diamond key chains (Documentation/spec.rst section 3) on the instance's
 * stream spawn, ctr(aes) for suite 1 and chacha20 for suite 2:
 *
 *	X        = G(E_e, IV_epoch)[0 : 2k]	E_{e+1} = X[0:k], R_{e,0} = X[k:2k]
 *	Y_j      = G(R_{e,j}, 0^16)		R_{e,j+1} = Y_j[0:k]
 *	H_j, P_j = Y_j[k : k+16], Y_j[k+16 : k+32]
 *	KS_j     = Y_j[O : O+len_j]		O = k + 32
 *
 * G(K, IV) is one setkey and one encryption of zeros by the child. Every
 * output is copied out of the child's buffer at once and the buffer wiped.
 *
 * The offline phase of spec section 9 lives here too: diamond_precompute()
 * fills a table with the first slots of the current epoch (R_j, H_j, P_j and
 * the first ks_len bytes of KS_j) within the precompute_kib bound, and the
 * epoch walk (diamond_cursor_*) takes slots from that table while it lasts
 * and runs the chain online after it.
 */
#include <crypto/algapi.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "diamond.h"

/* Block of the suite's stream: one ChaCha20 block, four AES blocks. */
#define DMD_KS_ALIGN		64
/* A pathological precompute_kib cannot make us allocate more than this. */
#define DMD_PRE_MAX_BYTES	(64u << 20)

/*
 * G(@key, IV)[0:@len] into ctx->sbuf, IV the epoch-update or the record-slot
 * IV of spec section 1. @len <= DMD_STREAM_BUF.
 */
static int __must_check stream(struct diamond_tfm_ctx *ctx, const u8 *key,
			       bool epoch_domain, unsigned int len)
{
	struct scatterlist sg;
	int err;

	err = crypto_skcipher_setkey(ctx->stream, key, ctx->k);
	if (unlikely(err))
		return err;

	memset(ctx->iv, 0, 16);
	if (epoch_domain) {
		if (ctx->suite == DMD_SUITE_AES_GHASH)
			ctx->iv[0] = 0x80;	/* counter 2^127 */
		else
			ctx->iv[4] = 1;		/* counter 0, nonce 01 0^11 */
	}
	memset(ctx->sbuf, 0, len);
	sg_init_one(&sg, ctx->sbuf, len);
	skcipher_request_set_callback(ctx->sreq, ctx->req_flags, crypto_req_done,
				      &ctx->wait);
	skcipher_request_set_crypt(ctx->sreq, &sg, &sg, len, ctx->iv);
	return crypto_wait_req(crypto_skcipher_encrypt(ctx->sreq), &ctx->wait);
}

/* (E, R_0) <- G(E, IV_epoch)[0:2k]; @e is updated in place. */
static int __must_check epoch_update(struct diamond_tfm_ctx *ctx, u8 *e,
				     u8 *r0)
{
	unsigned int k = ctx->k;
	int err;

	err = stream(ctx, e, true, 2 * k);
	if (likely(!err)) {
		memcpy(e, ctx->sbuf, k);
		memcpy(r0, ctx->sbuf + k, k);
	}
	memzero_explicit(ctx->sbuf, 2 * k);
	return err;
}

/* Open slot @r: R_next and H || P into @slot, KS[0:@len] into @ks. */
static int __must_check slot_gen(struct diamond_tfm_ctx *ctx, const u8 *r,
				 struct diamond_slot *slot, u8 *ks,
				 unsigned int len)
{
	unsigned int k = ctx->k, o = DMD_SLOT_KS(k);
	int err;

	err = stream(ctx, r, false, o + len);
	if (likely(!err)) {
		memcpy(slot->r_next, ctx->sbuf, k);
		memcpy(slot->hp, ctx->sbuf + DMD_SLOT_HKEY(k), 32);
		if (len)
			memcpy(ks, ctx->sbuf + o, len);
	}
	memzero_explicit(ctx->sbuf, o + len);
	return err;
}

/*
 * Size the table for the current parameters: b + 1 slots (b records and the
 * trailer) if they fit in precompute_kib, else as many as fit. Called with
 * the lock held from setkey, so the module parameters are read once per key.
 */
int diamond_pre_alloc(struct diamond_tfm_ctx *ctx)
{
	struct diamond_pre *pre = &ctx->pre;
	unsigned int ks_len = READ_ONCE(diamond_precompute_bytes);
	size_t budget = (size_t)READ_ONCE(diamond_precompute_kib) * 1024;
	size_t want, slot_size;

	ks_len = round_up(min_t(unsigned int, ks_len, DMD_MAX_RECORD),
			  DMD_KS_ALIGN);
	slot_size = DMD_SLOT_KS(ctx->k) + ks_len;
	want = (size_t)(ctx->b + 1) * slot_size;
	budget = min_t(size_t, budget, DMD_PRE_MAX_BYTES);
	want = min(want, budget - budget % slot_size);

	if (pre->slots && pre->alloc == want && pre->ks_len == ks_len)
		return 0;
	diamond_pre_free(pre);
	if (want) {
		pre->slots = kvzalloc(want, GFP_KERNEL);
		if (!pre->slots)
			return -ENOMEM;
	}
	pre->alloc = want;
	pre->slot_size = slot_size;
	pre->ks_len = ks_len;
	pre->cap = want / slot_size;
	return 0;
}

/* Forget the material of the current epoch (it was used or is stale). */
void diamond_pre_erase(struct diamond_pre *pre)
{
	if (pre->slots && pre->ready)
		memzero_explicit(pre->slots, (size_t)pre->ready * pre->slot_size);
	memzero_explicit(pre->e_next, sizeof(pre->e_next));
	memzero_explicit(pre->frontier, sizeof(pre->frontier));
	pre->ready = 0;
	pre->valid = false;
}

void diamond_pre_free(struct diamond_pre *pre)
{
	diamond_pre_erase(pre);
	kvfree_sensitive(pre->slots, pre->alloc);
	pre->slots = NULL;
	pre->alloc = 0;
	pre->cap = 0;
}

/*
 * The offline phase for the current epoch: E_{e+1}, R_{e,0} and then slot
 * after slot into the table. A setkey waiting for the lock stops it early;
 * the table is then left invalid and the next request runs the chain online.
 */
int diamond_precompute(struct diamond_tfm_ctx *ctx)
{
	struct diamond_pre *pre = &ctx->pre;
	unsigned int k = ctx->k;
	struct diamond_slot slot;
	u8 r[DMD_KEY_MAX];
	u8 *s;
	u32 j;
	int err;

	if (!ctx->keyed || pre->valid)
		return 0;

	memcpy(pre->e_next, ctx->ekey, k);
	err = epoch_update(ctx, pre->e_next, r);
	for (j = 0; !err && j < pre->cap; j++) {
		if (atomic_read(&ctx->setkey_pending)) {
			err = -EAGAIN;
			break;
		}
		s = pre->slots + (size_t)j * pre->slot_size;
		memcpy(s, r, k);
		err = slot_gen(ctx, r, &slot, s + DMD_SLOT_KS(k), pre->ks_len);
		memcpy(s + DMD_SLOT_HKEY(k), slot.hp, 32);
		memcpy(r, slot.r_next, k);
		pre->ready = j + 1;
		if (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP)
			cond_resched();
	}
	if (likely(!err)) {
		memcpy(pre->frontier, r, k);
		pre->valid = true;
	} else {
		diamond_pre_erase(pre);
	}
	memzero_explicit(&slot, sizeof(slot));
	memzero_explicit(r, sizeof(r));
	return err;
}

/*
 * Start the walk over the slots of @epoch (>= ctx->epoch, bounded by the
 * caller): from the table when it holds @epoch, else by running the epoch
 * chain forward from E_{e_cur} into the cursor. Nothing in ctx changes.
 */
int diamond_cursor_open(struct diamond_tfm_ctx *ctx,
			struct diamond_cursor *cur, u64 epoch)
{
	const struct diamond_pre *pre = &ctx->pre;
	unsigned int k = ctx->k;
	u64 i, steps = epoch - ctx->epoch;
	int err = 0;

	memset(cur, 0, sizeof(*cur));
	if (!steps && pre->valid) {
		cur->pre = pre;
		cur->ready = pre->ready;
		memcpy(cur->r, pre->frontier, k);
		memcpy(cur->e_next, pre->e_next, k);
		return 0;
	}

	memcpy(cur->e_next, ctx->ekey, k);
	for (i = 0; i <= steps; i++) {
		err = epoch_update(ctx, cur->e_next, cur->r);
		if (unlikely(err))
			break;
		if (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP)
			cond_resched();
	}
	if (unlikely(err))
		memzero_explicit(cur, sizeof(*cur));
	return err;
}

/*
 * Next slot of the walk: H || P (and R_next) into @slot, the first @len
 * keystream bytes into @ks. A record longer than the stored keystream
 * regenerates its slot from the stored R_j.
 */
int diamond_cursor_slot(struct diamond_tfm_ctx *ctx,
			struct diamond_cursor *cur, struct diamond_slot *slot,
			u8 *ks, unsigned int len)
{
	const struct diamond_pre *pre = cur->pre;
	unsigned int k = ctx->k;
	u32 j = cur->next++;
	const u8 *s;
	int err;

	if (j < cur->ready) {
		s = pre->slots + (size_t)j * pre->slot_size;
		if (len > pre->ks_len)
			return slot_gen(ctx, s, slot, ks, len);
		memcpy(slot->hp, s + DMD_SLOT_HKEY(k), 32);
		if (len)
			memcpy(ks, s + DMD_SLOT_KS(k), len);
		return 0;
	}

	err = slot_gen(ctx, cur->r, slot, ks, len);
	if (likely(!err))
		memcpy(cur->r, slot->r_next, k);
	return err;
}

/*
 * The children keep the last key they were given: after an epoch is
 * accepted that is a slot key of the past epoch, so overwrite it. The
 * Poly1305 descriptor holds r and s of the last tag the same way.
 */
void diamond_children_wipe(struct diamond_tfm_ctx *ctx)
{
	static const u8 zero_key[DMD_KEY_MAX];

	if (crypto_skcipher_setkey(ctx->stream, zero_key, ctx->k))
		pr_debug("diamond: could not rekey the stream child\n");
	if (ctx->ghash &&
	    crypto_ahash_setkey(ctx->ghash, zero_key, DMD_TAG_SIZE))
		pr_debug("diamond: could not rekey the ghash child\n");
	if (ctx->poly)
		memzero_explicit(shash_desc_ctx(ctx->pdesc),
				 crypto_shash_descsize(ctx->poly));
	memzero_explicit(ctx->digest, DMD_TAG_SIZE);
}
