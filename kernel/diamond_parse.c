// SPDX-License-Identifier: GPL-2.0
/*
 * Request parsing (Documentation/spec.rst sections 5.1, 7 and 9.2): the
 * checks of a request's bytes that need no key material, each returning the
 * errno spec 9.2 gives it. The epoch and group verification
 * (diamond_epoch.c, diamond_group.c) call them in the spec's order, and the
 * key lifecycle (diamond_key.c) asks for the unit table's size; this file
 * calls nothing else of diamond.ko.
 *
 *	body	 le16(len_0) || rec_0 || ... , 1 .. b records of <= 4096 bytes
 *	grouped	 AAD = le16(u) || u * ( le32(field_i) || le32(len_i) ) || AD
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/stringify.h>

#include <diamond/epoch.h>

#include "diamond.h"

/* The unit table: le16(u), then per unit le32(field) || le32(len). */
#define DMD_UNITS_HDR		2
#define DMD_UNIT_SIZE		8
#define DMD_UNIT_FLAGS		(DMD_TRAILER_FLAG | DMD_GROUP_FLAG)

unsigned int diamond_max_skip = DMD_DEFAULT_MAX_SKIP;
module_param_named(max_skip, diamond_max_skip, uint, 0644);
MODULE_PARM_DESC(max_skip,
		 "Most epochs a request may skip ahead of the state; further is -ERANGE (default "
		 __stringify(DMD_DEFAULT_MAX_SKIP) ")");

/*
 * Spec section 7's errno for a body diamond_body_parse() refused: the
 * checks in the spec's order, record by record, the first that fails.
 */
static int body_errno(const u8 *body, unsigned int len, u32 b)
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
	return -EINVAL;		/* no record */
}

/*
 * Spec section 7: le16 length || record, repeated, to the exact end; at
 * least one and at most @b records, none over DMD_MAX_RECORD bytes. It
 * runs once per record of every request, so the pass takes a well-formed
 * body with two tests a record and leaves the errno of any other to
 * body_errno(). No sum overflows: @len is below DMD_EPOCH_LIMIT.
 */
int diamond_body_parse(const u8 *body, unsigned int len, u32 b, u32 *count)
{
	unsigned int pos = 0, rec, end;
	u32 n = 0;

	while (pos + DMD_BODY_LEN_SIZE <= len) {
		rec = get_unaligned_le16(body + pos);
		end = pos + DMD_BODY_LEN_SIZE + rec;
		if (unlikely(rec > DMD_MAX_RECORD || end > len))
			break;
		pos = end;
		n++;
	}
	if (unlikely(pos != len || !n || n > b))
		return body_errno(body, len, b);
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
 * The largest AAD a key of @b records in groups of @g (0: none) takes: a
 * grouped one's starts with a table of up to one unit per group.
 */
u32 diamond_units_ad_max(u32 b, u32 g)
{
	u32 units = g ? (b - 1) / g + 1 : 0;

	return g ? DMD_UNITS_HDR + DMD_UNIT_SIZE * units + DMD_MAX_AD :
		   DMD_MAX_AD;
}

static u8 *unit_entry(const struct diamond_units *us, u32 i)
{
	return us->table + (size_t)i * DMD_UNIT_SIZE;
}

/* A unit's coordinates from its index field (spec sections 5.1, 9.2). */
static int unit_decode(const struct diamond_tfm_ctx *ctx, u32 field,
		       struct diamond_unit *u)
{
	u32 g = ctx->grp.g, b = ctx->b, end = field & ~DMD_UNIT_FLAGS;

	u->field = field;
	if ((field & DMD_UNIT_FLAGS) == DMD_GROUP_FLAG) {
		/* A non-final group ends before the epoch can: (i + 1) g < b. */
		if (end < g || end % g || end >= b)
			return -EINVAL;
		u->group = end / g - 1;
		u->first = end - g;
		u->count = g;
		u->final = false;
		return 0;
	}
	if ((field & DMD_UNIT_FLAGS) != DMD_TRAILER_FLAG || end < 1 || end > b)
		return -EINVAL;
	u->group = end < b ? end / g : (b - 1) / g;
	u->first = u->group * g;
	u->count = end - u->first;
	u->final = true;
	return 0;
}

/* Unit @i (its entry already checked), at offset @off of the ciphertext. */
void diamond_unit_get(const struct diamond_tfm_ctx *ctx,
		      const struct diamond_units *us, u32 i, unsigned int off,
		      struct diamond_unit *u)
{
	const u8 *e = unit_entry(us, i);

	/* Cannot fail: diamond_table_parse() decoded every entry. */
	unit_decode(ctx, get_unaligned_le32(e), u);
	u->off = off;
	u->len = get_unaligned_le32(e + 4) - DMD_TAG_SIZE;
}

/* The output's table: unit @i's verdict (0 or a positive errno). */
void diamond_unit_verdict(const struct diamond_units *us, u32 i, int verdict)
{
	put_unaligned_le32(-verdict, unit_entry(us, i));
}

/*
 * Spec 9.2 step 2 for the table: its framing, then the units' lengths
 * (each holds its tag, and together exactly the ciphertext), |AD|, and
 * last the coordinates: ascending groups, the final group only last.
 */
int diamond_table_parse(const struct diamond_tfm_ctx *ctx, u8 *aad,
			unsigned int aadlen, struct diamond_units *us)
{
	u64 sum = 0;
	struct diamond_unit u;
	u32 i, l, prev = 0;
	int err;

	if (aadlen < DMD_UNITS_HDR)
		return -EINVAL;
	us->u = get_unaligned_le16(aad);
	us->table = aad + DMD_UNITS_HDR;
	if (!us->u || aadlen - DMD_UNITS_HDR < us->u * DMD_UNIT_SIZE)
		return -EINVAL;
	for (i = 0; i < us->u; i++) {
		l = get_unaligned_le32(unit_entry(us, i) + 4);
		if (l < DMD_TAG_SIZE)
			return -EINVAL;
		sum += l;
	}
	if (sum != (u64)us->len + DMD_TAG_SIZE)
		return -EINVAL;
	us->ad = us->table + us->u * DMD_UNIT_SIZE;
	us->adlen = aadlen - DMD_UNITS_HDR - us->u * DMD_UNIT_SIZE;
	if (us->adlen > DMD_MAX_AD)
		return -EMSGSIZE;
	for (i = 0; i < us->u; i++) {
		err = unit_decode(ctx, get_unaligned_le32(unit_entry(us, i)),
				  &u);
		if (err)
			return err;
		if ((i && u.group <= prev) || (u.final && i != us->u - 1))
			return -EINVAL;
		prev = u.group;
	}
	return 0;
}

/* The control table's input: its reserved bytes zero, its fields in range. */
static int grid_table_parse(const struct diamond_tfm_ctx *ctx, const u8 *aad,
			    unsigned int aadlen, struct diamond_grid_req *g)
{
	unsigned int i;

	if (aadlen != DMD_GRID_TABLE_SIZE)
		return -EINVAL;
	for (i = DMD_GRID_OFF_RELEASED; i < DMD_GRID_TABLE_SIZE; i++)
		if (aad[i])
			return -EINVAL;
	g->unit = get_unaligned_le32(aad + DMD_GRID_OFF_UNIT);
	g->held = get_unaligned_le16(aad + DMD_GRID_OFF_HELD);
	g->tags = aad[DMD_GRID_OFF_TAGS];
	g->flags = aad[DMD_GRID_OFF_FLAGS];
	if (g->flags & ~DMD_GRID_GIVE_UP || g->unit >= ctx->b / DMD_GRID_UNIT)
		return -EINVAL;
	return 0;
}

/*
 * A request without tags only gives up (kernel-api.rst): no record, the
 * flag, and 12 zero bytes that stand where the crypto API wants a tag.
 */
static int grid_give_up_only(const struct diamond_grid_req *g, const u8 *ct,
			     unsigned int ctlen)
{
	unsigned int i;

	if (g->held || !(g->flags & DMD_GRID_GIVE_UP) ||
	    ctlen != DMD_PKT_TAG_SIZE)
		return -EINVAL;
	for (i = 0; i < ctlen; i++)
		if (ct[i])
			return -EINVAL;
	return 0;
}

/*
 * A grid request (kernel-api.rst, "Grid request"): the control table,
 * then the held records as le16(len) || C_r in index order, each at most
 * DMD_PKT_MAX_RECORD bytes (the first longer one is -EMSGSIZE), and the
 * present tags, exactly @ctlen bytes in all. No key is used.
 */
int diamond_grid_parse(const struct diamond_tfm_ctx *ctx, u8 *aad,
		       unsigned int aadlen, u8 *ct, unsigned int ctlen,
		       struct diamond_grid_req *g)
{
	unsigned int pos = 0, r, t, len;
	int err;

	err = grid_table_parse(ctx, aad, aadlen, g);
	if (err)
		return err;
	g->table = aad;
	memset(g->rec, 0, sizeof(g->rec));
	memset(g->len, 0, sizeof(g->len));
	memset(g->tag, 0, sizeof(g->tag));
	if (!g->tags)
		return grid_give_up_only(g, ct, ctlen);
	for (r = 0; r < DMD_GRID_UNIT; r++) {
		if (!(g->held & BIT(r)))
			continue;
		if (ctlen - pos < DMD_BODY_LEN_SIZE)
			return -EINVAL;
		len = get_unaligned_le16(ct + pos);
		pos += DMD_BODY_LEN_SIZE;
		if (len > DMD_PKT_MAX_RECORD)
			return -EMSGSIZE;
		if (len > ctlen - pos)
			return -EINVAL;
		g->rec[r] = ct + pos;
		g->len[r] = len;
		pos += len;
	}
	if (ctlen - pos != hweight8(g->tags) * DMD_PKT_TAG_SIZE)
		return -EINVAL;
	for (t = 0; t < DMD_GRID_TAGS; t++) {
		if (!(g->tags & BIT(t)))
			continue;
		g->tag[t] = ct + pos;
		pos += DMD_PKT_TAG_SIZE;
	}
	return 0;
}
