// SPDX-License-Identifier: GPL-2.0
/*
 * One AEAD request is one Diamond epoch (Documentation/spec.rst sections 7
 * and 9, Documentation/kernel-api.rst):
 *
 *	IV	le64(e), the epoch
 *	AD	assoclen bytes, the epoch's associated data (<= 1024; a grouped
 *		key's starts with its unit table)
 *	encrypt	src = AD || le16(len_0) || M_0 || ... , dst = AD || body || T
 *	decrypt	src = AD || le16(len_0) || C_0 || ... || T, dst = AD || body
 *
 * Encrypt on an open-only key (a gateway's) is -EPERM, before any other
 * check. The request is copied into a bounce buffer (so the body is parsed,
 * hashed and decrypted from memory nobody else can change in between),
 * processed there in place under the tfm lock by the epoch or the group
 * verification (diamond_epoch.c, diamond_group.c) or, at authsize 12, the
 * packet radio's tag grid (diamond_grid.c), and the result copied to
 * dst only when the request succeeded. Whose buffer it is depends on the
 * instance (diamond_create(), Documentation/kernel-api.rst, Memory): a
 * preallocating one's belongs to the key (setkey sized it for the largest
 * AD and body that key allows, and no request allocates); any other
 * request allocates a buffer of its own size once its limits are checked
 * and frees it on its way out, so that a keyed tfm holds only its state
 * between epochs (the instance carries CRYPTO_ALG_ALLOCATES_MEMORY). Every
 * limit that depends on the key is checked here with the lock held,
 * against the key the request will run under: a setkey may land between
 * the caller's call and the lock. Decrypted records stay in the buffer
 * until the epoch tag matched; on any error the buffer is erased, dst is
 * untouched and the key state is what it was.
 */
#include <crypto/internal/aead.h>
#include <crypto/scatterwalk.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "diamond.h"

static int lock_ctx(struct diamond_tfm_ctx *ctx, bool may_sleep)
{
	if (may_sleep) {
		diamond_lock(ctx);
		return 0;
	}
	return diamond_trylock(ctx) ? 0 : -EAGAIN;
}

/*
 * The bounce buffer of a request of @size bytes, limits checked, lock
 * held: the key's, or one of the request's own, charged to the caller's
 * memcg. A caller that may sleep gets kvmalloc (slab, or vmalloc for a
 * large body); one that may not gets the slab only, without reclaim, and
 * -ENOMEM where that has nothing (Documentation/kernel-api.rst, Atomic
 * callers).
 */
static u8 *bounce_get(struct diamond_tfm_ctx *ctx, size_t size,
		      bool may_sleep)
{
	if (ctx->prealloc)
		return ctx->ebuf;
	if (may_sleep)
		return kvmalloc(size, DMD_GFP);
	return kmalloc(size, DMD_GFP_ATOMIC);
}

/*
 * Erase the @size bytes a request used (plaintext, whichever the
 * direction) and free the buffer if it was the request's own; kvfree()
 * of a slab object, the only kind an atomic request has, is kfree().
 */
static void bounce_put(struct diamond_tfm_ctx *ctx, u8 *buf, size_t size)
{
	if (ctx->prealloc)
		memzero_explicit(buf, size);
	else
		kvfree_sensitive(buf, size);
}

static int diamond_crypt(struct aead_request *req, bool enc)
{
	struct crypto_aead *tfm = crypto_aead_reqtfm(req);
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	bool may_sleep = req->base.flags & CRYPTO_TFM_REQ_MAY_SLEEP;
	/* Authsize 12: the packet radio's tag grid (diamond_grid.c). */
	unsigned int as = crypto_aead_authsize(tfm);
	bool grid = as == DMD_PKT_TAG_SIZE;
	unsigned int cryptlen = req->cryptlen, in_len, out_len, body_len;
	struct diamond_epoch ep = { .enc = enc, .adlen = req->assoclen };
	size_t used;
	u8 *buf;
	int err;

	/*
	 * A key that only opens refuses encrypt before anything else, with
	 * its own errno (kernel-api.rst): nothing read, nothing written, no
	 * state touched. Checked again under the lock, against the key the
	 * request would run under.
	 */
	if (enc && READ_ONCE(ctx->open_only))
		return -EPERM;
	/* The kernel is the gateway: devices seal packets themselves. */
	if (enc && grid)
		return -EOPNOTSUPP;
	/* Async children may need to sleep; an atomic caller cannot wait. */
	if (!may_sleep && ctx->async_children)
		return -EAGAIN;
	/*
	 * Early refusal only: the key may change until the lock is ours, so
	 * the limits that bound the copy are checked again under it.
	 */
	if (ep.adlen > diamond_assoc_max(ctx))
		return -EMSGSIZE;
	if (!enc && cryptlen < as)
		return -EINVAL;
	/* An empty body is the parser's -EINVAL, after the epoch (spec 9.2). */
	body_len = enc ? cryptlen : cryptlen - as;
	if (body_len > DMD_EPOCH_LIMIT)
		return -EMSGSIZE;

	in_len = ep.adlen + cryptlen;
	out_len = ep.adlen + body_len + (enc ? as : 0);
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
	if (enc && ctx->open_only) {
		err = -EPERM;
		goto out_unlock;
	}
	/*
	 * The mode against the key: a grid request needs a packet key (a
	 * setkey that raced setauthsize), an epoch one no grid state left.
	 */
	if (grid ? !ctx->grid.packet : diamond_grid_busy(ctx)) {
		err = grid ? -EKEYREJECTED : -EOPNOTSUPP;
		goto out_unlock;
	}
	/*
	 * Larger than the key allows: setkey set the limits for this key's AD
	 * (a grouped key's holds its unit table) and body, and sized a
	 * preallocated buffer for them, and a setkey between the check above
	 * and the lock may have made both smaller.
	 */
	if (ep.adlen > ctx->grp.aad_max || body_len > ctx->max_body) {
		err = -EMSGSIZE;
		goto out_unlock;
	}
	used = (size_t)ep.adlen + body_len + DMD_TAG_SIZE;
	buf = bounce_get(ctx, used, may_sleep);
	if (unlikely(!buf)) {
		err = -ENOMEM;
		goto out_unlock;
	}

	/* AD || body || tag, in place: the input, then the output. */
	scatterwalk_map_and_copy(buf, req->src, 0, in_len, 0);
	ep.ad = buf;
	ep.body = buf + ep.adlen;
	ep.body_len = body_len;
	ep.epoch = get_unaligned_le64(req->iv);

	if (grid)
		err = diamond_grid_run(ctx, ep.epoch, ep.ad, ep.adlen, ep.body,
				       cryptlen);
	else if (!ctx->grp.g)
		err = diamond_epoch_run(ctx, &ep);
	else if (enc)
		err = -EOPNOTSUPP;
	else
		err = diamond_group_run(ctx, ep.epoch, ep.ad, ep.adlen,
					ep.body, body_len);
	if (!err) {
		/* Verdicts are in a grouped or a grid request's table. */
		if (req->src != req->dst || ctx->grp.g || grid)
			scatterwalk_map_and_copy(ep.ad, req->dst, 0, ep.adlen,
						 1);
		scatterwalk_map_and_copy(ep.body, req->dst, ep.adlen,
					 out_len - ep.adlen, 1);
	}
	bounce_put(ctx, buf, used);
out_unlock:
	diamond_unlock(ctx);
	/* The next epoch's offline phase, once the caller has its result. */
	if (!err)
		diamond_precompute_ahead(ctx);
	return err;
}

int diamond_encrypt(struct aead_request *req)
{
	return diamond_crypt(req, true);
}

int diamond_decrypt(struct aead_request *req)
{
	return diamond_crypt(req, false);
}
