// SPDX-License-Identifier: GPL-2.0
/*
 * One AEAD request is one Diamond epoch (Documentation/spec.rst sections 7
 * and 9, Documentation/kernel-api.rst):
 *
 *	IV	le64(e), the epoch
 *	AD	assoclen bytes, the epoch's associated data (<= 1024)
 *	encrypt	src = AD || le16(len_0) || M_0 || ... , dst = AD || body || T
 *	decrypt	src = AD || le16(len_0) || C_0 || ... || T, dst = AD || body
 *
 * The request is copied into the tfm's bounce buffer (so the body is
 * parsed, hashed and decrypted from memory nobody else can change in
 * between), processed there in place under the tfm lock, and the result
 * copied to dst only when the request succeeded. The buffer is allocated by
 * setkey, sized for the largest body the key allows, so a request never
 * allocates (no CRYPTO_ALG_ALLOCATES_MEMORY: AF_ALG from 7.x requires it).
 * Decrypted records stay in the buffer until the epoch tag matched; on any
 * error the buffer is erased, dst is untouched and the key state is what it
 * was.
 */
#include <crypto/algapi.h>
#include <crypto/internal/aead.h>
#include <crypto/scatterwalk.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <diamond/epoch.h>

#include "diamond.h"

/* Hard ceiling on max_epoch_bytes: keeps every length sum inside 32 bits. */
#define DMD_EPOCH_LIMIT		(256u << 20)
/* The longest body of @b records: b * (le16 length + DMD_MAX_RECORD). */
#define DMD_BODY_MAX(b)		((size_t)(b) * (DMD_BODY_LEN_SIZE + DMD_MAX_RECORD))

/* What one request works on, in place in the tfm's bounce buffer. */
struct diamond_epoch {
	u64 epoch;
	bool enc;
	u8 *ad;			/* assoclen bytes */
	unsigned int adlen;
	u8 *body;		/* input body, turned into the output in place */
	unsigned int body_len;	/* followed by the tag (in or out) */
	u32 n;			/* records */
};

/*
 * Spec section 7: le16 length || record, repeated, to the exact end; at
 * least one and at most @b records, none over DMD_MAX_RECORD bytes.
 */
int diamond_body_parse(const u8 *body, unsigned int len, u32 b, u32 *count)
{
	unsigned int pos = 0, rec;
	u32 n = 0;

	while (pos < len) {
		if (len - pos < DMD_BODY_LEN_SIZE)
			return -EINVAL;
		rec = get_unaligned_le16(body + pos);
		pos += DMD_BODY_LEN_SIZE;
		if (rec > DMD_MAX_RECORD)
			return -EMSGSIZE;
		if (rec > len - pos)
			return -EINVAL;
		pos += rec;
		if (++n > b)
			return -EINVAL;
	}
	if (!n)
		return -EINVAL;
	*count = n;
	return 0;
}

/* Spec section 9.2 step 3 (<diamond/epoch.h>), as the kernel's errno. */
int diamond_check_epoch(const struct diamond_tfm_ctx *ctx, u64 epoch)
{
	switch (dmd_check_epoch(ctx->epoch, epoch,
				READ_ONCE(diamond_max_skip))) {
	case DMD_OK:
		return 0;
	case DMD_EEXPIRED:
		return -EKEYEXPIRED;
	case DMD_ESKIP:
		return -ERANGE;
	default:
		return -ENOSPC;		/* DMD_EFULL */
	}
}

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
			crypto_xor(rec, ks, len);
		err = diamond_uh_tag(ctx, &slot, rec, len, ep->epoch, j, sigma);
		if (unlikely(err))
			goto out;
		if (!ep->enc)
			crypto_xor(rec, ks, len);
		diamond_agg_add(&agg, sigma);
		pos += len;
		/* Up to 65535 records: yield where the caller lets us. */
		if (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP)
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

/* The whole epoch, with the tfm's DMD_BUSY bit owned. */
static int epoch_run(struct diamond_tfm_ctx *ctx, struct diamond_epoch *ep)
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

/*
 * The bounce buffer for the key just set: AD, the largest body the key
 * allows (b records of DMD_MAX_RECORD, at most max_epoch_bytes, read here)
 * and the tag. Allocated here, in setkey's sleeping and memcg-charged
 * context, and kept: a request copies into it and allocates nothing.
 * vmalloc, page granular (kvmalloc could round 1 MiB + 1 KiB up to 2 MiB).
 * Called with the lock held.
 */
int diamond_ebuf_alloc(struct diamond_tfm_ctx *ctx)
{
	size_t body = min3(DMD_BODY_MAX(ctx->b),
			   (size_t)READ_ONCE(diamond_max_epoch_bytes),
			   (size_t)DMD_EPOCH_LIMIT);
	size_t size = diamond_assoc_max(ctx) + body + DMD_TAG_SIZE;

	if (!ctx->ebuf || ctx->ebuf_size != size) {
		diamond_ebuf_free(ctx);
		ctx->ebuf = __vmalloc(size, DMD_GFP);
		if (!ctx->ebuf)
			return -ENOMEM;
		ctx->ebuf_size = size;
	}
	ctx->max_body = body;
	return 0;
}

/* Every request erased what it used, so there is nothing left to wipe. */
void diamond_ebuf_free(struct diamond_tfm_ctx *ctx)
{
	vfree(ctx->ebuf);
	ctx->ebuf = NULL;
	ctx->ebuf_size = 0;
	ctx->max_body = 0;
}

static int lock_ctx(struct diamond_tfm_ctx *ctx, bool may_sleep)
{
	if (may_sleep) {
		diamond_lock(ctx);
		return 0;
	}
	return diamond_trylock(ctx) ? 0 : -EAGAIN;
}

int diamond_crypt(struct aead_request *req, bool enc)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	bool may_sleep = req->base.flags & CRYPTO_TFM_REQ_MAY_SLEEP;
	unsigned int cryptlen = req->cryptlen, in_len, out_len, body_len;
	struct diamond_epoch ep = { .enc = enc, .adlen = req->assoclen };
	int err;

	/* Async children may need to sleep; an atomic caller cannot wait. */
	if (!may_sleep && ctx->async_children)
		return -EAGAIN;
	/*
	 * Early refusal only: the key may change until the lock is ours, so
	 * the limits that bound the copy are checked again under it.
	 */
	if (ep.adlen > diamond_assoc_max(ctx))
		return -EMSGSIZE;
	if (!enc && cryptlen < DMD_TAG_SIZE)
		return -EINVAL;
	/* An empty body is the parser's -EINVAL, after the epoch (spec 9.2). */
	body_len = enc ? cryptlen : cryptlen - DMD_TAG_SIZE;
	if (body_len > DMD_EPOCH_LIMIT)
		return -EMSGSIZE;

	in_len = ep.adlen + cryptlen;
	out_len = ep.adlen + body_len + (enc ? DMD_TAG_SIZE : 0);
	if (sg_nents_for_len(req->src, in_len) < 0 ||
	    sg_nents_for_len(req->dst, out_len) < 0)
		return -EINVAL;

	err = lock_ctx(ctx, may_sleep);
	if (err)
		return err;
	/* The children may sleep and backlog when the caller may. */
	ctx->req_flags = req->base.flags & (CRYPTO_TFM_REQ_MAY_SLEEP |
					    CRYPTO_TFM_REQ_MAY_BACKLOG);

	if (unlikely(!ctx->keyed)) {
		err = -ENOKEY;
		goto out_unlock;
	}
	/*
	 * Larger than the key allows: setkey sized the buffer for this key's
	 * AD (a grouped key's holds its unit table) and body, and a setkey
	 * between the check above and the lock may have made both smaller.
	 */
	if (ep.adlen > ctx->grp.aad_max || body_len > ctx->max_body) {
		err = -EMSGSIZE;
		goto out_unlock;
	}

	/* AD || body || tag, in place: the input, then the output. */
	scatterwalk_map_and_copy(ctx->ebuf, req->src, 0, in_len, 0);
	ep.ad = ctx->ebuf;
	ep.body = ctx->ebuf + ep.adlen;
	ep.body_len = body_len;
	ep.epoch = get_unaligned_le64(req->iv);

	if (!ctx->grp.g)
		err = epoch_run(ctx, &ep);
	else if (enc)
		err = -EOPNOTSUPP;
	else
		err = diamond_group_run(ctx, ep.epoch, ep.ad, ep.adlen,
					ep.body, body_len);
	if (!err) {
		/* A grouped request's verdicts are in its unit table. */
		if (req->src != req->dst || ctx->grp.g)
			scatterwalk_map_and_copy(ep.ad, req->dst, 0, ep.adlen,
						 1);
		scatterwalk_map_and_copy(ep.body, req->dst, ep.adlen,
					 out_len - ep.adlen, 1);
	}
	/* Plaintext, whichever the direction: erase all that was used. */
	memzero_explicit(ctx->ebuf, (size_t)ep.adlen + body_len + DMD_TAG_SIZE);
out_unlock:
	diamond_unlock(ctx);
	/* The next epoch's offline phase, once the caller has its result. */
	if (!err)
		diamond_schedule_precompute(ctx, 1);
	return err;
}
