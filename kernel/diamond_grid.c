// SPDX-License-Identifier: GPL-2.0
/*
 * The packet radio's tag grid (Documentation/spec.rst section 14,
 * Documentation/kernel-api.rst "Packet radio: the tag grid"): a tfm whose
 * authsize is 12 verifies one unit of 16 records per decrypt request, at
 * the position the caller chose (IV le64(e), unit u in the control table):
 *
 *	AAD	   32-byte control table: u, held, tags, flags in; released,
 *		   verified, the unit's bitmaps and the cursor out
 *	ciphertext for each held r: le16(len) || C_r; each present tag
 *		   S_{u,t}[0:12]
 *
 * From R_{e,16u} it takes Z_u and the eight tau* (spec 14.3), hashes every
 * held record as ciphertext and decrypts it in place in the request's
 * bounce buffer, rebuilds each tag whose records are all held and compares
 * its 12 bytes in constant time; a record is released once, under a
 * verified tag that covers it, and every other record is erased.
 *
 * The cursor (e_c, u_c), the first undecided unit, is the group cursor's
 * (struct diamond_groups) with g = 16; the window (struct diamond_grid)
 * keeps the released records and verified tags of the 16 units from it in
 * stream order. Each request walks its own copy of the chain forward from
 * the cursor (diamond_chain.c's walk), and only a request that verified a
 * tag or gave a unit up moves anything: the window, then the cursor past
 * the decided units at its head, whose keys are erased.
 */
#include <crypto/algapi.h>
#include <crypto/internal/aead.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "diamond.h"

/* A whole unit released: decided (kernel-api.rst). */
#define DMD_GRID_ALL		0xffffu

/* Where a request's walk stands: slot 16 * @unit of @epoch. */
struct grid_walk {
	struct diamond_cursor cur;
	u8 r_unit[DMD_KEY_MAX];	/* R_{e,16u} of the request's unit */
	u64 epoch;
	u32 unit;		/* b / 16 once past the epoch's last unit */
	u32 units;		/* b / 16 */
};

/* The records tag @t covers: a row's four, or a column's. */
static u16 grid_cover(unsigned int t)
{
	return t < 4 ? 0xfu << (4 * t) : 0x1111u << (t - 4);
}

/* u_c: the open cursor's unit; a closed cursor stands at unit 0. */
static u32 cursor_unit(const struct diamond_tfm_ctx *ctx)
{
	return ctx->grp.open ? ctx->grp.c : 0;
}

/* A grid cursor inside an epoch, or a unit of the window in progress. */
bool diamond_grid_busy(const struct diamond_tfm_ctx *ctx)
{
	unsigned int i;

	if (ctx->grp.open && !ctx->grp.g)
		return true;
	for (i = 0; i < DMD_GRID_WINDOW; i++)
		if (ctx->grid.rel[i] || ctx->grid.ver[i])
			return true;
	return false;
}

/* The key is gone: so is its window (the mode, a tfm's, stays). */
void diamond_grid_erase(struct diamond_tfm_ctx *ctx)
{
	memset(ctx->grid.rel, 0, sizeof(ctx->grid.rel));
	memset(ctx->grid.ver, 0, sizeof(ctx->grid.ver));
	ctx->grid.packet = false;
}

/*
 * A key just parsed (group size @g, 0: none): is it a packet key (spec
 * 14.2)? A tfm in grid mode takes no other: -EKEYREJECTED. Lock held.
 */
int diamond_grid_key(struct diamond_tfm_ctx *ctx, u32 g)
{
	ctx->grid.packet = ctx->agg == DMD_AGG_XOR && !g &&
			   !(ctx->b % DMD_GRID_UNIT);
	return ctx->grid.on && !ctx->grid.packet ? -EKEYREJECTED : 0;
}

/*
 * The grid cursor a gateway stored, after the blob (e_c + 1, E_{e_c+1})
 * just keyed: e_c, u_c, R_{e_c,16u_c} and the window. Lock held.
 */
int diamond_grid_restore(struct diamond_tfm_ctx *ctx, const u8 *cur)
{
	const u8 *win = cur + 12 + ctx->k;
	u64 e = get_unaligned_le64(cur);
	u32 u = get_unaligned_le32(cur + 8);
	unsigned int i;

	if (!ctx->grid.packet)
		return -EKEYREJECTED;
	if (!ctx->epoch || e + 1 != ctx->epoch ||
	    u >= ctx->b / DMD_GRID_UNIT ||
	    get_unaligned_le16(win) == DMD_GRID_ALL)
		return -EINVAL;
	for (i = 0; i < DMD_GRID_WINDOW; i++) {
		ctx->grid.rel[i] = get_unaligned_le16(win + 2 * i);
		ctx->grid.ver[i] = win[2 * DMD_GRID_WINDOW + i];
	}
	diamond_pre_erase(&ctx->pre);
	ctx->epoch = e;
	ctx->grp.open = true;
	ctx->grp.c = u;
	memcpy(ctx->grp.r, cur + 12, ctx->k);
	return 0;
}

/*
 * setauthsize: 16 for epochs (not while a grid state is pending: -EBUSY),
 * 12 for the grid (a keyed tfm's key must be a packet key). Under the
 * lock, which setkey and requests hold while they read the mode.
 */
int diamond_grid_setauthsize(struct crypto_aead *tfm, unsigned int authsize)
{
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	int err = 0;

	if (authsize != DMD_TAG_SIZE && authsize != DMD_PKT_TAG_SIZE)
		return -EINVAL;
	diamond_lock(ctx);
	if (authsize == DMD_PKT_TAG_SIZE && ctx->keyed && !ctx->grid.packet)
		err = -EKEYREJECTED;
	else if (authsize == DMD_TAG_SIZE && diamond_grid_busy(ctx))
		err = -EBUSY;
	else
		ctx->grid.on = authsize == DMD_PKT_TAG_SIZE;
	diamond_unlock(ctx);
	return err;
}

/* Past the epoch's last unit: on into the next epoch's first. */
static int walk_align(struct diamond_tfm_ctx *ctx, struct grid_walk *w)
{
	if (w->unit < w->units)
		return 0;
	w->epoch++;
	w->unit = 0;
	return diamond_walk_next_epoch(ctx, &w->cur);
}

/* Over the unit the walk stands at, deriving its slots and no more. */
static int walk_unit(struct diamond_tfm_ctx *ctx, struct grid_walk *w)
{
	int err = walk_align(ctx, w) ?:
		  diamond_walk_to(ctx, &w->cur,
				  (w->unit + 1) * DMD_GRID_UNIT);

	if (!err)
		w->unit++;
	return err;
}

/*
 * Walk to the request's unit: in stream order from the cursor inside the
 * window (@d < 16), else straight to its epoch (at most max_skip epoch
 * updates) and on to its first slot.
 */
static int walk_to_unit(struct diamond_tfm_ctx *ctx, struct grid_walk *w,
			const struct diamond_grid_req *g, u64 d)
{
	u64 start = d < DMD_GRID_WINDOW ? ctx->epoch : g->epoch;
	int err;

	w->units = ctx->b / DMD_GRID_UNIT;
	w->epoch = start;
	w->unit = start == ctx->epoch ? cursor_unit(ctx) : 0;
	err = diamond_walk_open(ctx, &w->cur, start,
				cursor_unit(ctx) * DMD_GRID_UNIT);
	while (!err) {
		err = walk_align(ctx, w);
		if (err || (w->epoch == g->epoch && w->unit == g->unit))
			break;
		err = walk_unit(ctx, w);
	}
	return err;
}

/*
 * The eight tau*_{u,t} (spec 14.3) into @s, from Z_u = G(R_{e,16u},
 * IV_grid)[0:256] in @z, which is erased.
 */
static int grid_taus(struct diamond_tfm_ctx *ctx, const struct grid_walk *w,
		     const struct diamond_grid_req *g, u8 *z, u8 *s)
{
	struct diamond_slot slot;
	unsigned int t;
	int err;

	err = diamond_grid_keys(ctx, w->r_unit, z);
	for (t = 0; !err && t < DMD_GRID_TAGS; t++) {
		slot.hp = z + 2 * DMD_TAG_SIZE * t;
		err = diamond_uh_tag(ctx, &slot, ctx->zero, 0, g->epoch,
				     DMD_GRID_FLAG | t << DMD_GRID_TAG_SHIFT |
				     g->unit * DMD_GRID_UNIT,
				     s + DMD_TAG_SIZE * t);
	}
	memzero_explicit(z, DMD_GRID_Z_SIZE);
	return err;
}

/*
 * Every slot of the unit: each held record's sigma over its ciphertext
 * into its row's and its column's S, then the record decrypted in place.
 */
static int grid_records(struct diamond_tfm_ctx *ctx, struct grid_walk *w,
			const struct diamond_grid_req *g, u8 *s)
{
	u32 first = g->unit * DMD_GRID_UNIT;
	struct diamond_slot slot;
	u8 sigma[DMD_TAG_SIZE];
	unsigned int r;
	const u8 *ks;
	int err = 0;

	for (r = 0; !err && r < DMD_GRID_UNIT; r++) {
		if (!g->rec[r]) {
			err = diamond_cursor_slot(ctx, &w->cur, &slot, NULL, 0);
			continue;
		}
		err = diamond_cursor_slot(ctx, &w->cur, &slot, &ks,
					  g->len[r]) ?:
		      diamond_uh_tag(ctx, &slot, g->rec[r], g->len[r],
				     g->epoch, first + r, sigma);
		if (err)
			break;
		crypto_xor(g->rec[r], ks, g->len[r]);
		crypto_xor(s + DMD_TAG_SIZE * (r / 4), sigma, DMD_TAG_SIZE);
		crypto_xor(s + DMD_TAG_SIZE * (4 + r % 4), sigma, DMD_TAG_SIZE);
		if (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP)
			cond_resched();
	}
	memzero_explicit(sigma, sizeof(sigma));
	return err;
}

/* Tags present whose records all arrived, compared in constant time. */
static u8 grid_compare(const struct diamond_grid_req *g, const u8 *s)
{
	unsigned int t;
	u8 verified = 0;

	for (t = 0; t < DMD_GRID_TAGS; t++) {
		/* What arrived is public: a branch on it leaks nothing. */
		if (!g->tag[t] || (g->held & grid_cover(t)) != grid_cover(t))
			continue;
		if (!crypto_memneq(s + DMD_TAG_SIZE * t, g->tag[t],
				   DMD_PKT_TAG_SIZE))
			verified |= BIT(t);
	}
	return verified;
}

/*
 * Verify the unit the walk stands at (spec 14.5): the records released
 * now into *@rel (verified, not in @before), their plaintext left in
 * place and every other record erased; the tags that verified into *@ver.
 * The walk ends past the unit.
 */
static int grid_unit(struct diamond_tfm_ctx *ctx, struct grid_walk *w,
		     const struct diamond_grid_req *g, u16 before, u16 *rel,
		     u8 *ver)
{
	u8 *z = diamond_grid_scratch(ctx), *s = z + DMD_GRID_Z_SIZE;
	unsigned int r, t;
	int err;

	*rel = 0;
	*ver = 0;
	memcpy(w->r_unit, diamond_cursor_key(&w->cur), ctx->k);
	err = grid_taus(ctx, w, g, z, s) ?: grid_records(ctx, w, g, s);
	if (!err) {
		*ver = grid_compare(g, s);
		for (t = 0; t < DMD_GRID_TAGS; t++)
			if (*ver & BIT(t))
				*rel |= grid_cover(t);
		*rel &= g->held & ~before;
		w->unit++;
	}
	for (r = 0; r < DMD_GRID_UNIT; r++)
		if (g->rec[r] && !(*rel & BIT(r)))
			memzero_explicit(g->rec[r], g->len[r]);
	memzero_explicit(s, DMD_GRID_TAGS * DMD_TAG_SIZE);
	return err;
}

/*
 * Move the cursor to unit @u of epoch @e (u = b / 16: past the epoch,
 * closed at e + 1), holding @r = R_{e,16u} and @e_next = E_{e+1}; the keys
 * it passes are erased, the table's slots below it included.
 */
static void cursor_move(struct diamond_tfm_ctx *ctx, u64 e, u32 u,
			const u8 *r, const u8 *e_next)
{
	memcpy(ctx->ekey, e_next, ctx->k);
	if (u == ctx->b / DMD_GRID_UNIT) {
		diamond_pre_erase(&ctx->pre);
		diamond_group_close(ctx);
		ctx->epoch = e + 1;
		return;
	}
	if (e == ctx->epoch)
		diamond_pre_erase_below(&ctx->pre, ctx->k, u * DMD_GRID_UNIT);
	else
		diamond_pre_erase(&ctx->pre);
	ctx->epoch = e;
	ctx->grp.open = true;
	ctx->grp.c = u;
	memcpy(ctx->grp.r, r, ctx->k);
}

/* What a request leaves for the window and the cursor. */
struct grid_outcome {
	u16 rel;		/* released now */
	u8 ver;			/* verified now */
	unsigned int idx;	/* the unit's entry in the (new) window */
	unsigned int shift;	/* decided units at the window's head */
};

/*
 * Commit (spec 14.5, Release and Deciding a unit): the unit's entry, a
 * window started again at the unit when it lay past it, then the cursor
 * past every decided unit at the window's head, walking on over the
 * released units past the request's. The table's out fields are written.
 */
static int grid_commit(struct diamond_tfm_ctx *ctx, struct grid_walk *w,
		       const struct diamond_grid_req *g, u64 d,
		       struct grid_outcome *o)
{
	struct diamond_grid *gr = &ctx->grid;
	bool give_up = g->flags & DMD_GRID_GIVE_UP;
	u16 rel[DMD_GRID_WINDOW];
	u8 ver[DMD_GRID_WINDOW];
	unsigned int i, s;
	int err = 0;

	memcpy(rel, gr->rel, sizeof(rel));
	memcpy(ver, gr->ver, sizeof(ver));
	if (d >= DMD_GRID_WINDOW) {
		memset(rel, 0, sizeof(rel));
		memset(ver, 0, sizeof(ver));
	}
	rel[o->idx] |= o->rel;
	ver[o->idx] |= o->ver;
	for (s = 0; s < DMD_GRID_WINDOW; s++)
		if (!(give_up && s <= o->idx) && rel[s] != DMD_GRID_ALL)
			break;
	/* The walk stands past the unit: on over the decided ones. */
	for (i = o->idx + 1; !err && i < s; i++)
		err = walk_unit(ctx, w);
	if (err)
		return err;

	put_unaligned_le16(o->rel, g->table + DMD_GRID_OFF_RELEASED);
	g->table[DMD_GRID_OFF_VERIFIED] = o->ver;
	g->table[DMD_GRID_OFF_STATE] = o->idx < s ? DMD_GRID_DECIDED : 0;
	put_unaligned_le16(rel[o->idx], g->table + DMD_GRID_OFF_UNIT_REL);
	g->table[DMD_GRID_OFF_UNIT_VER] = ver[o->idx];

	if (s)
		cursor_move(ctx, w->epoch, w->unit, diamond_cursor_key(&w->cur),
			    w->cur.e_next);
	else if (d >= DMD_GRID_WINDOW)
		cursor_move(ctx, g->epoch, g->unit, w->r_unit, w->cur.e_next);
	for (i = 0; i < DMD_GRID_WINDOW; i++) {
		gr->rel[i] = i + s < DMD_GRID_WINDOW ? rel[i + s] : 0;
		gr->ver[i] = i + s < DMD_GRID_WINDOW ? ver[i + s] : 0;
	}
	put_unaligned_le64(ctx->epoch, g->table + DMD_GRID_OFF_CUR_EPOCH);
	put_unaligned_le32(cursor_unit(ctx), g->table + DMD_GRID_OFF_CUR_UNIT);
	return 0;
}

/*
 * The unit's position against the cursor (spec 9.2 step 3, 14.5): the
 * epoch checks, a unit behind the cursor, and its distance in units.
 */
static int grid_position(const struct diamond_tfm_ctx *ctx,
			 const struct diamond_grid_req *g, u64 *d)
{
	u32 uc = cursor_unit(ctx);
	int err = diamond_check_epoch(ctx, g->epoch);

	if (err)
		return err;
	if (g->epoch == ctx->epoch && g->unit < uc)
		return -EKEYEXPIRED;
	*d = (g->epoch - ctx->epoch) * (ctx->b / DMD_GRID_UNIT) + g->unit - uc;
	return 0;
}

/*
 * A grid decrypt with the tfm's DMD_BUSY bit owned. @aad and @ct (@ctlen
 * bytes, the tags included) are the request's copy in the bounce buffer,
 * where the out fields and the plaintext replace the input.
 */
int diamond_grid_run(struct diamond_tfm_ctx *ctx, u64 epoch, u8 *aad,
		     unsigned int aadlen, u8 *ct, unsigned int ctlen)
{
	struct diamond_grid_req g = { .epoch = epoch };
	struct grid_outcome o = { };
	struct grid_walk w;
	u64 d;
	int err;

	err = diamond_grid_parse(ctx, aad, aadlen, ct, ctlen, &g) ?:
	      grid_position(ctx, &g, &d);
	if (err)
		return err;

	o.idx = d < DMD_GRID_WINDOW ? d : 0;
	err = walk_to_unit(ctx, &w, &g, d);
	if (!err && g.tags)
		err = grid_unit(ctx, &w, &g,
				d < DMD_GRID_WINDOW ? ctx->grid.rel[d] : 0,
				&o.rel, &o.ver);
	else if (!err)
		err = walk_unit(ctx, &w);
	if (!err && !o.ver && !(g.flags & DMD_GRID_GIVE_UP))
		err = -EBADMSG;
	if (!err)
		err = grid_commit(ctx, &w, &g, d, &o);
	if (err)
		memzero_explicit(ct, ctlen);
	else if (g.tags)	/* the tags' places in the output are zeros */
		memset(ct + ctlen - hweight8(g.tags) * DMD_PKT_TAG_SIZE, 0,
		       hweight8(g.tags) * DMD_PKT_TAG_SIZE);
	diamond_children_wipe(ctx);
	memzero_explicit(&w, sizeof(w));
	return err;
}
