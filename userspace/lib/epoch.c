// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * One open (device, epoch): its records (an assembler), the copies of its
 * tag frame, its group tags (gtags.c) and its checkpoints, and what it
 * costs against the gateway's max_buffer. Open epochs of all devices sit
 * on one LRU list (head = most recently fed), which the window evicts
 * from.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void lru_unlink(struct diamond_gw *gw, struct dlib_ep *ep)
{
	if (ep->prev)
		ep->prev->next = ep->next;
	else
		gw->ep_head = ep->next;
	if (ep->next)
		ep->next->prev = ep->prev;
	else
		gw->ep_tail = ep->prev;
	ep->prev = ep->next = NULL;
}

void dlib_ep_touch(struct diamond_gw *gw, struct dlib_ep *ep)
{
	if (gw->ep_head == ep)
		return;
	if (ep->prev || ep->next || gw->ep_tail == ep)
		lru_unlink(gw, ep);
	ep->next = gw->ep_head;
	if (gw->ep_head)
		gw->ep_head->prev = ep;
	gw->ep_head = ep;
	if (!gw->ep_tail)
		gw->ep_tail = ep;
}

void dlib_ep_charge(struct diamond_gw *gw, struct dlib_ep *ep)
{
	size_t now = sizeof(*ep) + dlib_asm_footprint(ep->asm_) +
		     dlib_tags_bytes(&ep->tag) + ep->gtag_bytes +
		     dlib_ckpt_bytes(ep->ckpt);

	gw->stats.buffered = gw->stats.buffered - ep->charge + now;
	ep->charge = now;
}

void dlib_ep_free(struct diamond_gw *gw, struct dlib_ep *ep)
{
	unsigned int i;

	for (i = 0; i < DIAMOND_WINDOW_EPOCHS; i++)
		if (ep->dev->win[i] == ep)
			ep->dev->win[i] = NULL;
	lru_unlink(gw, ep);
	gw->stats.buffered -= ep->charge;
	gw->stats.open_epochs--;
	diamond_asm_free(ep->asm_);
	dlib_tags_free(&ep->tag);
	dlib_ep_tags_free(ep);
	dlib_ckpt_free(ep->ckpt);
	free(ep);
}

struct dlib_ep *dlib_ep_find(struct dlib_dev *d, uint64_t epoch)
{
	unsigned int i;

	for (i = 0; i < DIAMOND_WINDOW_EPOCHS; i++)
		if (d->win[i] && d->win[i]->epoch == epoch)
			return d->win[i];
	return NULL;
}

/* Copy @c of the tag frame @ep holds. */
void dlib_ep_tag_copy(const struct dlib_ep *ep, unsigned int c,
		      struct diamond_frame *f)
{
	f->type = DIAMOND_FRAME_TAG;
	f->suite = ep->suite;
	f->device_id = ep->dev->id;
	f->epoch = ep->epoch;
	f->index = ep->tag.n[c];
	f->len = ep->tag.len[c];
	f->payload = ep->tag.p[c];
}

int dlib_ep_frames(const struct dlib_ep *ep,
		   int (*emit)(void *arg, const struct diamond_frame *f),
		   void *arg)
{
	struct diamond_frame t;
	int rc = dlib_asm_frames(ep->asm_, ep->dev->id, emit, arg);
	unsigned int c;

	if (!rc)
		rc = dlib_ep_tag_frames(ep, emit, arg);
	for (c = 0; !rc && c < ep->tag.have; c++) {
		dlib_ep_tag_copy(ep, c, &t);
		rc = emit(arg, &t);
	}
	return rc;
}
