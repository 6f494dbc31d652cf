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
 * The request is copied into a linear bounce buffer of at most
 * max_epoch_bytes (so the body is parsed, hashed and decrypted from memory
 * nobody else can change in between), processed under the tfm lock, and the
 * result copied to dst only when the request succeeded. A decrypt keeps the
 * keystream, not plaintext, until the epoch tag matched, and on any error
 * dst is untouched and the key state is what it was.
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

#include <diamond/epoch.h>

#include "diamond.h"

/* Hard ceiling on max_epoch_bytes: keeps every length sum inside 32 bits. */
#define DMD_EPOCH_LIMIT		(256u << 20)
/* A tfm keeps a bounce buffer up to this size between requests. */
#define DMD_EBUF_KEEP		(256u << 10)

/* What one request works on, all inside one bounce allocation. */
struct diamond_epoch {
	u64 epoch;
	bool enc;
	u8 *ad;			/* assoclen bytes */
	unsigned int adlen;
	const u8 *in;		/* body, then the received tag when decrypting */
	u8 *out;		/* keystream, then the output body (+ tag) */
	unsigned int body_len;
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
 * Pass 1 over the records: keystream into out, then either the ciphertext
 * (encrypt: out ^= M) or nothing (decrypt), a tag per record over the
 * ciphertext, then the trailer. Leaves the epoch tag in @tag.
 */
static int __must_check epoch_tag(struct diamond_tfm_ctx *ctx,
				  struct diamond_epoch *ep,
				  struct diamond_cursor *cur,
				  u8 sigma[DMD_TAG_SIZE], u8 tag[DMD_TAG_SIZE])
{
	struct diamond_slot slot;
	struct diamond_agg agg;
	unsigned int pos = 0, len;
	const u8 *ct;
	u32 j;
	int err = 0;

	diamond_agg_init(&agg, ctx->agg);
	for (j = 0; j < ep->n; j++) {
		len = get_unaligned_le16(ep->in + pos);
		/*
		 * The clear length prefix: copied when encrypting; zero when
		 * decrypting, where pass 2 XORs it back in from the input.
		 */
		if (ep->enc)
			memcpy(ep->out + pos, ep->in + pos, DMD_BODY_LEN_SIZE);
		else
			memset(ep->out + pos, 0, DMD_BODY_LEN_SIZE);
		pos += DMD_BODY_LEN_SIZE;
		err = diamond_cursor_slot(ctx, cur, &slot, ep->out + pos, len);
		if (unlikely(err))
			goto out;
		ct = ep->in + pos;
		if (ep->enc) {
			crypto_xor(ep->out + pos, ep->in + pos, len);
			ct = ep->out + pos;
		}
		err = diamond_uh_tag(ctx, &slot, ct, len, ep->epoch, j, sigma);
		if (unlikely(err))
			goto out;
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

	if (unlikely(!ctx->keyed))
		return -ENOKEY;
	/* Spec 9.2: the epoch before the body (lengths came first). */
	err = diamond_check_epoch(ctx, ep->epoch) ?:
	      diamond_body_parse(ep->in, ep->body_len, ctx->b, &ep->n);
	if (err)
		return err;

	err = diamond_cursor_open(ctx, &cur, ep->epoch);
	if (unlikely(err))
		goto out_wipe;
	err = epoch_tag(ctx, ep, &cur, sigma, tag);
	if (unlikely(err))
		goto out;

	if (ep->enc) {
		memcpy(ep->out + ep->body_len, tag, DMD_TAG_SIZE);
	} else if (crypto_memneq(tag, ep->in + ep->body_len, DMD_TAG_SIZE)) {
		err = -EBADMSG;
		goto out;
	} else {
		/* Pass 2: keystream (prefixes zeroed) ^ ciphertext body. */
		crypto_xor(ep->out, ep->in, ep->body_len);
	}

	/* Accept: (e + 1, E_{e+1}); E_e and every slot key of e are gone. */
	ctx->epoch = ep->epoch + 1;
	memcpy(ctx->ekey, cur.e_next, ctx->k);
	diamond_pre_erase(&ctx->pre);
out:
	if (err)
		memzero_explicit(ep->out, ep->body_len);
	diamond_children_wipe(ctx);
out_wipe:
	memzero_explicit(&cur, sizeof(cur));
	memzero_explicit(sigma, sizeof(sigma));
	memzero_explicit(tag, sizeof(tag));
	return err;
}

/*
 * The request's bounce buffer: the tfm's own, grown to @size, kept between
 * requests (erased) while it is small, so a steady stream of epochs
 * allocates nothing. A caller that may not sleep never replaces it (that
 * could vfree()): if it is too small, it gets a one-shot GFP_ATOMIC buffer.
 */
static u8 *ebuf_get(struct diamond_tfm_ctx *ctx, size_t size, bool may_sleep)
{
	if (ctx->ebuf_size >= size)
		return ctx->ebuf;
	if (!may_sleep)
		return kmalloc(size, DMD_GFP_ATOMIC);
	kvfree_sensitive(ctx->ebuf, ctx->ebuf_size);
	ctx->ebuf_size = 0;
	ctx->ebuf = kvmalloc(size, DMD_GFP);
	if (ctx->ebuf)
		ctx->ebuf_size = size;
	return ctx->ebuf;
}

/*
 * Erase what the request left in @buf, [@secret, @secret + @len): the output
 * part (keystream, plaintext), and when encrypting the input as well. A
 * decrypt's input is AD, ciphertext and tag, nothing secret. Free a one-shot
 * buffer, and the tfm's own if it grew past DMD_EBUF_KEEP (which only a
 * caller that may sleep can make it do).
 */
static void ebuf_put(struct diamond_tfm_ctx *ctx, u8 *buf, u8 *secret,
		     size_t len)
{
	if (buf != ctx->ebuf) {
		memzero_explicit(secret, len);
		kfree(buf);
	} else if (ctx->ebuf_size > DMD_EBUF_KEEP) {
		kvfree_sensitive(ctx->ebuf, ctx->ebuf_size);
		ctx->ebuf = NULL;
		ctx->ebuf_size = 0;
	} else {
		memzero_explicit(secret, len);
	}
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
	size_t used;
	u8 *buf;
	int err;

	/* Async children may need to sleep; an atomic caller cannot wait. */
	if (!may_sleep && ctx->async_children)
		return -EAGAIN;
	/* A grouped tfm's AD starts with its unit table (diamond_group.c). */
	if (ep.adlen > diamond_assoc_max(ctx))
		return -EMSGSIZE;
	if (!enc && cryptlen < DMD_TAG_SIZE)
		return -EINVAL;
	/* An empty body is the parser's -EINVAL, after the epoch (spec 9.2). */
	body_len = enc ? cryptlen : cryptlen - DMD_TAG_SIZE;
	if (body_len > min(READ_ONCE(diamond_max_epoch_bytes), DMD_EPOCH_LIMIT))
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

	/* AD || input body (|| tag) || output body (|| tag) */
	used = (size_t)in_len + body_len + DMD_TAG_SIZE;
	buf = ebuf_get(ctx, used, may_sleep);
	if (!buf) {
		err = -ENOMEM;
		goto out_unlock;
	}
	scatterwalk_map_and_copy(buf, req->src, 0, in_len, 0);
	ep.ad = buf;
	ep.in = buf + ep.adlen;
	ep.out = buf + in_len;
	ep.body_len = body_len;
	ep.epoch = get_unaligned_le64(req->iv);

	if (!ctx->grp.g)
		err = epoch_run(ctx, &ep);
	else if (enc)
		err = -EOPNOTSUPP;
	else
		err = diamond_group_run(ctx, ep.epoch, ep.ad, ep.adlen, ep.in,
					ep.out, body_len);
	if (!err) {
		/* A grouped request's verdicts are in its unit table. */
		if (req->src != req->dst || ctx->grp.g)
			scatterwalk_map_and_copy(ep.ad, req->dst, 0, ep.adlen,
						 1);
		scatterwalk_map_and_copy(ep.out, req->dst, ep.adlen,
					 out_len - ep.adlen, 1);
	}
	if (enc)
		ebuf_put(ctx, buf, buf, used);
	else
		ebuf_put(ctx, buf, ep.out, used - in_len);
out_unlock:
	diamond_unlock(ctx);
	/* The next epoch's offline phase, once the caller has its result. */
	if (!err)
		diamond_schedule_precompute(ctx, 1);
	return err;
}
