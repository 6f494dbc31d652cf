// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The group receiver (spec section 9.1): a cursor over the groups of an
 * epoch. Each unit (a non-final group, or the final group that carries the
 * epoch's count) is verified on its own with the keys of its slots, in
 * scratch; only a match releases its plaintext and moves the cursor past
 * it, erasing the keys of every group passed. Groups behind the cursor have
 * no keys left, which is what refuses a late or replayed unit.
 */
#include <diamond/core.h>

#include <diamond/chain.h>
#include <diamond/tag.h>
#include <diamond/util.h>
#include "open.h"

struct unit {
	uint32_t group;	/* its group index */
	uint32_t first;	/* its first record */
	uint32_t count;	/* its records */
	uint32_t field;	/* index field of its trailer: GB_i or TB */
	uint8_t final;
};

struct rx_scratch {
	struct dmd_receiver next;	/* the cursor if the unit verifies */
	uint8_t hp[32];
	uint8_t sigma[DMD_TAG_SIZE];
	uint8_t tag[DMD_TAG_SIZE];
	struct dmd_agg agg;
	struct dmd_stream s;
};

int dmd_receiver_init(struct dmd_receiver *rx, const struct dmd_state *st,
		      uint32_t g, uint32_t max_skip)
{
	if (!rx || !st)
		return DMD_EINVAL;
	if (dmd_state_check(st) != DMD_OK)
		return DMD_EKEY;
	if (g < 1 || g > st->b)
		return DMD_EINVAL;
	dmd_wipe(rx, sizeof(*rx));
	rx->st = *st;
	rx->g = g;
	rx->max_skip = max_skip;
	return DMD_OK;
}

/* The non-final groups of an epoch of n records (spec section 5.1). */
static uint32_t nonfinal_groups(uint32_t n, uint32_t b, uint32_t g)
{
	return n < b ? n / g : (b - 1) / g;
}

/* @ct (at least a tag): exactly @count records as a body, then the tag. */
static int check_body(const uint8_t *ct, size_t ct_len, uint32_t count)
{
	size_t body_len = ct_len - DMD_TAG_SIZE;
	uint32_t have = 0;
	int rc;

	if (body_len) {
		rc = dmd_body_count(ct, body_len, count, &have);
		if (rc != DMD_OK)
			return rc;
	}
	return have == count ? DMD_OK : DMD_EFORMAT;
}

/* Steps 1 and 2 of spec section 9.1: is the unit at or past the cursor? */
static int check_position(const struct dmd_receiver *rx, uint64_t epoch,
			  uint32_t group)
{
	if (rx->open && epoch == rx->st.epoch && group < rx->group)
		return DMD_EEXPIRED;
	return dmd_check_epoch(rx->st.epoch, epoch, rx->max_skip);
}

/*
 * Move the candidate cursor @n to epoch @epoch: E_{epoch+1} into st.key and
 * R_{epoch,0} into r, skipping lost epochs. Open, st.key is already
 * E_{st.epoch+1}; closed, it is E_{st.epoch}.
 */
static void seek_epoch(struct dmd_receiver *n, uint64_t epoch)
{
	uint64_t e = n->open ? n->st.epoch + 1 : n->st.epoch;

	for (; e <= epoch; e++)
		dmd_epoch_update(n->st.suite, n->st.key, n->st.key, n->r);
	n->st.epoch = epoch;
	n->group = 0;
	n->open = 1;
}

/* Walk the record chain from the cursor's group to group @group. */
static void seek_group(struct dmd_receiver *n, uint32_t group)
{
	struct dmd_stream s;
	uint8_t hp[32];
	uint32_t j;

	for (j = n->group * n->g; j < group * n->g; j++) {
		dmd_slot_open(&s, n->st.suite, n->r, n->r, hp);
		dmd_stream_wipe(&s);
	}
	dmd_wipe(hp, sizeof(hp));
	n->group = group;
}

int dmd_receiver_seek(struct dmd_receiver *rx, uint64_t epoch,
		      uint32_t group)
{
	int rc;

	if (!rx)
		return DMD_EINVAL;
	if (group > nonfinal_groups(rx->st.b, rx->st.b, rx->g))
		return DMD_EINVAL;	/* past the last unit an epoch has */
	rc = check_position(rx, epoch, group);
	if (rc != DMD_OK)
		return rc;
	if (!(rx->open && epoch == rx->st.epoch))
		seek_epoch(rx, epoch);
	seek_group(rx, group);
	return DMD_OK;
}

/*
 * Pass 1 over the unit: keystream into @pt, the records' tags and the
 * trailer's into the aggregate. Leaves next.r at the slot after the unit
 * (a non-final group) or after the trailer (the final group).
 */
static void compute_tag(struct rx_scratch *x, const struct unit *u,
			uint64_t epoch, const uint8_t *ad, size_t adlen,
			const uint8_t *ct, uint8_t *pt)
{
	struct dmd_receiver *n = &x->next;
	uint8_t tkey[32];	/* the trailer's H || P (epoch or group) */
	size_t pos = 0, len;
	uint32_t j;

	if (!u->final)
		dmd_group_keys(n->st.suite, n->r, tkey);
	dmd_agg_init(&x->agg, n->st.agg);
	for (j = 0; j < u->count; j++) {
		len = (size_t)ct[pos] | (size_t)ct[pos + 1] << 8;
		pt[pos] = ct[pos];
		pt[pos + 1] = ct[pos + 1];
		pos += DMD_BODY_LEN_SIZE;
		dmd_slot_open(&x->s, n->st.suite, n->r, n->r, x->hp);
		dmd_stream_read(&x->s, pt + pos, len);
		dmd_uh_tag(n->st.suite, x->hp, ct + pos, len, epoch,
			   u->first + j, x->sigma);
		dmd_agg_add(&x->agg, x->sigma);
		pos += len;
	}
	if (u->final) {
		dmd_slot_open(&x->s, n->st.suite, n->r, n->r, tkey);
	}
	dmd_stream_wipe(&x->s);
	dmd_uh_tag(n->st.suite, tkey, ad, adlen, epoch, u->field, x->sigma);
	dmd_agg_final(&x->agg, x->sigma, x->tag);
	dmd_wipe(tkey, sizeof(tkey));
}

/* The cursor after the unit: past its group, or past the epoch. */
static void advance(struct dmd_receiver *n, const struct unit *u)
{
	if (!u->final) {
		n->group = u->group + 1;
		return;
	}
	dmd_wipe(n->r, sizeof(n->r));
	n->st.epoch++;
	n->group = 0;
	n->open = 0;
}

/* *rx = mask ? *n : *rx, without a branch on the verdict. */
static void commit(struct dmd_receiver *rx, const struct dmd_receiver *n,
		   uint8_t mask)
{
	uint8_t *d = (uint8_t *)rx;
	const uint8_t *s = (const uint8_t *)n;
	size_t i;

	for (i = 0; i < sizeof(*rx); i++)
		d[i] = (uint8_t)((s[i] & mask) | (d[i] & (uint8_t)~mask));
}

static int open_unit(struct dmd_receiver *rx, uint64_t epoch,
		     const struct unit *u, const uint8_t *ad, size_t adlen,
		     const uint8_t *ct, size_t ct_len, uint8_t *pt)
{
	struct rx_scratch x;
	size_t body_len = ct_len - DMD_TAG_SIZE;
	uint8_t mask;
	int rc;

	x.next = *rx;
	if (!(rx->open && epoch == rx->st.epoch))
		seek_epoch(&x.next, epoch);
	seek_group(&x.next, u->group);
	compute_tag(&x, u, epoch, ad, adlen, ct, pt);
	advance(&x.next, u);
	/* The verdict stays a mask until the return: no branch on it here. */
	mask = (uint8_t)(0 - dmd_ct_equal(x.tag, ct + body_len, DMD_TAG_SIZE));
	dmd_release(ct, body_len, pt, mask);
	commit(rx, &x.next, mask);
	rc = DMD_EBADMSG & ~(int)(int8_t)mask;
	dmd_wipe(&x, sizeof(x));
	dmd_wipe_stack();
	return rc;
}

/*
 * The checks of spec section 9.2 in its order: arguments, lengths, the
 * unit's coordinates (@coords: DMD_EFORMAT when they name no unit), then
 * the position, then the body.
 */
static int check_unit(const struct dmd_receiver *rx, uint64_t epoch,
		      const struct unit *u, int coords, const uint8_t *ad,
		      size_t adlen, const uint8_t *ct, size_t ct_len,
		      const uint8_t *pt)
{
	int rc;

	if (!ct || (!pt && ct_len > DMD_TAG_SIZE) || (!ad && adlen))
		return DMD_EINVAL;
	if (ct_len < DMD_TAG_SIZE)
		return DMD_EFORMAT;
	if (adlen > DMD_MAX_AD)
		return DMD_ESIZE;
	if (coords != DMD_OK)
		return coords;
	rc = check_position(rx, epoch, u->group);
	if (rc == DMD_OK)
		rc = check_body(ct, ct_len, u->count);
	return rc;
}

int dmd_receiver_group(struct dmd_receiver *rx, uint64_t epoch,
		       uint32_t group, const uint8_t *ad, size_t adlen,
		       const uint8_t *ct, size_t ct_len, uint8_t *pt)
{
	struct unit u;
	int rc;

	if (!rx)
		return DMD_EINVAL;
	/* A non-final group ends before the epoch can: (i + 1) g < b. */
	rc = group < nonfinal_groups(rx->st.b, rx->st.b, rx->g) ? DMD_OK :
	     DMD_EFORMAT;
	u.group = group;
	u.first = group * rx->g;
	u.count = rx->g;
	u.field = DMD_GROUP_FLAG | (u.first + rx->g);
	u.final = 0;
	rc = check_unit(rx, epoch, &u, rc, ad, adlen, ct, ct_len, pt);
	return rc ? rc : open_unit(rx, epoch, &u, ad, adlen, ct, ct_len, pt);
}

int dmd_receiver_close(struct dmd_receiver *rx, uint64_t epoch, uint32_t n,
		       const uint8_t *ad, size_t adlen, const uint8_t *ct,
		       size_t ct_len, uint8_t *pt)
{
	struct unit u;
	int rc;

	if (!rx)
		return DMD_EINVAL;
	rc = n >= 1 && n <= rx->st.b ? DMD_OK : DMD_EFORMAT;
	if (rc != DMD_OK)
		n = 1;	/* any unit: only the coordinate verdict is used */
	u.group = nonfinal_groups(n, rx->st.b, rx->g);
	u.first = u.group * rx->g;
	u.count = n - u.first;
	u.field = DMD_TRAILER_FLAG | n;
	u.final = 1;
	rc = check_unit(rx, epoch, &u, rc, ad, adlen, ct, ct_len, pt);
	return rc ? rc : open_unit(rx, epoch, &u, ad, adlen, ct, ct_len, pt);
}

void dmd_receiver_state(const struct dmd_receiver *rx, struct dmd_state *st)
{
	*st = rx->st;
	if (rx->open)
		st->epoch++;	/* st.key is E_{epoch+1} already */
}

void dmd_receiver_wipe(struct dmd_receiver *rx)
{
	if (rx)
		dmd_wipe(rx, sizeof(*rx));
}
