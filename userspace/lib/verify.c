// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Verification, the stage between assembly and the decision: a complete
 * epoch (no groups) or unit (groups) is put together from the held copies
 * of its frames and opened with the backend, at most DLIB_TRIES ways
 * (spec 8.1). It returns what the cryptography said and the plaintext in
 * gw->pt; what becomes of the epoch or unit is decide.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int dlib_grow_pt(struct diamond_gw *gw, size_t need)
{
	uint8_t *np;

	if (need <= gw->pt_cap)
		return 0;
	np = malloc(need);
	if (!np)
		return -ENOMEM;
	dlib_free_secret(gw->pt, gw->pt_cap);
	gw->pt = np;
	gw->pt_cap = need;
	return 0;
}

/*
 * Open the epoch with tag copy @t and each way the held record copies go
 * together, at most @tries verifications (spec 8.1); the last failure if
 * none verifies.
 */
static int try_tag(struct diamond_gw *gw, struct dlib_ep *ep,
		   const struct diamond_frame *t,
		   struct diamond_epoch_body *body, unsigned int tries)
{
	unsigned int pick, n = dlib_asm_picks(ep->asm_, 0, t->index);
	int rc = -ENOMSG;

	if (!dlib_asm_complete(ep->asm_, t->index))
		return rc;	/* records missing, or past its count */
	for (pick = 0; pick < n && pick < tries; pick++) {
		rc = dlib_asm_assemble(ep->asm_, t, pick, &gw->body,
				       &gw->body_cap, body);
		if (!rc)
			rc = dlib_grow_pt(gw, body->ct_len - DIAMOND_TAG_SIZE);
		if (!rc)
			rc = diamond_gw_open_epoch(gw, body, gw->pt);
		if (rc != -EBADMSG)
			break;	/* verified, or no other copy can help */
	}
	return rc;
}

/*
 * Open the epoch with each held tag copy whose count its records
 * complete, the latest first, at most DLIB_TRIES verifications in all,
 * shared evenly; *@t: the copy that verified; else the last failure.
 */
int dlib_verify_epoch(struct diamond_gw *gw, struct dlib_ep *ep,
		      struct diamond_frame *t, struct diamond_epoch_body *body)
{
	unsigned int c = ep->tag.have, each = c ? DLIB_TRIES / c : 0;
	int rc, last = -ENOMSG;

	while (c-- > 0) {
		dlib_ep_tag_copy(ep, c, t);
		rc = try_tag(gw, ep, t, body, each);
		if (rc == -ENOMSG)
			continue;	/* this copy's records are not here */
		last = rc;
		if (rc != -EBADMSG)
			break;	/* verified, or no other copy can help */
	}
	return last;
}

/* Open unit @u as the pick @pick of its record copies puts it together. */
static int try_pick(struct diamond_gw *gw, struct dlib_dev *d,
		    struct dlib_ep *ep, const struct dlib_unit *u,
		    unsigned int pick,
		    struct diamond_epoch_body *body, struct dmd_receiver *next)
{
	int rc, had;

	rc = dlib_asm_range(ep->asm_, u->first, u->count, pick, u->tag,
			    u->taglen, &gw->body, &gw->body_cap, body);
	if (!rc)
		rc = dlib_grow_pt(gw, body->ct_len - DIAMOND_TAG_SIZE + 1);
	body->epoch = ep->epoch;
	if (rc)
		return rc;
	had = d->tfm != NULL;
	if (!had)
		dlib_make_room(gw, d);
	rc = gw->be->open_unit(d, u->group, u->final ? u->n : 0, body, gw->pt,
			       next);
	dlib_track_tfm(gw, d, had);
	return rc;
}

/*
 * Open unit @u with each held copy of its tag frame (of the final group:
 * those naming u->n), the latest first, and each way its held record
 * copies go together, at most DLIB_TRIES verifications in all, shared
 * evenly (spec 8.1), each from the cursor @next was sought to; @next
 * moved past the unit and u->tag the copy that verified if one did.
 */
static int try_picks(struct diamond_gw *gw, struct dlib_dev *d,
		     struct dlib_ep *ep, struct dlib_unit *u,
		     struct diamond_epoch_body *body,
		     struct dmd_receiver *next)
{
	unsigned int c = u->tags->have, pick, each = c ? DLIB_TRIES / c : 0,
		     n = dlib_asm_picks(ep->asm_, u->first, u->count);
	struct dmd_receiver at = *next;
	int rc = -EBADMSG;

	while (c-- > 0 && rc == -EBADMSG) {
		if (u->final && u->tags->n[c] != u->n)
			continue;
		u->tag = u->tags->p[c];
		u->taglen = u->tags->len[c];
		for (pick = 0; pick < n && pick < each; pick++) {
			*next = at;
			rc = try_pick(gw, d, ep, u, pick, body, next);
			if (rc != -EBADMSG)
				break;	/* verified, or no copy can help */
		}
	}
	dmd_wipe(&at, sizeof(at));
	return rc;
}

/*
 * Verify unit @u of @ep: *@next, a copy of the device's cursor moved to
 * the unit from the epoch's nearest checkpoint, then past it if it
 * verified (0); the plaintext in gw->pt. The device's cursor is untouched.
 */
int dlib_verify_unit(struct diamond_gw *gw, struct dlib_dev *d,
		     struct dlib_ep *ep, struct dlib_unit *u,
		     struct diamond_epoch_body *body,
		     struct dmd_receiver *next)
{
	int rc;

	*next = *d->rx;
	/* In custody the module walks from its cursor: no keys here. */
	rc = d->w ? 0 :
	     dlib_ckpt_seek(&ep->ckpt, d->rx, ep->epoch, u->group, next,
			    &gw->chain_steps, &d->walk_credit);
	return rc ? rc : try_picks(gw, d, ep, u, body, next);
}
