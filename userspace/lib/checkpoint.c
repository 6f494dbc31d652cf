// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Checkpoints of an open epoch's record chain (issue 23, item 1). The key
 * of group i's first slot, R_{e,i*g}, is i*g chain steps from R_{e,0}; a
 * forged unit at group i made the gateway walk all of them again, so 300
 * forged pairs at b = 65535, g = 1 cost seconds. The open epoch keeps
 * R_{e,k*s*g} for every k already walked past, s = max(1, 256 / g) groups
 * apart: a unit then starts at most (s - 1) * g <= 255 steps (0 for
 * g > 128) before its own records, whatever its group, and the whole
 * epoch is walked at most once. At most floor((b - 1) / 129) + 1 keys
 * (509, 17 KiB), charged to the epoch's buffer.
 *
 * A table is walked at most once, but a forger who names ever new epochs
 * makes ever new tables. So the walking a table does beyond its first
 * CKPT_SPAN steps is paid for, once per table, with one of the device's
 * credits (DLIB_WALK_CREDITS); a unit of the device that verifies gives
 * one back. Units opened in order walk nothing and never pay; a unit past
 * a long gap pays once; while forged units have used every credit, a unit
 * that would walk far into a table not paid for waits (dlib_ckpt_may())
 * until a unit of the device verifies.
 *
 * Forward security: every key here is a future key of the chain (at or
 * past the cursor); a cursor that moves erases those behind it
 * (dlib_ckpt_forget) and the epoch's end erases them all, as
 * kernel-api.rst argues for its precompute table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The walk a forged unit may cost beyond its own records (issue 23). */
#define CKPT_SPAN	256u

struct dlib_ckpt {
	struct dmd_receiver base;	/* open in the epoch: st.key E_{e+1} */
	uint32_t stride;		/* groups between checkpoints */
	uint32_t n;			/* checkpoints: group k * stride */
	uint8_t *have;
	uint8_t (*key)[DMD_KEY_MAX];	/* R_{e, k * stride * g} */
	uint64_t walked;		/* steps all seeks of this table walked */
	uint8_t paid;			/* a credit paid for walking further */
};

static uint32_t last_group(const struct dmd_receiver *rx)
{
	return (rx->st.b - 1) / rx->g;
}

size_t dlib_ckpt_bytes(const struct dlib_ckpt *cp)
{
	return cp ? sizeof(*cp) + cp->n * (1 + sizeof(*cp->key)) : 0;
}

void dlib_ckpt_free(struct dlib_ckpt *cp)
{
	if (!cp)
		return;
	dlib_free_secret(cp->key, cp->n * sizeof(*cp->key));
	free(cp->have);
	dlib_free_secret(cp, sizeof(*cp));
}

/* Is @rx open in @epoch? */
static int open_in(const struct dmd_receiver *rx, uint64_t epoch)
{
	return rx->open && rx->st.epoch == epoch;
}

/* Erase checkpoint @k (it is behind the cursor, or the epoch ended). */
static void erase(struct dlib_ckpt *cp, uint32_t k)
{
	dmd_wipe(cp->key[k], sizeof(cp->key[k]));
	cp->have[k] = 0;
}

void dlib_ckpt_forget(struct dlib_ckpt *cp, const struct dmd_receiver *rx)
{
	uint64_t e = cp ? cp->base.st.epoch : 0;
	uint32_t k;

	for (k = 0; cp && k < cp->n; k++) {
		if (!cp->have[k])
			continue;
		/* Behind: an epoch the cursor left, or below its group. */
		if (rx->st.epoch > e ||
		    (open_in(rx, e) && k * cp->stride < rx->group))
			erase(cp, k);
	}
}

/* A table for @epoch, seeded from the cursor @rx (which is not past it). */
static int ckpt_new(struct dlib_ckpt **out, const struct dmd_receiver *rx,
		    uint64_t epoch, uint64_t *steps)
{
	struct dlib_ckpt *cp = calloc(1, sizeof(*cp));
	uint64_t from = rx->open ? rx->st.epoch + 1 : rx->st.epoch;
	int rc;

	if (!cp)
		return -ENOMEM;
	cp->stride = rx->g >= CKPT_SPAN ? 1 : CKPT_SPAN / rx->g;
	cp->n = last_group(rx) / cp->stride + 1;
	cp->have = calloc(cp->n, 1);
	cp->key = calloc(cp->n, sizeof(*cp->key));
	cp->base = *rx;
	rc = cp->have && cp->key ? 0 : -ENOMEM;
	if (!rc && !open_in(rx, epoch)) {
		rc = dlib_core_errno(dmd_receiver_seek(&cp->base, epoch, 0));
		*steps += epoch - from + 1;	/* epoch updates */
		if (!rc) {
			memcpy(cp->key[0], cp->base.r, sizeof(cp->key[0]));
			cp->have[0] = 1;
		}
	}
	if (rc) {
		dlib_ckpt_free(cp);
		return rc;
	}
	*out = cp;
	return 0;
}

/*
 * Where a walk to @group starts: the cursor's own key when it is open in
 * the epoch, or the highest checkpoint at or below @group and at or past
 * the cursor, whichever is nearer. Sets *@at to the start's group.
 */
static const uint8_t *start(const struct dlib_ckpt *cp,
			    const struct dmd_receiver *rx, uint32_t group,
			    uint32_t *at)
{
	uint32_t floor = open_in(rx, cp->base.st.epoch) ? rx->group : 0;
	uint32_t k = group / cp->stride;

	for (;; k--) {
		if (cp->have[k] && k * cp->stride >= floor) {
			*at = k * cp->stride;
			return cp->key[k];
		}
		if (!k || k * cp->stride <= floor)
			break;
	}
	*at = floor;
	return floor || open_in(rx, cp->base.st.epoch) ? rx->r : NULL;
}

/* The chain steps a seek to @group of @epoch would walk now. */
static uint64_t cost(const struct dlib_ckpt *cp, const struct dmd_receiver *rx,
		     uint64_t epoch, uint32_t group)
{
	uint64_t from = rx->open ? rx->st.epoch + 1 : rx->st.epoch;
	uint32_t at;

	if (cp) {
		if (!start(cp, rx, group, &at) || group < at)
			return 0;	/* the seek refuses it */
		return (uint64_t)(group - at) * rx->g;
	}
	if (open_in(rx, epoch))
		return group < rx->group ? 0 :
		       (uint64_t)(group - rx->group) * rx->g;
	return epoch - from + 1 + (uint64_t)group * rx->g;
}

int dlib_ckpt_may(const struct dlib_ckpt *cp, const struct dmd_receiver *rx,
		  uint64_t epoch, uint32_t group, uint32_t credit)
{
	if (rx->st.epoch > epoch || (cp && cp->paid) || credit)
		return 1;
	return (cp ? cp->walked : 0) + cost(cp, rx, epoch, group) <= CKPT_SPAN;
}

void dlib_ckpt_verified(uint32_t *credit)
{
	if (*credit < DLIB_WALK_CREDITS)
		(*credit)++;
}

int dlib_ckpt_seek(struct dlib_ckpt **cpp, const struct dmd_receiver *rx,
		   uint64_t epoch, uint32_t group, struct dmd_receiver *out,
		   uint64_t *steps, uint32_t *credit)
{
	struct dlib_ckpt *cp = *cpp;
	const uint8_t *key;
	uint64_t before = *steps;
	uint32_t at, next;
	int pay, rc;

	if (group > last_group(rx))
		return -EINVAL;
	if (rx->st.epoch > epoch || (open_in(rx, epoch) && group < rx->group))
		return -EKEYEXPIRED;
	pay = !(cp && cp->paid) &&
	      (cp ? cp->walked : 0) + cost(cp, rx, epoch, group) > CKPT_SPAN;
	if (pay && !*credit)
		return -EAGAIN;	/* dlib_ckpt_may() said so */
	if (!cp) {
		rc = ckpt_new(cpp, rx, epoch, steps);
		if (rc)
			return rc;
		cp = *cpp;
	}
	if (pay) {
		(*credit)--;
		cp->paid = 1;
	}
	key = start(cp, rx, group, &at);
	if (!key)
		return -EKEYEXPIRED;	/* erased: the cursor passed it */
	*out = cp->base;
	out->max_skip = rx->max_skip;
	memcpy(out->r, key, sizeof(out->r));
	out->group = at;
	/* Walk to @group, leaving a checkpoint at each stride boundary. */
	for (next = (at / cp->stride + 1) * cp->stride; ; next += cp->stride) {
		if (next > group)
			next = group;
		rc = dlib_core_errno(dmd_receiver_seek(out, epoch, next));
		if (rc) {
			dmd_wipe(out, sizeof(*out));
			return rc;
		}
		*steps += (uint64_t)(next - at) * rx->g;
		cp->walked += *steps - before;
		before = *steps;
		at = next;
		if (next % cp->stride == 0 && !cp->have[next / cp->stride]) {
			memcpy(cp->key[next / cp->stride], out->r,
			       sizeof(cp->key[0]));
			cp->have[next / cp->stride] = 1;
		}
		if (next == group)
			return 0;
	}
}
