// SPDX-License-Identifier: GPL-2.0
/*
 * The key lifecycle of a tfm (Documentation/spec.rst section 2,
 * Documentation/kernel-api.rst "Keys"): setkey parses the key blob
 * (version 1, or version 2 with its CRC, generation and group size, and
 * optionally a stored group cursor; either may be open-only), keys the
 * state and allocates what the key keeps (the precomputed table and, on a
 * preallocating instance, the bounce buffer); a wrapped state (DMDW,
 * diamond_wrap.c) is opened under the wrap key and keys as its inner blob
 * would; a reference (DMDR) keys as the payload of the device key it names
 * (diamond_custody.c).
 * At every successful setkey the tfm takes a copy of the caller's wrap key
 * (diamond_wrapkey.c), if there is one, and notes whether its key came
 * from custody, for export_wrapped, which gives such a
 * state back sealed under it (the AF_ALG getsockopt); export_state gives
 * it in clear (selftest only); exit erases it all. Every limit a request
 * is checked against (ctx->grp.aad_max, ctx->max_body, which also size a
 * preallocated bounce buffer) is set here, under the tfm lock, and only
 * here.
 */
#include <crypto/internal/aead.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "diamond.h"

/* The reflected CRC-32 polynomial (spec section 2). */
#define DMD_CRC32_POLY		0xedb88320u

unsigned int diamond_max_epoch_bytes = 1 << 20;
module_param_named(max_epoch_bytes, diamond_max_epoch_bytes, uint, 0644);
MODULE_PARM_DESC(max_epoch_bytes,
		 "Largest epoch body per request, bytes; larger is -EMSGSIZE (default 1 MiB, ceiling 256 MiB)");

/*
 * CRC-32 of spec section 2, bit by bit with masks: it runs over key bytes,
 * so no table lookup may depend on them (the kernel's crc32_le() uses one).
 */
static u32 blob_crc32(const u8 *p, unsigned int len)
{
	u32 crc = ~0u;
	int bit;

	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (DMD_CRC32_POLY & (0u - (crc & 1)));
	}
	return ~crc;
}

/*
 * The fields a version 2 blob adds (spec section 2), its header already
 * checked: CRC, generation, group size. @g is 0 for g = b (or 0): one group
 * per epoch, an ungrouped tfm exactly.
 */
static int blob2_parse(const u8 *key, unsigned int keylen, u32 b, u32 *g)
{
	unsigned int crc_off = keylen - DMD_BLOB2_CRC_SIZE;
	u64 epoch = get_unaligned_le64(key + DMD_BLOB_OFF_EPOCH);
	u32 gen = get_unaligned_le16(key + DMD_BLOB2_OFF_GEN);
	u32 size = get_unaligned_le16(key + DMD_BLOB2_OFF_GROUP);

	if (blob_crc32(key, crc_off) != get_unaligned_le32(key + crc_off) ||
	    epoch >> DMD_GEN_SHIFT < gen || size > b)
		return -EINVAL;
	*g = size == b ? 0 : size;
	return 0;
}

/*
 * Spec section 2; the blob's suite must be the instance's. Version 1, or
 * version 2 (CRC, generation and group size g), whose key is at @key_off.
 * @g is 0 unless the blob asks for groups (g < b).
 */
static int blob_parse(const struct diamond_tfm_ctx *ctx, const u8 *key,
		      unsigned int keylen, u32 *g, unsigned int *key_off)
{
	/* Version 2, alone or followed by a group or a grid cursor. */
	bool v2 = keylen == DMD_BLOB2_SIZE(ctx->k) ||
		  keylen == DMD_BLOB2_SIZE(ctx->k) + DMD_CURSOR_SIZE(ctx->k) ||
		  keylen == DMD_BLOB2_SIZE(ctx->k) +
			    DMD_GRID_CURSOR_SIZE(ctx->k);
	u32 b;

	if ((keylen != DMD_BLOB_SIZE(ctx->k) && !v2) ||
	    memcmp(key, DMD_BLOB_MAGIC, 4) ||
	    key[DMD_BLOB_OFF_VERSION] !=
	    (v2 ? DMD_BLOB2_VERSION : DMD_BLOB_VERSION) ||
	    key[DMD_BLOB_OFF_SUITE] != ctx->suite ||
	    key[DMD_BLOB_OFF_AGG] > DMD_AGG_HASH ||
	    (key[DMD_BLOB_OFF_FLAGS] & ~DMD_BLOB_FLAGS_KNOWN))
		return -EINVAL;
	b = get_unaligned_le32(key + DMD_BLOB_OFF_B);
	if (b < 1 || b > DMD_MAX_B ||
	    get_unaligned_le64(key + DMD_BLOB_OFF_EPOCH) > DMD_EPOCH_LAST + 1)
		return -EINVAL;
	*g = 0;
	*key_off = v2 ? DMD_BLOB2_OFF_KEY : DMD_BLOB_OFF_KEY;
	return v2 ? blob2_parse(key, DMD_BLOB2_SIZE(ctx->k), b, g) : 0;
}

/*
 * Key the group state: g (0: none), the cursor closed, and the AD limit
 * that follows from it (a grouped AD holds a unit table). Lock held; the
 * lock-free early check in diamond_request.c reads aad_max, hence
 * WRITE_ONCE.
 */
static void key_groups(struct diamond_tfm_ctx *ctx, u32 g)
{
	diamond_group_close(ctx);
	ctx->grp.g = g;
	WRITE_ONCE(ctx->grp.aad_max, diamond_units_ad_max(ctx->b, g));
}

/*
 * Open the cursor a gateway stored (its state file's, userspace.rst section
 * 3) or sought to (a checkpoint, kernel-api.rst) after the blob (e + 1,
 * E_{e+1}) it keyed: epoch e open at group c, with R_{e,c*g}. It must
 * belong to the epoch before the blob's and name a group 0 .. q(b): c = 0
 * holds R_{e,0}, less than E_e would. Lock held, blob keyed.
 */
static int group_restore(struct diamond_tfm_ctx *ctx, const u8 *cur)
{
	u64 e = get_unaligned_le64(cur);
	u32 c = get_unaligned_le32(cur + 8);

	if (!ctx->grp.g || !ctx->epoch || e + 1 != ctx->epoch ||
	    c > (ctx->b - 1) / ctx->grp.g)
		return -EINVAL;
	diamond_pre_erase(&ctx->pre);
	ctx->epoch = e;
	ctx->grp.open = true;
	ctx->grp.c = c;
	memcpy(ctx->grp.r, cur + 12, ctx->k);
	return 0;
}

/* Every request erased what it used, so there is nothing left to wipe. */
static void ebuf_free(struct diamond_tfm_ctx *ctx)
{
	vfree(ctx->ebuf);
	ctx->ebuf = NULL;
	ctx->ebuf_size = 0;
	ctx->max_body = 0;
}

/*
 * The largest request of the key just set: its largest AD, the largest
 * body it allows (b records of DMD_MAX_RECORD, at most max_epoch_bytes,
 * read here) and the tag. A preallocating instance (ctx->prealloc, see
 * diamond_create()) gets its bounce buffer for it here, in setkey's
 * sleeping and memcg-charged context, and keeps it: a request copies into
 * it and allocates nothing. vmalloc, page granular (kvmalloc could round
 * 1 MiB + 1 KiB up to 2 MiB). Any other tfm keeps no buffer between
 * requests (diamond_request.c allocates one per request). Lock held.
 */
static int ebuf_alloc(struct diamond_tfm_ctx *ctx)
{
	size_t body = min3(DMD_BODY_MAX(ctx->b),
			   (size_t)READ_ONCE(diamond_max_epoch_bytes),
			   (size_t)DMD_EPOCH_LIMIT);
	size_t size = ctx->grp.aad_max + body + DMD_TAG_SIZE;

	if (!ctx->prealloc) {
		ctx->max_body = body;
		return 0;
	}
	if (!ctx->ebuf || ctx->ebuf_size != size) {
		ebuf_free(ctx);
		ctx->ebuf = __vmalloc(size, DMD_GFP);
		if (!ctx->ebuf)
			return -ENOMEM;
		ctx->ebuf_size = size;
	}
	ctx->max_body = body;
	return 0;
}

/* Forget the key: the tfm is keyless, with an ungrouped AD limit. */
static void key_erase(struct diamond_tfm_ctx *ctx)
{
	diamond_pre_erase(&ctx->pre);
	memzero_explicit(ctx->ekey, sizeof(ctx->ekey));
	memzero_explicit(ctx->wkey, sizeof(ctx->wkey));
	ctx->has_wkey = false;
	ctx->custody = false;
	ctx->keyed = false;
	ctx->gen = 0;
	ctx->gsize = 0;
	WRITE_ONCE(ctx->open_only, false);
	ctx->b = 0;
	key_groups(ctx, 0);
	diamond_grid_erase(ctx);
}

/* Key the tfm from a clear blob, @key. Lock held, the tfm keyless. */
static int key_set(struct diamond_tfm_ctx *ctx, const u8 *key,
		   unsigned int keylen)
{
	unsigned int key_off;
	u32 g;
	int err;

	err = blob_parse(ctx, key, keylen, &g, &key_off);
	if (err)
		return err;
	ctx->agg = key[DMD_BLOB_OFF_AGG];
	ctx->b = get_unaligned_le32(key + DMD_BLOB_OFF_B);
	ctx->device_id = get_unaligned_le32(key + DMD_BLOB_OFF_DEVICE);
	ctx->epoch = get_unaligned_le64(key + DMD_BLOB_OFF_EPOCH);
	if (key_off == DMD_BLOB2_OFF_KEY) {
		ctx->gen = get_unaligned_le16(key + DMD_BLOB2_OFF_GEN);
		ctx->gsize = get_unaligned_le16(key + DMD_BLOB2_OFF_GROUP);
	}
	memcpy(ctx->ekey, key + key_off, ctx->k);
	/* The group size first: a grouped AD holds a unit table. */
	key_groups(ctx, g);
	/* A tfm in grid mode takes a packet key only (-EKEYREJECTED). */
	err = diamond_grid_key(ctx, g);
	/* All a request will need, allocated here where we may sleep. */
	if (!err)
		err = diamond_pre_alloc(ctx) ?: ebuf_alloc(ctx);
	if (!err && keylen == DMD_BLOB2_SIZE(ctx->k) +
			      DMD_GRID_CURSOR_SIZE(ctx->k))
		err = diamond_grid_restore(ctx, key + key_off + ctx->k +
					   DMD_BLOB2_CRC_SIZE);
	else if (!err && keylen > DMD_BLOB2_SIZE(ctx->k))
		err = group_restore(ctx, key + key_off + ctx->k +
				    DMD_BLOB2_CRC_SIZE);
	if (err) {
		key_erase(ctx);
		return err;
	}
	ctx->keyed = true;
	/* Only a keyed tfm is open-only: keyless stays -ENOKEY. */
	WRITE_ONCE(ctx->open_only,
		   key[DMD_BLOB_OFF_FLAGS] & DMD_BLOB_FLAG_OPEN_ONLY);
	return 0;
}

/*
 * Key the tfm from a wrapped state: its header for this suite, opened
 * under the wrap key (@wkey, NULL when there is none) and keyed as the
 * inner blob, which is erased. Lock held, the tfm keyless.
 */
static int key_set_wrapped(struct diamond_tfm_ctx *ctx, const u8 *wkey,
			   const u8 *in, unsigned int len)
{
	u8 inner[DMD_WRAP_INNER_MAX];
	int n, err;

	if (len <= DMD_WRAP_OFF_SUITE || in[DMD_WRAP_OFF_SUITE] != ctx->suite)
		return -EINVAL;
	n = diamond_wrap_open(wkey, in, len, inner);
	if (n < 0)
		return n;
	err = key_set(ctx, inner, n);
	memzero_explicit(inner, sizeof(inner));
	return err;
}

static bool is_wrapped(const u8 *key, unsigned int keylen)
{
	return keylen >= 4 && !memcmp(key, DMD_WRAP_MAGIC, 4);
}

/*
 * setkey with the wrap key given (@wkey, NULL: none): the tfm keeps a copy
 * of it when the key is taken. @custody: a clear key came from custody (a
 * wrapped one always did). diamond_setkey() passes what it found for the
 * caller; the selftest its own.
 */
int diamond_key_set(struct crypto_aead *tfm, const u8 *key,
		    unsigned int keylen, const u8 *wkey, bool custody)
{
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	int err;

	diamond_precompute_drop(ctx);
	/* Make a running precompute for the old state give up the lock. */
	atomic_inc(&ctx->setkey_pending);
	diamond_lock(ctx);
	atomic_dec(&ctx->setkey_pending);

	/* Even a refused key ends the old state: the tfm is keyless now. */
	key_erase(ctx);
	if (is_wrapped(key, keylen)) {
		err = key_set_wrapped(ctx, wkey, key, keylen);
		custody = true;
	} else {
		err = key_set(ctx, key, keylen);
	}
	if (!err && wkey) {
		memcpy(ctx->wkey, wkey, sizeof(ctx->wkey));
		ctx->has_wkey = true;
	}
	if (!err)
		ctx->custody = custody;
	diamond_unlock(ctx);

	if (!err)
		diamond_schedule_precompute(ctx, 0);
	return err;
}

/*
 * setkey of a device key by reference (DMDR): the payload of the key it
 * names, keyed as a clear key from custody. A reference that finds no
 * key still ends the old state, as every refused setkey does.
 */
static int setkey_ref(struct crypto_aead *tfm, const u8 *ref,
		      unsigned int len, const u8 *wkey)
{
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	u8 payload[DMD_WRAP_INNER_MAX];
	int n, err;

	n = diamond_custody_ref(ref, len, ctx->suite, payload);
	err = diamond_key_set(tfm, payload, n < 0 ? 0 : n, wkey, true);
	memzero_explicit(payload, sizeof(payload));
	return n < 0 ? n : err;
}

int diamond_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen)
{
	u8 wkey[DMD_WRAP_KEY_SIZE];
	const u8 *wk;
	bool custody;
	int err, wkerr;

	/* Before the tfm lock: the keyring searches may sleep a while. */
	wkerr = diamond_wrap_key_find(wkey);
	wk = wkerr ? NULL : wkey;
	if (diamond_custody_is_ref(key, keylen)) {
		err = setkey_ref(tfm, key, keylen, wk);
	} else {
		custody = !is_wrapped(key, keylen) && diamond_custody_clear();
		err = diamond_key_set(tfm, key, keylen, wk, custody);
		/* A wrapped key without a wrap key: why there was none. */
		if (err == -ENOKEY && wkerr)
			err = wkerr;
	}
	memzero_explicit(wkey, sizeof(wkey));
	return err;
}

/*
 * The current state as a key blob (the selftest checks it against the
 * vectors' "next" blobs). Not reachable from userspace.
 */
int diamond_export_state(struct crypto_aead *tfm, u8 *blob, unsigned int len)
{
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	int err = 0;

	diamond_lock(ctx);
	if (!ctx->keyed) {
		err = -ENOKEY;
	} else if (len != DMD_BLOB_SIZE(ctx->k)) {
		err = -EINVAL;
	} else {
		memcpy(blob, DMD_BLOB_MAGIC, 4);
		blob[DMD_BLOB_OFF_VERSION] = DMD_BLOB_VERSION;
		blob[DMD_BLOB_OFF_SUITE] = ctx->suite;
		blob[DMD_BLOB_OFF_AGG] = ctx->agg;
		blob[DMD_BLOB_OFF_FLAGS] = ctx->open_only ?
					   DMD_BLOB_FLAG_OPEN_ONLY : 0;
		put_unaligned_le32(ctx->b, blob + DMD_BLOB_OFF_B);
		put_unaligned_le32(ctx->device_id, blob + DMD_BLOB_OFF_DEVICE);
		/* An open group cursor holds E_{e+1}: state (e + 1, E_{e+1}). */
		put_unaligned_le64(ctx->epoch + ctx->grp.open,
				   blob + DMD_BLOB_OFF_EPOCH);
		memcpy(blob + DMD_BLOB_OFF_KEY, ctx->ekey, ctx->k);
	}
	diamond_unlock(ctx);
	return err;
}

/*
 * The current state as the inner bytes of a wrapped state: a version 2
 * blob, always open-only, followed by the group cursor when one is open
 * (state e + 1 with cursor e, c, R_{e,c*g}); its length. Lock held, keyed.
 */
static unsigned int inner_build(const struct diamond_tfm_ctx *ctx, u8 *out)
{
	unsigned int crc_off = DMD_BLOB2_OFF_KEY + ctx->k;
	u8 *cur = out + DMD_BLOB2_SIZE(ctx->k);

	memcpy(out, DMD_BLOB_MAGIC, 4);
	out[DMD_BLOB_OFF_VERSION] = DMD_BLOB2_VERSION;
	out[DMD_BLOB_OFF_SUITE] = ctx->suite;
	out[DMD_BLOB_OFF_AGG] = ctx->agg;
	out[DMD_BLOB_OFF_FLAGS] = DMD_BLOB_FLAG_OPEN_ONLY;
	put_unaligned_le32(ctx->b, out + DMD_BLOB_OFF_B);
	put_unaligned_le32(ctx->device_id, out + DMD_BLOB_OFF_DEVICE);
	put_unaligned_le64(ctx->epoch + ctx->grp.open, out + DMD_BLOB_OFF_EPOCH);
	put_unaligned_le16(ctx->gen, out + DMD_BLOB2_OFF_GEN);
	put_unaligned_le16(ctx->gsize, out + DMD_BLOB2_OFF_GROUP);
	memcpy(out + DMD_BLOB2_OFF_KEY, ctx->ekey, ctx->k);
	put_unaligned_le32(blob_crc32(out, crc_off), out + crc_off);
	if (!ctx->grp.open)
		return DMD_BLOB2_SIZE(ctx->k);
	put_unaligned_le64(ctx->epoch, cur);
	put_unaligned_le32(ctx->grp.c, cur + 8);
	memcpy(cur + 12, ctx->grp.r, ctx->k);
	return DMD_BLOB2_SIZE(ctx->k) + DMD_CURSOR_SIZE(ctx->k);
}

/*
 * The current state sealed under the wrap key found at setkey, into @out
 * (*@len bytes): its size in *@len. -ENOKEY for a keyless tfm; -EPERM for
 * a key not from custody (a clear key of the caller's own); -ENOKEY for
 * one keyed without a wrap key; -ERANGE, with the size needed in *@len,
 * when *@len is too small. The nonce is fresh for every export.
 */
int diamond_export_wrapped(struct crypto_aead *tfm, u8 *out,
			   unsigned int *len)
{
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	u8 inner[DMD_WRAP_INNER_MAX];
	unsigned int n;
	int err;

	diamond_lock(ctx);
	if (!ctx->keyed || !ctx->has_wkey || !ctx->custody) {
		err = ctx->keyed && !ctx->custody ? -EPERM : -ENOKEY;
		goto out_unlock;
	}
	/* A grid state has no wrapped form yet (kernel-api.rst). */
	if (diamond_grid_busy(ctx)) {
		err = -EOPNOTSUPP;
		goto out_unlock;
	}
	n = inner_build(ctx, inner);
	if (*len < DMD_WRAP_SIZE(n)) {
		*len = DMD_WRAP_SIZE(n);
		err = -ERANGE;
		goto out_unlock;
	}
	err = diamond_wrap_seal(ctx->wkey, inner, n, out);
	if (!err)
		*len = DMD_WRAP_SIZE(n);
out_unlock:
	diamond_unlock(ctx);
	memzero_explicit(inner, sizeof(inner));
	return err;
}

/* A new tfm: unlocked, keyless, its precompute work ready to queue. */
void diamond_key_init(struct diamond_tfm_ctx *ctx)
{
	ctx->busy = 0;
	diamond_precompute_init(ctx);
	key_erase(ctx);
}

/* The tfm goes: no precompute left running, every key and buffer gone. */
void diamond_key_exit(struct diamond_tfm_ctx *ctx)
{
	diamond_precompute_drop(ctx);
	diamond_precompute_cancel(ctx);
	diamond_pre_free(&ctx->pre);
	ebuf_free(ctx);
	key_erase(ctx);
	memzero_explicit(&ctx->chacha, sizeof(ctx->chacha));
	memzero_explicit(&ctx->aes, sizeof(ctx->aes));
}
