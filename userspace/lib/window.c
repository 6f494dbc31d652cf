// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ingest window, the assembly stage: each device may have
 * DIAMOND_WINDOW_EPOCHS epochs open at once, so duplicated and reordered
 * frames, the records of the next epoch arriving before this one's tag,
 * and a tag frame arriving before its records all assemble. Each frame
 * touches only its own (device, epoch).
 *
 * This stage files frames and says which open epoch has to go (a full
 * window, or over max_buffer); it decides nothing itself: the caller
 * (receive.c) hands what has to go to decide.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int grp_screen(const struct dlib_dev *d,
		      const struct diamond_frame *f)
{
	if (f->type == DIAMOND_FRAME_GROUP &&
	    (!d->rx || f->index >= dlib_max_units(d) - 1))
		return -EINVAL;
	if (!d->rx)
		return 0;
	if (f->type == DIAMOND_FRAME_RECORD)
		return dlib_cur_behind(d, f->epoch, f->index / d->g) ?
		       -EKEYEXPIRED : 0;
	if (f->type == DIAMOND_FRAME_TAG)
		return dlib_cur_behind(d, f->epoch,
				     dlib_nonfinal(f->index, d->st.b, d->g)) ?
		       -EKEYEXPIRED : 0;
	return dlib_cur_behind(d, f->epoch, f->index) ? -EKEYEXPIRED : 0;
}

/*
 * 0, or why @f can never be part of a verifiable epoch of @d (the frame is
 * counted as dropped; decide.c reports it), in the order of spec 8.1 and
 * 9.2: the suite, the coordinates (step 2), then the epoch against the
 * cursor's (step 3; a grouped device's is its open epoch).
 */
int dlib_win_screen(struct diamond_gw *gw, struct dlib_dev *d,
		    const struct diamond_frame *f)
{
	const struct dmd_state *st = d->rx ? &d->rx->st : &d->st;
	int rc = f->suite != d->st.suite ? -EPROTO : 0;

	if (!rc && f->type == DIAMOND_FRAME_RECORD && f->index >= d->st.b)
		rc = -EINVAL;
	if (!rc && f->type == DIAMOND_FRAME_TAG && f->index > d->st.b)
		rc = -EINVAL;
	/* A group's coordinates; a group the cursor passed (step 3a). */
	if (!rc)
		rc = grp_screen(d, f);
	if (!rc)
		rc = dlib_check_epoch(st, f->epoch, gw->max_skip);
	/* Spec section 2: generation G's epochs start at G * 2^32. */
	if (rc == -EKEYEXPIRED && f->epoch >> DMD_GEN_SHIFT < d->st.gen)
		rc = -DIAMOND_EOLDGEN;
	if (rc)
		dlib_drop_frames(gw, d, 1);
	return rc;
}

/*
 * The open epoch of @d for @f, opened if need be: 0 and *@out, or -ENOMEM.
 * A full window gives up its oldest epoch unless @f is older still (then
 * @f is the straggler: -ENOBUFS); which one goes is the caller's to
 * decide: -ENOSPC and *@out the oldest.
 */
int dlib_win_open(struct diamond_gw *gw, struct dlib_dev *d,
		  const struct diamond_frame *f, struct dlib_ep **out)
{
	struct dlib_ep *ep, *oldest = NULL;
	unsigned int i, slot = DIAMOND_WINDOW_EPOCHS;

	*out = dlib_ep_find(d, f->epoch);
	if (*out)
		return 0;
	for (i = 0; i < DIAMOND_WINDOW_EPOCHS; i++) {
		if (!d->win[i])
			slot = i;
		else if (!oldest || d->win[i]->epoch < oldest->epoch)
			oldest = d->win[i];
	}
	if (slot == DIAMOND_WINDOW_EPOCHS) {
		*out = oldest;
		return f->epoch < oldest->epoch ? -ENOBUFS : -ENOSPC;
	}
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -ENOMEM;
	ep->asm_ = diamond_asm_new(gw->max_body);
	if (!ep->asm_) {
		free(ep);
		return -ENOMEM;
	}
	ep->dev = d;
	ep->epoch = f->epoch;
	ep->suite = f->suite;
	d->win[slot] = ep;
	gw->stats.open_epochs++;
	dlib_ep_touch(gw, ep);
	dlib_ep_charge(gw, ep);
	*out = ep;
	return 0;
}

/* Over max_buffer: the open epoch to evict (the cold end), or NULL. */
struct dlib_ep *dlib_win_victim(const struct diamond_gw *gw)
{
	return gw->stats.buffered > gw->max_buffer ? gw->ep_tail : NULL;
}

/* The highest count a held tag copy names. */
static uint16_t top_count(const struct dlib_tags *t)
{
	uint16_t n = 0;
	unsigned int c;

	for (c = 0; c < t->have; c++)
		if (t->n[c] > n)
			n = t->n[c];
	return n;
}

static int add_record(struct diamond_gw *gw, struct dlib_ep *ep,
		      const struct diamond_frame *f)
{
	uint64_t dropped;

	if (ep->tag.have && f->index >= top_count(&ep->tag)) {
		/* Past the count a tag copy names. */
		dlib_drop_frames(gw, ep->dev, 1);
		return 1;
	}
	return diamond_asm_record(ep->asm_, f, &dropped);
}

static int hold_tag(struct diamond_gw *gw, struct dlib_ep *ep,
		    const struct diamond_frame *f)
{
	int rc = dlib_tags_hold(&ep->tag, f);

	if (rc == 1)	/* a repeat, or a copy past the bound */
		dlib_drop_frames(gw, ep->dev, 1);
	return rc;
}

/*
 * File @f in @ep: 0 taken, 1 dropped (a repeat, a copy past the bound,
 * past the tag's count), -EMSGSIZE (@ep can never verify), or -ENOMEM.
 */
int dlib_win_take(struct diamond_gw *gw, struct dlib_ep *ep,
		  const struct diamond_frame *f)
{
	int rc;

	if (f->type == DIAMOND_FRAME_RECORD)
		rc = add_record(gw, ep, f);
	else if (f->type == DIAMOND_FRAME_TAG)
		rc = hold_tag(gw, ep, f);
	else
		rc = dlib_gtag_hold(gw, ep, f);
	if (rc)
		return rc;
	ep->frames++;
	dlib_ep_touch(gw, ep);
	dlib_ep_charge(gw, ep);
	if (ep->dev->rx)
		dlib_gtag_touch(ep, f);
	return 0;
}
