// SPDX-License-Identifier: GPL-2.0
/*
 * Groups of g < b records (Documentation/spec.rst sections 5.1 and 9.1,
 * Documentation/kernel-api.rst "Groups"): one decrypt request carries any
 * number of units of one epoch, each a non-final group (its g records and
 * its group tag G_i) or the final group (the records from q*g on and the
 * epoch tag T), and a unit table at the head of the associated data:
 *
 *	AAD = le16(u) || u * ( le32(field_i) || le32(len_i) ) || AD
 *	ciphertext = unit_0 body || tag_0 || ... || unit_{u-1} body || tag_{u-1}
 *
 * field_i is the unit's trailer index field (0x40000000 | (i*g + g) or
 * 0x80000000 | n), len_i its bytes in the ciphertext, tag included. The
 * units are verified in table order in the tfm's bounce buffer, each
 * decrypted in place as it is hashed and erased there unless its own tag
 * matched, so only released units reach dst. Each unit's verdict (0, or
 * a positive errno) replaces its field_i in the output's table. The cursor
 * moves past the last released unit and the keys of every group it passes
 * are erased; a request that releases nothing returns the first unit's
 * error and changes nothing.
 *
 * The table and the bodies are parsed by diamond_parse.c; the group size
 * and a stored cursor are keyed by diamond_key.c.
 */
#include <crypto/algapi.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "diamond.h"

/* What the walk over the units found, until it is committed. */
struct diamond_verdicts {
	struct diamond_cursor cur;
	u8 r_next[DMD_KEY_MAX];	/* R_{e,(i+1)g} after the last group released */
	u32 c_next;		/* the group after it */
	u32 released;
	bool closed;		/* the final group was released */
	int first_err;
};

/*
 * The unit's own checks, before any key (spec 9.2 steps 3 and 4): a group
 * the cursor has passed, then its body, exactly @count records.
 */
static int unit_check(const struct diamond_tfm_ctx *ctx,
		      const struct diamond_units *us,
		      const struct diamond_unit *u)
{
	u32 have = 0;
	int err;

	if (ctx->grp.open && us->epoch == ctx->epoch && u->group < ctx->grp.c)
		return -EKEYEXPIRED;
	if (u->len) {
		err = diamond_body_parse(us->body + u->off, u->len, u->count,
					 &have);
		if (err)
			return err;
	}
	return have == u->count ? 0 : -EINVAL;
}

/*
 * The unit's tag (spec 5.1): a tag per record over its ciphertext, which
 * is then decrypted in place, and the trailer under the group-trailer keys
 * of its first slot (a non-final group) or slot n's keys (the final
 * group). The caller erases the plaintext unless the tag matches.
 */
static int unit_tag(struct diamond_tfm_ctx *ctx, struct diamond_cursor *cur,
		    const struct diamond_units *us,
		    const struct diamond_unit *u, u8 tag[DMD_TAG_SIZE])
{
	struct diamond_slot slot = { .hp = ctx->gkey };
	unsigned int pos = u->off, len;
	struct diamond_agg agg;
	u8 sigma[DMD_TAG_SIZE], *rec;
	const u8 *ks;
	u32 j;
	int err;

	err = diamond_walk_to(ctx, cur, u->first);
	if (!err && !u->final)
		err = diamond_group_keys(ctx, diamond_cursor_key(cur),
					 ctx->gkey);
	if (err)
		return err;
	diamond_agg_init(&agg, ctx->agg);
	for (j = 0; j < u->count; j++) {
		/* The length prefix stays in clear. */
		len = get_unaligned_le16(us->body + pos);
		pos += DMD_BODY_LEN_SIZE;
		rec = us->body + pos;
		err = diamond_cursor_slot(ctx, cur, &slot, &ks, len) ?:
		      diamond_uh_tag(ctx, &slot, rec, len, us->epoch,
				     u->first + j, sigma);
		if (err)
			goto out;
		crypto_xor(rec, ks, len);
		diamond_agg_add(&agg, sigma);
		pos += len;
		if (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP)
			cond_resched();
	}
	slot.hp = ctx->gkey;
	if (u->final)
		err = diamond_cursor_slot(ctx, cur, &slot, NULL, 0);
	if (!err)
		err = diamond_uh_tag(ctx, &slot, us->ad, us->adlen, us->epoch,
				     u->field, sigma);
	if (!err)
		diamond_agg_final(&agg, sigma, tag);
out:
	memzero_explicit(&agg, sizeof(agg));
	memzero_explicit(sigma, sizeof(sigma));
	memzero_explicit(ctx->gkey, 2 * DMD_TAG_SIZE);
	return err;
}

/*
 * One unit: its checks, its tag, the compare, and only on a match its
 * plaintext (keystream ^ ciphertext). Everything else of its output is
 * zeros. Returns the unit's verdict, or a hard error of the children
 * (-EAGAIN, -ENOMEM...) that fails the whole request.
 */
static int unit_open(struct diamond_tfm_ctx *ctx,
		     const struct diamond_units *us,
		     const struct diamond_unit *u, struct diamond_verdicts *v,
		     int *verdict)
{
	/* The last unit's tag is the AEAD tag: not in the output. */
	unsigned int out_len = u->len + (u->off + u->len < us->len ?
					 DMD_TAG_SIZE : 0);
	u8 tag[DMD_TAG_SIZE];
	int err;

	*verdict = unit_check(ctx, us, u);
	if (*verdict) {
		memset(us->body + u->off, 0, out_len);
		return 0;
	}
	err = unit_tag(ctx, &v->cur, us, u, tag);
	if (err) {
		memzero_explicit(us->body + u->off, u->len);
		goto out;
	}
	if (crypto_memneq(tag, us->body + u->off + u->len, DMD_TAG_SIZE)) {
		memzero_explicit(us->body + u->off, out_len);
		*verdict = -EBADMSG;
		goto out;
	}
	memset(us->body + u->off + u->len, 0, out_len - u->len);
	v->released++;
	v->closed = u->final;
	v->c_next = u->group + 1;
	if (!u->final)
		memcpy(v->r_next, diamond_cursor_key(&v->cur), ctx->k);
out:
	memzero_explicit(tag, sizeof(tag));
	return err;
}

/* Every unit in table order; verdicts into the table's field slots. */
static int units_open(struct diamond_tfm_ctx *ctx, struct diamond_units *us,
		      struct diamond_verdicts *v)
{
	struct diamond_unit u;
	unsigned int off = 0;
	int err, verdict;
	u32 i;

	for (i = 0; i < us->u; i++) {
		diamond_unit_get(ctx, us, i, off, &u);
		err = unit_open(ctx, us, &u, v, &verdict);
		if (err)
			return err;
		if (verdict && !v->first_err)
			v->first_err = verdict;
		diamond_unit_verdict(us, i, verdict);
		off += u.len + DMD_TAG_SIZE;
	}
	return 0;
}

/*
 * Move the cursor past the last unit released (spec 9.1 step 5), erasing
 * the keys of every group it passed. A table of the epoch that stays open
 * keeps its slots from the cursor on; any other is erased whole.
 */
static void commit(struct diamond_tfm_ctx *ctx, u64 epoch,
		   const struct diamond_verdicts *v)
{
	memcpy(ctx->ekey, v->cur.e_next, ctx->k);
	if (v->closed || epoch != ctx->epoch)
		diamond_pre_erase(&ctx->pre);
	else
		diamond_pre_erase_below(&ctx->pre, ctx->k,
					v->c_next * ctx->grp.g);
	if (v->closed) {
		diamond_group_close(ctx);
		ctx->epoch = epoch + 1;
		return;
	}
	ctx->epoch = epoch;
	ctx->grp.open = true;
	ctx->grp.c = v->c_next;
	memcpy(ctx->grp.r, v->r_next, ctx->k);
}

/* Pass 1: is any unit worth a key? Else the first unit's error. */
static int units_precheck(struct diamond_tfm_ctx *ctx,
			  const struct diamond_units *us)
{
	struct diamond_unit u;
	unsigned int off = 0;
	int err, first = 0;
	u32 i;

	for (i = 0; i < us->u; i++) {
		diamond_unit_get(ctx, us, i, off, &u);
		err = unit_check(ctx, us, &u);
		if (!err)
			return 0;
		first = first ?: err;
		off += u.len + DMD_TAG_SIZE;
	}
	return first;
}

/*
 * A grouped decrypt with the tfm's DMD_BUSY bit owned. @aad and @body are
 * the request's copy in the bounce buffer (@len bytes of units, less the
 * last tag), where each unit's verdict and plaintext replace the input.
 */
int diamond_group_run(struct diamond_tfm_ctx *ctx, u64 epoch, u8 *aad,
		      unsigned int aadlen, u8 *body, unsigned int len)
{
	struct diamond_units us = { .epoch = epoch, .body = body,
				    .len = len };
	struct diamond_verdicts v = { };
	int err;

	err = diamond_table_parse(ctx, aad, aadlen, &us) ?:
	      diamond_check_epoch(ctx, epoch) ?:
	      units_precheck(ctx, &us);
	if (err)
		return err;

	err = diamond_walk_open(ctx, &v.cur, epoch,
				ctx->grp.c * ctx->grp.g);
	if (err)
		goto out;
	err = units_open(ctx, &us, &v);
	if (!err && !v.released)
		err = v.first_err;
	if (!err)
		commit(ctx, epoch, &v);
	else
		memzero_explicit(body, len);
out:
	diamond_children_wipe(ctx);
	memzero_explicit(&v, sizeof(v));
	return err;
}
