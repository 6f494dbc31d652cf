// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ingest window: each device may have DIAMOND_WINDOW_EPOCHS epochs
 * open at once, so duplicated and reordered frames, the records of the
 * next epoch arriving before this one's tag, and a tag frame arriving
 * before its records all assemble. Each frame touches only its own
 * (device, epoch): a late copy of an already verified epoch's frame is
 * dropped against the device's state and never disturbs the epoch being
 * assembled.
 *
 * An epoch is verified as soon as it holds its tag and every record below
 * the tag's count. Once it verifies, the device's older open epochs can
 * never verify (the state moved past them) and are rejected as incomplete.
 *
 * Memory: each open epoch is charged what it holds (assembler, held tag)
 * against the gateway's max_buffer; over it, the least recently fed open
 * epoch of any device is rejected ("evicted"), so neither one device nor
 * many can make the gateway grow without bound.
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

static void lru_touch(struct diamond_gw *gw, struct dlib_ep *ep)
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

static void charge(struct diamond_gw *gw, struct dlib_ep *ep)
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

void dlib_drop_frames(struct diamond_gw *gw, struct dlib_dev *d,
			  uint32_t n)
{
	gw->stats.frames_dropped += n;
	if (d)
		d->stats.frames_dropped += n;
}

/* Report, quarantine and free an open epoch that will never verify. */
void dlib_ep_reject(struct diamond_gw *gw, struct dlib_ep *ep, int err)
{
	if (err == -ENOBUFS)
		dlib_drop_frames(gw, ep->dev, ep->frames);
	if (err == -ENOMSG && ep->bad)	/* complete, but no copy verified */
		err = ep->bad;
	dlib_gw_event(gw, DIAMOND_EV_REJECTED, err, ep->dev->id, ep->epoch,
			  ep->tag.have ? ep->tag.n[0] : 0);
	dlib_quarantine(gw, ep, err);
	dlib_ep_free(gw, ep);
}

struct dlib_ep *dlib_ep_find(struct dlib_dev *d, uint64_t epoch)
{
	unsigned int i;

	for (i = 0; i < DIAMOND_WINDOW_EPOCHS; i++)
		if (d->win[i] && d->win[i]->epoch == epoch)
			return d->win[i];
	return NULL;
}

/*
 * A new open epoch for @f. A full window gives up its oldest epoch, unless
 * @f is older still (then @f is the straggler): -ENOBUFS. A grouped device
 * first opens every complete unit it holds (@tried: it did).
 */
static int ep_new(struct diamond_gw *gw, struct dlib_dev *d,
		  const struct diamond_frame *f, struct dlib_ep **out,
		  int tried)
{
	struct dlib_ep *ep, *oldest = NULL;
	unsigned int i, slot = DIAMOND_WINDOW_EPOCHS;
	int rc;

	for (i = 0; i < DIAMOND_WINDOW_EPOCHS; i++) {
		if (!d->win[i])
			slot = i;
		else if (!oldest || d->win[i]->epoch < oldest->epoch)
			oldest = d->win[i];
	}
	if (slot == DIAMOND_WINDOW_EPOCHS && d->rx && !tried) {
		/* A grouped device opens what it holds before it evicts. */
		rc = dlib_grp_progress(gw, d, 1);
		return rc ? rc : ep_new(gw, d, f, out, 1);
	}
	if (slot == DIAMOND_WINDOW_EPOCHS) {
		if (f->epoch < oldest->epoch)
			return -ENOBUFS;
		dlib_ep_reject(gw, oldest, -ENOBUFS);
		return ep_new(gw, d, f, out, tried);
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
	lru_touch(gw, ep);
	charge(gw, ep);
	*out = ep;
	return 0;
}

/* Over max_buffer: evict from the cold end. 1 if @keep went too. */
static int enforce_budget(struct diamond_gw *gw, struct dlib_ep *keep)
{
	struct dlib_ep *v;

	while (gw->stats.buffered > gw->max_buffer && gw->ep_tail) {
		v = gw->ep_tail;
		dlib_ep_reject(gw, v, -ENOBUFS);
		if (v == keep)
			return 1;
	}
	return 0;
}

void dlib_deliver(struct diamond_gw *gw, struct dlib_dev *d,
		      const struct diamond_epoch_body *b, const uint8_t *pt,
		      uint32_t first, uint32_t group)
{
	struct diamond_record r = {
		.device_id = b->device_id, .epoch = b->epoch,
		.ad = b->ad, .adlen = b->adlen, .group = group,
	};
	size_t pos = 0;

	for (r.index = first; r.index < first + b->count; r.index++) {
		r.len = (size_t)pt[pos] | (size_t)pt[pos + 1] << 8;
		r.data = pt + pos + DMD_BODY_LEN_SIZE;
		if (gw->cbs.record_ad)
			gw->cbs.record_ad(gw->cbs.arg, &r);
		else if (gw->cbs.record)
			gw->cbs.record(gw->cbs.arg, r.device_id, r.epoch,
				       r.index, r.data, r.len);
		pos += DMD_BODY_LEN_SIZE + r.len;
	}
	gw->stats.records += b->count;
	d->stats.records += b->count;
}

/* Copy @c of the tag frame @ep holds. */
static void tag_frame(const struct dlib_ep *ep, unsigned int c,
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
static int try_tags(struct diamond_gw *gw, struct dlib_ep *ep,
		    struct diamond_frame *t, struct diamond_epoch_body *body)
{
	unsigned int c = ep->tag.have, each = c ? DLIB_TRIES / c : 0;
	int rc, last = -ENOMSG;

	while (c-- > 0) {
		tag_frame(ep, c, t);
		rc = try_tag(gw, ep, t, body, each);
		if (rc == -ENOMSG)
			continue;	/* this copy's records are not all here */
		last = rc;
		if (rc != -EBADMSG)
			break;	/* verified, or no other copy can help */
	}
	return last;
}

/*
 * A complete epoch: verify, make durable, deliver; then older ones go.
 * An epoch no copy opens stays while another copy of its tag may come
 * (spec 8.1): it is reported with why it failed once it goes.
 */
static int verify(struct diamond_gw *gw, struct dlib_ep *ep)
{
	struct dlib_dev *d = ep->dev;
	struct diamond_epoch_body body;
	struct diamond_frame t;
	uint64_t e = ep->epoch;
	unsigned int i;
	int rc;

	rc = try_tags(gw, ep, &t, &body);
	if (rc == -ENOMSG)
		return 0;	/* no tag copy's records all here yet */
	if (rc == -EBADMSG && ep->tag.have < DLIB_COPIES) {
		ep->bad = rc;
		return 0;
	}
	if (rc) {
		dlib_ep_reject(gw, ep, rc);
		return rc == -ENOMEM ? rc : 0;
	}
	memcpy(d->last_tag, t.payload + t.len - DIAMOND_TAG_SIZE,
	       DIAMOND_TAG_SIZE);
	dlib_deliver(gw, d, &body, gw->pt, 0, 0);
	dmd_wipe(gw->pt, body.ct_len - DIAMOND_TAG_SIZE);
	dlib_gw_event(gw, DIAMOND_EV_VERIFIED, 0, d->id, e, body.count);
	dlib_ep_free(gw, ep);
	for (i = 0; i < DIAMOND_WINDOW_EPOCHS; i++)
		if (d->win[i] && d->win[i]->epoch < e)
			dlib_ep_reject(gw, d->win[i], -ENOMSG);
	return 0;
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
	int rc;

	if (ep->tag.have && f->index >= top_count(&ep->tag)) {
		dlib_drop_frames(gw, ep->dev, 1);	/* past the tag's count */
		return 1;
	}
	rc = diamond_asm_record(ep->asm_, f, &dropped);
	if (rc == -EMSGSIZE)
		dlib_ep_reject(gw, ep, rc);
	return rc;
}

static int hold_tag(struct diamond_gw *gw, struct dlib_ep *ep,
		    const struct diamond_frame *f)
{
	int rc = dlib_tags_hold(&ep->tag, f);

	if (rc == 1)	/* a repeat, or a copy past the bound */
		dlib_drop_frames(gw, ep->dev, 1);
	return rc;
}

/* A copy of the tag frame of the epoch @d verified last. */
static int late_copy(const struct dlib_dev *d,
		     const struct diamond_frame *f)
{
	return f->type != DIAMOND_FRAME_RECORD && d->verified_once &&
	       f->epoch == d->stats.last_epoch &&
	       !memcmp(f->payload + f->len - DIAMOND_TAG_SIZE, d->last_tag,
		       DIAMOND_TAG_SIZE);
}

/*
 * Frames that can never be part of a verifiable epoch of @d, in the order
 * of spec 8.1 and 9.2: the suite, the coordinates (step 2), then the epoch
 * against the cursor's (step 3; a grouped device's is its open epoch).
 */
static int screen(struct diamond_gw *gw, struct dlib_dev *d,
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
		rc = dlib_grp_screen(d, f);
	if (!rc)
		rc = dlib_check_epoch(st, f->epoch, gw->max_skip);
	/* Spec section 2: generation G's epochs start at G * 2^32. */
	if (rc == -EKEYEXPIRED && f->epoch >> DMD_GEN_SHIFT < d->st.gen)
		rc = -DIAMOND_EOLDGEN;
	if (!rc)
		return 0;
	dlib_drop_frames(gw, d, 1);
	/*
	 * A tag names its epoch's (or group's) fate; a replayed spool and a
	 * network duplicate of the last verified tag stay quiet.
	 */
	if (f->type == DIAMOND_FRAME_RECORD || gw->replaying || late_copy(d, f))
		return rc;
	if (f->type == DIAMOND_FRAME_GROUP) {
		if (rc == -EKEYEXPIRED)
			dlib_grp_stale(gw, d, f);
	} else {
		dlib_gw_event(gw, DIAMOND_EV_REJECTED, rc, d->id, f->epoch,
				  f->index);
	}
	return rc;
}

int dlib_win_frame(struct diamond_gw *gw, const struct diamond_frame *f)
{
	struct dlib_dev *d;
	struct dlib_ep *ep;
	int rc;

	rc = dlib_gw_get_dev(gw, f->device_id, &d);
	if (rc) {
		dlib_drop_frames(gw, NULL, 1);
		/* Unknown devices hold nothing: their tag frame reports them. */
		if (f->type == DIAMOND_FRAME_TAG && !gw->replaying)
			dlib_gw_event(gw, DIAMOND_EV_REJECTED, rc,
					  f->device_id, f->epoch, f->index);
		gw->detail[0] = 0;
		return rc == -ENOMEM ? rc : 0;
	}
	d->stats.bytes += DIAMOND_FRAME_HDR + (size_t)f->len;
	if (screen(gw, d, f))
		return 0;
	ep = dlib_ep_find(d, f->epoch);
	if (!ep) {
		rc = ep_new(gw, d, f, &ep, 0);
		if (rc == -ENOBUFS)
			dlib_drop_frames(gw, d, 1);
		if (rc)
			return rc == -ENOMEM ? rc : 0;
	}
	if (f->type == DIAMOND_FRAME_RECORD)
		rc = add_record(gw, ep, f);
	else if (f->type == DIAMOND_FRAME_TAG)
		rc = hold_tag(gw, ep, f);
	else
		rc = dlib_grp_frame(gw, ep, f);
	if (rc)		/* dropped (1), rejected (-EMSGSIZE) or -ENOMEM */
		return rc == -ENOMEM ? rc : 0;
	ep->frames++;
	if (!gw->replaying)
		dlib_spool_append(gw, f);
	lru_touch(gw, ep);
	charge(gw, ep);
	if (enforce_budget(gw, ep))
		return 0;
	if (d->rx) {
		dlib_grp_touch(ep, f);
		return dlib_grp_progress(gw, d, 0);
	}
	if (ep->tag.have)
		return verify(gw, ep);
	return 0;
}

void dlib_win_close_all(struct diamond_gw *gw, int report)
{
	while (gw->ep_tail) {
		if (report)
			dlib_ep_reject(gw, gw->ep_tail, -ENOMSG);
		else
			dlib_ep_free(gw, gw->ep_tail);
	}
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
		tag_frame(ep, c, &t);
		rc = emit(arg, &t);
	}
	return rc;
}
